"""The Russian `--report`: order by order and battle by battle, with totals and the deciding rule.

Provinces and factions appear by their display names, never by their ids; a quoted name never follows a
preposition bare («в провинции «Логово Великана»»); rules are cited by the rule book's sections and points
(engine.titania.rulebook).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.losses import attacker_loss, defender_losses
from engine.titania.outcome import Adjudication
from engine.titania.races import RACES
from engine.titania.reasons import OUTCOMES, explain
from engine.titania.report_extras import reward_line, spell_lines, world_lines
from engine.titania.rulebook import see
from engine.titania.situation import Situation

BUILDINGS = {"mine": "рудник", "sawmill": "лесопилка", "farm": "ферма", "quarry": "каменоломня",
             "tower": "чародейская башня", "port": "порт", "fort": "укрепление", "market": "рынок"}
RESOURCES_RU = {"gold": "золото", "wood": "дерево", "influence": "влияние", "stone": "камень", "mana": "мана"}
ORDER_TYPES = {"hold": "стоять", "move": "идти / атаковать", "support": "поддержать", "split": "разделить"}
PLANNING_KINDS = {"build": "построить", "hire": "нанять / пополнить", "skaven_free": "Нашествие крыс",
                  "caravan": "караван", "research": "изучить технологию", "learn": "изучить заклинание",
                  "contribute": "вклад в задачу события"}
RESULTS = {"attacker": "победил нападающий", "defender": "победила оборона", "draw": "ничья"}
ADJUSTED = {"grove": "Хранители рощи: ничья на земле лесных эльфов — победа обороны",
            "protection": "Защита предков: первое поражение засчитано как победа",
            "nimbleness": "Проворство: проигравшая атака без потерь"}
KINDS = {"army": "против войск", "natives": "против туземцев", "keeper": "против Хранителей", "boss": "против Босса"}


class _Names:
    def __init__(self, sit: Situation) -> None:
        self.provinces = {p.id: p.name for p in sit.map.provinces.values()}
        self.factions = {f.id: f.name or f.id for f in sit.factions}
        self.races = {f.id: RACES[f.race].name for f in sit.factions}
        self.race_ids = {f.id: f.race for f in sit.factions}

    def p(self, pid: object) -> str:
        return f"«{self.provinces.get(str(pid), '?')}»" if pid is not None else "—"

    def f(self, fid: object) -> str:
        if fid == "natives":
            return "туземцы"
        return self.factions.get(str(fid), "неизвестная фракция") if fid is not None else "неизвестная фракция"

    def owner(self, fid: object) -> str:
        return "ничья" if fid is None else self.f(fid)


def _verdict(item: Mapping[str, Any], fallen: bool = False) -> str:
    return f"{OUTCOMES.get(str(item.get('outcome')), '?')}: {explain(item.get('reason'), fallen)}"


def _supports(n: _Names, sups: list[Mapping[str, Any]]) -> str:
    if not sups:
        return "без подмоги"
    return "подмога: " + ", ".join(f"{n.f(s['faction'])} из провинции {n.p(s['from'])} +{s['value']}"
                                   for s in sups)


def _battle(n: _Names, b: Mapping[str, Any], fallen: bool = False) -> list[str]:
    a = b["attacker"]
    head = f"Бой {b['n']} в провинции {n.p(b['province'])} ({KINDS.get(b['kind'], b['kind'])}):"
    if b["kind"] == "boss":
        d = b["damage"]
        end = "Босс повержен" if b["result"] == "attacker" else "Босс выжил"
        return [head, f"  нападает {n.f(a['faction'])} из провинции {n.p(a['from'])}, сила {a['strength']}; подмога "
                      "в бою с Боссом невозможна.",
                f"  урон Боссу {d['to_boss']}, урон нападающему {d['to_attacker']} (потери {attacker_loss(b)}); "
                f"{end}{', войско нападавших погибло' if fallen else ''} ({see('bosses')})."]
    d = b["defender"]
    defenders = ", ".join(f"{n.f(x['faction'])} {x['strength']}" for x in d["armies"])
    lines = [head,
             f"  нападает {n.f(a['faction'])} из провинции {n.p(a['from'])}: сила {a['strength']}, "
             f"{_supports(n, a['supports'])}, модификаторы {a['modifiers']:+d}, итого {a['total']};",
             f"  обороняются {defenders}: {_supports(n, d['supports'])}, модификаторы {d['modifiers']:+d}, "
             f"итого {d['total']}.",
             f"  Итог: {RESULTS[b['result']]} ({see('A4.1' if b['result'] == 'draw' else 'A2.1')})."]
    if "adjusted" in b:
        lines.append(f"  {ADJUSTED.get(b['adjusted'], b['adjusted'])}.")
    dmg = b["damage"]
    why = (f"половина силы, {see('A4.1')}" if b["result"] == "draw"
           else f"урон равен собственной силе, {see('A2.1')}")
    each = defender_losses(b, n.race_ids)
    allies = (" (" + ", ".join(f"{n.f(x['faction'])} {k}" for x, k in zip(d["armies"], each, strict=True)) + ")"
              if len(each) > 1 else "")
    dealt = f"; нанесённый урон: нападающему {dmg['attacker']}, обороне {dmg['defender']}" \
        if (dmg["attacker"], dmg["defender"]) != (attacker_loss(b), sum(each)) else ""
    lines.append(f"  Потери: нападающий {attacker_loss(b)}, оборона {sum(each)}{allies} ({why}; не больше силы "
                 f"войска{dealt}); подмога урона не несёт ({see('A3.1')}).")
    lines.append(f"  Разрушено построек: {b['buildings_lost']} ({see('C7.2')}); "
                 f"владелец после боя: {n.owner(b['owner_after'])}.")
    return lines


def _order(n: _Names, o: Mapping[str, Any], fallen: frozenset[tuple[int, int | None]] = frozenset()) -> str:
    kind = ORDER_TYPES.get(str(o.get("type")), "неизвестный приказ")
    target = f" → {n.p(o['target'])}" if o.get("target") is not None else ""
    text = (f"№{o['index'] + 1} {n.f(o.get('faction'))}, войско из провинции {n.p(o.get('army'))}: {kind}{target} — "
            f"{_verdict(o, (o['index'], None) in fallen)}")
    if o.get("trimmed"):
        text += f"; сверх лимита потеряна сила {o['trimmed']} ({see('A7.1, A8.1')})"
    if o.get("trap_damage"):
        text += f"; гоблинские ловушки: урон {o['trap_damage']}"
    if "followup" in o:
        fu = o["followup"]
        text += f"; Вааагх! на провинцию {n.p(fu['target'])}: {_verdict(fu)}"
    lines = [text + "."]
    for i, part in enumerate(o.get("parts", []), 1):
        ptarget = f" → {n.p(part['target'])}" if part.get("target") else ""
        lines.append(f"    часть {i} (сила {part['strength']}): {ORDER_TYPES.get(part['type'], '?')}{ptarget} — "
                     f"{_verdict(part, (o['index'], i - 1) in fallen)}.")
    return "\n".join(lines)


def render(adj: Adjudication, seed: int | str = 0) -> str:
    """The whole report as text (Russian)."""
    if adj.output is None or adj.situation is None:
        return "Файл не принят:\n" + "\n".join(f"  • {p}" for p in adj.problems)
    out, n = adj.output, _Names(adj.situation)
    lines = [f"Титания: разбор хода (зерно {seed})", "",
             f"Очерёдность ходов (по Могуществу, орки первыми при равенстве, иначе кубик; {see('C1.2')}):"]
    for i, f in enumerate(out["turn_order"], 1):
        lines.append(f"  {i}. {n.f(f)} ({n.races[f]}), Могущество {out['might'][f]}")
    if "planning" in out:
        lines += ["", "Планирование:"]
        for o in out["planning"]["orders"]:
            lines.append(f"  №{o['index'] + 1} {n.f(o.get('faction'))}: "
                         f"{PLANNING_KINDS.get(str(o.get('kind')), 'неизвестное действие')} — {_verdict(o)}.")
    if out["abilities"]:
        lines += ["", "Расовые способности (до начала ходов):"]
        for f, a in out["abilities"].items():
            race = adj.situation.faction(f).race if f in n.factions else None
            name = RACES[race].ability if race else "?"
            fired = "; сработала" if a.get("fired") else ""
            lines.append(f"  {n.f(f)}: «{name}» — {_verdict(a)}{fired}.")
    lines += spell_lines(out, n.f, adj.situation.ext.catalog)
    if out["might_allocation"]:
        lines += ["", "Распределение Могущества:"]
        lines += [f"  {n.f(f)}: {_verdict(a)}." for f, a in out["might_allocation"].items()]
    lines += ["", "Приказы:"]
    lines += ["  " + _order(n, o, adj.fallen_orders) for o in out["orders"]] or ["  нет приказов."]
    lines += ["", "Бои:"]
    for b in out["battles"]:
        lines += ["  " + line for line in _battle(n, b, b["n"] in adj.fallen)]
    if not out["battles"]:
        lines.append("  боёв не было.")
    lines += ["", "Войска после хода:"]
    lines += [f"  {n.f(a['faction'])}: {n.p(a['province'])}, сила {a['strength']}" for a in out["armies"]]
    lines += [f"  туземцы: {n.p(p)}, сила {s}" for p, s in out["natives"].items()]
    lines += ["", "Провинции после хода:"]
    for pid, info in out["provinces"].items():
        if adj.situation.map.provinces[pid].sea:
            continue
        blds = ", ".join(BUILDINGS.get(b, b) for b in info["building_list"]) or "нет построек"
        lines.append(f"  {n.p(pid)}: владелец {n.owner(info['owner'])}; {blds}")
    for pid, boss in out["bosses"].items():
        lines.append(f"  Босс в провинции {n.p(pid)}: здоровье {boss['health']}")
    lines += ["", "Фракции после хода (несгоревшее влияние обнулено):"]
    for f, info in out["factions"].items():
        res = ", ".join(f"{RESOURCES_RU[r]} {v}" for r, v in info["resources"].items())
        lines.append(f"  {n.f(f)}: {res}; пища {info['food']}, отрядов {info['squads']}, "
                     f"Могущество на следующий ход {info['might_next']}")
    lines += [reward_line(r, n.f, n.p, adj.situation.ext.catalog) for r in out["rewards"]]
    lines += world_lines(out, n.f, n.p, adj.situation.ext.catalog)
    for p, f in out["protected_next"].items():
        lines.append(f"Дикий набег: {n.p(p)} нельзя атаковать в следующем Походе (кроме фракции «{n.f(f)}»).")
    for p in out["stolen_next"]:
        lines.append(f"Воровство припасов: в провинции {n.p(p)} нельзя нанимать в следующем Планировании.")
    return "\n".join(lines) + "\n"
