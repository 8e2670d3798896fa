"""The planning phase (RULINGS "Planning and resolution order"): cover, bombards, defence, charges,
position changes, then rearguards with no vanguard step up."""
from __future__ import annotations

from engine.jade_rose.battle.abilities import area_targets, roll_damage
from engine.jade_rose.battle.fight import ROLES, FightSetup, Pending, run_fight
from engine.jade_rose.battle.model import FLANKS, Position
from engine.jade_rose.battle.result import FightSummary, ShotSummary, counts
from engine.jade_rose.battle.runtime import BattleState, Group, Squad, Unit
from engine.jade_rose.battle.texts import squad_ru
from engine.rng import Dice

BOMBARDS = ("bombard", "long_range_bombard")


def run_planning(rng: Dice, state: BattleState) -> tuple[list[ShotSummary], list[FightSummary]]:
    if state.battle.skip_planning:
        return [], []
    for side in state.sides.values():
        for squad in side.squads:
            squad.cover = squad.setup.manoeuvre.kind == "cover"
    shots = _bombards(rng, state)
    defenders = _defence(state)
    fights = _charges(rng, state, defenders)
    _moves(state)
    step_up(state)
    return shots, fights


def _bombards(rng: Dice, state: BattleState) -> list[ShotSummary]:
    """Every bombard of both sides against the state before any of them; deaths after."""
    pending = Pending()
    fired = []
    for role in ROLES:
        side, enemy = state.sides[role], state.enemy(role)
        for squad in side.squads:
            m = squad.setup.manoeuvre
            if m.kind not in BOMBARDS or not squad.alive() or m.target is None:
                continue
            target = enemy.squad_at(m.target)
            if target is None:
                continue
            own = Group(side, squad.units, squad)
            tg = Group(enemy, target.units, target)
            tg.cover = target.cover
            living = tg.living()
            start = len(pending.hits)
            n = 0
            for u in squad.living():
                for _ in range(u.stats.shots):
                    n += 1
                    for t in area_targets(rng, u, living, ranged=True):
                        pending.add(t, roll_damage(rng, u, own, t, tg, state.constants, ranged=True, bombard=True))
            fired.append((role, squad, target, n, sum(d for _, d in pending.hits[start:])))
    dealt = {r: 0 for r in ROLES}
    before = {id(t): [u for u in t.units if u.alive] for _, _, t, _, _ in fired}
    pending.apply(dealt)
    for side in state.sides.values():
        for squad in side.squads:
            for u in squad.units:
                u.hurt = False          # a golem grows after a *round* in which it took damage
                if u.alive and u.hp <= 0:
                    u.alive = False
    out = []
    for role, squad, target, n, dmg in fired:
        kills: dict[str, int] = {}
        for u in before[id(target)]:
            if not u.alive:
                kills[u.stats.key] = kills.get(u.stats.key, 0) + 1
        out.append(ShotSummary(role, squad_ru(role, squad.position), squad_ru(target.role, target.position),
                               n, dmg, counts(kills)))
    return out


Guards = dict[tuple[str, Position], Squad]      # (role, rearguard position) -> the squad defending it


def _defence(state: BattleState) -> Guards:
    """Defenders are assigned to their rearguards and get fatigue whether or not anyone charges."""
    out = {}
    for role, side in state.sides.items():
        for squad in side.squads:
            m = squad.setup.manoeuvre
            if m.kind != "defend" or not squad.alive() or m.target is None:   # validation requires a target
                continue
            for u in squad.units:
                u.fatigue += state.constants.defence_fatigue
            squad.defends = m.target
            out[(role, m.target)] = squad
    return out


def _charges(rng: Dice, state: BattleState, defenders: Guards) -> list[FightSummary]:
    """Flank order L, C, R; the attacker's before the defender's; defenders first, then the rearguard."""
    fights = []
    for flank in FLANKS:
        for role in ROLES:
            side = state.sides[role]
            for squad in side.squads:
                m = squad.setup.manoeuvre
                if m.kind == "charge" and squad.position.flank == flank:
                    fights += _charge(rng, state, squad, defenders)
    return fights


def _charge(rng: Dice, state: BattleState, squad: Squad, defenders: Guards) -> list[FightSummary]:
    enemy = state.enemy(squad.role)
    target_pos = squad.setup.manoeuvre.target
    target = enemy.squad_at(target_pos) if target_pos is not None else None
    if target_pos is None or target is None or not squad.alive():
        return []
    guard = defenders.get((enemy.role, target_pos))
    fights = []
    first = True
    for opp in (guard, target):
        if opp is None or not opp.alive():
            continue
        if not squad.alive():
            break
        own = Group(state.sides[squad.role], squad.units, squad)
        own.charger = True
        other = Group(enemy, opp.units, opp)
        other.against_charger = True
        other.defending = opp is guard
        groups = {squad.role: own, enemy.role: other}
        labels = {squad.role: squad_ru(squad.role, squad.position), enemy.role: squad_ru(enemy.role, opp.position)}
        setup = FightSetup("charge", squad.position.flank, groups, (labels["attacker"], labels["defender"]),
                           holder=enemy.role, heal_target=lambda h, g: heal_front(state, h, g),
                           charge_bonus=first)
        fights.append(run_fight(rng, setup, state.constants))
        first = False
    return fights


def heal_front(state: BattleState, healer: Unit, group: Group) -> list[Unit]:
    """A healer in a rearguard heals the vanguard squad in front of it, if any; else its own squad."""
    squad = healer.squad
    if squad.position.line == "rearguard":
        front = state.sides[healer.role].squad_at(Position(squad.position.flank, "vanguard"))
        if front is not None:
            return front.units
    return group.units


def _moves(state: BattleState) -> None:
    """Changes of position (swaps included) happen together, then the free extra moves."""
    for attr in ("target", "free_move"):
        for side in state.sides.values():
            moves = []
            for squad in side.squads:
                m = squad.setup.manoeuvre
                dst = m.target if attr == "target" and m.kind == "change_position" else (
                    m.free_move if attr == "free_move" else None)
                if dst is not None and squad.alive():
                    moves.append((squad, dst))
            for squad, dst in moves:
                squad.position = dst


def step_up(state: BattleState) -> None:
    """A rearguard standing on a flank with no living vanguard takes the vanguard place."""
    for side in state.sides.values():
        for flank in FLANKS:
            v = side.squad_at(Position(flank, "vanguard"))
            r = side.squad_at(Position(flank, "rearguard"))
            if v is None and r is not None:
                r.position = Position(flank, "vanguard")
