"""Hiring units (actions/hiring.py, rule book L60-66): the building that unlocks a unit, the price (gold, honor,
the cathedral's discount), the unit limits. DATC style: setup, orders, expected outcome; each docstring quotes
the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from tests.jade_rose.small_games import make_game, run_rows


def test_hiring_needs_a_recruitment_building_in_any_own_city():
    """«Барак (150з) - позволяет обучать юнитов 1-го уровня (кроме целителей)»; «Часовня … позволяет обучать
    целителей» — the message names the building that unlocks the unit."""
    state = make_game(gold=1000)
    state["cities"]["ferrum"]["buildings"] = ["empire_barrack"]
    statuses = run_rows(state, "empire", ("Нанять", "", "Копейщик", 10), ("Нанять", "", "Целитель", 1))
    assert statuses[0].ok and state["factions"]["empire"]["units"]["empire_spearman"] == 10
    assert statuses[1].errors[0].code == "JR_UNIT_LOCKED" and "Часовня" in statuses[1].text()
    assert state["factions"]["empire"]["gold"] == 1000 - 150


def test_hiring_pays_gold_and_honor():
    """«Рыцарь: … 60з+5ч» — three knights cost 180з and 15ч; without honor the row says what is missing."""
    state = make_game(gold=500)
    state["cities"]["aurum"].update(level=2, buildings=["empire_hall_of_knights"])
    state["factions"]["empire"]["honor"] = 15
    statuses = run_rows(state, "empire", ("Нанять", "", "Рыцарь", 3), ("Нанять", "", "Рыцарь", 1))
    assert statuses[0].ok
    assert (state["factions"]["empire"]["gold"], state["factions"]["empire"]["honor"]) == (320, 0)
    assert statuses[1].errors[0].code == "JR_NOT_ENOUGH_HONOR" and "нужно 5ч" in statuses[1].text()


def test_cathedral_cuts_the_honor_cost_by_40_percent():
    """«Великий собор (1600з) - … снижает затраты чести на покупку каждого юнита на 40% (например, 10ч->6ч)»."""
    state = make_game(gold=1000)
    state["cities"]["aurum"].update(level=3, buildings=["empire_great_cathedral", "empire_chapel",
                                                        "empire_hall_of_paladins"])
    state["factions"]["empire"]["honor"] = 100
    statuses = run_rows(state, "empire", ("Нанять", "", "Целитель", 1), ("Нанять", "", "Архижрец", 1))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["honor"] == 100 - 6 - 30


def test_purebloods_are_limited_to_five_and_the_lord_to_one():
    """«у вас может быть максимум 5 таких юнитов»; «Во всей вашей армии может быть только 1 лорд.»"""
    state = make_game(gold=5000)
    state["cities"]["noct"]["buildings"] = ["vampires_estates"]
    statuses = run_rows(state, "vampires", ("Нанять", "", "Чистокровный", 4), ("Нанять", "", "Чистокровный", 2),
                   ("Нанять", "", "Лорд вампиров", 1), ("Нанять", "", "Лорд", 1))
    assert [s.ok for s in statuses] == [True, False, True, False]
    assert "ещё 1" in statuses[1].text()
    assert state["factions"]["vampires"]["units"] == {"vampires_pureblood": 4, "vampires_lord": 1}
