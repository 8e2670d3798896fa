"""Fauns: Protection of the ancestors (the first defeat in a chosen own province counts as a win, G65 a),
Wrath of the forest (-1 to attackers of faun provinces), Harmony with nature."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_province


class Fauns(Race):
    key = "fauns"
    name = "фавны"
    ability = "Защита предков"
    attacker_penalty_on_own_land = 1
    keeps_buildings = True
    capture_garrison = 1

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_province(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        p = spec["province"]
        w.effects.defeat_is_victory[p] = faction
        w.effects.owner_of[("defeat_is_victory", p)] = faction
