"""Skaven: Nimbleness (a lost attack costs nobody anything, G60 a), Rat swarm (+1 free in Planning),
We are legion (+1 Food)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_army


class Skaven(Race):
    key = "skaven"
    name = "скавены"
    ability = "Проворство"
    extra_food = 1
    free_hire = 1

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_army(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        w.effects.no_loss_retreat.add(army.uid)
        w.effects.owner_of[("no_loss_retreat", army.uid)] = faction
