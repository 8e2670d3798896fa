"""War tables for the books: the manoeuvres tab pre-filled, scouting, battle reports; dropdown lists.

Fog of war: a faction's tables show only its own squads and, for the fights it takes part in that have a
planning phase, the opponent's deployment; nothing of other battles, armies or reports.
"""
from __future__ import annotations

from engine.jade_rose import factions
from engine.jade_rose.battle import battle_kit
from engine.jade_rose.battle.deployment import allowed_manoeuvres
from engine.jade_rose.battle.model import MANOEUVRES
from engine.jade_rose.battle.texts import MANOEUVRE_NOM
from engine.jade_rose.data import load_data
from engine.jade_rose.names import unit_names
from engine.jade_rose.state_types import JadeRoseState, Squad
from engine.jade_rose.war import squads as sq
from engine.jade_rose.war.battles import fight_title
from engine.jade_rose.war.manoeuvres import fight_label, own_squads, planned_fights
from engine.jade_rose.war.reports import faction_title, units_text
from engine.jade_rose.war.words import (
    ALL_POSITION_KEYS,
    CAPTURE_WORDS,
    FLANK_WORDS,
    LINE_WORDS,
    MANOEUVRE_WORDS,
    NO,
    ORDER_WORDS,
    YES,
    pos_key,
    position_text,
)
from engine.ruleset import Table

MANOEUVRE_COLUMNS = ("Бой", "Отряд", "Состав", "Манёвр", "Цель", "Второй манёвр", "Руны")
SCOUTING_COLUMNS = ("Бой", "Противник", "Позиция", "Состав", "Примечание")
ROLE_NOTE = {"attacker": "вы атакуете", "defender": "вы обороняете город"}


def garrison_unit_keys(faction: str) -> list[str]:
    """Units that can stand in the faction's garrisons: every level's table and building bonuses."""
    data = load_data()
    keys: set[str] = set()
    for table in data.garrisons.get(faction, {}).values():
        keys |= set(table)
    for b in data.faction_buildings(faction):
        keys |= set(b.effects.get("garrison", {}))
    return sorted(keys, key=lambda k: (data.units[k].tier, k))


def squad_choices(state: JadeRoseState, faction: str) -> tuple[list[str], bool]:
    """The manoeuvres the faction's squads in its fights with a planning phase may be ordered (what the battle
    allows each squad: deployment.allowed_manoeuvres), and whether one of them may also change position free
    (every unit of the squad can)."""
    units, _ = battle_kit()
    kind_of = {name: kind for kind, name in MANOEUVRE_NOM.items()}
    kinds: set[str] = set()
    free = False
    for _fight, (battle, att, role) in planned_fights(state, faction).items():
        for setup in sq.setups(own_squads(battle, att, role)):
            kinds |= {kind_of[name] for name in allowed_manoeuvres(setup, units)}
            stats = [units[k] for k, _ in setup.units if k in units]
            free = free or bool(stats) and all(s.free_move and not s.no_manoeuvres for s in stats)
    return [MANOEUVRE_WORDS[k] for k in MANOEUVRES if k in kinds], free


def vocabularies(state: JadeRoseState, faction: str) -> dict[str, list[str]]:
    """Dropdown lists of the war tabs for one faction's book."""
    data = load_data()
    manoeuvres, free = squad_choices(state, faction)
    return {
        "flanks": list(FLANK_WORDS.values()),
        "lines": list(LINE_WORDS.values()),
        "own_units": unit_names(faction) if faction in data.factions else [],
        "all_cities": sorted(c["name"] for c in state["cities"].values()),
        "army_orders": list(ORDER_WORDS.values()),
        "capture_choices": list(CAPTURE_WORDS.values()),
        "yes_no": [YES, NO],
        "garrison_units": [data.units[k].name for k in garrison_unit_keys(faction)] if faction in data.factions else [],
        "manoeuvres": list(MANOEUVRE_WORDS.values()),
        "positions": [position_text(k) for k in ALL_POSITION_KEYS],
        "squad_manoeuvres": manoeuvres,  # the «Манёвры» tab: what its squads may do
        "free_positions": [position_text(k) for k in ALL_POSITION_KEYS] if free else [],
    }


def _squad_key(squad: Squad) -> str:
    return pos_key(squad["flank"], squad["line"])


def manoeuvres_table(state: JadeRoseState, faction: str) -> Table:
    """One row per own squad of each fight with a planning phase, manoeuvre «Нет» pre-filled."""
    rows = []
    for _fight, (battle, att, role) in sorted(planned_fights(state, faction).items()):
        label = fight_label(state, battle, att)
        for i, squad in enumerate(own_squads(battle, att, role)):
            runes = "0" if factions.of(faction).uses_runes and i == 0 else ""
            rows.append((label, position_text(_squad_key(squad)), units_text(squad["units"]),
                         MANOEUVRE_WORDS["none"], "", "", runes))
    return Table(MANOEUVRE_COLUMNS, tuple(rows))


def scouting_table(state: JadeRoseState, faction: str) -> Table:
    """The opponent's deployment in each of the faction's fights with a planning phase, and only those."""
    rows = []
    for _fight, (battle, att, role) in sorted(planned_fights(state, faction).items()):
        enemy_role = "defender" if role == "attacker" else "attacker"
        enemy = battle["defender"] if role == "attacker" else att["faction"]
        label = fight_label(state, battle, att)
        for squad in own_squads(battle, att, enemy_role):
            rows.append((label, faction_title(state, enemy), position_text(_squad_key(squad)),
                         units_text(squad["units"]), ROLE_NOTE[role]))
    return Table(SCOUTING_COLUMNS, tuple(rows))


def battles_table(state: JadeRoseState, faction: str) -> Table:
    """The faction's battle reports of the last turn, one line per report line."""
    rows: list[tuple[str]] = []
    for text in (state.get("reports") or {}).get(faction, []):
        if rows:
            rows.append(("",))
        rows += [(line,) for line in str(text).splitlines()]
    return Table(("Отчёт о боях",), tuple(rows))


def views(state: JadeRoseState, faction: str) -> dict[str, Table]:
    return {"manoeuvres": manoeuvres_table(state, faction), "scouting": scouting_table(state, faction),
            "battles": battles_table(state, faction)}


def public_views(state: JadeRoseState) -> dict[str, Table]:
    """No extra public tables: the chronicle entries the resolution appends are the public record."""
    return {}


def gm_views(state: JadeRoseState) -> dict[str, Table]:
    """Every pending battle with both sides' full deployment in its columns; every report of the last turn
    in «Отчёты о боях», one line a row (a report's lines are as wide as the page, not a column)."""
    rows: list[tuple[str, ...]] = []
    for battle in state.get("battles") or ():
        city = state["cities"][battle["city"]]["name"]
        for squad in battle["defence"]["squads"]:
            rows.append((f"{city} — оборона", city, "защитник", faction_title(state, battle["defender"]),
                         position_text(_squad_key(squad)), units_text(squad["units"]),
                         f"гарнизон: {units_text(squad.get('garrison', {}))}"))
        for att in battle["attackers"]:
            plan = "с планированием" if att["needs_planning"] else "без планирования"
            for squad in att["squads"]:
                title = fight_title(state, battle["city"], att["fight"])
                rows.append((title, city, "атакующий", f"{faction_title(state, att['faction'])}, армия "
                             f"«{att['army']}»", position_text(_squad_key(squad)), units_text(squad["units"]),
                             f"{CAPTURE_WORDS.get(att['capture'], att['capture'])}; {plan}"))
    reports: list[tuple[str, ...]] = []
    for text in (state.get("reports") or {}).get("gm", []):
        if reports:
            reports.append(("",))
        reports += [(line,) for line in str(text).splitlines()]
    return {"gm_battles": Table(("Бой", "Город", "Сторона", "Фракция", "Позиция", "Состав", "Примечание"),
                                tuple(rows)),
            "gm_reports": Table(("Отчёт о боях",), tuple(reports))}
