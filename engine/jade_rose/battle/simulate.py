"""Many runs of one battle -> the simulator's JSON odds, on the compiled kernel.

Run i of `runs > 1` is the battle of seed `sub_seed(seed, RUN_TAG + i)` (one run: the battle of `seed`
itself, the one `--report` prints); the kernel rolls the reference's dice, so the reference, battle by
battle, gives the very same odds, only slower. A few runs (up to REFERENCE_RUNS) are played on the
reference unless the kernel is asked for: they take about as long as loading the compiled kernel, and
on a fresh install, before numba has compiled it once (about 25 s), much less. Chunks of runs go to
parallel processes; as each run has its own seed, the result does not depend on how the runs are split.
`BattleRuns` plays the runs in parts: the first ones on the reference while the kernel is being prepared
elsewhere (its odds so far are an estimate), the rest on the kernel; the odds of all the runs are the same
as `simulate_battle`'s, whatever the split.
"""
from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from engine.jade_rose.battle.model import Battle
from engine.jade_rose.battle.reference import fight_once
from engine.jade_rose.battle.runtime import BattleState
from engine.jade_rose.battle.spec import parse_spec
from engine.rng import sub_seed

RUN_TAG = 100       # run seeds are sub-seeds 100, 101, ... of the simulation's seed (0-4: one battle's phases)
CHUNK = 5000        # runs per process
REFERENCE_RUNS = 100  # up to this many runs, the reference (about 15 ms a run) is quicker than the kernel


RunsDone = Callable[[int], None]     # hears how many more runs are done, chunk by chunk
# wins, rounds, rounds of all fights, timeouts, then survivors and recovered by role and unit key, over all runs
Tally = tuple[int, int, int, int, dict[str, dict[str, int]], dict[str, dict[str, int]]]


def simulate(spec: Mapping[str, Any], runs: int, seed: int, progress: RunsDone | None = None) -> dict[str, Any]:
    """Odds of a battle described in the simulator's JSON format (raises BattleSpecError)."""
    return simulate_battle(parse_spec(spec), runs, seed, progress=progress)


def run_seeds(runs: int, seed: int) -> list[int]:
    """The battle seed of each run."""
    return [seed] if runs == 1 else [sub_seed(seed, RUN_TAG + i) for i in range(runs)]


def simulate_battle(battle: Battle, runs: int, seed: int, *, fast: bool | None = None,
                    workers: int | None = None, progress: RunsDone | None = None) -> dict[str, Any]:
    """{"runs", "seed", "attacker_win", "defender_win", "mean_rounds", "mean_rounds_all_fights",
    "timeouts", "deployed", "survivors", "deaths", "recovered", "losses"}: per side, by unit name, the count
    deployed and the mean counts over the runs of the survivors (Jade creatures that sat the battle out
    included), the dead, those of the dead who return to the ranks (JR-41: an army's, not a garrison's) and
    the losses for good (the dead less the returned): what each battle's report says of that battle
    (`BattleResult`: losses, recovered, survivors), averaged. Ties count for the tie winner (the defender).
    fast=True runs the kernel, fast=False the reference (the same numbers), None the kernel for more
    than REFERENCE_RUNS runs. `progress` hears each chunk of runs as it completes (on the reference: all
    the runs at once).
    """
    if runs < 1:
        raise ValueError("runs must be at least 1")
    if fast is None:
        fast = runs > REFERENCE_RUNS
    seeds = run_seeds(runs, seed)
    stats = _from_kernel(battle, seeds, workers, progress) if fast else _from_reference(battle, seeds, progress)
    return _odds(battle, runs, seed, stats)


class BattleRuns:
    """The runs of one battle played in parts, in the order of their seeds: `play_plain` plays the next
    ones on the reference (nothing to compile), `play_rest` the rest (on the kernel when there are more
    than REFERENCE_RUNS in all). `odds()` are the odds of the runs played so far (`runs`: how many), and
    once all are played exactly `simulate_battle(battle, runs, seed)`: each run has its own seed, and the
    kernel and the reference play it alike."""

    def __init__(self, battle: Battle, runs: int, seed: int):
        if runs < 1:
            raise ValueError("runs must be at least 1")
        self.battle = battle
        self.runs = runs
        self.seed = seed
        self.done = 0
        self._seeds = run_seeds(runs, seed)
        self._tally: Tally = (0, 0, 0, 0, {"attacker": {}, "defender": {}}, {"attacker": {}, "defender": {}})

    @property
    def left(self) -> int:
        return self.runs - self.done

    @property
    def needs_kernel(self) -> bool:
        """Whether `play_rest` would use the compiled kernel (it plays REFERENCE_RUNS or fewer on the
        reference)."""
        return self.runs > REFERENCE_RUNS and self.left > 0

    def play_plain(self, n: int) -> int:
        """Play the next `n` runs (at most those left) on the reference; how many were played."""
        seeds = self._seeds[self.done:self.done + max(0, n)]
        if seeds:
            self._add(len(seeds), _from_reference(self.battle, seeds))
        return len(seeds)

    def play_rest(self, workers: int | None = None, progress: RunsDone | None = None) -> None:
        """Play every run left: on the kernel when the battle has more than REFERENCE_RUNS runs in all,
        else on the reference; `progress` hears them chunk by chunk."""
        seeds = self._seeds[self.done:]
        if not seeds:
            return
        if self.runs > REFERENCE_RUNS:
            self._add(len(seeds), _from_kernel(self.battle, seeds, workers, progress))
        else:
            self._add(len(seeds), _from_reference(self.battle, seeds, progress))

    def odds(self) -> dict[str, Any]:
        """The odds over the runs played so far, as `simulate_battle` gives them (`runs`: how many)."""
        if not self.done:
            raise ValueError("no run played yet")
        return _odds(self.battle, self.done, self.seed, self._tally)

    def _add(self, runs: int, tally: Tally) -> None:
        self.done += runs
        self._tally = _sum(self._tally, tally)


def _sum(a: Tally, b: Tally) -> Tally:
    """Two tallies of different runs as one."""
    def merged(x: dict[str, dict[str, int]], y: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        return {role: {k: x.get(role, {}).get(k, 0) + y.get(role, {}).get(k, 0)
                       for k in {**x.get(role, {}), **y.get(role, {})}} for role in ("attacker", "defender")}
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], merged(a[4], b[4]), merged(a[5], b[5]))


def _odds(battle: Battle, runs: int, seed: int, stats: Tally) -> dict[str, Any]:
    """The simulator's JSON from the tally of `runs` runs."""
    names = {k: s.name for k, s in battle.units.items()}
    wins, rounds, every, timeouts, survivors, recovered = stats
    out: dict[str, Any] = {
        "runs": runs,
        "seed": seed,
        "attacker_win": wins / runs,
        "defender_win": (runs - wins) / runs,
        "mean_rounds": rounds / runs,
        "mean_rounds_all_fights": every / runs,
        "timeouts": timeouts / runs,
        "deployed": {}, "survivors": {}, "deaths": {}, "recovered": {}, "losses": {},
    }
    for role in ("attacker", "defender"):
        deployed = _deployed(battle, role)
        out["deployed"][role] = {names[k]: n for k, n in deployed}
        out["survivors"][role] = {names[k]: survivors[role].get(k, 0) / runs for k, _ in deployed}
        out["deaths"][role] = {names[k]: (n * runs - survivors[role].get(k, 0)) / runs for k, n in deployed}
        out["recovered"][role] = {names[k]: recovered[role].get(k, 0) / runs for k, _ in deployed}
        out["losses"][role] = {names[k]: (n * runs - survivors[role].get(k, 0) - recovered[role].get(k, 0)) / runs
                               for k, n in deployed}
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


def _from_reference(battle: Battle, seeds: list[int], progress: RunsDone | None = None) -> Tally:
    wins = rounds = every = timeouts = 0
    survivors: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
    recovered: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
    for run_seed in seeds:
        result = fight_once(battle, run_seed)
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
    if progress is not None:
        progress(len(seeds))
    return wins, rounds, every, timeouts, survivors, recovered


def kernel_runs(battle: Battle, seeds: list[int], workers: int | None = None,
                progress: RunsDone | None = None) -> tuple[np.ndarray, ...]:
    """The kernel's per-run arrays (fast_compiled.run_seeds) for every seed, in chunks over processes;
    `progress` hears each chunk's runs as it completes."""
    from engine.jade_rose.battle.fast_compiled import run_seeds as run_chunk
    from engine.jade_rose.battle.fast_compiled import warm_up
    warm_up()                   # compiled (or loaded) here, before any fork
    chunks = [seeds[i:i + CHUNK] for i in range(0, len(seeds), CHUNK)]
    workers = min(len(chunks), workers if workers is not None else mp.cpu_count())
    if workers > 1 and "fork" in mp.get_all_start_methods() and not mp.current_process().daemon:
        with mp.get_context("fork").Pool(workers) as pool:
            pending = [pool.apply_async(run_chunk, (battle, c)) for c in chunks]
            parts = []
            for chunk, job in zip(chunks, pending, strict=True):
                parts.append(job.get())
                if progress is not None:
                    progress(len(chunk))
    else:
        parts = []
        for chunk in chunks:
            parts.append(run_chunk(battle, chunk))
            if progress is not None:
                progress(len(chunk))
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(5))


def _from_kernel(battle: Battle, seeds: list[int], workers: int | None, progress: RunsDone | None = None) -> Tally:
    won, rounds, every, timeout, alive = kernel_runs(battle, seeds, workers, progress)
    runs = len(seeds)
    state = BattleState(battle)     # the units in the kernel's order: attacker's squads, then defender's
    units = [u for role in ("attacker", "defender") for s in state.sides[role].squads for u in s.units]
    survivors: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
    recovered: dict[str, dict[str, int]] = {"attacker": {}, "defender": {}}
    pct = battle.constants.recovery_pct
    for role in ("attacker", "defender"):
        for key in sorted({u.stats.key for u in units if u.role == role}):
            cols = np.array([u.role == role and u.stats.key == key for u in units])
            army = cols & np.array([not u.garrison for u in units])
            survivors[role][key] = int(alive[:, cols].sum())
            dead_army = (~alive[:, army]).sum(axis=1)
            recovered[role][key] = int(((2 * dead_army * pct + 100) // 200).sum())
        for r, idle in battle.idle:
            if r == role:
                for k, n in idle:
                    survivors[role][k] = survivors[role].get(k, 0) + n * runs
    return int(won.sum()), int(rounds.sum()), int(every.sum()), int(timeout.sum()), survivors, recovered
