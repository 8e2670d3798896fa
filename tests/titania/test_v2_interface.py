"""titania.adjudicate.v2 as an interface (SCHEMA_V2 preamble, §11, §12): a v2 file without the new keys gives the
v1 output with the new keys present and empty; outcomes and reasons come only from the closed lists; the game
adjudicates v2 files that carry its own content as their catalog (one path)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.titania.adjudicate import adjudicate
from engine.titania.data import catalog_json
from engine.titania.game_turn import situation
from engine.titania.reasons import REASONS
from engine.titania.situation import SCHEMA_ID, SCHEMA_V2

HERE = Path(__file__).resolve().parent
PUBLIC = HERE.parents[1].parent / "shared" / "conformance" / "titania"
CASES = sorted((HERE / "cases").glob("*.json")) + sorted(PUBLIC.glob("t*.json"))
V1_CASES = [p for p in CASES if json.loads(p.read_text("utf-8"))["schema"] == SCHEMA_ID]

# SCHEMA §3 and SCHEMA_V2 §12: the closed lists (code -> outcome)
CLOSED = {
    "succeeded": {"held", "moved", "captured", "won", "boss_killed", "supported", "split", "built", "hired", "sent",
                  "registered", "allocated", "researched", "learned", "contributed", "cast"},
    "failed": {"lost", "draw", "boss_survived", "warded", "dislodged"},
    "cancelled": {"attacked", "intimidated", "ally_captured", "stopped"},
    "void": {"bad_order", "not_adjacent", "sea", "over_limit", "food", "protected", "no_battle", "empty_province",
             "already_supported", "engaged", "same_origin", "no_support_allowed", "no_influence", "bad_target",
             "over_cap", "not_own", "duplicate", "no_deposit", "no_resources", "stolen", "not_transferable",
             "bad_route", "hostile_route", "no_port", "known", "needs_might", "needs_technology", "not_known",
             "twice", "no_event", "no_market", "no_item", "unknown_item"},
}
NEW_KEYS = {"spells": {}, "revealed": {}, "active_events": [], "quests": {}}
# the extension keys the project read in v1 files before v2 (a file without them is a SCHEMA.md file)
EXTENSION_INPUT = ("technologies", "spells", "items", "events", "quests", "turn")


def _schema_only(d: dict[str, Any]) -> bool:
    state = d.get("state", {})
    return (not any(k in state for k in EXTENSION_INPUT) and "spells" not in d
            and not any(p.get("hidden") for p in d["map"]["provinces"]))


def test_the_catalogue_of_reasons_is_the_closed_lists() -> None:
    assert {code: r.outcome for code, r in REASONS.items()} == {c: o for o, codes in CLOSED.items() for c in codes}


def _verdicts(out: Any) -> list[tuple[str, str]]:
    """Every (outcome, reason) pair anywhere in an output."""
    found: list[tuple[str, str]] = []
    if isinstance(out, dict):
        if isinstance(out.get("outcome"), str) and isinstance(out.get("reason"), str):
            found.append((out["outcome"], out["reason"]))
        for v in out.values():
            found += _verdicts(v)
    elif isinstance(out, list):
        for v in out:
            found += _verdicts(v)
    return found


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_every_outcome_and_reason_is_in_the_closed_lists(path: Path) -> None:
    out = adjudicate(json.loads(path.read_text("utf-8"))).output
    assert out is not None
    for outcome, reason in _verdicts(out):
        assert reason in CLOSED.get(outcome, set()), (outcome, reason)


@pytest.mark.parametrize("path", [p for p in V1_CASES if _schema_only(json.loads(p.read_text("utf-8")))],
                         ids=lambda p: p.stem)
def test_a_v2_file_without_the_new_keys_gives_the_v1_output(path: Path) -> None:
    v1 = json.loads(path.read_text("utf-8"))
    v2 = {**v1, "schema": SCHEMA_V2}
    for seed in (0, 3):
        one, two = adjudicate(v1, seed).output, adjudicate(v2, seed).output
        assert one is not None and two is not None
        assert two["schema"] == SCHEMA_V2 and one["schema"] == SCHEMA_ID
        for key, empty in NEW_KEYS.items():
            assert two[key] == empty
        for rw in one["rewards"]:  # a v1 file draws a Boss's technology or spell from the game's own content;
            rw.pop("technology", None)  # a v2 file only from its catalog, here empty (G72)
            rw.pop("spell", None)
        for f in one["factions"].values():
            f["technologies"], f["spells"] = [], []
        assert {**one, "schema": SCHEMA_V2} == two


def test_the_game_adjudicates_v2_files_carrying_its_own_catalog() -> None:
    from engine.ruleset import ParsedOrders
    from engine.titania.setup import new_game

    scenario: dict[str, Any] = {
        "title": "v2", "provinces": [{"id": "a"}, {"id": "b"}, {"id": "s", "sea": True}, {"id": "c"}],
        "adjacency": [["a", "b"], ["a", "s"], ["b", "s"], ["b", "c"]],
        "factions": {"red": {"race": "humans", "colour": "red", "capital": "a"},
                     "blue": {"race": "orcs", "colour": "blue", "capital": "b"}}}
    state = new_game(scenario)
    data, _, _ = situation(state, {f: ParsedOrders(f, "orders", (), ()) for f in state["factions"]}, 1)
    assert data["schema"] == SCHEMA_V2 and data["catalog"] == catalog_json()
    assert adjudicate(data, 1).output is not None
