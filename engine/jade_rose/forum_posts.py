"""The Jade Rose forum posts of a stage (the `forum_posts` capability): the public chronicle, one full
report per fight (war/posts.py, kept in the state by the resolution), and each faction's cities post in
the rule book's template «Города:» (L348–363)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.free_text import plain
from engine.jade_rose import holdings, income, views
from engine.jade_rose.data import load_data
from engine.jade_rose.state_types import BattleEvent, CaptureEvent, JadeRoseState, WarEvent, jade_rose_state
from engine.jade_rose.war.captures import fate_text
from engine.ruleset import ForumPost, StageResult

ROLE_WIN = {"attacker": "атака удалась", "defender": "атака отбита"}


def strength_words(n: int) -> str:
    """Forces in broad strokes: the public learns the scale of an army, not its count."""
    if n <= 5:
        return "горстка воинов"
    if n <= 20:
        return "небольшой отряд"
    if n <= 60:
        return "армия"
    return "огромная армия"


def _name(state: JadeRoseState, fid: str | None) -> str:
    return plain(state["factions"][fid]["name"]) if fid in state["factions"] else "никто"


def _new_entries(before: Sequence[Mapping[str, Any]], after: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return list(after[len(before):]) if list(after[:len(before)]) == list(before) else list(after)


def _battle_line(state: JadeRoseState, event: BattleEvent, captured: CaptureEvent | None) -> str:
    city = plain(state["cities"][event["city"]]["name"])
    a, d = event["attacker"], event["defender"]
    size, deaths = event.get("army_size", {}), event.get("deaths", {})
    forces = f"атака — {_name(state, a)} ({strength_words(int(size.get(a, 0)))}), оборона — {_name(state, d)} " \
             f"({strength_words(int(size.get(d, 0)))})"
    lost = f"потери: у атаки {sum(deaths.get(a, {}).values())}, у обороны {sum(deaths.get(d, {}).values())}"
    fate = f"; {plain(fate_text(captured, state))}" if captured is not None else ""
    return f"[b]{city}[/b]: {forces} — {ROLE_WIN[event['winner']]}, {lost}{fate}."


def chronicle_post(before: Mapping[str, Any], result: StageResult) -> ForumPost:
    state = jade_rose_state(result.state)
    turn, stage = int(before["turn"]), str(before["stage"])
    lines = [f"[b]Война Нефритовой Розы — ход {turn}, {views.STAGE_NAMES.get(stage, stage)}[/b]",
             f"Эпоха: {views.ERA_NAMES.get(str(state.get('era')), str(state.get('era')))}.", ""]
    captures: dict[str, CaptureEvent] = {}
    battles: list[BattleEvent] = []
    for e in cast(list[WarEvent], list(result.events)):
        if e["kind"] == "capture":
            captures[e["city"]] = e
        elif e["kind"] == "battle":
            battles.append(e)
    if battles:
        lines += ["[u]Бои[/u]", "[list]"]
        lines += [f"[*]{_battle_line(state, e, captures.pop(e['city'], None) if e['winner'] == 'attacker' else None)}"
                  for e in battles]
        lines += ["[/list]", ""]
    entries = [e for e in _new_entries(before.get("chronicle", []), state.get("chronicle", []))
               if e.get("kind") not in ("Бой",)]
    if entries:
        lines += ["[u]Хроника[/u]", "[list]", *(f"[*]{plain(e['kind'])}: {plain(e['text'])}" for e in entries),
                  "[/list]", ""]
    pending = state.get("battles") or []
    if pending:
        lines += ["[u]Назначены бои[/u]", "[list]"]
        for b in pending:
            attackers = ", ".join(dict.fromkeys(_name(state, a["faction"]) for a in b["attackers"]))
            lines.append(f"[*]{plain(state['cities'][b['city']]['name'])}: атака — {attackers}, "
                         f"оборона — {_name(state, b.get('defender'))}.")
        lines += ["[/list]", ""]
    if not (battles or entries or pending):
        lines += ["Этап прошёл спокойно: ни боёв, ни событий.", ""]
    return ForumPost("chronicle", f"Ход {turn}: хроника", "\n".join(lines).rstrip() + "\n")


def cities_post(state: JadeRoseState, faction: str) -> ForumPost:
    """The faction's cities in the template «Города:»: name (level) (size), income, buildings, totals."""
    data = load_data()
    lines = ["Города:"]
    by_city: dict[str, int] = {}
    for line in income.income_lines(state, faction):
        if line.get("resource") == "gold" and line.get("city"):
            by_city[line["city"]] = by_city.get(line["city"], 0) + int(line["amount"])
    for cid in holdings.own_cities(state, faction):
        city = state["cities"][cid]
        size = "[u](Большой)[/u]" if city.get("large") else "(Малый)"
        level = "руины" if city.get("ruins") else f"{city.get('level', 1)} ур."
        built = [data.buildings[b].name if b in data.buildings else b for b in city.get("buildings", [])]
        lines += [f"[b]{plain(city['name'])}[/b] ({level}) {size}", f"Доход: {by_city.get(cid, 0)}з",
                  ("Постройки: " if len(built) != 1 else "Постройка: ") + (", ".join(built) or "нет")]
    lines += ["---------------", f"СУММАРНЫЙ ДОХОД В ХОД: {income.faction_income(state, faction)}з",
              f"СОДЕРЖАНИЕ АРМИИ: {income.upkeep_total(state, faction)}з"]
    return ForumPost("cities", f"{_name(state, faction)}: города", "\n".join(lines) + "\n",
                     faction=faction)


class JadeRosePosts:
    def posts(self, before: Mapping[str, Any], result: StageResult) -> tuple[ForumPost, ...]:
        state = jade_rose_state(result.state)
        known = {p["id"] for p in before.get("battle_posts", []) or []}
        fights = [p for p in state.get("battle_posts", []) or [] if p["id"] not in known]
        out = [chronicle_post(before, result)]
        out += [ForumPost(p["id"].replace("/", "-"), p["title"], p["bbcode"], battle=p["id"]) for p in fights]
        out += [cities_post(state, fid) for fid in holdings.active_factions(state)]
        return tuple(out)
