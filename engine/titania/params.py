"""Titania parameters: defaults from engine/titania/data/params.toml, overridden by a situation's params.

The loader validates everything and reports all problems at once, in Russian.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, TypeGuard

from engine.datafiles import read_toml

RESOURCES = ("gold", "wood", "influence", "stone", "mana")

_INTS = ("capital_food", "farm_food", "skaven_food", "province_influence", "capital_influence",
         "yield_per_building", "influence_per_strength", "caravan_duty", "boss_damage", "boss_health",
         "keeper_trigger_strength", "max_strength", "keeper_max_strength", "hire", "replenish",
         "minor_event_every", "major_event_every", "major_event_turns", "debuff_turns")
_RANGES = ("boss_reward_gold", "boss_reward_wood", "keeper_trigger_amount", "keeper_reinforce",
           "quest_reward_gold", "quest_reward_wood")
REVEALS = ("fertile", "stone", "mana", "shrine")
_TABLES = ("produces", "needs_deposit")


@dataclass(frozen=True)
class Params:
    """Every number the adjudicator uses that a game master may change."""

    capital_food: int = 3
    farm_food: int = 1
    skaven_food: int = 1
    province_influence: int = 1
    capital_influence: int = 2
    yield_per_building: int = 1
    influence_per_strength: int = 10
    caravan_duty: int = 2
    raid_chance: float = 0.5
    boss_damage: int = 5
    boss_health: int = 10
    boss_reward_gold: tuple[int, int] = (1, 5)
    boss_reward_wood: tuple[int, int] = (1, 5)
    keeper_trigger_strength: int = 5
    keeper_trigger_amount: tuple[int, int] = (1, 4)
    keeper_reinforce: tuple[int, int] = (1, 4)
    max_strength: int = 3
    keeper_max_strength: int = 10
    hire: int = 3
    replenish: int = 3
    minor_event_every: int = 5
    major_event_every: int = 10
    major_event_turns: int = 5
    debuff_turns: int = 5
    quest_reward_gold: tuple[int, int] = (1, 10)
    quest_reward_wood: tuple[int, int] = (1, 10)
    reveal_weights: Mapping[str, int] = field(default_factory=lambda: {r: 1 for r in REVEALS})
    produces: Mapping[str, str] = field(default_factory=dict)
    needs_deposit: Mapping[str, str] = field(default_factory=dict)
    building_costs: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def cost_of(self, building: str) -> dict[str, int]:
        """The cost of one building (1 Influence for a type the table does not list)."""
        return dict(self.building_costs.get(building, {"influence": 1}))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(data: Mapping[str, Any], where: str, problems: list[str]) -> dict[str, Any]:
    """Validate a params mapping; returns the recognised, converted values."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        path = f"{where}.{key}"
        if key in _INTS:
            if not _is_int(value) or value < 0:
                problems.append(f"{path}: нужно целое число не меньше 0, а указано {value!r}.")
            else:
                out[key] = value
        elif key == "raid_chance":
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                problems.append(f"{path}: нужна вероятность от 0 до 1, а указано {value!r}.")
            else:
                out[key] = float(value)
        elif key in _RANGES:
            if (not isinstance(value, list) or len(value) != 2 or not all(_is_int(v) for v in value)
                    or not 0 <= value[0] <= value[1]):
                problems.append(f"{path}: нужен диапазон [от, до] из двух целых чисел, а указано {value!r}.")
            else:
                out[key] = (value[0], value[1])
        elif key in _TABLES:
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                problems.append(f"{path}: нужна таблица «постройка = ресурс».")
            else:
                out[key] = dict(value)
        elif key == "reveal_weights":
            if (not isinstance(value, dict) or set(value) - set(REVEALS) or not all(_is_int(v) and v >= 0
                                                                                   for v in value.values())
                    or not any(value.values())):
                problems.append(f"{path}: нужна таблица весов из {', '.join(REVEALS)} (целые не меньше 0, "
                                "хотя бы один больше 0).")
            else:
                out[key] = dict(value)
        elif key == "building_costs":
            costs = _check_costs(value, path, problems)
            if costs is not None:
                out[key] = costs
        else:
            known = (*_INTS, "raid_chance", *_RANGES, *_TABLES, "reveal_weights", "building_costs")
            problems.append(f"{path}: неизвестный параметр (известны: {', '.join(known)}).")
    return out


def _check_costs(value: object, path: str, problems: list[str]) -> dict[str, dict[str, int]] | None:
    if not isinstance(value, dict):
        problems.append(f"{path}: нужна таблица «постройка = {{ресурс = количество}}».")
        return None
    costs: dict[str, dict[str, int]] = {}
    ok = True
    for building, cost in value.items():
        if not isinstance(cost, dict):
            problems.append(f"{path}.{building}: нужна таблица «ресурс = количество».")
            ok = False
            continue
        for res, n in cost.items():
            if res not in RESOURCES or not _is_int(n) or n < 0:
                problems.append(f"{path}.{building}.{res}: ресурс должен быть одним из {', '.join(RESOURCES)}, "
                                f"количество — целым числом не меньше 0 (указано {n!r}).")
                ok = False
        costs[str(building)] = {str(r): int(n) for r, n in cost.items() if _is_int(n)}
    return costs if ok else None


def parse_params(data: Mapping[str, Any], where: str = "params.toml") -> tuple[Params, list[str]]:
    """Params over the built-in defaults from a params table (as read from TOML); (params, problems)."""
    problems: list[str] = []
    values = _check(data, where, problems)
    return replace(Params(), **values), problems


@cache
def default_params() -> Params:
    """The shipped defaults (engine/titania/data/params.toml; read once, Params is frozen)."""
    params, problems = parse_params(read_toml("engine.titania", "data", "params.toml") or {})
    if problems:  # the shipped file is tested; a broken install is a programming error
        raise ValueError("; ".join(problems))
    return params


def override(base: Params, data: object, problems: list[str]) -> Params:
    """Apply a situation file's "params" over `base`, appending problems."""
    if data is None:
        return base
    if not isinstance(data, dict):
        problems.append("params: нужен объект с параметрами.")
        return base
    values = _check(data, "params", problems)
    if "building_costs" in values:
        values["building_costs"] = {**base.building_costs, **values["building_costs"]}
    return replace(base, **values)
