"""Dwarfs: Might of Grungni (+1 per attacking dwarf squad, at most 3, G51 a), resilience, Master miners."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race

GRUNGNI_CAP = 3  # «(Но не более 3)»


def _cap(w: Board, faction: str) -> int:
    """Own squads whose move targets a province with hostile troops, a Boss, or a non-allied owner."""
    n = 0
    for task in w.tasks:
        if task.faction != faction or task.type != "move" or task.army is None or task.target is None:
            continue
        t = task.target
        owner = w.owners.get(t)
        if w.hostile_present(faction, t) or (owner is not None and not w.allied(faction, owner)):
            n += 1
    return min(GRUNGNI_CAP, n)


class Dwarfs(Race):
    key = "dwarfs"
    name = "гномы"
    ability = "Мощь Грунгни"
    is_trigger = False
    ability_reads_orders = True  # the cap counts the attack orders (`_cap`), void ones too
    no_draw_losses = True
    building_discount = {"quarry": 1}

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        alloc = spec.get("allocation")
        if not isinstance(alloc, dict) or not alloc:
            return "bad_target"
        for p, n in alloc.items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0 or w.army_at_start(faction, p) is None:
                return "bad_target"
        return "over_cap" if sum(alloc.values()) > _cap(w, faction) else None

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        for p, n in spec["allocation"].items():
            army = w.army_at_start(faction, p)
            assert army is not None
            army.bonus += n
        w.abilities[faction]["fired"] = True
