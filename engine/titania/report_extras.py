"""The Russian `--report` lines for what SCHEMA_V2 adds: spells, revealed resources, events, Keeper quests and
rewards (display names from the catalog, never ids); also the Russian text of an event's task and a quest,
which the catalog does not carry (it holds only their mechanics)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.titania.catalog import Catalog
from engine.titania.reasons import OUTCOMES, explain

DEPOSITS_RU = {"gold": "золото", "wood": "лес", "fertile": "плодородные земли", "stone": "камень", "mana": "места силы"}
AMOUNT_RU = {"gold": "золота", "wood": "дерева", "influence": "влияния", "stone": "камня", "mana": "маны"}
Namer = Callable[[object], str]


def event_name(data: Catalog, event: object) -> str:
    d = data.events.get(str(event))
    return d.name if d is not None else str(event)


def task_text(data: Catalog, event: object) -> str:
    """The event's task in Russian, from its goal and class (SCHEMA_V2 §5)."""
    d = data.events.get(str(event))
    if d is None:
        return ""
    if d.goal.get("type") == "kill_boss":
        return ("задача — победить Босса" + (": первая фракция, сделавшая это, избежит дебафа, остальные его получат."
                                             if d.cls == "minor" else " сообща до конца события, иначе дебаф на всех."))
    amount = f"{d.goal.get('amount')} {AMOUNT_RU.get(str(d.goal.get('resource')), '')}"
    if d.cls == "minor":
        return f"первая фракция, передавшая {amount}, избежит дебафа; остальные его получат."
    return f"все фракции вместе должны собрать {amount} до конца события, иначе дебаф на всех."


def quest_text(data: Catalog, quest: Mapping[str, Any], province: Namer) -> str:
    """A Keeper quest record in Russian (SCHEMA_V2 §6)."""
    kind = quest.get("kind")
    if kind == "deliver":
        return f"передать {quest.get('amount')} {AMOUNT_RU.get(str(quest.get('resource')), '')} через Рынок"
    item = f"«{data.item_name(str(quest.get('item')))}»"
    if kind == "boss_item":
        return f"победить Босса в провинции {province(quest.get('province'))} и передать его предмет {item}"
    return f"найти предмет {item} в провинции {province(quest.get('province'))} и передать его"


def _verdict(item: Mapping[str, Any]) -> str:
    return f"{OUTCOMES.get(str(item.get('outcome')), '?')}: {explain(item.get('reason'))}"


def knowledge(data: Catalog, item: Mapping[str, Any]) -> str:
    if item.get("technology") in data.technologies:
        return f"технология «{data.technologies[item['technology']].name}»"
    if item.get("spell") in data.spells:
        return f"заклинание «{data.spells[item['spell']].name}»"
    return ""


def spell_lines(out: Mapping[str, Any], faction: Namer, data: Catalog) -> list[str]:
    lines: list[str] = []
    for f, casts in out.get("spells", {}).items():
        for c in casts:
            spell = data.spells.get(str(c.get("spell")))
            name = f"«{spell.name}»" if spell is not None else "неизвестное заклинание"
            lines.append(f"  {faction(f)}: {name} — {_verdict(c)}.")
    return (["", "Заклинания (до начала ходов):", *lines]) if lines else []


def reward_line(r: Mapping[str, Any], faction: Namer, province: Namer, data: Catalog) -> str:
    extra = knowledge(data, r)
    what = f"золото {r.get('gold', 0)}, дерево {r.get('wood', 0)}" + (f", {extra}" if extra else "")
    if r.get("kind") == "quest":
        return f"Награда: {faction(r['faction'])} — за квест Хранителя «{faction(r.get('keeper'))}»: {what}."
    return f"Награда: {faction(r['faction'])} — за Босса в провинции {province(r.get('province'))}: {what}."


def world_lines(out: Mapping[str, Any], faction: Namer, province: Namer, data: Catalog) -> list[str]:
    lines: list[str] = []
    for p, info in out.get("revealed", {}).items():
        found = ", ".join(DEPOSITS_RU.get(d, d) for d in info["deposits"])
        shrine = ", Святилище Древних" if info["shrine"] else ""
        lines.append(f"Разведано: {province(p)} — {found}{shrine} (разведала фракция «{faction(info['by'])}»).")
    for e in out.get("events", []):
        kind = e.get("kind")
        name = event_name(data, e.get("event"))
        if kind == "event_started":
            size = "Крупное" if e["class"] == "major" else "Малое"
            lines.append(f"{size} событие «{name}»: {task_text(data, e.get('event'))}")
        elif kind == "event_won":
            lines.append(f"Событие «{name}»: победитель — {faction(e['faction'])}; остальные получают дебаф.")
        elif kind == "event_solved":
            lines.append(f"Событие «{name}»: задача решена сообща, дебафа не будет.")
        elif kind == "event_failed":
            lines.append(f"Событие «{name}»: задача не решена, дебаф на всех.")
        elif kind == "event_ended":
            lines.append(f"Событие «{name}» закончилось.")
        elif kind == "quest_issued":
            quest = out.get("quests", {}).get(e.get("keeper"), {})
            lines.append(f"Хранитель «{faction(e['keeper'])}» выдаёт квест: {quest_text(data, quest, province)}.")
        elif kind == "item_found":
            lines.append(f"{faction(e['faction'])}: найден предмет «{data.item_name(str(e.get('item')))}».")
        elif kind == "quest_done":
            lines.append(f"{faction(e['faction'])}: квест Хранителя «{faction(e['keeper'])}» выполнен.")
        elif kind == "natives_placed":
            lines.append(f"Туземцы расселены: без туземцев {', '.join(province(p) for p in e['free']) or 'нет'}; "
                         + ", ".join(f"{province(p)} — {n}" for p, n in e["natives"].items()) + ".")
    return lines
