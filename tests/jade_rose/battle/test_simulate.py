"""Many runs of a battle (battle/simulate.py): the simulator's JSON, its determinism, runs split over processes,
the reference for a few runs; the rule book's tips (lines 365-374) as checks on its distributions; the public
conformance cases (../shared/conformance/battles/): the attacker's win share of each case at 5 000 runs agrees
with the independent implementation within ±0.03."""
from __future__ import annotations

import importlib
import json
import math
from dataclasses import replace

import numpy as np
import pytest

from engine.jade_rose.battle import BattleSpecError, fight_once, parse_spec, simulate
from engine.jade_rose.battle.simulate import CHUNK, REFERENCE_RUNS, kernel_runs, run_seeds, simulate_battle
from tests.jade_rose.battle.sample_battles import (
    BATTLES,
    MIXED_DWARVES_JADE,
    MIXED_EMPIRE_VAMPIRES,
    SMALL_GARRISON,
    battle_named,
)
from tests.paths import SHARED

# On a fresh clone the first test here compiles numba's kernel (about 25 s): scheduled among the first
# files, so no worker waits for it at the end, and the later battle tests load it from numba's cache.
pytestmark = pytest.mark.long


def test_a_few_runs_are_played_on_the_reference_with_the_kernel_s_numbers(monkeypatch):
    """Up to REFERENCE_RUNS runs the simulator plays the reference (no kernel to compile on a fresh
    install); the odds are the kernel's, and one run more goes to the kernel."""
    simulate_module = importlib.import_module("engine.jade_rose.battle.simulate")   # the package exports
    battle = battle_named("empire_vampires")                                              # a function so named
    kernel = simulate_battle(battle, REFERENCE_RUNS, 8, fast=True)
    called = []
    monkeypatch.setattr(simulate_module, "kernel_runs", lambda *a, **k: called.append(a) or kernel_runs(*a, **k))
    assert simulate_battle(battle, REFERENCE_RUNS, 8) == kernel and called == []
    simulate_battle(battle, REFERENCE_RUNS + 1, 8)
    assert len(called) == 1


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


def army(faction: str, *squads: dict, **extra) -> dict:
    """An army of up to three vanguard squads, filling the flanks from the left."""
    flanks = zip(("left", "center", "right"), squads, strict=False)
    return {"faction": faction, **extra, "squads": [{"flank": f, "line": "vanguard", "units": u} for f, u in flanks]}


TANKY = {
    "heavy infantry": {"attacker": army("empire", *[{"Тяжёлый пехотинец": 10}] * 3),
                       "defender": army("empire", *[{"Тяжёлый пехотинец": 10}] * 3)},
    "paladins": {"attacker": army("empire", *[{"Паладин": 5}] * 3), "defender": army("empire", *[{"Паладин": 5}] * 3)},
    "regenerating vampires": {
        "attacker": army("vampires", {"Новообращённый": 10}, {"Чистокровный": 5, "Новообращённый": 5},
                         {"Новообращённый": 9, "Лорд вампиров": 1}),
        "defender": army("empire", *[{"Тяжёлый пехотинец": 8}] * 3)},
    "dwarf wall": {"attacker": army("dwarves", {"Длиннобород": 10}, {"Длиннобород": 9, "Тан": 1},
                                    {"Рунная гвардия": 6}),
                   "defender": army("empire", {"Тяжёлый пехотинец": 10}, {"Тяжёлый пехотинец": 9, "Архижрец": 1},
                                    {"Паладин": 5})},
}


def rounds_distribution(spec: dict, runs: int = 2000, seed: int = 1) -> dict:
    rounds = kernel_runs(parse_spec(spec), run_seeds(runs, seed), workers=1)[1]
    p10, p50, p90 = np.percentile(rounds, [10, 50, 90])
    return {"p10": p10, "median": p50, "p90": p90, "share_20_30": float(((rounds >= 20) & (rounds <= 30)).mean()),
            "share_20_plus": float((rounds >= 20).mean())}


def _attacker_win_share(battle, runs=4000, seed=2):
    won = kernel_runs(battle, run_seeds(runs, seed), workers=1)[0]
    return float(won.mean()), runs


def _clearly_less(p_with: float, p_without: float, n: int) -> bool:
    se = math.sqrt(p_with * (1 - p_with) / n + p_without * (1 - p_without) / n)
    return p_without - p_with > 4 * se


def test_tip_tanky_battles_easily_last_twenty_to_thirty_rounds():
    """«битва может запросто длиться 20-30 ходов, особенно если поставить много танкующих юнитов» (Против
    Вампиров). Three squads of heavy infantry a side: most battles last 20-30 rounds; the other tanky armies
    (paladins strip armour and heal, so they are quicker) still reach 20 rounds in a good share of battles."""
    dist = {name: rounds_distribution(spec) for name, spec in TANKY.items()}
    heavy = dist["heavy infantry"]
    assert 20 <= heavy["median"] <= 30 and heavy["share_20_30"] >= 0.5, heavy
    assert dist["dwarf wall"]["share_20_plus"] >= 0.15, dist["dwarf wall"]
    assert dist["paladins"]["median"] < heavy["median"], dist["paladins"]
    assert all(d["p90"] >= 15 for d in dist.values()), dist


def test_tip_outnumbered_side_loses_measurably_more():
    """«Разделять свою армию на отряды по полтора юнита не очень-то эффективно. Враг получит бонус за численность»
    (and L29: «меньший отряд получит штраф +25% к получаемому урону»). Five heavy infantrymen against ten
    neophytes win clearly less often with the penalty than the same fight without it."""
    battle = parse_spec({"attacker": army("empire", {"Тяжёлый пехотинец": 5}),
                         "defender": army("vampires", {"Новообращённый": 10})})
    with_penalty, n = _attacker_win_share(battle)
    without, _ = _attacker_win_share(replace(battle, constants=replace(battle.constants, outnumber_taken_pct=0)))
    assert _clearly_less(with_penalty, without, n), (with_penalty, without)


def test_tip_regeneration_one_per_round_is_not_so_little():
    """«регенерация 1/ход - не так уж и мало, потому что битва может запросто длиться 20-30 ходов»: the same
    neophytes without their regeneration lose clearly more often."""
    battle = parse_spec({"attacker": army("empire", {"Тяжёлый пехотинец": 5}),
                         "defender": army("vampires", {"Новообращённый": 10})})
    plain_units = dict(battle.units)
    plain_units["vampires_neophyte"] = replace(plain_units["vampires_neophyte"], regen=0)
    vs_regen, n = _attacker_win_share(battle)
    vs_plain, _ = _attacker_win_share(replace(battle, units=plain_units))
    assert _clearly_less(vs_regen, vs_plain, n), (vs_regen, vs_plain)


CASES = SHARED / "conformance" / "battles"
EXPECTED = json.loads((CASES / "expected.json").read_text(encoding="utf-8")) if CASES.is_dir() else {}


@pytest.mark.skipif(not EXPECTED, reason="../shared/conformance/battles is not available")
@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_conformance_case_attacker_win_share(case):
    spec = json.loads((CASES / case).read_text(encoding="utf-8"))
    out = simulate(spec, 5000, 2024)
    assert abs(out["attacker_win"] - EXPECTED[case]["attacker_win"]) <= 0.03, (case, out["attacker_win"])
    rounds = EXPECTED[case].get("mean_rounds_all_fights")
    if rounds is not None:
        assert abs(out["mean_rounds_all_fights"] - rounds) <= 0.05 * rounds, (case, out["mean_rounds_all_fights"])
