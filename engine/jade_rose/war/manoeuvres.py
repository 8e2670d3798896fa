"""The «Манёвры» tab (planning stage): one manoeuvre per own squad of each fight, and dwarf runes (JR-83).

Plan shape: {"fights": {fight_id: {"role": "attacker"|"defender", "runes": n, "rune_rows": [row],
                                   "squads": {"flank/line": {"kind", "target", "free_move", "row"}}}}}
Targets are "flank/line" strings or None. Validation reuses the battle package: the fight is built with
this faction's manoeuvres, and each problem it reports goes to the row of the squad it names.
"""
from __future__ import annotations

from collections.abc import Mapping

from engine.cells import normalize_name
from engine.errors import OrderError, allowed_list
from engine.jade_rose import factions
from engine.jade_rose.battle import BattleSpecError, Manoeuvre, SideSetup, battle_kit, build_battle
from engine.jade_rose.battle.texts import squad_ru
from engine.jade_rose.state_types import (
    Attack,
    FightPlan,
    JadeRoseState,
    ManoeuvrePlan,
    Modifiers,
    PendingBattle,
    SideModifiers,
    Squad,
    SquadManoeuvre,
)
from engine.jade_rose.war import squads as sq
from engine.jade_rose.war.battles import fight_title
from engine.jade_rose.war.codes import err
from engine.jade_rose.war.words import (
    MANOEUVRE_WORDS,
    parse_manoeuvre,
    parse_position,
    pos_key,
    position_text,
    to_position,
)
from engine.numbers import read_count
from engine.ruleset import Row, RowStatus

TAB = "manoeuvres"
COLUMNS = {"battle": "Бой", "squad": "Отряд", "units": "Состав", "manoeuvre": "Манёвр", "target": "Цель",
           "free_move": "Второй манёвр", "runes": "Руны"}
MAX_RUNES_CELL = 1000     # runes one row may spend; what the faction holds is checked later
Fights = dict[str, tuple[PendingBattle, Attack, str]]     # fight id -> (battle, attacker entry, role)


def planned_fights(state: JadeRoseState, faction: str) -> Fights:
    """Fight id -> (battle, attacker entry, role) for the faction's fights that have a planning phase."""
    out: Fights = {}
    for battle in state.get("battles") or ():
        for att in battle["attackers"]:
            if not att.get("needs_planning"):
                continue
            if att["faction"] == faction:
                out[att["fight"]] = (battle, att, "attacker")
            elif battle.get("defender") == faction:
                out[att["fight"]] = (battle, att, "defender")
    return out


def fight_label(state: JadeRoseState, battle: PendingBattle, att: Attack) -> str:
    """«Цинхэ — атака 1»: the fight as the «Бой» cell names it (read back by `fight_in_cell`)."""
    return fight_title(state, battle["city"], att["fight"])


def fight_in_cell(state: JadeRoseState, fights: Fights, text: str) -> str | None:
    """The fight id a «Бой» cell names: its label in any letter case or spacing (or, from books
    written before labels had no id, the id itself as the cell's first word)."""
    wanted = normalize_name(text)
    for fight, (battle, att, _) in fights.items():
        if normalize_name(fight_label(state, battle, att)) == wanted:
            return fight
    token = text.split(" ")[0] if text else ""
    return token if token in fights else None


def own_squads(battle: PendingBattle, att: Attack, role: str) -> list[Squad]:
    return att["squads"] if role == "attacker" else battle["defence"]["squads"]


def to_manoeuvre(order: SquadManoeuvre | None) -> Manoeuvre:
    if not order:
        return Manoeuvre()
    target_key, free_key = order.get("target"), order.get("free_move")
    target = to_position(target_key) if target_key else None
    free = to_position(free_key) if free_key else None
    return Manoeuvre(kind=order.get("kind", "none"), target=target, free_move=free)


def side_manoeuvres(plan: ManoeuvrePlan | None, fight: str, role: str) -> tuple[dict[str, Manoeuvre], int]:
    """Manoeuvres by cell and runes of one side of one fight, from a faction's manoeuvre plan."""
    fights = plan.get("fights") if plan else None
    entry = fights.get(fight) if fights else None
    if not entry or entry.get("role") != role:
        return {}, 0
    return ({k: to_manoeuvre(v) for k, v in entry.get("squads", {}).items()}, int(entry.get("runes", 0)))


def parse_manoeuvres(state: JadeRoseState, faction: str, rows: list[Row]) -> tuple[ManoeuvrePlan, list[RowStatus]]:
    """The faction's manoeuvres and runes per fight, and a status for every non-blank row; never raises."""
    fights = planned_fights(state, faction)
    plan: ManoeuvrePlan = {"fights": {}}
    errors: dict[int, list[OrderError]] = {}
    seen: dict[tuple[str, str], int] = {}
    rune_rows: dict[str, list[int]] = {}
    order: list[int] = []
    for row in rows:
        if row.is_blank():
            continue
        order.append(row.number)
        try:
            problems = _parse_row(state, faction, row, fights, plan, seen, rune_rows)
        except Exception as exc:  # noqa: BLE001 - garbage is reported on the row, never raised
            problems = [OrderError("E_INTERNAL", {"detail": type(exc).__name__})]
        if problems:
            errors[row.number] = problems
    for fight, entry in plan["fights"].items():
        battle, att, role = fights[fight]
        for number, problem in _validate_fight(battle, att, role, entry):
            errors.setdefault(number, []).append(err("JR_WAR_MANOEUVRE_INVALID", problem=problem))
    _check_runes(state, faction, plan, rune_rows, errors)
    statuses = [RowStatus(TAB, n, tuple(errors.get(n, ()))) for n in order]
    return plan, statuses


def _parse_row(state: JadeRoseState, faction: str, row: Row, fights: Fights, plan: ManoeuvrePlan,
               seen: dict[tuple[str, str], int], rune_rows: dict[str, list[int]]) -> list[OrderError]:
    for key, title in COLUMNS.items():
        if row.get(key).startswith("="):
            return [OrderError("E_FORMULA", {"column": title, "value": row.get(key)})]
    labels = [fight_label(state, b, a) for b, a, _ in fights.values()]
    token = fight_in_cell(state, fights, row.get("battle"))
    if token is None:
        return [err("JR_WAR_UNKNOWN_BATTLE", value=row.get("battle"), allowed=allowed_list(labels))]
    battle, att, role = fights[token]
    mine = [pos_key(s["flank"], s["line"]) for s in own_squads(battle, att, role)]
    cell = parse_position(row.get("squad")) if row.get("squad") else None
    if cell is None or cell not in mine:
        return [err("JR_WAR_UNKNOWN_SQUAD", value=row.get("squad"), battle=fight_label(state, battle, att),
                    allowed=allowed_list([position_text(k) for k in mine]))]
    if (token, cell) in seen:
        return [err("JR_WAR_DUPLICATE_SQUAD", squad=position_text(cell), battle=fight_label(state, battle, att),
                    row=seen[(token, cell)])]
    problems: list[OrderError] = []
    kind = parse_manoeuvre(row.get("manoeuvre")) if row.get("manoeuvre") else "none"
    if kind is None:
        problems.append(err("JR_WAR_UNKNOWN_MANOEUVRE", value=row.get("manoeuvre"),
                            allowed=", ".join(MANOEUVRE_WORDS.values())))
    targets: dict[str, str | None] = {}
    for column in ("target", "free_move"):
        text = row.get(column)
        targets[column] = parse_position(text) if text else None
        if text and targets[column] is None:
            problems.append(err("JR_WAR_UNKNOWN_POSITION", value=text, column=COLUMNS[column]))
    runes = 0
    if row.get("runes"):
        read = read_count(row.get("runes"), COLUMNS["runes"], minimum=0, maximum=MAX_RUNES_CELL)
        if not factions.of(faction).uses_runes:
            if read != 0:       # a number or not: only an empty cell (or 0) is allowed here
                problems.append(err("JR_WAR_RUNES_NOT_DWARF"))
        elif isinstance(read, OrderError):
            problems.append(read)
        else:
            runes = read
    if problems:
        return problems
    assert kind is not None     # a None came with a problem
    seen[(token, cell)] = row.number
    entry = plan["fights"].setdefault(token, {"role": role, "runes": 0, "squads": {}})
    entry["squads"][cell] = {"kind": kind, "target": targets["target"] if kind not in ("none", "cover") else None,
                             "free_move": targets["free_move"], "row": row.number}
    if runes:
        entry["runes"] += runes
        entry.setdefault("rune_rows", []).append(row.number)
        rune_rows.setdefault(token, []).append(row.number)
    return []


def battle_cells(squads: list[Squad], forge_distance: int | None) -> dict[str, str | None]:
    """Where each squad's cell stands once the battle is built: jade creatures out of the forge's reach sit
    the battle out (a squad of nothing else stays out: None), then a rearguard with no vanguard steps up."""
    units, constants = battle_kit()
    off = forge_distance is not None and forge_distance >= constants.forge_off_distance
    present: list[str] = []
    out: dict[str, str | None] = {}
    for s in sq.ordered(squads):
        key = pos_key(s["flank"], s["line"])
        fights_on = any(n and not (off and units[k].jade_creature) for k, n in s["units"].items() if k in units)
        out[key] = key if fights_on else None
        if fights_on:
            present.append(key)
    for key in present:
        flank, line = key.split("/")
        front = pos_key(flank, "vanguard")
        if line == "rearguard" and front not in present:
            out[key] = front
    return out


def problem_cells(problems: list[str], role: str, cells: Mapping[str, str | None],
                  ordered: Mapping[str, object]) -> tuple[dict[str, str], list[str]]:
    """Each battle problem given to the cell (of `ordered`) whose squad it names, and the problems naming none.

    The battle names a squad by where it stands once built (`cells`, see `battle_cells`)."""
    prefixes = sorted(((squad_ru(role, to_position(final)).capitalize(), key) for key, final in cells.items()
                       if final is not None and key in ordered), key=lambda p: -len(p[0]))
    found: dict[str, str] = {}
    rest: list[str] = []
    for problem in problems:
        key = next((k for prefix, k in prefixes if problem.startswith(prefix)), None)
        if key is None:
            rest.append(problem)
        else:
            found.setdefault(key, problem)
    return found, rest


def side_setup(faction: str | None, squads: list[Squad], orders: Mapping[str, Manoeuvre] | None,
               mods: SideModifiers | None, runes: int = 0) -> SideSetup:
    """One side of a fight as the battle package takes it, with the side's modifiers (war/battles.py)."""
    grudges = int(mods.get("grudges", 0) or 0) if mods else 0
    forge = mods.get("forge_distance") if mods else None
    plague = bool(mods.get("plague")) if mods else False
    return SideSetup(faction=str(faction), squads=sq.setups(squads, orders), grudges=grudges, runes=runes,
                     forge_distance=forge, plague=plague)


def _validate_fight(battle: PendingBattle, att: Attack, role: str, entry: FightPlan) -> list[tuple[int, str]]:
    """Build the fight as the turn will (both sides' modifiers, so e.g. jade creatures out of the forge's reach
    sit out) with these manoeuvres; drop each rejected one and try again until it builds.

    A manoeuvre given to a squad that sits the battle out is refused too; a problem that names no squad
    goes to every row (it is no one manoeuvre's fault, so none is dropped for it)."""
    units, constants = battle_kit()
    enemy_role = "defender" if role == "attacker" else "attacker"
    mine = own_squads(battle, att, role)
    theirs = own_squads(battle, att, enemy_role)
    faction = {"attacker": att["faction"], "defender": battle["defender"]}
    mods: Modifiers = att.get("modifiers") or {}
    own_mods = mods.get(role)
    cells = battle_cells(mine, own_mods.get("forge_distance") if own_mods else None)
    found: list[tuple[int, str]] = []
    for key, final in cells.items():
        order = entry["squads"].get(key)
        if final is None and order is not None and (order["kind"] != "none" or order.get("free_move")):
            found.append((order["row"], "Этот отряд не участвует в бою: нефритовые создания так далеко от Великой "
                                        "Кузни, что остаются в стороне, — манёвр ему не дать."))
            entry["squads"].pop(key)
    for _ in range(8):
        orders = {k: to_manoeuvre(v) for k, v in entry["squads"].items()}
        own = side_setup(faction[role], mine, orders, mods.get(role))
        other = side_setup(faction[enemy_role], theirs, None, mods.get(enemy_role))
        try:
            build_battle(*((own, other) if role == "attacker" else (other, own)), units, constants=constants)
            return found
        except BattleSpecError as exc:
            hits, rest = problem_cells(exc.problems, role, cells, entry["squads"])
            for key, problem in hits.items():
                found.append((entry["squads"].pop(key)["row"], problem))
            if rest:
                rows = sorted(v["row"] for v in entry["squads"].values()) or sorted({n for n, _ in found})[:1]
                found += [(n, p) for n in rows for p in rest]
                for key in list(entry["squads"]):
                    entry["squads"].pop(key)
                return found
            if not hits:
                return found
    return found


def _check_runes(state: JadeRoseState, faction: str, plan: ManoeuvrePlan, rune_rows: Mapping[str, list[int]],
                 errors: dict[int, list[OrderError]]) -> None:
    """Runes spent: at most the faction holds over all its fights, at most the battle maximum in each."""
    if not factions.of(faction).uses_runes:
        return
    rec = state["factions"].get(faction)
    held = int(rec.get("runes", 0)) if rec is not None else 0
    cap = battle_kit()[1].max_runes
    spent = 0
    for fight in sorted(plan["fights"]):
        entry = plan["fights"][fight]
        n = entry.get("runes", 0)
        if not n:
            continue
        if n > cap or spent + n > held:
            bad = set(rune_rows.get(fight, ()))
            for number in sorted(bad):
                errors.setdefault(number, []).append(err("JR_WAR_RUNES_TOO_MANY", have=held, max=cap,
                                                         total=spent + n))
            entry["runes"] = 0
            entry["rune_rows"] = []
            entry["squads"] = {k: v for k, v in entry["squads"].items() if v["row"] not in bad}
            continue
        spent += n


__all__ = ["TAB", "COLUMNS", "parse_manoeuvres", "planned_fights", "fight_label", "side_manoeuvres",
           "own_squads", "to_manoeuvre"]
