"""Forum BBCode of one fight, in the style of the rule book's own post template «РАЗМЕЩЕНИЕ АРМИИ В БОЮ»
(L337–346): per flank in bold, per line underlined, the squad and its manoeuvre in brackets; then the
course of the battle folded in a spoiler, the outcome and the losses."""
from __future__ import annotations

from collections.abc import Mapping

from engine.free_text import plain
from engine.jade_rose.battle.model import Battle, Position, SideSetup
from engine.jade_rose.battle.report import render_report
from engine.jade_rose.battle.result import BattleResult
from engine.jade_rose.battle.texts import FLANK_ADJ, FLANK_GEN, LINE_NOM, MANOEUVRE_NOM, ROLE_NOM
from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import BattlePost, JadeRoseState

FLANKS = ("right", "center", "left")          # the template's order
LINES = ("vanguard", "rearguard")
LINE_GEN = {"vanguard": "авангарда", "rearguard": "арьергарда"}
AIMED = {"charge": "на", "change_position": "на"}   # the rest name their target in the genitive


def units_text(units: tuple[tuple[str, int], ...]) -> str:
    data = load_data()
    return ", ".join(f"{data.units[k].name if k in data.units else k} ×{n}" for k, n in units if n) or "—"


def _where(kind: str, target: Position) -> str:
    if kind in AIMED:
        return f"{AIMED[kind]} {FLANK_ADJ[target.flank]} {LINE_NOM[target.line]}"
    return f"{FLANK_GEN[target.flank]} {LINE_GEN[target.line]}"


def manoeuvre_text(kind: str, target: Position | None, free: Position | None) -> str:
    text = MANOEUVRE_NOM.get(kind, kind)
    if target is not None and kind not in ("none", "cover"):
        text += " " + _where(kind, target)
    if free is not None:
        text += f", затем бесплатно на {FLANK_ADJ[free.flank]} {LINE_NOM[free.line]}"
    return text


def deployment(side: SideSetup) -> list[str]:
    """The side's squads in the template's form, flank by flank."""
    out: list[str] = []
    for flank in FLANKS:
        squads = [s for s in side.squads if s.position.flank == flank]
        if not squads:
            continue
        out.append(f"[b]{FLANK_ADJ[flank].capitalize()} фланг:[/b]")
        for line in LINES:
            for s in (s for s in squads if s.position.line == line):
                m = s.manoeuvre
                note = f" (манёвр: {manoeuvre_text(m.kind, m.target, m.free_move)})" if m.kind != "none" else ""
                garrison = " — гарнизон" if s.garrison else ""
                out.append(f"[u]{LINE_NOM[line].capitalize()}[/u] - {units_text(s.units)}{garrison}{note}")
    return out or ["—"]


def fight_post(state: JadeRoseState, city: str, fight: str, battle: Battle, result: BattleResult,
               factions: Mapping[str, str | None], labels: Mapping[str, str]) -> BattlePost:
    """{"id", "city", "title", "bbcode"} of one fight (kept in the state for the turn's forum posts)."""
    name = str(state["cities"][city]["name"])
    title = f"Бой за город {name} (ход {state['turn']})"
    lines = [f"[b][u]{plain(title)}[/u][/b]", ""]
    for role, side in (("attacker", battle.attacker), ("defender", battle.defender)):
        fid = factions[role]
        who = state["factions"][fid]["name"] if fid in state["factions"] else "никто"
        lines.append(f"[b]{ROLE_NOM[role].capitalize()}: {plain(who)}[/b] ({plain(labels[role])})")
        lines += deployment(side)
        lines.append("")
    lines += ["[spoiler=Ход боя]", render_report(result, bbcode=True).rstrip(), "[/spoiler]"]
    winner = factions[result.winner]
    losses = "; ".join(f"{ROLE_NOM[r]} — {units_text(result.side(r).losses) if result.side(r).losses else 'нет'}"
                       for r in ("attacker", "defender"))
    lines += ["", f"[b]Итог:[/b] победил {ROLE_NOM[result.winner]} "
                  f"({plain(state['factions'][winner]['name']) if winner in state['factions'] else 'никто'}). "
                  f"Потери: {losses}."]
    return {"id": fight, "city": city, "title": title, "bbcode": "\n".join(lines) + "\n"}
