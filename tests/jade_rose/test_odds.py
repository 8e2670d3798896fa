"""The «Симулятор» tab of a faction book (issue 11 item 4): rows describing a hypothetical battle give the
simulator's odds, the mean rounds and the mean losses per unit type; a bad row gets a Russian message
and is left out, the rest still count."""
from __future__ import annotations

import pytest

from engine import find_ruleset
from engine.jade_rose import battle
from engine.jade_rose.odds import RUNS, JadeRoseOdds
from engine.ruleset import Row
from sheets_bridge.scenarios import load_scenario, packaged_scenarios

KEYS = ("side", "faction", "flank", "line", "unit", "count", "manoeuvre", "target")


@pytest.fixture(scope="module")
def state():
    rs = find_ruleset("jade_rose")
    return load_scenario(rs, packaged_scenarios("jade_rose")[0]).state


def rows(*cells: tuple[str, ...]) -> list[Row]:
    return [Row(i + 2, dict(zip(KEYS, c, strict=True))) for i, c in enumerate(cells)]


def values(table) -> dict[str, str]:
    return {r[0]: r[1] for r in table.rows}


def test_the_odds_are_the_simulator_s_for_the_described_battle(state):
    """Own squads attack, the enemy defends: the table is the simulator's answer for that very battle."""
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(
        ("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
        ("Атакуем", "", "Центр", "Арьергард", "Лучник", "6", "Обстрел", "Центральный авангард"),
        ("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "12", "", "")))
    assert [s.ok for s in statuses] == [True, True, True]
    spec = {"ruleset": "jade_rose",
            "attacker": {"faction": "empire", "squads": [
                {"flank": "center", "line": "rearguard", "units": {"Лучник": 6},
                 "manoeuvre": {"type": "bombard", "flank": "center", "line": "vanguard"}},
                {"flank": "center", "line": "vanguard", "units": {"Копейщик": 10}}]},
            "defender": {"faction": "vampires", "squads": [
                {"flank": "center", "line": "vanguard", "units": {"Полукровка": 12}}]}}
    from engine.rng import derive_seed
    from engine.state import canonical_json
    expected = battle.simulate(spec, RUNS, derive_seed("odds", canonical_json(spec)))
    got = values(table)
    assert got["Наша победа"] == f"{round(100 * expected['attacker_win'])} %"
    assert got["Прогонов"] == RUNS
    lost = 12 - expected["survivors"]["defender"]["Полукровка"]
    assert got["Потери противника: Полукровка"] == f"{lost:.1f}".replace(".", ",") + " из 12"
    assert "Наши потери: Копейщик" in got and "Наши потери: Лучник" in got


def test_an_overwhelming_army_almost_always_wins_and_the_same_rows_give_the_same_odds(state):
    desc = rows(("Обороняемся", "", "Центр", "Авангард", "Тяжёлый пехотинец", "60", "", ""),
                ("Противник", "Дворфы", "Центр", "Авангард", "Горняки", "3", "", ""))
    one = JadeRoseOdds().odds(state, "empire", desc)
    assert one == JadeRoseOdds().odds(state, "empire", desc)
    assert int(values(one[1])["Наша победа"].rstrip(" %")) >= 95


def test_a_bad_row_gets_a_russian_message_and_the_rest_still_count(state):
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(
        ("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
        ("Атакуем", "", "Лево", "Авангард", "Дракон", "ноль", "Прыжок", "где-то"),
        ("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "5", "", "")))
    bad = statuses[1]
    assert [s.ok for s in statuses] == [True, False, True]
    text = bad.text()
    for part in ("Фланг «Лево» не распознан", "Юнита «Дракон» у фракции «Империя» нет. Допустимо: Копейщик",
                 "Манёвр «Прыжок» не распознан", "Цель «где-то» не распознана"):
        assert part in text
    got = values(table)
    assert "Наша победа" in got and got["Не учтены строки"] == "3"


@pytest.mark.parametrize("cells, code", [
    ((("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),), "JR_SIM_ONE_SIDE"),
    ((("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
      ("Обороняемся", "", "Правый", "Авангард", "Копейщик", "10", "", "")), "JR_SIM_ROLE_MIXED"),
    ((("Противник", "", "Центр", "Авангард", "Полукровка", "5", "", ""),), "JR_SIM_ENEMY"),
    ((("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "5", "", ""),
      ("Противник", "Дворфы", "Левый", "Авангард", "Горняки", "5", "", "")), "JR_SIM_ENEMY_MIXED"),
])
def test_what_cannot_be_a_battle_is_told(state, cells, code):
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(*cells))
    assert any(e.code == code for s in statuses for e in s.errors)
    assert "Наша победа" not in values(table)


def test_no_rows_no_odds_and_an_explanation(state):
    statuses, table = JadeRoseOdds().odds(state, "empire", [Row(2, dict.fromkeys(KEYS, ""))])
    assert statuses == () and "Симулятор" in table.rows[0][0]
