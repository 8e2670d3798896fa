"""The Jade Rose turn (RULINGS JR-56), its one orchestrator: stage `orders`, then stage `planning` when a
battle needs it.

Stage orders: start of turn (era, era gift, each faction's own steps, summons revived), income and
upkeep, economy and faction actions, GM adjustments, armies formed and battles set up. If a battle needs
planning the stage ends there (deployments revealed); otherwise the rest of the turn runs at once. Stage
planning: battles, captures and their faction consequences, the factions' end of turn, victory and Midnight.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jade_rose import adjustments, consequences, factions, income, victory, war
from engine.jade_rose.actions.buildings import revive_summons
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.economy_orders import TAB as ECONOMY_TAB
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.holdings import active_factions, era_of
from engine.rng import stream
from engine.ruleset import ParsedOrders, Row, RowStatus, StageResult
from engine.state import clone

WAR_PLAN = "war_plan"
MANOEUVRES = "manoeuvres"


def start_of_turn(state: dict, seed: int | str) -> None:
    """JR-56 step 1: the era, the era's gift, then each playing faction's own steps and its summons revived."""
    state["era"] = era_of(state).key
    income.era_gift(state)
    for faction in active_factions(state):
        factions.of(faction).start_of_turn(state, faction, seed)
        revive_summons(state, faction)


def begin_turn(state: dict, seed: int | str) -> None:
    """Steps 1-2 of the turn: start-of-turn events, then every playing faction's income and upkeep."""
    start_of_turn(state, seed)
    for faction in active_factions(state):
        income.collect_income(state, faction)
        income.pay_upkeep(state, faction)
        factions.of(faction).after_economy(state, faction)


def end_of_turn(state: dict) -> None:
    """The factions' end-of-turn steps (the vampires' slaves and hibernation), before victory is checked."""
    for faction in active_factions(state):
        factions.of(faction).end_of_turn(state, faction)


def validate_economy(state: Mapping, faction: str, rows: list[Row],
                     army_plan: dict | None = None) -> list[RowStatus]:
    """Parse the «Экономика» rows and dry-run them on a copy after this turn's income and upkeep.

    Lets `check` report e.g. "not enough gold" before the deadline. The dry run uses seed 0
    for the turn's dice (corruption), so an Empire's figures may differ slightly at resolve.
    """
    orders, parsed = parse_economy_rows(state, faction, rows)
    results = {s.number: s for s in parsed}
    copy = clone(dict(state))
    copy["ledger"], copy["log"] = [], []
    if faction in copy["factions"]:
        begin_turn(copy, 0)
        for status in run_economy(copy, faction, orders, stream(0, "economy", faction), army_plan=army_plan):
            results[status.number] = status
    return [results[n] for n in sorted(results)]


def split_orders(parsed: ParsedOrders | None) -> tuple[list[dict], dict | None]:
    """Economy orders and the war plan of one faction's parsed orders."""
    if parsed is None:
        return [], None
    econ = [o for o in parsed.orders if o.get("kind") not in (WAR_PLAN, MANOEUVRES)]
    plan = next((o["plan"] for o in parsed.orders if o.get("kind") in (WAR_PLAN, MANOEUVRES)), None)
    return econ, plan


def validate_orders(state: Mapping[str, Any], faction: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
    """Parse a faction's orders-stage tabs and dry-run them (economy, then armies) on a copy."""
    econ_rows = list(tabs.get(ECONOMY_TAB, ()))
    econ_orders, _ = parse_economy_rows(state, faction, econ_rows) if econ_rows else ([], [])
    war_tabs = {k: list(tabs.get(k, ())) for k in war.ORDER_TABS}
    plan, war_statuses = war.parse_war_tabs(state, faction, war_tabs)
    statuses: dict[tuple[str, int], RowStatus] = {}
    for s in (validate_economy(state, faction, econ_rows, army_plan=plan) if econ_rows else []):
        statuses[(s.tab, s.number)] = s
    for s in war_statuses:
        statuses[(s.tab, s.number)] = s
    if any(war_tabs.values()):
        dry = clone(dict(state))
        dry["ledger"], dry["log"] = [], []
        begin_turn(dry, 0)
        run_economy(dry, faction, econ_orders, stream(0, "economy", faction), army_plan=plan)
        for s in war.form_battles(dry, {faction: plan}, 0).get(faction, []):
            if (s.tab, s.number) not in statuses or statuses[(s.tab, s.number)].ok:
                statuses[(s.tab, s.number)] = s
    orders = tuple(econ_orders) + ({"kind": WAR_PLAN, "plan": plan},)
    return ParsedOrders(faction, "orders", orders, tuple(statuses[k] for k in sorted(statuses)))


def validate_manoeuvres(state: Mapping[str, Any], faction: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
    plan, statuses = war.parse_manoeuvres(state, faction, list(tabs.get(MANOEUVRES, ())))
    return ParsedOrders(faction, "planning", ({"kind": MANOEUVRES, "plan": plan},), tuple(statuses))


def resolve_orders_stage(state: Mapping[str, Any], orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    new = clone(dict(state))
    new["ledger"], new["log"], new["reports"], new["battle_posts"] = [], [], {}, []
    for rec in new["factions"].values():
        rec.pop("armies_blocked", None)
    begin_turn(new, seed)
    statuses: dict[str, list[RowStatus]] = {}
    plans: dict[str, dict] = {}
    for fid in sorted(f for f in orders if f in new["factions"]):
        econ, plan = split_orders(orders[fid])
        if plan is not None:
            plans[fid] = plan
        if econ or plan is not None:
            statuses[fid] = list(run_economy(new, fid, econ, stream(seed, "economy", fid), army_plan=plan))
    if "gm" in orders:
        adjustments.apply_adjustments(new, list(orders["gm"].orders))
    active = {f: p for f, p in plans.items() if not new["factions"][f].get("armies_blocked")}
    for fid, extra in war.form_battles(new, active, seed).items():
        statuses.setdefault(fid, []).extend(extra)
    events: list[dict] = []
    if war.needs_planning(new):
        new["stage"] = "planning"
    else:
        events = _finish_turn(new, {}, seed)
    return StageResult(state=new, statuses={f: tuple(s) for f, s in statuses.items()}, events=tuple(events))


def resolve_planning_stage(state: Mapping[str, Any], orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    new = clone(dict(state))
    manoeuvres = {f: split_orders(p)[1] for f, p in orders.items() if f in new["factions"]}
    events = _finish_turn(new, {f: m for f, m in manoeuvres.items() if m is not None}, seed)
    return StageResult(state=new, statuses={}, events=tuple(events))


def _finish_turn(state: dict, manoeuvres: Mapping[str, dict], seed: int) -> list[dict]:
    """Battles, their consequences and the end of the turn; returns the war's events (war/__init__.py)."""
    events = war.resolve_battles(state, manoeuvres, seed)
    consequences.apply_war_events(state, events)
    end_of_turn(state)
    victory.end_of_turn(state)
    over = victory.game_over(state)
    state["turn"] = int(state["turn"]) + 1
    if not over:
        state["era"] = era_of(state).key
    state["stage"] = "finished" if over else "orders"
    return list(events)
