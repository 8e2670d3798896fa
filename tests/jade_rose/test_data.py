"""Jade Rose data files (data.py, data_schema.py) against the rule book's own text, the validating loader, the
dump.

One module: every number of the data files is checked against the rule book's sentence in one table per file."""
from __future__ import annotations

import copy
import json
import re
import tomllib

import pytest

from engine.datafiles import DataError
from engine.jade_rose.data import build_data, dump_data, load_data, read_raw
from engine.jade_rose.data_schema import validate_data
from engine.jade_rose.names import find_building, find_unit
from tests.paths import REPO, SHARED

SEED = SHARED / "seeds" / "000_d4955973ee03e561.txt"
DATA_DIR = REPO / "engine" / "jade_rose" / "data"
FACTION_ORDER = ("empire", "vampires", "dwarves", "jade")   # order of the faction blocks in the seed
DEFAULT_MARK = "# default: not in the rule book"


def seed_lines() -> list[str]:
    if not SEED.is_file():
        pytest.skip(f"rule book seed not found at {SEED}")
    return SEED.read_text(encoding="utf-8").splitlines()


def seed_sections(heading: tuple[str, ...], stop: tuple[str, ...]) -> dict[str, list[str]]:
    """The lines of each faction's section starting at `heading`, up to a line in `stop` (or a blank line)."""
    lines = seed_lines()
    starts = [i for i, line in enumerate(lines) if line.strip() in heading]
    assert len(starts) == 4, f"expected 4 sections {heading}, found {len(starts)}"
    out = {}
    for faction, start in zip(FACTION_ORDER, starts, strict=True):
        block = []
        for line in lines[start + 1:]:
            if line.strip() in stop or (not line.strip() and block and "stop_blank" in stop):
                break
            block.append(line)
        out[faction] = block
    return out


UNIT_LINE = re.compile(r"^-?\s*(?P<name>[^:]+?)\s*(?::|\s-\s)\s*(?P<atk>\d+) атаки(?: \([^)]*\))?, "
                       r"(?P<hp>\d+) здоровья, (?P<df>\d+) защиты(?P<rest>.*)$")
UPKEEP = re.compile(r"(\d+)з/ход")
COST = re.compile(r"(\d+)\s*([зчн])(?![а-яё/])(?:\s*\+\s*(\d+)\s*([зчн])(?![а-яё/]))?")
RES = {"з": "gold", "ч": "honor", "н": "jade"}


def seed_units() -> list[dict]:
    """Every unit line of the seed with its numbers, e.g. «- Копейщик: 6 атаки, 20 здоровья, 1 защиты, 15з, 5з/ход»."""
    units = []
    for faction, block in seed_sections(("ЮНИТЫ",), ("ГАРНИЗОН", "ГАРНИЗОНЫ")).items():
        for line in block:
            m = UNIT_LINE.match(line.strip())
            if not m:
                continue
            rest = m["rest"]
            upkeep = UPKEEP.search(rest)
            cost_text = UPKEEP.sub("", rest)
            cost_match = COST.search(cost_text)
            cost = None
            if cost_match:
                cost = {"gold": 0, "honor": 0, "jade": 0}
                cost[RES[cost_match[2]]] += int(cost_match[1])
                if cost_match[3]:
                    cost[RES[cost_match[4]]] += int(cost_match[3])
            units.append({"faction": faction, "name": m["name"], "attack": int(m["atk"]), "hp": int(m["hp"]),
                          "defense": int(m["df"]), "cost": cost,
                          "upkeep": int(upkeep[1]) if upkeep else None, "line": line})
    return units


def toml_record_lines(file: str, table: str, key: str) -> list[str]:
    """The raw lines of one [table.key] record of a data file (up to the next record)."""
    lines = (DATA_DIR / f"{file}.toml").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"[{table}.{key}]")
    out = []
    for line in lines[start + 1:]:
        if line.startswith(f"[{table}.") and not line.startswith(f"[{table}.{key}."):
            break
        out.append(line)
    return out


BUILDING_LINE = re.compile(r"^(?P<name>[^(—]+?) \((?P<cost>\d+)з\)\s*[-:]\s*(?P<text>.*)$")


def seed_buildings() -> list[dict]:
    """Every «Барак (150з) - …» line of the four ПОСТРОЙКИ sections, with its tier heading."""
    out = []
    for faction, block in seed_sections(("ПОСТРОЙКИ",), ("stop_blank",)).items():
        tier = 0
        for line in block:
            heading = re.match(r"^(\d) уровень$", line.strip())
            if heading:
                tier = int(heading[1])
                continue
            m = BUILDING_LINE.match(line.strip())
            if m:
                out.append({"faction": faction, "tier": tier, "name": m["name"], "cost": int(m["cost"]),
                            "text": m["text"]})
    return out


# -- presence -------------------------------------------------------------------

def test_every_unit_building_and_garrison_of_the_book_is_present():
    """44 units (Empire 12, Vampires 8, Dwarves 13, Jade 11), 47 buildings (12, 13, 13, 9), 4×3 garrisons."""
    data = load_data()
    units = {f: len(data.faction_units(f)) for f in FACTION_ORDER}
    buildings = {f: len(data.faction_buildings(f)) for f in FACTION_ORDER}
    assert units == {"empire": 12, "vampires": 8, "dwarves": 13, "jade": 11}
    assert buildings == {"empire": 12, "vampires": 13, "dwarves": 13, "jade": 9}
    assert len(data.units) == 44 and len(data.buildings) == 47
    assert sorted(data.garrisons) == sorted(FACTION_ORDER)
    assert all(sorted(table) == [1, 2, 3] for table in data.garrisons.values())


# -- numbers against the seed -------------------------------------------------

def test_unit_numbers_match_the_rule_book_lines():
    """Each «- Копейщик: 6 атаки, 20 здоровья, 1 защиты, 15з, 5з/ход» line: attack, hp, defence, cost, upkeep."""
    data = load_data()
    parsed = seed_units()
    assert len(parsed) == 44
    seen = set()
    for unit in parsed:
        key = find_unit(unit["name"], unit["faction"])
        assert key is not None, f"no unit for the book name {unit['name']!r} ({unit['faction']})"
        seen.add(key)
        u = data.units[key]
        assert (u.attack, u.hp, u.defense) == (unit["attack"], unit["hp"], unit["defense"]), unit["line"]
        if unit["cost"] is not None:
            assert dict(u.cost) == unit["cost"], unit["line"]
        if unit["upkeep"] is not None:
            assert u.upkeep == unit["upkeep"], unit["line"]
    assert seen == set(data.units)


def test_numbers_missing_from_the_book_are_marked_defaults():
    """Colossus, dragon, jade guard upkeep and the summoned units' cost are not in the book: I1, marked."""
    data = load_data()
    for unit in seed_units():
        key = find_unit(unit["name"], unit["faction"])
        record = toml_record_lines("units", "units", key)
        if unit["upkeep"] is None:
            assert data.units[key].upkeep == 0
            assert any(line.startswith("upkeep") and DEFAULT_MARK in line for line in record), key
        if unit["cost"] is None:
            assert sum(data.units[key].cost.values()) == 0
            assert any(line.startswith("cost") and DEFAULT_MARK in line for line in record), key
    missing = {find_unit(u["name"], u["faction"]) for u in seed_units() if u["upkeep"] is None or u["cost"] is None}
    assert missing == {"jade_colossus", "jade_dragon", "jade_guard", "dwarves_fragulex",
                       "dwarves_beer_elemental", "dwarves_avenger_hero"}


def test_building_tiers_and_costs_match_the_rule_book():
    """«Барак (150з) - …» under «1 уровень»: tier and cost; sale value half the cost, 0 for summon buildings."""
    data = load_data()
    parsed = seed_buildings()
    assert len(parsed) == 47
    for rec in parsed:
        key = find_building(rec["name"], rec["faction"])
        assert key is not None, rec["name"]
        b = data.buildings[key]
        assert (b.tier, b.cost) == (rec["tier"], rec["cost"]), rec
        summons = "не дается денег" in rec["text"]
        assert b.sale_value == (0 if summons else rec["cost"] // 2), rec
        assert bool(b.effects.get("summons")) == summons


def test_building_effects_match_the_rule_book():
    """Income («+50з к доходу города», «увеличивает доход города на 25з»), honor («+5ч в ход») and
    garrison bonuses («+4 копейщика к гарнизону») of every building, read from the seed text."""
    data = load_data()
    for rec in seed_buildings():
        b = data.buildings[find_building(rec["name"], rec["faction"])]
        text = rec["text"]
        income = re.search(r"\+(\d+)з? к доходу города|доход города на (\d+)з", text)
        assert b.effects.get("income", 0) == (int(income[1] or income[2]) if income else 0), rec["name"]
        honor = re.search(r"\+(\d+)ч в ход", text)
        assert b.effects.get("honor_per_turn", 0) == (int(honor[1]) if honor else 0), rec["name"]
        garrison = {}
        bonus = re.search(r"((?:\+\d+ [^,+]+?(?: и )?)+) к гарнизону", text)
        if bonus:
            for n, name in re.findall(r"\+(\d+) ([^+]+?)(?: и |$)", bonus[1]):
                key = find_unit(name, rec["faction"])
                assert key is not None, f"{name!r} in {rec['name']}"
                garrison[key] = int(n)
        assert dict(b.effects.get("garrison", {})) == garrison, rec["name"]
        limit = re.search(r"\+(\d+) к лимиту покупки нефрита", text)
        assert b.effects.get("jade_limit", 0) == (int(limit[1]) if limit else 0), rec["name"]
        cap = re.search(r"\+(\d+) к максимуму рабов", text)
        assert b.effects.get("slave_cap", 0) == (int(cap[1]) if cap else 0), rec["name"]


def test_garrisons_match_the_rule_book():
    """«1 уровень: 10 копейщиков, 6 лучников, 3 всадника» etc.; the stray «Камнемёт — 2» is a duplicate."""
    data = load_data()
    sections = seed_sections(("ГАРНИЗОН", "ГАРНИЗОНЫ"), ("ПОСТРОЙКИ",))
    for faction, block in sections.items():
        level = 0
        found = {}
        for line in block:
            heading = re.match(r"^(\d) уровень:?$", line.strip())
            if heading:
                level = int(heading[1])
            elif re.match(r"^\d", line.strip()) and level:
                units = {}
                for n, name in re.findall(r"(\d+) ([^,]+)", line):
                    key = find_unit(name.strip(), faction)
                    assert key is not None, f"{name!r} ({faction})"
                    units[key] = int(n)
                found[level] = units
        assert {lvl: dict(t) for lvl, t in data.garrisons[faction].items()} == found, faction
    assert data.garrison_large_multiplier == 2


def test_eras_match_the_rule_book():
    """«Сумерки (1-2 ход): максимальный уровень поселений - первый, максимальное число армий - 1» …"""
    data = load_data()
    expected = {1: ("twilight", 1, 1), 2: ("twilight", 1, 1), 3: ("dawn", 2, 2), 4: ("dawn", 2, 2),
                5: ("day", 3, 2), 6: ("day", 3, 2), 7: ("sunset", 3, 3), 8: ("sunset", 3, 3), 9: ("midnight", 3, 3)}
    for turn, (key, level, armies) in expected.items():
        era = data.era_for_turn(turn)
        assert (era.key, era.max_city_level, era.max_armies) == (key, level, armies), turn
    assert data.eras["dawn"].gift_gold == 600 and data.eras["day"].gift_gold == 1000
    assert data.eras["sunset"].gold_multiplier == 2 and data.eras["sunset"].resource_multiplier == 2
    assert data.era_for_turn(15).key == "midnight"


def test_faction_constants_match_the_rule_book():
    """«Изначально у ваших 450 рабов», «Максимум … 600 рабов», «Каждый ход вы накапливаете 3 руны … до 10»,
    «за ход можно получить не более 300н»."""
    factions = load_data().factions
    assert factions["vampires"]["start_slaves"] == 450 and factions["vampires"]["slave_cap"] == 600
    assert factions["vampires"]["slaves_per_unit"] == 15
    assert factions["dwarves"]["runes_per_turn"] == 3 and factions["dwarves"]["rune_cap"] == 10
    assert factions["dwarves"]["grudge_cap"] == 10
    assert factions["jade"]["jade_purchase_limit"] == 300
    assert factions["empire"]["victory"]["honor"] == 100


def test_corruption_tables_are_the_rulings_defaults_and_marked():
    """RULINGS: roll by cities 1–3: 1d2, 4–5: 1d4, 6–7: 1d6, 8+: 1d8; penalty 5–9: −10 %, 10–14: −20 % and −5 honor…"""
    corruption = load_data().economy["corruption"]
    assert [(r["min_cities"], r["dice"]) for r in corruption["roll"]] == [(1, 2), (4, 4), (6, 6), (8, 8)]
    assert [(r["min_level"], r["income_pct"], r["honor"]) for r in corruption["penalty"]] == [
        (0, 0, 0), (5, 10, 0), (10, 20, 5), (15, 35, 10), (20, 50, 20)]
    text = (DATA_DIR / "economy.toml").read_text(encoding="utf-8")
    for table in ("roll = [", "penalty = ["):
        assert DEFAULT_MARK in next(line for line in text.splitlines() if line.startswith(table))


# -- derived hire buildings ---------------------------------------------------------

def test_hire_buildings_follow_the_buildings_unlock_rules():
    """«Барак - позволяет обучать юнитов 1-го уровня (кроме целителей)», «Казарма - … 1-го и 2-го уровней (кроме
    рыцарей и целителей)», «Военная крепость - позволяет нанимать юнитов до 3-го уровня»…"""
    data = load_data()

    def unlocked(building: str) -> set[str]:
        return {k for k, u in data.units.items() if building in u.hire_buildings}

    def tiers(faction: str, top: int, exclude: set[str] = frozenset()) -> set[str]:
        return {k for k, u in data.units.items() if u.faction == faction and u.tier <= top
                and k not in exclude and not k.endswith(("fragulex", "beer_elemental", "avenger_hero"))}

    assert unlocked("empire_barrack") == tiers("empire", 1, {"empire_healer"})
    assert unlocked("empire_barracks") == tiers("empire", 2, {"empire_healer", "empire_knight"})
    assert unlocked("vampires_estates") == tiers("vampires", 1)
    assert unlocked("vampires_mansions") == tiers("vampires", 2)
    assert unlocked("dwarves_training_ground") == tiers("dwarves", 1)
    assert unlocked("dwarves_military_academy") == tiers("dwarves", 2)
    assert unlocked("jade_recruiting_station") == tiers("jade", 1)
    assert unlocked("jade_military_camp") == tiers("jade", 2)
    assert unlocked("jade_military_fortress") == tiers("jade", 3)
    assert unlocked("dwarves_fragulex_cave") == {"dwarves_fragulex"}
    assert all(u.hire_buildings for u in data.units.values())
    for key, b in data.buildings.items():
        assert set(b.effects.get("unlocks_units", ())) == unlocked(key)


# -- validating loader ----------------------------------------------------------------

def test_loader_reports_every_problem_at_once():
    """Unknown ability key, unknown building reference, tier 4, a negative number, a missing field, a
    duplicate name, an unknown garrison unit and a one-sided hiring link, all in one broken data set:
    every one is listed, in Russian, each starting with the path of the value."""
    raw = copy.deepcopy(read_raw())
    raw["units"]["empire_knight"]["abilities"]["teleport"] = True
    raw["units"]["empire_archer"]["hire_buildings"].append("empire_wizard_tower")
    raw["units"]["empire_hero"]["tier"] = 4
    raw["units"]["vampires_ghoul"]["attack"] = -3
    del raw["units"]["dwarves_thane"]["hp"]
    raw["buildings"]["jade_estates"]["name"] = "Рисовые поля"
    raw["garrisons"]["empire"]["level_2"]["empire_dragon"] = 1
    raw["buildings"]["empire_chapel"]["effects"]["unlocks_units"] = []
    problems = validate_data(raw)
    expected = [
        "units.empire_knight.abilities: неизвестная способность 'teleport' "
        "(список способностей — в engine/jade_rose/data/SCHEMA.md)",
        "units.empire_archer.hire_buildings: нет такой постройки 'empire_wizard_tower'",
        "units.empire_hero.tier: уровень может быть только 1, 2 или 3, а не 4",
        "units.vampires_ghoul.attack: отрицательное число -3",
        "units.dwarves_thane: нет поля 'hp'",
        "buildings.jade_estates: название «Рисовые поля» уже есть у buildings.jade_rice_fields (фракция jade)",
        "garrisons.empire.level_2: нет такого юнита 'empire_dragon'",
        "units.empire_healer.hire_buildings: указана постройка 'empire_chapel', "
        "но в buildings.empire_chapel.effects.unlocks_units нет 'empire_healer'"]
    assert sorted(problems) == sorted(expected)
    with pytest.raises(DataError) as err:
        build_data(raw)
    assert err.value.problems == problems
    assert "ошибок — 8" in str(err.value)


def test_loader_checks_ability_value_types():
    """A ranged table without shots, a bad pierce scope and a non-boolean switch are each reported."""
    raw = copy.deepcopy(read_raw())
    raw["units"]["empire_archer"]["abilities"]["ranged"] = {"damage": 6, "long_range": False}
    raw["units"]["jade_zhuge_crossbows"]["abilities"]["pierce_scope"] = "melee"
    raw["units"]["empire_horseman"]["abilities"]["can_charge"] = "yes"
    assert sorted(validate_data(raw)) == [
        "units.empire_archer.abilities.ranged: нет поля 'shots'",
        "units.empire_horseman.abilities.can_charge: ожидается true или false, а не 'yes'",
        "units.jade_zhuge_crossbows.abilities.pierce_scope: 'melee' не подходит; допустимо: 'all', 'ranged'"]


def test_loader_checks_effects_garrisons_eras_factions_and_economy_at_once():
    """Unknown effect, a foreign unit in a garrison, a missing garrison level, a gap between eras, a missing
    faction, an economy table without «large», a corruption row without its threshold: all listed."""
    raw = copy.deepcopy(read_raw())
    raw["buildings"]["empire_barrack"]["effects"]["teleport_gate"] = 1
    raw["buildings"]["empire_barrack"]["effects"]["slave_escape_fraction"] = [1, 0]
    raw["garrisons"]["empire"]["level_1"]["vampires_ghoul"] = 2
    del raw["garrisons"]["dwarves"]["level_3"]
    raw["eras"]["dawn"]["first_turn"] = 4
    del raw["factions"]["jade"]
    del raw["economy"]["slots"]["large"]
    del raw["economy"]["corruption"]["roll"][0]["min_cities"]
    raw["garrison_large_multiplier"] = 0
    assert sorted(validate_data(raw)) == sorted([
        "buildings.empire_barrack.effects: неизвестный эффект 'teleport_gate' "
        "(список эффектов — в engine/jade_rose/data/SCHEMA.md)",
        "buildings.empire_barrack.effects.slave_escape_fraction: ожидается дробь [числитель, знаменатель] "
        "со знаменателем больше 0, а не [1, 0]",
        "garrisons.large_multiplier: должно быть не меньше 1, а не 0",
        "garrisons.empire.level_1: юнит 'vampires_ghoul' — из фракции vampires, а здесь нужна фракция empire",
        "garrisons.dwarves: нет таблицы 'level_3'",
        "eras.dawn: начинается с хода 4, а должна с хода 3 (эпохи идут подряд, без пропусков и наложений)",
        "factions: нет фракции 'jade'",
        "economy.slots: нет поля 'large'",
        "economy.corruption.roll[0]: нет поля 'min_cities'"])


def test_loader_reports_garbage_shapes_without_crashing():
    """Tables where lists belong and the reverse, a list inside a key list: reported, never a crash."""
    raw = copy.deepcopy(read_raw())
    raw["units"]["empire_knight"]["hire_buildings"] = "empire_hall_of_knights"
    raw["units"]["empire_spearman"]["names"] = "Копейщики"
    raw["units"]["empire_archer"]["cost"] = 15
    raw["buildings"]["empire_barrack"]["replaces"] = [["empire_barracks"]]
    raw["economy"]["corruption"] = "сильная"
    raw["eras"] = []
    problems = validate_data(raw)
    for text in ("units.empire_knight.hire_buildings: ожидается список ключей построек, "
                 "а не 'empire_hall_of_knights'",
                 "units.empire_spearman.names: ожидается список названий, а не 'Копейщики'",
                 "units.empire_archer.cost: ожидается таблица, а не 15",
                 "buildings.empire_barrack.replaces: нет такой постройки ['empire_barracks']",
                 "economy.corruption: ожидается таблица, а не 'сильная'",
                 "eras: нет данных или это не таблица (файл eras.toml)"):
        assert text in problems, (text, problems)


def test_shipped_data_is_valid_and_battle_toml_is_optional():
    """The package's data has no problem; a missing battle.toml gives `data.battle == {}`."""
    raw = read_raw()
    assert validate_data(raw) == []
    raw.pop("battle", None)
    assert dict(build_data(raw).battle) == {}


def test_every_data_file_parses_as_toml():
    for name in ("units", "buildings", "garrisons", "eras", "factions", "economy"):
        assert tomllib.loads((DATA_DIR / f"{name}.toml").read_text(encoding="utf-8"))


def test_dump_is_json_with_every_number():
    """`forumwar ruleset dump jade_rose --json` prints this: units with attack/hp/defence/cost/upkeep/abilities…"""
    dump = json.loads(json.dumps(dump_data(), ensure_ascii=False))
    assert len(dump["units"]) == 44 and len(dump["buildings"]) == 47
    knight = dump["units"]["empire_knight"]
    assert (knight["attack"], knight["hp"], knight["defense"], knight["upkeep"]) == (13, 60, 5, 15)
    assert knight["cost"] == {"gold": 60, "honor": 5, "jade": 0}
    assert knight["abilities"] == {"can_charge": True, "charge_bonus_pct": 100}
    assert dump["units"]["jade_green_hail"]["abilities"]["area_ranged"] == {"pct": 35, "min": 1, "max": 10}
    assert dump["buildings"]["empire_barrack"]["effects"]["garrison"] == {"empire_spearman": 4}
    assert dump["garrisons"]["dwarves"]["1"] == {"dwarves_miner": 10, "dwarves_youngbeard": 5,
                                                 "dwarves_stone_thrower": 2}
    assert dump["eras"]["dawn"]["max_city_level"] == 2
    assert dump["economy"]["city_income"] == {"small": 150, "large": 300}


def test_loaded_data_is_immutable():
    data = load_data()
    with pytest.raises(TypeError):
        data.units["empire_knight"].abilities["can_charge"] = False  # type: ignore[index]
    with pytest.raises(AttributeError):
        data.units["empire_knight"].attack = 99  # type: ignore[misc]
