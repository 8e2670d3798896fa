"""The start of a game as the book says («НАЧАЛО ИГРЫ»): the set-up stage (turn 0) and its «Начало игры» tab.

One file, over 400 lines: `check` and the turn read each cell with the same rules of what is still free.

«Вы — лидер своего народа… выбрать уникальный цвет, расу из списка игровых рас, а также любую провинцию на
карте, которая граничит с морем (кроме островов), чтобы провозгласить её своей столицей. Как столица, она
сразу же получает один золотой рудник т1, одну лесопилку т1, гарнизон войск с силой 3.»

Each faction's book has one row: colour, race, capital and (optionally) the capital's name; what the scenario
fixed is shown and may be left blank. `check` reads the row against what is free at the start (a colour, and
with `unique_races` a race, of no other faction; a coastal land province that is no island, no capital and no
place the GM set for Keepers, Bosses or a faction). The choices are secret and simultaneous, so the turn
settles two factions wanting the same colour, race, capital or capital name by lot (its own stream of the
stage seed per contested value), draws what is still open (no row, a wrong cell, a lost lot) by lot from what
is left, and founds the game (engine.titania.setup.found, the function a scenario that fixes the start runs):
capitals, Keepers, Bosses, natives by rings, the first reveals. Then turn 1 opens.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cells import normalize_name
from engine.errors import OrderError, allowed_list, define
from engine.free_text import Taken, looks_like, name_problem
from engine.rng import stream
from engine.ruleset import FactionSummary, ParsedOrders, Row, RowStatus, StageResult, Summary, Table
from engine.russian import agree
from engine.titania import ledger
from engine.titania.names import race_name
from engine.titania.races import RACES
from engine.titania.setup import CHOICES, START, Choice, coastal, draw_open, found, free_choices, neighbours, reserved
from engine.titania.state_types import StartParts, StartSettings, TitaniaState, copy_of, plain
from engine.titania.victory import settings as victory_settings

START_TAB = "start"
TAB_TITLE = "Начало игры"
COLUMNS = {"colour": "Цвет", "race": "Раса", "capital": "Столица", "capital_name": "Название столицы"}
WHAT = {"colour": "цвет", "race": "расу", "capital": "столицу"}
WHAT_IS = {"colour": "Цвет", "race": "Раса", "capital": "Столица", "capital_name": "Название столицы"}
RULE = {"colour": "цвет должен быть уникальным («выбрать уникальный цвет»)",
        "race": "каждая раса — у одной фракции (настройка unique_races)",
        "capital": "в провинции одна столица"}
BOOK_QUOTE = ("«Вы — лидер своего народа… выбрать уникальный цвет, расу из списка игровых рас, а также любую "
              "провинцию на карте, которая граничит с морем (кроме островов), чтобы провозгласить её своей "
              "столицей.»")

define({
    "T_START_NEED": "Выберите {what} в поле «{column}». Свободно: {allowed}.",
    "T_START_UNKNOWN": "«{value}» нет среди вариантов поля «{column}». Допустимо: {allowed}.",
    "T_START_TAKEN": "{what} «{value}» уже у фракции «{owner}»: {rule}. Свободно: {allowed}.",
    "T_START_FIXED": "{what} задан сценарием мастера: «{fixed}». Оставьте поле «{column}» пустым или впишите "
                     "«{fixed}».",
    "T_START_NOT_COASTAL": "«{value}» не годится в столицы: {why} («любую провинцию на карте, которая граничит с "
                           "морем (кроме островов)»). Подходят: {allowed}.",
    "T_START_NOT_FREE": "В провинции «{value}» столицу не основать: эту провинцию мастер отвёл Хранителям, Боссу или "
                        "другой фракции. Подходят: {allowed}.",
    "T_START_ONCE": "Выбор делается одной строкой: считается строка {row}, эту удалите.",
    "T_START_LOT": "Не всё вышло по вашей строке: {lost}. Основано: {result}.",
})


def is_setup(state: TitaniaState) -> bool:
    return state.get("stage") == START and isinstance(state.get("start"), dict)


def _start(state: TitaniaState) -> tuple[StartSettings, StartParts]:
    return state["start"]["settings"], state["start"]["parts"]


def _pname(state: TitaniaState, pid: str) -> str:
    return str(state["map"]["provinces"][pid]["name"])


def _show(state: TitaniaState, key: str, value: str) -> str:
    """A choice as a player reads it."""
    if key == "race":
        return race_name(value)
    if key == "capital":
        return _pname(state, value)
    return value


def _owner_of(state: TitaniaState, key: Choice, value: str, faction: str) -> str:
    for fid, f in state["factions"].items():
        if fid != faction and f[key] and normalize_name(f[key]) == normalize_name(value):
            return str(f["name"])
    return "—"


# -- the book: dropdowns and the row ------------------------------------------------------------------------

def vocabularies(state: TitaniaState, faction: str) -> dict[str, list[str]]:
    settings, parts = _start(state)
    free = free_choices(state, parts, settings, faction)
    return {"start_colours": list(free["colour"]), "start_races": [race_name(r) for r in free["race"]],
            "start_capitals": sorted((_pname(state, p) for p in free["capital"]), key=normalize_name)}


def _why_not_capital(state: TitaniaState, pid: str) -> str:
    info = state["map"]["provinces"][pid]
    if info["sea"]:
        return "это море"
    if info["island"]:
        return "это остров"
    return "она не граничит с морем"


def _read_choice(state: TitaniaState, faction: str, key: Choice, cell: str, errors: list[OrderError]
                 ) -> str | None:
    """One of colour, race, capital from its cell: the value picked (None: blank, fixed or wrong)."""
    settings, parts = _start(state)
    rec = state["factions"][faction]
    column = COLUMNS[key]
    free = free_choices(state, parts, settings, faction)[key]
    shown = [_show(state, key, v) for v in free]
    if key == "capital":
        shown = sorted(shown, key=normalize_name)
    if rec[key]:  # fixed by the scenario
        fixed = _show(state, key, rec[key])
        if cell and normalize_name(cell) not in (normalize_name(fixed), normalize_name(rec[key])):
            errors.append(OrderError("T_START_FIXED", {"what": WHAT_IS[key], "fixed": fixed, "column": column}))
        return None
    if not cell:
        errors.append(OrderError("T_START_NEED", {"what": WHAT[key], "column": column, "allowed": allowed_list(shown)}))
        return None
    wanted = normalize_name(cell)
    provinces = state["map"]["provinces"]
    options: dict[str, str]
    if key == "colour":
        options = {normalize_name(c): str(c) for c in settings["colours"]}
    elif key == "race":
        options = {**{normalize_name(r): r for r in RACES}, **{normalize_name(c.name): k for k, c in RACES.items()}}
    else:
        options = {**{normalize_name(p): p for p in provinces}, **{normalize_name(i["name"]): p
                                                                     for p, i in provinces.items()}}
    value: str | None = options.get(wanted)
    if value is None:
        errors.append(OrderError("T_START_UNKNOWN", {"value": cell, "column": column, "allowed": allowed_list(shown)}))
        return None
    if key == "capital":
        if not coastal(provinces, neighbours(state), value):
            errors.append(OrderError("T_START_NOT_COASTAL", {"value": cell, "why": _why_not_capital(state, value),
                                                             "allowed": allowed_list(shown)}))
            return None
        if value in reserved(parts):
            errors.append(OrderError("T_START_NOT_FREE", {"value": cell, "allowed": allowed_list(shown)}))
            return None
    if value not in free:
        errors.append(OrderError("T_START_TAKEN", {"what": WHAT_IS[key], "value": _show(state, key, value),
                                                   "owner": _owner_of(state, key, value, faction), "rule": RULE[key],
                                                   "allowed": allowed_list(shown)}))
        return None
    return value


def _read_name(state: TitaniaState, faction: str, cell: str, capital: str | None,
               errors: list[OrderError]) -> str | None:
    settings, parts = _start(state)
    fixed = (parts.get("names") or {}).get(faction)
    if fixed:
        if cell and normalize_name(cell) != normalize_name(fixed):
            errors.append(OrderError("T_START_FIXED", {"what": WHAT_IS["capital_name"], "fixed": fixed,
                                                       "column": COLUMNS["capital_name"]}))
        return None
    if not cell:
        return None
    own = capital or state["factions"][faction]["capital"]
    taken = [*(Taken("провинции", info["name"]) for p, info in state["map"]["provinces"].items() if p != own),
             *(Taken("фракции", f["name"]) for f in state["factions"].values())]
    problem = name_problem(cell, limit=int(settings["capital_name_length"]), taken=taken)
    if problem is not None:
        errors.append(problem)
        return None
    return cell


def validate(state: TitaniaState, faction: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
    """The faction's «Начало игры» row: what it picks and, for each cell, what is wrong and what is free."""
    rows = [r for r in tabs.get(START_TAB, []) if not r.is_blank()]
    if not rows or not is_setup(state) or faction not in state["factions"]:
        return ParsedOrders(faction, START, (), ())
    first, *others = rows
    errors: list[OrderError] = []
    pick: dict[str, Any] = {}
    for key in CHOICES:
        value = _read_choice(state, faction, key, first.get(key), errors)
        if value is not None:
            pick[key] = value
    name = _read_name(state, faction, first.get("capital_name"), pick.get("capital"), errors)
    if name is not None:
        pick["capital_name"] = name
    rec = state["factions"][faction]
    if errors:
        status = RowStatus(START_TAB, first.number, tuple(errors))
    else:
        chosen = "; ".join(f"{WHAT_IS[k].lower()} {_show(state, k, pick.get(k) or rec[k])}" for k in CHOICES)
        if pick.get("capital_name") or (state["start"]["parts"].get("names") or {}).get(faction):
            chosen += f" («{pick.get('capital_name') or state['start']['parts']['names'][faction]}»)"
        status = RowStatus(START_TAB, first.number,
                           note=f"выбор принят: {chosen}. Государство будет основано в конце этапа; если то же "
                                "выберет другая фракция, решит жребий")
    statuses = [status, *(RowStatus(START_TAB, r.number, (OrderError("T_START_ONCE", {"row": first.number}),))
                          for r in others)]
    orders = ({"kind": "start", "rows": [first.number], **pick},) if pick else ()
    return ParsedOrders(faction, START, orders, tuple(statuses))


# -- the turn: contests, lots, the founding ------------------------------------------------------------------

def _picks(orders: Mapping[str, ParsedOrders], factions: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for fid, parsed in orders.items():
        if fid in factions:
            item = next((o for o in parsed.orders if o.get("kind") == "start"), None)
            if item is not None:
                out[fid] = dict(item)
    return out


def _settle(new: TitaniaState, picks: Mapping[str, Mapping[str, Any]], seed: int,
            lost: dict[str, list[str]]) -> dict[str, str]:
    """Give each pick to its faction, a contested one to the winner of its lot; returns the capital names."""
    settings, parts = _start(new)
    factions = new["factions"]
    provinces = new["map"]["provinces"]
    for key in CHOICES:
        wanted: dict[str, list[str]] = {}
        for fid in sorted(picks):
            value = picks[fid].get(key)
            if isinstance(value, str) and not factions[fid][key]:
                wanted.setdefault(value, []).append(fid)
        for value in sorted(wanted):
            fids = wanted[value]
            free = free_choices(new, parts, settings)[key]
            contested = key != "race" or settings["unique_races"]
            if value not in free:
                winners: list[str] = []
            elif contested:
                winners = [fids[0] if len(fids) == 1 else stream(seed, "titania", "start", "contest", key,
                                                                 value).choice(fids)]
            else:
                winners = fids
            for fid in winners:
                factions[fid][key] = value
                if key == "capital":
                    provinces[value]["capital"] = True
            for fid in fids:
                if fid not in winners:
                    who = f"по жребию — фракции «{factions[winners[0]]['name']}»" if winners else "уже занят"
                    lost.setdefault(fid, []).append(f"{WHAT_IS[key].lower()} «{_show(new, key, value)}» {who}")
    names = dict(parts.get("names") or {})
    by_name: dict[str, list[str]] = {}   # names that read alike are one name: the lot gives it to one faction
    for fid in sorted(picks):
        name = picks[fid].get("capital_name")
        if isinstance(name, str) and fid not in names:
            alike = next((k for k in by_name if looks_like(k, name)), normalize_name(name))
            by_name.setdefault(alike, []).append(fid)
    for norm in sorted(by_name):
        fids = by_name[norm]
        winner = fids[0] if len(fids) == 1 else stream(seed, "titania", "start", "contest", "name", norm).choice(fids)
        names[winner] = str(picks[winner]["capital_name"])
        for fid in fids:
            if fid != winner:
                lost.setdefault(fid, []).append(f"название «{picks[fid]['capital_name']}» по жребию — фракции "
                                                f"«{factions[winner]['name']}»")
    return names


def _founded(state: TitaniaState, fid: str) -> str:
    f = state["factions"][fid]
    return f"столица «{_pname(state, f['capital'])}», {race_name(f['race'])}, цвет {f['colour']}"


def resolve(state: TitaniaState, orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    """Close the set-up stage: settle the picks, draw what is open, found the game; turn 1 opens."""
    new = copy_of(state)
    settings, parts = _start(new)
    picks = _picks(orders, new["factions"])
    lost: dict[str, list[str]] = {}
    names = _settle(new, picks, seed, lost)
    drawn = draw_open(new, parts, settings, seed)
    problems: list[str] = []
    notes = found(new, {**parts, "names": names}, settings, stream(seed, "titania", "start", "found"), seed, problems)
    if problems:  # the scenario was checked at `new`: this is a broken game directory, nothing changes
        failed = copy_of(state)
        for p in problems:
            ledger.chronicle(failed, "Ошибка", f"Начало игры не рассчитано: {p}", turn=0)
        return StageResult(plain(failed), {})
    statuses: dict[str, list[RowStatus]] = {}
    for fid in new["factions"]:
        by_lot = [f"«{COLUMNS[k]}» — по жребию (в строке не выбрано)" for k in drawn.get(fid, [])
                  if k not in picks.get(fid, {})]
        missed = [*lost.get(fid, []), *by_lot]
        result = _founded(new, fid)
        if fid in picks:
            for r in picks[fid]["rows"]:
                statuses.setdefault(fid, []).append(
                    RowStatus(START_TAB, int(r), (OrderError("T_START_LOT", {"lost": "; ".join(missed),
                                                                             "result": result}),)) if missed
                    else RowStatus(START_TAB, int(r), note=f"основано: {result}"))
        how = f" (по жребию: {', '.join(WHAT[k] for k in drawn[fid])})" if drawn.get(fid) else ""
        ledger.note(new, fid, f"Ход 0, начало игры: {result}{how}.")
    text = "; ".join(f"{new['factions'][fid]['name']} — {_founded(new, fid)}" for fid in new["factions"])
    ledger.chronicle(new, "Начало", f"На Титании основаны государства: {text}.", turn=1)
    keepers = ", ".join(f"{k['name']} ({race_name(k['race'])}: "
                        + ", ".join(f"«{_pname(new, p)}»" for p in k["home"]) + ")" for k in new["keepers"].values())
    if keepers:
        ledger.chronicle(new, "Хранители", f"На Титании живут Хранители: {keepers}.", turn=1)
    for note in notes:
        ledger.chronicle(new, "Хранители", note[0].upper() + note[1:] + ".", turn=1)
    report = [f"Начало игры (ход 0, зерно этапа {seed}).", *(f"- {new['factions'][f]['name']}: {_founded(new, f)}"
                                                             for f in new["factions"])]
    for fid in sorted(drawn):
        report.append(f"  по жребию у фракции «{new['factions'][fid]['name']}»: "
                      + ", ".join(WHAT[k] for k in drawn[fid]))
    for fid in sorted(lost):
        report.append(f"  спорный выбор фракции «{new['factions'][fid]['name']}»: {'; '.join(lost[fid])}")
    placed = new["last"].get("natives_placed", {})
    report.append("Туземцы (G41 a, G40 a): " + (", ".join(f"«{_pname(new, p)}» {n}" for p, n in
                                                        sorted(placed.get("natives", {}).items())) or "нет")
                  + "; без туземцев: " + (", ".join(f"«{_pname(new, p)}»" for p in placed.get("free", [])) or "—"))
    if keepers:
        report.append(f"Хранители: {keepers}.")
    report.extend(f"Внимание: {n}." for n in notes)
    return StageResult(plain(new), {f: tuple(s) for f, s in statuses.items()}, events=(dict(placed),) if placed else (),
                       reports={"start": "\n".join(report) + "\n"})


# -- what the books show during the set-up ------------------------------------------------------------------

def _choice_rows(state: TitaniaState, fid: str) -> list[tuple[Any, ...]]:
    f = state["factions"][fid]
    rows: list[tuple[Any, ...]] = []
    for key in CHOICES:
        if f[key]:
            rows.append((WHAT_IS[key], _show(state, key, f[key]), "задано сценарием мастера"))
        else:
            rows.append((WHAT_IS[key], "выберите", f"во вкладке «{TAB_TITLE}», поле «{COLUMNS[key]}»"))
    name = (state["start"]["parts"].get("names") or {}).get(fid)
    rows.append((WHAT_IS["capital_name"], name or "по желанию",
                 "задано сценарием мастера" if name else "пусто — столица сохранит название провинции"))
    return rows


def summary_table(state: TitaniaState, fid: str) -> Table:
    settings, _ = _start(state)
    conf = victory_settings(state)
    rows: list[tuple[Any, ...]] = [
        ("Ход", 0, "начало игры: до первого хода"),
        ("Этап", "Начало игры", f"заполните одну строку во вкладке «{TAB_TITLE}»; проверка покажет ошибки"),
        *_choice_rows(state, fid),
        ("Книга правил", "НАЧАЛО ИГРЫ", BOOK_QUOTE),
        ("Столица сразу получает", "рудник т1, лесопилку т1, гарнизон силой 3",
         "даёт 2 влияния и 3 пищи; остальные ресурсы провинции убираются"),
        ("Цвет и раса", "уникальны" if settings["unique_races"] else "цвет уникален, расы могут повторяться",
         "выбор тайный; если то же выбрали двое, решит жребий, а не доставшееся — тоже жребий из свободного"),
        ("Не выбрали к дедлайну", "жребий", "мастер запускает ход, и открытое разыгрывается из свободного"),
        ("Хранители", f"{agree(settings['keepers'], 'фракция')}, у каждой провинций: {settings['keeper_provinces']}",
         "места Хранителей и Боссов мастер задал заранее; там столицу не основать"),
        ("Конец игры", f"после хода {conf['last_turn']}",
         f"или при {agree(conf['shrines_to_win'], 'Святилище', 'loct')}" if conf["shrines_to_win"] else ""),
    ]
    return Table(("Показатель", "Значение", "Пояснение"), tuple(rows))


def candidates_table(state: TitaniaState, fid: str) -> Table:
    """Every land province: can a capital be founded there, and its neighbours."""
    settings, parts = _start(state)
    provinces = state["map"]["provinces"]
    nb = neighbours(state)
    free = set(free_choices(state, parts, settings, fid)["capital"])
    taken = reserved(parts)
    rows = []
    for p, info in sorted(provinces.items(), key=lambda kv: normalize_name(kv[1]["name"])):
        if info["sea"]:
            continue
        if p in free:
            verdict = "да"
        elif info["island"]:
            verdict = "нет: остров"
        elif not coastal(provinces, nb, p):
            verdict = "нет: не граничит с морем"
        elif p in taken:
            verdict = "нет: место задал мастер"
        else:
            verdict = "нет: уже столица"
        seas = [provinces[n]["name"] for n in sorted(nb[p]) if provinces[n]["sea"]]
        rows.append((info["name"], "остров" if info["island"] else "суша", verdict, ", ".join(seas) or "—",
                     ", ".join(sorted((provinces[n]["name"] for n in nb[p] if not provinces[n]["sea"]),
                                      key=normalize_name)) or "—"))
    return Table(("Провинция", "Тип", "Можно основать столицу", "Выход к морю", "Соседи по суше"), tuple(rows))


def standings_table(state: TitaniaState) -> Table:
    rows = []
    for f in state["factions"].values():
        rows.append((f["name"], race_name(f["race"]) if f["race"] else "выбирает", f["colour"] or "выбирает",
                     _pname(state, f["capital"]) if f["capital"] else "выбирает", 0, 0, "начало игры"))
    return Table(("Фракция", "Раса", "Цвет", "Столица", "Провинций", "Святилищ (Могущество)", "Статус"), tuple(rows))


def gm_table(state: TitaniaState) -> Table:
    _, parts = _start(state)
    rows = []
    for f in state["factions"].values():
        open_keys = [WHAT[k] for k in CHOICES if not f[k]]
        rows.append((f["name"], race_name(f["race"]) if f["race"] else "—", f["colour"] or "—",
                     _pname(state, f["capital"]) if f["capital"] else "—",
                     "выбирают: " + ", ".join(open_keys) if open_keys else "всё задано сценарием"))
    taken = ", ".join(sorted(_pname(state, p) for p in reserved(parts)))
    rows.append(("Места мастера", "", "", "", taken or "нет"))
    return Table(("Фракция", "Раса", "Цвет", "Столица", "Начало игры"), tuple(rows))


def views(state: TitaniaState, chronicle: Table, public_map: Table, gm_provinces: Table
          ) -> dict[str, dict[str, Table]]:
    books: dict[str, dict[str, Table]] = {}
    for fid in state["factions"]:
        books[fid] = {"summary": summary_table(state, fid), "provinces": candidates_table(state, fid),
                      "journal": chronicle, "map": public_map}
    books["public"] = {"map": public_map, "standings": standings_table(state), "chronicle": chronicle}
    books["gm"] = {"factions": gm_table(state), "gm_provinces": gm_provinces, "chronicle": chronicle}
    return books


def summary(state: TitaniaState) -> Summary:
    lines = ["Начало игры (ход 0): фракции выбирают цвет, расу и столицу во вкладке «Начало игры»; "
             "в дедлайн запустите forumwar turn"]
    factions = []
    for fid, f in state["factions"].items():
        open_keys = [WHAT[k] for k in CHOICES if not f[k]]
        line = "выбирает: " + ", ".join(open_keys) if open_keys else "всё задано сценарием"
        factions.append(FactionSummary(fid, f["name"], (line,), extras={"race": f["race"], "open": open_keys}))
    return Summary(tuple(lines), tuple(factions), {"game_over": False, "winners": [], "setup": True,
                                                   "last_turn": victory_settings(state)["last_turn"]})


def awaiting(state: TitaniaState) -> dict[str, list[str]]:
    return {fid: [f"выбор во вкладке «{TAB_TITLE}»"] if any(not f[k] for k in CHOICES) else []
            for fid, f in state["factions"].items()}
