"""Opening a snapshot: what follows the moment a new latest snapshot exists.

A snapshot becomes the latest in one of three ways: `new` made it, a stage resolved into it (its
file is the commit: written atomically, it is the one record that the resolution happened), or a
rollback returned to it. Opening it means revealing the closed stage's dice, recording the hash
chain, drawing the pictures, pushing every book and archiving their exports (where the backend holds
pictures for the books' writes, `HoldsPictures`, they are drawn first and each book is saved once with
them; else they are put after the push). Every step is idempotent and journaled
under (snapshot, epoch), so a crash anywhere is finished by the next `turn` and a push is never
lost or repeated; a rollback starts a new epoch, so the books are pushed again after it.
"""
from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine import find_ruleset
from engine.ruleset import ParsedOrders
from engine.state import canonical_json
from sheets_bridge import fairness, pictures
from sheets_bridge.atomic import atomic_write_text
from sheets_bridge.backends.base import Backend, HoldsPictures, PicturesNotStored, SendsPictures, WorksOnManyBooks
from sheets_bridge.deadlines import stamp
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import book_name
from sheets_bridge.render import push
from sheets_bridge.stage_common import Progress, StageError, Step, noop
from sheets_bridge.standing import standing_statuses


@dataclass(frozen=True)
class Opening:
    """How the latest snapshot came to be and what opening it needs."""

    key: str                                 # snapshot stem, e.g. "turn-0001-planning"
    turn: int
    stage: str
    kind: str                                # "new", "resolution" or "rollback"
    closed: tuple[int, str] | None = None    # resolution: the stage that resolved into it
    rollback: dict[str, Any] | None = None   # rollback: its journal record


def stem(turn: int, stage: str) -> str:
    return f"turn-{turn:04d}-{stage}"


def parse_stem(name: str) -> tuple[int, str]:
    turn, stage = name[len("turn-"):].split("-", 1)
    return int(turn), stage


def snapshot_keys(gd: GameDir) -> list[str]:
    return [p.stem for p in gd.snapshots()]


def last_rollback(gd: GameDir) -> dict[str, Any] | None:
    rollbacks = [e for e in gd.journal() if e.get("event") == "rolled_back"]
    return rollbacks[-1] if rollbacks else None


def latest_opening(gd: GameDir) -> Opening:
    """The opening the latest snapshot needs (whether or not it was done already)."""
    keys = snapshot_keys(gd)
    if not keys:
        raise StageError(f"в {gd.state_dir} нет ни одного снимка состояния: игра не начата")
    key = keys[-1]
    turn, stage = parse_stem(key)
    rollback = last_rollback(gd)
    if rollback is not None and stem(*rollback["to"]) == key:
        return Opening(key, turn, stage, "rollback", rollback=rollback)
    if len(keys) == 1:
        return Opening(key, turn, stage, "new")
    return Opening(key, turn, stage, "resolution", closed=parse_stem(keys[-2]))


def is_opened(gd: GameDir, key: str) -> bool:
    epoch = gd.epoch()
    return any(e.get("event") == "opened" and e.get("opens") == key and e.get("epoch") == epoch
               for e in gd.journal())


def pending(gd: GameDir) -> Opening | None:
    """The latest snapshot's opening if it was interrupted, else None."""
    finish_rollback_moves(gd)
    opening = latest_opening(gd)
    return None if is_opened(gd, opening.key) else opening


def archived_orders(folder: Path, stage: str) -> dict[str, Any]:
    """Orders as read of one resolution: {book key: {tab title: rows}}."""
    prefix = f"orders-{stage}-"
    books: dict[str, Any] = {}
    if folder.is_dir():
        for path in sorted(folder.glob(f"{prefix}*.json")):
            books[path.name[len(prefix):-len(".json")]] = json.loads(path.read_text(encoding="utf-8"))
    return books


def chain_link(gd: GameDir, closed: tuple[int, str], after_key: str, previous: str) -> str:
    """The chain head after `closed` resolved into the snapshot `after_key` (recomputed from files)."""
    after = gd.snapshot_path(*parse_stem(after_key)).read_text(encoding="utf-8")
    return head_after(gd, closed, after, previous)


def head_after(gd: GameDir, closed: tuple[int, str], after: str, previous: str) -> str:
    """The chain head after `closed` resolved into the snapshot text `after`, from its archived orders."""
    turn, stage = closed
    before = gd.snapshot_path(turn, stage).read_text(encoding="utf-8")
    orders = fairness.orders_digest(archived_orders(gd.archive_path(turn), stage))
    return fairness.link(previous, turn, stage, before, orders, gd.stage_seed(turn, stage), after)


def previous_head(gd: GameDir, closed_key: str) -> str:
    keys = snapshot_keys(gd)
    index = keys.index(closed_key)
    return gd.chain().get(keys[index - 1], fairness.GENESIS) if index > 0 else fairness.GENESIS


def open_latest(gd: GameDir, be: Backend, progress: Progress = noop,
                orders: Mapping[str, ParsedOrders] | None = None) -> tuple[Opening, list[str], dict[str, Any]]:
    """Do (or finish) the latest snapshot's opening; return it, the books pushed now and the
    closed stage's archived statuses (empty for `new` and rollbacks). `orders`: the closed stage's orders
    as the turn that resolved it parsed them, for the factions' maps (`pictures.publish`)."""
    opening = latest_opening(gd)
    state = gd.read_snapshot(opening.turn, opening.stage)
    rs = find_ruleset(state["ruleset"])
    layout = Layout.load(rs.name)
    if state["stage"] != "finished":
        gd.open_seed(opening.turn, opening.stage)
    saved: dict[str, Any] = {}
    if opening.kind == "resolution":
        assert opening.closed is not None
        turn, stage = opening.closed
        gd.reveal_seed(turn, stage)
        closed_key = stem(turn, stage)
        gd.record_link(closed_key, chain_link(gd, opening.closed, opening.key, previous_head(gd, closed_key)))
        archive = gd.archive_dir(turn)
        saved = json.loads((archive / f"statuses-{stage}.json").read_text(encoding="utf-8"))
        problems = saved.pop("_problems", [])
        cleared = {t.key for t in layout.order_tabs(stage) if not t.keep}
        standing = standing_statuses(gd, rs, layout, state, opening.closed, saved)
        pushed = _pushed_with_pictures(
            be, lambda: push(gd, be, rs, layout, state, statuses=saved, cleared=cleared, progress=progress,
                             opens=opening.key, problems=problems, orders_turn=turn, standing=standing),
            lambda: pictures.publish(gd, be, opening.key, archive, stage, progress,   # the map and charts
                                     with_charts=opening.stage == rs.stages[0], orders=orders), progress)
        _export_books(gd, be, state, archive, stage, progress)                 # with the pictures in them
        saved["_problems"] = problems
    elif opening.kind == "rollback":
        assert opening.rollback is not None
        epoch = opening.rollback["epoch"]
        restore = archived_orders(gd.rolled_back_archive(opening.turn, epoch), opening.stage)
        view, problems, orders_turn = _opening_statuses(gd, opening.key)
        others = {t.key for t in layout.order_tabs() if not t.keep and t.stage != opening.stage}
        lock_stage = not opening.rollback.get("reopen", False)
        pushed = _pushed_with_pictures(
            be, lambda: push(gd, be, rs, layout, state, statuses=view, cleared=others, progress=progress,
                             opens=opening.key, problems=problems, orders_turn=orders_turn, restore=restore,
                             lock_stage=lock_stage),
            lambda: pictures.publish(gd, be, opening.key, None, None, progress), progress)
    else:
        pushed = _pushed_with_pictures(
            be, lambda: push(gd, be, rs, layout, state, statuses={}, cleared=set(), progress=progress,
                             opens=opening.key),
            lambda: pictures.publish(gd, be, opening.key, gd.archive_dir(opening.turn), "start", progress), progress)
    gd.append_journal({"event": "opened", "opens": opening.key, "epoch": gd.epoch(), "at": stamp()})
    return opening, pushed, saved


def _pushed_with_pictures(be: Backend, push_books: Callable[[], list[str]], publish: Callable[[], None],
                          progress: Progress = noop) -> list[str]:
    """Push the books and put the pictures in them: where the backend holds pictures for the books' writes
    (`HoldsPictures`), they are drawn first and go into each book with its push, one save per book (a book
    pushed before an interruption gets them when the holding ends); elsewhere they are put after the push,
    together where the backend can (`SendsPictures`: one goes up while the next is drawn)."""
    if isinstance(be, HoldsPictures):
        with be.holding_pictures():
            publish()
            return push_books()
    pushed = push_books()
    if not isinstance(be, SendsPictures):
        publish()
        return pushed
    try:
        with be.sending_pictures():
            publish()
    except PicturesNotStored as exc:      # met by the last pictures sent: said as `publish` says it
        progress(str(exc))
    return pushed


def _export_books(gd: GameDir, be: Backend, state: dict[str, Any], archive: Path, stage: str,
                  progress: Progress) -> None:
    """Every book's export into the archive; all at once where the backend can (`WorksOnManyBooks`)."""
    keys = {book_id: key for key, book_id in gd.config.books.items()}
    jobs = {book_id: functools.partial(be.export_xlsx, book_id, str(archive / f"{key}-{stage}.xlsx"))
            for key, book_id in gd.config.books.items()}
    done: list[str] = []

    def saved(book_id: str) -> None:
        done.append(book_id)
        progress(Step(f"в архив сохранена книга {len(done)} из {len(jobs)}: {book_name(state, keys[book_id])}",
                      len(done), len(jobs)))

    if isinstance(be, WorksOnManyBooks):
        be.each_book(jobs, progress=saved)
        return
    for book_id, job in jobs.items():
        job()
        saved(book_id)


def _opening_statuses(gd: GameDir, key: str) -> tuple[dict[str, Any], list[str], int | None]:
    """The row outcomes the books showed when `key` first opened (those of the stage before it)."""
    keys = snapshot_keys(gd)
    index = keys.index(key)
    if index == 0:
        return {}, [], None
    turn, stage = parse_stem(keys[index - 1])
    path = gd.archive_path(turn) / f"statuses-{stage}.json"
    if not path.exists():
        return {}, [], None
    saved = json.loads(path.read_text(encoding="utf-8"))
    problems = saved.pop("_problems", [])
    return saved, problems, turn


# -- rollback --------------------------------------------------------------------------

def start_rollback(gd: GameDir, turn: int, stage: str, reopen: bool) -> dict[str, Any]:
    """Record the rollback (a new epoch), then move everything after (turn, stage) aside."""
    target = stem(turn, stage)
    keys = snapshot_keys(gd)
    title = gd.stage_title
    if target not in keys:
        known = [f"ход {t}, «{title(s)}»" for t, s in map(parse_stem, keys)]
        raise StageError(f"нет снимка хода {turn}, этапа «{title(stage)}»: откатиться можно к одному из "
                         f"этих: {'; '.join(known) or '—'}")
    if target == keys[-1] and not reopen:
        raise StageError(f"ход {turn}, этап «{title(stage)}» ещё не рассчитан: откатывать нечего")
    entry = {"event": "rolled_back", "epoch": gd.epoch() + 1, "to": [turn, stage], "reopen": reopen,
             "undone": keys[keys.index(target):-1], "later": keys[keys.index(target) + 1:]}
    gd.append_journal(entry)
    finish_rollback_moves(gd)
    return entry


def finish_rollback_moves(gd: GameDir) -> None:
    """Complete the file moves of the last rollback if a crash interrupted them (idempotent)."""
    entry = last_rollback(gd)
    if entry is None or any(e.get("event") == "rollback_moved" and e.get("epoch") == entry["epoch"]
                            for e in gd.journal()):
        return
    epoch = entry["epoch"]
    target = stem(*entry["to"])
    if target in snapshot_keys(gd):
        gd.rollback(*entry["to"])
    retired = list(entry["later"]) + ([target] if entry.get("reopen") else [])
    gd.retire_seeds(retired, epoch)
    gd.retire_links(entry["undone"], epoch)
    gd.set_aside_archive([parse_stem(k) for k in entry["undone"]], epoch)
    gd.append_journal({"event": "rollback_moved", "epoch": epoch})


def write_archive(path: Path, content: Any) -> None:
    """One archive file, written atomically (text as is, anything else as canonical JSON)."""
    atomic_write_text(path, content if isinstance(content, str) else canonical_json(content))
