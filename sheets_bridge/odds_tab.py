"""The «Симулятор» tab of a faction book: a player describes a hypothetical battle in its rows, `check`
reads them in the same read as the orders and writes back each row's status and the odds table (the
rule set's `odds_calculator` capability) in the same write. The input tab is open at every stage and
never cleared; `turn` leaves the last odds in place until the next `check`."""
from __future__ import annotations

from collections.abc import Mapping

from engine.ruleset import OddsCalculator, Ruleset, Table
from sheets_bridge.backends.base import TabWrite
from sheets_bridge.layouts import Layout, TabLayout, rows_from_sheet, status_column_update, status_tab

RawBook = Mapping[str, list[list[str]]]


def _tabs(rs: Ruleset, layout: Layout) -> tuple[OddsCalculator, TabLayout, TabLayout] | None:
    calc = rs.odds_calculator()
    if calc is None:
        return None
    source, result = layout.simulator_tab(calc.tab), layout.tab(calc.result_tab)
    if source is None or result is None:
        return None
    return calc, source, result


def reads(rs: Ruleset, layout: Layout, books: list[str]) -> dict[str, list[str]]:
    """The simulator tab's title for each faction book (for `pull(also_read=...)`)."""
    tabs = _tabs(rs, layout)
    return {} if tabs is None else {key: [tabs[1].title] for key in books}


def has_rows(rs: Ruleset, layout: Layout, books: Mapping[str, RawBook]) -> bool:
    """Whether any book's simulator tab holds a row below its header (then check will fight battles)."""
    tabs = _tabs(rs, layout)
    if tabs is None:
        return False
    title = tabs[1].title
    return any(any(str(c).strip() for row in raw.get(title, [])[1:] for c in row) for raw in books.values())


def writes(rs: Ruleset, layout: Layout, state: Mapping[str, object], faction: str, raw: RawBook) -> list[TabWrite]:
    """The status cells of the simulator tab and the odds tab, from the rows as read (none if unread)."""
    tabs = _tabs(rs, layout)
    if tabs is None or tabs[1].title not in raw:
        return []
    calc, source, result = tabs
    sheet = raw[source.title]
    read = rows_from_sheet(source, sheet)
    statuses, table = calc.odds(state, faction, read.rows) if read.header_ok else ((), Table(("",)))
    every = [*read.refused, *statuses]
    header = [str(c).strip() for c in (sheet[0] if sheet else [])]
    col = source.status_position(header)
    stale = [n for n, cells in enumerate(sheet[1:], start=2)
             if col < len(cells) and str(cells[col]).strip() and n not in {s.number for s in every}]
    out = [status_column_update(source, every, header, stale)]
    if read.header_ok:
        out.append(status_tab(result, table))
    return out


def initial(rs: Ruleset, layout: Layout, state: Mapping[str, object], faction: str) -> dict[str, Table]:
    """The odds tab before any description: the rule set's explanation of how to use the simulator."""
    tabs = _tabs(rs, layout)
    return {} if tabs is None else {tabs[2].key: tabs[0].odds(state, faction, [])[1]}
