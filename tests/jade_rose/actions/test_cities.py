"""Upgrading cities and restoring ruins (actions/cities.py): the cost, the era's cap. DATC style: setup, orders,
expected outcome; each docstring quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.income import income_lines
from tests.jade_rose.small_games import make_game, resolve_orders, rows, run_rows


def test_city_upgrade_costs_its_current_income():
    """«Чтобы повысить уровень, нужно потратить золото в размере текущего дохода города.» — small L1→2: 150,
    large L1→2: 300; vampires pay their halved base income (JR-48)."""
    state = make_game(gold=1000, turn=3)
    statuses = run_rows(state, "empire", ("Улучшить город", "Феррум", "", ""), ("Улучшить город", "Аурум", "", ""))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["gold"] == 1000 - 150 - 300
    assert state["cities"]["ferrum"]["level"] == 2 and state["cities"]["aurum"]["level"] == 2
    run_rows(state, "vampires", ("Улучшить город", "Ноктис", "", ""))
    assert state["factions"]["vampires"]["gold"] == 1000 - 150


def test_city_level_is_capped_by_the_era():
    """«Сумерки (1-2 ход): максимальный уровень поселений - первый»; «Рассвет (3-4 ход): … второй»."""
    state = make_game(gold=5000, turn=1)
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", ""))
    assert status.errors[0].code == "JR_LEVEL_CAPPED_BY_ERA" and "Сумерки" in status.text()
    state = make_game(gold=5000, turn=3)
    statuses = run_rows(state, "empire", ("Улучшить город", "Феррум", "", ""), ("Улучшить город", "Феррум", "", ""))
    assert [s.ok for s in statuses] == [True, False]
    state = make_game(gold=5000, turn=5)
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", 2))
    assert status.ok and state["cities"]["ferrum"]["level"] == 3
    assert state["factions"]["empire"]["gold"] == 5000 - 150 - 300
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", ""))
    assert status.errors[0].code == "JR_MAX_LEVEL"


def test_an_upgrade_by_more_levels_than_are_left_is_refused_with_what_is_left():
    """Issue 38 §2: «Nonsense numbers are refused, not ignored … with a message.» «Рассвет (3-4 ход): максимальный
    уровень поселений - второй». Setup: turn 3, Феррум at level 1. Orders: «Улучшить город · Феррум · 5».
    Expected: refused, the message names the era's cap and the one level left (it no longer claims a cap of 3);
    at turn 5 (cap 3) «Количество» 5 is refused with «выше 3-го уровня городов не бывает», 2 levels left; at turn 1
    (cap 1) nothing is left: the era's cap, 1."""
    state = make_game(gold=5000, turn=3)
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", 5))
    assert status.errors[0].code == "JR_UPGRADE_TOO_FAR"
    assert status.text() == ("Город «Феррум» 1-го уровня, а в эпоху «Рассвет» города не бывают выше 2-го уровня: "
                             "улучшить его можно не больше чем на 1, а в столбце «Количество» (на сколько уровней "
                             "улучшить) стоит 5.")
    assert state["factions"]["empire"]["gold"] == 5000 and state["cities"]["ferrum"]["level"] == 1
    state = make_game(gold=5000, turn=5)
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", 5))
    assert status.text() == ("Город «Феррум» 1-го уровня, а выше 3-го уровня городов не бывает: улучшить его можно не "
                             "больше чем на 2, а в столбце «Количество» (на сколько уровней улучшить) стоит 5.")
    state = make_game(gold=5000, turn=1)
    (status,) = run_rows(state, "empire", ("Улучшить город", "Феррум", "", 5))
    assert status.text() == "Город «Феррум» уже 1-го уровня, а в эпоху «Сумерки» города не бывают выше 1-го уровня."


def test_restoring_ruins_costs_300_small_or_900_large():
    """«Чтобы восстановить город до первого уровня без построек, нужно потратить 300 золота для малого или 900
    для большого, … и в тот же ход дохода он не принесёт.»"""
    state = make_game(gold=1200)
    state["cities"]["ferrum"].update(ruins=True, level=1, buildings=[])
    state["cities"]["aurum"].update(ruins=True, level=2, buildings=[])
    statuses = run_rows(state, "empire", ("Восстановить руины", "Феррум", "", ""),
                   ("Восстановить руины", "Аурум", "", ""))
    assert all(s.ok for s in statuses)
    assert state["factions"]["empire"]["gold"] == 0
    assert state["cities"]["aurum"] == {**state["cities"]["aurum"], "ruins": False, "level": 1, "buildings": []}
    (status,) = run_rows(state, "empire", ("Восстановить руины", "Феррум", "", ""))
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
