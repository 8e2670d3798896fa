"""A faction's own part of the turn, foreseen at `check` by the adjudicator's own code.

One file, over 400 lines: the forecast's steps and the errors it words read the same world at the same moment
(a void order's message is written when the engine voids it), so the runs and their messages stay together.

The Planning phase depends only on the faction itself: its production, the caravans already on their way to
it, its purse, its caps and its food (the one shared thing, an event's task, is in
engine.titania.reasons.EXTERNAL_CAUSES). The registration of its Campaign orders, its spells, its racial
ability and its Might allocation are checked against the start of the Campaign, which other factions cannot
change for it. Its moves, run with no other faction giving an order (Keepers included), show what fails for
its own reasons: an own army in the way, a province out of reach, a support from the province the attack
comes from. `foresee` runs the steps of engine.titania.adjudicate, in its order and with its functions, on
the situation built from the game state with this faction's orders alone; `rejections` turns each order the
engine voids there into the row's error, with what is allowed instead. Pure: no IO, no global random.

The game state is read once (`Outlook`: the situation without orders, parsed) for all the forecasts of one
check, every book's: a forecast adds only its faction's orders to it. The world at the start of the turn is
built and started once too (`Outlook.start`), and each forecast runs on its own copy-on-write fork of it
(engine.titania.fork), so a forecast costs what its faction's orders touch, not the whole map. `plan` runs
the Planning alone and `go_on` the Campaign on the world that Planning left; `again` runs each round of a
check's Campaign, the first on that world and a later one by a whole `foresee` (a void Planning order
changes nothing, so the world it reaches after the Planning is the same).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import OrderError, allowed_list
from engine.russian import agree
from engine.titania import campaign, diplomacy, quests
from engine.titania.adjudicate import start_of_campaign, start_of_turn
from engine.titania.board import Task
from engine.titania.fog import sight
from engine.titania.fork import Template, plain_copy
from engine.titania.game_turn import add_keys, empty_keys, situation
from engine.titania.names import RESOURCE_NAMES, ability_name
from engine.titania.orders import Record
from engine.titania.planning import Planning
from engine.titania.reasons import explain
from engine.titania.research import spell_cost, tech_cost
from engine.titania.reveal import reveal_near_armies
from engine.titania.rulebook import see
from engine.titania.situation import Situation, parse_situation
from engine.titania.state_types import TitaniaState
from engine.titania.tabs import BLIND, CAMPAIGN, MIGHT
from engine.titania.world import World

SEED = "forecast"  # nothing the faction's own verdicts depend on is drawn (raids, new events, reveals)
UNNEEDED = ("no_battle", "empty_province")  # a standing support nobody needed: not a mistake
STILL = ("not_adjacent", "sea", "protected", "over_limit")  # a move void so changed nothing (execute_move)


def cannot(reason: str | None, hint: str = "", text: str | None = None) -> OrderError:
    """«Так не выполнить: …»: the engine's verdict on a row (its reason code kept as `reason_code`,
    engine.titania.verdicts) with what the faction could do instead."""
    return OrderError("T_CANNOT", {"reason_code": reason or "", "reason": explain(reason) if text is None else text,
                                   "hint": hint})


def _amounts(cost: Mapping[str, int], zeros: bool = False) -> str:
    return ", ".join(f"{RESOURCE_NAMES.get(r, r)} {n}" for r, n in cost.items() if n or zeros) or "ничего"


class _Planning(Planning):
    """The engine's Planning, which also says, for each void order, what the faction could do instead."""

    def one(self, index: int, order: object) -> dict[str, Any]:
        got = super().one(index, order)
        if got["outcome"] == "void" and isinstance(order, dict):
            got["error"] = self.why(order, str(got["reason"]))  # a void order changed nothing: the world is as then
        return got

    def why(self, order: Mapping[str, Any], reason: str) -> OrderError:
        w, faction, kind = self.w, str(order.get("faction")), order.get("kind")
        prov = order.get("province")
        pname = w.map.provinces[prov].name if isinstance(prov, str) and prov in w.map.provinces else "?"
        if kind in ("hire", "skaven_free") and isinstance(prov, str):
            army = w.own_army(faction, prov)
            n = int(order.get("strength", w.race(faction).free_hire or 1))
            if reason == "food":
                where = sorted({w.map.provinces[a.province].name for a in w.armies_of(faction)})
                return OrderError("T_HIRE_FOOD", {"province": pname, "food": w.food(faction),
                                                  "squads": w.squads(faction), "allowed": allowed_list(where)})
            if reason == "over_limit":
                have, limit = (army.strength if army else 0), w.limit(faction)
                new = army is None or prov in self.new_squads
                used = (self.new_squads if new else self.replenished).get(prov, 0)
                cap = w.hire_cap(faction) if new else w.replenish_cap(faction)
                room = max(0, min(limit - have, cap - used)) if kind == "hire" else 0
                if have + n > limit:
                    why = f"там войско силой {have}, а лимит силы отряда {limit}"
                else:
                    why = (f"за ход в одной провинции можно {'набрать новый отряд' if new else 'пополнить отряд'} "
                           f"силой не больше {cap}" + (f", строками выше уже {used}" if used else ""))
                allowed = (f"Здесь можно нанять не больше {room}." if room
                           else "Здесь в этом ходу нанимать больше нельзя.")
                count = str(n) if kind == "hire" else f"{n} «Нашествием крыс»"
                return OrderError("T_HIRE_LIMIT", {"count": count, "province": pname, "why": why, "allowed": allowed})
            if reason == "no_resources" and kind == "hire":
                cost = ({"gold": n, "wood": n} if order.get("pay", "gold_wood") == "gold_wood"
                        else {"influence": n * w.params.influence_per_strength})
                return self.poor(faction, cost)
            if reason == "duplicate":
                return cannot(reason, text=f"«Нашествие крыс» — только раз за ход ({see('skaven')})")
        if reason == "no_resources":
            return self.poor(faction, self.cost(faction, order))
        hint = ""
        if kind == "research" and reason in ("needs_technology", "needs_might"):
            spec = w.catalog.technologies[str(order.get("technology"))]
            if reason == "needs_might":
                hint = f" Нужно Могущество {spec.might}, а у вас {w.might.get(faction, 0)}."
            else:
                known = set(w.known_techs[faction]) | set(self.pending_techs[faction])
                missing = [w.catalog.technologies[t].name for t in spec.requires if t not in known]
                hint = f" Сначала изучите: {allowed_list(missing)}."
        elif kind == "caravan" and reason == "hostile_route":
            war = w.factions[faction].at_war | w.factions[str(order.get("to"))].at_war
            raw = order.get("route")
            route = [p for p in raw if isinstance(p, str)] if isinstance(raw, list) else []
            enemies = sorted({w.factions[o].name for p in route[1:-1] if (o := w.owners.get(p)) is not None
                              and o in war})
            hint = f" Обойдите провинции фракций: {allowed_list(enemies)}."
        elif kind == "contribute" and reason == "bad_order":
            ev = next((x for x in w.active_events if x.get("id") == order.get("event")), None)
            if ev is not None:
                goal = w.catalog.events[ev["id"]].goal
                hint = f" Это событие принимает только: {RESOURCE_NAMES.get(str(goal.get('resource')), '?')}."
        return cannot(reason, hint)

    def cost(self, faction: str, order: Mapping[str, Any]) -> dict[str, int]:
        """What the order would have paid (for the message only)."""
        w, kind = self.w, order.get("kind")
        if kind == "build":
            b = str(order.get("building"))
            cost = w.params.cost_of(b)
            if "influence" in cost:
                cost["influence"] = max(0, cost["influence"] - w.race(faction).building_discount.get(b, 0))
            return cost
        if kind == "research":
            return tech_cost(w, faction, str(order.get("technology")))
        if kind == "learn":
            return spell_cost(w, faction, w.catalog.spells[str(order.get("spell"))].learn)
        raw = order.get("resources")
        return {str(r): int(n) for r, n in raw.items()} if isinstance(raw, dict) else {}

    def poor(self, faction: str, cost: Mapping[str, int]) -> OrderError:
        purse = self.w.resources[faction]
        return OrderError("T_NO_RESOURCES", {"need": _amounts(cost),
                                             "have": _amounts({r: purse.get(r, 0) for r in cost}, zeros=True)})


@dataclass
class Foresight:
    """The faction's own part of the turn as the engine ran it."""

    faction: str
    world: World
    planning: list[dict[str, Any]]  # the outcome of each Planning order, in order ("error" on a void one)
    records: list[Record] = field(default_factory=list)  # each Campaign order, as registered
    moves: dict[tuple[int, int | None], OrderError] = field(default_factory=dict)  # a void move's error
    might: dict[str, str] | None = None


class Outlook:
    """The game state as the engine reads it, without orders: built once for every forecast of a check, with the
    world at the start of the turn that every forecast goes on from (`start`). `fork=False`: each forecast
    builds its whole world and runs the start of the turn itself instead (the reference the forks are checked
    against). `confirm=True`: a check runs the Campaign once more after every round that rejected rows, even
    when dropping them changes nothing else (`inert`; the reference that shortcut is checked against)."""

    def __init__(self, state: TitaniaState, fork: bool = True, confirm: bool = False,
                 seen: Callable[[str], set[str]] | None = None) -> None:
        self.state = state
        self._seen = seen  # what each faction sees, from the books' Index when it has read the state already
        self.fork = fork
        self.confirm = confirm
        data, _, _ = situation(state, {}, SEED)
        data["orders"] = []  # the Keepers' standing orders are other factions'
        # (a game from a situation without Planning: its own turn has none, unless rows are typed, engine.opening)
        self.planning: dict[str, Any] = data.get("planning") or {"production": False, "arrivals": [],
                                                                 "keeper_reinforce": {}, "stolen": [], "orders": []}
        self.sit: Situation | None = parse_situation(data)[0]
        self._ids = frozenset(f.id for f in self.sit.factions) if self.sit is not None else frozenset()
        # the Planning's input but the orders, the engine's own copy: only read by the forecasts' worlds
        self._input = plain_copy({k: v for k, v in self.planning.items() if k != "orders"})
        self._start: tuple[Template, bool] | None = None
        self._sight: dict[str, set[str]] = {}
        self._troops: dict[str, set[str]] | None = None  # province -> the factions whose troops stand there

    def situation(self, faction: str, items: Sequence[Mapping[str, Any]]) -> Situation | None:
        """The situation with the faction's order items (validate's `orders`) alone; None if the engine refuses
        the state. The engine reads the items' own orders (`orders`) and its own copy of the Planning's input
        (the forks share one, which they only read); the rest is built afresh by the World or only read."""
        if self.sit is None or faction not in self._ids:
            return None
        keys = self.orders(faction, items)
        given = self._input if self.fork else plain_copy(self._input)
        return with_orders(replace(self.sit, planning={**given, "orders": keys["planning_orders"]}), keys)

    def orders(self, faction: str, items: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The input's order keys (game_turn.order_keys) of the faction's items: the items' own orders, which the
        engine only reads (tests/titania/test_forecast_reads_orders.py), as the turn's input copies them."""
        keys = empty_keys()
        if not self.state["factions"][faction].get("eliminated"):  # as order_keys takes the playing factions'
            add_keys(keys, faction, items)
        return keys

    def met(self, faction: str) -> set[str | None]:
        """The factions whose troops stand or provinces lie where the faction sees, from the state (read once)."""
        if self._troops is None:
            self._troops = {}
            for a in self.state["armies"]:
                self._troops.setdefault(a["province"], set()).add(a["faction"])
        troops = self._troops
        seen = self.sight(faction)
        return {f for p in seen for f in troops.get(p, ())} | {self.state["owners"].get(p) for p in seen}

    def sight(self, faction: str) -> set[str]:
        """The provinces whose troops the faction sees (engine.titania.fog), once per faction."""
        got = self._sight.get(faction)
        if got is None:
            got = self._sight[faction] = self._seen(faction) if self._seen is not None else sight(self.state, faction)
        return got

    def start(self) -> tuple[Template, bool]:
        """The world every forecast forks (built at the first): adjudicate's first step run, which no order
        changes, and (True) also the Planning's arrivals, production and Keeper reinforcements. Those depend on
        no order either, but on the move order when the arrivals complete a Keeper's quest for two factions
        (the earliest wins, and a forecast's move order is its faction alone): then (False) each forecast runs
        them itself. The situation's only orders (none) are never read there: each fork gets its own."""
        if self._start is None:
            assert self.sit is not None
            sit = replace(self.sit, planning={**self._input, "orders": []})
            w = _started(sit)
            ready = all(len(senders) <= 1 for senders in Planning(w, self._input).prepare().done.values())
            self._start = (Template(w if ready else _started(sit)), ready)
        return self._start


def _started(sit: Situation) -> World:
    w = World(sit, SEED)
    start_of_turn(w)
    w.grown.clear()
    return w


def with_orders(sit: Situation, keys: Mapping[str, Any]) -> Situation:
    """`sit` with the Campaign's order keys of `keys` (Outlook.orders)."""
    return replace(sit, orders=tuple(keys["orders"]), might_allocation=keys["might_allocation"],
                   abilities=keys["abilities"],
                   ext=replace(sit.ext, casts={str(f): tuple(v) for f, v in keys["spells"].items()}))


def plan(outlook: Outlook, faction: str, items: Sequence[Mapping[str, Any]]) -> Foresight | None:
    """The faction's Planning run alone (its order items, validate's `orders`); None if the engine refuses the
    state."""
    sit = outlook.situation(faction, items)
    if sit is None:
        return None
    # engine.titania.adjudicate, step by step (its own functions; the move order is this faction alone)
    prepared = False
    if outlook.fork:
        template, prepared = outlook.start()
        w = template.fork()
        w.sit = sit
    else:
        w = _started(sit)
    w.turn_order = [faction]
    _relations(w, outlook.state, faction, items)
    planning = _Planning(w, sit.planning or {})
    if prepared:
        planning.carry_out()  # the rest of `play`: its start is in the template
    else:
        planning.play()  # the outcomes only (`run` also sums up every faction's purse and food)
    campaign.keeper_watch(w)
    return Foresight(faction, w, planning.results)


def _named(items: Sequence[Mapping[str, Any]]) -> set[str]:
    """Every province the faction's order items name (targets, paths, a Waaagh!'s provinces, spells' aims)."""
    out: set[str] = set()

    def take(value: object) -> None:
        if isinstance(value, str):
            out.add(value)
        elif isinstance(value, list | tuple):
            for v in value:
                take(v)
        elif isinstance(value, Mapping):
            for key in ("target", "army", "province", "provinces", "path", "second", "parts"):
                if key in value:
                    take(value[key])

    for item in items:
        for key in ("order", "cast", "spec"):
            if key in item:
                take(item[key])
    return out


def _fog(w: World, outlook: Outlook, faction: str, items: Sequence[Mapping[str, Any]]) -> None:
    """The Campaign's world as the faction knows it (engine.titania.fog), so that no verdict of its rows depends
    on what it cannot see: no army or natives in a province out of its sight that its orders reach (a Waaagh!'s
    second attack, a spell or Intimidation aimed blind; every other order stays in sight), and the technologies,
    spells and items (their battle modifiers) of the other factions its Campaign can meet, their quests' and
    events' progress as if they had none. (Its Planning reads only its own purse, caps and food; the other
    factions' purses nothing of it ever reads.) The cost is the faction's own orders and sight, not the map's."""
    seen = outlook.sight(faction)
    for p in _named(items) - seen:
        if p not in w.map.provinces:
            continue
        for army in w._at(p):
            if army.faction != faction:
                army.strength = 0
        w.natives.pop(p, None)
    # the factions whose troops or provinces it sees: the only ones its Campaign can meet (the cost is its sight's)
    met = outlook.met(faction)
    for f in met:
        if f == faction or f not in w.factions:
            continue
        for known in (w.known_techs, w.active_techs, w.known_spells, w.items):
            if f in known:
                known[f] = []
    w.effects_changed()
    for q in w.quests.values():
        q["progress"] = {f: n for f, n in (q.get("progress") or {}).items() if f == faction}
    for e in w.active_events:
        if e.get("class") == "minor":  # a minor event's progress is each faction's own (G83)
            e["progress"] = {f: n for f, n in (e.get("progress") or {}).items() if f == faction}


def _relations(w: World, state: TitaniaState, faction: str, items: Sequence[Mapping[str, Any]]) -> None:
    """The alliances and wars the faction's own «Дипломатия» rows certainly make at the start of the turn
    (engine.titania.diplomacy.known_relations), in its world (a fork shares the factions: they are replaced)."""
    changed = diplomacy.known_relations(state, faction, items)
    if not changed:
        return
    w.factions = dict(w.factions)
    for fid, (allies, war) in changed.items():
        spec = w.factions.get(fid)
        if spec is not None:
            w.factions[fid] = replace(spec, allies=frozenset(a for a in allies if a in w.factions),
                                      at_war=frozenset(a for a in war if a in w.factions))


def go_on(outlook: Outlook, fs: Foresight, items: Sequence[Mapping[str, Any]]) -> Foresight:
    """The Campaign of the faction's order items run on the world its Planning left (`plan`; the world is not
    fresh after this). The items' Planning orders are not run again: they must be those `plan` ran, less the
    ones it voided (a void order changed nothing)."""
    w, faction = fs.world, fs.faction
    _fog(w, outlook, faction, items)
    campaign_items = [i for i in items if i.get("kind") != "planning"]
    w.sit = with_orders(w.sit, outlook.orders(faction, campaign_items))  # the Campaign reads its orders here
    reveal_near_armies(w)
    fs.records, allocation = start_of_campaign(w)
    fs.might = allocation.get(faction)
    # campaign.run, for the one faction, noting why a move is void at the moment it is (a void move changes
    # nothing, so the world is still as it was then)
    moves = sorted((t for t in w.tasks if t.faction == faction and t.type == "move"),
                   key=lambda t: (t.seq, t.index, t.part or 0))
    for task in moves:
        w.grown.clear()
        campaign.run_move(w, task)
        campaign.keeper_watch(w)
        if task.outcome == "void":
            fs.moves[(task.index, task.part)] = _move_error(w, task)
        reveal_near_armies(w, faction)
        quests.find_items(w, faction)
    campaign.settle(w, fs.records)
    return fs


def again(outlook: Outlook, seen: Foresight, items: Sequence[Mapping[str, Any]], first: bool) -> Foresight | None:
    """The Campaign of the faction's order items after its Planning `seen` (`plan`, its items less the void ones),
    once per round of the check (`first`: the first round). The first goes on from the world that Planning left
    (which is then not fresh); a later one, which few books need (`inert`), runs the whole turn again
    (`foresee`: a new fork or world), which reaches the same world first (a void Planning order changes nothing).
    Cheaper than a copy of the Planning's world for every round, which copies every army the Planning read."""
    return go_on(outlook, seen, items) if first else foresee(outlook, seen.faction, items)


def foresee(outlook: Outlook, faction: str, items: Sequence[Mapping[str, Any]]) -> Foresight | None:
    """Run the faction's order items (validate's `orders`) alone, Planning and Campaign; None if the engine
    refuses the state."""
    fs = plan(outlook, faction, items)
    return go_on(outlook, fs, items) if fs is not None else None


def inert(fs: Foresight, campaign_items: Sequence[Mapping[str, Any]], rows: Iterable[tuple[str, int]]) -> bool:
    """Whether the check may drop these rows `rejections` found in `fs` without running the Campaign again:
    dropping them leaves every other order's outcome as it was. So it is for a «Мощь и магия» row (a void
    allocation, ability or cast paid and applied nothing), a «Поход» row whose order the engine refused at
    registration (it never got a task), and a whole army's move the engine voided before it changed anything
    (STILL: the army stays and holds, as it stood) when the faction's ability does not count its orders
    (Race.ability_reads_orders: the Dwarfs' cap counts the void moves too)."""
    w = fs.world
    record = {int(r): rec for rec, item in zip(fs.records, campaign_items, strict=False) for r in item["rows"]}
    counted = fs.faction in w.sit.abilities and w.race(fs.faction).ability_reads_orders
    for tab, row in rows:
        if tab == MIGHT:
            continue
        rec = record.get(row) if tab == CAMPAIGN else None
        if rec is None or counted:
            return False
        if rec.tasks and not (rec.type == "move" and len(rec.tasks) == 1 and rec.tasks[0].outcome == "void"
                              and rec.tasks[0].reason in STILL):
            return False
    return True


def _name(w: World, province: str | None) -> str:
    return w.map.provinces[province].name if province is not None and province in w.map.provinces else "?"


def _move_error(w: World, task: Task) -> OrderError:
    army, target, reason = task.army, task.target, str(task.reason)
    if army is None or target is None:
        return cannot(reason)
    if reason == "over_limit":
        resident = w.own_army(army.faction, target, exclude=army)
        have, limit = (resident.strength if resident else 0), w.limit(army.faction)
        room = limit - have
        allowed = (f"Войдите силой не больше {room} (поле «Сила») или сначала выведите войско из провинции "
                   f"«{_name(w, target)}» (приказом с меньшим «№»)." if room > 0 else
                   f"Сначала выведите войско из провинции «{_name(w, target)}» (приказом с меньшим «№»).")
        return OrderError("T_MOVE_OVER_LIMIT", {"target": _name(w, target), "resident": have, "limit": limit,
                                                "strength": army.strength, "allowed": allowed})
    near = sorted(w.map.neighbours(army.province), key=lambda p: _name(w, p))
    if reason == "not_adjacent":
        hint = (f" К своему ходу войско стоит в провинции «{_name(w, army.province)}»; соседи: "
                f"{allowed_list(_name(w, p) for p in near)}.")
    elif reason == "sea":
        land = [_name(w, p) for p in near if not w.map.is_sea(p)]
        hint = (" В море выходят только войска, которые в начале хода стояли в море или в своей провинции с портом "
                f"(нанятые в этом ходу — ещё нет). Соседние сухопутные провинции: {allowed_list(land)}.")
    elif reason == "protected":
        hint = (f" «{_name(w, target)}» до конца этого Похода под защитой Дикого набега "
                f"({w.factions[w.protected[target]].name}): нападать туда нельзя.") if target in w.protected else ""
    else:
        hint = ""
    return cannot(reason, hint)


def _support_error(w: World, task: Task) -> OrderError:
    army, reason = task.army, str(task.reason)
    target = task.offers[0].target if task.offers else None
    hint = ""
    if army is not None and target is not None:
        where = _name(w, army.province)
        if reason == "same_origin":
            hint = (f" Поддерживаемая атака идёт из провинции «{where}», где стоит и это войско ({see('C11.2')}): "
                    "поддержите её из другой провинции или пошлите эту силу в атаку вместе с ней.")
        elif reason == "engaged":
            hint = (f" К бою в провинции «{_name(w, target)}» это войско уже передвигалось или атаковало: в "
                    f"провинцию «{where}» вошло ваше же войско, которое шло в этом Походе, или оно само сражалось "
                    f"({see('C6.2')}).")
        elif reason == "not_adjacent":
            near = sorted(w.map.neighbours(army.province), key=lambda p: _name(w, p))
            hint = (f" Войско стоит в провинции «{where}»; поддержать можно соседние провинции: "
                    f"{allowed_list(_name(w, p) for p in near)}.")
        elif reason == "no_support_allowed":
            hint = (f" В бою в провинции «{_name(w, target)}» (туземцы, Босс или «Разбой») подмога не "
                    "засчитывается.")
    return cannot(reason, hint)


def rejections(fs: Foresight, campaign_items: Sequence[Mapping[str, Any]],
               might_items: Sequence[Mapping[str, Any]]) -> dict[tuple[str, int], OrderError]:
    """(tab, row) -> error for every Campaign, spell, ability or Might row the engine voids in `fs`."""
    w = fs.world
    out: dict[tuple[str, int], OrderError] = {}
    for rec, item in zip(fs.records, campaign_items, strict=False):
        rows = [int(r) for r in item["rows"]]
        if not rec.tasks:  # refused at registration (bad_order, food): check builds what register takes
            for r in rows:
                out[(CAMPAIGN, r)] = cannot(rec.reason)
            continue
        tasks = rec.tasks if rec.type == "split" else [rec.tasks[0]] * len(rows)
        for r, task in zip(rows, tasks, strict=False):
            if task.outcome != "void" or task.reason in UNNEEDED:
                continue
            err = fs.moves.get((task.index, task.part)) if task.type == "move" else None
            out[(CAMPAIGN, r)] = err or (_support_error(w, task) if task.type == "support" else
                                         cannot(task.reason))
    cast = iter(w.spell_results.get(fs.faction, []))
    cast_rows = [item.get("rows", []) for item in might_items if item.get("kind") == "spell"]
    for item in might_items:
        got: Mapping[str, Any] | None
        if item.get("kind") == "spell":
            got = next(cast, None)
        elif item.get("kind") == "ability":
            got = w.abilities.get(fs.faction)
        else:
            got = fs.might
        order = item.get("cast") if item.get("kind") == "spell" else item.get("spec")
        blind = isinstance(order, dict) and bool(order.get(BLIND))
        if got is not None and got.get("outcome") == "void" and not (blind and got.get("reason") == "bad_target"):
            # (an army out of sight is not in the faction's world: whether it is there, the turn tells)
            reason = str(got.get("reason"))
            hint = ""
            if reason == "no_influence":
                hint = f" К Походу у вас {agree(w.resources[fs.faction]['influence'], 'влияние')}, а нужно 1."
            elif reason == "bad_target" and got.get("already_warded") is not None:  # T4-2: one ward a province
                by = got["already_warded"]
                where = _name(w, item.get("cast", {}).get("province"))
                what = (f"«{ability_name(w.factions[fs.faction].race)}»" if by == "ability" else
                        f"заклинание строки {cast_rows[int(by)][0]}" if isinstance(by, int) and by < len(cast_rows)
                        else "другое заклинание")
                hint = (f" Провинцию «{where}» в этом Походе уже охраняет {what}: охрана на провинцию одна, вторая "
                        "не действует и не оплачивается.")
            elif reason == "no_resources" and item.get("kind") == "spell":
                sp = w.catalog.spells.get(str(item.get("cast", {}).get("spell")))
                if sp is not None:
                    need = spell_cost(w, fs.faction, sp.cast)
                    have = {r: w.resources[fs.faction].get(r, 0) for r in need}
                    hint = f" Нужно {_amounts(need)}, а к Походу у вас {_amounts(have, zeros=True)}."
            for r in item.get("rows", []):
                out[(MIGHT, int(r))] = cannot(reason, hint)
    return out
