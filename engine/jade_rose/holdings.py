"""What the map and the factions hold, read-only: cities, their buildings and effects, the era, base income.

Shared by the economy, the factions' rules, the war and the views; nothing here changes a state.
"""
from __future__ import annotations

from collections.abc import Mapping

from engine.jade_rose.data import BuildingDef, EraDef, load_data
from engine.jade_rose.state_types import City, JadeRoseState


def round_half_up(num: int, den: int = 1) -> int:
    """num/den rounded half up, in integers (no float surprises)."""
    return (2 * num + den) // (2 * den)


def ordinal(level: int) -> str:
    return f"{level}-го"


def era_of(state: JadeRoseState) -> EraDef:
    return load_data().era_for_turn(int(state["turn"]))


def multiplier_note(state: JadeRoseState, mult: int) -> str:
    """« (Закат: ×2)» when an era multiplier applies, else nothing."""
    return f" ({era_of(state).name}: ×{mult})" if mult != 1 else ""


def active_factions(state: JadeRoseState) -> list[str]:
    """Factions still playing (not eliminated, not already won), in a stable order."""
    return sorted(f for f, rec in state["factions"].items() if not rec.get("eliminated") and not rec.get("won"))


def faction_name(state: JadeRoseState, faction: str | None) -> str:
    rec = state["factions"].get(faction) if faction else None
    if rec:
        return str(rec.get("name") or faction)
    return str(load_data().factions.get(faction or "", {}).get("name", faction))


def own_cities(state: JadeRoseState, faction: str, ruins: bool | None = None) -> list[str]:
    """City ids owned by a faction, sorted by name; ruins=False/True filters ruins out/in."""
    out = [cid for cid, c in state["cities"].items()
           if c.get("owner") == faction and (ruins is None or bool(c.get("ruins")) == ruins)]
    return sorted(out, key=lambda cid: (state["cities"][cid]["name"], cid))


def city_names(state: JadeRoseState, city_ids: list[str]) -> list[str]:
    return [state["cities"][cid]["name"] for cid in city_ids]


def city_count(state: JadeRoseState, faction: str) -> int:
    """Standing cities of a faction (ruins are no cities, JR-51)."""
    return len(own_cities(state, faction, ruins=False))


def city_size(city: Mapping[str, object]) -> str:
    """"large" or "small", of a city or of a captured one (its capture event)."""
    return "large" if city.get("large") else "small"


def neighbours(state: JadeRoseState, city: str) -> set[str]:
    """Cities joined to `city` by a road."""
    return {b if a == city else a for a, b in state.get("roads", ()) if city in (a, b)}


def owned_buildings(state: JadeRoseState, faction: str) -> list[tuple[str, BuildingDef]]:
    """(city id, building) for every building in the faction's standing cities."""
    data = load_data()
    return [(cid, data.buildings[b]) for cid in own_cities(state, faction, ruins=False)
            for b in state["cities"][cid]["buildings"] if b in data.buildings]


def effect_total(state: JadeRoseState, faction: str, effect: str) -> int:
    return sum(int(b.effects.get(effect, 0)) for _, b in owned_buildings(state, faction))


def has_effect(state: JadeRoseState, faction: str, effect: str) -> bool:
    return any(b.effects.get(effect) for _, b in owned_buildings(state, faction))


def base_income(city: City, owner: str | None) -> int:
    """The city's base income for its owner: 150/300 × level, halved for vampires (L36-37, L144)."""
    if not owner or city.get("ruins"):
        return 0
    data = load_data()
    amount = int(data.economy["city_income"][city_size(city)]) * int(city["level"])
    pct = int(data.factions.get(owner, {}).get("city_income_pct", 100))
    return amount * pct // 100


def unit_upkeep(state: JadeRoseState, faction: str, exempt: Mapping[str, int] | None = None) -> int:
    """Gold upkeep per turn of the faction's units, less the `exempt` ones (by unit: e.g. the vampires'
    sleepers in a crypt, see `income.upkeep_total`, which asks the faction's hooks)."""
    data = load_data()
    units = state["factions"][faction].get("units", {})
    free = exempt or {}
    return sum(data.units[k].upkeep * (n - free.get(k, 0)) for k, n in units.items() if k in data.units and n > 0)


def summon_limits(state: JadeRoseState, faction: str) -> dict[str, int]:
    """Units the faction's summon buildings keep in being (L260, JR-86), by unit."""
    limits: dict[str, int] = {}
    for _, b in owned_buildings(state, faction):
        for key, n in b.effects.get("summons", {}).items():
            limits[key] = limits.get(key, 0) + int(n)
    return limits


def city_name(state: JadeRoseState, cid: object) -> str:
    """A city's display name; the id itself when no such city exists."""
    city = state["cities"].get(cid) if isinstance(cid, str) else None
    return str(city["name"]) if city else str(cid)
