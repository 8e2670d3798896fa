"""«Отправить караван»: a Planning row -> the adjudicator's caravan order (SCHEMA §1.4, SCHEMA_V2 §6).

A caravan goes to another faction (P2.1) or to a Keepers' Market, where quests are handed in («передать … — используя
Рынок по обычным правилам передачи ресурсов», G85). «Что» holds one resource (its amount in «Количество») or a list
«камень 2; мана 1; Древняя реликвия» of resources with their amounts and the quest items the faction holds; «Кому»
the recipient; «Маршрут» the provinces after the one it leaves from, the recipient's last; «Пошлина», optional, how
the duty of each third faction crossed is paid: «Фракция: золото 1, дерево 1; …», or one payment «золото 2» for each
(SCHEMA §1.4 `duty_pay`; empty: the duty is taken in the order gold, wood, stone, mana).
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.errors import OrderError, allowed_list
from engine.numbers import echo, read_count, whole_number
from engine.ruleset import Row, RowStatus
from engine.russian import agree
from engine.titania.book import Book, data
from engine.titania.names import RESOURCE_NAMES
from engine.titania.state_types import TitaniaState
from engine.titania.tabs import PLANNING

CARGO = ("gold", "wood", "stone", "mana")  # what a caravan carries (Influence and Might cannot be sent, P2.1)
_AMOUNT = re.compile(r"^(.*?)\s*[-:x×]?\s*(\d+)$")


def route_parts(text: str) -> list[str]:
    for sep in (";", "→", "->", ">", "—", "–"):
        text = text.replace(sep, ",")
    return [part.strip() for part in text.split(",") if part.strip()]


def _goods_parts(text: str) -> list[str]:
    return [part.strip() for part in re.split(r"[;,]", text) if part.strip()]


def _held(b: Book) -> dict[str, str]:
    """The quest items the faction holds: id -> name."""
    items = data(b.state).items
    return {i: items.get(i, i) for i in b.state["factions"][b.faction].get("items", [])}


_NAMES = {k: RESOURCE_NAMES[k] for k in CARGO}


def _goods(b: Book, row: Row) -> tuple[dict[str, int], list[str]] | OrderError:
    """The cargo of «Что» (and «Количество» for one resource alone)."""
    names = _NAMES
    one = b.lookup(row.get("what"), names)
    if one is not None:  # the usual row: one resource, its amount in «Количество»
        n = read_count(row.get("count"), "Количество", maximum=9999)
        return n if isinstance(n, OrderError) else ({one: n}, [])
    held = _held(b)
    allowed = allowed_list([*names.values(), *held.values()])
    parts = _goods_parts(row.get("what"))
    if not parts:
        return OrderError("T_UNKNOWN_RESOURCE", {"value": "", "allowed": allowed})
    resources: dict[str, int] = {}
    items: list[str] = []
    for part in parts:
        item = b.lookup(part, held)
        if item is not None:
            items.append(item)
            continue
        known = {i: n for i, n in data(b.state).items.items() if i not in held}
        if b.lookup(part, known) is not None:
            return OrderError("T_NO_ITEM", {"value": echo(part), "allowed": allowed_list(held.values())
                                            if held else "нет ни одного"})
        res = b.lookup(part, names)
        amount: int | OrderError
        if res is not None:
            if len(parts) > 1:
                return OrderError("T_CARGO_AMOUNT", {"value": echo(part)})
            amount = read_count(row.get("count"), "Количество", maximum=9999)
        else:
            m = _AMOUNT.match(part)
            res = b.lookup(m.group(1), names) if m else None
            if res is None or m is None:  # Influence or Might cannot travel; anything else is no such item (G72)
                kept = b.lookup((m.group(1) if m else part), {"influence": "влияние", "might": "могущество"})
                return OrderError("T_UNKNOWN_RESOURCE", {"value": echo(part), "allowed": allowed, "reason_code":
                                                         "not_transferable" if kept is not None else "unknown_item"})
            amount = read_count(m.group(2), "Что", maximum=9999)
        if isinstance(amount, OrderError):
            return amount
        resources[res] = resources.get(res, 0) + amount
    if row.get("count") and len(parts) > 1:
        return OrderError("T_CARGO_AMOUNT", {"value": echo(row.get("count"))})
    return resources, items


def _recipient(b: Book, row: Row) -> str | OrderError:
    """A player faction, or a Keeper (whose Market takes quest deliveries)."""
    fid = b.ix.targets.get(b.ix.norm(row.get("to"))) if row.get("to") else None
    if fid is None:
        others = [b.fname(f) for f in b.state["factions"] if f != b.faction]
        markets = [k["name"] for k in b.state.get("keepers", {}).values()]
        if not row.get("to"):
            return OrderError("E_REQUIRED", {"column": "Кому", "hint": "Кому отправить караван: "
                                             f"{allowed_list([*others, *markets])}."})
        return OrderError("T_UNKNOWN_FACTION", {"column": "Кому", "value": echo(row.get("to")),
                                                "allowed": allowed_list([*others, *markets])})
    return fid


def markets(state: TitaniaState, keeper: str) -> list[str]:
    """The Keeper's provinces with a Market (SCHEMA_V2 §13: the map's feature or a `market` building)."""
    provinces = state["map"]["provinces"]
    return [p for p, o in state["owners"].items() if o == keeper
            and (provinces[p].get("market") or "market" in state["buildings"].get(p, []))]


def _duty(b: Book, row: Row, route: list[str], to: str) -> dict[str, dict[str, int]] | OrderError:
    """«Пошлина» -> `duty_pay` {third faction: {resource: n}} for the thirds the route crosses."""
    text = row.get("duty")
    if not text:
        return {}
    owners = b.state["owners"]
    thirds = list(dict.fromkeys(o for p in route[1:-1] if (o := owners.get(p)) is not None
                                and o not in (b.faction, to)))
    names = {k: RESOURCE_NAMES[k] for k in CARGO}

    def pay(part: str) -> dict[str, int] | OrderError:
        out: dict[str, int] = {}
        for piece in (x.strip() for x in part.split(",") if x.strip()):
            m = _AMOUNT.match(piece)
            res = b.lookup(m.group(1), names) if m else None
            n = whole_number(m.group(2)) if m else None
            if res is None or n is None:
                return OrderError("T_BAD_DUTY", {"value": echo(piece)})
            out[res] = out.get(res, 0) + n
        return out

    result: dict[str, dict[str, int]] = {}
    for chunk in (c.strip() for c in text.split(";") if c.strip()):
        who, sep, what = chunk.partition(":")
        if sep:
            third = b.ix.factions.get(b.ix.norm(who))
            if third is None or third not in thirds:
                return OrderError("T_DUTY_NOBODY", {"value": echo(who), "allowed": allowed_list(
                    b.fname(t) for t in thirds if t in b.state["factions"]) if thirds else "никого: пошлины нет"})
            got = pay(what)
            if isinstance(got, OrderError):
                return got
            result[third] = got
        else:
            got = pay(chunk)
            if isinstance(got, OrderError):
                return got
            for third in thirds:
                result.setdefault(third, dict(got))
    return result


def _quest_note(b: Book, keeper: str, resources: Mapping[str, int], items: list[str]) -> str:
    """What the cargo does for the Keepers' quest (T4-8 b: after the quest is done, a caravan earns nothing)."""
    quest = b.state.get("quests", {}).get(keeper)
    if not quest:
        return "; у Хранителей нет задания: груз останется у них"
    if quest.get("done_by"):
        return (f"; задание Хранителей уже выполнено ({b.display(str(quest['done_by']))}): груз останется у них без "
                "награды")
    if quest.get("kind") == "deliver":
        res = str(quest.get("resource"))
        if res not in resources:
            return (f"; в задание идёт только {RESOURCE_NAMES.get(res, res)} (нужно {quest.get('amount')}): этот груз "
                    "останется у Хранителей")
        return ""
    if quest.get("item") not in items:
        return "; задание ждёт предмет, а его в караване нет: груз останется у Хранителей"
    return ""


def _raid_note(b: Book, between: list[str], resources: Mapping[str, int]) -> str:
    """The chance of a raid, which the turn draws: check cannot know the draw, so it tells the odds (issue 38 §1)."""
    wild = [p for p in between if b.state["owners"].get(p) is None or b.state["map"]["provinces"][p]["sea"]]
    if not wild or not any(n > 0 for n in resources.values()):
        return ""
    chance = b.ix.params.raid_chance
    return (f"; путь идёт через ничьи провинции или море ({', '.join(f'«{b.pname(p)}»' for p in wild)}): "
            f"с вероятностью {round(chance * 100)} % разбойники отнимут 1 единицу одного из ресурсов груза "
            "(какого — решит жребий хода)")


def caravan(b: Book, row: Row, start: str) -> tuple[dict[str, Any] | None, RowStatus]:
    """The caravan of a «Отправить караван» row leaving `start`, or the row's error."""
    def bad(err: OrderError) -> tuple[None, RowStatus]:
        return None, RowStatus(PLANNING, row.number, (err,))

    goods = _goods(b, row)
    if isinstance(goods, OrderError):
        return bad(goods)
    resources, items = goods
    to = _recipient(b, row)
    if isinstance(to, OrderError):
        return bad(to)
    keeper = to in b.state.get("keepers", {})
    if to == b.faction:
        others = [b.fname(f) for f in b.state["factions"] if f != b.faction]
        return bad(OrderError("T_SELF_CARAVAN", {"allowed": allowed_list(others)}))
    route = [start]
    for part in route_parts(row.get("route")):
        pid = b.names.get(b.ix.norm(part))
        if pid is None:
            return bad(OrderError("T_BAD_ROUTE", {"detail": f"провинции «{echo(part)}» нет"}))
        if pid not in b.neighbours(route[-1]):
            return bad(OrderError("T_BAD_ROUTE", {
                "detail": f"«{b.pname(pid)}» не граничит с провинцией «{b.pname(route[-1])}»"}))
        route.append(pid)
    if keeper:
        where = markets(b.state, to)
        if len(route) < 2 or route[-1] not in where:
            return bad(OrderError("T_NO_MARKET", {"keeper": b.display(to), "allowed": allowed_list(
                b.pname(p) for p in where) if where else "у них Рынка нет"}))
    elif len(route) < 2 or b.state["owners"].get(route[-1]) != to:
        return bad(OrderError("T_BAD_ROUTE", {"detail": f"путь должен закончиться в провинции получателя "
                                                        f"({b.fname(to)})"}))
    duty = _duty(b, row, route, to)
    if isinstance(duty, OrderError):
        return bad(duty)
    order: dict[str, Any] = {"kind": "caravan", "id": f"{b.faction}-{b.state['turn']}-{row.number}",
                             "faction": b.faction, "to": to, "resources": resources, "route": route,
                             **({"items": items} if items else {}), **({"duty_pay": duty} if duty else {})}
    held = _held(b) if items else {}
    cargo = ", ".join([f"{RESOURCE_NAMES[r]} {n}" for r, n in resources.items()] + [f"«{held[i]}»" for i in items])
    whom = f"Хранителей «{b.display(to)}» (Рынок в провинции «{b.pname(route[-1])}»)" if keeper else \
        f"фракции «{b.fname(to)}»"
    way = f"через {agree(len(route) - 2, 'провинция', 'accs')}" if len(route) > 2 else "в соседнюю провинцию"
    note = f"караван: {cargo} для {whom} {way}"
    note += _raid_note(b, route[1:-1], resources)
    if keeper:
        note += _quest_note(b, to, resources, items)
    return order, RowStatus(PLANNING, row.number, note=note)
