"""Jade Rose economy rules, DATC style: setup, orders, expected outcome. Each docstring quotes the rule book."""
from __future__ import annotations

import copy
import random

import pytest

from engine.jade_rose import income, turn
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.economy_orders import ACTIONS, actions_for, parse_economy_rows
from engine.jade_rose.income import income_lines, upkeep_total
from engine.jade_rose.setup import ScenarioError, new_game
from engine.jade_rose.turn import validate_economy
from engine.ruleset import Row
from engine.state import canonical_json
from tests.jade_rose.small_games import CITIES, make_game, resolve_orders, rows


def run(state: dict, faction: str, *cells: tuple, seed: int = 7):
    """Parse and apply rows to `state` directly (no income/upkeep); return the statuses by row."""
    orders, parsed = parse_economy_rows(state, faction, rows(*cells))
    assert all(s.ok for s in parsed), [s.text() for s in parsed]
    statuses = run_economy(state, faction, orders, random.Random(seed))
    return statuses


def gold_lines(state: dict, faction: str, resource: str = "gold") -> list[dict]:
    return [line for line in state["ledger"] if line["faction"] == faction and line["resource"] == resource]


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


# -- building and selling -------------------------------------------------------------

def test_building_tier_must_not_exceed_city_level():
    """«Постройки должны быть уровнем ниже или равным уровню города. Например, в городе 2-го уровня нельзя
    возвести постройку 3-го уровня.» — the message names the tier and the level."""
    state = make_game(gold=5000)
    state["cities"]["aurum"]["level"] = 2
    (status,) = run(state, "empire", ("Построить", "Аурум", "Зал паладинов", ""))
    assert status.errors[0].code == "JR_TIER_ABOVE_LEVEL"
    assert "3-го уровня" in status.text() and "2-го уровня" in status.text()
    (status,) = run(state, "empire", ("Построить", "Аурум", "Зал рыцарей", ""))
    assert status.ok and state["cities"]["aurum"]["buildings"] == ["empire_hall_of_knights"]


def test_small_city_has_one_slot_large_city_three():
    """«В малых городах можно поставить 1 постройку, в больших - 3 постройки.»"""
    state = make_game(gold=5000)
    statuses = run(state, "empire", ("Построить", "Феррум", "Барак", ""), ("Построить", "Феррум", "Часовня", ""),
                   ("Построить", "Аурум", "Барак", ""), ("Построить", "Аурум", "Часовня", ""),
                   ("Построить", "Аурум", "Фермерские угодья", ""))
    assert [s.ok for s in statuses] == [True, False, True, True, True]
    assert statuses[1].errors[0].code == "JR_NO_FREE_SLOT" and "1 из 1" in statuses[1].text()
    (status,) = run(state, "empire", ("Построить", "Аурум", "Фермерские угодья", ""))
    assert status.errors[0].code in ("JR_NO_FREE_SLOT", "JR_DUPLICATE_BUILDING")
    assert len(state["cities"]["aurum"]["buildings"]) == 3 and len(state["cities"]["ferrum"]["buildings"]) == 1


def test_no_two_identical_buildings_in_one_city():
    """«В одном городе не может быть две одинаковые постройки.» — but the same building in another city is fine."""
    state = make_game(gold=1000)
    statuses = run(state, "empire", ("Построить", "Аурум", "Часовня", ""), ("Построить", "Аурум", "Часовня", ""),
                   ("Построить", "Феррум", "Часовня", ""))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_DUPLICATE_BUILDING"
    assert state["factions"]["empire"]["gold"] == 800


def test_buildings_sell_for_half_their_cost():
    """«Постройки можно мгновенно 'продавать' за половину стоимости.» — the barrack (150з) sells for 75з."""
    state = make_game(gold=0)
    state["cities"]["aurum"]["buildings"] = ["empire_barrack"]
    (status,) = run(state, "empire", ("Продать", "Аурум", "Барак", ""))
    assert status.ok and state["factions"]["empire"]["gold"] == 75
    assert state["cities"]["aurum"]["buildings"] == []
    (status,) = run(state, "empire", ("Продать", "Аурум", "Барак", ""))
    assert status.errors[0].code == "JR_BUILDING_NOT_IN_CITY"


def test_summon_buildings_give_their_unit_and_no_money_when_sold():
    """«Следующие 3 постройки призывают на помощь в вашу армию 1 мощного юнита. Он умрёт, если постройка
    разрушится, но его можно бесплатно воскресить, пока она цела. … не даёт денег за снос»."""
    state = make_game(gold=1000)
    state["cities"]["karak"]["level"] = 3
    (status,) = run(state, "dwarves", ("Построить", "Карак", "Пещера Фрагулекса", ""))
    assert status.ok and state["factions"]["dwarves"]["units"] == {"dwarves_fragulex": 1}
    state["factions"]["dwarves"]["units"]["dwarves_fragulex"] = 0          # killed in a battle
    turn.start_of_turn(state, 1)                                        # revived for free
    assert state["factions"]["dwarves"]["units"]["dwarves_fragulex"] == 1
    (status,) = run(state, "dwarves", ("Нанять", "", "Фрагулекс", 1))
    assert status.errors[0].code == "JR_SUMMON_LIMIT"
    (status,) = run(state, "dwarves", ("Продать", "Карак", "Пещера Фрагулекса", ""))
    assert status.ok and state["factions"]["dwarves"]["gold"] == 700
    assert state["factions"]["dwarves"]["units"]["dwarves_fragulex"] == 0


def test_unique_buildings_exist_once_per_faction():
    """«Штаб тайной полиции … Одновременно может существовать только 1 тайная полиция.»"""
    state = make_game(gold=2000)
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["ferrum"]["level"] = 2
    statuses = run(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""),
                   ("Построить", "Феррум", "Штаб тайной полиции", ""))
    assert statuses[0].ok and statuses[1].errors[0].code == "JR_UNIQUE_BUILDING"
    assert "Аурум" in statuses[1].text()


def test_secret_police_lowers_corruption_once_after_the_first_build():
    """«-1к4+1 к коррупции сразу после первой постройки» — 2..5 less, and not again when rebuilt."""
    drops = set()
    for seed in range(30):
        state = make_game(gold=2000)
        state["cities"]["aurum"]["level"] = 2
        state["factions"]["empire"]["corruption"] = 9
        run(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""), seed=seed)
        drops.add(9 - state["factions"]["empire"]["corruption"])
        run(state, "empire", ("Продать", "Аурум", "Штаб тайной полиции", ""))
        before = state["factions"]["empire"]["corruption"]
        run(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""), seed=seed + 1)
        assert state["factions"]["empire"]["corruption"] == before
    assert drops == {2, 3, 4, 5}


def test_inquisition_replaces_secret_police_and_can_be_built_over_it_for_400():
    """«Штаб инквизиции (800з) - заменяет штаб тайной полиции. … обнуление коррупции сразу после первой
    постройки. Можно построить 'поверх' штаба тайной полиции за 400з.»"""
    state = make_game(gold=400)
    state["cities"]["aurum"].update(level=3, buildings=["empire_secret_police", "empire_barrack", "empire_chapel"])
    state["factions"]["empire"]["corruption"] = 14
    (status,) = run(state, "empire", ("Построить", "Аурум", "Штаб инквизиции", ""))
    assert status.ok, status.text()
    assert state["factions"]["empire"]["gold"] == 0 and state["factions"]["empire"]["corruption"] == 0
    assert state["cities"]["aurum"]["buildings"] == ["empire_inquisition", "empire_barrack", "empire_chapel"]
    (status,) = run(state, "empire", ("Построить", "Феррум", "Штаб тайной полиции", ""))
    assert status.errors[0].code in ("JR_REPLACED_BUILDING", "JR_TIER_ABOVE_LEVEL")


def test_inquisition_elsewhere_costs_800_and_removes_the_secret_police():
    """«заменяет штаб тайной полиции» — built in another city at full price, the police HQ goes."""
    state = make_game(gold=800)
    state["cities"]["aurum"].update(level=3)
    state["cities"]["ferrum"].update(level=2, buildings=["empire_secret_police"])
    (status,) = run(state, "empire", ("Построить", "Аурум", "Штаб инквизиции", ""))
    assert status.ok and state["factions"]["empire"]["gold"] == 0
    assert state["cities"]["ferrum"]["buildings"] == []


# -- cities -------------------------------------------------------------------------------

def test_city_upgrade_costs_its_current_income():
    """«Чтобы повысить уровень, нужно потратить золото в размере текущего дохода города.» — small L1→2: 150,
    large L1→2: 300; vampires pay their halved base income (JR-48)."""
    state = make_game(gold=1000, turn=3)
    statuses = run(state, "empire", ("Улучшить город", "Феррум", "", ""), ("Улучшить город", "Аурум", "", ""))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["gold"] == 1000 - 150 - 300
    assert state["cities"]["ferrum"]["level"] == 2 and state["cities"]["aurum"]["level"] == 2
    run(state, "vampires", ("Улучшить город", "Ноктис", "", ""))
    assert state["factions"]["vampires"]["gold"] == 1000 - 150


def test_city_level_is_capped_by_the_era():
    """«Сумерки (1-2 ход): максимальный уровень поселений - первый»; «Рассвет (3-4 ход): … второй»."""
    state = make_game(gold=5000, turn=1)
    (status,) = run(state, "empire", ("Улучшить город", "Феррум", "", ""))
    assert status.errors[0].code == "JR_LEVEL_CAPPED_BY_ERA" and "Сумерки" in status.text()
    state = make_game(gold=5000, turn=3)
    statuses = run(state, "empire", ("Улучшить город", "Феррум", "", ""), ("Улучшить город", "Феррум", "", ""))
    assert [s.ok for s in statuses] == [True, False]
    state = make_game(gold=5000, turn=5)
    (status,) = run(state, "empire", ("Улучшить город", "Феррум", "", 2))
    assert status.ok and state["cities"]["ferrum"]["level"] == 3
    assert state["factions"]["empire"]["gold"] == 5000 - 150 - 300
    (status,) = run(state, "empire", ("Улучшить город", "Феррум", "", ""))
    assert status.errors[0].code == "JR_MAX_LEVEL"


def test_restoring_ruins_costs_300_small_or_900_large():
    """«Чтобы восстановить город до первого уровня без построек, нужно потратить 300 золота для малого или 900
    для большого, … и в тот же ход дохода он не принесёт.»"""
    state = make_game(gold=1200)
    state["cities"]["ferrum"].update(ruins=True, level=1, buildings=[])
    state["cities"]["aurum"].update(ruins=True, level=2, buildings=[])
    statuses = run(state, "empire", ("Восстановить руины", "Феррум", "", ""),
                   ("Восстановить руины", "Аурум", "", ""))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["gold"] == 0
    assert state["cities"]["aurum"] == {**state["cities"]["aurum"], "ruins": False, "level": 1, "buildings": []}
    (status,) = run(state, "empire", ("Восстановить руины", "Феррум", "", ""))
    assert status.errors[0].code == "JR_NOT_RUINS"


def test_restored_city_gives_no_income_that_turn():
    """«в тот же ход дохода он не принесёт» — income is paid before orders, so the restored city earns next turn."""
    state = make_game(gold=300)
    state["cities"]["ferrum"].update(ruins=True)
    orders, _ = parse_economy_rows(state, "empire", rows(("Восстановить руины", "Феррум", "", "")))
    new, statuses = resolve_orders(state, {"empire": orders}, seed=2)
    assert statuses["empire"][0].ok
    assert not [line for line in new["ledger"] if line.get("city") == "ferrum" and line["amount"] > 0]
    assert any(line.get("city") == "ferrum" for line in income_lines(new, "empire"))


# -- hiring ------------------------------------------------------------------------------

def test_hiring_needs_a_recruitment_building_in_any_own_city():
    """«Барак (150з) - позволяет обучать юнитов 1-го уровня (кроме целителей)»; «Часовня … позволяет обучать
    целителей» — the message names the building that unlocks the unit."""
    state = make_game(gold=1000)
    state["cities"]["ferrum"]["buildings"] = ["empire_barrack"]
    statuses = run(state, "empire", ("Нанять", "", "Копейщик", 10), ("Нанять", "", "Целитель", 1))
    assert statuses[0].ok and state["factions"]["empire"]["units"]["empire_spearman"] == 10
    assert statuses[1].errors[0].code == "JR_UNIT_LOCKED" and "Часовня" in statuses[1].text()
    assert state["factions"]["empire"]["gold"] == 1000 - 150


def test_hiring_pays_gold_and_honor():
    """«Рыцарь: … 60з+5ч» — three knights cost 180з and 15ч; without honor the row says what is missing."""
    state = make_game(gold=500)
    state["cities"]["aurum"].update(level=2, buildings=["empire_hall_of_knights"])
    state["factions"]["empire"]["honor"] = 15
    statuses = run(state, "empire", ("Нанять", "", "Рыцарь", 3), ("Нанять", "", "Рыцарь", 1))
    assert statuses[0].ok
    assert (state["factions"]["empire"]["gold"], state["factions"]["empire"]["honor"]) == (320, 0)
    assert statuses[1].errors[0].code == "JR_NOT_ENOUGH_HONOR" and "нужно 5ч" in statuses[1].text()


def test_cathedral_cuts_the_honor_cost_by_40_percent():
    """«Великий собор (1600з) - … снижает затраты чести на покупку каждого юнита на 40% (например, 10ч->6ч)»."""
    state = make_game(gold=1000)
    state["cities"]["aurum"].update(level=3, buildings=["empire_great_cathedral", "empire_chapel",
                                                        "empire_hall_of_paladins"])
    state["factions"]["empire"]["honor"] = 100
    statuses = run(state, "empire", ("Нанять", "", "Целитель", 1), ("Нанять", "", "Архижрец", 1))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["honor"] == 100 - 6 - 30


def test_vampires_need_15_slaves_of_blood_per_unit():
    """«число юнитов в армии ограничено числом рабов: нужно как минимум 15 рабов на юнита»; the bone cannon
    «потребляет кровь … как 3 других юнита»."""
    state = make_game(gold=5000)
    state["cities"]["noct"].update(level=2, buildings=["vampires_mansions"])
    state["factions"]["vampires"]["slaves"] = 450                         # blood for 30 units
    statuses = run(state, "vampires", ("Нанять", "", "Полукровка", 25), ("Нанять", "", "Костяная пушка", 2),
                   ("Нанять", "", "Костяная пушка", 1))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_NOT_ENOUGH_BLOOD" and "ещё 1" in statuses[1].text()


def test_purebloods_are_limited_to_five_and_the_lord_to_one():
    """«у вас может быть максимум 5 таких юнитов»; «Во всей вашей армии может быть только 1 лорд.»"""
    state = make_game(gold=5000)
    state["cities"]["noct"]["buildings"] = ["vampires_estates"]
    statuses = run(state, "vampires", ("Нанять", "", "Чистокровный", 4), ("Нанять", "", "Чистокровный", 2),
                   ("Нанять", "", "Лорд вампиров", 1), ("Нанять", "", "Лорд", 1))
    assert [s.ok for s in statuses] == [True, False, True, False]
    assert "ещё 1" in statuses[1].text()
    assert state["factions"]["vampires"]["units"] == {"vampires_pureblood": 4, "vampires_lord": 1}


def test_jade_is_bought_one_gold_each_up_to_300_per_turn():
    """«За 1 единицу золота вы можете купить 1 единицу нефрита, но за ход можно получить не более 300н.»
    «Нефритовая шахта (250з) - +150 к лимиту покупки нефрита за ход»."""
    state = make_game(gold=1000)
    statuses = run(state, "jade", ("Купить нефрит", "", "", 200), ("Купить нефрит", "", "", 150),
                   ("Купить нефрит", "", "", 100))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_JADE_LIMIT"
    assert (state["factions"]["jade"]["gold"], state["factions"]["jade"]["jade"]) == (700, 300)
    state = make_game(gold=1000)
    state["cities"]["qinghe"].update(level=2, buildings=["jade_jade_mine"])
    (status,) = run(state, "jade", ("Купить нефрит", "", "", 450))
    assert status.ok and state["factions"]["jade"]["jade"] == 450


def test_jade_creatures_need_a_forge_in_a_city_of_their_tier():
    """«Великая Кузня … Позволяет нанимать нефритовых созданий вплоть до уровня города, в котором находится»
    and a recruitment building (JR-94); «Если у вас нет Великой кузни» no creatures can be made."""
    state = make_game(gold=0)
    state["factions"]["jade"]["jade"] = 1000
    state["cities"]["qinghe"].update(level=2, buildings=["jade_military_camp"])
    statuses = run(state, "jade", ("Нанять", "", "Нефритовый воин", 10), ("Нанять", "", "Нефритовый колосс", 1))
    assert statuses[0].ok and statuses[1].errors[0].code == "JR_NEEDS_FORGE"
    assert "2-го уровня" in statuses[1].text()
    state["cities"]["yulong"]["level"] = 2
    (status,) = run(state, "jade", ("Нанять", "", "Нефритовый колосс", 1))
    assert status.ok and state["factions"]["jade"]["jade"] == 1000 - 150 - 120
    state["cities"]["yulong"]["buildings"] = []
    (status,) = run(state, "jade", ("Нанять", "", "Нефритовый воин", 1))
    assert status.errors[0].code == "JR_NEEDS_FORGE" and "нет ни одной" in status.text()


def test_jade_bought_in_the_same_turn_pays_for_hiring():
    """«если юнит покупается за 15н, то вы можете купить его, потратив 15з» — purchase runs before hiring."""
    state = make_game(gold=300)
    state["cities"]["qinghe"]["buildings"] = ["jade_recruiting_station"]
    statuses = run(state, "jade", ("Нанять", "", "Нефритовый воин", 20), ("Купить нефрит", "", "", 300))
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    assert state["factions"]["jade"]["units"] == {"jade_warrior": 20}
    assert (state["factions"]["jade"]["gold"], state["factions"]["jade"]["jade"]) == (0, 0)


def test_orders_run_sell_build_upgrade_restore_jade_hire_whatever_the_row_order():
    """RULINGS JR-56: «sell, build, upgrade cities, restore ruins, faction actions, jade purchase, hire» —
    selling the farmlands pays for and frees the slot of a barrack, which unlocks the spearmen hired."""
    state = make_game(gold=115)
    state["cities"]["ferrum"]["buildings"] = ["empire_farmlands"]
    statuses = run(state, "empire", ("Нанять", "", "Копейщик", 1), ("Построить", "Феррум", "Барак", ""),
                   ("Продать", "Феррум", "Фермерские угодья", ""))
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    assert [s.number for s in statuses] == [2, 3, 4]
    assert state["cities"]["ferrum"]["buildings"] == ["empire_barrack"]
    assert state["factions"]["empire"]["gold"] == 115 + 50 - 150 - 15


def test_a_rejected_order_changes_nothing():
    """An order the balance cannot pay is rejected with its message (RULINGS JR-57): state and ledger unchanged."""
    state = make_game(gold=100)
    before = copy.deepcopy(state)
    (status,) = run(state, "empire", ("Построить", "Аурум", "Барак", ""))
    assert status.errors[0].code == "JR_NOT_ENOUGH_GOLD" and "нужно 150з, а у вас 100з" in status.text()
    assert state == before


# -- vampires' slaves -----------------------------------------------------------------------

def test_a_third_of_the_slaves_die_at_the_end_of_the_turn():
    """«треть рабов (округлённо) умирает в конце хода» — 450 → 300; 100 → 67 (33.3 rounds to 33)."""
    state = make_game()
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 300
    state["factions"]["vampires"]["slaves"] = 100
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 67


def test_two_thirds_of_the_slaves_above_the_cap_escape_at_the_start():
    """«Максимум вы можете держать 600 рабов. Две трети рабов сверх этого максимума в начале каждого хода
    сбегает» — 900 → 700; the «Виселица» lowers the share to one third (900 → 800)."""
    state = make_game()
    state["factions"]["vampires"]["slaves"] = 900
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 700
    state["factions"]["vampires"]["slaves"] = 900
    state["cities"]["umbra"].update(level=2, buildings=["vampires_gallows"])
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 800


def test_barrack_and_slums_raise_the_slave_cap():
    """«Барак (50з) - +100 к максимуму рабов»; «Трущобы (150з) - +250 к максимуму рабов» — cap 600 + 100 + 250 = 950:
    of 1010 slaves, two thirds of the 60 above it escape (40)."""
    state = make_game()
    state["cities"]["noct"].update(level=3, buildings=["vampires_barrack", "vampires_slums"])
    state["factions"]["vampires"]["slaves"] = 1010
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 970


def test_gallows_kill_30_more_slaves_per_turn():
    """«Виселица (50з) - +30 к потерям рабов в ход» (JR-74 I1: a drawback) — 300 slaves: 100 + 30 die."""
    state = make_game()
    state["cities"]["umbra"].update(level=2, buildings=["vampires_gallows"])
    state["factions"]["vampires"]["slaves"] = 300
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 170


def test_vampires_beyond_the_blood_hibernate_and_the_crypt_spares_their_upkeep():
    """«Если крови рабов не хватает … часть вампиров впадает в спячку … вы всё ещё должны платить за их
    содержание»; «Склеп (100з) - вмещает до 20 вампиров. Во время спячки в склепе они не требуют золота»."""
    state = make_game()
    state["factions"]["vampires"]["units"] = {"vampires_halfblood": 40}
    state["factions"]["vampires"]["slaves"] = 450                      # 300 after the deaths: blood for 20
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["hibernating"] == {"vampires_halfblood": 20}
    assert upkeep_total(state, "vampires") == 400
    state["cities"]["umbra"]["buildings"] = ["vampires_crypt"]
    assert upkeep_total(state, "vampires") == 200


# -- stage -----------------------------------------------------------------------------------

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


def test_resolve_is_deterministic_and_does_not_touch_its_input():
    """Same state + orders + seed -> byte-identical result; the input state is not mutated."""
    state = make_game(gold=1000)
    orders = {f: parse_economy_rows(state, f, rows(("Построить", CITIES[f][0][1], name, "")))[0]
              for f, name in (("empire", "Барак"), ("dwarves", "Карьер"), ("jade", "Рисовые поля"))}
    frozen = canonical_json(state)
    first, s1 = resolve_orders(state, orders, seed=99)
    second, s2 = resolve_orders(state, orders, seed=99)
    assert canonical_json(state) == frozen
    assert canonical_json(first) == canonical_json(second) and s1 == s2
    assert first["turn"] == 2 and first["era"] == "twilight"


def test_validate_reports_not_enough_gold_before_the_deadline():
    """`check`: the dry run includes this turn's income, so 450 gold of income is already counted."""
    state = make_game(gold=0)
    statuses = validate_economy(state, "empire", rows(("Построить", "Аурум", "Часовня", ""),
                                                      ("Построить", "Феррум", "Казарма", ""),
                                                      ("Нанять", "", "Рыцарь", 1)))
    assert statuses[0].ok
    assert statuses[1].errors[0].code == "JR_TIER_ABOVE_LEVEL"
    assert statuses[2].errors[0].code == "JR_UNIT_LOCKED" and "Зал рыцарей" in statuses[2].text()
    state["factions"]["empire"]["units"] = {"empire_archpriest": 12}
    (status,) = validate_economy(state, "empire", rows(("Построить", "Аурум", "Часовня", "")))
    assert status.errors[0].code == "JR_NOT_ENOUGH_GOLD"
    assert state["ledger"] == [] and state["factions"]["empire"]["gold"] == 0


# -- parsing -------------------------------------------------------------------------------------

def test_actions_list_and_faction_only_actions():
    common = ("Построить", "Продать", "Улучшить город", "Восстановить руины", "Нанять")
    assert ACTIONS[:5] == common
    assert actions_for("jade") == common + ("Купить нефрит",)
    assert actions_for("empire") == common + ("Чистка генералов", "Чистка чиновников", "Показательная казнь",
                                              "Слежка", "Террор")
    assert actions_for("vampires") == common + ("Ритуал вечных слуг", "Обратить в рабов", "Отправить в спячку")
    assert actions_for("dwarves") == common + ("Мстительный поход", "Вложить", "Записывать обиды")


@pytest.mark.parametrize("cells, code, words", [
    (("Построить", "Аурум", "Башня магов", ""), "JR_UNKNOWN_BUILDING", ["Барак", "Великий собор"]),
    (("Построить", "Аурум", "Склеп", ""), "JR_FOREIGN_BUILDING", ["Вампиры", "Часовня"]),
    (("Построить", "Ноктис", "Барак", ""), "JR_CITY_NOT_OWNED", ["Аурум", "Феррум"]),
    (("Построить", "Атлантида", "Барак", ""), "JR_UNKNOWN_CITY", ["Аурум"]),
    (("Построить", "", "Барак", ""), "JR_CITY_REQUIRED", ["Аурум"]),
    (("Построить", "Аурум", "", ""), "JR_BUILDING_REQUIRED", ["Часовня"]),
    (("Построить", "Аурум", "Барак", "2"), "JR_ONE_AT_A_TIME", ["«2»"]),
    (("Нанять", "", "Копейщик", "десять"), "E_NOT_A_NUMBER", ["Количество", "десять"]),
    (("Нанять", "", "Копейщик", "-3"), "E_NOT_A_NUMBER", ["-3"]),
    (("Нанять", "", "Копейщик", "2.5"), "E_NOT_A_NUMBER", ["2.5"]),
    (("Нанять", "", "Копейщик", "1e9"), "E_NOT_A_NUMBER", ["1e9", "1 200"]),
    (("Нанять", "", "Копейщик", "1 000 000"), "E_NUMBER_TOO_LARGE", ["100\u00a0000"]),
    (("Нанять", "", "Упырь", "1"), "JR_FOREIGN_UNIT", ["Вампиры", "Копейщик"]),
    (("Нанять", "", "Дракон-призрак", "1"), "JR_UNKNOWN_UNIT", ["Рыцарь"]),
    (("Нанять", "", "", "1"), "JR_UNIT_REQUIRED", ["Копейщик"]),
    (("Снести", "Аурум", "Барак", ""), "JR_UNKNOWN_ACTION", ["Построить", "Нанять"]),
    (("Купить нефрит", "", "", "100"), "JR_ACTION_NOT_FOR_FACTION", ["Нефритовый двор"]),
    (("", "Аурум", "Барак", ""), "E_REQUIRED", ["Действие"]),
    (("=1+1", "", "", ""), "E_FORMULA", ["=1+1"]),
])
def test_bad_rows_get_a_russian_message_naming_what_is_allowed(cells, code, words):
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, "empire", rows(cells))
    assert orders == [] and len(statuses) == 1
    assert code in [e.code for e in statuses[0].errors]
    for word in words:
        assert word in statuses[0].text(), (word, statuses[0].text())


def test_blank_rows_get_no_status_and_case_spacing_do_not_matter():
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, "empire", [
        Row(2, {"action": "", "city": None, "what": "  ", "count": ""}),
        Row(3, {"action": "  построить ", "city": "аурум", "what": "ЧАСОВНЯ", "count": " 1 "}),
        Row(4, {"action": "нанять", "what": "копейщики", "count": "10 "})])
    assert [s.number for s in statuses] == [3, 4] and all(s.ok for s in statuses)
    assert orders == [{"row": 3, "kind": "build", "city": "aurum", "what": "empire_chapel", "count": 1},
                      {"row": 4, "kind": "hire", "city": None, "what": "empire_spearman", "count": 10}]


# -- scenario ---------------------------------------------------------------------------------------

def test_jade_capital_starts_with_the_great_forge_taking_a_slot():
    """«В вашей столице с начала игры есть обладающая божественной силой гигантская кузня» (JR-89: takes a slot)."""
    state = make_game(gold=1000)
    assert state["cities"]["yulong"]["buildings"] == ["jade_great_forge"]
    statuses = run(state, "jade", ("Построить", "Юйлун", "Рисовые поля", ""),
                   ("Построить", "Юйлун", "Вербовочный пункт", ""))
    assert all(s.ok for s in statuses)
    state["cities"]["yulong"]["level"] = 2
    (status,) = run(state, "jade", ("Построить", "Юйлун", "Нефритовая шахта", ""))
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
