"""Rule conformance of the Jade Rose battle (rule book lines 3-32, RULINGS.md "Jade Rose: battle").

DATC style: each test is named after a rule, quotes it, sets up squads, gives orders and checks the
outcome. Every test that fights a battle runs on both implementations (the `fight` and `first_round`
fixtures): the reference and the compiled kernel, which must give the reference's battle of that seed field
for field. Tests of one formula or one unit's state inside a fight call the reference's functions directly.
Random outcomes use fixed seeds; distributions use bounds of four standard errors around the value the rule
implies.
"""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jade_rose.battle import (
    BattleSpecError,
)
from engine.jade_rose.battle.abilities import incoming_pct, round_half_up
from tests.jade_rose.battle_kit import (
    CONST,
    assert_mean,
    duel,
    expected,
    fights,
    groups,
    make,
    one_round,
    pos,
    samples,
    side,
    sq,
    synth,
    units_with,
)

# -- 1.1 unit attributes ----------------------------------------------------------------------

def test_attack_damage_is_random_between_one_and_attack():
    """«Нанесённый урон каждый раз является случайным числом между единицей и значением атаки. Например,
    если у юнита 5 атаки, то он нанесёт от 1 до 5 урона.» A 5-attack unit against no armour rolls every
    value 1..5, uniformly (mean 3)."""
    five = synth("five", attack=5)
    target = synth("bag", faction="vampires")
    values = samples(duel({"five": 1}, {"bag": 1}, units=units_with(five, target)))
    assert set(values) == {1, 2, 3, 4, 5}
    assert_mean(values, 3.0)


def test_defence_is_subtracted_and_can_reduce_damage_to_zero():
    """«Защита. Вычитается из любого получаемого урона. Может уменьшить урон до нуля.» Spearmen (attack 6)
    against defence 1 deal 0..5, a mean of 2.5 per attack."""
    values = samples(duel({"empire_spearman": 1}, {"vampires_halfblood": 1}))
    assert min(values) == 0 and max(values) == 5
    assert_mean(values, 2.5)
    assert_mean(values, expected(6, 1))


def test_percentage_modifiers_apply_after_defence():
    """«Штрафы и бонусы к урону (например, процентные увеличения) применяются после вычитания защиты.»
    A crusader next to a hero (+15 %) against defence 1: round_half_up((roll − 1) × 1.15)."""
    values = samples(duel({"empire_crusader": 1, "empire_hero": 1}, {"vampires_halfblood": 1}))
    assert_mean(values, expected(9, 1, out=15))
    assert max(values) == round_half_up(8 * 115, 100)


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


# -- 1.3 deployment and positions ----------------------------------------------------------------

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


def test_adjacent_positions_are_orthogonal_neighbours():
    """«Позиция считается соседней, если она находится на 1 ячейку ниже, выше, левее или правее. Например,
    для правого арьергарда соседние позиции - центральный арьергард ... и правый авангард.»"""
    right_rear = pos("right", "rearguard")
    neighbours = {p for p in (pos(f, line) for f in ("left", "center", "right") for line in ("vanguard", "rearguard"))
                  if right_rear.adjacent(p)}
    assert neighbours == {pos("center", "rearguard"), pos("right", "vanguard")}


# -- 1.5 clash -----------------------------------------------------------------------------------

def test_a_round_has_as_many_attacks_as_the_larger_squad(first_round):
    """«В бою каждый ход один случайный юнит из отряда одной команды атакует случайного юнита из отряда другой
    команды ... За 1 раунд происходит столько атак, сколько юнитов в бо́льшем отряде.» One unit against ten,
    every hit 1: both sides deal 10 in the round."""
    one = synth("one")
    ten = synth("ten", faction="vampires")
    rnd = first_round(duel({"one": 1}, {"ten": 10}, units=units_with(one, ten)))
    assert rnd.damage == (10, 10)


def test_every_unit_attacks_before_any_attacks_again(monkeypatch):
    """«Гарантируется, что каждый юнит из отряда рано или поздно атакует. Каждый юнит совершает примерно равное
    число атак.» (RULINGS: a shuffled rotation.) Three units against seven: each block of three attacks uses
    all three units."""
    from engine.jade_rose.battle import fight as fight_mod
    picks: list = []
    original = fight_mod.Rotation.next

    def spy(self):
        unit = original(self)
        if unit is not None and unit.role == "attacker":
            picks.append(unit.uid)
        return unit
    monkeypatch.setattr(fight_mod.Rotation, "next", spy)
    a = synth("a")
    b = synth("b", faction="vampires")
    one_round(duel({"a": 3}, {"b": 7}, units=units_with(a, b)), seed=9)
    assert len(picks) == 7
    for start in (0, 3):
        assert len(set(picks[start:start + 3])) == 3


def test_outnumbered_squad_takes_a_quarter_more_melee_damage():
    """«Если один отряд численно превышает другой в два раза или больше, то меньший отряд получит штраф +25% к
    получаемому урону.» Two against one: the one is outnumbered; three against two: nobody."""
    a, b = synth("a"), synth("b", faction="vampires")
    g, _ = one_round(duel({"a": 1}, {"b": 2}, units=units_with(a, b)))
    assert g["attacker"].outnumbered and not g["defender"].outnumbered
    g, _ = one_round(duel({"a": 2}, {"b": 3}, units=units_with(a, b)))
    assert not g["attacker"].outnumbered and not g["defender"].outnumbered
    state, own, enemy = groups(duel({"empire_spearman": 1}, {"vampires_halfblood": 2}))
    own.outnumbered = True
    assert incoming_pct(own.units[0], own, CONST, ranged=False, bombard=False) == CONST.outnumber_taken_pct


def test_outnumbering_does_not_affect_shots():
    """«Не влияет на урон обстрела.» (JR-38: never on ranged damage.)"""
    state, own, enemy = groups(duel({"empire_spearman": 1}, {"vampires_halfblood": 2}))
    own.outnumbered = True
    assert incoming_pct(own.units[0], own, CONST, ranged=True, bombard=True) == 0


# -- 1.6 finale ----------------------------------------------------------------------------------

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


def test_both_sides_dying_in_one_step_leaves_the_defender_holding(fight):
    """RULINGS: «If both sides die in the same step the defender holds.»"""
    glass = synth("glass", attack=1, hp=1)
    glass_v = synth("glass_v", faction="vampires", attack=1, hp=1)
    result = fight(duel({"glass": 1}, {"glass_v": 1}, units=units_with(glass, glass_v)), 1)
    assert fights(result, "clash")[0].winner == "both_dead"
    assert result.winner == "defender"


def test_round_limit_ends_the_fight_with_the_defender_holding(fight):
    """RULINGS: «a fight that reaches 200 rounds (data) ends with the defender holding, and the report says so.»"""
    rock = synth("rock", attack=1, defense=50)
    rock_v = synth("rock_v", faction="vampires", attack=1, defense=50)
    result = fight(duel({"rock": 2}, {"rock_v": 2}, units=units_with(rock, rock_v)), 1)
    assert result.timeout and result.winner == "defender"
    assert all(f.round_count == CONST.max_rounds for f in result.fights)
