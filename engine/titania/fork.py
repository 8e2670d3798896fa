"""Many worlds from one: a start of the turn built once, and a cheap copy of it for each forecast.

engine.titania.forecast runs every faction's own part of the turn at `check` on the whole world. Building that
world (every army, province and purse) and running the start of the turn for each faction would cost the number
of factions times the map; instead the forecasts share one `Template` and each runs on its own `Fork` of it.

A fork copies at once what is small or changed as a whole (owners, buildings, purses, natives, the lists by
faction) and the armies only when read: an army the fork reaches (by faction or by province: World's `_of` and
`_at`, which every reading and change of the armies goes through) is copied then, with the lists that hold it,
so the template's armies are never changed and an army the fork never reached is as the template has it. What
the fork does is then what the same steps do on a whole new world built and run to the same point.
Pure: nothing is kept between calls but in the objects themselves.
"""
from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterator, Mapping
from typing import Any, TypeVar

from engine.titania.board import Army, Effects
from engine.titania.world import World

K = TypeVar("K")
V = TypeVar("V")


class CopyOnRead(dict[K, V]):
    """A dict of the template's values (lists, dicts), each copied at its first reading: what is read may be
    changed, and only the copy is. The keys are the template's (fixed); every reading copies, a whole-dict
    reading copies everything left; the changes that would bypass it are refused."""

    def __init__(self, base: Mapping[K, V], copier: Callable[[V], V]) -> None:
        super().__init__()
        self._base = base
        self._copier = copier

    def __missing__(self, key: K) -> V:
        got = self._copier(self._base[key])  # KeyError when the template has no such key
        dict.__setitem__(self, key, got)
        return got

    def _whole(self) -> None:
        for key in self._base:
            if not dict.__contains__(self, key):
                self.__missing__(key)

    def __setitem__(self, key: K, value: V) -> None:
        if key not in self._base:
            raise KeyError(key)
        dict.__setitem__(self, key, value)

    def __contains__(self, key: object) -> bool:
        return key in self._base

    def __len__(self) -> int:
        return len(self._base)

    def __iter__(self) -> Iterator[K]:
        return iter(self._base)

    def get(self, key: K, default: Any = None) -> Any:
        return self[key] if key in self._base else default

    def copied(self) -> dict[K, V]:
        """The values copied so far (read, maybe changed)."""
        return dict(super().items())

    def keys(self) -> Any:
        self._whole()
        return super().keys()

    def values(self) -> Any:
        self._whole()
        return super().values()

    def items(self) -> Any:
        self._whole()
        return super().items()

    def __eq__(self, other: object) -> bool:
        self._whole()
        return super().__eq__(other)

    __hash__ = None

    def _refused(self, *args: object, **kwargs: object) -> Any:
        raise TypeError("a fork's dict of the template's values: set one key at a time")

    __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = __or__ = copy = _refused


def plain_copy(value: Any) -> Any:
    """copy.deepcopy of plain data (dicts, lists, tuples, text, numbers), in a fraction of its time; anything else
    goes to copy.deepcopy."""
    if isinstance(value, dict):
        return {k: plain_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_copy(v) for v in value]
    if value is None or isinstance(value, str | int | float):
        return value
    if isinstance(value, tuple):
        return tuple(plain_copy(v) for v in value)
    return copy.deepcopy(value)


def _army_copy(army: Army) -> Army:
    """copy.copy of an army, without its generic machinery."""
    got = Army.__new__(Army)
    got.__dict__.update(army.__dict__)
    return got


def data_copy(value: Any) -> Any:
    """copy.deepcopy of data that pickles (the orders: dicts, lists, text, numbers), by a round trip through
    pickle, which is several times faster; anything else goes to `plain_copy`."""
    try:
        return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return plain_copy(value)


class Template:
    """A world to fork: not changed after it is made (`fork` gives each user its own copy to change). Made before
    any Campaign order is registered (an army's task would be shared)."""

    def __init__(self, world: World) -> None:
        if isinstance(world, Fork) or world.tasks:
            raise ValueError("a template is a whole world before the Campaign's orders")
        self.world = world
        # the armies that would look around at the next reveal (reveal_near_armies): alive, of a player, and not
        # yet looked from where they stand; every other army of the template needs no look until it changes
        self.looking: tuple[int, ...] = tuple(
            a.uid for a in world.armies if a.alive and (spec := world.factions.get(a.faction)) is not None
            and not spec.is_keeper and world.reveal_seen.get(a.uid) != a.province)

    def fork(self) -> World:
        return Fork(self)


class Fork(World):
    """A copy of a Template's world that copies an army on its first reading (see the module). It has no
    `armies` list: `alive` copies every army, `lookers` only those a reveal needs."""

    def __init__(self, template: Template) -> None:
        """A fork of the template: nothing built afresh."""
        base = template.world
        self._template = template
        self._base_armies = base.armies
        self._base_of = base._armies_of
        self._base_at = base._armies_at
        self._base_count = len(base.armies)
        self._copies: dict[int, Army] = {}  # uid -> this fork's copy of the template's army
        self._new: list[Army] = []  # armies added in the fork, in order (uids from the template's count on)
        self._armies_of = {}
        self._armies_at = {}
        self._count = self._base_count
        self.grown = [(self._mine(a), n) for a, n in base.grown]
        self.sit, self.map, self.params, self.seed = base.sit, base.map, base.params, base.seed
        self.factions, self.races = base.factions, base.races  # never changed (a race keeps no state)
        self.catalog, self.turn, self.hidden = base.catalog, base.turn, base.hidden
        self._owners = base._owners.copy()
        self.owners = self._owners
        self.buildings = CopyOnRead(base.buildings, list)
        self.natives = dict(base.natives)
        self.bosses = dict(base.bosses)
        self.resources = CopyOnRead(base.resources, dict)
        self.protected = dict(base.protected)
        self.protected_next = dict(base.protected_next)
        self.stolen_next = list(base.stolen_next)
        self.stolen = set(base.stolen)
        self.keeper_trigger_used = set(base.keeper_trigger_used)
        self.captured_by = dict(base.captured_by)
        self.occupancy_changed = set(base.occupancy_changed)
        self.native_free = set(base.native_free)
        self.effects = Effects(**{k: v.copy() for k, v in vars(base.effects).items()})  # dicts and sets of ids
        self.abilities = plain_copy(base.abilities)
        self.battles = plain_copy(base.battles)
        self.fallen = set(base.fallen)
        self.fallen_orders = set(base.fallen_orders)
        self.rewards = list(base.rewards)  # records are added, never changed
        self.events = list(base.events)
        self.tasks = []
        self.might = dict(base.might)
        self.turn_order = list(base.turn_order)
        self._base_known = base.known_techs
        self.known_techs = CopyOnRead(base.known_techs, list)
        self.active_techs = CopyOnRead(base.active_techs, list)
        self.known_spells = CopyOnRead(base.known_spells, list)
        self.items = CopyOnRead(base.items, list)
        self.active_events = data_copy(base.active_events)
        self.quests = data_copy(base.quests)
        self.spell_results = plain_copy(base.spell_results)
        self.revealed = dict(base.revealed)  # a record is replaced, never changed
        self._fx_cache = dict(base._fx_cache)  # the lists are only read
        self.reveal_seen = dict(base.reveal_seen)
        self.hidden_left = set(base.hidden_left)

    def _mine(self, army: Army) -> Army:
        """This fork's copy of a template's army (the same one every time)."""
        got = self._copies.get(army.uid)
        if got is None:
            got = self._copies[army.uid] = _army_copy(army)
        return got

    def _of(self, faction: str) -> list[Army]:
        got = self._armies_of.get(faction)
        if got is None:
            got = self._armies_of[faction] = [self._mine(a) for a in self._base_of.get(faction, ())]
        return got

    def _at(self, province: str) -> list[Army]:
        got = self._armies_at.get(province)
        if got is None:
            got = self._armies_at[province] = [self._mine(a) for a in self._base_at.get(province, ())]
        return got

    def add_army(self, faction: str, province: str, strength: int, naval: bool = False) -> Army:
        self._count += 1
        army = Army(self._count, faction, province, strength, naval, province)
        self._new.append(army)
        self._of(faction).append(army)
        self._at(province).append(army)
        return army

    def activate_techs(self) -> None:
        """World.activate_techs: every faction's known technologies in force, copied as they are now (a faction
        whose known ones the fork never read has the template's)."""
        active = CopyOnRead(self._base_known, list)
        known = self.known_techs
        for f, techs in (known.copied() if isinstance(known, CopyOnRead) else known).items():
            active[f] = list(techs)
        self.active_techs = active
        self.effects_changed()

    def alive(self) -> list[Army]:
        return [a for a in (*map(self._mine, self._base_armies), *self._new) if a.alive]

    def lookers(self) -> list[Army]:
        """The template's armies that would look at its next reveal and every army this fork reached or added:
        an army it never reached is as in the template, where it needs no look."""
        uids = sorted({*self._copies, *self._template.looking})
        return [a for a in (*(self._mine(self._base_armies[u - 1]) for u in uids), *self._new) if a.alive]
