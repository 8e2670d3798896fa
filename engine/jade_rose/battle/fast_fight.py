"""Vectorised fights: many independent fights (lanes) advanced in lock-step rounds with numpy.

The same rules as fight.py, equal in distribution (not in dice). Lane l has two rows: 2l holds the
attacker's side, 2l+1 the defender's. A row is a block of W columns: the fighting group's S slots, then
the rearguard behind it (support, J columns: it shoots and can be healed) and the squad a healer sends its
regeneration to (ext, E columns). The state of a batch lives in these local blocks and is written back to
the per-run arrays when the batch ends.

Hot loop layout: each column has two packed int64 records, `A` (what an attacker needs: attack, armour
piercing, outgoing %, special) and `T` (what a target needs: HP, defence, incoming %), so one
attack costs one gather of each and one scatter of T. Per row, `alist` keeps the living fighting slots
first (n_alive of them): a uniform pick there is a random living target. The rotation is a shuffled cycle
of the row's living slots: `plist` holds the living slots still pending in the cycle (the dead leave it), a
uniform pick among them is the next attacker, and the cycle restarts with every living slot when it runs
out: exactly the reference's rotation. Within a round, lanes are sorted by their step count so each step
works on a prefix of contiguous per-row counters. One uniform number per attack is split into the
attacker pick, the target pick and the damage roll.
"""
from __future__ import annotations

import numpy as np

from engine.jade_rose.battle.fast_tables import Tables

I64 = np.int64

HP_OFF = 1 << 23            # T bits 0-23: HP + HP_OFF
HP_MASK = (1 << 24) - 1
DFN_SHIFT = 24              # T bits 24-31: defence now
IN_SHIFT = 32               # T bits 32-43: incoming % + PCT_OFF
PCT_OFF = 1024
PCT_MASK = 0xFFF
ATK_MASK = 0xFFF            # A bits 0-11: attack now
PM_SHIFT = 12               # A bits 12-19: armour-piercing minimum (melee)
OUT_SHIFT = 20              # A bits 20-31: outgoing % + PCT_OFF
SPECIAL_BIT = 1 << 33       # area melee, several strikes, self-heal or defence stripping

FEATURES = ("regen", "runes", "breath", "healer", "beer", "grow", "shooter", "aura")


class FastState:
    """Per-run unit state of all runs, flattened as run * U + unit."""

    def __init__(self, tables: Tables, runs: int, rng: np.random.Generator):
        self.t = tables
        self.R = runs
        self.rng = rng
        n = runs * tables.U
        p = tables.present
        self.hp = np.tile(tables.maxhp, runs)
        self.alv = np.ones(n, dtype=bool)
        self.strip = np.zeros(n, dtype=I64) if p["strip"] else None
        self.atkb = np.zeros(n, dtype=I64) if p["grow"] else None
        self.hot = np.zeros((len(tables.heal_ticks), n), dtype=I64) if p["healer"] else None
        self.dot_now = np.zeros(n, dtype=I64) if p["breath"] else None
        self.dot_next = np.zeros(n, dtype=I64) if p["breath"] else None
        self.a_static, self.t_static, self.feat = _packed(tables)


def _packed(t: Tables):
    """Static parts of the A and T records per unit, and a feature bitmask per unit."""
    a = ((t.pierce_m << PM_SHIFT) | ((t.out_melee + PCT_OFF) << OUT_SHIFT) | np.minimum(t.atk, ATK_MASK)
         | np.where(t.special, SPECIAL_BIT, 0))
    tt = ((t.in_melee + PCT_OFF) << IN_SHIFT) | (np.minimum(t.dfn, 255) << DFN_SHIFT)
    flags = {"regen": t.regen > 0, "runes": t.runes, "breath": t.breath_now > 0, "healer": t.healer,
             "beer": t.squad_heal > 0, "grow": t.grow > 0, "shooter": t.shooter, "aura": t.any_aura}
    feat = np.zeros(t.U, dtype=I64)
    for bit, name in enumerate(FEATURES):
        feat |= flags[name].astype(I64) << bit
    return a.astype(I64), tt.astype(I64), feat


def damage_formula(base, out, inn):
    """round_half_up(base × (100 + out)% × (100 + inn)%), each factor clamped at >= 0."""
    return (base * np.maximum(100 + out, 0) * np.maximum(100 + inn, 0) + 5000) // 10000


def area_hits(area, living):
    """Distinct targets per attack: round_half_up(pct × living), clamped to [min, max] (JR-30); 1 if no area."""
    pct, lo, hi = area[..., 0], area[..., 1], area[..., 2]
    n = (pct * living * 2 + 100) // 200
    k = np.maximum(np.minimum(np.minimum(n, hi), living), np.minimum(lo, living))
    return np.where(pct > 0, k, 1)


def floyd(rng: np.random.Generator, n, k, kmax: int):
    """k distinct uniform picks in [0, n) per entry (Floyd's algorithm); columns >= k are -1."""
    out = np.full((n.size, max(kmax, 1)), -1, dtype=I64)
    for i in range(kmax):
        j = n - k + i
        on = i < k
        pick = (rng.random(n.size) * (j + 1)).astype(I64)
        taken = (out[:, :i] == pick[:, None]).any(axis=1)
        out[:, i] = np.where(on, np.where(taken, j, pick), -1)
    return out


class Batch:
    """A set of lanes fought to the end (or the round limit).

    Rows are described by templates: `parts[k]` = (fighting unit ids, support unit ids, ext unit ids) and
    `tpl[row]` = k; dead units are skipped. Support: the rearguard behind the row (it shoots and can be
    healed); ext: the squad in front of a charged rearguard, where its healers send their regeneration
    while it stands. Per template: charger / against (fights a charger) / defending; per row: flanked; per
    lane: cb_lane (the charge bonus applies in round 1).
    """

    def __init__(self, fs: FastState, run, tpl, parts, *, charger=(), against=(), defending=(), flanked=None,
                 cb_lane=None):
        self.fs = fs
        t = self.t = fs.t
        self.L = L = len(run)
        self.H = H = 2 * L
        self.S = S = max(1, max(len(f) for f, _, _ in parts))
        self.J = J = max(len(s) for _, s, _ in parts)
        self.E = E = max(len(e) for _, _, e in parts)
        self.W = W = S + J + E
        n = len(parts)
        ids = np.full((n, W), -1, dtype=I64)
        for k, (f, sup, ext) in enumerate(parts):
            ids[k, :len(f)] = f
            ids[k, S:S + len(sup)] = sup
            ids[k, S + J:S + J + len(ext)] = ext
        tok = ids >= 0
        tuid = np.where(tok, ids, np.where(tok.any(axis=1), ids.max(axis=1), 0)[:, None])
        flag = lambda seq: np.array([k in seq for k in range(n)], dtype=bool)[:, None]  # noqa: E731
        t_static = fs.t_static[tuid] + ((t.anti_charge[tuid] * flag(against)
                                         + t.defending_taken[tuid] * flag(defending)) << IN_SHIFT)
        ok2 = tok[tpl]
        uid2 = tuid[tpl]
        self.ok = ok = ok2.reshape(-1)
        self.uid = u = uid2.reshape(-1)
        self.g = g = (np.repeat(run.astype(I64) * t.U, 2)[:, None] + uid2).reshape(-1)
        self.alive = fs.alv[g] & ok
        self.strip = fs.strip[g] if fs.strip is not None else None
        self.atkb = fs.atkb[g] if fs.atkb is not None else None
        self.hot = fs.hot[:, g] if fs.hot is not None else None
        self.dot_now = fs.dot_now[g] if fs.dot_now is not None else None
        self.dot_next = fs.dot_next[g] if fs.dot_next is not None else None
        self.rune = np.zeros(H * W, dtype=I64) if t.present["runes"] else None
        self.grow_hp = None      # golems' HP after the round-start heal: less at the end = hurt this round
        self.flanked = flanked if flanked is not None else np.zeros(H, dtype=bool)
        self.cb = None
        if len(charger) and cb_lane is not None:
            cb_tpl = t.charge_bonus[tuid] * flag(charger)
            self.cb = (cb_tpl[tpl] * np.repeat(cb_lane, 2)[:, None]).reshape(-1)
        self.A = fs.a_static[tuid][tpl].reshape(-1)
        self.T = t_static[tpl].reshape(-1) + (fs.hp[g] + HP_OFF)
        dyn = np.zeros(H * W, dtype=bool)
        if self.strip is not None:
            dyn |= self.strip > 0
        if self.atkb is not None:
            dyn |= self.atkb > 0
        if dyn.any():
            self._refresh(np.nonzero(dyn & ok)[0])
        # sparse feature lists (local flat indices), from the templates
        feat = np.where(tok, fs.feat[tuid], 0)
        spans = {"runes": (0, S), "breath": (0, S), "aura": (0, S), "healer": (0, S + J), "beer": (0, S + J),
                 "shooter": (S, S + J)}
        rows_of = [np.flatnonzero(tpl == k) * W for k in range(n)]
        cols = np.arange(W)
        self.sp_all = {}
        for bit, name in enumerate(FEATURES):
            lo, hi = spans.get(name, (0, W))
            have = ((feat >> bit) & 1).astype(bool) & (cols >= lo) & (cols < hi)
            parts_idx = [(rows_of[k][:, None] + np.flatnonzero(have[k])[None, :]).reshape(-1)
                         for k in range(n) if have[k].any() and rows_of[k].size]
            if parts_idx:
                self.sp_all[name] = np.sort(np.concatenate(parts_idx))
        self.sp = dict(self.sp_all)
        self.hot_recent = [np.nonzero(self.hot.any(axis=0))[0]] if self.hot is not None else []
        self.dot_recent = ([np.nonzero((self.dot_now > 0) | (self.dot_next > 0))[0]]
                           if self.dot_now is not None else [])
        # living lists, rotation cycles, row counters and row modifiers
        self.alist = np.zeros(H * S, dtype=I64)
        self.apos = np.zeros(H * S, dtype=I64)
        self.plist = np.zeros(H * S, dtype=I64)
        self.n_pend = np.zeros(H, dtype=I64)
        self.n_alive = np.zeros(H, dtype=I64)
        self.round_in = np.zeros(H, dtype=I64)
        self.row_in = np.zeros(H, dtype=I64)
        self.row_out = np.zeros(H, dtype=I64)
        self.kinds = t.aura_kinds if "aura" in self.sp_all else []
        self.aura_cnt = np.zeros((len(self.kinds), H), dtype=I64)
        self.aura = {f: np.zeros(H, dtype=I64) for f in ("out", "fear", "in")}
        self.pos = None          # row -> position in this round's sorted order
        self._rebuild(np.arange(H))
        self.support_out = self._support_auras() if J else None
        self.rounds = np.zeros(L, dtype=I64)
        self.timeout = np.zeros(L, dtype=bool)
        self.wiped = False

    # -- packed fields -------------------------------------------------------------------
    def hp(self, idx):
        return (self.T[idx] & HP_MASK) - HP_OFF

    def maxhp(self, idx):
        return self.t.maxhp[self.uid[idx]]

    def heal(self, idx, amount) -> None:
        """Heal living units (capped at max HP); `idx` must be distinct."""
        hp = self.hp(idx)
        gain = np.where(self.alive[idx], np.maximum(np.minimum(hp + amount, self.maxhp(idx)) - hp, 0), 0)
        self.T[idx] += gain

    def _refresh(self, idx) -> None:
        """Recompute attack, defence and outgoing % of columns after runes, growth or stripping."""
        if idx.size == 0:
            return
        t, u = self.t, self.uid[idx]
        atk = t.atk[u].copy()
        dfn = t.dfn[u].copy()
        out = t.out_melee[u].copy()
        if self.atkb is not None:
            atk += self.atkb[idx]
        if self.strip is not None:
            dfn = np.maximum(dfn - self.strip[idx], 0)
        if self.rune is not None:
            r = self.rune[idx]
            atk += t.rune_atk[r]
            dfn += t.rune_def[r]
            out += t.rune_out[r]
        a = self.A[idx] & ~(ATK_MASK | (PCT_MASK << OUT_SHIFT))
        self.A[idx] = a | np.minimum(atk, ATK_MASK) | ((out + PCT_OFF) << OUT_SHIFT)
        self.T[idx] = (self.T[idx] & ~(0xFF << DFN_SHIFT)) | (np.minimum(dfn, 255) << DFN_SHIFT)

    # -- bookkeeping ----------------------------------------------------------------------
    def _rebuild(self, rows) -> None:
        """Recompute the living list and the aura counts of some rows."""
        S, W = self.S, self.W
        live = self.alive.reshape(self.H, W)[rows, :S]
        order = np.argsort(~live, axis=1, kind="stable")
        base = (rows * S)[:, None]
        self.alist[base + np.arange(S)[None, :]] = order
        self.apos[base + order] = np.arange(S)[None, :]
        self.n_alive[rows] = live.sum(axis=1)
        if self.kinds:
            units = self.uid.reshape(self.H, W)[rows, :S]
            for k, hold in enumerate(self.t.aura_hold):
                self.aura_cnt[k, rows] = (hold[units] & live).sum(axis=1)
            self._auras(rows)

    def _auras(self, rows) -> None:
        """Row aura sums from living holder counts (each unit type once, JR-37)."""
        rows = np.concatenate([rows, rows ^ 1])
        vals = {f: np.zeros(rows.size, dtype=I64) for f in ("out", "fear", "in")}
        for k, (field, _, value) in enumerate(self.kinds):
            name = {"squad_outgoing_pct": "out", "enemy_outgoing_pct": "fear", "squad_incoming_pct": "in"}.get(field)
            if name:
                vals[name] += (self.aura_cnt[k, rows] > 0) * value
        for name, v in vals.items():
            self.aura[name][rows] = v
        self.row_out[rows] = vals["out"] + self.aura["fear"][rows ^ 1]
        self.row_in[rows] = vals["in"] + self.round_in[rows]
        if self.pos is not None:
            pos = self.pos[rows]
            self.rout_s[pos] = self.row_out[rows] + (100 - PCT_OFF)
            self.rin_o[self.opp_pos[pos]] = self.row_in[rows] + (100 - PCT_OFF)

    def _kill(self, rows, slots) -> None:
        """Swap dead fighting slots out of the living lists; each row at most once per call."""
        S, W = self.S, self.W
        idx = rows * W + slots
        self.alive[idx] = False
        rS = rows * S
        pos = self.apos[rS + slots]
        last = self.n_alive[rows] - 1
        lslot = self.alist[rS + last]
        self.alist[rS + pos] = lslot
        self.alist[rS + last] = slots
        self.apos[rS + lslot] = pos
        self.apos[rS + slots] = last
        self.n_alive[rows] = last
        if (last == 0).any():
            self.wiped = True
        p = self.pos[rows] if self.pos is not None else None
        if p is not None:
            self.na_s[p] = last
            self.na_o[self.opp_pos[p]] = last
        # the dead leave the rotation's pending slots too
        npd = self.np_s[p] if p is not None else self.n_pend[rows]
        found = (self.plist.reshape(-1, S)[rows] == slots[:, None]) & (np.arange(S)[None, :] < npd[:, None])
        has = found.any(axis=1)
        if has.any():
            r, n = rS[has], npd[has] - 1
            self.plist[r + found[has].argmax(axis=1)] = self.plist[r + n]
            if p is not None:
                self.np_s[p[has]] = n
            else:
                self.n_pend[rows[has]] = n
        if self.kinds:
            hit = self.t.any_aura[self.uid[idx]]
            if hit.any():
                units = self.uid[idx[hit]]
                for k, hold in enumerate(self.t.aura_hold):
                    np.subtract.at(self.aura_cnt[k], rows[hit], hold[units].astype(I64))
                self._auras(rows[hit])

    def _kill_many(self, idx) -> None:
        """Kill the units at local indices `idx` whose HP is gone (any rows, any number)."""
        idx = idx[(self.hp(idx) <= 0) & self.alive[idx]]
        if idx.size == 0:
            return
        idx = np.unique(idx)
        fight = idx % self.W < self.S
        self.alive[idx[~fight]] = False
        idx = idx[fight]
        while idx.size:
            rows = idx // self.W
            _, first = np.unique(rows, return_index=True)
            take = idx[first]
            self._kill(take // self.W, take % self.W)
            idx = np.delete(idx, first)

    def finish(self) -> None:
        """Write the local state back to the per-run arrays."""
        fs, ok = self.fs, self.ok
        g = self.g[ok]
        fs.hp[g] = (self.T[ok] & HP_MASK) - HP_OFF
        fs.alv[g] = self.alive[ok]
        for name in ("strip", "atkb", "dot_now", "dot_next"):
            local = getattr(self, name)
            if local is not None:
                getattr(fs, name)[g] = local[ok]
        if self.hot is not None:
            fs.hot[:, g] = self.hot[:, ok]

    # -- the fight ------------------------------------------------------------------------
    def run_all(self) -> None:
        active = np.arange(self.L)
        number = 0
        max_rounds = self.t.constants.max_rounds
        while active.size:
            number += 1
            if active.size < self.L:
                on = np.zeros(self.L, dtype=bool)
                on[active] = True
                # finished lanes and fallen units drop out of the per-round lists (the dead never come back)
                self.sp = {k: v[on[v // (2 * self.W)] & self.alive[v]] for k, v in self.sp.items()}
                self.hot_recent = [v[on[v // (2 * self.W)]] for v in self.hot_recent]
                self.dot_recent = [v[on[v // (2 * self.W)]] for v in self.dot_recent]
                # finished lanes keep their afterburn and healer regenerations for later fights
            rows = np.stack([2 * active, 2 * active + 1], axis=1).reshape(-1)
            self._round_start(rows, number)
            self._steps(active, number)
            self._end_round()
            self.rounds[active] = number
            alive = self.n_alive[rows].reshape(-1, 2)
            done = ~(alive > 0).all(axis=1)
            if number >= max_rounds:
                self.timeout[active[~done]] = True
                done[:] = True
            active = active[~done]
        self.finish()

    def _round_start(self, rows, number: int) -> None:
        """Outnumbering; then runes, breath and rearguard shots against the state before any of them."""
        t, c, rng = self.t, self.t.constants, self.fs.rng
        n = self.n_alive[rows].reshape(-1, 2)
        outn = np.empty_like(n)
        outn[:, 0] = (n[:, 1] >= c.outnumber_ratio * n[:, 0]) * c.outnumber_taken_pct
        outn[:, 1] = (n[:, 0] >= c.outnumber_ratio * n[:, 1]) * c.outnumber_taken_pct
        self.round_in[rows] = outn.reshape(-1) + self.flanked[rows] * c.flanking_taken_pct
        self.row_in[rows] = self.aura["in"][rows] + self.round_in[rows]
        if "runes" in self.sp:
            idx = self.sp["runes"]
            idx = idx[self.alive[idx]]
            if idx.size:
                r = rng.integers(1, len(c.runes) + 1, size=idx.size)
                self.rune[idx] = r
                self._refresh(idx)
                self.heal(idx, t.rune_heal[r])
        if "grow" in self.sp:
            self.grow_hp = self.hp(self.sp["grow"])
        hits_i, hits_d = [], []
        if "breath" in self.sp:
            idx = self.sp["breath"]
            idx = idx[self.alive[idx] & ((number - 1) % np.maximum(t.breath_every[self.uid[idx]], 1) == 0)]
            if idx.size:
                tgt, okt = self._random_target(idx // self.W ^ 1)
                idx, tgt = idx[okt], tgt[okt]
                u = self.uid[idx]
                hits_i.append(tgt)
                hits_d.append(t.breath_now[u])
                np.add.at(self.dot_next, tgt, t.breath_next[u])
                self.dot_recent.append(tgt)
        if "shooter" in self.sp:
            self._support_shots(hits_i, hits_d)
        if hits_i:
            i = np.concatenate(hits_i)
            np.subtract.at(self.T, i, np.concatenate(hits_d))
            self._kill_many(i)

    def _random_target(self, orow):
        """A random living fighting slot of each row (local index) and whether the row had one."""
        no = self.n_alive[orow]
        k = (self.fs.rng.random(orow.size) * no).astype(I64)
        slot = self.alist[orow * self.S + np.minimum(k, np.maximum(no - 1, 0))]
        return orow * self.W + slot, no > 0

    def _support_shots(self, hits_i, hits_d) -> None:
        """Each living shooter of the rearguard behind a row fires at the enemy row (JR-29)."""
        t, c, rng, S, W = self.t, self.t.constants, self.fs.rng, self.S, self.W
        idx = self.sp["shooter"]
        idx = idx[self.alive[idx]]
        orow = idx // W ^ 1
        keep = self.n_alive[orow] > 0
        idx, orow = idx[keep], orow[keep]
        if not idx.size:
            return
        u = self.uid[idx]
        out = t.out_shot[u] + self.support_out[orow ^ 1] + self.aura["fear"][orow]
        area = t.area_r[u]
        wide = area[:, 0] > 0
        groups = [np.nonzero(~wide)[0], np.nonzero(wide)[0]]
        for _ in range(c.rearguard_shots_per_round):
            for w, sel in enumerate(groups):
                if not sel.size:
                    continue
                o_all = orow[sel]
                no = self.n_alive[o_all]
                if w:
                    k = area_hits(area[sel], no)
                    picks = floyd(rng, no, k, int(k.max()))
                else:
                    picks = (rng.random(no.size) * no).astype(I64)[:, None]
                for j in range(picks.shape[1]):
                    m = picks[:, j] >= 0
                    o = o_all[m]
                    ti = o * W + self.alist[o * S + picks[m, j]]
                    uu = u[sel][m]
                    roll = (rng.random(o.size) * t.rdmg[uu]).astype(I64) + 1
                    tr = self.T[ti]
                    base = np.maximum(roll - ((tr >> DFN_SHIFT) & 0xFF), t.pierce_r[uu])
                    inn = t.in_shot[self.uid[ti]] + self.aura["in"][o]
                    hits_i.append(ti)
                    hits_d.append(damage_formula(base, out[sel][m], inn))

    def _support_auras(self):
        """Outgoing aura and shot bonus of each row's support squad (support units never fall mid-batch)."""
        total = np.zeros(self.H, dtype=I64)
        W, S, J = self.W, self.S, self.J
        block = self.alive.reshape(self.H, W)[:, S:S + J]
        units = self.uid.reshape(self.H, W)[:, S:S + J]
        for k, (field, _, value) in enumerate(self.t.aura_kinds):
            if field in ("squad_outgoing_pct", "squad_shot_bonus_pct"):
                total += (self.t.aura_hold[k][units] & block).any(axis=1) * value
        return total

    def _steps(self, active, number: int) -> None:
        rng = self.fs.rng
        S, W = self.S, self.W
        rows_a = np.stack([2 * active, 2 * active + 1], axis=1).reshape(-1)
        n = self.n_alive[rows_a].reshape(-1, 2)
        steps = np.where((n > 0).all(axis=1), n.max(axis=1), 0)
        order = np.argsort(-steps, kind="stable")
        steps = steps[order]
        if steps.size == 0 or steps[0] == 0:
            return
        lanes = active[order]
        rows_s = np.stack([2 * lanes, 2 * lanes + 1], axis=1).reshape(-1)
        orow_s = rows_s ^ 1
        size = rows_s.size
        self.pos = np.full(self.H, size, dtype=I64)      # rows outside this order write to a dump slot
        self.pos[rows_s] = np.arange(size)
        self.opp_pos = np.append(np.arange(size) ^ 1, size)
        self.na_s = np.append(self.n_alive[rows_s], 0)
        self.na_o = np.append(self.n_alive[orow_s], 0)
        self.rout_s = np.append(self.row_out[rows_s], 0) + (100 - PCT_OFF)    # so that field + it = 100 + pct
        self.rin_o = np.append(self.row_in[orow_s], 0) + (100 - PCT_OFF)
        np_s = self.np_s = np.append(self.n_pend[rows_s], 0)
        rS_s, oS_s = rows_s * S, orow_s * S
        rS1_s = rS_s - 1
        rW_s, oW_s = rows_s * W, orow_s * W
        left = size // 2 - np.cumsum(np.bincount(steps, minlength=int(steps[0]) + 1))
        cb = self.cb if number == 1 else None
        zero_atk = self.t.present["zero_atk"]
        A, T, plist, alist = self.A, self.T, self.plist, self.alist
        plist2, alist2 = plist.reshape(-1, S), alist.reshape(-1, S)
        self.wiped = False
        for i in range(int(steps[0])):
            P2 = 2 * int(left[i])
            rS, oS, rW, oW = rS_s[:P2], oS_s[:P2], rW_s[:P2], oW_s[:P2]
            no = self.na_o[:P2]
            u = rng.random(P2)
            # the attacker: a uniform pick among its row's pending units (a new cycle when none is left)
            npd = np_s[:P2]
            if not npd.all():
                e = np.nonzero(npd == 0)[0]
                er = rows_s[e]
                fill = self.na_s[e]
                width = int(fill.max())
                plist2[er, :width] = alist2[er, :width]
                npd[e] = np.maximum(fill, 1)      # a wiped row "picks" a dead slot; its lane is not valid
            x = u * npd
            k = x.astype(I64)
            u = x - k
            kidx = rS + k
            ia = rW + plist.take(kidx)
            plist[kidx] = plist.take(rS1_s[:P2] + npd)
            npd -= 1
            a = A.take(ia)
            # the target: a random living unit of the other row; the rest of the number rolls damage
            x = u * no
            tk = x.astype(I64)
            u = x - tk
            t_slot = alist.take(oS + tk)
            it = oW + t_slot
            tr = T.take(it)
            top = a & ATK_MASK
            roll = (u * top).astype(I64) + 1
            base = np.maximum(roll - ((tr >> DFN_SHIFT) & 0xFF), (a >> PM_SHIFT) & 0xFF)
            out = ((a >> OUT_SHIFT) & PCT_MASK) + self.rout_s[:P2]          # 100 + outgoing %
            if cb is not None:
                out += cb.take(ia)
            inn = ((tr >> IN_SHIFT) & PCT_MASK) + self.rin_o[:P2]           # 100 + incoming %
            dmg = (base * np.maximum(out, 0) * np.maximum(inn, 0) + 5000) // 10000
            valid = None
            if self.wiped or zero_atk:
                valid = (self.na_s[:P2] > 0) & (no > 0)
                if zero_atk:
                    valid &= top > 0
                dmg *= valid
            tr -= dmg
            T[it] = tr
            special = (a & SPECIAL_BIT) != 0
            if special.any():
                if valid is not None:
                    special &= valid
                if special.any():
                    self._specials(np.nonzero(special)[0], orow_s[:P2], ia, it, a, out - 100, no, tk)
                    tr = T[it]
            dead = (tr & HP_MASK) <= HP_OFF
            if dead.any():
                if valid is not None:
                    dead &= valid
                e = np.nonzero(dead)[0]
                e = e[self.alive[it[e]]]
                if e.size:
                    self._kill(orow_s[e], t_slot[e])
        self.n_pend[rows_s] = np_s[:-1]
        self.pos = None

    def _specials(self, e, orow_all, ia, it, a, out, no, tk) -> None:
        """Area melee, extra strikes, the paladin's self-heal and defence stripping for entries `e`."""
        t, rng, S, W = self.t, self.fs.rng, self.S, self.W
        au = self.uid[ia[e]]
        orow = orow_all[e]
        top = a[e] & ATK_MASK
        out_e = out[e]
        hits = []
        k = area_hits(t.area_m[au], no[e])
        wide = k > 1
        if wide.any():
            w = np.nonzero(wide)[0]
            others = floyd(rng, no[e][w] - 1, k[w] - 1, int(k[w].max()) - 1)
            for j in range(others.shape[1]):
                m = others[:, j] >= 0
                ii = w[m]
                p = others[m, j]
                p = p + (p >= tk[e][ii])
                hits.append(self._hit(orow[ii], self.alist[orow[ii] * S + p], ia[e][ii], top[ii], out_e[ii]))
        strike = 1
        more = t.apick[au] > strike
        while more.any():
            w = np.nonzero(more)[0]
            kk = area_hits(t.area_m[au[w]], no[e][w])
            picks = floyd(rng, no[e][w], kk, int(kk.max()))
            for j in range(picks.shape[1]):
                m = picks[:, j] >= 0
                ii = w[m]
                hits.append(self._hit(orow[ii], self.alist[orow[ii] * S + picks[m, j]], ia[e][ii], top[ii],
                                      out_e[ii]))
            strike += 1
            more = t.apick[au] > strike
        if self.strip is not None:
            s = t.strip[au]
            m = s > 0
            if m.any():
                tgt = it[e][m]
                np.add.at(self.strip, tgt, s[m])
                self._refresh(np.unique(tgt))
        heal = t.heal_self[au]
        m = heal > 0
        if m.any():
            i = ia[e][m]
            live = self.hp(i) > 0
            self.heal(i[live], heal[m][live])
        for orow_h, slot_h in hits:
            idx = orow_h * W + slot_h
            dead = (self.hp(idx) <= 0) & self.alive[idx]
            if dead.any():
                self._kill(orow_h[dead], slot_h[dead])

    def _hit(self, orow, slot, ia, top, out):
        """One more melee hit per entry (its own damage roll) on the given slots."""
        it = orow * self.W + slot
        tr = self.T[it]
        roll = (self.fs.rng.random(orow.size) * top).astype(I64) + 1
        base = np.maximum(roll - ((tr >> DFN_SHIFT) & 0xFF), (self.A[ia] >> PM_SHIFT) & 0xFF)
        inn = ((tr >> IN_SHIFT) & PCT_MASK) - PCT_OFF + self.row_in[orow]
        d = damage_formula(base, out, inn)
        self.T[it] = tr - d
        return orow, slot

    # -- end of round ------------------------------------------------------------------
    def _end_round(self) -> None:
        """Afterburn, regeneration, healers, the beer elemental, golem growth; runes expire."""
        t, sp = self.t, self.sp
        if self.dot_now is not None and any(v.size for v in self.dot_recent):
            idx = np.unique(np.concatenate(self.dot_recent))
            d = self.dot_now[idx] * self.alive[idx]
            self.dot_now[idx] = self.dot_next[idx]
            self.dot_next[idx] = 0
            self.dot_recent = [idx[self.dot_now[idx] > 0]]
            if d.any():
                self.T[idx] -= d
                self._kill_many(idx[d > 0])
        if "grow" in sp:
            idx = sp["grow"]
            grown = idx[self.alive[idx] & (self.hp(idx) < self.grow_hp)]
            self.atkb[grown] += t.grow[self.uid[grown]]
            self._refresh(grown)
        if "regen" in sp:
            idx = sp["regen"]
            self.heal(idx, t.regen[self.uid[idx]])
        if self.hot is not None:
            if "healer" in sp:
                self._healers(sp["healer"])
            self._hot_tick()
        if "beer" in sp:
            self._beer(sp["beer"])
        if "runes" in sp:
            idx = sp["runes"]
            self.rune[idx] = 0
            self._refresh(idx)

    def _healers(self, idx) -> None:
        """Each living healer puts a regeneration on a random wounded non-healer of its target group."""
        t, S, J, E, W = self.t, self.S, self.J, self.E, self.W
        idx = idx[self.alive[idx]]
        if not idx.size:
            return
        row = idx // W
        in_support = idx % W >= S
        ext_on = (self.alive.reshape(self.H, W)[row, S + J:].any(axis=1) if E
                  else np.zeros(idx.size, dtype=bool))
        front_alive = self.n_alive[row] > 0
        # own fighting group, or ext when given; support healers heal the front (or their own squad)
        lo = np.where(in_support, np.where(front_alive, 0, S), np.where(ext_on, S + J, 0))
        hi = np.where(in_support, np.where(front_alive, S, S + J), np.where(ext_on, W, S))
        cols = np.arange(W)[None, :]
        span = (row * W)[:, None] + cols
        dest = (cols >= lo[:, None]) & (cols < hi[:, None])
        wounded = dest & self.alive[span] & ~t.healer[self.uid[span]] & (self.hp(span) < self.maxhp(span))
        cnt = wounded.sum(axis=1)
        has = cnt > 0
        if not has.any():
            return
        pick = (self.fs.rng.random(int(has.sum())) * cnt[has]).astype(I64)
        col = (np.cumsum(wounded[has], axis=1) > pick[:, None]).argmax(axis=1)
        target = span[has][np.arange(col.size), col]
        for j, amount in enumerate(t.heal_ticks):
            np.add.at(self.hot[j], target, amount)
        self.hot_recent.append(target)

    def _hot_tick(self) -> None:
        if not self.hot_recent:
            return
        idx = np.unique(np.concatenate(self.hot_recent))
        self.heal(idx, self.hot[0][idx])
        for j in range(len(self.hot) - 1):
            self.hot[j][idx] = self.hot[j + 1][idx]
        self.hot[-1][idx] = 0
        self.hot_recent = [idx[self.hot[:, idx].any(axis=0)]]

    def _beer(self, idx) -> None:
        """The beer elemental heals every other living unit of its group each round."""
        t, S, J, W = self.t, self.S, self.J, self.W
        idx = idx[self.alive[idx]]
        if not idx.size:
            return
        row = idx // W
        in_support = idx % W >= S
        lo = np.where(in_support, S, 0)
        hi = np.where(in_support, S + J, S)
        cols = np.arange(W)[None, :]
        span = (row * W)[:, None] + cols
        member = (cols >= lo[:, None]) & (cols < hi[:, None]) & self.alive[span]
        member[np.arange(idx.size), idx % W] = False      # not itself
        targets = span[member]
        amounts = np.repeat(t.squad_heal[self.uid[idx]], member.sum(axis=1))
        tgt, inv = np.unique(targets, return_inverse=True)
        gain = np.zeros(tgt.size, dtype=I64)
        np.add.at(gain, inv, amounts)
        self.heal(tgt, gain)
