"""One battle (10.4.3): Boss fights, totals, result, damage, draws, retreats, capture, building loss, C12.2."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.titania import events, quests
from engine.titania.board import NATIVES, Army
from engine.titania.effects import battle_bonus
from engine.titania.research import grant_knowledge
from engine.titania.supports import Counted, collect
from engine.titania.world import World


@dataclass(eq=False)
class Side:
    """The defenders of a province: player or Keeper armies, or the native squad."""

    armies: list[Army] = field(default_factory=list)
    natives: int = 0

    @property
    def factions(self) -> list[str]:
        if self.natives:
            return [NATIVES]
        out: list[str] = []
        for a in self.armies:
            if a.faction not in out:
                out.append(a.faction)
        return out

    @property
    def strength(self) -> int:
        return self.natives + sum(a.strength for a in self.armies)


def _support_json(supports: list[Counted]) -> list[dict[str, Any]]:
    return [{"faction": s.supporter, "from": s.origin, "value": s.value} for s in supports]


def capture_owner(w: World, faction: str, province: str) -> str | None:
    """C8.2 (G26 a): the capturer owns it if it borders an own province or the sea, else it is unowned."""
    if w.map.coastal(province):
        return faction
    return faction if any(w.owners.get(n) == faction for n in w.map.neighbours(province)) else None


def lose_building(w: World, province: str) -> int:
    """C7.2: one random building is lost (dice.building_loss fixes which)."""
    have = w.buildings[province]
    if not have:
        return 0
    fixed = w.sit.dice.get("building_loss", {})
    wanted = fixed.get(province) if isinstance(fixed, dict) else None
    queue = wanted if isinstance(wanted, list) else [wanted]
    lost_before = sum(1 for e in w.events if e.get("kind") == "building_lost" and e["province"] == province)
    choice = queue[lost_before] if lost_before < len(queue) else None
    if choice not in have:
        choice = w.rng("building_loss", province, lost_before).choice(sorted(have))
    have.remove(choice)
    w.events.append({"kind": "building_lost", "province": province, "building": choice})
    return 1


def _retreat_choice(w: World, who: str, province: str, options: list[str]) -> str:
    chosen = w.sit.choices.get("retreat", {})
    pick = chosen.get(f"{who}@{province}") if isinstance(chosen, dict) else None
    for p in pick if isinstance(pick, list) else [pick]:
        if p in options:
            return str(p)
    return w.rng("retreat", who, province).choice(sorted(options))


def retreat_defender(w: World, army: Army, province: str) -> None:
    """A5.1, A6.1, G28 a: to the adjacent own land province with the smallest squad (empty = 0), then an
    ally's; never onto the sea; nowhere to go: destroyed. Keepers only into their own provinces."""
    army.retreated = True
    f = army.faction
    spec = w.factions[f]
    groups = [[n for n in w.map.neighbours(province) if w.owners.get(n) == f]]
    if not spec.is_keeper:
        groups.append([n for n in w.map.neighbours(province)
                       if w.owners.get(n) not in (None, f) and w.allied(f, str(w.owners.get(n)))])
    for group in groups:
        cands = [n for n in group if not w.map.is_sea(n) and not w.hostile_present(f, n)]
        if not cands:
            continue
        size = {n: sum(a.strength for a in w.armies_in(n) if a.faction in (f, w.owners.get(n))) for n in cands}
        least = min(size.values())
        dest = _retreat_choice(w, f, province, [n for n in cands if size[n] == least])
        owner = w.owners.get(dest)
        w.place(army, dest, w.limit(owner) if owner is not None else w.limit(f))
        return
    w.destroy(army)


def retreat_natives(w: World, province: str, strength: int) -> None:
    """Natives retreat only into another native province, the smallest; otherwise they are destroyed."""
    w.natives.pop(province, None)
    if strength <= 0:
        return
    cands = [n for n in w.map.neighbours(province) if w.natives.get(n, 0) > 0]
    if not cands:
        return
    least = min(w.natives[n] for n in cands)
    dest = _retreat_choice(w, NATIVES, province, [n for n in cands if w.natives[n] == least])
    w.natives[dest] += strength


def retreat_attacker(w: World, army: Army, origin: str) -> None:
    """C10.2, A6.1, G29 a: strictly back to the origin; destroyed if hostile troops now hold it."""
    if not army.alive:
        return
    if w.hostile_present(army.faction, origin):
        w.destroy(army)
        return
    owner = w.owners.get(origin)
    w.place(army, origin, w.limit(owner) if owner is not None else w.limit(army.faction))


def _split_damage(w: World, province: str, armies: list[Army], total: int) -> dict[int, int]:
    """A9.1, G23 a: equal shares; the odd points one each to the largest armies."""
    if not armies:
        return {}
    share, rest = divmod(total, len(armies))
    out = {a.uid: share for a in armies}
    pick = w.sit.choices.get("ally_split", {})
    first = pick.get(province) if isinstance(pick, dict) else None
    order = sorted(armies, key=lambda a: (-a.strength, a.faction != first, a.faction))
    for a in order[:rest]:
        out[a.uid] += 1
    return out


def _recover(w: World, army: Army, loss: int) -> int:
    """Undead Rising (G61 a): after the squad's first battle, regain ⌈loss/3⌉, at least 1."""
    if army.uid not in w.effects.recover or army.battles > 1 or loss <= 0:
        return 0
    back = max(1, math.ceil(loss / 3))
    army.strength += back
    w.fire("recover", army.uid)
    return back


def boss_battle(w: World, army: Army, province: str, origin: str) -> tuple[str, str]:
    """G44 a: own Strength (+ Ferocity) to the Boss's Health; the attacker takes 5 (Thick hides 4)."""
    race = w.race(army.faction)
    collect(w, province, army, origin, [], no_support=True)
    army.battles += 1
    to_boss = army.strength + race.attack_damage_bonus
    to_attacker = max(0, w.params.boss_damage - race.damage_reduction)
    record: dict[str, Any] = {"n": len(w.battles) + 1, "province": province, "kind": "boss",
                              "attacker": {"faction": army.faction, "from": origin, "strength": army.strength},
                              "damage": {"to_boss": to_boss, "to_attacker": to_attacker}}
    w.battles.append(record)
    w.bosses[province] -= to_boss
    army.strength -= to_attacker
    _recover(w, army, to_attacker)
    army.attacked = True
    army.cancelled = army.cancelled or "attacked"
    if w.bosses[province] > 0:
        record["result"] = "defender"
        retreat_attacker(w, army, origin)
        return "failed", "boss_survived"
    del w.bosses[province]
    record["result"] = "attacker"
    owner = capture_owner(w, army.faction, province)
    w.owners[province] = owner
    w.captured_by[province] = army.faction
    record.update(buildings_lost=0, owner_after=owner)
    _boss_reward(w, army.faction, province)
    if army.alive:
        w.place(army, province, w.limit(army.faction))
        army.moved = True
    return "succeeded", "boss_killed"


def _boss_reward(w: World, faction: str, province: str) -> None:
    fixed = w.sit.dice.get("boss_reward", {})
    got = fixed.get(province) if isinstance(fixed, dict) else None
    got = got if isinstance(got, dict) else {}
    rng = w.rng("boss_reward", province)
    reward = {}
    for res, (lo, hi) in (("gold", w.params.boss_reward_gold), ("wood", w.params.boss_reward_wood)):
        n = got.get(res)
        reward[res] = n if isinstance(n, int) and not isinstance(n, bool) else rng.randint(lo, hi)
        w.resources[faction][res] += reward[res]
    # «случайное заклинание (кроме уже изученных) или случайную технологию (кроме уже изученных)»
    knowledge = grant_knowledge(w, faction, ("boss", province), got)
    w.rewards.append({"kind": "boss", "faction": faction, "province": province, **reward, **knowledge})
    quests.boss_killed(w, faction, province)
    events.boss_killed(w, faction)


def _building_defence(w: World, province: str, owner: str | None, defenders: list[str]) -> int:
    """SCHEMA_V2 §9: a building's `defence` effect adds to the defending side's total in its province when the
    province's owner is a defending faction or an official ally of one (a modifier, G22 a)."""
    if owner is None or not any(w.allied(owner, d) for d in defenders if d != NATIVES):
        return 0
    return sum(e.value for b in w.buildings[province] for e in w.building_effects(b) if e.type == "defence")


def battle(w: World, army: Army, province: str, origin: str) -> tuple[str, str]:
    """An attack on hostile troops in `province` from `origin`; returns (outcome, reason) of the move."""
    if province in w.bosses:
        return boss_battle(w, army, province, origin)
    f = army.faction
    side = Side(natives=w.natives.get(province, 0)) if w.natives.get(province, 0) > 0 else \
        Side([a for a in w.armies_in(province) if not w.allied(f, a.faction)])
    vs_natives = side.natives > 0
    owner_before = w.owners.get(province)
    home = w.race(owner_before) if owner_before is not None else None
    brigand = w.effects.no_support.get(province) == f
    if brigand:
        w.fire("no_support", province)
    att_sup, def_sup = collect(w, province, army, origin, side.factions, no_support=brigand)
    defenders_before = [{"faction": a.faction, "strength": a.strength} for a in side.armies] or \
        [{"faction": NATIVES, "strength": side.natives}]
    a_race = w.race(f)
    d_races = [w.race(x) for x in side.factions if x != NATIVES]
    a_mod = army.bonus + battle_bonus(w.faction_effects(f), "attack")  # technologies, debuffs
    if a_race.attack_bonus_unsupported and not att_sup and not vs_natives:
        a_mod += a_race.attack_bonus_unsupported
    if home is not None and owner_before != f:
        a_mod -= home.attacker_penalty_on_own_land
    if def_sup:
        a_mod += a_race.bonus_against_support
    d_mod = sum(a.bonus + battle_bonus(w.faction_effects(a.faction), "defence") for a in side.armies) \
        + sum(s.bonus for s in def_sup) + _building_defence(w, province, owner_before, side.factions)
    if att_sup and d_races:
        d_mod += max(r.bonus_against_support for r in d_races)
    a_total = army.strength + sum(s.value for s in att_sup) + a_mod
    d_total = side.strength + sum(s.value for s in def_sup) + d_mod
    if d_total == a_total + 1 and a_race.adaptability:  # Adaptability, last of all (G50 a)
        a_mod += a_race.adaptability
        a_total += a_race.adaptability
    elif a_total == d_total + 1 and d_races and max(r.adaptability for r in d_races):
        bump = max(r.adaptability for r in d_races)
        d_mod += bump
        d_total += bump
    result = "attacker" if a_total > d_total else "defender" if a_total < d_total else "draw"
    adjusted: str | None = None
    if result == "draw" and home is not None and home.wins_ties_on_own_land:
        result, adjusted = ("attacker" if owner_before == f else "defender"), "grove"
    guard = w.effects.defeat_is_victory.get(province)
    if guard is not None and result != "draw":
        loser_side = side.factions if result == "attacker" else [f]
        if guard in loser_side:
            result = "defender" if result == "attacker" else "attacker"
            adjusted = "protection"
            del w.effects.defeat_is_victory[province]
            w.fire("defeat_is_victory", province)
    record: dict[str, Any] = {
        "n": len(w.battles) + 1, "province": province,
        "kind": "natives" if vs_natives else "keeper" if any(w.factions[x].is_keeper for x in side.factions
                                                               if x != NATIVES) else "army",
        "attacker": {"faction": f, "from": origin, "strength": army.strength, "supports": _support_json(att_sup),
                     "modifiers": a_mod, "total": a_total},
        "defender": {"factions": side.factions, "strength": side.strength, "armies": defenders_before,
                     "supports": _support_json(def_sup), "modifiers": d_mod, "total": d_total},
        "result": result}
    if adjusted:
        record["adjusted"] = adjusted
    w.battles.append(record)
    army.battles += 1
    for d in side.armies:
        d.battles += 1
    nimble = result == "defender" and army.uid in w.effects.no_loss_retreat
    if nimble:
        w.fire("no_loss_retreat", army.uid)
        record["adjusted"] = "nimbleness"
    trap = home.trap_damage if home is not None and owner_before != f else 0
    to_att, to_def = _damage(w, army, side, province, result, trap, vs_natives, nimble)
    record["damage"] = {"attacker": to_att, "defender": to_def}
    # C12.2: everyone who fought loses the rest of its orders (supporters are untouched, A3.1)
    army.attacked = True
    army.cancelled = army.cancelled or "attacked"
    for d in side.armies:
        d.was_attacked = True
        w.cancel(d, "attacked")
    lost = 0
    if result == "attacker":
        for d in side.armies:
            if d.alive:
                retreat_defender(w, d, province)
        if vs_natives:
            retreat_natives(w, province, side.natives)
            w.native_free.add(province)
        new_owner = capture_owner(w, f, province)
        w.owners[province] = new_owner
        w.captured_by[province] = f
        if not a_race.keeps_buildings:
            lost = lose_building(w, province)
        if army.alive:
            w.place(army, province, w.limit(f))
            army.moved = True
        a_race.on_capture(w, f, province, army, vs_natives)
        if w.effects.protect_if_captured.get(province) == f:
            w.protected_next[province] = f
            w.fire("protect_if_captured", province)
        outcome = ("succeeded", "won")
    else:
        retreat_attacker(w, army, origin)
        if result == "draw":
            for d in side.armies:
                if d.alive:
                    retreat_defender(w, d, province)
            if vs_natives:
                retreat_natives(w, province, side.natives)
            w.owners[province] = None
            if not a_race.keeps_buildings:
                lost = lose_building(w, province)
            outcome = ("failed", "draw")
        else:
            if vs_natives:
                if side.natives > 0:
                    w.natives[province] = side.natives
                else:
                    w.natives.pop(province, None)
            outcome = ("failed", "lost")
    w.occupancy_changed.add(province)
    record["buildings_lost"] = lost
    record["owner_after"] = w.owners.get(province)
    return outcome


def _damage(w: World, army: Army, side: Side, province: str, result: str, trap: int, vs_natives: bool,
            nimble: bool) -> tuple[int, int]:
    """A2.1, A3.1, A4.1 and the racial damage rules; returns (damage to attacker, total to defenders)."""
    if nimble:
        return 0, 0
    a_race = w.race(army.faction)
    if result == "draw":  # each side loses half, rounded up (G23 a); Dwarf resilience (G52 a)
        to_att = (0 if a_race.no_draw_losses else math.ceil(army.strength / 2)) + trap
        losses = {d.uid: 0 if w.race(d.faction).no_draw_losses else math.ceil(d.strength / 2)
                  for d in side.armies}
        native_loss = math.ceil(side.natives / 2)
    else:
        to_att = side.strength + trap
        if not vs_natives:
            to_att = max(0, to_att - a_race.damage_reduction)
        dealt = army.strength + a_race.attack_damage_bonus
        losses = _split_damage(w, province, side.armies, dealt)
        for d in side.armies:
            losses[d.uid] = max(0, losses[d.uid] - w.race(d.faction).damage_reduction)
        native_loss = dealt if vs_natives else 0
    army.strength -= to_att
    _recover(w, army, to_att)
    for d in side.armies:
        d.strength -= losses[d.uid]
        _recover(w, d, losses[d.uid])
    side.natives = max(0, side.natives - native_loss)
    for d in side.armies:
        if not d.alive:
            w.destroy(d)
    return to_att, sum(losses.values()) + native_loss
