"""Order rows of a Titania faction book -> the adjudicator's order dicts (SCHEMA §1.4, §1.5), each row with
its Russian status. One file for the three tabs of the one stage: their rows share one reading of the
book (names, own provinces, armies and the hires of the same Planning).

Three order tabs, all in the one stage (G11 a: Planning and Campaign orders go to the Master together):
«Планирование» (build, hire, caravan, Rat swarm), «Поход» (one row per army, or per part of a split army,
run in the faction's own order «№», A12.1) and «Мощь и магия» (the Might allocation and the racial
ability). Names are read as people type them (engine.cells). Then the faction's own part of the turn is run
by the engine's own code (engine.titania.forecast): its Planning, whose hires give the armies the Campaign
rows share out, and its Campaign with nobody else giving orders; what the engine voids there is the row's
error, with what is allowed, so `check` and `turn` (which both call `validate`) give one verdict, and what is
left to the turn is what other factions' moves and the battles decide. Nothing here raises on bad input.
What every book reads the same way (names, neighbours, armies, the state as the engine reads it) is read once
per state (`Index`), for one book or for all the books of a check (`validate_books`).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import engine.titania.codes  # noqa: F401  (defines the T_* codes)
from engine.cells import normalize_name
from engine.errors import OrderError, allowed_list
from engine.numbers import echo, read_count, whole_number
from engine.ruleset import ParsedOrders, Row, RowStatus
from engine.titania import caravan_rows, diplomacy, forecast
from engine.titania.caravan_rows import CARGO
from engine.titania.data import TitaniaData, content_of, default_data
from engine.titania.fog import sight
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, ability_name, who_of
from engine.titania.params import default_params, override
from engine.titania.races import RACES
from engine.titania.tabs import CAMPAIGN, DIPLOMACY, MIGHT, PLANNING
from engine.titania.world import needs

BUILD, HIRE, CARAVAN, RATS = "Построить", "Нанять", "Отправить караван", "Нашествие крыс"
RESEARCH, LEARN, CONTRIBUTE = "Исследовать", "Изучить заклинание", "Вклад в событие"
SPELL_ROW = "Заклинание"
HOLD, MOVE, SUPPORT = "Стоять", "Идти / атаковать", "Поддержать"
ORDER_WORDS = {HOLD: "hold", "стоять": "hold", "держать": "hold", "оборона": "hold",
               MOVE: "move", "идти": "move", "атаковать": "move", "атака": "move", "идти/атаковать": "move",
               "напасть": "move", "идти атаковать": "move",
               SUPPORT: "support", "подмога": "support", "поддержка": "support"}
_ORDER_KINDS = {normalize_name(k): v for k, v in reversed(ORDER_WORDS.items())}  # the first word wins
PAY_GOLD, PAY_INFLUENCE = "Золото и дерево", "Влияние"
MIGHT_ROW = "Могущество"
PLAYER_BUILDINGS = ("mine", "sawmill", "farm", "quarry", "tower", "port", "fort")
DEPOSIT_TEXT = {"gold": "нет месторождения золота", "wood": "нет леса", "fertile": "нет плодородных земель",
                "stone": "нет месторождения камня", "mana": "нет места силы"}
# What each race's active ability needs from the row (SCHEMA §1.5 `abilities`): the ability's form.
ABILITY_FORM = {"humans": "army", "skaven": "army", "undead": "army", "chaos_dwarfs": "army",
                "high_elves": "own_province", "fauns": "own_province", "dark_elves": "province",
                "beastmen": "province", "goblins": "province", "orcs": "army_two", "lizardmen": "enemy_army",
                "dwarfs": "allocation", "wood_elves": "path"}
FORM_NEEDS = {"army": "«Войско» (ваш отряд)", "own_province": "«Провинция 1» (ваша провинция)",
              "province": "«Провинция 1»", "army_two": "«Войско», «Провинция 1» и «Провинция 2»",
              "enemy_army": "«Провинция 1» (где стоит чужое войско) и, если там несколько, «Фракция»",
              "allocation": "«Войско» и «Очки» (по строке на отряд)",
              "path": "«Войско» и «Провинция 1» (и, если нужно, «Провинция 2») — путь по своим провинциям"}


class Index:
    """What every book of one game state reads the same way, built once for a check of all the books (or of
    one) and passed to each: names, the neighbours of each province, each faction's armies and provinces, the
    game's params, and the state as the engine reads it for the forecasts (`outlook`). Only read after it is
    built; a new state needs a new Index."""

    def __init__(self, state: Mapping[str, Any]) -> None:
        self.state = state
        provinces = state["map"]["provinces"]
        self.pnames: dict[str, str] = {pid: str(info["name"]) for pid, info in provinces.items()}
        self._norm: dict[str, str] = {}
        self.names: dict[str, str] = {}  # normalised name -> province id
        for pid, info in provinces.items():
            self.names[self.norm(info["name"])] = pid
            self.names.setdefault(self.norm(pid), pid)
        self.factions: dict[str, str] = {}  # normalised name -> faction id
        for fid, f in state["factions"].items():
            self.factions[self.norm(f["name"])] = fid
            self.factions.setdefault(self.norm(fid), fid)
        self._near: dict[str, set[str]] = {}
        for a, b in state["map"]["adjacency"]:
            self._near.setdefault(a, set()).add(b)
            self._near.setdefault(b, set()).add(a)
        self._neighbours: dict[str, list[str]] = {}
        self.armies: dict[str, dict[str, dict[str, Any]]] = {}  # faction -> province -> army (the state's)
        self.armies_in: dict[str, list[dict[str, Any]]] = {}  # province -> armies there, in the state's order
        for a in state["armies"]:
            self.armies.setdefault(a["faction"], {})[a["province"]] = a
            self.armies_in.setdefault(a["province"], []).append(a)
        self._owned: dict[str, list[str]] = {}
        for p, o in state["owners"].items():
            self._owned.setdefault(o, []).append(p)
        for lst in self._owned.values():
            lst.sort(key=self.pnames.__getitem__)
        self.params = override(default_params(), state.get("params") or None, [])
        # «Фракция» of a spell at an enemy army: a player faction or a Keeper (ruling T4-6)
        self.targets: dict[str, str] = dict(self.factions)
        for kid, k in state.get("keepers", {}).items():
            self.targets.setdefault(self.norm(k["name"]), kid)
            self.targets.setdefault(self.norm(kid), kid)
        self._sight: dict[str, set[str]] = {}
        self._every: list[str] | None = None
        self._outlook: forecast.Outlook | None = None

    def norm(self, text: str) -> str:
        """engine.cells.normalize_name, each text once."""
        got = self._norm.get(text)
        if got is None:
            got = self._norm[text] = normalize_name(text)
        return got

    def neighbours(self, pid: str) -> list[str]:
        """The provinces adjacent to `pid`, by name."""
        got = self._neighbours.get(pid)
        if got is None:
            got = self._neighbours[pid] = sorted(self._near.get(pid, ()), key=self.pnames.__getitem__)
        return got

    def owned(self, faction: str) -> list[str]:
        """The faction's provinces at the start of the turn, by name."""
        return self._owned.get(faction, [])

    def sight(self, faction: str) -> set[str]:
        """The provinces whose troops the faction sees (engine.titania.fog)."""
        got = self._sight.get(faction)
        if got is None:
            got = self._sight[faction] = sight(self.state, faction, self._near)
        return got

    def every(self) -> list[str]:
        """Every province of the map, by name."""
        if self._every is None:
            self._every = sorted(self.state["map"]["provinces"], key=self.pnames.__getitem__)
        return self._every

    @property
    def outlook(self) -> forecast.Outlook:
        if self._outlook is None:
            self._outlook = forecast.Outlook(self.state)
        return self._outlook


@dataclass
class Book:
    """What the parser knows of the game for one faction: names and who owns what at the start (read through
    the state's Index, built here when none is given)."""

    state: Mapping[str, Any]
    faction: str
    names: dict[str, str] = field(default_factory=dict)  # normalised name -> province id
    factions: dict[str, str] = field(default_factory=dict)  # normalised name -> faction id
    # the faction's armies when the Campaign starts, after its Planning as the engine runs it (forecast):
    # province -> (Strength, may put to sea); None: as at the start of the turn
    after: dict[str, tuple[int, bool]] | None = None
    food: int = 0  # food capacity and squads when the Campaign starts (C2.2, A11.1)
    squads: int = 0
    index: Index | None = None

    def __post_init__(self) -> None:
        if self.index is None:
            self.index = Index(self.state)
        self.ix = self.index
        self.names, self.factions = self.ix.names, self.ix.factions
        self._order: tuple[object, dict[str, int]] | None = None

    # -- facts
    def pname(self, pid: str) -> str:
        return self.ix.pnames[pid]

    def fname(self, fid: str) -> str:
        return str(self.state["factions"][fid]["name"])

    def display(self, fid: str) -> str:
        """A player faction's or a Keeper's display name."""
        if fid in self.state["factions"]:
            return self.fname(fid)
        keeper = self.state.get("keepers", {}).get(fid)
        return str(keeper["name"]) if keeper else fid

    def who(self, fid: str) -> str:
        """A faction or Keeper in the genitive: «фракции «…»», «Хранителей «…»» (names.who_of)."""
        return who_of(self.state, fid)

    @property
    def race(self) -> str:
        return str(self.state["factions"][self.faction]["race"])

    def owned(self) -> list[str]:
        return list(self.ix.owned(self.faction))

    def own_land(self) -> list[str]:
        provinces = self.state["map"]["provinces"]
        return [p for p in self.ix.owned(self.faction) if not provinces[p]["sea"]]

    def armies(self) -> dict[str, dict[str, Any]]:
        return dict(self.ix.armies.get(self.faction, {}))

    def order_armies(self) -> dict[str, int]:
        """The Strength each army will have when the Campaign starts: after this book's Planning as the engine
        runs it (P4.1: hired troops take orders the same turn)."""
        return dict(self._strengths())

    def _strengths(self) -> dict[str, int]:
        """order_armies, worked out once for each `after` (not to be changed)."""
        if self._order is None or self._order[0] is not self.after:
            got = {p: s for p, (s, _) in self.after.items()} if self.after is not None else \
                {p: int(a["strength"]) for p, a in self.ix.armies.get(self.faction, {}).items()}
            self._order = (self.after, got)
        return self._order[1]

    def hired(self, pid: str) -> int:
        """Strength this Planning adds to the army in `pid`."""
        start = self.ix.armies.get(self.faction, {}).get(pid)
        before = int(start["strength"]) if start else 0
        if self.after is None:
            return 0
        return (self.after[pid][0] if pid in self.after else 0) - before

    def neighbours(self, pid: str) -> list[str]:
        return list(self.ix.neighbours(pid))

    def naval(self, pid: str) -> bool:
        """An army at sea, or in an own province with a port at the start of the turn, may put to sea (G20: our
        reading); a squad hired this turn may not yet."""
        if self.after is not None and pid in self.after:
            return self.after[pid][1]
        provinces = self.state["map"]["provinces"]
        return bool(provinces[pid]["sea"]) or (self.state["owners"].get(pid) == self.faction
                                               and "port" in self.state["buildings"].get(pid, []))

    def might(self) -> int:
        provinces = self.state["map"]["provinces"]
        return sum(1 for p in self.ix.owned(self.faction) if provinces[p]["shrine"])

    def lookup(self, text: str, table: Mapping[str, str]) -> str | None:
        """`_lookup` with the Index's normalised names."""
        return _lookup(text, table, self.ix.norm)

    # -- reading cells (what is allowed is listed only for a message)
    def province(self, text: str, column: str, among: list[str] | None = None) -> str | OrderError:
        def allowed() -> str:
            return allowed_list(self.pname(p) for p in (among if among is not None else self.own_land()))
        if not text:
            return OrderError("T_NEED_PROVINCE", {"column": column, "allowed": allowed()})
        pid = self.names.get(self.ix.norm(text))
        if pid is None:
            return OrderError("T_UNKNOWN_PROVINCE", {"column": column, "value": echo(text), "allowed": allowed()})
        return pid

    def other_faction(self, text: str, column: str) -> str | OrderError:
        fid = self.factions.get(self.ix.norm(text))
        if fid is None:
            others = [f for f in self.state["factions"] if f != self.faction]
            return OrderError("T_UNKNOWN_FACTION", {"column": column, "value": echo(text),
                                                    "allowed": allowed_list(self.fname(f) for f in others)})
        return fid

    def army(self, text: str) -> str | OrderError:
        armies = self._strengths()

        def allowed() -> str:
            return allowed_list(self.pname(p) for p in sorted(armies, key=self.pname))
        if not text:
            return OrderError("T_NEED_ARMY", {"allowed": allowed()})
        pid = self.names.get(self.ix.norm(text))
        if pid is None or pid not in armies:
            return OrderError("T_NO_ARMY", {"value": echo(text), "allowed": allowed()})
        return pid


def _ok(tab: str, row: Row, note: str) -> RowStatus:
    return RowStatus(tab, row.number, note=note)


def _bad(tab: str, row: Row, err: OrderError) -> RowStatus:
    return RowStatus(tab, row.number, (err,))


def _lookup(text: str, table: Mapping[str, str], norm: Callable[[str], str] = normalize_name) -> str | None:
    """The first key of `table` whose value or key reads as `text` (normalised)."""
    return _inverse(tuple(table.items())).get(norm(text))


@lru_cache(maxsize=512)  # the tables of a few states at a time (known technologies and spells vary)
def _inverse(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Normalised value or key -> the first key with it, for `_lookup` (each table normalised once)."""
    out: dict[str, str] = {}
    for k, v in items:
        out.setdefault(normalize_name(v), k)
        out.setdefault(normalize_name(k), k)
    return out


@cache
def _words(words: tuple[str, ...]) -> frozenset[str]:
    """The normalised forms of fixed words (the actions, the orders)."""
    return frozenset(normalize_name(w) for w in words)


# -- «Планирование» -------------------------------------------------------------------------------------

def planning_actions(race_free_hire: bool) -> list[str]:
    return [BUILD, HIRE, CARAVAN, RESEARCH, LEARN, CONTRIBUTE, *([RATS] if race_free_hire else [])]


def data(state: Mapping[str, Any] | None = None) -> TitaniaData:
    """The game's content (engine.titania.data.content_of; the shipped content without a state)."""
    return content_of(state) if state is not None else default_data()


def open_events(state: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(id, Russian name) of the events open for contributions."""
    events = data(state).events
    return [(str(e["id"]), events[e["id"]].name) for e in state.get("active_events", [])
            if e.get("status") == "open" and e.get("id") in events
            and events[e["id"]].goal.get("type") == "contribute"]


def _knowledge(b: Book, row: Row, action: str) -> tuple[dict[str, Any] | None, RowStatus]:
    """«Исследовать» a technology, «Изучить заклинание» a spell or «Вклад в событие» (SCHEMA_V2 §2, §4, §5)."""
    d = data(b.state)
    if action == b.ix.norm(CONTRIBUTE):
        res = b.lookup(row.get("what"), {k: RESOURCE_NAMES[k] for k in CARGO})
        if res is None:
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_RESOURCE", {
                "value": echo(row.get("what")), "allowed": allowed_list(RESOURCE_NAMES[k] for k in CARGO)}))
        n = read_count(row.get("count"), "Количество", maximum=9999)
        if isinstance(n, OrderError):
            return None, _bad(PLANNING, row, n)
        events = open_events(b.state)
        chosen = b.lookup(row.get("to"), dict(events)) if row.get("to") else \
            (events[0][0] if len(events) == 1 else None)
        if chosen is None:
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_EVENT", {
                "value": echo(row.get("to")), "allowed": allowed_list(name for _, name in events)}))
        return ({"kind": "contribute", "faction": b.faction, "event": chosen, "resources": {res: n}},
                _ok(PLANNING, row, f"вклад в событие: {RESOURCE_NAMES[res]} {n}"))
    if action == b.ix.norm(RESEARCH):
        known = set(b.state["factions"][b.faction].get("techs", []))
        table = {k: t.name for k, t in d.technologies.items() if k not in known}
        tech = b.lookup(row.get("what"), table)
        if tech is None:
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_TECH", {
                "value": echo(row.get("what")), "allowed": allowed_list(table.values())}))
        choices = RACES[b.race].research_discounts
        discount = b.lookup(row.get("discount"), {r: RESOURCE_NAMES[r] for r in choices}) if choices else None
        if row.get("discount") and discount is None:
            if not choices:
                return None, _bad(PLANNING, row, OrderError("T_DISCOUNT_NOT_YOURS",
                                                            {"value": echo(row.get("discount"))}))
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_DISCOUNT", {
                "value": echo(row.get("discount")), "allowed": allowed_list(RESOURCE_NAMES[r] for r in choices)}))
        note = f"; скидка «Дары Богов»: {RESOURCE_NAMES[discount]}" if discount else ""
        return ({"kind": "research", "faction": b.faction, "technology": tech,
                 **({"discount": discount} if discount else {})},
                _ok(PLANNING, row, f"исследовать «{table[tech]}»{note}"))
    known = set(b.state["factions"][b.faction].get("spells", []))
    table = {k: sp.name for k, sp in d.spells.items() if k not in known}
    spell = b.lookup(row.get("what"), table)
    if spell is None:
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_SPELL", {
            "value": echo(row.get("what")), "allowed": allowed_list(table.values())}))
    return ({"kind": "learn", "faction": b.faction, "spell": spell}, _ok(PLANNING, row, f"изучить «{table[spell]}»"))


def _planning_row(b: Book, row: Row, builds: set[tuple[str, str]], free_hire: bool
                  ) -> tuple[dict[str, Any] | None, RowStatus]:
    action = b.ix.norm(row.get("action"))
    actions = planning_actions(free_hire)
    if action not in _words((*actions, RATS)):
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_ACTION", {"value": echo(row.get("action")),
                                                                          "allowed": allowed_list(actions)}))
    if row.get("discount") and action != b.ix.norm(RESEARCH):
        return None, _bad(PLANNING, row, OrderError("T_DISCOUNT_ONLY_RESEARCH", {"value": echo(row.get("discount"))}))
    if action in _words((RESEARCH, LEARN, CONTRIBUTE)):
        return _knowledge(b, row, action)
    where = b.province(row.get("province"), "Провинция")
    if isinstance(where, OrderError):
        return None, _bad(PLANNING, row, where)
    if b.state["owners"].get(where) != b.faction:
        return None, _bad(PLANNING, row, OrderError("T_NOT_OWN_PROVINCE", {
            "column": "Провинция", "value": b.pname(where), "allowed": allowed_list(b.pname(p) for p in b.own_land())}))
    if b.state["map"]["provinces"][where]["sea"]:
        return None, _bad(PLANNING, row, OrderError("T_SEA_PROVINCE", {
            "value": b.pname(where), "allowed": allowed_list(b.pname(p) for p in b.own_land())}))
    stolen = where in b.state.get("stolen", [])
    if action == b.ix.norm(BUILD):
        return _build(b, row, where, builds)
    if action == b.ix.norm(RATS):
        if not free_hire:
            return None, _bad(PLANNING, row, OrderError("T_NOT_SKAVEN", {"allowed": allowed_list(actions)}))
        if stolen:
            return None, _bad(PLANNING, row, OrderError("T_STOLEN", {"province": b.pname(where)}))
        return ({"kind": "skaven_free", "faction": b.faction, "province": where},
                _ok(PLANNING, row, f"Нашествие крыс: +1 к силе в провинции «{b.pname(where)}» бесплатно"))
    if action == b.ix.norm(HIRE):
        if stolen:
            return None, _bad(PLANNING, row, OrderError("T_STOLEN", {"province": b.pname(where)}))
        n = read_count(row.get("count"), "Количество", maximum=99)
        if isinstance(n, OrderError):
            return None, _bad(PLANNING, row, n)
        pay_text = row.get("what")
        pay = "gold_wood"
        if pay_text and b.ix.norm(pay_text) not in (b.ix.norm(PAY_GOLD), "золото", "золото дерево"):
            if b.ix.norm(pay_text) != b.ix.norm(PAY_INFLUENCE):
                return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_PAYMENT", {
                    "value": echo(pay_text), "allowed": allowed_list((PAY_GOLD, PAY_INFLUENCE))}))
            pay = "influence"
        cost = f"{n} золота и {n} дерева" if pay == "gold_wood" else f"{10 * n} влияния"
        return ({"kind": "hire", "faction": b.faction, "province": where, "strength": n, "pay": pay},
                _ok(PLANNING, row, f"нанять силу {n} в провинции «{b.pname(where)}» за {cost}"))
    return caravan_rows.caravan(b, row, where)


def _build(b: Book, row: Row, where: str, builds: set[tuple[str, str]]) -> tuple[dict[str, Any] | None, RowStatus]:
    names = {k: BUILDING_NAMES[k] for k in PLAYER_BUILDINGS}
    building = b.lookup(row.get("what"), names)
    if building is None:
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_BUILDING", {
            "value": echo(row.get("what")), "allowed": allowed_list(names.values())}))
    have = b.state["buildings"].get(where, [])
    if building in have or (where, building) in builds:
        free = [names[k] for k in PLAYER_BUILDINGS if k not in have and (where, k) not in builds]
        return None, _bad(PLANNING, row, OrderError("T_BUILDING_THERE", {
            "province": b.pname(where), "building": names[building], "allowed": allowed_list(free)}))
    deposits = b.state["map"]["provinces"][where]["deposits"]
    need = needs(data(b.state), b.ix.params, building)
    if need is not None and need not in (deposits or []):
        detail = DEPOSIT_TEXT[need] if deposits is not None else "ресурсы провинции ещё не разведаны"
        return None, _bad(PLANNING, row, OrderError("T_NO_DEPOSIT", {
            "building": names[building].capitalize(), "province": b.pname(where), "detail": detail}))
    if building == "port" and not any(b.state["map"]["provinces"][n]["sea"] for n in b.neighbours(where)):
        return None, _bad(PLANNING, row, OrderError("T_NO_DEPOSIT", {
            "building": "Порт", "province": b.pname(where), "detail": "провинция не граничит с морем"}))
    builds.add((where, building))
    return ({"kind": "build", "faction": b.faction, "province": where, "building": building},
            _ok(PLANNING, row, f"построить: {names[building]} в провинции «{b.pname(where)}»"))


# -- «Поход» ------------------------------------------------------------------------------------------------

@dataclass
class _Line:
    row: Row
    army: str
    type: str
    target: str | None
    support_faction: str | None
    strength: int | None
    seq: float


def _campaign_line(b: Book, row: Row) -> _Line | RowStatus:
    army = b.army(row.get("army"))
    if isinstance(army, OrderError):
        return _bad(CAMPAIGN, row, army)
    word = b.ix.norm(row.get("order"))
    kind = _ORDER_KINDS.get(word)
    if kind is None:
        return _bad(CAMPAIGN, row, OrderError("T_UNKNOWN_ORDER", {"value": echo(row.get("order")),
                                                                 "allowed": allowed_list((HOLD, MOVE, SUPPORT))}))
    seq_text = row.get("seq")
    seq: float = 10_000 + row.number
    if seq_text:
        value = whole_number(seq_text)
        if value is None:
            return _bad(CAMPAIGN, row, OrderError("T_BAD_SEQ", {"value": echo(seq_text)}))
        seq = value
    strength: int | None = None
    if row.get("strength"):
        n = read_count(row.get("strength"), "Сила", maximum=999)
        if isinstance(n, OrderError):
            return _bad(CAMPAIGN, row, n)
        strength = n
    target: str | None = None
    support_faction: str | None = None
    nb = b.neighbours(army)
    if kind in ("move", "support"):
        t = b.province(row.get("target"), "Куда", among=nb)
        if isinstance(t, OrderError):
            return _bad(CAMPAIGN, row, t)
        target = t
        anywhere = (kind == "move" and ABILITY_FORM.get(b.race) == "path") or \
                   (kind == "support" and b.race == "chaos_dwarfs")  # Paths / Artillery may lift adjacency
        if t not in nb and not anywhere:
            return _bad(CAMPAIGN, row, OrderError("T_NOT_ADJACENT", {
                "value": b.pname(t), "origin": b.pname(army), "allowed": allowed_list(b.pname(p) for p in nb)}))
        sea = b.state["map"]["provinces"][t]["sea"]
        if kind == "move" and sea and not b.naval(army):
            land = [b.pname(p) for p in nb if not b.state["map"]["provinces"][p]["sea"]]
            return _bad(CAMPAIGN, row, OrderError("T_LAND_TO_SEA", {"value": b.pname(t),
                                                                   "allowed": allowed_list(land)}))
    if kind == "support":
        who = row.get("for_whom")
        if who and b.ix.norm(who) in _words(("туземцы", "туземцев", "natives")):
            return _bad(CAMPAIGN, row, OrderError("T_NO_SUPPORT_NATIVES", {}))
        if who:
            fid = b.factions.get(b.ix.norm(who))
            if fid is None:
                return _bad(CAMPAIGN, row, OrderError("T_SUPPORT_NOBODY", {
                    "value": echo(who), "allowed": allowed_list(f["name"] for f in b.state["factions"].values())}))
            support_faction = fid
        else:
            support_faction = b.faction
    return _Line(row, army, kind, target, support_faction, strength, seq)


def _spec(line: _Line, strength: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": line.type, "seq": line.seq}
    if strength is not None:
        out["strength"] = strength
    if line.target is not None:
        out["target"] = line.target
    if line.support_faction is not None:
        out["support_faction"] = line.support_faction
    return out


def _describe(b: Book, line: _Line) -> str:
    if line.type == "hold":
        return "стоять"
    assert line.target is not None
    if line.type == "move":
        return f"идти / атаковать → «{b.pname(line.target)}»"
    who = "себя" if line.support_faction == b.faction else f"фракцию «{b.fname(line.support_faction or '')}»"
    return f"поддержать {who} в провинции «{b.pname(line.target)}»"


def campaign_lines(b: Book, rows: list[Row]) -> tuple[list[_Line], list[RowStatus]]:
    """Each «Поход» row read on its own: the army's order, or the row's error."""
    lines: list[_Line] = []
    statuses: list[RowStatus] = []
    for row in rows:
        got = _campaign_line(b, row)
        if isinstance(got, RowStatus):
            statuses.append(got)
        else:
            lines.append(got)
    return lines, statuses


def _whole(line: _Line, strength: int) -> bool:
    return line.strength is None or line.strength == strength


def _army_orders(b: Book, army: str, lines: list[_Line]) -> tuple[dict[str, Any] | None, list[RowStatus]]:
    """One army's rows, in the faction's order «№» (then row order): each row with «Сила» takes that much of
    what is left, the first row without it takes the rest (G16 a: what no row takes stays and holds); a row
    that asks more than is left, or a new part that food cannot feed, is an error and takes nothing. Two
    support rows for the whole human army are one order for the Tactics squad's two battles (G49 a)."""
    strength = b._strengths()[army]
    statuses: list[RowStatus] = []
    if (b.race == "humans" and len(lines) >= 2 and all(ln.type == "support" and _whole(ln, strength)
                                                         for ln in lines[:2]) and lines[1].target is not None):
        first, second = lines[0], lines[1]
        order: dict[str, Any] = {"faction": b.faction, "army": army, **_spec(first),
                                 "second": {"target": second.target, "support_faction": second.support_faction}}
        statuses += [_ok(CAMPAIGN, first.row, _describe(b, first)),
                     _ok(CAMPAIGN, second.row, "второй бой для отряда Тактики: " + _describe(b, second))]
        rows = f"{first.row.number} и {second.row.number}"
        statuses += [_bad(CAMPAIGN, ln.row, OrderError("T_NOTHING_LEFT", {
            "army": b.pname(army), "strength": strength, "rows": rows})) for ln in lines[2:]]
        return {"rows": [first.row.number, second.row.number], "order": order}, statuses
    extra = b.food - b.squads  # new squads food can feed (each split checked on its own, as register does)
    hired = f" (с наймом этого хода: +{b.hired(army)})" if b.hired(army) > 0 else ""
    parts: list[tuple[_Line, int]] = []
    left = strength
    for ln in (ln for ln in lines if ln.strength is not None):
        asked = int(ln.strength or 0)
        taken = (f"строка {parts[0][0].row.number} уже взяла" if len(parts) == 1 else
                 "строки " + ", ".join(str(p.row.number) for p, _ in parts) + " уже взяли")
        if asked > left:
            allowed = (f"укажите «Силу» от 1 до {strength} ({strength} — всё войско) или оставьте её пустой — "
                       "тогда пойдёт всё войско" if left == strength else
                       f"{taken} {strength - left}, осталось {left}: укажите «Силу» не больше "
                       f"{left} или оставьте её пустой — тогда строка возьмёт остаток" if left else
                       f"{taken} всё войско: уменьшите «Силу» там или удалите эту строку")
            statuses.append(_bad(CAMPAIGN, ln.row, OrderError("T_PART_TOO_BIG", {
                "army": b.pname(army), "strength": strength, "hired": hired, "asked": asked, "allowed": allowed})))
            continue
        count = len(parts) + 1 + (1 if left - asked > 0 else 0)  # parts after this row, the rest included
        if count - 1 > extra:
            allowed = (f"Дайте войску один приказ на всю силу {strength} (поле «Сила» пустое) или постройте ферму."
                       if extra <= 0 else f"Разделить его можно не больше чем на {extra + 1} части.")
            statuses.append(_bad(CAMPAIGN, ln.row, OrderError("T_SPLIT_FOOD", {
                "army": b.pname(army), "asked": asked, "food": b.food, "squads": b.squads, "allowed": allowed})))
            continue
        parts.append((ln, asked))
        left -= asked
    rest = [ln for ln in lines if ln.strength is None]
    if rest:
        if left > 0:
            parts.append((rest[0], left))
            left = 0
        else:
            statuses.append(_bad(CAMPAIGN, rest[0].row, OrderError("T_NOTHING_LEFT", {
                "army": b.pname(army), "strength": strength,
                "rows": ", ".join(str(p.row.number) for p, _ in parts)})))
        statuses += [_bad(CAMPAIGN, ln.row, OrderError("T_DUPLICATE_ORDER", {
            "value": b.pname(army), "row": rest[0].row.number})) for ln in rest[1:]]
    if not parts:
        return None, statuses
    if len(parts) == 1 and left == 0:
        line = parts[0][0]
        statuses.append(_ok(CAMPAIGN, line.row, _describe(b, line)))
        return {"rows": [line.row.number], "order": {"faction": b.faction, "army": army, **_spec(line)}}, statuses
    specs = [_spec(ln, n) for ln, n in parts]
    if left > 0:
        specs.append({"type": "hold", "strength": left})  # the rest stays (G16 a), after the rows' parts
    for i, (ln, n) in enumerate(parts):
        stays = f"; остальные {left} стоят на месте" if left and i == len(parts) - 1 else ""
        statuses.append(_ok(CAMPAIGN, ln.row, f"часть силой {n}: {_describe(b, ln)}{stays}"))
    order = {"faction": b.faction, "army": army, "type": "split", "parts": specs}
    return {"rows": [ln.row.number for ln, _ in parts], "order": order}, statuses


def campaign_orders(b: Book, lines: list[_Line], rejected: Mapping[int, OrderError]
                    ) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The armies' orders from the read rows (a row in `rejected` is that error and takes nothing); returns
    (orders with their rows, statuses)."""
    statuses: list[RowStatus] = []
    by_army: dict[str, list[_Line]] = {}
    for ln in lines:
        if ln.row.number in rejected:
            statuses.append(_bad(CAMPAIGN, ln.row, rejected[ln.row.number]))
        else:
            by_army.setdefault(ln.army, []).append(ln)
    orders: list[dict[str, Any]] = []
    for army, group in by_army.items():
        item, st = _army_orders(b, army, sorted(group, key=lambda ln: (ln.seq, ln.row.number)))
        statuses += st
        if item is not None:
            orders.append(item)
    return orders, statuses


def parse_campaign(b: Book, rows: list[Row]) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """«Поход» alone, against the armies `b` knows (see validate for the whole book)."""
    lines, statuses = campaign_lines(b, rows)
    orders, more = campaign_orders(b, lines, {})
    return orders, statuses + more


# -- «Мощь и магия» ----------------------------------------------------------------------------------------

def might_actions(race: str) -> list[str]:
    return [MIGHT_ROW, ability_name(race), SPELL_ROW]


def _enemy_army(b: Book, row: Row, p1: str, what: str, players_only: bool) -> str | OrderError:
    """The faction whose army in `p1` a row aims at (a spell at an enemy army, Intimidation): read only from what
    the faction sees (engine.titania.fog), so the answer is the same whatever stands where it cannot see. The
    «Фракция» is needed only where several factions' armies stand; a Keepers' army is a target of a spell (ruling
    T4-6), natives and Bosses are not."""
    if p1 not in b.ix.sight(b.faction):
        return OrderError("T_TARGET_UNSEEN", {"what": what, "value": b.pname(p1)})
    players = b.state["factions"]
    foreign: list[str] = sorted({str(a["faction"]) for a in b.ix.armies_in.get(p1, ()) if a["faction"] != b.faction
                                 and (a["faction"] in players or not players_only)})
    names = allowed_list(b.display(f) for f in foreign)
    there = f"там стоят войска: {names}" if foreign else "чужих войск там нет"
    if row.get("faction"):
        target = (b.ix.factions if players_only else b.ix.targets).get(b.ix.norm(row.get("faction")))
        if target is None or target == b.faction:
            return OrderError("T_UNKNOWN_FACTION", {"column": "Фракция", "value": echo(row.get("faction")),
                                                    "allowed": names if foreign else "ни одной: там нет чужих войск"})
        if target not in foreign:
            return OrderError("T_NO_TARGET_ARMY", {"value": b.pname(p1), "faction": b.who(target), "there": there})
        return target
    if len(foreign) == 1:
        return foreign[0]
    if not foreign:
        return OrderError("T_NO_TARGET_ARMY", {"value": b.pname(p1), "faction": "другой фракции", "there": there})
    return OrderError("T_TARGET_FACTION_NEEDED", {"what": what, "value": b.pname(p1), "allowed": names})


def _spell(b: Book, row: Row, used: set[str], learned: Mapping[str, int | None]
           ) -> tuple[dict[str, Any], str] | OrderError:
    """A cast of a spell the faction knows, or learns in this turn's Planning (G77), its target from the row
    (SCHEMA_V2 §4 `spells`). `learned`: spell -> None when this Planning learns it, else the «Планирование» row
    whose learning of it will not be carried out."""
    d = data(b.state)
    own = [k for k in b.state["factions"][b.faction].get("spells", []) if k in d.spells]
    known = {k: d.spells[k].name for k in [*own, *(k for k, row_no in learned.items() if row_no is None)]
             if k in d.spells}
    sid = b.lookup(row.get("spell"), known)
    if sid is None:
        other = {k: sp.name for k, sp in d.spells.items() if k not in known}
        wanted = b.lookup(row.get("spell"), other) if row.get("spell") else None
        if wanted is not None and learned.get(wanted) is not None:
            return OrderError("T_SPELL_LEARN_FAILS", {"value": other[wanted], "row": learned[wanted]})
        if wanted is not None:
            return OrderError("T_SPELL_NOT_LEARNED", {"value": other[wanted],
                                                      "allowed": allowed_list(known.values())})
        return OrderError("T_SPELL_UNKNOWN", {"value": echo(row.get("spell")),
                                             "allowed": allowed_list(known.values())})
    if sid in used:
        return OrderError("T_SPELL_TWICE", {"value": known[sid]})
    spell = d.spells[sid]
    cast: dict[str, Any] = {"spell": sid}
    note = f"«{known[sid]}»"
    if spell.target == "own_army":
        army = b.army(row.get("army"))
        if isinstance(army, OrderError):
            return army
        cast["army"] = army
        note += f" на войско в провинции «{b.pname(army)}»"
    elif spell.target in ("enemy_army", "own_province"):
        among = b.owned() if spell.target == "own_province" else sorted(b.ix.sight(b.faction), key=b.pname)
        p1 = b.province(row.get("province1"), "Провинция 1", among=among)
        if isinstance(p1, OrderError):
            return p1
        if spell.target == "own_province":
            cast["province"] = p1
            note += f" на провинцию «{b.pname(p1)}»"
        else:
            target = _enemy_army(b, row, p1, f"заклинания «{known[sid]}»", players_only=False)
            if isinstance(target, OrderError):
                return target
            cast["target"] = {"faction": target, "army": p1}
            note += f" на войско {b.who(target)} в провинции «{b.pname(p1)}»"
    used.add(sid)
    return cast, note


def parse_might(b: Book, rows: list[Row], learned: Mapping[str, int | None] | None = None
                ) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The Might allocation (its total within Might, G8 a), the spells cast and the one racial ability of the
    turn. `learned`: the spells this turn's Planning learns (None) or fails to learn (its row), see `_spell`."""
    statuses: list[RowStatus] = []
    out: list[dict[str, Any]] = []
    allocation: dict[str, int] = {}
    alloc_rows: list[int] = []
    might = b.might()
    ability = ability_name(b.race)
    ability_row: int | None = None
    ability_rows: list[int] = []  # the Dwarfs' allocation takes a row per squad: one order, one verdict
    spec: dict[str, Any] = {}
    dwarf_alloc: dict[str, int] = {}
    spells_used: set[str] = set()
    for row in rows:
        word = b.ix.norm(row.get("action"))
        if word == b.ix.norm(SPELL_ROW):
            cast = _spell(b, row, spells_used, learned or {})
            if isinstance(cast, OrderError):
                statuses.append(_bad(MIGHT, row, cast))
            else:
                out.append({"kind": "spell", "rows": [row.number], "cast": cast[0]})
                statuses.append(_ok(MIGHT, row, f"заклинание {cast[1]}"))
            continue
        if word == b.ix.norm(MIGHT_ROW):
            army = b.army(row.get("army"))
            if isinstance(army, OrderError):
                statuses.append(_bad(MIGHT, row, army))
                continue
            n = read_count(row.get("points"), "Очки", maximum=99)
            if isinstance(n, OrderError):
                statuses.append(_bad(MIGHT, row, n))
                continue
            allocation[army] = allocation.get(army, 0) + n
            alloc_rows.append(row.number)
            statuses.append(_ok(MIGHT, row, f"+{n} к силе войска в провинции «{b.pname(army)}» на этот Поход"))
            continue
        if word in (b.ix.norm(ability), "способность"):
            form = ABILITY_FORM.get(b.race, "army")
            if ability_row is not None and form != "allocation":
                statuses.append(_bad(MIGHT, row, OrderError("T_ABILITY_TWICE", {"row": ability_row})))
                continue
            got = _ability(b, row, form, dwarf_alloc)
            if isinstance(got, OrderError):
                statuses.append(_bad(MIGHT, row, got))
                continue
            spec, note = got
            ability_row = ability_row or row.number
            ability_rows.append(row.number)
            statuses.append(_ok(MIGHT, row, f"«{ability}» (1 влияние): {note}"))
            continue
        known = [b.ix.norm(a) for a in might_actions(b.race)]
        other = next((r for r in ABILITY_FORM if b.ix.norm(ability_name(r)) == word), None)
        if other is not None and word not in known:
            statuses.append(_bad(MIGHT, row, OrderError("T_ABILITY_NOT_YOURS", {"value": ability_name(other),
                                                                              "allowed": ability})))
        else:
            statuses.append(_bad(MIGHT, row, OrderError("T_UNKNOWN_ACTION", {
                "value": echo(row.get("action")), "allowed": allowed_list(might_actions(b.race))})))
    total = sum(allocation.values())
    if total > might:  # «An allocation that exceeds Might is void as a whole» (SCHEMA §1.5, G8 a)
        over = OrderError("T_MIGHT_OVER", {"total": total, "might": might, "extra": f"{total - might} очк."})
        statuses = [RowStatus(MIGHT, s.number, (over,)) if s.number in alloc_rows else s for s in statuses]
    elif allocation:
        out.append({"kind": "might", "rows": alloc_rows, "allocation": allocation})
    if ability_row is not None:
        out.append({"kind": "ability", "rows": ability_rows, "spec": spec})
    return out, statuses


def _ability(b: Book, row: Row, form: str, dwarf_alloc: dict[str, int]
             ) -> tuple[dict[str, Any], str] | OrderError:
    ability = ability_name(b.race)
    need = OrderError("T_ABILITY_NEEDS", {"ability": ability, "need": FORM_NEEDS[form]})
    army: str | OrderError = ""
    if form in ("army", "army_two", "allocation", "path"):
        army = b.army(row.get("army"))
        if isinstance(army, OrderError):
            return army
    every = b.ix.every()
    p1 = b.province(row.get("province1"), "Провинция 1", among=every) if row.get("province1") else None
    p2 = b.province(row.get("province2"), "Провинция 2", among=every) if row.get("province2") else None
    for p in (p1, p2):
        if isinstance(p, OrderError):
            return p
    assert not isinstance(p1, OrderError) and not isinstance(p2, OrderError)
    if form == "army":
        return {"army": army}, f"отряд в провинции «{b.pname(str(army))}»"
    if form in ("own_province", "province"):
        if p1 is None:
            return need
        if form == "own_province" and b.state["owners"].get(p1) != b.faction:
            return OrderError("T_NOT_OWN_PROVINCE", {"column": "Провинция 1", "value": b.pname(p1),
                                                     "allowed": allowed_list(b.pname(p) for p in b.owned())})
        return {"province": p1}, f"провинция «{b.pname(p1)}»"
    if form == "army_two":
        if p1 is None or p2 is None:
            return need
        return ({"army": army, "provinces": [p1, p2]},
                f"отряд в провинции «{b.pname(str(army))}», провинции «{b.pname(p1)}» и «{b.pname(p2)}»")
    if form == "path":
        if p1 is None:
            return need
        path = [p1] + ([p2] if p2 is not None else [])
        return {"army": army, "path": path}, (f"отряд из провинции «{b.pname(str(army))}» пройдёт до провинции "
                                              f"«{b.pname(path[-1])}»")
    if form == "allocation":
        n = read_count(row.get("points"), "Очки", maximum=3)
        if isinstance(n, OrderError):
            return n
        dwarf_alloc[str(army)] = dwarf_alloc.get(str(army), 0) + n
        return {"allocation": dict(dwarf_alloc)}, f"+{n} отряду в провинции «{b.pname(str(army))}»"
    # enemy_army (Intimidation)
    if p1 is None:
        return need
    target = _enemy_army(b, row, p1, f"«{ability}»", players_only=True)
    if isinstance(target, OrderError):
        return target
    return {"target": {"faction": target, "army": p1}}, f"войско {b.who(target)} в провинции «{b.pname(p1)}»"


# -- the whole book -----------------------------------------------------------------------------------------

def _planning(b: Book, rows: list[Row], free_hire: bool) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """«Планирование» read row by row: the orders, and an error for each row that cannot be read."""
    items: list[dict[str, Any]] = []
    statuses: list[RowStatus] = []
    builds: set[tuple[str, str]] = set()
    for row in rows:
        try:
            order, status = _planning_row(b, row, builds, free_hire)
        except (KeyError, TypeError, ValueError) as exc:  # a safety net: a row never stops the others
            order, status = None, _bad(PLANNING, row, OrderError("E_INTERNAL", {"detail": type(exc).__name__}))
        statuses.append(status)
        if order is not None:
            items.append({"kind": "planning", "rows": [row.number], "order": order})
    return items, statuses


def _drop(statuses: list[RowStatus], errors: Mapping[tuple[str, int], OrderError]) -> list[RowStatus]:
    return [RowStatus(s.tab, s.number, (errors[(s.tab, s.number)],)) if (s.tab, s.number) in errors else s
            for s in statuses]


def validate(state: Mapping[str, Any], faction: str, stage: str, tabs: Mapping[str, list[Row]],
             free_hire: bool, index: Index | None = None) -> ParsedOrders:
    """Every order tab of one faction's book, in the order the turn runs them: the Planning rows (in row
    order), then the Campaign rows on the armies that Planning leaves (in the faction's «№» order), then
    «Мощь и магия». The faction's own part of the turn is run by the engine (engine.titania.forecast): an
    order it voids for the faction's own reasons is the row's error and is dropped, so the turn carries out
    every row called OK here unless another faction or a battle defeats it (reasons.EXTERNAL_CAUSES). A row
    that cannot be read gets its message; one bad row never cancels another. `index`: the state's Index,
    shared by the books of one check (built here when None)."""
    b = Book(state, faction, index=index)
    outlook = b.ix.outlook
    talks, st_diplomacy = diplomacy.parse(state, faction, [r for r in tabs.get(DIPLOMACY, []) if not r.is_blank()],
                                          b.ix.norm)
    planning, st_planning = _planning(b, [r for r in tabs.get(PLANNING, []) if not r.is_blank()], free_hire)
    learns = {int(item["rows"][0]): str(item["order"]["spell"]) for item in planning
              if item["order"].get("kind") == "learn"}
    seen = forecast.plan(outlook, faction, [*talks, *planning])
    if seen is not None:
        void = {(PLANNING, int(item["rows"][0])): got["error"] for item, got in zip(planning, seen.planning,
                                                                                 strict=True) if "error" in got}
        planning = [item for item in planning if (PLANNING, int(item["rows"][0])) not in void]
        st_planning = _drop(st_planning, void)
        learns_ok = {spell for row, spell in learns.items() if (PLANNING, row) not in void}
        learning: dict[str, int | None] = {spell: row for row, spell in learns.items() if spell not in learns_ok}
        learning.update(dict.fromkeys(learns_ok))
        w = seen.world
        b.after = {a.province: (a.strength, a.naval) for a in w.armies_of(faction)}
        b.food, b.squads = w.food(faction), w.squads(faction)
    else:  # a state the engine refuses: read the rows as typed, the turn will say what is wrong
        b.food = b.squads = 10 ** 6
        learning = dict.fromkeys(learns.values())
    lines, st_campaign = campaign_lines(b, [r for r in tabs.get(CAMPAIGN, []) if not r.is_blank()])
    might, st_might = parse_might(b, [r for r in tabs.get(MIGHT, []) if not r.is_blank()], learning)
    rejected: dict[tuple[str, int], OrderError] = {}
    settled = False  # the rows dropped so far change no other outcome: the orders are final
    while True:  # every round drops at least one row, so it ends
        campaign, st_orders = campaign_orders(b, lines, {r: e for (t, r), e in rejected.items() if t == CAMPAIGN})
        kept = [item for item in might if not any((MIGHT, r) in rejected for r in item["rows"])]
        orders = [*talks, *planning, *({"kind": "campaign", **item} for item in campaign), *kept]
        if settled or seen is None or not (campaign or kept):  # (or no forecast, or no row it could void)
            break
        full = forecast.again(outlook, seen, orders, first=not rejected)  # after the Planning above
        new = forecast.rejections(full, campaign, kept) if full is not None else {}
        fresh = new.keys() - rejected.keys()
        if not fresh:
            break
        # rows whose dropping changes no other outcome need no round to confirm it
        settled = full is not None and not outlook.confirm and forecast.inert(full, campaign, fresh)
        rejected.update(new)
    statuses = [*st_planning, *st_campaign, *st_orders, *_drop(st_might, rejected), *st_diplomacy]
    return ParsedOrders(faction, stage, tuple(orders), tuple(statuses))


def validate_books(state: Mapping[str, Any], stage: str, books: Mapping[str, Mapping[str, list[Row]]],
                   free_hire: Mapping[str, bool]) -> dict[str, ParsedOrders]:
    """`validate` for several factions' books of one state, which share one Index (read once)."""
    index = Index(state)
    return {f: validate(state, f, stage, tabs, free_hire[f], index) for f, tabs in books.items()}
