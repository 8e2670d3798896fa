"""Register the Campaign orders (10.3.2): one order per army, splits applied, supports as standing offers."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.titania.board import NATIVES, Offer, Task
from engine.titania.world import World

TYPES = ("hold", "move", "support", "split")


@dataclass(eq=False)
class Record:
    """One input order (by its index) and the task(s) it became."""

    index: int
    faction: Any
    army: Any
    type: Any
    target: Any = None
    outcome: str | None = None
    reason: str | None = None
    tasks: list[Task] = field(default_factory=list)
    parts: list[dict[str, Any]] = field(default_factory=list)  # raw part specs of a split


def _seq(raw: dict[str, Any]) -> float:
    s = raw.get("seq")
    return float(s) if isinstance(s, int | float) and not isinstance(s, bool) else math.inf


def _task(w: World, index: int, part: int | None, faction: str, army: Any, raw: dict[str, Any]) -> Task | None:
    """A task from a {type, target, ...} spec, or None if malformed."""
    kind = raw.get("type")
    task = Task(index, part, faction, str(kind), army, seq=_seq(raw))
    if kind == "hold":
        return task
    target = raw.get("target")
    if not isinstance(target, str) or target not in w.map.provinces:
        return None
    task.target = target
    if kind == "move":
        return task
    if kind != "support":
        return None
    specs = [raw]
    second = raw.get("second")
    if second is not None:
        if not isinstance(second, dict):
            return None
        specs.append(second)
    for i, spec in enumerate(specs):
        t, sf = spec.get("target"), spec.get("support_faction")
        if not isinstance(t, str) or t not in w.map.provinces or not isinstance(sf, str):
            return None
        if sf != NATIVES and sf not in w.factions:
            return None
        task.offers.append(Offer(task, t, sf, second=i > 0))
    return task


def register(w: World, raw_orders: tuple[Any, ...]) -> list[Record]:
    records: list[Record] = []
    for index, raw in enumerate(raw_orders):
        if not isinstance(raw, dict):
            records.append(Record(index, None, None, None, outcome="void", reason="bad_order"))
            continue
        faction, where, kind = raw.get("faction"), raw.get("army"), raw.get("type")
        rec = Record(index, faction, where, kind, raw.get("target"))
        records.append(rec)
        army = w.army_at_start(faction, where) if isinstance(faction, str) and faction in w.factions else None
        if army is None or army.task is not None or kind not in TYPES or not isinstance(faction, str):
            rec.outcome, rec.reason = "void", "bad_order"
            continue
        if kind != "split":
            task = _task(w, index, None, faction, army, raw)
            if task is None:
                rec.outcome, rec.reason = "void", "bad_order"
                continue
            army.task = task
            rec.tasks.append(task)
            w.tasks.append(task)
            continue
        parts = raw.get("parts")
        if (not isinstance(parts, list) or len(parts) < 2 or not all(isinstance(p, dict) for p in parts)
                or not all(isinstance(p.get("strength"), int) and not isinstance(p.get("strength"), bool)
                           and p["strength"] >= 1 and p.get("type") in ("hold", "move", "support") for p in parts)
                or sum(p["strength"] for p in parts) != army.strength):
            rec.outcome, rec.reason = "void", "bad_order"
            continue
        rec.parts = parts
        squads, food = w.squads(faction), w.food(faction)
        if squads > food or squads + len(parts) - 1 > food:  # C2.2, A1.1, A11.1
            rec.outcome, rec.reason = "void", "food"
            continue
        tasks = [_task(w, index, i, faction, None, p) for i, p in enumerate(parts)]
        if any(t is None for t in tasks):
            rec.outcome, rec.reason = "void", "bad_order"
            continue
        rec.outcome, rec.reason = "succeeded", "split"
        for i, (part, task) in enumerate(zip(parts, tasks, strict=True)):
            assert task is not None
            unit = army if i == 0 else w.add_army(faction, army.province, 0, army.naval)
            unit.strength = part["strength"]
            unit.start = army.start
            unit.task = task
            task.army = unit
            rec.tasks.append(task)
            w.tasks.append(task)
    return records
