"""What a Titania faction book's rows are read against: the state's names, neighbours, armies and what each
faction sees, read once per state (`Index`, shared by the books of one check), and one faction's view of it
(`Book`): its provinces, its armies when the Campaign starts, the names it may type. The order tabs' readers
(engine.titania.book_orders, campaign_rows, might_rows, caravan_rows, diplomacy) all read through it.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

import engine.titania.codes  # noqa: F401  (defines the T_* codes)
from engine.cells import normalize_name
from engine.errors import OrderError, allowed_list
from engine.numbers import echo
from engine.ruleset import Row, RowStatus
from engine.titania import forecast
from engine.titania.data import TitaniaData, content_of, default_data
from engine.titania.names import who_of
from engine.titania.params import default_params, override
from engine.titania.state_types import Army, TitaniaState


class Index:
    """What every book of one game state reads the same way, built once for a check of all the books (or of
    one) and passed to each: names, the neighbours of each province, each faction's armies and provinces, the
    game's params, and the state as the engine reads it for the forecasts (`outlook`). Only read after it is
    built; a new state needs a new Index."""

    def __init__(self, state: TitaniaState) -> None:
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
        self.armies: dict[str, dict[str, Army]] = {}  # faction -> province -> army (the state's)
        self.armies_in: dict[str, list[Army]] = {}  # province -> armies there, in the state's order
        for army in state["armies"]:
            self.armies.setdefault(army["faction"], {})[army["province"]] = army
            self.armies_in.setdefault(army["province"], []).append(army)
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
        self._once: dict[str, Any] = {}
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
        if got is None:  # engine.titania.fog.sight, from what the Index keeps by faction: its provinces, armies
            base = {*self._owned.get(faction, ()), *self.armies.get(faction, {})}
            got = self._sight[faction] = base | {n for p in base for n in self._near.get(p, ())}
        return got

    def once(self, key: str, make: Callable[[], Any]) -> Any:
        """What `make` gives, made once for this state (a table every book reads the same)."""
        if key not in self._once:
            self._once[key] = make()
        return self._once[key]

    def every(self) -> list[str]:
        """Every province of the map, by name."""
        if self._every is None:
            self._every = sorted(self.state["map"]["provinces"], key=self.pnames.__getitem__)
        return self._every

    @property
    def outlook(self) -> forecast.Outlook:
        if self._outlook is None:
            self._outlook = forecast.Outlook(self.state, seen=self.sight)
        return self._outlook


@dataclass
class Book:
    """What the parser knows of the game for one faction: names and who owns what at the start (read through
    the state's Index, built here when none is given)."""

    state: TitaniaState
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

    def armies(self) -> dict[str, Army]:
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
        """`lookup` with the Index's normalised names."""
        return lookup(text, table, self.ix.norm)

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


def ok_status(tab: str, row: Row, note: str) -> RowStatus:
    return RowStatus(tab, row.number, note=note)


def bad_status(tab: str, row: Row, err: OrderError) -> RowStatus:
    return RowStatus(tab, row.number, (err,))


def lookup(text: str, table: Mapping[str, str], norm: Callable[[str], str] = normalize_name) -> str | None:
    """The first key of `table` whose value or key reads as `text` (normalised)."""
    return _inverse(tuple(table.items())).get(norm(text))


@lru_cache(maxsize=512)  # the tables of a few states at a time (known technologies and spells vary)
def _inverse(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Normalised value or key -> the first key with it, for `lookup` (each table normalised once)."""
    out: dict[str, str] = {}
    for k, v in items:
        out.setdefault(normalize_name(v), k)
        out.setdefault(normalize_name(k), k)
    return out


@cache
def words(words: tuple[str, ...]) -> frozenset[str]:
    """The normalised forms of fixed words (the actions, the orders)."""
    return frozenset(normalize_name(w) for w in words)


def data(state: TitaniaState | None = None) -> TitaniaData:
    """The game's content (engine.titania.data.content_of; the shipped content without a state)."""
    return content_of(state) if state is not None else default_data()


def open_events(state: TitaniaState) -> list[tuple[str, str]]:
    """(id, Russian name) of the events open for contributions."""
    events = data(state).events
    return [(str(e["id"]), events[e["id"]].name) for e in state.get("active_events", [])
            if e.get("status") == "open" and e.get("id") in events
            and events[e["id"]].goal.get("type") == "contribute"]
