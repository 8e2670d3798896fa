"""What a battle cost each army, as people are told it: never more than the army had.

The adjudicator's battle record keeps the damage dealt (SCHEMA §2 `damage`: `attacker` and the defenders'
`defender` total, a Boss fight's `to_attacker`), which may exceed Strength: an army of 2 that attacks 7 takes
7 and loses its 2. Every text that shows a loss (the forum posts, the Russian report, the «Бои» tabs, the
«Расчёт боя» tab, the chronicle) shows min(damage, Strength) — per army when allies defend together.

The record keeps only the defenders' total, so each allied army's part is read back by the rule that split it
(A9.1, G23 a): in a draw each army loses half its own Strength, rounded up (Dwarf resilience: nothing); otherwise
the attacker's damage (its Strength, Ferocity's +1) is shared equally, the odd points one each to the largest
armies, and Thick hides take 1 off each Lizardmen share. When that reading does not add up to the recorded
total (a rule added later), the total itself is shared the same way. Either way no army is shown losing more
than it had, and the shown parts never add up to more than the record's total.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from engine.titania.races import RACES
from engine.titania.state_types import TitaniaState

NATIVES = "natives"


def races_of(state: TitaniaState) -> dict[str, str]:
    """Faction and Keeper id -> race id, from a game state."""
    out = {kid: str(k.get("race")) for kid, k in (state.get("keepers") or {}).items()}
    out.update({fid: str(f.get("race")) for fid, f in (state.get("factions") or {}).items()})
    return out


def attacker_loss(b: Mapping[str, Any]) -> int:
    """The attacking army's loss: the damage it took (a Boss's `to_attacker` too), at most its Strength."""
    dmg = b["damage"]
    taken = dmg["to_attacker"] if b.get("kind") == "boss" else dmg["attacker"]
    return max(0, min(int(taken), int(b["attacker"]["strength"])))


def shares(total: int, strengths: Sequence[int], names: Sequence[str] = ()) -> list[int]:
    """`total` in equal shares, the odd points one each to the largest armies (equals by `names`, as the
    adjudicator orders them; unnamed: the first first)."""
    if not strengths:
        return []
    share, rest = divmod(max(0, total), len(strengths))
    out = [share] * len(strengths)
    for i in sorted(range(len(strengths)), key=lambda i: (-strengths[i], names[i] if i < len(names) else ""))[:rest]:
        out[i] += 1
    return out


def _by_the_rule(b: Mapping[str, Any], armies: Sequence[Mapping[str, Any]],
                 races: Mapping[str, str]) -> list[int] | None:
    """Each defending army's damage as the adjudicator dealt it, from the races; None without them."""
    def race(fid: object) -> Any:
        return RACES.get(races.get(str(fid), ""))

    strengths = [int(x["strength"]) for x in armies]
    if b.get("result") == "draw":
        kinds = [race(x["faction"]) for x in armies]
        return [0 if k is not None and k.no_draw_losses else math.ceil(s / 2)
                for k, s in zip(kinds, strengths, strict=True)]
    attacker = race(b["attacker"]["faction"])
    dealt = int(b["attacker"]["strength"]) + (attacker.attack_damage_bonus if attacker is not None else 0)
    split = shares(dealt, strengths, [str(x["faction"]) for x in armies])
    out = []
    for x, part in zip(armies, split, strict=True):
        k = race(x["faction"])
        out.append(max(0, part - (k.damage_reduction if k is not None and x["faction"] != NATIVES else 0)))
    return out


def defender_losses(b: Mapping[str, Any], races: Mapping[str, str] | None = None) -> list[int]:
    """Each defending army's loss (in the order of the record's `defender.armies`), each at most its Strength."""
    armies = list(b["defender"].get("armies") or [])
    total = max(0, int(b["damage"]["defender"]))
    if not armies:
        return []
    strengths = [int(x["strength"]) for x in armies]
    if len(armies) == 1:
        return [min(total, strengths[0])]
    dealt = _by_the_rule(b, armies, races) if races is not None else None
    if dealt is None or sum(dealt) != total:
        halves = [math.ceil(s / 2) for s in strengths]
        dealt = halves if b.get("result") == "draw" and sum(halves) == total else \
            shares(total, strengths, [str(x["faction"]) for x in armies])
    return [min(d, s) for d, s in zip(dealt, strengths, strict=True)]


def defender_loss(b: Mapping[str, Any], races: Mapping[str, str] | None = None) -> int:
    """The defending side's whole loss: the sum of its armies' (each at most its Strength)."""
    return sum(defender_losses(b, races))
