"""Battles in the simulator's JSON shared by the kernel and simulator tests: two mixed battles of all four
factions, a small garrison, three feature battles (one mechanism each) and the public conformance
cases."""
from __future__ import annotations

import json
from dataclasses import replace

from engine.jade_rose.battle import parse_spec
from tests.paths import SHARED

MIXED_EMPIRE_VAMPIRES = {
    "attacker": {"faction": "empire", "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Крестоносец": 4, "Герой": 1, "Паладин": 1},
         "manoeuvre": {"type": "defend", "flank": "left", "line": "rearguard"}},
        {"flank": "left", "line": "rearguard", "units": {"Лучник": 4, "Целитель": 1},
         "manoeuvre": {"type": "none"}},
        {"flank": "center", "line": "vanguard", "units": {"Копейщик": 6, "Целитель": 1, "Архижрец": 1},
         "manoeuvre": {"type": "cover"}},
        {"flank": "right", "line": "vanguard", "units": {"Рыцарь": 2, "Всадник на грифоне": 1},
         "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard"}},
    ]},
    "defender": {"faction": "vampires", "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Полукровка": 30, "Лорд вампиров": 1}},
        {"flank": "center", "line": "vanguard", "units": {"Новообращённый": 24}},
        {"flank": "left", "line": "rearguard", "units": {"Чистокровный": 5},
         "manoeuvre": {"type": "charge", "flank": "left", "line": "rearguard"}},
        {"flank": "center", "line": "rearguard", "units": {"Костяная пушка": 1},
         "manoeuvre": {"type": "long_range_bombard", "flank": "left", "line": "rearguard"}},
        {"flank": "right", "line": "vanguard", "units": {"Рыцарь смерти": 3, "Вампирический упырь": 10},
         "manoeuvre": {"type": "change_position", "flank": "right", "line": "rearguard"}},
        {"flank": "right", "line": "rearguard", "units": {"Чернокнижник": 6},
         "manoeuvre": {"type": "change_position", "flank": "right", "line": "vanguard"}},
    ]},
}
MIXED_DWARVES_JADE = {
    "attacker": {"faction": "dwarves", "grudges": 2, "runes": 3, "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Длиннобород": 4, "Тан": 1, "Рунная гвардия": 1}},
        {"flank": "left", "line": "rearguard", "units": {"Арбалетчик": 3, "Инженер": 1}},
        {"flank": "center", "line": "vanguard", "units": {"Горняки": 6, "Великий Голем": 1, "Пивной элементаль": 1},
         "manoeuvre": {"type": "defend", "flank": "center", "line": "rearguard"}},
        {"flank": "center", "line": "rearguard", "units": {"Камнемёт": 1, "Требуше": 1},
         "manoeuvre": {"type": "bombard", "flank": "center", "line": "vanguard"}},
        {"flank": "right", "line": "vanguard", "units": {"Юный дракон Фрагулекс": 1, "Герой-мститель": 2},
         "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard",
                       "free_move": {"flank": "right", "line": "rearguard"}}},
    ]},
    "defender": {"faction": "jade_court", "forge_distance": 1, "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Нефритовый воин": 14, "Нефритовый колосс": 1}},
        {"flank": "center", "line": "vanguard", "units": {"Зелёные щиты": 8, "Нефритовый дракон": 1},
         "manoeuvre": {"type": "cover"}},
        {"flank": "center", "line": "rearguard", "units": {"Пушка 'Зелёный град'": 1, "Арбалеты чжугэ": 2}},
        {"flank": "right", "line": "vanguard", "units": {"Нефритовый зверь": 3, "Всадник": 4, "Нефритовая гвардия": 2},
         "manoeuvre": {"type": "none"}},
        {"flank": "right", "line": "rearguard", "units": {"Пращник": 8},
         "manoeuvre": {"type": "bombard", "flank": "right", "line": "vanguard"}},
    ]},
}
SMALL_GARRISON = {
    "skip_planning": True, "city": {"name": "Кварцевый Брод", "large": False},
    "attacker": {"faction": "jade", "forge_distance": 5, "plague": True, "squads": [
        {"flank": "center", "line": "vanguard", "units": {"Ополченец": 10, "Нефритовый воин": 6}},
        {"flank": "center", "line": "rearguard", "units": {"Пращник": 6}}]},
    "defender": {"faction": "empire", "squads": [
        {"flank": "center", "line": "vanguard", "units": {"Копейщик": 10, "Всадник": 3}, "garrison": True},
        {"flank": "center", "line": "rearguard", "units": {"Лучник": 6}, "garrison": True}]},
}
BATTLES = {"empire_vampires": MIXED_EMPIRE_VAMPIRES, "dwarves_jade": MIXED_DWARVES_JADE,
           "garrison_skip_planning": SMALL_GARRISON}


def squad(flank: str, line: str, units: dict, manoeuvre: dict | None = None) -> dict:
    return {"flank": flank, "line": line, "units": units, "manoeuvre": manoeuvre or {"type": "none"}}


# the dragon charges a guarded rearguard; healers heal the guard's squad and the vanguard in front of the
# rearguard; breath burns again the round after
BREATH_AND_HEALERS = {
    "attacker": {"faction": "dwarves", "squads": [
        squad("left", "vanguard", {"Юный дракон Фрагулекс": 1, "Горняки": 6},
               {"type": "charge", "flank": "left", "line": "rearguard"}),
        squad("center", "vanguard", {"Длиннобород": 6})]},
    "defender": {"faction": "empire", "squads": [
        squad("left", "vanguard", {"Копейщик": 6, "Целитель": 1},
               {"type": "defend", "flank": "left", "line": "rearguard"}),
        squad("left", "rearguard", {"Лучник": 5, "Целитель": 2}),
        squad("center", "vanguard", {"Крестоносец": 5})]},
}
# runes of the golems and the rune guard, golem growth, the beer elemental, grudges and spent runes against
# a hero's aura and self-healing paladins
RUNES_AND_GOLEMS = {
    "attacker": {"faction": "dwarves", "runes": 4, "grudges": 3, "squads": [
        squad("center", "vanguard", {"Великий Голем": 3, "Рунная гвардия": 3, "Пивной элементаль": 1,
                                      "Горняки": 5})]},
    "defender": {"faction": "empire", "squads": [
        squad("center", "vanguard", {"Тяжёлый пехотинец": 16, "Герой": 1, "Паладин": 4, "Крестоносец": 4})]},
}
# tanks on two flanks with a limit of four rounds: every battle times out, the defender holds
ROUND_LIMIT = {
    "attacker": {"faction": "empire", "squads": [
        squad("center", "vanguard", {"Тяжёлый пехотинец": 6}), squad("left", "vanguard", {"Паладин": 3})]},
    "defender": {"faction": "dwarves", "squads": [
        squad("center", "vanguard", {"Длиннобород": 6}), squad("left", "vanguard", {"Тан": 1, "Горняки": 3})]},
}
FEATURES = {"breath_and_healers": BREATH_AND_HEALERS, "runes_and_golems": RUNES_AND_GOLEMS,
            "round_limit": ROUND_LIMIT}
PUBLIC_DIR = SHARED / "conformance" / "battles"
PUBLIC = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(PUBLIC_DIR.glob("p*.json"))}
ALL = sorted(BATTLES) + sorted(FEATURES) + sorted(PUBLIC)


def battle_named(name: str):
    battle = parse_spec({**BATTLES, **FEATURES, **PUBLIC}[name])
    if name == "round_limit":
        battle = replace(battle, constants=replace(battle.constants, max_rounds=4))
    return battle
