"""City garrisons: the faction's table by level, building bonuses, large-city doubling."""
from __future__ import annotations

from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import JadeRoseState


def has_forge(state: JadeRoseState, faction: str) -> bool:
    data = load_data()
    return any(c["owner"] == faction and not c.get("ruins")
               and any(data.buildings[b].effects.get("forge") for b in c["buildings"] if b in data.buildings)
               for c in state["cities"].values())


def garrison_of(state: JadeRoseState, city_id: str) -> dict[str, int]:
    """Unit counts of a city's garrison (ruins have none; RULINGS JR-54: large cities double, bonuses too)."""
    data = load_data()
    city = state["cities"][city_id]
    owner = city.get("owner")
    if not owner or city.get("ruins"):
        return {}
    units = dict(data.garrisons.get(owner, {}).get(city["level"], {}))   # tables are keyed by int level
    for bkey in city["buildings"]:
        for unit, n in data.buildings[bkey].effects.get("garrison", {}).items():
            units[unit] = units.get(unit, 0) + n
    mult = data.garrison_large_multiplier if city["large"] else 1
    forge = None
    result: dict[str, int] = {}
    for unit, n in units.items():
        if data.units[unit].jade_creature:
            if forge is None:
                forge = has_forge(state, owner)
            if not forge:
                continue
        result[unit] = n * mult
    return dict(sorted(result.items()))
