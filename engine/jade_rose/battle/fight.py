"""One fight between two squads, round by round (RULINGS "Rounds"): the reference per-unit loop.

Round: (1) outnumbering check; (2) round-start effects (runes, breath, rearguard shots) against the
state before any of them, deaths after; (3) N = max(living) steps, in each the next unit of each
side's rotation strikes a random living enemy, both against the step's starting state, deaths at the
end of the step; end of round: afterburn, regeneration, healers, beer, golem growth.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from engine.jade_rose.battle.abilities import area_targets, roll_damage
from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.result import FightSummary, RoundSummary, counts
from engine.jade_rose.battle.runtime import NO_RUNE, Group, Unit
from engine.jade_rose.battle.stats import healer_ticks
from engine.rng import Dice

ROLES = ("attacker", "defender")


class Rotation:
    """Every living unit attacks once, in random order, before anyone attacks again.

    The queue starts as the living units in deployment order; each pick draws one of the units still
    queued and swaps the last one into its place (the kernel does exactly this, draw for draw); a dead
    unit drawn from the queue is dropped and the draw repeated.
    """

    def __init__(self, group: Group, rng: Dice):
        self.group = group
        self.rng = rng
        self.queue: list[Unit] = []

    def next(self) -> Unit | None:
        while True:
            queue = self.queue
            while queue:
                j = self.rng.below(len(queue))
                unit = queue[j]
                queue[j] = queue[-1]
                queue.pop()
                if unit.alive:
                    return unit
            self.queue = self.group.living()
            if not self.queue:
                return None


@dataclass
class FightSetup:
    """Who fights whom and what surrounds the fight.

    groups: the fighting group of each role; support: rearguard squads that shoot (clash only);
    heal_target: where a healer's regeneration goes; holder: the role that holds on a timeout.
    """

    phase: str
    flank: str
    groups: dict[str, Group]
    labels: tuple[str, str]
    holder: str
    support: dict[str, Group | None] = field(default_factory=dict)
    heal_target: Callable[[Unit, Group], list[Unit]] | None = None
    charge_bonus: bool = False


class Pending:
    """Damage dealt inside one step or one round-start phase, applied together."""

    def __init__(self) -> None:
        self.hits: list[tuple[Unit, int]] = []

    def add(self, unit: Unit, dmg: int) -> None:
        self.hits.append((unit, dmg))

    def apply(self, dealt: dict[str, int]) -> None:
        for unit, dmg in self.hits:
            if dmg > 0:
                unit.hp -= dmg
                unit.hurt = True
                dealt[_other(unit.role)] += dmg
        self.hits.clear()


def _other(role: str) -> str:
    return "defender" if role == "attacker" else "attacker"


def run_fight(rng: Dice, setup: FightSetup, constants: BattleConstants) -> FightSummary:
    groups = setup.groups
    start = (len(groups["attacker"].living()), len(groups["defender"].living()))
    rotations = {r: Rotation(groups[r], rng) for r in ROLES}
    rounds: list[RoundSummary] = []
    deaths_total: dict[str, dict[str, int]] = {r: {} for r in ROLES}
    winner = ""
    number = 0
    while not winner:
        number += 1
        dealt = {r: 0 for r in ROLES}
        died = {r: 0 for r in ROLES}
        _round(rng, setup, rotations, number, dealt, died, deaths_total, constants)
        alive = {r: len(groups[r].living()) for r in ROLES}
        rounds.append(RoundSummary(number, (dealt["attacker"], dealt["defender"]),
                                   (died["attacker"], died["defender"]), (alive["attacker"], alive["defender"])))
        if not alive["attacker"] and not alive["defender"]:
            winner = "both_dead"
        elif not alive["attacker"]:
            winner = "defender"
        elif not alive["defender"]:
            winner = "attacker"
        elif number >= constants.max_rounds:
            winner = "timeout"
    for r in ROLES:
        for u in groups[r].units:
            u.rune = NO_RUNE
    return FightSummary(setup.phase, setup.flank, setup.labels, start, tuple(rounds), winner,
                        (counts(deaths_total["attacker"]), counts(deaths_total["defender"])))


Counts = dict[str, int]                         # by role: damage dealt or deaths of a round
Deaths = dict[str, dict[str, int]]              # by role, then unit key: the fight's dead


def _round(rng: Dice, setup: FightSetup, rotations: dict[str, Rotation], number: int, dealt: Counts,
           died: Counts, deaths_total: Deaths, constants: BattleConstants) -> None:
    groups = setup.groups
    x, y = groups["attacker"], groups["defender"]
    nx, ny = len(x.living()), len(y.living())
    x.outnumbered = ny >= constants.outnumber_ratio * nx
    y.outnumbered = nx >= constants.outnumber_ratio * ny
    _round_start(rng, setup, number, dealt, constants)
    _deaths(setup, died, deaths_total)
    if not x.living() or not y.living():
        _end_of_round(rng, setup, dealt, died, deaths_total, constants)
        return
    steps = max(len(x.living()), len(y.living()))
    charge_round = setup.charge_bonus and number == 1
    pending = Pending()
    after: list[tuple[Unit, Unit]] = []
    for _ in range(steps):
        for role in ROLES:
            att = rotations[role].next()
            if att is not None:
                _attack(rng, att, groups[role], groups[_other(role)], pending, after, constants, charge_round)
        pending.apply(dealt)
        for att, tgt in after:
            if att.hp > 0:
                att.heal(att.stats.heal_self_on_attack)
            tgt.strip += att.stats.strip_defense
        after.clear()
        _deaths(setup, died, deaths_total)
        if not x.living() or not y.living():
            break
    _end_of_round(rng, setup, dealt, died, deaths_total, constants)


def _attack(rng: Dice, att: Unit, own: Group, enemy: Group, pending: Pending, after: list[tuple[Unit, Unit]],
            constants: BattleConstants, charge_round: bool) -> None:
    """The picked unit strikes (twice for the vampire lord); area units hit several targets each."""
    if att.attack_now <= 0:
        return
    living = enemy.living()
    for _ in range(att.stats.attacks_per_pick):
        for tgt in area_targets(rng, att, living, ranged=False):
            pending.add(tgt, roll_damage(rng, att, own, tgt, enemy, constants, ranged=False,
                                         charge_round=charge_round))
            if att.stats.heal_self_on_attack or att.stats.strip_defense:
                after.append((att, tgt))


def _round_start(rng: Dice, setup: FightSetup, number: int, dealt: Counts, constants: BattleConstants) -> None:
    """Runes, then breath and rearguard shots, all against the state before any of them."""
    groups = setup.groups
    for role in ROLES:
        for u in groups[role].living():
            if u.stats.runes:
                u.rune = constants.runes[rng.below(len(constants.runes))]
                u.heal(u.rune.heal)
    pending = Pending()
    for role in ROLES:
        enemy = groups[_other(role)]
        targets = enemy.living()
        for u in groups[role].living():
            s = u.stats
            if s.breath_every and (number - 1) % s.breath_every == 0 and targets:
                tgt = targets[rng.below(len(targets))]
                pending.add(tgt, s.breath_now)
                if s.breath_next:
                    tgt.dots.append([2, s.breath_next])
        support = setup.support.get(role)
        if support is not None and targets:
            for u in support.living():
                if u.stats.shooter:
                    for _ in range(constants.rearguard_shots_per_round):
                        for tgt in area_targets(rng, u, targets, ranged=True):
                            pending.add(tgt, roll_damage(rng, u, support, tgt, enemy, constants, ranged=True))
    pending.apply(dealt)


def _deaths(setup: FightSetup, died: Counts, deaths_total: Deaths) -> None:
    for role in ROLES:
        for group in (setup.groups[role], setup.support.get(role)):
            if group is not None:
                _mark_dead(group.units, died, deaths_total)


def _mark_dead(units: Iterable[Unit], died: Counts, deaths_total: Deaths) -> None:
    for u in units:
        if u.alive and u.hp <= 0:
            u.alive = False
            died[u.role] += 1
            deaths_total[u.role][u.stats.key] = deaths_total[u.role].get(u.stats.key, 0) + 1


def _end_of_round(rng: Dice, setup: FightSetup, dealt: Counts, died: Counts, deaths_total: Deaths,
                  constants: BattleConstants) -> None:
    """Afterburn, regeneration, healers, the beer elemental, golem growth; runes expire."""
    groups = [g for r in ROLES for g in (setup.groups[r], setup.support.get(r)) if g is not None]
    ticking: dict[int, Unit] = {u.uid: u for g in groups for u in g.units}
    for g in groups:
        for healer in g.units:
            if healer.stats.healer and setup.heal_target:
                ticking.update((t.uid, t) for t in setup.heal_target(healer, g))
    burn = Pending()
    for u in ticking.values():
        for dot in u.dots:
            dot[0] -= 1
            if dot[0] == 0 and u.alive:
                burn.add(u, dot[1])
        u.dots = [d for d in u.dots if d[0] > 0]
    burn.apply(dealt)
    _mark_dead(ticking.values(), died, deaths_total)
    for u in ticking.values():
        if u.stats.regen:
            u.heal(u.stats.regen)
    for g in groups:
        for healer in g.living():
            if not healer.stats.healer:
                continue
            targets = setup.heal_target(healer, g) if setup.heal_target else g.units
            wounded = [t for t in targets if t.alive and not t.stats.healer and t.hp < t.stats.hp]
            if wounded:
                tgt = wounded[rng.below(len(wounded))]
                tgt.hots.append(list(healer_ticks(healer.stats)))
    for u in ticking.values():
        if u.hots:
            u.heal(sum(h.pop(0) for h in u.hots))
            u.hots = [h for h in u.hots if h]
    for g in groups:
        for beer in g.living():
            if beer.stats.squad_heal:
                for ally in g.living():
                    if ally is not beer:
                        ally.heal(beer.stats.squad_heal)
    for u in ticking.values():
        if u.alive and u.hurt and u.stats.grow_attack_when_hurt:
            u.atk_bonus += u.stats.grow_attack_when_hurt
        u.hurt = False
        u.rune = NO_RUNE
