"""What each book shows: tables per faction book, the public book and the GM book.

Fog of war: a faction's tables are built only from its own state and public facts
(cities' owners, sizes and levels, roads); other factions' units, buildings and balances never enter them.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jade_rose import factions, income, victory
from engine.jade_rose.data import load_data
from engine.jade_rose.garrison import garrison_of
from engine.jade_rose.state_types import JadeRoseState
from engine.jade_rose.war.squads import army_part
from engine.jade_rose.war.words import pos_key, position_text
from engine.ruleset import Table

ERA_NAMES = {"twilight": "Сумерки", "dawn": "Рассвет", "day": "День", "sunset": "Закат", "midnight": "Полночь"}
STAGE_NAMES = {"orders": "приказы", "planning": "планирование боёв", "finished": "игра окончена"}
RESOURCES = {"honor": "Честь", "slaves": "Рабы", "eternal_servants": "Вечные слуги", "runes": "Руны",
             "jade": "Нефрит", "corruption": "Коррупция", "gold": "Золото", "grudges": "Обиды"}


def unit_name(key: str) -> str:
    unit = load_data().units.get(key)
    return unit.name if unit else key


def building_name(key: str) -> str:
    b = load_data().buildings.get(key)
    return b.name if b else key


def city_name(state: JadeRoseState, city_id: str) -> str:
    return str(state["cities"][city_id]["name"])


def faction_name(state: JadeRoseState, fid: str | None) -> str:
    if not fid:
        return "—"
    return str(state["factions"][fid]["name"])


def neighbours(state: JadeRoseState, city_id: str) -> list[str]:
    out = [b if a == city_id else a for a, b in state["roads"] if city_id in (a, b)]
    return sorted(out, key=lambda c: state["cities"][c]["name"])


def _size(city: Mapping[str, Any]) -> str:
    return "Большой" if city["large"] else "Малый"


def _units_text(units: dict[str, int]) -> str:
    return ", ".join(f"{unit_name(k)} ×{n}" for k, n in units.items() if n) or "—"


def _slots(city: Mapping[str, Any]) -> int:
    econ = load_data().economy
    slots = econ.get("slots", {})
    return int(slots.get("large" if city["large"] else "small", 3 if city["large"] else 1))


def _city_income(state: JadeRoseState, fid: str, city_id: str) -> int:
    return sum(line["amount"] for line in income.income_lines(state, fid)
               if line.get("city") == city_id and line.get("resource", "gold") == "gold")


def summary(state: JadeRoseState, fid: str) -> Table:
    f = state["factions"][fid]
    rows: list[tuple[Any, ...]] = [
        ("Ход", state["turn"], ""),
        ("Эпоха", ERA_NAMES.get(state["era"], state["era"]), ""),
        ("Этап", STAGE_NAMES.get(state["stage"], state["stage"]), ""),
        ("Золото", f["gold"], "может быть отрицательным только из-за содержания"),
    ]
    for res in factions.of(fid).resources:
        rows.append((RESOURCES[res], f.get(res, 0), ""))
    rows.extend(factions.of(fid).status_rows(state, fid))
    if f.get("eliminated"):
        rows.append(("Статус", "выбыла", "у фракции не осталось городов"))
    rows.append(("", "", ""))
    rows.append(("Доход в следующий ход", "", ""))
    total = 0
    for line in income.income_lines(state, fid):
        rows.append((line["reason"], line["amount"], RESOURCES.get(line.get("resource", "gold"), "")))
        if line.get("resource", "gold") == "gold":
            total += line["amount"]
    upkeep = income.upkeep_total(state, fid)
    rows.append(("Содержание армии", -upkeep, "золото"))
    rows.append(("Итого золота за ход", total - upkeep, ""))
    rows.append(("", "", ""))
    rows.append(("Условия победы", "", "нужны все сразу"))
    for text, met in victory.victory_progress(state, fid):
        rows.append((text, "выполнено" if met else "нет", ""))
    return Table(("Показатель", "Значение", "Пояснение"), tuple(rows))


def cities(state: JadeRoseState, fid: str) -> Table:
    rows = []
    for cid, city in sorted(state["cities"].items(), key=lambda kv: kv[1]["name"]):
        if city.get("owner") != fid:
            continue
        if city.get("ruins"):
            rows.append((city["name"], _size(city), 0, 0, "руины", 0, "—",
                         ", ".join(city_name(state, n) for n in neighbours(state, cid))))
            continue
        built = [building_name(b) for b in city["buildings"]]
        rows.append((city["name"], _size(city), city["level"], _city_income(state, fid, cid),
                     ", ".join(built) or "—", max(0, _slots(city) - len(built)),
                     _units_text(garrison_of(state, cid)),
                     ", ".join(city_name(state, n) for n in neighbours(state, cid))))
    return Table(("Город", "Размер", "Уровень", "Доход", "Постройки", "Свободные слоты", "Гарнизон",
                  "Соседи по дорогам"), tuple(rows))


def deployed(state: JadeRoseState, fid: str) -> list[tuple[str, str, int]]:
    """(unit key, where, count) of the faction's units out in the pending battles' armies: an attacking
    army's squad by its position, the armies defending a city; the rest of the units are in reserve."""
    out: list[tuple[str, str, int]] = []
    for battle in state.get("battles") or []:
        city = str(state["cities"][battle["city"]]["name"])
        for att in battle.get("attackers", []):
            if att.get("faction") != fid:
                continue
            for squad in att.get("squads", []):
                where = f"армия «{att['army']}», {position_text(pos_key(squad['flank'], squad['line'])).lower()}: " \
                        f"атакует город {city}"
                out += [(k, where, n) for k, n in army_part(squad).items()]
        defence = battle.get("defence") or {}
        if battle.get("defender") == fid and defence.get("armies"):
            names = ", ".join(f"«{a}»" for a in defence["armies"])
            for squad in defence.get("squads", []):
                out += [(k, f"армия {names}: обороняет город {city}", n) for k, n in army_part(squad).items()]
    return out


def units(state: JadeRoseState, fid: str) -> Table:
    """Each unit type of the faction by where it is: in an army of a pending battle, or in reserve."""
    data = load_data()
    f = state["factions"][fid]
    hibernating = f.get("hibernating", {})
    out = deployed(state, fid)
    rows: list[tuple[str, int, int, str, int | str]] = []
    for key, n in sorted(f.get("units", {}).items(), key=lambda kv: (data.units[kv[0]].tier, kv[0])):
        if n <= 0:
            continue
        away = [(where, m) for k, where, m in out if k == key]
        for where, m in away:
            rows.append((unit_name(key), m, data.units[key].upkeep * m, where, ""))
        rest = n - sum(m for _, m in away)
        if rest > 0 or not away:
            rows.append((unit_name(key), max(rest, 0), data.units[key].upkeep * max(rest, 0), "резерв",
                         hibernating.get(key, 0)))
    return Table(("Юнит", "Количество", "Содержание, з/ход", "Где", "В спячке"), tuple(rows))


def journal(state: JadeRoseState, fid: str) -> Table:
    rows: list[tuple[int | str, str, int | str, str]] = []
    for line in state.get("ledger", []):
        if line["faction"] == fid:
            rows.append((state["turn"] - 1 if state.get("stage") == "orders" else state["turn"],
                         RESOURCES.get(line["resource"], line["resource"]), line["amount"], line["reason"]))
    for entry in state.get("log", []):
        if entry.get("faction") == fid:
            rows.append(("", "", "", entry["text"]))
    return Table(("Ход", "Ресурс", "Изменение", "Что произошло"), tuple(rows))


def public_map(state: JadeRoseState) -> Table:
    rows = []
    for cid, city in sorted(state["cities"].items(), key=lambda kv: kv[1]["name"]):
        rows.append((city["name"], faction_name(state, city.get("owner")), _size(city),
                     "руины" if city.get("ruins") else city["level"],
                     ", ".join(city_name(state, n) for n in neighbours(state, cid))))
    return Table(("Город", "Владелец", "Размер", "Уровень", "Соседи по дорогам"), tuple(rows))


def chronicle(state: JadeRoseState) -> Table:
    rows = [(e.get("turn", ""), e.get("kind", ""), e["text"]) for e in state.get("chronicle", [])]
    return Table(("Ход", "Событие", "Описание"), tuple(rows))


def gm_factions(state: JadeRoseState) -> Table:
    rows = []
    for fid, f in state["factions"].items():
        owned = [c for c in state["cities"].values() if c.get("owner") == fid and not c.get("ruins")]
        extras = "; ".join(f"{RESOURCES[r]}: {f.get(r, 0)}" for r in factions.of(fid).resources)
        rows.append((f["name"], f["gold"], len(owned), sum(f.get("units", {}).values()),
                     income.upkeep_total(state, fid), "выбыла" if f.get("eliminated") else "в игре", extras))
    return Table(("Фракция", "Золото", "Городов", "Юнитов", "Содержание", "Статус", "Ресурсы"), tuple(rows))


def gm_cities(state: JadeRoseState) -> Table:
    rows = []
    for _cid, city in sorted(state["cities"].items(), key=lambda kv: kv[1]["name"]):
        rows.append((city["name"], faction_name(state, city.get("owner")), _size(city), city["level"],
                     ", ".join(building_name(b) for b in city["buildings"]) or "—",
                     "руины" if city.get("ruins") else ("столица" if city.get("capital") else "")))
    return Table(("Город", "Владелец", "Размер", "Уровень", "Постройки", "Отметки"), tuple(rows))


def gm_ledger(state: JadeRoseState) -> Table:
    rows = [(faction_name(state, line["faction"]), RESOURCES.get(line["resource"], line["resource"]), line["amount"],
             line["reason"]) for line in state.get("ledger", [])]
    return Table(("Фракция", "Ресурс", "Изменение", "Причина"), tuple(rows))


def all_views(state: JadeRoseState) -> dict[str, dict[str, Table]]:
    books: dict[str, dict[str, Table]] = {}
    for fid in state["factions"]:
        books[fid] = {"summary": summary(state, fid), "cities": cities(state, fid),
                      "units": units(state, fid), "journal": journal(state, fid)}
    books["public"] = {"map": public_map(state), "chronicle": chronicle(state)}
    books["gm"] = {"factions": gm_factions(state), "gm_cities": gm_cities(state), "ledger": gm_ledger(state)}
    return books
