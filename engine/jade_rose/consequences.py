"""What the war's events do to the factions (RULINGS JR-56 step 6): each event (battle, capture, failed
attack, elimination) calls the hooks of the factions it touches (honor, slaves, grudges: see the faction
modules); the war itself already moved cities, paid plunder and raze gold and removed the losses. Each
affected faction's journal gets one line per event summing up its ledger lines."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypeGuard

from engine.jade_rose import factions, ledger
from engine.jade_rose.data import load_data
from engine.jade_rose.factions.base import CHOICE_WORDS
from engine.jade_rose.holdings import city_name, faction_name
from engine.jade_rose.state_types import (
    BattleEvent,
    CaptureEvent,
    EliminatedEvent,
    FailedAttackEvent,
    JadeRoseState,
    LedgerLine,
    WarEvent,
)
from engine.russian import plural

HANDLED = ("battle", "capture", "failed_attack", "eliminated")    # the kinds of event with consequences
TAKEN = ("colonise", "plunder", "raze")          # a city changes hands or is destroyed; "ruins" is no city (JR-51)
_UNITS_OF = {"honor": "ч", "gold": "з", "slaves": " рабов", "eternal_servants": " вечных слуг"}


def _playing(faction: object, state: JadeRoseState) -> TypeGuard[str]:
    """`faction` is the id of a faction of this game."""
    return isinstance(faction, str) and faction in state["factions"]


def apply_war_events(state: JadeRoseState, events: list[WarEvent]) -> None:
    """Faction consequences of the turn's war events, in their order."""
    for event in events:
        if isinstance(event, Mapping) and event.get("kind", "") in HANDLED:
            start = len(state.setdefault("ledger", []))
            _handle(state, event)
            _log_consequences(state, event, state["ledger"][start:])


def _handle(state: JadeRoseState, event: WarEvent) -> None:
    """The handler of the event's kind (one of HANDLED)."""
    if event["kind"] == "battle":
        _battle(state, event)
    elif event["kind"] == "capture":
        _capture(state, event)
    elif event["kind"] == "failed_attack":
        _failed_attack(state, event)
    elif event["kind"] == "eliminated":
        _eliminated(state, event)


def _log_consequences(state: JadeRoseState, event: WarEvent, lines: list[LedgerLine]) -> None:
    place = city_name(state, event.get("city"))
    if event["kind"] == "battle":
        title = f"Бой за {place}"
    elif event["kind"] == "capture":
        who = faction_name(state, event.get("attacker"))
        title = f"Город {place} {CHOICE_WORDS.get(event.get('choice', ''), 'взят')} («{who}»)"
    else:       # a failed attack (an elimination changes no balance: it logs nothing here)
        attacker = event.get("attacker") if event["kind"] == "failed_attack" else None
        title = f"Нападение «{faction_name(state, attacker)}» на {place} отбито"
    parts: dict[str, list[str]] = {}
    for line in lines:
        amount = int(line["amount"])
        if line["resource"] == "grudges":
            text = f"{amount:+d} {plural(amount, 'обида')} на «{faction_name(state, line['against'])}»"
        else:
            text = f"{amount:+d}{_UNITS_OF.get(line['resource'], ' ' + line['resource'])}"
        parts.setdefault(line["faction"], []).append(text)
    for faction, texts in sorted(parts.items()):
        ledger.note(state, faction, f"{title}: {', '.join(texts)}")


def _battle(state: JadeRoseState, event: BattleEvent) -> None:
    units = load_data().units
    place = city_name(state, event.get("city"))
    for fid, dead in sorted((event.get("deaths") or {}).items()):
        if _playing(fid, state) and isinstance(dead, Mapping):
            fallen = {k: int(n) for k, n in dead.items() if k in units and int(n) > 0}
            factions.of(fid).on_fallen(state, fid, fallen, event, place)
    defender, attacker = event.get("defender"), event.get("attacker")
    if _playing(defender, state) and _playing(attacker, state):
        factions.of(defender).on_attacked(state, defender, event, place)


def _capture(state: JadeRoseState, event: CaptureEvent) -> None:
    if event.get("choice") not in TAKEN:
        return
    previous, attacker = event.get("previous_owner"), event.get("attacker")
    if _playing(previous, state) and previous != attacker:
        factions.of(previous).on_city_lost(state, previous, event)
    if _playing(attacker, state):
        factions.of(attacker).on_city_taken(state, attacker, event)


def _failed_attack(state: JadeRoseState, event: FailedAttackEvent) -> None:
    defender, attacker = event.get("defender"), event.get("attacker")
    if _playing(defender, state) and _playing(attacker, state):
        factions.of(defender).on_failed_attack(state, defender, event)


def _eliminated(state: JadeRoseState, event: EliminatedEvent) -> None:
    """L35 «Если фракция теряет последний город, она выбывает из игры.»"""
    faction = event.get("faction")
    if _playing(faction, state) and not state["factions"][faction].get("eliminated"):
        state["factions"][faction]["eliminated"] = True
        ledger.note(state, faction, "Фракция потеряла последний город и выбыла из игры")

