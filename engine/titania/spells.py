"""Casting spells in the Campaign (SCHEMA_EXTENSIONS §1, §2): «Заклинания и активные расовые способности
… применяются в фазе Похода, одновременно и до начала ходов игроков. Каждое конкретное заклинание одним
игроком применяется только раз за ход». Targets are checked against the start of the Campaign (before
any ability moves an army), then every cast is applied.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.data import Spell
from engine.titania.research import spell_cost
from engine.titania.world import Army, World

Cast = tuple[str, Spell, Army | str | None, dict[str, Any]]


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


def check(w: World) -> list[Cast]:
    """Validate and pay every cast; returns the casts to apply."""
    out: list[Cast] = []
    for faction, casts in w.sit.ext.casts.items():
        results: list[dict[str, Any]] = []
        w.spell_results[faction] = results
        used: set[str] = set()
        for index, raw in enumerate(casts):
            entry: dict[str, Any] = {"index": index, "spell": raw.get("spell") if isinstance(raw, dict) else None}
            results.append(entry)
            reason = _check_one(w, faction, raw, used, out, entry)
            entry.update(outcome="succeeded" if reason == "cast" else "void", reason=reason)
    return out


def _check_one(w: World, faction: str, raw: object, used: set[str], out: list[Cast],
               entry: dict[str, Any]) -> str:
    spec = w.factions.get(faction)
    if spec is None or spec.is_keeper or not isinstance(raw, dict) or not isinstance(raw.get("spell"), str):
        return "bad_order"
    sid = raw["spell"]
    if sid not in w.data.spells:
        return "unknown_item"
    if sid not in w.known_spells[faction]:
        return "not_known"
    if sid in used:
        return "twice"
    spell = w.data.spells[sid]
    target, problem = _target(w, faction, spell, raw)
    if problem is not None:
        return problem
    cost = spell_cost(w, faction, spell.cast)
    purse = w.resources[faction]
    if any(purse.get(r, 0) < n for r, n in cost.items()):
        return "no_resources"
    for r, n in cost.items():
        purse[r] -= n
    used.add(sid)
    entry["paid"] = cost
    out.append((faction, spell, target, entry))
    return "cast"


def apply(w: World, casts: list[Cast]) -> None:
    """Every effect of every valid cast (10.3.3: simultaneous, before any move)."""
    for faction, spell, target, entry in casts:
        for e in spell.effects:
            if e.type == "gain" and e.resource is not None:
                w.resources[faction][e.resource] += e.value
            elif e.type == "ward" and isinstance(target, str):
                w.effects.wards.setdefault(target, faction)
            elif isinstance(target, Army) and target.alive:
                _on_army(w, target, e.type, e.value, entry)


def _on_army(w: World, army: Army, kind: str, value: int, entry: dict[str, Any]) -> None:
    if kind == "battle_modifier":
        army.bonus += value
    elif kind == "reinforce":
        before = army.strength
        army.strength = min(w.limit(army.faction), army.strength + value)
        entry["reinforced"] = army.strength - before
    elif kind == "damage":  # C12.2: «получило урон … с помощью заклинания»
        army.strength -= value
        entry["damage"] = value
        w.cancel(army, "attacked")
        if not army.alive:
            w.destroy(army)
    elif kind == "stop":  # C12.2: «однозначно остановлено … с помощью заклинания»
        w.cancel(army, "stopped")
