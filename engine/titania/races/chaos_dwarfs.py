"""Chaos dwarfs: Artillery fire (a squad supports any province, G69 a), Hobgoblin raid (+1 when support
is given against them), Dark technologies."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, own_army


class ChaosDwarfs(Race):
    key = "chaos_dwarfs"
    name = "гномы хаоса"
    ability = "Огни артиллерии"
    bonus_against_support = 1
    tech_needs_might = False  # Dark technologies: «не требуется Могущество для изучения технологий»

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_army(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        army = own_army(w, faction, spec)
        assert army is not None
        w.effects.support_anywhere.add(army.uid)
        w.effects.owner_of[("support_anywhere", army.uid)] = faction
