"""The simulator's JSON battle file (battle/spec.py): Russian unit names, keys, validation messages (one per
problem)."""
from __future__ import annotations

import re

import pytest

from engine.jade_rose.battle import BattleSpecError, Position, parse_spec


def one_side(faction: str, units: dict, **extra) -> dict:
    return {"faction": faction, **extra, "squads": [{"flank": "center", "line": "vanguard", "units": units}]}


def spec(attacker: dict, defender: dict | None = None, **extra) -> dict:
    return {"ruleset": "jade_rose", **extra, "attacker": attacker,
            "defender": defender or one_side("empire", {"Копейщик": 3})}


def keys(battle, role: str = "attacker") -> dict:
    return {k: n for sq in battle.side(role).squads for k, n in sq.units}


@pytest.mark.parametrize("faction, name, key", [
    ("empire", "Рыцарь", "empire_knight"), ("dwarves", "Горняки", "dwarves_miner"),
    ("jade", "Арбалеты чжугэ", "jade_zhuge_crossbows"), ("jade", "Пушка 'Зелёный град'", "jade_green_hail"),
    ("jade", "пушка 'зеленый град'", "jade_green_hail"), ("jade_court", "НЕФРИТОВЫЙ ВОИН", "jade_warrior"),
    ("vampires", "Новообращенный", "vampires_neophyte"), ("empire", "empire_heavy_infantry", "empire_heavy_infantry"),
])
def test_unit_names_as_the_rule_book_writes_them(faction, name, key):
    """Names as the rule book writes them (case and ё/е ignored) or the project's keys."""
    assert keys(parse_spec(spec(one_side(faction, {name: 2})))) == {key: 2}


@pytest.mark.parametrize("faction, name, key", [("empire", "Арбалетчик", "empire_crossbowman"),
                                                ("dwarves", "Арбалетчик", "dwarves_crossbowman"),
                                                ("empire", "Всадник", "empire_horseman"),
                                                ("jade", "Всадник", "jade_horseman")])
def test_a_name_two_factions_share_is_the_sides_own_unit(faction, name, key):
    assert keys(parse_spec(spec(one_side(faction, {name: 1})))) == {key: 1}


def test_every_problem_is_listed_at_once_in_russian():
    bad = {"ruleset": "jade_rose", "skip_planning": "да",
           "attacker": {"faction": "империя", "grudges": 2, "squads": [
               {"flank": "верх", "line": "vanguard", "units": {"Рыцарь": 0}},
               {"flank": "left", "line": "vanguard", "units": {"Горняки": 2, "Лучник": "три"}},
               {"flank": "left", "line": "rearguard", "units": {"Лучник": 2},
                "manoeuvre": {"type": "salto"}}]},
           "defender": {"faction": "орки", "squads": []}}
    with pytest.raises(BattleSpecError) as err:
        parse_spec(bad)
    problems = err.value.problems
    assert len(problems) >= 6
    assert all(re.search("[а-яА-ЯёЁ]", p) for p in problems)
    text = "\n".join(problems)
    for expected in ("skip_planning", "«верх»", "больше нуля", "Горняки", "«три»", "salto", "орки"):
        assert expected in text, expected


def test_grudges_and_runes_belong_to_dwarves_and_forge_to_jade():
    with pytest.raises(BattleSpecError) as err:
        parse_spec(spec(one_side("empire", {"Рыцарь": 1}, grudges=2, runes=1, forge_distance=1)))
    text = " ".join(err.value.problems)
    assert "обиды" in text and "руны" in text and "Кузни" in text


def test_the_rule_books_template_example_is_rejected():
    """«5 копейщиков и 3 рыцаря (манёвр: натиск на центральный арьергард)»: spearmen cannot charge."""
    with pytest.raises(BattleSpecError) as err:
        parse_spec({"attacker": {"faction": "empire", "squads": [
            {"flank": "right", "line": "vanguard", "units": {"Копейщик": 5, "Рыцарь": 3},
             "manoeuvre": {"type": "charge", "flank": "center", "line": "rearguard"}}]},
            "defender": {"faction": "dwarves", "squads": [
                {"flank": "center", "line": "vanguard", "units": {"Горняки": 5}},
                {"flank": "center", "line": "rearguard", "units": {"Арбалетчик": 3}}]}})
    assert "Копейщик" in err.value.problems[0] and "Допустимо" in err.value.problems[0]


def test_manoeuvre_targets_and_free_move_are_read():
    battle = parse_spec({"attacker": {"faction": "dwarves", "squads": [
        {"flank": "right", "line": "vanguard", "units": {"Юный дракон Фрагулекс": 1},
         "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard",
                       "free_move": {"flank": "center", "line": "vanguard"}}}]},
        "defender": {"faction": "empire", "squads": [
            {"flank": "right", "line": "vanguard", "units": {"Копейщик": 2}},
            {"flank": "right", "line": "rearguard", "units": {"Лучник": 2}}]}})
    m = battle.attacker.squads[0].manoeuvre
    assert (m.kind, m.target, m.free_move) == ("charge", Position("right", "rearguard"), Position("center", "vanguard"))


def test_manoeuvre_without_a_target_is_rejected():
    with pytest.raises(BattleSpecError) as err:
        parse_spec(spec({"faction": "empire", "squads": [
            {"flank": "center", "line": "vanguard", "units": {"Рыцарь": 2}, "manoeuvre": {"type": "charge"}}]}))
    assert "укажите цель" in err.value.problems[0]


def test_a_unit_of_another_faction_is_rejected():
    with pytest.raises(BattleSpecError) as err:
        parse_spec(spec(one_side("dwarves", {"Рыцарь": 2})))
    assert "Империя" in err.value.problems[0] and "Дворфы" in err.value.problems[0]


def test_faction_limits_count_the_army_not_the_garrison():
    """«максимум 5 таких юнитов» (purebloods), «только 1 лорд» — garrisons excluded (JR-72)."""
    with pytest.raises(BattleSpecError):
        parse_spec(spec(one_side("vampires", {"Чистокровный": 6})))
    battle = parse_spec(spec({"faction": "vampires", "squads": [
        {"flank": "center", "line": "vanguard", "units": {"Чистокровный": 10}, "garrison": True}]}))
    assert keys(battle) == {"vampires_pureblood": 10}
