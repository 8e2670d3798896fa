"""The schema of the Jade Rose data files (`data/SCHEMA.md`) and their validator.

`validate_data(raw)` lists every problem of a raw data set in Russian, each starting with the path
of the value in the files (`units.empire_knight.attack: отрицательное число -3`), so a GM who edited
a number sees all mistakes at once.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cells import normalize_name
from engine.datafiles import Problems, is_int

FACTIONS = ("empire", "vampires", "dwarves", "jade")
COST_KEYS = ("gold", "honor", "jade")
DATA_FILES = ("units", "buildings", "garrisons", "eras", "factions", "economy")
LEVELS = (1, 2, 3)

_INT, _BOOL, _STR = "int", "bool", "str"
_TABLE_SPECS: dict[str, dict[str, str]] = {
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
    "enemy_melee_outgoing_pct": "pct",
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
UNIT_REQUIRED = ("faction", "name", "tier", "attack", "hp", "defense", "cost", "upkeep", "hire_buildings")
UNIT_OPTIONAL = ("names", "jade_creature", "blood", "abilities")
BUILDING_REQUIRED = ("faction", "name", "tier", "cost", "sale_value")
BUILDING_OPTIONAL = ("names", "unique_per_faction", "replaces", "upgrade_from", "upgrade_cost", "effects")
ERA_REQUIRED = ("name", "first_turn", "last_turn", "max_city_level", "max_armies", "gift_gold",
                "gold_multiplier", "resource_multiplier")
FACTION_REQUIRED = ("name", "resource")
ECONOMY_REQUIRED = ("max_city_level", "city_income", "slots", "restore_cost", "sale_pct")
_SIZES = ("small", "large")
_LEVEL_TABLES = tuple(f"level_{n}" for n in LEVELS)


def _count(p: Problems, where: str, value: Any, kind: str = "count") -> bool:
    """A whole number >= 0 ("count") or >= 1 ("pos")."""
    return p.integer(where, value, minimum=1 if kind == "pos" else 0)


def _level(p: Problems, where: str, value: Any, what: str) -> None:
    if not is_int(value) or value not in LEVELS:
        p.add(where, f"{what} может быть только 1, 2 или 3, а не {value!r}")


def _list(p: Problems, where: str, value: Any, what: str) -> list[Any]:
    """The items of a TOML array (a reported problem and [] for anything else)."""
    if isinstance(value, (list, tuple)):
        return list(value)
    p.add(where, f"ожидается список {what}, а не {value!r}")
    return []


def _unit_ref(p: Problems, where: str, ref: Any, units: Mapping[str, Any], faction: str) -> None:
    if not isinstance(ref, str) or ref not in units:
        p.add(where, f"нет такого юнита {ref!r}")
    elif isinstance(units[ref], Mapping) and units[ref].get("faction") != faction:
        p.add(where, f"юнит {ref!r} — из фракции {units[ref].get('faction')}, а здесь нужна фракция {faction}")


def _building_ref(p: Problems, where: str, ref: Any, buildings: Mapping[str, Any], faction: Any) -> None:
    if not isinstance(ref, str) or ref not in buildings:
        p.add(where, f"нет такой постройки {ref!r}")
    elif isinstance(buildings[ref], Mapping) and buildings[ref].get("faction") != faction:
        p.add(where, f"постройка {ref!r} — из фракции {buildings[ref].get('faction')}, а не {faction}")


def _value(p: Problems, where: str, value: Any, kind: str, units: Mapping[str, Any], faction: str,
           ability: str = "") -> None:
    """One ability or effect value of the given kind."""
    if kind == _BOOL:
        p.boolean(where, value)
    elif kind == _STR:
        p.text(where, value)
    elif kind in ("count", "pos"):
        _count(p, where, value, kind)
    elif kind == "pct":
        p.integer(where, value)
    elif kind == "scope":
        p.choice(where, value, ("all", "ranged"))
    elif kind == "table":
        spec = _TABLE_SPECS[ability]
        if p.fields(where, value, spec):
            for sub, sub_kind in spec.items():
                if sub in value:
                    _value(p, f"{where}.{sub}", value[sub], _BOOL if sub_kind == _BOOL else "count", units, faction)
    elif kind == "units":
        for ref in _list(p, where, value, "ключей юнитов"):
            _unit_ref(p, where, ref, units, faction)
    elif kind == "unit_counts":
        if not isinstance(value, Mapping):
            p.add(where, f"ожидается таблица «ключ юнита = количество», а не {value!r}")
            return
        for ref, n in value.items():
            _unit_ref(p, where, ref, units, faction)
            _count(p, f"{where}.{ref}", n, "pos")
    elif kind == "fraction":
        if (not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_int(v) for v in value)
                or value[1] <= 0 or value[0] < 0):
            p.add(where, f"ожидается дробь [числитель, знаменатель] со знаменателем больше 0, а не {value!r}")
    elif kind == "dice":
        if not isinstance(value, Mapping) or set(value) != {"dice", "plus"}:
            p.add(where, f"ожидается бросок {{ dice = N, plus = M }}, а не {value!r}")
        else:
            _count(p, f"{where}.dice", value["dice"], "pos")
            _count(p, f"{where}.plus", value["plus"])


def _names(p: Problems, kind: str, records: Mapping[str, Any]) -> None:
    """No two records of one faction may share a (normalised) name or accepted spelling."""
    seen: dict[tuple[Any, str], str] = {}   # (faction, normalised spelling) -> record key
    for key, rec in records.items():
        if not isinstance(rec, Mapping):
            continue
        extra = _list(p, f"{kind}.{key}.names", rec["names"], "названий") if "names" in rec else []
        for spelling in [rec.get("name", ""), *extra]:
            if not isinstance(spelling, str) or not spelling.strip():
                p.add(f"{kind}.{key}", f"название должно быть непустым текстом, а не {spelling!r}")
                continue
            place = (rec.get("faction"), normalize_name(spelling))
            other = seen.get(place)
            if other is not None and other != key:
                p.add(f"{kind}.{key}", f"название «{spelling}» уже есть у {kind}.{other} "
                                       f"(фракция {rec.get('faction')})")
            seen[place] = key


def _owner(p: Problems, where: str, key: str, rec: Mapping[str, Any], factions: set[str]) -> None:
    """The record's faction is known and its key starts with `<faction>_`; its tier is 1-3."""
    faction = rec.get("faction")
    if "faction" in rec and p.choice(f"{where}.faction", faction, sorted(factions)) \
            and not key.startswith(f"{faction}_"):
        p.add(where, f"ключ записи фракции {faction} должен начинаться с «{faction}_»")
    if "tier" in rec:
        _level(p, f"{where}.tier", rec["tier"], "уровень")


def _validate_units(p: Problems, units: Mapping[str, Any], buildings: Mapping[str, Any],
                    factions: set[str]) -> None:
    for key, rec in units.items():
        where = f"units.{key}"
        if not p.fields(where, rec, UNIT_REQUIRED, UNIT_OPTIONAL):
            continue
        faction = rec.get("faction")
        _owner(p, where, key, rec, factions)
        for field in ("attack", "defense", "upkeep", "blood"):
            if field in rec:
                _count(p, f"{where}.{field}", rec[field])
        if "hp" in rec:
            _count(p, f"{where}.hp", rec["hp"], "pos")
        if "jade_creature" in rec:
            p.boolean(f"{where}.jade_creature", rec["jade_creature"])
        cost = rec.get("cost", {})
        if p.table(f"{where}.cost", cost):
            for res, amount in cost.items():
                if res not in COST_KEYS:
                    p.add(f"{where}.cost", f"неизвестный ресурс {res!r}; допустимо: {', '.join(COST_KEYS)}")
                _count(p, f"{where}.cost.{res}", amount)
        for ref in _list(p, f"{where}.hire_buildings", rec.get("hire_buildings", []), "ключей построек"):
            _building_ref(p, f"{where}.hire_buildings", ref, buildings, faction)
        abilities = rec.get("abilities", {})
        if not p.table(f"{where}.abilities", abilities):
            continue
        for ability, value in abilities.items():
            kind = ABILITY_KEYS.get(ability)
            if kind is None:
                p.add(f"{where}.abilities", f"неизвестная способность {ability!r} (список способностей — "
                                            "в engine/jade_rose/data/SCHEMA.md)")
            else:
                _value(p, f"{where}.abilities.{ability}", value, kind, units, faction, ability)
    _names(p, "units", units)


def _unlocks(building: Mapping[str, Any]) -> list[Any]:
    effects = building.get("effects", {})
    listed = effects.get("unlocks_units", []) if isinstance(effects, Mapping) else []
    return list(listed) if isinstance(listed, (list, tuple)) else []


def _hires(unit: Mapping[str, Any]) -> list[Any]:
    listed = unit.get("hire_buildings", [])
    return list(listed) if isinstance(listed, (list, tuple)) else []


def _validate_buildings(p: Problems, units: Mapping[str, Any], buildings: Mapping[str, Any],
                        factions: set[str]) -> None:
    for key, rec in buildings.items():
        where = f"buildings.{key}"
        if not p.fields(where, rec, BUILDING_REQUIRED, BUILDING_OPTIONAL):
            continue
        faction = rec.get("faction")
        _owner(p, where, key, rec, factions)
        for field in ("cost", "sale_value", "upgrade_cost"):
            if field in rec:
                _count(p, f"{where}.{field}", rec[field])
        if "unique_per_faction" in rec:
            p.boolean(f"{where}.unique_per_faction", rec["unique_per_faction"])
        for ref in _list(p, f"{where}.replaces", rec.get("replaces", []), "ключей построек"):
            _building_ref(p, f"{where}.replaces", ref, buildings, faction)
        if rec.get("upgrade_from"):
            _building_ref(p, f"{where}.upgrade_from", rec["upgrade_from"], buildings, faction)
        effects = rec.get("effects", {})
        if not p.table(f"{where}.effects", effects):
            continue
        for effect, value in effects.items():
            kind = EFFECT_KEYS.get(effect)
            if kind is None:
                p.add(f"{where}.effects", f"неизвестный эффект {effect!r} (список эффектов — "
                                          "в engine/jade_rose/data/SCHEMA.md)")
            else:
                _value(p, f"{where}.effects.{effect}", value, kind, units, faction)
    _names(p, "buildings", buildings)
    # unlocks_units (buildings) and hire_buildings (units) are two views of one relation.
    for ukey, unit in units.items():
        if isinstance(unit, Mapping):
            for bkey in _hires(unit):
                building = buildings.get(bkey) if isinstance(bkey, str) else None
                if isinstance(building, Mapping) and ukey not in _unlocks(building):
                    p.add(f"units.{ukey}.hire_buildings", f"указана постройка {bkey!r}, но в "
                                                          f"buildings.{bkey}.effects.unlocks_units нет {ukey!r}")
    for bkey, building in buildings.items():
        if isinstance(building, Mapping):
            for ukey in _unlocks(building):
                unit = units.get(ukey) if isinstance(ukey, str) else None
                if isinstance(unit, Mapping) and bkey not in _hires(unit):
                    p.add(f"buildings.{bkey}.effects.unlocks_units", f"указан юнит {ukey!r}, но в "
                                                                     f"units.{ukey}.hire_buildings нет {bkey!r}")


def _validate_garrisons(p: Problems, garrisons: Mapping[str, Any], units: Mapping[str, Any],
                        factions: set[str], multiplier: Any) -> None:
    _count(p, "garrisons.large_multiplier", multiplier, "pos")
    for faction in sorted(factions - set(garrisons)):
        p.add("garrisons", f"нет гарнизонов фракции {faction!r}")
    for faction, table in garrisons.items():
        where = f"garrisons.{faction}"
        if faction not in factions:
            p.add(where, f"неизвестная фракция; допустимо: {', '.join(sorted(factions))}")
        if not p.table(where, table):
            continue
        for name in sorted(set(_LEVEL_TABLES) - set(table)):
            p.add(where, f"нет таблицы {name!r}")
        for name in sorted(set(table) - set(_LEVEL_TABLES)):
            p.add(where, f"неизвестный уровень {name!r}; допустимо: {', '.join(_LEVEL_TABLES)}")
        for name in sorted(set(_LEVEL_TABLES) & set(table)):
            _value(p, f"{where}.{name}", table[name], "unit_counts", units, faction)


def _validate_eras(p: Problems, eras: Mapping[str, Any]) -> None:
    if not eras:
        p.add("eras", "не задано ни одной эпохи")
        return
    spans = []
    for key, rec in eras.items():
        where = f"eras.{key}"
        if not p.fields(where, rec, ERA_REQUIRED):
            continue
        if "name" in rec:
            p.text(f"{where}.name", rec["name"])
        for field in ERA_REQUIRED[1:]:
            if field in rec:
                _count(p, f"{where}.{field}", rec[field])
        level = rec.get("max_city_level")
        if is_int(level) and level >= 0:
            _level(p, f"{where}.max_city_level", level, "наибольший уровень города")
        first, last = rec.get("first_turn"), rec.get("last_turn")
        if is_int(first) and is_int(last):
            if last < first:
                p.add(where, f"последний ход эпохи (last_turn = {last}) раньше первого (first_turn = {first})")
            spans.append((first, last, key))
    expected = 1
    for first, last, key in sorted(spans):
        if first != expected:
            p.add(f"eras.{key}", f"начинается с хода {first}, а должна с хода {expected} "
                                 "(эпохи идут подряд, без пропусков и наложений)")
        expected = max(expected, last + 1)


def _validate_factions(p: Problems, factions: Mapping[str, Any]) -> None:
    for faction in FACTIONS:
        if faction not in factions:
            p.add("factions", f"нет фракции {faction!r}")
    for key, rec in factions.items():
        p.fields(f"factions.{key}", rec, FACTION_REQUIRED, rec if isinstance(rec, Mapping) else ())


def _validate_economy(p: Problems, economy: Mapping[str, Any]) -> None:
    p.fields("economy", economy, ECONOMY_REQUIRED, economy)
    for table in ("city_income", "slots", "restore_cost"):
        value: Any = economy.get(table)
        if table in economy and p.fields(f"economy.{table}", value, _SIZES, value):
            for size in _SIZES:
                if size in value:
                    _count(p, f"economy.{table}.{size}", value[size])
    corruption = economy.get("corruption", {})
    if not p.table("economy.corruption", corruption):
        return
    for table, key in (("roll", "min_cities"), ("penalty", "min_level")):
        for i, row in enumerate(_list(p, f"economy.corruption.{table}", corruption.get(table, []), "строк")):
            where = f"economy.corruption.{table}[{i}]"
            if p.fields(where, row, (key,), row):
                for name, value in row.items():
                    _count(p, f"{where}.{name}", value)


def _table(raw: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    """`raw[name]` if it is a table, else an empty one (its absence is reported once, by validate_data)."""
    value = raw.get(name)
    return value if isinstance(value, Mapping) else {}


def validate_data(raw: Mapping[str, Any]) -> list[str]:
    """Every problem of a raw data set (the shape `data.read_raw()` returns); [] when it is consistent."""
    p = Problems()
    for name in DATA_FILES:
        if not isinstance(raw.get(name), Mapping):
            p.add(name, f"нет данных или это не таблица (файл {name}.toml)")
    units, buildings, factions_raw = _table(raw, "units"), _table(raw, "buildings"), _table(raw, "factions")
    factions = set(factions_raw) | set(FACTIONS)
    _validate_units(p, units, buildings, factions)
    _validate_buildings(p, units, buildings, factions)
    if isinstance(raw.get("garrisons"), Mapping):
        _validate_garrisons(p, raw["garrisons"], units, factions, raw.get("garrison_large_multiplier", 2))
    if isinstance(raw.get("eras"), Mapping):
        _validate_eras(p, raw["eras"])
    _validate_factions(p, factions_raw)
    if isinstance(raw.get("economy"), Mapping):
        _validate_economy(p, raw["economy"])
    return p.items
