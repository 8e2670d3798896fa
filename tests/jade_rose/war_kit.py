"""A small eight-city map and the army/order/garrison tab builders shared by the Jade Rose war tests."""
from __future__ import annotations

from engine.jade_rose import holdings, war
from engine.jade_rose.setup import new_game
from engine.ruleset import Row

CITIES = {
    "aurum": ("Аурум", "empire", True), "ferrum": ("Феррум", "empire", False),
    "qinghe": ("Цинхэ", "jade", False), "yulong": ("Юйлун", "jade", True),
    "karak": ("Карак", "dwarves", True), "mons": ("Монс", "dwarves", False),
    "noct": ("Ноктис", "vampires", True), "umbra": ("Умбра", "vampires", False),
}
ROADS = [["aurum", "ferrum"], ["ferrum", "qinghe"], ["qinghe", "yulong"], ["ferrum", "mons"], ["mons", "karak"],
         ["qinghe", "umbra"], ["umbra", "noct"]]
ARMY_KEYS = ("army", "flank", "line", "unit", "count")
ORDER_KEYS = ("army", "order", "city", "capture", "skip_planning")
GARRISON_KEYS = ("city", "flank", "line", "unit", "count")
MANOEUVRE_KEYS = ("battle", "squad", "units", "manoeuvre", "target", "free_move", "runes")


def make_game(units: dict | None = None, turn: int = 1, **resources) -> dict:
    """The map above; `units` = {faction: {Russian unit name: n}}; resources e.g. dwarves={"runes": 4}."""
    factions = {}
    for fid in ("empire", "jade", "dwarves", "vampires"):
        spec = {"gold": 0, "units": (units or {}).get(fid, {})}
        spec.update(resources.get(fid, {}))
        factions[fid] = spec
    cities = {cid: {"name": name, "owner": owner, "large": large, "capital": large, "level": 1}
              for cid, (name, owner, large) in CITIES.items()}
    state = new_game({"name": "war-test", "factions": factions, "cities": cities, "roads": ROADS})
    state["turn"] = turn
    state["era"] = holdings.era_of(state).key
    return state


def rows(keys: tuple, *cells: tuple) -> list[Row]:
    return [Row(i + 2, dict(zip(keys, map(str, c), strict=True))) for i, c in enumerate(cells)]


def plan_of(state: dict, faction: str, armies=(), orders=(), garrisons=()) -> dict:
    """Parse the three tabs and require every row to pass the parse-level checks."""
    plan, statuses = war.parse_war_tabs(state, faction, {"armies": rows(ARMY_KEYS, *armies),
                                                         "army_orders": rows(ORDER_KEYS, *orders),
                                                         "garrisons": rows(GARRISON_KEYS, *garrisons)})
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    return plan


def statuses_by_row(statuses, tab: str) -> dict:
    return {s.number: s for s in statuses if s.tab == tab}


def attack(state: dict, faction: str, army: list[tuple], city: str, capture: str = "Колонизировать",
           skip: str = "Да", name: str = "1") -> dict:
    return plan_of(state, faction, [(name, *row) for row in army], [(name, "Атаковать", city, capture, skip)])


def battle_events(events: list[dict], kind: str = "battle") -> list[dict]:
    return [e for e in events if e["kind"] == kind]


STRONG = [("Центр", "Авангард", "Тяжёлый пехотинец", 80)]   # beats any small level-1/2 garrison of the map


def three_battles(state: dict, seed: int = 4) -> None:
    """Empire attacks Цинхэ, dwarves attack Феррум, vampires attack Цинхэ too (all with planning)."""
    state["factions"]["empire"]["units"].update(empire_spearman=10, empire_archer=6)
    state["factions"]["dwarves"]["units"].update(dwarves_miner=10)
    state["factions"]["vampires"]["units"].update(vampires_halfblood=10)
    war.form_battles(state, {
        "empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10), ("Центр", "Арьергард", "Лучник", 6)],
                         "Цинхэ", skip="Нет"),
        "dwarves": attack(state, "dwarves", [("Левый", "Авангард", "Горняки", 10)], "Феррум", skip="Нет"),
        "vampires": attack(state, "vampires", [("Правый", "Авангард", "Полукровка", 10)], "Цинхэ", skip="Нет"),
    }, seed)


def parse(state: dict, faction: str, armies=(), orders=(), garrisons=()):
    plan, statuses = war.parse_war_tabs(state, faction, {"armies": rows(ARMY_KEYS, *armies),
                                                         "army_orders": rows(ORDER_KEYS, *orders),
                                                         "garrisons": rows(GARRISON_KEYS, *garrisons)})
    return plan, {(s.tab, s.number): s for s in statuses}


def planned(state: dict, army: list[tuple], city: str = "Цинхэ") -> None:
    plan, st_ = parse(state, "empire", [("1", *r) for r in army], [("1", "Атаковать", city, "", "Нет")])
    assert all(s.ok for s in st_.values())
    war.form_battles(state, {"empire": plan}, 1)


def prefilled(state: dict, faction: str) -> list[list[str]]:
    return [list(r) for r in war.views(state, faction)["manoeuvres"].rows]
