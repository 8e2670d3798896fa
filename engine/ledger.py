"""The records every rule set keeps: the ledger (the one way to change a balance and record why), the
factions' journals and the public chronicle.

A faction's balance after a stage equals its balance before plus the sum of its ledger lines. A line is
{"faction", "resource", "amount", "reason"} plus optional "city", "against" (grudges: the faction they
are held against) and tags (e.g. "kind"), kept as given.
"""
from __future__ import annotations

from typing import Any


def line(faction: str, resource: str, amount: int, reason: str, city: str | None = None,
         **tags: Any) -> dict[str, Any]:
    """A ledger-shaped line (also used for income forecasts that change nothing)."""
    out: dict[str, Any] = {"faction": faction, "resource": resource, "amount": amount, "reason": reason}
    if city is not None:
        out["city"] = city
    out.update(tags)
    return out


def change(state: dict[str, Any], faction: str, resource: str, amount: int, reason: str, city: str | None = None,
           *, against: str | None = None, **tags: Any) -> None:
    """Change a balance by `amount` and itemise it in the ledger; a zero amount changes and records nothing.

    With `against`, the balance is the faction's per-rival counter `resource` (grudges)."""
    if not amount:
        return
    rec = state["factions"][faction]
    if against is None:
        rec[resource] = rec.get(resource, 0) + amount
        state.setdefault("ledger", []).append(line(faction, resource, amount, reason, city, **tags))
    else:
        counters = rec.setdefault(resource, {})
        counters[against] = counters.get(against, 0) + amount
        state.setdefault("ledger", []).append(line(faction, resource, amount, reason, city, against=against, **tags))


def note(state: dict[str, Any], faction: str, text: str) -> None:
    """A line of the faction's journal of the turn (no balance changes)."""
    state.setdefault("log", []).append({"faction": faction, "text": text})


def chronicle(state: dict[str, Any], kind: str, text: str, turn: int | None = None) -> None:
    """An entry of the public chronicle, dated the state's turn unless `turn` is given."""
    state.setdefault("chronicle", []).append(
        {"turn": int(state["turn"]) if turn is None else turn, "kind": kind, "text": text})
