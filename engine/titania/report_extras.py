"""The Russian `--report` lines for SCHEMA_EXTENSIONS.md: spells, revealed resources, events, Keeper
quests and rewards (display names from the data files, never ids)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.titania.data import TitaniaData
from engine.titania.reasons import OUTCOMES, explain

DEPOSITS_RU = {"gold": "золото", "wood": "лес", "fertile": "плодородные земли", "stone": "камень", "mana": "места силы"}
Namer = Callable[[object], str]


def _verdict(item: Mapping[str, Any]) -> str:
    return f"{OUTCOMES.get(str(item.get('outcome')), '?')}: {explain(item.get('reason'))}"


def knowledge(data: TitaniaData, item: Mapping[str, Any]) -> str:
    if item.get("technology") in data.technologies:
        return f"технология «{data.technologies[item['technology']].name}»"
    if item.get("spell") in data.spells:
        return f"заклинание «{data.spells[item['spell']].name}»"
    return ""


def spell_lines(out: Mapping[str, Any], faction: Namer, data: TitaniaData) -> list[str]:
    lines: list[str] = []
    for f, casts in out.get("spells", {}).items():
        for c in casts:
            spell = data.spells.get(str(c.get("spell")))
            name = f"«{spell.name}»" if spell is not None else "неизвестное заклинание"
            lines.append(f"  {faction(f)}: {name} — {_verdict(c)}.")
    return (["", "Заклинания (до начала ходов):", *lines]) if lines else []


def reward_line(r: Mapping[str, Any], faction: Namer, province: Namer, data: TitaniaData) -> str:
    extra = knowledge(data, r)
    what = f"золото {r.get('gold', 0)}, дерево {r.get('wood', 0)}" + (f", {extra}" if extra else "")
    if r.get("kind") == "quest":
        return f"Награда: {faction(r['faction'])} за квест Хранителя {faction(r.get('keeper'))}: {what}."
    return f"Награда: {faction(r['faction'])} за Босса в {province(r.get('province'))}: {what}."


def world_lines(out: Mapping[str, Any], faction: Namer, province: Namer, data: TitaniaData) -> list[str]:
    lines: list[str] = []
    for p, info in out.get("revealed", {}).items():
        found = ", ".join(DEPOSITS_RU.get(d, d) for d in info["deposits"])
        shrine = ", Святилище Древних" if info["shrine"] else ""
        lines.append(f"Разведано: {province(p)} — {found}{shrine} (войско {faction(info['by'])}).")
    for e in out.get("events", []):
        kind = e.get("kind")
        if kind == "event_started":
            size = "Крупное" if e["class"] == "major" else "Малое"
            lines.append(f"{size} событие «{e['name']}»: {e['task']}")
        elif kind == "event_won":
            lines.append(f"Событие «{e['name']}»: победила {faction(e['faction'])}; остальные получают дебаф.")
        elif kind == "event_solved":
            lines.append(f"Событие «{e['name']}»: задача решена сообща, дебафа не будет.")
        elif kind == "event_failed":
            lines.append(f"Событие «{e['name']}»: задача не решена, дебаф на всех.")
        elif kind == "event_ended":
            lines.append(f"Событие «{e['name']}» закончилось.")
        elif kind == "quest_issued":
            lines.append(f"Хранитель {faction(e['keeper'])} выдаёт квест «{e['name']}».")
        elif kind == "item_found":
            lines.append(f"{faction(e['faction'])} находит предмет «{e['name']}».")
        elif kind == "quest_done":
            lines.append(f"{faction(e['faction'])} выполняет квест Хранителя {faction(e['keeper'])}.")
    return lines
