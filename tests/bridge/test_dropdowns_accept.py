"""Every dropdown offers only what `check` accepts (issue 23 item 6), on both rule sets.

For each layout (templates/*/layout.toml) and each started game of its demo scenarios, every value a dropdown
of an order or simulator tab offers (the column's `values`, or the rule set's `vocabularies(state, faction)`
and `gm_vocabularies(state)` under its `list`, as sheets_bridge.render writes them) goes into an otherwise valid
row of that tab, which `check` then reads as the bridge does (the rule set's `validate`, `validate_gm`, or the
odds calculator for a simulator tab). What is asserted: for every offered value some such row is accepted.

The rows are built here from the game's own lists, per tab (`TitaniaTries`, `JadeTries`): a value valid only
in some rows (a building name in «Что» of a «Построить» row, a spell's name in an «Изучить заклинание» row)
gets rows of every kind it may belong to, with what they need around them (the rows above that research a
technology's prerequisites, an army formed in «Армии» before its order). A value none of those rows carries
is then put into the column of every built row that fills it, so check always reads it and its refusal is what
a failure shows.

The games: each demo scenario as it starts, every faction's purse filled (what a row costs is the purse's
business, not the dropdown's), and, for the choices that need a later moment of the game, the same start with
that moment added: an open event taking contributions and every spell known (Titania), battles waiting for
their manoeuvres (Jade Rose, the planning stage). Some refusals depend only on how far the game is, never on
the value (ACCEPTED_LATER, each with its reason: a full army, a province without the deposit, no Might yet,
a city of too low a level, a target out of reach): a row refused only by those counts as accepted.
"""
from __future__ import annotations

import copy
import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engine import find_ruleset
from engine.cells import normalize_name
from engine.ruleset import GM_BOOK, Row, Ruleset
from sheets_bridge.layouts import Layout, TabLayout
from sheets_bridge.scenarios import load_scenario

Cells = Mapping[str, str]


@dataclass(frozen=True)
class Try:
    """One candidate: a book's tabs (tab key -> rows of cells by column key); the row under test is the last
    row of `tab` (the rows before it, in any tab, are what it needs around it)."""

    tab: str
    tabs: Mapping[str, tuple[Cells, ...]]

    @property
    def row(self) -> Cells:
        return self.tabs[self.tab][-1]


def one(tab: str, row: Cells, *before: Cells, **other_tabs: Sequence[Cells]) -> Try:
    return Try(tab, {**{k: tuple(v) for k, v in other_tabs.items()}, tab: (*before, row)})


# Check errors that depend on how far the game has got, never on the value the row carries (see the module
# docstring): a row refused only by these is accepted for this test. A Titania forecast error (T_CANNOT) is
# named by the engine's reason (engine.titania.reasons).
ACCEPTED_LATER: dict[str, str] = {
    "T_HIRE_LIMIT": "the army there is at its Strength limit, or the turn's hire cap is used: the hire waits for room",
    "T_NO_DEPOSIT": "the building needs a deposit or a coast: another province, once held, may have it",
    "T_BUILDING_THERE": "the province has that building already: another province may not",
    "T_MIGHT_OVER": "Might comes from the Shrines a faction holds (none at the start)",
    "T_CANNOT:needs_might": "a technology's Might threshold: Might comes from the Shrines held",
    "T_CANNOT:over_cap": "the Dwarfs' Grungni points are bounded by the faction's Might",
    "T_CANNOT:bad_target": "a racial ability's target must be within its reach: where the armies stand decides",
    "T_CANNOT:not_adjacent": "an enemy-army spell of range «adjacent» reaches only next to the faction's own land",
}


def _reason_of() -> dict[str, str]:
    from engine.titania.reasons import REASONS, explain
    return {explain(code): code for code in REASONS}


NO_TARGET = "нет подходящих целей"  # a Jade Rose manoeuvre's target list when the enemy stands nowhere in reach


def codes(errors: Iterable[Any]) -> tuple[str, ...]:
    reason = _reason_of()
    out = []
    for e in errors:
        if e.code == "T_CANNOT":
            out.append(f"T_CANNOT:{reason.get(str(e.params.get('reason')), '?')}")
        elif e.code == "JR_WAR_MANOEUVRE_INVALID" and NO_TARGET in str(e.params.get("problem")):
            out.append("JR_WAR_MANOEUVRE_INVALID:no_target")
        else:
            out.append(e.code)
    return tuple(out)


def verdict(rs: Ruleset, layout: Layout, state: Mapping[str, Any], book: str, attempt: Try) -> tuple[str, ...]:
    """The error codes check gives the row under test (empty: accepted)."""
    rows = {key: [Row(n, dict(cells)) for n, cells in enumerate(typed, 2)] for key, typed in attempt.tabs.items()}
    number = len(attempt.tabs[attempt.tab]) + 1
    tab = layout.tab(attempt.tab, "gm" if book == GM_BOOK else "faction")
    assert tab is not None
    stage = state["stage"]
    if tab.kind == "simulator":
        calc = rs.odds_calculator()
        assert calc is not None
        statuses = calc.odds(state, book, rows[attempt.tab])[0]
        return codes(e for s in statuses if s.number == number for e in s.errors)
    parsed = rs.validate_gm(state, stage, rows) if book == GM_BOOK else rs.validate(state, book, stage, rows)
    found = [s for s in parsed.statuses if s.tab == attempt.tab and s.number == number]
    assert found, (attempt, parsed.statuses)
    return codes(e for s in found for e in s.errors)


def offered(rs: Ruleset, layout: Layout, state: Mapping[str, Any], book: str) -> Iterator[tuple[TabLayout, str, str]]:
    """(tab, column key, value) of every dropdown value of the book's order and simulator tabs now open."""
    kind = "gm" if book == GM_BOOK else "faction"
    vocab = rs.gm_vocabularies(state) if kind == "gm" else rs.vocabularies(state, book)
    for tab in layout.books[kind].tabs:
        if not (tab.kind == "simulator" or (tab.kind == "orders" and tab.stage == state["stage"]
                                            and tab.key in rs.order_tabs(state["stage"]))):
            continue
        for col in tab.columns:
            values = tuple(col.values) or tuple(vocab.get(col.list, ())) if (col.values or col.list) else ()
            for value in dict.fromkeys(values):
                yield tab, col.key, value


def refused(rs: Ruleset, layout: Layout, state: Mapping[str, Any], book: str,
            tries: Callable[[str], Iterable[Try]]) -> list[str]:
    """Every offered value of the book for which no candidate row is accepted, with what check said. A value
    no candidate carries is also put into the column of every candidate that fills it (the rows of each shape
    the tab knows), so it is always tried and check's own verdict is shown."""
    wanted = {(tab.key, col, value) for tab, col, value in offered(rs, layout, state, book)}
    said: dict[tuple[str, str, str], tuple[str, ...]] = {}
    built: dict[str, list[Try]] = {}
    for tab in sorted({t for t, _, _ in wanted}):
        built[tab] = list(tries(tab))
        for attempt in built[tab]:
            covers = {(tab, col, v) for col, v in attempt.row.items() if v} & wanted
            if not covers:
                continue
            codes = verdict(rs, layout, state, book, attempt)
            if all(c in ACCEPTED_LATER for c in codes):
                wanted -= covers
            else:
                for key in covers:
                    said.setdefault(key, codes)
    for tab, col, value in sorted(wanted - said.keys()):
        shapes = {tuple(sorted({**a.row, col: value}.items())): a for a in built[tab] if a.row.get(col)}
        for cells, attempt in shapes.items():
            codes = verdict(rs, layout, state, book, Try(tab, {**attempt.tabs, tab: (*attempt.tabs[tab][:-1],
                                                                                  dict(cells))}))
            said.setdefault((tab, col, value), codes)
            if all(c in ACCEPTED_LATER for c in codes):
                wanted.discard((tab, col, value))
                break
    kind = "gm" if book == GM_BOOK else "faction"
    return [f"{book}: «{getattr(layout.tab(t, kind), 'title', t)}» {col} = «{v}»: "
            f"{', '.join(said[(t, col, v)]) if (t, col, v) in said else 'no row of the tab fills that column'}"
            for t, col, v in sorted(wanted)]


def rich(state: Mapping[str, Any], keys: Iterable[str], amount: int = 500) -> dict[str, Any]:
    out = copy.deepcopy(dict(state))
    for f in out["factions"].values():
        for key in keys:
            f[key] = max(int(f.get(key, 0)), amount)
    return out


# -- Titania ----------------------------------------------------------------------------------------------

def _titania_states() -> dict[str, dict[str, Any]]:
    from engine.titania.book_orders import data
    rs = find_ruleset("titania")
    start = rich(load_scenario(rs, "demo").state, ("gold", "wood", "influence", "stone", "mana"))
    event = next(e for e, rec in data().events.items() if rec.goal.get("type") == "contribute")
    with_event = copy.deepcopy(start)
    with_event["active_events"] = [{"id": event, "class": data().events[event].cls, "status": "open",
                                    "started": 1, "ends": 3, "progress": {}, "debuffed": []}]
    spells = copy.deepcopy(start)
    for f in spells["factions"].values():
        f["spells"] = sorted(data().spells)
    return {"demo": start, "demo, an open event": with_event, "demo, every spell known": spells,
            "start by the book": load_scenario(rs, "start").state}


class TitaniaTries:
    """Candidate rows of each Titania tab for one faction's book (or the GM's)."""

    def __init__(self, state: Mapping[str, Any], book: str) -> None:
        from engine.titania import book_orders as bo
        self.bo = bo
        self.state = state
        self.book = book
        self.provinces = state["map"]["provinces"]
        self.b = bo.Book(state, book) if book in state["factions"] else None

    def __call__(self, tab: str) -> Iterable[Try]:
        return getattr(self, tab)()

    def name(self, pid: str) -> str:
        return str(self.provinces[pid]["name"])

    # «Начало игры»: colour, race and capital, each with the first free choice of the others
    def start(self) -> Iterator[Try]:
        from engine.titania import start_book
        v = start_book.vocabularies(self.state, self.book)
        first = {"colour": v["start_colours"][:1], "race": v["start_races"][:1], "capital": v["start_capitals"][:1]}
        for key, lst in (("colour", v["start_colours"]), ("race", v["start_races"]), ("capital", v["start_capitals"])):
            for value in lst:
                yield one("start", {**{k: x[0] for k, x in first.items() if x}, key: value})

    def route(self, start: str, to: str) -> str | None:
        """A land route from `start` into a province of faction `to` (the caravan's «Маршрут»), if there is one."""
        assert self.b is not None
        prev: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            p = queue.popleft()
            if self.state["owners"].get(p) == to and p != start:
                path = [p]
                while prev[path[-1]] != start:
                    path.append(str(prev[path[-1]]))
                return ", ".join(self.name(x) for x in reversed(path))
            for n in self.b.neighbours(p):
                if n not in prev and not self.provinces[n]["sea"]:
                    prev[n] = p
                    queue.append(n)
        return None

    def planning(self) -> Iterator[Try]:
        bo, b = self.bo, self.b
        assert b is not None
        d = bo.data()
        rec = self.state["factions"][self.book]
        others = [f for f in self.state["factions"] if f != self.book]
        markets = [k for k in self.state.get("keepers", {}) if bo.caravan_rows.markets(self.state, k)]
        for p in b.own_land():
            where = self.name(p)
            for building in bo.PLAYER_BUILDINGS:
                yield one("planning", {"action": bo.BUILD, "province": where, "what": bo.BUILDING_NAMES[building]})
            for pay in ("", bo.PAY_GOLD, bo.PAY_INFLUENCE):
                yield one("planning", {"action": bo.HIRE, "province": where, "what": pay, "count": "1"})
            yield one("planning", {"action": bo.RATS, "province": where})
            for g in [*others, *markets]:  # a Keepers' Market takes quest deliveries (G85)
                route = self.route(p, g)
                for res in bo.CARGO:
                    if route is not None:
                        yield one("planning", {"action": bo.CARAVAN, "province": where, "count": "1",
                                               "what": bo.RESOURCE_NAMES[res], "to": b.display(g), "route": route})
        known = set(rec.get("techs", []))
        discounts = [""] + [bo.RESOURCE_NAMES[r] for r in bo.RACES[b.race].research_discounts]
        for tech in d.technologies:
            before: list[str] = []  # its prerequisites not yet known, researched in the rows above it
            todo = [tech]
            while todo:
                t = todo.pop()
                for r in d.technologies[t].requires:
                    if r not in known and r not in before:
                        before.insert(0, r)
                        todo.append(r)
            for discount in discounts:
                yield one("planning", {"action": bo.RESEARCH, "what": d.technologies[tech].name, "discount": discount},
                          *({"action": bo.RESEARCH, "what": d.technologies[r].name} for r in before))
        for spell in d.spells.values():
            yield one("planning", {"action": bo.LEARN, "what": spell.name})
        for _, event in bo.open_events(self.state):
            for res in bo.CARGO:
                yield one("planning", {"action": bo.CONTRIBUTE, "what": bo.RESOURCE_NAMES[res], "count": "1",
                                       "to": event})

    def diplomacy(self) -> Iterator[Try]:
        from engine.titania import diplomacy as dp
        for fid, f in self.state["factions"].items():
            if fid != self.book:
                for action in dp.ACTIONS:
                    yield one("diplomacy", {"action": action, "faction": f["name"]})

    def campaign(self) -> Iterator[Try]:
        bo, b = self.bo, self.b
        assert b is not None
        for army in b.armies():
            yield one("campaign", {"army": self.name(army), "order": bo.HOLD})
            for t in b.neighbours(army):
                yield one("campaign", {"army": self.name(army), "order": bo.MOVE, "target": self.name(t)})
                for who in ["", *(f["name"] for f in self.state["factions"].values())]:
                    yield one("campaign", {"army": self.name(army), "order": bo.SUPPORT, "target": self.name(t),
                                           "for_whom": who})

    def might(self) -> Iterator[Try]:
        bo, b = self.bo, self.b
        assert b is not None
        armies = list(b.armies())
        land = [p for p, info in self.provinces.items() if not info["sea"]]
        seen = b.ix.sight(self.book)  # an army is aimed at only where the faction sees it (engine.titania.fog)
        foreign = [(a["province"], a["faction"]) for a in self.state["armies"]
                   if a["faction"] in self.state["factions"] and a["faction"] != self.book and a["province"] in seen]
        ability = bo.ability_name(b.race)
        form = bo.ABILITY_FORM[b.race]
        for army in armies:
            yield one("might", {"action": bo.MIGHT_ROW, "army": self.name(army), "points": "1"})
        if form in ("army", "allocation"):  # only the Dwarfs' allocation reads «Очки»
            for army in armies:
                yield one("might", {"action": ability, "army": self.name(army),
                                    **({"points": "1"} if form == "allocation" else {})})
        elif form in ("own_province", "province"):
            for p in b.owned() if form == "own_province" else land:
                yield one("might", {"action": ability, "province1": self.name(p)})
        elif form in ("army_two", "path"):  # first the neighbours (a path), then every pair of provinces
            for army in armies:
                for p1 in b.neighbours(army):
                    yield one("might", {"action": ability, "army": self.name(army), "province1": self.name(p1)})
                    for p2 in b.neighbours(p1):
                        yield one("might", {"action": ability, "army": self.name(army), "province1": self.name(p1),
                                            "province2": self.name(p2)})
                for p in land:
                    q = next(x for x in land if x != p)
                    for p1, p2 in ((p, q), (q, p)):
                        yield one("might", {"action": ability, "army": self.name(army), "province1": self.name(p1),
                                            "province2": self.name(p2)})
        else:  # enemy_army: where another player's army stands, naming it or not
            for p, g in foreign:
                yield one("might", {"action": ability, "province1": self.name(p)})
                yield one("might", {"action": ability, "province1": self.name(p), "faction": b.fname(g)})
        d = bo.data()
        known = self.state["factions"][self.book].get("spells", [])
        for sid, spell in d.spells.items():  # a spell not known is learned in this turn's Planning (G77)
            learn = {} if sid in known else {"planning": ({"action": bo.LEARN, "what": spell.name},)}
            rows: list[dict[str, str]] = []
            if spell.target == "own_army":
                rows = [{"army": self.name(a)} for a in armies]
            elif spell.target == "own_province":
                rows = [{"province1": self.name(p)} for p in b.owned()]
            elif spell.target == "enemy_army":  # a Keeper's army too, named or not (T4-6)
                rows = [{"province1": self.name(a["province"]), "faction": b.display(a["faction"])}
                        for a in self.state["armies"] if a["faction"] != self.book and a["province"] in seen]
                rows += [{"province1": self.name(a["province"])} for a in self.state["armies"]
                         if a["faction"] != self.book and a["province"] in seen]
            else:
                rows = [{}]
            for cells in rows:
                yield one("might", {"action": bo.SPELL_ROW, "spell": spell.name, **cells}, **learn)

    def simulator(self) -> Iterator[Try]:
        from engine.titania.odds import ROLE_NAMES, race_choices
        roles = list(ROLE_NAMES.values())  # attacker, defender, support of each side
        races = race_choices()
        for race in races:
            yield one("simulator", {"role": roles[1], "race": race, "strength": "2"},
                      {"role": roles[0], "strength": "3"})
            yield one("simulator", {"role": roles[0], "race": race, "strength": "3"},
                      {"role": roles[1], "strength": "2"})
        for role in roles[2:]:
            yield one("simulator", {"role": role, "race": races[0], "strength": "1"},
                      {"role": roles[0], "strength": "3"}, {"role": roles[1], "strength": "2"})

    def corrections(self) -> Iterator[Try]:
        from engine.titania import corrections as c
        v = c.vocabulary(self.state)
        reason = {"reason": "проверка"}
        for who in v["gm_factions"]:
            for what in v["gm_what"]:
                yield one("corrections", {"action": c.RESOURCE, "faction": who, "what": what, "amount": "1", **reason})
            for where in v["gm_provinces"]:
                yield one("corrections", {"action": c.STRENGTH, "faction": who, "province": where, "amount": "1",
                                          **reason})
                yield one("corrections", {"action": c.OWNER, "faction": who, "province": where, **reason})
        for first in v["gm_players"]:  # an alliance or a war of two factions (G46)
            for other in v["gm_players"]:
                if other != first:
                    for action in (c.ALLY, c.UNALLY, c.WAR, c.PEACE):
                        yield one("corrections", {"action": action, "faction": first, "other": other, **reason})
        for where in v["gm_provinces"]:
            for what in v["gm_what"]:
                yield one("corrections", {"action": c.BUILD, "province": where, "what": what, **reason})
                yield one("corrections", {"action": c.RAZE, "province": where, "what": what, **reason},
                          {"action": c.BUILD, "province": where, "what": what, **reason})


@functools.cache
def titania_games() -> dict[str, dict[str, Any]]:
    return _titania_states()


TITANIA = ("demo", "demo, an open event", "demo, every spell known", "start by the book")


@pytest.mark.parametrize("game", TITANIA)
def test_every_titania_dropdown_offers_only_what_check_accepts(game):
    rs = find_ruleset("titania")
    layout = Layout.load("titania")
    state = titania_games()[game]
    problems = [p for book in [*rs.factions(state), GM_BOOK]
                for p in refused(rs, layout, state, book, TitaniaTries(state, book))]
    assert not problems, "\n".join(problems)


def test_the_titania_games_offer_every_kind_of_choice():
    """The test above sees the choices it is about: the Planning actions with their «Что», the Campaign, the
    Might tab, the simulator, the GM's corrections and the start by the book."""
    rs = find_ruleset("titania")
    layout = Layout.load("titania")
    games = titania_games()
    assert sorted(games) == sorted(TITANIA)
    seen = {(game, tab.key, col) for game, state in games.items() for book in [*rs.factions(state), GM_BOOK]
            for tab, col, _ in offered(rs, layout, state, book)}
    assert {("demo", "planning", "what"), ("demo", "campaign", "target"), ("demo", "might", "action"),
            ("demo", "simulator", "race"), ("demo", "corrections", "what"), ("demo, an open event", "planning", "to"),
            ("start by the book", "start", "capital"), ("demo, every spell known", "might", "spell")} <= seen
    assert normalize_name("Вклад в событие") in {normalize_name(v) for tab, col, v in offered(
        rs, layout, games["demo, an open event"], "albion") if col == "action"}


# -- Jade Rose --------------------------------------------------------------------------------------------

ACCEPTED_LATER.update({
    "JR_TIER_ABOVE_LEVEL": "a building of a tier above every own city's level waits for an upgrade",
    "JR_UNIT_LOCKED": "a unit's hire needs its building, of a tier the cities may not reach yet",
    "JR_BUILDING_NOT_IN_CITY": "a sale needs the building standing in the city (none are at the start)",
    "JR_NOT_RUINS": "restoring needs a city in ruins",
    "JR_LEVEL_CAPPED_BY_ERA": "a city's level is capped by the era",
    "JR_ACTION_NEEDS_BUILDING": "a faction action needs its building built first",
    "JR_RITUAL_TOO_EARLY": "the Vampires' ritual opens in a later era",
    "JR_CRUSADE_NO_GRUDGES": "a vengeful campaign needs grudges against its target",
    "JR_INVEST_NO_GUILD": "investing needs a guild built first",
    "JR_NO_GRUDGE_ROOM": "a grudge target needs a grudge room built first",
    "JR_WAR_NO_UNITS": "an army takes the units the faction has: the others once hired",
    "JR_WAR_NOT_ADJACENT": "a city is attacked from an own city on its road: where the faction holds decides",
    "JR_WAR_DEFEND_NOT_OWN": "a city is defended while the faction holds it",
    "JR_WAR_NOT_IN_GARRISON": "a garrison places the units it has now: a building or a level brings the others",
    "JR_WAR_MANOEUVRE_INVALID:no_target": "a charge or a bombard needs an enemy squad in reach: its deployment decides",
})


def _jade_states() -> dict[str, dict[str, Any]]:
    from engine.jade_rose.war.views import manoeuvres_table
    rs = find_ruleset("jade_rose")
    start = rich(load_scenario(rs, "demo").state, ("gold", "honor", "slaves", "runes", "jade"), 100_000)
    # a battle waiting for its manoeuvres: every faction's whole army attacks a neighbouring city
    books: dict[str, dict[str, list[Row]]] = {}
    for fid in rs.factions(start):
        tries = JadeTries(start, fid)
        target = next((c for c in tries.attackable()), None)
        if target is None:
            continue
        units = [(u, n) for u, n in start["factions"][fid]["units"].items() if n]
        armies = [Row(i, {"army": "1", "flank": "Центр", "line": "Авангард" if i == 2 else "Арьергард",
                          "unit": tries.data.units[u].name, "count": str(n)}) for i, (u, n) in enumerate(units, 2)]
        order = {"army": "1", "order": "Атаковать", "city": target, "capture": "Колонизировать", "skip_planning": "Нет"}
        books[fid] = {"armies": armies, "army_orders": [Row(2, order)]}
    parsed = {fid: rs.validate(start, fid, "orders", tabs) for fid, tabs in books.items()}
    planning = rs.resolve(start, "orders", parsed, 4).state
    assert planning["stage"] == "planning" and any(manoeuvres_table(planning, f).rows for f in rs.factions(planning))
    return {"demo": start, "demo, battles to plan": planning}


class JadeTries:
    """Candidate rows of each Jade Rose tab for one faction's book (or the GM's)."""

    def __init__(self, state: Mapping[str, Any], book: str) -> None:
        from engine.jade_rose.data import load_data
        self.data = load_data()
        self.state = state
        self.book = book

    def __call__(self, tab: str) -> Iterable[Try]:
        return getattr(self, tab)()

    def own(self) -> list[str]:
        return sorted(c["name"] for c in self.state["cities"].values() if c.get("owner") == self.book)

    def attackable(self) -> Iterator[str]:
        """Foreign cities on a road from an own city."""
        cities = self.state["cities"]
        for a, b in self.state["roads"]:
            for mine, other in ((a, b), (b, a)):
                if cities[mine].get("owner") == self.book and cities[other].get("owner") != self.book:
                    yield cities[other]["name"]

    def units(self, faction: str) -> list[Any]:
        return sorted(self.data.faction_units(faction), key=lambda u: u.tier)

    def economy(self) -> Iterator[Try]:
        from engine.jade_rose import economy_orders as eo
        buildings = [b.name for b in sorted(self.data.faction_buildings(self.book), key=lambda b: b.tier)]
        rivals = eo.rival_names(self.state, self.book)
        for action in eo.actions_for(self.book):
            kind = eo.KINDS[action]
            for city in self.own():
                if kind in ("build", "sell"):
                    for b in buildings:
                        yield one("economy", {"action": action, "city": city, "what": b})
                        yield one("economy", {"action": action, "city": city, "what": b},
                                  {"action": "Построить", "city": city, "what": b})
                elif kind == "grudge_target":
                    for rival in rivals:
                        yield one("economy", {"action": action, "city": city, "what": rival})
                elif kind in eo.CITY_KINDS:
                    yield one("economy", {"action": action, "city": city})
            if kind in ("hire", "hibernate"):
                for u in self.units(self.book):
                    yield one("economy", {"action": action, "what": u.name, "count": "1"})
            elif kind == "crusade":
                for rival in rivals:
                    yield one("economy", {"action": action, "what": rival})
            elif kind not in eo.CITY_KINDS:
                yield one("economy", {"action": action, "count": "1"})
                yield one("economy", {"action": action})

    def _army(self) -> list[dict[str, str]]:
        return [{"army": "1", "flank": "Центр", "line": "Авангард", "unit": self.data.units[u].name, "count": "1"}
                for u, n in self.state["factions"][self.book]["units"].items() if n][:1]

    def armies(self) -> Iterator[Try]:
        from engine.jade_rose.war.views import vocabularies
        v = vocabularies(self.state, self.book)
        have = [self.data.units[u].name for u, n in self.state["factions"][self.book]["units"].items() if n]
        for unit in [*have, *v["own_units"]]:
            for flank in v["flanks"]:
                for line in v["lines"]:
                    yield one("armies", {"army": "1", "flank": flank, "line": line, "unit": unit, "count": "1"})

    def army_orders(self) -> Iterator[Try]:
        from engine.jade_rose.war.views import vocabularies
        v = vocabularies(self.state, self.book)
        army = {"armies": self._army()}
        orders = v["army_orders"]  # disperse, defend, attack
        yield one("army_orders", {"army": "1", "order": orders[0]}, **army)
        for city in v["all_cities"]:
            yield one("army_orders", {"army": "1", "order": orders[1], "city": city}, **army)
            for capture in v["capture_choices"]:
                for skip in v["yes_no"]:
                    yield one("army_orders", {"army": "1", "order": orders[2], "city": city, "capture": capture,
                                              "skip_planning": skip}, **army)

    def garrisons(self) -> Iterator[Try]:
        from engine.jade_rose.war.views import vocabularies
        v = vocabularies(self.state, self.book)
        for city in self.own():
            for unit in v["garrison_units"]:
                for flank in v["flanks"]:
                    for line in v["lines"]:
                        yield one("garrisons", {"city": city, "flank": flank, "line": line, "unit": unit, "count": "1"})

    def manoeuvres(self) -> Iterator[Try]:
        from engine.jade_rose.war.views import manoeuvres_table, vocabularies
        v = vocabularies(self.state, self.book)
        keys = ("battle", "squad", "units", "manoeuvre", "target", "free_move", "runes")
        for squad in manoeuvres_table(self.state, self.book).rows:
            base = dict(zip(keys, map(str, squad), strict=True))
            for manoeuvre in v["manoeuvres"]:
                yield one("manoeuvres", {**base, "manoeuvre": manoeuvre, "target": ""})
                for target in v["positions"]:
                    yield one("manoeuvres", {**base, "manoeuvre": manoeuvre, "target": target})
                    for free in v["positions"]:
                        yield one("manoeuvres", {**base, "manoeuvre": manoeuvre, "target": target, "free_move": free})

    def simulator(self) -> Iterator[Try]:
        from engine.jade_rose.odds import vocabularies
        from engine.jade_rose.war.views import vocabularies as war_vocabularies
        v = {**war_vocabularies(self.state, self.book), **vocabularies(self.state, self.book)}
        sides = v["sim_sides"]  # attack, defend (ours), the enemy
        others = [f for f in self.state["factions"] if f != self.book]
        mine = self.units(self.book)[0].name
        for enemy in others:
            theirs = self.units(enemy)[0].name
            name = self.state["factions"][enemy]["name"]
            foe = {"side": sides[2], "faction": name, "flank": "Центр", "line": "Авангард", "unit": theirs,
                   "count": "5"}
            for unit in self.units(enemy):
                yield one("simulator", {**foe, "unit": unit.name},
                          {"side": sides[0], "flank": "Центр", "line": "Авангард", "unit": mine, "count": "5"})
            for side in sides[:2]:
                for unit in self.units(self.book):
                    for flank in v["flanks"]:
                        for line in v["lines"]:
                            yield one("simulator", {"side": side, "flank": flank, "line": line, "unit": unit.name,
                                                    "count": "5"}, foe)
            for manoeuvre in v["manoeuvres"]:
                for target in ["", *v["positions"]]:
                    yield one("simulator", {"side": sides[0], "flank": "Центр", "line": "Авангард", "unit": mine,
                                            "count": "5", "manoeuvre": manoeuvre, "target": target}, foe)

    def adjustments(self) -> Iterator[Try]:
        from engine.jade_rose.adjustments import vocabulary
        v = vocabulary(self.state)
        for faction in v["factions"]:
            for resource in v["resources"]:
                yield one("adjustments", {"faction": faction, "resource": resource, "amount": "1",
                                          "reason": "проверка"})


@functools.cache
def jade_games() -> dict[str, dict[str, Any]]:
    return _jade_states()


JADE = ("demo", "demo, battles to plan")


@pytest.mark.parametrize("game", JADE)
def test_every_jade_rose_dropdown_offers_only_what_check_accepts(game):
    rs = find_ruleset("jade_rose")
    layout = Layout.load("jade_rose")
    state = jade_games()[game]
    problems = [p for book in [*rs.factions(state), GM_BOOK]
                for p in refused(rs, layout, state, book, JadeTries(state, book))]
    assert not problems, "\n".join(problems)


def test_the_jade_rose_games_offer_every_kind_of_choice():
    """The test above sees the choices it is about: every order tab of the orders stage, the GM's adjustments,
    the simulator, and the manoeuvres of a battle with its planning phase."""
    rs = find_ruleset("jade_rose")
    layout = Layout.load("jade_rose")
    games = jade_games()
    assert sorted(games) == sorted(JADE)
    seen = {(game, tab.key, col) for game, state in games.items() for book in [*rs.factions(state), GM_BOOK]
            for tab, col, _ in offered(rs, layout, state, book)}
    assert {("demo", "economy", "what"), ("demo", "armies", "unit"), ("demo", "army_orders", "city"),
            ("demo", "garrisons", "unit"), ("demo", "simulator", "unit"), ("demo", "adjustments", "resource"),
            ("demo, battles to plan", "manoeuvres", "manoeuvre"), ("demo, battles to plan", "manoeuvres", "target")
            } <= seen
