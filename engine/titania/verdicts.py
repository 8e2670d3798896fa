"""What became of each order row of a turn, in the adjudicator's own words (SCHEMA §2-§3, SCHEMA_V2 §11-§12), kept
in the game state (`last["rows"]`): a GM's tool, a replay or `adjudicate --through-books` reads the outcome of a
row there, with its reason code, instead of parsing the Russian status.

A row that the turn carried to the adjudicator has the adjudicator's item (an order, a part of a split, a cast, the
ability, the Might allocation); a row refused by the books' reading (`check` and `turn` give one verdict on it) is
void, with the reason code its error stands for (`REASON_OF`, or the engine's own reason for an error the
forecast found: its `reason_code`).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import OrderError
from engine.ruleset import ParsedOrders
from engine.titania.tabs import BLIND, MIGHT

# A book error -> the adjudicator's reason code of an order refused for it (the closed list, SCHEMA §3 and
# SCHEMA_V2 §12); an error not listed stands for `bad_order` (no such army, a malformed or duplicate order).
REASON_OF: dict[str, str] = {
    "T_NOT_OWN_PROVINCE": "not_own", "T_SEA_PROVINCE": "not_own", "T_BUILDING_THERE": "duplicate",
    "T_NO_DEPOSIT": "no_deposit", "T_STOLEN": "stolen", "T_UNKNOWN_RESOURCE": "not_transferable",
    "T_BAD_ROUTE": "bad_route", "T_NOT_ADJACENT": "not_adjacent", "T_LAND_TO_SEA": "sea",
    "T_HIRE_FOOD": "food", "T_SPLIT_FOOD": "food", "T_HIRE_LIMIT": "over_limit", "T_MOVE_OVER_LIMIT": "over_limit",
    "T_NO_RESOURCES": "no_resources", "T_MIGHT_OVER": "over_cap", "T_SPELL_TWICE": "twice",
    "T_SPELL_UNKNOWN": "not_known", "T_SPELL_NOT_LEARNED": "not_known", "T_SPELL_LEARN_FAILS": "not_known",
    "T_TARGET_UNSEEN": "bad_target", "T_NO_TARGET_ARMY": "bad_target", "T_TARGET_FACTION_NEEDED": "bad_target",
    "T_ABILITY_NEEDS": "bad_target", "T_UNKNOWN_EVENT": "no_event", "T_TECH_KNOWN": "known",
    "T_SPELL_KNOWN": "known", "T_UNKNOWN_TECH": "unknown_item", "T_UNKNOWN_SPELL": "unknown_item",
    "T_NO_ITEM": "no_item", "T_NO_MARKET": "no_market", "T_NO_INFLUENCE": "no_influence",
    "T_NO_SUPPORT_NATIVES": "no_support_allowed", "T_SELF_CARAVAN": "bad_order",
}


def reason_of(error: OrderError) -> str:
    """The reason code a book error stands for."""
    code = error.params.get("reason_code")
    if isinstance(code, str) and code:
        return code
    return REASON_OF.get(error.code, "bad_order")


def _refused(parsed: ParsedOrders) -> dict[tuple[str, int], dict[str, Any]]:
    return {(s.tab, s.number): {"outcome": "void", "reason": reason_of(s.errors[0]), "code": s.errors[0].code}
            for s in parsed.statuses if s.errors}


def row_verdicts(out: Mapping[str, Any], orders: Mapping[str, ParsedOrders],
                 planning_rows: Sequence[tuple[str, str, list[int]]],
                 campaign_rows: Sequence[tuple[str, str, list[int]]]) -> dict[str, dict[str, dict[str, Any]]]:
    """faction -> "tab:row" -> the row's verdict (see the module), for every row of the faction's books."""
    result: dict[str, dict[str, dict[str, Any]]] = {f: {} for f in orders}

    def put(fid: str, tab: str, row: int, item: Mapping[str, Any]) -> None:
        result.setdefault(fid, {})[f"{tab}:{row}"] = dict(item)

    for fid, parsed in orders.items():
        for (tab, row), item in _refused(parsed).items():
            put(fid, tab, row, item)
    for item in out.get("planning", {}).get("orders", []):
        if item["index"] < len(planning_rows):
            fid, tab, rows = planning_rows[item["index"]]
            for r in rows:
                put(fid, tab, r, item)
    for item in out.get("orders", []):
        if item["index"] < len(campaign_rows):
            fid, tab, rows = campaign_rows[item["index"]]
            parts = item.get("parts")
            for k, r in enumerate(rows):
                put(fid, tab, r, {**item, "part": k, **({"part_verdict": parts[k]} if parts and k < len(parts)
                                                         else {})})
    for fid, parsed in orders.items():
        casts = iter(out.get("spells", {}).get(fid, []))
        for it in parsed.orders:
            if it.get("kind") == "spell":
                got = next(casts, None)
                if got is not None:
                    for r in it["rows"]:
                        put(fid, MIGHT, int(r), {**got, **({BLIND: True} if it["cast"].get(BLIND) else {})})
            elif it.get("kind") == "might" and fid in out.get("might_allocation", {}):
                for r in it["rows"]:
                    put(fid, MIGHT, int(r), out["might_allocation"][fid])
            elif it.get("kind") == "ability" and fid in out.get("abilities", {}):
                for r in it["rows"]:
                    put(fid, MIGHT, int(r), {**out["abilities"][fid], **({BLIND: True} if it["spec"].get(BLIND)
                                                                          else {})})
    return result


def keeper_verdicts(items: Sequence[Mapping[str, Any]], players: int) -> list[dict[str, Any]]:
    """The verdicts on the Keepers' orders of a phase (the game gives them after the players' `players` orders)."""
    return [dict(item) for item in items if item["index"] >= players]

