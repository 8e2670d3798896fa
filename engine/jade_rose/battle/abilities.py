"""Damage of one attack and the percentage modifiers that feed it (RULINGS "Damage of one attack").

damage = round_half_up(base × (1 + Σout) × (1 + Σin)), base = max(0, roll − defence), raised to the
armour-piercing minimum where it applies; each factor is clamped at >= 0.
"""
from __future__ import annotations

from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.runtime import Group, Unit
from engine.rng import Dice


def round_half_up(numerator: int, denominator: int) -> int:
    """round(n / d) with halves going up, for non-negative integers."""
    return (2 * numerator + denominator) // (2 * denominator)


def scale(base: int, out_pct: int, in_pct: int) -> int:
    """Apply the summed outgoing and incoming percentages to a post-defence base."""
    return round_half_up(base * max(0, 100 + out_pct) * max(0, 100 + in_pct), 10000)


def outgoing_pct(att: Unit, own: Group, target_group: Group, constants: BattleConstants, *,
                 ranged: bool, charge_round: bool) -> int:
    """Σout of an attacker: auras of its squad, charge, rune, grudges, forge, fatigue, enemy fear.

    The beer elemental's −15 % weakens every attack on its squad, shots included; the vampire lord's fear
    only the melee of the squad fighting his (RULINGS «Vampire lord»: the clash, charge fights, the finale)."""
    s = att.stats
    pct = own.aura("squad_outgoing_pct") + own.side.outgoing + att.rune.outgoing_pct
    pct += att.fatigue * constants.fatigue_outgoing_pct
    pct += target_group.aura("enemy_outgoing_pct")
    if ranged:
        pct += own.aura("squad_shot_bonus_pct")
    else:
        pct += target_group.aura("enemy_melee_outgoing_pct")
    if charge_round and own.charger:
        pct += s.charge_bonus_pct
    return pct


def incoming_pct(tgt: Unit, group: Group, constants: BattleConstants, *, ranged: bool, bombard: bool) -> int:
    """Σin of a target: squad auras, per-unit resistances, charge/defence, runes, forge, penalties, cover."""
    s = tgt.stats
    pct = group.aura("squad_incoming_pct") + group.side.incoming
    if s.jade_creature:
        pct += group.side.creature_incoming
    if ranged:
        pct += s.ranged_taken_pct
    else:
        pct += s.melee_taken_pct
        if group.outnumbered:
            pct += constants.outnumber_taken_pct
    if group.against_charger:
        pct += s.anti_charge_taken_pct
    if group.defending:
        pct += s.defending_taken_pct
    if group.flanked:
        pct += constants.flanking_taken_pct
    if bombard and group.cover:
        pct += constants.cover_taken_pct
    return pct


def roll_damage(rng: Dice, att: Unit, own: Group, tgt: Unit, target_group: Group,
                constants: BattleConstants, *, ranged: bool, charge_round: bool = False,
                bombard: bool = False) -> int:
    """One attack (melee) or one shot of `att` on `tgt`, against the current state."""
    top = att.stats.ranged_damage if ranged else att.attack_now
    roll = rng.below(top) + 1
    base = max(0, roll - tgt.defense_now)
    base = max(base, att.stats.pierce(ranged))
    if base == 0:
        return 0
    out = outgoing_pct(att, own, target_group, constants, ranged=ranged, charge_round=charge_round)
    inc = incoming_pct(tgt, target_group, constants, ranged=ranged, bombard=bombard)
    return scale(base, out, inc)


def area_targets(rng: Dice, att: Unit, living: list[Unit], ranged: bool) -> list[Unit]:
    """The distinct units one attack hits: one random unit, or an area (JR-30), drawn by a partial
    Fisher-Yates shuffle of the living units in deployment order (the kernel's draws, one for one)."""
    area = att.stats.area_ranged if ranged else att.stats.area_melee
    n = len(living)
    if area is None or n <= 1:
        return [living[rng.below(n)]]
    pool = list(living)
    k = area.hits(n)
    for i in range(k):
        j = i + rng.below(n - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]
