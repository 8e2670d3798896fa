"""Building a battle from its sides (battle/deployment.py): one squad per position, a rearguard without a vanguard
moved up (rule book §1.3); battles run on both implementations."""
from __future__ import annotations

import pytest

from engine.jade_rose.battle import BattleSpecError
from tests.jade_rose.battle_kit import make, pos, side, sq


def test_one_squad_per_position():
    """«всего существует 6 возможных позиций» (RULINGS: one squad per position per side). Two squads in the
    left vanguard are rejected with a Russian message."""
    with pytest.raises(BattleSpecError) as err:
        make(side("empire", sq(pos("left"), {"empire_spearman": 3}), sq(pos("left"), {"empire_archer": 3})),
             side("vampires", sq(pos("left"), {"vampires_halfblood": 3})))
    assert any("уже стоит отряд" in p for p in err.value.problems)


def test_rearguard_without_vanguard_moves_to_the_vanguard():
    """«Арьергард без авангарда существовать не может.» (RULINGS: moved to the vanguard with a warning.)"""
    battle = make(side("empire", sq(pos("right", "rearguard"), {"empire_archer": 3})),
                  side("vampires", sq(pos("right"), {"vampires_halfblood": 3})))
    assert battle.attacker.squads[0].position == pos("right")
    assert any("нет авангарда" in w for w in battle.warnings)
