"""C1.2 and 10.1: Might = owned Shrines; highest first; orcs first among equals; d6 for the rest."""
from __future__ import annotations

from collections.abc import Mapping

from engine.rng import Random


def _roll_order(group: list[str], given: Mapping[str, object], rng: Random) -> list[str]:
    """Order a tie group by d6, highest first; equal dice (or missing ones) are rolled again (G12 a)."""
    rolls: dict[str, int] = {}
    for f in group:
        d = given.get(f)
        rolls[f] = d if isinstance(d, int) and not isinstance(d, bool) else rng.randint(1, 6)
    out: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [f for f in group if rolls[f] == value]
        if len(tied) == 1:
            out += tied
        else:
            out += _roll_order(tied, {}, rng)
    return out


def turn_order(might: Mapping[str, int], first_on_ties: Mapping[str, bool], dice: Mapping[str, object],
               rng: Random) -> list[str]:
    """The move order of the player factions (fixed for the whole turn)."""
    order: list[str] = []
    for value in sorted(set(might.values()), reverse=True):
        group = [f for f in might if might[f] == value]
        firsts = [f for f in group if first_on_ties.get(f)]
        rest = [f for f in group if not first_on_ties.get(f)]
        order += _roll_order(firsts, dice, rng) if len(firsts) > 1 else firsts
        order += _roll_order(rest, dice, rng) if len(rest) > 1 else rest
    return order
