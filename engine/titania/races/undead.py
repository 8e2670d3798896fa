"""Undead: Rising of the dead (recover a third of the first battle's losses, G61 a), March of the dead
(-1 to each enemy supporter when attacking, G62 a), Necromancers (towers 1 Influence less)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_army


class Undead(Race):
    key = "undead"
    name = "нежить"
    ability = "Восстание мертвецов"
    enemy_support_penalty = 1
    building_discount = {"tower": 1}

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_army(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        w.effects.recover.add(army.uid)
        w.effects.owner_of[("recover", army.uid)] = faction
