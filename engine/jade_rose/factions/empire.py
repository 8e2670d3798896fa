"""The Empire (L73-92): honor from buildings and fallen units, corruption (its growth each turn, the
income penalty, the actions against it), the first-build effects of the police buildings."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jade_rose import ledger
from engine.jade_rose.actions.base import Dice, DiceSource, OrdersTurn, Reject, err, paid_text, pay
from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import ACTION_OF_KIND, CORRUPTION_ACTIONS
from engine.jade_rose.factions.base import CHOICE_WORDS, AddLine, Faction
from engine.jade_rose.holdings import (
    city_count,
    city_name,
    city_size,
    era_of,
    multiplier_note,
    owned_buildings,
    round_half_up,
    unit_upkeep,
)
from engine.jade_rose.state_types import (
    BattleEvent,
    CaptureEvent,
    EconomyOrder,
    FactionRecord,
    JadeRoseState,
    LedgerLine,
)
from engine.russian import agree


def _consts(faction: str) -> Mapping[str, Any]:
    return load_data().factions.get(faction, {})


def gain_honor(state: JadeRoseState, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Honor received from an event (× the era's resource multiplier, JR-62); returns what was added."""
    if amount <= 0:
        return 0
    doubled = _consts(faction).get("honor_events_doubled_in_sunset", True)
    mult = int(era_of(state).resource_multiplier) if doubled else 1
    ledger.change(state, faction, "honor", amount * mult, reason + multiplier_note(state, mult), city)
    return amount * mult


def lose_honor(state: JadeRoseState, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Honor lost to an event: «Честь не может быть отрицательной» (L75), so it stops at 0."""
    loss = max(0, min(int(amount), int(state["factions"][faction].get("honor", 0))))
    ledger.change(state, faction, "honor", -loss, reason, city)
    return loss


# -- corruption -----------------------------------------------------------------------------

def corruption_penalty(level: int) -> Mapping[str, int]:
    rows = load_data().economy.get("corruption", {}).get("penalty", ())
    best: Mapping[str, int] = {"income_pct": 0, "honor": 0}
    for row in sorted(rows, key=lambda r: r["min_level"]):
        if level >= row["min_level"]:
            best = row
    return best


def _growth_die(state: JadeRoseState, faction: str) -> tuple[int, int]:
    """The start-of-turn corruption die (its faces; 0: none) by cities held, and the police reduction."""
    rows = load_data().economy.get("corruption", {}).get("roll", ())
    cities = city_count(state, faction)
    dice = 0
    for row in sorted(rows, key=lambda r: r["min_cities"]):
        if cities >= row["min_cities"]:
            dice = int(row["dice"])
    reduction = -min((int(b.effects.get("corruption_growth", 0)) for _, b in owned_buildings(state, faction)),
                     default=0)
    return dice, reduction


def corruption_roll(state: JadeRoseState, faction: str, rng: Dice) -> None:
    """Corruption grows by a die chosen by cities held, less the police reduction (JR-2 defaults)."""
    dice, reduction = _growth_die(state, faction)
    if not dice:
        return
    roll = rng.randint(1, dice)
    growth = max(0, roll - reduction)
    note = f", −{reduction} от штаба" if reduction else ""
    ledger.change(state, faction, "corruption", growth, f"Рост коррупции: 1к{dice} = {roll}{note}")


def _corruption_spec(faction: str, kind: str) -> Mapping[str, Any]:
    spec: Mapping[str, Any] = _consts(faction).get("corruption_actions", {}).get(kind, {})
    return spec


def _corruption_costs(rec: FactionRecord, spec: Mapping[str, Any], kind: str) -> dict[str, int]:
    """Gold and honor of an action against corruption; the honor grows with each earlier use (JR-66)."""
    uses = int(rec.get("corruption_actions", {}).get(kind, 0))
    return {"gold": int(spec.get("gold", 0)),
            "honor": int(spec.get("honor", 0)) + int(spec.get("honor_step", 0)) * uses}


def _enabling_building(faction: str, action: str) -> str:
    names = [b.name for b in load_data().faction_buildings(faction) if b.effects.get("enables_action") == action]
    return " или ".join(f"«{n}»" for n in names) or "—"


def corruption_action(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """L87-92: purge of the generals / officials, public execution, surveillance, terror (one per turn)."""
    kind = order["kind"]
    action = ACTION_OF_KIND[kind]
    rec = state["factions"][faction]
    spec = _corruption_spec(faction, kind)
    if ctx.corruption_row is not None and int(order.get("row", 0)) != ctx.corruption_row:
        raise Reject(err("JR_ONE_CORRUPTION_ACTION", row=ctx.corruption_row))
    needed = spec.get("needs_action")
    if needed and not any(b.effects.get("enables_action") == needed for _, b in owned_buildings(state, faction)):
        raise Reject(err("JR_ACTION_NEEDS_BUILDING", action=action, building=_enabling_building(faction, needed)))
    uses = int(rec.get("corruption_actions", {}).get(kind, 0))
    costs = _corruption_costs(rec, spec, kind)
    pay(state, faction, costs, action)
    before = int(rec.get("corruption", 0))

    def after_cut(level: int, roll: int) -> int:
        kept = (level + 1) // 2 if spec.get("halve") else level      # JR-66: the remainder rounded up
        return max(0, kept - max(0, roll + int(spec.get("plus", 0)) - int(spec.get("less_per_use", 0)) * uses))

    faces = int(spec.get("dice", 0))
    dice = f"1к{faces}" + (f"+{spec['plus']}" if spec.get("plus") else "") if faces else ""
    paid = paid_text(costs, " и ")
    if ctx.foresight:       # `check`: the range the die leaves, the highest kept (the worst case)
        rolls = (faces, 1) if faces else (0, 0)
        after = after_cut(before, rolls[1])
        change = _foreseen(ctx, before, after_cut(ctx.corruption_low, rolls[0]), after, dice, action)
        ledger.change(state, faction, "corruption", after - before, f"{action}: {change}")
    else:
        roll = rng.randint(1, faces) if faces else 0
        after = after_cut(before, roll)
        change = f"коррупция {before} → {after}"
        ledger.change(state, faction, "corruption", after - before,
                      f"{action}: {change}" + (f" (бросок {dice} = {roll})" if dice else ""))
    rec.setdefault("corruption_actions", {})[kind] = uses + 1
    notes = [change + (f", потрачено {paid}" if paid else "")]
    if spec.get("blocks_armies"):
        rec["armies_blocked"] = True
        # the Empire's upkeep: none of its units is exempt (it keeps `Faction.upkeep_exempt`)
        extra = round_half_up(unit_upkeep(state, faction) * int(spec.get("army_upkeep_pct", 0)), 100)
        ledger.change(state, faction, "gold", -extra,      # upkeep: it may take the balance below 0 (JR-57)
                      f"{action}: +{spec.get('army_upkeep_pct', 0)} % к содержанию армии", kind="upkeep")
        notes.append(f"армии в этот ход не действуют, доплата за содержание {extra}з")
    if spec.get("no_building_income"):
        lost = _cancel_building_income(state, faction, action)
        notes.append(f"строительства нет, постройки не принесли {lost}з")
    ledger.note(state, faction, f"{action}: {change}")
    return "; ".join(notes)


def _span(low: int, high: int) -> str:
    return str(high) if low == high else f"{low}…{high}"


def _foreseen(ctx: OrdersTurn, high_before: int, low_after: int, high_after: int, dice: str, source: str) -> str:
    """`check`'s note of a corruption change a die decides: «коррупция 5…6 → 2…5 (рост в начале хода 1к2,
    бросок 1к3)», the range before (the dice rolled earlier, ctx) and after; ctx keeps the new lowest, and
    this die (named by its `source`) for the changes after it."""
    low_before = min(ctx.corruption_low, high_before)
    why = list(ctx.corruption_dice) if low_before < high_before else []
    if dice and low_after < high_after:
        why.append(f"бросок {dice}")
    ctx.corruption_low = low_after
    if dice:
        ctx.corruption_dice.append(f"{source}: {dice}")
    return f"коррупция {_span(low_before, high_before)} → {_span(low_after, high_after)}" + (
        f" ({', '.join(why)})" if why else "")


def _cancel_building_income(state: JadeRoseState, faction: str, action: str) -> int:
    """Take back this turn's gold from buildings, and recompute the corruption penalty without it."""
    lines = [line for line in state.get("ledger", []) if line.get("faction") == faction
             and line.get("resource") == "gold" and line.get("turn") == int(state["turn"])]
    buildings = sum(int(line["amount"]) for line in lines if line.get("kind") == "income_buildings")
    if buildings <= 0:
        return 0
    ledger.change(state, faction, "gold", -buildings, f"{action}: постройки не приносят дохода в этот ход")
    for line in lines:
        if line.get("kind") == "corruption_income":
            refund = -int(line["amount"]) - (int(line["base"]) - buildings) * int(line["pct"]) // 100
            ledger.change(state, faction, "gold", refund, f"{action}: штраф коррупции без дохода построек")
    return buildings


class Empire(Faction):
    key = "empire"
    resources = ("honor", "corruption")
    actions = {kind: corruption_action for kind in CORRUPTION_ACTIONS}

    def start_of_turn(self, state: JadeRoseState, faction: str, dice: DiceSource) -> None:
        corruption_roll(state, faction, dice("corruption", state["turn"], faction))

    def income(self, state: JadeRoseState, faction: str, add: AddLine, lines: list[LedgerLine]) -> None:
        """Honor from buildings; the corruption penalty on gold (capped) and on honor (down to a floor)."""
        data = load_data()
        rec = state["factions"][faction]
        era = era_of(state)
        rmul = int(era.resource_multiplier)
        rsuffix = f" ({era.name}: ×{rmul})" if rmul != 1 else ""
        gold_total = sum(int(line["amount"]) for line in lines if line["resource"] == "gold")
        for cid, b in owned_buildings(state, faction):
            honor = int(b.effects.get("honor_per_turn", 0)) * rmul
            add("honor", honor, f"Честь: {b.name} ({state['cities'][cid]['name']}){rsuffix}", cid)
        penalty = corruption_penalty(int(rec.get("corruption", 0)))
        corruption = data.economy.get("corruption", {})
        pct = min(int(penalty.get("income_pct", 0)), int(corruption.get("max_income_loss_pct", 50)))
        loss = gold_total * pct // 100
        add("gold", -loss, f"Коррупция ({rec.get('corruption', 0)} кр): −{pct} % дохода", kind="corruption_income",
            pct=pct, base=gold_total, turn=int(state["turn"]))
        honor_loss = int(penalty.get("honor", 0))
        if honor_loss:
            floor = int(corruption.get("honor_floor", -50))
            honor_now = int(rec.get("honor", 0)) + sum(line["amount"] for line in lines if line["resource"] == "honor")
            honor_loss = max(0, min(honor_loss, honor_now - floor))
            add("honor", -honor_loss, f"Коррупция ({rec.get('corruption', 0)} кр): потеря чести")

    def plan_orders(self, state: JadeRoseState, faction: str, ordered: list[EconomyOrder], ctx: OrdersTurn) -> None:
        """The first action against corruption (by row) is the turn's one (L87); if it is an affordable purge
        of the officials, construction is impossible this turn, although building runs before faction actions."""
        if ctx.foresight:   # `check` took the start-of-turn die at its highest face: the lowest it leaves
            dice, reduction = _growth_die(state, faction)
            spread = max(0, dice - reduction) - max(0, 1 - reduction) if dice else 0
            ctx.corruption_low = max(0, int(state["factions"][faction].get("corruption", 0)) - spread)
            if spread:
                ctx.corruption_dice = [f"рост в начале хода 1к{dice}" + (f"−{reduction}" if reduction else "")]
        first = next((o for o in ordered if o.get("kind") in CORRUPTION_ACTIONS), None)
        if first is None:
            return
        ctx.corruption_row = int(first.get("row", 0))
        rec = state["factions"][faction]
        spec = _corruption_spec(faction, first["kind"])
        costs = _corruption_costs(rec, spec, first["kind"])
        if spec.get("blocks_building") and int(rec.get("honor", 0)) >= costs["honor"]:
            ctx.officials_purge_row = ctx.corruption_row

    def after_build(self, state: JadeRoseState, faction: str, key: str, rng: Dice, notes: list[str],
                    ctx: OrdersTurn) -> None:
        """Secret police: corruption −(1d4+1); inquisition: corruption to 0 — only after the first construction."""
        b = load_data().buildings[key]
        rec = state["factions"][faction]
        drop, reset = b.effects.get("corruption_drop_on_first_build"), b.effects.get("corruption_reset_on_first_build")
        if not (drop or reset):
            return
        done = rec.setdefault("first_builds", [])
        if b.key in done:
            return
        done.append(b.key)
        current = int(rec.get("corruption", 0))
        if ctx.foresight:       # `check`: the range the die leaves, the highest kept (the worst case)
            faces, plus = (int(drop["dice"]), int(drop["plus"])) if drop and not reset else (0, 0)
            high = 0 if reset else max(0, current - 1 - plus)
            low = 0 if reset else max(0, ctx.corruption_low - faces - plus)
            dice = f"1к{faces}" + (f"+{plus}" if plus else "") if faces else ""
            notes.append(_foreseen(ctx, current, low, high, dice, f"первая постройка «{b.name}»"))
            ledger.change(state, faction, "corruption", high - current,
                          f"Первая постройка «{b.name}»: коррупция снижена")
            return
        if reset:
            amount = current
        elif drop:                                      # one of the two is set (see above)
            roll = rng.randint(1, int(drop["dice"]))
            amount = min(current, roll + int(drop["plus"]))
        ledger.change(state, faction, "corruption", -amount, f"Первая постройка «{b.name}»: коррупция снижена")
        notes.append(f"коррупция −{amount}")

    # -- war ------------------------------------------------------------------------------------
    def on_fallen(self, state: JadeRoseState, faction: str, fallen: Mapping[str, int], event: BattleEvent,
                  place: str) -> None:
        """L75 «Каждый умерший юнит даёт честь в размере пятой части своего содержания» — own units, garrisons
        included, summed per battle then floored (JR-63, JR-54)."""
        divisor = int(_consts(faction).get("honor_per_upkeep_divisor", 0))
        if divisor <= 0:
            return
        units = load_data().units
        upkeep = sum(units[k].upkeep * n for k, n in fallen.items())
        gain_honor(state, faction, upkeep // divisor,
                   f"Честь за павших в бою за {place}: {agree(sum(fallen.values()), 'юнит')}, "
                   f"содержание {upkeep}з ÷ {divisor}",
                   event.get("city"))

    def on_city_lost(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L77-78: «Ваш город захватили или разрушили: +50ч (если большой, то +150ч)»; «разграбили: +30ч (+90ч)»."""
        choice, cid = event["choice"], event.get("city")
        table = _consts(faction).get("honor_city_plundered" if choice == "plunder" else "honor_city_captured")
        if table:
            size = city_size(event)
            gain_honor(state, faction, int(table[size]),
                       f"Честь: наш город {city_name(state, cid)} {CHOICE_WORDS[choice]}", cid)

    def on_city_taken(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L79 «Вы разграбили или разрушили город: -20ч»."""
        choice, cid = event["choice"], event.get("city")
        consts = _consts(faction)
        if choice in ("plunder", "raze") and consts.get("honor_plunder_or_raze"):
            verb = "разграблен" if choice == "plunder" else "разрушен"
            lose_honor(state, faction, -int(consts["honor_plunder_or_raze"]),
                       f"Честь: нами {verb} город {city_name(state, cid)}", cid)
