"""The finale (RULINGS "Finale"): every survivor of each side in one squad, no shots, to the end;
the side with fewer surviving squads takes the flanking penalty."""
from __future__ import annotations

from engine.jade_rose.battle.fight import FightSetup, run_fight
from engine.jade_rose.battle.result import FightSummary
from engine.jade_rose.battle.runtime import BattleState, Group
from engine.jade_rose.battle.texts import ROLE_GEN
from engine.rng import Dice


def surviving_squads(state: BattleState, role: str) -> int:
    """Deployed squads with at least one living unit (JR-40)."""
    return sum(1 for s in state.sides[role].squads if s.alive())


def run_finale(rng: Dice, state: BattleState) -> FightSummary | None:
    att, dfd = state.sides["attacker"], state.sides["defender"]
    a_units, d_units = att.living(), dfd.living()
    if not a_units or not d_units:
        return None
    na, nd = surviving_squads(state, "attacker"), surviving_squads(state, "defender")
    att.flanked, dfd.flanked = na < nd, nd < na
    groups = {"attacker": Group(att, a_units), "defender": Group(dfd, d_units)}
    for role, group in groups.items():
        group.flanked = state.sides[role].flanked
    labels = (f"все выжившие {ROLE_GEN['attacker']}", f"все выжившие {ROLE_GEN['defender']}")
    setup = FightSetup("finale", "", groups, labels, holder="defender", heal_target=lambda h, g: g.units)
    return run_fight(rng, setup, state.constants)
