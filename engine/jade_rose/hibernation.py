"""Vampire hibernation (rule book L144, RULINGS JR-71): at the end of the turn, units beyond the slaves'
blood fall asleep; the player may name which, and by default the newest sleep first.

Who sleeps, first to last: the units the player named this turn (order «Отправить в спячку», in sheet
order), then those already asleep (they sleep on until the blood suffices again), then every other unit,
newest hired first. Units in no hiring record (the starting ones) are the oldest, the costliest oldest of
all. No more units sleep than the shortfall needs.

Optional keys of the faction record (a state without them reads as if every unit were a starting one):
    "hire_order": [{"turn": t, "unit": key, "count": n}], oldest first: the units that need blood, by hiring;
        a unit type's dead come out of its newest entries. Absent while it holds only starting units.
    "sleep_choice": [[key, n]]: this turn's named sleepers (orders stage), used up at the end of the turn.
    "hibernating": {key: n}: who sleeps now.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jade_rose import ledger
from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import FactionRecord, HireBatch, JadeRoseState
from engine.russian import agree


def blood_of(key: str) -> int:
    """Blood a unit needs (in units' worth of 15 slaves); 0: it never sleeps."""
    unit = load_data().units.get(key)
    return int(unit.blood) if unit is not None else 0


def blood_capacity(rec: FactionRecord) -> int:
    """Units' worth of blood the faction's slaves and eternal servants give."""
    per = int(load_data().factions["vampires"].get("slaves_per_unit", 15))
    return (int(rec.get("slaves", 0)) + int(rec.get("eternal_servants", 0))) // per


def blood_needed(rec: FactionRecord) -> int:
    """Blood every unit of the faction would need awake."""
    return sum(blood_of(k) * int(n) for k, n in rec.get("units", {}).items() if int(n) > 0)


def _owned(rec: FactionRecord) -> dict[str, int]:
    return {k: int(n) for k, n in sorted(rec.get("units", {}).items()) if int(n) > 0 and blood_of(k) > 0}


def hire_batches(rec: FactionRecord) -> list[HireBatch]:
    """The hiring record made to agree with the units held, oldest first (see the module docstring)."""
    data = load_data()
    owned = _owned(rec)
    batches: list[HireBatch] = [
        {"turn": int(b.get("turn", 0)), "unit": b["unit"], "count": int(b.get("count", 0))}
        for b in rec.get("hire_order", ()) or ()
        if isinstance(b, Mapping) and b.get("unit") in owned and int(b.get("count", 0)) > 0]
    recorded: dict[str, int] = {}
    for b in batches:
        recorded[b["unit"]] = recorded.get(b["unit"], 0) + b["count"]
    for key, have in owned.items():
        extra = recorded.get(key, 0) - have
        for b in reversed(batches):
            if extra <= 0:
                break
            if b["unit"] == key:
                cut = min(extra, b["count"])
                b["count"] -= cut
                extra -= cut
    missing = sorted(((k, n - recorded.get(k, 0)) for k, n in owned.items() if n > recorded.get(k, 0)),
                     key=lambda kv: (-data.units[kv[0]].cost["gold"], kv[0]))
    first: list[HireBatch] = [{"turn": 0, "unit": k, "count": n} for k, n in missing]
    return first + [b for b in batches if b["count"] > 0]


def note_hire(state: JadeRoseState, faction: str, key: str, count: int) -> None:
    """Record a hiring (call it before the hired units are added to the faction's units)."""
    if blood_of(key) <= 0 or count <= 0:
        return
    rec = state["factions"][faction]
    rec["hire_order"] = hire_batches(rec) + [{"turn": int(state["turn"]), "unit": key, "count": int(count)}]


def named_sleepers(rec: FactionRecord) -> dict[str, int]:
    """This turn's named sleepers so far, by unit."""
    out: dict[str, int] = {}
    for key, n in rec.get("sleep_choice", ()) or ():
        out[key] = out.get(key, 0) + int(n)
    return out


def name_sleepers(rec: FactionRecord, key: str, count: int) -> None:
    rec.setdefault("sleep_choice", []).append([key, int(count)])


class _Pool:
    """Units not yet placed in the sleep order, per hiring batch; a unit type gives its newest first."""

    def __init__(self, batches: list[HireBatch]):
        self.batches = batches
        self.left = [b["count"] for b in batches]

    def take(self, key: str, n: int) -> int:
        taken = 0
        for i in reversed(range(len(self.batches))):
            if self.batches[i]["unit"] == key and taken < n:
                k = min(n - taken, self.left[i])
                self.left[i] -= k
                taken += k
        return taken


def sleep_order(rec: FactionRecord, batches: list[HireBatch]) -> list[tuple[str, int, bool]]:
    """(unit, count, named by the player) in the order they fall asleep."""
    pool = _Pool(batches)
    order: list[tuple[str, int, bool]] = []
    for key, n in rec.get("sleep_choice", ()) or ():
        got = pool.take(key, int(n))
        if got:
            order.append((key, got, True))
    asleep = {k: int(n) for k, n in (rec.get("hibernating") or {}).items()}
    for b in reversed(batches):
        got = pool.take(b["unit"], asleep.get(b["unit"], 0))
        if got:
            asleep[b["unit"]] -= got
            order.append((b["unit"], got, False))
    for i in reversed(range(len(batches))):
        if pool.left[i]:
            order.append((batches[i]["unit"], pool.left[i], False))
            pool.left[i] = 0
    return order


def choose_sleepers(rec: FactionRecord, batches: list[HireBatch]) -> tuple[dict[str, int], dict[str, int]]:
    """(everyone asleep, the named among them): the fewest in sleep order that cover the shortfall."""
    short = blood_needed(rec) - blood_capacity(rec)
    chosen: list[list[Any]] = []
    for key, n, named in sleep_order(rec, batches):
        if short <= 0:
            break
        take = min(n, -(-short // blood_of(key)))
        chosen.append([key, take, named])
        short -= take * blood_of(key)
    spare = -short
    for entry in reversed(chosen):       # an overshoot (a bone cannon counts 3) may let an earlier one wake
        wake = min(entry[1], spare // blood_of(entry[0]))
        entry[1] -= wake
        spare -= wake * blood_of(entry[0])
    asleep: dict[str, int] = {}
    named_part: dict[str, int] = {}
    for key, n, named in chosen:
        if n:
            asleep[key] = asleep.get(key, 0) + n
            if named:
                named_part[key] = named_part.get(key, 0) + n
    return dict(sorted(asleep.items())), dict(sorted(named_part.items()))


def _units_text(units: Mapping[str, int]) -> str:
    data = load_data()
    return ", ".join(f"{data.units[k].name} ×{n}" for k, n in units.items() if n) or "никто"


def hibernate(state: JadeRoseState, faction: str) -> None:
    """End of the turn: put the shortfall to sleep (wake the rest), log it, use up the turn's choice."""
    rec = state["factions"][faction]
    batches = hire_batches(rec)
    asleep, named = choose_sleepers(rec, batches)
    choice = named_sleepers(rec)
    cap, need = blood_capacity(rec), blood_needed(rec)
    if asleep != (rec.get("hibernating") or {}) or choice:
        if not asleep:
            text = "Все вампиры бодрствуют: крови хватает"
            if choice:
                text += f" (назначенные к спячке — {_units_text(choice)} — не уснули)"
        else:
            text = (f"В спячке {agree(sum(asleep.values()), 'юнит')}: крови рабов хватает на "
                    f"{agree(cap, 'юнит', 'accs')}, а нужно на "
                    f"{need} (костяная пушка — за троих). Спят: {_units_text(asleep)}")
        ledger.note(state, faction, text)
    if choice and asleep and sum(blood_of(k) * n for k, n in named.items()) < need - cap:
        others = {k: n - named.get(k, 0) for k, n in asleep.items() if n - named.get(k, 0) > 0}
        owned = _owned(rec)
        ledger.note(state, faction, (
            f"Спячка: названных вами к спячке ({_units_text(choice)}) не хватило — крови недоставало на "
            f"{agree(need - cap, 'юнит', 'accs')}, а уснуть из названных смогли {_units_text(named)}. "
            "Поэтому уснули и другие, "
            f"по правилу «сначала самые новые»: {_units_text(others)}. Назначить к спячке можно любых своих "
            f"вампиров (действие «Отправить в спячку» во вкладке «Экономика»): {_units_text(owned)}."))
    rec["hibernating"] = asleep
    rec.pop("sleep_choice", None)
    if batches == hire_batches({**rec, "hire_order": []}):
        rec.pop("hire_order", None)      # only starting units: nothing to remember
    else:
        rec["hire_order"] = batches
