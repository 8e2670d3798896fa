"""Many runs of one battle -> the simulator's JSON odds (fast path for runs > 1)."""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from engine.jade_rose.battle.fast import run_fast
from engine.jade_rose.battle.model import Battle
from engine.jade_rose.battle.reference import fight_once
from engine.jade_rose.battle.runtime import BattleState
from engine.jade_rose.battle.spec import parse_spec
from engine.rng import derive_seed


def simulate(spec: Mapping[str, Any], runs: int, seed: int) -> dict:
    """Odds of a battle described in the simulator's JSON format (raises BattleSpecError)."""
    return simulate_battle(parse_spec(spec), runs, seed)


def simulate_battle(battle: Battle, runs: int, seed: int, *, fast: bool | None = None) -> dict:
    """{"runs", "seed", "attacker_win", "defender_win", "mean_rounds", "mean_rounds_all_fights",
    "timeouts", "survivors", "recovered"}: survivors and recovered are mean counts per unit name and side
    (survivors include Jade creatures that sat the battle out). Ties count for the tie winner (the defender).
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    use_fast = runs > 1 if fast is None else fast
    names = {k: s.name for k, s in battle.units.items()}
    if use_fast:
        stats = _from_fast(battle, runs, seed)
    else:
        stats = _from_reference(battle, runs, seed)
    wins, rounds, every, timeouts, survivors, recovered = stats
    out = {
        "runs": runs,
        "seed": seed,
        "attacker_win": wins / runs,
        "defender_win": (runs - wins) / runs,
        "mean_rounds": rounds / runs,
        "mean_rounds_all_fights": every / runs,
        "timeouts": timeouts / runs,
        "survivors": {}, "recovered": {},
    }
    for role in ("attacker", "defender"):
        deployed = [k for k, _ in _deployed(battle, role)]
        out["survivors"][role] = {names[k]: survivors[role].get(k, 0) / runs for k in deployed}
        out["recovered"][role] = {names[k]: recovered[role].get(k, 0) / runs for k in deployed}
    return out


def _deployed(battle: Battle, role: str) -> list[tuple[str, int]]:
    totals: dict[str, int] = {}
    for squad in battle.side(role).squads:
        for k, n in squad.units:
            totals[k] = totals.get(k, 0) + n
    for r, units in battle.idle:
        if r == role:
            for k, n in units:
                totals[k] = totals.get(k, 0) + n
    return sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))


def _from_reference(battle: Battle, runs: int, seed: int):
    wins = rounds = every = timeouts = 0
    survivors = {"attacker": {}, "defender": {}}
    recovered = {"attacker": {}, "defender": {}}
    for i in range(runs):
        result = fight_once(battle, seed if runs == 1 else derive_seed(seed, "run", i))
        wins += result.winner == "attacker"
        rounds += result.rounds
        every += result.rounds_all_fights
        timeouts += result.timeout
        for role in ("attacker", "defender"):
            side = result.side(role)
            for k, n in side.survivors:
                survivors[role][k] = survivors[role].get(k, 0) + n
            for k, n in side.recovered:
                recovered[role][k] = recovered[role].get(k, 0) + n
    return wins, rounds, every, timeouts, survivors, recovered


def _from_fast(battle: Battle, runs: int, seed: int):
    r = run_fast(battle, runs, seed)
    t = r.tables
    survivors = {"attacker": {}, "defender": {}}
    recovered = {"attacker": {}, "defender": {}}
    state = BattleState(battle)     # the units in the tables' order: attacker's squads, then defender's
    army = np.array([not u.garrison for role in ("attacker", "defender") for s in state.sides[role].squads
                     for u in s.units], dtype=bool)
    pct = battle.constants.recovery_pct
    for role_i, role in enumerate(("attacker", "defender")):
        mine = t.role == role_i
        for ki, key in enumerate(t.keys):
            cols = mine & (t.key_index == ki)
            if not cols.any():
                continue
            alive = r.alive[:, cols].sum(axis=1)
            survivors[role][key] = int(alive.sum())
            dead_army = (~r.alive[:, cols & army]).sum(axis=1)
            recovered[role][key] = int(((2 * dead_army * pct + 100) // 200).sum())
        for rr, units in battle.idle:
            if rr == role:
                for k, n in units:
                    survivors[role][k] = survivors[role].get(k, 0) + n * runs
    return (int(r.attacker_won.sum()), int(r.rounds.sum()), int(r.rounds_all_fights.sum()),
            int(r.timeout.sum()), survivors, recovered)
