"""Entry point: one Titania turn from a `titania.adjudicate.v1` situation (SCHEMA.md).

Pure and deterministic: the same data and seed give the same output; chance comes only from streams
derived from the seed (engine.rng), never from global random state; the input is not changed.
"""
from __future__ import annotations

import copy
from typing import Any

from engine.titania import campaign, events, quests, spells
from engine.titania.orders import register
from engine.titania.outcome import Adjudication, to_json
from engine.titania.planning import Planning
from engine.titania.reveal import reveal_near_armies
from engine.titania.situation import parse_situation
from engine.titania.turn_order import turn_order
from engine.titania.world import World


def adjudicate(data: Any, seed: int | str = 0) -> Adjudication:
    """Resolve one turn; bad input gives `problems` (Russian), never an exception."""
    sit, problems = parse_situation(copy.deepcopy(data))
    if sit is None:
        return Adjudication(None, tuple(problems))
    w = World(sit, seed)
    reveal_near_armies(w)  # armies standing next to unrevealed provinces (e.g. at game start)
    # 10.1 / C1.2: Might and the move order, fixed before Planning
    w.might = {f: w.shrines(f) for f in w.players()}
    dice = sit.dice.get("turn_order", {})
    w.turn_order = turn_order(w.might, {f: w.race(f).first_on_equal_might for f in w.players()},
                              dice if isinstance(dice, dict) else {}, w.rng("turn_order"))
    events.begin(w)  # 10.2.1: events on the 5th and 10th turns; debuffs that ran out end
    quests.issue(w)
    planning = Planning(w, sit.planning).run() if sit.planning is not None else None
    reveal_near_armies(w)  # squads hired in Planning
    records = register(w, sit.orders)  # 10.3.2
    casts = spells.check(w)  # 10.3.3: spells and abilities against the start of the Campaign
    campaign.apply_abilities(w)
    spells.apply(w, casts)
    allocation = campaign.apply_might(w)
    quests.entered(w)
    campaign.run(w)  # 10.4
    campaign.settle(w, records)
    events.settle(w)
    for f in w.resources:  # 10.5: unspent Influence burns
        w.resources[f]["influence"] = 0
    return Adjudication(to_json(w, records, planning, allocation), (), sit)
