"""Issue 38 §2, Jade Rose: «Nonsense numbers are refused, not ignored. … Every numeric field of both rule sets
refuses what it cannot mean, with a message.»

Every numeric field of every Jade Rose order tab gets the same bad values, typed as a player types them into
the xlsx books (numbers as numbers, the rest as text): negative, zero, fractions («2,5» and 2.5), absurd sizes
(1e9), words, and a number where the row's kind takes none (a second building on one «Построить» row, runes of a
faction that has none). Each such row is refused by `check` and by `turn` with the same Russian message, which
says what is wrong and what is allowed; the faction's other rows still count.

The fields: «Экономика» «Количество» (hire, upgrade, jade, investment, sleepers; and the actions done one at a
time), «Армии» and «Гарнизоны» «Количество», «Манёвры» «Руны» (planning), the GM's «Корректировки»
«Изменение».
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine import find_ruleset
from engine.jade_rose.data import load_data
from engine.jade_rose.garrison import garrison_of
from engine.jade_rose.state_types import jade_rose_state
from engine.ruleset import GM_BOOK
from sheets_bridge.backends.xlsx.files import load_for_edit, save
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import StageReport, check, run_turn
from tests.games import new_game

RS = find_ruleset("jade_rose")
Cell = str | int | float

# A bad count as typed (a number cell or text), and as the message quotes it back
BAD_COUNTS: list[tuple[Cell, str]] = [(-3, "-3"), (0, "0"), ("2,5", "2,5"), (2.5, "2.5"), (1e9, "1000000000"),
                                      ("1e9", "1e9"), ("пять", "пять")]
NBSP = "\u00a0"


def not_a_count(value: str, column: str = "Количество") -> str:
    if value == "1000000000":
        return f"Слишком большое число в поле «{column}»: «{value}». Укажите не больше 100{NBSP}000."
    return (f"В поле «{column}» должно быть целое число больше нуля, записанное цифрами (например, 12 или 1 200), "
            f"а не «{value}».")


def one_at_a_time(action: str, value: str) -> str:
    """The message's beginning (a hint on what to do instead follows, by action)."""
    return (f"Действие «{action}» выполняется по одному: в столбце «Количество» оставьте пусто или 1, "
            f"а не «{value}».…")


def not_runes(value: str) -> str:
    if value == "1000000000":
        return f"Слишком большое число в поле «Руны»: «{value}». Укажите не больше 1{NBSP}000."
    return (f"В поле «Руны» нужно целое число от 0 до 1{NBSP}000, записанное цифрами (например, 0, 3 или 1 200), "
            f"а не «{value}».")


NOT_DWARF = "Руны тратят только дворфы: оставьте столбец «Руны» пустым."


def bad_amount(value: str) -> str:
    if value == "1000000000":
        return (f"Слишком большое «Изменение» «{value}»: корректировка бывает от −1{NBSP}000{NBSP}000 до "
                f"1{NBSP}000{NBSP}000.")
    return f"«Изменение» должно быть целым числом, не равным нулю (например, 100 или -50), а не «{value}»."


def type_rows(book: Path, title: str, rows: Sequence[Sequence[Cell]]) -> list[int]:
    """Type rows below the tab's last filled one, numbers as number cells; their sheet row numbers."""
    wb = load_for_edit(book)
    ws = wb[title]
    width = ws.max_column - 1          # the status column last
    start = 2
    while any(ws.cell(row=start, column=c).value not in (None, "") for c in range(1, width + 1)):
        start += 1
    for r, values in enumerate(rows, start=start):
        for c, value in enumerate(values, start=1):
            if value != "":
                ws.cell(row=r, column=c).value = value
    save(wb, book)
    return list(range(start, start + len(rows)))


def economy_rows(state: Mapping[str, Any], fid: str) -> tuple[list[tuple[Cell, ...]], list[str], str]:
    """The faction's «Экономика» rows with bad counts, the message each gets, and the building of its last
    row (a good one: the first building of the faction's first city)."""
    data = load_data()
    vocab = RS.vocabularies(state, fid)
    city = vocab["own_cities"][0]
    unit = next(u.name for u in sorted(data.faction_units(fid), key=lambda u: u.tier))
    building = next(b.name for b in sorted(data.faction_buildings(fid), key=lambda b: b.tier))
    rival = next(r["name"] for f, r in state["factions"].items() if f != fid)
    counted = {"Нанять": ("", unit), "Улучшить город": (city, ""), "Купить нефрит": ("", ""), "Вложить": ("", ""),
               "Отправить в спячку": ("", "Чистокровный")}
    single = {"Построить": (city, building), "Продать": (city, building), "Восстановить руины": (city, ""),
              "Чистка генералов": ("", ""), "Ритуал вечных слуг": ("", ""), "Обратить в рабов": (city, ""),
              "Мстительный поход": ("", rival), "Записывать обиды": (city, rival)}
    rows: list[tuple[Cell, ...]] = []
    texts: list[str] = []
    for action in vocab["economy_actions"]:
        if action in counted:
            for value, shown in BAD_COUNTS:
                rows.append((action, *counted[action], value))
                texts.append(not_a_count(shown))
        elif action in single:
            for value, shown in [*BAD_COUNTS, (2, "2")]:
                rows.append((action, *single[action], value))
                texts.append(one_at_a_time(action, shown))
    rows.append(("Построить", city, building, 1))
    texts.append("OK: Построить: построено за ")
    return rows, texts, building


def verdicts(report: StageReport, book: str, tab: str, numbers: Sequence[int]) -> list[str]:
    by_row = {o["row"]: str(o["text"]) for o in report.outcomes[book] if o["tab"] == tab}
    return [by_row.get(n, "") for n in numbers]


def agree(expected: Sequence[str], checked: Sequence[str], turned: Sequence[str]) -> None:
    """Each row: check and turn give the same text, the expected one (an OK row, or one ending in «…», only as
    its beginning)."""
    assert list(checked) == list(turned)
    for want, got in zip(expected, checked, strict=True):
        begins = want.startswith("OK") or want.endswith("…")
        assert got.startswith(want.rstrip("…")) if begins else got == want, (want, got)


def dwarves_attack(books: Mapping[str, Path]) -> None:
    """The Dwarves attack Линдвальд (the Empire's, garrisoned): ten miners in five squads, four youngbeards in
    the sixth; the battle waits for planning."""
    squads = [(f, line) for f in ("Левый", "Центр", "Правый") for line in ("Авангард", "Арьергард")]
    attack = [("Поход", f, line, "Горняки", 2) for f, line in squads[:5]] + [("Поход", *squads[5], "Младобород", 4)]
    type_rows(books["dwarves"], "Армии", attack)
    type_rows(books["dwarves"], "Приказы армиям", [("Поход", "Атаковать", "Линдвальд", "Колонизировать", "Нет")])


def test_every_numeric_field_of_the_orders_stage_refuses_nonsense_in_check_and_turn_alike(tmp_path: Path) -> None:
    """Setup: the demo game, turn 1. Orders (each bad value in a row of its own):
    - every faction's «Экономика»: for each of its actions, the bad counts (−3, 0, «2,5», 2.5, 1e9, «1e9»,
      «пять»; 2 too where the action is done one at a time), then «Построить · <first city> · <first building>»;
    - the Empire's «Армии» and «Гарнизоны»: the bad counts, then a good army row;
    - the GM's «Корректировки» «Изменение»: 0, «2,5», 2.5, 1e9, «1e9», «пять», then «Империя · Золото · -3».
    Expected: each bad row refused by check and by turn with the same message (what is wrong, what is allowed);
    each good row accepted and carried out (every faction's building stands, the Empire's gold has the −3)."""
    gd: GameDir = new_game(tmp_path / "g", seed="nonsense-numbers")
    state = gd.latest_state()
    books = {key: gd.path / name for key, name in gd.config.books.items()}
    expected: dict[tuple[str, str], tuple[list[int], list[str]]] = {}
    built: dict[str, tuple[str, str]] = {}
    for fid in RS.factions(state):
        rows, texts, building = economy_rows(state, fid)
        expected[(fid, "economy")] = (type_rows(books[fid], "Экономика", rows), texts)
        built[fid] = (str(rows[-1][1]), building)
    aurenheim = next(c for c, rec in state["cities"].items() if rec["name"] == "Ауренхайм")
    garrison_unit = load_data().units[next(iter(garrison_of(jade_rose_state(state), aurenheim)))].name
    army = [(f"Плохая {i}", "Центр", "Авангард", "Копейщик", v) for i, (v, _) in enumerate(BAD_COUNTS)]
    army.append(("Стража", "Центр", "Авангард", "Копейщик", 3))
    expected[("empire", "armies")] = (type_rows(books["empire"], "Армии", army),
                                      [not_a_count(shown) for _, shown in BAD_COUNTS] + ["OK"])
    garrison = [("Ауренхайм", "Левый", "Авангард", garrison_unit, v) for v, _ in BAD_COUNTS]
    expected[("empire", "garrisons")] = (type_rows(books["empire"], "Гарнизоны", garrison),
                                         [not_a_count(shown) for _, shown in BAD_COUNTS])
    amounts = [(v, s) for v, s in BAD_COUNTS if v != -3]
    adjust = [("Империя", "Золото", v, "правка") for v, _ in amounts] + [("Империя", "Золото", -3, "штраф")]
    expected[(GM_BOOK, "adjustments")] = (type_rows(books[GM_BOOK], "Корректировки", adjust),
                                          [bad_amount(s) for _, s in amounts] + ["OK: будет применено"])

    checked = check(gd)
    turned = run_turn(gd)
    for (book, tab), (numbers, texts) in expected.items():
        agree(texts, verdicts(checked, book, tab, numbers), verdicts(turned, book, tab, numbers))
    after = gd.latest_state()
    for fid, (city, building) in built.items():
        cid = next(c for c, rec in after["cities"].items() if rec["name"] == city)
        assert any(load_data().buildings[b].name == building for b in after["cities"][cid]["buildings"]), fid
    fine = next(line for line in after["ledger"] if line["faction"] == "empire")
    assert (fine["amount"], fine["reason"]) == (-3, "Корректировка мастера: штраф")


def test_runes_refuse_nonsense_at_planning_in_check_and_turn_alike(tmp_path: Path) -> None:
    """Setup: the demo game; the Dwarves attack Линдвальд (the Empire's, garrisoned) with six squads, so the
    battle waits for planning. At planning the Dwarves' «Руны» get −3, «2,5», 2.5, 1e9, «пять» and 0 (allowed:
    spend none), the Empire's «Руны» 2 and −3 (the Empire has no runes).
    Expected: check and turn refuse each bad row alike, saying what is allowed (a whole number from 0 to 1000;
    for the Empire an empty cell); the Dwarves' row with 0 is accepted; the battle is fought."""
    gd: GameDir = new_game(tmp_path / "g", seed="nonsense-runes")
    books = {key: gd.path / name for key, name in gd.config.books.items()}
    dwarves_attack(books)
    run_turn(gd)
    assert gd.latest_state()["stage"] == "planning"
    runes_values: list[tuple[Cell, str]] = [(-3, "-3"), ("2,5", "2,5"), (2.5, "2.5"), (1e9, "1000000000"),
                                            ("пять", "пять"), (0, "")]
    planned: dict[str, list[tuple[Cell, str]]] = {"dwarves": runes_values,
                                                  "empire": [(2, NOT_DWARF), (-3, NOT_DWARF)]}
    rows_by_book: dict[str, list[int]] = {}
    for book, values in planned.items():
        wb = load_for_edit(books[book])
        ws = wb["Манёвры"]
        column = [c.value for c in ws[1]].index("Руны") + 1
        numbers = [r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value][:len(values)]
        assert len(numbers) == len(values), (book, numbers)
        for number, (value, _) in zip(numbers, values, strict=True):
            ws.cell(row=number, column=column).value = value
        save(wb, books[book])
        rows_by_book[book] = numbers
    checked = check(gd)
    turned = run_turn(gd)
    for book, values in planned.items():
        texts = [shown if book == "empire" else not_runes(shown) if shown else "OK" for _, shown in values]
        numbers = rows_by_book[book]
        agree(texts, verdicts(checked, book, "manoeuvres", numbers), verdicts(turned, book, "manoeuvres", numbers))
    assert gd.latest_state()["stage"] == "orders" and gd.latest_state()["turn"] == 2
