"""What one faction may know of the game (the fog of war): the provinces whose troops it sees.

A faction sees its own provinces, the provinces its armies stand in, and their neighbours. Everything a
faction's book tells it (a row's status, a dropdown, a forecast) is read through this: an army out of sight
is not there for that faction.
"""
from __future__ import annotations

from collections.abc import Mapping

from engine.titania.setup import neighbours
from engine.titania.state_types import TitaniaState


def sight(state: TitaniaState, fid: str, nb: Mapping[str, set[str]] | None = None) -> set[str]:
    """Provinces whose troops the faction sees: own provinces, where its armies stand, and their neighbours."""
    near = nb if nb is not None else neighbours(state)
    base = {p for p, o in state["owners"].items() if o == fid}
    base |= {a["province"] for a in state["armies"] if a["faction"] == fid}
    return base | {n for p in base for n in near.get(p, ())}
