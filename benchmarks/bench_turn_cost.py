"""Benchmark: a turn costs what it writes (issue 40, items 1 and 2), on local xlsx books.

For Titania's generated world (benchmarks/titania_world.py) at 16 factions on 150 provinces, 32 on 300 and 64 on
600 (scales 1, 2 and 4), and for the Jade Rose demo game: the game is created, every faction's rows are typed
into its book (as a player saving the file), and one whole `turn` (stage.run_turn, in this process, imports
already done, no parsed book kept from before: a `turn` is a new process) is timed in CPU seconds
(time.process_time: the machine is shared, wall time is printed beside it) twice, from two copies of the same
game: with the pictures off and with them on. The cells written are those of the TabWrites the turn pushes
(a header, a row's cells, a column's updated cells); the books parsed and saved are counted (xlsx_files.tallied).

The floor, in the same run on the same books: every book of the game as the turn found it loaded with plain
openpyxl (`load_workbook`) and saved (`Workbook.save`) once, nothing else.

Goals: the CPU per cell written flat across the three Titania scales (no larger scale's figure more than FLAT over
the smallest scale's: the cliff is a cost per cell that grows; one that falls is printed, not judged), the turn
with the pictures off at most FLOOR_GOAL times its floor for every game, each book parsed once and saved once.
The pictures' ratio (with/without, goal PICTURES_GOAL) is printed, not judged here.

It takes minutes (about 6 CPU minutes, most of them the 64-faction game's creation, its floor and its two turns).
"""
from __future__ import annotations

import dataclasses
import functools
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCALES = (1, 2, 4)          # titania_world: 16 factions on 150 provinces, 32 on 300, 64 on 600
FLAT = 0.25                 # "flat": no larger scale's CPU per cell over the smallest scale's by more than 25 %
FLOOR_GOAL = 1.5            # the turn (pictures off) at most 1.5 x its floor
PICTURES_GOAL = 1.3         # the turn with pictures at most 1.3 x without (printed only)
SEED = "turn-cost"


@dataclass(frozen=True)
class Turn:
    """One timed `turn`."""

    cpu: float
    wall: float
    cells: int                  # cells in the TabWrites pushed
    books: int                  # books of the game
    parsed: int                 # book parses during the turn
    saved: int                  # book saves during the turn
    most_parsed: int            # the most parses of one book
    most_saved: int


@dataclass(frozen=True)
class Floor:
    """Loading and saving every book once with plain openpyxl."""

    load_cpu: float
    save_cpu: float
    wall: float
    megabytes: float            # the books' files

    @property
    def cpu(self) -> float:
        return self.load_cpu + self.save_cpu


@dataclass(frozen=True)
class Row:
    name: str
    off: Turn
    on: Turn
    floor: Floor

    @property
    def ratio(self) -> float:
        return self.off.cpu / self.floor.cpu

    @property
    def pictures(self) -> float:
        return self.on.cpu / self.off.cpu


def titania_game(folder: Path, scale: int) -> Any:
    """The generated Titania world at `scale` on xlsx, its rows typed into the books (pictures off)."""
    from benchmarks import titania_world
    from sheets_bridge.create import create_game
    from sheets_bridge.demo import DemoBooks
    from sheets_bridge.layouts import Layout

    folder.mkdir(parents=True, exist_ok=True)
    scenario = folder / "titania.toml"
    scenario.write_text(titania_world.scenario_toml(scale=scale), encoding="utf-8")
    gd = create_game(folder / "game", "titania", str(scenario), backend="xlsx", seed=SEED, pictures=False)
    books = DemoBooks(gd, Layout.load("titania"))
    for fid, tabs in titania_world.world(scale=scale).rows.items():
        books.replace(fid, {key: list(rows) for key, rows in tabs.items()})
    return gd


def jade_rose_game(folder: Path) -> Any:
    """The Jade Rose demo game on xlsx, its scripted players' first orders typed (pictures off)."""
    from engine.state import Envelope
    from sheets_bridge.create import create_game
    from sheets_bridge.demo import DemoBooks, demo_ruleset
    from sheets_bridge.layouts import Layout

    rs = demo_ruleset("jade_rose")
    players = rs.demo_players()
    assert players is not None
    gd = create_game(folder / "game", rs.name, players.scenario, backend="xlsx", seed=players.seed,
                     title="Демо-партия", pictures=False)
    books = DemoBooks(gd, Layout.load(rs.name))
    state = gd.latest_state()
    for faction in Envelope.of(state).factions:
        if faction.playing:
            books.replace(faction.id, players.orders(state, faction.id, books.read_all(faction.id)))
    return gd


@contextmanager
def _cells_counted() -> Iterator[list[int]]:
    """The cells of every TabWrite the xlsx backend writes within the block (one number in the list)."""
    from sheets_bridge.backends.xlsx.backend import XlsxBackend

    counted = [0]
    write_book = XlsxBackend.write_book

    def counting(self: XlsxBackend, book_id: str, tabs: list[Any]) -> None:
        for tab in tabs:
            counted[0] += len(tab.header or ()) + sum(len(row) for row in tab.rows or ())
            counted[0] += sum(len(cells) for cells in (tab.column_updates or {}).values())
        write_book(self, book_id, tabs)

    XlsxBackend.write_book = counting       # type: ignore[method-assign]
    try:
        yield counted
    finally:
        XlsxBackend.write_book = write_book  # type: ignore[method-assign]


def timed_turn(game: Path, pictures: bool) -> Turn:
    """One `turn` of the game in `game` (its pictures switched on or off first), timed and counted."""
    from sheets_bridge.backends.xlsx import files, password, tabs
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.stage import run_turn

    gd = GameDir(game)
    if gd.config.draw_pictures != pictures:
        gd.save_config(dataclasses.replace(gd.config, draw_pictures=pictures))
        gd = GameDir(game)
    books = len(gd.config.books)
    files.forget()                  # what a new process has not: parsed books, hashes, row heights
    password.forget()
    tabs.text_lines.cache_clear()
    with files.tallied() as tally, _cells_counted() as cells:
        cpu, wall = time.process_time(), time.perf_counter()
        run_turn(gd)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    files.forget()
    return Turn(cpu, wall, cells[0], books, sum(tally.parsed.values()), sum(tally.saved.values()),
                max(tally.parsed.values(), default=0), max(tally.saved.values(), default=0))


def floor(game: Path, scratch: Path) -> Floor:
    """Every book of the game loaded and saved once with plain openpyxl (saved into `scratch`)."""
    import warnings

    import openpyxl

    from sheets_bridge.gamedir import GameDir

    gd = GameDir(game)
    paths = [gd.path / book_id for book_id in gd.config.books.values()]
    scratch.mkdir(parents=True, exist_ok=True)
    load = save = 0.0
    wall = time.perf_counter()
    for n, path in enumerate(paths):
        start = time.process_time()
        with warnings.catch_warnings():     # an order tab's print area is a formula, which openpyxl drops
            warnings.simplefilter("ignore", UserWarning)
            wb = openpyxl.load_workbook(path)
        loaded = time.process_time()
        wb.save(scratch / f"{n}.xlsx")
        load, save = load + loaded - start, save + time.process_time() - loaded
    return Floor(load, save, time.perf_counter() - wall, sum(p.stat().st_size for p in paths) / 2 ** 20)


def _titania(folder: Path, scale: int) -> Any:
    return titania_game(folder, scale)


def measure(name: str, make: Callable[[Path], Any], tmp: Path) -> Row:
    """The game made in `tmp/base`, its floor, its turn with the pictures off and on (each on a copy)."""
    base = make(tmp / "base")
    for copy in ("off", "on"):
        shutil.copytree(base.path, tmp / copy)
    low = floor(base.path, tmp / "floor")
    off = timed_turn(tmp / "off", pictures=False)
    on = timed_turn(tmp / "on", pictures=True)
    return Row(name, off, on, low)


def _line(row: Row) -> str:
    once = "once" if row.off.most_parsed <= 1 and row.off.most_saved <= 1 else \
        f"up to {row.off.most_parsed} parses, {row.off.most_saved} saves"
    return (f"  {row.name:<22} {row.off.books:>3} books {row.floor.megabytes:5.1f} MB {row.off.cells:>8} cells | "
            f"floor {row.floor.cpu:6.1f} s (load {row.floor.load_cpu:.1f} + save {row.floor.save_cpu:.1f}) | "
            f"turn off {row.off.cpu:6.1f} s (wall {row.off.wall:.1f}) = {row.ratio:4.2f} x floor, "
            f"{row.off.cpu / row.off.cells * 1e6:5.0f} us/cell | on {row.on.cpu:6.1f} s "
            f"= {row.pictures:4.2f} x off, {row.on.cpu / row.on.cells * 1e6:5.0f} us/cell | "
            f"{row.off.parsed} parses, {row.off.saved} saves: {once}")


def main(scales: tuple[int, ...] = SCALES) -> dict[str, Row]:
    from benchmarks import titania_world

    rows: dict[str, Row] = {}
    print("  CPU seconds (time.process_time); floor = plain openpyxl load_workbook + save of every book once")
    with tempfile.TemporaryDirectory(prefix="forumwar-turn-cost-") as tmp:
        rows["jade_rose"] = measure("jade rose demo", jade_rose_game, Path(tmp) / "jade_rose")
        print(_line(rows["jade_rose"]))
        for scale in scales:
            name = f"titania {titania_world.FACTIONS * scale}/{WIDTH_HEIGHT * scale}"
            rows[f"titania-{scale}"] = measure(name, functools.partial(_titania, scale=scale),
                                               Path(tmp) / f"titania-{scale}")
            print(_line(rows[f"titania-{scale}"]))
            shutil.rmtree(Path(tmp) / f"titania-{scale}", ignore_errors=True)
    titania = [rows[f"titania-{s}"] for s in scales]
    picks: tuple[tuple[str, Callable[[Row], Turn]], ...] = (("pictures off", lambda r: r.off),
                                                            ("pictures on", lambda r: r.on))
    for label, pick in picks:
        per_cell = [pick(r).cpu / pick(r).cells for r in titania]
        rise = max(p / per_cell[0] - 1 for p in per_cell)
        print(f"  CPU per cell, {label}: " + ", ".join(f"{p * 1e6:.0f} us" for p in per_cell)
              + f" -> at most {rise:+.0%} over the smallest scale's (goal at most +{FLAT:.0%}): "
              + ("FLAT" if rise <= FLAT else "NOT FLAT"))
    worst = max(rows.values(), key=lambda r: r.ratio)
    print(f"  turn (pictures off) vs floor: worst {worst.ratio:.2f} x ({worst.name}; goal <= {FLOOR_GOAL} x) -> "
          + ("OK" if worst.ratio <= FLOOR_GOAL else "SLOW"))
    once = all(r.off.most_parsed <= 1 and r.off.most_saved <= 1 and r.on.most_parsed <= 1 and r.on.most_saved <= 1
               for r in rows.values())
    print(f"  each book parsed once and saved once per turn: {'OK' if once else 'NO'}")
    print(f"  pictures on vs off (goal <= {PICTURES_GOAL:.1f} x, another item's): "
          + ", ".join(f"{r.name} {r.pictures:.2f} x" for r in rows.values()))
    return rows


WIDTH_HEIGHT = 150          # provinces of titania_world at scale 1


if __name__ == "__main__":
    main()
