"""Income and upkeep (income.py, rule book «Экономика»): cities and buildings, ruins and plundered cities, the
era's multiplier and gift, unit upkeep and a negative balance; the factions' own income lines are tested with
each faction. DATC style: setup, orders, expected outcome; each docstring quotes the rule book
(../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import income, turn
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.income import income_lines, upkeep_total
from tests.jade_rose.small_games import gold_lines, make_game, resolve_orders, rows


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


def test_sunset_doubles_gold_and_unique_resource_received():
    """«Закат (7-8 ход): … Получаемое золото и получаемый уникальный ресурс удваивается для всех фракций»."""
    state = make_game(turn=7)
    state["cities"]["aurum"]["buildings"] = ["empire_chapel"]
    income.collect_income(state, "empire")
    income.collect_income(state, "dwarves")
    assert state["factions"]["empire"]["gold"] == 2 * (300 + 150)
    assert state["factions"]["empire"]["honor"] == 2 * 5
    assert state["factions"]["dwarves"]["runes"] == 2 * 3


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


# -- the era's gift (JR-61) ------------------------------------------------------------------------------------

def test_era_gift_goes_to_every_faction_tied_for_fewest_cities():
    """«При наступлении эпохи боги посылают подарок (600з) фракции с наименьшим числом городов» (ties: all, JR-61)."""
    state = make_game(turn=3)
    state["cities"]["mons"]["owner"] = "empire"
    state["cities"]["qinghe"]["owner"] = "empire"
    turn.start_of_turn(state, 1)
    gifts = {line["faction"]: line["amount"] for line in state["ledger"] if "Подарок" in line["reason"]}
    assert gifts == {"dwarves": 600, "jade": 600}
    state = make_game(turn=4)
    turn.start_of_turn(state, 1)
    assert not [line for line in state["ledger"] if "Подарок" in line["reason"]]
