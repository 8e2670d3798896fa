"""The race hook class: declarative passive numbers plus small hooks for the active ability.

The adjudicator reads these attributes and calls these hooks; it never asks which race a faction is.
A hook returns a reason code from `engine.titania.reasons` (or None when the target is legal).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.titania.board import Army, Board

# Orc Plunder (ruling T4-8 a): «по 1 единице каждого ресурса, добываемого в этой провинции» — the resources a
# building extracts; never Influence (a province's, not extracted), Food (a capacity) or Might (Shrines)
PLUNDERED = ("gold", "wood", "stone", "mana")


def lower_by_one(n: int) -> int:
    """«скидкой 1 …, но не менее одного» (default G74, G48 a): n >= 2 -> n - 1; 1 stays 1; 0 stays 0."""
    return n - 1 if n >= 2 else n


class Race:
    """Defaults: a race with no passive effect and no active ability."""

    key: ClassVar[str] = ""
    name: ClassVar[str] = "без расы"
    ability: ClassVar[str] = ""  # Russian name of the active ability
    is_trigger: ClassVar[bool] = True  # the ability waits for an event (SCHEMA §2 abilities.fired)
    ability_reads_orders: ClassVar[bool] = False  # the ability's check counts the faction's Campaign orders
    ability_wards: ClassVar[bool] = False  # the ability wards its {"province": P} (High elves; ruling T4-2)
    ability_moves: ClassVar[bool] = False  # the ability moves its squad, after the step's stops (Wood elves; T4-3)

    # -- turn order and Planning
    first_on_equal_might: ClassVar[bool] = False  # Orcs, Military life (G13 a)
    extra_food: ClassVar[int] = 0  # Skaven, We are legion (times params.skaven_food)
    free_hire: ClassVar[int] = 0  # Skaven, Rat swarm (G60 a)
    building_discount: ClassVar[Mapping[str, int]] = {}  # building -> Influence off (G70 a, floor 0)
    tech_needs_might: ClassVar[bool] = True  # Chaos dwarfs, Dark technologies: False (G76: only Might)
    research_discounts: ClassVar[tuple[str, ...]] = ()  # resources a research order may name (Lizardmen, G75)

    # -- battle totals (G22 a: modifiers, never damage)
    attack_bonus_unsupported: ClassVar[int] = 0  # Beastmen, Brutality (not vs natives)
    attacker_penalty_on_own_land: ClassVar[int] = 0  # Fauns, Wrath of the forest
    enemy_support_penalty: ClassVar[int] = 0  # Undead, March of the dead (when attacking)
    defence_support_bonus: ClassVar[int] = 0  # High elves, Defenders of Ulthuan (per supporting squad)
    bonus_against_support: ClassVar[int] = 0  # Chaos dwarfs, Hobgoblin raid
    adaptability: ClassVar[int] = 0  # Humans: +1 when the opposing total is exactly 1 greater (G50 a)
    wins_ties_on_own_land: ClassVar[bool] = False  # Wood elves, Keepers of the grove (G54 a)

    # -- damage
    no_draw_losses: ClassVar[bool] = False  # Dwarfs, resilience (G52 a)
    attack_damage_bonus: ClassVar[int] = 0  # Dark elves, Ferocity (G57 a)
    damage_reduction: ClassVar[int] = 0  # Lizardmen, Thick hides (not vs natives, G64 a)
    trap_damage: ClassVar[int] = 0  # Goblins: attackers of goblin provinces take this damage (G68 a)

    # -- capture
    keeps_buildings: ClassVar[bool] = False  # Fauns, Harmony with nature
    capture_garrison: ClassVar[int] = 0  # Fauns: garrison on capture, not in native provinces (G65 a)
    plunder: ClassVar[int] = 0  # Orcs: units of each resource extracted in a captured province (G59 a)

    def research_cost(self, cost: Mapping[str, int], discount: str | None) -> dict[str, int]:
        """A technology's catalog cost after the race's research rule (SCHEMA_V2 §3); `discount` is the
        order's named resource (Lizardmen). Default: no discount."""
        return dict(cost)

    def spell_cost(self, cost: Mapping[str, int]) -> dict[str, int]:
        """A spell's learning or casting cost after the race's rule (only the High elves have one, G78)."""
        return dict(cost)

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        """Validate the target spec of the active ability (before anything is paid)."""
        return "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        """Apply the ability (immediate effect, or register its trigger) before any move (10.3.3)."""

    def on_capture(self, w: Board, faction: str, province: str, army: Army | None, from_natives: bool) -> None:
        """After the faction captured a province (by battle or by entering it)."""
        if self.plunder:  # G59 a, ruling T4-8 a: Gold, Wood, Stone, Mana a building there produces
            extracted = sorted({r for b in w.buildings[province] for r, n in w.produces(b).items()
                                if n > 0 and r in PLUNDERED}, key=PLUNDERED.index)
            for res in extracted:
                w.resources[faction][res] += self.plunder
                w.events.append({"kind": "plunder", "faction": faction, "province": province,
                                 "resource": res, "amount": self.plunder})
        if self.capture_garrison and not from_natives:
            if army is not None and army.alive and army.province == province:
                army.strength = min(w.limit(faction), army.strength + self.capture_garrison)
            elif w.squads(faction) < w.food(faction):
                w.add_army(faction, province, self.capture_garrison)
            w.events.append({"kind": "garrison", "faction": faction, "province": province})


# -- target helpers shared by the race modules -----------------------------------------------------------

def own_army(w: Board, faction: str, spec: Mapping[str, Any]) -> Army | None:
    """{"army": P}: the faction's army that starts the Campaign in P."""
    return w.army_at_start(faction, spec.get("army"))


def own_province(w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
    """{"province": P} where P is owned by the faction."""
    p = spec.get("province")
    return p if isinstance(p, str) and w.owners.get(p) == faction else None


def any_province(w: Board, spec: Mapping[str, Any]) -> str | None:
    p = spec.get("province")
    return p if isinstance(p, str) and p in w.map.provinces else None
