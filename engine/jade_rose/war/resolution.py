"""Resolving the turn's battles (RULINGS JR-56 steps 5-6, JR-53): city by city in a seeded order, several
attackers one after another, a capturing army holding the city for the rest of the turn (unless it razed the
city and left the ruins, L54), captures applied.

A fight against the city's planned defence uses the manoeuvres of the planning stage; a fight against an
army that took the city earlier in the turn could not be planned by anyone and runs without manoeuvres.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypedDict

from engine.jade_rose import factions, ledger
from engine.jade_rose.battle import Battle, BattleSpecError, Manoeuvre, battle_kit, build_battle, fight_once
from engine.jade_rose.battle.abilities import round_half_up
from engine.jade_rose.battle.model import ROLES
from engine.jade_rose.battle.texts import ROLE_GEN
from engine.jade_rose.data import load_data
from engine.jade_rose.holdings import faction_name
from engine.jade_rose.state_types import (
    Attack,
    CaptureEvent,
    JadeRoseState,
    ManoeuvrePlan,
    Modifiers,
    PendingBattle,
    Squad,
    WarEvent,
)
from engine.jade_rose.war import captures
from engine.jade_rose.war import squads as sq
from engine.jade_rose.war.battles import fight_title, side_modifiers
from engine.jade_rose.war.codes import DEFEAT_CAUSES, err
from engine.jade_rose.war.manoeuvres import TAB as MANOEUVRES_TAB
from engine.jade_rose.war.manoeuvres import battle_cells, problem_cells, side_manoeuvres, side_setup
from engine.jade_rose.war.posts import fight_post
from engine.jade_rose.war.reports import FightSide, chronicle_fight, chronicle_unopposed, fight_report
from engine.jade_rose.war.words import position_text
from engine.rng import derive_seed, stream
from engine.ruleset import RowStatus

PLAGUE_UNIT = "jade_warrior"
ARMY_ORDERS_TAB = "army_orders"


class _Holders(TypedDict):
    """Who holds a city against its next attacker: the planned defence, or an army that took it this turn."""

    faction: str
    squads: list[Squad]
    holder: bool                        # an army that took the city this turn: no one planned its deployment
    label: str


class _Turn:
    """What the resolution of one turn accumulates: events, the factions that lost a city, and the verdicts
    the battles give the rows that `check` accepted (attack orders, manoeuvres).

    An order carried out and then beaten (a battle lost, a city another army took first, a manoeuvre whose
    fight did not take place) is no mistake of the player's: its row stays OK, with a note that says what
    happened (`codes.DEFEAT_CAUSES`). Only what `check` should have refused is an error on the row."""

    def __init__(self, state: JadeRoseState, manoeuvres: Mapping[str, ManoeuvrePlan], seed: int | str):
        self.state, self.manoeuvres, self.seed = state, manoeuvres, seed
        self.events: list[WarEvent] = []
        self.lost_city: set[str] = set()
        self.verdicts: dict[str, dict[tuple[str, int], RowStatus]] = {}

    def report(self, factions: Iterable[str | None], text: str) -> None:
        reports = self.state.setdefault("reports", {})
        for fid in sorted({f for f in factions if f}):
            reports.setdefault(fid, []).append(text)
        reports.setdefault("gm", []).append(text)

    def chronicle(self, kind: str, text: str) -> None:
        ledger.chronicle(self.state, kind, text)

    # -- verdicts -----------------------------------------------------------------------------
    def _put(self, fid: str | None, status: RowStatus) -> None:
        if fid and status.number:
            self.verdicts.setdefault(fid, {})[(status.tab, status.number)] = status

    def attack_done(self, att: Attack, note: str) -> None:
        self._put(att["faction"], RowStatus(ARMY_ORDERS_TAB, int(att.get("row") or 0), note=note))

    def attack_failed(self, att: Attack, code: str, **params: object) -> None:
        self._put(att["faction"], _verdict(ARMY_ORDERS_TAB, int(att.get("row") or 0), code, params))

    def manoeuvres_failed(self, fid: str | None, fight_id: str, role: str, code: str,
                          cells: Iterable[str] | None = None, **params: object) -> None:
        """The rows of `fid`'s manoeuvres (and runes) for one side of a fight that did not run as planned."""
        for row in manoeuvre_rows(self.manoeuvres.get(fid or ""), fight_id, role, cells):
            self._put(fid, _verdict(MANOEUVRES_TAB, row, code, params))

    def statuses(self) -> dict[str, list[RowStatus]]:
        return {fid: [rows[k] for k in sorted(rows)] for fid, rows in sorted(self.verdicts.items())}


def _verdict(tab: str, row: int, code: str, params: Mapping[str, object]) -> RowStatus:
    """A row the battles did not carry out as planned: OK with the outcome as its note when the dice or
    another army beat it (DEFEAT_CAUSES), else the error `check` should have given."""
    problem = err(code, **params)
    if code in DEFEAT_CAUSES:
        text = problem.message()
        return RowStatus(tab, row, note=text[:1].lower() + text[1:])
    return RowStatus(tab, row, (problem,))


def resolve_battles(state: JadeRoseState, manoeuvres: Mapping[str, ManoeuvrePlan], seed: int | str) -> list[WarEvent]:
    """Resolve every pending battle, apply losses and captures, eliminate factions left with no city.

    Mutates `state` (units, runes, gold, cities, reports, chronicle; clears `state["battles"]`) and
    returns the turn's war events (see war/__init__.py).
    """
    return resolve_battles_with_verdicts(state, manoeuvres, seed)[0]


def resolve_battles_with_verdicts(state: JadeRoseState, manoeuvres: Mapping[str, ManoeuvrePlan], seed: int | str
                                  ) -> tuple[list[WarEvent], dict[str, list[RowStatus]]]:
    """`resolve_battles`, and each faction's row verdicts from the battles: every attack order's outcome
    (won, or why not) and the manoeuvre rows that did not run as planned, each naming its cause (one of
    `codes.DEFEAT_CAUSES`: the battle order's draw, an earlier fight's dice, another faction's army)."""
    turn = _Turn(state, manoeuvres or {}, seed)
    battles = sorted(state.get("battles") or [], key=lambda b: b["id"])
    stream(seed, "battle-order").shuffle(battles)
    for battle in battles:
        _resolve_city(turn, battle)
    turn.events += captures.eliminate(state, turn.lost_city)
    state["battles"] = []
    return turn.events, turn.statuses()


def manoeuvre_rows(plan: ManoeuvrePlan | None, fight: str, role: str,
                   cells: Iterable[str] | None = None) -> list[int]:
    """Rows of a faction's manoeuvre plan that ask something of one side of a fight: a manoeuvre (not «Нет»)
    or a second move, and, unless only some `cells` are meant, the rows spending runes."""
    fights = plan.get("fights") if plan else None
    entry = fights.get(fight) if fights else None
    if not isinstance(entry, Mapping) or entry.get("role") != role:
        return []
    wanted = None if cells is None else set(cells)
    rows = {int(v["row"]) for k, v in (entry.get("squads") or {}).items()
            if (wanted is None or k in wanted) and (v.get("kind", "none") != "none" or v.get("free_move"))}
    if wanted is None and entry.get("runes"):
        rows |= {int(r) for r in entry.get("rune_rows", ())}
    return sorted(rows)


def _resolve_city(turn: _Turn, battle: PendingBattle) -> None:
    state = turn.state
    cid = battle["city"]
    name = state["cities"][cid]["name"]
    owner = battle.get("defender")
    defence: _Holders | None = None
    if battle["target"] == "city" and battle["defence"]["squads"]:
        assert owner is not None        # only an owned city has a garrison, and only its owner's armies join it
        defence = {"faction": owner, "squads": battle["defence"]["squads"], "holder": False,
                   "label": "гарнизон" if battle["defence"]["garrison_only"] else "гарнизон и обороняющие армии"}
    took: dict[str, str] = {}
    fought = False     # a fight for the city has already changed its planned defence
    for n, att in enumerate(battle["attackers"]):
        fid = att["faction"]
        fight = att["fight"]
        label = fight_title(state, cid, fight)
        planned_fight = bool(att.get("needs_planning"))
        if fid in took:
            turn.report([fid], f"Атака армии «{att['army']}» на город {name} отменена: "
                               "ваша армия уже взяла этот город в этом ходу.")
            turn.attack_failed(att, "JR_WAR_TAKEN_BY_OWN_ARMY", army=att["army"], city=name, by=took[fid])
            if planned_fight:
                turn.manoeuvres_failed(fid, fight, "attacker", "JR_WAR_NO_FIGHT", fight=label,
                                       why=f"город {name} уже взяла ваша армия «{took[fid]}»")
                turn.manoeuvres_failed(owner, fight, "defender", "JR_WAR_CITY_TAKEN_BEFORE", fight=label, city=name,
                                       holder=faction_name(state, fid))
            continue
        if defence is None or not defence["squads"]:
            event = _capture(turn, cid, fid, att["capture"])
            fate = captures.fate_text(event, state)
            text = chronicle_unopposed(state, cid, fid, fate)
            turn.chronicle("Захват", text)
            turn.report([fid, event["previous_owner"]], text)
            turn.attack_done(att, f"армия «{att['army']}» взяла город {name} без боя: {fate}")
            if planned_fight:
                why = (f"защитников города {name} не осталось после предыдущего боя — город взят без боя"
                       if defence is not None else
                       f"армия, взявшая город {name} раньше, оставила его — город взят без боя")
                turn.manoeuvres_failed(fid, fight, "attacker", "JR_WAR_NO_FIGHT", fight=label, why=why)
                if defence is None:
                    turn.manoeuvres_failed(owner, fight, "defender", "JR_WAR_CITY_TAKEN_BEFORE", fight=label,
                                           city=name, holder=", ".join(faction_name(state, f) for f in took))
                else:
                    turn.manoeuvres_failed(owner, fight, "defender", "JR_WAR_NO_FIGHT", fight=label, why=why)
            holders = att["squads"]
        else:
            planned = not defence["holder"] and planned_fight
            if planned_fight and not planned:
                holder = faction_name(state, defence["faction"])
                turn.manoeuvres_failed(fid, fight, "attacker", "JR_WAR_CITY_TAKEN_BEFORE", fight=label, city=name,
                                       holder=holder)
                turn.manoeuvres_failed(owner, fight, "defender", "JR_WAR_CITY_TAKEN_BEFORE", fight=label, city=name,
                                       holder=holder)
            won, survivors = _fight(turn, battle, att, n, defence, planned, fought)
            fought = True
            if won is None:
                continue
            if not won:
                defence["squads"] = survivors["defender"]
                turn.attack_failed(att, "JR_WAR_BATTLE_LOST", army=att["army"], city=name, against=defence["label"],
                                   owner=faction_name(state, defence["faction"]), how=_how(planned))
                continue
            event = _capture(turn, cid, fid, att["capture"])
            fate = captures.fate_text(event, state)
            turn.chronicle("Бой", chronicle_fight(state, cid, fid, defence["faction"], defence["holder"], True, fate))
            turn.attack_done(att, f"армия «{att['army']}» выиграла бой за город {name} ({_how(planned)}): {fate}")
            holders = survivors["attacker"]
        took[fid] = att["army"]
        if event.get("left"):   # the attacker declined the ruins: its army leaves them empty
            defence = None
            continue
        defence = {"faction": fid, "squads": [{**s, "garrison": {}} for s in holders], "holder": True,
                   "label": "армия, занявшая город"}


def _how(planned: bool) -> str:
    return "бой с фазой планирования" if planned else "бой без фазы планирования"


def _capture(turn: _Turn, cid: str, attacker: str, choice: str) -> CaptureEvent:
    event = captures.capture(turn.state, cid, attacker, choice)
    if event["choice"] in ("colonise", "raze", "ruins") and event["previous_owner"]:
        turn.lost_city.add(event["previous_owner"])
    turn.events.append(event)
    return event


def _fight(turn: _Turn, battle: PendingBattle, att: Attack, n: int, defence: _Holders, planned: bool,
           fought: bool) -> tuple[bool | None, dict[str, list[Squad]]]:
    """One fight of an attacker against the city's current defenders; returns (attacker won, survivors), won
    None when the fight could not be held. `fought`: an earlier fight changed the city's planned defence."""
    state = turn.state
    cid = battle["city"]
    fid, dfid = att["faction"], defence["faction"]
    units, constants = battle_kit()
    mods: Modifiers
    a_orders: dict[str, Manoeuvre]
    d_orders: dict[str, Manoeuvre]
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
    name = state["cities"][cid]["name"]
    fight, dropped, failure = _build(factions, squads, orders, mods, runes, not planned, name)
    label = fight_title(state, cid, att["fight"])
    if fight is None:
        turn.report([fid, dfid], f"Бой за город {name} не состоялся: {failure}. Защитники удерживают город.")
        turn.attack_failed(att, "JR_WAR_FIGHT_NOT_HELD", army=att["army"], city=name, problem=failure)
        if planned:
            for role in ROLES:
                turn.manoeuvres_failed(factions[role], att["fight"], role, "JR_WAR_FIGHT_NOT_HELD",
                                       army=att["army"], city=name, problem=failure)
        return None, {"defender": defence["squads"]}
    for role in ROLES:
        for key, problem in sorted(dropped[role].items()):
            # an earlier fight for the city changed the defence it was planned against; otherwise `check`
            # should have refused the manoeuvre, and the code says the verdicts disagree
            code = "JR_WAR_DEPLOYMENT_CHANGED" if fought else "JR_WAR_MANOEUVRE_DROPPED"
            turn.manoeuvres_failed(factions[role], att["fight"], role, code, cells=(key,), fight=label, city=name,
                                   problem=problem)
    dropped_note = _dropped_note(dropped)
    seed = derive_seed(turn.seed, battle["id"]) if n == 0 else derive_seed(turn.seed, battle["id"], n + 1)
    result = fight_once(fight, seed)
    labels = {"attacker": "армия", "defender": defence["label"]}
    state.setdefault("battle_posts", []).append(fight_post(state, cid, att["fight"], fight, result, factions, labels))
    sides: dict[str, FightSide] = {}
    survivors: dict[str, list[Squad]] = {}
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
    if dropped_note:
        result_text = f"Примечание: {dropped_note}\n" + result_text
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


def _runes_held(state: JadeRoseState, faction: str, wanted: int) -> int:
    if not factions.of(faction).uses_runes or not wanted:
        return 0
    return max(0, min(wanted, int(state["factions"][faction].get("runes", 0)), battle_kit()[1].max_runes))


def _apply_losses(state: JadeRoseState, side: FightSide, city: str) -> None:
    """Army dead leave the faction, less the 20 % who recover (JR-41); garrisons refill anyway (JR-54)."""
    units = state["factions"][side["faction"]].setdefault("units", {})
    for unit, dead in side["army_deaths"].items():
        lost = dead - side["recovered"].get(unit, 0)
        if lost > 0:
            units[unit] = max(0, int(units.get(unit, 0)) - lost)
            if not units[unit]:
                del units[unit]


def _build(factions: Mapping[str, str], squads: Mapping[str, list[Squad]], orders: Mapping[str, dict[str, Manoeuvre]],
           mods: Modifiers, runes: Mapping[str, int], skip: bool, city: str
           ) -> tuple[Battle | None, dict[str, dict[str, str]], str]:
    """The battle, the manoeuvres dropped because they no longer fit the deployment (role -> cell -> problem)
    and no failure: only the manoeuvres the battle finds at fault go, one side's others stay. (None, the
    dropped, the problems) when even no manoeuvre at all builds it."""
    units, constants = battle_kit()
    orders = {role: dict(orders[role]) for role in ROLES}
    cells = {role: battle_cells(squads[role], mods[role].get("forge_distance")) for role in ROLES}
    dropped: dict[str, dict[str, str]] = {role: {} for role in ROLES}
    for _ in range(16):
        sides = {role: side_setup(factions[role], squads[role], orders[role], mods[role], runes[role])
                 for role in ROLES}
        try:
            return build_battle(sides["attacker"], sides["defender"], units, constants=constants,
                                skip_planning=skip, city=city), dropped, ""
        except BattleSpecError as exc:
            rest = list(exc.problems)
            for role in ROLES:
                hits, rest = problem_cells(rest, role, cells[role], orders[role])
                for key, problem in hits.items():
                    dropped[role][key] = problem
                    orders[role].pop(key)
            if rest:
                if not any(orders.values()):
                    return None, dropped, "; ".join(rest)
                for role in ROLES:
                    for key in list(orders[role]):
                        dropped[role][key] = "; ".join(rest)
                        orders[role].pop(key)
    return None, dropped, "манёвры не удалось согласовать с расстановкой"


def _dropped_note(dropped: Mapping[str, Mapping[str, str]]) -> str:
    """«манёвры отменены: …» for the report, side by side."""
    parts = [f"{ROLE_GEN[role]} ({', '.join(position_text(k).lower() for k in sorted(cells))})"
             for role, cells in dropped.items() if cells]
    return ("манёвры отменены — они не подходят к расстановке: " + "; ".join(parts)) if parts else ""
