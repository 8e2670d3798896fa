"""The structured outcome of one battle (frozen; per-unit counts as sorted (key, count) tuples)."""
from __future__ import annotations

from dataclasses import dataclass

Counts = tuple[tuple[str, int], ...]


def counts(mapping: dict[str, int]) -> Counts:
    """Sorted, zero-free count tuple from a dict."""
    return tuple(sorted((k, v) for k, v in mapping.items() if v))


@dataclass(frozen=True)
class RoundSummary:
    """One round of a fight; pairs are (attacker side, defender side)."""

    number: int
    damage: tuple[int, int]
    deaths: tuple[int, int]
    alive: tuple[int, int]


@dataclass(frozen=True)
class FightSummary:
    """One fight between two squads (or the two finale squads).

    phase: "charge", "clash" or "finale"; squads: Russian labels of the attacker's and defender's squads;
    winner: "attacker", "defender", "both_dead" or "timeout" (the round limit: the defending squad holds).
    """

    phase: str
    flank: str
    squads: tuple[str, str]
    start: tuple[int, int]
    rounds: tuple[RoundSummary, ...]
    winner: str
    losses: tuple[Counts, Counts]

    @property
    def round_count(self) -> int:
        return len(self.rounds)


@dataclass(frozen=True)
class ShotSummary:
    """A planning-phase bombard: who fired at whom, damage dealt and units killed."""

    role: str
    source: str
    target: str
    shots: int
    damage: int
    kills: Counts


@dataclass(frozen=True)
class SquadOutcome:
    """One deployed squad after the battle: `tag` and `position` as deployed (before any manoeuvre),
    its units, its dead, and which of those dead belonged to the city's garrison."""

    tag: str
    position: str
    deployed: Counts
    losses: Counts
    garrison_losses: Counts = ()

    def army_losses(self) -> dict[str, int]:
        """The dead that were not the garrison's (an army's real losses), by unit."""
        garrison = dict(self.garrison_losses)
        return {k: n - garrison.get(k, 0) for k, n in self.losses if n - garrison.get(k, 0) > 0}


@dataclass(frozen=True)
class SideOutcome:
    """A side after the battle; `squads` breaks the losses down per deployed squad (switched-off units,
    `idle`, are in none)."""

    role: str
    faction: str
    deployed: Counts
    losses: Counts
    recovered: Counts
    survivors: Counts
    idle: Counts = ()
    converted: int = 0
    flanked: bool = False
    squads: tuple[SquadOutcome, ...] = ()

    def total(self, field: str) -> int:
        return sum(n for _, n in getattr(self, field))


@dataclass(frozen=True)
class BattleResult:
    """What happened: winner, per-side outcome, every fight with per-round summaries.

    rounds: rounds of the battle as it unfolds (charges one after another, flanks side by side, then the
    finale); rounds_all_fights: sum of the rounds of every fight.
    """

    winner: str
    attacker: SideOutcome
    defender: SideOutcome
    bombards: tuple[ShotSummary, ...]
    fights: tuple[FightSummary, ...]
    rounds: int
    rounds_all_fights: int
    timeout: bool
    warnings: tuple[str, ...] = ()
    city: str = ""
    names: tuple[tuple[str, str], ...] = ()      # unit key -> Russian name, for the report

    def side(self, role: str) -> SideOutcome:
        return self.attacker if role == "attacker" else self.defender
