"""A new Jade Rose game from a scenario (the parsed TOML of templates/jade_rose/scenarios/*.toml).

Scenario shape:
    name = "demo"                                # optional; the state's "scenario"
    roads = [["city_a", "city_b"], ...]
    [factions.<id>]  gold = 1000, optional units = {<name or key> = n}, optional resource overrides
                     (honor, corruption, slaves, eternal_servants, runes, jade), optional name
    [cities.<id>]    name, owner (faction id or absent for a neutral city), large, level, capital,
                     optional buildings = [<name or key>], optional ruins, optional x, y (the map
                     picture's coordinates: x east, y north; numbers)
All problems are reported at once (ScenarioError.problems, Russian, one per problem).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard, cast

from engine.jade_rose.data import load_data
from engine.jade_rose.data_schema import FACTIONS, LEVELS
from engine.jade_rose.names import faction_id, find_building, find_unit
from engine.jade_rose.state_types import City, FactionRecord, JadeRoseState
from engine.russian import agree
from engine.state import SCHEMA_VERSION

RESOURCE_KEYS = {"empire": ("honor", "corruption"), "vampires": ("slaves", "eternal_servants"),
                 "dwarves": ("runes",), "jade": ("jade",)}
_FACTION_KEYS = {"gold", "units", "name"}
_CITY_KEYS = {"name", "owner", "large", "level", "capital", "buildings", "ruins", "x", "y"}


class ScenarioError(ValueError):
    """The scenario cannot start a game; `.problems` lists every problem (Russian)."""

    def __init__(self, problems: list[str]):
        self.problems = list(problems)
        super().__init__("Сценарий содержит ошибки:\n- " + "\n- ".join(self.problems))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _faction_record(fid: str, spec: Mapping[str, Any], present: list[str], problems: list[str]) -> FactionRecord:
    data = load_data()
    consts = data.factions[fid]
    where = f"Фракция «{fid}»"
    for key in sorted(set(spec) - _FACTION_KEYS - set(RESOURCE_KEYS[fid])):
        allowed = ", ".join(sorted(_FACTION_KEYS | set(RESOURCE_KEYS[fid])))
        problems.append(f"{where}: неизвестный параметр «{key}» (допустимо: {allowed}).")
    gold = spec.get("gold")
    if not _is_int(gold):
        problems.append(f"{where}: укажите стартовое золото целым числом (gold = 1000), а не {gold!r}.")
        gold = 0
    elif gold < 0:
        problems.append(f"{where}: стартовое золото не может быть отрицательным ({gold}).")
    rec: dict[str, Any] = {"name": str(spec.get("name") or consts["name"]), "gold": gold,
                           "eliminated": False, "won": False, "units": {}}
    starts = {"honor": consts.get("start_honor", 0), "corruption": consts.get("start_corruption", 0),
              "slaves": consts.get("start_slaves", 0), "eternal_servants": 0,
              "runes": consts.get("start_runes", 0), "jade": consts.get("start_jade", 0)}
    for key in RESOURCE_KEYS[fid]:
        value = spec.get(key, starts[key])
        if not _is_int(value) or value < 0:
            problems.append(f"{where}: «{key}» должно быть целым числом не меньше нуля, а не {value!r}.")
            value = 0
        rec[key] = value
    if fid == "empire":
        rec["first_builds"] = []
    elif fid == "vampires":
        rec["hibernating"] = {}
    elif fid == "dwarves":
        rec["grudges"] = {other: 0 for other in present if other != fid}
        rec["investment"] = 0
    units = spec.get("units", {})
    if not isinstance(units, Mapping):
        problems.append(f"{where}: units должно быть таблицей «юнит = количество».")
        units = {}
    for name, n in units.items():
        unit = find_unit(name, fid)
        if unit is None:
            problems.append(f"{where}: неизвестный юнит «{name}» (юниты фракции: "
                            f"{', '.join(u.name for u in data.faction_units(fid))}).")
        elif not _is_int(n) or n <= 0:
            problems.append(f"{where}: количество юнитов «{name}» должно быть целым числом больше нуля, а не {n!r}.")
        else:
            rec["units"][unit] = rec["units"].get(unit, 0) + n
    if fid == "vampires":
        blood = sum(data.units[k].blood * n for k, n in rec["units"].items())
        per = int(consts.get("slaves_per_unit", 15))
        if blood * per > rec["slaves"] + rec["eternal_servants"]:
            problems.append(f"{where}: стартовым вампирам нужно {agree(blood * per, 'раб')} на кровь, "
                            f"а рабов {rec['slaves'] + rec['eternal_servants']}.")
    return cast(FactionRecord, dict(sorted(rec.items())))     # every key of its faction, checked above


def _city_record(cid: str, spec: Any, factions: set[str], problems: list[str]) -> City | None:
    data = load_data()
    where = f"Город «{cid}»"
    if not isinstance(spec, Mapping):
        problems.append(f"{where}: ожидается таблица [cities.{cid}].")
        return None
    for key in sorted(set(spec) - _CITY_KEYS):
        problems.append(f"{where}: неизвестный параметр «{key}» (допустимо: {', '.join(sorted(_CITY_KEYS))}).")
    name = spec.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(f"{where}: не указано название (name = \"…\").")
        name = cid
    owner = spec.get("owner") or None
    if owner is not None:
        fid = faction_id(owner)
        if fid is None:
            problems.append(f"{where}: неизвестный владелец «{owner}» (фракции: {', '.join(FACTIONS)}).")
        elif fid not in factions:
            problems.append(f"{where}: владелец «{owner}» не участвует в сценарии (добавьте [factions.{fid}]).")
        owner = fid if fid in factions else None
    level = spec.get("level", 1)
    if not _is_int(level) or level not in LEVELS:
        problems.append(f"{where}: уровень должен быть 1, 2 или 3, а не {level!r}.")
        level = 1
    large = spec.get("large", False)
    capital = spec.get("capital", False)
    ruins = spec.get("ruins", False)
    for flag, value in (("large", large), ("capital", capital), ("ruins", ruins)):
        if not isinstance(value, bool):
            problems.append(f"{where}: «{flag}» должно быть true или false, а не {value!r}.")
    buildings: list[str] = []
    raw_buildings = spec.get("buildings", [])
    if not isinstance(raw_buildings, list):
        problems.append(f"{where}: buildings должно быть списком построек.")
        raw_buildings = []
    for bname in raw_buildings:
        key = find_building(bname, owner) if owner else None
        if key is None:
            problems.append(f"{where}: постройка «{bname}» не подходит владельцу «{owner or 'нет'}».")
        elif data.buildings[key].tier > level:
            problems.append(f"{where}: «{data.buildings[key].name}» {data.buildings[key].tier}-го уровня "
                            f"в городе {level}-го уровня.")
        elif key in buildings:
            problems.append(f"{where}: постройка «{data.buildings[key].name}» указана дважды.")
        else:
            buildings.append(key)
    place = {axis: spec[axis] for axis in ("x", "y") if axis in spec}
    for axis, value in place.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            problems.append(f"{where}: координата {axis} должна быть числом, а не {value!r}.")
    city: City = {"name": name.strip(), "owner": owner, "large": large is True, "level": level,
                  "buildings": buildings, "capital": capital is True, "ruins": ruins is True, "no_income_turns": 0}
    city.update(place)      # type: ignore[typeddict-item]  # x and y: numbers, checked above
    return city


def new_game(scenario: Mapping[str, Any]) -> JadeRoseState:
    """Initial state of a Jade Rose game; raises ScenarioError listing every problem."""
    data = load_data()
    problems: list[str] = []
    raw_factions = scenario.get("factions")
    if not isinstance(raw_factions, Mapping) or not raw_factions:
        problems.append("Нет ни одной фракции: добавьте таблицы [factions.empire] и т. д.")
        raw_factions = {}
    present: list[str] = []
    specs: dict[str, Mapping[str, Any]] = {}
    for name, spec in raw_factions.items():
        fid = faction_id(name)
        if fid is None:
            problems.append(f"Неизвестная фракция «{name}» (допустимо: {', '.join(FACTIONS)}).")
        elif fid in specs:
            problems.append(f"Фракция «{fid}» указана дважды.")
        elif not isinstance(spec, Mapping):
            problems.append(f"Фракция «{fid}»: ожидается таблица [factions.{fid}].")
        else:
            specs[fid] = spec
    present = [f for f in FACTIONS if f in specs]
    factions = {fid: _faction_record(fid, specs[fid], present, problems) for fid in present}

    raw_cities = scenario.get("cities")
    if not isinstance(raw_cities, Mapping) or not raw_cities:
        problems.append("Нет ни одного города: добавьте таблицы [cities.<id>].")
        raw_cities = {}
    cities: dict[str, City] = {}
    for cid, spec in raw_cities.items():
        rec = _city_record(str(cid), spec, set(present), problems)
        if rec is not None:
            cities[str(cid)] = rec
    seen_names: dict[str, str] = {}
    for cid, city in cities.items():
        norm = city["name"].lower().replace("ё", "е")
        if norm in seen_names:
            problems.append(f"Города «{seen_names[norm]}» и «{cid}» названы одинаково: «{city['name']}».")
        seen_names[norm] = cid

    for fid in present:
        own = [cid for cid, c in cities.items() if c["owner"] == fid]
        capitals = [cid for cid in own if cities[cid]["capital"]]
        if not own:
            problems.append(f"У фракции «{fid}» нет ни одного города: ей нечем играть.")
        elif len(capitals) != 1:
            problems.append(f"У фракции «{fid}» должна быть ровно одна столица (capital = true), "
                            f"а их {len(capitals)}.")
        for cid in capitals:
            if cities[cid]["ruins"]:
                problems.append(f"Столица «{cid}» не может быть руинами.")
            start = data.factions[fid].get("capital_building")
            if start and start not in cities[cid]["buildings"]:
                cities[cid]["buildings"].insert(0, start)  # JR-89: the forge stands in the capital from the start
    for cid, city in cities.items():
        slots = int(data.economy["slots"]["large" if city["large"] else "small"])
        if len(city["buildings"]) > slots:
            problems.append(f"Город «{cid}»: {agree(len(city['buildings']), 'постройка')} "
                            f"при {agree(slots, 'слот', 'loct')} "
                            "(у столицы Нефритового двора одно место занимает Великая Кузня).")
        if city["ruins"] and city["buildings"]:
            problems.append(f"Город «{cid}»: в руинах не бывает построек.")
        if city["owner"] is None and city["capital"]:
            problems.append(f"Город «{cid}»: столица без владельца.")

    roads: set[tuple[str, str]] = set()
    raw_roads = scenario.get("roads", [])
    if not isinstance(raw_roads, list):
        problems.append("roads должно быть списком пар городов: roads = [[\"a\", \"b\"], …].")
        raw_roads = []
    for road in raw_roads:
        if not isinstance(road, (list, tuple)) or len(road) != 2 or not all(isinstance(c, str) for c in road):
            problems.append(f"Дорога {road!r}: ожидается пара идентификаторов городов.")
            continue
        a, b = road
        for end in (a, b):
            if end not in raw_cities:
                problems.append(f"Дорога {a} — {b}: города «{end}» нет в сценарии.")
        if a == b:
            problems.append(f"Дорога {a} — {b} ведёт из города в него же.")
        elif a in raw_cities and b in raw_cities:
            roads.add((min(a, b), max(a, b)))
    if problems:
        raise ScenarioError(problems)
    return {
        "schema_version": SCHEMA_VERSION,
        "ruleset": "jade_rose",
        "scenario": str(scenario.get("name", "")),
        "turn": 1,
        "stage": "orders",
        "era": data.era_for_turn(1).key,
        "factions": factions,
        "cities": dict(sorted(cities.items())),
        "roads": [list(r) for r in sorted(roads)],
        "ledger": [],
        "log": [],
    }
