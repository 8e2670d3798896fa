"""The fast simulator against the reference, distribution for distribution, and the simulator's JSON.

The mixed battles use every faction's units, manoeuvres (bombards, cover, defence, charges into a defended
rearguard with healers, swaps, free moves) and specials. For each, a few hundred reference battles and a few
thousand fast ones must agree on the attacker's win share, the mean rounds and the mean survivors of every
unit type within four standard errors of the difference.
"""
from __future__ import annotations

import math

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


def _per_run_reference(battle, runs: int, seed: int):
    won, rounds, alive = [], [], []
    keys = sorted({k for role in ("attacker", "defender") for sq in battle.side(role).squads for k, _ in sq.units})
    for i in range(runs):
        r = fight_once(battle, derive_seed(seed, "ref", i))
        won.append(r.winner == "attacker")
        rounds.append(r.rounds)
        row = []
        for role in ("attacker", "defender"):
            surv = dict(r.side(role).survivors)
            idle = dict(r.side(role).idle)
            row += [surv.get(k, 0) - idle.get(k, 0) for k in keys]
        alive.append(row)
    return np.array(won, dtype=float), np.array(rounds, dtype=float), np.array(alive, dtype=float), keys


def _per_run_fast(battle, runs: int, seed: int, keys):
    r = run_fast(battle, runs, seed, workers=1)
    t = r.tables
    cols = []
    for role in (0, 1):
        for k in keys:
            mask = (t.role == role) & (np.array(t.keys)[t.key_index] == k)
            cols.append(r.alive[:, mask].sum(axis=1))
    return r.attacker_won.astype(float), r.rounds.astype(float), np.stack(cols, axis=1).astype(float)


def _agree(a: np.ndarray, b: np.ndarray) -> bool:
    se = math.sqrt(a.var() / len(a) + b.var() / len(b))
    return abs(a.mean() - b.mean()) <= 4 * se + 1e-9


@pytest.mark.parametrize("name", sorted(BATTLES))
def test_fast_path_matches_the_reference_distribution(name):
    """Same battle, reference vs fast: win share, mean rounds and mean survivors per unit type agree."""
    battle = parse_spec(BATTLES[name])
    ref_won, ref_rounds, ref_alive, keys = _per_run_reference(battle, 300, 11)
    fast_won, fast_rounds, fast_alive = _per_run_fast(battle, 3000, 12, keys)
    assert _agree(ref_won, fast_won), (ref_won.mean(), fast_won.mean())
    assert _agree(ref_rounds, fast_rounds), (ref_rounds.mean(), fast_rounds.mean())
    for j in range(ref_alive.shape[1]):
        assert _agree(ref_alive[:, j], fast_alive[:, j]), (j, ref_alive[:, j].mean(), fast_alive[:, j].mean())


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


def test_chunked_runs_do_not_depend_on_the_number_of_processes():
    """Runs are split in fixed chunks with their own streams: one process or several, the same result."""
    battle = parse_spec(BATTLES["garrison_skip_planning"])
    from engine.jade_rose.battle import fast
    one = fast.run_fast(battle, fast.CHUNK + 300, 4, workers=1)
    two = fast.run_fast(battle, fast.CHUNK + 300, 4, workers=2)
    assert np.array_equal(one.alive, two.alive) and np.array_equal(one.rounds, two.rounds)


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
