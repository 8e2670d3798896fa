"""The compiled battle kernel (numba): every run of a chunk, one after another, as plain scalar code.
One file on purpose, long as it is: numba's disk cache sees edits only to a cached function's own file.

A step-for-step port of the reference (planning.py, clash.py, finale.py, fight.py, abilities.py) that rolls
the reference's dice: engine.rng's splitmix64 (`_mix64`, `_below`, `_stream` repeat `mix64`, `Dice.below` and
`sub_seed` bit for bit), the same five streams per battle and the same draws in the same order, so one seed
gives the identical battle. What that takes: living units are listed in deployment order (a death closes the
gap instead of swapping the last unit in), the attack rotation draws the next unit from the queue and swaps
the last one into its place, area hits are a partial Fisher-Yates shuffle, and at the start of a round each
side's breaths come before its rearguard's shots. A traced run (H_TR) also writes every bombard, fight,
round and death, which fast_compiled.py reads back into the reference's BattleResult.

Memory `m`: one int64 array, so that a call passes one array (numba passes every field of every array
argument by value) and nothing is reference-counted or allocated. Slot 0: the random state; then the
header (sizes and where each table starts), the fight counters `cn` and the constants `kc` at fixed
places, then the tables (row-major, a unit's fields side by side):
- units `us` [U, N_COLS], squads `q` [S, N_QCOLS] (static);
- per run: unit state `dyn` [U, N_DYN], healer regenerations to come `hot` [U, HW], squad positions and
  living counts `qd` [S, 3];
- per fight: unit lists `wk` [N_WROWS, W] and pending hits `pend` [4, P];
- the trace (traced runs only): H_TRCAP events of EV_W fields.
Groups of a fight: 0 and 1 fight (attacker, defender), 2 and 3 are the rearguards behind them (clash
only: they shoot and tick). Group g's living units are the first cn[CN_NL + g] entries of row W_LV + g;
dyn[u, D_LPOS] is u's place there (in deployment order, as the reference's `living()`).

All compiled code lives in this one module on purpose (hence its length): numba's on-disk cache only
notices edits to the file of a cached function, not to the callees it linked from other files. Constant
arguments of calls are numpy integers (ATT, VAN, MELEE, ...): numba would compile a separate copy for each
Python constant.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

# What the compiled code handles: the memory and the seeds (int64 arrays), the per-run flags (bool arrays) and
# int64 scalars (Python ints or numpy int64s when called from Python; numba's int64 once compiled).
Memory = npt.NDArray[np.int64]
Flags = npt.NDArray[np.bool_]
Int = int | np.int64
_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(f: _F) -> _F:
    return cast(_F, njit(_nrt=False)(f))


# header slots; H_STAMP: the last aura stamp (wk row W_SEEN keeps the stamp each unit type was last seen in);
# H_TR: where the trace starts (0: no trace), H_TRN: events written, H_TRCAP: events it can hold
H_U, H_S, H_W, H_HW, H_US, H_Q, H_DYN, H_HOT, H_QD, H_WK, H_PEND, H_P, H_STAMP, H_TR, H_TRN, H_TRCAP = range(1, 17)
CN = 20                     # fight counters start here
# cn: per group (4) member count, squad, living count, auras (N_AU each); per role (2) flags (6 each) and
# rotation length; list lengths; guard squad per (role, flank, line); this round's damage dealt by and
# deaths of each role (for the trace)
CN_NG, CN_GSQ, CN_NL, CN_AU, CN_FL, CN_RQN, CN_NT, CN_NTS, CN_NFL, CN_GUARD, CN_DEALT, CN_DIED = (
    0, 4, 8, 12, 32, 44, 46, 47, 48, 49, 61, 63)
N_CN = 65
# a group's auras: Σ% outgoing, incoming, to shots; the fear of its enemies on every attack (beer elemental)
# and on melee only (the vampire lord, RULINGS «Vampire lord»)
AU_OUT, AU_IN, AU_SHOT, AU_FEAR, AU_MFEAR = range(5)
N_AU = 5
FL_CHARGER, FL_AGAINST, FL_DEFENDING, FL_FLANKED, FL_OUTN, FL_BONUS = range(6)   # FL_BONUS: role 0 only
KC = CN + N_CN              # constants start here; rune r's (defence, heal, attack, outgoing %) at K_RUNES + 4 r
(K_RATIO, K_OUTN, K_FLANKP, K_COVERP, K_MAXR, K_RSHOTS, K_TIE_ATT, K_SKIP, K_NRUNES, K_NATT, K_HEALERS,
 K_BREATH, K_NCHARGE, K_RUNES) = range(14)
MAX_RUNES = 8
TABLES = KC + K_RUNES + 4 * MAX_RUNES
R_DEF, R_HEAL, R_ATK, R_OUT = range(4)
# unit table columns (what every attack reads first); C_INM / C_INR: the unit's own Σin for melee /
# ranged hits (side, forge, resistance); C_TICKS: regeneration, golem growth or runes (work every round)
(C_DEF, C_INM, C_INR, C_ANTI, C_DEFD, C_ATK, C_PM, C_AMP, C_AMMIN, C_AMMAX, C_OUT, C_FAT, C_CB, C_APICK, C_HSELF,
 C_STRIP, C_RDMG, C_PR, C_ARP, C_ARMIN, C_ARMAX, C_HP, C_SHOTS, C_SQUAD, C_KEY, C_REGEN, C_HTOT, C_HRND, C_RUNES,
 C_GROW, C_BNOW, C_BNEXT, C_BEVERY, C_AOUT, C_AIN, C_ASHOT, C_AFEAR, C_AMFEAR, C_AURA, C_SQHEAL, C_TICKS) = range(41)
N_COLS = 41
# squad table columns; positions: flank 0-2 (left, center, right), line VAN / REAR; Q_CHARGE_ORDER: the
# squads that charge, in charge order (flank, then the attacker's first), in the first K_NCHARGE rows
(Q_START, Q_END, Q_ROLE, Q_FLANK, Q_LINE, Q_KIND, Q_TFLANK, Q_TLINE, Q_MFLANK, Q_MLINE, Q_HEALER,
 Q_CHARGE_ORDER) = range(12)
N_QCOLS = 12
K_NONE, K_CHANGE, K_DEFEND, K_COVER, K_CHARGE, K_BOMBARD, K_LONG_BOMBARD = range(7)
VAN, REAR = np.int64(0), np.int64(1)
ATT, DEF = np.int64(0), np.int64(1)          # roles, and the fighting groups of each
RANGED, MELEE = np.int64(0), np.int64(1)
NO, YES = np.int64(0), np.int64(1)
# unit state fields; D_GRP: the unit's group in the current fight (-1: none)
D_HP, D_ALIVE, D_ATKB, D_STRIP, D_RUNE, D_DOT1, D_DOT2, D_HURT, D_GRP, D_LPOS = range(10)
N_DYN = 10
QD_FLANK, QD_LINE, QD_LIVE = range(3)
# unit-list rows: members and living units per group, rotation queues, ticking units (all / with work
# every round), group members with round work, sampling scratch, seen unit types
W_GRP, W_LV, W_RQ, W_TK, W_TKS, W_FL, W_SAMP, W_SEEN = 0, 4, 8, 10, 11, 12, 13, 14
N_WROWS = 15
P_T, P_D, P_A, P_AT = range(4)      # pending rows: hit unit, its damage; after-hit effects: attacker, target
# trace events (one battle, for its report and the tests), EV_W fields each, the type first:
# bombard (squad, target squad, shots, damage); fight (phase, flank, attacker's squad, its flank, line,
# defender's squad, its flank, line, living at the start of each side, finale flanking: 1 attacker, 2 defender);
# round (number, damage dealt by each side, deaths of each side, living of each side); death (unit)
EV_BOMBARD, EV_FIGHT, EV_ROUND, EV_DEATH = 1, 2, 3, 4
PH_CHARGE, PH_CLASH, PH_FINALE = np.int64(0), np.int64(1), np.int64(2)
EV_W = 12

_GOLDEN = np.int64(0x9E3779B97F4A7C15 - (1 << 64))     # splitmix64 constants as int64 bit patterns
_MIX1 = np.int64(0xBF58476D1CE4E5B9 - (1 << 64))
_MIX2 = np.int64(0x94D049BB133111EB - (1 << 64))


@_jit
def _mix64(z: Int) -> Int:
    """engine.rng.mix64 on int64 bit patterns (logical shifts by masking)."""
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * _MIX1
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return z ^ ((z >> 31) & 0x1FFFFFFFF)


@_jit
def _stream(m: Memory, seed: Int, tag: Int) -> None:
    """Start stream `tag` below a battle's seed (engine.rng.sub_seed): its state goes to m[0]."""
    m[0] = _mix64(seed + (tag + 1) * _GOLDEN)


@_jit
def _below(m: Memory, n: Int) -> Int:
    """engine.rng.Dice.below on the state m[0]: a uniform integer in [0, n), 1 <= n < 2**31."""
    z = m[0] + _GOLDEN
    m[0] = z
    return (((_mix64(z) >> 32) & 0xFFFFFFFF) * n) >> 32


@_jit
def _event(m: Memory, kind: Int) -> Int:
    """A new trace event of `kind` (its first field's index), or -1 when the run is not traced."""
    if m[H_TR] == 0:
        return -1
    n = m[H_TRN]
    if n >= m[H_TRCAP]:
        m[H_TRN] = n + 1            # counted, not written: the caller sees the overflow
        return -1
    m[H_TRN] = n + 1
    e = m[H_TR] + n * EV_W
    m[e] = kind
    m[e + 1:e + EV_W] = 0
    return e + 1       # type: ignore[no-any-return]  # numpy types an element of an int64 array as Any


@_jit
def _heal(m: Memory, u: Int, amount: Int) -> None:
    """Heal a living unit, capped at its maximum HP."""
    dyn = m[H_DYN]
    hp = dyn + u * N_DYN + D_HP
    if amount > 0 and m[dyn + u * N_DYN + D_ALIVE] != 0 and m[hp] > 0:
        m[hp] = min(m[m[H_US] + u * N_COLS + C_HP], m[hp] + amount)


@_jit
def _squad_at(m: Memory, role: Int, flank: Int, line: Int) -> Int:
    """The first living squad of a side at a position (-1: none)."""
    q, qd = m[H_Q], m[H_QD]
    for s in range(m[H_S]):
        p = qd + 3 * s
        if m[q + s * N_QCOLS + Q_ROLE] == role and m[p + QD_FLANK] == flank and m[p + QD_LINE] == line \
                and m[p + QD_LIVE] > 0:
            return s
    return -1


@_jit
def _front_of(m: Memory, s: Int) -> Int:
    """The squad whose units a healer of squad s heals instead of its own (planning.heal_front); -1: own."""
    qd = m[H_QD]
    if s < 0 or m[qd + 3 * s + QD_LINE] != REAR:
        return -1
    return _squad_at(m, m[m[H_Q] + s * N_QCOLS + Q_ROLE], m[qd + 3 * s + QD_FLANK], VAN)


@_jit
def _auras(m: Memory, g: Int) -> None:
    """Aura sums of group g's living units, each unit type once (JR-37)."""
    us, W, wk = m[H_US], m[H_W], m[H_WK]
    m[H_STAMP] += 1
    stamp = m[H_STAMP]
    au = CN + CN_AU + N_AU * g
    m[au:au + N_AU] = 0
    seen = wk + W_SEEN * W
    for j in range(m[CN + CN_NL + g]):
        u = m[wk + (W_LV + g) * W + j]
        row = us + u * N_COLS
        if m[row + C_AURA] != 0 and m[seen + m[row + C_KEY]] != stamp:
            m[seen + m[row + C_KEY]] = stamp
            m[au + AU_OUT] += m[row + C_AOUT]
            m[au + AU_IN] += m[row + C_AIN]
            m[au + AU_SHOT] += m[row + C_ASHOT]
            m[au + AU_FEAR] += m[row + C_AFEAR]
            m[au + AU_MFEAR] += m[row + C_AMFEAR]


@_jit
def _group_start(m: Memory, g: Int) -> None:
    """Living list and auras of group g from its members; the members learn their group."""
    W, dyn, wk = m[H_W], m[H_DYN], m[H_WK]
    n = 0
    for j in range(m[CN + CN_NG + g]):
        u = m[wk + (W_GRP + g) * W + j]
        m[dyn + u * N_DYN + D_GRP] = g
        if m[dyn + u * N_DYN + D_ALIVE] != 0:
            m[wk + (W_LV + g) * W + n] = u
            m[dyn + u * N_DYN + D_LPOS] = n
            n += 1
    m[CN + CN_NL + g] = n
    _auras(m, g)


@_jit
def _groups_end(m: Memory) -> None:
    """Clear the four groups (the members forget their group)."""
    W, dyn, wk = m[H_W], m[H_DYN], m[H_WK]
    for g in range(4):
        for j in range(m[CN + CN_NG + g]):
            m[dyn + m[wk + (W_GRP + g) * W + j] * N_DYN + D_GRP] = -1
        m[CN + CN_NG + g] = 0
        m[CN + CN_NL + g] = 0
        m[CN + CN_GSQ + g] = -1


@_jit
def _set_group(m: Memory, g: Int, s: Int) -> None:
    """Group g = the units of squad s (none when s < 0)."""
    m[CN + CN_GSQ + g] = s
    m[CN + CN_NG + g] = 0
    if s >= 0:
        q, W, wk = m[H_Q] + s * N_QCOLS, m[H_W], m[H_WK]
        n = m[q + Q_END] - m[q + Q_START]
        for j in range(n):
            m[wk + (W_GRP + g) * W + j] = m[q + Q_START] + j
        m[CN + CN_NG + g] = n


@_jit
def _kill(m: Memory, u: Int) -> None:
    """u dies: off its squad's count and its group's living list (auras recounted if it held one)."""
    W, dyn, wk, us = m[H_W], m[H_DYN], m[H_WK], m[H_US]
    m[dyn + u * N_DYN + D_ALIVE] = 0
    m[m[H_QD] + 3 * m[us + u * N_COLS + C_SQUAD] + QD_LIVE] -= 1
    m[CN + CN_DIED + (0 if u < m[KC + K_NATT] else 1)] += 1
    e = _event(m, EV_DEATH)
    if e >= 0:
        m[e] = u
    g = m[dyn + u * N_DYN + D_GRP]
    if g >= 0:                  # off the living list, keeping deployment order (the reference's order)
        n = m[CN + CN_NL + g] - 1
        lv = wk + (W_LV + g) * W
        for j in range(m[dyn + u * N_DYN + D_LPOS], n):
            v = m[lv + j + 1]
            m[lv + j] = v
            m[dyn + v * N_DYN + D_LPOS] = j
        m[lv + n] = u
        m[CN + CN_NL + g] = n
        if m[us + u * N_COLS + C_AURA] != 0:
            _auras(m, g)


@_jit
def _strike(m: Memory, npd: Int, a: Int, g: Int, ge: Int, melee: Int, bonus: Int, extra_in: Int) -> Int:
    """One attack (melee != 0) or shot of unit a of group g on fighting group ge: its target(s), an area
    where a has one (JR-30), and their damage (abilities.roll_damage) join the pending hits.

    bonus != 0: the charge bonus applies; extra_in: cover (bombards). Returns the pending count.
    """
    us, W, dyn, wk, pend, P = m[H_US], m[H_W], m[H_DYN], m[H_WK], m[H_PEND], m[H_P]
    row = us + a * N_COLS
    rune = m[dyn + a * N_DYN + D_RUNE]
    fl = CN + CN_FL + 6 * ge
    # Σout of the attacker and the part of Σin shared by the whole target group (abilities.*_pct)
    out = m[CN + CN_AU + N_AU * g + AU_OUT] + m[row + C_OUT] + m[row + C_FAT] + m[CN + CN_AU + N_AU * ge + AU_FEAR]
    side_in = m[CN + CN_AU + N_AU * ge + AU_IN] + extra_in
    if m[fl + FL_FLANKED] != 0:
        side_in += m[KC + K_FLANKP]
    if rune > 0:
        out += m[KC + K_RUNES + 4 * (rune - 1) + R_OUT]
    if melee != 0:
        top = m[row + C_ATK] + m[dyn + a * N_DYN + D_ATKB]
        if rune > 0:
            top += m[KC + K_RUNES + 4 * (rune - 1) + R_ATK]
        if top <= 0:
            return npd
        if bonus != 0 and m[CN + CN_FL + 6 * (g & 1) + FL_CHARGER] != 0:
            out += m[row + C_CB]
        if m[fl + FL_OUTN] != 0:
            side_in += m[KC + K_OUTN]
        out += m[CN + CN_AU + N_AU * ge + AU_MFEAR]
        pierce, area, taken = m[row + C_PM], row + C_AMP, C_INM
    else:
        top = m[row + C_RDMG]
        out += m[CN + CN_AU + N_AU * g + AU_SHOT]
        pierce, area, taken = m[row + C_PR], row + C_ARP, C_INR
    n = m[CN + CN_NL + ge]
    lv = wk + (W_LV + ge) * W
    samp = wk + W_SAMP * W
    if m[area] == 0 or n <= 1:
        k = 1
        m[samp] = m[lv + _below(m, n)]
    else:
        k = max(min((m[area] * n * 2 + 100) // 200, m[area + 2], n), min(m[area + 1], n))
        j: Int
        for j in range(n):
            m[samp + j] = m[lv + j]
        for i in range(k):
            j = i + _below(m, n - i)
            m[samp + i], m[samp + j] = m[samp + j], m[samp + i]
    against, defending = m[fl + FL_AGAINST], m[fl + FL_DEFENDING]
    factor_out = max(0, 100 + out)
    for i in range(k):
        t = m[samp + i]
        trow = us + t * N_COLS
        inn = side_in + m[trow + taken]
        if against != 0:
            inn += m[trow + C_ANTI]
        if defending != 0:
            inn += m[trow + C_DEFD]
        d = max(0, m[trow + C_DEF] - m[dyn + t * N_DYN + D_STRIP])
        r = m[dyn + t * N_DYN + D_RUNE]
        if r > 0:
            d += m[KC + K_RUNES + 4 * (r - 1) + R_DEF]
        base = max(max(0, _below(m, top) + 1 - d), pierce)
        m[pend + P_T * P + npd] = t
        m[pend + P_D * P + npd] = (2 * base * factor_out * max(0, 100 + inn) + 10000) // 20000
        npd += 1
    return npd


@_jit
def _apply_pending(m: Memory, npd: Int, hurt: Int) -> None:
    """Pending damage lands (marking the units hurt when hurt != 0), then the units at 0 HP die."""
    dyn, P = m[H_DYN], m[H_P]
    pt, pd = m[H_PEND] + P_T * P, m[H_PEND] + P_D * P
    natt = m[KC + K_NATT]
    for j in range(npd):
        if m[pd + j] > 0:
            m[dyn + m[pt + j] * N_DYN + D_HP] -= m[pd + j]
            m[CN + CN_DEALT + (1 if m[pt + j] < natt else 0)] += m[pd + j]
            if hurt != 0:
                m[dyn + m[pt + j] * N_DYN + D_HURT] = 1
    for j in range(npd):
        t = m[pt + j]
        if m[dyn + t * N_DYN + D_ALIVE] != 0 and m[dyn + t * N_DYN + D_HP] <= 0:
            _kill(m, t)


@_jit
def _next_attacker(m: Memory, role: Int) -> Int:
    """The next unit of a side's rotation: every living unit once, in random order, then a new cycle."""
    W, dyn, wk = m[H_W], m[H_DYN], m[H_WK]
    rq = wk + (W_RQ + role) * W
    while True:
        n = m[CN + CN_RQN + role]
        while n > 0:
            j = _below(m, n)
            u = m[rq + j]
            n -= 1
            m[rq + j] = m[rq + n]
            if m[dyn + u * N_DYN + D_ALIVE] != 0:
                m[CN + CN_RQN + role] = n
                return u       # type: ignore[no-any-return]  # an element of m: Any in numpy's stubs
        live = m[CN + CN_NL + role]
        m[CN + CN_RQN + role] = live
        if live == 0:
            return -1
        lv = wk + (W_LV + role) * W
        for j in range(live):
            m[rq + j] = m[lv + j]


@_jit
def _tick_lists(m: Memory) -> None:
    """Per fight: the units that tick at the end of a round (every group member and the squads their
    healers heal, fight._end_of_round), those with work every round, and group members with round work."""
    us, W, wk, q = m[H_US], m[H_W], m[H_WK], m[H_Q]
    tk, tks, fl = wk + W_TK * W, wk + W_TKS * W, wk + W_FL * W
    nt = 0
    nts = 0
    nfl = 0
    for i in range(4):
        g = (0, 2, 1, 3)[i]
        for j in range(m[CN + CN_NG + g]):
            u = m[wk + (W_GRP + g) * W + j]
            row = us + u * N_COLS
            m[tk + nt] = u
            nt += 1
            if m[row + C_TICKS] != 0:
                m[tks + nts] = u
                nts += 1
            if m[row + C_RUNES] != 0 or m[row + C_BEVERY] != 0 or m[row + C_HRND] != 0 or m[row + C_SQHEAL] != 0:
                m[fl + nfl] = u
                nfl += 1
    for g in range(4):
        s = m[CN + CN_GSQ + g]
        if s >= 0 and m[q + s * N_QCOLS + Q_HEALER] != 0:
            f = _front_of(m, s)
            if f >= 0 and f != m[CN + CN_GSQ] and f != m[CN + CN_GSQ + 1] and f != m[CN + CN_GSQ + 2] \
                    and f != m[CN + CN_GSQ + 3]:
                for u in range(m[q + f * N_QCOLS + Q_START], m[q + f * N_QCOLS + Q_END]):
                    m[tk + nt] = u
                    nt += 1
                    if m[us + u * N_COLS + C_TICKS] != 0:
                        m[tks + nts] = u
                        nts += 1
    m[CN + CN_NT] = nt
    m[CN + CN_NTS] = nts
    m[CN + CN_NFL] = nfl


@_jit
def _round_start(m: Memory, number: Int) -> None:
    """Runes, then breath and rearguard shots, all against the state before any of them; deaths after."""
    us, W, dyn, wk = m[H_US], m[H_W], m[H_DYN], m[H_WK]
    fl = wk + W_FL * W
    npd: Int = NO
    for j in range(m[CN + CN_NFL]):
        u = m[fl + j]
        row = us + u * N_COLS
        g = m[dyn + u * N_DYN + D_GRP]
        if m[dyn + u * N_DYN + D_ALIVE] == 0 or g >= 2:
            continue
        if m[row + C_RUNES] != 0:
            r = _below(m, m[KC + K_NRUNES])
            m[dyn + u * N_DYN + D_RUNE] = r + 1
            _heal(m, u, m[KC + K_RUNES + 4 * r + R_HEAL])
    for role in range(2):              # per side: its breaths, then its rearguard's shots (fight._round_start)
        e = 1 - role
        n = m[CN + CN_NL + e]
        if n == 0:
            continue
        for j in range(m[CN + CN_NFL]):
            u = m[fl + j]
            row = us + u * N_COLS
            every = m[row + C_BEVERY]
            if m[dyn + u * N_DYN + D_GRP] != role or m[dyn + u * N_DYN + D_ALIVE] == 0 or every == 0 \
                    or (number - 1) % every != 0:
                continue
            t = m[wk + (W_LV + e) * W + _below(m, n)]
            m[m[H_PEND] + P_T * m[H_P] + npd] = t
            m[m[H_PEND] + P_D * m[H_P] + npd] = m[row + C_BNOW]
            npd += 1
            m[dyn + t * N_DYN + D_DOT2] += m[row + C_BNEXT]
        for j in range(m[CN + CN_NL + 2 + role]):
            u = m[wk + (W_LV + 2 + role) * W + j]
            if m[us + u * N_COLS + C_RDMG] > 0:
                for _ in range(m[KC + K_RSHOTS]):
                    npd = _strike(m, npd, u, 2 + role, e, RANGED, NO, NO)
    _apply_pending(m, npd, YES)


@_jit
def _steps(m: Memory, charge_round: Int) -> None:
    """N = max(living) steps: the next unit of each side strikes, against the step's starting state;
    damage, the paladin's self-heal and defence stripping land at the end of the step, then deaths."""
    us, dyn, P = m[H_US], m[H_DYN], m[H_P]
    pt, pd, aa, at = (m[H_PEND] + P_T * P, m[H_PEND] + P_D * P, m[H_PEND] + P_A * P, m[H_PEND] + P_AT * P)
    for _ in range(max(m[CN + CN_NL], m[CN + CN_NL + 1])):
        npd: Int = NO
        na = 0
        for role in range(2):
            a = _next_attacker(m, role)
            if a < 0:
                continue
            row = us + a * N_COLS
            after = m[row + C_HSELF] != 0 or m[row + C_STRIP] != 0
            for _strike_no in range(m[row + C_APICK]):
                first = npd
                npd = _strike(m, npd, a, role, 1 - role, MELEE, charge_round, NO)
                if after:
                    for j in range(first, npd):
                        m[aa + na] = a
                        m[at + na] = m[pt + j]
                        na += 1
        natt = m[KC + K_NATT]
        for j in range(npd):
            if m[pd + j] > 0:
                m[dyn + m[pt + j] * N_DYN + D_HP] -= m[pd + j]
                m[CN + CN_DEALT + (1 if m[pt + j] < natt else 0)] += m[pd + j]
                m[dyn + m[pt + j] * N_DYN + D_HURT] = 1
        for j in range(na):
            a = m[aa + j]
            if m[dyn + a * N_DYN + D_HP] > 0:
                _heal(m, a, m[us + a * N_COLS + C_HSELF])
            m[dyn + m[at + j] * N_DYN + D_STRIP] += m[us + a * N_COLS + C_STRIP]
        for j in range(npd):
            t = m[pt + j]
            if m[dyn + t * N_DYN + D_ALIVE] != 0 and m[dyn + t * N_DYN + D_HP] <= 0:
                _kill(m, t)
        if m[CN + CN_NL] == 0 or m[CN + CN_NL + 1] == 0:
            return


@_jit
def _healer(m: Memory, h: Int) -> None:
    """Healer h puts a regeneration on a random wounded non-healer of the squad in front of its rearguard,
    else of its own group."""
    us, W, dyn, wk, q = m[H_US], m[H_W], m[H_DYN], m[H_WK], m[H_Q]
    g = m[dyn + h * N_DYN + D_GRP]
    f = _front_of(m, m[CN + CN_GSQ + g])
    members = wk + (W_GRP + g) * W
    lo, hi = (m[q + f * N_QCOLS + Q_START], m[q + f * N_QCOLS + Q_END]) if f >= 0 else (0, m[CN + CN_NG + g])
    count = NO
    for i in range(lo, hi):
        t = i if f >= 0 else m[members + i]
        if m[dyn + t * N_DYN + D_ALIVE] != 0 and m[us + t * N_COLS + C_HRND] == 0 \
                and m[dyn + t * N_DYN + D_HP] < m[us + t * N_COLS + C_HP]:
            count += 1
    if count == 0:
        return
    pick = _below(m, count)
    for i in range(lo, hi):
        t = i if f >= 0 else m[members + i]
        if m[dyn + t * N_DYN + D_ALIVE] != 0 and m[us + t * N_COLS + C_HRND] == 0 \
                and m[dyn + t * N_DYN + D_HP] < m[us + t * N_COLS + C_HP]:
            if pick == 0:
                n, total = m[us + h * N_COLS + C_HRND], m[us + h * N_COLS + C_HTOT]
                hot = m[H_HOT] + t * m[H_HW]
                for k in range(n):
                    m[hot + k] += total // n + (1 if k < total % n else 0)
                return
            pick -= 1


@_jit
def _end_round(m: Memory) -> None:
    """Afterburn, regeneration, healers, the beer elemental, golem growth; runes expire (fight._end_of_round)."""
    us, W, dyn, wk = m[H_US], m[H_W], m[H_DYN], m[H_WK]
    tk, tks, fl = wk + W_TK * W, wk + W_TKS * W, wk + W_FL * W
    nt = m[CN + CN_NT]
    if m[KC + K_BREATH] != 0:
        for j in range(nt):
            u = m[tk + j]
            burn = m[dyn + u * N_DYN + D_DOT1]
            m[dyn + u * N_DYN + D_DOT1] = m[dyn + u * N_DYN + D_DOT2]
            m[dyn + u * N_DYN + D_DOT2] = 0
            if burn > 0 and m[dyn + u * N_DYN + D_ALIVE] != 0:
                m[dyn + u * N_DYN + D_HP] -= burn
                m[CN + CN_DEALT + (1 if u < m[KC + K_NATT] else 0)] += burn
                m[dyn + u * N_DYN + D_HURT] = 1
        for j in range(nt):
            u = m[tk + j]
            if m[dyn + u * N_DYN + D_ALIVE] != 0 and m[dyn + u * N_DYN + D_HP] <= 0:
                _kill(m, u)
    for j in range(m[CN + CN_NTS]):
        u = m[tks + j]
        _heal(m, u, m[us + u * N_COLS + C_REGEN])
    if m[KC + K_HEALERS] != 0:
        for j in range(m[CN + CN_NFL]):
            h = m[fl + j]
            if m[us + h * N_COLS + C_HRND] > 0 and m[dyn + h * N_DYN + D_ALIVE] != 0:
                _healer(m, h)
        width = m[H_HW]
        for j in range(nt):
            u = m[tk + j]
            hot = m[H_HOT] + u * width
            pending = False
            for k in range(width):
                pending = pending or m[hot + k] != 0
            if pending:
                _heal(m, u, m[hot])
                for k in range(width - 1):
                    m[hot + k] = m[hot + k + 1]
                m[hot + width - 1] = 0
    for j in range(m[CN + CN_NFL]):
        b = m[fl + j]
        amount = m[us + b * N_COLS + C_SQHEAL]
        if amount > 0 and m[dyn + b * N_DYN + D_ALIVE] != 0:
            g = m[dyn + b * N_DYN + D_GRP]
            lv = wk + (W_LV + g) * W
            for i in range(m[CN + CN_NL + g]):
                if m[lv + i] != b:
                    _heal(m, m[lv + i], amount)
    for j in range(m[CN + CN_NTS]):
        u = m[tks + j]
        if m[dyn + u * N_DYN + D_ALIVE] != 0 and m[dyn + u * N_DYN + D_HURT] != 0:
            m[dyn + u * N_DYN + D_ATKB] += m[us + u * N_COLS + C_GROW]
        m[dyn + u * N_DYN + D_HURT] = 0
        m[dyn + u * N_DYN + D_RUNE] = 0


@_jit
def _fight(m: Memory, phase: Int, flank: Int) -> tuple[int, bool]:
    """The fight set up in groups 0-3 and the role flags, round by round to the end (fight.run_fight).

    Returns (rounds, timed out); the groups are cleared afterwards.
    """
    for g in range(4):
        _group_start(m, g)
    _tick_lists(m)
    m[CN + CN_RQN] = 0
    m[CN + CN_RQN + 1] = 0
    e = _event(m, EV_FIGHT)
    if e >= 0:
        m[e] = phase
        m[e + 1] = flank
        for role in range(2):
            s = m[CN + CN_GSQ + role]
            m[e + 2 + 3 * role] = s
            if s >= 0:
                m[e + 3 + 3 * role] = m[m[H_QD] + 3 * s + QD_FLANK]
                m[e + 4 + 3 * role] = m[m[H_QD] + 3 * s + QD_LINE]
        m[e + 8] = m[CN + CN_NL]
        m[e + 9] = m[CN + CN_NL + 1]
        m[e + 10] = m[CN + CN_FL + FL_FLANKED] + 2 * m[CN + CN_FL + 6 + FL_FLANKED]
    number = 0
    timeout = False
    while True:
        number += 1
        m[CN + CN_DEALT:CN + CN_DEALT + 4] = 0
        n0, n1 = m[CN + CN_NL], m[CN + CN_NL + 1]
        m[CN + CN_FL + FL_OUTN] = 1 if n1 >= m[KC + K_RATIO] * n0 else 0
        m[CN + CN_FL + 6 + FL_OUTN] = 1 if n0 >= m[KC + K_RATIO] * n1 else 0
        _round_start(m, number)
        if m[CN + CN_NL] > 0 and m[CN + CN_NL + 1] > 0:
            _steps(m, 1 if number == 1 and m[CN + CN_FL + FL_BONUS] != 0 else 0)
        _end_round(m)
        e = _event(m, EV_ROUND)
        if e >= 0:
            m[e] = number
            for j in range(4):
                m[e + 1 + j] = m[CN + CN_DEALT + j]
            m[e + 5] = m[CN + CN_NL]
            m[e + 6] = m[CN + CN_NL + 1]
        if m[CN + CN_NL] == 0 or m[CN + CN_NL + 1] == 0:
            break
        if number >= m[KC + K_MAXR]:
            timeout = True
            break
    _groups_end(m)
    return number, timeout


@_jit
def _bombards(m: Memory) -> None:
    """Every bombard of both sides against the state before any of them; deaths after (planning._bombards)."""
    us, U, W, dyn, wk, q = m[H_US], m[H_U], m[H_W], m[H_DYN], m[H_WK], m[H_Q]
    m[CN + CN_FL:CN + CN_FL + 12] = 0
    npd: Int = NO
    for s in range(m[H_S]):
        row = q + s * N_QCOLS
        kind = m[row + Q_KIND]
        if (kind != K_BOMBARD and kind != K_LONG_BOMBARD) or m[m[H_QD] + 3 * s + QD_LIVE] == 0:
            continue
        target = _squad_at(m, 1 - m[row + Q_ROLE], m[row + Q_TFLANK], m[row + Q_TLINE])
        if target < 0:
            continue
        _set_group(m, ATT, s)
        _set_group(m, DEF, target)
        _group_start(m, ATT)
        _group_start(m, DEF)
        cover = m[KC + K_COVERP] if m[q + target * N_QCOLS + Q_KIND] == K_COVER else NO
        first = npd
        shots = 0
        for j in range(m[CN + CN_NL]):
            u = m[wk + W_LV * W + j]
            for _ in range(m[us + u * N_COLS + C_SHOTS]):
                shots += 1
                npd = _strike(m, npd, u, ATT, DEF, RANGED, NO, cover)
        _groups_end(m)
        e = _event(m, EV_BOMBARD)
        if e >= 0:
            m[e] = s
            m[e + 1] = target
            m[e + 2] = shots
            for j in range(first, npd):
                m[e + 3] += m[m[H_PEND] + P_D * m[H_P] + j]
    _apply_pending(m, npd, NO)
    for u in range(U):
        m[dyn + u * N_DYN + D_HURT] = 0


@_jit
def _charge_setup(m: Memory, s: Int, opp: Int, guard: Int, first: Int) -> None:
    """Groups and flags of squad s charging squad opp (planning._charge)."""
    role = m[m[H_Q] + s * N_QCOLS + Q_ROLE]
    e = 1 - role
    _set_group(m, role, s)
    _set_group(m, e, opp)
    m[CN + CN_FL:CN + CN_FL + 12] = 0
    m[CN + CN_FL + 6 * role + FL_CHARGER] = 1
    m[CN + CN_FL + 6 * e + FL_AGAINST] = 1
    m[CN + CN_FL + 6 * e + FL_DEFENDING] = 1 if opp == guard else 0
    m[CN + CN_FL + FL_BONUS] = first


@_jit
def _moves(m: Memory) -> None:
    """Changes of position (swaps included) together, then the free moves; then rearguards step up."""
    q, qd = m[H_Q], m[H_QD]
    for s in range(m[H_S]):
        row, p = q + s * N_QCOLS, qd + 3 * s
        if m[row + Q_KIND] == K_CHANGE and m[p + QD_LIVE] > 0:
            m[p + QD_FLANK] = m[row + Q_TFLANK]
            m[p + QD_LINE] = m[row + Q_TLINE]
    for s in range(m[H_S]):
        row, p = q + s * N_QCOLS, qd + 3 * s
        if m[row + Q_MFLANK] >= 0 and m[p + QD_LIVE] > 0:
            m[p + QD_FLANK] = m[row + Q_MFLANK]
            m[p + QD_LINE] = m[row + Q_MLINE]
    for role in range(2):
        for flank in range(3):
            if _squad_at(m, role, flank, VAN) < 0:
                r = _squad_at(m, role, flank, REAR)
                if r >= 0:
                    m[qd + 3 * r + QD_LINE] = VAN


@_jit
def _flank_setup(m: Memory, flank: Int) -> bool:
    """The next fight of a flank: both fronts (a rearguard steps up when its vanguard is gone) with the
    rearguards behind them (clash.run_flank). False when a side has no squad left there."""
    for role in range(2):
        v = _squad_at(m, role, flank, VAN)
        r = _squad_at(m, role, flank, REAR)
        _set_group(m, role, v if v >= 0 else r)
        _set_group(m, 2 + role, r if v >= 0 else -1)
    if m[CN + CN_GSQ] < 0 or m[CN + CN_GSQ + 1] < 0:
        _groups_end(m)
        return False
    qd = m[H_QD]
    m[qd + 3 * m[CN + CN_GSQ] + QD_LINE] = VAN
    m[qd + 3 * m[CN + CN_GSQ + 1] + QD_LINE] = VAN
    m[CN + CN_FL:CN + CN_FL + 12] = 0
    return True


@_jit
def _finale_setup(m: Memory) -> bool:
    """All survivors of each side in one group; fewer surviving squads: flanked (finale.run_finale).
    False when a side has nobody left."""
    U, W, dyn, wk, q, qd = m[H_U], m[H_W], m[H_DYN], m[H_WK], m[H_Q], m[H_QD]
    natt = m[KC + K_NATT]
    n_att = 0
    n_def = 0
    for u in range(U):
        if m[dyn + u * N_DYN + D_ALIVE] != 0:
            if u < natt:
                m[wk + W_GRP * W + n_att] = u
                n_att += 1
            else:
                m[wk + (W_GRP + 1) * W + n_def] = u
                n_def += 1
    if n_att == 0 or n_def == 0:
        return False
    squads_att = 0
    squads_def = 0
    for s in range(m[H_S]):
        if m[qd + 3 * s + QD_LIVE] > 0:
            if m[q + s * N_QCOLS + Q_ROLE] == 0:
                squads_att += 1
            else:
                squads_def += 1
    m[CN + CN_NG:CN + CN_NG + 4] = 0
    m[CN + CN_NG] = n_att
    m[CN + CN_NG + 1] = n_def
    m[CN + CN_GSQ:CN + CN_GSQ + 4] = -1
    m[CN + CN_FL:CN + CN_FL + 12] = 0
    m[CN + CN_FL + FL_FLANKED] = 1 if squads_att < squads_def else 0
    m[CN + CN_FL + 6 + FL_FLANKED] = 1 if squads_def < squads_att else 0
    return True


@_jit
def _reset(m: Memory) -> None:
    """Every unit alive at full HP, every squad where it was deployed."""
    U, dyn, us, q, qd = m[H_U], m[H_DYN], m[H_US], m[H_Q], m[H_QD]
    m[dyn:dyn + N_DYN * U] = 0
    m[m[H_HOT]:m[H_HOT] + U * m[H_HW]] = 0
    for u in range(U):
        m[dyn + u * N_DYN + D_HP] = m[us + u * N_COLS + C_HP]
        m[dyn + u * N_DYN + D_ALIVE] = 1
        m[dyn + u * N_DYN + D_GRP] = -1
    for s in range(m[H_S]):
        m[qd + 3 * s + QD_FLANK] = m[q + s * N_QCOLS + Q_FLANK]
        m[qd + 3 * s + QD_LINE] = m[q + s * N_QCOLS + Q_LINE]
        m[qd + 3 * s + QD_LIVE] = m[q + s * N_QCOLS + Q_END] - m[q + s * N_QCOLS + Q_START]
    m[CN:CN + N_CN] = 0
    m[CN + CN_GSQ:CN + CN_GSQ + 4] = -1


def _entry(f: _F) -> _F:
    """The entry point, kept in numba's on-disk cache (compiled in memory when no cache place is writable)."""
    try:
        return cast(_F, njit(cache=True, nogil=True, _nrt=False)(f))
    except Exception:
        return cast(_F, njit(nogil=True, _nrt=False)(f))


@_entry
def run_chunk(m: Memory, seeds: Memory, won: Flags, rounds: Memory, every: Memory, timeouts: Flags,
              alive: Flags) -> None:
    """One run per seed (a battle's seed, as for reference.fight_once) on the memory m of one battle
    (fast_compiled.memory); the streams are the reference's: 0 planning, 1-3 the flanks, 4 the finale.

    Writes per run: attacker won, rounds as the battle unfolds, rounds of all fights, timed out, and
    which units are alive [R, U].
    """
    U, q, qd, dyn = m[H_U], m[H_Q], m[H_QD], m[H_DYN]
    natt = m[KC + K_NATT]
    for run in range(won.shape[0]):
        seed = seeds[run]
        _reset(m)
        total = 0
        all_fights = 0
        timeout = False
        if m[KC + K_SKIP] == 0:
            _stream(m, seed, 0)
            _bombards(m)
            m[CN + CN_GUARD:CN + CN_GUARD + 12] = -1     # defence: the (last) defending squad per position
            for s in range(m[H_S]):
                row = q + s * N_QCOLS
                if m[row + Q_KIND] == K_DEFEND and m[qd + 3 * s + QD_LIVE] > 0:
                    m[CN + CN_GUARD + 6 * m[row + Q_ROLE] + 2 * m[row + Q_TFLANK] + m[row + Q_TLINE]] = s
            for i in range(m[KC + K_NCHARGE]):           # planning._charges
                s = m[q + i * N_QCOLS + Q_CHARGE_ORDER]
                row = q + s * N_QCOLS
                e = 1 - m[row + Q_ROLE]
                target = _squad_at(m, e, m[row + Q_TFLANK], m[row + Q_TLINE])
                if target < 0 or m[qd + 3 * s + QD_LIVE] == 0:
                    continue
                guard = m[CN + CN_GUARD + 6 * e + 2 * m[row + Q_TFLANK] + m[row + Q_TLINE]]
                first = YES
                for k in range(2):
                    opp = guard if k == 0 else target
                    if opp < 0 or m[qd + 3 * opp + QD_LIVE] == 0:
                        continue
                    if m[qd + 3 * s + QD_LIVE] == 0:
                        break
                    _charge_setup(m, s, opp, guard, first)
                    n, to = _fight(m, PH_CHARGE, m[row + Q_FLANK])
                    total += n
                    all_fights += n
                    timeout = timeout or to
                    first = NO
            _moves(m)
        longest = 0
        for flank in range(3):                          # clash.run_flank
            here = 0
            _stream(m, seed, 1 + flank)
            while _flank_setup(m, flank):
                n, to = _fight(m, PH_CLASH, flank)
                here += n
                if to:
                    timeout = True
                    break
            longest = max(longest, here)
            all_fights += here
        total += longest
        _stream(m, seed, 4)
        if _finale_setup(m):
            n, to = _fight(m, PH_FINALE, -1)
            total += n
            all_fights += n
            timeout = timeout or to
        a = False
        d = False
        for u in range(U):
            live = m[dyn + u * N_DYN + D_ALIVE] != 0
            alive[run, u] = live
            if live:
                if u < natt:
                    a = True
                else:
                    d = True
        won[run] = (a and not d) or (a == d and m[KC + K_TIE_ATT] != 0)
        rounds[run] = total
        every[run] = all_fights
        timeouts[run] = timeout
