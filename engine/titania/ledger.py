"""The engine's ledger, journal and chronicle (engine.ledger) on the typed Titania state.

engine.ledger keeps the records of every rule set on a plain `dict[str, Any]` state; these are the same
functions taking the Titania state (state_types.py). Nothing else: each one calls its engine.ledger namesake
on the same objects.
"""
from __future__ import annotations

from engine import ledger as records
from engine.titania.state_types import TitaniaState, plain


def change(state: TitaniaState, faction: str, resource: str, amount: int, reason: str) -> None:
    """Change a balance by `amount` and itemise it in the ledger (engine.ledger.change)."""
    records.change(plain(state), faction, resource, amount, reason)


def note(state: TitaniaState, faction: str, text: str) -> None:
    """A line of the faction's journal of the turn (no balance changes)."""
    records.note(plain(state), faction, text)


def chronicle(state: TitaniaState, kind: str, text: str, turn: int | None = None) -> None:
    """An entry of the public chronicle, dated the state's turn unless `turn` is given."""
    records.chronicle(plain(state), kind, text, turn)
