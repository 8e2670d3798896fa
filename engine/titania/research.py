"""Research and spell learning in Planning (P1.1; SCHEMA_V2 §2-§4): «Вы можете потратить любое количество
имеющихся у вас ресурсов для того, чтобы изучить любое количество технологий»; Might «открывает доступ к
определённым технологиям» (G2 a: a threshold, nothing spent); Mana «нужна для изучения … заклинаний»; the racial
research rules; and the random spell or technology that Bosses and Keeper quests give.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.world import World


def _pay(w: World, faction: str, cost: Mapping[str, int]) -> bool:
    purse = w.resources[faction]
    if any(purse.get(r, 0) < n for r, n in cost.items()):
        return False
    for r, n in cost.items():
        purse[r] -= n
    return True


def paid(cost: Mapping[str, int]) -> dict[str, int]:
    """A cost as output (`paid`): zero entries omitted (SCHEMA_V2 preamble)."""
    return {r: n for r, n in cost.items() if n}


def tech_cost(w: World, faction: str, tech: str, discount: str | None = None) -> dict[str, int]:
    """The technology's cost for this faction after its race's research rule (SCHEMA_V2 §3)."""
    return w.race(faction).research_cost(w.catalog.technologies[tech].cost, discount)


def spell_cost(w: World, faction: str, cost: Mapping[str, int]) -> dict[str, int]:
    """A spell's learning or casting cost after the race's rule (High elves, G78)."""
    return w.race(faction).spell_cost(cost)


def research(w: World, faction: str, order: Mapping[str, Any], pending: list[str], extra: dict[str, Any]) -> str:
    """One `research` order (SCHEMA_V2 §2, first failing check wins). Default G73: known at once (for
    `known` and `requires` later in the list), in force from the start of the Campaign."""
    tech, discount = order.get("technology"), order.get("discount")
    if not isinstance(tech, str) or (discount is not None and discount not in ("gold", "wood")):
        return "bad_order"
    if tech not in w.catalog.technologies:
        return "unknown_item"
    if tech in w.known_techs[faction]:
        return "known"
    spec = w.catalog.technologies[tech]
    if any(r not in w.known_techs[faction] for r in spec.requires):
        return "needs_technology"
    if w.race(faction).tech_needs_might and w.might.get(faction, 0) < spec.might:  # G76: Chaos dwarfs skip it
        return "needs_might"
    cost = tech_cost(w, faction, tech, discount if isinstance(discount, str) else None)
    if not _pay(w, faction, cost):
        return "no_resources"
    extra["paid"] = paid(cost)
    w.known_techs[faction].append(tech)
    pending.append(tech)
    return "researched"


def learn(w: World, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
    """One `learn` order (SCHEMA_V2 §4); G77: a spell learned now may be cast in this Campaign."""
    spell = order.get("spell")
    if not isinstance(spell, str):
        return "bad_order"
    if spell not in w.catalog.spells:
        return "unknown_item"
    if spell in w.known_spells[faction]:
        return "known"
    cost = spell_cost(w, faction, w.catalog.spells[spell].learn)
    if not _pay(w, faction, cost):
        return "no_resources"
    extra["paid"] = paid(cost)
    w.known_spells[faction].append(spell)
    return "learned"


def grant_knowledge(w: World, faction: str, key: tuple[str, str], fixed: Mapping[str, Any]) -> dict[str, str]:
    """«случайное заклинание (кроме уже изученных) или случайную технологию (кроме уже изученных)»: drawn from
    the catalog only (G72), known at once; `fixed` (dice) may name it. None left: nothing."""
    techs = sorted(t for t in w.catalog.technologies if t not in w.known_techs[faction])
    spells = sorted(s for s in w.catalog.spells if s not in w.known_spells[faction])
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
