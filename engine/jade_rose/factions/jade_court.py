"""The Jade Court (L261-330): buying jade, jade creatures forged in a Great Forge, the forge's reach and the
jade plague in battle."""
from __future__ import annotations

from collections import deque

from engine.jade_rose import ledger
from engine.jade_rose.actions.base import Dice, OrdersTurn, Reject, err, pay
from engine.jade_rose.battle import battle_kit
from engine.jade_rose.data import UnitDef, load_data
from engine.jade_rose.factions.base import Faction
from engine.jade_rose.holdings import effect_total, era_of, neighbours, ordinal, own_cities, owned_buildings
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState, SideModifiers


def jade_limit(state: JadeRoseState, faction: str) -> int:
    """Jade that may be bought per turn: 300 plus every jade mine and estates (L283, L320, L323)."""
    consts = load_data().factions.get(faction, {})
    return int(consts.get("jade_purchase_limit", 0)) + effect_total(state, faction, "jade_limit")


def buy_jade(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    data = load_data()
    amount = int(order["count"])
    limit = jade_limit(state, faction)
    bought = ctx.bought
    left = limit - bought.get("jade", 0)
    if amount > left:
        raise Reject(err("JR_JADE_LIMIT", limit=limit, left=max(0, left), value=amount))
    per_gold = int(data.factions[faction].get("jade_per_gold", 1))
    gold = -(-amount // per_gold)
    era = era_of(state)
    mult = int(era.resource_multiplier) if data.economy.get("sunset", {}).get("doubles_jade_purchase") else 1
    pay(state, faction, {"gold": gold}, "Покупка нефрита")
    bought["jade"] = bought.get("jade", 0) + amount
    received = amount * mult
    ledger.change(state, faction, "jade", received,
                  "Покупка нефрита" + (f" ({era.name}: ×{mult})" if mult != 1 else ""))
    return f"куплено {received}н за {gold}з"


def forge_levels(state: JadeRoseState, faction: str) -> list[tuple[str, int]]:
    """(city name, level) of every Great Forge of the faction."""
    return [(state["cities"][cid]["name"], int(state["cities"][cid]["level"]))
            for cid, b in owned_buildings(state, faction) if b.effects.get("forge")]


def forge_distance(state: JadeRoseState, faction: str, city: str) -> int | None:
    """Roads from `city` to the nearest standing city of `faction` with a Great Forge (JR-91); None: none."""
    data = load_data()
    forges = {cid for cid in own_cities(state, faction, ruins=False)
              if any(data.buildings[b].effects.get("forge") for b in state["cities"][cid]["buildings"]
                     if b in data.buildings)}
    if not forges:
        return None
    seen, queue = {city}, deque([(city, 0)])
    while queue:
        here, dist = queue.popleft()
        if here in forges:
            return dist
        for nxt in sorted(neighbours(state, here)):
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, dist + 1))
    return None


class JadeCourt(Faction):
    key = "jade"
    resources = ("jade",)
    actions = {"buy_jade": buy_jade}

    def hire_requirement(self, state: JadeRoseState, faction: str, unit: UnitDef) -> None:
        """A jade creature is forged only in a Great Forge standing in a city of at least its tier (L286)."""
        if unit.jade_creature:
            forges = forge_levels(state, faction)
            if not any(level >= unit.tier for _, level in forges):
                shown = ", ".join(f"{name} ({ordinal(level)} уровня)" for name, level in forges) or "нет ни одной"
                raise Reject(err("JR_NEEDS_FORGE", unit=unit.name, tier=unit.tier, forges=shown))

    def battle_modifiers(self, state: JadeRoseState, faction: str, opponent: str | None, city: str,
                         out: SideModifiers) -> None:
        """The forge's distance (none reachable: switched off, JR-91) and the jade plague."""
        data = load_data()
        dist = forge_distance(state, faction, city)
        out["forge_distance"] = battle_kit()[1].forge_off_distance if dist is None else dist
        out["plague"] = any(data.buildings[b].effects.get("jade_plague")
                            for cid in own_cities(state, faction, ruins=False)
                            for b in state["cities"][cid]["buildings"] if b in data.buildings)
