"""Small hand-built Jade Rose games shared by the rule tests."""
import random
from collections.abc import Mapping

from engine.jade_rose import holdings, turn
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.setup import new_game
from engine.ruleset import ParsedOrders, Row, RowStatus

CITIES = {
    "empire": [("aurum", "Аурум", True), ("ferrum", "Феррум", False)],
    "vampires": [("noct", "Ноктис", True), ("umbra", "Умбра", False)],
    "dwarves": [("karak", "Карак", True), ("mons", "Монс", False)],
    "jade": [("yulong", "Юйлун", True), ("qinghe", "Цинхэ", False)],
}


def make_game(gold: int = 0, turn: int = 1) -> dict:
    """Four factions, each with a large capital and one small city at level 1, joined in a ring
    (Аурум–Феррум–Ноктис–Умбра–Карак–Монс–Юйлун–Цинхэ–Аурум)."""
    cities = {}
    for fid, rows_ in CITIES.items():
        for cid, name, large in rows_:
            cities[cid] = {"name": name, "owner": fid, "large": large, "level": 1, "capital": large}
    ids = list(cities)
    roads = [[ids[i], ids[(i + 1) % len(ids)]] for i in range(len(ids))]
    state = new_game({"name": "test", "factions": {f: {"gold": gold} for f in CITIES},
                      "cities": cities, "roads": roads})
    state["turn"] = turn
    state["era"] = holdings.era_of(state).key
    return state


def rows(*cells: tuple) -> list[Row]:
    """Economy-tab rows (action, city, what, count) from sheet row 2 on."""
    columns = ("action", "city", "what", "count")
    return [Row(i + 2, dict(zip(columns, map(str, c), strict=False))) for i, c in enumerate(cells)]


def resolve_orders(state: dict, orders_by_faction: Mapping[str, list[dict]],
                   seed: int | str) -> tuple[dict, dict[str, list[RowStatus]]]:
    """Play the orders stage through the product's own path (`turn.resolve_orders_stage`) with these economy
    orders and no armies: (the new state, each faction's economy statuses)."""
    parsed = {fid: ParsedOrders(fid, "orders", tuple(orders), ()) for fid, orders in orders_by_faction.items()}
    result = turn.resolve_orders_stage(state, parsed, seed)
    return result.state, {fid: list(result.statuses.get(fid, ())) for fid in orders_by_faction}


def run_rows(state: dict, faction: str, *cells: tuple, seed: int = 7):
    """Parse and apply rows to `state` directly (no income/upkeep); return the statuses by row."""
    orders, parsed = parse_economy_rows(state, faction, rows(*cells))
    assert all(s.ok for s in parsed), [s.text() for s in parsed]
    statuses = run_economy(state, faction, orders, random.Random(seed))
    return statuses


def gold_lines(state: dict, faction: str, resource: str = "gold") -> list[dict]:
    return [line for line in state["ledger"] if line["faction"] == faction and line["resource"] == resource]


def run(state: dict, faction: str, *cells: tuple, seed: int = 7, plan: dict | None = None):
    """Parse and apply rows to `state` directly (no income/upkeep); return the statuses in row order."""
    orders, parsed = parse_economy_rows(state, faction, rows(*cells))
    assert all(s.ok for s in parsed), [s.text() for s in parsed]
    return run_economy(state, faction, orders, random.Random(seed), army_plan=plan)


def codes(status) -> list[str]:
    return [e.code for e in status.errors]


def add_cities(state: dict, faction: str, n: int, level: int = 1) -> None:
    """`n` more small cities for a faction, off the ring."""
    for i in range(n):
        cid = f"{faction}_extra_{i}"
        state["cities"][cid] = {"name": f"{faction}-{i}", "owner": faction, "large": False, "level": level,
                                "buildings": [], "capital": False, "ruins": False, "no_income_turns": 0}


def battle(city: str, attacker: str, defender: str | None, deaths=None, army_deaths=None, army_size=None,
           winner: str = "attacker") -> dict:
    return {"kind": "battle", "id": f"b1-{city}", "city": city, "attacker": attacker, "defender": defender,
            "winner": winner, "deaths": deaths or {}, "army_deaths": army_deaths or {}, "army_size": army_size or {}}


def capture(state: dict, city: str, attacker: str, choice: str) -> dict:
    """The war's capture event for `city`, after the war has moved the city as the rules say."""
    c = state["cities"][city]
    previous = c["owner"]
    event = {"kind": "capture", "city": city, "attacker": attacker, "previous_owner": previous, "choice": choice,
             "large": c["large"], "level_before": c["level"],
             "era_max_level": min(3, holdings.era_of(state).max_city_level),
             "base_income": holdings.base_income(c, previous)}
    if choice == "colonise":
        c.update(owner=attacker, buildings=[])
    elif choice == "plunder":
        c.update(buildings=[], level=max(1, c["level"] - 1), no_income_turns=1)
    elif choice == "raze":
        c.update(owner=attacker, buildings=[], ruins=True)
    return event


def honor(state: dict) -> int:
    return state["factions"]["empire"]["honor"]


def grudges(state: dict, against: str) -> int:
    return state["factions"]["dwarves"]["grudges"][against]


def ledger_sum(state: dict, faction: str, resource: str) -> int:
    return sum(line["amount"] for line in state["ledger"] if line["faction"] == faction
               and line["resource"] == resource)
