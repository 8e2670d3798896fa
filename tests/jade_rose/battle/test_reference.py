"""The battle's outcome as the reference assembles it (battle/reference.py): a fifth of an army's fallen recover, a
garrison's never (rule book §1.1, RULINGS JR-41); battles run on both implementations."""
from __future__ import annotations

from engine.jade_rose.battle.abilities import round_half_up
from tests.jade_rose.battle_kit import duel, make, pos, side, sq


def test_twenty_percent_of_the_fallen_recover_after_battle(fight):
    """«после боя часть раненых юнитов (если не указано иного, то эта часть равна 20%) удаётся спасти, и они
    вернутся в строй» (RULINGS JR-41: per unit type, rounded half up). 13 spearmen die against knights:
    round_half_up(2.6) = 3 return."""
    result = fight(duel({"empire_spearman": 13}, {"vampires_death_knight": 6}), 3)
    side_a = result.attacker
    assert dict(side_a.losses) == {"empire_spearman": 13}
    assert dict(side_a.recovered) == {"empire_spearman": round_half_up(13 * 20, 100)}
    assert side_a.total("recovered") <= side_a.total("losses")


def test_garrison_dead_are_not_recovered(fight):
    """RULINGS JR-41: «Of each side's dead (per unit type, armies only; garrisons refill anyway)…» The same
    spearmen as a garrison recover nobody."""
    battle = make(side("vampires", sq(pos("center"), {"vampires_death_knight": 6})),
                  side("empire", sq(pos("center"), {"empire_spearman": 13}, garrison=True)))
    result = fight(battle, 3)
    assert result.defender.total("losses") == 13
    assert result.defender.recovered == ()
