"""The rule book's tips (lines 365-374) as checks on the simulator's distributions (fast path, fixed seeds)."""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from engine.jade_rose.battle import parse_spec
from engine.jade_rose.battle.simulate import kernel_runs, run_seeds


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


def _attacker_win_share(battle, runs=4000, seed=2):
    won = kernel_runs(battle, run_seeds(runs, seed), workers=1)[0]
    return float(won.mean()), runs


def _clearly_less(p_with: float, p_without: float, n: int) -> bool:
    se = math.sqrt(p_with * (1 - p_with) / n + p_without * (1 - p_without) / n)
    return p_without - p_with > 4 * se


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
