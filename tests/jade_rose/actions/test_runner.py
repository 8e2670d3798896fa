"""Running a faction's «Экономика» orders (actions/runner.py): the rulings' order whatever the rows' order, a
rejected order changing nothing, and (hypothesis) balances that change only through ledger lines while cities
keep their rules. DATC style: setup, orders, expected outcome; each docstring quotes the rule book
(../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

import copy
import random
from collections import Counter

from hypothesis import given

from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import parse_economy_rows
from tests.jade_rose.demo_cases import RESOURCES, SETTINGS, economy_case
from tests.jade_rose.small_games import make_game, run_rows


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


@SETTINGS
@given(economy_case())
def test_balances_change_only_through_ledger_lines_and_cities_keep_their_rules(case):
    """Gold (and every resource) after the orders == before + the ledger lines; no city over its slots, no
    duplicate building, no second unique building; orders never push a non-negative balance below 0 — «a
    balance may go negative only through upkeep» (RULINGS JR-57), which the Purge of the generals raises
    by 50 % this turn."""
    state, faction, rows, seed = case
    data = load_data()
    orders, _ = parse_economy_rows(state, faction, rows)
    before = copy.deepcopy(state["factions"][faction])
    state["ledger"] = []
    statuses = run_economy(state, faction, orders, random.Random(seed))
    after = state["factions"][faction]
    assert len(statuses) == len(orders)
    for res in RESOURCES:
        if res in before:
            lines = sum(line["amount"] for line in state["ledger"] if line["resource"] == res)
            assert after[res] == before[res] + lines, res
    if before["gold"] >= 0:
        upkeep = sum(line["amount"] for line in state["ledger"]
                     if line["resource"] == "gold" and line.get("kind") == "upkeep")
        assert after["gold"] - upkeep >= 0
    assert after.get("honor", 0) >= min(0, before.get("honor", 0))
    assert after.get("jade", 0) >= 0
    uniques = Counter()
    for city in state["cities"].values():
        slots = 3 if city["large"] else 1
        assert len(city["buildings"]) <= slots
        assert len(set(city["buildings"])) == len(city["buildings"])
        assert all(data.buildings[b].tier <= city["level"] for b in city["buildings"]
                   if b != "jade_great_forge")
        uniques.update(b for b in city["buildings"] if data.buildings[b].unique_per_faction)
    assert all(n <= 1 for n in uniques.values())
    assert all(n >= 0 for n in after["units"].values())
