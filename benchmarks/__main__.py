"""Run every benchmark: `python -m benchmarks`."""
import importlib
import sys

BENCHES = ("benchmarks.bench_battle", "benchmarks.bench_first_odds", "benchmarks.bench_sheets",
           "benchmarks.bench_stray_cell", "benchmarks.bench_russian",
           "benchmarks.bench_titania", "benchmarks.bench_titania_validation", "benchmarks.bench_pictures",
           "benchmarks.bench_check_maps", "benchmarks.bench_turn_cost")


def main() -> int:
    failed = 0
    for name in BENCHES:
        print(f"== {name}")
        try:
            importlib.import_module(name).main()
        except ModuleNotFoundError as exc:
            print(f"   skipped: {exc}")
        except Exception as exc:  # a broken benchmark must not hide the others
            print(f"   FAILED: {exc!r}")
            failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
