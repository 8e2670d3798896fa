"""Support offers evaluated at battle time (10.4.3 step 3; C3.2-C6.2, C11.2, G17 a, G18 a, G69 a)."""
from __future__ import annotations

import math
from dataclasses import dataclass

from engine.titania.board import NATIVES, Army, Offer
from engine.titania.world import World


@dataclass(frozen=True)
class Counted:
    """A support that counts in a battle."""

    faction: str
    origin: str
    value: int
    bonus: int  # the High-elf +1 in defence, added to the side's modifiers (SCHEMA §2)
    supporter: str  # the supporting army's faction


def _void(offer: Offer, reason: str) -> None:
    offer.state, offer.reason = "void", reason


def invalid_reason(w: World, offer: Offer, province: str, attacker_side: bool, origin: str) -> str | None:
    """Why a matching offer cannot count (None: it counts)."""
    army = offer.task.army
    if army is None or not army.alive:
        return "engaged"
    if not w.map.adjacent(army.province, province):
        if army.uid not in w.effects.support_anywhere:
            return "not_adjacent"
        w.fire("support_anywhere", army.uid)
    if army.moved or army.attacked or army.was_attacked:  # C6.2
        return "engaged"
    double = army.uid in w.effects.double_support
    if army.supports >= (2 if double else 1):  # C5.2 (Humans: two battles, G49 a)
        return "already_supported"
    if attacker_side and army.province == origin:  # C11.2 (G19 a)
        return "same_origin"
    return None


def support_value(w: World, army: Army) -> int:
    """What the army adds to a side before the battle's own effects (SCHEMA §4): its Strength plus the Might and
    spell bonuses it carries. The Tactics squad's second support adds ⌈V/2⌉, V being what it added in its first
    (G49 a, ruling T4-1: «Во втором сражении подмога даёт бонус лишь половину от своей силы (округляя в большую
    сторону)»), whatever joined it in between; March of the dead and the High-elf +1 come after the halving."""
    if army.supports == 0:
        army.first_support = army.strength + army.bonus
        return army.first_support
    w.fire("double_support", army.uid)
    return math.ceil(army.first_support / 2)


def collect(w: World, province: str, attacker: Army, origin: str, defenders: list[str],
            no_support: bool) -> tuple[list[Counted], list[Counted]]:
    """The supports counted for (attacker side, defender side); every matching offer is spent (SCHEMA §4)."""
    att: list[Counted] = []
    dfn: list[Counted] = []
    penalty = w.race(attacker.faction).enemy_support_penalty
    for task in w.tasks:
        for offer in task.offers:
            if offer.state != "pending" or offer.target != province:
                continue
            if offer.faction == attacker.faction:
                attacker_side = True
            elif offer.faction in defenders:
                attacker_side = False
            else:
                continue
            if no_support or offer.faction == NATIVES:  # natives neither give nor receive support
                _void(offer, "no_support_allowed")
                continue
            reason = invalid_reason(w, offer, province, attacker_side, origin)
            army = offer.task.army
            if reason is not None or army is None:
                _void(offer, reason or "engaged")
                continue
            value = support_value(w, army)
            army.supports += 1
            offer.state = "counted"
            race = w.race(army.faction)
            if not attacker_side:
                value = max(0, value - penalty)  # March of the dead (G62 a)
                bonus = race.defence_support_bonus  # Defenders of Ulthuan (G56 a)
            else:
                bonus = 0
            (att if attacker_side else dfn).append(Counted(offer.faction, army.province, value, bonus,
                                                           army.faction))
    return att, dfn


def mark_empty_entry(w: World, province: str, faction: str) -> None:
    """C4.2: a faction entered a province that held no troops: supports for it there are void."""
    for task in w.tasks:
        for offer in task.offers:
            if offer.state == "pending" and offer.target == province and offer.faction == faction:
                _void(offer, "empty_province")
