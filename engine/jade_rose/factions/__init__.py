"""The factions' own rules, one module each, found through `FACTIONS` (faction id -> hooks).

`of(faction)` gives the hooks of a faction (a rule-less `Faction` for an id not in the mapping);
`action_handlers()` the economy order kinds the factions add, with their handlers.
"""
from __future__ import annotations

from engine.jade_rose.factions.base import Faction, Handler
from engine.jade_rose.factions.dwarves import Dwarves
from engine.jade_rose.factions.empire import Empire
from engine.jade_rose.factions.jade_court import JadeCourt
from engine.jade_rose.factions.vampires import Vampires

FACTIONS: dict[str, Faction] = {f.key: f for f in (Empire(), Vampires(), Dwarves(), JadeCourt())}
_NONE = Faction()


def of(faction: str | None) -> Faction:
    return FACTIONS.get(faction or "", _NONE)


def action_handlers() -> dict[str, Handler]:
    return {kind: handler for f in FACTIONS.values() for kind, handler in f.actions.items()}
