"""Beastmen: Wild raid (a captured chosen province cannot be attacked next Campaign, G66 a), Brutality
(+3 attacking without support, not vs natives), Simple dwellings."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, any_province


class Beastmen(Race):
    key = "beastmen"
    name = "зверолюды"
    ability = "Дикий набег"
    attack_bonus_unsupported = 3

    def research_cost(self, cost: Mapping[str, int], discount: str | None) -> dict[str, int]:
        """Simple dwellings: «скидкой 1 камень (если технология требует 1 камень — она бесплатна по камню)»."""
        out = dict(cost)
        if "stone" in out:
            out["stone"] = max(0, out["stone"] - 1)
        return out

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        p = any_province(w, spec)
        return None if p is not None and not w.map.is_sea(p) else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        p = spec["province"]
        w.effects.protect_if_captured[p] = faction
        w.effects.owner_of[("protect_if_captured", p)] = faction
