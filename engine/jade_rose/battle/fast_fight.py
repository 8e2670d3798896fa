"""Vectorised fights: many independent fights (lanes) advanced in lock-step rounds with numpy.

The same rules as fight.py, equal in distribution (not in dice): a lane is one fight of one run; row
2*lane holds the attacker's fighting group, row 2*lane+1 the defender's. Per row, `alist` keeps the
group's slots with the living first (n_alive of them) and `plist` the rotation's pending slots: picking
uniformly among the pending living units is the shuffled rotation of the reference. Deaths swap a slot
out of both lists. Within a round, lanes are sorted by their step count so each step works on a prefix.
"""
from __future__ import annotations

import numpy as np

from engine.jade_rose.battle.fast_tables import Tables

I64 = np.int64


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
        self.hurt = np.zeros(n, dtype=bool) if p["grow"] else None
        self.rune = np.zeros(n, dtype=I64) if p["runes"] else None
        self.hot = np.zeros((len(tables.heal_ticks), n), dtype=I64) if p["healer"] else None
        self.dot_now = np.zeros(n, dtype=I64) if p["breath"] else None
        self.dot_next = np.zeros(n, dtype=I64) if p["breath"] else None

    def damage(self, g_att, u_att, g_tgt, u_tgt, out, inn, ranged: bool, u01):
        """Damage of one attack per entry; `out`/`inn` are the summed percentages beyond the static ones."""
        t = self.t
        if ranged:
            top = t.rdmg[u_att]
        else:
            top = t.atk[u_att]
            if self.atkb is not None:
                top = top + self.atkb[g_att]
            if self.rune is not None:
                top = top + t.rune_atk[self.rune[g_att]]
        roll = (u01 * top).astype(I64) + 1
        dfn = t.dfn[u_tgt]
        if self.strip is not None:
            dfn = np.maximum(dfn - self.strip[g_tgt], 0)
        if self.rune is not None:
            dfn = dfn + t.rune_def[self.rune[g_tgt]]
            out = out + t.rune_out[self.rune[g_att]]
        base = np.maximum(roll - dfn, t.pierce_r[u_att] if ranged else t.pierce_m[u_att])
        dmg = (base * np.maximum(100 + out, 0) * np.maximum(100 + inn, 0) * 2 + 10000) // 20000
        if not ranged and t.present["zero_atk"]:
            dmg *= top > 0
        return dmg


class Batch:
    """A set of lanes fought to the end (or the round limit).

    cand: [2L, S] unit ids of each row's group (-1 = padding; dead units are skipped);
    support: [2L, J] rearguard squad behind each row (shoots at the enemy row each round) or None;
    ext: [2L, E] where healers of each row send their regeneration instead of their own group, or None;
    charger/against/defending/flanked: per-row flags; cb_lane: per-lane charge bonus in round 1.
    """

    def __init__(self, fs: FastState, run, cand, support=None, ext=None, charger=None, against=None,
                 defending=None, flanked=None, cb_lane=None):
        self.fs = fs
        t = fs.t
        self.t = t
        L = len(run)
        self.L = L
        H = 2 * L
        self.H = H
        self.run = run
        U = t.U
        self.gbase = np.repeat(run * U, 2)
        pad = cand < 0
        first = cand[:, :1]
        self.mem = np.where(pad, first, cand)
        self.slot_ok = ~pad
        self.S = cand.shape[1]
        self.support = self._fix(support)
        self.ext = self._fix(ext)
        zeros = np.zeros(H, dtype=bool)
        self.charger = charger if charger is not None else zeros
        self.against = against if against is not None else zeros
        self.defending = defending if defending is not None else zeros
        self.flanked = flanked if flanked is not None else zeros
        self.cb_lane = cb_lane
        # static per-unit percentages of this batch
        units_of = lambda flag: np.unique(self.mem[flag][self.slot_ok[flag]]) if flag.any() else np.zeros(0, I64)  # noqa: E731
        self.inc_m = t.in_side + t.melee_taken
        if self.against.any() or self.defending.any():
            self.inc_m = self.inc_m.copy()
            self.inc_m[units_of(self.against)] += t.anti_charge[units_of(self.against)]
            self.inc_m[units_of(self.defending)] += t.defending_taken[units_of(self.defending)]
        self.out_m = t.out_side + t.fatigue_pct
        self.inc_r = t.in_side + t.ranged_taken
        self.cb_units = np.zeros(U, dtype=I64)
        if self.charger.any():
            ch = units_of(self.charger)
            self.cb_units[ch] = t.charge_bonus[ch]
        # living lists
        S = self.S
        self.alist = np.zeros(H * S, dtype=I64)
        self.apos = np.zeros(H * S, dtype=I64)
        self.plist = np.zeros(H * S, dtype=I64)
        self.ppos = np.zeros(H * S, dtype=I64)
        self.n_alive = np.zeros(H, dtype=I64)
        self.n_pend = np.zeros(H, dtype=I64)
        self.row_in = np.zeros(H, dtype=I64)      # outnumbering + flanking + incoming auras of the row
        self.row_out = np.zeros(H, dtype=I64)     # outgoing of the row's attackers: own auras + enemy fear
        self.aura_cnt = np.zeros((len(t.aura_kinds), H), dtype=I64)
        self.round_in = np.zeros(H, dtype=I64)
        all_rows = np.arange(H)
        self._rebuild(all_rows, rotation=False)
        self.rounds = np.zeros(L, dtype=I64)
        self.timeout = np.zeros(L, dtype=bool)

    def _fix(self, arr):
        if arr is None or arr.shape[1] == 0 or (arr < 0).all():
            return None
        return arr

    # -- living lists -------------------------------------------------------------
    def _live2d(self, rows):
        g = self.gbase[rows][:, None] + self.mem[rows]
        return self.fs.alv[g] & self.slot_ok[rows]

    def _rebuild(self, rows, rotation: bool = True) -> None:
        """Recompute the living list (and the rotation's pending list) of some rows after deaths."""
        S = self.S
        live = self._live2d(rows)
        order = np.argsort(~live, axis=1, kind="stable")
        base = (rows * S)[:, None]
        cols = np.arange(S)[None, :]
        self.alist[base + cols] = order
        self.apos[base + order] = cols
        self.n_alive[rows] = live.sum(axis=1)
        if rotation:
            pend = (self.ppos[base + cols] < self.n_pend[rows][:, None]) & live
        else:
            pend = np.zeros_like(live)
        order = np.argsort(~pend, axis=1, kind="stable")
        self.plist[base + cols] = order
        self.ppos[base + order] = cols
        self.n_pend[rows] = pend.sum(axis=1)
        if self.t.aura_kinds:
            units = self.mem[rows]
            for k, hold in enumerate(self.t.aura_hold):
                self.aura_cnt[k, rows] = (hold[units] & live).sum(axis=1)
            self._auras(rows)

    def _auras(self, rows) -> None:
        """Row-level aura sums from the living holder counts (each unit type once, JR-37)."""
        rows = np.unique(np.concatenate([rows, rows ^ 1]))
        out = np.zeros(len(rows), dtype=I64)
        fear = np.zeros(len(rows), dtype=I64)
        inc = np.zeros(len(rows), dtype=I64)
        for k, (field, _, value) in enumerate(self.t.aura_kinds):
            on = (self.aura_cnt[k, rows] > 0) * value
            if field == "squad_outgoing_pct":
                out += on
            elif field == "enemy_outgoing_pct":
                fear += on
            elif field == "squad_incoming_pct":
                inc += on
        self._aura_out = getattr(self, "_aura_out", np.zeros(self.H, dtype=I64))
        self._aura_fear = getattr(self, "_aura_fear", np.zeros(self.H, dtype=I64))
        self._aura_in = getattr(self, "_aura_in", np.zeros(self.H, dtype=I64))
        self._aura_out[rows] = out
        self._aura_fear[rows] = fear
        self._aura_in[rows] = inc
        self.row_out[rows] = out + self._aura_fear[rows ^ 1]
        self.row_in[rows] = inc + self.round_in[rows]

    def _kill(self, rows, slots, g) -> None:
        """Swap dead slots out of the living and pending lists (rows must be distinct)."""
        S = self.S
        self.fs.alv[g] = False
        rS = rows * S
        pos = self.apos[rS + slots]
        last = self.n_alive[rows] - 1
        lslot = self.alist[rS + last]
        self.alist[rS + pos] = lslot
        self.alist[rS + last] = slots
        self.apos[rS + lslot] = pos
        self.apos[rS + slots] = last
        self.n_alive[rows] = last
        pp = self.ppos[rS + slots]
        npd = self.n_pend[rows]
        inp = pp < npd
        if inp.any():
            r2, s2, p2, l2 = rS[inp], slots[inp], pp[inp], npd[inp] - 1
            ls2 = self.plist[r2 + l2]
            self.plist[r2 + p2] = ls2
            self.plist[r2 + l2] = s2
            self.ppos[r2 + ls2] = p2
            self.ppos[r2 + s2] = l2
            self.n_pend[rows[inp]] = l2
        if self.t.aura_kinds:
            units = self.mem.reshape(-1)[rS + slots]
            hit = self.t.any_aura[units]
            if hit.any():
                for k, hold in enumerate(self.t.aura_hold):
                    np.subtract.at(self.aura_cnt[k], rows, hold[units].astype(I64))
                self._auras(rows[hit])

    def _kill_bulk(self, g, rows) -> None:
        """Mark hit units with no HP left dead and rebuild the rows (among `rows`) that lost someone."""
        fs = self.fs
        dead = g[(fs.hp[g] <= 0) & fs.alv[g]]
        if dead.size == 0:
            return
        fs.alv[np.unique(dead)] = False
        S = self.S
        in_list = self.apos.reshape(-1, S)[rows] < self.n_alive[rows][:, None]
        lost = (in_list & ~self._live2d(rows)).any(axis=1)
        self._rebuild(rows[lost])

    # -- the fight ----------------------------------------------------------------
    def run_all(self, max_rounds: int) -> None:
        active = np.arange(self.L)
        number = 0
        while active.size:
            number += 1
            rows = np.stack([2 * active, 2 * active + 1], axis=1).reshape(-1)
            self._round_start(active, rows, number)
            self._steps(active, number)
            self._end_round(rows)
            self.rounds[active] = number
            alive = self.n_alive[rows].reshape(-1, 2)
            done = ~(alive > 0).all(axis=1)
            if number >= max_rounds:
                self.timeout[active[~done]] = True
                done[:] = True
            active = active[~done]

    def _round_start(self, active, rows, number: int) -> None:
        fs, t, c = self.fs, self.t, self.t.constants
        n = self.n_alive[rows].reshape(-1, 2)
        outn = np.zeros_like(n)
        outn[:, 0] = (n[:, 1] >= c.outnumber_ratio * n[:, 0]) * c.outnumber_taken_pct
        outn[:, 1] = (n[:, 0] >= c.outnumber_ratio * n[:, 1]) * c.outnumber_taken_pct
        self.round_in[rows] = outn.reshape(-1) + self.flanked[rows] * c.flanking_taken_pct
        if t.aura_kinds:
            self.row_in[rows] = self._aura_in[rows] + self.round_in[rows]
        else:
            self.row_in[rows] = self.round_in[rows]
        live = None
        if fs.rune is not None or fs.dot_next is not None:
            live = self._live2d(rows)
            units = self.mem[rows]
            g2 = self.gbase[rows][:, None] + units
        if fs.rune is not None:
            m = live & t.runes[units]
            if m.any():
                g = g2[m]
                r = fs.rng.integers(1, len(c.runes) + 1, size=g.size)
                fs.rune[g] = r
                fs.hp[g] = np.minimum(fs.hp[g] + t.rune_heal[r], t.maxhp[units[m]])
        hits_g, hits_d = [], []
        if fs.dot_next is not None:
            every = np.maximum(t.breath_every[units], 1)
            m = live & (t.breath_now[units] > 0) & ((number - 1) % every == 0)
            if m.any():
                ri, ci = np.nonzero(m)
                srow = rows[ri]
                orow = srow ^ 1
                no = self.n_alive[orow]
                ok = no > 0
                srow, orow, ci, no = srow[ok], orow[ok], ci[ok], no[ok]
                tk = (fs.rng.random(no.size) * no).astype(I64)
                tslot = self.alist[orow * self.S + tk]
                gt = self.gbase[orow] + self.mem.reshape(-1)[orow * self.S + tslot]
                ub = self.mem[srow, ci]
                hits_g.append(gt)
                hits_d.append(t.breath_now[ub])
                np.add.at(fs.dot_next, gt, t.breath_next[ub])
        if self.support is not None:
            self._support_shots(rows, hits_g, hits_d)
        if hits_g:
            g = np.concatenate(hits_g)
            d = np.concatenate(hits_d)
            np.subtract.at(fs.hp, g, d)
            if fs.hurt is not None:
                fs.hurt[g[d > 0]] = True
            self._kill_bulk(g, rows)

    def _support_shots(self, rows, hits_g, hits_d) -> None:
        """Each living shooter of the rearguard behind a row fires at the enemy row (JR-29)."""
        fs, t, c = self.fs, self.t, self.t.constants
        sup = self.support[rows]
        ok = sup >= 0
        sup_u = np.where(ok, sup, 0)
        gsup = self.gbase[rows][:, None] + sup_u
        living = ok & fs.alv[gsup]
        shooting = living & t.shooter[sup_u]
        if not shooting.any():
            return
        # auras of the shooting squad: its own outgoing aura and shot bonus
        own_out = np.zeros(len(rows), dtype=I64)
        for k, (field, _, value) in enumerate(t.aura_kinds):
            if field in ("squad_outgoing_pct", "squad_shot_bonus_pct"):
                own_out += (t.aura_hold[k][sup_u] & living).any(axis=1) * value
        ri, ci = np.nonzero(shooting)
        srow = rows[ri]
        orow = srow ^ 1
        keep = self.n_alive[orow] > 0
        ri, ci, srow, orow = ri[keep], ci[keep], srow[keep], orow[keep]
        if ri.size == 0:
            return
        shooter = sup_u[ri, ci]
        ga = gsup[ri, ci]
        out = t.out_side[shooter] + t.fatigue_pct[shooter] + own_out[ri] + self._fear(orow)
        for _ in range(c.rearguard_shots_per_round):
            self._shots(shooter, ga, orow, out, hits_g, hits_d)

    def _fear(self, rows):
        return self._aura_fear[rows] if self.t.aura_kinds else 0

    def _shots(self, shooter, ga, orow, out, hits_g, hits_d) -> None:
        """One shot per entry at random living units of the target rows (area shots hit several)."""
        fs, t = self.fs, self.t
        no = self.n_alive[orow]
        k = _area_hits(t.area_r[shooter], no)
        tslots = self._distinct(orow, no, k)
        S = self.S
        for j in range(tslots.shape[1]):
            m = k > j
            if not m.any():
                break
            o = orow[m]
            ts = tslots[m, j]
            ut = self.mem.reshape(-1)[o * S + ts]
            gt = self.gbase[o] + ut
            inn = self.inc_r[ut] + (self._aura_in[o] if t.aura_kinds else 0)
            d = fs.damage(ga[m], shooter[m], gt, ut, out[m], inn, True, fs.rng.random(o.size))
            hits_g.append(gt)
            hits_d.append(d)

    def _distinct(self, orow, no, k, first=None):
        """Slots of k distinct living units per entry (partial Fisher-Yates on a copy of the list)."""
        S = self.S
        kmax = int(k.max()) if k.size else 0
        if kmax <= 1 and first is None:
            tk = (self.fs.rng.random(orow.size) * no).astype(I64)
            return self.alist[orow * S + tk][:, None]
        tmp = self.alist.reshape(-1, S)[orow].copy()
        idx = np.arange(orow.size)
        for j in range(max(kmax, 1)):
            pick = j + (self.fs.rng.random(orow.size) * np.maximum(no - j, 0)).astype(I64) if (
                j > 0 or first is None) else first
            pick = np.minimum(pick, S - 1)
            a = tmp[idx, j].copy()
            tmp[idx, j] = tmp[idx, pick]
            tmp[idx, pick] = a
        return tmp[:, :max(kmax, 1)]

    def _steps(self, active, number: int) -> None:
        fs, t = self.fs, self.t
        rows_all = np.stack([2 * active, 2 * active + 1], axis=1).reshape(-1)
        n = self.n_alive[rows_all].reshape(-1, 2)
        steps = np.where((n > 0).all(axis=1), n.max(axis=1), 0)
        order = np.argsort(-steps, kind="stable")
        steps = steps[order]
        if steps.size == 0 or steps[0] == 0:
            return
        lanes = active[order]
        rows_s = np.stack([2 * lanes, 2 * lanes + 1], axis=1).reshape(-1)
        orow_s = rows_s ^ 1
        S = self.S
        rS_s = rows_s * S
        oS_s = orow_s * S
        gb_s = self.gbase[rows_s]
        go_s = self.gbase[orow_s]
        counts = np.bincount(steps, minlength=int(steps[0]) + 1)
        active_after = len(steps) - np.cumsum(counts)   # lanes with more than i steps
        cb = None
        if number == 1 and self.cb_lane is not None and self.charger.any():
            cb = (self.cb_lane[rows_s // 2] & self.charger[rows_s])
        mem = self.mem.reshape(-1)
        p = t.present
        extra = p["multi"] or p["area_m"]
        after = p["heal_self"] or p["strip"]
        plist2 = self.plist.reshape(-1, S)
        alist2 = self.alist.reshape(-1, S)
        ppos2 = self.ppos.reshape(-1, S)
        apos2 = self.apos.reshape(-1, S)
        for i in range(int(steps[0])):
            P2 = 2 * int(active_after[i])
            rows = rows_s[:P2]
            orow = orow_s[:P2]
            rS = rS_s[:P2]
            oS = oS_s[:P2]
            na = self.n_alive[rows]
            no = self.n_alive[orow]
            valid = (na > 0) & (no > 0)
            u = fs.rng.random((3, P2))
            npd = self.n_pend[rows]
            empty = npd <= 0
            if empty.any():
                er = rows[empty]
                plist2[er] = alist2[er]
                ppos2[er] = apos2[er]
                self.n_pend[er] = self.n_alive[er]
                npd = np.maximum(self.n_pend[rows], 1)
            k = (u[0] * npd).astype(I64)
            kidx = rS + k
            a_slot = self.plist[kidx]
            lidx = rS + npd - 1
            ls = self.plist[lidx]
            self.plist[kidx] = ls
            self.plist[lidx] = a_slot
            self.ppos[rS + ls] = k
            self.ppos[rS + a_slot] = npd - 1
            self.n_pend[rows] = npd - 1
            tk = (u[1] * no).astype(I64)
            t_slot = self.alist[oS + tk]
            a_u = mem[rS + a_slot]
            t_u = mem[oS + t_slot]
            ga = gb_s[:P2] + a_u
            gt = go_s[:P2] + t_u
            out = self.out_m[a_u] + self.row_out[rows]
            if cb is not None:
                out = out + self.cb_units[a_u] * cb[:P2]
            inn = self.inc_m[t_u] + self.row_in[orow]
            dmg = fs.damage(ga, a_u, gt, t_u, out, inn, False, u[2])
            dmg *= valid
            fs.hp[gt] -= dmg
            if fs.hurt is not None:
                fs.hurt[gt[dmg > 0]] = True
            batches = [(orow, t_slot, gt, valid)]
            if extra:
                batches += self._extra_hits(rows, orow, a_u, ga, valid, out, no, tk)
            if after:
                self._after_attack(a_u, ga, batches, valid)
            for brow, bslot, bg, bvalid in batches:
                dead = bvalid & (fs.hp[bg] <= 0) & fs.alv[bg]
                if dead.any():
                    self._kill(brow[dead], bslot[dead], bg[dead])

    def _extra_hits(self, rows, orow, a_u, ga, valid, out, no, tk):
        """Area melee (colossus, dragon) and extra strikes (vampire lord): more hits this step."""
        fs, t = self.fs, self.t
        S = self.S
        mem = self.mem.reshape(-1)
        batches = []
        area = t.area_m[a_u]
        k = np.where(valid, _area_hits(area, no), 1)
        wide = (k > 1) & valid
        if wide.any():
            idx = np.nonzero(wide)[0]
            slots = self._distinct(orow[idx], no[idx], k[idx], first=tk[idx])
            for j in range(1, slots.shape[1]):
                m = k[idx] > j
                ii = idx[m]
                o = orow[ii]
                ts = slots[m, j]
                ut = mem[o * S + ts]
                gt = self.gbase[o] + ut
                inn = self.inc_m[ut] + self.row_in[o]
                d = fs.damage(ga[ii], a_u[ii], gt, ut, out[ii], inn, False, fs.rng.random(ii.size))
                fs.hp[gt] -= d
                if fs.hurt is not None:
                    fs.hurt[gt[d > 0]] = True
                batches.append((o, ts, gt, np.ones(ii.size, dtype=bool)))
        more = (t.apick[a_u] > 1) & valid
        strike = 1
        while more.any():
            idx = np.nonzero(more)[0]
            o = orow[idx]
            kk = _area_hits(t.area_m[a_u[idx]], no[idx])
            slots = self._distinct(o, no[idx], kk)
            for j in range(slots.shape[1]):
                m = kk > j
                ii = idx[m]
                oo = o[m]
                ts = slots[m, j]
                ut = mem[oo * S + ts]
                gt = self.gbase[oo] + ut
                inn = self.inc_m[ut] + self.row_in[oo]
                d = fs.damage(ga[ii], a_u[ii], gt, ut, out[ii], inn, False, fs.rng.random(ii.size))
                fs.hp[gt] -= d
                if fs.hurt is not None:
                    fs.hurt[gt[d > 0]] = True
                batches.append((oo, ts, gt, np.ones(ii.size, dtype=bool)))
            strike += 1
            more = (t.apick[a_u] > strike) & valid
        return batches

    def _after_attack(self, a_u, ga, batches, valid) -> None:
        """Paladin heals itself per attack; paladin/archpriest strip the struck target's defence."""
        fs, t = self.fs, self.t
        if fs.strip is not None:
            first = True
            for _, _, bg, bvalid in batches:
                s = t.strip[a_u] if first else None
                if first:
                    m = bvalid & (s > 0)
                    np.add.at(fs.strip, bg[m], s[m])
                first = False
        heal = t.heal_self[a_u] * valid
        m = heal > 0
        if m.any():
            g = ga[m]
            live = fs.hp[g] > 0
            fs.hp[g] = np.where(live, np.minimum(fs.hp[g] + heal[m], t.maxhp[a_u[m]]), fs.hp[g])

    # -- end of round -----------------------------------------------------------------
    def _end_round(self, rows) -> None:
        fs, t = self.fs, self.t
        p = t.present
        if not (p["breath"] or p["regen"] or p["healer"] or p["beer"] or p["grow"] or p["runes"]):
            return
        groups = [(self.mem[rows], self.slot_ok[rows], rows)]
        if self.support is not None:
            s = self.support[rows]
            groups.append((np.where(s >= 0, s, 0), s >= 0, rows))
        if self.ext is not None:
            e = self.ext[rows]
            groups.append((np.where(e >= 0, e, 0), e >= 0, rows))
        tick_u = np.concatenate([u[ok] for u, ok, _ in groups])
        tick_g = np.concatenate([(self.gbase[r][:, None] + u)[ok] for u, ok, r in groups])
        if fs.dot_now is not None:
            d = fs.dot_now[tick_g] * fs.alv[tick_g]
            fs.dot_now[tick_g] = fs.dot_next[tick_g]
            fs.dot_next[tick_g] = 0
            if d.any():
                fs.hp[tick_g] -= d
                if fs.hurt is not None:
                    fs.hurt[tick_g[d > 0]] = True
                dead = tick_g[(fs.hp[tick_g] <= 0) & fs.alv[tick_g]]
                if dead.size:
                    fs.alv[dead] = False
                    self._rebuild(rows)
        alive = fs.alv[tick_g]
        if p["regen"]:
            r = t.regen[tick_u] * alive
            fs.hp[tick_g] = np.minimum(fs.hp[tick_g] + r, t.maxhp[tick_u])
        if p["healer"]:
            self._healers(rows)
            self._hot_tick(tick_g, tick_u)
        if p["beer"]:
            self._beer(rows, groups)
        if fs.atkb is not None:
            grow = t.grow[tick_u] * (fs.hurt[tick_g] & fs.alv[tick_g])
            fs.atkb[tick_g] += grow
            fs.hurt[tick_g] = False
        if fs.rune is not None:
            fs.rune[tick_g] = 0

    def _healers(self, rows) -> None:
        """Each living healer puts a regeneration on a random wounded non-healer of its target group."""
        fs, t = self.fs, self.t
        S = self.S
        # healers in the fighting group: own group, or the squad in front of them (ext) when given
        sources = [(self.mem[rows], self.slot_ok[rows], "fight")]
        if self.support is not None:
            s = self.support[rows]
            sources.append((np.where(s >= 0, s, 0), s >= 0, "support"))
        for units, ok, kind in sources:
            g = self.gbase[rows][:, None] + units
            healers = ok & t.healer[units] & fs.alv[g]
            if not healers.any():
                continue
            ri, _ = np.nonzero(healers)
            r = rows[ri]
            if kind == "fight":
                dest, dest_ok = self.mem[r], self.slot_ok[r]
                if self.ext is not None:
                    e = self.ext[r]
                    use = (e >= 0).any(axis=1)
                    if use.any():
                        width = max(dest.shape[1], e.shape[1])
                        dest = _widen(dest, width)
                        dest_ok = _widen(dest_ok, width)
                        dest[use] = _widen(np.where(e >= 0, e, 0), width)[use]
                        dest_ok[use] = _widen(e >= 0, width)[use]
            else:
                front_alive = self.n_alive[r] > 0
                sup = self.support[r]
                width = max(S, sup.shape[1])
                dest = _widen(self.mem[r], width)
                dest_ok = _widen(self.slot_ok[r], width)
                dest[~front_alive] = _widen(np.where(sup >= 0, sup, 0), width)[~front_alive]
                dest_ok[~front_alive] = _widen(sup >= 0, width)[~front_alive]
            gd = self.gbase[r][:, None] + dest
            wounded = dest_ok & fs.alv[gd] & ~t.healer[dest] & (fs.hp[gd] < t.maxhp[dest])
            cnt = wounded.sum(axis=1)
            has = cnt > 0
            if not has.any():
                continue
            pick = (fs.rng.random(int(has.sum())) * cnt[has]).astype(I64)
            col = (np.cumsum(wounded[has], axis=1) > pick[:, None]).argmax(axis=1)
            target = gd[has][np.arange(col.size), col]
            for j, amount in enumerate(t.heal_ticks):
                np.add.at(fs.hot[j], target, amount)

    def _hot_tick(self, tick_g, tick_u) -> None:
        fs, t = self.fs, self.t
        targets = tick_g
        if self.ext is None:
            pass
        heal = fs.hot[0][targets] * fs.alv[targets]
        fs.hp[targets] = np.minimum(fs.hp[targets] + heal, t.maxhp[tick_u])
        for j in range(len(t.heal_ticks) - 1):
            fs.hot[j][targets] = fs.hot[j + 1][targets]
        fs.hot[-1][targets] = 0

    def _beer(self, rows, groups) -> None:
        """The beer elemental heals every other living unit of its group each round."""
        fs, t = self.fs, self.t
        for units, ok, r in groups[:2]:
            g = self.gbase[r][:, None] + units
            live = ok & fs.alv[g]
            per = t.squad_heal[units] * live
            total = per.sum(axis=1)
            if not total.any():
                continue
            heal = (total[:, None] - per) * live
            fs.hp[g[live]] = np.minimum(fs.hp[g[live]] + heal[live], t.maxhp[units[live]])


def _widen(arr, width: int):
    if arr.shape[1] >= width:
        return arr.copy()
    pad = np.zeros((arr.shape[0], width - arr.shape[1]), dtype=arr.dtype)
    return np.concatenate([arr, pad], axis=1)


def _area_hits(area, living):
    """Number of distinct targets per attack: round_half_up(pct × living), clamped to [min, max] (JR-30)."""
    pct, lo, hi = area[:, 0], area[:, 1], area[:, 2]
    n = (pct * living * 2 + 100) // 200
    k = np.maximum(np.minimum(np.minimum(n, hi), living), np.minimum(lo, living))
    return np.where(pct > 0, k, 1)
