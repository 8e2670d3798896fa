"""Benchmark: what the order maps cost `forumwar check` (issue 41 §1: «check with maps at most 1.3× check without»).

The same `check` is run with the pictures on (the default: each faction's map with its orders, in its book) and off
(`[pictures] draw = false` in game.toml), each as the GM runs it, `forumwar check GAME` in a process of its own,
on the same game (the same scenario, seed and typed orders; check changes no state, so each run checks the
same rows):

- Jade Rose, the demo: the first turn's orders stage with the scripted demo players' orders;
- Titania, the bench world on xlsx (benchmarks/titania_world) at 16 factions and 150 provinces, its typed orders.

CPU time is user + system time of the `check` process (it draws in-process), the median of REPEATS runs; beside it
the wall time. The ratio on/off is the issue's figure (goal: at most 1.3). Not a test: nothing is asserted.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_pictures import GOAL, SEED, _demo_orders, _made_once, _make

REPEATS = 3
RUNNER = """
import sys, time
from sheets_bridge.cli import main
try:
    main(["check", sys.argv[1]], standalone_mode=False)
finally:
    print("CPU", time.process_time())
"""


def _check(game: Path) -> tuple[float, float]:
    """(CPU, wall) seconds of one `forumwar check` of `game`."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUNNER, str(game)], capture_output=True, text=True, env=env,
                          timeout=1800)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"check failed: {done.stderr[-2000:]}")
    cpu = float(next(line for line in done.stdout.splitlines() if line.startswith("CPU ")).split()[1])
    return cpu, wall


def _report(title: str, games: dict[bool, Path]) -> float:
    _check(games[True])                     # the first check of each side: bytecode caches, the books' first statuses
    _check(games[False])
    runs: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for _ in range(REPEATS):
        for draw in (False, True):
            runs[draw].append(_check(games[draw]))
    on, off = (statistics.median(r[0] for r in runs[d]) for d in (True, False))
    wall_on, wall_off = (statistics.median(r[1] for r in runs[d]) for d in (True, False))
    ratio = on / off
    print(f"  {title}: CPU on {on:.2f} s / off {off:.2f} s = {ratio:.2f} (goal ≤ {GOAL}) -> "
          f"{'OK' if ratio <= GOAL else 'OVER'}; wall on {wall_on:.1f} s / off {wall_off:.1f} s")
    return ratio


def jade_rose(folder: Path) -> float:
    from sheets_bridge.create import create_game

    def build(path: Path, _draw: bool) -> None:
        create_game(path, "jade_rose", "demo", backend="xlsx", seed=SEED)
        _demo_orders(path)

    return _report("Jade Rose demo, turn 1 orders", _make(folder, build))


def titania(folder: Path) -> float:
    from benchmarks import titania_world
    from sheets_bridge.create import create_game
    from sheets_bridge.demo import DemoBooks
    from sheets_bridge.layouts import Layout

    folder.mkdir(parents=True, exist_ok=True)
    scenario = folder / "titania-bench.toml"
    scenario.write_text(titania_world.scenario_toml(scale=1), encoding="utf-8")
    world = titania_world.scenario(scale=1)
    typed = titania_world.world(scale=1).rows

    def build(path: Path, _draw: bool) -> None:
        gd = create_game(path, "titania", str(scenario), backend="xlsx", seed=SEED)
        books = DemoBooks(gd, Layout.load("titania"))
        for fid, tabs in typed.items():
            books.replace(fid, {key: [tuple(row) for row in rows] for key, rows in tabs.items()})

    return _report(f"Titania bench world, {len(world['factions'])} factions and {len(world['provinces'])} "
                   "provinces, turn 1", _made_once(folder, build))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="forumwar-bench-check-maps-") as tmp:
        jade_rose(Path(tmp) / "jade_rose")
        titania(Path(tmp) / "titania")


if __name__ == "__main__":
    main()
