"""Benchmark: `forumwar turn` of a 16-faction Titania stage on the fake Google, as `make turn` runs it, with latency.

The generated game of benchmarks.titania_world (16 factions, 150 provinces, 300 armies, about a thousand
typed rows) is created once on the fake Google; the fake's state and the game folder are then copied for
each run, so every run closes the same stage from the same books. A run is what `forumwar turn GAME` (no
--yes: `make turn`) does: `run_turn` with the command's question about a stage nobody played (`cli.
_resolve_unplayed`; the stage is played, so it is never asked, but the stage is read as for it), lock and read
every order book, resolve, push every book, draw and send the pictures (the map of every faction and the
public one, the charts: pictures on, as in a real game), archive every book's export. The backend is a fresh
one as a new command opens it (its metadata from state/gsheets-meta.json, its own pacer on the real clock),
with Google's quota (60 reads and 60 writes a minute) enforced by the fake. After one warm-up run, the stage
is run RUNS times with no latency and RUNS times with LATENCY seconds on every request. Their difference, in
units of LATENCY, is what the network adds to a stage: requests sent one after another add a unit each,
requests sent together one. Goal: at most TARGET_UNITS units. The same difference is shown per phase (read,
resolve, push, pictures, export, the rest), each phase's best run of each kind kept (other work on the machine
only ever adds time), with the requests each phase sent.
"""
from __future__ import annotations

import collections
import contextlib
import io
import pickle
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import titania_world

GM = "gm@example.com"
BOT = "forumwar@sheets-bench.iam.gserviceaccount.com"
SEED = "sheets-bench"
LATENCY = 0.2
TARGET_UNITS = 8.0
RUNS = 3
_RLOCK, _LOCK = type(threading.RLock()), type(threading.Lock())


@dataclass
class Game:
    fake: Any
    gd: Any
    folder: str


PHASES = ("read", "resolve", "push", "pictures", "export", "rest")


@dataclass
class Timing:
    wall: float
    ops: collections.Counter[str]
    per_minute: int
    too_many: int
    books: int
    phases: dict[str, float] = field(default_factory=dict)           # phase -> seconds
    sent: dict[str, collections.Counter[str]] = field(default_factory=dict)   # phase -> requests by op


class _Pickler(pickle.Pickler):
    """The fake's state with its locks (new ones on loading), as the crash sweep keeps it."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, _RLOCK):
            return threading.RLock, ()
        if isinstance(obj, _LOCK):
            return threading.Lock, ()
        return NotImplemented


def _game(path: Path) -> Game:
    """The large game on a fake Google (no latency, no quota while it is made), every faction's rows typed."""
    from sheets_bridge.create import create_game
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.layouts import Layout
    from tests.fake_google import FakeGoogle, fake_backend, fake_client

    path.mkdir(parents=True)
    scenario = path / "titania-scale.toml"
    scenario.write_text(titania_world.scenario_toml(), encoding="utf-8")
    fake = FakeGoogle(quota_per_minute=None)
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})

    def factory(gd: GameDir) -> Any:
        return fake_backend(fake, BOT, gm_emails=[GM], folder_id=folder,
                            metadata_path=gd.state_dir / "gsheets-meta.json")

    gd = create_game(path / "game", "titania", str(scenario), backend="gsheets", seed=SEED,
                     backend_factory=factory)
    titles = {t.key: t.title for t in Layout.load("titania").order_tabs()}
    client = fake_client(fake, GM)
    for fid, tabs in titania_world.world().rows.items():
        book = client.open_by_key(gd.config.books[fid])
        for key, rows in tabs.items():
            values = [[int(v) if v.isdigit() else v for v in row] for row in rows]
            book.values_update(f"'{titles[key]}'!A2", params={"valueInputOption": "USER_ENTERED"},
                               body={"values": values})
    fake.calls.clear()
    fake.sent.clear()
    return Game(fake, gd, folder)


def _copy(game: Game, path: Path) -> Game:
    """The same game in another folder, on a copy of the fake's state."""
    from sheets_bridge.gamedir import GameDir
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(game.fake)
    shutil.copytree(game.gd.path, path)
    return Game(pickle.loads(buffer.getvalue()), GameDir(path), game.folder)


class _Marks:
    """When each phase of a turn began, on the fake's clock: the backend's pool calls and the turn's progress
    messages mark them (a turn's first `write_books` is its push, `sending_pictures` its pictures, the
    `each_book` after the push its exports)."""

    def __init__(self, clock: Callable[[], float]):
        self.clock = clock
        self.at: dict[str, float] = {}

    def mark(self, name: str) -> None:
        self.at.setdefault(name, self.clock())

    def progress(self, message: str) -> None:
        if message.startswith("рассчитываю этап"):
            self.mark("resolve")

    def watch(self, be: Any) -> None:
        """Wrap the backend's pool calls (instance attributes: the abilities stay as they are)."""
        write_books, each_book, sending = be.write_books, be.each_book, be.sending_pictures

        def pushed(*args: Any, **kwargs: Any) -> Any:
            self.mark("push")
            done = write_books(*args, **kwargs)
            self.mark("pushed")
            return done

        def each(*args: Any, **kwargs: Any) -> Any:
            if "push" not in self.at:
                return each_book(*args, **kwargs)
            self.mark("export")
            done = each_book(*args, **kwargs)
            self.mark("exported")
            return done

        @contextlib.contextmanager
        def pictures() -> Iterator[None]:
            self.mark("pictures")
            with sending():
                yield
            self.mark("pictures-sent")

        be.write_books, be.each_book, be.sending_pictures = pushed, each, pictures

    def phases(self, started: float, ended: float) -> dict[str, tuple[float, float]]:
        """Each phase's (start, end): one ends where the next begins (the pictures where the exports begin)."""
        at = self.at
        starts = [started, at["resolve"], at["push"], at.get("pictures", at["pushed"]), at.get("export", ended),
                  at.get("exported", ended), ended]
        return {name: (starts[n], max(starts[n], starts[n + 1])) for n, name in enumerate(PHASES)}


def _turn(game: Game, latency: float) -> Timing:
    """One `forumwar turn` as `make turn` runs it, through a backend opened as the command opens it,
    `latency` seconds on every request."""
    from sheets_bridge.backends.base import BookRef
    from sheets_bridge.backends.gsheets.game import METADATA_FILE, book_label
    from sheets_bridge.cli import _resolve_unplayed
    from sheets_bridge.stage import run_turn
    from tests.fake_google import fake_backend

    gd, fake = game.gd, game.fake
    books = [BookRef(key, book_id, book_label(gd.config, key)) for key, book_id in gd.config.books.items()]
    be = fake_backend(fake, BOT, gm_emails=gd.config.gm_emails, folder_id=game.folder, books=books,
                      real_time=True, metadata_path=gd.state_dir / METADATA_FILE)
    marks = _Marks(fake.clock)
    marks.watch(be)
    fake.quota_per_minute = (60, 60)
    fake.latency = latency
    started = fake.clock()
    run_turn(gd, be=be, progress=marks.progress, ask=_resolve_unplayed(str(gd.path)))
    ended = fake.clock()
    fake.latency = 0.0
    ops = collections.Counter(c.op for c in fake.calls if c.identity == BOT)
    phases = marks.phases(started, ended)
    sent = {name: collections.Counter(c.op for c in fake.calls if c.identity == BOT and start < c.at <= end)
            for name, (start, end) in phases.items()}
    return Timing(ended - started, ops, _max_per_minute(fake), fake.count(status=429), len(gd.config.books),
                  {name: end - start for name, (start, end) in phases.items()}, sent)


def _max_per_minute(fake: Any) -> int:
    """The most Sheets requests of the bridge answered in any 60-second window."""
    times = sorted(c.at for c in fake.calls if c.identity == BOT and c.op.startswith(("spreadsheets.", "values.")))
    return max((sum(1 for t in times if start <= t < start + 60) for start in times), default=0)


def main() -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="forumwar-sheets-bench-") as tmp:
        made = _game(Path(tmp) / "made")
        _turn(_copy(made, Path(tmp) / "warm-up"), 0.0)         # imports and first-time work, not timed
        runs: dict[float, list[Timing]] = {0.0: [], LATENCY: []}
        for n in range(RUNS):
            for latency in runs:
                runs[latency].append(_turn(_copy(made, Path(tmp) / f"run-{n}-{latency}"), latency))
    still = min(runs[0.0], key=lambda t: t.wall)
    slow = min(runs[LATENCY], key=lambda t: t.wall)
    units = (slow.wall - still.wall) / LATENCY
    factions = slow.books - 2
    print(f"sheets: one Titania `turn` of {factions} factions ({slow.books} books) on the fake Google, "
          f"as `make turn` runs it (pictures on); best of {RUNS} runs each")
    walls = {latency: ", ".join(f"{t.wall:.2f}" for t in timings) for latency, timings in runs.items()}
    print(f"  no latency: {still.wall:.2f} s (runs: {walls[0.0]}); {LATENCY * 1000:.0f} ms per request: "
          f"{slow.wall:.2f} s (runs: {walls[LATENCY]})")
    verdict = "OK" if units <= TARGET_UNITS else "SLOW"
    print(f"  the latency adds {slow.wall - still.wall:.2f} s = {units:.1f} latency units "
          f"(goal at most {TARGET_UNITS:.0f}) -> {verdict}")
    print("  per phase (best run of each kind): no latency / with latency = latency units; requests sent")
    for name in PHASES:
        fast = min(t.phases.get(name, 0.0) for t in runs[0.0])
        late = min(t.phases.get(name, 0.0) for t in runs[LATENCY])
        what = ", ".join(f"{op} {n}" for op, n in sorted(slow.sent.get(name, {}).items())) or "none"
        print(f"    {name:9} {fast:6.2f} s / {late:6.2f} s = {(late - fast) / LATENCY:5.1f}; {what}")
    print(f"  requests of the bridge: {sum(slow.ops.values())} = "
          + ", ".join(f"{op} {n}" for op, n in sorted(slow.ops.items())))
    print(f"  most Sheets requests in any minute: {slow.per_minute} (Google allows 60 reads + 60 writes); "
          f"429 answers: {slow.too_many}")
    return {"still": still.wall, "slow": slow.wall, "units": units}


if __name__ == "__main__":
    main()
