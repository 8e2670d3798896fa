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
    parse_spec,
)
from engine.jade_rose.battle.abilities import incoming_pct, outgoing_pct, round_half_up
from engine.jade_rose.battle.planning import run_planning
from engine.jade_rose.battle.runtime import BattleState, Group
from engine.rng import Dice
from tests.jade_rose.battle_kit import (
    CONST,
    UNITS,
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


# -- 1.4 manoeuvres --------------------------------------------------------------------------------

def test_change_position_moves_to_a_free_adjacent_cell(fight):
    """«Смена позиции: Отряд перемещается на одну свободную соседнюю ячейку.» Squads on the left move to the
    empty centre and meet the enemy there."""
    battle = make(side("empire", sq(pos("left"), {"empire_heavy_infantry": 5}, "change_position", pos("center"))),
                  side("vampires", sq(pos("center"), {"vampires_halfblood": 5})))
    clash = fights(fight(battle, 2), "clash")
    assert [f.flank for f in clash] == ["center"]


def test_change_position_swap_between_two_squads(fight):
    """«Если два отряда одновременно используют этот маневр, чтобы занять ячейки друг друга, они могут
    поменяться местами.» The left knights and the centre spearmen swap: knights meet the centre enemy."""
    battle = make(side("empire", sq(pos("left"), {"empire_knight": 3}, "change_position", pos("center")),
                       sq(pos("center"), {"empire_spearman": 4}, "change_position", pos("left"))),
                  side("vampires", sq(pos("center"), {"vampires_halfblood": 8})))
    result = fight(battle, 2)
    centre = fights(result, "clash", "center")[0]
    assert centre.start[0] == 3
    assert not fights(result, "clash", "left")


def test_change_position_rejects_occupied_and_distant_cells():
    """«одну свободную соседнюю ячейку»: a move into a cell a non-moving squad holds, or two cells away, is
    rejected with what is allowed."""
    with pytest.raises(BattleSpecError) as err:
        make(side("empire", sq(pos("left"), {"empire_knight": 3}, "change_position", pos("center")),
                  sq(pos("center"), {"empire_spearman": 4}),
                  sq(pos("right"), {"empire_spearman": 4}, "change_position", pos("left"))),
             side("vampires", sq(pos("center"), {"vampires_halfblood": 8})))
    text = " ".join(err.value.problems)
    assert "занята своим отрядом" in text and "не соседняя" in text and "Допустимо" in text


def test_rearguard_left_alone_by_a_move_takes_the_vanguard(fight):
    """«Если после перемещения выходит так, что арьергард находится на каком-либо фланге без авангарда, то
    отряд мгновенно займёт место авангарда.» The left vanguard leaves; the left rearguard steps up and meets
    the enemy's left vanguard in melee."""
    battle = make(side("empire", sq(pos("left"), {"empire_knight": 2}, "change_position", pos("center")),
                       sq(pos("left", "rearguard"), {"empire_archer": 4})),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 6})))
    left = fights(fight(battle, 4), "clash", "left")
    assert left and left[0].start[0] == 4 and "левый авангард" in left[0].squads[0]


def test_defence_must_be_beaten_before_the_charged_rearguard(fight):
    """«Защита: отряд обороняет арьергард на соседней позиции от особого манёвра 'натиск'. При попытке натиска
    нужно будет сначала победить защитников.» Horsemen charging the defended archers fight the defenders first."""
    battle = make(side("empire", sq(pos("left"), {"empire_horseman": 8}, "charge", pos("left", "rearguard"))),
                  side("dwarves", sq(pos("left"), {"dwarves_miner": 2}, "defend", pos("left", "rearguard")),
                       sq(pos("left", "rearguard"), {"dwarves_crossbowman": 2})))
    charges = fights(fight(battle, 1), "charge")
    assert [f.squads[1] for f in charges] == ["защитник, левый авангард", "защитник, левый арьергард"]
    assert charges[0].winner == "attacker"


def test_defence_gives_one_fatigue_whether_or_not_anyone_charges():
    """«Защищающийся отряд получит 1 единицу усталости, неважно, защитил он кого-либо или нет.» (RULINGS:
    −10 % outgoing per point for the rest of the battle.)"""
    battle = make(side("empire", sq(pos("left"), {"empire_spearman": 3}, "defend", pos("left", "rearguard")),
                       sq(pos("left", "rearguard"), {"empire_archer": 3})),
                  side("vampires", sq(pos("center"), {"vampires_halfblood": 3})))
    state = BattleState(battle)
    run_planning(Dice(1), state)
    guard = state.sides["attacker"].squads[0]
    own = Group(state.sides["attacker"], guard.units, guard)
    enemy = Group(state.sides["defender"], state.sides["defender"].squads[0].units)
    assert {u.fatigue for u in guard.units} == {1}
    assert outgoing_pct(guard.units[0], own, enemy, CONST, ranged=False, charge_round=False) \
        == CONST.fatigue_outgoing_pct


def test_one_defender_per_rearguard():
    """«Один арьергард может быть прикрыт только одним защитником.»"""
    with pytest.raises(BattleSpecError) as err:
        make(side("empire", sq(pos("center"), {"empire_spearman": 3}, "defend", pos("center", "rearguard")),
                  sq(pos("left", "rearguard"), {"empire_spearman": 3}, "defend", pos("center", "rearguard")),
                  sq(pos("left"), {"empire_spearman": 3}),
                  sq(pos("center", "rearguard"), {"empire_archer": 3})),
             side("vampires", sq(pos("center"), {"vampires_halfblood": 3})))
    assert any("только один защитник" in p for p in err.value.problems)


def test_cover_halves_only_planning_bombards():
    """«В укрытие: отряд получает вдвое меньше урона от особого манёвра 'обстрел' на фазе планирования.»
    (RULINGS JR-27: not the rearguard's automatic shots.)"""
    battle = duel({"empire_archer": 1}, {"vampires_halfblood": 1})
    bombard = samples(battle, ranged=True, bombard=True, setup=lambda own, enemy: setattr(enemy, "cover", True))
    shot = samples(battle, ranged=True, setup=lambda own, enemy: setattr(enemy, "cover", True))
    assert_mean(bombard, expected(6, 1, inn=-50))
    assert_mean(shot, expected(6, 1))


def test_special_manoeuvre_needs_every_unit_of_the_squad():
    """«Если не все в отряде могут выполнять особый манёвр, то манёвр не может быть выполнен.» The rule book's
    own template «5 копейщиков и 3 рыцаря (манёвр: натиск на центральный арьергард)» is rejected: spearmen
    cannot charge."""
    spec = {"attacker": {"faction": "empire", "squads": [
        {"flank": "right", "line": "vanguard", "units": {"Копейщик": 5, "Рыцарь": 3},
         "manoeuvre": {"type": "charge", "flank": "center", "line": "rearguard"}},
        {"flank": "right", "line": "rearguard", "units": {"Лучник": 3},
         "manoeuvre": {"type": "bombard", "flank": "right", "line": "vanguard"}}]},
        "defender": {"faction": "vampires", "squads": [
            {"flank": "right", "line": "vanguard", "units": {"Полукровка": 5}},
            {"flank": "center", "line": "vanguard", "units": {"Полукровка": 5}},
            {"flank": "center", "line": "rearguard", "units": {"Чернокнижник": 2}}]}}
    with pytest.raises(BattleSpecError) as err:
        parse_spec(spec)
    assert len(err.value.problems) == 1
    assert "натиск" in err.value.problems[0] and "Копейщик" in err.value.problems[0]


def test_charge_targets_a_rearguard_on_the_same_or_adjacent_flank():
    """«Арьергард, который вы хотите атаковать, должен находиться на соседнем фланге. Например, кавалерия на
    левом фланге может атаковать арьергард на центральном или левом фланге. Авангард натиском атаковать
    нельзя.»"""
    enemy = side("vampires", *(sq(pos(f), {"vampires_halfblood": 2}) for f in ("left", "center", "right")),
                 *(sq(pos(f, "rearguard"), {"vampires_warlock": 1}) for f in ("left", "center", "right")))
    for target, ok in ((pos("left", "rearguard"), True), (pos("center", "rearguard"), True),
                       (pos("right", "rearguard"), False), (pos("center"), False)):
        attacker = side("empire", sq(pos("left"), {"empire_horseman": 3}, "charge", target))
        if ok:
            make(attacker, enemy)
        else:
            with pytest.raises(BattleSpecError):
                make(attacker, enemy)


def test_charger_fights_the_rearguard_then_returns_to_its_place(fight):
    """«Натиск: отряд идёт в обход авангарда и сражается с арьергардом противника. После боя отряд
    возвращается на своё место.» Knights beat the warlocks behind the enemy line, then fight on their own
    flank in the clash."""
    battle = make(side("empire", sq(pos("left"), {"empire_knight": 6}, "charge", pos("center", "rearguard"))),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 3}),
                       sq(pos("center"), {"vampires_halfblood": 3}),
                       sq(pos("center", "rearguard"), {"vampires_warlock": 1})))
    result = fight(battle, 1)
    charge = fights(result, "charge")[0]
    assert charge.squads == ("атакующий, левый авангард", "защитник, центральный арьергард")
    assert charge.winner == "attacker"
    assert fights(result, "clash", "left")[0].squads[0] == "атакующий, левый авангард"


def test_bombard_targets_the_same_or_adjacent_vanguard():
    """«Обстрел: отряд атакует авангардный отряд противника до начала боя. Может нацелиться только на тот же
    фланг, с которого ведётся стрельба, или соседний. Например, лучники на левом фланге могут обстреливать
    авангард только на левом или центральном фланге.»"""
    enemy = side("vampires", *(sq(pos(f), {"vampires_halfblood": 2}) for f in ("left", "center", "right")),
                 sq(pos("left", "rearguard"), {"vampires_warlock": 1}))
    for target, ok in ((pos("left"), True), (pos("center"), True), (pos("right"), False),
                       (pos("left", "rearguard"), False)):
        attacker = side("empire", sq(pos("left"), {"empire_spearman": 2}),
                        sq(pos("left", "rearguard"), {"empire_archer": 3}, "bombard", target))
        if ok:
            make(attacker, enemy)
        else:
            with pytest.raises(BattleSpecError):
                make(attacker, enemy)


def test_bombard_fires_every_shot_before_the_battle(fight):
    """«указывается урон в дальнем бою и количество выстрелов, которое каждый юнит может совершить при
    обстреле.» Eight archers with 2 shots each fire 16 shots at the chosen vanguard before the clash."""
    battle = make(side("empire", sq(pos("left"), {"empire_spearman": 10}),
                       sq(pos("left", "rearguard"), {"empire_archer": 8}, "bombard", pos("left"))),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 18})))
    shot = fight(battle, 11).bombards[0]
    assert shot.shots == 8 * UNITS["empire_archer"].shots
    assert shot.target == "защитник, левый авангард" and shot.damage > 0


def test_rearguard_shooters_fire_one_shot_each_every_round(fight):
    """«Если стрелки находятся в арьергарде, то каждый ход боя они автоматически (даже если не был отдан
    приказ об обстреле) совершают каждый по 1 выстрелу и атакуют вражеский авангард своего фланга.»
    Four 1-damage shooters behind a harmless wall deal exactly 4 damage per round."""
    wall = synth("wall", attack=0)
    bow = synth("bow", attack=0, ranged_damage=1, shots=1)
    bag = synth("bag", faction="vampires", attack=0)
    battle = make(side("empire", sq(pos("left"), {"wall": 1}), sq(pos("left", "rearguard"), {"bow": 4})),
                  side("vampires", sq(pos("left"), {"bag": 1})), units=units_with(wall, bow, bag),
                  constants=replace(CONST, max_rounds=5))
    rounds = fights(fight(battle, 1), "clash")[0].rounds
    assert [r.damage for r in rounds] == [(4, 0)] * 5


def test_long_range_bombard_may_target_any_squad(fight):
    """«Дальнобойный обстрел: то же самое, но можно нацелиться на любой отряд на поле боя.» A bone cannon in the
    centre rearguard shells the enemy's right rearguard."""
    battle = make(side("vampires", sq(pos("center"), {"vampires_halfblood": 3}),
                       sq(pos("center", "rearguard"), {"vampires_bone_cannon": 2}, "long_range_bombard",
                          pos("right", "rearguard"))),
                  side("empire", sq(pos("right"), {"empire_spearman": 3}),
                       sq(pos("right", "rearguard"), {"empire_archer": 10})))
    shot = fight(battle, 2).bombards[0]
    assert shot.target == "защитник, правый арьергард" and shot.shots == 6


def test_manoeuvres_resolve_cover_bombard_defence_charge_then_moves(fight):
    """«Манёвры обрабатываются в таком порядке: укрытия, обстрелы, защита, натиск, а затем смена позиций»
    A squad that moves away is still shot at its starting cell, because bombards come before moves."""
    battle = make(side("empire", sq(pos("left"), {"empire_spearman": 3}),
                       sq(pos("left", "rearguard"), {"empire_archer": 10}, "bombard", pos("left"))),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 10}, "change_position", pos("center"))))
    result = fight(battle, 3)
    assert result.bombards[0].target == "защитник, левый авангард" and result.bombards[0].damage > 0
    assert fights(result, "clash") == []


def test_skipping_planning_drops_every_manoeuvre(fight):
    """«атакующий имеет право пропустить фазу планирования. Ни одна из сторон в таком случае просто не
    использует манёвры.»"""
    battle = make(side("empire", sq(pos("left"), {"empire_spearman": 3}),
                       sq(pos("left", "rearguard"), {"empire_archer": 10}, "bombard", pos("left"))),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 10}, "cover")), skip_planning=True)
    result = fight(battle, 3)
    assert result.bombards == () and any("манёвры не выполняются" in w for w in result.warnings)


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
