"""The engine's ledger, journal and chronicle (engine.ledger) on the typed Jade Rose state.

engine.ledger keeps the records of every rule set on a plain `dict[str, Any]` state; these are the same
functions taking and giving the Jade Rose types (state_types.py). Nothing else: each one calls its
engine.ledger namesake on the same objects.
"""
from __future__ import annotations

from typing import Any, cast

from engine import ledger as records
from engine.jade_rose.state_types import JadeRoseState, LedgerLine, plain


def line(faction: str, resource: str, amount: int, reason: str, city: str | None = None,
         **tags: Any) -> LedgerLine:
    """A ledger-shaped line (also used for income forecasts that change nothing)."""
    return cast(LedgerLine, records.line(faction, resource, amount, reason, city, **tags))


def change(state: JadeRoseState, faction: str, resource: str, amount: int, reason: str, city: str | None = None,
           *, against: str | None = None, **tags: Any) -> None:
    """Change a balance by `amount` and itemise it in the ledger (engine.ledger.change)."""
    records.change(plain(state), faction, resource, amount, reason, city, against=against, **tags)


def note(state: JadeRoseState, faction: str, text: str) -> None:
    """A line of the faction's journal of the turn (no balance changes)."""
    records.note(plain(state), faction, text)


def chronicle(state: JadeRoseState, kind: str, text: str, turn: int | None = None) -> None:
    """An entry of the public chronicle, dated the state's turn unless `turn` is given."""
    records.chronicle(plain(state), kind, text, turn)
