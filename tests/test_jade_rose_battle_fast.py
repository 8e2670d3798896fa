"""The fast simulator against the reference, distribution for distribution, and the simulator's JSON.

The mixed battles use every faction's units, manoeuvres (bombards, cover, defence, charges into a defended
rearguard with healers, swaps, free moves) and specials; the feature battles stress one mechanism each
(breath and afterburn with healers, runes, golems and the beer elemental, the round limit). For each, a few
hundred reference battles and thousands of fast ones, with each kernel (compiled and numpy), must agree on
the attacker's win share, the mean rounds (as the battle unfolds and over all fights), the timeout share
and the mean survivors of every unit type within four standard errors of the difference.
"""
from __future__ import annotations

import functools
import math
from dataclasses import replace

import numpy as np
import pytest

from engine.jade_rose.battle import BattleSpecError, fight_once, parse_spec, simulate
from engine.jade_rose.battle.fast import run_fast
from engine.rng import derive_seed

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
KERNELS = ("compiled", "numpy")
FAST_RUNS = {"compiled": 10000, "numpy": 3000}


def _battle(name: str):
    battle = parse_spec({**BATTLES, **FEATURES}[name])
    if name == "round_limit":
        battle = replace(battle, constants=replace(battle.constants, max_rounds=4))
    return battle


def _keys(battle) -> list[str]:
    return sorted({k for role in ("attacker", "defender") for sq in battle.side(role).squads for k, _ in sq.units})


@functools.lru_cache(maxsize=None)
def _per_run_reference(name: str, runs: int, seed: int) -> np.ndarray:
    """Per run: attacker won, rounds, rounds of all fights, timed out, survivors per (side, unit type)."""
    battle = _battle(name)
    rows = []
    for i in range(runs):
        r = fight_once(battle, derive_seed(seed, "ref", i))
        row = [r.winner == "attacker", r.rounds, r.rounds_all_fights, r.timeout]
        for role in ("attacker", "defender"):
            surv = dict(r.side(role).survivors)
            idle = dict(r.side(role).idle)
            row += [surv.get(k, 0) - idle.get(k, 0) for k in _keys(battle)]
        rows.append(row)
    return np.array(rows, dtype=float)


def _per_run_fast(name: str, runs: int, seed: int, kernel: str) -> np.ndarray:
    battle = _battle(name)
    r = run_fast(battle, runs, seed, workers=1, kernel=kernel)
    t = r.tables
    cols = [r.attacker_won, r.rounds, r.rounds_all_fights, r.timeout]
    for role in (0, 1):
        for k in _keys(battle):
            mask = (t.role == role) & (np.array(t.keys)[t.key_index] == k)
            cols.append(r.alive[:, mask].sum(axis=1))
    return np.stack(cols, axis=1).astype(float)


def _agree(a: np.ndarray, b: np.ndarray) -> bool:
    """Means within four standard errors of their difference, the variance pooled over both samples (the
    same distribution is the hypothesis; a rare outcome that the smaller sample never saw still counts)."""
    pooled = np.concatenate([a, b]).var()
    return abs(a.mean() - b.mean()) <= 4 * math.sqrt(pooled * (1 / len(a) + 1 / len(b))) + 1e-9


def _require(kernel: str) -> None:
    from engine.jade_rose.battle.fast_compiled import compiled_available, compiled_error
    if kernel == "compiled" and not compiled_available():
        pytest.skip(f"the compiled kernel is not available here: {compiled_error() or 'numba missing'}")


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("name", sorted(BATTLES) + sorted(FEATURES))
def test_fast_path_matches_the_reference_distribution(name, kernel):
    """Same battle, reference vs each fast kernel: win share, mean rounds (as unfolding and over all
    fights), timeout share and mean survivors per unit type agree within four standard errors."""
    _require(kernel)
    ref = _per_run_reference(name, 300, 11)
    fast = _per_run_fast(name, FAST_RUNS[kernel], 12, kernel)
    labels = ["attacker won", "rounds", "rounds of all fights", "timeout"] + [
        f"{side} {k}" for side in ("attacker", "defender") for k in _keys(_battle(name))]
    for j, label in enumerate(labels):
        assert _agree(ref[:, j], fast[:, j]), (label, ref[:, j].mean(), fast[:, j].mean())


def test_feature_battles_are_not_degenerate():
    """The feature battles only test something if they unfold: with the round limit every battle times out
    and the defender holds almost always; the others last several rounds and their survivors vary."""
    limit = _per_run_reference("round_limit", 300, 11)
    assert limit[:, 3].all() and limit[:, 0].mean() < 0.05
    for name in ("breath_and_healers", "runes_and_golems"):
        ref = _per_run_reference(name, 300, 11)
        assert ref[:, 1].min() >= 3, name
        assert (ref[:, 4:].std(axis=0) > 0).sum() >= 2, name


def test_mixed_battles_are_not_one_sided():
    """The comparison above only bites if both sides can win."""
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


@pytest.mark.parametrize("kernel", KERNELS)
def test_chunked_runs_do_not_depend_on_the_number_of_processes(kernel):
    """Runs are split in fixed chunks with their own streams: one process or several, the same result."""
    _require(kernel)
    battle = parse_spec(BATTLES["garrison_skip_planning"])
    from engine.jade_rose.battle import fast
    one = fast.run_fast(battle, fast.CHUNK + 300, 4, workers=1, kernel=kernel)
    two = fast.run_fast(battle, fast.CHUNK + 300, 4, workers=2, kernel=kernel)
    assert np.array_equal(one.alive, two.alive) and np.array_equal(one.rounds, two.rounds)
    assert np.array_equal(one.attacker_won, two.attacker_won)


def test_compiled_kernel_is_deterministic_in_its_seed():
    """Same battle, runs and seed: byte-identical runs; another seed: other dice."""
    _require("compiled")
    battle = parse_spec(MIXED_DWARVES_JADE)
    a = run_fast(battle, 500, 9, workers=1, kernel="compiled")
    b = run_fast(battle, 500, 9, workers=1, kernel="compiled")
    c = run_fast(battle, 500, 10, workers=1, kernel="compiled")
    assert np.array_equal(a.alive, b.alive) and np.array_equal(a.rounds_all_fights, b.rounds_all_fights)
    assert not np.array_equal(a.alive, c.alive)


def test_auto_uses_the_compiled_kernel_when_it_is_available():
    _require("compiled")
    battle = parse_spec(SMALL_GARRISON)
    auto = run_fast(battle, 300, 3, workers=1)
    assert np.array_equal(auto.alive, run_fast(battle, 300, 3, workers=1, kernel="compiled").alive)


def test_without_numba_the_numpy_kernel_runs(monkeypatch):
    """numba missing or failing: the simulator still works, on the numpy kernel; asking for the compiled
    kernel explicitly is an error that says why."""
    from engine.jade_rose.battle import fast_compiled
    monkeypatch.setattr(fast_compiled, "compiled_available", lambda: False)
    battle = parse_spec(SMALL_GARRISON)
    auto = run_fast(battle, 300, 3, workers=1)
    assert np.array_equal(auto.alive, run_fast(battle, 300, 3, workers=1, kernel="numpy").alive)
    assert simulate(SMALL_GARRISON, 300, 3)["attacker_win"] == float(auto.attacker_won.mean())
    with pytest.raises(RuntimeError, match="compiled kernel is not available"):
        run_fast(battle, 10, 3, kernel="compiled")
    with pytest.raises(ValueError):
        run_fast(battle, 10, 3, kernel="cuda")


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
