"""Goblins: Stealing supplies (no hiring in a neighbour's province next Planning, G67 a), Goblin traps
(1 damage to attackers of goblin provinces, G68 a), Lovers of shinies (mines 1 Influence less)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, any_province


class Goblins(Race):
    key = "goblins"
    name = "гоблины"
    ability = "Воровство припасов"
    is_trigger = False
    trap_damage = 1
    building_discount = {"mine": 1}

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        p = any_province(w, spec)
        owner = w.owners.get(p) if p is not None else None
        if owner is None or owner == faction or not w.borders(faction, owner):
            return "bad_target"
        return None

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        w.stolen_next.append(spec["province"])
        w.abilities[faction]["fired"] = True
