"""Hiring units (L60-66): the building that unlocks a unit, summon and unit limits, the price; the
factions add their own conditions (Jade forges, vampire blood) and prices (the dwarves' campaign)."""
from __future__ import annotations

from engine.jade_rose import factions, hibernation, ledger
from engine.jade_rose.actions.base import Dice, OrdersTurn, Reject, err, paid_text, pay, what
from engine.jade_rose.data import UnitDef, load_data
from engine.jade_rose.holdings import owned_buildings, summon_limits
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState


def unit_costs(state: JadeRoseState, faction: str, unit: UnitDef, count: int) -> dict[str, int]:
    """Total cost of `count` units; the cathedral cuts honor by 40 % rounded down, once (JR-65)."""
    honor_pct = min((int(b.effects.get("honor_cost_pct", 0)) for _, b in owned_buildings(state, faction)), default=0)
    honor_each = unit.cost["honor"] * (100 + honor_pct) // 100
    return {"gold": unit.cost["gold"] * count, "honor": honor_each * count, "jade": unit.cost["jade"] * count}


def hire(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    rules = factions.of(faction)
    unit = data.units[what(order)]
    count = int(order["count"])
    units = state["factions"][faction].setdefault("units", {})
    have = int(units.get(unit.key, 0))
    standing = {b.key for _, b in owned_buildings(state, faction)}
    if not standing & set(unit.hire_buildings):
        names = " или ".join(f"«{data.buildings[k].name}»" for k in unit.hire_buildings)
        raise Reject(err("JR_UNIT_LOCKED", unit=unit.name, buildings=names))
    rules.hire_requirement(state, faction, unit)
    summon = summon_limits(state, faction).get(unit.key)
    if summon is not None and have + count > summon:
        building = next(data.buildings[k].name for k in unit.hire_buildings)
        raise Reject(err("JR_SUMMON_LIMIT", unit=unit.name, building=building, limit=summon, have=have,
                         left=max(0, summon - have)))
    limit = unit.abilities.get("faction_limit")
    if limit is not None and have + count > int(limit):
        raise Reject(err("JR_UNIT_LIMIT", unit=unit.name, limit=limit, have=have, left=max(0, int(limit) - have)))
    rules.hire_capacity(state, faction, unit, count)
    costs, price_note = rules.hire_price(state, faction, unit, count, unit_costs(state, faction, unit, count), ctx)
    pay(state, faction, costs, f"Найм: {unit.name} ×{count}" + price_note)
    hibernation.note_hire(state, faction, unit.key, count)
    units[unit.key] = have + count
    ledger.note(state, faction, f"Нанято: {unit.name} ×{count}")
    return f"нанято {count} за {paid_text(costs) or 'бесплатно'}" + rules.after_hire(state, faction, unit, count,
                                                                                     ctx, price_note)
