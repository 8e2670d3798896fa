"""The ids of a Titania faction book's order tabs (ground floor: the parser of the rows, the forecast that
runs a faction's part of the turn and the turn itself all name them; the layout gives their Russian titles)."""
from __future__ import annotations

PLANNING, CAMPAIGN, MIGHT, DIPLOMACY = "planning", "campaign", "might", "diplomacy"
TABS = (PLANNING, CAMPAIGN, MIGHT, DIPLOMACY)
# a cast or ability a row aims at a province its faction cannot see (engine.titania.might_rows): marked on the row's
# order item, dropped before the adjudicator gets it (engine.titania.game_turn.add_keys)
BLIND = "blind"
