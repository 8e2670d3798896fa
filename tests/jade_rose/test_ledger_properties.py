"""The ledger invariant over random games (hypothesis): every change of gold and of every faction resource (grudges
included, per enemy) in a turn is itemised in the ledger, and the items sum to the change.

A random game is a sequence of steps on a four-faction map: start of turn (gifts, escapes, corruption,
forgiveness, investments, grudge rooms, income, upkeep), a faction's economy rows (faction actions included,
with a random army plan), war events as the war engine emits them (after it has moved the cities), and the end
of the turn (slave deaths, hibernation, victories, Midnight). Random players also type random (often wrong)
orders in every order tab and whole turns are resolved through the rule set, battles included."""
from __future__ import annotations

import copy
import random
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.jade_rose import consequences, holdings, turn, victory
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import actions_for, parse_economy_rows, rival_names
from engine.jade_rose.names import building_names, unit_names
from engine.jade_rose.setup import new_game
from engine.ruleset import Row
from engine.state import canonical_json
from tests.paths import JADE_ROSE_DEMO

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


SCENARIO = JADE_ROSE_DEMO


def _rows(rnd: random.Random, columns: dict[str, list[str]], n: int) -> list[Row]:
    return [Row(number=i + 2, cells={k: rnd.choice(v) if v else "" for k, v in columns.items()}) for i in range(n)]


def _orders(rs, state, rnd):
    stage = state["stage"]
    parsed = {}
    for fid, rec in state["factions"].items():
        if rec.get("eliminated") or rec.get("won"):
            continue
        vocab = rs.vocabularies(state, fid)
        counts = ["1", "2", "5", "10", "40", "300", "", "x"]
        if stage == "planning":
            table = rs.views(state)[fid]["manoeuvres"]
            rows = [Row(number=i + 2, cells={"battle": r[0], "squad": r[1], "units": r[2],
                                             "manoeuvre": rnd.choice(vocab["manoeuvres"]),
                                             "target": rnd.choice(vocab["positions"] + [""]),
                                             "free_move": "", "runes": rnd.choice(["", "0", "2", "5"])})
                    for i, r in enumerate(table.rows)]
            parsed[fid] = rs.validate(state, fid, stage, {"manoeuvres": rows})
            continue
        own_units = [n for n in vocab["own_units"]]
        army_names = ["1", "2"]
        sensible = _sensible(rs, state, fid, rnd)
        tabs = {
            "economy": _rows(rnd, {"action": vocab["economy_actions"], "city": vocab["own_cities"] + [""],
                                   "what": vocab["economy_targets"] + [""], "count": counts}, rnd.randint(0, 6)),
            "armies": _rows(rnd, {"army": army_names, "flank": vocab["flanks"], "line": vocab["lines"],
                                  "unit": own_units, "count": ["1", "3", "10", "50"]}, rnd.randint(0, 6)),
            "army_orders": _rows(rnd, {"army": army_names, "order": vocab["army_orders"],
                                       "city": vocab["all_cities"], "capture": vocab["capture_choices"] + [""],
                                       "skip_planning": vocab["yes_no"] + [""]}, rnd.randint(0, 2)),
            "garrisons": _rows(rnd, {"city": vocab["own_cities"], "flank": vocab["flanks"], "line": vocab["lines"],
                                     "unit": vocab["garrison_units"], "count": ["1", "4", "30"]}, rnd.randint(0, 2)),
        }
        for key, rows in sensible.items():
            tabs[key] = rows + [Row(number=len(rows) + 2 + i, cells=r.cells) for i, r in enumerate(tabs[key])]
        parsed[fid] = rs.validate(state, fid, stage, tabs)
    return parsed


def _sensible(rs, state, fid, rnd):
    """Orders a reasonable player would give: its units in one army attacking a neighbour, a hire, a build."""
    data = rs.dump_data()
    rec = state["factions"][fid]
    mine = [cid for cid, c in state["cities"].items() if c.get("owner") == fid and not c.get("ruins")]
    names = {k: u["name"] for k, u in data["units"].items()}
    army, n = [], 2
    for key, count in sorted(rec.get("units", {}).items()):
        awake = count - rec.get("hibernating", {}).get(key, 0)
        if awake > 0 and data["units"][key]["abilities"].get("one_per_squad") is None:
            line = "Арьергард" if "ranged" in data["units"][key]["abilities"] else "Авангард"
            army.append(Row(n, {"army": "A", "flank": "Центр", "line": line, "unit": names[key], "count": str(awake)}))
            n += 1
    targets = sorted({b if a in mine else a for a, b in state["roads"] if (a in mine) != (b in mine)})
    targets = [t for t in targets if not state["factions"].get(state["cities"][t].get("owner") or "", {}).get("won")]
    orders = []
    if army and targets and rnd.random() < 0.8:
        target = state["cities"][rnd.choice(targets)]["name"]
        orders.append(Row(2, {"army": "A", "order": "Атаковать", "city": target,
                              "capture": rnd.choice(["Колонизировать", "Разграбить", "Разрушить"]),
                              "skip_planning": rnd.choice(["Да", "Нет"])}))
    own_names = [state["cities"][c]["name"] for c in mine]
    buildings = [b["name"] for b in data["buildings"].values() if b["faction"] == fid and b["tier"] == 1]
    hires = [u["name"] for u in data["units"].values() if u["faction"] == fid and u["tier"] == 1]
    economy = [Row(2, {"action": "Построить", "city": rnd.choice(own_names) if own_names else "",
                       "what": rnd.choice(buildings), "count": ""}),
               Row(3, {"action": "Нанять", "city": "", "what": rnd.choice(hires), "count": str(rnd.randint(1, 8))})]
    return {"armies": army, "army_orders": orders, "economy": economy}


def _balances(state):
    return {(f, r): int(rec.get(r, 0)) for f, rec in state["factions"].items() for r in RESOURCES}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_every_balance_change_of_a_turn_is_itemised_in_the_ledger(seed):
    rs = find_ruleset("jade_rose")
    with open(SCENARIO, "rb") as fh:
        state = rs.new_game(tomllib.load(fh))
    rnd = random.Random(seed)
    for _ in range(4):
        before = _balances(state)
        stage_seed = rnd.randrange(2**62)
        state = rs.resolve(state, "orders", _orders(rs, state, rnd), stage_seed).state
        if state["stage"] == "planning":
            state = rs.resolve(state, "planning", _orders(rs, state, rnd), stage_seed + 1).state
        after = _balances(state)
        itemised = {}
        for line in state["ledger"]:
            key = (line["faction"], line["resource"])
            itemised[key] = itemised.get(key, 0) + int(line["amount"])
        for key in before:
            assert after[key] - before[key] == itemised.get(key, 0), (key, before[key], after[key])
        if state["stage"] == "finished":
            break
