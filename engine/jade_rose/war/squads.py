"""Squads of a battle side as plain dicts: placement, the default garrison placement, armies joining a
garrison, rearguards stepping up, and each squad's losses after a fight.

A squad is {"flank", "line", "units": {unit_key: n}, "garrison": {unit_key: n}}; "garrison" is the part of
"units" that belongs to the city's garrison (it refills; the rest is army and is really lost). A squad
goes into battle tagged with its cell, and the battle's losses come back per squad (`apply_losses`).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine.jade_rose.battle.model import FLANKS, LINES, Manoeuvre, SquadSetup
from engine.jade_rose.battle.result import SideOutcome
from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import Squad
from engine.jade_rose.war.words import pos_key, position_order, position_text, to_position

DEFAULT_SHOOTERS = "center/rearguard"   # L50: «стрелков в центральный арьергард»
DEFAULT_OTHERS = "center/vanguard"      # L50: «а всех остальных - в центральный авангард»


def new_squad(key: str) -> Squad:
    flank, line = key.split("/")
    return {"flank": flank, "line": line, "units": {}, "garrison": {}}


def is_shooter(unit: str) -> bool:
    """A unit with a ranged attack: what the rule book's default garrison placement calls «стрелки»."""
    return bool(load_data().units[unit].abilities.get("ranged"))


def fits(units: Mapping[str, int], unit: str) -> bool:
    """Whether one more `unit` may join a squad holding `units` (one-per-squad units, excluded pairs)."""
    return blocker(units, unit) is None


def blocker(units: Mapping[str, int], unit: str, count: int = 1) -> str | None:
    """The unit of a squad holding `units` that keeps `count` more `unit` out (the same one-per-squad unit, or
    one of an excluded pair), or None when they may join."""
    data = load_data()
    ab = data.units[unit].abilities
    if ab.get("one_per_squad") and units.get(unit, 0) + count > 1:
        return unit
    for other, n in units.items():
        if n and (other in ab.get("excludes_in_squad", ()) or
                  unit in data.units[other].abilities.get("excludes_in_squad", ())):
            return other
    return None


def fallback_positions(preferred: str) -> list[str]:
    """The preferred cell, then the same line (centre, left, right), then the other line."""
    flank, line = preferred.split("/")
    other = LINES[1 - LINES.index(line)]
    order = [preferred]
    for ln in (line, other):
        for f in ("center", "left", "right"):
            key = pos_key(f, ln)
            if key not in order:
                order.append(key)
    return order


def place(squads: dict[str, Squad], unit: str, count: int, preferred: str, garrison: bool) -> int:
    """Add `count` units at `preferred`, moving those a squad cannot hold to the nearest cell that can.

    Returns how many could not be placed anywhere (they stay out of the battle).
    """
    left = count
    one_each = bool(load_data().units[unit].abilities.get("one_per_squad"))
    for key in fallback_positions(preferred):
        if not left:
            break
        squad = squads.get(key) or new_squad(key)
        if not fits(squad["units"], unit):
            continue
        take = 1 if one_each else left
        squad["units"][unit] = squad["units"].get(unit, 0) + take
        if garrison:
            squad["garrison"][unit] = squad["garrison"].get(unit, 0) + take
        squads[key] = squad
        left -= take
    return left


def default_placement(squads: dict[str, Squad], units: Mapping[str, int]) -> int:
    """Units nobody placed: shooters to the centre rearguard, the others to the centre vanguard (L50)."""
    lost = 0
    for unit, n in sorted(units.items()):
        if n > 0:
            lost += place(squads, unit, n, DEFAULT_SHOOTERS if is_shooter(unit) else DEFAULT_OTHERS, garrison=True)
    return lost


def step_up(squads: dict[str, Squad]) -> list[str]:
    """A rearguard with no vanguard on its flank moves to the vanguard (L11); returns the moved cells."""
    moved = []
    for flank in FLANKS:
        rear, front = pos_key(flank, "rearguard"), pos_key(flank, "vanguard")
        if rear in squads and front not in squads:
            squad = squads.pop(rear)
            squad["line"] = "vanguard"
            squads[front] = squad
            moved.append(rear)
    return moved


def step_up_text(rear: str) -> str:
    flank = rear.split("/")[0]
    return (f"{position_text(rear)}: на этом фланге нет авангарда — отряд встаёт в "
            f"{position_text(pos_key(flank, 'vanguard')).lower()}")


def ordered(squads: Mapping[str, Squad] | Iterable[Squad]) -> list[Squad]:
    items = squads.values() if isinstance(squads, Mapping) else squads
    return sorted((s for s in items if sum(s["units"].values()) > 0),
                  key=lambda s: position_order(pos_key(s["flank"], s["line"])))


def army_part(squad: Squad) -> dict[str, int]:
    return {k: n - squad.get("garrison", {}).get(k, 0) for k, n in squad["units"].items()
            if n - squad.get("garrison", {}).get(k, 0) > 0}


def setups(squads: Iterable[Squad], manoeuvres: Mapping[str, Manoeuvre] | None = None) -> tuple[SquadSetup, ...]:
    """Battle squads, tagged with their cell ("flank/line"); the garrison's part of each is marked, so the
    battle tells garrison dead from army dead unit by unit."""
    out = []
    for s in ordered(squads):
        key = pos_key(s["flank"], s["line"])
        units = tuple(sorted((k, n) for k, n in s["units"].items() if n))
        garrison = tuple(sorted((k, n) for k, n in s.get("garrison", {}).items() if n))
        out.append(SquadSetup(position=to_position(key), units=units,
                              manoeuvre=(manoeuvres or {}).get(key, Manoeuvre()),
                              garrison=bool(units) and not army_part(s), garrison_units=garrison, tag=key))
    return tuple(out)


def apply_losses(squads: list[Squad], outcome: SideOutcome) -> tuple[list[Squad], dict[str, int]]:
    """Survivor squads and the army's dead after a fight, from the battle's losses of each squad.

    Each squad loses exactly what the battle killed in it, its garrison part exactly the garrison's dead;
    units that sat the battle out (not in any battle squad) are untouched.
    """
    by_tag = {s.tag: s for s in outcome.squads}
    out: list[Squad] = []
    army_dead: dict[str, int] = {}
    for s in ordered(squads):
        units, garrison = dict(s["units"]), dict(s.get("garrison", {}))
        result = by_tag.get(pos_key(s["flank"], s["line"]))
        if result is not None:
            for unit, n in result.losses:
                units[unit] = units.get(unit, 0) - n
            for unit, n in result.garrison_losses:
                garrison[unit] = garrison.get(unit, 0) - n
            for unit, n in result.army_losses().items():
                army_dead[unit] = army_dead.get(unit, 0) + n
        survivor: Squad = {**s, "units": {k: n for k, n in units.items() if n > 0},
                    "garrison": {k: n for k, n in garrison.items() if n > 0}}
        if survivor["units"]:
            out.append(survivor)
    return out, dict(sorted(army_dead.items()))
