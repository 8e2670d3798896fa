"""Pulling orders: one read per order book, then per-row validation through the rule set.

Before the rule set sees a row, the bridge checks the tab itself: a missing or renamed tab (and where
its orders went, when a tab with its header sits under another title), a missing or doubled column
header, rows below the tab's row limit, formulas, merged cells. Each such problem is a Russian notice for
the book's players («Сводка») and for the GM (console and «Проблемы»), or a status of the rows concerned,
and refuses those rows.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from engine.errors import OrderError
from engine.ruleset import GM_BOOK, ParsedOrders, Row, RowStatus, Ruleset
from engine.state import Envelope
from sheets_bridge import readiness
from sheets_bridge.backends.base import MERGED_CELLS, Backend, LocksOnRead, WorksOnManyBooks, merged_ranges
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, TabLayout, book_kind, clip_rows, column_positions, rows_from_sheet

FORMULA_PREFIXES = ("=",)
GM_BOOK_NAME = "Книга мастера"
PUBLIC_BOOK_NAME = "Общая книга"
NOTICE_SEPARATOR = ": "

RawBook = dict[str, list[list[str]]]


def _formula_errors(row: Row, tab_layout: TabLayout) -> tuple[OrderError, ...]:
    errors = []
    for col in tab_layout.columns:
        value = row.get(col.key)
        if value.startswith(FORMULA_PREFIXES):
            errors.append(OrderError("E_FORMULA", {"column": col.title, "value": value}))
    return tuple(errors)


def stage_tabs(rs: Ruleset, layout: Layout, stage: str, book_key: str) -> list[TabLayout]:
    return [t for t in layout.order_tabs(stage, book_kind(book_key)) if t.key in rs.order_tabs(stage)]


def order_books(rs: Ruleset, state: dict[str, Any]) -> list[str]:
    """Books that may carry orders: every faction's still in the game, then the GM's."""
    return [f.id for f in Envelope.of(state).factions if not f.eliminated] + [GM_BOOK]


# -- tab notices ---------------------------------------------------------------------

def book_name(state: dict[str, Any], key: str) -> str:
    """The display name of a book's owner: the faction's name, the GM's book or the public one."""
    if key == GM_BOOK:
        return GM_BOOK_NAME
    return PUBLIC_BOOK_NAME if key == "public" else Envelope.of(state).name(key)


def book_problem(state: dict[str, Any], key: str, notice: OrderError) -> str:
    """A tab notice as the GM reads it (console, «Проблемы»): «Империя: во вкладке …»."""
    return f"{book_name(state, key)}{NOTICE_SEPARATOR}{notice.message()}"


def book_notices(state: dict[str, Any], key: str, problems: list[str]) -> list[str]:
    """The notices of one book among the GM's problems (the inverse of `book_problem`)."""
    prefix = book_name(state, key) + NOTICE_SEPARATOR
    return [p[len(prefix):] for p in problems if p.startswith(prefix)]


def find_renamed(tab: TabLayout, raw: RawBook, known: set[str]) -> str | None:
    """The title of a tab that is not in the layout but carries every column header of `tab`."""
    for title, rows in raw.items():
        if title not in known and title != MERGED_CELLS and rows:
            _, missing, twice = column_positions(tab, list(rows[0]))
            if not missing and not twice:
                return title
    return None


# -- reading -------------------------------------------------------------------------

def pull(gd: GameDir, be: Backend, rs: Ruleset, layout: Layout, state: dict[str, Any], stage: str, lock: bool = False,
         also_read: Mapping[str, list[str]] | None = None, kept: KeptBooks | None = None,
         late_out: dict[str, list[RowStatus]] | None = None
         ) -> tuple[dict[str, ParsedOrders], dict[str, RawBook], list[str]]:
    """One read per book with order tabs; validated orders per book key, raw tabs, tab-level problems.

    With `lock`, a backend that can (gsheets) closes the order tabs in the same request as it reads
    them, so no late edit slips in while the stage resolves; the push reopens the next stage's tabs.
    Only when an order tab is missing are the book's other tabs read too (one more read), to find
    where its orders went. The raw tabs returned (and archived) stop at each tab's row limit.
    `also_read` (book key -> tab titles) adds tabs to the same read, e.g. the «Симулятор» at `check`.
    The read (`read_orders`, or `lock_and_read`) also says which cells of the tabs are merged: they
    travel with the raw tabs (under backend.MERGED_CELLS) and refuse the rows they touch (`parse_books`).
    `kept` (tab_lock.kept_orders) gives the order rows of some books instead of what the books hold now
    (the rows at the lock, or the orders archived before a rollback): the books are still read once, and
    each row that differs from the kept one gets a status saying that the change was not read (those
    notices also go into `late_out`, for the statuses that resolution gives).
    A backend that works on many books at once (`WorksOnManyBooks`) reads the books together, each with
    its own requests as above.
    """
    raw_books: dict[str, RawBook] = {}
    late: dict[str, list[RowStatus]] = {} if late_out is None else late_out
    read = be.lock_and_read if lock and isinstance(be, LocksOnRead) else be.read_orders
    wanted: dict[str, tuple[str, list[TabLayout], list[str]]] = {}     # book key -> its id, order tabs, extras
    for key in order_books(rs, state):
        tabs = stage_tabs(rs, layout, stage, key)
        extra = [t for t in (also_read or {}).get(key, []) if t not in {tab.title for tab in tabs}]
        if tabs:    # «Приказы готовы» comes in the same read as the orders
            extra += [t for t in readiness.read_titles(layout, key) if t not in extra]
        if (tabs or extra) and key in gd.config.books:
            wanted[key] = (gd.config.books[key], tabs, extra)

    def read_book(key: str) -> tuple[RawBook, list[RowStatus] | None]:
        """One book's raw tabs (and, for a kept book, its late edits): its own requests only."""
        book_id, tabs, extra = wanted[key]
        if kept is not None and key in kept.books:   # closed already: only read, to see late edits
            raw = dict(be.read_tabs(book_id, [t.title for t in tabs] + extra))
            notes = late_edits(tabs, kept.books[key], raw, kept.after)
            return {**{t: raw[t] for t in extra if t in raw}, **kept.books[key]}, notes
        raw = dict(read(book_id, [t.title for t in tabs] + extra))
        if any(t.title not in raw for t in tabs):
            known = {t.title for t in layout.books[book_kind(key)].tabs}
            others = [title for title in be.tab_titles(book_id) if title not in known]
            if others:
                raw.update(be.read_tabs(book_id, others))
        return raw, None

    jobs = {book_id: functools.partial(read_book, key) for key, (book_id, _, _) in wanted.items()}
    if isinstance(be, WorksOnManyBooks):     # independent books, read (and locked) at once within the quota
        done = be.each_book(jobs)
    else:
        done = {book_id: job() for book_id, job in jobs.items()}
    for key, (book_id, _, _) in wanted.items():
        raw_books[key], notes = done[book_id]
        if notes is not None:
            late[key] = notes
    parsed, problems = parse_books(rs, layout, state, stage, raw_books)
    for key, notes in late.items():
        if notes and key in parsed:
            parsed[key] = _with_late(parsed[key], notes)
    return parsed, {key: _clipped(layout, key, raw) for key, raw in raw_books.items()}, problems


class KeptBooks(Protocol):
    """Order rows read instead of the books (tab_lock.KeptOrders), and since when edits are not read."""

    @property
    def books(self) -> Mapping[str, RawBook]: ...

    @property
    def after(self) -> str: ...


def _row_cells(tab: TabLayout, rows: list[list[str]], number: int) -> tuple[str, ...]:
    """Row `number` of a tab as compared for a late edit: its layout columns but the status, as text."""
    if not rows or not 1 < number <= len(rows):
        return ()
    found, _, _ = column_positions(tab, [str(c).strip() for c in rows[0]])
    cells = rows[number - 1]
    out = []
    for col in tab.columns:
        i = found.get(col.key)
        if col.status or i is None:
            continue
        out.append(str(cells[i]).strip() if i < len(cells) else "")
    while out and not out[-1]:
        out.pop()
    return tuple(out)


def late_edits(tabs: list[TabLayout], kept: RawBook, live: RawBook, after: str) -> list[RowStatus]:
    """A status for each order row the book holds now otherwise than the kept rows: not read."""
    out: list[RowStatus] = []
    for t in tabs:
        was, now = kept.get(t.title, []), live.get(t.title, [])
        for number in range(2, min(max(len(was), len(now)), t.last_row) + 1):
            before, current = _row_cells(t, was, number), _row_cells(t, now, number)
            if before == current:
                continue
            code = "E_LATE_ROW" if not before else "E_LATE_EDIT"
            out.append(RowStatus(t.key, number, (OrderError(code, {"after": after}),)))
    return out


def _with_late(parsed: ParsedOrders, late: list[RowStatus]) -> ParsedOrders:
    """The statuses of `parsed` with the late-edit notices (`add_late`)."""
    by_key = {(s.tab, s.number): s for s in parsed.statuses}
    add_late(by_key, late)
    return ParsedOrders(parsed.faction, parsed.stage, parsed.orders, tuple(by_key.values()))


def add_late(by_key: dict[tuple[str, int], RowStatus], late: Iterable[RowStatus]) -> None:
    """Add each late-edit notice to its row's own verdict (an accepted row stays accepted, with the notice
    after its text), or set it alone for a row that was blank when kept."""
    for notice in late:
        own = by_key.get((notice.tab, notice.number))
        text = notice.errors[0].message()
        if own is None:
            by_key[(notice.tab, notice.number)] = notice
        elif own.ok:
            by_key[(notice.tab, notice.number)] = RowStatus(own.tab, own.number,
                                                            note=f"{own.note} — {text}" if own.note else text)
        elif notice.errors[0] not in own.errors:
            by_key[(notice.tab, notice.number)] = RowStatus(own.tab, own.number, own.errors + notice.errors)


def _clipped(layout: Layout, key: str, raw: RawBook) -> RawBook:
    limits = {t.title: t for t in layout.order_tabs(kind=book_kind(key))}
    longest = max((t.last_row for t in limits.values()), default=0)
    return {title: clip_rows(limits[title], rows) if title in limits else rows if title == MERGED_CELLS
            else rows[:longest] for title, rows in raw.items()}


def merged_rows(tab: TabLayout, rows: list[list[str]], ranges: Iterable[str]) -> dict[int, list[str]]:
    """Order row number -> the merged ranges (A1) that touch it in a column read as orders (a merge
    only over the status column, or beyond the layout's columns, takes nothing away from an order)."""
    found, _, _ = column_positions(tab, list(rows[0]) if rows else [])
    status_at = found.get(tab.columns[tab.status_index].key) if tab.status_index is not None else None
    read = {i + 1 for i in found.values() if i != status_at}      # 1-based sheet columns
    from openpyxl.utils.cell import range_boundaries  # here: `status` of a Google game never imports openpyxl

    out: dict[int, list[str]] = {}
    for text in ranges:
        try:
            bounds = range_boundaries(text)
        except (ValueError, TypeError):
            continue
        first_col, first_row, last_col, last_row = bounds
        if first_col is None or first_row is None or last_col is None or last_row is None:
            continue
        if not any(first_col <= c <= last_col for c in read):
            continue
        for number in range(max(2, first_row), min(last_row, tab.last_row) + 1):
            out.setdefault(number, []).append(text)
    return out


def parse_books(rs: Ruleset, layout: Layout, state: dict[str, Any], stage: str,
                raw_books: dict[str, RawBook]) -> tuple[dict[str, ParsedOrders], list[str]]:
    """Validate the raw order tabs of every book (also used by `replay` on archived orders). A row that a
    merge touches (`merged_rows`) gets E_MERGED_CELLS and is left out, as a row with a formula is."""
    parsed: dict[str, ParsedOrders] = {f: ParsedOrders(f, stage, (), ()) for f in rs.factions(state)}
    problems: list[str] = []
    read_books: dict[str, tuple[dict[str, list[Row]], list[RowStatus]]] = {}
    for key, raw in raw_books.items():
        rows_by_tab: dict[str, list[Row]] = {}
        early: list[RowStatus] = []
        known = {t.title for t in layout.books[book_kind(key)].tabs}
        merges = merged_ranges(raw)
        for t in stage_tabs(rs, layout, stage, key):
            if t.title not in raw:
                found = find_renamed(t, raw, known)
                notice = (OrderError("E_TAB_RENAMED", {"tab": t.title, "found": found}) if found
                          else OrderError("E_TAB_MISSING", {"tab": t.title}))
                problems.append(book_problem(state, key, notice))
                continue
            read = rows_from_sheet(t, raw[t.title])
            problems.extend(book_problem(state, key, n) for n in read.notices)
            early.extend(read.refused)
            if read.header_ok:     # a broken header: the tab is left out, as if it were missing
                merged = merged_rows(t, raw[t.title], merges.get(t.title, ()))
                early.extend(RowStatus(t.key, n, (OrderError("E_MERGED_CELLS", {"cells": ", ".join(cells)}),))
                             for n, cells in sorted(merged.items()))
                clean = []
                for row in read.rows:
                    if row.number in merged:
                        continue
                    errs = _formula_errors(row, t)
                    if errs:
                        early.append(RowStatus(t.key, row.number, errs))
                    else:
                        clean.append(row)
                rows_by_tab[t.key] = clean
        read_books[key] = (rows_by_tab, early)
    # the GM's corrections first: they apply before the stage's orders, which are read against the state they
    # make (Ruleset.corrected); then the factions' books at once (the rule set may read the state once for all)
    gm = rs.validate_gm(state, stage, read_books[GM_BOOK][0]) if GM_BOOK in read_books else None
    base = rs.corrected(state, stage, gm) if gm is not None and gm.orders else state
    results = rs.validate_books(base, stage, {key: rows for key, (rows, _) in read_books.items() if key != GM_BOOK})
    for key, (_rows_by_tab, early) in read_books.items():
        result = gm if key == GM_BOOK and gm is not None else results[key]
        parsed[key] = ParsedOrders(key, stage, result.orders, tuple(early) + tuple(result.statuses))
    return parsed, problems


def merge_statuses(parsed: Mapping[str, ParsedOrders], resolved: Mapping[str, Iterable[RowStatus]],
                   late: Mapping[str, Iterable[RowStatus]] | None = None) -> dict[str, list[RowStatus]]:
    """Each book's row statuses from validation, overridden by the ones resolution gave, with the
    late-edit notices of `pull` kept on top of either."""
    out: dict[str, list[RowStatus]] = {}
    for fid, p in parsed.items():
        by_key = {(s.tab, s.number): s for s in p.statuses}
        for s in resolved.get(fid, ()):
            by_key[(s.tab, s.number)] = s
        add_late(by_key, (late or {}).get(fid, ()))
        out[fid] = sorted(by_key.values(), key=lambda s: (s.tab, s.number))
    return out
