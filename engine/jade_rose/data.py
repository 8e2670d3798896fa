"""Jade Rose data files: load, validate (every problem at once) and dump as JSON.

The TOML files in `engine/jade_rose/data/` follow `data/SCHEMA.md`. `load_data()` reads them
once (cached) into frozen definitions; `validate_data(raw)` lists every problem of a raw set of
documents so a game master who edits a number sees all mistakes in one go.
"""
from __future__ import annotations

import functools
import importlib.resources
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, TypeGuard

from engine import cells

FACTIONS = ("empire", "vampires", "dwarves", "jade")
COST_KEYS = ("gold", "honor", "jade")
DATA_FILES = ("units", "buildings", "garrisons", "eras", "factions", "economy")
LEVELS = (1, 2, 3)


class DataError(ValueError):
    """The data files are inconsistent; `.problems` lists every problem found."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__(f"Jade Rose data has {len(problems)} problem(s):\n- " + "\n- ".join(problems))


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


# -- schema of the data files ---------------------------------------------------

_INT, _BOOL, _STR = "int", "bool", "str"
_TABLE_SPECS = {
    "ranged": {"damage": _INT, "shots": _INT, "long_range": _BOOL},
    "area_ranged": {"pct": _INT, "min": _INT, "max": _INT},
    "area_melee": {"pct": _INT, "min": _INT, "max": _INT},
    "healer": {"total": _INT, "rounds": _INT},
    "breath": {"now": _INT, "next": _INT, "every": _INT},
}
# kind: "pct" may be negative; "count" must be >= 0; "pos" >= 1.
ABILITY_KEYS: dict[str, str] = {
    "can_charge": _BOOL, "charge_bonus_pct": "count", "ranged": "table", "area_ranged": "table",
    "area_melee": "table", "pierce_min": "count", "pierce_scope": "scope", "squad_outgoing_pct": "pct",
    "squad_incoming_pct": "pct", "squad_shot_bonus_pct": "pct", "enemy_outgoing_pct": "pct",
    "melee_taken_pct": "pct", "ranged_taken_pct": "pct", "anti_charge_taken_pct": "pct",
    "defending_taken_pct": "pct", "regen": "count", "attacks_per_pick": "pos", "heal_self_on_attack": "count",
    "strip_defense": "count", "healer": "table", "squad_heal": "count", "runes": _BOOL,
    "grow_attack_when_hurt": "count", "breath": "table", "free_move": _BOOL, "no_manoeuvres": _BOOL,
    "one_per_squad": _BOOL, "excludes_in_squad": "units", "faction_limit": "pos",
}
EFFECT_KEYS: dict[str, str] = {
    "income": "count", "honor_per_turn": "count", "unlocks_units": "units", "garrison": "unit_counts",
    "slave_cap": "count", "runes_per_turn": "count", "jade_limit": "count", "corruption_growth": "pct",
    "honor_cost_pct": "pct", "summons": "unit_counts", "crypt_capacity": "count",
    "slave_market_bonus": "count", "slave_losses_per_turn": "count", "slave_escape_fraction": "fraction",
    "investment_cap": "count", "investment_return_pct": "count", "grudges_per_turn": "count",
    "ignore_grudge_reduction": _BOOL, "forge": _BOOL, "jade_plague": _BOOL,
    "corruption_drop_on_first_build": "dice", "corruption_reset_on_first_build": _BOOL,
    "enables_action": _STR,
}
_UNIT_REQUIRED = ("faction", "name", "tier", "attack", "hp", "defense", "cost", "upkeep", "hire_buildings")
_UNIT_OPTIONAL = ("names", "jade_creature", "blood", "abilities")
_BUILDING_REQUIRED = ("faction", "name", "tier", "cost", "sale_value")
_BUILDING_OPTIONAL = ("names", "unique_per_faction", "replaces", "upgrade_from", "upgrade_cost", "effects")
_ERA_REQUIRED = ("name", "first_turn", "last_turn", "max_city_level", "max_armies", "gift_gold",
                 "gold_multiplier", "resource_multiplier")
_FACTION_REQUIRED = ("name", "resource")
_ECONOMY_REQUIRED = ("max_city_level", "city_income", "slots", "restore_cost", "sale_pct")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_number(problems: list[str], where: str, value: Any, kind: str) -> None:
    if not _is_int(value):
        problems.append(f"{where}: expected an integer, got {value!r}")
    elif kind in ("count", "int_nonneg") and value < 0:
        problems.append(f"{where}: negative number {value}")
    elif kind == "pos" and value < 1:
        problems.append(f"{where}: must be at least 1, got {value}")


def _check_value(problems: list[str], where: str, value: Any, kind: str, units: Mapping, faction: str,
                 ability: str = "") -> None:
    """Check one ability or effect value of the given kind."""
    if kind == _BOOL:
        if not isinstance(value, bool):
            problems.append(f"{where}: expected true/false, got {value!r}")
    elif kind == _STR:
        if not isinstance(value, str) or not value:
            problems.append(f"{where}: expected a non-empty string, got {value!r}")
    elif kind in ("count", "pos"):
        _check_number(problems, where, value, kind)
    elif kind == "pct":
        if not _is_int(value):
            problems.append(f"{where}: expected an integer percentage, got {value!r}")
    elif kind == "scope":
        if value not in ("all", "ranged"):
            problems.append(f"{where}: expected \"all\" or \"ranged\", got {value!r}")
    elif kind == "table":
        spec = _TABLE_SPECS[ability]
        if not isinstance(value, Mapping):
            problems.append(f"{where}: expected a table with keys {', '.join(spec)}")
            return
        for sub in sorted(set(value) - set(spec)):
            problems.append(f"{where}: unknown key {sub!r} (allowed: {', '.join(spec)})")
        for sub, sub_kind in spec.items():
            if sub not in value:
                problems.append(f"{where}: missing key {sub!r}")
            elif sub_kind == _BOOL:
                _check_value(problems, f"{where}.{sub}", value[sub], _BOOL, units, faction)
            else:
                _check_number(problems, f"{where}.{sub}", value[sub], "count")
    elif kind == "units":
        if not isinstance(value, (list, tuple)):
            problems.append(f"{where}: expected a list of unit keys")
            return
        for ref in value:
            _check_unit_ref(problems, where, ref, units, faction)
    elif kind == "unit_counts":
        if not isinstance(value, Mapping):
            problems.append(f"{where}: expected a table of unit key = count")
            return
        for ref, n in value.items():
            _check_unit_ref(problems, where, ref, units, faction)
            _check_number(problems, f"{where}.{ref}", n, "pos")
    elif kind == "fraction":
        if (not isinstance(value, (list, tuple)) or len(value) != 2 or not all(_is_int(v) for v in value)
                or value[1] <= 0 or value[0] < 0):
            problems.append(f"{where}: expected [numerator, denominator] with denominator > 0, got {value!r}")
    elif kind == "dice":
        if not isinstance(value, Mapping) or set(value) != {"dice", "plus"}:
            problems.append(f"{where}: expected {{ dice = N, plus = M }}, got {value!r}")
        else:
            _check_number(problems, f"{where}.dice", value["dice"], "pos")
            _check_number(problems, f"{where}.plus", value["plus"], "count")


def _check_unit_ref(problems: list[str], where: str, ref: Any, units: Mapping, faction: str) -> None:
    if ref not in units:
        problems.append(f"{where}: unknown unit {ref!r}")
    elif isinstance(units[ref], Mapping) and units[ref].get("faction") != faction:
        problems.append(f"{where}: unit {ref!r} belongs to {units[ref].get('faction')!r}, not {faction!r}")


def _check_fields(problems: list[str], where: str, record: Any, required: Iterable[str],
                  optional: Iterable[str]) -> bool:
    if not isinstance(record, Mapping):
        problems.append(f"{where}: expected a table")
        return False
    for name in required:
        if name not in record:
            problems.append(f"{where}: missing field {name!r}")
    for name in sorted(set(record) - set(required) - set(optional)):
        problems.append(f"{where}: unknown field {name!r}")
    return True


def _check_tier(problems: list[str], where: str, record: Mapping) -> None:
    tier = record.get("tier")
    if "tier" in record and (not _is_int(tier) or tier not in LEVELS):
        problems.append(f"{where}: tier must be 1, 2 or 3, got {tier!r}")


def _check_names(problems: list[str], kind: str, records: Mapping[str, Any]) -> None:
    """No two records of one faction may share a (normalised) name or accepted spelling."""
    seen: dict[tuple[str | None, str], str] = {}   # (faction, normalised spelling) -> record key
    for key, rec in records.items():
        if not isinstance(rec, Mapping):
            continue
        spellings = [rec.get("name", "")] + list(rec.get("names", []) or [])
        for spelling in spellings:
            if not isinstance(spelling, str) or not spelling.strip():
                problems.append(f"{kind}.{key}: empty or non-text name {spelling!r}")
                continue
            where = (rec.get("faction"), normalize_name(spelling))
            other = seen.get(where)
            if other is not None and other != key:
                problems.append(f"{kind}.{key}: name {spelling!r} duplicates {kind}.{other} "
                                f"within faction {rec.get('faction')!r}")
            seen[where] = key


def _validate_units(problems: list[str], units: Mapping, buildings: Mapping, factions: set[str]) -> None:
    for key, rec in units.items():
        where = f"units.{key}"
        if not _check_fields(problems, where, rec, _UNIT_REQUIRED, _UNIT_OPTIONAL):
            continue
        faction = rec.get("faction")
        if faction not in factions:
            problems.append(f"{where}: unknown faction {faction!r}")
        elif not key.startswith(f"{faction}_"):
            problems.append(f"{where}: key must start with {faction + '_'!r}")
        _check_tier(problems, where, rec)
        for field in ("attack", "defense", "upkeep"):
            if field in rec:
                _check_number(problems, f"{where}.{field}", rec[field], "count")
        if "hp" in rec:
            _check_number(problems, f"{where}.hp", rec["hp"], "pos")
        if "blood" in rec:
            _check_number(problems, f"{where}.blood", rec["blood"], "count")
        if "jade_creature" in rec and not isinstance(rec["jade_creature"], bool):
            problems.append(f"{where}.jade_creature: expected true/false")
        cost = rec.get("cost", {})
        if not isinstance(cost, Mapping):
            problems.append(f"{where}.cost: expected a table of {', '.join(COST_KEYS)}")
        else:
            for res, amount in cost.items():
                if res not in COST_KEYS:
                    problems.append(f"{where}.cost: unknown resource {res!r} (allowed: {', '.join(COST_KEYS)})")
                _check_number(problems, f"{where}.cost.{res}", amount, "count")
        hire = rec.get("hire_buildings", [])
        if not isinstance(hire, list):
            problems.append(f"{where}.hire_buildings: expected a list of building keys")
            hire = []
        for ref in hire:
            if ref not in buildings:
                problems.append(f"{where}.hire_buildings: unknown building {ref!r}")
            elif isinstance(buildings[ref], Mapping) and buildings[ref].get("faction") != faction:
                problems.append(f"{where}.hire_buildings: building {ref!r} belongs to another faction")
        abilities = rec.get("abilities", {})
        if not isinstance(abilities, Mapping):
            problems.append(f"{where}.abilities: expected a table")
            continue
        for ability, value in abilities.items():
            kind = ABILITY_KEYS.get(ability)
            if kind is None:
                problems.append(f"{where}.abilities: unknown ability key {ability!r}")
                continue
            _check_value(problems, f"{where}.abilities.{ability}", value, kind, units, faction, ability)
    _check_names(problems, "units", units)


def _validate_buildings(problems: list[str], units: Mapping, buildings: Mapping, factions: set[str]) -> None:
    for key, rec in buildings.items():
        where = f"buildings.{key}"
        if not _check_fields(problems, where, rec, _BUILDING_REQUIRED, _BUILDING_OPTIONAL):
            continue
        faction = rec.get("faction")
        if faction not in factions:
            problems.append(f"{where}: unknown faction {faction!r}")
        elif not key.startswith(f"{faction}_"):
            problems.append(f"{where}: key must start with {faction + '_'!r}")
        _check_tier(problems, where, rec)
        for field in ("cost", "sale_value", "upgrade_cost"):
            if field in rec:
                _check_number(problems, f"{where}.{field}", rec[field], "count")
        if "unique_per_faction" in rec and not isinstance(rec["unique_per_faction"], bool):
            problems.append(f"{where}.unique_per_faction: expected true/false")
        refs = list(rec.get("replaces", []) or [])
        if rec.get("upgrade_from"):
            refs.append(rec["upgrade_from"])
        for ref in refs:
            if ref not in buildings:
                problems.append(f"{where}: unknown building {ref!r}")
            elif isinstance(buildings[ref], Mapping) and buildings[ref].get("faction") != faction:
                problems.append(f"{where}: building {ref!r} belongs to another faction")
        effects = rec.get("effects", {})
        if not isinstance(effects, Mapping):
            problems.append(f"{where}.effects: expected a table")
            continue
        for effect, value in effects.items():
            kind = EFFECT_KEYS.get(effect)
            if kind is None:
                problems.append(f"{where}.effects: unknown effect key {effect!r}")
                continue
            _check_value(problems, f"{where}.effects.{effect}", value, kind, units, faction)
    _check_names(problems, "buildings", buildings)
    # unlocks_units (buildings) and hire_buildings (units) are two views of one relation.
    for ukey, unit in units.items():
        if not isinstance(unit, Mapping):
            continue
        for bkey in unit.get("hire_buildings", []) or []:
            b = buildings.get(bkey)
            if isinstance(b, Mapping) and ukey not in (b.get("effects", {}) or {}).get("unlocks_units", []):
                problems.append(f"units.{ukey}.hire_buildings lists {bkey!r}, "
                                f"but buildings.{bkey}.effects.unlocks_units does not list {ukey!r}")
    for bkey, b in buildings.items():
        if not isinstance(b, Mapping) or not isinstance(b.get("effects", {}), Mapping):
            continue
        for ukey in b.get("effects", {}).get("unlocks_units", []) or []:
            unit = units.get(ukey)
            if isinstance(unit, Mapping) and bkey not in (unit.get("hire_buildings", []) or []):
                problems.append(f"buildings.{bkey}.effects.unlocks_units lists {ukey!r}, "
                                f"but units.{ukey}.hire_buildings does not list {bkey!r}")


def _validate_garrisons(problems: list[str], garrisons: Mapping, units: Mapping, factions: set[str],
                        multiplier: Any) -> None:
    _check_number(problems, "garrisons.large_multiplier", multiplier, "pos")
    for faction in sorted(factions):
        if faction not in garrisons:
            problems.append(f"garrisons: missing faction {faction!r}")
    for faction, table in garrisons.items():
        where = f"garrisons.{faction}"
        if faction not in factions:
            problems.append(f"{where}: unknown faction {faction!r}")
        if not isinstance(table, Mapping):
            problems.append(f"{where}: expected a table")
            continue
        expected = {f"level_{n}" for n in LEVELS}
        for name in sorted(expected - set(table)):
            problems.append(f"{where}: missing {name}")
        for name in sorted(set(table) - expected):
            problems.append(f"{where}: unknown level {name!r} (allowed: level_1, level_2, level_3)")
        for name in sorted(expected & set(table)):
            _check_value(problems, f"{where}.{name}", table[name], "unit_counts", units, faction)


def _validate_eras(problems: list[str], eras: Mapping) -> None:
    if not eras:
        problems.append("eras: no era defined")
        return
    spans = []
    for key, rec in eras.items():
        where = f"eras.{key}"
        if not _check_fields(problems, where, rec, _ERA_REQUIRED, ()):
            continue
        for field in _ERA_REQUIRED[1:]:
            if field in rec:
                _check_number(problems, f"{where}.{field}", rec[field], "count")
        level = rec.get("max_city_level")
        if _is_int(level) and level not in LEVELS:
            problems.append(f"{where}.max_city_level: must be 1, 2 or 3, got {level}")
        first, last = rec.get("first_turn"), rec.get("last_turn")
        if _is_int(first) and _is_int(last):
            if last < first:
                problems.append(f"{where}: last_turn {last} before first_turn {first}")
            spans.append((first, last, key))
    expected = 1
    for first, last, key in sorted(spans):
        if first != expected:
            problems.append(f"eras.{key}: starts at turn {first}, expected {expected} (eras must be contiguous)")
        expected = max(expected, last + 1)


def _validate_factions(problems: list[str], factions: Mapping) -> None:
    for faction in FACTIONS:
        if faction not in factions:
            problems.append(f"factions: missing faction {faction!r}")
    for key, rec in factions.items():
        _check_fields(problems, f"factions.{key}", rec, _FACTION_REQUIRED, rec if isinstance(rec, Mapping) else ())


def _validate_economy(problems: list[str], economy: Mapping) -> None:
    _check_fields(problems, "economy", economy, _ECONOMY_REQUIRED, economy)
    for table in ("city_income", "slots", "restore_cost"):
        value = economy.get(table)
        if table in economy and not isinstance(value, Mapping):
            problems.append(f"economy.{table}: expected a table with small and large")
        elif isinstance(value, Mapping):
            for size in ("small", "large"):
                if size not in value:
                    problems.append(f"economy.{table}: missing {size!r}")
                else:
                    _check_number(problems, f"economy.{table}.{size}", value[size], "count")
    for table, key in (("roll", "min_cities"), ("penalty", "min_level")):
        rows = (economy.get("corruption") or {}).get(table, [])
        for i, row in enumerate(rows):
            if not isinstance(row, Mapping) or key not in row:
                problems.append(f"economy.corruption.{table}[{i}]: missing {key!r}")
                continue
            for name, value in row.items():
                _check_number(problems, f"economy.corruption.{table}[{i}].{name}", value, "count")


def _table(raw: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """`raw[name]` if it is a table, else an empty one (its absence is reported once, by validate_data)."""
    value = raw.get(name)
    return value if isinstance(value, Mapping) else {}


def validate_data(raw: Mapping[str, Any]) -> list[str]:
    """Every problem of a raw data set (the shape `read_raw()` returns); [] when it is consistent."""
    problems: list[str] = []
    for name in DATA_FILES:
        if not isinstance(raw.get(name), Mapping):
            problems.append(f"{name}: missing or not a table")
    units, buildings, factions_raw = _table(raw, "units"), _table(raw, "buildings"), _table(raw, "factions")
    factions = set(factions_raw) | set(FACTIONS)
    _validate_units(problems, units, buildings, factions)
    _validate_buildings(problems, units, buildings, factions)
    if isinstance(raw.get("garrisons"), Mapping):
        _validate_garrisons(problems, raw["garrisons"], units, factions, raw.get("garrison_large_multiplier", 2))
    if isinstance(raw.get("eras"), Mapping):
        _validate_eras(problems, raw["eras"])
    _validate_factions(problems, factions_raw)
    if isinstance(raw.get("economy"), Mapping):
        _validate_economy(problems, raw["economy"])
    return problems


# -- reading --------------------------------------------------------------------

def _read_toml(name: str) -> dict | None:
    resource = importlib.resources.files("engine.jade_rose").joinpath("data", f"{name}.toml")
    if not resource.is_file():
        return None
    return tomllib.loads(resource.read_text(encoding="utf-8"))


def read_raw() -> dict:
    """The data files as plain dicts, in the shape `validate_data` takes (a fresh copy each call)."""
    raw: dict[str, Any] = {}
    problems = []
    for name in DATA_FILES:
        try:
            doc = _read_toml(name)
        except tomllib.TOMLDecodeError as exc:
            problems.append(f"{name}.toml: {exc}")
            continue
        if doc is None:
            problems.append(f"{name}.toml: file missing")
            continue
        if name == "garrisons":
            raw["garrison_large_multiplier"] = doc.get("large_multiplier", 2)
        raw[name] = doc if name == "economy" else doc.get(name, {})
    if problems:
        raise DataError(problems)
    try:
        raw["battle"] = _read_toml("battle") or {}
    except tomllib.TOMLDecodeError as exc:
        raise DataError([f"battle.toml: {exc}"]) from exc
    return raw


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """A plain JSON-able copy of a frozen value (mappings to dicts, tuples to lists)."""
    if isinstance(value, Mapping):
        return {str(k): thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def build_data(raw: Mapping[str, Any]) -> JadeRoseData:
    """Validate a raw data set and turn it into frozen definitions; raises DataError with every problem."""
    problems = validate_data(raw)
    if problems:
        raise DataError(problems)
    units = {
        key: UnitDef(
            key=key, faction=r["faction"], name=r["name"], names=tuple(r.get("names", ())), tier=r["tier"],
            attack=r["attack"], hp=r["hp"], defense=r["defense"],
            cost=_freeze({res: int(r["cost"].get(res, 0)) for res in COST_KEYS}), upkeep=r["upkeep"],
            hire_buildings=tuple(r["hire_buildings"]), jade_creature=bool(r.get("jade_creature", False)),
            blood=int(r.get("blood", 1 if r["faction"] == "vampires" else 0)),
            abilities=_freeze(r.get("abilities", {})))
        for key, r in raw["units"].items()
    }
    buildings = {
        key: BuildingDef(
            key=key, faction=r["faction"], name=r["name"], tier=r["tier"], cost=r["cost"],
            sale_value=r["sale_value"], unique_per_faction=bool(r.get("unique_per_faction", False)),
            replaces=tuple(r.get("replaces", ())), upgrade_from=r.get("upgrade_from", "") or "",
            upgrade_cost=int(r.get("upgrade_cost", 0)), effects=_freeze(r.get("effects", {})),
            names=tuple(r.get("names", ())))
        for key, r in raw["buildings"].items()
    }
    garrisons = {
        faction: MappingProxyType({n: _freeze(table[f"level_{n}"]) for n in LEVELS})
        for faction, table in raw["garrisons"].items()
    }
    eras = {key: EraDef(key=key, **{f: r[f] for f in _ERA_REQUIRED}) for key, r in raw["eras"].items()}
    return JadeRoseData(
        units=MappingProxyType(units), buildings=MappingProxyType(buildings),
        garrisons=MappingProxyType(garrisons), eras=MappingProxyType(eras),
        factions=_freeze(raw["factions"]), economy=_freeze(raw["economy"]),
        battle=_freeze(raw.get("battle", {})),
        garrison_large_multiplier=int(raw.get("garrison_large_multiplier", 2)))


@functools.lru_cache(maxsize=1)
def load_data() -> JadeRoseData:
    """The package's Jade Rose data, validated (read once per process)."""
    return build_data(read_raw())


def dump_data() -> dict:
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
        "eras": {key: {f: getattr(e, f) for f in _ERA_REQUIRED} for key, e in data.eras.items()},
        "factions": thaw(data.factions),
        "economy": thaw(data.economy),
        "battle": thaw(data.battle),
    }
