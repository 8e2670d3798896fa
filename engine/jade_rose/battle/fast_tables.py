"""Static per-unit arrays of one battle for the vectorised simulator (units in BattleState order)."""
from __future__ import annotations

import numpy as np

from engine.jade_rose.battle.model import Battle, Position
from engine.jade_rose.battle.runtime import BattleState
from engine.jade_rose.battle.stats import healer_ticks

AURA_FIELDS = ("squad_outgoing_pct", "squad_incoming_pct", "enemy_outgoing_pct", "squad_shot_bonus_pct")


class SquadInfo:
    """A squad's unit range [start, end) in the unit arrays, its side and positions."""

    def __init__(self, index: int, role: int, start: int, end: int, setup, position: Position):
        self.index = index
        self.role = role
        self.start = start
        self.end = end
        self.setup = setup
        self.position = position          # where it stands after the planning moves
        self.deployed = setup.position

    @property
    def size(self) -> int:
        return self.end - self.start


class Tables:
    """Unit statistics as arrays, squads as ranges, aura kinds as holder masks."""

    def __init__(self, battle: Battle):
        state = BattleState(battle)
        c = battle.constants
        self.constants = c
        units = [u for role in ("attacker", "defender") for s in state.sides[role].squads for u in s.units]
        self.U = len(units)
        self.n_attacker = sum(1 for u in units if u.role == "attacker")
        st = [u.stats for u in units]
        i64 = lambda values: np.array(list(values), dtype=np.int64)  # noqa: E731
        self.keys = sorted({s.key for s in st})
        self.key_index = i64(self.keys.index(s.key) for s in st)
        self.role = i64(0 if u.role == "attacker" else 1 for u in units)
        self.atk = i64(s.attack for s in st)
        self.dfn = i64(s.defense for s in st)
        self.maxhp = i64(s.hp for s in st)
        self.rdmg = i64(s.ranged_damage for s in st)
        self.shots = i64(s.shots for s in st)
        self.pierce_m = i64(s.pierce(False) for s in st)
        self.pierce_r = i64(s.pierce(True) for s in st)
        sides = state.sides
        self.out_side = i64(sides[u.role].outgoing for u in units)
        self.in_side = i64(sides[u.role].incoming + (sides[u.role].creature_incoming if u.stats.jade_creature else 0)
                           for u in units)
        self.melee_taken = i64(s.melee_taken_pct for s in st)
        self.ranged_taken = i64(s.ranged_taken_pct for s in st)
        self.anti_charge = i64(s.anti_charge_taken_pct for s in st)
        self.defending_taken = i64(s.defending_taken_pct for s in st)
        self.charge_bonus = i64(s.charge_bonus_pct for s in st)
        self.regen = i64(s.regen for s in st)
        self.apick = i64(s.attacks_per_pick for s in st)
        self.heal_self = i64(s.heal_self_on_attack for s in st)
        self.strip = i64(s.strip_defense for s in st)
        self.healer = np.array([s.healer for s in st], dtype=bool)
        self.squad_heal = i64(s.squad_heal for s in st)
        self.runes = np.array([s.runes for s in st], dtype=bool)
        self.grow = i64(s.grow_attack_when_hurt for s in st)
        self.breath_now = i64(s.breath_now for s in st)
        self.breath_next = i64(s.breath_next for s in st)
        self.breath_every = i64(s.breath_every for s in st)
        self.shooter = np.array([s.shooter for s in st], dtype=bool)
        self.area_m = np.array([(s.area_melee.pct, s.area_melee.min, s.area_melee.max) if s.area_melee else (0, 0, 0)
                                for s in st], dtype=np.int64).reshape(-1, 3)
        self.area_r = np.array([(s.area_ranged.pct, s.area_ranged.min, s.area_ranged.max) if s.area_ranged else (0, 0, 0)
                                for s in st], dtype=np.int64).reshape(-1, 3)
        self.heal_ticks = next((healer_ticks(s) for s in st if s.healer), ())
        # aura kinds: (field, unit key, value) with a holder mask each
        kinds = sorted({(f, s.key, getattr(s, f)) for s in st for f in AURA_FIELDS if getattr(s, f)})
        self.aura_kinds = kinds
        self.aura_hold = [np.array([s.key == k and getattr(s, f) == v for s in st]) for f, k, v in kinds]
        self.any_aura = np.zeros(self.U, dtype=bool)
        for m in self.aura_hold:
            self.any_aura |= m
        # squads (in BattleState order) and fatigue of defending squads (set after the bombards)
        self.squads: list[SquadInfo] = []
        start = 0
        for role in ("attacker", "defender"):
            for s in sides[role].squads:
                self.squads.append(SquadInfo(len(self.squads), 0 if role == "attacker" else 1, start,
                                             start + len(s.units), s.setup, s.setup.position))
                start += len(s.units)
        self.fatigue_pct = np.zeros(self.U, dtype=np.int64)
        if not battle.skip_planning:
            for sq in self.squads:
                if sq.setup.manoeuvre.kind == "defend":
                    self.fatigue_pct[sq.start:sq.end] = c.defence_fatigue * c.fatigue_outgoing_pct
            self._apply_moves()
        # combined static modifiers (fatigue counts from the Defence step on, i.e. after the bombards)
        self.out_melee = self.out_side + self.fatigue_pct
        self.out_shot = self.out_side + self.fatigue_pct
        self.in_melee = self.in_side + self.melee_taken
        self.in_shot = self.in_side + self.ranged_taken
        self.special = (self.area_m[:, 0] > 0) | (self.apick > 1) | (self.heal_self > 0) | (self.strip > 0)
        self.rune_def = np.array([0] + [r.defense for r in c.runes], dtype=np.int64)
        self.rune_atk = np.array([0] + [r.attack for r in c.runes], dtype=np.int64)
        self.rune_out = np.array([0] + [r.outgoing_pct for r in c.runes], dtype=np.int64)
        self.rune_heal = np.array([0] + [r.heal for r in c.runes], dtype=np.int64)
        self.present = {
            "strip": bool(self.strip.any()), "grow": bool(self.grow.any()), "runes": bool(self.runes.any()),
            "healer": bool(self.healer.any()), "breath": bool(self.breath_now.any() or self.breath_next.any()),
            "regen": bool(self.regen.any()), "beer": bool(self.squad_heal.any()), "zero_atk": bool((self.atk == 0).any()),
            "area_m": bool(self.area_m[:, 0].any()), "multi": bool((self.apick > 1).any()),
            "heal_self": bool(self.heal_self.any()), "aura": bool(kinds),
        }

    def _apply_moves(self) -> None:
        """Changes of position and then the free moves, applied to every squad (a dead squad is empty)."""
        for attr in ("target", "free_move"):
            for sq in self.squads:
                m = sq.setup.manoeuvre
                dst = m.target if (attr == "target" and m.kind == "change_position") else (
                    m.free_move if attr == "free_move" else None)
                if dst is not None:
                    sq.position = dst

    def flank_squads(self, role: int, flank: str) -> tuple[int, int]:
        """Squad indices standing at the vanguard and rearguard of a flank after the moves (-1: none)."""
        out = []
        for line in ("vanguard", "rearguard"):
            found = [sq.index for sq in self.squads if sq.role == role and sq.position == Position(flank, line)]
            out.append(found[0] if found else -1)
        return out[0], out[1]

    def deployed_at(self, role: int, pos: Position) -> int:
        found = [sq.index for sq in self.squads if sq.role == role and sq.deployed == pos]
        return found[0] if found else -1
