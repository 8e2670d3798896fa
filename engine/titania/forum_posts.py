"""The Titania forum posts of a turn (the `forum_posts` capability): the public chronicle — battles in
broad strokes (who, where, how large, totals, outcome, losses, the province's fate), Boss fights, events,
Keepers' quests, eliminations and victory, the standings — and one full report per battle: attacker and
defenders with their Strength, every support with its value, modifiers, totals, the rule that decided
(the reason catalogue, engine.titania.reasons, citing the rule book's sections: engine.titania.rulebook),
losses and what became of the province.

A name in quotes never follows a preposition bare (Russian would decline it): «в провинции «Логово
Великана»», «против фракции «Орда Гримгора»» (names.who_of). A Boss fight whose attacking army the Boss's
damage destroyed (the record's `attacker_fallen`, game_turn) says so, never that the army retreated.

Everything public here is what the public book already shows (T4-5: the chronicle, the standings of
views.standing_rows, the battles' totals and the Strength of the armies that fought); no faction's resources,
unseen troops or army total while the game runs. Battles come from the state's battle records of the turn; a loss
is never shown above what the army had (engine.titania.losses). Each faction also gets its own post: its
«Журнал» tab of the stage (views.journal).

Names and texts come from the game (a capital's name is typed by a player at the start, the GM writes the
rest): every one goes through `literal`, so a BBCode tag in it shows as text on the forum.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.free_text import plain
from engine.ruleset import ForumPost, StageResult
from engine.titania import names, views
from engine.titania.losses import attacker_loss, defender_losses, races_of
from engine.titania.reasons import explain
from engine.titania.report import ADJUSTED, KINDS, RESULTS
from engine.titania.rulebook import see
from engine.titania.setup import START
from engine.titania.state_types import BattleRecord, TitaniaState, titania_state
from engine.titania.views import RESULT_RU

BOSS_REASON = {"attacker": "boss_killed", "defender": "boss_survived"}
MODIFIER_SOURCES = "Могущество, технологии, расовые свойства"
literal = plain   # a name or text from the game as BBCode shows it literally (engine.free_text)


def pname(state: TitaniaState, pid: str) -> str:
    return literal(views.pname(state, pid))


def who(state: TitaniaState, fid: str | None) -> str:
    return literal(views.who(state, fid))


def who_of(state: TitaniaState, fid: str | None) -> str:
    return literal(names.who_of(state, fid))


def who_of_all(state: TitaniaState, fids: list[str]) -> str:
    return literal(names.who_of_all(state, fids))


def _boss(state: TitaniaState, pid: str) -> str:
    return literal(state["map"]["provinces"][pid].get("boss_name") or "Босс")


def losses_text(state: TitaniaState, b: Mapping[str, Any], attackers: str, defence: str) -> str:
    """«у нападающих 2, у обороны 3 (Альбион 2, Лотерн 1)»: what each side lost, never more than it had; allied
    defenders army by army."""
    d = b["defender"]
    each = defender_losses(b, races_of(state))
    out = f"{attackers} {attacker_loss(b)}, {defence} {sum(each)}"
    if len(each) > 1:
        out += " (" + ", ".join(f"{who(state, x['faction'])} {n}" for x, n in zip(d["armies"], each, strict=True)) + ")"
    return out


def deciding_rule(b: Mapping[str, Any]) -> str:
    """Why the battle ended as it did: the totals compared (the reason catalogue's rule), then the special
    rule that turned the result, if any (Ancestors' protection, the grove's ties, Nimbleness)."""
    a, d = b["attacker"]["total"], b["defender"]["total"]
    text = explain("won" if a > d else "lost" if a < d else "draw")
    if b.get("adjusted"):
        text += f"; но {ADJUSTED.get(str(b['adjusted']), str(b['adjusted']))}"
    return text


def strength_words(n: int) -> str:
    """Forces in broad strokes (Titania's Strength runs from 1 to the squad limit, 10 by default)."""
    if n <= 2:
        return "малый отряд"
    if n <= 5:
        return "отряд"
    if n <= 8:
        return "войско"
    return "большое войско"


def battle_id(b: Mapping[str, Any]) -> str:
    return f"{b['turn']}-{b['n']}"


def new_battles(before: TitaniaState, state: TitaniaState) -> list[BattleRecord]:
    """The battle records the resolution added (those of the turn that was open in `before`)."""
    known = {battle_id(b) for b in before.get("battles", []) if "turn" in b}
    return [b for b in state.get("battles", []) if b.get("turn") == before.get("turn") and battle_id(b) not in known]


def _new_entries(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return list(after[len(before):]) if list(after[:len(before)]) == list(before) else list(after)


def _q(state: TitaniaState, pid: str) -> str:
    return f"«{pname(state, pid)}»"


def _in(state: TitaniaState, pid: str) -> str:
    return f"в провинции «{pname(state, pid)}»"


def _from(state: TitaniaState, pid: str) -> str:
    return f"из провинции «{pname(state, pid)}»"


def _sides(state: TitaniaState, b: Mapping[str, Any]) -> str:
    """The defenders after «против» (genitive)."""
    return who_of_all(state, list(b["defender"]["factions"]))


def _fate(state: TitaniaState, b: Mapping[str, Any]) -> str:
    owner = b.get("owner_after")
    if b["result"] == "defender":
        return "провинция осталась за обороной"
    return "провинция теперь ничья" if owner is None else f"провинция теперь у {who_of(state, owner)}"


def boss_end(b: Mapping[str, Any], retreat: bool = False) -> str:
    """How a Boss fight ended: the Boss slain or alive, and the army's fate when the Boss destroyed it (or, with
    `retreat`, that the surviving army retreated)."""
    end = "Босс повержен" if b["result"] == "attacker" else "Босс жив"
    if b.get("attacker_fallen"):
        return end + ", войско нападавших погибло"
    return end + (", войско отступило" if retreat and b["result"] != "attacker" else "")


def chronicle_line(state: TitaniaState, b: Mapping[str, Any]) -> str:
    """One battle for the chronicle: who, where, how large, totals, outcome, losses, fate."""
    a = b["attacker"]
    place = _q(state, b["province"])
    if b["kind"] == "boss":
        d = b["damage"]
        return (f"[b]{place}[/b]: {who(state, a['faction'])} ({strength_words(a['strength'])}, сила {a['strength']}) "
                f"против Босса «{_boss(state, b['province'])}» — урон Боссу {d['to_boss']}, потери нападающих "
                f"{attacker_loss(b)}; {boss_end(b)}.")
    d = b["defender"]
    line = (f"[b]{place}[/b]: {who(state, a['faction'])} ({strength_words(a['strength'])}) против {_sides(state, b)} "
            f"({strength_words(d['strength'])}), итого {a['total']} : {d['total']} — {RESULT_RU[b['result']]}; "
            f"потери: {losses_text(state, b, 'у нападающих', 'у обороны')}; {_fate(state, b)}")
    if b.get("buildings_lost"):
        line += f", разрушено построек: {b['buildings_lost']}"
    return line + "."


def _supports(state: TitaniaState, sups: Sequence[Mapping[str, Any]]) -> list[str]:
    return [f"[*]{who(state, s['faction'])} {_from(state, s['from'])}: +{s['value']}" for s in sups]


def _side_block(state: TitaniaState, title: str, strength_line: str, side: Mapping[str, Any]) -> list[str]:
    lines = [f"[u]{title}[/u]", strength_line]
    sups = _supports(state, side.get("supports", []))
    lines += (["Подмога:", "[list]", *sups, "[/list]"] if sups else ["Подмога: нет."])
    sources = f" ({MODIFIER_SOURCES})" if side["modifiers"] else ""
    lines.append(f"Модификаторы: {side['modifiers']:+d}{sources}.")
    lines.append(f"[b]Итого: {side['total']}[/b]")
    return lines


def battle_report(state: TitaniaState, b: Mapping[str, Any]) -> str:
    """The full BBCode report of one battle."""
    a = b["attacker"]
    head = (f"[b]Бой {b['n']} хода {b['turn']} {_in(state, b['province'])}[/b] "
            f"({KINDS.get(b['kind'], b['kind'])})")
    lines = [head, ""]
    if b["kind"] == "boss":
        d = b["damage"]
        lines += [f"Нападает {who(state, a['faction'])} {_from(state, a['from'])}, сила {a['strength']}; "
                  f"Босс «{_boss(state, b['province'])}». Подмога в бою с Боссом невозможна.",
                  f"Урон Боссу: {d['to_boss']}; урон нападающим: {d['to_attacker']}, потери: {attacker_loss(b)}"
                  f"{' — всё войско' if attacker_loss(b) == a['strength'] else ''}.",
                  f"[b]Итог: {boss_end(b, retreat=True)}[/b] "
                  f"— {explain(BOSS_REASON[b['result']], bool(b.get('attacker_fallen')))}."]
        return "\n".join(lines) + "\n"
    d = b["defender"]
    defenders = who(state, d["armies"][0]["faction"]) if len(d["armies"]) == 1 else \
        ", ".join(f"{who(state, x['faction'])} {x['strength']}" for x in d["armies"])
    lines += _side_block(state, "Нападение", f"{who(state, a['faction'])} {_from(state, a['from'])}: "
                                             f"сила {a['strength']}.", a)
    lines.append("")
    lines += _side_block(state, "Оборона", f"{defenders}: сила {d['strength']}.", d)
    lines += ["", f"[b]Итог: {RESULTS[b['result']]}[/b] ({a['total']} : {d['total']}) — {deciding_rule(b)}."]
    loss_rule = (f"половина силы, {see('A4.1')}" if b["result"] == "draw"
                 else f"урон равен силе противника, {see('A2.1')}")
    detail = [f"Потери: {losses_text(state, b, 'нападающие', 'оборона')} ({loss_rule}; не больше силы войска); "
              f"подмога урона не несёт ({see('A3.1')}).",
              f"Разрушено построек: {b.get('buildings_lost', 0)} ({see('C7.2')}).",
              f"Владелец после боя: {who(state, b.get('owner_after')) if b.get('owner_after') else 'никто'}."]
    lines += ["", "[spoiler=Потери и судьба провинции]" + "\n".join(detail) + "[/spoiler]"]
    return "\n".join(lines) + "\n"


def _standings(state: TitaniaState) -> list[str]:
    """The public book's «Фракции» (views.standings), the same rows in the same order (T4-5): no army total
    while the game runs."""
    table = views.standings(state)
    col = {c: i for i, c in enumerate(table.columns)}
    rows = []
    for row in table.rows:
        figures = [f"провинций {row[col['Провинций']]}", f"Святилищ (Могущество) {row[col['Святилищ (Могущество)']]}"]
        figures += [f"{c[0].lower()}{c[1:]} {row[col[c]]}" for c in (views.HELD_COLUMN, views.STRENGTH_COLUMN)
                    if c in col]
        figures += [f"{c[0].lower()}{c[1:]} {literal(row[col[c]])}" for c in ("Союзники", "Война с")
                    if c in col and row[col[c]] != "—"]
        status = row[col["Статус"]]
        flag = "" if status == "в игре" else f" — {status}"
        rows.append(f"[*]{literal(row[0])} ({row[col['Раса']]}): {', '.join(figures)}{flag}")
    return ["[spoiler=Положение фракций]", "[list]", *rows, "[/list]", "[/spoiler]"]


def chronicle_post(before: TitaniaState, result: StageResult) -> ForumPost:
    state = titania_state(result.state)
    turn = int(before["turn"])
    title = "начало игры" if before.get("stage") == START else "Планирование и Поход"
    lines = [f"[b]Титания — ход {turn}: {title}[/b]", ""]
    order = (state.get("last") or {}).get("turn_order") or []
    if order:
        lines += ["Очерёдность Похода: " + " → ".join(who(state, f) for f in order) + ".", ""]
    battles = new_battles(before, state)
    fights = [b for b in battles if b["kind"] != "boss"]
    bosses = [b for b in battles if b["kind"] == "boss"]
    for title, group in (("Бои", fights), ("Бои с Боссами", bosses)):
        if group:
            lines += [f"[u]{title}[/u]", "[list]", *(f"[*]{chronicle_line(state, b)}" for b in group), "[/list]", ""]
    entries = [e for e in _new_entries(before.get("chronicle", []), state.get("chronicle", [])) if e["kind"] != "Бой"]
    if entries:
        lines += ["[u]События[/u]", "[list]", *(f"[*]{literal(e['text'])}" for e in entries), "[/list]", ""]
    if not (battles or entries):
        lines += ["Ход прошёл спокойно: ни боёв, ни событий.", ""]
    lines += _standings(state)
    return ForumPost("chronicle", f"Ход {turn}: хроника", "\n".join(lines).rstrip() + "\n")


def faction_post(before: TitaniaState, state: TitaniaState, fid: str) -> ForumPost:
    """The faction's own post of the stage: its «Журнал» tab (views.journal) as it stands after the stage, row by
    row, grouped by turn in the tab's order; the turns before this one folded in a spoiler."""
    turn = int(before["turn"])
    groups: dict[int, list[str]] = {}
    for t, entry in views.journal(state, fid).rows:
        groups.setdefault(int(t), []).append(f"[*]{literal(entry)}")

    def block(t: int, entries: list[str]) -> list[str]:
        return [f"[u]Ход {t}[/u]", "[list]", *entries, "[/list]"]

    name = views.who(state, fid)
    title = "начало игры" if before.get("stage") == START else f"ход {turn}"
    lines = [f"[b]{literal(name)}: журнал, {title}[/b]", ""]
    recent = [t for t in groups if t >= turn]
    for t in recent:
        lines += [*block(t, groups[t]), ""]
    earlier = [line for t, entries in groups.items() if t < turn for line in block(t, entries)]
    if earlier:
        lines.append("[spoiler=Прежние ходы]" + "\n".join(earlier) + "[/spoiler]")
    if not groups:
        lines.append("Записей нет.")
    return ForumPost("journal", f"{name}: журнал, {title}", "\n".join(lines).rstrip() + "\n", faction=fid)


class TitaniaPosts:
    """The chronicle first, then one full report per battle of the turn, then each faction's own post (its
    «Журнал»)."""

    def posts(self, before: Mapping[str, Any], result: StageResult) -> tuple[ForumPost, ...]:
        old, state = titania_state(before), titania_state(result.state)
        out = [chronicle_post(old, result)]
        for b in new_battles(old, state):
            title = f"Ход {b['turn']}, бой {b['n']}: {views.pname(state, b['province'])}"
            out.append(ForumPost(battle_id(b), title, battle_report(state, b), battle=battle_id(b)))
        playing = [fid for fid in state["factions"]
                   if not (before.get("factions") or {}).get(fid, {}).get("eliminated")]
        out += [faction_post(old, state, fid) for fid in playing]
        return tuple(out)
