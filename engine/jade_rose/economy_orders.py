"""The «Экономика» order tab: actions, error codes, and parsing of its rows into order dicts.

Columns (keys): action «Действие», city «Город», what «Что», count «Количество».
Parsing checks only the form of a row (action, names, numbers, ownership); the rules that depend on
balances and on earlier orders of the same turn are checked when the orders run (actions/, factions/).
"""
from __future__ import annotations

from engine.errors import OrderError, allowed_list, define
from engine.jade_rose.data import load_data, normalize_name
from engine.jade_rose.holdings import city_names, own_cities
from engine.jade_rose.names import faction_id, find_building, find_unit, find_units
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState
from engine.numbers import echo, read_count
from engine.ruleset import Row, RowStatus

TAB = "economy"
COLUMNS = {"action": "Действие", "city": "Город", "what": "Что", "count": "Количество"}
KINDS = {"Построить": "build", "Продать": "sell", "Улучшить город": "upgrade",
         "Восстановить руины": "restore", "Нанять": "hire", "Купить нефрит": "buy_jade",
         # Empire: actions against corruption (L87-92), at most one per turn
         "Чистка генералов": "purge_generals", "Чистка чиновников": "purge_officials",
         "Показательная казнь": "public_execution", "Слежка": "surveillance", "Террор": "terror",
         # Vampires (L145-154; L144 and JR-71: which units hibernate when the blood runs short)
         "Ритуал вечных слуг": "ritual", "Обратить в рабов": "enslave", "Отправить в спячку": "hibernate",
         # Dwarves (L210, L248, L253)
         "Мстительный поход": "crusade", "Вложить": "invest", "Записывать обиды": "grudge_target"}
ACTIONS = tuple(KINDS)
ACTION_OF_KIND = {kind: action for action, kind in KINDS.items()}
# Other accepted spellings of an action (the rule book's own wording).
ACTION_ALIASES = {"Чистки генералов": "purge_generals", "Чистки чиновников": "purge_officials",
                  "Казнь": "public_execution", "Установление слежки": "surveillance",
                  "Установить слежку": "surveillance", "Террор коррупционеров": "terror",
                  "Ритуал": "ritual", "Обратить в рабство": "enslave", "Поработить": "enslave",
                  "В спячку": "hibernate", "Спячка": "hibernate", "Усыпить": "hibernate",
                  "Объявить мстительный поход": "crusade", "Вклад": "invest",
                  "Комната записи обид": "grudge_target"}
CORRUPTION_ACTIONS = ("purge_generals", "purge_officials", "public_execution", "surveillance", "terror")
FACTION_ACTIONS = CORRUPTION_ACTIONS + ("ritual", "enslave", "crusade", "invest", "grudge_target")
FACTION_ONLY = {"buy_jade": "jade", **{k: "empire" for k in CORRUPTION_ACTIONS},
                "ritual": "vampires", "enslave": "vampires", "hibernate": "vampires",
                "crusade": "dwarves", "invest": "dwarves", "grudge_target": "dwarves"}
CITY_KINDS = ("build", "sell", "upgrade", "restore", "enslave", "grudge_target")
TARGET_KINDS = ("crusade", "grudge_target")
# RULINGS JR-56 step 3: sell, build, upgrade cities, restore ruins, faction actions, jade purchase, hire.
# Faction actions share one rank, so among them the sheet's row order decides. Naming sleepers changes no
# balance and comes last, so units hired this turn may be named.
KIND_ORDER = ("sell", "build", "upgrade", "restore", FACTION_ACTIONS, "buy_jade", "hire", "hibernate")
MAX_COUNT = 100_000
# What a row of an action done one at a time (its «Количество» empty or 1) does instead of a count
ONE_AT_A_TIME_HINTS = {
    "build": " Для нескольких построек заполните по строке на каждую.",
    "sell": " Чтобы продать несколько построек, заполните по строке на каждую.",
    "restore": " Одна строка восстанавливает одни руины.",
    "enslave": " Одна строка обращает в рабство жителей одного города.",
    "grudge_target": " Одна строка назначает одну комнату записи обид.",
    "crusade": " За ход объявляется один мстительный поход.",
    "ritual": " Ритуал проводится один раз.",
    **{k: " За ход против коррупции выполняется одно действие." for k in CORRUPTION_ACTIONS},
}

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
                        "или 1, а не «{value}».{hint}",
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
    "JR_SHORT_AT_WORST": "Не хватает {what}: нужно {need}{sign}, а у вас к этой строке будет от {low}{sign} до "
                         "{high}{sign} — смотря по броску роста коррупции в начале хода, который выпадет только при "
                         "расчёте хода. Проверка берёт худший бросок: приказ, который не оплатить при нём, не "
                         "выполняется ни при каком.",
    "JR_NOT_ENOUGH_JADE": "Не хватает нефрита: нужно {need}н, а у вас {have}н. Нефрит можно купить действием "
                          "«Купить нефрит» (1з за 1н); покупка выполняется до найма.",
    "JR_LEVEL_CAPPED_BY_ERA": "Город «{city}» уже {level}-го уровня, а в эпоху «{era}» города не бывают выше "
                              "{max}-го уровня.",
    "JR_UPGRADE_TOO_FAR": "Город «{city}» {level}-го уровня, а {limit}: улучшить его можно не больше чем на "
                          "{left}, а в столбце «Количество» (на сколько уровней улучшить) стоит {value}.",
    "JR_MAX_LEVEL": "Город «{city}» уже {level}-го уровня — это максимум.",
    "JR_NOT_RUINS": "Город «{city}» не лежит в руинах, восстанавливать нечего.",
    "JR_JADE_LIMIT": "За этот ход можно купить не больше {limit}н (с учётом нефритовых шахт и поместий): "
                     "осталось {left}н, а вы просите {value}н.",
    "JR_UNIT_LOCKED": "«{unit}» пока нельзя нанимать: нужна постройка {buildings} в любом вашем городе.",
    "JR_NEEDS_FORGE": "«{unit}» — нефритовое создание {tier}-го уровня: его куют только в Великой Кузне, "
                      "стоящей в городе не ниже {tier}-го уровня. Ваши кузни: {forges}.",
    "JR_UNIT_LIMIT": "У фракции может быть не больше {limit:юнит|gent} «{unit}» (гарнизоны не считаются): "
                     "у вас уже {have}, можно нанять ещё {left}.",
    "JR_SUMMON_LIMIT": "«{unit}» призывает постройка «{building}»: не больше {limit}, у вас уже {have}, "
                       "можно получить ещё {left}.",
    "JR_NOT_ENOUGH_BLOOD": "Не хватает крови рабов: юниту «{unit}» нужна кровь {need_each:раб|gent}. Рабов и "
                           "вечных слуг {slaves}: крови хватает на {cap:юнит|accs} ({per_unit:раб} на юнита), "
                           "занято {used}, можно нанять ещё {left:юнит|accs} «{unit}».",
    "JR_FACTION_OUT": "Фракция вышла из игры: приказы не выполняются.",
    "JR_SLEEP_UNIT_REQUIRED": "Для действия «Отправить в спячку» укажите в столбце «Что», какие юниты уснут, если "
                              "крови рабов не хватит. Ваши вампиры: {allowed}.",
    "JR_SLEEP_NO_BLOOD": "«{unit}» не пьёт кровь рабов и в спячку не впадает. Назначить к спячке можно: {allowed}.",
    "JR_SLEEP_TOO_MANY": "К спячке назначено {count} «{unit}», а у вас их {have} (в строках выше уже назначено "
                         "{used}). Назначить можно ещё не больше {left}.",
    "JR_FACTION_REQUIRED": "Для действия «{action}» укажите фракцию-противника в столбце «Что». Допустимо: {allowed}.",
    "JR_UNKNOWN_FACTION": "Фракции «{value}» нет в игре. Допустимо: {allowed}.",
    "JR_SELF_TARGET": "Действие «{action}» направлено против противника, а не против своей фракции. "
                      "Допустимо: {allowed}.",
    "JR_NOT_ENOUGH_SLAVES": "Не хватает рабов: нужно {need}, а у вас {have}.",
    "JR_ONE_CORRUPTION_ACTION": "Против коррупции можно выполнить только одно действие за ход: в этот ход им "
                                "считается строка {row}. Эту строку перенесите на следующий ход.",
    "JR_ACTION_NEEDS_BUILDING": "Действие «{action}» доступно, только если построен {building}.",
    "JR_BUILDING_BLOCKED": "В этот ход выполняется «{action}» (строка {row}): строительство невозможно. "
                           "Перенесите постройку на следующий ход или уберите чистку.",
    "JR_RITUAL_TOO_EARLY": "Ритуал вечных слуг доступен с {turn}-го хода (эпоха «{era}»), а сейчас {now}-й ход.",
    "JR_RITUAL_DONE": "Ритуал вечных слуг уже проведён: все новые рабы и так становятся вечными слугами.",
    "JR_ENSLAVE_RUINS": "Город «{city}» уже лежит в руинах: обращать в рабство некого.",
    "JR_ENSLAVE_LAST_CITY": "«{city}» — ваш последний город: обратив его жителей в рабство, вы останетесь без "
                            "городов и выбудете из игры. Выберите другой город.",
    "JR_CRUSADE_TWICE": "Мстительный поход в этот ход уже объявлен (против «{target}»): за ход можно объявить "
                        "только один.",
    "JR_TARGET_OUT": "Фракция «{target}» уже вышла из игры: мстить ей нельзя.",
    "JR_CRUSADE_NO_GRUDGES": "У вас нет обид на «{target}»: мстительный поход не даст скидки (7 % за каждую обиду).",
    "JR_CRUSADE_NOT_SENT": "В мстительный поход против «{target}» нанимаемых со скидкой юнитов «{unit}» нужно "
                           "отправить на захват её города: в ваших армиях, атакующих её города в этот ход, их {sent}, "
                           "уже нанято со скидкой {already}, а вы нанимаете ещё {count}. Добавьте их в атакующую "
                           "армию во вкладке «Армии» или наймите меньше.",
    "JR_INVEST_NO_GUILD": "Вкладывать можно только в гильдию: нужна постройка {building} в любом вашем городе.",
    "JR_INVEST_CAP": "В гильдии вкладчиков можно держать не больше {cap}з (по 500з на каждую гильдию): уже вложено "
                     "{have}з, можно ещё {left}з, а вы вкладываете {value}з.",
    "JR_NO_GRUDGE_ROOM": "В городе «{city}» нет комнаты записи обид. Города с такой комнатой: {allowed}.",
    "JR_GRUDGE_ROOM_TAKEN": "Обиды на «{target}» уже записывает комната в городе «{city}»: две комнаты против одной "
                            "фракции не работают. Выберите другую фракцию.",
})


def actions_for(faction: str) -> tuple[str, ...]:
    """The economy actions a faction's dropdown offers."""
    return tuple(a for a in ACTIONS if FACTION_ONLY.get(KINDS[a], faction) == faction)


def economy_targets(state: JadeRoseState, faction: str) -> list[str]:
    """Everything the «Что» column may name for a faction: its buildings, its units, the rival factions."""
    return _building_names(faction) + _unit_names(faction) + (
        rival_names(state, faction) if any(FACTION_ONLY.get(k) == faction for k in TARGET_KINDS) else [])


def find_city(state: JadeRoseState, text: str) -> str | None:
    """City id by its name (case, ё/е, spacing ignored) or its id."""
    if text in state["cities"]:
        return text
    norm = normalize_name(text)
    for cid, city in state["cities"].items():
        if normalize_name(city["name"]) == norm or normalize_name(cid) == norm:
            return cid
    return None


def _faction_title(state: JadeRoseState, faction: str) -> str:
    rec = state.get("factions", {}).get(faction)
    if rec and rec.get("name"):
        return rec["name"]
    return str(load_data().factions.get(faction, {}).get("name", faction))


def _action_kind(text: str) -> str | None:
    norm = normalize_name(text)
    for action, kind in list(KINDS.items()) + list(ACTION_ALIASES.items()):
        if normalize_name(action) == norm:
            return kind
    return norm if norm in ACTION_OF_KIND else None


def find_faction(state: JadeRoseState, text: str) -> str | None:
    """Faction id of the game by id, alias or Russian name (its own display name included)."""
    fid = faction_id(text)
    if fid in state.get("factions", {}):
        return fid
    norm = normalize_name(text)
    for key, rec in state.get("factions", {}).items():
        if normalize_name(str(rec.get("name", ""))) == norm:
            return key
    return None


def rival_names(state: JadeRoseState, faction: str) -> list[str]:
    """Display names of the other factions of the game (targets of a vengeful campaign or a grudge room)."""
    return [_faction_title(state, f) for f in sorted(state.get("factions", {})) if f != faction]


def _parse_row(state: JadeRoseState, faction: str, row: Row) -> tuple[EconomyOrder | None, list[OrderError]]:
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
                                                "hint": f"Выберите одно из: {allowed_list(own, limit=20)}."})]
    kind = _action_kind(action_text)
    if kind is None:
        return None, [OrderError("JR_UNKNOWN_ACTION", {"value": action_text, "allowed": allowed_list(own, limit=20)})]
    action = ACTION_OF_KIND[kind]
    if action not in own:
        owner = FACTION_ONLY[kind]
        return None, [OrderError("JR_ACTION_NOT_FOR_FACTION", {"action": action, "owner": _faction_title(state, owner),
                                                               "allowed": allowed_list(own, limit=20)})]
    order: EconomyOrder = {"row": row.number, "kind": kind, "city": None, "what": None, "count": 1}

    # count
    count_text = cells["count"]
    one_at_a_time = kind in ("build", "sell", "restore") or (kind in FACTION_ACTIONS and kind != "invest")
    if count_text:
        count = read_count(count_text, COLUMNS["count"], maximum=MAX_COUNT)
        if one_at_a_time and count != 1:      # a bad number, or any other count: the row has one thing to do
            errors.append(OrderError("JR_ONE_AT_A_TIME", {"action": action, "value": echo(count_text),
                                                          "hint": ONE_AT_A_TIME_HINTS.get(kind, "")}))
        elif isinstance(count, OrderError):
            errors.append(count)
        else:
            order["count"] = count
    elif kind in ("buy_jade", "invest", "hibernate"):
        errors.append(OrderError("JR_COUNT_REQUIRED", {"action": action}))

    # city
    if kind in CITY_KINDS:
        ruins = True if kind == "restore" else False if kind in ("enslave", "grudge_target") else None
        own_ids = own_cities(state, faction, ruins=ruins)
        allowed = allowed_list(city_names(state, own_ids))
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
            building = find_building(what_text, faction)
            if building is None:
                other = find_building(what_text)
                if other is not None:
                    owner = load_data().buildings[other].faction
                    errors.append(OrderError("JR_FOREIGN_BUILDING", {"value": what_text, "allowed": mine,
                                                                     "owner": _faction_title(state, owner)}))
                else:
                    errors.append(OrderError("JR_UNKNOWN_BUILDING", {"value": what_text, "allowed": mine}))
            else:
                order["what"] = building
    elif kind in ("hire", "hibernate"):
        mine = allowed_list(_unit_names(faction), limit=20)
        if not what_text:
            errors.append(OrderError("JR_UNIT_REQUIRED" if kind == "hire" else "JR_SLEEP_UNIT_REQUIRED",
                                     {"allowed": mine}))
        else:
            unit = find_unit(what_text, faction)
            if unit is None:
                others = find_units(what_text)
                if others:
                    owner = load_data().units[others[0]].faction
                    errors.append(OrderError("JR_FOREIGN_UNIT", {"value": what_text, "allowed": mine,
                                                                 "owner": _faction_title(state, owner)}))
                else:
                    errors.append(OrderError("JR_UNKNOWN_UNIT", {"value": what_text, "allowed": mine}))
            else:
                order["what"] = unit
    elif kind in TARGET_KINDS:
        rivals = allowed_list(rival_names(state, faction))
        target = find_faction(state, what_text) if what_text else None
        if not what_text:
            errors.append(OrderError("JR_FACTION_REQUIRED", {"action": action, "allowed": rivals}))
        elif target is None:
            errors.append(OrderError("JR_UNKNOWN_FACTION", {"value": what_text, "allowed": rivals}))
        elif target == faction:
            errors.append(OrderError("JR_SELF_TARGET", {"action": action, "allowed": rivals}))
        else:
            order["what"] = order["target"] = target
    return (None, errors) if errors else (order, [])


def _building_names(faction: str) -> list[str]:
    return [b.name for b in sorted(load_data().faction_buildings(faction), key=lambda b: b.tier)]


def _unit_names(faction: str) -> list[str]:
    return [u.name for u in sorted(load_data().faction_units(faction), key=lambda u: u.tier)]


def parse_economy_rows(state: JadeRoseState, faction: str,
                       rows: list[Row]) -> tuple[list[EconomyOrder], list[RowStatus]]:
    """Orders (JSON-able dicts) from the tab's rows, and a status for every non-blank row; never raises."""
    orders: list[EconomyOrder] = []
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


def sort_orders(orders: list[EconomyOrder]) -> list[EconomyOrder]:
    """Orders in the rulings' execution order (by kind, then by sheet row)."""
    rank: dict[str, int] = {}
    for i, entry in enumerate(KIND_ORDER):
        for kind in (entry if isinstance(entry, tuple) else (entry,)):
            rank[kind] = i
    return sorted(orders, key=lambda o: (rank.get(o.get("kind", ""), len(KIND_ORDER)), o.get("row", 0)))
