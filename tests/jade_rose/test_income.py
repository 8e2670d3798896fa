"""Jade Rose income and upkeep (rule book: «Экономика»), DATC style: setup, orders, expected outcome.
Each docstring quotes the rule book."""
from __future__ import annotations

from engine.jade_rose import income, turn
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.income import income_lines, upkeep_total
from tests.jade_rose.small_games import gold_lines, make_game, resolve_orders, rows

# -- income -------------------------------------------------------------------------

def test_small_city_income_is_150_per_level():
    """«Малые: +(150*уровень)з в ход.» — a small city of level 1, 2, 3 earns 150, 300, 450."""
    state = make_game()
    for level in (1, 2, 3):
        state["cities"]["ferrum"]["level"] = level
        lines = [line for line in income_lines(state, "empire") if line.get("city") == "ferrum"]
        assert [line["amount"] for line in lines] == [150 * level]


def test_large_city_income_is_300_per_level():
    """«Большие: +(300*уровень)з в ход.» — the large capital of level 2 earns 600."""
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    lines = [line for line in income_lines(state, "empire") if line.get("city") == "aurum"]
    assert sum(line["amount"] for line in lines) == 600


def test_vampire_cities_give_half_income_and_one_gold_per_slave():
    """«Ваши города приносят вдвое меньше базового дохода, но вы получаете 1з за каждого имеющегося раба.»
    Large L1 150 + small L1 75 + 450 slaves (and 20 eternal servants, JR-69) = 695."""
    state = make_game()
    state["factions"]["vampires"]["eternal_servants"] = 20
    lines = income_lines(state, "vampires")
    assert sum(line["amount"] for line in lines if line["resource"] == "gold") == 150 + 75 + 450 + 20


def test_building_income_bonus_is_added_to_the_city():
    """«Фермерские угодья (100з): +50з к доходу города.» — and not halved for vampires' «Поля» (+25з, JR-73)."""
    state = make_game()
    state["cities"]["ferrum"]["buildings"] = ["empire_farmlands"]
    state["cities"]["umbra"]["buildings"] = ["vampires_fields"]
    assert sum(line["amount"] for line in income_lines(state, "empire") if line.get("city") == "ferrum") == 200
    assert sum(line["amount"] for line in income_lines(state, "vampires") if line.get("city") == "umbra") == 100


def test_ruins_and_plundered_cities_give_no_income():
    """«В следующем ходу город дохода не принесёт.» (plunder) and ruins are not cities (JR-51)."""
    state = make_game()
    state["cities"]["ferrum"]["ruins"] = True
    state["cities"]["aurum"]["no_income_turns"] = 1
    assert [line for line in income_lines(state, "empire") if line["resource"] == "gold"] == []
    income.collect_income(state, "empire")
    assert state["cities"]["aurum"]["no_income_turns"] == 0
    assert sum(line["amount"] for line in income_lines(state, "empire")) == 300


def test_empire_honor_per_turn_from_buildings():
    """«Часовня (100з): +5ч в ход» and «Зал рыцарей (200з) - +10ч в ход» — collected with the income."""
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["aurum"]["buildings"] = ["empire_chapel", "empire_hall_of_knights"]
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["honor"] == 15
    assert sum(line["amount"] for line in gold_lines(state, "empire", "honor")) == 15


def test_sunset_doubles_gold_and_unique_resource_received():
    """«Закат (7-8 ход): … Получаемое золото и получаемый уникальный ресурс удваивается для всех фракций»."""
    state = make_game(turn=7)
    state["cities"]["aurum"]["buildings"] = ["empire_chapel"]
    income.collect_income(state, "empire")
    income.collect_income(state, "dwarves")
    assert state["factions"]["empire"]["gold"] == 2 * (300 + 150)
    assert state["factions"]["empire"]["honor"] == 2 * 5
    assert state["factions"]["dwarves"]["runes"] == 2 * 3


def test_dwarves_gain_three_runes_per_turn_up_to_ten():
    """«Каждый ход вы накапливаете 3 руны. Всего вы можете хранить до 10 рун.» (+2 with the obelisk)."""
    state = make_game()
    for expected in (3, 6, 9, 10, 10):
        income.collect_income(state, "dwarves")
        assert state["factions"]["dwarves"]["runes"] == expected
    state["factions"]["dwarves"]["runes"] = 0
    state["cities"]["karak"]["level"] = 2
    state["cities"]["karak"]["buildings"] = ["dwarves_rune_obelisk"]
    income.collect_income(state, "dwarves")
    assert state["factions"]["dwarves"]["runes"] == 5


def test_corruption_penalty_takes_income_and_honor():
    """«В зависимости от уровня коррупции к вам применяются штрафы (Коррупция не может 'съесть' более половины
    вашего дохода или опустить честь ниже -50)» — defaults: level 12 is −20 % and −5 honor; 40 is −50 %."""
    state = make_game()
    state["factions"]["empire"]["corruption"] = 12
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["gold"] == 450 - 90
    assert state["factions"]["empire"]["honor"] == -5
    state = make_game()
    state["factions"]["empire"].update(corruption=40, honor=-45)
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["gold"] == 225
    assert state["factions"]["empire"]["honor"] == -50


def test_corruption_grows_each_turn_by_a_die_of_the_city_count():
    """«В начале каждого хода киньте бросок и увеличьте уровень коррупции в зависимости от числа городов»
    — default: 1–3 cities roll 1d2; the secret police «снижает прирост коррупции на 2»."""
    rolls = set()
    for seed in range(40):
        state = make_game()
        turn.start_of_turn(state, seed)
        rolls.add(state["factions"]["empire"]["corruption"])
    assert rolls == {1, 2}
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["aurum"]["buildings"] = ["empire_secret_police"]
    for seed in range(20):
        turn.start_of_turn(state, seed)
    assert state["factions"]["empire"]["corruption"] == 0


def test_upkeep_is_paid_for_units_owned_at_the_start_of_the_turn():
    """«5з/ход» upkeep per unit: 10 spearmen pay 50; spearmen hired this turn pay from the next turn."""
    state = make_game(gold=1000)
    state["factions"]["empire"]["units"] = {"empire_spearman": 10}
    state["cities"]["aurum"]["buildings"] = ["empire_barrack"]
    orders, _ = parse_economy_rows(state, "empire", rows(("Нанять", "", "Копейщик", 4)))
    new, _ = resolve_orders(state, {"empire": orders}, seed=3)
    upkeep = [line for line in gold_lines(new, "empire") if line["reason"] == "Содержание армии"]
    assert [line["amount"] for line in upkeep] == [-50]
    assert upkeep_total(new, "empire") == 70


def test_negative_balance_only_through_upkeep():
    """«Если ваши расходы превысят ваши доходы, то ваша баланс будет отрицательным. Это не несёт для вас
    издержек, кроме невозможности тратить золото»: upkeep drives gold below 0, then nothing can be bought."""
    state = make_game(gold=0)
    state["factions"]["empire"]["units"] = {"empire_archpriest": 20}
    state["cities"]["aurum"]["buildings"] = ["empire_farmlands"]
    orders, _ = parse_economy_rows(state, "empire", rows(("Построить", "Феррум", "Часовня", "")))
    new, statuses = resolve_orders(state, {"empire": orders}, seed=1)
    assert new["factions"]["empire"]["gold"] == 300 + 150 + 50 - 800
    assert statuses["empire"][0].errors[0].code == "JR_NOT_ENOUGH_GOLD"
    assert new["cities"]["ferrum"]["buildings"] == []
