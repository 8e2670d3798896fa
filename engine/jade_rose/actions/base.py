"""What every «Экономика» order handler shares: the rejection, the turn's context, paying, own cities.

A handler is `handler(state, faction, order, rng, ctx) -> note`: it changes `state` and returns the
status note, or raises `Reject` with its errors before changing anything.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.errors import OrderError, allowed_list
from engine.jade_rose import ledger
from engine.jade_rose.holdings import city_names, own_cities
from engine.jade_rose.state_types import City, EconomyOrder, JadeRoseState, WarPlan, balance

RESOURCE_SIGN = {"gold": "з", "honor": "ч", "jade": "н"}
SHORT_CODES = {"gold": "JR_NOT_ENOUGH_GOLD", "honor": "JR_NOT_ENOUGH_HONOR", "jade": "JR_NOT_ENOUGH_JADE",
               "slaves": "JR_NOT_ENOUGH_SLAVES"}


class Dice(Protocol):
    """What the economy needs of a random stream (e.g. a `random.Random` from engine.rng.stream)."""

    def randint(self, a: int, b: int) -> int: ...


class DiceSource(Protocol):
    """The dice of one stable id (e.g. `lambda *key: stream(seed, *key)`)."""

    def __call__(self, *key: object) -> Dice: ...


class HighestRoll:
    """Dice that always show their highest face: what `check` assumes for the start-of-turn dice it cannot
    know (the Empire's corruption growth), so that an order it accepts is paid whatever the turn rolls."""

    def randint(self, a: int, b: int) -> int:
        return b


def highest_rolls(*key: object) -> Dice:
    """The `DiceSource` of `check`: every die shows its highest face."""
    return HighestRoll()


class LowestRoll:
    """Dice that always show their lowest face (the best start of a turn, for `check`'s messages)."""

    def randint(self, a: int, b: int) -> int:
        return a


def lowest_rolls(*key: object) -> Dice:
    return LowestRoll()


class Reject(Exception):
    def __init__(self, *errors: OrderError):
        self.errors = errors


@dataclass
class OrdersTurn:
    """What one faction's orders of a turn share (mutable while they run)."""

    army_plan: WarPlan | None = None
    bought: dict[str, int] = field(default_factory=dict)    # jade bought this turn
    corruption_row: int | None = None                   # the row of the turn's one action against corruption
    officials_purge_row: int | None = None              # a purge of the officials: no construction (L89)
    crusade: str | None = None                          # faction of the vengeful campaign declared this turn
    crusade_pct: int = 0
    discounted: dict[str, int] = field(default_factory=dict)    # units hired at the campaign's discount
    # `check`'s dry run (turn.predict_economy): it cannot know the stage's dice, so what a die decides is told
    # as its range, never as one draw. The state holds the highest corruption the dice can leave (the worst
    # case, as for the start-of-turn roll); corruption_low is the lowest, corruption_dice names the dice
    # rolled before that make them differ. Unused outside `check`: the turn rolls its dice.
    foresight: bool = False
    corruption_low: int = 0
    corruption_dice: list[str] = field(default_factory=list)


def err(code: str, **params: Any) -> OrderError:
    return OrderError(code, params)


def what(order: EconomyOrder) -> str:
    """The unit or building key of the order's «Что» (parsing sets one on every order that needs it; a KeyError,
    as a missing key of the data's tables, when there is none)."""
    key = order["what"]
    if key is None:
        raise KeyError("what")
    return key


def own_city(state: JadeRoseState, faction: str, cid: object) -> City:
    city = state["cities"].get(cid) if isinstance(cid, str) else None
    if city is None or city.get("owner") != faction:
        allowed = allowed_list(city_names(state, own_cities(state, faction)))
        name = city["name"] if city else str(cid)
        raise Reject(err("JR_CITY_NOT_OWNED", city=name, allowed=allowed))
    return city


def pay(state: JadeRoseState, faction: str, costs: Mapping[str, int], reason: str, city: str | None = None) -> None:
    """Check every resource first (all shortfalls reported at once), then pay."""
    rec = state["factions"][faction]
    short = [err(SHORT_CODES[res], need=need, have=balance(rec, res))
             for res, need in costs.items() if need > 0 and balance(rec, res) < need]
    if short:
        raise Reject(*short)
    for res, need in costs.items():
        ledger.change(state, faction, res, -need, reason, city)


def paid_text(costs: Mapping[str, int], joiner: str = " + ") -> str:
    """«100з + 20ч» for the resources actually paid."""
    return joiner.join(f"{v}{RESOURCE_SIGN[k]}" for k, v in costs.items() if v)
