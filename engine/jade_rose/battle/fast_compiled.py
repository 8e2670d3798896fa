"""The compiled fast path: a battle packed into fast_kernel's memory, and a chunk of runs.

`compiled_available()` compiles the kernel once per process (about 20 s on 2 cores the first time, then
under a second from numba's disk cache) and says whether it works; when numba is missing, disabled
(NUMBA_DISABLE_JIT) or fails, callers use the numpy kernel (fast_fight.py) instead.
"""
from __future__ import annotations

import numpy as np

from engine.jade_rose.battle import fast_kernel as k
from engine.jade_rose.battle.model import FLANKS, LINES, Battle, Position
from engine.jade_rose.battle.runtime import BattleState

KINDS = {"none": k.K_NONE, "change_position": k.K_CHANGE, "defend": k.K_DEFEND, "cover": k.K_COVER,
         "charge": k.K_CHARGE, "bombard": k.K_BOMBARD, "long_range_bombard": k.K_LONG_BOMBARD}

_status: dict[str, object] = {}


def compiled_available() -> bool:
    """True when the numba kernel runs here (compiled on the first call, then cached on disk)."""
    if "ok" not in _status:
        _status["ok"] = False
        if k.HAVE_NUMBA:
            try:
                from numba import config
                if not config.DISABLE_JIT:
                    _warm_up()
                    _status["ok"] = True
            except Exception as exc:  # a kernel that does not compile must not break the simulator
                _status["error"] = repr(exc)
    return bool(_status["ok"])


def compiled_error() -> str:
    """Why the kernel is not used ('' when it is, or when it was never tried)."""
    return str(_status.get("error", ""))


def _warm_up() -> None:
    """Compile (or load) the kernel on a two-against-two duel and check that it fought to a result."""
    from engine.jade_rose.battle.constants import BattleConstants
    from engine.jade_rose.battle.model import Manoeuvre, SideSetup, SquadSetup
    from engine.jade_rose.battle.stats import UnitStats
    unit = UnitStats(key="u", faction="f", name="u", attack=3, hp=5, defense=0)
    side = SideSetup("f", (SquadSetup(Position("left", "vanguard"), (("u", 2),), Manoeuvre()),))
    _, rounds, _, timeout, alive = run_chunk(Battle(side, side, {"u": unit}, BattleConstants()), 1, 0)
    if rounds[0] < 1 or timeout[0] or alive[0, :2].any() and alive[0, 2:].any():
        raise RuntimeError("the compiled kernel gave an impossible result")


def memory(battle: Battle, seed: int) -> np.ndarray:
    """The kernel's memory for a battle (layout: fast_kernel's docstring), its random state from `seed`."""
    state = BattleState(battle)
    c = battle.constants
    if len(c.runes) > k.MAX_RUNES:
        raise ValueError(f"at most {k.MAX_RUNES} runes")
    squads = [s for role in ("attacker", "defender") for s in state.sides[role].squads]
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
    sizes = {k.H_US: us.size, k.H_Q: q.size, k.H_DYN: k.N_DYN * n, k.H_HOT: n * hot_width, k.H_QD: 3 * len(squads),
             k.H_WK: k.N_WROWS * width, k.H_PEND: 4 * pending}
    mem = np.zeros(k.TABLES + sum(sizes.values()), dtype=np.int64)
    state = seed % (1 << 64)
    mem[0] = state - (1 << 64) if state >= 1 << 63 else state      # the random state, as int64
    mem[[k.H_U, k.H_S, k.H_W, k.H_HW, k.H_P]] = (n, len(squads), width, hot_width, pending)
    at = k.TABLES
    for slot, size in sizes.items():
        mem[slot] = at
        at += size
    mem[k.KC:k.KC + kc.size] = kc
    mem[mem[k.H_US]:mem[k.H_US] + us.size] = us.reshape(-1)
    mem[mem[k.H_Q]:mem[k.H_Q] + q.size] = q.reshape(-1)
    return mem


def _unit_table(battle: Battle, state: BattleState, squads, units) -> np.ndarray:
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
            k.C_AFEAR: s.enemy_outgoing_pct, k.C_SQHEAL: s.squad_heal,
        }
        row[k.C_AURA] = int(any(row[f] for f in (k.C_AOUT, k.C_AIN, k.C_ASHOT, k.C_AFEAR)))
        row[k.C_TICKS] = int(bool(s.regen or s.grow_attack_when_hurt or s.runes))
        for col, value in row.items():
            us[i, col] = value
    return us


def _pos(p: Position | None) -> tuple[int, int]:
    return (FLANKS.index(p.flank), LINES.index(p.line)) if p is not None else (-1, -1)


def run_chunk(battle: Battle, runs: int, seed: int):
    """(attacker won, rounds, rounds of all fights, timed out, alive [runs, U]) from the kernel."""
    mem = memory(battle, seed)
    n = int(mem[k.H_U])
    out = (np.zeros(runs, dtype=bool), np.zeros(runs, dtype=np.int64), np.zeros(runs, dtype=np.int64),
           np.zeros(runs, dtype=bool), np.zeros((runs, n), dtype=bool))
    k.run_chunk(mem, *out)
    return out
