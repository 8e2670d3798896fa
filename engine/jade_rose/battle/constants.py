"""Battle constants (data/battle.toml) as a frozen dataclass."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Rune:
    """One rune of the golem / rune guard: active for the round it is drawn in."""

    defense: int = 0
    heal: int = 0
    attack: int = 0
    outgoing_pct: int = 0


@dataclass(frozen=True)
class BattleConstants:
    recovery_pct: int = 20
    outnumber_ratio: int = 2
    outnumber_taken_pct: int = 25
    flanking_taken_pct: int = 25
    cover_taken_pct: int = -50
    defence_fatigue: int = 1
    fatigue_outgoing_pct: int = -10
    max_rounds: int = 200
    tie_winner: str = "defender"
    grudge_outgoing_pct: int = 5
    rune_taken_pct: int = -5
    max_runes: int = 10
    rearguard_shots_per_round: int = 1
    forge_off_distance: int = 5
    forge_outgoing_pct: tuple[int, ...] = (30, 10, 0, -20, -50)
    forge_incoming_pct: tuple[int, ...] = (-30, -10, 0, 20, 50)
    runes: tuple[Rune, ...] = (Rune(defense=3, heal=2), Rune(attack=1, outgoing_pct=25))
    rune_names: tuple[str, ...] = ("fortitude", "wrath")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> BattleConstants:
        """Build from the parsed battle.toml; missing keys keep the defaults above."""
        plain = {k: data[k] for k in (
            "recovery_pct", "outnumber_ratio", "outnumber_taken_pct", "flanking_taken_pct",
            "cover_taken_pct", "defence_fatigue", "fatigue_outgoing_pct", "max_rounds", "tie_winner",
            "grudge_outgoing_pct", "rune_taken_pct", "max_runes", "rearguard_shots_per_round") if k in data}
        forge = data.get("forge", {})
        if "off_distance" in forge:
            plain["forge_off_distance"] = int(forge["off_distance"])
        if "outgoing_pct" in forge:
            plain["forge_outgoing_pct"] = tuple(int(v) for v in forge["outgoing_pct"])
        if "incoming_pct" in forge:
            plain["forge_incoming_pct"] = tuple(int(v) for v in forge["incoming_pct"])
        runes = data.get("runes")
        if runes:
            plain["rune_names"] = tuple(runes)
            plain["runes"] = tuple(Rune(**{k: int(v) for k, v in r.items()}) for r in runes.values())
        return cls(**plain)

    def forge_modifiers(self, distance: int | None) -> tuple[int, int]:
        """(outgoing %, incoming %) of Jade units at a forge distance; None means no forge effect."""
        if distance is None:
            return 0, 0
        d = min(max(int(distance), 0), len(self.forge_outgoing_pct) - 1)
        return self.forge_outgoing_pct[d], self.forge_incoming_pct[d]
