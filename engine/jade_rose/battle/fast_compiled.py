"""The compiled battle: a battle packed into fast_kernel's memory, runs of it, and one traced run read back
into the reference's BattleResult.

The kernel rolls the reference's dice (engine.rng.Dice, the same streams, the same draws in the same order),
so `fight_compiled(battle, seed) == reference.fight_once(battle, seed)`, field for field. The kernel compiles
once per machine (about 20 s on 2 cores, then under a second from numba's disk cache).
"""
from __future__ import annotations

import os
from typing import Any, TypedDict

import numpy as np

from engine.jade_rose.battle import fast_kernel as k
from engine.jade_rose.battle.model import FLANKS, LINES, ROLES, Battle, Position
from engine.jade_rose.battle.reference import assemble
from engine.jade_rose.battle.result import BattleResult, FightSummary, RoundSummary, ShotSummary, counts
from engine.jade_rose.battle.runtime import BattleState, Squad, Unit
from engine.jade_rose.battle.texts import ROLE_GEN, squad_ru
from engine.rng import MASK64

KINDS = {"none": k.K_NONE, "change_position": k.K_CHANGE, "defend": k.K_DEFEND, "cover": k.K_COVER,
         "charge": k.K_CHARGE, "bombard": k.K_BOMBARD, "long_range_bombard": k.K_LONG_BOMBARD}
PHASES = ("charge", "clash", "finale")
# What `run_seeds` fills, one entry per run: attacker won, rounds, rounds of all fights, timed out, alive [runs, U]
KernelRuns = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class _TracedFight(TypedDict):
    """A fight read back from the trace: its head fields, its rounds and its dead by role and unit key."""

    head: list[int]
    rounds: list[RoundSummary]
    dead: dict[str, dict[str, int]]


def as_int64(seed: int) -> int:
    """A seed's 64-bit pattern as the kernel's int64 (the reference reduces seeds modulo 2**64 too)."""
    s = seed & MASK64
    return s - (1 << 64) if s >= 1 << 63 else s


def memory(battle: Battle, trace: bool = False) -> np.ndarray:
    """The kernel's memory for a battle (layout: fast_kernel's docstring); with room for one run's trace."""
    state = BattleState(battle)
    c = battle.constants
    if len(c.runes) > k.MAX_RUNES:
        raise ValueError(f"at most {k.MAX_RUNES} runes")
    squads = [s for role in ROLES for s in state.sides[role].squads]
    units = [u for s in squads for u in s.units]
    us = _unit_table(battle, state, squads, units)
    q = np.zeros((len(squads), k.N_QCOLS), dtype=np.int64)
    start = 0
    for i, s in enumerate(squads):
        m = s.setup.manoeuvre
        q[i, :k.Q_CHARGE_ORDER] = (start, start + len(s.units), 0 if s.role == "attacker" else 1,
                                   *_pos(s.setup.position), KINDS[m.kind], *_pos(m.target), *_pos(m.free_move),
                                   int(any(u.stats.healer for u in s.units)))
        start += len(s.units)
    chargers = [i for flank in FLANKS for role in (0, 1) for i, s in enumerate(squads)
                if q[i, k.Q_ROLE] == role and s.setup.position.flank == flank and s.setup.manoeuvre.kind == "charge"]
    q[:len(chargers), k.Q_CHARGE_ORDER] = chargers
    kc = np.zeros(k.K_RUNES + 4 * k.MAX_RUNES, dtype=np.int64)
    kc[[k.K_RATIO, k.K_OUTN, k.K_FLANKP, k.K_COVERP, k.K_MAXR, k.K_RSHOTS]] = (
        c.outnumber_ratio, c.outnumber_taken_pct, c.flanking_taken_pct, c.cover_taken_pct, c.max_rounds,
        c.rearguard_shots_per_round)
    kc[k.K_TIE_ATT] = c.tie_winner == "attacker"
    kc[k.K_SKIP] = battle.skip_planning
    kc[k.K_NRUNES] = len(c.runes)
    kc[k.K_NATT] = sum(1 for u in units if u.role == "attacker")
    kc[k.K_HEALERS] = any(u.stats.healer for u in units)
    kc[k.K_BREATH] = any(u.stats.breath_every for u in units)
    kc[k.K_NCHARGE] = 0 if battle.skip_planning else len(chargers)
    for r, rune in enumerate(c.runes):
        kc[k.K_RUNES + 4 * r:k.K_RUNES + 4 * r + 4] = (rune.defense, rune.heal, rune.attack, rune.outgoing_pct)
    n = len(units)
    hot_width = max([u.stats.healer_rounds for u in units] + [1])
    area_r = max([1] + [u.stats.area_ranged.max for u in units if u.stats.area_ranged])
    area_m = max([1] + [u.stats.area_melee.max for u in units if u.stats.area_melee])
    picks = max([1] + [u.stats.attacks_per_pick for u in units])
    shots = sum(u.stats.shots for u in units)
    pending = (shots + n * max(1, c.rearguard_shots_per_round)) * area_r + 2 * picks * area_m + n + 16
    width = max(n, int(us[:, k.C_KEY].max()) + 1)
    # trace: every death, every bombard, and per fight its start and rounds (at most 3 fights per squad + 1)
    capacity = n + len(squads) + (3 * len(squads) + 2) * (c.max_rounds + 1) + 16 if trace else 0
    sizes = {k.H_US: us.size, k.H_Q: q.size, k.H_DYN: k.N_DYN * n, k.H_HOT: n * hot_width, k.H_QD: 3 * len(squads),
             k.H_WK: k.N_WROWS * width, k.H_PEND: 4 * pending, k.H_TR: capacity * k.EV_W}
    mem = np.zeros(k.TABLES + sum(sizes.values()), dtype=np.int64)
    mem[[k.H_U, k.H_S, k.H_W, k.H_HW, k.H_P, k.H_TRCAP]] = (n, len(squads), width, hot_width, pending, capacity)
    at = k.TABLES
    for slot, size in sizes.items():
        mem[slot] = at
        at += size
    if not trace:
        mem[k.H_TR] = 0
    mem[k.KC:k.KC + kc.size] = kc
    mem[mem[k.H_US]:mem[k.H_US] + us.size] = us.reshape(-1)
    mem[mem[k.H_Q]:mem[k.H_Q] + q.size] = q.reshape(-1)
    return mem


def _unit_table(battle: Battle, state: BattleState, squads: list[Squad], units: list[Unit]) -> np.ndarray:
    c = battle.constants
    keys = sorted({u.stats.key for u in units})
    squad_of = {id(s): i for i, s in enumerate(squads)}
    us = np.zeros((len(units), k.N_COLS), dtype=np.int64)
    for i, u in enumerate(units):
        s, side = u.stats, state.sides[u.role]
        am, ar = s.area_melee, s.area_ranged
        defending = not battle.skip_planning and u.squad.setup.manoeuvre.kind == "defend"
        incoming = side.incoming + (side.creature_incoming if s.jade_creature else 0)
        row = {
            k.C_ATK: s.attack, k.C_DEF: s.defense, k.C_HP: s.hp, k.C_RDMG: s.ranged_damage, k.C_SHOTS: s.shots,
            k.C_PM: s.pierce(False), k.C_PR: s.pierce(True), k.C_SQUAD: squad_of[id(u.squad)],
            k.C_KEY: keys.index(s.key), k.C_OUT: side.outgoing,
            k.C_INM: incoming + s.melee_taken_pct, k.C_INR: incoming + s.ranged_taken_pct,
            k.C_ANTI: s.anti_charge_taken_pct,
            k.C_DEFD: s.defending_taken_pct, k.C_CB: s.charge_bonus_pct,
            k.C_FAT: c.defence_fatigue * c.fatigue_outgoing_pct if defending else 0,
            k.C_REGEN: s.regen, k.C_APICK: s.attacks_per_pick, k.C_HSELF: s.heal_self_on_attack,
            k.C_STRIP: s.strip_defense, k.C_HTOT: s.healer_total, k.C_HRND: s.healer_rounds,
            k.C_RUNES: int(s.runes), k.C_GROW: s.grow_attack_when_hurt, k.C_BNOW: s.breath_now,
            k.C_BNEXT: s.breath_next, k.C_BEVERY: s.breath_every,
            k.C_AMP: am.pct if am else 0, k.C_AMMIN: am.min if am else 0, k.C_AMMAX: am.max if am else 0,
            k.C_ARP: ar.pct if ar else 0, k.C_ARMIN: ar.min if ar else 0, k.C_ARMAX: ar.max if ar else 0,
            k.C_AOUT: s.squad_outgoing_pct, k.C_AIN: s.squad_incoming_pct, k.C_ASHOT: s.squad_shot_bonus_pct,
            k.C_AFEAR: s.enemy_outgoing_pct, k.C_AMFEAR: s.enemy_melee_outgoing_pct, k.C_SQHEAL: s.squad_heal,
        }
        row[k.C_AURA] = int(any(row[f] for f in (k.C_AOUT, k.C_AIN, k.C_ASHOT, k.C_AFEAR, k.C_AMFEAR)))
        row[k.C_TICKS] = int(bool(s.regen or s.grow_attack_when_hurt or s.runes))
        for col, value in row.items():
            us[i, col] = value
    return us


def _pos(p: Position | None) -> tuple[int, int]:
    return (FLANKS.index(p.flank), LINES.index(p.line)) if p is not None else (-1, -1)


def run_seeds(battle: Battle, seeds: list[int], mem: np.ndarray | None = None) -> KernelRuns:
    """(attacker won, rounds, rounds of all fights, timed out, alive [runs, U]): one run per battle seed."""
    mem = memory(battle) if mem is None else mem
    n = int(mem[k.H_U])
    runs = len(seeds)
    out: KernelRuns = (np.zeros(runs, dtype=bool), np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64),
           np.zeros(runs, dtype=bool), np.zeros((runs, n), dtype=bool))
    k.run_chunk(mem, np.array([as_int64(s) for s in seeds], dtype=np.int64), *out)
    return out


def fight_compiled(battle: Battle, seed: int) -> BattleResult:
    """One battle on the kernel, traced and read back into the reference's BattleResult."""
    mem = memory(battle, trace=True)
    _, rounds, _, timeout, alive = run_seeds(battle, [seed], mem)
    if mem[k.H_TRN] > mem[k.H_TRCAP]:
        raise RuntimeError("the battle's trace overflowed")
    events = mem[mem[k.H_TR]:mem[k.H_TR] + mem[k.H_TRN] * k.EV_W].reshape(-1, k.EV_W)
    state = BattleState(battle)
    squads = [s for role in ROLES for s in state.sides[role].squads]
    units = [u for s in squads for u in s.units]
    for u, live in zip(units, alive[0], strict=True):
        u.alive = bool(live)
    shots: list[tuple[str, Squad, Squad, int, int]] = []
    fights: list[_TracedFight] = []
    bombard_dead: list[Unit] = []
    for ev in events.tolist():
        kind, f = ev[0], ev[1:]
        if kind == k.EV_BOMBARD:
            src, tgt = squads[f[0]], squads[f[1]]
            shots.append((src.role, src, tgt, f[2], f[3]))
        elif kind == k.EV_FIGHT:
            fights.append({"head": f, "rounds": [], "dead": {r: {} for r in ROLES}})
        elif kind == k.EV_ROUND:
            fights[-1]["rounds"].append(RoundSummary(f[0], (f[1], f[2]), (f[3], f[4]), (f[5], f[6])))
        elif kind == k.EV_DEATH:
            u = units[f[0]]
            if fights:
                dead = fights[-1]["dead"][u.role]
                dead[u.stats.key] = dead.get(u.stats.key, 0) + 1
            else:
                bombard_dead.append(u)
    shot_summaries = []
    for role, src, tgt, n, dmg in shots:
        kills: dict[str, int] = {}
        for u in bombard_dead:
            if u.squad is tgt:
                kills[u.stats.key] = kills.get(u.stats.key, 0) + 1
        shot_summaries.append(ShotSummary(role, squad_ru(role, src.setup.position),
                                          squad_ru(tgt.role, tgt.setup.position), n, dmg, counts(kills)))
    summaries = [_fight_summary(state, f) for f in fights]
    return assemble(state, shot_summaries, summaries, int(rounds[0]), bool(timeout[0]))


def _fight_summary(state: BattleState, fight: _TracedFight) -> FightSummary:
    phase, flank, _, f0, l0, _, f1, l1, n0, n1, flanked = fight["head"][:11]
    phase_name = PHASES[phase]
    if phase_name == "finale":
        labels = (f"все выжившие {ROLE_GEN['attacker']}", f"все выжившие {ROLE_GEN['defender']}")
        state.sides["attacker"].flanked, state.sides["defender"].flanked = bool(flanked & 1), bool(flanked & 2)
    else:
        labels = (squad_ru("attacker", Position(FLANKS[f0], LINES[l0])),
                  squad_ru("defender", Position(FLANKS[f1], LINES[l1])))
    rounds = tuple(fight["rounds"])
    a, d = rounds[-1].alive
    winner = "both_dead" if not a and not d else "defender" if not a else "attacker" if not d else "timeout"
    return FightSummary(phase_name, FLANKS[flank] if flank >= 0 else "", labels, (n0, n1), rounds, winner,
                        (counts(fight["dead"]["attacker"]), counts(fight["dead"]["defender"])))


def kernel_ready() -> bool:
    """Whether the kernel is loaded in this process, or waits for this machine in numba's disk cache (then
    `warm_up` only loads it, in well under a second). False when `warm_up` would compile it (about 20 s of
    CPU), and whenever the cache cannot be read as this numba keeps it: the index is numba's private one,
    read as its own dispatcher reads it (the signature, this CPU, the function's byte code, the source
    file's stamp, then the data file the index names), and any surprise there (another numba, a file
    that cannot be read, an attribute gone) is "not ready": a wait for a compile, never wrong odds.
    Nothing is compiled or loaded."""
    try:
        import numba
        typeof: Any = numba.typeof
        kernel: Any = k.run_chunk
        i64, flags = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=bool)
        sig = tuple(typeof(a) for a in (i64, i64, flags, i64, i64, flags, np.zeros((1, 1), dtype=bool)))
        if sig in kernel.overloads:
            return True
        cache = kernel._cache
        files = cache._cache_file
        name = files._load_index().get(cache._index_key(sig, kernel.targetctx.codegen()))
        return isinstance(name, str) and os.path.isfile(files._data_path(name))
    except Exception:
        return False


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernel on a two-against-two duel."""
    from engine.jade_rose.battle.constants import BattleConstants
    from engine.jade_rose.battle.model import Manoeuvre, SideSetup, SquadSetup
    from engine.jade_rose.battle.stats import UnitStats
    unit = UnitStats(key="u", faction="f", name="u", attack=3, hp=5, defense=0)
    side = SideSetup("f", (SquadSetup(Position("left", "vanguard"), (("u", 2),), Manoeuvre()),))
    run_seeds(Battle(side, side, {"u": unit}, BattleConstants()), [0])
