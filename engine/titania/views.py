"""What each Titania book shows: per faction, the public book and the GM book.

One file, over 400 lines: every tab is built from the one fog-of-war reading below, kept in one place.

Fog of war (our reading of the rule book, which reveals resources «когда войско … подходит на смежную
дистанцию»): a faction sees every army, native squad and Boss standing in a province it owns or holds an
army in, or next to one; of the rest of the map only owners, Shrines and revealed deposits (the public
map). Other factions' resources (the `secret_fields`) appear only in their own book and the GM's.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.ruleset import Table
from engine.russian import agree
from engine.titania.book_orders import HOLD, MIGHT_ROW, PLAYER_BUILDINGS
from engine.titania.catalog import Catalog
from engine.titania.data import content_of, default_data
from engine.titania.losses import attacker_loss, defender_losses, races_of
from engine.titania.names import BUILDING_NAMES, DEPOSIT_NAMES, RESOURCE_NAMES, ability_name, buildings_text, race_name
from engine.titania.params import Params, default_params, override
from engine.titania.races import RACES
from engine.titania.reasons import OUTCOMES, explain
from engine.titania.rulebook import see
from engine.titania.setup import RESOURCE_KEYS, neighbours
from engine.titania.state_types import TitaniaState
from engine.titania.victory import end_text, held, marked, rank, rules, standing
from engine.titania.world import needs, produces

EFFECT_RU = {"max_strength": "макс. сила отряда", "hire": "найм в провинции", "replenish": "пополнение отряда",
             "food": "пища", "production": "производство", "battle_modifier": "сила в бою"}
RESULT_RU = {"attacker": "победа нападающих", "defender": "оборона устояла", "draw": "ничья"}
SPELL_TARGET_RU = {"own_army": "на своё войско", "enemy_army": "на чужое войско",
                   "own_province": "на свою провинцию", "none": "без цели"}
SPELL_RANGE_RU = {"adjacent": " в своей или соседней провинции", "any": " где угодно"}


def spell_text(spell: Any) -> str:
    """What a spell does, as the «Технологии» tab says it: its target, then each effect."""
    parts = []
    for e in spell.effects:
        if e.type == "battle_modifier":
            parts.append(f"сила в бою {e.value:+d} в этот Поход")
        elif e.type == "damage":
            parts.append(f"урон {e.value}, приказы войска отменены")
        elif e.type == "stop":
            parts.append("войско остановлено, его приказы отменены")
        elif e.type == "reinforce":
            parts.append(f"сила войска +{e.value} (не выше предела)")
        elif e.type == "gain":
            parts.append(f"вам +{e.value} {RESOURCE_NAMES.get(e.resource, e.resource)}")
        elif e.type == "ward":
            parts.append("первое вражеское войско, что нападёт или войдёт, повернёт назад")
        else:
            parts.append(EFFECT_RU.get(e.type, e.type))
    where = SPELL_TARGET_RU.get(spell.target, spell.target)
    if spell.target == "enemy_army":
        where += SPELL_RANGE_RU.get(str(spell.range), "")
    return f"{where}: " + "; ".join(parts)


def pname(state: TitaniaState, pid: str) -> str:
    return str(state["map"]["provinces"][pid]["name"])


def capital_name(state: TitaniaState, faction: Mapping[str, Any]) -> str:
    """The faction's capital by name («нет»: a game from a situation may give a faction none)."""
    return pname(state, faction["capital"]) if faction.get("capital") else "нет"


def who(state: TitaniaState, fid: str | None) -> str:
    if fid is None:
        return "—"
    if fid == "natives":
        return "туземцы"
    if fid in state["factions"]:
        return str(state["factions"][fid]["name"])
    keeper = state.get("keepers", {}).get(fid)
    return f"Хранители «{keeper['name']}»" if keeper else fid


def kind_text(info: Mapping[str, Any]) -> str:
    parts = ["море" if info["sea"] else "остров" if info["island"] else "суша"]
    if info.get("capital"):
        parts.append("столица")
    if info.get("shrine"):
        parts.append("Святилище Древних")
    if info.get("boss"):
        parts.append("логово Босса")
    if info.get("keeper"):
        parts.append("земля Хранителей")
    return ", ".join(parts)


def deposits_text(info: Mapping[str, Any]) -> str:
    if info["sea"]:
        return "—"
    if info["deposits"] is None:
        return "не разведано"
    return ", ".join(DEPOSIT_NAMES.get(d, d) for d in info["deposits"]) or "ничего"


def sight(state: TitaniaState, fid: str) -> set[str]:
    """Provinces whose troops the faction sees: own provinces, where its armies stand, and their neighbours."""
    nb = neighbours(state)
    base = {p for p, o in state["owners"].items() if o == fid}
    base |= {a["province"] for a in state["armies"] if a["faction"] == fid}
    return base | {n for p in base for n in nb[p]}


def troops_text(state: TitaniaState, pid: str) -> str:
    parts = [f"{who(state, a['faction'])} {a['strength']}" for a in state["armies"] if a["province"] == pid]
    if state["natives"].get(pid):
        parts.append(f"туземцы {state['natives'][pid]}")
    if pid in state["bosses"]:
        parts.append(f"Босс (здоровье {state['bosses'][pid]['health']})")
    return ", ".join(parts) or "пусто"


def _limit(state: TitaniaState) -> int:
    return override(default_params(), state.get("params") or None, []).max_strength


def food(state: TitaniaState, fid: str) -> int:
    params = override(default_params(), state.get("params") or None, [])
    total = 0
    for p, o in state["owners"].items():
        if o == fid:
            if state["map"]["provinces"][p]["capital"]:
                total += params.capital_food
            if "farm" in state["buildings"].get(p, []):
                total += params.farm_food
    return total + RACES[state["factions"][fid]["race"]].extra_food * params.skaven_food


def squads(state: TitaniaState, fid: str) -> int:
    return len({a["province"] for a in state["armies"] if a["faction"] == fid})


def summary(state: TitaniaState, fid: str) -> Table:
    f = state["factions"][fid]
    last = state.get("last") or {}
    order = last.get("turn_order", [])
    rows: list[tuple[Any, ...]] = [
        ("Ход", state["turn"], ""),
        ("Этап", "игра окончена" if state["stage"] == "finished" else "приказы Планирования и Похода", ""),
        ("Раса", race_name(f["race"]), f"активная способность «{ability_name(f['race'])}» (1 влияние, раз за ход)"),
        ("Цвет", f["colour"], ""),
        ("Столица", capital_name(state, f), ""),
    ]
    for r in RESOURCE_KEYS:
        note = "не копится: сгорает в конце хода; приходит в начале Планирования" if r == "influence" else ""
        rows.append((RESOURCE_NAMES[r].capitalize(), f.get(r, 0), note))
    rows.append(("Пища (отрядов на карте / можно)", f"{squads(state, fid)} / {food(state, fid)}",
                 "снабжение пищей: столица 3, ферма +1"))
    rows.append(("Могущество", standing(state, fid)[0], "по числу Святилищ Древних; +1 к силе за очко"))
    if order:
        pos = order.index(fid) + 1 if fid in order else "—"
        rows.append(("Очерёдность в прошлом Походе", pos, " → ".join(who(state, x) for x in order)))
    rows += relations(state, fid)
    rows.append(("Конец игры", *end_text(state)))
    if f.get("eliminated"):
        rows.append(("Статус", "выбыла", "нет ни провинций, ни войск"))
    if f.get("won"):
        rows.append(("Статус", "ПОБЕДА", ""))
    if state.get("stolen"):
        mine = [pname(state, p) for p in state["stolen"] if state["owners"].get(p) == fid]
        if mine:
            rows.append(("Воровство припасов", ", ".join(mine), "здесь в этом Планировании нельзя нанимать"))
    return Table(("Показатель", "Значение", "Пояснение"), tuple(rows))


def _names(state: TitaniaState, fids: Any) -> str:
    return ", ".join(f"«{state['factions'][f]['name']}»" for f in fids if f in state["factions"])


def relations(state: TitaniaState, fid: str) -> list[tuple[Any, ...]]:
    """«Сводка»: the faction's allies and wars (G46: engine.titania.diplomacy), and the offers between it and
    others that wait for an answer (known to the two sides only)."""
    f = state["factions"][fid]
    rows: list[tuple[Any, ...]] = [
        ("Союзники", _names(state, f.get("allies", [])) or "нет", "вкладка «Дипломатия»: союз — когда обе стороны "
                                                                  "выберут «Заключить союз»"),
        ("В войне с", _names(state, f.get("at_war", [])) or "ни с кем", "нападение — тоже объявление войны")]
    what = {"ally": "союз", "peace": "мир"}
    for o in state.get("offers", []):
        if o.get("to") == fid:
            rows.append(("Вам предлагают", f"{what.get(o['act'], o['act'])}: {_names(state, [o['from']])}",
                         "чтобы принять — та же строка во вкладке «Дипломатия»"))
        elif o.get("from") == fid:
            rows.append(("Вы предложили", f"{what.get(o['act'], o['act'])}: {_names(state, [o['to']])}",
                         "ждёт ответа; «Разорвать союз» — отозвать"))
    return rows


def provinces(state: TitaniaState, fid: str) -> Table:
    nb = neighbours(state)
    limit = int((state["factions"][fid].get("limits") or {}).get("max_strength", _limit(state)))
    rows = []
    own = sorted((p for p, o in state["owners"].items() if o == fid), key=lambda p: pname(state, p))
    for p in own:
        info = state["map"]["provinces"][p]
        mine = sum(a["strength"] for a in state["armies"] if a["faction"] == fid and a["province"] == p)
        seen = "; ".join(f"{pname(state, n)}: {troops_text(state, n)}"
                         for n in sorted(nb[p], key=lambda n: pname(state, n)))
        rows.append((info["name"], kind_text(info), buildings_text(state["buildings"].get(p, [])),
                     deposits_text(info), f"{mine} / {limit}" if mine else f"— / {limit}", seen))
    return Table(("Провинция", "Тип", "Постройки", "Ресурсы", "Своё войско / лимит", "Соседи и что там видно"),
                 tuple(rows))


def armies(state: TitaniaState, fid: str) -> Table:
    seen = sight(state, fid)
    nb = neighbours(state)
    rows: list[tuple[Any, ...]] = []
    for a in sorted(state["armies"], key=lambda a: (a["faction"] != fid, pname(state, a["province"]))):
        if a["faction"] != fid and a["province"] not in seen:
            continue
        p = a["province"]
        rows.append((who(state, a["faction"]), pname(state, p), a["strength"],
                     "морское" if state["map"]["provinces"][p]["sea"] else "сухопутное",
                     ", ".join(pname(state, n) for n in sorted(nb[p], key=lambda n: pname(state, n)))))
    for p, n in sorted(state["natives"].items()):
        if p in seen:
            rows.append(("туземцы", pname(state, p), n, "сухопутное", ""))
    for p, b in sorted(state["bosses"].items()):
        if p in seen:
            rows.append((state["map"]["provinces"][p].get("boss_name", "Босс"), pname(state, p),
                         f"здоровье {b['health']}", "Босс: подмога невозможна", ""))
    return Table(("Чьё", "Где", "Сила", "Вид", "Соседние провинции"), tuple(rows))


def techs(state: TitaniaState, fid: str) -> Table:
    """Known technologies and spells (none without the tech list, G1/G3), and what can be built and its cost."""
    f = state["factions"][fid]
    params = override(default_params(), state.get("params") or None, [])
    rows: list[tuple[Any, ...]] = []
    d = content_of(state)

    def cost_text(cost: Mapping[str, int]) -> str:
        return ", ".join(f"{RESOURCE_NAMES.get(r, r)} {n}" for r, n in cost.items()) or "бесплатно"

    for tid, tech in d.technologies.items():
        known = tid in f.get("techs", [])
        need = f"; нужно Могущество {tech.might}" if tech.might else ""
        effects = ", ".join(f"{EFFECT_RU.get(e.type, e.type)} {e.value:+d}" for e in tech.effects)
        rows.append(("Технология", tech.name, "изучена" if known else f"{cost_text(tech.cost)}{need}", effects))
    for sid, spell in d.spells.items():
        known = sid in f.get("spells", [])
        rows.append(("Заклинание", spell.name, "известно: применение " + cost_text(spell.cast) if known
                     else f"изучение {cost_text(spell.learn)}, применение {cost_text(spell.cast)}", spell_text(spell)))
    limits = f.get("limits") or {}
    if limits:
        rows.append(("Лимиты", "сила отряда / найм / пополнение",
                     f"{limits.get('max_strength')} / {limits.get('hire')} / {limits.get('replenish')}", ""))
    rows.append(("Постройки", "на вкладке «Постройки»", "", "стоимость, что нужно в провинции и что даёт"))
    rows.append(("Найм", "1 сила", f"1 золото + 1 дерево или {agree(params.influence_per_strength, 'влияние')}", ""))
    return Table(("Что", "Название", "Стоимость или состояние", "Действие"), tuple(rows))


def _cost_text(cost: Mapping[str, int]) -> str:
    return ", ".join(f"{RESOURCE_NAMES.get(r, r)} {n}" for r, n in cost.items() if n) or "бесплатно"


# What a building does beyond its catalog fields: the rules the engine itself gives it (P2.1, P3.1, C9.2, §6.2).
BUILDING_RULES = {"port": f"караваны по морю (порт нужен обеим сторонам, {see('P3.1')}); войско из провинции с "
                          f"портом может выйти в море ({see('C9.2')})",
                  "market": "Рынок Хранителей: через него сдают задания (предметы и ресурсы караваном)"}


def building_effects_text(b: str, params: Params, d: Catalog | None = None) -> str:
    """What one building does, in Russian, from the catalog (the game's content, default G92: each field replaces its
    v1 default)."""
    d = d if d is not None else default_data()
    parts = []
    made = produces(d, params, b)
    if made:
        parts.append("добыча в начале Планирования: " + ", ".join(f"{RESOURCE_NAMES.get(r, r)} +{n}"
                                                                   for r, n in made.items()))
    rec = d.buildings.get(b)
    feed = rec.food if rec is not None and rec.food is not None else (params.farm_food if b == "farm" else 0)
    if feed:
        parts.append(f"пища +{feed} (ещё {feed} отр. на карте, {see('A1.1')})")
    for e in rec.effects if rec is not None else ():
        if e.type == "defence":
            parts.append(f"оборона {e.value:+d} к силе обороны в бою в этой провинции, когда обороняется её "
                         "владелец или его союзник (с Похода того хода, когда построено)")
        else:
            parts.append(f"{EFFECT_RU.get(e.type, e.type)} {e.value:+d}")
    if b in BUILDING_RULES:
        parts.append(BUILDING_RULES[b])
    return "; ".join(parts) or "—"


def buildings(state: TitaniaState, fid: str) -> Table:
    """«Постройки»: every building a faction may build, its cost after the race's discount, the deposit it
    needs, what it does (the catalog's production, food and effects, and the rules of the port) and where the
    faction has it."""
    params = override(default_params(), state.get("params") or None, [])
    race = RACES[state["factions"][fid]["race"]]
    d = content_of(state)
    rows = []
    for b in (*PLAYER_BUILDINGS, *(k for k in d.buildings if k not in PLAYER_BUILDINGS and k != "market"), "market"):
        cost = params.cost_of(b)
        if "influence" in cost:
            cost["influence"] = max(0, cost["influence"] - race.building_discount.get(b, 0))
        need = needs(d, params, b)
        where = sorted((pname(state, p) for p, o in state["owners"].items()
                        if o == fid and b in state["buildings"].get(p, [])), key=str.casefold)
        named = BUILDING_NAMES.get(b) or (d.buildings[b].name if b in d.buildings else None) or b
        rows.append((named[0].upper() + named[1:], "только у Хранителей" if b == "market" else _cost_text(cost),
                     DEPOSIT_NAMES.get(need, need) if need else ("граничит с морем" if b == "port" else "—"),
                     building_effects_text(b, params, d), ", ".join(where) or "—"))
    return Table(("Постройка", "Стоимость", "Нужно в провинции", "Что даёт", "У вас"), tuple(rows))


def _from(state: TitaniaState, pid: str) -> str:
    return f"из провинции «{pname(state, pid)}»"


def _battle_row(state: TitaniaState, b: Mapping[str, Any]) -> tuple[Any, ...]:
    """One battle of the «Бои» tabs; a loss never above what the army had (engine.titania.losses)."""
    a = b["attacker"]
    if b["kind"] == "boss":
        d = b["damage"]
        fell = "; войско нападавших погибло" if b.get("attacker_fallen") else ""
        return (b["turn"], pname(state, b["province"]), f"{who(state, a['faction'])} {_from(state, a['from'])}",
                a["strength"], "Босс", "—", "Босс повержен" if b["result"] == "attacker" else "Босс жив",
                f"урон Боссу {d['to_boss']}, потери нападающего {attacker_loss(b)}{fell}")
    d = b["defender"]

    def sup(items: list[Mapping[str, Any]]) -> str:
        return ", ".join(f"{who(state, s['faction'])} {_from(state, s['from'])} +{s['value']}"
                         for s in items) or "нет"

    each = defender_losses(b, races_of(state))
    allies = (" (" + ", ".join(f"{who(state, x['faction'])} {n}" for x, n in zip(d["armies"], each, strict=True)) + ")"
              if len(each) > 1 else "")
    return (b["turn"], pname(state, b["province"]),
            f"{who(state, a['faction'])} {_from(state, a['from'])}: сила {a['strength']}, "
            f"подмога {sup(a['supports'])}, "
            f"модификаторы {a['modifiers']:+d}", a["total"],
            f"{', '.join(who(state, x) for x in d['factions'])}: сила {d['strength']}, "
            f"подмога {sup(d['supports'])}, "
            f"модификаторы {d['modifiers']:+d}", d["total"], RESULT_RU[b["result"]],
            f"потери: нападающий {attacker_loss(b)}, оборона {sum(each)}{allies}; разрушено построек "
            f"{b.get('buildings_lost', 0)}")


BATTLE_COLUMNS = ("Ход", "Провинция", "Нападение", "Итого", "Оборона", "Итого обороны", "Итог", "Потери и разрушения")


def battles(state: TitaniaState, fid: str | None) -> Table:
    rows = []
    for b in state["battles"]:
        sides = {b["attacker"]["faction"], *b.get("defender", {}).get("factions", []),
                 *(s["faction"] for s in b["attacker"].get("supports", [])),
                 *(s["faction"] for s in b.get("defender", {}).get("supports", []))}
        if fid is None or fid in sides:
            rows.append(_battle_row(state, b))
    return Table(BATTLE_COLUMNS, tuple(reversed(rows)))


def journal(state: TitaniaState, fid: str) -> Table:
    """The faction's own lines of the last turn, then the chronicle, the newest turn first (the turn the game has
    just opened may already have begun with an event or a quest)."""
    rows = [(state["turn"] - 1, e["text"]) for e in state.get("log", []) if e["faction"] == fid]
    rows += [(e["turn"], e["text"]) for e in reversed(state.get("chronicle", []))]
    return Table(("Ход", "Запись"), tuple(sorted(rows, key=lambda r: -int(r[0]))))


def campaign_prefill(state: TitaniaState, fid: str) -> Table:
    """«Поход» pre-filled with one «Стоять» row per own army (players change what they want)."""
    rows = [("", pname(state, a["province"]), HOLD, "", "", "", "")
            for a in sorted(state["armies"], key=lambda a: pname(state, a["province"])) if a["faction"] == fid]
    return Table(("№", "Войско", "Приказ", "Куда", "За кого", "Сила", "Статус"), tuple(rows))


VICTORY_MARK = "провинция победы"


def public_map(state: TitaniaState, fid: str | None = None) -> Table:
    """«Карта»: every province with its kind (a victory province marked, unless the GM hides them: T4-7), owner
    and neighbours (by name), its revealed resources and how many buildings stand there; in a faction's book
    (`fid`) also the faction's own army there."""
    nb = neighbours(state)
    strength: dict[str, int] = {}
    for a in state["armies"]:
        if a["faction"] == fid:
            strength[a["province"]] = strength.get(a["province"], 0) + int(a["strength"])
    goals = marked(state)
    rows = []
    for p, info in sorted(state["map"]["provinces"].items(), key=lambda kv: kv[1]["name"]):
        near = ", ".join(sorted((pname(state, n) for n in nb[p]), key=str.casefold))
        own = (strength.get(p, "—"),) if fid is not None else ()
        kind = kind_text(info) + (f", {VICTORY_MARK}" if p in goals else "")
        rows.append((info["name"], kind, who(state, state["owners"].get(p)), near, *own,
                     deposits_text(info), len(state["buildings"].get(p, []))))
    mine = ("Ваше войско",) if fid is not None else ()
    return Table(("Провинция", "Тип", "Владелец", "Соседи", *mine, "Ресурсы", "Построек"), tuple(rows))


STANDING_COLUMNS = ("Фракция", "Раса", "Цвет", "Столица", "Провинций", "Святилищ (Могущество)", "Статус",
                    "Союзники", "Война с")
HELD_COLUMN, STRENGTH_COLUMN = "Провинций победы", "Сила войск (итог)"


def standings(state: TitaniaState) -> Table:
    """«Фракции» of the public book, and the standings of the chronicle post (forum_posts): what the public may
    know of each faction while the game runs (T4-5) — provinces, Shrines and Might, the victory provinces it holds
    when they are marked (T4-7) — never its army total; that only in the final standings of a game ranked by
    Strength (the defaults, without victory provinces). Ranked by what is shown, then by name."""
    v = rules(state)
    final = state.get("stage") == "finished"
    show_held = bool(v.provinces) and (not v.hidden or final)
    show_strength = final and v.by_strength
    rows = []
    for fid, f in state["factions"].items():
        shrines, provs, strength = standing(state, fid)
        flag = "ПОБЕДА" if f.get("won") else "выбыла" if f.get("eliminated") else "в игре"
        extra = ((held(state, fid, v),) if show_held else ()) + ((strength,) if show_strength else ())
        key = rank(state, fid, v, final=show_strength) if show_held or show_strength else (shrines, provs)
        rows.append(((-int(bool(f.get("won"))), *(-k for k in key), str(f["name"]).casefold()),
                     (f["name"], race_name(f["race"]), f["colour"], capital_name(state, f), provs, shrines, flag,
                      _names(state, f.get("allies", [])) or "—", _names(state, f.get("at_war", [])) or "—",
                      *extra)))
    columns = STANDING_COLUMNS + ((HELD_COLUMN,) if show_held else ()) + ((STRENGTH_COLUMN,) if show_strength else ())
    return Table(columns, tuple(row for _, row in sorted(rows)))


def chronicle(state: TitaniaState) -> Table:
    return Table(("Ход", "Событие", "Запись"),
                 tuple((e["turn"], e["kind"], e["text"]) for e in reversed(state.get("chronicle", []))))


def gm_factions(state: TitaniaState) -> Table:
    rows = []
    for fid, f in state["factions"].items():
        rows.append((f["name"], race_name(f["race"]), *(f.get(r, 0) for r in RESOURCE_KEYS),
                     f"{squads(state, fid)} / {food(state, fid)}", standing(state, fid)[0],
                     ", ".join(who(state, x) for x in f.get("at_war", [])) or "—",
                     _names(state, f.get("allies", [])) or "—"))
    for kid, k in state.get("keepers", {}).items():
        rows.append((who(state, kid), race_name(k["race"]), "", "", "", "", "", "", "",
                     "воюют" if k.get("at_war") else "мирны", "—"))
    return Table(("Фракция", "Раса", *(RESOURCE_NAMES[r].capitalize() for r in RESOURCE_KEYS), "Отряды / пища",
                  "Могущество", "Война с", "Союзники"), tuple(rows))


def gm_provinces(state: TitaniaState) -> Table:
    rows = []
    for p, info in sorted(state["map"]["provinces"].items(), key=lambda kv: kv[1]["name"]):
        rows.append((info["name"], kind_text(info), who(state, state["owners"].get(p)),
                     buildings_text(state["buildings"].get(p, [])), deposits_text(info), troops_text(state, p)))
    return Table(("Провинция", "Тип", "Владелец", "Постройки", "Ресурсы", "Войска"), tuple(rows))


def gm_ledger(state: TitaniaState) -> Table:
    rows = [(who(state, e["faction"]), RESOURCE_NAMES.get(e["resource"], e["resource"]), e["amount"], e["reason"])
            for e in reversed(state.get("ledger", [])[-400:])]
    return Table(("Фракция", "Ресурс", "Изменение", "Причина"), tuple(rows))


def verdicts(state: TitaniaState) -> Table:
    """The last turn's racial abilities as the adjudicator judged them (GM book)."""
    last = state.get("last") or {}
    rows = [(who(state, f), ability_name(state["factions"][f]["race"]) if f in state["factions"] else "",
             f"{OUTCOMES.get(a['outcome'], a['outcome'])}: {explain(a['reason'])}", "да" if a.get("fired") else "нет")
            for f, a in last.get("abilities", {}).items()]
    return Table(("Фракция", "Способность", "Итог", "Сработала"), tuple(rows))


def all_views(state: TitaniaState) -> dict[str, dict[str, Table]]:
    books: dict[str, dict[str, Table]] = {}
    for fid in state["factions"]:
        books[fid] = {"summary": summary(state, fid), "provinces": provinces(state, fid), "armies": armies(state, fid),
                      "techs": techs(state, fid), "buildings": buildings(state, fid), "battles": battles(state, fid),
                      "journal": journal(state, fid),
                      "map": public_map(state, fid)}
        if state["stage"] != "finished" and not state["factions"][fid].get("eliminated"):
            books[fid]["campaign"] = campaign_prefill(state, fid)
    books["public"] = {"map": public_map(state), "standings": standings(state), "chronicle": chronicle(state)}
    books["gm"] = {"factions": gm_factions(state), "gm_provinces": gm_provinces(state),
                   "gm_battles": battles(state, None),
                   "ledger": gm_ledger(state), "abilities": verdicts(state), "chronicle": chronicle(state)}
    return books


__all__ = ["all_views", "MIGHT_ROW"]
