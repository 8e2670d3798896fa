"""Parsing the three war order tabs (Армии, Приказы армиям, Гарнизоны) into a JSON-able plan.

Only the form of each row is checked here (names, numbers, one-per-squad units, one order per army).
What depends on the state after the economy ran (owned units, the era's army cap, roads, garrison
composition) is checked by `battles.form_battles`.

Plan shape:
    {"armies": {name: {"squads": [squad], "order": "attack"|"defend"|"disperse"|None, "city": cid|None,
                       "capture": "colonise"|"plunder"|"raze"|"raze_leave", "skip_planning": bool, "row": n|None}},
     "garrisons": {cid: [squad]}}
    squad = {"flank", "line", "units": {unit_key: n}, "rows": [{"row", "unit", "count"}]}
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping

from engine.errors import OrderError, allowed_list
from engine.free_text import Taken, name_problem
from engine.jade_rose.data import load_data, normalize_name
from engine.jade_rose.economy_orders import find_city
from engine.jade_rose.holdings import city_names, own_cities
from engine.jade_rose.names import find_unit, find_units, unit_names
from engine.jade_rose.state_types import ArmyPlan, JadeRoseState, PlanSquad, WarPlan
from engine.jade_rose.war.codes import err
from engine.jade_rose.war.words import (
    FLANK_LOC,
    ORDER_WORDS,
    parse_capture,
    parse_flank,
    parse_line,
    parse_order,
    parse_yes_no,
    pos_key,
    position_text,
)
from engine.numbers import read_count
from engine.ruleset import Row, RowStatus

ORDER_TABS = ("armies", "army_orders", "garrisons")
COLUMNS = {
    "armies": {"army": "Армия", "flank": "Фланг", "line": "Линия", "unit": "Юнит", "count": "Количество"},
    "army_orders": {"army": "Армия", "order": "Приказ", "city": "Город", "capture": "При захвате",
                    "skip_planning": "Без планирования"},
    "garrisons": {"city": "Город", "flank": "Фланг", "line": "Линия", "unit": "Юнит", "count": "Количество"},
}
MAX_COUNT = 100_000


class _Bad(Exception):
    def __init__(self, *errors: OrderError):
        self.errors = errors


def empty_plan() -> WarPlan:
    return {"armies": {}, "garrisons": {}}


def parse_war_tabs(state: JadeRoseState, faction: str,
                   tabs: Mapping[str, list[Row]]) -> tuple[WarPlan, list[RowStatus]]:
    """The faction's war plan and a status for every non-blank row of the three tabs; never raises."""
    plan = empty_plan()
    statuses: list[RowStatus | None] = []   # None: a blank row
    names: dict[str, str] = {}   # normalised army name -> the name as first written
    builders = {"armies": _SquadBuilder("armies"), "garrisons": _SquadBuilder("garrisons")}
    for tab in ("armies", "garrisons"):
        for row in tabs.get(tab, ()) or ():
            parse = functools.partial(_squad_row, state, faction, tab, names=names, builder=builders[tab])
            statuses.append(_guard(tab, row, parse))
    for owner, squads in builders["armies"].squads.items():
        plan["armies"][owner] = _army_record(squads)
    for owner, squads in builders["garrisons"].squads.items():
        plan["garrisons"][owner] = list(squads.values())
    statuses = _step_up_notes(statuses, builders)
    seen_orders: dict[str, int] = {}
    for row in tabs.get("army_orders", ()) or ():
        statuses.append(_guard("army_orders", row,
                               lambda r: _order_row(state, r, names, plan, seen_orders)))
    return plan, [s for s in statuses if s is not None]


def _step_up_notes(statuses: list[RowStatus | None],
                   builders: Mapping[str, _SquadBuilder]) -> list[RowStatus | None]:
    """OK rows of a rearguard with no vanguard on its flank get a note: in battle it moves up."""
    notes: dict[tuple[str, int], str] = {}
    for tab, builder in builders.items():
        for squads in builder.squads.values():
            for squad in squads.values():
                front = pos_key(squad["flank"], "vanguard")
                if squad["line"] == "rearguard" and front not in squads:
                    for r in squad["rows"]:
                        notes[(tab, r["row"])] = (garrison_rear_note(squad["flank"]) if tab == "garrisons"
                                                  else rear_note(squad["flank"]))
    out: list[RowStatus | None] = []
    for s in statuses:
        if s is not None and s.ok and (s.tab, s.number) in notes:
            s = RowStatus(s.tab, s.number, note=notes[(s.tab, s.number)])
        out.append(s)
    return out


def rear_note(flank: str) -> str:
    return (f"на {FLANK_LOC[flank]} фланге нет авангарда — арьергард без авангарда существовать не может, "
            f"в бою отряд встанет в {position_text(pos_key(flank, 'vanguard')).lower()}")


def garrison_rear_note(flank: str) -> str:
    front = position_text(pos_key(flank, "vanguard")).lower()
    if flank == "center":
        return (f"{front} займут нерасставленные юниты гарнизона (по умолчанию туда встают все, кроме стрелков); "
                f"если их не останется, отряд встанет в {front}")
    return f"в {front} никого не поставлено — в бою отряд встанет в {front}"


def _army_record(squads: Mapping[str, PlanSquad]) -> ArmyPlan:
    return {"squads": list(squads.values()), "order": None, "city": None, "capture": "colonise",
            "skip_planning": False, "row": None}


def _guard(tab: str, row: Row, parse: Callable[[Row], str | None]) -> RowStatus | None:
    """Run one row's parser; garbage must never crash a stage, so any failure is a row error."""
    try:
        if row.is_blank():
            return None
        for key, value in row.cells.items():
            text = "" if value is None else str(value).strip()
            if text.startswith("=") and key in COLUMNS[tab]:
                return RowStatus(tab, row.number, (OrderError("E_FORMULA", {"column": COLUMNS[tab][key],
                                                                             "value": text}),))
        note = parse(row) or ""
        return RowStatus(tab, row.number, note=note)
    except _Bad as bad:
        return RowStatus(tab, row.number, tuple(bad.errors))
    except Exception as exc:  # noqa: BLE001 - reported on the row, never raised
        return RowStatus(tab, row.number, (OrderError("E_INTERNAL", {"detail": type(exc).__name__}),))


class _SquadBuilder:
    """Collects rows into squads keyed by owner (army name or city id) and position."""

    def __init__(self, tab: str):
        self.tab = tab
        self.squads: dict[str, dict[str, PlanSquad]] = {}

    def add(self, owner: str, label: str, flank: str, line: str, unit: str, count: int, number: int) -> str:
        data = load_data()
        key = pos_key(flank, line)
        squad = self.squads.setdefault(owner, {}).get(key)
        if squad is None:
            squad = {"flank": flank, "line": line, "units": {}, "rows": []}
        stats = data.units[unit]
        where = f"{label}, {position_text(key).lower()}"
        have = squad["units"].get(unit, 0)
        if stats.abilities.get("one_per_squad") and have + count > 1:
            raise _Bad(err("JR_WAR_ONE_PER_SQUAD", unit=stats.name, squad=where, count=have + count))
        for other in squad["units"]:
            odef = data.units[other]
            if other in stats.abilities.get("excludes_in_squad", ()) or unit in odef.abilities.get(
                    "excludes_in_squad", ()):
                raise _Bad(err("JR_WAR_EXCLUDED_PAIR", unit=stats.name, other=odef.name, squad=where))
        squad["units"][unit] = have + count
        squad["rows"].append({"row": number, "unit": unit, "count": count})
        self.squads[owner][key] = squad
        return key


ARMY_NAME_LENGTH = 30


def army_name_problem(state: JadeRoseState, name: str, armies: Iterable[str]) -> OrderError | None:
    """Why `name` cannot name a new army (None: it can): others read it in battle posts and scouting, so it is
    plain text and reads like no city, faction or other army of the faction (engine.free_text)."""
    taken = [*(Taken("армии", a) for a in armies),
             *(Taken("города", str(c["name"])) for c in state["cities"].values()),
             *(Taken("фракции", str(f["name"])) for f in state["factions"].values())]
    return name_problem(name, limit=ARMY_NAME_LENGTH, taken=taken)


def _squad_row(state: JadeRoseState, faction: str, tab: str, row: Row, names: dict[str, str],
               builder: _SquadBuilder) -> str:
    cols = COLUMNS[tab]
    errors: list[OrderError] = []
    owner = label = None
    if tab == "armies":
        raw = row.get("army")
        problem = None if not raw or normalize_name(raw) in names else army_name_problem(state, raw, names.values())
        if not raw:
            errors.append(err("JR_WAR_ARMY_REQUIRED"))
        elif problem is not None:
            errors.append(problem)
        else:
            owner = names.setdefault(normalize_name(raw), raw)
            label = f"армия «{owner}»"
    else:
        owner = _garrison_city(state, faction, row.get("city"), errors)
        label = f"гарнизон {state['cities'][owner]['name']}" if owner else None
    flank = parse_flank(row.get("flank")) if row.get("flank") else None
    if flank is None:
        errors.append(err("JR_WAR_UNKNOWN_FLANK", value=row.get("flank")) if row.get("flank") else
                      OrderError("E_REQUIRED", {"column": cols["flank"], "hint": "Допустимо: Левый, Центр, Правый."}))
    line = parse_line(row.get("line")) if row.get("line") else None
    if line is None:
        errors.append(err("JR_WAR_UNKNOWN_LINE", value=row.get("line")) if row.get("line") else
                      OrderError("E_REQUIRED", {"column": cols["line"], "hint": "Допустимо: Авангард, Арьергард."}))
    unit = _unit(state, faction, row.get("unit"), cols["unit"], errors)
    count = _count(row.get("count"), cols["count"], errors)
    if errors:
        raise _Bad(*errors)
    # each None above came with an error
    assert owner is not None and label is not None and flank is not None and line is not None
    assert unit is not None and count is not None
    builder.add(owner, label, flank, line, unit, count, row.number)
    return ""


def _garrison_city(state: JadeRoseState, faction: str, text: str, errors: list[OrderError]) -> str | None:
    mine = own_cities(state, faction, ruins=False)
    allowed = allowed_list(city_names(state, mine))
    if not text:
        errors.append(OrderError("E_REQUIRED", {"column": "Город", "hint": f"Ваши города: {allowed}."}))
        return None
    cid = find_city(state, text)
    if cid is None:
        errors.append(err("JR_WAR_UNKNOWN_CITY", value=text, allowed=allowed))
        return None
    city = state["cities"][cid]
    if city.get("owner") != faction:
        errors.append(err("JR_WAR_NOT_OWN_CITY", city=city["name"], what="расставлять гарнизон", allowed=allowed))
        return None
    if city.get("ruins"):
        errors.append(err("JR_WAR_RUINS_NO_GARRISON", city=city["name"]))
        return None
    return cid


def _unit(state: JadeRoseState, faction: str, text: str, column: str, errors: list[OrderError]) -> str | None:
    allowed = allowed_list(unit_names(faction), limit=20)
    if not text:
        errors.append(OrderError("E_REQUIRED", {"column": column, "hint": f"Ваши юниты: {allowed}."}))
        return None
    key = find_unit(text, faction)
    if key is not None:
        return key
    others = find_units(text)
    if others:
        owner = load_data().units[others[0]].faction
        known = state.get("factions", {}).get(owner)
        title = (known.get("name") if known is not None else None) or load_data().factions[owner]["name"]
        errors.append(err("JR_WAR_FOREIGN_UNIT", value=text, owner=title, allowed=allowed))
    else:
        errors.append(err("JR_WAR_UNKNOWN_UNIT", value=text, allowed=allowed))
    return None


def _count(text: str, column: str, errors: list[OrderError]) -> int | None:
    if not text:
        errors.append(OrderError("E_REQUIRED", {"column": column, "hint": "Укажите целое число больше нуля."}))
        return None
    value = read_count(text, column, maximum=MAX_COUNT)
    if isinstance(value, OrderError):
        errors.append(value)
        return None
    return value


def _order_row(state: JadeRoseState, row: Row, names: dict[str, str], plan: WarPlan, seen: dict[str, int]) -> str:
    cols = COLUMNS["army_orders"]
    errors: list[OrderError] = []
    raw = row.get("army")
    army = names.get(normalize_name(raw)) if raw else None
    if army not in plan["armies"]:
        army = None
    if not raw:
        errors.append(err("JR_WAR_ARMY_REQUIRED"))
    order = parse_order(row.get("order")) if row.get("order") else None
    if order is None:
        allowed = ", ".join(ORDER_WORDS.values())
        errors.append(err("JR_WAR_UNKNOWN_ORDER", value=row.get("order")) if row.get("order") else
                      OrderError("E_REQUIRED", {"column": cols["order"], "hint": f"Допустимо: {allowed}."}))
    city = None
    if order in ("attack", "defend"):
        text = row.get("city")
        if not text:
            errors.append(err("JR_WAR_CITY_REQUIRED", order=ORDER_WORDS[order]))
        else:
            city = find_city(state, text)
            if city is None:
                all_names = sorted(c["name"] for c in state["cities"].values())
                errors.append(err("JR_WAR_UNKNOWN_CITY", value=text, allowed=allowed_list(all_names, limit=30)))
    capture: str | None = "colonise"
    if row.get("capture"):
        capture = parse_capture(row.get("capture"))
        if capture is None:
            errors.append(err("JR_WAR_UNKNOWN_CAPTURE", value=row.get("capture")))
    skip: bool | None = False
    if row.get("skip_planning"):
        skip = parse_yes_no(row.get("skip_planning"))
        if skip is None:
            errors.append(err("JR_WAR_UNKNOWN_YES_NO", value=row.get("skip_planning")))
    key = normalize_name(raw) if raw else ""
    if raw and key in seen:
        errors.append(err("JR_WAR_DUPLICATE_ORDER", army=names.get(key, raw), row=seen[key]))
    if raw and order in ("attack", "defend") and army is None:
        errors.append(err("JR_WAR_NO_DEPLOYMENT", army=raw, order=ORDER_WORDS[order]))
    if errors:
        raise _Bad(*errors)
    assert capture is not None      # a None came with an error
    seen[key] = row.number
    if army is None:   # a disperse order for an army with no valid rows: nothing to do
        army = names.setdefault(key, raw)
        plan["armies"].setdefault(army, _army_record({}))
    rec = plan["armies"][army]
    rec.update({"order": order, "city": city, "capture": capture if order == "attack" else "colonise",
                "skip_planning": bool(skip) if order == "attack" else False, "row": row.number})
    notes = []
    if order == "disperse":
        notes.append("армия рассредоточена: юниты остаются в резерве")
    if order != "attack" and (row.get("capture") or skip):
        notes.append("«При захвате» и «Без планирования» действуют только для приказа «Атаковать»")
    return "; ".join(notes)


__all__ = ["ORDER_TABS", "COLUMNS", "empty_plan", "parse_war_tabs", "rear_note"]
