"""The clash (RULINGS "Clash"): on each flank the two vanguards fight, rearguard shooters fire each
round, a rearguard steps up when its vanguard falls; flanks are independent."""
from __future__ import annotations

from engine.jade_rose.battle.fight import FightSetup, run_fight
from engine.jade_rose.battle.model import Position
from engine.jade_rose.battle.planning import heal_front
from engine.jade_rose.battle.result import FightSummary
from engine.jade_rose.battle.runtime import BattleState, Group
from engine.jade_rose.battle.texts import squad_ru
from engine.rng import Dice


def run_flank(rng: Dice, state: BattleState, flank: str) -> list[FightSummary]:
    """Fights on one flank until one side has no squad left on it (or a fight hits the round limit)."""
    fights: list[FightSummary] = []
    att, dfd = state.sides["attacker"], state.sides["defender"]
    while True:
        af, ar = att.front_and_rear(flank)
        df, dr = dfd.front_and_rear(flank)
        if af is None or df is None:
            return fights
        for squad in (af, df):
            squad.position = Position(flank, "vanguard")
        groups = {"attacker": Group(att, af.units, af), "defender": Group(dfd, df.units, df)}
        support = {"attacker": Group(att, ar.units, ar) if ar else None,
                   "defender": Group(dfd, dr.units, dr) if dr else None}
        labels = (squad_ru("attacker", af.position), squad_ru("defender", df.position))
        setup = FightSetup("clash", flank, groups, labels, holder="defender", support=support,
                           heal_target=lambda h, g: heal_front(state, h, g))
        summary = run_fight(rng, setup, state.constants)
        fights.append(summary)
        if summary.winner == "timeout":
            return fights
