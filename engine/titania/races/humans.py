"""Humans: Tactics (a squad supports two battles, the second at half), Adaptability, Prosperity."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, lower_by_one, own_army


class Humans(Race):
    key = "humans"
    name = "люди"
    ability = "Тактика"
    adaptability = 1

    def research_cost(self, cost: Mapping[str, int], discount: str | None) -> dict[str, int]:
        """Prosperity: «изучают технологии со скидкой 1 влияния, но не менее одного» (G74)."""
        out = dict(cost)
        if "influence" in out:
            out["influence"] = lower_by_one(out["influence"])
        return out

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_army(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        w.effects.double_support.add(army.uid)
        w.effects.owner_of[("double_support", army.uid)] = faction
