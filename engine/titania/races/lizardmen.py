"""Lizardmen: Intimidation (a neighbouring faction's army is stopped, G63 a), Thick hides (-1 damage taken,
not vs natives, G64 a), Gifts of the Gods."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Army, Board
from engine.titania.races.base import Race, lower_by_one


def _target(w: Board, spec: Mapping[str, Any]) -> Army | None:
    t = spec.get("target")
    if not isinstance(t, dict) or not isinstance(t.get("faction"), str):
        return None
    return w.army_at_start(t["faction"], t.get("army"))


class Lizardmen(Race):
    key = "lizardmen"
    name = "ящеролюды"
    ability = "Устрашение"
    is_trigger = False
    damage_reduction = 1
    research_discounts = ("gold", "wood")  # «со скидкой в 1 золота или 1 дерева по выбору»

    def research_cost(self, cost: Mapping[str, int], discount: str | None) -> dict[str, int]:
        """Gifts of the Gods: «скидкой в 1 золота или 1 дерева по выбору, но не менее одного». G75: the named
        resource; without one, gold when its cost is 2 or more, else wood; one that cannot fall saves nothing."""
        out = dict(cost)
        res = discount if discount in ("gold", "wood") else ("gold" if out.get("gold", 0) >= 2 else "wood")
        if res in out:
            out[res] = lower_by_one(out[res])
        return out

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        army = _target(w, spec)
        if army is None or army.faction == faction or not w.borders(faction, army.faction):
            return "bad_target"
        return None

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = _target(w, spec)
        assert army is not None
        w.cancel(army, "intimidated")
        w.abilities[faction]["fired"] = True
