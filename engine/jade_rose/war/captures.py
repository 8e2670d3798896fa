"""What a capture does to a city (L56-59, RULINGS JR-49..51) and the elimination of factions (L35).

colonise: buildings destroyed, the city passes, its level kept; plunder: buildings destroyed, level −1
(never below 1), the city stays, the attacker gets 3 × the owner's base income and the city yields nothing
next turn; raze: 3 × base income, the city becomes ruins owned by the attacker, or, when the attacker
declines them (order "raze_leave", L54 «если только вы не захотите обратного»), still by their owner
(the event's choice is "raze" with "left": true); ruins: simply taken, whatever the order chose.
"""
from __future__ import annotations

from collections.abc import Iterable

from engine.jade_rose import ledger
from engine.jade_rose.data import EraDef, load_data
from engine.jade_rose.holdings import base_income, era_of, own_cities, summon_limits
from engine.jade_rose.state_types import CaptureEvent, City, EliminatedEvent, JadeRoseState
from engine.jade_rose.war.words import CAPTURE_DONE

CHOICES = ("colonise", "plunder", "raze", "raze_leave")


def owner_base_income(city: City, owner: str | None) -> int:
    """The city's base income for the faction that owned it (JR-50); a neutral city earns the plain rate."""
    if city.get("ruins"):
        return 0
    if owner:
        return base_income(city, owner)
    return int(load_data().economy["city_income"]["large" if city.get("large") else "small"]) * int(city["level"])


def capture(state: JadeRoseState, city_id: str, attacker: str, choice: str) -> CaptureEvent:
    """Apply a capture to `state` and return the capture event (see war/__init__.py)."""
    city = state["cities"][city_id]
    previous = city.get("owner")
    era = era_of(state)
    leave = choice == "raze_leave"
    if leave:
        choice = "raze"
    event: CaptureEvent = {"kind": "capture", "city": city_id, "attacker": attacker, "previous_owner": previous,
             "choice": "ruins" if city.get("ruins") else choice, "large": bool(city.get("large")),
             "level_before": int(city["level"]), "era_max_level": int(era.max_city_level),
             "base_income": owner_base_income(city, previous), "buildings_lost": list(city.get("buildings", []))}
    choice = event["choice"]
    if choice == "ruins":
        city["owner"] = attacker
        return event
    _destroy_buildings(state, city_id)
    if choice == "colonise":
        city.update({"owner": attacker, "capital": False})
    elif choice == "plunder":
        city["level"] = max(1, int(city["level"]) - 1)
        city["no_income_turns"] = max(1, int(city.get("no_income_turns", 0)))
        _pay_triple(state, attacker, event, era, f"Разграбление города {city['name']}: утроенный доход")
    elif choice == "raze":
        city.update({"owner": previous if leave else attacker, "capital": False, "ruins": True, "no_income_turns": 0})
        if leave:
            event["left"] = True
        _pay_triple(state, attacker, event, era, f"Разрушение города {city['name']}: утроенный доход")
    else:
        raise ValueError(f"unknown capture choice {choice!r}")
    return event


def _pay_triple(state: JadeRoseState, attacker: str, event: CaptureEvent, era: EraDef, reason: str) -> None:
    mult = int(era.gold_multiplier)
    amount = 3 * int(event["base_income"]) * mult
    ledger.change(state, attacker, "gold", amount, reason + (f" ({era.name}: ×{mult})" if mult != 1 else ""),
                  event["city"])


def _destroy_buildings(state: JadeRoseState, city_id: str) -> None:
    """Buildings go; units summoned by a destroyed building die with it (L260)."""
    data = load_data()
    city = state["cities"][city_id]
    owner = city.get("owner")
    gone = [b for b in city.get("buildings", []) if b in data.buildings]
    city["buildings"] = []
    if not owner or owner not in state["factions"]:
        return
    summoned = {u for b in gone for u in data.buildings[b].effects.get("summons", {})}
    if not summoned:
        return
    limits = summon_limits(state, owner)
    units = state["factions"][owner].setdefault("units", {})
    for unit in sorted(summoned):
        lost = max(0, int(units.get(unit, 0)) - limits.get(unit, 0))
        if lost:
            units[unit] -= lost
            ledger.note(state, owner, f"{data.units[unit].name} ×{lost} погибли вместе с разрушенной постройкой "
                                      f"в городе {city['name']}")


def fate_text(event: CaptureEvent, state: JadeRoseState) -> str:
    """Russian city fate for the chronicle: «колонизирован», «разграблен (уровень 2 → 1)», …"""
    if event["choice"] == "ruins":
        return "руины заняты"
    text = f"город {CAPTURE_DONE[event['choice']]}"
    if event["choice"] == "plunder":
        after = state["cities"][event["city"]]["level"]
        text += f" (уровень {event['level_before']} → {after})"
    elif event["choice"] == "raze" and event.get("left"):
        owner = event.get("previous_owner")
        rec = state["factions"].get(owner) if owner else None
        text += (f", руины остались за фракцией «{rec['name']}»" if rec else ", руины остались ничьими")
    elif event["choice"] == "raze":
        text += ", теперь это руины"
    return text


def eliminate(state: JadeRoseState, factions: Iterable[str | None]) -> list[EliminatedEvent]:
    """Factions (of `factions`) left with no standing city are out; their units are lost (L35, JR-51)."""
    events: list[EliminatedEvent] = []
    for fid in sorted(f for f in factions if f):
        rec = state["factions"].get(fid)
        if rec is None or rec.get("eliminated") or own_cities(state, fid, ruins=False):
            continue
        rec["eliminated"] = True
        rec["units"] = {}
        if "hibernating" in rec:
            rec["hibernating"] = {}
        rec.pop("hire_order", None)
        rec.pop("sleep_choice", None)
        events.append({"kind": "eliminated", "faction": fid})
        ledger.note(state, fid, "Фракция потеряла последний город и выбыла из игры")
        ledger.chronicle(state, "Выбывание", f"{rec['name']}: потерян последний город — фракция выбывает из игры.")
    return events
