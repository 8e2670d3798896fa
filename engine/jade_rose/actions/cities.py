"""Upgrading a city (JR-48: each level costs the base income at the level it leaves) and restoring ruins."""
from __future__ import annotations

from engine.jade_rose import ledger
from engine.jade_rose.actions.base import Dice, OrdersTurn, Reject, err, own_city, pay
from engine.jade_rose.data import load_data
from engine.jade_rose.holdings import base_income, city_size, era_of, ordinal
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState


def upgrade(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = own_city(state, faction, cid)
    size = city_size(city)
    if city.get("ruins"):
        raise Reject(err("JR_CITY_RUINS", city=city["name"], cost=data.economy["restore_cost"][size]))
    era = era_of(state)
    top = int(data.economy.get("max_city_level", 3))
    cap = min(int(era.max_city_level), top)
    level = int(city["level"])
    count = int(order.get("count", 1))
    target = level + count
    if level >= top:
        raise Reject(err("JR_MAX_LEVEL", city=city["name"], level=level))
    if level >= cap:
        raise Reject(err("JR_LEVEL_CAPPED_BY_ERA", city=city["name"], level=level, era=era.name, max=cap))
    if target > cap:        # some levels are left, fewer than the row asks
        limit = (f"в эпоху «{era.name}» города не бывают выше {cap}-го уровня" if cap < top else
                 f"выше {top}-го уровня городов не бывает")
        raise Reject(err("JR_UPGRADE_TOO_FAR", city=city["name"], level=level, limit=limit, left=cap - level,
                         value=count))
    cost = sum(base_income({**city, "level": lvl}, faction) for lvl in range(level, target))
    pay(state, faction, {"gold": cost}, f"Улучшение города {city['name']} до {ordinal(target)} уровня", cid)
    city["level"] = target
    ledger.note(state, faction, f"Город {city['name']} улучшен до {ordinal(target)} уровня")
    return f"город {ordinal(target)} уровня за {cost}з"


def restore(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = own_city(state, faction, cid)
    if not city.get("ruins"):
        raise Reject(err("JR_NOT_RUINS", city=city["name"]))
    cost = int(data.economy["restore_cost"][city_size(city)])
    pay(state, faction, {"gold": cost}, f"Восстановление руин: {city['name']}", cid)
    city.update({"ruins": False, "level": 1, "buildings": []})
    ledger.note(state, faction, f"Руины {city['name']} восстановлены: город 1-го уровня без построек")
    return f"восстановлено за {cost}з, доход со следующего хода"
