"""The battle's damage (battle/abilities.py): the damage roll, defence and percentages, outnumbering, and every
unit ability of the four factions (rule book §4) with the side-level modifiers (runes spent, the forge's
distance, the plague); the grudges' +5 % is tested with the other grudge rules (factions/test_dwarves.py).

DATC style: named after the rule or ability, quoting the rule book; tests that fight a battle run on the
reference and on the compiled kernel (the `fight` and `first_round` fixtures, tests/jade_rose/conftest.py).
Random outcomes use fixed seeds; distributions use bounds of four standard errors around the value the rule
implies."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jade_rose.battle import BattleSpecError, fight_once
from engine.jade_rose.battle.abilities import area_targets, incoming_pct, outgoing_pct, round_half_up
from engine.jade_rose.battle.fight import FightSetup, run_fight
from engine.jade_rose.battle.planning import heal_front
from engine.jade_rose.battle.runtime import BattleState, Group
from engine.jade_rose.battle.stats import Area
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

# -- the damage roll (1.1) -------------------------------------------------------------------------------------

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


# -- outnumbering (1.5) ----------------------------------------------------------------------------------------

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


# -- armour piercing ------------------------------------------------------------------------------

@pytest.mark.parametrize("key, minimum", [("empire_crossbowman", 2), ("dwarves_crossbowman", 2),
                                          ("dwarves_stone_thrower", 6), ("dwarves_trebuchet", 6)])
def test_armour_piercing_minimum_on_every_attack(key, minimum):
    """«не может нанести меньше 2-х урона (пробивает броню)» (crossbowmen), «не может нанести меньше 6-х
    урона» (stone thrower, trebuchet): RULINGS JR-31, all their attacks, melee and shots alike."""
    wall = synth("wall", faction="vampires", defense=40)
    battle = duel({key: 1}, {"wall": 1}, att_faction=UNITS[key].faction, units=units_with(wall))
    assert set(samples(battle, n=300)) == {minimum}
    assert set(samples(battle, n=300, ranged=True)) == {minimum}


def test_zhuge_crossbows_pierce_only_with_shots():
    """«наносит минимум 2 урона в дальнем бою (пробивает броню)»: shots only (JR-31)."""
    wall = synth("wall", faction="vampires", defense=40)
    battle = duel({"jade_zhuge_crossbows": 1}, {"wall": 1}, att_faction="jade", units=units_with(wall))
    assert set(samples(battle, n=300, ranged=True)) == {2}
    assert set(samples(battle, n=300)) == {0}


@pytest.mark.parametrize("key", ["vampires_death_knight", "jade_dragon"])
def test_death_knight_and_jade_dragon_deal_at_least_four(key):
    """«наносит минимум 4 урона (пробивает броню)», every attack."""
    wall = synth("wall", faction="empire", defense=40)
    battle = duel({key: 1}, {"wall": 1}, att_faction=UNITS[key].faction, dfd_faction="empire",
                  units=units_with(wall))
    assert set(samples(battle, n=300)) == {4}


def test_armour_piercing_minimum_comes_before_percentages():
    """RULINGS JR-31: «base = max(base, minimum)» then the percentages: a stone thrower (minimum 6) of a side
    with 2 grudges (+10 %) deals round_half_up(6 × 1.1) = 7 against heavy armour."""
    wall = synth("wall", faction="empire", defense=40)
    battle = duel({"dwarves_stone_thrower": 1}, {"wall": 1}, att_faction="dwarves", dfd_faction="empire",
                  units=units_with(wall), att_kw={"grudges": 2})
    assert set(samples(battle, n=200)) == {7}


# -- charges ----------------------------------------------------------------------------------------

def test_knight_first_charge_round_doubles_damage():
    """«+100% к урону в первый ход натиска»: spearmen attack 6 vs defence 1 deal 2.5 a hit; a knight (attack
    13) deals 6 a hit against defence 1, doubled to 12 in the first charge round."""
    battle = duel({"empire_knight": 1}, {"vampires_halfblood": 1})
    plain = samples(battle)
    charging = samples(battle, charge_round=True, setup=lambda own, enemy: setattr(own, "charger", True))
    assert_mean(plain, expected(13, 1))
    assert_mean(charging, expected(13, 1, out=100))
    assert_mean(charging, 2 * expected(13, 1))


@pytest.mark.parametrize("key, faction, bonus", [("vampires_death_knight", "vampires", 100),
                                                 ("vampires_ghoul", "vampires", 200),
                                                 ("jade_beast", "jade", 200)])
def test_charge_bonus_of_death_knight_ghoul_and_beast(key, faction, bonus):
    """«+100% к урону в первый ход натиска» (death knight), «+200%» (ghoul, jade beast)."""
    stats = UNITS[key]
    battle = duel({key: 1}, {"empire_archer": 1}, att_faction=faction, dfd_faction="empire")
    charging = samples(battle, charge_round=True, setup=lambda own, enemy: setattr(own, "charger", True))
    assert_mean(charging, expected(stats.attack, 1, out=bonus, pierce=stats.pierce(False)))


def test_charge_bonus_only_in_the_first_round_of_the_first_fight(monkeypatch):
    """RULINGS: «the charge bonuses ... apply in the first round of the first fight»: against a defended
    rearguard the knights get it against the defenders' first round only."""
    from engine.jade_rose.battle import fight as fight_mod
    seen: list[tuple[int, bool]] = []
    original = fight_mod.roll_damage

    def spy(rng, att, own, tgt, enemy, constants, **kw):
        if att.stats.key == "empire_knight":
            seen.append((id(enemy), kw.get("charge_round", False)))
        return original(rng, att, own, tgt, enemy, constants, **kw)
    monkeypatch.setattr(fight_mod, "roll_damage", spy)
    battle = make(side("empire", sq(pos("left"), {"empire_knight": 4}, "charge", pos("left", "rearguard"))),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 3}, "defend", pos("left", "rearguard")),
                       sq(pos("left", "rearguard"), {"vampires_halfblood": 3})))
    result = fight_once(battle, 10)     # seed 10: the first charge fight lasts three rounds
    first = fights(result, "charge")[0]
    flagged = [c for _, c in seen if c]
    assert len(flagged) == first.start[0] and len(fights(result, "charge")) == 2
    assert all(c for _, c in seen[:len(flagged)])


def test_defenders_against_a_charge_take_less_damage():
    """«-25% к получаемому урону при обороне против натиска» (spearman, miners, engineer), «-50%» (youngbeard,
    longbeard): while their squad fights a charger (JR-42)."""
    for key, faction, pct in (("empire_spearman", "empire", -25), ("dwarves_miner", "dwarves", -25),
                              ("dwarves_engineer", "dwarves", -25), ("dwarves_youngbeard", "dwarves", -50),
                              ("dwarves_longbeard", "dwarves", -50)):
        state, own, enemy = groups(duel({"vampires_ghoul": 1}, {key: 1}, att_faction="vampires", dfd_faction=faction))
        assert incoming_pct(enemy.units[0], enemy, CONST, ranged=False, bombard=False) == 0
        enemy.against_charger = True
        assert incoming_pct(enemy.units[0], enemy, CONST, ranged=False, bombard=False) == pct


# -- auras ----------------------------------------------------------------------------------------

def test_hero_gives_fifteen_percent_once_per_squad():
    """«пассивно +15% урону всему своему отряду. В 1 отряде может быть только 1 герой.» (JR-37: in the
    finale three heroes still give +15 %.)"""
    battle = make(side("empire", sq(pos("left"), {"empire_hero": 1, "empire_spearman": 2}),
                       sq(pos("center"), {"empire_hero": 1}), sq(pos("right"), {"empire_hero": 1})),
                  side("vampires", sq(pos("left"), {"vampires_halfblood": 2})))
    state = BattleState(battle)
    merged = Group(state.sides["attacker"], state.sides["attacker"].living())
    enemy = Group(state.sides["defender"], state.sides["defender"].living())
    spearman = next(u for u in merged.units if u.stats.key == "empire_spearman")
    assert outgoing_pct(spearman, merged, enemy, CONST, ranged=False, charge_round=False) == 15
    with pytest.raises(BattleSpecError):
        make(side("empire", sq(pos("left"), {"empire_hero": 2})),
             side("vampires", sq(pos("left"), {"vampires_halfblood": 2})))


def test_archpriest_shields_its_squad_and_strips_two_armour():
    """«даёт -15% к получаемому урону всему отряду. Каждая атака архижреца снижает броню на 2 (вплоть до
    нуля).» After one round against a knight (defence 5), the knight's defence is 5 − 2 per archpriest attack."""
    battle = duel({"empire_archpriest": 1, "empire_spearman": 1}, {"vampires_death_knight": 1})
    state, own, enemy = groups(battle)
    assert incoming_pct(own.units[1], own, CONST, ranged=False, bombard=False) == -15
    g, rnd = one_round(battle, seed=3)
    knight = g["defender"].units[0]
    assert knight.strip in (0, 2, 4) and knight.defense_now == max(0, 4 - knight.strip)


def test_paladin_heals_itself_and_strips_armour_on_every_attack():
    """«восстанавливают 3 здоровья и снижают броню на 1 при каждом попадании (вплоть до нуля)» (JR-32: also
    when the attack did no damage). A wounded paladin hitting an untouchable target twice regains 6 HP and
    the target loses 2 defence."""
    rock = synth("rock", faction="vampires", attack=0, defense=100)
    battle = duel({"empire_paladin": 1}, {"rock": 1}, units=units_with(rock), constants=replace(CONST, max_rounds=2))
    state, own, enemy = groups(battle)
    own.units[0].hp = 30
    setup = FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"), holder="defender")
    run_fight(Dice(1), setup, replace(CONST, max_rounds=2))
    assert own.units[0].hp == 36 and enemy.units[0].strip == 2


def test_paladin_takes_less_damage_while_defending():
    """«-25% к получаемому урону при защите» (JR-42: while its squad performs the Defence manoeuvre)."""
    state, own, enemy = groups(duel({"vampires_ghoul": 1}, {"empire_paladin": 1}, att_faction="vampires",
                                    dfd_faction="empire"))
    enemy.defending = True
    assert incoming_pct(enemy.units[0], enemy, CONST, ranged=False, bombard=False) == -25


def test_thane_shields_its_squad():
    """«пассивно -15% от урона всему своему отряду. В 1 отряде может быть только 1 тан.»"""
    state, own, enemy = groups(duel({"vampires_ghoul": 1}, {"dwarves_thane": 1, "dwarves_miner": 2},
                                    att_faction="vampires", dfd_faction="dwarves"))
    miner = enemy.units[1]
    assert incoming_pct(miner, enemy, CONST, ranged=False, bombard=False) == -15


def test_engineer_adds_a_quarter_to_its_squads_shots():
    """«дает бонус на стрельбу стрелковым отрядам (+25% к урону) на свой отряд каждый раунд» (JR-44: every shot
    of its own squad, bombards and automatic shots; not melee)."""
    state, own, enemy = groups(duel({"dwarves_crossbowman": 2, "dwarves_engineer": 1}, {"empire_archer": 1},
                                    att_faction="dwarves", dfd_faction="empire"))
    bow = own.units[0]
    assert outgoing_pct(bow, own, enemy, CONST, ranged=True, charge_round=False) == 25
    assert outgoing_pct(bow, own, enemy, CONST, ranged=False, charge_round=False) == 0


def test_engineer_does_not_stop_its_squad_from_bombarding(fight):
    """JR-44: «it does not stop its squad from being ordered to bombard» although it cannot shoot itself: three
    crossbowmen and an engineer fire 6 shots; with a miner instead of the engineer the order is rejected."""
    battle = make(side("dwarves", sq(pos("left"), {"dwarves_miner": 3}),
                       sq(pos("left", "rearguard"), {"dwarves_crossbowman": 3, "dwarves_engineer": 1}, "bombard",
                          pos("left"))),
                  side("empire", sq(pos("left"), {"empire_spearman": 3})))
    assert fight(battle, 1).bombards[0].shots == 3 * UNITS["dwarves_crossbowman"].shots
    with pytest.raises(BattleSpecError):
        make(side("dwarves", sq(pos("left"), {"dwarves_miner": 3}),
                  sq(pos("left", "rearguard"), {"dwarves_crossbowman": 3, "dwarves_miner": 1}, "bombard", pos("left"))),
             side("empire", sq(pos("left"), {"empire_spearman": 3})))


def test_vampire_lord_fear_lowers_the_damage_of_the_squad_it_fights():
    """«-15% наносимому урону отряду, с которым сражается из-за страха.»"""
    state, own, enemy = groups(duel({"empire_crusader": 1}, {"vampires_lord": 1, "vampires_halfblood": 2}))
    assert outgoing_pct(own.units[0], own, enemy, CONST, ranged=False, charge_round=False) == -15
    values = samples(duel({"empire_crusader": 1}, {"vampires_lord": 1, "vampires_halfblood": 2}), target_index=1)
    assert_mean(values, expected(9, 1, out=-15))


def _bombard_at(defenders: dict, faction: str, units=None):
    """Five Empire crossbowmen (10 shots) bombard the defender's centre vanguard from the centre rearguard."""
    return make(side("empire", sq(pos("center"), {"empire_spearman": 5}),
                     sq(pos("center", "rearguard"), {"empire_crossbowman": 5}, "bombard", pos("center"))),
                side(faction, sq(pos("center"), defenders)), units=units)


def test_vampire_lord_fear_weakens_melee_not_shots(fight):
    """RULINGS (Jade Rose: battle, «Vampire lord»): «Its fear («-15% наносимому урону отряду, с которым
    сражается») is −15 % outgoing for the enemy squad fighting the lord's squad in melee: the clash, charge fights
    and the finale. Shots (planning-phase bombards and rearguard shots) are not affected.» A bombard of 10
    crossbow shots at the lord's squad does, seed for seed, the damage of the same bombard at a lord who
    frightens no one, 43.3 on average (37.8 if the fear weakened shots); the squad fighting the lord in melee
    still deals −15 %."""
    fearless = replace(UNITS["vampires_lord"], enemy_melee_outgoing_pct=0)
    state, own, enemy = groups(duel({"empire_crossbowman": 1}, {"vampires_lord": 1, "vampires_halfblood": 2}))
    assert outgoing_pct(own.units[0], own, enemy, CONST, ranged=True, charge_round=False) == 0
    assert outgoing_pct(own.units[0], own, enemy, CONST, ranged=False, charge_round=False) == -15
    squad = {"vampires_lord": 1, "vampires_halfblood": 10}
    feared, plain = [], []
    for seed in range(40):
        with_fear = fight(_bombard_at(squad, "vampires"), seed).bombards
        without = fight(_bombard_at(squad, "vampires", units_with(fearless)), seed).bombards
        assert with_fear[0].shots == 10 and with_fear == without
        feared.append(with_fear[0].damage)
        plain.append(without[0].damage)
    # the mean of a fearless bombard: 10 × (1..9 − defence 1, armour-piercing 2) = 43.3, not 10 × 3.78 = 37.8;
    # the total of 10 shots has a standard deviation of 7, so 40 of them average within ±4.4 (four errors)
    assert sum(feared) == sum(plain)
    assert abs(sum(feared) / 40 - 10 * expected(9, 1, pierce=2)) < 4.4 < abs(10 * expected(9, 1, out=-15, pierce=2)
                                                                             - 10 * expected(9, 1, pierce=2))


def test_vampire_lord_strikes_twice_each_time(first_round):
    """«15 атаки (атакует дважды в ход)» (JR-35: each pick strikes twice). A lord whose hits are all 1
    deals 2 per step against a lone target."""
    lord = replace(UNITS["vampires_lord"], key="lord1", attack=1, hp=1000)
    bag = synth("bag", faction="empire", attack=0)
    rnd = first_round(duel({"lord1": 1}, {"bag": 1}, att_faction="vampires", dfd_faction="empire",
                           units=units_with(lord, bag)))
    assert rnd.damage == (2, 0)


def test_beer_elemental_heals_allies_and_frightens_attackers():
    """«лечения +2 каждый раунд союзникам в своём отряде, -15% урона у всех врагов нападающих на его отряд»"""
    state, own, enemy = groups(duel({"empire_crusader": 1}, {"dwarves_beer_elemental": 1, "dwarves_miner": 1},
                                    dfd_faction="dwarves"))
    assert outgoing_pct(own.units[0], own, enemy, CONST, ranged=False, charge_round=False) == -15
    rock = synth("rock", faction="empire", attack=0, defense=100)
    battle = duel({"rock": 1}, {"dwarves_beer_elemental": 1, "dwarves_miner": 1}, dfd_faction="dwarves",
                  units=units_with(rock))
    state, own, enemy = groups(battle)
    miner, beer = enemy.units[1], enemy.units[0]
    miner.hp, beer.hp = 10, 50
    run_fight(Dice(1), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender"), replace(CONST, max_rounds=3))
    assert miner.hp == 16 and beer.hp == 50


def test_beer_elemental_frightens_shots_too(fight):
    """RULINGS («Vampire lord»): «The beer elemental's −15 % is an outgoing modifier of every enemy attacking its
    squad, shots included.» The same 10 crossbow shots at a beer elemental's squad do less, over 40 seeds, than at
    a squad whose elemental frightens no one, and never more."""
    state, own, enemy = groups(duel({"empire_crossbowman": 1}, {"dwarves_beer_elemental": 1, "dwarves_miner": 1},
                                    dfd_faction="dwarves"))
    assert outgoing_pct(own.units[0], own, enemy, CONST, ranged=True, charge_round=False) == -15
    calm = replace(UNITS["dwarves_beer_elemental"], enemy_outgoing_pct=0)
    squad = {"dwarves_beer_elemental": 1, "dwarves_miner": 10}
    feared = [fight(_bombard_at(squad, "dwarves"), seed).bombards[0].damage for seed in range(40)]
    plain = [fight(_bombard_at(squad, "dwarves", units_with(calm)), seed).bombards[0].damage for seed in range(40)]
    assert all(f <= p for f, p in zip(feared, plain, strict=True)) and sum(feared) < 0.9 * sum(plain)


# -- healing and regeneration -----------------------------------------------------------------------

def test_regeneration_heals_every_round_up_to_max_hp():
    """«регенерация 1/ход» (RULINGS: «ход» in abilities = a round; capped at max HP; the dead never heal)."""
    rock = synth("rock", faction="empire", attack=0, defense=100)
    battle = duel({"rock": 1}, {"vampires_lord": 1, "vampires_halfblood": 1}, units=units_with(rock))
    state, own, enemy = groups(battle)
    lord, half = enemy.units
    lord.hp, half.hp = 90, 14
    run_fight(Dice(1), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender"), replace(CONST, max_rounds=2))
    assert lord.hp == 98 and half.hp == 15


def test_healer_gives_six_hp_over_three_rounds_to_the_squad_in_front():
    """«накладывает регенерацию (6 единиц здоровья за 3 раунда) на случайного бойца впередистоящего (если есть)
    или своего отряда каждый раунд. Регенерация может складываться. Целители не могут лечить других целителей.»
    A healer in the rearguard heals the one wounded vanguard unit: +2 a round, stacking with each new one."""
    rock = synth("rock", faction="vampires", attack=0, defense=100)
    battle = make(side("empire", sq(pos("left"), {"empire_heavy_infantry": 1}),
                       sq(pos("left", "rearguard"), {"empire_healer": 1})),
                  side("vampires", sq(pos("left"), {"rock": 1})), units=units_with(rock))
    state = BattleState(battle)
    front, rear = state.sides["attacker"].squads
    enemy_sq = state.sides["defender"].squads[0]
    front.units[0].hp = 10
    groups_ = {"attacker": Group(state.sides["attacker"], front.units, front),
               "defender": Group(state.sides["defender"], enemy_sq.units, enemy_sq)}
    setup = FightSetup("clash", "left", groups_, ("a", "d"), holder="defender",
                       support={"attacker": Group(state.sides["attacker"], rear.units, rear), "defender": None},
                       heal_target=lambda h, g: heal_front(state, h, g))
    run_fight(Dice(1), setup, replace(CONST, max_rounds=3))
    assert front.units[0].hp == 10 + 2 + 4 + 6


def test_healer_never_heals_healers():
    """«Целители не могут лечить других целителей.» A wounded healer next to a healer stays wounded."""
    rock = synth("rock", faction="vampires", attack=0, defense=100)
    battle = duel({"empire_healer": 2}, {"rock": 1}, units=units_with(rock))
    state, own, enemy = groups(battle)
    own.units[0].hp = 5
    run_fight(Dice(1), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender", heal_target=lambda h, g: g.units),
              replace(CONST, max_rounds=4))
    assert own.units[0].hp == 5


# -- area hits -------------------------------------------------------------------------------------

@pytest.mark.parametrize("key, living, hits", [("jade_colossus", 10, 2), ("jade_colossus", 30, 4),
                                               ("jade_colossus", 2, 1), ("jade_dragon", 10, 3),
                                               ("jade_dragon", 40, 6)])
def test_colossus_and_dragon_hit_part_of_the_enemy_squad(first_round, key, living, hits):
    """«в ближнем бою атакует 20% вражеского отряда (максимум 4 юнита)» (colossus), «в ближнем бою задевает 30%
    отряда (максимум 6 юнитов)» (dragon); JR-30: round_half_up(pct × living), at least 1, distinct units,
    each with its own roll."""
    big = replace(UNITS[key], key="big", attack=1, hp=10000, pierce_min=0)
    bag = synth("bag", faction="empire", attack=0)
    rnd = first_round(duel({"big": 1}, {"bag": living}, att_faction="jade", dfd_faction="empire",
                           units=units_with(big, bag)))
    assert rnd.damage[0] == hits * living        # `living` steps, each hitting `hits` units for 1


@pytest.mark.parametrize("key, living, hits", [("vampires_bone_cannon", 3, 1), ("vampires_bone_cannon", 12, 2),
                                               ("vampires_bone_cannon", 40, 5), ("jade_green_hail", 1, 1),
                                               ("jade_green_hail", 10, 4), ("jade_green_hail", 50, 10)])
def test_bone_cannon_and_green_hail_shots_hit_part_of_the_squad(key, living, hits):
    """«в дальнем бою задевает 20% вражеского отряда, но минимум 1 и максимум 5 юнитов» (bone cannon),
    «каждый выстрел задевает 35% вражеского отряда, минимум 1, максимум 10 юнитов» (Green Hail)."""
    battle = duel({key: 1}, {"empire_spearman": living}, att_faction=UNITS[key].faction, dfd_faction="empire")
    state, own, enemy = groups(battle)
    chosen = area_targets(Dice(3), own.units[0], enemy.living(), ranged=True)
    assert len(chosen) == hits == len({u.uid for u in chosen})
    assert Area(20, 1, 5).hits(12) == 2


# -- dwarven specials -------------------------------------------------------------------------------

def test_golem_gains_two_attack_after_each_round_it_was_hurt():
    """«после каждого раунда где получал урон, получает +2 к атаке» (JR-45: cumulative)."""
    golem = replace(UNITS["dwarves_great_golem"], key="golem1", hp=10000, runes=False)
    poke = synth("poke", faction="empire", attack=100)
    battle = duel({"poke": 1}, {"golem1": 1}, dfd_faction="dwarves", units=units_with(golem, poke))
    state, own, enemy = groups(battle)
    run_fight(Dice(1), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender"), replace(CONST, max_rounds=3))
    assert enemy.units[0].atk_bonus == 6
    rock = synth("rock", faction="empire", attack=0, defense=100)
    state, own, enemy = groups(duel({"rock": 1}, {"golem1": 1}, dfd_faction="dwarves", units=units_with(golem, rock)))
    run_fight(Dice(1), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender"), replace(CONST, max_rounds=3))
    assert enemy.units[0].atk_bonus == 0


def test_rune_of_fortitude_or_wrath_each_round(monkeypatch):
    """«Каждый ход активирует случайную руну из списка: руна стойкости (+3 защиты +лечение на 2 здоровья),
    руна гнева (+1 атака +25% урона)» (JR-45: one random rune per round, for that round)."""
    from engine.jade_rose.battle import fight as fight_mod
    seen = []
    original = fight_mod._round_start

    def spy(rng, setup, number, dealt, constants):
        original(rng, setup, number, dealt, constants)
        guard = setup.groups["defender"].units[0]
        seen.append((guard.rune, guard.defense_now, guard.attack_now, guard.hp))
    monkeypatch.setattr(fight_mod, "_round_start", spy)
    rock = synth("rock", faction="empire", attack=0, defense=100)
    battle = duel({"rock": 1}, {"dwarves_rune_guard": 1}, dfd_faction="dwarves", units=units_with(rock))
    state, own, enemy = groups(battle)
    enemy.units[0].hp = 10
    run_fight(Dice(2), FightSetup("clash", "center", {"attacker": own, "defender": enemy}, ("a", "d"),
                                           holder="defender"), replace(CONST, max_rounds=40))
    fort, wrath = CONST.runes
    kinds = [r for r, *_ in seen]
    assert 8 <= kinds.count(fort) <= 32 and kinds.count(fort) + kinds.count(wrath) == 40
    for rune, dfn, atk, _ in seen:
        assert (dfn, atk) == (5 + rune.defense, 18 + rune.attack)
    assert seen[-1][3] == min(50, 10 + 2 * kinds.count(fort))
    assert enemy.units[0].rune.defense == 0          # runes last one round


def test_fragulex_breath_burns_twenty_over_two_rounds_every_other_round(fight):
    """«каждый второй ход (начиная с первого) атакует огненным дыханием случайного врага (-20 единиц здоровья за
    2 раунда, игнорирует броню)» (JR-46: rounds 1, 3, 5…, 10 at once and 10 at the end of the next round)."""
    drake = replace(UNITS["dwarves_fragulex"], key="drake", attack=1)
    rock = synth("rock", faction="empire", attack=0, defense=100)
    battle = duel({"drake": 1}, {"rock": 1}, att_faction="dwarves", dfd_faction="empire",
                  units=units_with(drake, rock), constants=replace(CONST, max_rounds=5))
    rounds = fights(fight(battle, 1), "clash")[0].rounds
    assert [r.damage[0] for r in rounds] == [10, 10, 10, 10, 10]


def test_free_position_change_once_if_every_unit_has_it(fight):
    """«один раз могут бесплатно совершить манёвр 'смена позиции' (т.е. может выполнять два манёвра в ход)»
    (JR-36: only if the whole squad has it). Griffon riders charge and then move; with knights they cannot."""
    enemy = side("vampires", sq(pos("left"), {"vampires_halfblood": 4}), sq(pos("center"), {"vampires_halfblood": 4}),
                 sq(pos("left", "rearguard"), {"vampires_warlock": 1}))
    battle = make(side("empire", sq(pos("left"), {"empire_griffon_rider": 3}, "charge", pos("left", "rearguard"),
                                    free=pos("center"))), enemy)
    clash = fights(fight(battle, 1), "clash")
    assert clash and clash[0].flank == "center" and clash[0].start[0] <= 3
    with pytest.raises(BattleSpecError) as err:
        make(side("empire", sq(pos("left"), {"empire_griffon_rider": 3, "empire_knight": 1}, "charge",
                               pos("left", "rearguard"), free=pos("center"))), enemy)
    assert "Рыцарь" in err.value.problems[0]


def test_jade_colossus_squad_cannot_manoeuvre():
    """«не может выполнять манёвры» (JR-43: a squad containing a colossus cannot manoeuvre at all)."""
    with pytest.raises(BattleSpecError) as err:
        make(side("jade", sq(pos("left"), {"jade_colossus": 1, "jade_warrior": 4}, "cover")),
             side("empire", sq(pos("left"), {"empire_spearman": 3})))
    assert "не может выполнять манёвры" in err.value.problems[0]


def test_dragon_squad_must_not_hold_a_colossus():
    """«В 1 отряде может быть только 1 нефритовый дракон, при этом там не должно быть нефритового колосса»"""
    with pytest.raises(BattleSpecError) as err:
        make(side("jade", sq(pos("left"), {"jade_dragon": 1, "jade_colossus": 1})),
             side("empire", sq(pos("left"), {"empire_spearman": 3})))
    assert any("Нефритовый колосс" in p for p in err.value.problems)


# -- damage taken modifiers -------------------------------------------------------------------------

@pytest.mark.parametrize("key, faction, melee, ranged", [
    ("empire_griffon_rider", "empire", -30, 0), ("dwarves_rune_guard", "dwarves", -25, 0),
    ("jade_colossus", "jade", 0, 50), ("jade_dragon", "jade", 0, 50),
    ("jade_green_shields", "jade", 0, -30), ("jade_guard", "jade", 0, -30)])
def test_melee_and_ranged_damage_taken_modifiers(key, faction, melee, ranged):
    """«-30% урона от атак в ближнем бою» (griffon rider), «-25% урона от атак в ближнем бою» (rune guard),
    «+50% к получаемому урону от выстрелов» (colossus, dragon), «-30% получаемого урона от выстрелов»
    (green shields, jade guard)."""
    state, own, enemy = groups(duel({"vampires_ghoul": 1}, {key: 1}, att_faction="vampires", dfd_faction=faction))
    unit = enemy.units[0]
    assert incoming_pct(unit, enemy, CONST, ranged=False, bombard=False) == melee
    assert incoming_pct(unit, enemy, CONST, ranged=True, bombard=False) == ranged


# -- side-level modifiers ----------------------------------------------------------------------------

def test_each_rune_spent_takes_five_percent_off():
    """«каждая руна даст -5% к получаемому урону всем вашим юнитам (эффект складывается)» (up to 10 runes)."""
    battle = duel({"empire_crusader": 1}, {"dwarves_longbeard": 1}, dfd_faction="dwarves", dfd_kw={"runes": 4})
    assert_mean(samples(battle), expected(9, 4, inn=-20))
    with pytest.raises(BattleSpecError):
        duel({"empire_crusader": 1}, {"dwarves_longbeard": 1}, dfd_faction="dwarves", dfd_kw={"runes": 11})


@pytest.mark.parametrize("distance", [0, 1, 2, 3, 4])
def test_forge_distance_modifiers(distance):
    """«0 (оборона Кузни) - +30% исходящему урону, -30% входящему урону; 1 - +10%/-10%; 2 - без эффектов;
    3 - штраф -20% исходящему, +20% входящему урону; 4 - -50%/+50%. Штраф на исходящий урон также действует на
    воинов-людей ... а вот на получаемый ими урон близость к Великой Кузне не влияет.» (JR-91.)"""
    out, inn = CONST.forge_outgoing_pct[distance], CONST.forge_incoming_pct[distance]
    state, own, enemy = groups(duel({"jade_warrior": 1, "jade_militiaman": 1}, {"empire_archer": 1},
                                    att_faction="jade", dfd_faction="empire", att_kw={"forge_distance": distance}))
    creature, human = own.units
    for unit in (creature, human):
        assert outgoing_pct(unit, own, enemy, CONST, ranged=False, charge_round=False) == out
    assert incoming_pct(creature, own, CONST, ranged=False, bombard=False) == inn
    assert incoming_pct(human, own, CONST, ranged=False, bombard=False) == 0


def test_jade_creatures_switch_off_five_roads_from_the_forge(fight):
    """«5 - нефритовые создания отключаются, сражение невозможно.» (RULINGS: they stay out, unharmed.)"""
    battle = duel({"jade_warrior": 4, "jade_militiaman": 3}, {"empire_spearman": 2}, att_faction="jade",
                  dfd_faction="empire", att_kw={"forge_distance": 5})
    result = fight(battle, 1)
    assert dict(result.attacker.deployed) == {"jade_militiaman": 3}
    assert dict(result.attacker.idle) == {"jade_warrior": 4}
    assert dict(result.attacker.survivors)["jade_warrior"] == 4


def test_jade_plague_turns_enemy_dead_into_jade_warriors(fight):
    """«Храм нефритовой чумы: ... каждый убитый вами вражеский юнит после боя превращается в нефритового воина»
    (RULINGS: after the enemy's 20 % recovery)."""
    battle = duel({"jade_green_shields": 8}, {"empire_spearman": 5}, att_faction="jade", dfd_faction="empire",
                  att_kw={"plague": True})
    result = fight(battle, 1)
    assert result.winner == "attacker"
    assert result.attacker.converted == result.defender.total("losses") - result.defender.total("recovered") > 0
