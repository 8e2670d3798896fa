"""Jade Rose hiring and the jade market, and the order in which a turn's economy orders run; DATC
style, each docstring quoting the rule book."""
from __future__ import annotations

import copy

from tests.jade_rose.small_games import make_game, run_rows

# -- hiring ------------------------------------------------------------------------------

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


def test_vampires_need_15_slaves_of_blood_per_unit():
    """«число юнитов в армии ограничено числом рабов: нужно как минимум 15 рабов на юнита»; the bone cannon
    «потребляет кровь … как 3 других юнита»."""
    state = make_game(gold=5000)
    state["cities"]["noct"].update(level=2, buildings=["vampires_mansions"])
    state["factions"]["vampires"]["slaves"] = 450                         # blood for 30 units
    statuses = run_rows(state, "vampires", ("Нанять", "", "Полукровка", 25), ("Нанять", "", "Костяная пушка", 2),
                   ("Нанять", "", "Костяная пушка", 1))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_NOT_ENOUGH_BLOOD" and "ещё 1" in statuses[1].text()


def test_purebloods_are_limited_to_five_and_the_lord_to_one():
    """«у вас может быть максимум 5 таких юнитов»; «Во всей вашей армии может быть только 1 лорд.»"""
    state = make_game(gold=5000)
    state["cities"]["noct"]["buildings"] = ["vampires_estates"]
    statuses = run_rows(state, "vampires", ("Нанять", "", "Чистокровный", 4), ("Нанять", "", "Чистокровный", 2),
                   ("Нанять", "", "Лорд вампиров", 1), ("Нанять", "", "Лорд", 1))
    assert [s.ok for s in statuses] == [True, False, True, False]
    assert "ещё 1" in statuses[1].text()
    assert state["factions"]["vampires"]["units"] == {"vampires_pureblood": 4, "vampires_lord": 1}


def test_jade_is_bought_one_gold_each_up_to_300_per_turn():
    """«За 1 единицу золота вы можете купить 1 единицу нефрита, но за ход можно получить не более 300н.»
    «Нефритовая шахта (250з) - +150 к лимиту покупки нефрита за ход»."""
    state = make_game(gold=1000)
    statuses = run_rows(state, "jade", ("Купить нефрит", "", "", 200), ("Купить нефрит", "", "", 150),
                   ("Купить нефрит", "", "", 100))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_JADE_LIMIT"
    assert (state["factions"]["jade"]["gold"], state["factions"]["jade"]["jade"]) == (700, 300)
    state = make_game(gold=1000)
    state["cities"]["qinghe"].update(level=2, buildings=["jade_jade_mine"])
    (status,) = run_rows(state, "jade", ("Купить нефрит", "", "", 450))
    assert status.ok and state["factions"]["jade"]["jade"] == 450


def test_jade_creatures_need_a_forge_in_a_city_of_their_tier():
    """«Великая Кузня … Позволяет нанимать нефритовых созданий вплоть до уровня города, в котором находится»
    and a recruitment building (JR-94); «Если у вас нет Великой кузни» no creatures can be made."""
    state = make_game(gold=0)
    state["factions"]["jade"]["jade"] = 1000
    state["cities"]["qinghe"].update(level=2, buildings=["jade_military_camp"])
    statuses = run_rows(state, "jade", ("Нанять", "", "Нефритовый воин", 10), ("Нанять", "", "Нефритовый колосс", 1))
    assert statuses[0].ok and statuses[1].errors[0].code == "JR_NEEDS_FORGE"
    assert "2-го уровня" in statuses[1].text()
    state["cities"]["yulong"]["level"] = 2
    (status,) = run_rows(state, "jade", ("Нанять", "", "Нефритовый колосс", 1))
    assert status.ok and state["factions"]["jade"]["jade"] == 1000 - 150 - 120
    state["cities"]["yulong"]["buildings"] = []
    (status,) = run_rows(state, "jade", ("Нанять", "", "Нефритовый воин", 1))
    assert status.errors[0].code == "JR_NEEDS_FORGE" and "нет ни одной" in status.text()


def test_jade_bought_in_the_same_turn_pays_for_hiring():
    """«если юнит покупается за 15н, то вы можете купить его, потратив 15з» — purchase runs before hiring."""
    state = make_game(gold=300)
    state["cities"]["qinghe"]["buildings"] = ["jade_recruiting_station"]
    statuses = run_rows(state, "jade", ("Нанять", "", "Нефритовый воин", 20), ("Купить нефрит", "", "", 300))
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    assert state["factions"]["jade"]["units"] == {"jade_warrior": 20}
    assert (state["factions"]["jade"]["gold"], state["factions"]["jade"]["jade"]) == (0, 0)


def test_orders_run_sell_build_upgrade_restore_jade_hire_whatever_the_row_order():
    """RULINGS JR-56: «sell, build, upgrade cities, restore ruins, faction actions, jade purchase, hire» —
    selling the farmlands pays for and frees the slot of a barrack, which unlocks the spearmen hired."""
    state = make_game(gold=115)
    state["cities"]["ferrum"]["buildings"] = ["empire_farmlands"]
    statuses = run_rows(state, "empire", ("Нанять", "", "Копейщик", 1), ("Построить", "Феррум", "Барак", ""),
                   ("Продать", "Феррум", "Фермерские угодья", ""))
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    assert [s.number for s in statuses] == [2, 3, 4]
    assert state["cities"]["ferrum"]["buildings"] == ["empire_barrack"]
    assert state["factions"]["empire"]["gold"] == 115 + 50 - 150 - 15


def test_a_rejected_order_changes_nothing():
    """An order the balance cannot pay is rejected with its message (RULINGS JR-57): state and ledger unchanged."""
    state = make_game(gold=100)
    before = copy.deepcopy(state)
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Барак", ""))
    assert status.errors[0].code == "JR_NOT_ENOUGH_GOLD" and "нужно 150з, а у вас 100з" in status.text()
    assert state == before
