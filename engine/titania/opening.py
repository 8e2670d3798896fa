"""The first turn of a game made from a situation (engine.titania.situation_game): what the file fixed for that
turn alone, put into the turn's adjudicator input (engine.titania.game_turn.situation) and nowhere else.

A game from a situation keeps `state["opening"]`: `turn` (the situation's), `seed` (that turn's chance), `dice`
and `choices` (SCHEMA §1.6), `planning` (whether the file has a Planning phase), `production` (whether it
produces), `events` (whether the file gave `state.turn`: without it no event step runs, SCHEMA_V2 §5) and,
when the file gave them, the Keepers' `keeper_reinforce`, and their orders (`keeper_orders`, `keeper_planning`: no
book has them). A later turn plays by the game's own rules.
"""
from __future__ import annotations

from typing import Any

from engine.titania.state_types import Opening, TitaniaState


def of(state: TitaniaState) -> Opening | None:
    """The opening that holds for the state's turn, if any."""
    opening = state.get("opening")
    if isinstance(opening, dict) and opening.get("turn") == state.get("turn"):
        return opening
    return None


def shape(state: TitaniaState, data: dict[str, Any]) -> None:
    """The turn's adjudicator input (`data`, built by the game) as the situation fixed it for its own turn."""
    opening = of(state)
    if opening is None:
        return
    data["dice"] = dict(opening.get("dice") or {})
    data["choices"] = dict(opening.get("choices") or {})
    planning = data["planning"]
    planning["production"] = bool(opening.get("production", True))
    if "keeper_reinforce" in opening:
        planning["keeper_reinforce"] = dict(opening["keeper_reinforce"])
    if not opening.get("planning", True):
        if planning["orders"] or planning["arrivals"] or planning["stolen"]:
            planning["production"] = False  # the books' Planning orders still count: production stays off
        else:
            del data["planning"]
    keepers = {f["id"] for f in data["factions"] if f.get("kind") == "keeper"}
    if "keeper_orders" in opening:  # the Keepers' orders the file gave instead of the game's standing ones
        data["orders"] = [o for o in data["orders"] if o.get("faction") not in keepers] + list(opening["keeper_orders"])
    if "keeper_planning" in opening and "planning" in data:
        data["planning"]["orders"] = [*data["planning"]["orders"], *opening["keeper_planning"]]
    if not opening.get("events", True):
        data["state"].pop("turn", None)


def seed(state: TitaniaState, default: int | str) -> int | str:
    """The seed of the turn's chance: the situation's own for its turn, else `default`."""
    opening = of(state)
    if opening is None or "seed" not in opening:
        return default
    got = opening["seed"]
    return got if isinstance(got, int | str) else default
