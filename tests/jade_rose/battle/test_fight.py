"""One fight, round by round (battle/fight.py): as many attacks a round as the larger squad has units, every unit
attacks before any attacks again, the defender holds when both sides fall in one step or at the round limit
(rule book §1.5, RULINGS «Rounds»); battles run on both implementations."""
from __future__ import annotations

from tests.jade_rose.battle_kit import CONST, duel, fights, one_round, synth, units_with


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
