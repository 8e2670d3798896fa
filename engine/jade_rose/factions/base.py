"""The hooks a faction's rules plug into the shared turn (python-chess variant style: data plus hooks).

Each faction module defines a subclass overriding only what its rules change; `engine.jade_rose.factions`
maps faction ids to instances. Every hook receives the faction id it acts for.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.jade_rose.actions.base import Dice, DiceSource, OrdersTurn
from engine.jade_rose.data import UnitDef
from engine.jade_rose.state_types import (
    BattleEvent,
    CaptureEvent,
    EconomyOrder,
    FailedAttackEvent,
    JadeRoseState,
    LedgerLine,
    SideModifiers,
)

Handler = Callable[[JadeRoseState, str, EconomyOrder, Dice, OrdersTurn], str]
AddLine = Callable[..., None]     # add(resource, amount, reason, city=None, **tags): one income line (income.py)
CHOICE_WORDS = {"colonise": "захвачен", "plunder": "разграблен", "raze": "разрушен"}   # a city's fate, for reasons


class Faction:
    """A faction with no rules of its own: every hook does nothing."""

    key = ""
    resources: tuple[str, ...] = ()           # the faction's own resources besides gold, in display order
    uses_runes = False                        # sets runes on its squads in the planning stage (JR-83)
    actions: Mapping[str, Handler] = {}       # economy order kinds only this faction gives, and their handlers

    def status_rows(self, state: JadeRoseState, faction: str) -> list[tuple[str, Any, str]]:
        """Extra (name, value, note) rows of the faction's «Казна» after its resources."""
        return []

    # -- the turn --------------------------------------------------------------------------
    def start_of_turn(self, state: JadeRoseState, faction: str, dice: DiceSource) -> None:
        """Steps of JR-56 step 1 that belong to the faction (after the era gift); `dice(*key)` gives the
        dice of one stable id (the stage seed's stream at the turn, the highest faces at `check`)."""

    def income(self, state: JadeRoseState, faction: str, add: AddLine, lines: list[LedgerLine]) -> None:
        """Add income lines beyond cities and buildings; `lines` holds those added so far."""

    def upkeep_exempt(self, state: JadeRoseState, faction: str) -> dict[str, int]:
        """Units that pay no upkeep this turn, by unit."""
        return {}

    def after_economy(self, state: JadeRoseState, faction: str) -> None:
        """After the faction's income and upkeep, and again after its orders ran."""

    def end_of_turn(self, state: JadeRoseState, faction: str) -> None:
        """The faction's end-of-turn step (before victory is checked)."""

    # -- orders ------------------------------------------------------------------------------
    def plan_orders(self, state: JadeRoseState, faction: str, ordered: list[EconomyOrder], ctx: OrdersTurn) -> None:
        """Look at the turn's orders before any runs (e.g. one that forbids building)."""

    def after_build(self, state: JadeRoseState, faction: str, key: str, rng: Dice, notes: list[str],
                    ctx: OrdersTurn) -> None:
        """A building was just built."""

    def hire_requirement(self, state: JadeRoseState, faction: str, unit: UnitDef) -> None:
        """Raise `Reject` when the faction cannot hire `unit` at all (checked before the unit limits)."""

    def hire_capacity(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int) -> None:
        """Raise `Reject` when `count` more of `unit` exceed a faction resource (after the unit limits)."""

    def hire_price(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int, costs: dict[str, int],
                   ctx: OrdersTurn) -> tuple[dict[str, int], str]:
        """The price of a hiring and a note for its ledger reason (default: unchanged, no note)."""
        return costs, ""

    def after_hire(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int, ctx: OrdersTurn,
                   price_note: str) -> str:
        """Hired units were added (`price_note`: what `hire_price` said); returns more for the status note."""
        return ""

    # -- war -----------------------------------------------------------------------------------
    def battle_modifiers(self, state: JadeRoseState, faction: str, opponent: str | None, city: str,
                         out: SideModifiers) -> None:
        """Fill the side's battle modifiers (grudges, forge distance, plague)."""

    def on_fallen(self, state: JadeRoseState, faction: str, fallen: Mapping[str, int], event: BattleEvent,
                  place: str) -> None:
        """The faction's own units died in a battle (garrisons included)."""

    def on_attacked(self, state: JadeRoseState, faction: str, event: BattleEvent, place: str) -> None:
        """A battle in which the faction defended against a playing attacker."""

    def on_city_lost(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """One of its cities was captured, plundered or razed by another faction."""

    def on_city_taken(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """It captured, plundered or razed a city."""

    def on_failed_attack(self, state: JadeRoseState, faction: str, event: FailedAttackEvent) -> None:
        """An attack on one of its cities by a playing faction failed."""
