"""Russian texts of the war: full battle reports (participants and GM) and public chronicle lines."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NotRequired, TypedDict

from engine.jade_rose import battle as battle_pkg
from engine.jade_rose.battle import battle_kit
from engine.jade_rose.battle.result import BattleResult, SquadOutcome
from engine.jade_rose.battle.texts import FLANK_ADJ, PHASE_NOM, ROLE_NOM
from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import JadeRoseState, SideModifiers, Squad, Units
from engine.jade_rose.war.words import pos_key, position_text
from engine.russian import after, agree

FIGHT_END = {"attacker": "верх взял атакующий", "defender": "верх взял защитник", "both_dead": "оба отряда погибли",
             "timeout": "лимит раундов — защитник держится"}


class FightSide(TypedDict):
    """One side of a fight as its report tells it (war/resolution.py gives one per role)."""

    faction: str
    label: str
    squads: list[Squad]
    modifiers: SideModifiers
    runes: int
    deaths: Units
    army_deaths: Units
    recovered: Units
    squad_losses: tuple[SquadOutcome, ...]
    army_size: int
    converted: NotRequired[int]         # jade warriors the plague raised from the enemy's dead


def units_text(units: Mapping[str, int] | tuple[tuple[str, int], ...]) -> str:
    items = units.items() if isinstance(units, Mapping) else units
    data = load_data()
    return ", ".join(f"{data.units[k].name if k in data.units else k} ×{n}" for k, n in items if n) or "—"


def faction_title(state: JadeRoseState, fid: str | None) -> str:
    if not fid:
        return "никто"
    return state["factions"][fid]["name"] if fid in state["factions"] else fid


def deployment_lines(squads: list[Squad]) -> list[str]:
    return [f"  {position_text(pos_key(s['flank'], s['line']))}: {units_text(s['units'])}" for s in squads]


def modifiers_text(mods: SideModifiers, runes: int) -> str:
    parts: list[str] = []
    if mods.get("grudges"):
        pct = battle_kit()[1].grudge_outgoing_pct * mods["grudges"]
        parts.append(f"обиды {mods['grudges']} (+{pct} % к урону)")
    if runes:
        parts.append(f"потрачено рун: {runes}")
    if (roads := mods.get("forge_distance")) is not None:
        parts.append(f"до Великой Кузни {agree(roads, 'дорога')}")
    if mods.get("plague"):
        parts.append("храм нефритовой чумы")
    return "; ".join(parts)


def body(result: BattleResult) -> str:
    """The battle package's full report when it has one, else a plain account of the fights."""
    render = getattr(battle_pkg, "render_report", None)
    if render is not None:
        try:
            return str(render(result))
        except Exception:  # noqa: BLE001 - a report must never stop the turn; fall back to the plain one
            pass
    lines = [f"Примечание: {w}" for w in result.warnings]
    for shot in result.bombards:
        lines.append(f"Обстрел ({ROLE_NOM[shot.role]}): {shot.source} → {shot.target}: {shot.shots} выстр., "
                     f"урон {shot.damage}, убиты: {units_text(shot.kills)}")
    for f in result.fights:
        flank = f", {FLANK_ADJ.get(f.flank, f.flank)} фланг" if f.flank in FLANK_ADJ else ""
        won = FIGHT_END.get(f.winner, f.winner)
        lines.append(f"{PHASE_NOM.get(f.phase, f.phase)}{flank}: {f.squads[0]} ({f.start[0]}) "
                     f"{after('против', f.squads[1])} ({f.start[1]}) — {agree(f.round_count, 'раунд')}, {won}; потери: "
                     f"{units_text(f.losses[0])} / {units_text(f.losses[1])}")
    lines.append(f"Всего раундов: {result.rounds}" + (" (часть схваток остановлена по лимиту раундов)"
                                                      if result.timeout else ""))
    return "\n".join(lines)


def fight_report(state: JadeRoseState, city: str, fight: str, sides: Mapping[str, FightSide],
                 result: BattleResult) -> str:
    """The full report of one fight. `sides[role]`: faction, label, squads, modifiers, runes, deaths,
    army_deaths, recovered."""
    name = state["cities"][city]["name"]
    lines = [f"Бой за город {name} — ход {state['turn']}, атака {fight.rsplit('/', 1)[-1]}"]
    for role in ("attacker", "defender"):
        side = sides[role]
        lines.append(f"{ROLE_NOM[role].capitalize()}: {faction_title(state, side['faction'])} ({side['label']})")
        mods = modifiers_text(side["modifiers"], side["runes"])
        if mods:
            lines.append(f"  Модификаторы: {mods}")
        lines += deployment_lines(side["squads"])
    lines.append(body(result))
    winner = sides[result.winner]
    lines.append(f"Итог: победа стороны «{ROLE_NOM[result.winner]}» ({faction_title(state, winner['faction'])}).")
    for role in ("attacker", "defender"):
        side = sides[role]
        garrison = {k: n - side["army_deaths"].get(k, 0) for k, n in side["deaths"].items()}
        text = f"Потери ({faction_title(state, side['faction'])}): {units_text(side['deaths'])}"
        if any(garrison.values()):
            text += f" (из них гарнизон: {units_text(garrison)}, гарнизон пополнится в начале хода)"
        if side["recovered"]:
            text += f"; вернулись в строй: {units_text(side['recovered'])}"
        if side.get("converted"):
            text += f"; храм нефритовой чумы: +{agree(side['converted'], 'нефритовый воин')}"
        lines.append(text)
        lines += squad_loss_lines(side.get("squad_losses", ()))
    return "\n".join(lines)


def squad_loss_lines(squads: Iterable[SquadOutcome]) -> list[str]:
    """Per-squad losses of a side (`SquadOutcome`s), the garrison's part named where a squad mixes both."""
    out: list[str] = []
    for s in squads:
        if not s.losses:
            continue
        text = f"  {position_text(s.tag) if '/' in s.tag else s.position}: погибли {units_text(s.losses)}"
        army = s.army_losses()
        if s.garrison_losses and army:
            text += f" (гарнизон: {units_text(s.garrison_losses)}; армия: {units_text(army)})"
        out.append(text)
    return out


def chronicle_fight(state: JadeRoseState, city: str, attacker: str, defender: str | None, held_by_army: bool,
                    won: bool, fate: str) -> str:
    name = state["cities"][city]["name"]
    whom = (f"его удерживает армия фракции «{faction_title(state, defender)}»" if held_by_army
            else f"владелец — {faction_title(state, defender)}")
    outcome = fate if won else "атака отбита"
    return f"Город {name} ({whom}) атакован фракцией «{faction_title(state, attacker)}»: {outcome}."


def chronicle_unopposed(state: JadeRoseState, city: str, attacker: str, fate: str) -> str:
    return (f"{state['cities'][city]['name']}: защитников нет, фракция «{faction_title(state, attacker)}» "
            f"занимает его без боя — {fate}.")
