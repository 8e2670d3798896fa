"""The planning phase (battle/planning.py): the manoeuvres of rule book §1.4 (cover, bombards, defence, charges,
position changes, free moves), in their order; DATC style, battles run on both implementations."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jade_rose.battle import (
    BattleSpecError,
    parse_spec,
)
from engine.jade_rose.battle.abilities import outgoing_pct
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
    make,
    pos,
    samples,
    side,
    sq,
    synth,
    units_with,
)

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
