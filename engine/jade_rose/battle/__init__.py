"""Jade Rose battle engine: set-up validation, the reference battle, the compiled kernel, reports.

Two implementations roll the same dice (engine.rng.Dice): the reference (reference.py and the phase modules)
resolves the turn's battles and prints reports; the numba kernel (fast_kernel.py, fast_compiled.py) runs the
simulator's many runs. One seed gives the identical battle in both (tests/jade_rose/battle/test_fast_compiled.py).

Public API
- `parse_spec(spec) -> Battle`: the simulator's JSON (Russian unit names or unit keys); raises
  `BattleSpecError` whose `.problems` lists every problem in Russian.
- `simulate(spec, runs, seed) -> dict`: odds as JSON (on the compiled kernel; up to 100 runs on the reference).
- `BattleRuns(battle, runs, seed)`: the same runs played in parts, the first on the reference while the
  kernel compiles elsewhere (`fast_compiled.kernel_ready()` says whether it must); the same odds.
- `fight_once(battle, seed) -> BattleResult`: one battle with the reference implementation.
- `render_report(result, bbcode=False) -> str`: the Russian report (plain text or forum BBCode).
- `resolve_battle(battle, rng_seed) -> BattleResult`: what the turn resolution calls.

Building a Battle for a turn (armies and garrisons): either the same mapping as the simulator's JSON
with unit keys, e.g. {"attacker": {"faction": "empire", "squads": [{"flank": "left", "line": "vanguard",
"units": {"empire_knight": 3}, "manoeuvre": {"type": "charge", "flank": "center", "line": "rearguard"}}]},
"defender": {"faction": "dwarves", "runes": 2, "squads": [{..., "garrison": true}]}, "skip_planning": false,
"city": {"name": "..."}} passed to `parse_spec`; or typed values:
`build_battle(SideSetup("empire", (SquadSetup(Position("left", "vanguard"), (("empire_knight", 3),),
Manoeuvre("charge", Position("center", "rearguard"))),)), SideSetup(...), unit_stats(),
constants=battle_constants(), city="...")`. Mark garrison squads `garrison=True`, or the garrison's
part of a squad it shares with an army `garrison_units=...` (their dead are not recovered); a squad's `tag`
comes back in `SideOutcome.squads` with that squad's dead (`SquadOutcome`). Derive `rng_seed` per battle with
`engine.rng.derive_seed(stage_seed, "battle", city_id, n)`.
"""
from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.deployment import BattleSpecError, build_battle
from engine.jade_rose.battle.model import Battle, Manoeuvre, Position, SideSetup, SquadSetup
from engine.jade_rose.battle.reference import fight_once
from engine.jade_rose.battle.report import render_report
from engine.jade_rose.battle.result import BattleResult, FightSummary, RoundSummary, SideOutcome, SquadOutcome
from engine.jade_rose.battle.simulate import BattleRuns, simulate, simulate_battle
from engine.jade_rose.battle.spec import parse_spec
from engine.jade_rose.battle.stats import UnitStats
from engine.jade_rose.data import load_data


def resolve_battle(battle: Battle, rng_seed: int) -> BattleResult:
    """Resolve one battle of a turn (the reference implementation; deterministic in the seed)."""
    return fight_once(battle, rng_seed)


def unit_stats() -> dict[str, UnitStats]:
    """Battle statistics of every unit of the data files, by unit key."""
    return {key: UnitStats.from_def(u) for key, u in load_data().units.items()}


def battle_constants() -> BattleConstants:
    """The constants of data/battle.toml."""
    return BattleConstants.from_mapping(load_data().battle or {})


@functools.lru_cache(maxsize=1)
def battle_kit() -> tuple[dict[str, UnitStats], BattleConstants]:
    """`unit_stats()` and `battle_constants()`, read once: what the turn's battles (war/) and the factions'
    battle modifiers (the Jade Court's forge reach) share."""
    return unit_stats(), battle_constants()


def battle_report(spec: Mapping[str, Any], seed: int, bbcode: bool = False) -> str:
    """Report of one battle described in the simulator's JSON (raises BattleSpecError)."""
    return render_report(fight_once(parse_spec(spec), seed), bbcode=bbcode)


__all__ = ["Battle", "BattleConstants", "BattleResult", "BattleRuns", "BattleSpecError", "FightSummary", "Manoeuvre",
           "Position", "RoundSummary", "SideOutcome", "SideSetup", "SquadOutcome", "SquadSetup", "UnitStats",
           "battle_constants", "battle_kit", "battle_report", "build_battle", "fight_once", "parse_spec",
           "render_report", "resolve_battle", "simulate", "simulate_battle", "unit_stats"]
