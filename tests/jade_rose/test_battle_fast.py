"""The compiled kernel against the reference: one seed, one battle, and the simulator's JSON.

Both implementations roll the same dice (engine.rng.Dice: the same splitmix64 streams, the same draws in the
same order), so the kernel's traced battle equals the reference's BattleResult field for field (winner,
rounds, every fight and round, bombards, survivors and losses per unit and per squad) on every public
conformance case, on mixed battles of all four factions, on feature battles that stress one mechanism each
(breath and afterburn with healers, runes, golems and the beer elemental, the round limit) and on random
battles (hypothesis); the odds of many runs are equal to the last digit. No rule needed a statistical
fallback, so there is no distribution test here: equality is checked run by run.
"""
from __future__ import annotations

import importlib
import json
import math
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose.battle import BattleSpecError, fight_once, parse_spec, simulate
from engine.jade_rose.battle import fast_kernel as k
from engine.jade_rose.battle.fast_compiled import fight_compiled
from engine.jade_rose.battle.simulate import CHUNK, REFERENCE_RUNS, kernel_runs, run_seeds, simulate_battle
from engine.rng import Dice, sub_seed
from tests.jade_rose.battle_strategies import battles
from tests.paths import SHARED

# On a fresh clone the first test here compiles numba's kernel (about 25 s): scheduled among the first
# files, so no worker waits for it at the end, and the later battle tests load it from numba's cache.
pytestmark = pytest.mark.long

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


def _squad(flank: str, line: str, units: dict, manoeuvre: dict | None = None) -> dict:
    return {"flank": flank, "line": line, "units": units, "manoeuvre": manoeuvre or {"type": "none"}}


# the dragon charges a guarded rearguard; healers heal the guard's squad and the vanguard in front of the
# rearguard; breath burns again the round after
BREATH_AND_HEALERS = {
    "attacker": {"faction": "dwarves", "squads": [
        _squad("left", "vanguard", {"Юный дракон Фрагулекс": 1, "Горняки": 6},
               {"type": "charge", "flank": "left", "line": "rearguard"}),
        _squad("center", "vanguard", {"Длиннобород": 6})]},
    "defender": {"faction": "empire", "squads": [
        _squad("left", "vanguard", {"Копейщик": 6, "Целитель": 1},
               {"type": "defend", "flank": "left", "line": "rearguard"}),
        _squad("left", "rearguard", {"Лучник": 5, "Целитель": 2}),
        _squad("center", "vanguard", {"Крестоносец": 5})]},
}
# runes of the golems and the rune guard, golem growth, the beer elemental, grudges and spent runes against
# a hero's aura and self-healing paladins
RUNES_AND_GOLEMS = {
    "attacker": {"faction": "dwarves", "runes": 4, "grudges": 3, "squads": [
        _squad("center", "vanguard", {"Великий Голем": 3, "Рунная гвардия": 3, "Пивной элементаль": 1,
                                      "Горняки": 5})]},
    "defender": {"faction": "empire", "squads": [
        _squad("center", "vanguard", {"Тяжёлый пехотинец": 16, "Герой": 1, "Паладин": 4, "Крестоносец": 4})]},
}
# tanks on two flanks with a limit of four rounds: every battle times out, the defender holds
ROUND_LIMIT = {
    "attacker": {"faction": "empire", "squads": [
        _squad("center", "vanguard", {"Тяжёлый пехотинец": 6}), _squad("left", "vanguard", {"Паладин": 3})]},
    "defender": {"faction": "dwarves", "squads": [
        _squad("center", "vanguard", {"Длиннобород": 6}), _squad("left", "vanguard", {"Тан": 1, "Горняки": 3})]},
}
FEATURES = {"breath_and_healers": BREATH_AND_HEALERS, "runes_and_golems": RUNES_AND_GOLEMS,
            "round_limit": ROUND_LIMIT}
PUBLIC_DIR = SHARED / "conformance" / "battles"
PUBLIC = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted(PUBLIC_DIR.glob("p*.json"))}
ALL = sorted(BATTLES) + sorted(FEATURES) + sorted(PUBLIC)


def _battle(name: str):
    battle = parse_spec({**BATTLES, **FEATURES, **PUBLIC}[name])
    if name == "round_limit":
        battle = replace(battle, constants=replace(battle.constants, max_rounds=4))
    return battle


def test_kernel_dice_are_engine_rng_dice():
    """The kernel's generator is engine.rng's, bit for bit: the same sub-seeds and the same draws."""
    m = np.zeros(1, dtype=np.int64)
    for seed in (0, 1, 2**63 - 1, 2**63, 2**64 - 1, 123456789):
        for tag in (0, 4, 100):
            k._stream(m, seed - (1 << 64) if seed >= 1 << 63 else seed, tag)
            dice = Dice(sub_seed(seed, tag))
            for n in (1, 2, 3, 7, 100, 2**31 - 1):
                assert k._below(m, n) == dice.below(n)


@pytest.mark.parametrize("name", ALL)
def test_one_seed_gives_the_same_battle_on_both_implementations(name):
    """40 seeds of each battle: the kernel's BattleResult is the reference's, field for field."""
    battle = _battle(name)
    for seed in range(40):
        assert fight_compiled(battle, seed) == fight_once(battle, seed), (name, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(battles(), st.integers(-2**70, 2**70))
def test_one_seed_gives_the_same_random_battle_on_both_implementations(battle, seed):
    """Random battles of all factions, manoeuvres and side modifiers, any integer seed: the same battle."""
    assert fight_compiled(battle, seed) == fight_once(battle, seed)


@pytest.mark.parametrize("name", ALL)
def test_odds_are_the_same_on_both_implementations(name):
    """120 runs: the simulator's JSON from the kernel equals the one from the reference, battle by battle."""
    battle = _battle(name)
    assert simulate_battle(battle, 120, 31) == simulate_battle(battle, 120, 31, fast=False)


def test_a_few_runs_are_played_on_the_reference_with_the_kernel_s_numbers(monkeypatch):
    """Up to REFERENCE_RUNS runs the simulator plays the reference (no kernel to compile on a fresh
    install); the odds are the kernel's, and one run more goes to the kernel."""
    simulate_module = importlib.import_module("engine.jade_rose.battle.simulate")   # the package exports
    battle = _battle("empire_vampires")                                              # a function so named
    kernel = simulate_battle(battle, REFERENCE_RUNS, 8, fast=True)
    called = []
    monkeypatch.setattr(simulate_module, "kernel_runs", lambda *a, **k: called.append(a) or kernel_runs(*a, **k))
    assert simulate_battle(battle, REFERENCE_RUNS, 8) == kernel and called == []
    simulate_battle(battle, REFERENCE_RUNS + 1, 8)
    assert len(called) == 1


def test_feature_battles_are_not_degenerate():
    """The feature battles only test something if they unfold: with the round limit every battle times out
    and the defender holds almost always; the others last several rounds and their survivors vary."""
    limit = [fight_once(_battle("round_limit"), s) for s in range(100)]
    assert all(r.timeout for r in limit) and sum(r.winner == "attacker" for r in limit) < 5
    for name in ("breath_and_healers", "runes_and_golems"):
        results = [fight_once(_battle(name), s) for s in range(100)]
        assert min(r.rounds for r in results) >= 3, name
        assert len({r.attacker.survivors for r in results}) >= 2, name


def test_mixed_battles_are_not_one_sided():
    """The comparisons above only bite if both sides can win."""
    for name in ("empire_vampires", "dwarves_jade"):
        share = simulate(BATTLES[name], 2000, 3)["attacker_win"]
        assert 0.1 < share < 0.9, (name, share)


def test_simulator_json_shape_and_win_shares():
    """`--json`: {"runs", "seed", "attacker_win", "defender_win", "mean_rounds", "survivors": {"attacker":
    {unit: mean}, "defender": {...}}}; the shares sum to 1."""
    out = simulate(MIXED_DWARVES_JADE, 400, 21)
    assert {"runs", "seed", "attacker_win", "defender_win", "mean_rounds", "survivors"} <= set(out)
    assert out["runs"] == 400 and out["seed"] == 21
    assert math.isclose(out["attacker_win"] + out["defender_win"], 1.0)
    assert set(out["survivors"]) == {"attacker", "defender"}
    assert "Пивной элементаль" in out["survivors"]["attacker"]
    assert all(0 <= v <= 14 for v in out["survivors"]["defender"].values())


def test_simulator_is_deterministic_in_its_seed():
    """Same spec, runs and seed: the same odds, byte for byte; another seed: other dice."""
    a = simulate(MIXED_EMPIRE_VAMPIRES, 300, 5)
    assert a == simulate(MIXED_EMPIRE_VAMPIRES, 300, 5)
    assert a != simulate(MIXED_EMPIRE_VAMPIRES, 300, 6)


def test_runs_do_not_depend_on_the_number_of_processes():
    """Each run has its own seed: one process or several, in chunks, the same runs."""
    battle = parse_spec(BATTLES["garrison_skip_planning"])
    seeds = run_seeds(CHUNK + 300, 4)
    one = kernel_runs(battle, seeds, workers=1)
    two = kernel_runs(battle, seeds, workers=2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))


def test_one_run_is_the_reference_battle():
    """`--runs 1` is the reference battle of that seed (the one `--report` prints)."""
    out = simulate(MIXED_DWARVES_JADE, 1, 77)
    result = fight_once(parse_spec(MIXED_DWARVES_JADE), 77)
    assert out["attacker_win"] == (result.winner == "attacker")
    assert out["mean_rounds"] == result.rounds


def test_garrison_and_idle_units_in_the_odds():
    """Garrisons recover nobody; Jade creatures five roads from the forge sit out and survive."""
    out = simulate(SMALL_GARRISON, 500, 2)
    assert all(v == 0 for v in out["recovered"]["defender"].values())
    assert out["survivors"]["attacker"]["Нефритовый воин"] == 6


def test_invalid_spec_is_rejected_before_simulating():
    with pytest.raises(BattleSpecError):
        simulate({"attacker": {"faction": "орки"}}, 10, 1)
