"""The battle set-up: positions, manoeuvres, squads, sides (validated, immutable)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.stats import UnitStats

FLANKS = ("left", "center", "right")
LINES = ("vanguard", "rearguard")
ROLES = ("attacker", "defender")
MANOEUVRES = ("none", "change_position", "defend", "cover", "charge", "bombard", "long_range_bombard")
SPECIAL_MANOEUVRES = ("charge", "bombard", "long_range_bombard")


@dataclass(frozen=True, order=True)
class Position:
    flank: str
    line: str

    @property
    def column(self) -> int:
        return FLANKS.index(self.flank)

    @property
    def row(self) -> int:
        return LINES.index(self.line)

    def adjacent(self, other: Position) -> bool:
        """Orthogonal neighbour on the 3×2 grid of one side (rule book L12)."""
        return abs(self.column - other.column) + abs(self.row - other.row) == 1

    def near_flank(self, other: Position) -> bool:
        """Same or adjacent flank (charge and bombard reach)."""
        return abs(self.column - other.column) <= 1


ALL_POSITIONS = tuple(Position(flank, line) for flank in FLANKS for line in LINES)


@dataclass(frozen=True)
class Manoeuvre:
    """One squad's planning order; `target` where the type needs one, `free_move` for the extra move."""

    kind: str = "none"
    target: Position | None = None
    free_move: Position | None = None


@dataclass(frozen=True)
class SquadSetup:
    """A deployed squad: its position, units (key -> count) and manoeuvre.

    The city's garrison does not recover its dead after the battle (garrisons refill anyway): `garrison`
    marks a squad that is all garrison; `garrison_units` the garrison's part of a squad that mixes the
    garrison with a defending army. `tag` is the caller's name for the squad, reported back with its losses.
    """

    position: Position
    units: tuple[tuple[str, int], ...]
    manoeuvre: Manoeuvre = Manoeuvre()
    garrison: bool = False
    garrison_units: tuple[tuple[str, int], ...] = ()
    tag: str = ""

    @property
    def size(self) -> int:
        return sum(n for _, n in self.units)

    def garrison_count(self, key: str) -> int:
        """How many of the squad's `key` units belong to the city's garrison."""
        have = sum(n for k, n in self.units if k == key)
        if self.garrison:
            return have
        return min(have, sum(n for k, n in self.garrison_units if k == key))


@dataclass(frozen=True)
class SideSetup:
    """One side of a battle with its side-level modifiers."""

    faction: str
    squads: tuple[SquadSetup, ...]
    grudges: int = 0
    runes: int = 0
    forge_distance: int | None = None
    plague: bool = False


@dataclass(frozen=True)
class Battle:
    """A validated battle: both sides, the unit statistics it uses and the constants.

    Build it with `parse_spec` (JSON form) or `build_battle` (from unit keys); both validate.
    `warnings` are the Russian notes of automatic corrections (e.g. a rearguard without vanguard moved up).
    """

    attacker: SideSetup
    defender: SideSetup
    units: Mapping[str, UnitStats]
    constants: BattleConstants = BattleConstants()
    skip_planning: bool = False
    city: str = ""
    warnings: tuple[str, ...] = ()
    idle: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = field(default=())

    def side(self, role: str) -> SideSetup:
        return self.attacker if role == "attacker" else self.defender
