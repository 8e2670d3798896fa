"""Building and selling (actions/buildings.py, rule book L47-55): tiers, slots, duplicates, sale value, summon
buildings, unique and replacing buildings. DATC style: setup, orders, expected outcome; each docstring quotes
the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import turn
from tests.jade_rose.small_games import make_game, run_rows


def test_building_tier_must_not_exceed_city_level():
    """«Постройки должны быть уровнем ниже или равным уровню города. Например, в городе 2-го уровня нельзя
    возвести постройку 3-го уровня.» — the message names the tier and the level."""
    state = make_game(gold=5000)
    state["cities"]["aurum"]["level"] = 2
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Зал паладинов", ""))
    assert status.errors[0].code == "JR_TIER_ABOVE_LEVEL"
    assert "3-го уровня" in status.text() and "2-го уровня" in status.text()
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Зал рыцарей", ""))
    assert status.ok and state["cities"]["aurum"]["buildings"] == ["empire_hall_of_knights"]


def test_small_city_has_one_slot_large_city_three():
    """«В малых городах можно поставить 1 постройку, в больших - 3 постройки.»"""
    state = make_game(gold=5000)
    statuses = run_rows(state, "empire", ("Построить", "Феррум", "Барак", ""), ("Построить", "Феррум", "Часовня", ""),
                   ("Построить", "Аурум", "Барак", ""), ("Построить", "Аурум", "Часовня", ""),
                   ("Построить", "Аурум", "Фермерские угодья", ""))
    assert [s.ok for s in statuses] == [True, False, True, True, True]
    assert statuses[1].errors[0].code == "JR_NO_FREE_SLOT" and "1 из 1" in statuses[1].text()
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Фермерские угодья", ""))
    assert status.errors[0].code in ("JR_NO_FREE_SLOT", "JR_DUPLICATE_BUILDING")
    assert len(state["cities"]["aurum"]["buildings"]) == 3 and len(state["cities"]["ferrum"]["buildings"]) == 1


def test_no_two_identical_buildings_in_one_city():
    """«В одном городе не может быть две одинаковые постройки.» — but the same building in another city is fine."""
    state = make_game(gold=1000)
    statuses = run_rows(state, "empire", ("Построить", "Аурум", "Часовня", ""), ("Построить", "Аурум", "Часовня", ""),
                   ("Построить", "Феррум", "Часовня", ""))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_DUPLICATE_BUILDING"
    assert state["factions"]["empire"]["gold"] == 800


def test_buildings_sell_for_half_their_cost():
    """«Постройки можно мгновенно 'продавать' за половину стоимости.» — the barrack (150з) sells for 75з."""
    state = make_game(gold=0)
    state["cities"]["aurum"]["buildings"] = ["empire_barrack"]
    (status,) = run_rows(state, "empire", ("Продать", "Аурум", "Барак", ""))
    assert status.ok and state["factions"]["empire"]["gold"] == 75
    assert state["cities"]["aurum"]["buildings"] == []
    (status,) = run_rows(state, "empire", ("Продать", "Аурум", "Барак", ""))
    assert status.errors[0].code == "JR_BUILDING_NOT_IN_CITY"


def test_summon_buildings_give_their_unit_and_no_money_when_sold():
    """«Следующие 3 постройки призывают на помощь в вашу армию 1 мощного юнита. Он умрёт, если постройка
    разрушится, но его можно бесплатно воскресить, пока она цела. … не даёт денег за снос»."""
    state = make_game(gold=1000)
    state["cities"]["karak"]["level"] = 3
    (status,) = run_rows(state, "dwarves", ("Построить", "Карак", "Пещера Фрагулекса", ""))
    assert status.ok and state["factions"]["dwarves"]["units"] == {"dwarves_fragulex": 1}
    state["factions"]["dwarves"]["units"]["dwarves_fragulex"] = 0          # killed in a battle
    turn.start_of_turn(state, 1)                                        # revived for free
    assert state["factions"]["dwarves"]["units"]["dwarves_fragulex"] == 1
    (status,) = run_rows(state, "dwarves", ("Нанять", "", "Фрагулекс", 1))
    assert status.errors[0].code == "JR_SUMMON_LIMIT"
    (status,) = run_rows(state, "dwarves", ("Продать", "Карак", "Пещера Фрагулекса", ""))
    assert status.ok and state["factions"]["dwarves"]["gold"] == 700
    assert state["factions"]["dwarves"]["units"]["dwarves_fragulex"] == 0


def test_unique_buildings_exist_once_per_faction():
    """«Штаб тайной полиции … Одновременно может существовать только 1 тайная полиция.»"""
    state = make_game(gold=2000)
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["ferrum"]["level"] = 2
    statuses = run_rows(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""),
                   ("Построить", "Феррум", "Штаб тайной полиции", ""))
    assert statuses[0].ok and statuses[1].errors[0].code == "JR_UNIQUE_BUILDING"
    assert "Аурум" in statuses[1].text()


def test_inquisition_replaces_secret_police_and_can_be_built_over_it_for_400():
    """«Штаб инквизиции (800з) - заменяет штаб тайной полиции. … обнуление коррупции сразу после первой
    постройки. Можно построить 'поверх' штаба тайной полиции за 400з.»"""
    state = make_game(gold=400)
    state["cities"]["aurum"].update(level=3, buildings=["empire_secret_police", "empire_barrack", "empire_chapel"])
    state["factions"]["empire"]["corruption"] = 14
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Штаб инквизиции", ""))
    assert status.ok, status.text()
    assert state["factions"]["empire"]["gold"] == 0 and state["factions"]["empire"]["corruption"] == 0
    assert state["cities"]["aurum"]["buildings"] == ["empire_inquisition", "empire_barrack", "empire_chapel"]
    (status,) = run_rows(state, "empire", ("Построить", "Феррум", "Штаб тайной полиции", ""))
    assert status.errors[0].code in ("JR_REPLACED_BUILDING", "JR_TIER_ABOVE_LEVEL")


def test_inquisition_elsewhere_costs_800_and_removes_the_secret_police():
    """«заменяет штаб тайной полиции» — built in another city at full price, the police HQ goes."""
    state = make_game(gold=800)
    state["cities"]["aurum"].update(level=3)
    state["cities"]["ferrum"].update(level=2, buildings=["empire_secret_police"])
    (status,) = run_rows(state, "empire", ("Построить", "Аурум", "Штаб инквизиции", ""))
    assert status.ok and state["factions"]["empire"]["gold"] == 0
    assert state["cities"]["ferrum"]["buildings"] == []
