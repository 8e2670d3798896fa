"""Selling and building (L47-55, RULINGS JR-56 step 3), with the units summoned by a building (L260, JR-86)."""
from __future__ import annotations

from engine.errors import allowed_list
from engine.jade_rose import factions, ledger
from engine.jade_rose.actions.base import Dice, OrdersTurn, Reject, err, own_city, pay, what
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import ACTION_OF_KIND
from engine.jade_rose.holdings import city_size, own_cities, summon_limits
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState


def sell(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    city = own_city(state, faction, order["city"])
    b = data.buildings[what(order)]
    if b.key not in city["buildings"]:
        there = [data.buildings[k].name for k in city["buildings"] if k in data.buildings]
        raise Reject(err("JR_BUILDING_NOT_IN_CITY", city=city["name"], building=b.name,
                         allowed=allowed_list(there)))
    city["buildings"].remove(b.key)
    ledger.change(state, faction, "gold", b.sale_value, f"Продажа: {b.name} ({city['name']})", order["city"])
    note = f"продано за {b.sale_value}з"
    for unit_key, _n in b.effects.get("summons", {}).items():
        units = state["factions"][faction].setdefault("units", {})
        keep = summon_limits(state, faction).get(unit_key, 0)
        lost = max(0, int(units.get(unit_key, 0)) - keep)
        if lost:
            units[unit_key] -= lost
            ledger.note(state, faction, f"{data.units[unit_key].name} ×{lost} исчезли вместе с постройкой «{b.name}»")
            note += f"; {data.units[unit_key].name} ×{lost} исчезли"
    ledger.note(state, faction, f"Продана постройка «{b.name}» в городе {city['name']} за {b.sale_value}з")
    return note


def _faction_building_city(state: JadeRoseState, faction: str, key: str) -> str | None:
    for cid in own_cities(state, faction):
        if key in state["cities"][cid]["buildings"]:
            return cid
    return None


def build(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = own_city(state, faction, cid)
    b = data.buildings[what(order)]
    size = city_size(city)
    if ctx.officials_purge_row is not None:
        raise Reject(err("JR_BUILDING_BLOCKED", action=ACTION_OF_KIND["purge_officials"],
                         row=ctx.officials_purge_row))
    if city.get("ruins"):
        raise Reject(err("JR_CITY_RUINS", city=city["name"], cost=data.economy["restore_cost"][size]))
    if b.tier > int(city["level"]):
        raise Reject(err("JR_TIER_ABOVE_LEVEL", building=b.name, tier=b.tier, city=city["name"],
                         level=city["level"]))
    if b.key in city["buildings"]:
        raise Reject(err("JR_DUPLICATE_BUILDING", city=city["name"], building=b.name))
    for other in data.faction_buildings(faction):
        if b.key in other.replaces:
            where = _faction_building_city(state, faction, other.key)
            if where is not None:
                raise Reject(err("JR_REPLACED_BUILDING", building=b.name, by=other.name,
                                 city=state["cities"][where]["name"]))
    if b.unique_per_faction:
        where = _faction_building_city(state, faction, b.key)
        if where is not None:
            raise Reject(err("JR_UNIQUE_BUILDING", building=b.name, city=state["cities"][where]["name"]))
    over = b.upgrade_from if b.upgrade_from in city["buildings"] else ""
    cost = b.upgrade_cost if over else b.cost
    slots = int(data.economy["slots"][size])
    if not over and len(city["buildings"]) >= slots:
        there = [data.buildings[k].name for k in city["buildings"] if k in data.buildings]
        raise Reject(err("JR_NO_FREE_SLOT", city=city["name"], used=len(city["buildings"]), slots=slots,
                         buildings=", ".join(there)))
    pay(state, faction, {"gold": cost}, f"Постройка: {b.name} ({city['name']})", cid)
    if over:
        city["buildings"][city["buildings"].index(over)] = b.key
    else:
        city["buildings"].append(b.key)
    notes = [f"построено за {cost}з" + (f" поверх «{data.buildings[over].name}»" if over else "")]
    ledger.note(state, faction, f"Построена постройка «{b.name}» в городе {city['name']}")
    for replaced in b.replaces:
        where = _faction_building_city(state, faction, replaced)
        if where is not None:
            state["cities"][where]["buildings"].remove(replaced)
            name = data.buildings[replaced].name
            ledger.note(state, faction, f"«{name}» в городе {state['cities'][where]['name']} заменена на «{b.name}»")
            notes.append(f"«{name}» упразднена")
    units = state["factions"][faction].setdefault("units", {})
    for unit_key, _n in b.effects.get("summons", {}).items():
        missing = summon_limits(state, faction).get(unit_key, 0) - int(units.get(unit_key, 0))
        if missing > 0:
            units[unit_key] = int(units.get(unit_key, 0)) + missing
            notes.append(f"призван {data.units[unit_key].name} ×{missing}")
            ledger.note(state, faction, f"Призван: {data.units[unit_key].name} ×{missing}")
    factions.of(faction).after_build(state, faction, b.key, rng, notes, ctx)
    return "; ".join(notes)


def revive_summons(state: JadeRoseState, faction: str) -> None:
    """Start of the turn: summon buildings bring their units back for free while they stand (L260, JR-86)."""
    rec = state["factions"][faction]
    units = rec.setdefault("units", {})
    for key, limit in summon_limits(state, faction).items():
        missing = limit - int(units.get(key, 0))
        if missing > 0:
            units[key] = int(units.get(key, 0)) + missing
            ledger.note(state, faction, f"Призван бесплатно: {load_data().units[key].name} ×{missing}")
