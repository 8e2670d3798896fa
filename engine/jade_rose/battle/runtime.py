"""Mutable per-battle state of the reference simulator: units, squads, fighting groups."""
from __future__ import annotations

from engine.jade_rose.battle.constants import BattleConstants, Rune
from engine.jade_rose.battle.model import FLANKS, Battle, Position, SideSetup, SquadSetup
from engine.jade_rose.battle.stats import UnitStats

NO_RUNE = Rune()


class Unit:
    """One unit in battle. `alive` changes only at the end of a step (deaths apply then)."""

    __slots__ = ("uid", "stats", "role", "squad", "garrison", "hp", "alive", "atk_bonus", "strip", "fatigue",
                 "rune", "hots", "dots", "hurt")

    def __init__(self, uid: int, stats: UnitStats, role: str, squad: Squad, garrison: bool = False):
        self.uid = uid
        self.stats = stats
        self.role = role
        self.squad = squad
        self.garrison = garrison    # of the city's garrison: its death is not recovered (it refills)
        self.hp = stats.hp
        self.alive = True
        self.atk_bonus = 0          # golem growth
        self.strip = 0              # defence stripped by paladins / archpriests, for the battle
        self.fatigue = 0
        self.rune = NO_RUNE         # this round's rune
        self.hots: list[list[int]] = []   # healer regenerations: remaining per-round amounts
        self.dots: list[list[int]] = []   # breath afterburn: [rounds left, amount]
        self.hurt = False           # took damage this round (golem growth)

    @property
    def defense_now(self) -> int:
        return max(0, self.stats.defense - self.strip) + self.rune.defense

    @property
    def attack_now(self) -> int:
        return self.stats.attack + self.atk_bonus + self.rune.attack

    def heal(self, amount: int) -> None:
        """Heal a living unit, capped at its maximum HP."""
        if self.alive and self.hp > 0 and amount > 0:
            self.hp = min(self.stats.hp, self.hp + amount)

    def __repr__(self) -> str:
        return f"<{self.stats.key}#{self.uid} {self.hp}/{self.stats.hp}{'' if self.alive else ' dead'}>"


class Squad:
    """A deployed squad: its current position and its units (dead ones included)."""

    __slots__ = ("sid", "role", "setup", "position", "units", "cover", "defends")

    def __init__(self, sid: int, role: str, setup: SquadSetup):
        self.sid = sid
        self.role = role
        self.setup = setup
        self.position = setup.position
        self.units: list[Unit] = []
        self.cover = False
        self.defends: Position | None = None

    def living(self) -> list[Unit]:
        return [u for u in self.units if u.alive]

    def alive(self) -> bool:
        return any(u.alive for u in self.units)


class SideState:
    """A side in battle with its static modifiers (grudges, runes spent, Jade forge)."""

    def __init__(self, role: str, setup: SideSetup, constants: BattleConstants):
        self.role = role
        self.setup = setup
        forge_out, forge_in = (constants.forge_modifiers(setup.forge_distance)
                               if setup.faction == "jade" else (0, 0))
        self.outgoing = setup.grudges * constants.grudge_outgoing_pct + forge_out
        self.incoming = min(setup.runes, constants.max_runes) * constants.rune_taken_pct
        self.creature_incoming = forge_in
        self.squads: list[Squad] = []
        self.flanked = False

    def squad_at(self, pos: Position) -> Squad | None:
        for s in self.squads:
            if s.position == pos and s.alive():
                return s
        return None

    def front_and_rear(self, flank: str) -> tuple[Squad | None, Squad | None]:
        """The fighting squad of a flank (vanguard, or the rearguard stepping up) and the one behind it."""
        v = self.squad_at(Position(flank, "vanguard"))
        r = self.squad_at(Position(flank, "rearguard"))
        return (v, r) if v else (r, None)

    def living(self) -> list[Unit]:
        return [u for s in self.squads for u in s.units if u.alive]


class Group:
    """Units fighting together in one fight (a squad, or a side's merged finale squad) and their context."""

    __slots__ = ("side", "squad", "units", "charger", "against_charger", "defending", "outnumbered",
                 "flanked", "cover", "holders")

    def __init__(self, side: SideState, units: list[Unit], squad: Squad | None = None):
        self.side = side
        self.squad = squad
        self.units = units
        self.charger = False
        self.against_charger = False
        self.defending = False
        self.outnumbered = False
        self.flanked = False
        self.cover = False
        self.holders = [u for u in units if _has_aura(u.stats)]

    def living(self) -> list[Unit]:
        return [u for u in self.units if u.alive]

    def aura(self, field: str) -> int:
        """Sum of one aura over the living units holding it, each unit type counted once (JR-37)."""
        seen: dict[str, int] = {}
        for u in self.holders:
            value = getattr(u.stats, field)
            if value and u.alive:
                seen[u.stats.key] = value
        return sum(seen.values())


def _has_aura(s: UnitStats) -> bool:
    return bool(s.squad_outgoing_pct or s.squad_incoming_pct or s.squad_shot_bonus_pct or s.enemy_outgoing_pct
                or s.enemy_melee_outgoing_pct)


class BattleState:
    """Both sides of a battle with their squads and units, as deployed."""

    def __init__(self, battle: Battle):
        self.battle = battle
        self.constants = battle.constants
        self.sides = {role: SideState(role, battle.side(role), battle.constants) for role in ("attacker", "defender")}
        uid = 0
        for role, side in self.sides.items():
            order = sorted(side.setup.squads, key=lambda s: (FLANKS.index(s.position.flank), s.position.row))
            for sid, setup in enumerate(order):
                squad = Squad(sid, role, setup)
                garrison = {key: setup.garrison_count(key) for key, _ in setup.units}
                for key, count in setup.units:
                    for _ in range(count):
                        squad.units.append(Unit(uid, battle.units[key], role, squad, garrison=garrison[key] > 0))
                        garrison[key] -= 1
                        uid += 1
                side.squads.append(squad)

    def enemy(self, role: str) -> SideState:
        return self.sides["defender" if role == "attacker" else "attacker"]
