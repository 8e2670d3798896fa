"""Lizardmen: Intimidation (a neighbouring faction's army is stopped, G63 a), Thick hides (-1 damage taken,
not vs natives, G64 a), Gifts of the Gods."""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.titania.races.base import Race

if TYPE_CHECKING:
    from engine.titania.world import Army, World


def _target(w: World, spec: Mapping[str, Any]) -> Army | None:
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
    tech_discounts = ((("gold", "wood"), 1, 1),)  # Gifts of the Gods: «1 золота или 1 дерева по выбору»

    def check_ability(self, w: World, faction: str, spec: Mapping[str, Any]) -> str | None:
        army = _target(w, spec)
        if army is None or army.faction == faction or not w.borders(faction, army.faction):
            return "bad_target"
        return None

    def apply_ability(self, w: World, faction: str, spec: Mapping[str, Any]) -> None:
        army = _target(w, spec)
        assert army is not None
        w.cancel(army, "intimidated")
        w.abilities[faction]["fired"] = True
