"""A battle result as a readable Russian report: plain text or forum BBCode."""
from __future__ import annotations

from engine.jade_rose.battle.result import BattleResult, Counts, FightSummary
from engine.jade_rose.battle.texts import (
    FACTION_NOM,
    FLANK_ADJ,
    PHASE_NOM,
    ROLE_GEN,
    ROLE_NOM,
    ROLE_PL,
)
from engine.russian import agree

ROLES = ("attacker", "defender")


class _Style:
    def __init__(self, bbcode: bool):
        self.bb = bbcode

    def bold(self, text: str) -> str:
        return f"[b]{text}[/b]" if self.bb else text

    def under(self, text: str) -> str:
        return f"[u]{text}[/u]" if self.bb else text

    def italic(self, text: str) -> str:
        return f"[i]{text}[/i]" if self.bb else text

    def items(self, lines: list[str], indent: str = "") -> list[str]:
        if not lines:
            return []
        if self.bb:
            return ["[list]"] + [f"[*]{line}" for line in lines] + ["[/list]"]
        return [f"{indent}- {line}" for line in lines]


def render_report(result: BattleResult, bbcode: bool = False) -> str:
    """The full battle report in Russian: set-up, bombards, charges, each flank, finale, outcome."""
    st = _Style(bbcode)
    names = dict(result.names)
    out: list[str] = []
    title = f"Бой за город «{result.city}»" if result.city else "Бой"
    out.append(st.bold(f"{title}: {_verdict(result)}"))
    out.append("")
    for role in ROLES:
        side = result.side(role)
        n = side.total("deployed")
        line = f"{st.under(ROLE_NOM[role].capitalize())} — {FACTION_NOM.get(side.faction, side.faction)}: "
        line += agree(n, "юнит") + (f" ({_counts(side.deployed, names)})" if n else "")
        if side.idle:
            line += f"; не участвуют (далеко от Кузни): {_counts(side.idle, names)}"
        out.append(line + ".")
    if result.warnings:
        out += ["", st.bold("Замечания")] + st.items(list(result.warnings))
    if result.bombards:
        out += ["", st.bold("Обстрел перед боем")]
        lines = []
        for b in result.bombards:
            kills = f", погибли: {_counts(b.kills, names)}" if b.kills else ", никто не погиб"
            lines.append(f"{b.source.capitalize()} → {b.target}: {b.shots} выстр., урон {b.damage}{kills}.")
        out += st.items(lines)
    charges = [f for f in result.fights if f.phase == "charge"]
    if charges:
        out += ["", st.bold(PHASE_NOM["charge"])]
        for f in charges:
            out += _fight(st, f, names)
    clash = [f for f in result.fights if f.phase == "clash"]
    out += ["", st.bold(PHASE_NOM["clash"])]
    if not clash:
        out.append("Ни на одном фланге противники не встретились.")
    for flank in ("left", "center", "right"):
        fights = [f for f in clash if f.flank == flank]
        if fights:
            out.append(st.under(f"{FLANK_ADJ[flank].capitalize()} фланг"))
            for f in fights:
                out += _fight(st, f, names)
    finale = [f for f in result.fights if f.phase == "finale"]
    out += ["", st.bold(PHASE_NOM["finale"])]
    if finale:
        flanked = [ROLE_NOM[r] for r in ROLES if result.side(r).flanked]
        if flanked:
            out.append(f"Штраф за фланкирование (+25% к получаемому урону, меньше выживших отрядов): {flanked[0]}.")
        out += _fight(st, finale[0], names)
    else:
        out.append("Не понадобилось: после столкновения у одной из сторон не осталось войск.")
    out += ["", st.bold("Итог")]
    lines = []
    for role in ROLES:
        side = result.side(role)
        parts = [f"потери — {_counts(side.losses, names) or 'нет'}"]
        if side.recovered:
            parts.append(f"вернулись в строй раненые — {_counts(side.recovered, names)}")
        parts.append(f"выжили — {_counts(side.survivors, names) or 'никто'}")
        if side.converted:
            parts.append(f"храм нефритовой чумы превратил павших врагов в нефритовых воинов: {side.converted}")
        lines.append(f"{ROLE_NOM[role].capitalize()}: " + "; ".join(parts) + ".")
    out += st.items(lines)
    out.append(f"Раундов в бою: {result.rounds} (всего во всех схватках: {result.rounds_all_fights}).")
    return "\n".join(out).rstrip() + "\n"


def _verdict(result: BattleResult) -> str:
    side = result.side(result.winner)
    faction = FACTION_NOM.get(side.faction, side.faction)
    alive = {r: result.side(r).total("survivors") - result.side(r).total("idle") for r in ROLES}
    if alive["attacker"] and alive["defender"]:
        return (f"бой не завершился за отведённые раунды — позиции удержал {ROLE_NOM['defender']} ({faction})")
    if not alive["attacker"] and not alive["defender"]:
        return f"обе стороны полегли — по правилам побеждает {ROLE_NOM[result.winner]} ({faction})"
    return f"победил {ROLE_NOM[result.winner]} ({faction})"


def _fight(st: _Style, f: FightSummary, names: dict[str, str]) -> list[str]:
    a, d = f.squads
    if f.phase == "finale":
        d = f"все выжившие {ROLE_PL['defender']}"
    head = f"{a.capitalize()} ({f.start[0]}) — {d} ({f.start[1]}): "   # a dash, not «против»: no case to decline
    head += f"{agree(f.round_count, 'раунд')}, "
    head += {"attacker": f"победа {ROLE_GEN['attacker']}", "defender": f"победа {ROLE_GEN['defender']}",
             "both_dead": "оба отряда уничтожены",
             "timeout": "предел раундов: обороняющийся отряд удержался"}[f.winner]
    losses = []
    for role, counts in zip(ROLES, f.losses, strict=True):
        if counts:
            losses.append(f"{ROLE_NOM[role]} — {_counts(counts, names)}")
    head += ". Потери: " + ("; ".join(losses) if losses else "нет") + "."
    rounds = [f"раунд {r.number}: урон {r.damage[0]} / {r.damage[1]}, погибли {r.deaths[0]} / {r.deaths[1]}, "
              f"в строю {r.alive[0]} / {r.alive[1]}" for r in f.rounds]
    if st.bb:
        return [head, st.italic("; ".join(rounds) + ".")]
    return [f"- {head}", "  " + "; ".join(rounds) + "."]


def _counts(counts: Counts, names: dict[str, str]) -> str:
    return ", ".join(f"{names.get(k, k)} ×{n}" for k, n in counts)
