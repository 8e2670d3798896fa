"""Titania data files (technologies, spells, events, quests, items, buildings: the v2 `catalog` form): the shipped
defaults load and are marked as defaults; a broken set is reported with every problem at once, in Russian, path
first; a situation file's own catalog goes through the same checks."""
from __future__ import annotations

import copy
import importlib.resources
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine.datafiles import DataError
from engine.titania.adjudicate import adjudicate
from engine.titania.catalog import parse_catalog
from engine.titania.data import FILES, catalog_json, default_data, validate
from engine.titania.params import parse_params
from engine.titania.races import RACES
from engine.titania.reveal import reveal_around

CASES = Path(__file__).resolve().parent / "cases"


def _shipped() -> dict[str, dict[str, Any]]:
    folder = importlib.resources.files("engine.titania").joinpath("data")
    return {name: tomllib.loads(folder.joinpath(f"{name}.toml").read_text("utf-8")) for name in FILES}


def test_shipped_data_loads_with_every_kind_of_record() -> None:
    data = default_data()
    assert data.technologies and data.spells and data.events_of("minor") and data.events_of("major")
    assert {q.kind for q in data.quests.values()} == {"deliver", "boss_item", "find_item"}
    effects = {e.type for t in data.technologies.values() for e in t.effects}
    assert effects == {"max_strength", "hire", "replenish", "food", "production", "battle_modifier"}
    assert {e.type for s in data.spells.values() for e in s.effects} == {
        "battle_modifier", "damage", "stop", "reinforce", "gain", "ward"}


@pytest.mark.parametrize("name", FILES)
def test_every_shipped_record_is_marked_as_a_default(name: str) -> None:
    text = importlib.resources.files("engine.titania").joinpath("data", f"{name}.toml").read_text("utf-8")
    headers = [line for line in text.splitlines() if line.startswith("[") and line.strip() != "[buildings]"]
    assert all("# default: not in the rule book" in h for h in headers)
    assert headers or name == "buildings"  # the shipped buildings keep their v1 defaults (params.toml)


def test_the_shipped_files_are_exactly_the_v2_catalog_form() -> None:
    raw = catalog_json()
    assert set(raw) == {"technologies", "spells", "events", "quests", "items", "buildings"}
    catalog, problems = parse_catalog(raw, strict=True)
    assert problems == []
    assert catalog == default_data()


def test_broken_data_reports_every_problem_at_once_in_russian() -> None:
    docs = copy.deepcopy(_shipped())
    docs["technologies"]["technologies"]["drill"]["effects"][0]["type"] = "teleport"
    docs["technologies"]["technologies"]["masonry"]["requires"] = ["nothing"]
    docs["technologies"]["technologies"]["recruiting"]["cost"]["gold"] = -1
    docs["spells"]["spells"]["fireball"]["target"] = "moon"
    del docs["spells"]["spells"]["blessing"]["cast"]
    docs["events"]["events"]["tribute"]["goal"]["amount"] = 0
    docs["events"]["weather"] = {}
    docs["quests"]["quests"]["relic"]["item"] = "grail"
    docs["quests"]["quests"]["stone"]["resource"] = "influence"
    docs["buildings"]["buildings"] = {"fort": {"effects": [{"type": "defence"}], "needs": "lava"}}
    with pytest.raises(DataError) as err:
        validate(docs)
    problems = err.value.problems
    assert len(problems) == 11, problems
    expected = ["technologies.toml: technologies.drill.effects[0].type",
                "technologies.toml: technologies.masonry.requires",
                "technologies.toml: technologies.recruiting.cost.gold", "spells.toml: spells.fireball.target",
                "spells.toml: spells.blessing", "events.toml: events.tribute.goal.amount", "events.toml: weather",
                "quests.toml: quests.relic.item", "quests.toml: quests.stone.resource",
                "buildings.toml: buildings.fort.needs", "buildings.toml: buildings.fort.effects[0].value"]
    for prefix in expected:
        assert any(p.startswith(prefix) for p in problems), prefix
    assert "нет поля 'cast'" in " ".join(problems)
    assert "ошибок — 11" in str(err.value)


def test_spell_effect_must_fit_its_target() -> None:
    docs = copy.deepcopy(_shipped())
    docs["spells"]["spells"]["transmutation"]["effects"] = [{"type": "damage", "value": 1}]
    with pytest.raises(DataError) as err:
        validate(docs)
    assert err.value.problems == ["spells.toml: spells.transmutation.effects: заклинание без цели может иметь "
                                  "только эффект «gain»"]


def test_a_files_catalog_is_checked_the_same_way_unknown_fields_ignored() -> None:
    raw = catalog_json()
    raw["technologies"]["drill"]["note"] = "an unknown field"
    raw["spells"]["fireball"]["range"] = "far"
    raw["quests"]["trophy"]["item"] = "grail"
    _, problems = parse_catalog(raw)
    assert problems == ["catalog.spells.fireball.range: 'far' не подходит; допустимо: 'adjacent', 'any'",
                        "catalog.quests.trophy.item: нет предмета 'grail' в разделе items каталога"]
    _, strict = parse_catalog(raw, strict=True)
    assert any("неизвестное поле 'note'" in p for p in strict)


def test_params_reveal_weights_and_event_numbers_are_checked() -> None:
    _, problems = parse_params({"minor_event_every": -1, "quest_reward_gold": [3], "reveal_weights": {"lava": 1}})
    assert len(problems) == 3
    assert all(p.startswith("params.toml.") for p in problems)


def test_racial_research_rules_g74_g75() -> None:
    humans, lizards, beasts, elves = (RACES[r]() for r in ("humans", "lizardmen", "beastmen", "high_elves"))
    assert humans.research_cost({"influence": 1, "gold": 2}, None) == {"influence": 1, "gold": 2}  # 1 stays 1
    assert humans.research_cost({"influence": 3}, None) == {"influence": 2}
    assert humans.research_cost({"gold": 2}, None) == {"gold": 2}  # 0 stays 0, never raised
    assert beasts.research_cost({"stone": 1}, None) == {"stone": 0}
    assert lizards.research_cost({"gold": 2, "wood": 2}, "wood") == {"gold": 2, "wood": 1}
    assert lizards.research_cost({"gold": 2, "wood": 2}, None) == {"gold": 1, "wood": 2}  # gold when >= 2
    assert lizards.research_cost({"gold": 1, "wood": 3}, None) == {"gold": 1, "wood": 2}  # else wood
    assert lizards.research_cost({"gold": 1, "wood": 3}, "gold") == {"gold": 1, "wood": 3}  # no switch
    assert elves.spell_cost({"mana": 2, "gold": 2}) == {"mana": 1, "gold": 2}
    assert elves.spell_cost({"mana": 1}) == {"mana": 1}


def _hidden_case() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CASES / "reveal_on_approach_gold_wood_and_one_more.json").read_text("utf-8"))
    del data["dice"]
    return data


def test_reveal_is_seeded_a_replay_reveals_the_same() -> None:
    first = [adjudicate(_hidden_case(), seed=s).output for s in range(8)]
    again = [adjudicate(_hidden_case(), seed=s).output for s in range(8)]
    assert [o["revealed"] for o in first if o] == [o["revealed"] for o in again if o]
    assert len({json.dumps(o["revealed"], sort_keys=True) for o in first if o}) > 1


def test_reveal_on_a_game_state_uses_the_same_stream() -> None:
    situation = _hidden_case()
    situation["orders"] = []
    out = adjudicate(situation, seed=5).output
    assert out is not None
    state: dict[str, Any] = {
        "map": {"provinces": {p["id"]: {"sea": False, "capital": p.get("capital", False), "shrine": False,
                                         "deposits": None if p.get("hidden") else ["gold", "wood"]}
                              for p in situation["map"]["provinces"]},
                "adjacency": situation["map"]["adjacency"]},
        "owners": {}, "factions": {"red": {}}, "armies": [{"faction": "red", "province": "r1"}]}
    revealed = reveal_around(state, 5)
    assert set(revealed) == set(out["revealed"]) == {"h1"}
    assert state["map"]["provinces"]["h1"]["deposits"] == out["revealed"]["h1"]["deposits"]


def test_events_fire_only_on_their_turns() -> None:
    base = json.loads((CASES / "event_minor_on_the_fifth_turn_won_by_the_first.json").read_text("utf-8"))
    base.pop("dice")
    base["planning"]["orders"] = []
    only_minor = copy.deepcopy(base)
    base["catalog"] = catalog_json()
    started = {}
    for turn in (4, 5, 9, 10, 15, 20):
        base["state"]["turn"] = turn
        out = adjudicate(base, seed=1).output
        assert out is not None
        started[turn] = sorted(e["class"] for e in out["events"] if e["kind"] == "event_started")
    assert started == {4: [], 5: ["minor"], 9: [], 10: ["major", "minor"], 15: ["minor"], 20: ["major", "minor"]}
    only_minor["state"]["turn"] = 10  # G72: a closed catalog with no major event starts none
    out = adjudicate(only_minor, seed=1).output
    assert out is not None and [e["class"] for e in out["events"] if e["kind"] == "event_started"] == ["minor"]


GARBAGE: list[tuple[str, Any]] = [
    ("state.turn", 0), ("state.technologies", {"red": ["teleport"]}), ("state.spells", []),
    ("state.events", [{"id": "drought"}]), ("state.quests", {"red": {"id": "stone"}}),
    ("state.items", {"red": "relic"}),
    ("spells", {"red": "fireball"}), ("catalog.spells", []), ("setup.natives", "yes"),
]


@pytest.mark.parametrize(("key", "value"), GARBAGE, ids=[g[0] for g in GARBAGE])
def test_malformed_extension_keys_are_problems_in_russian(key: str, value: Any) -> None:
    data = json.loads((CASES / "quest_deliver_stone_through_the_market.json").read_text("utf-8"))
    data["catalog"] = catalog_json()
    where, _, name = key.rpartition(".")
    (data.setdefault(where, {}) if where else data)[name] = value
    result = adjudicate(data)
    assert result.output is None
    assert any(p.startswith(key) for p in result.problems), result.problems


def test_malformed_records_inside_valid_keys_never_crash() -> None:
    data = json.loads((CASES / "quest_deliver_stone_through_the_market.json").read_text("utf-8"))
    data["catalog"] = catalog_json()
    data["state"]["turn"] = 10
    data["state"]["events"] = [{"id": "plague", "class": "major", "status": 7, "progress": "x", "ends": "soon"}]
    data["state"]["quests"]["kp"]["progress"] = ["red"]
    data["planning"]["orders"] += [{"kind": "research", "faction": "red", "technology": 5},
                                   {"kind": "learn", "faction": "red"},
                                   {"kind": "contribute", "faction": "red", "event": "plague", "resources": "all"},
                                   {"kind": "caravan", "faction": "red", "to": "kp", "items": "relic"}]
    data["spells"] = {"red": [None, {"spell": "fireball", "target": "blue"}, {"spell": 3}],
                      "kp": [{"spell": "blessing"}], "ghost": [{}]}
    out = adjudicate(data).output
    assert out is not None
    assert [o["reason"] for o in out["planning"]["orders"][1:]] == ["bad_order", "bad_order", "bad_order", "bad_order"]
    assert [c["reason"] for c in out["spells"]["red"]] == ["bad_order", "not_known", "bad_order"]
