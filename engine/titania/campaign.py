"""The Campaign phase (10.3-10.4): abilities, Might allocation, each faction's moves in its own sequence."""
from __future__ import annotations

from typing import Any

from engine.titania import quests
from engine.titania.battle import battle, capture_owner
from engine.titania.board import Army, Task
from engine.titania.orders import Record
from engine.titania.reveal import reveal_near_armies
from engine.titania.supports import mark_empty_entry
from engine.titania.world import World


def apply_abilities(w: World) -> list[tuple[str, dict[str, Any], Army]]:
    """10.3.3: pay 1 Influence and apply every active ability simultaneously, before any move. An ability that
    moves a squad (Knowledge of paths) is only checked and paid here: it is returned, to be made after the spells
    (`make_moves`), since the step's stops and damages keep its squad where it stands (ruling T4-3)."""
    checked: list[tuple[str, dict[str, Any]]] = []
    for faction, spec in w.sit.abilities.items():
        entry: dict[str, Any] = {"outcome": "void", "reason": "bad_target", "fired": False}
        w.abilities[faction] = entry
        fspec = w.factions.get(faction)
        if fspec is None or fspec.is_keeper or not isinstance(spec, dict):
            continue  # Keepers use only passive abilities (G43 a)
        if w.resources[faction]["influence"] < 1:
            entry["reason"] = "no_influence"
            continue
        reason = w.race(faction).check_ability(w, faction, spec)
        if reason is not None:
            entry["reason"] = reason
            continue
        w.resources[faction]["influence"] -= 1
        entry.update(outcome="succeeded", reason="registered")
        checked.append((faction, spec))
    moves: list[tuple[str, dict[str, Any], Army]] = []
    for faction, spec in checked:  # checked against the start of the Campaign, then applied
        race = w.race(faction)
        squad = w.army_at_start(faction, spec.get("army")) if race.ability_moves else None
        if squad is not None:
            moves.append((faction, spec, squad))
        else:
            race.apply_ability(w, faction, spec)
    return moves


def make_moves(w: World, moves: list[tuple[str, dict[str, Any], Army]]) -> None:
    """Ruling T4-3: «применяются в фазе Похода, одновременно и до начала ходов игроков» — an army that the
    spells-and-abilities step stopped or damaged cannot move this Campaign: its Knowledge-of-paths move is not made
    (the Influence stays spent; the ability is `cancelled` with the army's reason), its orders are cancelled
    (C12.2), and it still defends where it stands."""
    for faction, spec, squad in moves:
        if not squad.alive or squad.cancelled is not None:
            w.abilities[faction].update(outcome="cancelled", reason=squad.cancelled or "attacked", fired=False)
            continue
        w.race(faction).apply_ability(w, faction, spec)


def apply_might(w: World) -> dict[str, dict[str, str]]:
    """Might allocation (G8 a, G9 a): per-army points for this Campaign; over Might: void as a whole."""
    out: dict[str, dict[str, str]] = {}
    for faction, alloc in w.sit.might_allocation.items():
        if faction not in w.might or not isinstance(alloc, dict):
            out[str(faction)] = {"outcome": "void", "reason": "bad_target"}
            continue
        armies: list[tuple[Army, int]] = []
        ok = True
        for prov, n in alloc.items():
            army = w.army_at_start(faction, prov)
            if army is None or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                ok = False
                break
            armies.append((army, n))
        if not ok:
            out[faction] = {"outcome": "void", "reason": "bad_target"}
        elif sum(n for _, n in armies) > w.might[faction]:
            out[faction] = {"outcome": "void", "reason": "over_cap"}
        else:
            for army, n in armies:
                army.bonus += n
            out[faction] = {"outcome": "succeeded", "reason": "allocated"}
    return out


def keeper_watch(w: World) -> None:
    """«Раз за игру … если у их границ появляется войско другой фракции с силой 5 или более» (ruling T4-4): after
    a step (Planning; the spells-and-abilities step; each move with its battle and retreats), wherever a player
    army grew or arrived in the step (World.grew) and its faction's own base Strength there is now >= 5 where it
    was less just before, an army appeared: by any means (a move, a capture, a retreat, a merge, a hire, a
    replenish, a racial ability, a spell). In the order they grew; the watch then starts afresh (`w.grown` is
    emptied)."""
    grown, w.grown = w.grown, []
    least = w.params.keeper_trigger_strength
    for army, before in grown:
        if (army.alive and not w.factions[army.faction].is_keeper
                and w.strength_in(army.faction, army.province) >= least > before):
            keeper_trigger(w, army)


def keeper_trigger(w: World, army: Army) -> None:
    """Once per game a Keeper reinforces its weakest province when a player faction's base Strength of 5 or more
    appears next to a Keeper province (SCHEMA §4, G43 a; `keeper_watch` says when)."""
    if (not army.alive or w.factions[army.faction].is_keeper
            or w.strength_in(army.faction, army.province) < w.params.keeper_trigger_strength):
        return
    for n in sorted(w.map.neighbours(army.province)):
        keeper = w.owners.get(n)
        if keeper is None or not w.factions[keeper].is_keeper or keeper in w.keeper_trigger_used:
            continue
        w.keeper_trigger_used.add(keeper)
        fixed = w.sit.dice.get("keeper_trigger", {})
        amount = fixed.get(keeper) if isinstance(fixed, dict) else None
        if not isinstance(amount, int) or isinstance(amount, bool):
            lo, hi = w.params.keeper_trigger_amount
            amount = w.rng("keeper_trigger", keeper).randint(lo, hi)
        provs = w.owned(keeper)
        size = {p: sum(a.strength for a in w.armies_in(p) if a.faction == keeper) for p in provs}
        weakest = min(provs, key=lambda p: (size[p], p))
        target = w.own_army(keeper, weakest) or w.add_army(keeper, weakest, 0)
        target.strength = min(w.limit(keeper), target.strength + amount)
        w.events.append({"kind": "keeper_trigger", "keeper": keeper, "province": weakest, "amount": amount})


def execute_move(w: World, task: Task, army: Army, target: str) -> tuple[str, str]:
    """10.4.2: one move or attack from the army's current province."""
    f = army.faction
    origin = army.province
    owner = w.owners.get(target)
    taker = w.captured_by.get(target)
    if taker is not None and taker != f and w.allied(f, taker):  # A10.1 (G32 a)
        return "cancelled", "ally_captured"
    if not w.map.adjacent(origin, target):
        return "void", "not_adjacent"
    if w.map.is_sea(target) and not army.naval:
        return "void", "sea"
    if target in w.protected and not w.allied(f, w.protected[target]):
        return "void", "protected"
    warder = w.effects.wards.get(target)
    if warder is not None and not w.allied(f, warder):  # G55 a: turned back before any battle
        del w.effects.wards[target]
        w.fire("ward", target)
        army.cancelled = "warded"
        return "failed", "warded"
    if w.hostile_present(f, target):
        return battle(w, army, target, origin)
    had_troops = bool(w.armies_in(target))
    if owner == f or (owner is not None and w.allied(f, owner)) or w.map.is_sea(target):
        limit = w.limit(owner) if owner is not None else w.limit(f)
        resident = w.own_army(f, target)
        if (owner == f and resident is not None and target not in w.occupancy_changed
                and resident.strength + army.strength > limit):
            return "void", "over_limit"  # A7.1, G30 a
        army.moved = True
        trimmed = w.place(army, target, limit)
        if trimmed:
            task.extra["trimmed"] = trimmed
        if not had_troops:
            mark_empty_entry(w, target, f)
        return "succeeded", "moved"
    # an unowned or enemy province without hostile troops: captured without a battle (G27 a)
    home = w.race(owner) if owner is not None else None
    army.moved = True
    w.place(army, target, w.limit(f))
    w.owners[target] = capture_owner(w, f, target)
    w.captured_by[target] = f
    if home is not None and home.trap_damage:  # Goblin traps (G68 a), also on an empty province
        army.strength -= home.trap_damage
        task.extra["trap_damage"] = home.trap_damage
        army.cancelled = army.cancelled or "attacked"
        if not army.alive:
            w.destroy(army)
    w.race(f).on_capture(w, f, target, army, False)
    if w.effects.protect_if_captured.get(target) == f:
        w.protected_next[target] = f
        w.fire("protect_if_captured", target)
    mark_empty_entry(w, target, f)
    return "succeeded", "captured"


def run_move(w: World, task: Task) -> None:
    army = task.army
    if task.outcome is not None:
        return
    if army is None or not army.alive:
        task.settle("cancelled", "attacked")
        return
    if army.cancelled is not None:
        task.settle("cancelled", army.cancelled)
        return
    assert task.target is not None
    outcome, reason = execute_move(w, task, army, task.target)
    task.settle(outcome, reason)
    if reason in ("boss_killed", "boss_survived") and not army.alive:  # the Boss's damage took the whole army
        w.fallen.add(int(w.battles[-1]["n"]))
        w.fallen_orders.add((task.index, task.part))
    if reason in ("won", "lost", "draw", "boss_killed", "boss_survived"):
        _waaagh(w, task, army, task.target)


def _waaagh(w: World, task: Task, army: Army, fought_in: str) -> None:
    """G58 a: the chosen orc squad attacks the other chosen province at once, from where it now stands."""
    pair = w.effects.followup.get(army.uid)
    if pair is None or fought_in not in pair:
        return
    del w.effects.followup[army.uid]
    other = pair[1] if fought_in == pair[0] else pair[0]
    unit = army if army.alive else w.own_army(army.faction, army.province)
    if unit is None or not unit.alive or not w.map.adjacent(unit.province, other):
        task.extra["followup"] = {"target": other, "outcome": "void", "reason": "not_adjacent"}
        return
    w.fire("followup", army.uid)
    unit.cancelled = None  # the ability overrides C12.2
    outcome, reason = execute_move(w, task, unit, other)
    task.extra["followup"] = {"target": other, "outcome": outcome, "reason": reason}


def run(w: World) -> None:
    """10.4.1: factions in turn order, then the Keepers; each faction's moves in its own sequence."""
    keepers = [f.id for f in w.sit.factions if f.is_keeper]
    for faction in [*w.turn_order, *keepers]:
        moves = sorted((t for t in w.tasks if t.faction == faction and t.type == "move"),
                       key=lambda t: (t.seq, t.index, t.part or 0))
        for task in moves:
            w.grown.clear()
            run_move(w, task)
            keeper_watch(w)
            reveal_near_armies(w, faction)  # «войско … подходит на смежную дистанцию» (G88)
            quests.find_items(w, faction)  # G87


def settle(w: World, records: list[Record]) -> None:
    """Outcomes of holds and supports once the phase is over."""
    for task in w.tasks:
        if task.outcome is not None:
            continue
        army = task.army
        if task.type == "hold":
            gone = army is None or not army.alive or army.retreated
            task.settle(*(("failed", "dislodged") if gone else ("succeeded", "held")))
        elif task.type == "support":
            _settle_support(w, task)
        elif task.type == "move":
            task.settle("cancelled", "attacked")
    for rec in records:
        if rec.outcome is None and rec.tasks:
            rec.outcome, rec.reason = rec.tasks[0].outcome, rec.tasks[0].reason


def _settle_support(w: World, task: Task) -> None:
    states = [o.state for o in task.offers]
    if "counted" in states:
        task.settle("succeeded", "supported")
        return
    for offer in task.offers:
        if offer.state == "cancelled":
            task.settle("cancelled", offer.reason or "attacked")
            return
        if offer.state == "void":
            task.settle("void", offer.reason or "no_battle")
            return
    army = task.army
    first = task.offers[0]
    if first.faction == "natives":
        task.settle("void", "no_support_allowed")
    elif army is not None and army.cancelled is not None:
        task.settle("cancelled", army.cancelled)
    elif (army is not None and not w.map.adjacent(army.province, first.target)
          and army.uid not in w.effects.support_anywhere):
        task.settle("void", "not_adjacent")
    else:
        task.settle("void", "no_battle")
