"""Pulling orders: one read per order book, then per-row validation through the rule set."""
from __future__ import annotations

from engine.errors import OrderError
from engine.ruleset import ParsedOrders, Row, RowStatus, Ruleset
from sheets_bridge.backend import Backend
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, book_kind, rows_from_sheet

FORMULA_PREFIXES = ("=",)


def _formula_errors(row: Row, tab_layout) -> tuple[OrderError, ...]:
    errors = []
    for col in tab_layout.columns:
        value = row.get(col.key)
        if value.startswith(FORMULA_PREFIXES):
            errors.append(OrderError("E_FORMULA", {"column": col.title, "value": value}))
    return tuple(errors)


def stage_tabs(rs: Ruleset, layout: Layout, stage: str, book_key: str):
    return [t for t in layout.order_tabs(stage, book_kind(book_key)) if t.key in rs.order_tabs(stage)]


def order_books(rs: Ruleset, state: dict) -> list[str]:
    """Books that may carry orders: every playing faction's, then the GM's (adjustments)."""
    return [f for f in rs.factions(state) if not state["factions"][f].get("eliminated")] + ["gm"]


def pull(gd: GameDir, be: Backend, rs: Ruleset, layout: Layout, state: dict, stage: str, lock: bool = False
          ) -> tuple[dict[str, ParsedOrders], dict[str, dict[str, list[list[str]]]], list[str]]:
    """One read per book with order tabs; validated orders per book key, raw tabs, tab-level problems.

    With `lock`, a backend that can (gsheets) closes the order tabs in the same request as it reads
    them, so no late edit slips in while the stage resolves; the push reopens the next stage's tabs.
    """
    raw_books: dict[str, dict[str, list[list[str]]]] = {}
    read = getattr(be, "lock_and_read", None) if lock else None
    for key in order_books(rs, state):
        tabs = stage_tabs(rs, layout, stage, key)
        if tabs and key in gd.config.books:
            raw_books[key] = (read or be.read_tabs)(gd.config.books[key], [t.title for t in tabs])
    parsed, problems = parse_books(rs, layout, state, stage, raw_books)
    return parsed, raw_books, problems


def parse_books(rs: Ruleset, layout: Layout, state: dict, stage: str,
                raw_books: dict[str, dict[str, list[list[str]]]]) -> tuple[dict[str, ParsedOrders], list[str]]:
    """Validate the raw order tabs of every book (also used by `replay` on archived orders)."""
    parsed: dict[str, ParsedOrders] = {f: ParsedOrders(f, stage, (), ()) for f in rs.factions(state)}
    problems: list[str] = []
    for key, raw in raw_books.items():
        rows_by_tab: dict[str, list[Row]] = {}
        early: list[RowStatus] = []
        for t in stage_tabs(rs, layout, stage, key):
            if t.title not in raw:
                problems.append(f"{key}: tab «{t.title}» is missing (renamed or deleted); its orders were not read")
                continue
            rows, header_problems = rows_from_sheet(t, raw[t.title])
            problems.extend(f"{key}: {p}" for p in header_problems)
            clean = []
            for row in rows:
                errs = _formula_errors(row, t)
                if errs:
                    early.append(RowStatus(t.key, row.number, errs))
                else:
                    clean.append(row)
            rows_by_tab[t.key] = clean
        result = rs.validate(state, key, stage, rows_by_tab)
        parsed[key] = ParsedOrders(key, stage, result.orders, tuple(early) + tuple(result.statuses))
    return parsed, problems


def merge_statuses(parsed: dict[str, ParsedOrders], resolved: dict) -> dict[str, list[RowStatus]]:
    out: dict[str, list[RowStatus]] = {}
    for fid, p in parsed.items():
        by_key = {(s.tab, s.number): s for s in p.statuses}
        for s in resolved.get(fid, ()):
            by_key[(s.tab, s.number)] = s
        out[fid] = sorted(by_key.values(), key=lambda s: (s.tab, s.number))
    return out
