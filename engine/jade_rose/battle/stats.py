"""Battle statistics of one unit type, built from a UnitDef (or a mapping of the same shape)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Ability keys of data/SCHEMA.md that the battle engine implements.
KNOWN_ABILITIES = frozenset({
    "can_charge", "charge_bonus_pct", "ranged", "area_ranged", "area_melee", "pierce_min", "pierce_scope",
    "squad_outgoing_pct", "squad_incoming_pct", "squad_shot_bonus_pct", "enemy_outgoing_pct",
    "enemy_melee_outgoing_pct",
    "melee_taken_pct", "ranged_taken_pct", "anti_charge_taken_pct", "defending_taken_pct", "regen",
    "attacks_per_pick", "heal_self_on_attack", "strip_defense", "healer", "squad_heal", "runes",
    "grow_attack_when_hurt", "breath", "free_move", "no_manoeuvres", "one_per_squad", "excludes_in_squad",
    "faction_limit",
})


@dataclass(frozen=True)
class Area:
    """Area hits: round_half_up(pct × living targets) distinct units, clamped to [min, max]."""

    pct: int
    min: int
    max: int

    def hits(self, living: int) -> int:
        n = (self.pct * living * 2 + 100) // 200
        return max(min(n, self.max, living), min(self.min, living))


@dataclass(frozen=True)
class UnitStats:
    key: str
    faction: str
    name: str
    attack: int
    hp: int
    defense: int
    jade_creature: bool = False
    can_charge: bool = False
    charge_bonus_pct: int = 0
    ranged_damage: int = 0
    shots: int = 0
    long_range: bool = False
    area_ranged: Area | None = None
    area_melee: Area | None = None
    pierce_min: int = 0
    pierce_scope: str = "all"
    squad_outgoing_pct: int = 0
    squad_incoming_pct: int = 0
    squad_shot_bonus_pct: int = 0
    enemy_outgoing_pct: int = 0         # every attack of the enemy on its squad, shots included (beer elemental)
    enemy_melee_outgoing_pct: int = 0   # the enemy squad's melee against its squad only (the lord's fear)
    melee_taken_pct: int = 0
    ranged_taken_pct: int = 0
    anti_charge_taken_pct: int = 0
    defending_taken_pct: int = 0
    regen: int = 0
    attacks_per_pick: int = 1
    heal_self_on_attack: int = 0
    strip_defense: int = 0
    healer_total: int = 0
    healer_rounds: int = 0
    squad_heal: int = 0
    runes: bool = False
    grow_attack_when_hurt: int = 0
    breath_now: int = 0
    breath_next: int = 0
    breath_every: int = 0
    free_move: bool = False
    no_manoeuvres: bool = False
    one_per_squad: bool = False
    excludes_in_squad: tuple[str, ...] = ()
    faction_limit: int = 0

    @property
    def shooter(self) -> bool:
        return self.ranged_damage > 0

    @property
    def healer(self) -> bool:
        return self.healer_rounds > 0

    def pierce(self, ranged: bool) -> int:
        """Armour-piercing minimum for a melee attack or a shot (JR-31)."""
        if self.pierce_min and (self.pierce_scope == "all" or ranged):
            return self.pierce_min
        return 0

    def can(self, manoeuvre: str) -> bool:
        """Whether this unit may take part in a special manoeuvre."""
        if manoeuvre == "charge":
            return self.can_charge
        if manoeuvre == "bombard":     # the engineer does not stop its squad from bombarding (JR-44)
            return self.shooter or self.squad_shot_bonus_pct > 0
        if manoeuvre == "long_range_bombard":
            return self.shooter and self.long_range or self.squad_shot_bonus_pct > 0
        if manoeuvre == "free_move":
            return self.free_move
        return True

    @classmethod
    def from_def(cls, unit: Any) -> UnitStats:
        """From a data UnitDef (attributes) or a mapping with the units.toml fields plus `key`."""
        get: Callable[..., Any] = unit.get if isinstance(unit, Mapping) else (lambda k, d=None: getattr(unit, k, d))
        ab = dict(get("abilities", None) or {})
        ranged = ab.get("ranged") or {}
        healer = ab.get("healer") or {}
        breath = ab.get("breath") or {}
        return cls(
            key=str(get("key")), faction=str(get("faction")), name=str(get("name")),
            attack=int(get("attack")), hp=int(get("hp")), defense=int(get("defense")),
            jade_creature=bool(get("jade_creature", False)),
            can_charge=bool(ab.get("can_charge", False)),
            charge_bonus_pct=int(ab.get("charge_bonus_pct", 0)),
            ranged_damage=int(ranged.get("damage", 0)), shots=int(ranged.get("shots", 0)),
            long_range=bool(ranged.get("long_range", False)),
            area_ranged=_area(ab.get("area_ranged")), area_melee=_area(ab.get("area_melee")),
            pierce_min=int(ab.get("pierce_min", 0)), pierce_scope=str(ab.get("pierce_scope", "all")),
            squad_outgoing_pct=int(ab.get("squad_outgoing_pct", 0)),
            squad_incoming_pct=int(ab.get("squad_incoming_pct", 0)),
            squad_shot_bonus_pct=int(ab.get("squad_shot_bonus_pct", 0)),
            enemy_outgoing_pct=int(ab.get("enemy_outgoing_pct", 0)),
            enemy_melee_outgoing_pct=int(ab.get("enemy_melee_outgoing_pct", 0)),
            melee_taken_pct=int(ab.get("melee_taken_pct", 0)),
            ranged_taken_pct=int(ab.get("ranged_taken_pct", 0)),
            anti_charge_taken_pct=int(ab.get("anti_charge_taken_pct", 0)),
            defending_taken_pct=int(ab.get("defending_taken_pct", 0)),
            regen=int(ab.get("regen", 0)), attacks_per_pick=max(1, int(ab.get("attacks_per_pick", 1))),
            heal_self_on_attack=int(ab.get("heal_self_on_attack", 0)),
            strip_defense=int(ab.get("strip_defense", 0)),
            healer_total=int(healer.get("total", 0)), healer_rounds=int(healer.get("rounds", 0)),
            squad_heal=int(ab.get("squad_heal", 0)), runes=bool(ab.get("runes", False)),
            grow_attack_when_hurt=int(ab.get("grow_attack_when_hurt", 0)),
            breath_now=int(breath.get("now", 0)), breath_next=int(breath.get("next", 0)),
            breath_every=int(breath.get("every", 0)),
            free_move=bool(ab.get("free_move", False)), no_manoeuvres=bool(ab.get("no_manoeuvres", False)),
            one_per_squad=bool(ab.get("one_per_squad", False)),
            excludes_in_squad=tuple(ab.get("excludes_in_squad", ())),
            faction_limit=int(ab.get("faction_limit", 0)),
        )


def _area(value: Mapping[str, Any] | None) -> Area | None:
    if not value:
        return None
    return Area(int(value["pct"]), int(value.get("min", 1)), int(value["max"]))


def healer_ticks(stats: UnitStats) -> tuple[int, ...]:
    """Per-round heal amounts of one healer regeneration (6 over 3 rounds -> 2, 2, 2)."""
    n, total = stats.healer_rounds, stats.healer_total
    return tuple(total // n + (1 if i < total % n else 0) for i in range(n))
