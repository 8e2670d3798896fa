"""The simulator's JSON battle description -> a validated Battle (every problem at once, in Russian).

Format (see the battle issue): {"ruleset", "skip_planning", "city": {"name", "large"},
"attacker"/"defender": {"faction", "grudges", "runes", "forge_distance", "plague",
"squads": [{"flank", "line", "units": {name: count}, "manoeuvre": {"type", "flank", "line",
"free_move": {"flank", "line"}}, "garrison"}]}}. Unit names: the rule book's Russian names (case and
ё/е ignored) or unit keys; a name two factions share means the side's own faction's unit.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.deployment import BattleSpecError, build_battle
from engine.jade_rose.battle.model import Battle, Manoeuvre, Position, SideSetup, SquadSetup
from engine.jade_rose.battle.stats import UnitStats
from engine.jade_rose.battle.texts import FACTION_NOM, MANOEUVRE_NOM, ROLE_NOM
from engine.jade_rose.data import load_data, normalize_name
from engine.jade_rose.names import faction_id, find_unit

_FLANKS = {"left": "left", "l": "left", "левый": "left", "лево": "left",
           "center": "center", "centre": "center", "c": "center", "центральный": "center", "центр": "center",
           "right": "right", "r": "right", "правый": "right", "право": "right"}
_LINES = {"vanguard": "vanguard", "v": "vanguard", "авангард": "vanguard",
          "rearguard": "rearguard", "r": "rearguard", "арьергард": "rearguard"}
_MANOEUVRES = {k: k for k in MANOEUVRE_NOM if k != "free_move"}
_MANOEUVRES.update({v: k for k, v in MANOEUVRE_NOM.items() if k != "free_move"})
_MANOEUVRES.update({"": "none", "нет": "none", "move": "change_position", "defence": "defend",
                    "defense": "defend", "укрытие": "cover", "long_range": "long_range_bombard"})


def parse_spec(spec: Mapping[str, Any], data: Any = None) -> Battle:
    """Validate a battle description and build the Battle; raises BattleSpecError with every problem.

    `data` is a JadeRoseData (default: `load_data()`); tests may pass one with synthetic units.
    """
    lookup = find_unit if data is None else _local_lookup(data)
    data = data if data is not None else load_data()
    units = {key: UnitStats.from_def(u) for key, u in data.units.items()}
    constants = BattleConstants.from_mapping(getattr(data, "battle", None) or {})
    problems: list[str] = []
    if not isinstance(spec, Mapping):
        raise BattleSpecError(["Описание боя должно быть JSON-объектом с полями attacker и defender."])
    ruleset = spec.get("ruleset", "jade_rose")
    if str(ruleset).strip().lower().replace("-", "_") not in ("jade_rose", "jr"):
        problems.append(f"Поле ruleset: «{ruleset}» — здесь считается только бой «Войны Нефритовой Розы» (jade_rose).")
    skip = spec.get("skip_planning", False)
    if not isinstance(skip, bool):
        problems.append(f"Поле skip_planning должно быть true или false, а не «{skip}».")
        skip = False
    city = spec.get("city") or {}
    city_name = str(city.get("name", "")) if isinstance(city, Mapping) else ""
    sides = {}
    for role in ("attacker", "defender"):
        raw = spec.get(role)
        if not isinstance(raw, Mapping):
            problems.append(f"Нет описания стороны «{ROLE_NOM[role]}» (поле {role} с faction и squads).")
            continue
        sides[role] = _parse_side(role, raw, data, lookup, problems)
    if problems:
        raise BattleSpecError(problems)
    return build_battle(sides["attacker"], sides["defender"], units, constants=constants,
                        skip_planning=skip, city=city_name)


UnitLookup = Callable[[object, str | None], str | None]     # (name, faction) -> unit key, as find_unit


def _local_lookup(data: Any) -> UnitLookup:
    """find_unit's rules over another data set (names, spellings and keys; own faction first)."""
    index: dict[str, dict[str, str]] = {}
    for key, u in data.units.items():
        for spelling in (key, u.name, *getattr(u, "names", ())):
            index.setdefault(normalize_name(spelling), {})[u.faction] = key

    def lookup(name: object, faction: str | None = None) -> str | None:
        hits = index.get(normalize_name(str(name)), {})
        return hits.get(faction) if faction else (next(iter(hits.values())) if len(hits) == 1 else None)
    return lookup


def _parse_side(role: str, raw: Mapping[str, Any], data: Any, lookup: UnitLookup, problems: list[str]) -> SideSetup:
    who = ROLE_NOM[role].capitalize()
    faction = faction_id(str(raw.get("faction", ""))) if raw.get("faction") is not None else None
    if faction is None:
        problems.append(f"{who}: неизвестная фракция «{raw.get('faction', '')}». Допустимо: "
                        + ", ".join(f"{v} ({k})" for k, v in FACTION_NOM.items()) + ".")
        faction = ""
    grudges = _int_field(raw, "grudges", 0, f"{who}: обиды (grudges)", problems)
    runes = _int_field(raw, "runes", 0, f"{who}: руны (runes)", problems)
    forge = raw.get("forge_distance")
    if forge is not None:
        forge = _int_field(raw, "forge_distance", None, f"{who}: расстояние до Кузни (forge_distance)", problems)
    plague = raw.get("plague", False)
    if not isinstance(plague, bool):
        problems.append(f"{who}: поле plague должно быть true или false.")
        plague = False
    squads_raw = raw.get("squads", [])
    squads = []
    if not isinstance(squads_raw, list):
        problems.append(f"{who}: squads должен быть списком отрядов.")
        squads_raw = []
    for i, sq in enumerate(squads_raw, 1):
        squad = _parse_squad(role, i, sq, faction, data, lookup, problems)
        if squad is not None:
            squads.append(squad)
    return SideSetup(faction=faction, squads=tuple(squads), grudges=grudges or 0, runes=runes or 0,
                     forge_distance=forge, plague=plague)


def _parse_squad(role: str, index: int, raw: Any, faction: str, data: Any, lookup: UnitLookup,
                 problems: list[str]) -> SquadSetup | None:
    where = f"{ROLE_NOM[role].capitalize()}, отряд №{index}"
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: отряд должен быть объектом с полями flank, line, units, manoeuvre.")
        return None
    pos = _position(raw, where, problems)
    units_raw = raw.get("units")
    units: list[tuple[str, int]] = []
    if not isinstance(units_raw, Mapping) or not units_raw:
        problems.append(f"{where}: укажите юнитов отряда как {{\"Название\": число}}.")
    else:
        for name, count in units_raw.items():
            key = lookup(name, faction) if faction else None
            if key is None:
                if faction:
                    others = [k for f in FACTION_NOM if f != faction and (k := lookup(name, f))]
                    own = ", ".join(u.name for u in sorted(data.faction_units(faction), key=lambda u: u.tier))
                    if others:
                        other = data.units[others[0]]
                        problems.append(f"{where}: «{name}» — юнит фракции {FACTION_NOM.get(other.faction)}, "
                                        f"а сторона играет за {FACTION_NOM[faction]}. Допустимо: {own}.")
                    else:
                        problems.append(f"{where}: неизвестный юнит «{name}». Допустимо: {own}.")
                continue
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                problems.append(f"{where}: число юнитов «{name}» должно быть целым и больше нуля, а не «{count}».")
                continue
            units.append((key, count))
    manoeuvre = _manoeuvre(raw.get("manoeuvre"), where, problems)
    garrison = raw.get("garrison", False)
    if pos is None or manoeuvre is None or not units:
        return None
    merged: dict[str, int] = {}
    for key, n in units:
        merged[key] = merged.get(key, 0) + n
    return SquadSetup(position=pos, units=tuple(merged.items()), manoeuvre=manoeuvre, garrison=bool(garrison))


def _position(raw: Mapping[str, Any], where: str, problems: list[str], what: str = "отряда") -> Position | None:
    flank = _FLANKS.get(str(raw.get("flank", "")).strip().lower())
    line = _LINES.get(str(raw.get("line", "")).strip().lower())
    if flank is None:
        problems.append(f"{where}: фланг {what} «{raw.get('flank', '')}» не распознан. "
                        "Допустимо: left, center, right (левый, центральный, правый).")
    if line is None:
        problems.append(f"{where}: линия {what} «{raw.get('line', '')}» не распознана. "
                        "Допустимо: vanguard, rearguard (авангард, арьергард).")
    return Position(flank, line) if flank is not None and line is not None else None


def _manoeuvre(raw: Any, where: str, problems: list[str]) -> Manoeuvre | None:
    if raw is None:
        return Manoeuvre()
    if isinstance(raw, str):
        raw = {"type": raw}
    if not isinstance(raw, Mapping):
        problems.append(f"{where}: манёвр должен быть объектом {{\"type\": ..., \"flank\": ..., \"line\": ...}}.")
        return None
    kind = _MANOEUVRES.get(str(raw.get("type", "none")).strip().lower())
    if kind is None:
        problems.append(f"{where}: неизвестный манёвр «{raw.get('type')}». Допустимо: "
                        + ", ".join(f"{k} ({v})" for k, v in MANOEUVRE_NOM.items() if k != "free_move") + ".")
        return None
    target = None
    if kind in ("change_position", "defend", "charge", "bombard", "long_range_bombard"):
        if raw.get("flank") is None and raw.get("line") is None:
            problems.append(f"{where}: для манёвра «{MANOEUVRE_NOM[kind]}» укажите цель: flank и line.")
            return None
        target = _position(raw, where, problems, "цели")
        if target is None:
            return None
    free = raw.get("free_move")
    free_pos = None
    if free is not None and free is not False:
        if not isinstance(free, Mapping):
            problems.append(f"{where}: free_move — это клетка {{\"flank\": ..., \"line\": ...}} для бесплатной "
                            "смены позиции.")
            return None
        free_pos = _position(free, where, problems, "бесплатной смены позиции")
        if free_pos is None:
            return None
    return Manoeuvre(kind=kind, target=target, free_move=free_pos)


def _int_field(raw: Mapping[str, Any], key: str, default: int | None, label: str, problems: list[str]) -> int | None:
    value = raw.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{label}: нужно целое число, а не «{value}».")
        return default
    return value
