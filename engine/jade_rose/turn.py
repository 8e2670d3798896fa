"""The Jade Rose turn (RULINGS JR-56), its one orchestrator: stage `orders`, then stage `planning` when a
battle needs it.

Stage orders: the GM's adjustments typed before its deadline (first, so the rows are read against the state
they make), start of turn (era, era gift, each faction's own steps, summons revived), income and upkeep,
economy and faction actions, armies formed and battles set up. If a battle needs
planning the stage ends there (deployments revealed); otherwise the rest of the turn runs at once. Stage
planning: battles, captures and their faction consequences, the factions' end of turn, victory and Midnight.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from engine.errors import OrderError
from engine.jade_rose import adjustments, consequences, factions, income, victory, war
from engine.jade_rose.actions.base import RESOURCE_SIGN, SHORT_CODES, Dice, DiceSource, highest_rolls, lowest_rolls
from engine.jade_rose.actions.buildings import revive_summons
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.economy_orders import TAB as ECONOMY_TAB
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.holdings import active_factions, era_of
from engine.jade_rose.state_types import (
    Adjustment,
    EconomyOrder,
    JadeRoseState,
    ManoeuvrePlan,
    WarEvent,
    WarPlan,
    balance,
    jade_rose_state,
    plain,
)
from engine.rng import stream
from engine.ruleset import GM_BOOK, ParsedOrders, Row, RowStatus, StageResult
from engine.state import clone

WAR_PLAN = "war_plan"
MANOEUVRES = "manoeuvres"
CHECK_SEED = 0   # the seed of `check`'s dry run (its economy dice change no balance; see predict_economy)
DICE_RESOURCES = ("gold", "honor")   # what the start-of-turn dice change (the Empire's corruption penalty)


def seeded_dice(seed: int | str) -> DiceSource:
    """The stage seed's dice: one stream per stable id."""
    def dice(*key: object) -> Dice:
        return stream(seed, *key)
    return dice


def start_of_turn(state: JadeRoseState, seed: int | str, dice: DiceSource | None = None) -> None:
    """JR-56 step 1: the era, the era's gift, then each playing faction's own steps and its summons revived.

    `dice` replaces the seed's dice of the factions' steps (`check` passes the highest faces)."""
    state["era"] = era_of(state).key
    income.era_gift(state)
    source = dice or seeded_dice(seed)
    for faction in active_factions(state):
        factions.of(faction).start_of_turn(state, faction, source)
        revive_summons(state, faction)


def begin_turn(state: JadeRoseState, seed: int | str, dice: DiceSource | None = None) -> None:
    """Steps 1-2 of the turn: start-of-turn events, then every playing faction's income and upkeep."""
    start_of_turn(state, seed, dice)
    for faction in active_factions(state):
        income.collect_income(state, faction)
        income.pay_upkeep(state, faction)
        factions.of(faction).after_economy(state, faction)


def end_of_turn(state: JadeRoseState) -> None:
    """The factions' end-of-turn steps (the vampires' slaves and hibernation), before victory is checked."""
    for faction in active_factions(state):
        factions.of(faction).end_of_turn(state, faction)


def fresh_turn(state: JadeRoseState) -> JadeRoseState:
    """A copy of `state` as a turn's orders stage starts it: this turn's ledger, log and reports empty, last
    turn's purge of the generals over."""
    new = jade_rose_state(clone(dict(state)))
    new["ledger"], new["log"], new["reports"], new["battle_posts"] = [], [], {}, []
    for rec in new["factions"].values():
        rec.pop("armies_blocked", None)
    return new


def predict_economy(state: JadeRoseState, faction: str, orders: list[EconomyOrder],
                    army_plan: WarPlan | None = None) -> tuple[JadeRoseState, dict[int, RowStatus]]:
    """What `check` says of a faction's economy orders: a dry run on a copy after this turn's income and
    upkeep; returns (the copy after the orders, each order's status by row).

    The turn's start-of-turn dice are secret until the stage resolves, so the dry run takes them at their
    worst: every die shows its highest face (the Empire's corruption grows the most, its income is the
    lowest). The turn then runs only the orders this accepted (`resolve_orders_stage`), so each of them is
    paid at the turn whatever the dice show, and a row `check` refused is refused by the turn too. What a die
    decides (the Empire's corruption after an action against it) the notes tell as its range, with the dice
    that decide it, never as one draw (`run_economy`'s foresight).
    """
    copy = fresh_turn(state)
    results: dict[int, RowStatus] = {}
    if faction in copy["factions"]:
        begin_turn(copy, CHECK_SEED, dice=highest_rolls)
        worst = {res: int(balance(copy["factions"][faction], res)) for res in DICE_RESOURCES}
        for status in run_economy(copy, faction, orders, stream(CHECK_SEED, "economy", faction), army_plan=army_plan,
                                  foresight=True):
            results[status.number] = status
        _explain_worst_rolls(state, faction, worst, results)
    return copy, results


RESOURCE_GENITIVE = {"gold": "золота", "honor": "чести"}


def _explain_worst_rolls(state: JadeRoseState, faction: str, worst: Mapping[str, int],
                         results: dict[int, RowStatus]) -> None:
    """A row refused for gold or honor that a better start-of-turn roll would leave more of tells the balance
    as the range the dice leave («а у вас к этой строке будет от 149з до 194з»), never as one draw: the die is
    rolled only when the stage resolves, and the row is refused at the worst roll."""
    short = {code: res for res, code in SHORT_CODES.items() if res in DICE_RESOURCES}
    if not any(e.code in short for s in results.values() for e in s.errors):
        return
    best = fresh_turn(state)
    begin_turn(best, CHECK_SEED, dice=lowest_rolls)
    gaps = {res: int(balance(best["factions"][faction], res)) - worst[res] for res in short.values()}
    for number, status in list(results.items()):
        errors = tuple(_at_worst(e, short[e.code], gaps[short[e.code]]) if e.code in short else e
                       for e in status.errors)
        if errors != status.errors:
            results[number] = RowStatus(status.tab, status.number, errors, status.note)


def _at_worst(error: OrderError, resource: str, gap: int) -> OrderError:
    """«Не хватает золота: нужно 150з, а у вас 149з» told as the range the start-of-turn dice leave."""
    if gap <= 0:
        return error
    have = int(str(error.params["have"]))
    return OrderError("JR_SHORT_AT_WORST", {"what": RESOURCE_GENITIVE[resource], "need": error.params["need"],
                                            "low": have, "high": have + gap, "sign": RESOURCE_SIGN[resource]})


def validate_economy(state: JadeRoseState, faction: str, rows: list[Row],
                     army_plan: WarPlan | None = None) -> list[RowStatus]:
    """Parse the «Экономика» rows and dry-run them (`predict_economy`): `check` reports e.g. "not enough
    gold" before the deadline, exactly as the turn will."""
    orders, parsed = parse_economy_rows(state, faction, rows)
    results = {s.number: s for s in parsed}
    results.update(predict_economy(state, faction, orders, army_plan)[1])
    return [results[n] for n in sorted(results)]


def split_orders(parsed: ParsedOrders | None) -> tuple[list[EconomyOrder], dict[str, Any] | None]:
    """Economy orders and the plan (the war plan, or the manoeuvres at planning) of one faction's parsed
    orders, as the contract carries them (plain JSON: `war_orders` and `manoeuvre_plan` type them)."""
    if parsed is None:
        return [], None
    econ = [cast(EconomyOrder, o) for o in parsed.orders if o.get("kind") not in (WAR_PLAN, MANOEUVRES)]
    plan = next((o["plan"] for o in parsed.orders if o.get("kind") in (WAR_PLAN, MANOEUVRES)), None)
    return econ, plan


def war_orders(parsed: ParsedOrders | None) -> tuple[list[EconomyOrder], WarPlan | None]:
    """`split_orders` of the orders stage: its plan is the war plan (`validate_orders`)."""
    econ, plan = split_orders(parsed)
    return econ, cast(WarPlan | None, plan)


def manoeuvre_plan(parsed: ParsedOrders | None) -> ManoeuvrePlan | None:
    """The plan of the planning stage: the manoeuvres (`validate_manoeuvres`)."""
    return cast(ManoeuvrePlan | None, split_orders(parsed)[1])


def validate_orders(state: JadeRoseState, faction: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
    """Parse a faction's orders-stage tabs and dry-run them (economy, then armies) on a copy, as the turn
    runs them (`predict_economy`, then `war.form_battles` on the state after the economy)."""
    econ_rows = list(tabs.get(ECONOMY_TAB, ()))
    econ_orders, econ_parsed = parse_economy_rows(state, faction, econ_rows) if econ_rows else ([], [])
    war_tabs = {k: list(tabs.get(k, ())) for k in war.ORDER_TABS}
    plan, war_statuses = war.parse_war_tabs(state, faction, war_tabs)
    statuses: dict[tuple[str, int], RowStatus] = {(s.tab, s.number): s for s in econ_parsed}
    for s in war_statuses:
        statuses[(s.tab, s.number)] = s
    if econ_rows or any(war_tabs.values()):
        dry, economy = predict_economy(state, faction, econ_orders, plan)
        for s in economy.values():
            statuses[(s.tab, s.number)] = s
        if any(war_tabs.values()):
            for s in war.form_battles(dry, {faction: plan}, CHECK_SEED).get(faction, []):
                if (s.tab, s.number) not in statuses or statuses[(s.tab, s.number)].ok:
                    statuses[(s.tab, s.number)] = s
    orders = cast(tuple[dict[str, Any], ...], tuple(econ_orders)) + ({"kind": WAR_PLAN, "plan": plan},)
    return ParsedOrders(faction, "orders", orders, tuple(statuses[k] for k in sorted(statuses)))


def validate_manoeuvres(state: JadeRoseState, faction: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
    plan, statuses = war.parse_manoeuvres(state, faction, list(tabs.get(MANOEUVRES, ())))
    return ParsedOrders(faction, "planning", ({"kind": MANOEUVRES, "plan": plan},), tuple(statuses))


def run_checked_economy(state: JadeRoseState, new: JadeRoseState, faction: str, orders: list[EconomyOrder],
                        plan: WarPlan | None, seed: int) -> list[RowStatus]:
    """The faction's economy orders at the turn: those `check` refuses (`predict_economy` on the state
    before the turn) keep its verdict and never run, so a bad row never takes gold from a good one; the
    others run on `new` with the turn's dice."""
    _, expected = predict_economy(state, faction, orders, plan)
    accepted: list[EconomyOrder] = []
    refused: list[RowStatus] = []
    for order in orders:
        verdict = expected.get(int(order.get("row", 0))) if isinstance(order, Mapping) else None
        if verdict is not None and not verdict.ok:
            refused.append(verdict)
        else:
            accepted.append(order)
    ran = run_economy(new, faction, accepted, stream(seed, "economy", faction), army_plan=plan)
    return sorted(refused + ran, key=lambda s: s.number)


def gm_adjustments(orders: Mapping[str, ParsedOrders]) -> list[Adjustment]:
    """The GM's accepted adjustments of a stage's orders (none when the GM book brought none)."""
    return [cast(Adjustment, o) for o in orders[GM_BOOK].orders] if GM_BOOK in orders else []


def corrected(state: JadeRoseState, fixes: list[Adjustment]) -> JadeRoseState:
    """The state the factions' rows of the orders stage are read against (Ruleset.corrected): a copy of
    `state` with the GM's adjustments applied, as the stage applies them at its very start, before the
    start-of-turn events, the income and the orders (`resolve_orders_stage`). `state` is not changed."""
    if not fixes:
        return state
    fixed = jade_rose_state(clone(dict(state)))
    adjustments.apply_adjustments(fixed, fixes)
    return fixed


def resolve_orders_stage(state: JadeRoseState, orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    fixes = gm_adjustments(orders)
    base = corrected(state, fixes)      # what `check` read the rows against
    new = fresh_turn(state)
    adjustments.apply_adjustments(new, fixes)   # logged in this turn's ledger, before everything else
    begin_turn(new, seed)
    statuses: dict[str, list[RowStatus]] = {}
    plans: dict[str, WarPlan] = {}
    for fid in sorted(f for f in orders if f in new["factions"]):
        econ, plan = war_orders(orders[fid])
        if plan is not None:
            plans[fid] = plan
        if econ or plan is not None:
            statuses[fid] = run_checked_economy(base, new, fid, econ, plan, seed)
    for fid, extra in war.form_battles(new, plans, seed).items():
        statuses.setdefault(fid, []).extend(extra)
    events: list[WarEvent] = []
    if war.needs_planning(new):
        new["stage"] = "planning"
    else:
        events, verdicts = _finish_turn(new, {}, seed)
        _override(statuses, verdicts)
    return _result(new, statuses, events)


def resolve_planning_stage(state: JadeRoseState, orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    new = jade_rose_state(clone(dict(state)))
    manoeuvres = {f: manoeuvre_plan(p) for f, p in orders.items() if f in new["factions"]}
    events, verdicts = _finish_turn(new, {f: m for f, m in manoeuvres.items() if m is not None}, seed)
    statuses: dict[str, list[RowStatus]] = {}
    _override(statuses, verdicts)
    return _result(new, statuses, events)


def _result(new: JadeRoseState, statuses: Mapping[str, list[RowStatus]], events: list[WarEvent]) -> StageResult:
    """The stage's result in the contract's plain JSON."""
    return StageResult(state=plain(new), statuses={f: tuple(s) for f, s in statuses.items()},
                       events=cast(tuple[dict[str, Any], ...], tuple(events)))


def _override(statuses: dict[str, list[RowStatus]], verdicts: Mapping[str, list[RowStatus]]) -> None:
    """Replace (or add) the rows the battles gave a verdict (war/resolution.py)."""
    for fid, extra in verdicts.items():
        keys = {(s.tab, s.number) for s in extra}
        kept = [s for s in statuses.get(fid, []) if (s.tab, s.number) not in keys]
        statuses[fid] = kept + list(extra)


def _finish_turn(state: JadeRoseState, manoeuvres: Mapping[str, ManoeuvrePlan], seed: int
                 ) -> tuple[list[WarEvent], dict[str, list[RowStatus]]]:
    """Battles, their consequences and the end of the turn; returns the war's events (war/__init__.py) and
    the verdicts the battles gave the attack orders and manoeuvres."""
    events, verdicts = war.resolve_battles_with_verdicts(state, manoeuvres, seed)
    consequences.apply_war_events(state, events)
    end_of_turn(state)
    victory.end_of_turn(state)
    over = victory.game_over(state)
    state["turn"] = int(state["turn"]) + 1
    if not over:
        state["era"] = era_of(state).key
    state["stage"] = "finished" if over else "orders"
    return list(events), verdicts
