"""Casting spells in the Campaign (SCHEMA_V2 §4): «Заклинания и активные расовые способности … применяются в фазе
Похода, одновременно и до начала ходов игроков. Каждое конкретное заклинание одним игроком применяется только
раз за ход, но количество разных заклинаний, применяемых за один ход неограниченно».

Default G79: every cast is checked and paid in list order against the state and the resources at the start of
the Campaign (`check`, before the abilities are applied); after the Might allocation is checked the valid casts
are applied together with the abilities (`apply`), effect type by effect type: all `gain`, then all `reinforce`,
then `battle_modifier` and `ward`, then all `damage`, then `stop`. A ward on a province that the faction's
Warding charms or an earlier cast already wards is void and unpaid (ruling T4-2); a damage or stop spell on another
faction's army, a Keeper's too, is a hostile act (ruling T4-6: event `hostile_spell`).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.titania.board import Army
from engine.titania.catalog import Spell
from engine.titania.effects import Effect
from engine.titania.research import paid, spell_cost
from engine.titania.world import World

PHASES = (("gain",), ("reinforce",), ("battle_modifier", "ward"), ("damage",), ("stop",))
HOSTILE = ("damage", "stop")  # on another faction's army: a hostile act, like an attack (G46 a, ruling T4-6)


@dataclass(frozen=True)
class Cast:
    """A valid, paid cast: who, which spell, its target (an army, an own province or none), its output entry."""

    faction: str
    spell: Spell
    target: Army | str | None
    entry: dict[str, Any]


def _target(w: World, faction: str, spell: Spell, raw: Mapping[str, Any]) -> tuple[Army | str | None, str | None]:
    if spell.target == "none":
        return None, None
    if spell.target == "own_army":
        army = w.army_at_start(faction, raw.get("army"))
        return (army, None) if army is not None else (None, "bad_target")
    if spell.target == "own_province":
        p = raw.get("province")
        ok = isinstance(p, str) and w.owners.get(p) == faction
        return (p, None) if ok and isinstance(p, str) else (None, "bad_target")
    # enemy_army: a non-allied faction's army, a Keeper's too (ruling T4-6); natives and Bosses are no army here
    t = raw.get("target")
    if not isinstance(t, dict) or not isinstance(t.get("faction"), str) or w.allied(faction, t["faction"]):
        return None, "bad_target"
    army = w.army_at_start(t["faction"], t.get("army"))
    if army is None:
        return None, "bad_target"
    if spell.range == "adjacent":  # the army stands in or next to a province of the caster
        near = {army.province, *w.map.neighbours(army.province)}
        if not any(w.owners.get(p) == faction for p in near):
            return None, "not_adjacent"
    return army, None


def wards(spell: Spell) -> bool:
    """The spell wards its province (an effect `ward`)."""
    return any(e.type == "ward" for e in spell.effects)


def ability_ward(w: World, faction: str) -> str | None:
    """The province the faction's active ability wards this Campaign (the High elves' Warding charms), when its
    order names a legal one and the faction has the Influence at the start of the Campaign; else None."""
    spec = w.sit.abilities.get(faction)
    fspec = w.factions.get(faction)
    race = w.race(faction)
    if (not race.ability_wards or fspec is None or fspec.is_keeper or not isinstance(spec, dict)
            or w.resources[faction]["influence"] < 1 or race.check_ability(w, faction, spec) is not None):
        return None
    p = spec.get("province")
    return p if isinstance(p, str) else None


def check(w: World) -> list[Cast]:
    """Validate and pay every cast, in list order; returns the casts to apply."""
    out: list[Cast] = []
    for faction, casts in w.sit.ext.casts.items():
        results: list[dict[str, Any]] = []
        w.spell_results[faction] = results
        used: set[str] = set()
        # ruling T4-2, one ward per province: province -> what wards it first ("ability", or a cast's index)
        warded: dict[str, str | int] = {}
        if faction in w.factions and (p := ability_ward(w, faction)) is not None:
            warded[p] = "ability"
        for index, raw in enumerate(casts):
            entry: dict[str, Any] = {"index": index, "spell": raw.get("spell") if isinstance(raw, dict) else None}
            results.append(entry)
            reason = _check_one(w, faction, raw, (used, warded), out, entry)
            entry.update(outcome="succeeded" if reason == "cast" else "void", reason=reason)
    return out


def _check_one(w: World, faction: str, raw: object, seen: tuple[set[str], dict[str, str | int]], out: list[Cast],
               entry: dict[str, Any]) -> str:
    used, warded = seen
    spec = w.factions.get(faction)
    if spec is None or spec.is_keeper or not isinstance(raw, dict) or not isinstance(raw.get("spell"), str):
        return "bad_order"
    sid = raw["spell"]
    if sid not in w.catalog.spells:
        return "unknown_item"
    if sid not in w.known_spells[faction]:
        return "not_known"
    if sid in used:  # `twice` counts only succeeded casts (SCHEMA_V2 §13)
        return "twice"
    spell = w.catalog.spells[sid]
    target, problem = _target(w, faction, spell, raw)
    if problem is not None:
        return problem
    ward = target if isinstance(target, str) and wards(spell) else None
    if ward is not None and ward in warded:
        # ruling T4-2: «Первое войско, напавшее на эту провинцию, обязано отступить» — one ward per province per
        # Campaign, wards do not stack. The closed list's nearest code: the province is no legal target for a
        # second ward (`bad_target`, «недопустимая цель»); `twice` is one spell cast twice, `duplicate` a building
        entry["already_warded"] = warded[ward]
        return "bad_target"
    cost = spell_cost(w, faction, spell.cast)
    purse = w.resources[faction]
    if any(purse.get(r, 0) < n for r, n in cost.items()):
        return "no_resources"
    for r, n in cost.items():
        purse[r] -= n
    used.add(sid)
    if ward is not None:
        warded[ward] = int(entry["index"])
    entry["paid"] = paid(cost)
    out.append(Cast(faction, spell, target, entry))
    return "cast"


def apply(w: World, casts: list[Cast]) -> None:
    """Every effect of every valid cast, phase by phase (G79)."""
    hostile: set[int] = set()
    for phase in PHASES:
        for n, cast in enumerate(casts):
            for e in cast.spell.effects:
                if e.type not in phase:
                    continue
                if e.type in HOSTILE and n not in hostile:
                    hostile.add(n)
                    _hostile(w, cast)
                _effect(w, cast, e)


def _hostile(w: World, cast: Cast) -> None:
    """Ruling T4-6: a damage or stop spell on another faction's army is a hostile act, like an attack (G46 a): that
    faction, a Keeper too, is at war with the caster from then on (for a Keeper, its per-turn reinforcement of
    G43 a starts). The event says so; the game folds it into the factions' wars."""
    army = cast.target
    if isinstance(army, Army) and army.faction != cast.faction:
        w.events.append({"kind": "hostile_spell", "faction": cast.faction, "target": army.faction,
                         "province": army.start, "spell": cast.spell.id})


def _effect(w: World, cast: Cast, e: Effect) -> None:
    target = cast.target
    if e.type == "gain":
        if e.resource is not None:
            w.resources[cast.faction][e.resource] += e.value
    elif e.type == "ward":
        if isinstance(target, str):
            w.effects.wards.setdefault(target, cast.faction)
    elif isinstance(target, Army):
        _on_army(w, target, e, cast.entry)


def _on_army(w: World, army: Army, e: Effect, entry: dict[str, Any]) -> None:
    if e.type == "battle_modifier":  # like Might (G9 a): totals and support value, never damage or limits
        army.bonus += e.value
    elif e.type == "reinforce":  # not above max_strength; an army above a lowered limit gains nothing
        before = army.strength
        if army.alive:
            army.strength = max(before, min(w.limit(army.faction), before + e.value))
        if army.strength > before:  # the Keepers' watch (ruling T4-4): a spell may bring an army to 5
            w.grew(army, w.strength_in(army.faction, army.province) - army.strength + before)
        entry["reinforced"] = entry.get("reinforced", 0) + army.strength - before
    elif e.type == "damage":  # C12.2: «получило урон … с помощью заклинания»; G80: not battle damage
        entry["damage"] = entry.get("damage", 0) + e.value
        if army.alive:
            army.strength -= e.value
            w.cancel(army, "attacked")
            if not army.alive:
                w.destroy(army)
    elif e.type == "stop":  # C12.2: «однозначно остановлено … с помощью заклинания»
        if army.alive:
            w.cancel(army, "stopped")
