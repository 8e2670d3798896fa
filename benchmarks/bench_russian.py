"""Benchmark: what the Russian agreement of engine/russian.py costs (issue 38 §5: weigh pymorphy3's size and speed).

- installed size of pymorphy3, its dictionaries and DAWG2-Python (the files pip recorded);
- a fresh process: importing pymorphy3 and loading the dictionaries, and the memory that adds;
- per call: agreement and inflection of a word met for the first time (the dictionary is asked) and of a
  word met before (the cache answers), and a whole catalogue message rendered with its agreement marks.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from importlib import metadata

from engine import russian
from engine.errors import OrderError
from engine.jade_rose import economy_orders  # noqa: F401 - defines the Jade Rose codes in the catalogue

DISTS = ("pymorphy3", "pymorphy3-dicts-ru", "DAWG2-Python")
WORDS = ("юнит", "раб", "обида", "дорога", "ход", "раунд", "вечный слуга", "великая кузня", "армия", "провинция",
         "отряд", "фракция", "постройка", "город", "защитник", "атакующий")
NUMBERS = (1, 2, 5, 11, 21, 22)

_COLD = """
import json, resource, time
rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.perf_counter()
import pymorphy3, pymorphy3_dicts_ru
t1 = time.perf_counter()
morph = pymorphy3.MorphAnalyzer(path=pymorphy3_dicts_ru.get_path(), lang="ru")
t2 = time.perf_counter()
morph.parse("юнит")[0].make_agree_with_number(5)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "first": t3 - t2,
                  "rss_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024}))
"""


def _installed_mb() -> float:
    total = 0
    for name in DISTS:
        dist = metadata.distribution(name)
        for f in dist.files or ():
            path = dist.locate_file(f)
            try:
                total += path.stat().st_size    # type: ignore[union-attr]
            except OSError:
                pass
    return total / 1e6


def _per_call_us(fn: object, calls: list[tuple[object, ...]]) -> float:
    started = time.perf_counter()
    for args in calls:
        fn(*args)  # type: ignore[operator]
    return (time.perf_counter() - started) / len(calls) * 1e6


def _clear() -> None:
    russian._agreed.cache_clear()
    russian._inflected.cache_clear()


def main() -> None:
    print(f"   installed: {_installed_mb():.1f} MB ({', '.join(f'{d} {metadata.version(d)}' for d in DISTS)})")
    runs = [json.loads(subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True,
                                      check=True).stdout) for _ in range(3)]
    best = {k: min(r[k] for r in runs) for k in runs[0]}
    print(f"   fresh process (best of 3): import {best['import'] * 1e3:.0f} ms, dictionaries loaded "
          f"{best['load'] * 1e3:.0f} ms, first agreement {best['first'] * 1e3:.1f} ms, memory +{best['rss_mb']:.0f} MB")

    russian.agree(1, "юнит")                           # the analyzer of this process, loaded once
    agree_calls = [(n, w) for w in WORDS for n in NUMBERS]
    cold = []
    for _ in range(5):
        _clear()
        cold.append(_per_call_us(russian.agree, agree_calls))
    warm = _per_call_us(russian.agree, agree_calls * 50)
    print(f"   agree(n, phrase): {min(cold):.0f} µs uncached (the dictionary asked), {warm:.2f} µs cached "
          f"({len(agree_calls)} pairs)")
    inflect_calls = [(w, c) for w in WORDS for c in ("gent", "datv", "ablt", "loct")]
    cold = []
    for _ in range(5):
        _clear()
        cold.append(_per_call_us(russian.inflect, inflect_calls))
    warm = _per_call_us(russian.inflect, inflect_calls * 50)
    print(f"   inflect(phrase, case): {min(cold):.0f} µs uncached, {warm:.2f} µs cached")
    error = OrderError("JR_NOT_ENOUGH_BLOOD", {"unit": "Вампир", "need_each": 3, "slaves": 22, "cap": 7,
                                               "per_unit": 3, "used": 5, "left": 2})
    error.message()
    started = time.perf_counter()
    for _ in range(2000):
        error.message()
    print(f"   a catalogue message with four agreed numbers: {(time.perf_counter() - started) / 2000 * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
