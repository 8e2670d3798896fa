"""Standing order tabs (layout `keep = true`, e.g. «Армии»): their status cells at every opening.

Their rows stay from stage to stage, so their status column must never show a stale verdict:
- after the tab's own stage resolves, each row gets the verdict that stage gave it;
- when the tab's stage opens again (the next turn), each row is checked anew against the new state,
  as `check` would with nothing else entered (a unit lost in battle shows up at once);
- a row with nothing to say is cleared, below the tab's limit too (a row typed past it and cleared loses its
  «не прочитана»; one still filled keeps it).
The rows are the ones last read (the archive of the tab's stage): the tab is closed in between.
"""
from __future__ import annotations

import json
from typing import Any

from engine.ruleset import Ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, TabLayout, book_kind
from sheets_bridge.pull import order_books, parse_books, stage_tabs

StatusCells = dict[str, dict[int, dict[int, str]]]     # tab key -> column -> sheet row -> text


def standing_statuses(gd: GameDir, rs: Ruleset, layout: Layout, state: dict[str, Any],
                      closed: tuple[int, str], saved: dict[str, Any]) -> dict[str, StatusCells]:
    """Book key -> the status cells of its standing order tabs, after `closed` resolved into `state`
    (`saved`: the closed stage's archived row outcomes)."""
    out: dict[str, StatusCells] = {}
    turn, closed_stage = closed
    for key in order_books(rs, state):
        cells: StatusCells = {}
        kept = [t for t in layout.order_tabs(kind=book_kind(key)) if t.keep]
        for stage in sorted({t.stage for t in kept}):
            tabs = [t for t in kept if t.stage == stage]
            if stage == state["stage"]:
                read_at, raw = _last_read(gd, key, stage, turn)
                texts = _checked_anew(rs, layout, state, key, stage, raw)
                texts.update(_past_the_limit(gd, tabs, key, stage, read_at))
            elif stage == closed_stage:
                _, raw = _last_read(gd, key, stage, turn)
                texts = {(s["tab"], s["row"]): s["text"] for s in saved.get(key, [])}
            else:
                continue
            for t in tabs:
                if t.title in raw:
                    cells[t.key] = _column(t, raw[t.title], texts)
        if cells:
            out[key] = cells
    return out


def _last_read(gd: GameDir, key: str, stage: str, turn: int) -> tuple[int | None, dict[str, list[list[Any]]]]:
    """The turn whose archive holds the book's tabs as last read at `stage` (`turn`'s, or the latest before
    it), and those tabs."""
    for t in range(turn, 0, -1):
        path = gd.archive_path(t) / f"orders-{stage}-{key}.json"
        if path.is_file():
            data: dict[str, list[list[Any]]] = json.loads(path.read_text(encoding="utf-8"))
            return t, data
    return None, {}


def _past_the_limit(gd: GameDir, tabs: list[TabLayout], key: str, stage: str, turn: int | None
                    ) -> dict[tuple[str, int], str]:
    """The statuses `stage` gave, when it last read the book (in `turn`), to its rows below these tabs'
    limit: the archive of the rows as read stops at the limit, and the tabs stayed closed since, so those
    rows still hold what they held then (a row past the limit keeps its «не прочитана»)."""
    path = gd.archive_path(turn) / f"statuses-{stage}.json" if turn is not None else None
    if path is None or not path.is_file():
        return {}
    limits = {t.key: t.last_row for t in tabs}
    saved = json.loads(path.read_text(encoding="utf-8")).get(key, [])
    return {(s["tab"], s["row"]): s["text"] for s in saved
            if s.get("tab") in limits and int(s.get("row", 0)) > limits[s["tab"]]}


def _checked_anew(rs: Ruleset, layout: Layout, state: dict[str, Any], key: str, stage: str,
                  raw: dict[str, list[list[Any]]]) -> dict[tuple[str, int], str]:
    """Each standing row's status against `state`, the stage's other order tabs empty (they open
    cleared)."""
    tabs = stage_tabs(rs, layout, stage, key)
    book = {t.title: (raw[t.title] if t.keep and t.title in raw else [[c.title for c in t.columns]])
            for t in tabs}
    parsed, _ = parse_books(rs, layout, state, stage, {key: book})
    return {(s.tab, s.number): s.text() for s in parsed[key].statuses}


def _column(tab: TabLayout, rows: list[list[Any]], texts: dict[tuple[str, int], str]) -> dict[int, dict[int, str]]:
    """The tab's status column: a text for every row below the header, blank where none is due, and the
    statuses of rows past the limit (the rows as read stop at it; the push clears the other status cells
    down there: TabWrite.clear_statuses_below)."""
    header = [str(c).strip() for c in (rows[0] if rows else [])]
    col = tab.status_position(header)
    cells = {n: texts.get((tab.key, n), "") for n in range(2, len(rows) + 1)}
    cells.update({n: text for (key, n), text in texts.items() if key == tab.key and n > tab.last_row and text})
    return {col: cells}
