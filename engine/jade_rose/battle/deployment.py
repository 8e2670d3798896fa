"""Deployment and manoeuvre validation: every problem at once, in Russian; automatic corrections.

Rules: rule book L11-24 and RULINGS.md "Deployment" / "Planning and resolution order".
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from engine.errors import SpecError
from engine.jade_rose.battle.constants import BattleConstants
from engine.jade_rose.battle.model import (
    ALL_POSITIONS,
    FLANKS,
    MANOEUVRES,
    ROLES,
    SPECIAL_MANOEUVRES,
    Battle,
    Manoeuvre,
    Position,
    SideSetup,
    SquadSetup,
)
from engine.jade_rose.battle.stats import UnitStats
from engine.jade_rose.battle.texts import (
    FACTION_NOM,
    MANOEUVRE_NOM,
    ROLE_NOM,
    position_ru,
    squad_ru,
)
from engine.russian import agree


class BattleSpecError(SpecError):
    """An invalid battle set-up (a ValueError); `.problems` holds one Russian message per problem."""


def build_battle(attacker: SideSetup, defender: SideSetup, units: Mapping[str, UnitStats], *,
                 constants: BattleConstants | None = None, skip_planning: bool = False,
                 city: str = "") -> Battle:
    """Validate both sides and return the battle, corrected where the rules say so.

    Corrections (each with a Russian warning): Jade creatures at forge distance >= 5 stay out of the
    battle; a rearguard with no vanguard on its flank is moved to the vanguard; with `skip_planning`
    every manoeuvre is dropped. Raises BattleSpecError listing every problem.
    """
    constants = constants or BattleConstants()
    problems: list[str] = []
    warnings: list[str] = []
    idle: list[tuple[str, tuple[tuple[str, int], ...]]] = []
    sides = {}
    for role, side in (("attacker", attacker), ("defender", defender)):
        problems += _side_problems(role, side, units, constants)
        side, sat_out = _remove_switched_off(role, side, units, constants, warnings)
        if sat_out:
            idle.append((role, sat_out))
        sides[role] = _step_up(role, side, warnings)
    if not problems:
        if skip_planning:
            for role in ROLES:
                sides[role] = _drop_manoeuvres(role, sides[role], warnings)
        else:
            for role in ROLES:
                enemy = sides["defender" if role == "attacker" else "attacker"]
                problems += _manoeuvre_problems(role, sides[role], enemy, units)
    if problems:
        raise BattleSpecError(problems)
    return Battle(attacker=sides["attacker"], defender=sides["defender"], units=dict(units),
                  constants=constants, skip_planning=skip_planning, city=city,
                  warnings=tuple(warnings), idle=tuple(idle))


# -- deployment ---------------------------------------------------------------------

def _side_problems(role: str, side: SideSetup, units: Mapping[str, UnitStats],
                   constants: BattleConstants) -> list[str]:
    who = ROLE_NOM[role].capitalize()
    out: list[str] = []
    if side.faction not in FACTION_NOM:
        return [f"{who}: неизвестная фракция «{side.faction}». Допустимо: "
                + ", ".join(f"{v} ({k})" for k, v in FACTION_NOM.items()) + "."]
    if not side.squads:
        out.append(f"{who}: нет ни одного отряда. Укажите хотя бы один отряд с юнитами.")
    if not 0 <= side.runes <= constants.max_runes:
        out.append(f"{who}: потратить можно от 0 до {agree(constants.max_runes, 'руна', 'gent')}, "
                   f"а указано {side.runes}.")
    if side.runes and side.faction != "dwarves":
        out.append(f"{who}: руны тратят только дворфы, а фракция — {FACTION_NOM[side.faction]}.")
    if side.grudges < 0:
        out.append(f"{who}: число обид не может быть отрицательным ({side.grudges}).")
    if side.grudges and side.faction != "dwarves":
        out.append(f"{who}: обиды есть только у дворфов, а фракция — {FACTION_NOM[side.faction]}.")
    if side.forge_distance is not None and side.faction != "jade":
        out.append(f"{who}: расстояние до Великой Кузни задаётся только Нефритовому двору.")
    if side.forge_distance is not None and side.forge_distance < 0:
        out.append(f"{who}: расстояние до Великой Кузни не может быть отрицательным ({side.forge_distance}).")
    if side.plague and side.faction != "jade":
        out.append(f"{who}: храм нефритовой чумы бывает только у Нефритового двора.")
    seen: dict[Position, int] = {}
    totals: dict[str, int] = {}
    for squad in side.squads:
        where = squad_ru(role, squad.position).capitalize()
        if squad.position in seen:
            out.append(f"{where}: на этой позиции уже стоит отряд. На каждой из 6 позиций — не больше "
                       "одного отряда; объедините их или поставьте на свободную позицию.")
        seen[squad.position] = 1
        if not squad.units:
            out.append(f"{where}: в отряде нет юнитов.")
        for key, count in squad.units:
            stats = units.get(key)
            if stats is None:
                out.append(f"{where}: неизвестный юнит «{key}».")
                continue
            if stats.faction != side.faction:
                out.append(f"{where}: «{stats.name}» — юнит фракции {FACTION_NOM.get(stats.faction, stats.faction)}, "
                           f"а сторона играет за {FACTION_NOM[side.faction]}.")
            if count < 1:
                out.append(f"{where}: число юнитов «{stats.name}» должно быть целым и больше нуля, а не {count}.")
            if stats.one_per_squad and count > 1:
                out.append(f"{where}: в одном отряде может быть только 1 «{stats.name}», а указано {count}. "
                           "Разделите их по разным отрядам.")
            for other in stats.excludes_in_squad:
                if any(k == other for k, _ in squad.units):
                    out.append(f"{where}: «{stats.name}» не может стоять в одном отряде с "
                               f"«{units[other].name if other in units else other}».")
            totals[key] = totals.get(key, 0) + count - squad.garrison_count(key)
    for key, count in totals.items():
        stats = units.get(key)
        if stats and stats.faction_limit and count > stats.faction_limit:
            out.append(f"{who}: «{stats.name}» в армии может быть не больше {stats.faction_limit}, "
                       f"а указано {count}.")
    return out


def _remove_switched_off(role: str, side: SideSetup, units: Mapping[str, UnitStats], constants: BattleConstants,
                         warnings: list[str]) -> tuple[SideSetup, tuple[tuple[str, int], ...]]:
    """Jade creatures at forge distance >= off_distance do not take part (RULINGS, Deployment)."""
    if side.forge_distance is None or side.forge_distance < constants.forge_off_distance:
        return side, ()
    idle: dict[str, int] = {}
    squads = []
    for squad in side.squads:
        kept = []
        for key, n in squad.units:
            if key in units and units[key].jade_creature:
                idle[key] = idle.get(key, 0) + n
            else:
                kept.append((key, n))
        if kept:
            squads.append(replace(squad, units=tuple(kept),
                                  garrison_units=tuple((k, n) for k, n in squad.garrison_units if k not in idle)))
    if idle:
        names = ", ".join(f"{units[k].name} ×{n}" for k, n in idle.items())
        warnings.append(f"{ROLE_NOM[role].capitalize()}: до Великой Кузни {agree(side.forge_distance, 'дорога')} — "
                        f"нефритовые создания не участвуют в бою и остаются целы ({names}).")
    return replace(side, squads=tuple(squads)), tuple(idle.items())


def _step_up(role: str, side: SideSetup, warnings: list[str]) -> SideSetup:
    """A rearguard with no vanguard on its flank is moved to the vanguard (rule book L11)."""
    taken = {s.position for s in side.squads}
    squads = []
    for squad in side.squads:
        pos = squad.position
        front = Position(pos.flank, "vanguard")
        if pos.line == "rearguard" and front not in taken:
            warnings.append(f"{squad_ru(role, pos).capitalize()}: на этом фланге нет авангарда — отряд "
                            f"встаёт в {position_ru(front)} (арьергард без авангарда существовать не может).")
            squad = replace(squad, position=front)
        squads.append(squad)
    return replace(side, squads=tuple(squads))


def _drop_manoeuvres(role: str, side: SideSetup, warnings: list[str]) -> SideSetup:
    if any(s.manoeuvre != Manoeuvre() for s in side.squads):
        warnings.append(f"{ROLE_NOM[role].capitalize()}: фаза планирования пропущена — манёвры не выполняются.")
    return replace(side, squads=tuple(replace(s, manoeuvre=Manoeuvre()) for s in side.squads))


# -- manoeuvres ----------------------------------------------------------------------

def allowed_manoeuvres(squad: SquadSetup, units: Mapping[str, UnitStats]) -> list[str]:
    """Manoeuvre kinds this squad may be ordered (Russian names), for messages."""
    stats = [units[k] for k, _ in squad.units if k in units]
    if any(s.no_manoeuvres for s in stats):
        return [MANOEUVRE_NOM["none"]]
    out = ["none", "change_position", "defend", "cover"]
    out += [m for m in SPECIAL_MANOEUVRES if all(s.can(m) for s in stats)]
    return [MANOEUVRE_NOM[m] for m in out]


def _manoeuvre_problems(role: str, side: SideSetup, enemy: SideSetup,
                        units: Mapping[str, UnitStats]) -> list[str]:
    out: list[str] = []
    own = {s.position: s for s in side.squads}
    theirs = {s.position: s for s in enemy.squads}
    defended: dict[Position, Position] = {}
    for squad in side.squads:
        m = squad.manoeuvre
        pos = squad.position
        where = squad_ru(role, pos).capitalize()
        stats = [units[k] for k, _ in squad.units]
        allowed = ", ".join(allowed_manoeuvres(squad, units))
        if m.kind not in MANOEUVRES:
            out.append(f"{where}: неизвестный манёвр «{m.kind}». Допустимо: {allowed}.")
            continue
        blocker = next((s for s in stats if s.no_manoeuvres), None)
        if blocker and (m.kind != "none" or m.free_move):
            out.append(f"{where}: отряд с юнитом «{blocker.name}» не может выполнять манёвры. "
                       "Допустимо: без манёвра.")
            continue
        if m.kind in SPECIAL_MANOEUVRES:
            unable = sorted({s.name for s in stats if not s.can(m.kind)})
            if unable:
                out.append(f"{where}: манёвр «{MANOEUVRE_NOM[m.kind]}» невозможен — его выполняет отряд, только "
                           f"если умеют все его юниты, а не умеют: {', '.join(unable)}. Допустимо: {allowed}.")
                continue
        needs_target = m.kind in ("change_position", "defend", "charge", "bombard", "long_range_bombard")
        if needs_target and m.target is None:
            out.append(f"{where}: для манёвра «{MANOEUVRE_NOM[m.kind]}» укажите цель (фланг и линию).")
            continue
        t = m.target
        if t is None:
            pass                                        # a manoeuvre with no target (checked above)
        elif m.kind == "charge":
            if t.line != "rearguard" or not pos.near_flank(t):
                out.append(f"{where}: натиском можно атаковать только арьергард противника на своём или "
                           f"соседнем фланге, а не {position_ru(t)}. Допустимо: {_list(_charge_targets(pos, theirs))}.")
            elif t not in theirs:
                out.append(f"{where}: у противника нет отряда в позиции «{position_ru(t)}». "
                           f"Допустимо: {_list(_charge_targets(pos, theirs))}.")
        elif m.kind == "bombard":
            if t.line != "vanguard" or not pos.near_flank(t):
                out.append(f"{where}: обстрелять можно только авангард противника на своём или соседнем фланге, "
                           f"а не {position_ru(t)}. Допустимо: {_list(_bombard_targets(pos, theirs))}.")
            elif t not in theirs:
                out.append(f"{where}: у противника нет отряда в позиции «{position_ru(t)}». "
                           f"Допустимо: {_list(_bombard_targets(pos, theirs))}.")
        elif m.kind == "long_range_bombard":
            if t not in theirs:
                out.append(f"{where}: у противника нет отряда в позиции «{position_ru(t)}». "
                           f"Допустимо: {_list(sorted(theirs))}.")
        elif m.kind == "defend":
            targets = [p for p in own if p.line == "rearguard" and pos.adjacent(p)]
            if t not in targets:
                out.append(f"{where}: защищать можно только свой арьергард на соседней позиции, а не "
                           f"{position_ru(t)}. Допустимо: {_list(targets)}.")
            elif t in defended:
                out.append(f"{where}: {position_ru(t)} уже защищает отряд из позиции «{position_ru(defended[t])}»; "
                           "один арьергард может прикрывать только один защитник.")
            else:
                defended[t] = pos
        if m.free_move is not None and not all(s.free_move for s in stats):
            unable = sorted({s.name for s in stats if not s.free_move})
            out.append(f"{where}: бесплатная смена позиции доступна, только если её умеют все юниты отряда; "
                       f"не умеют: {', '.join(unable)}.")
    out += _move_problems(role, side, units)
    return out


def _move_problems(role: str, side: SideSetup, units: Mapping[str, UnitStats]) -> list[str]:
    """Change of position: one free adjacent cell, or a swap with a squad moving the other way."""
    out: list[str] = []
    main = {s.position: s.manoeuvre.target for s in side.squads
            if s.manoeuvre.kind == "change_position" and s.manoeuvre.target is not None}
    out += _check_moves(role, main, {s.position for s in side.squads}, "смена позиции")
    after = {main.get(s.position, s.position): s for s in side.squads}
    if len(after) == len(side.squads):
        free = {}
        for new_pos, s in after.items():
            if s.manoeuvre.free_move is not None and all(units[k].free_move for k, _ in s.units):
                free[new_pos] = s.manoeuvre.free_move
        out += _check_moves(role, free, set(after), MANOEUVRE_NOM["free_move"])
    return out


def _check_moves(role: str, moves: dict[Position, Position], occupied: set[Position], label: str) -> list[str]:
    out = []
    arrivals: dict[Position, Position] = {}
    for src, dst in moves.items():
        where = squad_ru(role, src).capitalize()
        free = [p for p in ALL_POSITIONS if src.adjacent(p) and (p not in occupied or moves.get(p) == src)]
        if not src.adjacent(dst):
            out.append(f"{where}: «{label}» — только на соседнюю клетку (выше, ниже, левее или правее), "
                       f"а {position_ru(dst)} не соседняя. Допустимо: {_list(free)}.")
        elif dst in occupied and moves.get(dst) != src:
            out.append(f"{where}: «{label}» — клетка «{position_ru(dst)}» занята своим отрядом, который не "
                       f"меняется с вами местами. Допустимо: {_list(free)}.")
        elif dst in arrivals:
            out.append(f"{where}: «{label}» — на клетку «{position_ru(dst)}» уже переходит отряд из позиции "
                       f"«{position_ru(arrivals[dst])}».")
        else:
            arrivals[dst] = src
    return out


def _charge_targets(pos: Position, theirs: Mapping[Position, SquadSetup]) -> list[Position]:
    return [p for p in sorted(theirs, key=_order) if p.line == "rearguard" and pos.near_flank(p)]


def _bombard_targets(pos: Position, theirs: Mapping[Position, SquadSetup]) -> list[Position]:
    return [p for p in sorted(theirs, key=_order) if p.line == "vanguard" and pos.near_flank(p)]


def _order(p: Position) -> tuple[int, int]:
    return FLANKS.index(p.flank), p.row


def _list(positions: Iterable[Position]) -> str:
    positions = sorted(positions, key=_order)
    return ", ".join(position_ru(p) for p in positions) if positions else "нет подходящих целей"
