"""Order rows of a Titania faction book -> the adjudicator's order dicts (SCHEMA §1.4, §1.5), each row with
its Russian status: the «Планирование» rows here (build, hire, caravan, research, learning, contributions, Rat
swarm), and `validate`, which reads a whole book in the order the turn runs it. The other tabs have their own
readers: «Поход» engine.titania.campaign_rows, «Мощь и магия» engine.titania.might_rows, caravans
engine.titania.caravan_rows, «Дипломатия» engine.titania.diplomacy; what they all read the state through is
engine.titania.book (`Index`, read once per state for all the books of a check, and `Book`). This module is their
one front door: what the rule set and the tests take from the books' readers is named in `__all__`.

Names are read as people type them (engine.cells). Then the faction's own part of the turn is run by the engine's
own code (engine.titania.forecast): its Planning, whose hires give the armies the Campaign rows share out, and its
Campaign with nobody else giving orders; what the engine voids there is the row's error, with what is allowed, so
`check` and `turn` (which both call `validate`) give one verdict, and what is left to the turn is what other
factions' moves and the battles decide. Nothing here raises on bad input.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine.titania.codes  # noqa: F401  (defines the T_* codes)
from engine.errors import OrderError, allowed_list
from engine.numbers import echo, read_count
from engine.ruleset import ParsedOrders, Row, RowStatus
from engine.russian import agree
from engine.titania import caravan_rows, diplomacy, forecast
from engine.titania.book import Book, Index, bad_status, data, ok_status, open_events, words
from engine.titania.campaign_rows import (
    HOLD,
    MOVE,
    ORDER_WORDS,
    SUPPORT,
    campaign_lines,
    campaign_orders,
    parse_campaign,
)
from engine.titania.caravan_rows import CARGO
from engine.titania.might_rows import ABILITY_FORM, FORM_NEEDS, MIGHT_ROW, SPELL_ROW, might_actions, parse_might
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, ability_name
from engine.titania.races import RACES
from engine.titania.state_types import TitaniaState
from engine.titania.tabs import CAMPAIGN, DIPLOMACY, MIGHT, PLANNING
from engine.titania.world import needs

BUILD, HIRE, CARAVAN, RATS = "Построить", "Нанять", "Отправить караван", "Нашествие крыс"
RESEARCH, LEARN, CONTRIBUTE = "Исследовать", "Изучить заклинание", "Вклад в событие"
PAY_GOLD, PAY_INFLUENCE = "Золото и дерево", "Влияние"
PLAYER_BUILDINGS = ("mine", "sawmill", "farm", "quarry", "tower", "port", "fort")
DEPOSIT_TEXT = {"gold": "нет месторождения золота", "wood": "нет леса", "fertile": "нет плодородных земель",
                "stone": "нет месторождения камня", "mana": "нет места силы"}

__all__ = ["ABILITY_FORM", "BUILD", "BUILDING_NAMES", "CARAVAN", "CARGO", "CONTRIBUTE", "FORM_NEEDS", "HIRE", "HOLD",
           "Index", "LEARN", "MIGHT_ROW", "MOVE", "ORDER_WORDS", "PAY_GOLD", "PAY_INFLUENCE", "PLAYER_BUILDINGS",
           "RACES", "RATS", "RESEARCH", "RESOURCE_NAMES", "SPELL_ROW", "SUPPORT", "Book", "ability_name",
           "buildable", "caravan_rows", "data", "might_actions", "open_events", "parse_campaign", "planning_actions",
           "validate", "validate_books"]


def _ok(tab: str, row: Row, note: str) -> RowStatus:
    return ok_status(tab, row, note)


def _bad(tab: str, row: Row, err: OrderError) -> RowStatus:
    return bad_status(tab, row, err)


# -- «Планирование» -------------------------------------------------------------------------------------

def planning_actions(race_free_hire: bool) -> list[str]:
    return [BUILD, HIRE, CARAVAN, RESEARCH, LEARN, CONTRIBUTE, *([RATS] if race_free_hire else [])]


def _knowledge(b: Book, row: Row, action: str) -> tuple[dict[str, Any] | None, RowStatus]:
    """«Исследовать» a technology, «Изучить заклинание» a spell or «Вклад в событие» (SCHEMA_V2 §2, §4, §5)."""
    d = data(b.state)
    if action == b.ix.norm(CONTRIBUTE):
        res = b.lookup(row.get("what"), {k: RESOURCE_NAMES[k] for k in CARGO})
        if res is None:
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_RESOURCE", {
                "value": echo(row.get("what")), "allowed": allowed_list(RESOURCE_NAMES[k] for k in CARGO)}))
        n = read_count(row.get("count"), "Количество", maximum=9999)
        if isinstance(n, OrderError):
            return None, _bad(PLANNING, row, n)
        events = open_events(b.state)
        chosen = b.lookup(row.get("to"), dict(events)) if row.get("to") else \
            (events[0][0] if len(events) == 1 else None)
        if chosen is None:  # an event of the content that is not open, or none at all (G72: unknown_item)
            listed = b.lookup(row.get("to"), {k: e.name for k, e in d.events.items()})
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_EVENT", {
                "value": echo(row.get("to")), "allowed": allowed_list(name for _, name in events),
                "reason_code": "no_event" if listed is not None else "unknown_item"}))
        return ({"kind": "contribute", "faction": b.faction, "event": chosen, "resources": {res: n}},
                _ok(PLANNING, row, f"вклад в событие: {RESOURCE_NAMES[res]} {n}"))
    if action == b.ix.norm(RESEARCH):
        known = set(b.state["factions"][b.faction].get("techs", []))
        table = {k: t.name for k, t in d.technologies.items() if k not in known}
        tech = b.lookup(row.get("what"), table)
        if tech is None:
            had = b.lookup(row.get("what"), {k: t.name for k, t in d.technologies.items() if k in known})
            if had is not None:
                return None, _bad(PLANNING, row, OrderError("T_TECH_KNOWN", {"value": d.technologies[had].name}))
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_TECH", {
                "value": echo(row.get("what")), "allowed": allowed_list(table.values())}))
        choices = RACES[b.race].research_discounts
        discount = b.lookup(row.get("discount"), {r: RESOURCE_NAMES[r] for r in choices}) if choices else None
        if row.get("discount") and discount is None:
            if not choices:
                return None, _bad(PLANNING, row, OrderError("T_DISCOUNT_NOT_YOURS",
                                                            {"value": echo(row.get("discount"))}))
            return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_DISCOUNT", {
                "value": echo(row.get("discount")), "allowed": allowed_list(RESOURCE_NAMES[r] for r in choices)}))
        note = f"; скидка «Дары Богов»: {RESOURCE_NAMES[discount]}" if discount else ""
        return ({"kind": "research", "faction": b.faction, "technology": tech,
                 **({"discount": discount} if discount else {})},
                _ok(PLANNING, row, f"исследовать «{table[tech]}»{note}"))
    known = set(b.state["factions"][b.faction].get("spells", []))
    table = {k: sp.name for k, sp in d.spells.items() if k not in known}
    spell = b.lookup(row.get("what"), table)
    if spell is None:
        had = b.lookup(row.get("what"), {k: sp.name for k, sp in d.spells.items() if k in known})
        if had is not None:
            return None, _bad(PLANNING, row, OrderError("T_SPELL_KNOWN", {"value": d.spells[had].name}))
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_SPELL", {
            "value": echo(row.get("what")), "allowed": allowed_list(table.values())}))
    return ({"kind": "learn", "faction": b.faction, "spell": spell}, _ok(PLANNING, row, f"изучить «{table[spell]}»"))


def _planning_row(b: Book, row: Row, builds: set[tuple[str, str]], free_hire: bool
                  ) -> tuple[dict[str, Any] | None, RowStatus]:
    action = b.ix.norm(row.get("action"))
    actions = planning_actions(free_hire)
    if action not in words((*actions, RATS)):
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_ACTION", {"value": echo(row.get("action")),
                                                                          "allowed": allowed_list(actions)}))
    if row.get("discount") and action != b.ix.norm(RESEARCH):
        return None, _bad(PLANNING, row, OrderError("T_DISCOUNT_ONLY_RESEARCH", {"value": echo(row.get("discount"))}))
    if row.get("count") and action not in words((HIRE, CARAVAN, CONTRIBUTE)):  # a number that means nothing here
        return None, _bad(PLANNING, row, OrderError("T_NUMBER_NOT_READ", {
            "column": "Количество", "value": echo(row.get("count")), "action": echo(row.get("action")),
            "takes": allowed_list((HIRE, CARAVAN, CONTRIBUTE))}))
    if action in words((RESEARCH, LEARN, CONTRIBUTE)):
        return _knowledge(b, row, action)
    where = b.province(row.get("province"), "Провинция")
    if isinstance(where, OrderError):
        return None, _bad(PLANNING, row, where)
    if b.state["owners"].get(where) != b.faction:
        return None, _bad(PLANNING, row, OrderError("T_NOT_OWN_PROVINCE", {
            "column": "Провинция", "value": b.pname(where), "allowed": allowed_list(b.pname(p) for p in b.own_land())}))
    if b.state["map"]["provinces"][where]["sea"]:
        return None, _bad(PLANNING, row, OrderError("T_SEA_PROVINCE", {
            "value": b.pname(where), "allowed": allowed_list(b.pname(p) for p in b.own_land())}))
    stolen = where in b.state.get("stolen", [])
    if action == b.ix.norm(BUILD):
        return _build(b, row, where, builds)
    if action == b.ix.norm(RATS):
        if not free_hire:
            return None, _bad(PLANNING, row, OrderError("T_NOT_SKAVEN", {"allowed": allowed_list(actions)}))
        if stolen:
            return None, _bad(PLANNING, row, OrderError("T_STOLEN", {"province": b.pname(where)}))
        return ({"kind": "skaven_free", "faction": b.faction, "province": where},
                _ok(PLANNING, row, f"Нашествие крыс: +1 к силе в провинции «{b.pname(where)}» бесплатно"))
    if action == b.ix.norm(HIRE):
        if stolen:
            return None, _bad(PLANNING, row, OrderError("T_STOLEN", {"province": b.pname(where)}))
        n = read_count(row.get("count"), "Количество", maximum=99)
        if isinstance(n, OrderError):
            return None, _bad(PLANNING, row, n)
        pay_text = row.get("what")
        pay = "gold_wood"
        if pay_text and b.ix.norm(pay_text) not in (b.ix.norm(PAY_GOLD), "золото", "золото дерево"):
            if b.ix.norm(pay_text) != b.ix.norm(PAY_INFLUENCE):
                return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_PAYMENT", {
                    "value": echo(pay_text), "allowed": allowed_list((PAY_GOLD, PAY_INFLUENCE))}))
            pay = "influence"
        cost = f"{agree(n, 'золото')} и {agree(n, 'дерево')}" if pay == "gold_wood" else agree(10 * n, "влияние")
        return ({"kind": "hire", "faction": b.faction, "province": where, "strength": n, "pay": pay},
                _ok(PLANNING, row, f"нанять силу {n} в провинции «{b.pname(where)}» за {cost}"))
    return caravan_rows.caravan(b, row, where)


def buildable(state: TitaniaState) -> dict[str, str]:
    """The buildings a faction may build, by their names: the book's own (a Keepers' Market is not built), then
    those the game's content adds (SCHEMA_V2 §9, G92: a catalog building of a type of its own)."""
    out = {k: BUILDING_NAMES[k] for k in PLAYER_BUILDINGS}
    for k, d in data(state).buildings.items():
        if k not in out and k != "market":
            out[k] = d.name or BUILDING_NAMES.get(k, k)
    return out


def _build(b: Book, row: Row, where: str, builds: set[tuple[str, str]]) -> tuple[dict[str, Any] | None, RowStatus]:
    names = b.ix.once("buildable", lambda: buildable(b.state))
    building = b.lookup(row.get("what"), names)
    if building is None:
        return None, _bad(PLANNING, row, OrderError("T_UNKNOWN_BUILDING", {
            "value": echo(row.get("what")), "allowed": allowed_list(names.values())}))
    have = b.state["buildings"].get(where, [])
    if building in have or (where, building) in builds:
        free = [name for k, name in names.items() if k not in have and (where, k) not in builds]
        return None, _bad(PLANNING, row, OrderError("T_BUILDING_THERE", {
            "province": b.pname(where), "building": names[building], "allowed": allowed_list(free)}))
    deposits = b.state["map"]["provinces"][where]["deposits"]
    need = needs(data(b.state), b.ix.params, building)
    if need is not None and need not in (deposits or []):
        detail = DEPOSIT_TEXT[need] if deposits is not None else "ресурсы провинции ещё не разведаны"
        return None, _bad(PLANNING, row, OrderError("T_NO_DEPOSIT", {
            "building": names[building].capitalize(), "province": b.pname(where), "detail": detail}))
    if building == "port" and not any(b.state["map"]["provinces"][n]["sea"] for n in b.neighbours(where)):
        return None, _bad(PLANNING, row, OrderError("T_NO_DEPOSIT", {
            "building": "Порт", "province": b.pname(where), "detail": "провинция не граничит с морем"}))
    builds.add((where, building))
    return ({"kind": "build", "faction": b.faction, "province": where, "building": building},
            _ok(PLANNING, row, f"построить: {names[building]} в провинции «{b.pname(where)}»"))


# -- the whole book -----------------------------------------------------------------------------------------

def _planning(b: Book, rows: list[Row], free_hire: bool) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """«Планирование» read row by row: the orders, and an error for each row that cannot be read."""
    items: list[dict[str, Any]] = []
    statuses: list[RowStatus] = []
    builds: set[tuple[str, str]] = set()
    for row in rows:
        try:
            order, status = _planning_row(b, row, builds, free_hire)
        except (KeyError, TypeError, ValueError) as exc:  # a safety net: a row never stops the others
            order, status = None, _bad(PLANNING, row, OrderError("E_INTERNAL", {"detail": type(exc).__name__}))
        statuses.append(status)
        if order is not None:
            items.append({"kind": "planning", "rows": [row.number], "order": order})
    return items, statuses


def _drop(statuses: list[RowStatus], errors: Mapping[tuple[str, int], OrderError]) -> list[RowStatus]:
    return [RowStatus(s.tab, s.number, (errors[(s.tab, s.number)],)) if (s.tab, s.number) in errors else s
            for s in statuses]


def validate(state: TitaniaState, faction: str, stage: str, tabs: Mapping[str, list[Row]],
             free_hire: bool, index: Index | None = None) -> ParsedOrders:
    """Every order tab of one faction's book, in the order the turn runs them: the Planning rows (in row
    order), then the Campaign rows on the armies that Planning leaves (in the faction's «№» order), then
    «Мощь и магия». The faction's own part of the turn is run by the engine (engine.titania.forecast): an
    order it voids for the faction's own reasons is the row's error and is dropped, so the turn carries out
    every row called OK here unless another faction or a battle defeats it (reasons.EXTERNAL_CAUSES). A row
    that cannot be read gets its message; one bad row never cancels another. `index`: the state's Index,
    shared by the books of one check (built here when None)."""
    b = Book(state, faction, index=index)
    outlook = b.ix.outlook
    talks, st_diplomacy = diplomacy.parse(state, faction, [r for r in tabs.get(DIPLOMACY, []) if not r.is_blank()],
                                          b.ix.norm)
    planning, st_planning = _planning(b, [r for r in tabs.get(PLANNING, []) if not r.is_blank()], free_hire)
    learns = {int(item["rows"][0]): str(item["order"]["spell"]) for item in planning
              if item["order"].get("kind") == "learn"}
    seen = forecast.plan(outlook, faction, [*talks, *planning])
    if seen is not None:
        void = {(PLANNING, int(item["rows"][0])): got["error"] for item, got in zip(planning, seen.planning,
                                                                                 strict=True) if "error" in got}
        planning = [item for item in planning if (PLANNING, int(item["rows"][0])) not in void]
        st_planning = _drop(st_planning, void)
        learns_ok = {spell for row, spell in learns.items() if (PLANNING, row) not in void}
        learning: dict[str, int | None] = {spell: row for row, spell in learns.items() if spell not in learns_ok}
        learning.update(dict.fromkeys(learns_ok))
        w = seen.world
        b.after = {a.province: (a.strength, a.naval) for a in w.armies_of(faction)}
        b.food, b.squads = w.food(faction), w.squads(faction)
    else:  # a state the engine refuses: read the rows as typed, the turn will say what is wrong
        b.food = b.squads = 10 ** 6
        learning = dict.fromkeys(learns.values())
    lines, st_campaign = campaign_lines(b, [r for r in tabs.get(CAMPAIGN, []) if not r.is_blank()])
    might, st_might = parse_might(b, [r for r in tabs.get(MIGHT, []) if not r.is_blank()], learning)
    rejected: dict[tuple[str, int], OrderError] = {}
    settled = False  # the rows dropped so far change no other outcome: the orders are final
    while True:  # every round drops at least one row, so it ends
        campaign, st_orders = campaign_orders(b, lines, {r: e for (t, r), e in rejected.items() if t == CAMPAIGN})
        kept = [item for item in might if not any((MIGHT, r) in rejected for r in item["rows"])]
        orders = [*talks, *planning, *({"kind": "campaign", **item} for item in campaign), *kept]
        if settled or seen is None or not (campaign or kept):  # (or no forecast, or no row it could void)
            break
        full = forecast.again(outlook, seen, orders, first=not rejected)  # after the Planning above
        new = forecast.rejections(full, campaign, kept) if full is not None else {}
        fresh = new.keys() - rejected.keys()
        if not fresh:
            break
        # rows whose dropping changes no other outcome need no round to confirm it
        settled = full is not None and not outlook.confirm and forecast.inert(full, campaign, fresh)
        rejected.update(new)
    statuses = [*st_planning, *st_campaign, *st_orders, *_drop(st_might, rejected), *st_diplomacy]
    return ParsedOrders(faction, stage, tuple(orders), tuple(statuses))


def validate_books(state: TitaniaState, stage: str, books: Mapping[str, Mapping[str, list[Row]]],
                   free_hire: Mapping[str, bool]) -> dict[str, ParsedOrders]:
    """`validate` for several factions' books of one state, which share one Index (read once)."""
    index = Index(state)
    return {f: validate(state, f, stage, tabs, free_hire[f], index) for f, tabs in books.items()}
