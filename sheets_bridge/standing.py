"""Standing order tabs (layout `keep = true`, e.g. «Армии»): their status cells at every opening.

Their rows stay from stage to stage, so their status column must never show a stale verdict:
- after the tab's own stage resolves, each row gets the verdict that stage gave it;
- when the tab's stage opens again (the next turn), each row is checked anew against the new state,
  as `check` would with nothing else entered (a unit lost in battle shows up at once);
- a row with nothing to say is cleared.
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
                raw = _last_read(gd, key, stage, turn)
                texts = _checked_anew(rs, layout, state, key, stage, raw)
            elif stage == closed_stage:
                raw = _last_read(gd, key, stage, turn)
                texts = {(s["tab"], s["row"]): s["text"] for s in saved.get(key, [])}
            else:
                continue
            for t in tabs:
                if t.title in raw:
                    cells[t.key] = _column(t, raw[t.title], texts)
        if cells:
            out[key] = cells
    return out


def _last_read(gd: GameDir, key: str, stage: str, turn: int) -> dict[str, list[list[Any]]]:
    """The book's tabs as last read at `stage` (that turn's archive, or the latest before it)."""
    for t in range(turn, 0, -1):
        path = gd.archive_path(t) / f"orders-{stage}-{key}.json"
        if path.is_file():
            data: dict[str, list[list[Any]]] = json.loads(path.read_text(encoding="utf-8"))
            return data
    return {}


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
    """The tab's status column: a text for every row below the header, blank where none is due."""
    header = [str(c).strip() for c in (rows[0] if rows else [])]
    col = tab.status_position(header)
    return {col: {n: texts.get((tab.key, n), "") for n in range(2, len(rows) + 1)}}
