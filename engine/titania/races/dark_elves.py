"""Dark elves: Brigandage (no support for anyone when they attack the chosen province, G57 a),
Ferocity (+1 damage when attacking), Slave labour (farms 1 Influence less)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, any_province


class DarkElves(Race):
    key = "dark_elves"
    name = "тёмные эльфы"
    ability = "Разбой"
    attack_damage_bonus = 1
    building_discount = {"farm": 1}

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if any_province(w, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        p = spec["province"]
        w.effects.no_support[p] = faction
        w.effects.owner_of[("no_support", p)] = faction
