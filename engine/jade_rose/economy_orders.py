"""The «Экономика» order tab: actions, error codes, and parsing of its rows into order dicts.

Columns (keys): action «Действие», city «Город», what «Что», count «Количество».
Parsing checks only the form of a row (action, names, numbers, ownership); the rules that depend on
balances and on earlier orders of the same turn are checked when the orders run (economy.py).
"""
from __future__ import annotations

from typing import Any, Mapping

from engine.errors import OrderError, allowed_list, define
from engine.jade_rose.data import load_data, normalize_name
from engine.jade_rose.names import find_building, find_unit, find_units
from engine.ruleset import Row, RowStatus

TAB = "economy"
COLUMNS = {"action": "Действие", "city": "Город", "what": "Что", "count": "Количество"}
ACTIONS = ("Построить", "Продать", "Улучшить город", "Восстановить руины", "Нанять", "Купить нефрит")
KINDS = {"Построить": "build", "Продать": "sell", "Улучшить город": "upgrade",
         "Восстановить руины": "restore", "Нанять": "hire", "Купить нефрит": "buy_jade"}
ACTION_OF_KIND = {kind: action for action, kind in KINDS.items()}
FACTION_ONLY = {"buy_jade": "jade"}
# RULINGS JR-56 step 3: sell, build, upgrade cities, restore ruins, faction actions, jade purchase, hire.
KIND_ORDER = ("sell", "build", "upgrade", "restore", "buy_jade", "hire")
MAX_COUNT = 100_000

define({
    "JR_UNKNOWN_ACTION": "Неизвестное действие «{value}». Допустимо: {allowed}.",
    "JR_ACTION_NOT_FOR_FACTION": "Действие «{action}» доступно только фракции «{owner}». Вам доступны: {allowed}.",
    "JR_CITY_REQUIRED": "Для действия «{action}» укажите город в столбце «Город». Ваши города: {allowed}.",
    "JR_UNKNOWN_CITY": "Города «{value}» нет на карте. Ваши города: {allowed}.",
    "JR_CITY_NOT_OWNED": "Город «{city}» вам не принадлежит. Ваши города: {allowed}.",
    "JR_BUILDING_REQUIRED": "Для действия «{action}» укажите постройку в столбце «Что». Ваши постройки: {allowed}.",
    "JR_UNIT_REQUIRED": "Для найма укажите юнита в столбце «Что». Ваши юниты: {allowed}.",
    "JR_UNKNOWN_BUILDING": "Постройки «{value}» у вашей фракции нет. Допустимо: {allowed}.",
    "JR_FOREIGN_BUILDING": "«{value}» — постройка фракции «{owner}», вам она недоступна. Ваши постройки: {allowed}.",
    "JR_UNKNOWN_UNIT": "Юнита «{value}» у вашей фракции нет. Допустимо: {allowed}.",
    "JR_FOREIGN_UNIT": "«{value}» — юнит фракции «{owner}», вам он недоступен. Ваши юниты: {allowed}.",
    "JR_COUNT_REQUIRED": "Для действия «{action}» укажите в столбце «Количество» целое число больше нуля.",
    "JR_COUNT_TOO_LARGE": "Слишком большое количество «{value}»: укажите не больше {max}.",
    "JR_ONE_AT_A_TIME": "Действие «{action}» выполняется по одному: в столбце «Количество» оставьте пусто "
                        "или 1, а не «{value}». Для нескольких построек заполните несколько строк.",
    "JR_CITY_RUINS": "Город «{city}» лежит в руинах: сначала восстановите его "
                     "(действие «Восстановить руины», {cost}з).",
    "JR_TIER_ABOVE_LEVEL": "«{building}» — постройка {tier}-го уровня, а город «{city}» только {level}-го уровня. "
                           "Постройка должна быть не выше уровня города: выберите другой город или улучшите этот "
                           "(улучшение в том же ходу выполняется после строительства, стройте в следующем ходу).",
    "JR_NO_FREE_SLOT": "В городе «{city}» нет свободного места: занято {used} из {slots} ({buildings}). "
                       "Продайте постройку или стройте в другом городе.",
    "JR_DUPLICATE_BUILDING": "В городе «{city}» уже есть «{building}»: двух одинаковых построек в одном городе "
                             "быть не может. Выберите другой город.",
    "JR_UNIQUE_BUILDING": "«{building}» может быть только одна на всю фракцию, и она уже стоит в городе «{city}».",
    "JR_REPLACED_BUILDING": "«{building}» уже заменена постройкой «{by}» (город «{city}»), строить её нельзя.",
    "JR_BUILDING_NOT_IN_CITY": "В городе «{city}» нет постройки «{building}». Там стоят: {allowed}.",
    "JR_NOT_ENOUGH_GOLD": "Не хватает золота: нужно {need}з, а у вас {have}з.",
    "JR_NOT_ENOUGH_HONOR": "Не хватает чести: нужно {need}ч, а у вас {have}ч.",
    "JR_NOT_ENOUGH_JADE": "Не хватает нефрита: нужно {need}н, а у вас {have}н. Нефрит можно купить действием "
                          "«Купить нефрит» (1з за 1н); покупка выполняется до найма.",
    "JR_LEVEL_CAPPED_BY_ERA": "Город «{city}» уже {level}-го уровня, а в эпоху «{era}» города не бывают выше "
                              "{max}-го уровня.",
    "JR_MAX_LEVEL": "Город «{city}» уже {level}-го уровня — это максимум.",
    "JR_NOT_RUINS": "Город «{city}» не лежит в руинах, восстанавливать нечего.",
    "JR_JADE_LIMIT": "За этот ход можно купить не больше {limit}н (с учётом нефритовых шахт и поместий): "
                     "осталось {left}н, а вы просите {value}н.",
    "JR_UNIT_LOCKED": "«{unit}» пока нельзя нанимать: нужна постройка {buildings} в любом вашем городе.",
    "JR_NEEDS_FORGE": "«{unit}» — нефритовое создание {tier}-го уровня: его куют только в Великой Кузне, "
                      "стоящей в городе не ниже {tier}-го уровня. Ваши кузни: {forges}.",
    "JR_UNIT_LIMIT": "У фракции может быть не больше {limit} юнитов «{unit}» (гарнизоны не считаются): "
                     "у вас уже {have}, можно нанять ещё {left}.",
    "JR_SUMMON_LIMIT": "«{unit}» призывает постройка «{building}»: не больше {limit}, у вас уже {have}, "
                       "можно получить ещё {left}.",
    "JR_NOT_ENOUGH_BLOOD": "Не хватает крови рабов: юниту «{unit}» нужно {need_each} рабов. Рабов и вечных "
                           "слуг {slaves}: крови хватает на {cap} юнитов (по {per_unit} рабов на юнита), занято "
                           "{used}, можно нанять ещё {left} юнитов «{unit}».",
    "JR_FACTION_OUT": "Фракция вышла из игры: приказы не выполняются.",
})


def actions_for(faction: str) -> tuple[str, ...]:
    """The economy actions a faction's dropdown offers."""
    return tuple(a for a in ACTIONS if FACTION_ONLY.get(KINDS[a], faction) == faction)


def own_cities(state: Mapping, faction: str, ruins: bool | None = None) -> list[str]:
    """City ids owned by a faction, sorted by name; ruins=False/True filters ruins out/in."""
    out = [cid for cid, c in state["cities"].items()
           if c.get("owner") == faction and (ruins is None or bool(c.get("ruins")) == ruins)]
    return sorted(out, key=lambda cid: (state["cities"][cid]["name"], cid))


def city_names(state: Mapping, city_ids: list[str]) -> list[str]:
    return [state["cities"][cid]["name"] for cid in city_ids]


def find_city(state: Mapping, text: str) -> str | None:
    """City id by its name (case, ё/е, spacing ignored) or its id."""
    if text in state["cities"]:
        return text
    norm = normalize_name(text)
    for cid, city in state["cities"].items():
        if normalize_name(city["name"]) == norm or normalize_name(cid) == norm:
            return cid
    return None


def _faction_title(state: Mapping, faction: str) -> str:
    rec = state.get("factions", {}).get(faction)
    if rec and rec.get("name"):
        return rec["name"]
    return str(load_data().factions.get(faction, {}).get("name", faction))


def _parse_count(raw: str) -> int | None:
    text = raw.replace("\u00a0", "").replace(" ", "").replace(",", ".")
    try:
        value = float(text)
    except ValueError:
        return None
    if value != value or value in (float("inf"), float("-inf")) or value != int(value):
        return None
    return int(value)


def _parse_row(state: Mapping, faction: str, row: Row) -> tuple[dict | None, list[OrderError]]:
    errors: list[OrderError] = []
    cells = {key: row.get(key) for key in COLUMNS}
    for key, value in cells.items():
        if value.startswith("="):
            errors.append(OrderError("E_FORMULA", {"column": COLUMNS[key], "value": value}))
    if errors:
        return None, errors
    own = actions_for(faction)
    action_text = cells["action"]
    if not action_text:
        return None, [OrderError("E_REQUIRED", {"column": COLUMNS["action"],
                                                "hint": f"Выберите одно из: {allowed_list(own)}."})]
    norm = normalize_name(action_text)
    kind = next((KINDS[a] for a in ACTIONS if normalize_name(a) == norm), None)
    if kind is None and norm in ACTION_OF_KIND:
        kind = norm
    if kind is None:
        return None, [OrderError("JR_UNKNOWN_ACTION", {"value": action_text, "allowed": allowed_list(own)})]
    action = ACTION_OF_KIND[kind]
    if action not in own:
        owner = FACTION_ONLY[kind]
        return None, [OrderError("JR_ACTION_NOT_FOR_FACTION", {"action": action, "owner": _faction_title(state, owner),
                                                               "allowed": allowed_list(own)})]
    order: dict[str, Any] = {"row": row.number, "kind": kind, "city": None, "what": None, "count": 1}

    # count
    count_text = cells["count"]
    if count_text:
        count = _parse_count(count_text)
        if count is None or count <= 0:
            errors.append(OrderError("E_NOT_A_NUMBER", {"column": COLUMNS["count"], "value": count_text}))
        elif count > MAX_COUNT:
            errors.append(OrderError("JR_COUNT_TOO_LARGE", {"value": count_text, "max": MAX_COUNT}))
        elif kind in ("build", "sell", "restore") and count != 1:
            errors.append(OrderError("JR_ONE_AT_A_TIME", {"action": action, "value": count_text}))
        else:
            order["count"] = count
    elif kind == "buy_jade":
        errors.append(OrderError("JR_COUNT_REQUIRED", {"action": action}))

    # city
    if kind in ("build", "sell", "upgrade", "restore"):
        mine = own_cities(state, faction, ruins=True if kind == "restore" else None)
        allowed = allowed_list(city_names(state, mine))
        city_text = cells["city"]
        if not city_text:
            errors.append(OrderError("JR_CITY_REQUIRED", {"action": action, "allowed": allowed}))
        else:
            cid = find_city(state, city_text)
            if cid is None:
                errors.append(OrderError("JR_UNKNOWN_CITY", {"value": city_text, "allowed": allowed}))
            elif state["cities"][cid].get("owner") != faction:
                errors.append(OrderError("JR_CITY_NOT_OWNED", {"city": state["cities"][cid]["name"],
                                                               "allowed": allowed}))
            else:
                order["city"] = cid

    # what
    what_text = cells["what"]
    if kind in ("build", "sell"):
        mine = allowed_list(_building_names(faction), limit=20)
        if not what_text:
            errors.append(OrderError("JR_BUILDING_REQUIRED", {"action": action, "allowed": mine}))
        else:
            key = find_building(what_text, faction)
            if key is None:
                other = find_building(what_text)
                if other is not None:
                    owner = load_data().buildings[other].faction
                    errors.append(OrderError("JR_FOREIGN_BUILDING", {"value": what_text, "allowed": mine,
                                                                     "owner": _faction_title(state, owner)}))
                else:
                    errors.append(OrderError("JR_UNKNOWN_BUILDING", {"value": what_text, "allowed": mine}))
            else:
                order["what"] = key
    elif kind == "hire":
        mine = allowed_list(_unit_names(faction), limit=20)
        if not what_text:
            errors.append(OrderError("JR_UNIT_REQUIRED", {"allowed": mine}))
        else:
            key = find_unit(what_text, faction)
            if key is None:
                others = find_units(what_text)
                if others:
                    owner = load_data().units[others[0]].faction
                    errors.append(OrderError("JR_FOREIGN_UNIT", {"value": what_text, "allowed": mine,
                                                                 "owner": _faction_title(state, owner)}))
                else:
                    errors.append(OrderError("JR_UNKNOWN_UNIT", {"value": what_text, "allowed": mine}))
            else:
                order["what"] = key
    return (None, errors) if errors else (order, [])


def _building_names(faction: str) -> list[str]:
    return [b.name for b in sorted(load_data().faction_buildings(faction), key=lambda b: b.tier)]


def _unit_names(faction: str) -> list[str]:
    return [u.name for u in sorted(load_data().faction_units(faction), key=lambda u: u.tier)]


def parse_economy_rows(state: Mapping, faction: str, rows: list[Row]) -> tuple[list[dict], list[RowStatus]]:
    """Orders (JSON-able dicts) from the tab's rows, and a status for every non-blank row; never raises."""
    orders: list[dict] = []
    statuses: list[RowStatus] = []
    for row in rows:
        try:
            if row.is_blank():
                continue
            order, errors = _parse_row(state, faction, row)
        except Exception as exc:  # garbage must never crash a stage: report it on the row
            order, errors = None, [OrderError("E_INTERNAL", {"detail": type(exc).__name__})]
        if order is not None:
            orders.append(order)
            statuses.append(RowStatus(TAB, row.number))
        else:
            statuses.append(RowStatus(TAB, row.number, tuple(errors)))
    return orders, statuses


def sort_orders(orders: list[dict]) -> list[dict]:
    """Orders in the rulings' execution order (by kind, then by sheet row)."""
    rank = {kind: i for i, kind in enumerate(KIND_ORDER)}
    return sorted(orders, key=lambda o: (rank.get(o.get("kind"), len(rank)), o.get("row", 0)))
