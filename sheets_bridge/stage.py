"""Stage commands: check orders, close a stage (pull, validate, resolve, commit, open), roll back, replay.

Every stage touches each book with exactly one read and one write (`turn`'s question about a stage
nobody played reads the rows its locked pull read: `unplayed`). The new snapshot is the
commit: written atomically after the archive of the stage and before any push, it is the only
record that the stage resolved. Opening it (sheets_bridge.opening) is idempotent and journaled,
so re-running `turn` after a crash anywhere finishes the same stage and never resolves it twice.
"""
from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import find_ruleset
from engine.ruleset import GM_BOOK, ParsedOrders, RowStatus, Ruleset
from engine.state import canonical_json
from sheets_bridge import check_maps, deadlines, odds_tab, opening, posts, readiness, submissions, tab_lock
from sheets_bridge.backends.base import Backend, LocksOnRead, SharesGame, TabWrite, WorksOnManyBooks, WritesManyBooks
from sheets_bridge.cli_text import warm_battles
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, order_text, status_column_update, status_tab
from sheets_bridge.pull import RawBook, book_name, merge_statuses, order_books, parse_books, pull, stage_tabs
from sheets_bridge.stage_common import Progress, StageError, Step, noop, open_backend, require_complete_books


@dataclass
class StageReport:
    turn: int
    stage: str
    next_turn: int
    next_stage: str
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict[str, Any])   # book -> archived row outcomes
    problems: list[str] = field(default_factory=list)
    pushed: list[str] = field(default_factory=list)
    archive: str = ""
    resumed: bool = False
    kind: str = "resolution"        # what the books were opened after: resolution or rollback

    def counts(self) -> dict[str, tuple[int, int]]:
        return {f: (sum(bool(s["ok"]) for s in ss), sum(not s["ok"] for s in ss))
                for f, ss in self.outcomes.items()}


# -- check ---------------------------------------------------------------------------

def check(gd: GameDir, be: Backend | None = None, progress: Progress = noop) -> StageReport:
    """Validate every faction's open-stage orders and write each row's status, with each faction's map of its
    orders (check_maps); resolve nothing."""
    with gd.lock():
        require_complete_books(gd)
        be = be or open_backend(gd)
        if opening.pending(gd) is not None:
            raise StageError("прошлый этап не дозавершён (книги обновлены не все): сначала запустите "
                             "forumwar turn, он закончит обновление")
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        stage = state["stage"]
        factions = [f for f in order_books(rs, state) if f in rs.factions(state)]
        parsed, raw_books, problems = pull(gd, be, rs, layout, state, stage, kept=tab_lock.kept_orders(gd, state),
                                           also_read=odds_tab.reads(rs, layout, factions))
        report = StageReport(state["turn"], stage, state["turn"], stage, problems=problems)
        simulator = rs.battle_simulator()
        if simulator is not None and odds_tab.has_rows(rs, layout, raw_books):
            warm_battles(simulator, progress)
        books: dict[str, list[TabWrite]] = {}
        for fid, raw in raw_books.items():
            writes = []
            statuses = list(parsed[fid].statuses)
            for t in stage_tabs(rs, layout, stage, fid):
                if t.title not in raw:
                    continue
                header = [str(c).strip() for c in (raw[t.title][0] if raw[t.title] else [])]
                mine = [s for s in statuses if s.tab == t.key]
                status_col = t.status_position(header)
                stale = [n for n, cells in enumerate(raw[t.title][1:], start=2)
                         if status_col < len(cells) and str(cells[status_col]).strip()
                         and n not in {s.number for s in mine}]
                writes.append(status_column_update(t, mine, header, stale))
            if fid in factions:
                writes += odds_tab.writes(rs, layout, state, fid, raw)
            writes += _ready_status(layout, fid, raw)
            books[fid] = writes
            report.outcomes[fid] = [{"tab": s.tab, "row": s.number, "ok": s.ok, "text": s.text()}
                                    for s in statuses]
        counts = submissions.count(rs, layout, state, stage, raw_books, parsed)
        gm_table = _readiness_write(gd, rs, layout, state, counts)
        if gm_table is not None:
            books.setdefault(GM_BOOK, []).append(gm_table)
        keys = {gd.config.books[fid]: fid for fid in books}

        def written(book_id: str) -> None:
            fid = keys[book_id]
            report.pushed.append(fid)
            outcomes = report.outcomes.get(fid, [])
            ok = sum(bool(s["ok"]) for s in outcomes)
            progress(Step(f"проверена книга {len(report.pushed)} из {len(books)}: {book_name(state, fid)} — строк без "
                          f"ошибок {ok}, с ошибками {len(outcomes) - ok}", len(report.pushed), len(books)))

        # each faction's map with its orders as they stand goes into its book with that write (issue 41 §1)
        with check_maps.with_writes(gd, be, rs, state, parsed, factions, progress):
            if isinstance(be, WritesManyBooks):    # the books' writes together, as the push sends them
                be.write_books({gd.config.books[fid]: writes for fid, writes in books.items()}, progress=written)
            else:
                for fid, writes in books.items():
                    be.write_book(gd.config.books[fid], writes)
                    written(gd.config.books[fid])
        report.pushed.sort(key=list(books).index)
        gd.append_journal(submissions.checked_entry(state["turn"], stage, gd.epoch(), deadlines.stamp(), counts))
        return report


def _ready_status(layout: Layout, key: str, raw: RawBook) -> list[TabWrite]:
    """The status beside a book's «Приказы готовы» cell (empty when the cell is): whether `check` understood it."""
    tab = readiness.ready_tab(layout, key)
    if tab is None or tab.title not in raw or tab.status_index is None:
        return []
    header = [str(c).strip() for c in (raw[tab.title][0] if raw[tab.title] else [])]
    col = tab.status_position(header)
    return [TabWrite(title=tab.title, column_updates={col: {2: readiness.status_text(layout, key, raw) or ""}},
                     kind="orders", order_rows=tab.rows, locked_columns=(col,), header=None, status_column=col)]


def _readiness_write(gd: GameDir, rs: Ruleset, layout: Layout, state: dict[str, Any],
                     counts: Mapping[str, submissions.Submission]) -> TabWrite | None:
    """The GM book's «Готовность» as `check` found the books (None when the layout has no such tab)."""
    tab = layout.tab("readiness", "gm")
    if tab is None or GM_BOOK not in gd.config.books:
        return None
    awaited = rs.awaiting(state)
    names = {f: book_name(state, f) for f in rs.factions(state)}
    players = readiness.players(gd.config)
    states = {f: readiness.submission_state(counts[f].submitted, counts[f].ready, bool(awaited.get(f)))
              if f in counts else readiness.submission_state(False, False, bool(awaited.get(f))) for f in names}
    rows = {f: (c.rows, c.errors) for f, c in counts.items()}
    return status_tab(tab, readiness.readiness_table(names, players, states, rows))


# -- turn ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Unplayed:
    """An open stage nobody has played yet: its title, the awaited factions' names, its deadline."""

    turn: int
    stage_title: str
    waiting: tuple[str, ...]
    deadline: str | None


def unplayed(gd: GameDir, state: dict[str, Any], raw_books: Mapping[str, RawBook],
             parsed: Mapping[str, ParsedOrders], now: dt.datetime | None = None) -> Unplayed | None:
    """The open stage when no awaited faction has typed an order row in it and nothing closed it on
    purpose: not locked, no plain rollback's kept orders, its deadline (if any) not passed. Else None.
    `raw_books` and `parsed` are what the stage's pull read (`run_turn`'s locked pull): no book is read here."""
    rs = find_ruleset(state["ruleset"])
    turn, stage = int(state["turn"]), str(state["stage"])
    clock = deadlines.clock(gd, state, tuple(rs.stages))
    if clock.passed(now or deadlines.now_utc()) or tab_lock.kept_orders(gd, state) is not None:
        return None
    awaited = [f for f, notes in rs.awaiting(state).items() if notes]
    if not awaited:
        return None
    counts = submissions.count(rs, Layout.load(rs.name), state, stage, raw_books, parsed)
    if any(sub.submitted or sub.ready for sub in counts.values()):
        return None
    return Unplayed(turn, rs.stage_title(stage), tuple(book_name(state, f) for f in awaited if f in counts),
                    None if clock.deadline is None else clock.deadline_text())


def _declined(gd: GameDir, be: Backend, state: dict[str, Any], raw_books: Mapping[str, RawBook],
              parsed: Mapping[str, ParsedOrders], ask: Callable[[Unplayed], bool]) -> Unplayed | None:
    """The unplayed stage the GM declined to resolve (`ask` said no), its order tabs given back to the players
    (the locked pull closed them); None when the stage goes on. Whatever ends the question otherwise (Ctrl+C
    at the prompt) reopens them too."""
    idle = unplayed(gd, state, raw_books, parsed)
    if idle is None:
        return None
    try:
        go_on = ask(idle)
    except BaseException:
        _reopen(gd, be, state, raw_books)
        raise
    if go_on:
        return None
    _reopen(gd, be, state, raw_books)
    return idle


def _reopen(gd: GameDir, be: Backend, state: dict[str, Any], read: Iterable[str]) -> None:
    """Open again the order tabs of the books `read` that the locked pull closed, with the protections the
    push gave them (no cell changes: one protections-only write per book, all at once where the backend can)."""
    if not isinstance(be, LocksOnRead) or not isinstance(be, SharesGame):
        return                      # the read closed nothing (xlsx)
    from sheets_bridge.render import render_books
    rs = find_ruleset(state["ruleset"])
    layout = Layout.load(rs.name)
    books = render_books(gd, rs, layout, state, saved={}, cleared=set())
    jobs: dict[str, Callable[[], None]] = {}
    for key in read:
        titles = {t.title for t in stage_tabs(rs, layout, str(state["stage"]), key)}
        titles |= set(readiness.read_titles(layout, key))         # the locked pull closed «Готовность» too
        tabs = [w for w in books.get(key, []) if w.title in titles]
        if tabs and key in gd.config.books:
            jobs[gd.config.books[key]] = functools.partial(be.update_protections, gd.config.books[key], tabs)
    if isinstance(be, WorksOnManyBooks):
        be.each_book(jobs)
    else:
        for job in jobs.values():
            job()


class NotReady(StageError):
    """`turn --if-ready`: not every faction whose readiness counts has said «Приказы готовы»; nothing changed."""

    def __init__(self, stage_title: str, waiting: list[str]):
        self.waiting = waiting
        who = ", ".join(f"«{name}»" for name in waiting) if waiting else "этап не ждёт приказов ни от одной фракции"
        super().__init__(f"этап «{stage_title}» не рассчитан досрочно: «Приказы готовы» сказали не все; ждём: {who}. "
                         "Игра не изменена")


def not_ready(gd: GameDir, be: Backend, state: dict[str, Any]) -> list[str]:
    """The names of the factions whose readiness counts (readiness.playing) and whose books do not say «да» now:
    each one's «Готовность» tab read alone (all at once where the backend can). Empty: all are ready."""
    rs = find_ruleset(state["ruleset"])
    layout = Layout.load(rs.name)
    players = readiness.players(gd.config)
    counted = [f for f in readiness.playing(rs.awaiting(state), players) if f in gd.config.books]
    jobs = {gd.config.books[f]: functools.partial(be.read_tabs, gd.config.books[f], readiness.read_titles(layout, f))
            for f in counted}
    read = be.each_book(jobs) if isinstance(be, WorksOnManyBooks) else {b: job() for b, job in jobs.items()}
    waiting = [book_name(state, f) for f in counted if not readiness.is_ready(layout, f, read[gd.config.books[f]])]
    return waiting if counted else []


def run_turn(gd: GameDir, be: Backend | None = None, progress: Progress = noop,
             ask: Callable[[Unplayed], bool] | None = None, if_ready: bool = False) -> StageReport:
    """Close the open stage: pull, validate, resolve, commit the new snapshot, open it.

    An interrupted opening (a crash or an API failure after the commit) is finished instead. With
    `ask`, a stage nobody has played yet (`unplayed`) is resolved only if `ask` says so; else StageError.
    Each book is read once: the question is asked about the rows the locked pull read, so a rollback, a
    replay and verify see exactly what was resolved, and nobody can change a row between the question and
    the resolution; a declined stage's order tabs are opened again (`_declined`). With `if_ready` the stage is
    resolved, without asking, only if every faction whose readiness counts says «Приказы готовы» (their
    «Готовность» read first, alone); else NotReady and nothing changes."""
    with gd.lock():
        require_complete_books(gd)
        be = be or open_backend(gd)
        unfinished = opening.pending(gd)
        if unfinished is not None:
            title = find_ruleset(gd.latest_state()["ruleset"]).stage_title(unfinished.stage)
            progress(f"дозавершаю прерванное обновление книг (ход {unfinished.turn}, этап «{title}»)")
            return _open(gd, be, progress, resumed=True)
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        turn, stage = state["turn"], state["stage"]
        if stage == "finished":
            raise StageError("игра окончена: рассчитывать больше нечего")
        if if_ready:
            players = readiness.players(gd.config)
            waiting = not_ready(gd, be, state)
            if waiting or not readiness.playing(rs.awaiting(state), players):
                raise NotReady(rs.stage_title(stage), waiting)
            ask = None                      # every faction said its orders are ready: no question
        seed = gd.stage_seed(turn, stage)
        progress(f"ход {turn}, этап «{rs.stage_title(stage)}»: читаю приказы")
        late: dict[str, list[RowStatus]] = {}
        parsed, raw_books, problems = pull(gd, be, rs, layout, state, stage, lock=True,
                                           kept=tab_lock.kept_orders(gd, state), late_out=late)
        idle = _declined(gd, be, state, raw_books, parsed, ask) if ask is not None else None
        if idle is not None:
            raise StageError(f"ход {turn}, этап «{idle.stage_title}» не рассчитан: никто не подал приказов; "
                             "игра не изменена")
        archive = gd.archive_dir(turn)
        for fid, raw in raw_books.items():
            opening.write_archive(archive / f"orders-{stage}-{fid}.json", raw)
        progress(f"рассчитываю этап «{rs.stage_title(stage)}»")
        result = rs.resolve(state, stage, parsed, seed.engine_seed)
        statuses = merge_statuses(parsed, result.statuses, late)
        new = result.state
        opening.write_archive(archive / f"statuses-{stage}.json", {
            f: [{"tab": s.tab, "row": s.number, "ok": s.ok, "text": s.text(),
                 "order": _order_text(layout, raw_books.get(f, {}), s),
                 **({"codes": [e.code for e in s.errors]} if s.errors else {})} for s in ss]   # «Проблемы»: mistakes
            for f, ss in statuses.items()} | {"_problems": problems})
        for name, text in result.reports.items():
            opening.write_archive(archive / f"report-{stage}-{name}.txt", text)
        opening.write_archive(archive / f"events-{stage}.json", list(result.events))   # the map's markers
        following = None
        if new["stage"] != "finished":
            following = gd.open_seed(new["turn"], new["stage"])   # drawn before the commit: published with it
        head = opening.head_after(gd, (turn, stage), canonical_json(new),
                                  opening.previous_head(gd, opening.stem(turn, stage)))
        chain = posts.ChainHead(turn, stage, head)
        made = posts.stage_posts(rs, state, result, seed, following, chain)
        for n, post in enumerate(made, 1):
            opening.write_archive(archive / posts.file_name(stage, n, post), post.bbcode)
        if made:
            opening.write_archive(archive / posts.titles_name(stage),
                                  {posts.file_name(stage, n, p): p.title for n, p in enumerate(made, 1)})
        gd.write_snapshot(new, new["turn"], new["stage"])   # the commit
        gd.append_journal({"event": "resolved", "turn": turn, "stage": stage,
                           "next": [new["turn"], new["stage"]], "epoch": gd.epoch()})
        return _open(gd, be, progress, resumed=False, orders=parsed)


def _order_text(layout: Layout, raw: dict[str, list[list[str]]], s: RowStatus) -> str:
    """The row as the player wrote it, for «Итоги приказов»: its layout columns only, never a formula."""
    tab = next((t for t in layout.order_tabs() if t.key == s.tab), None)
    return order_text(tab, raw.get(tab.title, []), s.number) if tab is not None else ""


def _open(gd: GameDir, be: Backend, progress: Progress, resumed: bool,
          orders: Mapping[str, ParsedOrders] | None = None) -> StageReport:
    """Open the latest snapshot (`orders`: the stage's orders just parsed, which its maps show)."""
    done, pushed, saved = opening.open_latest(gd, be, progress, orders=orders)
    problems = list(saved.pop("_problems", []))
    turn, stage = done.closed if done.closed else (done.turn, done.stage)
    archive = gd.archive_path(turn)
    return StageReport(turn, stage, done.turn, done.stage, outcomes=saved, problems=problems,
                       pushed=pushed, archive=str(archive), resumed=resumed, kind=done.kind)


# -- rollback ------------------------------------------------------------------------

def rollback(gd: GameDir, turn: int, stage: str, reopen: bool = False, be: Backend | None = None,
             progress: Progress = noop) -> StageReport:
    """Return the game to the opening of (turn, stage) and push every book again.

    The stage's order tabs are restored exactly as the players had filled them (from the archived
    orders as read). Without `reopen` they stay closed and the next `turn` resolves the same
    orders with the same seed, giving the same result; with `reopen` players may edit them, and
    the stage gets a fresh seed (the old one is already public). Later snapshots, seeds, chain
    links and archives are kept aside, never deleted."""
    with gd.lock():
        be = be or open_backend(gd)
        opening.start_rollback(gd, turn, stage, reopen)
        return _open(gd, be, progress, resumed=False)


# -- replay --------------------------------------------------------------------------

def successor(gd: GameDir, turn: int, stage: str) -> str | None:
    keys = opening.snapshot_keys(gd)
    key = opening.stem(turn, stage)
    if key not in keys or keys.index(key) == len(keys) - 1:
        return None
    return keys[keys.index(key) + 1]


def replay_state(gd: GameDir, turn: int, stage: str) -> tuple[str, str]:
    """Re-run a resolved stage from its snapshot, the archived orders as read and its revealed
    seed; return (the replayed state's canonical JSON, the name of the snapshot it must equal)."""
    after = successor(gd, turn, stage)
    if after is None:
        title = find_ruleset(gd.config.ruleset).stage_title(stage)
        raise StageError(f"ход {turn}, этап «{title}» в этой игре не рассчитан")
    before = gd.read_snapshot(turn, stage)
    rs = find_ruleset(before["ruleset"])
    layout = Layout.load(rs.name)
    raw_books = opening.archived_orders(gd.archive_path(turn), stage)
    raw_books = {k: v for k, v in raw_books.items() if k in order_books(rs, before)}
    parsed, _ = parse_books(rs, layout, before, stage, raw_books)
    result = rs.resolve(before, stage, parsed, gd.stage_seed(turn, stage).engine_seed)
    return canonical_json(result.state), after


def replay(gd: GameDir, turn: int, stage: str) -> tuple[bool, str]:
    """Re-run a resolved stage and compare it with the recorded result; never writes to the game."""
    return gd.read(lambda: _replayed(gd, turn, stage))


def _replayed(gd: GameDir, turn: int, stage: str) -> tuple[bool, str]:
    """The replay of a stage compared with its recorded result (inside `GameDir.read`)."""
    got, after = replay_state(gd, turn, stage)
    next_turn, next_stage = opening.parse_stem(after)
    expected = gd.snapshot_path(next_turn, next_stage).read_text(encoding="utf-8")
    rs = find_ruleset(gd.config.ruleset)
    what = f"ход {turn}, этап «{rs.stage_title(stage)}»"
    recorded = f"с записанным итогом (снимок хода {next_turn}, этапа «{rs.stage_title(next_stage)}»)"
    if got == expected:
        return True, f"{what}: пересчёт совпал {recorded}"
    return False, f"{what}: пересчёт ОТЛИЧАЕТСЯ {recorded}"
