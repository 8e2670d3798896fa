"""Orcs: Waaagh! (after attacking one of two chosen provinces, attack the other, G58 a), Plunder,
Military life (first among equal Might, G13 a)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_army


class Orcs(Race):
    key = "orcs"
    name = "орки"
    ability = "Вааагх!"
    first_on_equal_might = True
    plunder = 1

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        army = own_army(w, faction, spec)
        provs = spec.get("provinces")
        if (army is None or not isinstance(provs, list) or len(provs) != 2 or len(set(provs)) != 2
                or not all(isinstance(p, str) and p in w.map.provinces for p in provs)):
            return "bad_target"
        return None

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        p1, p2 = spec["provinces"]
        w.effects.followup[army.uid] = (p1, p2)
        w.effects.owner_of[("followup", army.uid)] = faction
