"""The result of one adjudication and its JSON form (SCHEMA §2, SCHEMA_V2 §11)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.titania.board import Task
from engine.titania.orders import Record
from engine.titania.situation import Situation
from engine.titania.world import World


@dataclass(frozen=True)
class Adjudication:
    """Either the output (SCHEMA §2) or the problems that made the file unreadable; `fallen` and `fallen_orders`
    are not output: the Boss fights (battle `n`) and the orders (index, part) whose attacking army the Boss
    destroyed, which the Russian texts tell (World.fallen)."""

    output: Mapping[str, Any] | None
    problems: tuple[str, ...]
    situation: Situation | None = None
    fallen: frozenset[int] = frozenset()
    fallen_orders: frozenset[tuple[int, int | None]] = frozenset()

    @property
    def ok(self) -> bool:
        return self.output is not None


def _task_json(task: Task) -> dict[str, Any]:
    return {"outcome": task.outcome, "reason": task.reason, **task.extra}


def order_json(rec: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"index": rec.index, "faction": rec.faction, "army": rec.army, "type": rec.type,
                           "outcome": rec.outcome, "reason": rec.reason}
    if rec.target is not None:
        out["target"] = rec.target
    if rec.type == "split" and rec.reason == "split":
        out["parts"] = [{"strength": p.get("strength"), "type": p.get("type"),
                         **({"target": p["target"]} if "target" in p else {}), **_task_json(t)}
                        for p, t in zip(rec.parts, rec.tasks, strict=True)]
    elif rec.tasks:
        out.update(rec.tasks[0].extra)
    return out


def armies_json(w: World) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], int] = {}
    for a in w.alive():
        merged[(a.faction, a.province)] = merged.get((a.faction, a.province), 0) + a.strength
    return [{"faction": f, "province": p, "strength": s} for (f, p), s in sorted(merged.items())]


def to_json(w: World, records: list[Record], planning: dict[str, Any] | None,
            allocation: dict[str, dict[str, str]]) -> dict[str, Any]:
    out: dict[str, Any] = {"schema": w.sit.schema, "might": dict(w.might), "turn_order": list(w.turn_order)}
    if w.turn is not None:
        out["turn"] = w.turn
    if planning is not None:
        out["planning"] = planning
    out.update({
        "abilities": w.abilities,
        "might_allocation": allocation,
        "orders": [order_json(r) for r in records],
        "battles": w.battles,
        "armies": armies_json(w),
        "natives": {p: n for p, n in w.natives.items() if n > 0},
        "provinces": {p: {"owner": w.owners[p], "buildings": len(w.buildings[p]),
                          "building_list": list(w.buildings[p])} for p in w.map.provinces},
        "bosses": {p: {"health": h} for p, h in w.bosses.items()},
        "factions": {f: {"resources": dict(w.resources[f]), "food": w.food(f), "squads": w.squads(f),
                         "might_next": w.shrines(f), "technologies": sorted(set(w.known_techs[f])),
                         "spells": sorted(set(w.known_spells[f])), "items": sorted(w.items[f]),
                         "limits": {"max_strength": w.limit(f), "hire": w.hire_cap(f),
                                    "replenish": w.replenish_cap(f)}} for f in w.factions},
        "rewards": w.rewards,
        "events": w.events,
        "protected_next": w.protected_next,
        "stolen_next": w.stolen_next,
        "spells": w.spell_results,
        "revealed": w.revealed,
        "active_events": w.active_events,
        "quests": w.quests,
    })
    return out
