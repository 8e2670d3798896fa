"""High elves: Warding charms (the first attacker of a chosen own province is turned back, G55 a),
Defenders of Ulthuan (+1 per supporting squad in defence, G56 a), Affinity for magic."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.board import Board
from engine.titania.races.base import Race, lower_by_one, own_province


class HighElves(Race):
    key = "high_elves"
    name = "высшие эльфы"
    ability = "Охранные чары"
    ability_wards = True

    def spell_cost(self, cost: Mapping[str, int]) -> dict[str, int]:
        """Affinity for magic: «Стоимость всех заклинаний снижается на 1 ману, но не меньше 1» (G78: learning
        and casting; only Mana)."""
        out = dict(cost)
        if "mana" in out:
            out["mana"] = lower_by_one(out["mana"])
        return out
    defence_support_bonus = 1

    def check_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> str | None:
        return None if own_province(w, faction, spec) is not None else "bad_target"

    def apply_ability(self, w: Board, faction: str, spec: Mapping[str, Any]) -> None:
        p = spec["province"]
        w.effects.wards[p] = faction
        w.effects.owner_of[("ward", p)] = faction
