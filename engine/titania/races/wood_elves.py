"""Wood elves: Knowledge of paths (move a squad 1-2 own provinces first, G53 a), Keepers of the grove,
Gifts of the forest."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_army


class WoodElves(Race):
    key = "wood_elves"
    name = "лесные эльфы"
    ability = "Знание троп"
    is_trigger = False
    ability_moves = True
    wins_ties_on_own_land = True
    building_discount = {"sawmill": 1}

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        army = own_army(w, faction, spec)
        path = spec.get("path")
        if army is None or not isinstance(path, list) or not 1 <= len(path) <= 2:
            return "bad_target"
        here = army.province
        for step in path:
            if not isinstance(step, str) or not w.map.adjacent(here, step) or w.owners.get(step) != faction:
                return "bad_target"
            if w.hostile_present(faction, step):
                return "bad_target"
            here = step
        other = w.own_army(faction, here, exclude=army)
        if other is not None and other.strength + army.strength > w.limit(faction):
            return "over_limit"  # A7.1: an impossible move into an own province
        return None

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        w.place(army, spec["path"][-1], w.limit(faction))  # not `moved`: it may still support (G53 a)
        w.abilities[faction]["fired"] = True
