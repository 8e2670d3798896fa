"""The ids of a Titania faction book's order tabs (ground floor: the parser of the rows, the forecast that
runs a faction's part of the turn and the turn itself all name them; the layout gives their Russian titles)."""
from __future__ import annotations

PLANNING, CAMPAIGN, MIGHT, DIPLOMACY = "planning", "campaign", "might", "diplomacy"
TABS = (PLANNING, CAMPAIGN, MIGHT, DIPLOMACY)
