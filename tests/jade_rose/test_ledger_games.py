"""Ledger invariant over random games: every gold and resource change of a turn is itemised.

Issue: «every gold and resource change in a turn is itemised in the report and the items sum to the
change». Random players type random (often wrong) orders in every order tab — economy, faction actions,
armies, army orders, garrisons, manoeuvres — and whole turns are resolved through the rule set, battles
and captures included. For every faction and resource, the balance after the turn equals the balance
before plus the sum of the turn's ledger lines.
"""
import random
import tomllib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.ruleset import Row
from tests.paths import JADE_ROSE_DEMO

SCENARIO = JADE_ROSE_DEMO
RESOURCES = ("gold", "honor", "corruption", "slaves", "eternal_servants", "runes", "jade")


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
