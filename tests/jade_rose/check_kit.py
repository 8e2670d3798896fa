"""`check` and `turn` of the orders stage through the rule set: the tabs a player types, `validate`'s
statuses and the verdicts the bridge keeps (each row's check verdict, overridden by the turn's)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import find_ruleset
from engine.ruleset import ParsedOrders, Row, RowStatus
from tests.jade_rose.war_kit import ARMY_KEYS, GARRISON_KEYS, ORDER_KEYS, rows

RS = find_ruleset("jade_rose")
ECONOMY_KEYS = ("action", "city", "what", "count")
KEYS = {"economy": ECONOMY_KEYS, "armies": ARMY_KEYS, "army_orders": ORDER_KEYS, "garrisons": GARRISON_KEYS}
Verdicts = dict[tuple[str, int], RowStatus]


def tabs(**typed: list[tuple]) -> dict[str, list[Row]]:
    return {tab: rows(KEYS[tab], *cells) for tab, cells in typed.items()}


def check_orders(state: Mapping[str, Any], books: Mapping[str, dict]) -> dict[str, ParsedOrders]:
    """`check` of the orders stage: every faction's tabs through the rule set's `validate`."""
    return {fid: RS.validate(state, fid, "orders", book) for fid, book in books.items()}


def verdicts(parsed: ParsedOrders, resolved: Mapping[str, Any] | None = None) -> Verdicts:
    """Each row's verdict: `check`'s, overridden by the turn's (as the bridge merges them)."""
    out = {(s.tab, s.number): s for s in parsed.statuses}
    for s in (resolved or {}).get(parsed.faction, ()):
        out[(s.tab, s.number)] = s
    return out
