"""The clash phase, flank by flank (battle/clash.py): a rearguard steps up when its vanguard dies (rule book §1.5);
battles run on both implementations."""
from __future__ import annotations

from tests.jade_rose.battle_kit import fights, make, pos, side, sq


def test_rearguard_steps_up_when_its_vanguard_dies(fight):
    """«Если авангардный отряд умирает, то арьергард автоматически выступает вперёд и становится авангардом.»
    One spearman shields three archers from six death knights: after it falls, the archers fight in melee."""
    battle = make(side("empire", sq(pos("left"), {"empire_spearman": 1}),
                       sq(pos("left", "rearguard"), {"empire_archer": 3})),
                  side("vampires", sq(pos("left"), {"vampires_death_knight": 6})))
    clash = fights(fight(battle, 5), "clash", "left")
    assert [f.start for f in clash] == [(1, 6), (3, clash[1].start[1])]
    assert clash[0].winner == "defender"
    assert "левый авангард" in clash[1].squads[0]
