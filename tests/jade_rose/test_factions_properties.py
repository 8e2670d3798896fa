"""The Jade Rose ledger invariant over random games (hypothesis): every change of gold and of every faction
resource (grudges included, per enemy) in a turn is itemised in the ledger, and the items sum to the change.

A random game is a sequence of steps on a four-faction map: start of turn (gifts, escapes, corruption,
forgiveness, investments, grudge rooms, income, upkeep), a faction's economy rows (faction actions included,
with a random army plan), war events as the war engine emits them (after it has moved the cities), and the
end of the turn (slave deaths, hibernation, victories, Midnight).
"""
from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose import consequences, holdings, turn, victory
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import actions_for, parse_economy_rows, rival_names
from engine.jade_rose.names import building_names, unit_names
from engine.jade_rose.setup import new_game
from engine.ruleset import Row
from engine.state import canonical_json

FACTIONS = ("empire", "vampires", "dwarves", "jade")
RESOURCES = ("gold", "honor", "corruption", "slaves", "eternal_servants", "runes", "jade")
CHOICES = ("colonise", "plunder", "raze", "ruins")
NAMES = {"empire": ("Аурум", "Феррум", "Латон"), "vampires": ("Ноктис", "Умбра", "Сангвис"),
         "dwarves": ("Карак", "Монс", "Ферро"), "jade": ("Юйлун", "Цинхэ", "Байшань")}


def base_state() -> dict:
    """Four factions with a large capital and two small cities each, in a ring of roads."""
    cities = {}
    for fid, names in NAMES.items():
        for i, name in enumerate(names):
            cities[f"{fid}{i}"] = {"name": name, "owner": fid, "large": i == 0, "level": 1, "capital": i == 0}
    ids = list(cities)
    roads = [[ids[i], ids[(i + 1) % len(ids)]] for i in range(len(ids))] + [[ids[0], ids[6]], [ids[3], ids[9]]]
    return new_game({"name": "prop", "factions": {f: {"gold": 500} for f in FACTIONS}, "cities": cities,
                     "roads": roads})


BASE = base_state()
CITY_IDS = sorted(BASE["cities"])
CITY_NAMES = [BASE["cities"][c]["name"] for c in CITY_IDS]
UNITS = {f: [u.key for u in load_data().faction_units(f)] for f in FACTIONS}


@st.composite
def setup(draw):
    state = copy.deepcopy(BASE)
    state["turn"] = draw(st.integers(1, 9))
    data = load_data()
    for fid in FACTIONS:
        rec = state["factions"][fid]
        rec["gold"] = draw(st.integers(-300, 5000))
        for key, low, high in (("honor", -20, 300), ("corruption", 0, 30), ("slaves", 0, 1200),
                               ("eternal_servants", 0, 1200), ("runes", 0, 10), ("jade", 0, 1200)):
            if key in rec:
                rec[key] = draw(st.integers(low, high))
        if "grudges" in rec:
            rec["grudges"] = {o: draw(st.integers(0, 10)) for o in rec["grudges"]}
        rec["units"] = {k: draw(st.integers(0, 30)) for k in draw(st.lists(st.sampled_from(UNITS[fid]), max_size=3))}
        placed: set[str] = set()
        for cid in [c for c in CITY_IDS if state["cities"][c]["owner"] == fid]:
            city = state["cities"][cid]
            city["level"] = draw(st.integers(1, 3))
            slots = 3 if city["large"] else 1
            fitting = sorted(b.key for b in data.faction_buildings(fid) if b.tier <= city["level"]
                             and b.key not in placed and b.key not in city["buildings"])
            extra = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=slots - len(city["buildings"])))
            city["buildings"] += extra
            placed.update(b for b in extra if data.buildings[b].unique_per_faction)
    return state


def economy_rows(faction: str):
    """Rows that mostly make sense (own cities, fitting names), with some that do not."""
    own = list(NAMES[faction])
    whats = {"build": building_names(faction), "sell": building_names(faction), "hire": unit_names(faction),
             "crusade": rival_names(BASE, faction), "grudge_target": rival_names(BASE, faction)}
    kinds = dict(zip(actions_for(faction), ("build", "sell", "upgrade", "restore", "hire") + ("x",) * 10,
                     strict=False))

    def row(action: str):
        kind = {"Мстительный поход": "crusade", "Записывать обиды": "grudge_target"}.get(action, kinds[action])
        return st.fixed_dictionaries({
            "action": st.just(action),
            "city": st.one_of(st.sampled_from(own), st.sampled_from(own), st.sampled_from(CITY_NAMES + [""])),
            "what": st.sampled_from(whats.get(kind, [""])),
            "count": st.sampled_from(["", "1", "1", "3", "10", "40", "300", "500", "700"])})

    return st.lists(st.sampled_from(actions_for(faction)).flatmap(row), max_size=6)


step = st.one_of(
    st.tuples(st.just("begin"), st.integers(0, 10**6)),
    st.sampled_from(FACTIONS).flatmap(lambda f: st.tuples(st.just("orders"), st.just(f), economy_rows(f),
                                                          st.integers(0, 11), st.integers(0, 10**6))),
    st.tuples(st.just("capture"), st.integers(0, 11), st.sampled_from(FACTIONS), st.sampled_from(CHOICES)),
    st.tuples(st.just("battle"), st.integers(0, 11), st.sampled_from(FACTIONS),
              st.lists(st.tuples(st.sampled_from(FACTIONS), st.integers(0, 20), st.integers(0, 15)), max_size=4),
              st.integers(0, 12)),
    st.tuples(st.just("failed"), st.integers(0, 11), st.sampled_from(FACTIONS)),
    st.tuples(st.just("end"),),
)


def _capture_event(state: dict, cid: str, attacker: str, choice: str) -> dict | None:
    city = state["cities"][cid]
    previous = city["owner"]
    if previous == attacker or (choice == "ruins") != bool(city.get("ruins")):
        return None
    event = {"kind": "capture", "city": cid, "attacker": attacker, "previous_owner": previous, "choice": choice,
             "large": city["large"], "level_before": city["level"],
             "era_max_level": min(3, holdings.era_of(state).max_city_level),
             "base_income": holdings.base_income(city, previous)}
    if choice in ("colonise", "ruins"):
        city.update(owner=attacker, buildings=[])
    elif choice == "plunder":
        city.update(buildings=[], level=max(1, city["level"] - 1), no_income_turns=1)
    else:
        city.update(owner=attacker, buildings=[], ruins=True)
    return event


def apply_step(state: dict, item: tuple) -> None:
    kind = item[0]
    if kind == "begin":
        turn.begin_turn(state, item[1])
    elif kind == "orders":
        _, faction, cells, target, seed = item
        orders, _ = parse_economy_rows(state, faction, [Row(i + 2, c) for i, c in enumerate(cells)])
        units = dict(state["factions"][faction].get("units", {}))
        units.update({o["what"]: o["count"] for o in orders if o["kind"] == "hire"})
        plan = {"armies": {"A": {"squads": [{"flank": "C", "line": "V", "units": units}], "order": "attack",
                                 "city": CITY_IDS[target]}}}
        run_economy(state, faction, orders, random.Random(seed), army_plan=plan)
    elif kind == "capture":
        event = _capture_event(state, CITY_IDS[item[1]], item[2], item[3])
        if event is not None:
            consequences.apply_war_events(state, [event])
    elif kind == "battle":
        _, city_ix, attacker, deaths, size = item
        cid = CITY_IDS[city_ix]
        defender = state["cities"][cid]["owner"]
        dead: dict[str, dict[str, int]] = {}
        for fid, unit_ix, n in deaths:
            key = UNITS[fid][unit_ix % len(UNITS[fid])]
            dead.setdefault(fid, {})[key] = dead.get(fid, {}).get(key, 0) + n
        consequences.apply_war_events(state, [{"kind": "battle", "id": f"b-{cid}", "city": cid, "attacker": attacker,
                                           "defender": defender, "winner": "defender", "deaths": dead,
                                           "army_deaths": dead, "army_size": {f: size for f in dead}}])
    elif kind == "failed":
        cid = CITY_IDS[item[1]]
        consequences.apply_war_events(state, [{"kind": "failed_attack", "city": cid, "attacker": item[2],
                                           "defender": state["cities"][cid]["owner"]}])
    else:
        turn.end_of_turn(state)
        victory.end_of_turn(state)
        state["turn"] += 1


def snapshot(state: dict) -> dict:
    out = {}
    for fid, rec in state["factions"].items():
        out[fid] = {r: int(rec.get(r, 0)) for r in RESOURCES}
        out[fid].update({f"grudges:{o}": int(n) for o, n in rec.get("grudges", {}).items()})
    return out


def ledger_totals(lines: list[dict]) -> dict:
    out: dict[str, dict[str, int]] = {}
    for line in lines:
        key = line["resource"] if line["resource"] != "grudges" else f"grudges:{line['against']}"
        out.setdefault(line["faction"], {})
        out[line["faction"]][key] = out[line["faction"]].get(key, 0) + int(line["amount"])
    return out


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup(), st.lists(step, min_size=1, max_size=10))
def test_every_balance_change_is_itemised_in_the_ledger_and_the_items_sum_to_it(state, steps):
    for item in steps:
        before, start = snapshot(state), len(state["ledger"])
        apply_step(state, item)
        after, added = snapshot(state), ledger_totals(state["ledger"][start:])
        for fid in after:
            for key, value in after[fid].items():
                assert value == before[fid].get(key, 0) + added.get(fid, {}).get(key, 0), (item, fid, key)
            assert all(0 <= n <= 10 for k, n in after[fid].items() if k.startswith("grudges:"))
            assert after[fid]["corruption"] >= 0 and after[fid]["slaves"] >= 0
            assert after[fid]["eternal_servants"] >= 0 and after[fid]["runes"] <= 10
        assert all(line["reason"] and line["amount"] for line in state["ledger"][start:])
    canonical_json(state)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup(), st.lists(step, min_size=1, max_size=8))
def test_the_same_game_gives_byte_identical_states(state, steps):
    first, second = copy.deepcopy(state), copy.deepcopy(state)
    for item in steps:
        apply_step(first, item)
        apply_step(second, item)
    assert canonical_json(first) == canonical_json(second)
