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
