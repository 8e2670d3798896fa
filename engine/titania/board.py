"""What an adjudication's working state is made of, and the part of it a race's hooks see (ground floor).

`World` (engine.titania.world) holds the armies, tasks, offers and registered effects below and builds each
faction's `Race`; a race's hooks (engine.titania.races) read and change that state only through `Board`,
the surface declared here, so the races never need the world's module and the world may hold the races.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.titania.map import TitaniaMap

NATIVES = "natives"


@dataclass(eq=False)
class Army:
    """An army: a squad of one faction in one province (10.0)."""

    uid: int
    faction: str
    province: str
    strength: int
    naval: bool
    start: str
    bonus: int = 0  # Might and Grungni points for this Campaign (G9 a): totals and support value only
    moved: bool = False
    attacked: bool = False
    was_attacked: bool = False
    supports: int = 0
    first_support: int = 0  # what its first support added (Strength + bonus), for the Tactics half (T4-1)
    cancelled: str | None = None
    battles: int = 0
    retreated: bool = False
    task: Task | None = None

    @property
    def alive(self) -> bool:
        return self.strength > 0


@dataclass(eq=False)
class Offer:
    """A standing support offer (10.3.4): (province, supported faction)."""

    task: Task
    target: str
    faction: str
    second: bool = False
    state: str = "pending"  # pending | counted | void | cancelled
    reason: str | None = None


@dataclass(eq=False)
class Task:
    """One order of one army (a split part is its own task, G16 a)."""

    index: int
    part: int | None
    faction: str
    type: str
    army: Army | None
    target: str | None = None
    seq: float = math.inf
    outcome: str | None = None
    reason: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    offers: list[Offer] = field(default_factory=list)

    def settle(self, outcome: str, reason: str) -> None:
        self.outcome, self.reason = outcome, reason


@dataclass
class Effects:
    """Registered ability effects (10.3.3), each an effect type, keyed by province or army uid."""

    wards: dict[str, str] = field(default_factory=dict)  # province -> warding faction
    no_support: dict[str, str] = field(default_factory=dict)  # province -> faction whose attacks get none
    followup: dict[int, tuple[str, str]] = field(default_factory=dict)  # army uid -> two provinces
    no_loss_retreat: set[int] = field(default_factory=set)  # army uids (lose an attack: no losses)
    recover: set[int] = field(default_factory=set)  # army uids (recover a third of first losses)
    defeat_is_victory: dict[str, str] = field(default_factory=dict)  # province -> protected faction
    protect_if_captured: dict[str, str] = field(default_factory=dict)  # province -> faction
    support_anywhere: set[int] = field(default_factory=set)
    double_support: set[int] = field(default_factory=set)
    owner_of: dict[tuple[str, str | int], str] = field(default_factory=dict)  # (kind, key) -> faction


class Board(Protocol):
    """The working state as a race's hooks use it (World implements it)."""

    map: TitaniaMap
    owners: dict[str, str | None]
    buildings: dict[str, list[str]]
    resources: dict[str, dict[str, int]]
    effects: Effects
    abilities: dict[str, dict[str, Any]]
    events: list[dict[str, Any]]
    tasks: list[Task]
    stolen_next: list[str]

    def allied(self, f: str, g: str) -> bool: ...

    def borders(self, f: str, g: str) -> bool: ...

    def limit(self, faction: str) -> int: ...

    def food(self, faction: str) -> int: ...

    def squads(self, faction: str) -> int: ...

    def produces(self, building: str) -> dict[str, int]: ...

    def hostile_present(self, faction: str, province: str) -> bool: ...

    def own_army(self, faction: str, province: str, exclude: Army | None = None) -> Army | None: ...

    def army_at_start(self, faction: str, province: object) -> Army | None: ...

    def add_army(self, faction: str, province: str, strength: int, naval: bool = False) -> Army: ...

    def place(self, army: Army, province: str, limit: int) -> int: ...

    def grew(self, army: Army, before: int) -> None: ...

    def cancel(self, army: Army, reason: str) -> None: ...
