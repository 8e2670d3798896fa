"""The rule-set interface and the plain data types that cross it.

The bridge (`sheets_bridge`) talks to a rule set only through this interface:
rows in, orders and per-row statuses out; state in, tables for each book out.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from engine.errors import OrderError

OK_TEXT = "OK"


@dataclass(frozen=True)
class Row:
    """One order row as read from a sheet: its 1-based sheet row and cells by column key."""

    number: int
    cells: Mapping[str, str]

    def get(self, key: str) -> str:
        value = self.cells.get(key, "")
        return "" if value is None else str(value).strip()

    def is_blank(self) -> bool:
        return all(not str(v or "").strip() for v in self.cells.values())


@dataclass(frozen=True)
class RowStatus:
    """The verdict on one order row: OK (with an optional note) or a list of errors."""

    tab: str
    number: int
    errors: tuple[OrderError, ...] = ()
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    def text(self) -> str:
        if self.ok:
            return f"{OK_TEXT}: {self.note}" if self.note else OK_TEXT
        return " ".join(e.message() for e in self.errors)


@dataclass(frozen=True)
class ParsedOrders:
    """A faction's orders for one stage, as JSON-able dicts, with a status per non-blank row."""

    faction: str
    stage: str
    orders: tuple[dict, ...]
    statuses: tuple[RowStatus, ...]


@dataclass(frozen=True)
class Table:
    """A rectangular view for one tab: column titles and rows of plain values."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...] = ()


@dataclass(frozen=True)
class StageResult:
    """What resolving a stage produced: the new state, final row statuses and reports."""

    state: dict
    statuses: Mapping[str, tuple[RowStatus, ...]]
    events: tuple[dict, ...] = ()
    reports: Mapping[str, str] = field(default_factory=dict)


class Ruleset:
    """Base class of a rule set: declarative data plus small hooks.

    Book keys used by `views`: each faction id, "public" and "gm".
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    stages: ClassVar[tuple[str, ...]] = ("orders",)
    stage_titles: ClassVar[Mapping[str, str]] = {"finished": "игра окончена"}   # Russian display names

    def stage_title(self, stage: str) -> str:
        """The stage's Russian display name (its id if the rule set gives none)."""
        return self.stage_titles.get(stage, Ruleset.stage_titles.get(stage, stage))

    # -- data and set-up --------------------------------------------------
    def dump_data(self) -> dict:
        """Every number of the rule set's data files, JSON-able."""
        raise NotImplementedError

    def new_game(self, scenario: Mapping[str, Any]) -> dict:
        """Initial state (JSON-able, with schema_version) from a scenario mapping."""
        raise NotImplementedError

    def factions(self, state: dict) -> list[str]:
        """Faction ids of the game, in a stable order."""
        return list(state["factions"])

    # -- orders ----------------------------------------------------------
    def order_tabs(self, stage: str) -> tuple[str, ...]:
        """Tab keys of the faction books that carry orders in `stage`."""
        raise NotImplementedError

    def vocabularies(self, state: dict, faction: str | None) -> dict[str, list[str]]:
        """Closed vocabularies (dropdown lists) by name, for one faction's book or the GM's."""
        return {}

    def validate(self, state: dict, faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        """Parse and check a faction's rows; never raises on bad input."""
        raise NotImplementedError

    def resolve(self, state: dict, stage: str, orders: Mapping[str, ParsedOrders],
                seed: int) -> StageResult:
        """Close `stage`: pure and deterministic in (state, orders, seed)."""
        raise NotImplementedError

    # -- views -------------------------------------------------------------
    def views(self, state: dict, result: StageResult | None = None) -> dict[str, dict[str, Table]]:
        """Tables per book key and status-tab key."""
        raise NotImplementedError

    def summary(self, state: dict) -> dict:
        """Turn, stage, era and per-faction figures for `status --json`."""
        raise NotImplementedError

    def awaiting(self, state: dict) -> dict[str, list[str]]:
        """What the open stage awaits from whom: faction id -> list of Russian notes."""
        return {f: [] for f in self.factions(state)}

    # -- battles -------------------------------------------------------------
    def simulate_battle(self, spec: Mapping[str, Any], runs: int, seed: int) -> dict:
        raise NotImplementedError(f"{self.name} has no battle simulator")

    def battle_report(self, spec: Mapping[str, Any], seed: int, bbcode: bool = False) -> str:
        raise NotImplementedError(f"{self.name} has no battle simulator")
