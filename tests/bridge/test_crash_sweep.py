"""Issue 8 item 2: a crash anywhere in `turn` is finished by the next `turn`, identically.
(One module: the sweep's harness — crash points, the two games, fingerprints — serves only this test.)

For both stages of a Jade Rose turn (orders with battles needing planning, then planning) and on
both backends, `turn` is crashed before every file write (open for writing, os.open for writing,
os.replace, os.rename) and, on Google Sheets, before every request; then `turn` is run again. Every
snapshot, the seeds and the chain, every book's cells, validations and protections, and the archive
must equal an uninterrupted run: 0 mismatches, 0 double resolutions.

A crash leaves the game folder as it is on disk just before the write, and the fake Google server's
state as it is just before the request (a real server outlives the crash). So the uninterrupted run,
a forked child, copies the folder and dumps the server at each crash point instead of dying there;
each copy is then run again as a crashed game, in a child forked from the test, which parses each
version of each book once beforehand (sheets_bridge/xlsx_files keeps a parse for the same bytes, as
tests/bridge/test_xlsx_files.py checks) and, on Google Sheets, holds the uninterrupted run's xlsx exports
of the books (the fake keeps an export for the same content only: tests/bridge/test_fake_google_shapes.py;
a rerun that leaves a book otherwise exports it afresh, and its archive differs). One crash per stage
is also real (os._exit before the write, in its own child), and what it leaves must equal that point's
copy, file for file.

Every crash point has a label: the operation and the game-folder path with digits folded and, for
the per-book files of books/ and archive/, only the folder and the extension (on Google: the HTTP
verb and the API method). A step is a label after the label before it. By default the sweep crashes
at the first occurrence of every step and at the last point — every distinct step of `turn` once (a
crash after the first book's push stands for one after the fifth) — which keeps the suite quick;
`FORUMWAR_FULL_TESTS=1` (`make test-full`) crashes before every single point.
"""
from __future__ import annotations

import builtins
import gc
import hashlib
import io
import json
import os
import pickle
import re
import shutil
import threading
import traceback
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from engine import find_ruleset
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.backends.xlsx.backend import BOOKS_DIR, XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.demo import DemoBooks
from sheets_bridge.gamedir import HOLDER_FILE, LOCK_FILE, GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import run_turn
from tests.fake_google import FakeGoogle, fake_backend, fake_client, xlsx_export
from tests.fake_google.adapter import FakeGoogleAdapter

SEED = "crash-sweep"
GM = "gm@example.com"
BOT = "forumwar@crash.iam.gserviceaccount.com"
CRASHED = 99
FIGURES: dict[str, dict[str, int]] = {}
_RLOCK = type(threading.RLock())
_LOCK = type(threading.Lock())
FULL_SWEEP = os.environ.get("FORUMWAR_FULL_TESTS") == "1"
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


# -- the fake Google server's state across processes ------------------------------------------
class _Pickler(pickle.Pickler):
    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, _RLOCK):
            return threading.RLock, ()
        if isinstance(obj, _LOCK):
            return threading.Lock, ()
        return NotImplemented


def dump_fake(fake: FakeGoogle) -> bytes:
    """The server's state (its books, files, permissions), without the record of calls."""
    calls, sent = list(fake.calls), list(fake.sent)
    fake.calls.clear()
    fake.sent.clear()
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(fake)
    fake.calls.extend(calls)
    fake.sent.extend(sent)
    return buffer.getvalue()


# -- crash points -----------------------------------------------------------------------------
class CrashPoints:
    """Counts every file write and Google request; before each one calls `at_point(n)`, and
    os._exit()s before the `crash_at`-th one."""

    def __init__(self, root: Path, crash_at: int | None, on_crash: Callable[[], None],
                 at_point: Callable[[int], None] = lambda _n: None):
        self.root = str(root.resolve())
        self.crash_at = crash_at
        self.on_crash = on_crash
        self.at_point = at_point
        self.count = 0
        self.labels: list[str] = []
        self.alone: list[bool] = []      # reached with no other thread running (not in a concurrent push)
        self._lock = threading.RLock()     # reentrant: a request's handling may write in the game folder
        self.real_open, self.real_io_open, self.real_os_open = builtins.open, io.open, os.open
        self.real_replace, self.real_rename = os.replace, os.rename
        self.real_send = FakeGoogleAdapter.send

    def inside(self, *paths: Any) -> bool:
        """Writes to the game's folder count; temporary files elsewhere leave nothing behind."""
        return any(isinstance(p, (str, os.PathLike)) and os.path.abspath(p).startswith(self.root)
                   for p in paths)

    def label(self, op: str, path: Any) -> str:
        """`op` and the path in the game folder, digits folded; in books/ and archive/ (one file per
        book or faction) only the folder and the extension count."""
        rel = re.sub(r"\d+", "N", os.path.relpath(os.path.abspath(path), self.root))
        folder, name = os.path.split(rel)
        if name.endswith(".tmp"):
            name = ".tmp"
        elif folder.split("/")[0] in ("books", "archive"):
            name = "*" + os.path.splitext(name)[1]
        return f"{op} {folder}/{name}"

    def reach(self, label: str, then: Callable[[], Any] | None = None) -> Any:
        """Count the point (snapshot it, crash there); then do `then` under the same lock, so that no
        other thread's snapshot sees a rename half done (a file listed, then gone) or the fake server
        in the middle of a request (Google applies a request whole)."""
        with self._lock:
            self.count += 1
            self.labels.append(label)
            self.alone.append(threading.active_count() == 1)
            self.at_point(self.count)
            if self.count == self.crash_at:
                self.on_crash()
                os._exit(CRASHED)
            return then() if then is not None else None

    def install(self) -> None:
        points = self

        def open_(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if any(ch in mode for ch in "wax+") and points.inside(file):
                points.reach(points.label("open", file))
            return points.real_io_open(file, mode, *args, **kwargs)

        def os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & WRITE_FLAGS and points.inside(path):
                points.reach(points.label("os.open", path))
            return points.real_os_open(path, flags, *args, **kwargs)

        def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            if points.inside(src, dst):
                points.reach(points.label("replace", dst), lambda: points.real_replace(src, dst, *args, **kwargs))
            else:
                points.real_replace(src, dst, *args, **kwargs)

        def rename(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
            if points.inside(src, dst):
                points.reach(points.label("rename", dst), lambda: points.real_rename(src, dst, *args, **kwargs))
            else:
                points.real_rename(src, dst, *args, **kwargs)

        def send(adapter: Any, request: Any, *args: Any, **kwargs: Any) -> Any:
            url = re.sub(r"/spreadsheets/[^/:?]+|/files/[^/:?]+", "/ID", request.url.split("?")[0])
            return points.reach(f"{request.method} {url}", lambda: points.real_send(adapter, request, *args, **kwargs))

        builtins.open = io.open = open_  # type: ignore[assignment]
        os.open, os.replace, os.rename = os_open, replace, rename  # type: ignore[assignment]
        FakeGoogleAdapter.send = send  # type: ignore[method-assign]


# -- the two games ----------------------------------------------------------------------------
class Game:
    """A game directory plus, on Google Sheets, the fake server's state."""

    backend = "xlsx"

    def __init__(self, path: Path):
        self.path = path
        self.fake_blob: bytes | None = None

    def backend_for(self, gd: GameDir, fake: FakeGoogle | None) -> Any:
        return XlsxBackend(gd.path)

    def books(self, gd: GameDir, fake: FakeGoogle | None) -> dict[str, Any]:
        return {key: xlsx_digest(gd.path / book) for key, book in gd.config.books.items()}

    def type_rows(self, gd: GameDir, key: str, title: str, rows: list[list[str]]) -> None:
        DemoBooks(gd, Layout.load("jade_rose")).replace(key, {_tab_key(title): rows})

    def copy(self, dest: Path) -> Game:
        shutil.copytree(self.path, dest)
        twin = type(self)(dest)
        twin.fake_blob = self.fake_blob
        return twin


class GoogleGame(Game):
    backend = "gsheets"

    def create(self) -> GameDir:
        fake = FakeGoogle(quota_per_minute=None)
        fake.add_user(GM)
        self.folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        gd = create_game(self.path, "jade_rose", "demo", backend="gsheets", seed=SEED,
                         backend_factory=lambda g: fake_backend(
                             fake, BOT, gm_emails=[GM], folder_id=self.folder,
                             metadata_path=g.state_dir / "gsheets-meta.json"))
        self.fake_blob = dump_fake(fake)
        return gd

    def fake(self) -> FakeGoogle:
        assert self.fake_blob is not None
        fake: FakeGoogle = pickle.loads(self.fake_blob)
        return fake

    def backend_for(self, gd: GameDir, fake: FakeGoogle | None) -> Any:
        assert fake is not None
        return fake_backend(fake, BOT, gm_emails=[GM], metadata_path=gd.state_dir / "gsheets-meta.json")

    def books(self, gd: GameDir, fake: FakeGoogle | None) -> dict[str, Any]:
        """Every book as entered on the server: the spreadsheets.get resource (properties, protected
        ranges, conditional formats) and each sheet's row and column sizes and cells as entered (values,
        formats, validations, notes); what Google derives from them (effective and formatted values) is
        left out, as rendering it for every cell of every book costs more than the rerun itself."""
        assert fake is not None
        out = {}
        for key, book_id in gd.config.books.items():
            book = fake.spreadsheet(book_id)
            out[key] = {"resource": book.resource(BOT),
                        "sheets": [{"dimensions": sorted(sheet.dimensions.items()),     # keys are unique
                                    "cells": sorted(sheet.cells.items())}
                                   for sheet in sorted(book.sheets, key=lambda s: s.properties["index"])]}
        return out

    def type_rows(self, gd: GameDir, key: str, title: str, rows: list[list[str]]) -> None:
        fake = self.fake()
        book = fake_client(fake, GM).open_by_key(gd.config.books[key])
        values = [[int(v) if str(v).isdigit() else v for v in row] for row in rows]
        if values:
            book.values_update(f"'{title}'!A2", params={"valueInputOption": "USER_ENTERED"},
                               body={"values": values})
        self.fake_blob = dump_fake(fake)


class XlsxGame(Game):
    def create(self) -> GameDir:
        return create_game(self.path, "jade_rose", "demo", backend="xlsx", seed=SEED)


def _tab_key(title: str) -> str:
    return next(t.key for t in Layout.load("jade_rose").order_tabs() if t.title == title)


def xlsx_digest(path: Path) -> str:
    """Every part of an .xlsx file (cells, validations, protections, formats), but its timestamps."""
    with zipfile.ZipFile(path) as zf:
        parts = {name: hashlib.sha256(zf.read(name)).hexdigest() for name in sorted(zf.namelist())
                 if name != "docProps/core.xml"}
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def fingerprint(game: Game, fake: FakeGoogle | None) -> dict[str, dict[str, str]]:
    """Digests of every snapshot, seeds and chain file, every archive file and every book."""
    gd = GameDir(game.path)

    def digest(text: str | bytes) -> str:
        return hashlib.sha256(text if isinstance(text, bytes) else text.encode()).hexdigest()

    state = {p.name: digest(p.read_bytes()) for p in sorted(gd.state_dir.glob("*.json"))
             if p.name != "gsheets-meta.json"}
    archive = {str(p.relative_to(gd.path)): xlsx_digest(p) if p.suffix == ".xlsx" else digest(p.read_bytes())
               for p in sorted((gd.path / "archive").rglob("*")) if p.is_file()}
    books = {key: digest(orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str))
             for key, value in game.books(gd, fake).items()}      # orjson: a sixth of json's time for this
    return {"state": state, "archive": archive, "books": books}


def demo_orders(game: Game, gd: GameDir) -> None:
    """Every faction's turn-1 orders as the rule set's demo players choose them (battles that need
    planning), typed into the game's books; the players read an xlsx twin in the same state."""
    twin_gd = create_game(game.path.parent / f"{game.path.name}-twin", "jade_rose", "demo",
                          backend="xlsx", seed=SEED)
    layout = Layout.load("jade_rose")
    books = DemoBooks(twin_gd, layout)
    players = find_ruleset("jade_rose").demo_players()
    state = twin_gd.latest_state()
    titles = {t.key: t.title for t in layout.order_tabs()}
    for fid in state["factions"]:
        for key, rows in players.orders(state, fid, books.read_all(fid)).items():
            game.type_rows(gd, fid, titles[key], [list(r) for r in rows])


def run_child(game: Game, crash_at: int | None,
              snapshots: Path | None = None) -> tuple[int, list[str], list[bool]]:
    """Run `turn` in a forked child, crashing at point `crash_at`; return (exit code, labels of the points,
    whether each was reached with no other thread running).
    The child leaves the fake server's state in `<game>/../<name>.fake`. With `snapshots`, the child
    copies the game (and dumps the server) into `snapshots/NNNN` at each point before going on."""
    fake_path = game.path.parent / f"{game.path.name}.fake"
    count_path = game.path.parent / f"{game.path.name}.count"
    error_path = game.path.parent / f"{game.path.name}.error"
    exports_path = game.path.parent / f"{game.path.name}.exports"
    pid = os.fork()
    if pid == 0:  # the child: never returns
        gc.freeze()     # what the test process holds is never garbage here: scanning it cost a tenth of a run
        code = 0
        try:
            fake = game.fake() if isinstance(game, GoogleGame) else None
            real_open = io.open

            def leave_fake_state(path: Path = fake_path) -> None:
                if fake is not None:
                    with real_open(path, "wb") as fh:
                        fh.write(dump_fake(fake))

            def snapshot(n: int) -> None:
                if snapshots is not None:
                    copy = snapshots / f"{n:04d}"
                    shutil.copytree(game.path, copy / "game")
                    leave_fake_state(copy / "fake")

            points = CrashPoints(game.path, crash_at, leave_fake_state, snapshot)
            gd = GameDir(game.path)
            be = game.backend_for(gd, fake)
            points.install()
            run_turn(gd, be=be)
            with points.real_io_open(count_path, "w") as fh:
                fh.write(json.dumps({"labels": points.labels, "alone": points.alone}))
            leave_fake_state()
            if fake is not None:
                with points.real_io_open(exports_path, "wb") as fh:
                    fh.write(pickle.dumps(xlsx_export.exports()))
        except BaseException:
            with open(error_path, "w") as fh:
                fh.write(traceback.format_exc())
            code = 3
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code == 3:
        raise AssertionError(f"the child failed:\n{error_path.read_text()}")
    if fake_path.exists() and isinstance(game, GoogleGame):
        game.fake_blob = fake_path.read_bytes()
        fake_path.unlink()
    if exports_path.exists():      # the fake's exports of the run: a rerun exporting the same books finds them
        xlsx_export.keep_exports(pickle.loads(exports_path.read_bytes()))
        exports_path.unlink()
    reached = json.loads(count_path.read_text()) if count_path.exists() else {"labels": [], "alone": []}
    count_path.unlink(missing_ok=True)
    return code, reached["labels"], reached["alone"]


def crashed_game(start: Game, snapshots: Path, workdir: Path, label: str, n: int) -> Game:
    """The game as a crash before point `n` of `start`'s stage leaves it (the snapshot of point n)."""
    copy = snapshots / f"{n:04d}"
    run = type(start)(workdir / f"{label}-crash-{n:03d}")
    shutil.copytree(copy / "game", run.path)
    if (copy / "fake").exists():
        run.fake_blob = (copy / "fake").read_bytes()
    return run


def rerun(run: Game) -> dict[str, Any]:
    """Run `turn` again on a crashed game and fingerprint the result."""
    fake = run.fake() if isinstance(run, GoogleGame) else None
    gd = GameDir(run.path)
    run_turn(gd, be=run.backend_for(gd, fake))
    resolved = [(e["turn"], e["stage"]) for e in gd.journal() if e.get("event") == "resolved"]
    result = {"fingerprint": fingerprint(run, fake), "double": len(resolved) - len(set(resolved))}
    shutil.rmtree(run.path)
    return result


TEMPORARY = [(re.compile(r"^(\..+)\.\w+(\.tmp)$"), r"\1.*\2"),       # tempfile.mkstemp's random part
             (re.compile(r"^(.+\.tmp)\d+\.\d+$"), r"\1*")]           # gsheets-meta.tmp<pid>.<thread>


def journal_lines(path: Path) -> list[dict[str, Any]]:
    """The journal's entries without their clock times; books pushed concurrently are journalled as each
    finishes, so a run of "pushed" entries is taken in any order."""
    entries = [{k: v for k, v in json.loads(line).items() if k != "at"} for line in path.read_text().splitlines()]
    out: list[dict[str, Any]] = []
    pushed: list[dict[str, Any]] = []
    for entry in [*entries, None]:
        if entry is not None and entry.get("event") == "pushed":
            pushed.append(entry)
            continue
        out += sorted(pushed, key=json.dumps)
        pushed = []
        if entry is not None:
            out.append(entry)
    return out


def folder_files(game: Game) -> dict[str, Any]:
    """Every file of the game folder (xlsx files and a book's finished temporary file by their parts but
    the timestamps, the journal as `journal_lines` reads it, another temporary file by its content, each
    temporary file under its name without the random or process-specific part), and on Google Sheets
    every book on the server."""
    def content(p: Path) -> Any:
        if p.suffix == ".xlsx" or (".xlsx." in p.name and zipfile.is_zipfile(p)):
            return xlsx_digest(p)
        if p.suffix == ".jsonl":
            return journal_lines(p)
        return hashlib.sha256(p.read_bytes()).hexdigest()

    def name(p: Path) -> str:
        folded = p.name
        for pattern, repl in TEMPORARY:
            folded = pattern.sub(repl, folded)
        return str(p.relative_to(game.path).with_name(folded))

    grouped: dict[str, list[Any]] = {}
    for p in sorted(game.path.rglob("*")):
        if p.is_file() and p.name == HOLDER_FILE:     # who crashed holding the lock, and when: its presence
            grouped.setdefault(name(p), []).append("a crashed command's note")
        elif p.is_file() and p.name != LOCK_FILE:
            grouped.setdefault(name(p), []).append(content(p))
    files: dict[str, Any] = {k: sorted(v, key=json.dumps) for k, v in grouped.items()}
    fake = game.fake() if isinstance(game, GoogleGame) else None
    gd = GameDir(game.path)
    files["books on the server"] = json.dumps(game.books(gd, fake), sort_keys=True, default=str) if fake else None
    return files


def in_workers(jobs: list[Callable[[], dict[str, Any]]], out: Path, workers: int = 2) -> list[dict[str, Any]]:
    """Run each job in a forked worker, `workers` at a time (the machine's cores)."""
    results: list[dict[str, Any]] = []
    running: dict[int, Path] = {}
    queue = list(enumerate(jobs))

    def reap() -> None:
        pid, status = os.wait()
        path = running.pop(pid)
        assert os.waitstatus_to_exitcode(status) == 0 and path.exists(), path.with_suffix(".err").read_text()
        results.append(json.loads(path.read_text()))

    while queue or running:
        while queue and len(running) < workers:
            i, job = queue.pop(0)
            path = out / f"job-{i:04d}.json"
            pid = os.fork()
            if pid == 0:
                gc.freeze()
                try:
                    path.write_text(json.dumps(job()))
                    os._exit(0)
                except BaseException:
                    path.with_suffix(".err").write_text(traceback.format_exc())
                    os._exit(4)
            running[pid] = path
        reap()
    return sorted(results, key=lambda r: r["n"])


def sample(labels: list[str]) -> list[int]:
    """Crash points (1-based) at the first occurrence of every step (a label after the label before
    it), and the last point."""
    steps = list(zip(["start", *labels], labels, strict=False))
    first = {step: i for i, step in reversed(list(enumerate(steps)))}
    return sorted({i + 1 for i in first.values()} | {len(labels)})


def test_the_sample_keeps_the_first_occurrence_of_each_step_and_the_last_point():
    assert sample(["a", "b", "a", "b", "a", "c"]) == [1, 2, 3, 6]
    assert sample(["a", "a", "a"]) == [1, 2, 3]
    assert sample(["x"]) == [1]


def sweep(start: Game, workdir: Path, label: str) -> Game:
    """Crash `turn` at every point (or the sample) of the stage that `start` is at; return the
    uninterrupted run."""
    reference = start.copy(workdir / f"{label}-reference")
    snapshots = workdir / "snapshots" / label
    snapshots.mkdir(parents=True)
    code, labels, alone = run_child(reference, None, snapshots)
    points = len(labels)
    assert code == 0 and points > 10
    chosen = list(range(1, points + 1)) if FULL_SWEEP else sample(labels)
    expected = fingerprint(reference, reference.fake() if isinstance(reference, GoogleGame) else None)

    # the real crash: before a replace in the second half, so a finished temporary file is left behind, and
    # with no other thread running: within a concurrent push of books (Google Sheets) the points come in
    # any order, so point n of another run need not be the same moment
    later = [n for n in chosen[len(chosen) // 2:] if alone[n - 1]]
    real = next((n for n in later if labels[n - 1].startswith("replace")), later[0])
    crashed = start.copy(workdir / f"{label}-real-crash")
    code, _, _ = run_child(crashed, real)
    assert code == CRASHED, f"point {real} of {points} was not reached"
    left, copied = folder_files(crashed), folder_files(crashed_game(start, snapshots, workdir, f"{label}-copy", real))
    assert left == copied, (f"a real crash before point {real} left the game otherwise than its copy: "
                            f"{sorted(k for k in {*left, *copied} if left.get(k) != copied.get(k))}")

    for n in chosen:    # each book's versions parsed once, here: every forked rerun finds them kept
        for book in sorted((snapshots / f"{n:04d}" / "game" / BOOKS_DIR).glob("*.xlsx")):
            xlsx_files.load_for_reading(book)
    out = workdir / f"{label}-results"
    out.mkdir()
    jobs = [lambda n=n: {"n": n, **rerun(crashed_game(start, snapshots, workdir, label, n))} for n in chosen]
    mismatches, doubles = [], 0
    for result in in_workers(jobs, out):
        n, got = result["n"], result["fingerprint"]
        doubles += result["double"] + (got["state"].keys() != expected["state"].keys())
        for part in ("state", "archive", "books"):
            keys = sorted(k for k in set(got[part]) | set(expected[part])
                          if got[part].get(k) != expected[part].get(k))
            if keys:
                mismatches.append(f"crash before point {n}: {part} differs in {keys[:5]}")
    shutil.rmtree(snapshots)
    FIGURES[label] = {"crash_points": points, "crashed_at": len(chosen), "distinct_steps": len(set(labels)),
                      "mismatches": len(mismatches), "double_resolutions": doubles}
    print(f"\ncrash sweep {label}: crashed at {len(chosen)} of {points} crash points "
          f"({len(set(labels))} distinct steps), {len(mismatches)} mismatches, {doubles} double resolutions")
    assert mismatches == [] and doubles == 0, "\n".join(mismatches[:10])
    return reference


@pytest.mark.long
@pytest.mark.parametrize("game_type", [
    pytest.param(XlsxGame, marks=pytest.mark.skipif(not FULL_SWEEP, reason="make test-full: the same sweep runs on "
                                                     "Google, the backend of real games, whose requests add points")),
    GoogleGame], ids=["xlsx", "gsheets"])
def test_a_crash_before_any_write_or_request_of_either_stage_is_finished_identically(tmp_path, game_type):
    """«A crash after the new snapshot is written but before the journal records it skips a whole
    stage.» Must: «a resolution is committed in one atomic step», and crashing before every file
    write and every book write or Google request, for both stages, then re-running, gives every
    snapshot, the seeds, every book and the archive of an uninterrupted run."""
    start = game_type(tmp_path / "game")
    gd = start.create()
    demo_orders(start, gd)
    after_orders = sweep(start, tmp_path, f"{start.backend}-orders")
    state = GameDir(after_orders.path).latest_state()
    assert state["stage"] == "planning", "the demo's first turn has battles that need planning"
    planned = sweep(after_orders, tmp_path, f"{start.backend}-planning")
    assert GameDir(planned.path).latest_state()["turn"] == 2
    (tmp_path.parent / f"crash-figures-{start.backend}.json").write_text(json.dumps(FIGURES))
