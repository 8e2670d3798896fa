"""Builders and measuring helpers for the Jade Rose battle rule tests (squads, duels, damage samples,
one-round fights), shared by the battle test modules; the `fight`/`first_round` fixtures are in conftest.py."""
from __future__ import annotations

import math
from dataclasses import replace

from engine.jade_rose.battle import (
    Manoeuvre,
    Position,
    SideSetup,
    SquadSetup,
    UnitStats,
    battle_constants,
    build_battle,
    fight_once,
    unit_stats,
)
from engine.jade_rose.battle.abilities import roll_damage, scale
from engine.jade_rose.battle.fast_compiled import fight_compiled
from engine.jade_rose.battle.fight import FightSetup, run_fight
from engine.jade_rose.battle.runtime import BattleState, Group
from engine.rng import Dice, sub_seed

UNITS = unit_stats()
CONST = battle_constants()
CENTRE_STREAM = 2       # the stream of the clash in the centre (reference.py): one_round fights with it


def on_kernel(battle, seed: int):
    """The battle on the compiled kernel, which must be the reference's battle of that seed, field for field."""
    result = fight_compiled(battle, seed)
    assert result == fight_once(battle, seed)
    return result


# -- set-up helpers ------------------------------------------------------------------------

def pos(flank: str, line: str = "vanguard") -> Position:
    return Position(flank, line)


def sq(where: Position, units: dict, kind: str = "none", target: Position | None = None,
       free: Position | None = None, garrison: bool = False) -> SquadSetup:
    return SquadSetup(where, tuple(units.items()), Manoeuvre(kind, target, free), garrison)


def side(faction: str, *squads: SquadSetup, **kw) -> SideSetup:
    return SideSetup(faction, tuple(squads), **kw)


def synth(key: str, faction: str = "empire", attack: int = 1, hp: int = 1000, defense: int = 0, **kw) -> UnitStats:
    """A made-up unit that isolates one mechanic (attack 1 always rolls 1)."""
    return UnitStats(key=key, faction=faction, name=key, attack=attack, hp=hp, defense=defense, **kw)


def units_with(*extra: UnitStats) -> dict:
    table = dict(UNITS)
    table.update({u.key: u for u in extra})
    return table


def make(att: SideSetup, dfd: SideSetup, units=None, constants=CONST, **kw):
    return build_battle(att, dfd, units or UNITS, constants=constants, **kw)


def duel(att_units: dict, dfd_units: dict, att_faction="empire", dfd_faction="vampires", units=None, **kw):
    """A battle of one attacker squad against one defender squad, both in the centre vanguard."""
    return make(side(att_faction, sq(pos("center"), att_units), **kw.pop("att_kw", {})),
                side(dfd_faction, sq(pos("center"), dfd_units), **kw.pop("dfd_kw", {})), units=units, **kw)


def groups(battle):
    """The battle state and the first squads of both sides as fighting groups."""
    state = BattleState(battle)
    a = state.sides["attacker"].squads[0]
    d = state.sides["defender"].squads[0]
    return state, Group(state.sides["attacker"], a.units, a), Group(state.sides["defender"], d.units, d)


def samples(battle, n: int = 20000, seed: int = 7, ranged: bool = False, charge_round: bool = False,
            bombard: bool = False, setup=None, attacker_index: int = 0, target_index: int = 0) -> list[int]:
    """Damage of many attacks of one attacker unit on one target unit of the other squad."""
    state, own, enemy = groups(battle)
    if setup:
        setup(own, enemy)
    rng = Dice(seed)
    att, tgt = own.units[attacker_index], enemy.units[target_index]
    return [roll_damage(rng, att, own, tgt, enemy, CONST, ranged=ranged, charge_round=charge_round,
                        bombard=bombard) for _ in range(n)]


def expected(top: int, defense: int, out: int = 0, inn: int = 0, pierce: int = 0) -> float:
    """Mean damage the rule book's formula gives: uniform roll 1..top, minus defence, then percentages."""
    return sum(scale(max(max(0, r - defense), pierce), out, inn) for r in range(1, top + 1)) / top


def assert_mean(values: list[int], target: float) -> None:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / n) or 1e-9
    assert abs(mean - target) <= 4 * sd / math.sqrt(n), (mean, target)


def one_round(battle, seed: int = 1, **setup_kw):
    """Run a single round of a centre-vanguard fight; returns (groups by role, round summary)."""
    state, own, enemy = groups(battle)
    setup = FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"), holder="defender",
                       **setup_kw)
    summary = run_fight(Dice(sub_seed(seed, CENTRE_STREAM)), setup, replace(CONST, max_rounds=1))
    return {"attacker": own, "defender": enemy}, summary.rounds[0]


def fights(result, phase: str, flank: str | None = None):
    return [f for f in result.fights if f.phase == phase and (flank is None or f.flank == flank)]
