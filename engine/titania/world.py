"""The mutable working state of one adjudication (private to a single `adjudicate` call).

The situation is frozen; resolving a turn needs armies that move, lose Strength and carry flags (10.0),
so one `World` is built from the situation, changed step by step, and then turned into the outcome.
"""
from __future__ import annotations

import bisect
import copy
from typing import Any

from engine.rng import Random, stream
from engine.titania.board import NATIVES, Army, Effects, Task
from engine.titania.catalog import Catalog
from engine.titania.effects import Effect, total
from engine.titania.params import RESOURCES, Params
from engine.titania.races import RACES, Race
from engine.titania.situation import FactionSpec, Situation


def _uid(army: Army) -> int:
    return army.uid


def produces(catalog: Catalog, params: Params, building: str) -> dict[str, int]:
    """What one building yields at production (P5.1): the catalog's `produces`, else 1 unit (yield_per_building)
    of its v1 resource (G5 a, G92)."""
    d = catalog.buildings.get(building)
    if d is not None and d.produces is not None:
        return dict(d.produces)
    res = params.produces.get(building)
    return {res: params.yield_per_building} if res in RESOURCES else {}


def needs(catalog: Catalog, params: Params, building: str) -> str | None:
    """The deposit a building needs: the catalog's `needs` (null: none), else its v1 default (G92)."""
    d = catalog.buildings.get(building)
    if d is not None and d.needs_given:
        return d.needs
    return params.needs_deposit.get(building)


class Owners(dict[str, str | None]):
    """Province -> owner (None: nobody), which also keeps each owner's provinces at hand (`World.owned`: a
    look-up, not a pass over the map for every faction). Provinces are set one at a time (`w.owners[p] = f`);
    the mutators that would bypass the index are refused."""

    def __init__(self, owners: dict[str, str | None]) -> None:
        super().__init__(owners)
        self._order = {p: i for i, p in enumerate(owners)}  # map order, the order `owned` lists them in
        self._of: dict[str | None, set[str]] = {}
        for p, o in owners.items():
            self._of.setdefault(o, set()).add(p)
        self._own: set[str | None] = set(self._of)  # the owners whose set is this dict's alone (`copy` shares)

    def __setitem__(self, province: str, owner: str | None) -> None:
        if province not in self._order:
            raise KeyError(province)  # the map's provinces are fixed for the turn
        self._set_of(self[province]).discard(province)
        self._set_of(owner).add(province)
        super().__setitem__(province, owner)

    def _set_of(self, owner: str | None) -> set[str]:
        """The owner's provinces, to change: copied first while a copy of this dict shares them."""
        if owner not in self._own:
            self._of[owner] = set(self._of.get(owner, ()))
            self._own.add(owner)
        return self._of[owner]

    def owned(self, owner: str) -> list[str]:
        return sorted(self._of.get(owner, ()), key=self._order.__getitem__)

    def copy(self) -> Owners:
        """A copy to change on its own: the map order is shared (it never changes), and each owner's set of
        provinces too until one of the two changes it (copy on write, both ways)."""
        new = Owners.__new__(Owners)
        dict.update(new, self)
        new._order = self._order
        new._of = dict(self._of)
        new._own = set()
        self._own = set()
        return new

    def _refused(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("World.owners: set a province's owner with owners[province] = owner")

    __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refused


class World:
    """Armies, owners, buildings, natives, Bosses and resources while the turn is resolved."""

    def __init__(self, sit: Situation, seed: int | str) -> None:
        self.sit = sit
        self.map = sit.map
        self.params = sit.params
        self.seed = seed
        self.factions: dict[str, FactionSpec] = {f.id: f for f in sit.factions}
        self.races: dict[str, Race] = {f.id: RACES[f.race]() for f in sit.factions}
        self._owners = Owners({p: sit.owners.get(p) for p in self.map.provinces})
        self.owners: dict[str, str | None] = self._owners  # the same dict, seen as one (Board)
        self.buildings: dict[str, list[str]] = {p: list(sit.buildings.get(p, ())) for p in self.map.provinces}
        self.natives: dict[str, int] = dict(sit.natives)
        self.bosses: dict[str, int] = dict(sit.bosses)
        self.resources: dict[str, dict[str, int]] = {f.id: {r: f.resources.get(r, 0) for r in RESOURCES}
                                                     for f in sit.factions}
        self.armies: list[Army] = []
        self._armies_of: dict[str, list[Army]] = {}  # each faction's armies, in `armies` order
        self._armies_at: dict[str, list[Army]] = {}  # the armies in each province (`place` moves them), same order
        for a in sit.armies:
            self.add_army(a.faction, a.province, a.strength, a.naval)
        # armies that grew by a hire or arrived in a province since the Keepers last looked (campaign.keeper_watch):
        # (the army, its faction's Strength there just before)
        self.grown: list[tuple[Army, int]] = []
        self.protected: dict[str, str] = dict(sit.protected)
        self.protected_next: dict[str, str] = {}
        self.stolen_next: list[str] = []
        self.stolen: set[str] = set()
        self.keeper_trigger_used: set[str] = set(sit.keeper_trigger_used)
        self.captured_by: dict[str, str] = {}
        self.occupancy_changed: set[str] = set()
        self.native_free: set[str] = set()
        self.effects = Effects()
        self.abilities: dict[str, dict[str, Any]] = {}
        self.battles: list[dict[str, Any]] = []
        # for the Russian texts only, never in the output: the Boss fights (their `n`) and the orders (index,
        # part) whose attacking army did not survive the fight (it is destroyed, not retreated)
        self.fallen: set[int] = set()
        self.fallen_orders: set[tuple[int, int | None]] = set()
        self.rewards: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.tasks: list[Task] = []
        self.might: dict[str, int] = {}
        self.turn_order: list[str] = []
        # SCHEMA_V2: the catalog, technologies (active = in force), spells, items, events, quests, reveals
        ext = sit.ext
        self.catalog = ext.catalog
        self.turn = ext.turn
        self.known_techs: dict[str, list[str]] = {f.id: list(ext.technologies.get(f.id, ())) for f in sit.factions}
        self.active_techs: dict[str, list[str]] = {f: list(v) for f, v in self.known_techs.items()}
        self.known_spells: dict[str, list[str]] = {f.id: list(ext.spells.get(f.id, ())) for f in sit.factions}
        self.items: dict[str, list[str]] = {f.id: list(ext.items.get(f.id, ())) for f in sit.factions}
        self.active_events: list[dict[str, Any]] = [copy.deepcopy(dict(e)) for e in ext.events]
        self.quests: dict[str, dict[str, Any]] = {k: copy.deepcopy(dict(q)) for k, q in ext.quests.items()}
        self.spell_results: dict[str, list[dict[str, Any]]] = {}
        self.revealed: dict[str, dict[str, Any]] = {}
        self._fx_cache: dict[str, list[Effect]] = {}
        self.reveal_seen: dict[int, str] = {}  # army uid -> province already looked around from
        # «hidden» is ignored on a capital, a sea or a Boss province (SCHEMA_V2 §7)
        self.hidden: frozenset[str] = frozenset(p for p, info in self.map.provinces.items()
                                                if info.hidden and p not in sit.bosses)
        self.hidden_left: set[str] = set(self.hidden)

    # -- randomness: one stream per purpose and stable id (DESIGN: adding a battle changes no other dice)
    def rng(self, *stable_id: object) -> Random:
        return stream(self.seed, "titania", *stable_id)

    # -- factions
    def race(self, faction: str) -> Race:
        return self.races[faction] if faction in self.races else Race()

    def allied(self, f: str, g: str) -> bool:
        """Same faction or an official alliance (symmetric). Natives and Keepers have no allies."""
        if f == g:
            return f != NATIVES
        spec = self.factions.get(f)
        return spec is not None and g in spec.allies

    def faction_effects(self, faction: str) -> list[Effect]:
        """Permanent effects in force: technologies in effect and event debuffs on the faction."""
        cached = self._fx_cache.get(faction)
        if cached is not None:
            return cached
        out: list[Effect] = []
        techs = self.catalog.technologies
        for t in self.active_techs.get(faction, ()):
            out.extend(techs[t].effects)
        for e in self.active_events:  # G84: in force in every turn t with from <= t <= until
            if e.get("status") == "debuff" and faction in e.get("debuffed", ()) and (
                    self.turn is None or e.get("from", 0) <= self.turn <= e.get("until", self.turn)):
                out.extend(self.catalog.events[e["id"]].debuff)
        self._fx_cache[faction] = out
        return out

    def activate_techs(self) -> None:
        """P1.1, G73: at the start of the Campaign every technology known by then is in force (one won
        later, in the Campaign, is in force from the next turn, SCHEMA_V2 §13)."""
        self.active_techs = {f: list(v) for f, v in self.known_techs.items()}
        self.effects_changed()

    def effects_changed(self) -> None:
        """Technologies in effect or events in force changed: recompute the effects on demand."""
        self._fx_cache.clear()

    def limit(self, faction: str) -> int:
        spec = self.factions.get(faction)
        if spec is None:
            return 10 ** 6
        return max(1, spec.max_strength + total(self.faction_effects(faction), "max_strength"))

    def hire_cap(self, faction: str) -> int:
        return max(0, self.factions[faction].hire + total(self.faction_effects(faction), "hire"))

    def replenish_cap(self, faction: str) -> int:
        return max(0, self.factions[faction].replenish + total(self.faction_effects(faction), "replenish"))

    def deposits(self, province: str) -> frozenset[str] | None:
        """The province's deposits: revealed this turn, none while hidden, else the map's (None: any)."""
        if province in self.revealed:
            return frozenset(self.revealed[province]["deposits"])
        return frozenset() if province in self.hidden else self.map.provinces[province].deposits

    def is_shrine(self, province: str) -> bool:
        if province in self.revealed:
            return bool(self.revealed[province]["shrine"])
        return self.map.provinces[province].shrine and province not in self.hidden

    def has_market(self, province: str) -> bool:
        """A Keeper's Market (SCHEMA_V2 §13): the map's `market` feature, or a `market` building there."""
        return self.map.provinces[province].market or "market" in self.buildings[province]

    # -- buildings (SCHEMA_V2 §9, default G92: a catalog field replaces that field's v1 default)
    def produces(self, building: str) -> dict[str, int]:
        return produces(self.catalog, self.params, building)

    def building_food(self, building: str) -> int:
        d = self.catalog.buildings.get(building)
        if d is not None and d.food is not None:
            return d.food
        return self.params.farm_food if building == "farm" else 0

    def needs(self, building: str) -> str | None:
        return needs(self.catalog, self.params, building)

    def building_effects(self, building: str) -> tuple[Effect, ...]:
        d = self.catalog.buildings.get(building)
        return d.effects if d is not None else ()

    def owned(self, faction: str) -> list[str]:
        """The faction's provinces, in map order."""
        return self._owners.owned(faction)

    def borders(self, f: str, g: str) -> bool:
        """Some province of f is adjacent to some province of g."""
        mine = set(self.owned(f))
        return any(n in mine for p in self.owned(g) for n in self.map.neighbours(p))

    def players(self) -> list[str]:
        return [f.id for f in self.sit.factions if not f.is_keeper]

    def squads(self, faction: str) -> int:
        return len({a.province for a in self._of(faction) if a.alive})

    def food(self, faction: str) -> int:
        """Food capacity (G35 a): fixed in the file, or capitals + farms + the racial extra."""
        spec = self.factions[faction]
        bonus = total(self.faction_effects(faction), "food")
        if spec.food is not None:
            return max(0, spec.food + bonus)
        p = self.params
        food = 0
        for prov in self.owned(faction):
            if self.map.provinces[prov].capital:
                food += p.capital_food
            for b in self.buildings[prov]:
                food += self.building_food(b)
        return max(0, food + self.race(faction).extra_food * p.skaven_food + bonus)

    def shrines(self, faction: str) -> int:
        return sum(1 for p in self.owned(faction) if self.is_shrine(p))

    # -- armies (every reading and change of the armies by faction and by province goes through `_of` and `_at`,
    # which engine.titania.fork.Fork, a copy-on-write world, overrides)
    def _of(self, faction: str) -> list[Army]:
        """The faction's armies, dead ones too, in `armies` order (the list itself)."""
        got = self._armies_of.get(faction)
        if got is None:
            got = self._armies_of[faction] = []
        return got

    def _at(self, province: str) -> list[Army]:
        """The armies in the province, dead ones too, in `armies` order (the list itself)."""
        got = self._armies_at.get(province)
        if got is None:
            got = self._armies_at[province] = []
        return got

    def add_army(self, faction: str, province: str, strength: int, naval: bool = False) -> Army:
        army = Army(len(self.armies) + 1, faction, province, strength, naval, province)
        self.armies.append(army)
        self._of(faction).append(army)
        self._at(province).append(army)
        return army

    def alive(self) -> list[Army]:
        return [a for a in self.armies if a.alive]

    def lookers(self) -> list[Army]:
        """The armies alive that may not yet have looked around from where they stand (reveal_near_armies
        checks each), in `armies` order: here every one alive."""
        return self.alive()

    def armies_of(self, faction: str) -> list[Army]:
        """The faction's armies still alive, in `armies` order."""
        return [a for a in self._of(faction) if a.alive]

    def armies_in(self, province: str) -> list[Army]:
        return [a for a in self._at(province) if a.alive]

    def own_army(self, faction: str, province: str, exclude: Army | None = None) -> Army | None:
        return next((a for a in self._of(faction) if a.province == province and a.alive
                     and a is not exclude), None)

    def strength_in(self, faction: str, province: str) -> int:
        """The faction's own base Strength in the province: its armies there (split parts included)."""
        return sum(a.strength for a in self._at(province) if a.faction == faction and a.alive)

    def army_at_start(self, faction: str, province: object) -> Army | None:
        """The faction's army that started the Campaign in `province` (first part after a split)."""
        return next((a for a in self._of(faction) if a.start == province and a.alive), None)

    def hostile_present(self, faction: str, province: str) -> bool:
        if self.natives.get(province, 0) > 0 or province in self.bosses:
            return True
        return any(not self.allied(faction, a.faction) for a in self.armies_in(province))

    def cancel(self, army: Army, reason: str) -> None:
        """C12.2: all orders of the army for this Campaign are cancelled."""
        army.cancelled = army.cancelled or reason
        task = army.task
        if task is None or task.outcome is not None:
            return
        if task.type == "move":
            task.settle("cancelled", reason)
        elif task.type == "support":
            for offer in task.offers:
                if offer.state == "pending":
                    offer.state = "cancelled"
                    offer.reason = reason

    def destroy(self, army: Army) -> None:
        army.strength = 0
        self.occupancy_changed.add(army.province)

    def place(self, army: Army, province: str, limit: int) -> int:
        """Move (or retreat) an army into a province; it merges into the own army already there (which keeps
        its order: a support it gives becomes `engaged` if the newcomer moved). Returns the Strength trimmed."""
        self.occupancy_changed.update({army.province, province})
        before = self.strength_in(army.faction, province)  # the army is not there yet (never placed where it is)
        self._at(army.province).remove(army)
        bisect.insort(self._at(province), army, key=_uid)
        army.province = province
        other = self.own_army(army.faction, province, exclude=army)
        if other is None:
            trimmed = max(0, army.strength - limit)
            army.strength -= trimmed
            self.grew(army, before)
            return trimmed
        total = army.strength + other.strength
        trimmed = max(0, total - limit)
        self.grew(other, before)
        other.strength = total - trimmed
        other.moved = other.moved or army.moved
        army.strength = 0
        return trimmed

    def grew(self, army: Army, before: int) -> None:
        """The army grew (a hire, a spell) or arrived (a move, a merge, a retreat, a racial move); `before`: its
        faction's Strength in that province just before."""
        self.grown.append((army, before))

    def effect_owner(self, kind: str, key: str | int) -> str | None:
        return self.effects.owner_of.get((kind, key))

    def fire(self, kind: str, key: str | int) -> None:
        """Mark the ability behind an effect as fired (SCHEMA §2 abilities.fired)."""
        owner = self.effect_owner(kind, key)
        if owner is not None and owner in self.abilities:
            self.abilities[owner]["fired"] = True
