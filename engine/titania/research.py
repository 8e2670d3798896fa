"""Research and spell learning in Planning (P1.1; Resources: Might «открывает доступ к определённым
технологиям», Mana «нужна для изучения … заклинаний»), the racial discounts, and the random spell or
technology that Bosses and Keeper quests give.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.effects import discounted
from engine.titania.world import World


def _pay(w: World, faction: str, cost: Mapping[str, int]) -> bool:
    purse = w.resources[faction]
    if any(purse.get(r, 0) < n for r, n in cost.items()):
        return False
    for r, n in cost.items():
        purse[r] -= n
    return True


def tech_cost(w: World, faction: str, tech: str, choice: str | None = None) -> dict[str, int]:
    """The technology's cost for this faction after its race's discounts (Prosperity, Gifts of the Gods,
    Simple dwellings; G48 a)."""
    cost = dict(w.data.technologies[tech].cost)
    for options, amount, floor in w.race(faction).tech_discounts:
        cost = discounted(cost, options, amount, floor, choice)
    return cost


def spell_cost(w: World, faction: str, cost: Mapping[str, int]) -> dict[str, int]:
    """A spell's learning or casting cost after the race's discount (Affinity for magic)."""
    out = dict(cost)
    for options, amount, floor in w.race(faction).spell_discounts:
        out = discounted(out, options, amount, floor)
    return out


def research(w: World, faction: str, order: Mapping[str, Any], pending: list[str], extra: dict[str, Any]) -> str:
    """One `research` order; `pending` holds this Planning's earlier researches of the faction."""
    tech = order.get("technology")
    if not isinstance(tech, str):
        return "bad_order"
    if tech not in w.data.technologies:
        return "unknown_item"
    if tech in w.known_techs[faction] or tech in pending:
        return "known"
    spec = w.data.technologies[tech]
    have = set(w.known_techs[faction]) | set(pending)
    if any(r not in have for r in spec.requires):
        return "needs_technology"
    if w.race(faction).tech_needs_might and w.might.get(faction, 0) < spec.might:
        return "needs_might"
    choice = order.get("discount")
    cost = tech_cost(w, faction, tech, choice if isinstance(choice, str) else None)
    if not _pay(w, faction, cost):
        return "no_resources"
    extra["paid"] = cost
    pending.append(tech)
    return "researched"


def learn(w: World, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
    spell = order.get("spell")
    if not isinstance(spell, str):
        return "bad_order"
    if spell not in w.data.spells:
        return "unknown_item"
    if spell in w.known_spells[faction]:
        return "known"
    cost = spell_cost(w, faction, w.data.spells[spell].learn)
    if not _pay(w, faction, cost):
        return "no_resources"
    extra["paid"] = cost
    w.known_spells[faction].append(spell)
    return "learned"


def grant_knowledge(w: World, faction: str, key: tuple[str, str], fixed: Mapping[str, Any]) -> dict[str, str]:
    """«случайное заклинание (кроме уже изученных) или случайную технологию (кроме уже изученных)»: known
    from the next turn on; `fixed` may name it (dice)."""
    techs = sorted(t for t in w.data.technologies if t not in w.known_techs[faction])
    spells = sorted(s for s in w.data.spells if s not in w.known_spells[faction])
    if fixed.get("technology") in techs:
        pick = ("technology", str(fixed["technology"]))
    elif fixed.get("spell") in spells:
        pick = ("spell", str(fixed["spell"]))
    else:
        kinds = [k for k, lst in (("technology", techs), ("spell", spells)) if lst]
        if not kinds:
            return {}
        rng = w.rng("knowledge", *key)
        kind = rng.choice(kinds)
        pick = (kind, rng.choice(techs if kind == "technology" else spells))
    (w.known_techs if pick[0] == "technology" else w.known_spells)[faction].append(pick[1])
    return {pick[0]: pick[1]}
