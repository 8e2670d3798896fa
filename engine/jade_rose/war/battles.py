"""Forming the turn's battles (RULINGS JR-56 step 4): armies checked against the state after the economy,
garrisons placed, defending armies joined, side modifiers, and whether planning is needed.

One file, over 400 lines: forming a battle and the verdicts it gives the attack orders read the same records.

`state["battles"]` (JSON) is a list of pending battles, one per attacked city, id "b<turn>-<city id>":
    {"id", "city", "defender": fid|None, "target": "city"|"ruins"|"empty", "needs_planning": bool,
     "defence": {"squads": [squad], "armies": [name], "garrison_only": bool, "notes": [text]},
     "attackers": [{"fight": "<id>/<n>", "faction", "army", "row", "capture", "skip_planning",
                    "needs_planning", "squads": [squad], "notes": [text],
                    "modifiers": {"attacker": side, "defender": side}}]}
    side = {"grudges", "forge_distance", "plague"}; squad: see squads.py. Attackers fight in list order.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from engine.errors import OrderError, allowed_list
from engine.jade_rose import factions
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import ACTION_OF_KIND
from engine.jade_rose.garrison import garrison_of
from engine.jade_rose.holdings import city_names, era_of, neighbours, own_cities
from engine.jade_rose.state_types import (
    ArmyPlan,
    Attack,
    Defence,
    JadeRoseState,
    PendingBattle,
    SideModifiers,
    Squad,
    WarPlan,
)
from engine.jade_rose.war import squads as sq
from engine.jade_rose.war.armies import empty_plan, rear_note
from engine.jade_rose.war.codes import err
from engine.jade_rose.war.words import ORDER_WORDS, pos_key, position_text
from engine.rng import stream
from engine.ruleset import RowStatus

TAB_ORDER = {"armies": 0, "army_orders": 1, "garrisons": 2}
Cells = dict[str, Squad]        # an army's (or a defence's) squads by their cell "flank/line"


class _AttackOrder(TypedDict):
    """An accepted attack order, before the battles are formed."""

    faction: str
    army: str
    row: int | None
    capture: str
    skip_planning: bool
    cells: Cells


# -- geography ----------------------------------------------------------------------

def standing(state: JadeRoseState, faction: str) -> list[str]:
    """The faction's cities that are not ruins (ruins are not cities, JR-51)."""
    return own_cities(state, faction, ruins=False)


def attack_targets(state: JadeRoseState, faction: str) -> list[str]:
    """Cities (and ruins) of others joined by a road to one of the faction's standing cities (L40)."""
    out: set[str] = set()
    for cid in standing(state, faction):
        out |= neighbours(state, cid)
    return sorted((c for c in out if state["cities"][c].get("owner") != faction and not _protected(state, c)),
                  key=lambda c: state["cities"][c]["name"])


def _protected(state: JadeRoseState, city: str) -> bool:
    owner = state["cities"][city].get("owner")
    rec = state["factions"].get(owner) if owner else None
    return bool(rec is not None and rec.get("won"))


def side_modifiers(state: JadeRoseState, faction: str | None, opponent: str | None, city: str) -> SideModifiers:
    """The side's modifiers, filled by its faction's hooks: dwarf grudges against the opponent, Jade forge
    distance (no forge reachable: switched off) and plague."""
    out: SideModifiers = {"grudges": 0, "forge_distance": None, "plague": False}
    if faction:
        factions.of(faction).battle_modifiers(state, faction, opponent, city, out)
    return out


# -- the faction's armies ---------------------------------------------------------------

def available_units(state: JadeRoseState, faction: str) -> dict[str, int]:
    """Units that may join an army: owned ones, hibernating vampires excepted."""
    rec = state["factions"][faction]
    sleeping = rec.get("hibernating", {}) or {}
    return {k: n - int(sleeping.get(k, 0)) for k, n in rec.get("units", {}).items() if n - int(sleeping.get(k, 0)) > 0}


class _Statuses:
    """Statuses by (tab, row): the first error of a row wins, notes only on OK rows."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, int], RowStatus] = {}

    def reject(self, tab: str, row: int, error: OrderError) -> None:
        old = self.items.get((tab, row))
        errors = (old.errors if old and not old.ok else ()) + (error,)
        self.items[(tab, row)] = RowStatus(tab, row, errors)

    def note(self, tab: str, row: int, text: str) -> None:
        old = self.items.get((tab, row))
        if old is None or old.ok:
            self.items[(tab, row)] = RowStatus(tab, row, note=text)

    def rejected(self, tab: str, row: int) -> bool:
        old = self.items.get((tab, row))
        return bool(old and not old.ok)

    def as_list(self) -> list[RowStatus]:
        return [self.items[k] for k in sorted(self.items, key=lambda k: (TAB_ORDER.get(k[0], 9), k[1]))]


def _assign_units(state: JadeRoseState, faction: str, plan: WarPlan, out: _Statuses) -> dict[str, Cells]:
    """Armies' squads after each unit is given to at most one army (rows in sheet order, JR-56 step 4)."""
    data = load_data()
    free = available_units(state, faction)
    sleeping = state["factions"][faction].get("hibernating", {}) or {}
    rows: list[tuple[int, str, str, str, int]] = []
    for name, army in plan.get("armies", {}).items():
        for squad in army.get("squads", ()):
            for r in squad.get("rows", ()):
                rows.append((int(r["row"]), name, pos_key(squad["flank"], squad["line"]), r["unit"], int(r["count"])))
    taken: dict[str, dict[str, int]] = {}
    armies: dict[str, Cells] = {}
    for number, name, key, unit, count in sorted(rows):
        have = free.get(unit, 0)
        used = sum(taken.get(unit, {}).values())
        if unit not in data.units or count > have - used:
            zz = int(sleeping.get(unit, 0))
            asleep = f" (ещё {zz} в спячке — они не воюют)" if zz else ""
            uname = data.units[unit].name if unit in data.units else unit
            if not have:
                problem = err("JR_WAR_NO_UNITS", unit=uname, sleeping=asleep)
            elif not used:
                problem = err("JR_WAR_TOO_MANY_UNITS", unit=uname, have=have, sleeping=asleep, count=count)
            else:
                where = ", ".join(f"«{a}»: {n}" for a, n in taken[unit].items())
                problem = err("JR_WAR_UNITS_TAKEN", unit=uname, have=have, sleeping=asleep, used=used, armies=where,
                              free=max(0, have - used), count=count)
            out.reject("armies", number, problem)
            continue
        taken.setdefault(unit, {})[name] = taken.get(unit, {}).get(name, 0) + count
        cell = armies.setdefault(name, {}).setdefault(key, sq.new_squad(key))
        cell["units"][unit] = cell["units"].get(unit, 0) + count
    return armies


def _check_orders(state: JadeRoseState, faction: str, plan: WarPlan, armies: Mapping[str, Cells],
                  out: _Statuses) -> list[tuple[str, ArmyPlan]]:
    """Accepted attack and defend orders (name, order), the era's cap counted in sheet order."""
    era = era_of(state)
    cap = int(era.max_armies)
    mine = standing(state, faction)
    accepted: list[tuple[str, ArmyPlan]] = []
    orders = sorted(((rec.get("row") or 0, name, rec) for name, rec in plan.get("armies", {}).items()
                     if rec.get("order")), key=lambda t: (t[0], t[1]))
    for row, name, rec in orders:
        order, cid = rec["order"], rec.get("city")
        assert order is not None        # only armies with an order are listed
        if order == "disperse":
            out.note("army_orders", row, "армия рассредоточена: юниты остаются в резерве")
            continue
        if not armies.get(name):
            out.reject("army_orders", row, err("JR_WAR_NO_DEPLOYMENT", army=name, order=ORDER_WORDS[order]))
            continue
        city = state["cities"].get(cid) if cid is not None else None
        if cid is None or city is None:
            every = sorted(c["name"] for c in state["cities"].values())
            out.reject("army_orders", row, err("JR_WAR_UNKNOWN_CITY", value=cid, allowed=allowed_list(every)))
            continue
        problem = None
        if order == "defend":
            if city.get("owner") != faction:
                problem = err("JR_WAR_DEFEND_NOT_OWN", city=city["name"], allowed=allowed_list(city_names(state, mine)))
            elif city.get("ruins"):
                problem = err("JR_WAR_DEFEND_RUINS", city=city["name"], allowed=allowed_list(city_names(state, mine)))
        else:
            owner = city.get("owner")
            if owner == faction:
                problem = err("JR_WAR_ATTACK_OWN", city=city["name"], what="руины" if city.get("ruins") else "город")
            elif owner and _protected(state, cid):
                problem = err("JR_WAR_CITY_PROTECTED", owner=state["factions"][owner]["name"])
            elif cid not in attack_targets(state, faction):
                problem = err("JR_WAR_NOT_ADJACENT", city=city["name"],
                              allowed=allowed_list(city_names(state, attack_targets(state, faction))))
        if problem is None and len(accepted) >= cap:
            problem = err("JR_WAR_ARMY_CAP", era=era.name, cap=cap, armies=", ".join(f"«{n}»" for n, _ in accepted))
        if problem is not None:
            out.reject("army_orders", row, problem)
            continue
        accepted.append((name, rec))
    return accepted


def _check_garrisons(state: JadeRoseState, faction: str, plan: WarPlan, out: _Statuses) -> dict[str, list[Squad]]:
    """The owner's placement of each garrison, rows beyond the garrison's composition rejected."""
    data = load_data()
    placed: dict[str, list[Squad]] = {}
    for cid, squads in plan.get("garrisons", {}).items():
        city = state["cities"].get(cid)
        rows = sorted((int(r["row"]), pos_key(s["flank"], s["line"]), r["unit"], int(r["count"]))
                      for s in squads for r in s.get("rows", ()))
        if city is None or city.get("owner") != faction or city.get("ruins"):
            if city is not None and city.get("owner") == faction:
                problem = err("JR_WAR_RUINS_NO_GARRISON", city=city["name"])
            else:
                problem = err("JR_WAR_NOT_OWN_CITY", city=city["name"] if city else cid, what="расставлять гарнизон",
                              allowed=allowed_list(city_names(state, standing(state, faction))))
            for number, *_ in rows:
                out.reject("garrisons", number, problem)
            continue
        comp = garrison_of(state, cid)
        shown = ", ".join(f"{data.units[k].name} ×{n}" for k, n in comp.items()) or "нет"
        used: dict[str, int] = {}
        cells: Cells = {}
        for number, key, unit, count in rows:
            have = comp.get(unit, 0)
            if not have:
                out.reject("garrisons", number, err("JR_WAR_NOT_IN_GARRISON", city=city["name"],
                                                    unit=data.units[unit].name, garrison=shown))
                continue
            if used.get(unit, 0) + count > have:
                out.reject("garrisons", number, err("JR_WAR_GARRISON_OVER", city=city["name"], have=have,
                                                    unit=data.units[unit].name, used=used.get(unit, 0),
                                                    count=count, garrison=shown))
                continue
            used[unit] = used.get(unit, 0) + count
            cell = cells.setdefault(key, sq.new_squad(key))
            cell["units"][unit] = cell["units"].get(unit, 0) + count
        placed[cid] = list(cells.values())
    return placed


# -- forming the battles ------------------------------------------------------------------

def form_battles(state: JadeRoseState, plans: Mapping[str, WarPlan], seed: int | str) -> dict[str, list[RowStatus]]:
    """Check every faction's armies against `state` (after the economy) and write `state["battles"]`.

    Rejected rows get statuses and the rest still counts; accepted orders get a note. Pure in
    (state, plans, seed); the order of several attackers on one city is drawn from the seed.
    """
    statuses: dict[str, list[RowStatus]] = {}
    attacks: dict[str, list[_AttackOrder]] = {}
    defends: dict[str, list[tuple[str, str, Cells]]] = {}
    placements: dict[str, dict[str, list[Squad]]] = {}
    order_rows: dict[tuple[str, str], int] = {}
    for fid in sorted(plans):
        rec = state["factions"].get(fid)
        plan = plans[fid] or empty_plan()
        if rec is None:
            continue
        out = _Statuses()
        if rec.get("eliminated") or rec.get("won"):
            for tab, number in _plan_rows(plan):
                out.reject(tab, number, err("JR_WAR_FACTION_OUT"))
            statuses[fid] = out.as_list()
            continue
        if rec.get("armies_blocked"):
            _reject_blocked(plan, out)
            placements[fid] = _check_garrisons(state, fid, plan, out)
            statuses[fid] = out.as_list()
            continue
        armies = _assign_units(state, fid, plan, out)
        for name, cells in armies.items():
            for rear in sq.step_up({k: v.copy() for k, v in cells.items()}):
                for squad in plan["armies"][name]["squads"]:
                    if pos_key(squad["flank"], squad["line"]) == rear:
                        for r in squad["rows"]:
                            out.note("armies", int(r["row"]), rear_note(squad["flank"]))
        placements[fid] = _check_garrisons(state, fid, plan, out)
        joined: dict[str, Cells] = {}
        for name, order in _check_orders(state, fid, plan, armies, out):
            cid = order["city"]
            assert cid is not None      # _check_orders found the city
            order_rows[(fid, name)] = int(order.get("row") or 0)
            if order["order"] == "defend":
                _join_defence(state, cid, name, plan, armies[name], joined, placements[fid], out)
            cells = {k: {**v, "units": dict(v["units"]), "garrison": {}} for k, v in armies[name].items()}
            if order["order"] == "attack":
                attacks.setdefault(cid, []).append({"faction": fid, "army": name, "row": order.get("row"),
                                                    "capture": order.get("capture") or "colonise",
                                                    "skip_planning": bool(order.get("skip_planning")),
                                                    "cells": cells})
            else:
                defends.setdefault(cid, []).append((fid, name, cells))
                out.note("army_orders", int(order.get("row") or 0),
                         f"армия обороняет город {state['cities'][cid]['name']}")
        statuses[fid] = out.as_list()

    battles: list[PendingBattle] = []
    for cid in sorted(attacks):
        battle = _battle(state, cid, attacks[cid], defends.get(cid, []), placements, seed)
        battles.append(battle)
        for att in battle["attackers"]:
            if att["faction"] in statuses:
                note = f"армия атакует город {state['cities'][cid]['name']}"
                if battle["target"] != "city":
                    note += " (защитников нет — город берётся без боя, если его не займут раньше)"
                elif att["needs_planning"]:
                    note += "; бой с фазой планирования"
                    if att["skip_planning"]:
                        note += " («Без планирования» действует только против одного гарнизона)"
                else:
                    note += "; бой без фазы планирования"
                if att["capture"] == "raze_leave" and battle["target"] != "ruins":
                    note += "; при победе город будет разрушен, а руины останутся за его владельцем"
                statuses[att["faction"]] = _with_note(statuses[att["faction"]], "army_orders",
                                                      order_rows.get((att["faction"], att["army"]), 0), note)
    state["battles"] = battles
    return statuses


def _join_defence(state: JadeRoseState, cid: str, name: str, plan: WarPlan, army: Cells,
                  joined: dict[str, Cells], placed: Mapping[str, list[Squad]], out: _Statuses) -> None:
    """A defending army joins the city's garrison squad by squad where its rows put it (L45 «ваша армия временно
    прибавится к гарнизону»), after the garrison's own placement rows and the armies that defend it before
    (in sheet order); the garrison's unplaced units then fill in around them (`_battle`). A row whose unit
    cannot stand there (a second one-per-squad unit, an excluded pair) is refused, never moved elsewhere;
    its units stay in reserve (they leave `army`)."""
    data = load_data()
    cells = joined.get(cid)
    if cells is None:
        cells = joined[cid] = {}
        for squad in placed.get(cid, []):
            key = pos_key(squad["flank"], squad["line"])
            for unit, n in squad["units"].items():
                cell = cells.setdefault(key, sq.new_squad(key))
                cell["units"][unit] = cell["units"].get(unit, 0) + n
                cell["garrison"][unit] = cell["garrison"].get(unit, 0) + n
    rows = sorted((int(r["row"]), pos_key(s["flank"], s["line"]), r["unit"], int(r["count"]))
                  for s in plan["armies"][name].get("squads", ()) for r in s.get("rows", ()))
    city = state["cities"][cid]["name"]
    for number, key, unit, count in rows:
        if out.rejected("armies", number) or key not in army:
            continue
        cell = cells.setdefault(key, sq.new_squad(key))
        taken = {u: n - cell["garrison"].get(u, 0) for u, n in cell["units"].items()}
        blocker = sq.blocker(cell["units"], unit, count)
        if blocker is None:
            cell["units"][unit] = cell["units"].get(unit, 0) + count
            continue
        whose = "гарнизона" if cell["garrison"].get(blocker, 0) and not taken.get(blocker) else "другой армии"
        out.reject("armies", number, err("JR_WAR_DEFENCE_CELL_TAKEN", unit=data.units[unit].name, army=name,
                                         city=city, cell=position_text(key).lower(),
                                         other=data.units[blocker].name, whose=whose))
        squad = army[key]
        squad["units"][unit] -= count
        if squad["units"][unit] <= 0:
            del squad["units"][unit]
        if not squad["units"]:
            del army[key]


def _with_note(statuses: list[RowStatus], tab: str, row: int, note: str) -> list[RowStatus]:
    out = [s for s in statuses if (s.tab, s.number) != (tab, row)]
    out.append(RowStatus(tab, row, note=note))
    return sorted(out, key=lambda s: (TAB_ORDER.get(s.tab, 9), s.number))


def _reject_blocked(plan: WarPlan, out: _Statuses) -> None:
    """L88 «Чистки генералов - армия не может действовать в этом ходу»: no army is formed, no attack or
    defence order runs (a dispersal changes nothing and stays OK); garrisons are no army and still deploy."""
    problem = err("JR_WAR_ARMIES_BLOCKED", action=ACTION_OF_KIND["purge_generals"])
    for army in plan.get("armies", {}).values():
        for squad in army.get("squads", ()):
            for r in squad.get("rows", ()):
                out.reject("armies", int(r["row"]), problem)
        row = army.get("row")
        if row:
            if army.get("order") == "disperse":
                out.note("army_orders", int(row), "армия рассредоточена: юниты остаются в резерве")
            else:
                out.reject("army_orders", int(row), problem)


def _plan_rows(plan: WarPlan) -> list[tuple[str, int]]:
    rows: list[tuple[str, int]] = []
    for army in plan.get("armies", {}).values():
        rows += [("armies", int(r["row"])) for s in army.get("squads", ()) for r in s.get("rows", ())]
        row = army.get("row")
        if row:
            rows.append(("army_orders", int(row)))
    for squads in plan.get("garrisons", {}).values():
        rows += [("garrisons", int(r["row"])) for s in squads for r in s.get("rows", ())]
    return sorted(set(rows))


def _battle(state: JadeRoseState, cid: str, attacks: list[_AttackOrder], defends: list[tuple[str, str, Cells]],
            placements: Mapping[str, Mapping[str, list[Squad]]], seed: int | str) -> PendingBattle:
    city = state["cities"][cid]
    owner = city.get("owner")
    bid = f"b{state['turn']}-{cid}"
    defence: Defence = {"squads": [], "armies": [], "garrison_only": True, "notes": []}
    target = "ruins" if city.get("ruins") else "city"
    if target == "city":
        cells: Cells = {}
        garrison = garrison_of(state, cid) if owner else {}
        left = dict(garrison)
        placed = placements.get(owner, {}) if owner is not None else {}
        for squad in placed.get(cid, []):
            for unit, n in squad["units"].items():
                sq.place(cells, unit, n, pos_key(squad["flank"], squad["line"]), garrison=True)
                left[unit] -= n
        for fid, name, army in defends:     # where their rows put them (checked by _join_defence)
            if fid != owner:
                continue
            defence["armies"].append(name)
            defence["garrison_only"] = False
            for key, squad in sorted(army.items()):
                for unit, n in sorted(squad["units"].items()):
                    if sq.place(cells, unit, n, key, garrison=False):
                        defence["notes"].append(f"не нашлось места для «{load_data().units[unit].name}» армии «{name}»")
        lost = sq.default_placement(cells, left)
        if lost:
            defence["notes"].append(f"юнитам гарнизона не нашлось места в строю: {lost}")
        defence["notes"] += [sq.step_up_text(rear) for rear in sq.step_up(cells)]
        defence["squads"] = sq.ordered(cells)
        if not defence["squads"]:
            target = "empty"
    attackers = sorted(attacks, key=lambda a: (a["faction"], a["army"]))
    stream(seed, "attack-order", bid).shuffle(attackers)
    out: list[Attack] = []
    for n, att in enumerate(attackers, 1):
        cells = att["cells"]
        notes = [sq.step_up_text(rear) for rear in sq.step_up(cells)]
        planned = target == "city" and not (att["skip_planning"] and defence["garrison_only"])
        out.append({"fight": f"{bid}/{n}", "faction": att["faction"], "army": att["army"], "row": att["row"],
                    "capture": att["capture"], "skip_planning": att["skip_planning"], "needs_planning": planned,
                    "squads": sq.ordered(cells), "notes": notes,
                    "modifiers": {"attacker": side_modifiers(state, att["faction"], owner, cid),
                                  "defender": side_modifiers(state, owner, att["faction"], cid)}})
    return {"id": bid, "city": cid, "defender": owner, "target": target, "defence": defence, "attackers": out,
            "needs_planning": any(a["needs_planning"] for a in out)}


def needs_planning(state: JadeRoseState) -> bool:
    """Whether a pending battle waits for manoeuvres (the planning stage)."""
    return any(b.get("needs_planning") for b in state.get("battles") or ())


def fight_title(state: JadeRoseState, city: str, fight: str) -> str:
    """«Цинхэ — атака 1»: how books and reports name a fight («<battle id>/<n>» inside): the city and
    the attack's number there (several armies attack one city one after another)."""
    return f"{state['cities'][city]['name']} — атака {fight.rsplit('/', 1)[-1]}"
