"""Resolving the turn's battles (RULINGS JR-56 steps 5-6, JR-53): city by city in a seeded order, several
attackers one after another, a capturing army holding the city for the rest of the turn (unless it razed the
city and left the ruins, L54), captures applied.

A fight against the city's planned defence uses the manoeuvres of the planning stage; a fight against an
army that took the city earlier in the turn could not be planned by anyone and runs without manoeuvres.
"""
from __future__ import annotations

from collections.abc import Mapping

from engine import ledger
from engine.jade_rose import factions
from engine.jade_rose.battle import BattleSpecError, SideSetup, build_battle, fight_once
from engine.jade_rose.battle.abilities import round_half_up
from engine.jade_rose.data import load_data
from engine.jade_rose.war import captures
from engine.jade_rose.war import squads as sq
from engine.jade_rose.war.battles import battle_kit, side_modifiers
from engine.jade_rose.war.manoeuvres import side_manoeuvres
from engine.jade_rose.war.posts import fight_post
from engine.jade_rose.war.reports import chronicle_fight, chronicle_unopposed, fight_report
from engine.rng import derive_seed, stream

PLAGUE_UNIT = "jade_warrior"


class _Turn:
    """What the resolution of one turn accumulates: events and the factions that lost a city."""

    def __init__(self, state: dict, manoeuvres: Mapping[str, dict], seed: int | str):
        self.state, self.manoeuvres, self.seed = state, manoeuvres, seed
        self.events: list[dict] = []
        self.lost_city: set[str] = set()

    def report(self, factions, text: str) -> None:
        reports = self.state.setdefault("reports", {})
        for fid in sorted({f for f in factions if f}):
            reports.setdefault(fid, []).append(text)
        reports.setdefault("gm", []).append(text)

    def chronicle(self, kind: str, text: str) -> None:
        ledger.chronicle(self.state, kind, text)


def resolve_battles(state: dict, manoeuvres: Mapping[str, dict], seed: int | str) -> list[dict]:
    """Resolve every pending battle, apply losses and captures, eliminate factions left with no city.

    Mutates `state` (units, runes, gold, cities, reports, chronicle; clears `state["battles"]`) and
    returns the turn's war events (see war/__init__.py).
    """
    turn = _Turn(state, manoeuvres or {}, seed)
    battles = sorted(state.get("battles") or [], key=lambda b: b["id"])
    stream(seed, "battle-order").shuffle(battles)
    for battle in battles:
        _resolve_city(turn, battle)
    turn.events += captures.eliminate(state, turn.lost_city)
    state["battles"] = []
    return turn.events


def _resolve_city(turn: _Turn, battle: dict) -> None:
    state = turn.state
    cid = battle["city"]
    defence = None
    if battle["target"] == "city" and battle["defence"]["squads"]:
        defence = {"faction": battle["defender"], "squads": battle["defence"]["squads"], "holder": False,
                   "label": "гарнизон" if battle["defence"]["garrison_only"] else "гарнизон и обороняющие армии"}
    took: set[str] = set()
    for n, att in enumerate(battle["attackers"]):
        fid = att["faction"]
        if fid in took:
            turn.report([fid], f"Атака армии «{att['army']}» на город {state['cities'][cid]['name']} отменена: "
                               "ваша армия уже взяла этот город в этом ходу.")
            continue
        if defence is None or not defence["squads"]:
            event = _capture(turn, cid, fid, att["capture"])
            text = chronicle_unopposed(state, cid, fid, captures.fate_text(event, state))
            turn.chronicle("Захват", text)
            turn.report([fid, event["previous_owner"]], text)
            holders = att["squads"]
        else:
            planned = not defence["holder"] and att["needs_planning"]
            won, survivors = _fight(turn, battle, att, n, defence, planned)
            if not won:
                defence["squads"] = survivors["defender"]
                continue
            event = _capture(turn, cid, fid, att["capture"])
            fate = captures.fate_text(event, state)
            turn.chronicle("Бой", chronicle_fight(state, cid, fid, defence["faction"], defence["holder"], True, fate))
            holders = survivors["attacker"]
        took.add(fid)
        if event.get("left"):   # the attacker declined the ruins: its army leaves them empty
            defence = None
            continue
        defence = {"faction": fid, "squads": [dict(s, garrison={}) for s in holders], "holder": True,
                   "label": "армия, занявшая город"}


def _capture(turn: _Turn, cid: str, attacker: str, choice: str) -> dict:
    event = captures.capture(turn.state, cid, attacker, choice)
    if event["choice"] in ("colonise", "raze", "ruins") and event["previous_owner"]:
        turn.lost_city.add(event["previous_owner"])
    turn.events.append(event)
    return event


def _fight(turn: _Turn, battle: dict, att: dict, n: int, defence: dict, planned: bool) -> tuple[bool, dict]:
    """One fight of an attacker against the city's current defenders; returns (attacker won, survivors)."""
    state = turn.state
    cid = battle["city"]
    fid, dfid = att["faction"], defence["faction"]
    units, constants = battle_kit()
    if planned:
        mods = att["modifiers"]
        a_orders, a_runes = side_manoeuvres(turn.manoeuvres.get(fid), att["fight"], "attacker")
        d_orders, d_runes = side_manoeuvres(turn.manoeuvres.get(dfid), att["fight"], "defender")
    else:
        mods = {"attacker": side_modifiers(state, fid, dfid, cid), "defender": side_modifiers(state, dfid, fid, cid)}
        a_orders, a_runes, d_orders, d_runes = {}, 0, {}, 0
    runes = {"attacker": _runes_held(state, fid, a_runes), "defender": _runes_held(state, dfid, d_runes)}
    squads = {"attacker": att["squads"], "defender": defence["squads"]}
    orders = {"attacker": a_orders, "defender": d_orders}
    factions = {"attacker": fid, "defender": dfid}
    notes = list(att.get("notes", ())) + (list(battle["defence"].get("notes", ())) if not defence["holder"] else [])
    fight, dropped = _build(factions, squads, orders, mods, runes, not planned, state["cities"][cid]["name"])
    if fight is None:
        turn.report([fid, dfid], f"Бой за город {state['cities'][cid]['name']} не состоялся: {dropped}. "
                                 "Защитники удерживают город.")
        return False, {"defender": defence["squads"]}
    seed = derive_seed(turn.seed, battle["id"]) if n == 0 else derive_seed(turn.seed, battle["id"], n + 1)
    result = fight_once(fight, seed)
    labels = {"attacker": "армия", "defender": defence["label"]}
    state.setdefault("battle_posts", []).append(fight_post(state, cid, att["fight"], fight, result, factions, labels))
    sides: dict[str, dict] = {}
    survivors: dict[str, list[dict]] = {}
    for role in ("attacker", "defender"):
        outcome = result.side(role)
        deaths = dict(outcome.losses)
        survivors[role], army_dead = sq.apply_losses(squads[role], outcome)
        recovered = {k: round_half_up(v * constants.recovery_pct, 100) for k, v in army_dead.items()}
        recovered = {k: v for k, v in recovered.items() if v}
        sides[role] = {"faction": factions[role], "label": defence["label"] if role == "defender" else "армия",
                       "squads": squads[role], "modifiers": mods[role], "runes": runes[role], "deaths": deaths,
                       "army_deaths": army_dead, "recovered": recovered, "squad_losses": outcome.squads,
                       "army_size": sum(sum(sq.army_part(s).values()) for s in squads[role])}
    for role, enemy in (("attacker", "defender"), ("defender", "attacker")):
        _apply_losses(state, sides[role], cid)
        if runes[role]:
            ledger.change(state, factions[role], "runes", -runes[role],
                          f"Руны потрачены в бою за город {state['cities'][cid]['name']}", cid)
        if mods[role].get("plague"):
            e = sides[enemy]
            converted = sum(e["deaths"].values()) - sum(e["recovered"].values())
            sides[role]["converted"] = converted
            if converted > 0 and PLAGUE_UNIT in load_data().units:
                units_rec = state["factions"][factions[role]].setdefault("units", {})
                units_rec[PLAGUE_UNIT] = int(units_rec.get(PLAGUE_UNIT, 0)) + converted
    result_text = fight_report(state, cid, att["fight"], sides, result)
    if dropped:
        result_text = f"Примечание: {dropped}\n" + result_text
    if notes:
        result_text += "\n" + "\n".join(f"Расстановка: {t}" for t in notes)
    turn.report([fid, dfid], result_text)
    won = result.winner == "attacker"
    turn.events.append({"kind": "battle", "id": att["fight"], "city": cid, "attacker": fid, "defender": dfid,
                        "winner": result.winner,
                        "deaths": {sides[r]["faction"]: sides[r]["deaths"] for r in sides},
                        "army_deaths": {sides[r]["faction"]: sides[r]["army_deaths"] for r in sides},
                        "army_size": {sides[r]["faction"]: sides[r]["army_size"] for r in sides}})
    if not won:
        turn.events.append({"kind": "failed_attack", "city": cid, "attacker": fid, "defender": dfid})
        turn.chronicle("Бой", chronicle_fight(state, cid, fid, dfid, defence["holder"], False, ""))
    return won, survivors


def _runes_held(state: Mapping, faction: str | None, wanted: int) -> int:
    if not factions.of(faction).uses_runes or not wanted:
        return 0
    return max(0, min(wanted, int(state["factions"][faction].get("runes", 0)), battle_kit()[1].max_runes))


def _apply_losses(state: dict, side: Mapping, city: str) -> None:
    """Army dead leave the faction, less the 20 % who recover (JR-41); garrisons refill anyway (JR-54)."""
    units = state["factions"][side["faction"]].setdefault("units", {})
    for unit, dead in side["army_deaths"].items():
        lost = dead - side["recovered"].get(unit, 0)
        if lost > 0:
            units[unit] = max(0, int(units.get(unit, 0)) - lost)
            if not units[unit]:
                del units[unit]


def _build(factions, squads, orders, mods, runes, skip: bool, city: str):
    """The battle; manoeuvres that no longer fit the deployment are dropped side by side (with a note)."""
    units, constants = battle_kit()
    tries = [(orders["attacker"], orders["defender"], "")]
    tries.append(({}, orders["defender"], "манёвры атакующего отменены: они не подходят к расстановке"))
    tries.append((orders["attacker"], {}, "манёвры защитника отменены: они не подходят к расстановке"))
    tries.append(({}, {}, "манёвры обеих сторон отменены: они не подходят к расстановке"))
    problems: list[str] = []
    for a_orders, d_orders, note in tries:
        sides = {}
        for role, role_orders in (("attacker", a_orders), ("defender", d_orders)):
            m = mods[role]
            sides[role] = SideSetup(faction=factions[role], squads=sq.setups(squads[role], role_orders),
                                    grudges=m.get("grudges", 0), runes=runes[role],
                                    forge_distance=m.get("forge_distance"), plague=bool(m.get("plague")))
        try:
            return build_battle(sides["attacker"], sides["defender"], units, constants=constants,
                                skip_planning=skip, city=city), note
        except BattleSpecError as exc:
            problems = exc.problems
    return None, "; ".join(problems)
