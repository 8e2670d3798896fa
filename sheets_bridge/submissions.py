"""Who has submitted orders for the open stage, who says they are ready, and how many rows have errors, per
faction.

A faction has submitted when one of the stage's fresh order tabs (not the standing ones, «keep»,
whose rows stay from turn to turn) holds a row the bridge did not put there (a pre-filled row counts
only once the player changed it). `check` journals these counts; `status` reads them from there, from
the rows kept by `lock`, or from the books.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.ruleset import GM_BOOK, ParsedOrders, Ruleset, Table
from sheets_bridge import readiness
from sheets_bridge.layouts import Layout, TabLayout, rows_from_sheet
from sheets_bridge.pull import stage_tabs

RawBook = Mapping[str, list[list[str]]]


@dataclass(frozen=True)
class Submission:
    """One faction's orders for the open stage: rows read, rows with errors, whether it submitted."""

    rows: int
    errors: int
    submitted: bool
    ready: bool = False     # its players said «Приказы готовы» (sheets_bridge.readiness)

    def to_json(self) -> dict[str, Any]:
        return {"rows": self.rows, "errors": self.errors, "submitted": self.submitted, "ready": self.ready}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Submission:
        return cls(int(data["rows"]), int(data["errors"]), bool(data["submitted"]), bool(data.get("ready", False)))


def _prefilled(tab: TabLayout, table: Table | None) -> dict[int, dict[str, str]]:
    """The rows the bridge writes into an order tab (sheet row -> column key -> text)."""
    if table is None:
        return {}
    where = {title: i for i, title in enumerate(table.columns)}
    out = {}
    for number, row in enumerate(table.rows, start=2):
        out[number] = {c.key: str(row[where[c.title]]).strip() if c.title in where and where[c.title] < len(row)
                       else "" for c in tab.columns}
    return out


def submitted(rs: Ruleset, layout: Layout, state: Mapping[str, Any], stage: str, key: str, raw: RawBook,
              views: Mapping[str, Table]) -> bool:
    """Whether the book holds a row of its own in one of the stage's fresh order tabs."""
    for tab in stage_tabs(rs, layout, stage, key):
        if tab.keep or tab.title not in raw:
            continue
        prefill = _prefilled(tab, views.get(tab.key))
        for row in rows_from_sheet(tab, raw[tab.title]).rows:
            bridge = prefill.get(row.number)
            if bridge is None or any(row.get(k) != bridge.get(k, "") for k in row.cells):
                return True
    return False


def count(rs: Ruleset, layout: Layout, state: Mapping[str, Any], stage: str, raw_books: Mapping[str, RawBook],
          parsed: Mapping[str, ParsedOrders]) -> dict[str, Submission]:
    """Every faction book's Submission from its order tabs as read and their validation."""
    views = rs.views(state)
    out = {}
    for key, raw in raw_books.items():
        if key == GM_BOOK:
            continue
        statuses = parsed[key].statuses if key in parsed else ()
        out[key] = Submission(len(statuses), sum(not s.ok for s in statuses),
                              submitted(rs, layout, state, stage, key, raw, views.get(key, {})),
                              readiness.is_ready(layout, key, raw))
    return out


def checked_entry(turn: int, stage: str, epoch: int, at: str, counts: Mapping[str, Submission]) -> dict[str, Any]:
    """The journal record of a `check`: when, and each faction's Submission."""
    return {"event": "checked", "turn": turn, "stage": stage, "epoch": epoch, "at": at,
            "books": {key: s.to_json() for key, s in counts.items()}}


def last_check(journal: list[dict[str, Any]], turn: int, stage: str, epoch: int
               ) -> tuple[str, dict[str, Submission]] | None:
    """The latest `check` of (turn, stage) in this epoch: its time and counts."""
    for entry in reversed(journal):
        if (entry.get("event") == "checked" and entry.get("turn") == turn and entry.get("stage") == stage
                and entry.get("epoch") == epoch and isinstance(entry.get("books"), dict)):
            return str(entry.get("at", "")), {k: Submission.from_json(v) for k, v in entry["books"].items()}
    return None
