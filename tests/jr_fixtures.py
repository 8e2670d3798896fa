"""Small hand-built Jade Rose games shared by the rule tests."""
from engine.jade_rose import economy
from engine.jade_rose.setup import new_game
from engine.ruleset import Row

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
    state["era"] = economy.era_of(state).key
    return state


def rows(*cells: tuple) -> list[Row]:
    """Economy-tab rows (action, city, what, count) from sheet row 2 on."""
    return [Row(i + 2, dict(zip(("action", "city", "what", "count"), map(str, c)))) for i, c in enumerate(cells)]
