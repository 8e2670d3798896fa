"""The reference battle: a plain per-unit loop over planning, clash, finale and the aftermath.

Random streams: five splitmix64 streams below the battle's seed (engine.rng.Dice, sub_seed): 0 the
planning, 1-3 the clash on the left, centre and right flank, 4 the finale, so each flank's dice do not depend
on the others. The compiled kernel (fast_kernel.py) uses the same streams and draws in the same order: one seed,
the same battle in both.
"""
from __future__ import annotations

from engine.jade_rose.battle.abilities import round_half_up
from engine.jade_rose.battle.clash import run_flank
from engine.jade_rose.battle.finale import run_finale
from engine.jade_rose.battle.model import FLANKS, Battle
from engine.jade_rose.battle.planning import run_planning
from engine.jade_rose.battle.result import (
    BattleResult,
    FightSummary,
    ShotSummary,
    SideOutcome,
    SquadOutcome,
    counts,
)
from engine.jade_rose.battle.runtime import BattleState
from engine.rng import Dice, sub_seed

PLANNING, FINALE = 0, 4     # stream tags; the clash on flank i (0 left, 1 centre, 2 right) uses 1 + i


def fight_once(battle: Battle, seed: int) -> BattleResult:
    """Resolve one battle with the reference implementation; same battle and seed, same result."""
    state = BattleState(battle)
    shots, fights = run_planning(Dice(sub_seed(seed, PLANNING)), state)
    rounds = sum(f.round_count for f in fights)
    timeout = any(f.winner == "timeout" for f in fights)
    flank_rounds = [0]
    for i, flank in enumerate(FLANKS):
        flank_fights = run_flank(Dice(sub_seed(seed, 1 + i)), state, flank)
        flank_rounds.append(sum(f.round_count for f in flank_fights))
        timeout |= any(f.winner == "timeout" for f in flank_fights)
        fights += flank_fights
    rounds += max(flank_rounds)
    finale = run_finale(Dice(sub_seed(seed, FINALE)), state)
    if finale is not None:
        fights.append(finale)
        rounds += finale.round_count
        timeout |= finale.winner == "timeout"
    return assemble(state, shots, fights, rounds, timeout)


def assemble(state: BattleState, shots: list[ShotSummary], fights: list[FightSummary], rounds: int,
             timeout: bool) -> BattleResult:
    """The result from the state after the battle (who is alive, who was flanked) and what happened."""
    battle = state.battle
    winner = decide_winner(state, battle.constants.tie_winner)
    outcomes = {role: _outcome(state, role) for role in ("attacker", "defender")}
    outcomes = _plague(battle, outcomes)
    return BattleResult(winner=winner, attacker=outcomes["attacker"], defender=outcomes["defender"],
                        bombards=tuple(shots), fights=tuple(fights), rounds=rounds,
                        rounds_all_fights=sum(f.round_count for f in fights), timeout=timeout,
                        warnings=battle.warnings, city=battle.city,
                        names=tuple(sorted((k, s.name) for k, s in battle.units.items()
                                           if any(k == key for side in (outcomes["attacker"], outcomes["defender"])
                                                  for key, _ in side.deployed + side.idle))))


def decide_winner(state: BattleState, tie_winner: str) -> str:
    """The side with living units wins; both or neither: the tie rule (the defender holds)."""
    a, d = bool(state.sides["attacker"].living()), bool(state.sides["defender"].living())
    if a and not d:
        return "attacker"
    if d and not a:
        return "defender"
    return tie_winner


def _outcome(state: BattleState, role: str) -> SideOutcome:
    side = state.sides[role]
    deployed: dict[str, int] = {}
    dead: dict[str, int] = {}
    army_dead: dict[str, int] = {}
    alive: dict[str, int] = {}
    squads = []
    for squad in side.squads:
        here: dict[str, int] = {}
        here_dead: dict[str, int] = {}
        here_garrison: dict[str, int] = {}
        for u in squad.units:
            key = u.stats.key
            deployed[key] = deployed.get(key, 0) + 1
            here[key] = here.get(key, 0) + 1
            bucket = alive if u.alive else dead
            bucket[key] = bucket.get(key, 0) + 1
            if not u.alive:
                here_dead[key] = here_dead.get(key, 0) + 1
                part = here_garrison if u.garrison else army_dead
                part[key] = part.get(key, 0) + 1
        pos = squad.setup.position
        squads.append(SquadOutcome(tag=squad.setup.tag, position=f"{pos.flank}/{pos.line}", deployed=counts(here),
                                   losses=counts(here_dead), garrison_losses=counts(here_garrison)))
    pct = state.constants.recovery_pct
    recovered = {k: round_half_up(n * pct, 100) for k, n in army_dead.items()}
    idle = dict(next((units for r, units in state.battle.idle if r == role), ()))
    for k, n in idle.items():
        alive[k] = alive.get(k, 0) + n
    return SideOutcome(role=role, faction=side.setup.faction, deployed=counts(deployed), losses=counts(dead),
                       recovered=counts(recovered), survivors=counts(alive), idle=counts(idle),
                       flanked=side.flanked, squads=tuple(squads))


def _plague(battle: Battle, outcomes: dict[str, SideOutcome]) -> dict[str, SideOutcome]:
    """The Jade plague temple turns the enemy's dead that were not saved into jade warriors."""
    out = dict(outcomes)
    for role, enemy in (("attacker", "defender"), ("defender", "attacker")):
        if battle.side(role).plague:
            e = outcomes[enemy]
            converted = e.total("losses") - e.total("recovered")
            out[role] = SideOutcome(**{**outcomes[role].__dict__, "converted": max(0, converted)})
    return out
