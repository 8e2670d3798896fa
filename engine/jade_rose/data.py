"""Jade Rose data files: frozen definitions, read and validated once, dumped as JSON.

The TOML files in `engine/jade_rose/data/` follow `data/SCHEMA.md`; `data_schema.validate_data`
lists every problem of them. `load_data()` reads them once (cached) into frozen definitions.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from engine import cells
from engine.datafiles import DataError, freeze, read_toml_files, thaw
from engine.jade_rose.data_schema import COST_KEYS, DATA_FILES, ERA_REQUIRED, LEVELS, validate_data

# -- definitions -------------------------------------------------------------

@dataclass(frozen=True)
class UnitDef:
    key: str
    faction: str
    name: str
    names: tuple[str, ...]
    tier: int
    attack: int
    hp: int
    defense: int
    cost: Mapping[str, int]
    upkeep: int
    hire_buildings: tuple[str, ...]
    jade_creature: bool
    blood: int
    abilities: Mapping[str, Any]


@dataclass(frozen=True)
class BuildingDef:
    key: str
    faction: str
    name: str
    tier: int
    cost: int
    sale_value: int
    unique_per_faction: bool
    replaces: tuple[str, ...]
    upgrade_from: str
    upgrade_cost: int
    effects: Mapping[str, Any]
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class EraDef:
    key: str
    name: str
    first_turn: int
    last_turn: int
    max_city_level: int
    max_armies: int
    gift_gold: int
    gold_multiplier: int
    resource_multiplier: int


@dataclass(frozen=True)
class JadeRoseData:
    units: Mapping[str, UnitDef]
    buildings: Mapping[str, BuildingDef]
    garrisons: Mapping[str, Mapping[int, Mapping[str, int]]]
    eras: Mapping[str, EraDef]
    factions: Mapping[str, Mapping[str, Any]]
    economy: Mapping[str, Any]
    battle: Mapping[str, Any]
    garrison_large_multiplier: int = 2

    def era_for_turn(self, turn: int) -> EraDef:
        """The era a turn falls in; turns past the last era stay in it."""
        eras = sorted(self.eras.values(), key=lambda e: e.first_turn)
        for era in eras:
            if era.first_turn <= turn <= era.last_turn:
                return era
        return eras[0] if turn < eras[0].first_turn else eras[-1]

    def faction_units(self, faction: str) -> list[UnitDef]:
        return [u for u in self.units.values() if u.faction == faction]

    def faction_buildings(self, faction: str) -> list[BuildingDef]:
        return [b for b in self.buildings.values() if b.faction == faction]


# -- name normalisation (shared with names.py) --------------------------------

normalize_name = cells.normalize_name     # the shared reading of names (engine.cells)


# -- reading --------------------------------------------------------------------

def read_raw() -> dict[str, Any]:
    """The data files as plain dicts, in the shape `validate_data` takes (a fresh copy each call);
    raises DataError naming every missing or unreadable file."""
    docs = read_toml_files("engine.jade_rose", "data", DATA_FILES, optional=("battle",))
    raw: dict[str, Any] = {name: doc if name == "economy" else doc.get(name, {})
                           for name, doc in docs.items() if name in DATA_FILES}
    raw["garrison_large_multiplier"] = docs["garrisons"].get("large_multiplier", 2)
    raw["battle"] = docs.get("battle", {})
    return raw


def build_data(raw: Mapping[str, Any]) -> JadeRoseData:
    """Validate a raw data set and turn it into frozen definitions; raises DataError with every problem."""
    problems = validate_data(raw)
    if problems:
        raise DataError(problems, "Данные «Войны Нефритовой Розы»")
    units = {
        key: UnitDef(
            key=key, faction=r["faction"], name=r["name"], names=tuple(r.get("names", ())), tier=r["tier"],
            attack=r["attack"], hp=r["hp"], defense=r["defense"],
            cost=freeze({res: int(r["cost"].get(res, 0)) for res in COST_KEYS}), upkeep=r["upkeep"],
            hire_buildings=tuple(r["hire_buildings"]), jade_creature=bool(r.get("jade_creature", False)),
            blood=int(r.get("blood", 1 if r["faction"] == "vampires" else 0)),
            abilities=freeze(r.get("abilities", {})))
        for key, r in raw["units"].items()
    }
    buildings = {
        key: BuildingDef(
            key=key, faction=r["faction"], name=r["name"], tier=r["tier"], cost=r["cost"],
            sale_value=r["sale_value"], unique_per_faction=bool(r.get("unique_per_faction", False)),
            replaces=tuple(r.get("replaces", ())), upgrade_from=r.get("upgrade_from", "") or "",
            upgrade_cost=int(r.get("upgrade_cost", 0)), effects=freeze(r.get("effects", {})),
            names=tuple(r.get("names", ())))
        for key, r in raw["buildings"].items()
    }
    garrisons = {
        faction: MappingProxyType({n: freeze(table[f"level_{n}"]) for n in LEVELS})
        for faction, table in raw["garrisons"].items()
    }
    eras = {key: EraDef(key=key, **{f: r[f] for f in ERA_REQUIRED}) for key, r in raw["eras"].items()}
    return JadeRoseData(
        units=MappingProxyType(units), buildings=MappingProxyType(buildings),
        garrisons=MappingProxyType(garrisons), eras=MappingProxyType(eras),
        factions=freeze(raw["factions"]), economy=freeze(raw["economy"]),
        battle=freeze(raw.get("battle", {})),
        garrison_large_multiplier=int(raw.get("garrison_large_multiplier", 2)))


@functools.lru_cache(maxsize=1)
def load_data() -> JadeRoseData:
    """The package's Jade Rose data, validated (read once per process)."""
    return build_data(read_raw())


def dump_data() -> dict[str, Any]:
    """Every number of the data files, JSON-able (what `forumwar ruleset dump jade_rose --json` prints)."""
    data = load_data()
    return {
        "ruleset": "jade_rose",
        "units": {
            key: {"faction": u.faction, "name": u.name, "names": list(u.names), "tier": u.tier,
                  "attack": u.attack, "hp": u.hp, "defense": u.defense, "cost": thaw(u.cost),
                  "upkeep": u.upkeep, "hire_buildings": list(u.hire_buildings),
                  "jade_creature": u.jade_creature, "blood": u.blood, "abilities": thaw(u.abilities)}
            for key, u in data.units.items()
        },
        "buildings": {
            key: {"faction": b.faction, "name": b.name, "names": list(b.names), "tier": b.tier, "cost": b.cost,
                  "sale_value": b.sale_value, "unique_per_faction": b.unique_per_faction,
                  "replaces": list(b.replaces), "upgrade_from": b.upgrade_from, "upgrade_cost": b.upgrade_cost,
                  "effects": thaw(b.effects)}
            for key, b in data.buildings.items()
        },
        "garrisons": {faction: {str(level): thaw(units) for level, units in table.items()}
                      for faction, table in data.garrisons.items()},
        "garrison_large_multiplier": data.garrison_large_multiplier,
        "eras": {key: {f: getattr(e, f) for f in ERA_REQUIRED} for key, e in data.eras.items()},
        "factions": thaw(data.factions),
        "economy": thaw(data.economy),
        "battle": thaw(data.battle),
    }
