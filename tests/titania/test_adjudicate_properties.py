"""Determinism, purity of the input, garbage input, the CLI's exit codes and the Russian report."""
from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.titania.adjudicate import adjudicate
from engine.titania.report import render

HERE = Path(__file__).resolve().parent
FORUMWAR = Path(sys.executable).with_name("forumwar")


def _situation() -> dict:
    """Two factions, a battle with support, a Boss left to the dice, a capture and a building loss."""
    return {
        "schema": "titania.adjudicate.v1",
        "map": {"provinces": [{"id": "ra", "name": "Красный холм"}, {"id": "bp", "name": "Синий дол"},
                              {"id": "gc", "name": "Зелёная пуща"}, {"id": "bx", "name": "Логово Змея"}],
                "adjacency": [["ra", "bp"], ["bp", "gc"], ["ra", "bx"]]},
        "factions": [{"id": "red", "race": "orcs", "limits": {"max_strength": 10, "food": 3}},
                     {"id": "blue", "race": "humans"}, {"id": "green", "race": "dwarfs"}],
        "state": {"owners": {"ra": "red", "bp": "blue", "gc": "green"},
                  "buildings": {"bp": ["farm", "mine", "sawmill"]},
                  "armies": [{"faction": "red", "province": "ra", "strength": 9},
                             {"faction": "blue", "province": "bp", "strength": 2},
                             {"faction": "green", "province": "gc", "strength": 1}],
                  "bosses": {"bx": {"health": 4}}},
        "orders": [{"faction": "red", "army": "ra", "type": "split", "parts": [
                       {"strength": 5, "type": "move", "target": "bp", "seq": 1},
                       {"strength": 4, "type": "move", "target": "bx", "seq": 2}]},
                   {"faction": "green", "army": "gc", "type": "support", "target": "bp", "support_faction": "blue"}],
    }


def test_same_input_and_seed_give_identical_json_bytes() -> None:
    a = json.dumps(adjudicate(_situation(), seed=7).output, ensure_ascii=False)
    b = json.dumps(adjudicate(_situation(), seed=7).output, ensure_ascii=False)
    assert a == b


def test_the_seed_decides_what_the_file_leaves_to_chance() -> None:
    """The building lost in the capture and the Boss reward are drawn from the seed."""
    outs = {json.dumps(adjudicate(_situation(), seed=s).output) for s in range(12)}
    assert len(outs) > 1


def test_input_dict_is_not_changed() -> None:
    data = _situation()
    before = copy.deepcopy(data)
    adjudicate(data, seed=3)
    assert data == before


def test_fixed_dice_override_the_seed() -> None:
    data = _situation()
    data["dice"] = {"building_loss": {"bp": "mine"}, "boss_reward": {"bx": {"gold": 2, "wood": 3, "spell": "fireball"}}}
    for seed in (1, 2, 3):
        out = adjudicate(data, seed=seed).output
        assert out is not None
        assert out["provinces"]["bp"]["building_list"] == ["farm", "sawmill"]
        assert out["rewards"] == [{"kind": "boss", "faction": "red", "province": "bx", "gold": 2, "wood": 3,
                                   "spell": "fireball"}]


json_values = st.recursive(st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=4)
                           | st.sampled_from(["ra", "bp", "red", "blue", "move", "support", "split", "hold"]),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(
                               st.sampled_from(["id", "faction", "army", "type", "target", "strength", "parts",
                                                "support_faction", "province", "seq", "health", "race", "x"]),
                               kids, max_size=5), max_leaves=20)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_garbage_file_never_raises_and_gives_problems(garbage: object) -> None:
    result = adjudicate(garbage)
    assert result.output is None
    assert result.problems and all(isinstance(p, str) and p for p in result.problems)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(json_values, max_size=6), json_values, json_values, json_values)
def test_garbage_orders_never_raise_and_are_voided(orders: list, abilities: object, alloc: object,
                                                   planning: object) -> None:
    data = _situation()
    data["orders"] = orders
    data["abilities"] = {"red": abilities, "blue": abilities}
    data["might_allocation"] = {"red": alloc}
    data["planning"] = {"orders": planning if isinstance(planning, list) else [planning]}
    result = adjudicate(data)
    if result.output is None:  # a non-object allocation/ability table is a file problem
        assert result.problems
        return
    assert len(result.output["orders"]) == len(orders)
    for o in result.output["orders"]:
        assert o["outcome"] in ("succeeded", "failed", "cancelled", "void")


def test_all_problems_of_a_bad_file_are_reported_at_once() -> None:
    data = _situation()
    data["factions"][0]["race"] = "elves"
    data["state"]["armies"][1]["strength"] = 0
    data["map"]["adjacency"].append(["ra", "nowhere"])
    result = adjudicate(data)
    assert result.output is None
    text = "\n".join(result.problems)
    assert "неизвестная раса" in text and "сила войска" in text and "нет такой провинции" in text


def test_report_is_russian_with_display_names_not_ids() -> None:
    data = _situation()
    data["factions"][0]["name"] = "Орда Громобоя"
    data["factions"][1]["name"] = "Синее королевство"
    data["factions"][2]["name"] = "Зелёный хирд"
    text = render(adjudicate(data, seed=1), seed=1)
    for name in ("Красный холм", "Синий дол", "Логово Змея", "Орда Громобоя", "Синее королевство"):
        assert name in text
    assert "Бой 1" in text and "итого" in text and "(см. «Войско», п. 2.1)" in text  # the book's own place
    assert "A2.1" not in text  # the engine's code for it (engine.titania.rulebook)
    for pid in ('"ra"', "«ra»", "«bp»", " red ", " blue:"):
        assert pid not in text


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "ход.json"
    good.write_text(json.dumps(_situation(), ensure_ascii=False), encoding="utf-8")
    bad = tmp_path / "плохой.json"
    bad.write_text('{"map": 1}', encoding="utf-8")
    run = [str(FORUMWAR), "adjudicate"]
    ok = subprocess.run([*run, str(good), "--json", "--seed", "5"], capture_output=True, text=True)
    assert ok.returncode == 0 and json.loads(ok.stdout)["schema"] == "titania.adjudicate.v1"
    report = subprocess.run([*run, str(good)], capture_output=True, text=True)
    assert report.returncode == 0 and "Очерёдность ходов" in report.stdout
    broken = subprocess.run([*run, str(bad)], capture_output=True, text=True)
    assert broken.returncode == 1 and "не принят" in broken.stderr and "map" in broken.stderr
    usage = subprocess.run([*run, str(good), "--json", "--report"], capture_output=True, text=True)
    assert usage.returncode == 2
    helptext = subprocess.run([*run, "--help"], capture_output=True, text=True)
    assert helptext.returncode == 0 and "Разобрать один ход" in helptext.stdout
