"""Events («События», SCHEMA_V2 §5): «Малые события происходят каждые пять ходов, а крупные, знаменующие смену
эпох, каждые десять ходов. Крупные события длятся 5 ходов и накладывают дебаф на всех, если фракции совместными
усилиями не решат поставленную задачу. Малые события длятся неопределенное количество ходов до победы одной
фракции, на остальных накладывается дебаф. Какой дебаф будет наложен на проигравшие фракции сообщается заранее.»

A record (state.events / active_events): {"id", "class", "started", "status": open|debuff, "ends" (major: its
last turn), "progress": {faction: n}, "winner"?, "debuffed": [...], "from"?, "until"?}, plus the catalog
record's fields when it starts (SCHEMA_V2 §13). Nothing runs without `state.turn`.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from engine.titania.catalog import EventDef
from engine.titania.world import World


def _def(w: World, e: Mapping[str, Any]) -> EventDef:
    return w.catalog.events[e["id"]]


def _note(w: World, kind: str, e: Mapping[str, Any], **more: Any) -> None:
    w.events.append({"kind": kind, "event": e["id"], "class": e["class"], **more})


def begin(w: World) -> None:
    """Start of the turn: debuffs that ran out end; on a 5th / 10th turn a new event starts, minor first
    (G45 a; G81: even while older ones are open)."""
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
    fixed = w.sit.dice.get("event", {})
    for cls, every in (("minor", p.minor_event_every), ("major", p.major_event_every)):
        pool = w.catalog.events_of(cls)
        if every <= 0 or turn % every or not pool:
            continue
        eid = fixed.get(cls) if isinstance(fixed, dict) else None
        if eid not in pool:
            eid = w.rng("event", cls, turn).choice(pool)
        d = w.catalog.events[str(eid)]
        rec: dict[str, Any] = {**copy.deepcopy(dict(d.record)), "id": d.id, "class": cls, "started": turn,
                               "status": "open", "progress": {}, "debuffed": []}
        if cls == "major":
            rec["ends"] = turn + p.major_event_turns - 1
        w.active_events.append(rec)
        more: dict[str, Any] = {"debuff": copy.deepcopy(list(d.record.get("debuff", [])))}
        if cls == "major":
            more["ends"] = rec["ends"]
        _note(w, "event_started", rec, **more)
    w.effects_changed()


def _debuff(w: World, e: dict[str, Any], losers: list[str]) -> None:
    """G84: decided in turn d: in force from d + 1 for the event's (else params') debuff_turns."""
    turn = w.turn or 0
    d = _def(w, e)
    turns = d.debuff_turns if d.debuff_turns is not None else w.params.debuff_turns
    e.update(status="debuff", debuffed=sorted(losers), **{"from": turn + 1, "until": turn + turns})


def _solved(w: World, e: dict[str, Any]) -> None:
    """G82: a major event solved: the record is removed, nobody is debuffed."""
    _note(w, "event_solved", e)
    w.active_events.remove(e)


def _won(w: World, e: dict[str, Any], winner: str) -> None:
    """G83: a minor event won: every other player faction is debuffed."""
    e["winner"] = winner
    _debuff(w, e, [f for f in w.players() if f != winner])
    _note(w, "event_won", e, faction=winner, debuffed=list(e["debuffed"]))


def _open_contribute(w: World, eid: object) -> dict[str, Any] | None:
    return next((e for e in w.active_events if e.get("id") == eid and e.get("status") == "open"
                 and _def(w, e).goal.get("type") == "contribute"), None)


def contribute(w: World, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
    """Planning order `contribute` (SCHEMA_V2 §5): the resources are spent; the goal is decided at the end of
    Planning (`decide`). Keepers never contribute."""
    if w.factions[faction].is_keeper or not isinstance(order.get("event"), str):
        return "bad_order"
    if order["event"] not in w.catalog.events:  # G72
        return "unknown_item"
    e = _open_contribute(w, order.get("event"))
    if e is None:
        return "no_event"
    goal = _def(w, e).goal
    res, cargo = goal["resource"], order.get("resources")
    n = cargo.get(res) if isinstance(cargo, dict) else None
    if not isinstance(cargo, dict) or set(cargo) != {res} or not isinstance(n, int) or isinstance(n, bool) or n < 1:
        return "bad_order"
    if w.resources[faction].get(res, 0) < n:
        return "no_resources"
    w.resources[faction][res] -= n
    progress = e.setdefault("progress", {})
    progress[faction] = progress.get(faction, 0) + n
    extra["progress"] = sum(progress.values()) if e["class"] == "major" else progress[faction]
    return "contributed"


def decide(w: World) -> None:
    """End of Planning: open `contribute` goals reached are decided. Major: the sum over the player factions
    (G82); minor: the first faction to reach it alone wins, several at once: the earliest in turn order (G83)."""
    players = w.players()
    rank = {f: i for i, f in enumerate(w.turn_order)}
    for e in list(w.active_events):
        if e.get("status") != "open":
            continue
        goal = _def(w, e).goal
        if goal.get("type") != "contribute":
            continue
        progress = e.get("progress", {})
        if e["class"] == "major":
            if sum(n for f, n in progress.items() if f in players) >= goal["amount"]:
                _solved(w, e)
            continue
        done = [f for f in players if progress.get(f, 0) >= goal["amount"]]
        if done:
            _won(w, e, min(done, key=lambda f: (rank.get(f, len(rank)), f)))
    w.effects_changed()


def boss_killed(w: World, faction: str) -> None:
    """A `kill_boss` goal: a major event is solved, a minor one is won by the killer."""
    if w.factions[faction].is_keeper:
        return
    for e in list(w.active_events):
        if e.get("status") == "open" and _def(w, e).goal.get("type") == "kill_boss":
            if e["class"] == "major":
                _solved(w, e)
            else:
                _won(w, e, faction)


def settle(w: World) -> None:
    """End of the turn: a major event still open at the end of its turn `ends` debuffs every player (G82)."""
    turn = w.turn
    if turn is None:
        return
    for e in w.active_events:
        if e["class"] == "major" and e.get("status") == "open" and turn >= e.get("ends", turn):
            _debuff(w, e, w.players())
            _note(w, "event_failed", e, debuffed=list(e["debuffed"]))
    w.effects_changed()
