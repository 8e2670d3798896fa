"""Typed effects of technologies, spells, event debuffs and buildings (SCHEMA_V2 §1, §4, §9).

The engine implements effect *types*; which technology, spell or event carries which effect is data.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

RESOURCES = ("gold", "wood", "influence", "stone", "mana")
PERMANENT = ("max_strength", "hire", "replenish", "food", "production", "battle_modifier")
SPELL_EFFECTS = ("battle_modifier", "damage", "stop", "reinforce", "gain", "ward")
TARGETS = ("own_army", "enemy_army", "own_province", "none")
WHEN = ("attack", "defence", "any")
BUILDING_EFFECTS = ("defence",)


@dataclass(frozen=True)
class Effect:
    """One typed effect: `type` with its `value` and the optional resource, building and battle role."""

    type: str
    value: int = 0
    resource: str | None = None
    building: str | None = None
    when: str = "any"


def total(effects: Iterable[Effect], kind: str) -> int:
    """The sum of the values of one simple effect type (max_strength, hire, replenish, food)."""
    return sum(e.value for e in effects if e.type == kind)


def battle_bonus(effects: Iterable[Effect], role: str) -> int:
    """The battle modifier for an army fighting as `attack` or `defence` (G22 a: totals only)."""
    return sum(e.value for e in effects if e.type == "battle_modifier" and e.when in (role, "any"))


def production(effects: Iterable[Effect], buildings: Iterable[str]) -> dict[str, int]:
    """Extra production (P5.1): per owned building of the named type, or flat when none is named."""
    counts: dict[str, int] = {}
    for b in buildings:
        counts[b] = counts.get(b, 0) + 1
    out: dict[str, int] = {}
    for e in effects:
        if e.type != "production" or e.resource is None:
            continue
        n = e.value * (counts.get(e.building, 0) if e.building is not None else 1)
        out[e.resource] = out.get(e.resource, 0) + n
    return out

