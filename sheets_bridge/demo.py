"""`forumwar demo`: a scripted Jade Rose game on local xlsx books, played the way players would.

Orders are typed into each faction's Excel book (openpyxl, as a player editing the file), then the GM
runs `check` and `turn`. Every faction gets one deliberately wrong row per turn so the status messages show.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import openpyxl

from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, create_game, open_backend, run_turn

DEMO_SEED = "forumwar-demo"

# Per turn, per faction: rows of (Действие, Город, Что, Количество). "{capital}" and "{city2}" are filled in.
SCRIPT: dict[int, dict[str, list[tuple[str, str, str, str]]]] = {
    1: {
        "empire": [("Построить", "{capital}", "Барак", ""), ("Нанять", "", "Копейщик", "10"),
                   ("Построить", "{city2}", "Часовня", ""),
                   ("Построить", "{capital}", "Великий собор", "")],            # tier 3 in a level-1 city
        "vampires": [("Построить", "{capital}", "Поместья вампиров", ""), ("Нанять", "", "Полукровка", "8"),
                     ("Построить", "Неведомск", "Склеп", "")],                   # unknown city
        "dwarves": [("Построить", "{capital}", "Учебный плац", ""), ("Нанять", "", "Горняки", "6"),
                    ("Нанять", "", "Младобород", "много")],                     # garbage in a number column
        "jade": [("Построить", "{capital}", "Вербовочный пункт", ""), ("Купить нефрит", "", "", "150"),
                 ("Нанять", "", "Нефритовый воин", "6"), ("Построить", "{city2}", "Пагода", "")],  # unknown building
    },
    2: {
        "empire": [("Построить", "{capital}", "Фермерские угодья", ""), ("Нанять", "", "Лучник", "6"),
                   ("Нанять", "", "Рыцарь", "5")],                              # knights need the Hall of knights
        "vampires": [("Построить", "{city2}", "Поля", ""), ("Нанять", "", "Чистокровный", "3"),
                     ("Нанять", "", "Чистокровный", "5")],                       # over the limit of 5
        "dwarves": [("Построить", "{city2}", "Карьер", ""), ("Нанять", "", "Инженер", "1"),
                    ("Нанять", "", "Горняки", "500")],                         # not enough gold
        "jade": [("Построить", "{city2}", "Рисовые поля", ""), ("Нанять", "", "Пращник", "6"),
                 ("Купить нефрит", "", "", "900")],                             # over the per-turn jade limit
    },
    3: {
        "empire": [("Улучшить город", "{capital}", "", ""), ("Продать", "{city2}", "Часовня", ""),
                   ("Построить", "{city3}", "Барак", "")],
        "vampires": [("Улучшить город", "{city2}", "", ""), ("Построить", "{city3}", "Поля", ""),
                     ("Улучшить город", "{capital}", "", "")],
        "dwarves": [("Улучшить город", "{capital}", "", ""), ("Построить", "{capital}", "Военная академия", "")],
        "jade": [("Улучшить город", "{city2}", "", ""), ("Улучшить город", "{city2}", "", "")],  # twice: era cap
    },
}


def _cities(state: dict, fid: str) -> dict[str, str]:
    own = [c for c in state["cities"].values() if c.get("owner") == fid]
    own.sort(key=lambda c: (not c.get("capital"), c["name"]))
    names = {"capital": own[0]["name"]}
    for i, c in enumerate(own[1:], start=2):
        names[f"city{i}"] = c["name"]
    return names


def fill_orders(book_path: Path, tab_title: str, rows: list[tuple[str, ...]]) -> None:
    """Type rows into an order tab below its header, as a player would in Excel."""
    wb = openpyxl.load_workbook(book_path)
    ws = wb[tab_title]
    header = [c.value for c in ws[1]]
    start = 2
    while any(ws.cell(row=start, column=i + 1).value not in (None, "") for i in range(len(header) - 1)):
        start += 1
    for r, values in enumerate(rows, start=start):
        for c, value in enumerate(values, start=1):
            if value != "":
                ws.cell(row=r, column=c).value = int(value) if value.isdigit() else value
    wb.save(book_path)


def run_demo(path: Path, turns: int = 3, echo: Callable[[str], None] = print) -> GameDir:
    if path.exists() and (path / "game.toml").exists():
        shutil.rmtree(path)
    gd = create_game(path, "jade_rose", "demo", backend="xlsx", seed=DEMO_SEED, title="Демо-партия")
    layout = Layout.load("jade_rose")
    economy_tab = next(t for t in layout.order_tabs("orders") if t.key == "economy").title
    for n in range(1, turns + 1):
        state = gd.latest_state()
        script = SCRIPT.get(n, SCRIPT[max(SCRIPT)] if n > max(SCRIPT) else {})
        for fid, rows in script.items():
            if fid not in state["factions"] or state["factions"][fid].get("eliminated"):
                continue
            names = _cities(state, fid)
            filled = [tuple(v.format(**names) if "{" in v else v for v in row) for row in rows
                      if all(("{" + k + "}") not in "".join(row) or k in names for k in ("city2", "city3"))]
            fill_orders(gd.path / gd.config.books[fid], economy_tab, filled)
        report = check(gd)
        echo(f"Ход {state['turn']}: проверка приказов — " + ", ".join(
            f"{fid}: {ok} OK, {bad} с ошибками" for fid, (ok, bad) in report.counts().items()))
        result = run_turn(gd)
        echo(f"Ход {result.turn} рассчитан; архив: {result.archive}")
    state = gd.latest_state()
    echo("")
    echo(f"Демо-игра: {gd.path}")
    for key, book_id in gd.config.books.items():
        echo(f"  книга {key}: {gd.path / book_id}")
    for fid, f in state["factions"].items():
        cities = sum(1 for c in state["cities"].values() if c.get("owner") == fid)
        echo(f"  {f['name']}: золото {f['gold']}, городов {cities}, юнитов {sum(f.get('units', {}).values())}")
    echo("Откройте книги в Excel или LibreOffice; 'forumwar status DIR' покажет сводку.")
    return gd
