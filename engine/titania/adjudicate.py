"""Entry point: one Titania turn from a `titania.adjudicate.v1` or `.v2` situation (SCHEMA.md, SCHEMA_V2.md).

Pure and deterministic: the same data and seed give the same output; chance comes only from streams
derived from the seed (engine.rng), never from global random state; the input is not changed. The steps
are the functions below, in the order of SCHEMA_V2 §10; engine.titania.forecast runs the same ones for one
faction at `check`.
"""
from __future__ import annotations

import copy
from typing import Any

from engine.titania import campaign, events, natives, quests, spells
from engine.titania.orders import Record, register
from engine.titania.outcome import Adjudication, to_json
from engine.titania.planning import Planning
from engine.titania.reveal import reveal_near_armies
from engine.titania.situation import parse_situation
from engine.titania.turn_order import turn_order
from engine.titania.world import World


def place_natives(w: World) -> None:
    """SCHEMA_V2 §8, step 0 (`setup.natives`): natives by the book's rings around the capitals."""
    provinces = w.map.provinces
    land = frozenset(p for p, info in provinces.items() if not info.sea)
    capitals = [p for p, info in provinces.items() if info.capital and not info.sea]
    eligible = frozenset(p for p in land if w.owners.get(p) is None and not provinces[p].capital
                         and p not in w.bosses and w.natives.get(p, 0) <= 0)
    fixed = w.sit.dice.get("natives_free", {})
    free, placed = natives.place(land, w.map.adjacency, capitals, eligible,
                                 fixed if isinstance(fixed, dict) else {}, lambda cap: w.rng("natives", cap))
    w.natives.update(placed)
    w.events.append({"kind": "natives_placed", "free": free, "natives": placed})


def start_of_turn(w: World) -> None:
    """Step 1: reveals, Might and the move order (10.1, C1.2: fixed before Planning), events, quests (unless the
    game began them when it opened the turn: `state.turn_begun`, `open_turn`)."""
    reveal_near_armies(w)  # armies standing next to unrevealed provinces (G88, G89)
    w.might = {f: w.shrines(f) for f in w.players()}
    dice = w.sit.dice.get("turn_order", {})
    w.turn_order = turn_order(w.might, {f: w.race(f).first_on_equal_might for f in w.players()},
                              dice if isinstance(dice, dict) else {}, w.rng("turn_order"))
    if not w.sit.ext.begun:
        events.begin(w)  # the 5th and 10th turns; debuffs that ran out end
        quests.issue(w)


def open_turn(data: Any, seed: int | str = 0) -> dict[str, Any] | None:
    """What a game shows when it opens a turn, before any order (step 1 as `start_of_turn` runs it, the move order
    aside): the reveals next to the armies, the events that end or start, the quests issued; None if the state is
    refused. The game then passes `state.turn_begun` to the turn, which does not begin them again. Pure."""
    sit, _ = parse_situation(copy.deepcopy(data))
    if sit is None:
        return None
    w = World(sit, seed)
    reveal_near_armies(w)
    events.begin(w)
    quests.issue(w)
    return {"events": list(w.events), "revealed": dict(w.revealed), "active_events": list(w.active_events),
            "quests": dict(w.quests)}


def start_of_campaign(w: World) -> tuple[list[Record], dict[str, dict[str, str]]]:
    """Step 3: technologies and buildings in force (P1.1, G73); orders registered (10.3.2); the Might
    allocation checked; casts and abilities paid and applied in one step before any move, against the state at
    the start of the Campaign (10.3.3, G79, ruling T4-3: a squad the step stops or damages makes no Paths move);
    the Keepers' watch (ruling T4-4); items found."""
    w.activate_techs()
    records = register(w, w.sit.orders)
    allocation = campaign.apply_might(w)
    casts = spells.check(w)
    moves = campaign.apply_abilities(w)
    spells.apply(w, casts)
    campaign.make_moves(w, moves)
    campaign.keeper_watch(w)  # an army that the step brought to the Keepers' 5
    quests.find_items(w)  # G87: in turn order at the start of the Campaign
    return records, allocation


def adjudicate(data: Any, seed: int | str = 0) -> Adjudication:
    """Resolve one turn; bad input gives `problems` (Russian), never an exception."""
    sit, problems = parse_situation(copy.deepcopy(data))
    if sit is None:
        return Adjudication(None, tuple(problems))
    w = World(sit, seed)
    if sit.setup_natives:
        place_natives(w)
    start_of_turn(w)
    w.grown.clear()
    planning = Planning(w, sit.planning).run() if sit.planning is not None else None
    campaign.keeper_watch(w)  # an army that reached the Keepers' 5 by hiring (issue 24)
    reveal_near_armies(w)  # squads hired in Planning
    records, allocation = start_of_campaign(w)
    campaign.run(w)  # 10.4
    campaign.settle(w, records)
    for f in w.resources:  # 10.5: unspent Influence burns
        w.resources[f]["influence"] = 0
    events.settle(w)  # majors not solved by their last turn
    return Adjudication(to_json(w, records, planning, allocation), (), sit, frozenset(w.fallen),
                        frozenset(w.fallen_orders))
