"""The first odds on a cold machine: how long a new user waits for `forumwar battle` to say something about
the odds, when numba has never compiled the battle kernel there (DESIGN.md: «the first odds a new user
asks for appear within seconds (no waiting for a compiler)»).

Each case runs in a fresh process with an empty numba cache of its own (NUMBA_CACHE_DIR in a temporary
folder), on the packaged example battle (`forumwar battle --example`):
- before: what `battle` did until issue 38 §6, and what a plain `simulate()` still does: compile the kernel
  in the process (about 20 s of CPU), then play the runs; the first odds are the final ones;
- after: `forumwar battle --json` as a user runs it: the kernel compiles in a process of its own, the runs
  are played on the reference meanwhile; timed are the first estimate on stderr (with its margin) and the
  final JSON, which must be the warm run's byte for byte.
A preparation left running when the command has ended (all runs done on the reference first) is waited
for before the next case, so that no case shares the CPUs with the one before.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "templates" / "jade_rose" / "battles" / "example.json"
ESTIMATE = "первая оценка"


def _env(cache: str) -> dict[str, str]:
    return {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}


def _before(runs: int, cache: str) -> float:
    """Seconds to the first odds when the kernel compiles first, in the process (the old `battle`)."""
    code = ("import json, sys; from engine.jade_rose.battle import simulate; "
            "simulate(json.load(open(sys.argv[1], encoding='utf-8')), int(sys.argv[2]), 1)")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, str(EXAMPLE), str(runs)], env=_env(cache), check=True, cwd=ROOT)
    return time.perf_counter() - start


def _after(runs: int, cache: str) -> tuple[float | None, float, str, str]:
    """(seconds to the estimate line or None, seconds to the result, the estimate line, stdout)."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "sheets_bridge.cli", "battle", str(EXAMPLE), "--runs", str(runs),
                             "--json"], env=_env(cache), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, encoding="utf-8")
    seen: list[tuple[float, str]] = []

    def read_errors() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            seen.append((time.perf_counter() - start, line.strip()))

    reader = threading.Thread(target=read_errors)     # stderr here, stdout below: neither pipe fills up
    reader.start()
    assert proc.stdout is not None
    out = proc.stdout.read()
    proc.wait()
    total = time.perf_counter() - start
    reader.join()
    if proc.returncode:
        raise RuntimeError(f"battle failed: {seen}")
    first = next(((t, line) for t, line in seen if line.startswith(ESTIMATE)), (None, ""))
    return first[0], total, first[1], out


def _wait_for_preparation() -> None:
    """Until a detached preparation a case left has ended (it holds the lock while it works)."""
    from sheets_bridge.battle_warmup import preparing
    with preparing():
        pass


def main(runs_list: tuple[int, ...] = (1000, 10_000)) -> dict[str, float | None]:
    from engine.jade_rose.battle import simulate
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"first odds on a cold machine (empty numba cache), the example battle, {os.cpu_count()} CPU(s), "
          f"load average {load:.2f}")
    spec = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    figures: dict[str, float | None] = {}
    for runs in runs_list:
        if runs == runs_list[0]:        # the compile is the wait: once is enough
            with tempfile.TemporaryDirectory(prefix="forumwar-numba-") as cache:
                before = _before(runs, cache)
            figures[f"before_{runs}"] = before
            print(f"  before (compile, then play), {runs} runs: first odds after {before:.1f} s")
        with tempfile.TemporaryDirectory(prefix="forumwar-numba-") as cache:
            estimate, total, line, out = _after(runs, cache)
            _wait_for_preparation()
        same = json.loads(out) == simulate(spec, runs, 1)
        figures[f"estimate_{runs}"], figures[f"final_{runs}"] = estimate, total
        told = f"first estimate after {estimate:.1f} s" if estimate is not None else "no estimate (done first)"
        print(f"  after  (battle --json), {runs} runs: {told}, final odds after {total:.1f} s "
              f"({'the same' if same else 'NOT the same'} as a warm run's)")
        if line:
            print(f"    {line}")
    return figures


if __name__ == "__main__":
    main()
