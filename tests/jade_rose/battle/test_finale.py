"""The finale (battle/finale.py): every survivor in one squad a side, squads that met no enemy, the flanking
penalty, shooters that cannot shoot (rule book §1.6); battles run on both implementations."""
from __future__ import annotations

from dataclasses import replace

from engine.jade_rose.battle.abilities import incoming_pct
from tests.jade_rose.battle_kit import CONST, duel, fights, groups, make, pos, side, sq, synth, units_with


def test_finale_merges_every_survivor_into_one_squad_per_side(fight):
    """«Завершение: все выжившие юниты сталкиваются в хаотичной битве, формируя 2 отряда и сражаясь, пока все
    противники не будут истреблены.»"""
    battle = make(side("empire", sq(pos("left"), {"empire_heavy_infantry": 6}), sq(pos("right"), {"empire_knight": 2})),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 4}),
                       sq(pos("center"), {"vampires_neophyte": 3})))
    result = fight(battle, 6)
    finale = fights(result, "finale")[0]
    left = fights(result, "clash", "left")[-1]
    assert finale.start == (left.rounds[-1].alive[0] + 2, left.rounds[-1].alive[1] + 3)
    assert result.winner == finale.winner


def test_a_squad_that_met_no_enemy_fights_only_in_the_finale(fight):
    """«Если в фазе столкновения отряд не встретил противников вовсе, то он будет участвовать только в
    завершающей битве.» The dwarves' left and right squads have no enemy on their flanks."""
    battle = make(side("dwarves", *(sq(pos(f), {"dwarves_longbeard": 5}) for f in ("left", "center", "right"))),
                  side("empire", sq(pos("center"), {"empire_heavy_infantry": 13})))
    result = fight(battle, 1)
    assert {f.flank for f in fights(result, "clash")} == {"center"}
    finale = fights(result, "finale")
    centre = fights(result, "clash", "center")[-1].rounds[-1].alive[0]
    assert finale and finale[0].start[0] == 10 + centre


def test_fewer_surviving_squads_take_the_flanking_penalty(fight):
    """«Та команда, у которой на момент фазы завершения осталось меньше выживших отрядов (не юнитов), получает
    штраф +25% к получаемому урону за фланкирование. Если у обеих команд число выживших отрядов одинаковое, то
    этот штраф не получает ни одна из сторон.»"""
    battle = make(side("dwarves", *(sq(pos(f), {"dwarves_longbeard": 5}) for f in ("left", "center", "right"))),
                  side("empire", sq(pos("center"), {"empire_heavy_infantry": 13})))
    result = fight(battle, 1)
    assert fights(result, "finale")
    assert result.defender.flanked and not result.attacker.flanked
    state, own, enemy = groups(duel({"empire_spearman": 1}, {"vampires_halfblood": 1}))
    own.flanked = True
    assert incoming_pct(own.units[0], own, CONST, ranged=False, bombard=False) == CONST.flanking_taken_pct
    even = make(side("empire", sq(pos("left"), {"empire_spearman": 4})),
                side("vampires", sq(pos("right"), {"vampires_halfblood": 4})))
    result = fight(even, 1)
    assert not result.attacker.flanked and not result.defender.flanked


def test_shooters_cannot_shoot_in_the_finale(fight):
    """Tips: «запустится финальная битва в ближнем бою, в которой стрелки не смогут стрелять». Bowmen with no
    melee attack deal nothing in the finale."""
    bow = synth("bow", attack=0, ranged_damage=5, shots=1)
    bag = synth("bag", faction="vampires", attack=1)
    battle = make(side("empire", sq(pos("left"), {"bow": 1}), sq(pos("left", "rearguard"), {"bow": 3})),
                  side("vampires", sq(pos("right"), {"bag": 2})), units=units_with(bow, bag),
                  constants=replace(CONST, max_rounds=3))
    finale = fights(fight(battle, 1), "finale")[0]
    assert all(r.damage[0] == 0 for r in finale.rounds)
