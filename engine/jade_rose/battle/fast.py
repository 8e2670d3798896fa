"""The fast simulator: many runs of a battle, per-run outcomes (not reports).

Two kernels follow the reference (reference.py) step for step and are tested against it distribution for
distribution: the compiled one (fast_kernel.py, numba; used when it compiles here) and the numpy one
(fast_fight.py: every run at once, phase by phase), used when numba is missing or fails.
"""
from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass

import numpy as np

from engine.jade_rose.battle.fast_fight import I64, Batch, FastState, area_hits, damage_formula, floyd
from engine.jade_rose.battle.fast_tables import Tables
from engine.jade_rose.battle.model import FLANKS, Battle, Position
from engine.rng import derive_seed

BOMBARDS = ("bombard", "long_range_bombard")


@dataclass(frozen=True)
class Runs:
    """Per-run outcomes of many battles: winner, rounds, which units are alive at the end."""

    tables: Tables
    attacker_won: np.ndarray     # bool [R]
    rounds: np.ndarray           # [R] rounds as the battle unfolds
    rounds_all_fights: np.ndarray  # [R] sum over every fight
    alive: np.ndarray            # bool [R, U]
    timeout: np.ndarray          # bool [R]


CHUNK = 5000        # runs per chunk: each chunk has its own random stream, so results never depend on
                    # how many processes share the work


KERNELS = ("auto", "compiled", "numpy")


def run_fast(battle: Battle, runs: int, seed: int, *, workers: int | None = None, kernel: str = "auto") -> Runs:
    """All runs, in chunks of CHUNK (run in parallel processes when there are several chunks).

    kernel: "compiled" (numba; RuntimeError when it is not available here), "numpy", or "auto" (the
    compiled one when available). The same kernel, battle, runs and seed give the same result.
    """
    from engine.jade_rose.battle import fast_compiled     # imports numba: only when the fast path runs
    if kernel not in KERNELS:
        raise ValueError(f"kernel must be one of {KERNELS}")
    compiled = kernel != "numpy" and fast_compiled.compiled_available()     # compiles here, before any fork
    if kernel == "compiled" and not compiled:
        raise RuntimeError("the compiled kernel is not available: "
                           + (fast_compiled.compiled_error() or "numba is missing or disabled"))
    chunk = _run_chunk_compiled if compiled else _run_chunk
    sizes = [min(CHUNK, runs - start) for start in range(0, runs, CHUNK)]
    jobs = [(battle, n, derive_seed(seed, "fast", i)) for i, n in enumerate(sizes)]
    workers = min(len(jobs), workers if workers is not None else mp.cpu_count())
    if workers > 1 and "fork" in mp.get_all_start_methods() and not mp.current_process().daemon:
        with mp.get_context("fork").Pool(workers) as pool:
            parts = pool.starmap(chunk, jobs)
    else:
        parts = [chunk(*job) for job in jobs]
    if len(parts) == 1:
        return parts[0]
    return Runs(parts[0].tables, *(np.concatenate([getattr(p, f) for p in parts])
                                   for f in ("attacker_won", "rounds", "rounds_all_fights", "alive", "timeout")))


def _run_chunk_compiled(battle: Battle, runs: int, seed: int) -> Runs:
    from engine.jade_rose.battle.fast_compiled import run_chunk
    won, rounds, every, timeout, alive = run_chunk(battle, runs, seed)
    return Runs(Tables(battle), won, rounds, every, alive, timeout)


def _run_chunk(battle: Battle, runs: int, seed: int) -> Runs:
    t = Tables(battle)
    fs = FastState(t, runs, np.random.Generator(np.random.SFC64(seed)))
    R = runs
    rounds = np.zeros(R, dtype=I64)
    every = np.zeros(R, dtype=I64)
    timeout = np.zeros(R, dtype=bool)
    if not battle.skip_planning:
        _bombards(fs)
        charge_rounds, charge_timeout = _charges(fs)
        rounds += charge_rounds
        every += charge_rounds
        timeout |= charge_timeout
    flank_rounds, flank_timeout = _clash(fs)
    rounds += flank_rounds.max(axis=1)
    every += flank_rounds.sum(axis=1)
    timeout |= flank_timeout
    finale_rounds, finale_timeout = _finale(fs)
    rounds += finale_rounds
    every += finale_rounds
    timeout |= finale_timeout
    alive = fs.alv.reshape(R, t.U)
    a = alive[:, :t.n_attacker].any(axis=1)
    d = alive[:, t.n_attacker:].any(axis=1)
    tie = a == d
    won = (a & ~d) | (tie & (t.constants.tie_winner == "attacker"))
    return Runs(t, won, rounds, every, alive.copy(), timeout)


def _squad_alive(fs: FastState, index: int) -> np.ndarray:
    sq = fs.t.squads[index]
    return fs.alv.reshape(fs.R, fs.t.U)[:, sq.start:sq.end].any(axis=1)


def _bombards(fs: FastState) -> None:
    """Every bombard against the state before any of them (everyone is alive then); deaths after."""
    t, R, U = fs.t, fs.R, fs.t.U
    c = t.constants
    base_g = np.arange(R, dtype=I64) * U
    hits_g, hits_d = [], []
    for sq in t.squads:
        m = sq.setup.manoeuvre
        if m.kind not in BOMBARDS:
            continue
        ti = t.deployed_at(1 - sq.role, m.target)
        if ti < 0:
            continue
        tsq = t.squads[ti]
        own = np.arange(sq.start, sq.end)
        tgt = np.arange(tsq.start, tsq.end)
        out_aura = _static_aura(t, own, ("squad_outgoing_pct", "squad_shot_bonus_pct"))
        fear = _static_aura(t, tgt, ("enemy_outgoing_pct",))
        in_aura = _static_aura(t, tgt, ("squad_incoming_pct",))
        cover = c.cover_taken_pct if tsq.setup.manoeuvre.kind == "cover" else 0
        n = tsq.size
        for u in own:
            if not t.shooter[u]:
                continue
            k = int(area_hits(t.area_r[u], n))
            out = int(t.out_side[u]) + out_aura + fear
            for _ in range(int(t.shots[u])):
                picks = floyd(fs.rng, np.full(R, n, dtype=I64), np.full(R, k, dtype=I64), k)
                for j in range(k):
                    ut = tgt[picks[:, j]]
                    roll = (fs.rng.random(R) * t.rdmg[u]).astype(I64) + 1
                    base = np.maximum(roll - t.dfn[ut], t.pierce_r[u])
                    inn = t.in_side[ut] + t.ranged_taken[ut] + in_aura + cover
                    hits_g.append(base_g + ut)
                    hits_d.append(damage_formula(base, out, inn))
    if hits_g:
        g = np.concatenate(hits_g)
        d = np.concatenate(hits_d)
        np.subtract.at(fs.hp, g, d.astype(I64))
        fs.alv &= fs.hp > 0


def _static_aura(t: Tables, units: np.ndarray, fields: tuple[str, ...]) -> int:
    """Aura sum of a squad whose units are all alive (each unit type once)."""
    total = 0
    for k, (field, _, value) in enumerate(t.aura_kinds):
        if field in fields and t.aura_hold[k][units].any():
            total += value
    return total


def _charges(fs: FastState) -> tuple[np.ndarray, np.ndarray]:
    """Charges in flank order, the attacker's first: the defender (if any), then the rearguard.

    Consecutive charges that share no squad are independent, so they run side by side in one batch.
    """
    t, R = fs.t, fs.R
    rounds = np.zeros(R, dtype=I64)
    timeout = np.zeros(R, dtype=bool)
    order = [sq for flank in FLANKS for role in (0, 1) for sq in t.squads
             if sq.role == role and sq.deployed.flank == flank and sq.setup.manoeuvre.kind == "charge"]
    waves: list[list[tuple]] = []
    busy: set[int] = set()
    for sq in order:
        ti = t.deployed_at(1 - sq.role, sq.setup.manoeuvre.target)
        if ti < 0:
            continue
        guards = [g for g in t.squads if g.role == 1 - sq.role and g.setup.manoeuvre.kind == "defend"
                  and g.setup.manoeuvre.target == sq.setup.manoeuvre.target]
        guard = guards[0] if guards else None
        involved = {sq.index, ti} | ({guard.index} if guard else set())
        involved |= {_front(t, s) for s in (guard, t.squads[ti]) if s is not None} - {-1}
        if not waves or involved & busy:
            waves.append([])
            busy = set()
        waves[-1].append((sq, guard, t.squads[ti]))
        busy |= involved
    for wave in waves:
        fought = {sq.index: np.zeros(R, dtype=bool) for sq, _, _ in wave}
        for stage in ("guard", "target"):
            items = []
            for sq, guard, target in wave:
                opp = guard if stage == "guard" else target
                if opp is None:
                    continue
                ok = _squad_alive(fs, sq.index) & _squad_alive(fs, target.index) & _squad_alive(fs, opp.index)
                lanes = np.nonzero(ok)[0]
                if lanes.size:
                    items.append((lanes, sq, opp, stage == "guard", ~fought[sq.index][lanes]))
            if not items:
                continue
            b = _charge_batch(fs, items)
            b.run_all()
            start = 0
            for lanes, sq, _, is_guard, _ in items:
                part = slice(start, start + lanes.size)
                rounds[lanes] += b.rounds[part]
                timeout[lanes] |= b.timeout[part]
                if is_guard:
                    fought[sq.index][lanes] = True
                start += lanes.size
    return rounds, timeout


def _front(t: Tables, squad) -> int:
    """The vanguard standing in front of a rearguard squad (-1 for a vanguard or an empty flank)."""
    if squad.deployed.line != "rearguard":
        return -1
    return t.deployed_at(squad.role, Position(squad.deployed.flank, "vanguard"))


def _charge_batch(fs: FastState, items) -> Batch:
    """One batch of charge fights: per item, squad `sq` (charging) fights squad `opp` in the given runs."""
    t = fs.t
    units = lambda s: np.arange(s.start, s.end)  # noqa: E731
    parts, tpl, runs, cb, chargers, opps, guards = [], [], [], [], [], [], []
    for lanes, sq, opp, is_guard, cb_lane in items:
        ext = ()
        fi = _front(t, opp)
        if fi >= 0 and t.healer[opp.start:opp.end].any():
            ext = units(t.squads[fi])
        k = len(parts)
        pair = [None, None]
        pair[sq.role], pair[opp.role] = (units(sq), (), ()), (units(opp), (), ext)
        parts += pair
        chargers.append(k + sq.role)
        opps.append(k + opp.role)
        if is_guard:
            guards.append(k + opp.role)
        tpl.append(np.tile(np.arange(k, k + 2), lanes.size))
        runs.append(lanes)
        cb.append(cb_lane)
    return Batch(fs, np.concatenate(runs).astype(I64), np.concatenate(tpl), parts, charger=tuple(chargers),
                 against=tuple(opps), defending=tuple(guards), cb_lane=np.concatenate(cb))


def _clash(fs: FastState) -> tuple[np.ndarray, np.ndarray]:
    """Per flank the fronts fight; a rearguard behind its front shoots; fallen fronts are replaced."""
    t, R = fs.t, fs.R
    flank_rounds = np.zeros((R, len(FLANKS)), dtype=I64)
    stopped = np.zeros((R, len(FLANKS)), dtype=bool)
    lines = [[t.flank_squads(role, f) for f in FLANKS] for role in (0, 1)]
    alive_sq = lambda i: _squad_alive(fs, i) if i >= 0 else np.zeros(R, dtype=bool)  # noqa: E731
    while True:
        runs_l, flank_l, fronts, rears = [], [], [], []
        for fi in range(len(FLANKS)):
            fr, rr = [], []
            for role in (0, 1):
                v, r = lines[role][fi]
                va, ra = alive_sq(v), alive_sq(r)
                fr.append(np.where(va, v, np.where(ra, r, -1)))
                rr.append(np.where(va & ra, r, -1))
            ok = (fr[0] >= 0) & (fr[1] >= 0) & ~stopped[:, fi]
            idx = np.nonzero(ok)[0]
            runs_l.append(idx)
            flank_l.append(np.full(idx.size, fi))
            fronts.append(np.stack([fr[0][idx], fr[1][idx]], axis=1))
            rears.append(np.stack([rr[0][idx], rr[1][idx]], axis=1))
        runs = np.concatenate(runs_l)
        if runs.size == 0:
            return flank_rounds, stopped.any(axis=1)
        flanks = np.concatenate(flank_l)
        front = np.concatenate(fronts).reshape(-1)
        rear = np.concatenate(rears).reshape(-1)
        n_sq = len(t.squads) + 1
        combos, tpl = np.unique(front * n_sq + rear + 1, return_inverse=True)
        squad_units = lambda i: np.arange(t.squads[i].start, t.squads[i].end) if i >= 0 else ()  # noqa: E731
        parts = [(squad_units(int(c) // n_sq), squad_units(int(c) % n_sq - 1), ()) for c in combos]
        b = Batch(fs, runs.astype(I64), tpl.reshape(-1), parts)
        b.run_all()
        flank_rounds[runs, flanks] += b.rounds
        stopped[runs[b.timeout], flanks[b.timeout]] = True


def _finale(fs: FastState) -> tuple[np.ndarray, np.ndarray]:
    """All survivors of each side in one squad; fewer surviving squads: the flanking penalty."""
    t, R = fs.t, fs.R
    rounds = np.zeros(R, dtype=I64)
    timeout = np.zeros(R, dtype=bool)
    alive = fs.alv.reshape(R, t.U)
    na = t.n_attacker
    lanes = np.nonzero(alive[:, :na].any(axis=1) & alive[:, na:].any(axis=1))[0]
    if lanes.size == 0:
        return rounds, timeout
    squads = np.zeros((lanes.size, 2), dtype=I64)
    for sq in t.squads:
        squads[:, sq.role] += alive[lanes, sq.start:sq.end].any(axis=1)
    flanked = np.stack([squads[:, 0] < squads[:, 1], squads[:, 1] < squads[:, 0]], axis=1).reshape(-1)
    parts = [(np.arange(0, na), (), ()), (np.arange(na, t.U), (), ())]
    b = Batch(fs, lanes.astype(I64), np.tile(np.arange(2), lanes.size), parts, flanked=flanked)
    b.run_all()
    rounds[lanes] = b.rounds
    timeout[lanes] = b.timeout
    return rounds, timeout
