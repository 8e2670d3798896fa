"""`forumwar lock`: at the deadline, close every faction's order tabs and keep the orders as they were.

Locking reads each faction book's open-stage order tabs once (on Google Sheets the same request
closes them: `lock_and_read`; xlsx books get their order cells locked in one write), keeps the rows
read in archive/turn-NNNN/locked-STAGE-eEPOCH.json, then journals «locked». From then on, `check` and
`turn` of that stage read the kept rows instead of the books (`frozen`), so an edit made after the
deadline is never read, whatever a player does to a file. The GM book is never locked: the GM's
corrections are read as usual. Idempotent: a stage is locked once per epoch (a rollback reopens).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import find_ruleset
from engine.ruleset import GM_BOOK, Ruleset
from engine.state import canonical_json
from sheets_bridge import deadlines, opening
from sheets_bridge.atomic import atomic_write_text
from sheets_bridge.backends.base import Backend, LocksOnRead, TabWrite
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import book_name, order_books, pull, stage_tabs
from sheets_bridge.render import render_books
from sheets_bridge.stage_common import Progress, StageError, noop, open_backend, require_complete_books

RawBooks = dict[str, dict[str, list[list[str]]]]


@dataclass(frozen=True)
class LockReport:
    """What `lock` did: `done` False when it changed nothing (before the deadline, or already locked)."""

    done: bool
    message: str
    books: tuple[str, ...] = ()


def locked_path(gd: GameDir, turn: int, stage: str, epoch: int) -> Path:
    return gd.archive_path(turn) / f"locked-{stage}-e{epoch}.json"


def lock_record(gd: GameDir, turn: int, stage: str) -> dict[str, Any] | None:
    """The journal record of (turn, stage) being locked in the current epoch, if it was."""
    epoch = gd.epoch()
    found = [e for e in gd.journal() if e.get("event") == "locked" and e.get("turn") == turn
             and e.get("stage") == stage and e.get("epoch") == epoch]
    return found[-1] if found else None


def locked_books(gd: GameDir, state: Mapping[str, Any]) -> RawBooks | None:
    """The faction books' order tabs as read when the open stage was locked; None if it is not locked."""
    turn, stage = int(state["turn"]), str(state["stage"])
    record = lock_record(gd, turn, stage)
    if record is None:
        return None
    books: RawBooks = json.loads(locked_path(gd, turn, stage, int(record["epoch"])).read_text(encoding="utf-8"))
    return books


@dataclass(frozen=True)
class KeptOrders:
    """Order rows that `check` and `turn` read instead of the faction books: those kept at the lock, or,
    after a plain rollback, those archived at the stage's first resolution. `after` says since when a
    player's edit is not read (for the rows' statuses)."""

    books: RawBooks
    after: str


def kept_orders(gd: GameDir, state: Mapping[str, Any]) -> KeptOrders | None:
    """What the open stage reads instead of the faction books, if anything: the rows kept at its lock in
    this epoch, else, when a plain rollback (not --reopen) returned to it, the orders as read at the
    resolution it undid (every faction book: one it did not read gives no rows). The GM book is never
    kept: the GM's corrections are read as usual."""
    kept = locked_books(gd, state)
    if kept is not None:
        return KeptOrders(kept, "закрытия вкладок приказов (forumwar lock)")
    latest = opening.latest_opening(gd)
    if latest.kind != "rollback" or latest.rollback is None or latest.rollback.get("reopen", False):
        return None
    if (latest.turn, latest.stage) != (int(state["turn"]), str(state["stage"])):
        return None
    archived = opening.archived_orders(gd.rolled_back_archive(latest.turn, int(latest.rollback["epoch"])),
                                       latest.stage)
    rs = find_ruleset(str(state["ruleset"]))
    books: RawBooks = {key: dict(archived.get(key, {})) for key in order_books(rs, dict(state)) if key != GM_BOOK}
    return KeptOrders(books, "отката этапа (этап пересчитывается по приказам, поданным к первому расчёту)")


def lock(gd: GameDir, be: Backend | None = None, force: bool = False, now: dt.datetime | None = None,
         progress: Progress = noop) -> LockReport:
    """Close the open stage's order tabs of every faction at or after its deadline (any time with `force`)."""
    with gd.lock():
        require_complete_books(gd)
        if opening.pending(gd) is not None:
            raise StageError("прошлый этап не дозавершён (книги обновлены не все): сначала запустите "
                             "forumwar turn, он закончит обновление")
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        turn, stage = int(state["turn"]), str(state["stage"])
        if stage == "finished":
            raise StageError("игра окончена: закрывать нечего")
        title = rs.stage_title(stage)
        record = lock_record(gd, turn, stage)
        if record is not None:
            return LockReport(False, f"Ход {turn}, этап «{title}»: вкладки приказов уже закрыты "
                                     f"({_local(gd, record.get('at'))}); ничего не изменено.")
        now = now or deadlines.now_utc()
        clock = deadlines.clock(gd, state, tuple(rs.stages))
        if not force and not clock.passed(now):
            if clock.deadline is None:
                why = ("у этапа нет срока (в game.toml нет [schedule] или [deadlines] для него). Вкладки "
                       "приказов не закрыты; закрыть их всё равно — forumwar lock --force")
            else:
                why = (f"срок — {clock.deadline_text()}, {clock.left_text(now)}. Вкладки приказов не закрыты; "
                       f"закрыть раньше срока — forumwar lock --force")
            return LockReport(False, f"Ход {turn}, этап «{title}»: {why}.")
        be = be or open_backend(gd)
        layout = Layout.load(rs.name)
        _, raw_books, _ = pull(gd, be, rs, layout, state, stage, lock=True, kept=kept_orders(gd, state))
        kept = {key: raw for key, raw in raw_books.items() if key != GM_BOOK}
        if not isinstance(be, LocksOnRead):      # the read did not close them: lock the order cells in one write
            tabs = _locked_tabs(gd, rs, layout, state, stage, kept)
            for key, writes in tabs.items():
                be.write_book(gd.config.books[key], writes)
                progress(f"закрыты вкладки приказов: {book_name(state, key)}")
        epoch = gd.epoch()
        atomic_write_text(locked_path(gd, turn, stage, epoch), canonical_json(kept))
        gd.append_journal({"event": "locked", "turn": turn, "stage": stage, "epoch": epoch,
                           "at": deadlines.stamp(), "forced": bool(force and not clock.passed(now)),
                           "deadline": None if clock.deadline is None else clock.deadline.isoformat(),
                           "books": sorted(kept)})
        early = " раньше срока (--force)" if force and not clock.passed(now) else ""
        return LockReport(True, f"Ход {turn}, этап «{title}»: вкладки приказов закрыты{early} у фракций: "
                                f"{len(kept)}. Правки после этого не будут прочитаны; forumwar turn рассчитает "
                                f"приказы, какими они были сейчас.", tuple(sorted(kept)))


def _locked_tabs(gd: GameDir, rs: Ruleset, layout: Layout, state: Mapping[str, Any], stage: str,
                 read: RawBooks) -> dict[str, list[TabWrite]]:
    """The open stage's order tabs the books have, closed, their players' rows left as they are."""
    books = render_books(gd, rs, layout, dict(state), saved={}, cleared=set(), lock_stage=True)
    out: dict[str, list[TabWrite]] = {}
    for key in sorted(read):
        titles = {t.title for t in stage_tabs(rs, layout, stage, key)} & set(read[key])
        out[key] = [dataclasses.replace(w, rows=None) for w in books.get(key, []) if w.title in titles]
    return out


def _local(gd: GameDir, at: Any) -> str:
    if not isinstance(at, str):
        return "время не записано"
    from sheets_bridge.schedule import when_text
    return when_text(dt.datetime.fromisoformat(at), deadlines.zone(gd))
