"""Benchmark: what the pictures cost a `forumwar turn` (issue 23 item 2; issue 40 item 3 at three scales).

The same `turn` is run with the pictures on (the default: the public map, every faction's map, the charts,
each in its book) and off (`[pictures] draw = false` in game.toml), each as the GM runs it, `forumwar turn
GAME` in a process of its own, on a fresh copy of the same game (the same scenario, seed and typed orders):

- Jade Rose, the demo: the first turn's orders stage (attacks declared) and its planning stage (battles
  fought; the turn's charts are drawn), the scripted demo players' orders, REPEATS runs each;
- Titania, the bench world on xlsx (benchmarks/titania_world) at three scales: 16 factions and 150
  provinces, 32 and 300, 64 and 600 (every faction book lists every province and every faction's map draws
  them all, so a turn's output grows as factions × provinces): its one stage, the runs TITANIA_RUNS says.
  Each world is made once without pictures and copied for both sides.

CPU time is user + system time of the `turn` process and of the workers it forks to draw (all of it: a
parallel drawing costs the same CPU, only sooner), the median of the runs; beside it the wall time and the
turn process's own CPU. The ratio on/off is the figure of the issues (goal: at most 1.3 at every scale).
Bytecode caches are used as on a GM's machine (PYTHONDONTWRITEBYTECODE is unset for the runs). Not a test:
nothing is asserted.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPEATS = 3
GOAL = 1.3
TITANIA_SCALES = (1, 2, 4)              # benchmarks/titania_world's scale: 16/150, 32/300, 64/600
TITANIA_RUNS = {1: 3, 2: 2, 4: 1}       # runs of each side (the largest world's turn takes minutes)
SEED = "pictures-bench"
# Runs one `forumwar turn` in this process and prints its own CPU and its waited-for children's (the drawing
# workers) as "self children" seconds; the GM's command is the same `main`. Without the POSIX `resource`
# module (Windows) the turn draws in its own process (sheets_bridge.pictures forks only where it can), so its
# own CPU time is all of it.
RUNNER = """
import sys, time
from sheets_bridge.cli import main
try:
    main(["turn", sys.argv[1]], standalone_mode=False)
finally:
    try:
        import resource
    except ImportError:
        print("CPU", time.process_time(), 0.0)
    else:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        print("CPU", me.ru_utime + me.ru_stime, kids.ru_utime + kids.ru_stime)
"""


@dataclass
class Run:
    cpu: float         # the turn process and its workers
    own: float         # the turn process alone
    wall: float


def _turn(game: Path) -> Run:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", RUNNER, str(game)], capture_output=True, text=True, env=env,
                          timeout=1800)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"turn failed: {done.stderr[-2000:]}")
    own, workers = (float(x) for x in
                    next(line for line in done.stdout.splitlines() if line.startswith("CPU ")).split()[1:3])
    return Run(own + workers, own, wall)


def _pictures_off(path: Path) -> None:
    config = path / "game.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n[pictures]\ndraw = false\n", encoding="utf-8")


def _make(folder: Path, build: Callable[[Path, bool], None]) -> dict[bool, Path]:
    """The game twice, identically but for the pictures: drawn since `new`, or never."""
    from sheets_bridge import pictures
    games = {}
    for draw in (True, False):
        path = folder / ("on" if draw else "off")
        real = pictures.publish
        if not draw:
            pictures.publish = lambda *args, **kwargs: None     # no picture at `new` either
        try:
            build(path, draw)
        finally:
            pictures.publish = real
        if not draw:
            _pictures_off(path)
        games[draw] = path
    return games


def _made_once(folder: Path, build: Callable[[Path, bool], None]) -> dict[bool, Path]:
    """The game made once without pictures (a big world takes minutes to make), then copied: the copy that
    draws is the same game with the switch on (its first turn draws every picture, as any turn does)."""
    from sheets_bridge import pictures
    off = folder / "off"
    real = pictures.publish
    pictures.publish = lambda *args, **kwargs: None
    try:
        build(off, False)
    finally:
        pictures.publish = real
    on = folder / "on"
    shutil.copytree(off, on)
    _pictures_off(off)
    return {True: on, False: off}


def _measure(games: dict[bool, Path], folder: Path, name: str, repeats: int = REPEATS) -> dict[bool, list[Run]]:
    runs: dict[bool, list[Run]] = {True: [], False: []}
    for i in range(repeats):
        for draw in (False, True):
            copy = folder / f"{name}-{'on' if draw else 'off'}-{i}"
            shutil.copytree(games[draw], copy)
            runs[draw].append(_turn(copy))
            if i == repeats - 1 and draw:
                games[draw] = copy                  # the last copy goes on to the next stage
            else:
                shutil.rmtree(copy)
    return runs


def _report(title: str, runs: dict[bool, list[Run]]) -> float:
    on, off = (statistics.median(r.cpu for r in runs[d]) for d in (True, False))
    own = statistics.median(r.own for r in runs[True])
    wall_on, wall_off = (statistics.median(r.wall for r in runs[d]) for d in (True, False))
    ratio = on / off
    verdict = "OK" if ratio <= GOAL else "OVER"
    print(f"  {title}: CPU on {on:.2f} s / off {off:.2f} s = {ratio:.2f} (goal ≤ {GOAL}) -> {verdict}; "
          f"the turn process alone {own:.2f} s, its drawing workers {on - own:.2f} s; "
          f"wall on {wall_on:.1f} s / off {wall_off:.1f} s")
    return ratio


def _demo_orders(path: Path) -> None:
    """The scripted demo players type the open stage's orders into their books."""
    from engine import find_ruleset
    from engine.state import Envelope
    from sheets_bridge.demo import DemoBooks
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.layouts import Layout
    gd = GameDir(path)
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    players = rs.demo_players()
    assert players is not None
    books = DemoBooks(gd, Layout.load(rs.name))
    for faction in Envelope.of(state).factions:
        if faction.playing:
            books.replace(faction.id, players.orders(state, faction.id, books.read_all(faction.id)))


def jade_rose(folder: Path) -> dict[str, float]:
    from sheets_bridge.create import create_game

    def build(path: Path, _draw: bool) -> None:
        create_game(path, "jade_rose", "demo", backend="xlsx", seed=SEED)
        _demo_orders(path)

    games = _make(folder, build)
    ratios = {"orders": _report("Jade Rose demo, turn 1 orders", _measure(games, folder, "jr-orders"))}
    for path in games.values():
        _demo_orders(path)
    ratios["planning"] = _report("Jade Rose demo, turn 1 planning (charts too)",
                                 _measure(games, folder, "jr-planning"))
    return ratios


def titania(folder: Path, scale: int = 1) -> float:
    from benchmarks import titania_world
    from sheets_bridge.create import create_game
    from sheets_bridge.demo import DemoBooks
    from sheets_bridge.layouts import Layout

    folder.mkdir(parents=True, exist_ok=True)
    scenario = folder / "titania-bench.toml"
    scenario.write_text(titania_world.scenario_toml(scale=scale), encoding="utf-8")
    world = titania_world.scenario(scale=scale)
    factions, provinces = len(world["factions"]), len(world["provinces"])
    typed = titania_world.world(scale=scale).rows

    def build(path: Path, _draw: bool) -> None:
        gd = create_game(path, "titania", str(scenario), backend="xlsx", seed=SEED)
        books = DemoBooks(gd, Layout.load("titania"))
        for fid, tabs in typed.items():
            books.replace(fid, {key: [tuple(row) for row in rows] for key, rows in tabs.items()})

    games = _made_once(folder, build)
    runs = TITANIA_RUNS.get(scale, 1)
    return _report(f"Titania bench world, {factions} factions and {provinces} provinces, one turn "
                   f"({runs} run{'s' if runs > 1 else ''} each)", _measure(games, folder, "ti", runs))


def main() -> dict[str, float]:
    print(f"pictures: `forumwar turn` with pictures on / off, median CPU of {REPEATS} runs each "
          f"(the turn and its drawing workers), {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="forumwar-pictures-bench-") as tmp:
        ratios = {f"jade_rose {k}": v for k, v in jade_rose(Path(tmp) / "jr").items()}
        for scale in TITANIA_SCALES:
            ratios[f"titania x{scale}"] = titania(Path(tmp) / f"ti{scale}", scale)
        worst = max(ratios.values())
        print(f"  pictures at every scale: worst ratio {worst:.2f} (goal ≤ {GOAL}) -> "
              f"{'OK' if worst <= GOAL else 'OVER'}")
    return ratios


if __name__ == "__main__":
    main()
