"""Invariants of the Jade Rose economy under arbitrary orders (hypothesis), and the demo scenario's map."""
from __future__ import annotations

import copy
import random
import tomllib
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose import turn
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import actions_for, parse_economy_rows
from engine.jade_rose.names import building_names, unit_names
from engine.jade_rose.setup import new_game
from engine.ruleset import Row
from engine.state import canonical_json
from tests.jade_rose.small_games import resolve_orders
from tests.paths import JADE_ROSE_DEMO

DEMO = JADE_ROSE_DEMO
FACTIONS = ("empire", "vampires", "dwarves", "jade")
RESOURCES = ("gold", "honor", "jade", "slaves", "runes", "corruption")


def demo_state() -> dict:
    with DEMO.open("rb") as fh:
        return new_game(tomllib.load(fh))


DEMO_STATE = demo_state()
CITY_NAMES = sorted(c["name"] for c in DEMO_STATE["cities"].values())
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cell_text(faction: str):
    vocabulary = (list(actions_for("jade")) + CITY_NAMES + building_names(faction) + unit_names(faction)
                  + ["", " ", "0", "-1", "1", "3", "2.5", "1e9", "=SUM(A1)", "NaN", "inf"])
    return st.one_of(st.sampled_from(vocabulary), st.text(max_size=12))


@st.composite
def garbage_rows(draw, faction: str):
    n = draw(st.integers(0, 8))
    return [Row(i + 2, {key: draw(cell_text(faction)) for key in ("action", "city", "what", "count")})
            for i in range(n)]


@st.composite
def economy_case(draw):
    """A demo state at a random turn, with random gold, levels, buildings and units, plus orders rows."""
    state = copy.deepcopy(DEMO_STATE)
    state["turn"] = draw(st.integers(1, 9))
    faction = draw(st.sampled_from(FACTIONS))
    rec = state["factions"][faction]
    rec["gold"] = draw(st.integers(-200, 4000))
    for key in ("honor", "jade", "slaves"):
        if key in rec:
            rec[key] = draw(st.integers(0, 900))
    data = load_data()
    own = [cid for cid, c in state["cities"].items() if c["owner"] == faction]
    for cid in own:
        city = state["cities"][cid]
        city["level"] = draw(st.integers(1, 3))
        slots = 3 if city["large"] else 1
        fitting = sorted(b.key for b in data.faction_buildings(faction) if b.tier <= city["level"])
        extra = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=slots - len(city["buildings"])))
        city["buildings"] += [b for b in extra if b not in city["buildings"]
                              and not (data.buildings[b].unique_per_faction
                                       and any(b in state["cities"][o]["buildings"] for o in own))]
    actions = [a for a in actions_for(faction)]
    cities = [state["cities"][cid]["name"] for cid in own] + ["Нигде"]
    whats = building_names(faction) + unit_names(faction)
    rows = [Row(i + 2, {"action": draw(st.sampled_from(actions)), "city": draw(st.sampled_from(cities)),
                        "what": draw(st.sampled_from(whats)), "count": str(draw(st.integers(1, 400)))})
            for i in range(draw(st.integers(0, 10)))]
    return state, faction, rows, draw(st.integers(0, 2**32))


@SETTINGS
@given(st.sampled_from(FACTIONS).flatmap(lambda f: st.tuples(st.just(f), garbage_rows(f))))
def test_garbage_rows_never_raise_and_every_non_blank_row_gets_one_status(case):
    faction, rows = case
    orders, statuses = parse_economy_rows(DEMO_STATE, faction, rows)
    non_blank = [r.number for r in rows if not r.is_blank()]
    assert [s.number for s in statuses] == non_blank
    assert all(s.text() for s in statuses)
    checked = turn.validate_economy(DEMO_STATE, faction, rows)
    assert [s.number for s in checked] == non_blank
    assert all(s.ok or s.text() != "OK" for s in checked)


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


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(economy_case())
def test_resolve_is_a_pure_function_of_state_orders_and_seed(case):
    state, faction, rows, seed = case
    orders, _ = parse_economy_rows(state, faction, rows)
    frozen = canonical_json(state)
    first = resolve_orders(state, {faction: orders}, seed)
    second = resolve_orders(state, {faction: orders}, seed)
    assert canonical_json(state) == frozen
    assert canonical_json(first[0]) == canonical_json(second[0]) and first[1] == second[1]
    total = sum(line["amount"] for line in first[0]["ledger"] if line["faction"] == faction
                and line["resource"] == "gold")
    assert first[0]["factions"][faction]["gold"] == state["factions"][faction]["gold"] + total


# -- demo scenario ---------------------------------------------------------------------------

def test_demo_scenario_has_four_factions_each_with_a_large_capital_and_three_small_cities():
    state = DEMO_STATE
    assert sorted(state["factions"]) == sorted(FACTIONS) and len(state["cities"]) >= 16
    for fid in FACTIONS:
        own = [c for c in state["cities"].values() if c["owner"] == fid]
        assert sorted((c["large"], c["capital"]) for c in own) == [(False, False)] * 3 + [(True, True)]
        assert all(c["level"] == 1 for c in own)
        assert state["factions"][fid]["gold"] > 0
    assert state["factions"]["vampires"]["slaves"] == 450
    assert state["cities"]["yulong"]["buildings"] == ["jade_great_forge"]
    assert state["roads"] == sorted(state["roads"]) and all(a < b for a, b in state["roads"])


def test_demo_map_is_connected_and_every_faction_borders_every_other():
    state = DEMO_STATE
    neighbours = {cid: set() for cid in state["cities"]}
    for a, b in state["roads"]:
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen, todo = set(), [next(iter(neighbours))]
    while todo:
        cid = todo.pop()
        if cid not in seen:
            seen.add(cid)
            todo.extend(neighbours[cid] - seen)
    assert seen == set(state["cities"])
    borders = {(state["cities"][a]["owner"], state["cities"][b]["owner"]) for a, b in state["roads"]}
    for f in FACTIONS:
        for g in FACTIONS:
            if f != g:
                assert (f, g) in borders or (g, f) in borders, (f, g)


def test_demo_game_runs_nine_turns_without_errors():
    """A whole game of economy stages with a few standing orders: every order row gets a status, state stays JSON."""
    state = DEMO_STATE
    plans = {"empire": [("Построить", "Ауренхайм", "Барак", ""), ("Нанять", "", "Копейщик", "5")],
             "vampires": [("Построить", "Нахтбург", "Поместья вампиров", ""), ("Нанять", "", "Полукровка", "3")],
             "dwarves": [("Построить", "Карак-Азгал", "Учебный плац", ""), ("Нанять", "", "Горняки", "4")],
             "jade": [("Купить нефрит", "", "", "150"), ("Построить", "Юйлун", "Вербовочный пункт", ""),
                      ("Нанять", "", "Нефритовый воин", "5")]}
    for turn_no in range(1, 10):
        orders = {}
        for fid, plan in plans.items():
            rows = [Row(i + 2, dict(zip(("action", "city", "what", "count"), cells, strict=True)))
                    for i, cells in enumerate(plan)]
            orders[fid], parsed = parse_economy_rows(state, fid, rows)
            assert all(s.ok for s in parsed)
        state, statuses = resolve_orders(state, orders, seed=turn_no)
        assert {f: len(s) for f, s in statuses.items()} == {f: len(p) for f, p in plans.items()}
        canonical_json(state)
    assert state["turn"] == 10
    assert state["factions"]["jade"]["units"].get("jade_warrior", 0) >= 5
