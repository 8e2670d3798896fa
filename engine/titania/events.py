"""Events («События», SCHEMA_EXTENSIONS §4): «Малые события происходят каждые пять ходов, а крупные,
знаменующие смену эпох, каждые десять ходов. Крупные события длятся 5 ходов и накладывают дебаф на всех,
если фракции совместными усилиями не решат поставленную задачу. Малые события длятся неопределенное
количество ходов до победы одной фракции, на остальных накладывается дебаф.»

An event record (state.events / active_events): {"id", "class", "started", "status": open|debuff,
"ends" (major, open: its last turn), "progress": {faction: n}, "winner", "debuffed": [...], "from", "until"}.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.data import EventDef
from engine.titania.world import World


def _def(w: World, e: Mapping[str, Any]) -> EventDef:
    return w.data.events[e["class"]][e["id"]]


def _note(w: World, kind: str, e: Mapping[str, Any], **more: Any) -> None:
    d = _def(w, e)
    w.events.append({"kind": kind, "event": d.id, "class": d.cls, "name": d.name, **more})


def begin(w: World) -> None:
    """Start of Planning: expired debuffs end; on a 5th/10th turn a new event starts (G45 a)."""
    turn = w.turn
    if turn is None:
        return
    keep = []
    for e in w.active_events:
        if e.get("status") == "debuff" and isinstance(e.get("until"), int) and e["until"] < turn:
            _note(w, "event_ended", e)
        else:
            keep.append(e)
    w.active_events = keep
    p = w.params
    for cls, every in (("minor", p.minor_event_every), ("major", p.major_event_every)):
        if every <= 0 or turn % every or not w.data.events[cls]:
            continue
        fixed = w.sit.dice.get("event", {})
        eid = fixed.get(cls) if isinstance(fixed, dict) else None
        if eid not in w.data.events[cls]:
            eid = w.rng("event", cls, turn).choice(sorted(w.data.events[cls]))
        e = {"id": eid, "class": cls, "started": turn, "status": "open", "progress": {},
                             "winner": None, "debuffed": []}
        if cls == "major":
            e["ends"] = turn + p.major_event_turns - 1
        w.active_events.append(e)
        d = _def(w, e)
        _note(w, "event_started", e, task=d.task, goal=dict(d.goal),
              debuff=[{"type": x.type, "value": x.value, **({"resource": x.resource} if x.resource else {}),
                       **({"building": x.building} if x.building else {}),
                       **({"when": x.when} if x.type == "battle_modifier" else {})} for x in d.debuff])
    w.effects_changed()


def _won(w: World, e: dict[str, Any], winner: str | None) -> None:
    """Minor: the winner escapes, everyone else is debuffed; major (winner None): solved, nobody is."""
    turn = w.turn or 0
    if e["class"] == "major":
        e["status"] = "solved"
        _note(w, "event_solved", e)
        return
    e.update(status="debuff", winner=winner, debuffed=[f for f in w.players() if f != winner],
             **{"from": turn + 1, "until": turn + w.params.debuff_turns})
    _note(w, "event_won", e, faction=winner, debuffed=e["debuffed"])


def contribute(w: World, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
    """Planning order `contribute`: hand resources to an open event's `contribute` task."""
    eid, cargo = order.get("event"), order.get("resources")
    e = next((x for x in w.active_events if x.get("id") == eid and x.get("status") == "open"), None)
    if e is None or _def(w, e).goal.get("type") != "contribute":
        return "no_event"
    goal = _def(w, e).goal
    res = goal["resource"]
    n = cargo.get(res) if isinstance(cargo, dict) else None
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or set(cargo or {}) - {res}:
        return "bad_order"
    if w.resources[faction].get(res, 0) < n:
        return "no_resources"
    w.resources[faction][res] -= n
    progress = e.setdefault("progress", {})
    progress[faction] = progress.get(faction, 0) + n
    done = sum(progress.values()) if e["class"] == "major" else progress[faction]
    extra["progress"] = done
    if done >= goal["amount"]:
        _won(w, e, faction)
    return "contributed"


def boss_killed(w: World, faction: str) -> None:
    """A `kill_boss` task: a major one is solved, a minor one is won by the killer."""
    for e in w.active_events:
        if e.get("status") == "open" and _def(w, e).goal.get("type") == "kill_boss":
            _won(w, e, faction)


def settle(w: World) -> None:
    """End of the turn: a major event not solved by its last turn debuffs every player."""
    turn = w.turn
    if turn is None:
        return
    keep = []
    for e in w.active_events:
        if e.get("status") == "solved":
            continue
        if e["class"] == "major" and e.get("status") == "open" and turn >= e.get("ends", turn):
            e.update(status="debuff", debuffed=w.players(), **{"from": turn + 1, "until": turn + w.params.debuff_turns})
            _note(w, "event_failed", e, debuffed=e["debuffed"])
        keep.append(e)
    w.active_events = keep
    w.effects_changed()
