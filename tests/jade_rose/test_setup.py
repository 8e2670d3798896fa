"""A new game from a scenario (setup.py): the Jade capital's Great Forge, every problem of a scenario at once, and
the demo scenario's start and map."""
from __future__ import annotations

import pytest

from engine.jade_rose.setup import ScenarioError, new_game
from tests.jade_rose.demo_cases import DEMO_STATE, FACTIONS
from tests.jade_rose.small_games import make_game, run_rows

# -- a scenario ------------------------------------------------------------------------------------------------

def test_jade_capital_starts_with_the_great_forge_taking_a_slot():
    """«В вашей столице с начала игры есть обладающая божественной силой гигантская кузня» (JR-89: takes a slot)."""
    state = make_game(gold=1000)
    assert state["cities"]["yulong"]["buildings"] == ["jade_great_forge"]
    statuses = run_rows(state, "jade", ("Построить", "Юйлун", "Рисовые поля", ""),
                   ("Построить", "Юйлун", "Вербовочный пункт", ""))
    assert all(s.ok for s in statuses)
    state["cities"]["yulong"]["level"] = 2
    (status,) = run_rows(state, "jade", ("Построить", "Юйлун", "Нефритовая шахта", ""))
    assert status.errors[0].code == "JR_NO_FREE_SLOT" and "Великая Кузня" in status.text()


def test_scenario_problems_are_all_reported_at_once():
    scenario = {"factions": {"empire": {"gold": -5}, "ogres": {"gold": 10},
                             "vampires": {"gold": 1, "units": {"Рыцарь": 2, "Полукровка": 40}}},
                "cities": {"a": {"name": "А", "owner": "empire", "capital": True, "level": 4},
                           "b": {"name": "Б", "owner": "dwarves"},
                           "c": {"name": "В", "owner": "vampires"}},
                "roads": [["a", "zzz"], ["a", "a"]]}
    with pytest.raises(ScenarioError) as err:
        new_game(scenario)
    text = "\n".join(err.value.problems)
    for fragment in ("ogres", "-5", "Рыцарь", "600 рабов", "уровень должен быть", "dwarves",
                     "zzz", "в него же", "ровно одна столица"):
        assert fragment in text, fragment


# -- the demo scenario -----------------------------------------------------------------------------------------

def test_demo_scenario_has_four_factions_each_with_a_large_capital_and_three_small_cities():
    state = DEMO_STATE
    assert sorted(state["factions"]) == sorted(FACTIONS) and len(state["cities"]) >= 16
    for fid in FACTIONS:
        own = [c for c in state["cities"].values() if c["owner"] == fid]
        assert sorted((c["large"], c["capital"]) for c in own) == [(False, False)] * 3 + [(True, True)]
        assert all(c["level"] == 1 for c in own)
        assert state["factions"][fid]["gold"] > 0
    assert state["factions"]["vampires"]["slaves"] == 450
    assert state["cities"]["yulong"]["buildings"] == ["jade_great_forge"]
    assert state["roads"] == sorted(state["roads"]) and all(a < b for a, b in state["roads"])


def test_demo_map_is_connected_and_every_faction_borders_every_other():
    state = DEMO_STATE
    neighbours = {cid: set() for cid in state["cities"]}
    for a, b in state["roads"]:
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen, todo = set(), [next(iter(neighbours))]
    while todo:
        cid = todo.pop()
        if cid not in seen:
            seen.add(cid)
            todo.extend(neighbours[cid] - seen)
    assert seen == set(state["cities"])
    borders = {(state["cities"][a]["owner"], state["cities"][b]["owner"]) for a, b in state["roads"]}
    for f in FACTIONS:
        for g in FACTIONS:
            if f != g:
                assert (f, g) in borders or (g, f) in borders, (f, g)
