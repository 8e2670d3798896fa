"""`forumwar demo`: a scripted nine-turn Jade Rose game on local xlsx books, played the way players would.

Each turn the four factions' "players" (small bots below) type their orders into their own Excel books
(openpyxl, as a player editing the file): economy and faction actions from a calendar, armies and
army orders, a garrison placement; when battles need planning they fill the manoeuvres tab from what the
scouting tab reveals. The GM runs `check` and `turn` like in a real game. Every faction also makes one
deliberate mistake per turn so the status messages show. The calendar is meant to touch every mechanic
of the rule book at least once; the game ends at Midnight after turn 9.

The bots only read the game's JSON state and the rule set's data dump: the bridge stays rule-set neutral.
"""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Callable

import openpyxl

from engine import find_ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.create import create_game
from sheets_bridge.stage import check, run_turn

DEMO_SEED = "forumwar-demo"
Row = tuple[str, ...]

# Economy calendar: turn -> faction -> rows of (Действие, Город, Что, Количество).
# Rows naming a city the faction no longer holds are skipped (a player would not type them), except the
# deliberate mistakes marked with "!" in front of the action.
ECONOMY: dict[int, dict[str, list[Row]]] = {
    1: {
        "empire": [("Построить", "Ауренхайм", "Барак", ""), ("Построить", "Линдвальд", "Часовня", ""),
                   ("Нанять", "", "Копейщик", "10"), ("Нанять", "", "Лучник", "4"),
                   ("!Построить", "Ауренхайм", "Великий собор", "")],           # tier 3 in a level-1 city
        "vampires": [("Построить", "Нахтбург", "Поместья вампиров", ""), ("Построить", "Туманный Погост", "Склеп", ""),
                     ("Нанять", "", "Полукровка", "5"),
                     ("!Построить", "Неведомск", "Склеп", "")],                # unknown city
        "dwarves": [("Построить", "Карак-Азгал", "Учебный плац", ""),
                    ("Построить", "Карак-Азгал", "Гильдия вкладчиков", ""), ("Вложить", "", "", "300"),
                    ("Нанять", "", "Горняки", "6"),
                    ("!Нанять", "", "Младобород", "много")],                   # garbage in a number column
        "jade": [("Построить", "Юйлун", "Вербовочный пункт", ""), ("Купить нефрит", "", "", "200"),
                 ("Нанять", "", "Нефритовый воин", "8"),
                 ("!Построить", "Цинхэ", "Пагода", "")],                       # unknown building
    },
    2: {
        "empire": [("Показательная казнь", "", "", ""), ("Построить", "Штальбург", "Фермерские угодья", ""),
                   ("Нанять", "", "Копейщик", "6"),
                   ("!Нанять", "", "Рыцарь", "5")],                            # needs the Hall of knights
        "vampires": [("Построить", "Чёрная Топь", "Поля", ""), ("Нанять", "", "Полукровка", "3"),
                     ("!Нанять", "", "Чистокровный", "9")],                    # over the limit of 5
        "dwarves": [("Построить", "Глубокий Кряж", "Карьер", ""), ("Нанять", "", "Горняки", "5"),
                    ("!Нанять", "", "Горняки", "500")],                        # not enough gold
        "jade": [("Построить", "Лотосовая Долина", "Рисовые поля", ""), ("Купить нефрит", "", "", "300"),
                 ("Нанять", "", "Нефритовый воин", "10"),
                 ("!Купить нефрит", "", "", "900")],                           # over the jade limit
    },
    3: {
        "empire": [("Улучшить город", "Ауренхайм", "", ""), ("Улучшить город", "Мариенталь", "", ""),
                   ("Нанять", "", "Лучник", "4"),
                   ("!Улучшить город", "Линдвальд", "", ""), ("!Улучшить город", "Линдвальд", "", "")],  # era cap
        "vampires": [("Улучшить город", "Нахтбург", "", ""), ("Улучшить город", "Кровавый Брод", "", ""),
                     ("!Построить", "Нахтбург", "Кровавый дворец", "")],       # tier 3 in a level-1 city
        "dwarves": [("Мстительный поход", "", "Нефритовый двор", ""), ("Улучшить город", "Карак-Азгал", "", ""),
                    ("Улучшить город", "Серый Перевал", "", ""), ("Нанять", "", "Горняки", "8"),
                    ("!Вложить", "", "", "5000")],                             # more than the guild takes
        "jade": [("Улучшить город", "Юйлун", "", ""), ("Купить нефрит", "", "", "300"),
                 ("Нанять", "", "Нефритовый воин", "6"),
                 ("!Нанять", "", "Нефритовый зверь", "2")],                    # forge city level too low
    },
    4: {
        "empire": [("Построить", "Ауренхайм", "Штаб тайной полиции", ""), ("Построить", "Мариенталь", "Зал рыцарей", ""),
                   ("Нанять", "", "Рыцарь", "3"),
                   ("!Террор", "", "", "")],                                  # needs the Inquisition
        "vampires": [("Построить", "Нахтбург", "Рынок рабов", ""), ("Построить", "Нахтбург", "Виселица", ""),
                     ("Построить", "Кровавый Брод", "Барак", ""),
                     ("!Ритуал вечных слуг", "", "", "")],                     # only from the Day era
        "dwarves": [("Построить", "Карак-Азгал", "Рунный обелиск", ""),
                    ("Построить", "Серый Перевал", "Комната записи обид", ""),
                    ("Записывать обиды", "Серый Перевал", "Империя", ""), ("Улучшить город", "Глубокий Кряж", "", ""),
                    ("Нанять", "", "Младобород", "4"),
                    ("!Построить", "Карак-Азгал", "Рунный обелиск", "")],       # duplicate building
        "jade": [("Построить", "Юйлун", "Нефритовая шахта", ""), ("Купить нефрит", "", "", "450"),
                 ("Нанять", "", "Нефритовый воин", "10"), ("Улучшить город", "Лотосовая Долина", "", ""),
                 ("!Построить", "Лотосовая Долина", "Рисовые поля", "")],      # duplicate building
    },
    5: {
        "empire": [("Улучшить город", "Ауренхайм", "", ""), ("Слежка", "", "", ""), ("Нанять", "", "Рыцарь", "3"),
                   ("!Построить", "Линдвальд", "Казарма", "")],                # city level 1
        "vampires": [("Обратить в рабов", "{small}", "", ""), ("Ритуал вечных слуг", "", "", ""),
                     ("Продать", "Нахтбург", "Поместья вампиров", ""), ("Построить", "Нахтбург", "Особняки вампиров", ""),
                     ("Нанять", "", "Новообращённый", "4"),
                     ("!Улучшить город", "Атлантида", "", "")],
        "dwarves": [("Улучшить город", "Карак-Азгал", "", ""), ("Восстановить руины", "Нефритовая Гавань", "", ""),
                    ("Продать", "Глубокий Кряж", "Карьер", ""), ("Построить", "Глубокий Кряж", "Военная академия", ""),
                    ("Нанять", "", "Длиннобород", "5"),
                    ("!Нанять", "", "Рунная гвардия", "2")],                   # needs the Rune academy
        "jade": [("Улучшить город", "Юйлун", "", ""), ("Улучшить город", "Лотосовая Долина", "", ""),
                 ("Купить нефрит", "", "", "450"), ("Нанять", "", "Нефритовый воин", "6"),
                 ("!Купить нефрит", "", "", "много")],
    },
    6: {
        "empire": [("Чистка чиновников", "", "", ""), ("Нанять", "", "Лучник", "6"),
                   ("!Построить", "Ауренхайм", "Штаб инквизиции", "")],        # no construction this turn
        "vampires": [("Нанять", "", "Полукровка", "6"),
                     ("!Продать", "Нахтбург", "Кровавый дворец", "")],          # not built there          # not built there
        "dwarves": [("Продать", "Карак-Азгал", "Гильдия вкладчиков", ""),
                    ("Построить", "Карак-Азгал", "Пещера Фрагулекса", ""), ("Нанять", "", "Горняки", "6"),
                    ("!Продать", "Карак-Азгал", "Пещера Фрагулекса", "")],      # sold the same turn: nothing back
        "jade": [("Продать", "Юйлун", "Нефритовая шахта", ""), ("Построить", "Юйлун", "Храм нефритовой чумы", ""),
                 ("Купить нефрит", "", "", "300"), ("Нанять", "", "Нефритовый воин", "10"),
                 ("!Нанять", "", "Нефритовый дракон", "1")],
    },
    7: {
        "empire": [("Построить", "Ауренхайм", "Штаб инквизиции", ""), ("Террор", "", "", ""),
                   ("Нанять", "", "Копейщик", "10"), ("!Слежка", "", "", "")],   # one action a turn
        "vampires": [("Восстановить руины", "{ruins}", "", ""), ("Улучшить город", "Нахтбург", "", ""),
                     ("Нанять", "", "Полукровка", "6"), ("!Обратить в рабов", "Юйлун", "", "")],
        "dwarves": [("Построить", "Глубокий Кряж", "Рудник", ""), ("Нанять", "", "Длиннобород", "6"),
                    ("!Построить", "Глубокий Кряж", "Сеть шахт", "")],
        "jade": [("Продать", "Юйлун", "Вербовочный пункт", ""), ("Построить", "Юйлун", "Военная крепость", ""),
                 ("Купить нефрит", "", "", "300"), ("Нанять", "", "Нефритовый зверь", "4"),
                 ("!Построить", "Цинхэ", "Великая Кузня", "")],                # city level 1
    },
    8: {
        "empire": [("Чистка генералов", "", "", ""), ("Нанять", "", "Копейщик", "10"),
                   ("!Чистка генералов", "", "", "")],
        "vampires": [("Продать", "Нахтбург", "Виселица", ""), ("Построить", "Нахтбург", "Трущобы", ""),
                     ("Нанять", "", "Полукровка", "6"),
                     ("!Нанять", "", "Лорд вампиров", "2")],
        "dwarves": [("Продать", "Карак-Азгал", "Учебный плац", ""),
                    ("Построить", "Карак-Азгал", "Гильдия бесконечной мести", ""),
                    ("Нанять", "", "Горняки", "10"), ("Нанять", "", "Длиннобород", "6"),
                    ("!Записывать обиды", "Серый Перевал", "Гномы хаоса", "")],   # no such faction
        "jade": [("Продать", "Лотосовая Долина", "Рисовые поля", ""), ("Построить", "Лотосовая Долина", "Поместья", ""),
                 ("Купить нефрит", "", "", "500"), ("Нанять", "", "Нефритовый дракон", "1"),
                 ("!Нанять", "", "Пушка 'Зелёный град'", "90")],                # not enough gold and jade
    },
    9: {
        "empire": [("Нанять", "", "Копейщик", "10"), ("!Нанять", "", "Архижрец", "1")],
        "vampires": [("Нанять", "", "Полукровка", "5"), ("!Нанять", "", "Рыцарь смерти", "1")],
        "dwarves": [("Нанять", "", "Горняки", "10"), ("!Нанять", "", "Рунная гвардия", "2")],   # needs the Rune academy
        "jade": [("Продать", "Лотосовая Долина", "Поместья", ""), ("Построить", "Лотосовая Долина", "Великая Кузня", ""),
                 ("Купить нефрит", "", "", "300"), ("Нанять", "", "Нефритовый воин", "10"),
                 ("!Построить", "Юйлун", "Великая Кузня", "")],                # one per city
    },
}

# War calendar: turn -> faction -> list of (army, order, target city, capture choice, skip planning, units).
# units: "all" (every awake unit not in another army) or {unit name: count}.
WAR: dict[int, dict[str, list[tuple]]] = {
    1: {"empire": [("Северная", "Атаковать", "Чёрная Топь", "Колонизировать", "Нет", "all")],
        "vampires": [("Стража", "Оборонять", "Чёрная Топь", "", "", "all")]},
    2: {"jade": [("Нефритовая", "Атаковать", "Медная Гора", "Разграбить", "Да", "all")]},
    3: {"dwarves": [("Месть", "Атаковать", "Нефритовая Гавань", "Разрушить", "Нет", "all")],
        "empire": [("Северная", "Атаковать", "Цинхэ", "Колонизировать", "Нет", "all")],
        "vampires": [("Клыки", "Атаковать", "Цинхэ", "Разграбить", "Нет", "all")],
        "jade": [("Нефритовая", "Оборонять", "Цинхэ", "", "", "all")]},
}
# From turn 4 every faction attacks the weakest neighbouring enemy city with all it has,
# choosing the capture option of the turn; vampires are everyone's favourite prey late in the game.
LATE_CAPTURE = {4: "Колонизировать", 5: "Разграбить", 6: "Колонизировать", 7: "Разграбить",
                8: "Колонизировать", 9: "Колонизировать"}


class DemoBooks:
    """Typing into the faction books as players do (the GM's bridge never goes through here)."""

    def __init__(self, gd: GameDir, layout: Layout):
        self.gd = gd
        self.layout = layout

    def path(self, key: str) -> Path:
        return self.gd.path / self.gd.config.books[key]

    def title(self, key: str) -> str:
        return next(t.title for t in self.layout.order_tabs() if t.key == key)

    def replace(self, book: str, tab_key: str, rows: list[Row]) -> None:
        """Clear a tab's rows below the header and type new ones (numbers as numbers, like Excel does)."""
        wb = openpyxl.load_workbook(self.path(book))
        ws = wb[self.title(tab_key)]
        width = ws.max_column
        for r in range(2, ws.max_row + 1):
            for c in range(1, width + 1):
                ws.cell(row=r, column=c).value = None
        for r, values in enumerate(rows, start=2):
            for c, value in enumerate(values, start=1):
                if value != "":
                    ws.cell(row=r, column=c).value = int(value) if str(value).isdigit() else value
        wb.save(self.path(book))

    def read(self, book: str, title: str) -> list[list[str]]:
        wb = openpyxl.load_workbook(self.path(book), read_only=True)
        if title not in wb.sheetnames:
            return []
        return [["" if v is None else str(v) for v in row] for row in wb[title].iter_rows(values_only=True)]


def fill_orders(book_path: Path, tab_title: str, rows: list[tuple[str, ...]]) -> None:
    """Type rows into an order tab below its last filled row, as a player would in Excel."""
    wb = openpyxl.load_workbook(book_path)
    ws = wb[tab_title]
    header = [c.value for c in ws[1]]
    start = 2
    while any(ws.cell(row=start, column=i + 1).value not in (None, "") for i in range(len(header) - 1)):
        start += 1
    for r, values in enumerate(rows, start=start):
        for c, value in enumerate(values, start=1):
            if value != "":
                ws.cell(row=r, column=c).value = int(value) if str(value).isdigit() else value
    wb.save(book_path)


class Bot:
    """One faction's scripted player."""

    def __init__(self, fid: str, data: dict):
        self.fid = fid
        self.data = data
        self.by_name = {u["name"]: k for k, u in data["units"].items() if u["faction"] == fid}

    def own_cities(self, state: dict) -> set[str]:
        return {c["name"] for c in state["cities"].values() if c.get("owner") == self.fid and not c.get("ruins")}

    def economy_rows(self, state: dict, turn: int) -> list[Row]:
        rows = []
        mine = sorted((c for c in state["cities"].values() if c.get("owner") == self.fid),
                      key=lambda c: (c["level"], c["name"]))
        own = {c["name"] for c in mine}
        picks = {"{small}": next((c["name"] for c in mine if not c.get("capital") and not c.get("ruins")), ""),
                 "{ruins}": next((c["name"] for c in mine if c.get("ruins")), "")}
        for action, city, what, count in ECONOMY.get(turn, {}).get(self.fid, []):
            mistake = action.startswith("!")
            action = action.lstrip("!")
            city = picks.get(city, city)
            if city and city not in own and not mistake:
                continue
            rows.append((action, city, what, count))
        return rows

    def awake_units(self, state: dict) -> dict[str, int]:
        rec = state["factions"][self.fid]
        sleeping = rec.get("hibernating", {})
        return {k: n - sleeping.get(k, 0) for k, n in rec.get("units", {}).items() if n - sleeping.get(k, 0) > 0}

    def deploy(self, units: dict[str, int]) -> list[tuple[str, str, str, int]]:
        """Shooters in the centre rearguard, chargers on the left, everyone else in the centre vanguard."""
        rows = []
        for key, n in sorted(units.items()):
            abil = self.data["units"][key]["abilities"]
            if "ranged" in abil:
                flank, line = "Центр", "Арьергард"
            elif abil.get("can_charge") and not abil.get("no_manoeuvres"):
                flank, line = "Левый", "Авангард"
            else:
                flank, line = "Центр", "Авангард"
            if abil.get("one_per_squad") and n > 1:
                rows.append((flank, line, key, 1))
                for extra_flank in ("Правый", "Левый"):
                    if n > 1:
                        rows.append((extra_flank, "Авангард", key, 1))
                        n -= 1
                continue
            rows.append((flank, line, key, n))
        if any(r[1] == "Арьергард" for r in rows) and not any(r[0] == "Центр" and r[1] == "Авангард" for r in rows):
            rows = [(f, "Авангард" if f == "Центр" else l, k, n) for f, l, k, n in rows]
        return rows

    def war_rows(self, state: dict, turn: int) -> tuple[list[Row], list[Row]]:
        plan = WAR.get(turn, {}).get(self.fid)
        if plan is None and turn >= 4:
            plan = self.late_plan(state, turn)
        army_rows, order_rows = [], []
        free = dict(self.awake_units(state))
        for army, order, city, capture, skip, units in plan or []:
            chosen = free if units == "all" else {self.by_name[n]: c for n, c in units.items()}
            if not chosen:
                continue
            for flank, line, key, n in self.deploy(chosen):
                army_rows.append((army, flank, line, self.data["units"][key]["name"], str(n)))
            order_rows.append((army, order, city, capture, skip))
            if units == "all":
                free = {}
        return army_rows, order_rows

    def late_plan(self, state: dict, turn: int) -> list[tuple]:
        roads = state["roads"]
        mine = {cid for cid, c in state["cities"].items() if c.get("owner") == self.fid and not c.get("ruins")}
        targets = set()
        for a, b in roads:
            for x, y in ((a, b), (b, a)):
                if x in mine and state["cities"][y].get("owner") != self.fid:
                    owner = state["cities"][y].get("owner")
                    if owner is None or not state["factions"].get(owner, {}).get("won"):
                        targets.add(y)
        if not targets or not self.awake_units(state):
            return []

        def weakness(cid):
            c = state["cities"][cid]
            prey = 0 if c.get("owner") == "vampires" else 1
            return (1 if c.get("ruins") else 0, prey, c["large"], c["level"], c["name"])

        target = min(targets, key=weakness)
        capture = LATE_CAPTURE.get(turn, "Колонизировать")
        return [("Поход", "Атаковать", state["cities"][target]["name"], capture, "Нет", "all")]

    def garrison_rows(self, books: DemoBooks, state: dict) -> list[Row]:
        """Place the capital's garrison as the «Города» tab shows it: shooters behind, riders on the right."""
        capital = next((c["name"] for c in state["cities"].values()
                        if c.get("owner") == self.fid and c.get("capital") and not c.get("ruins")), None)
        cities = books.read(self.fid, "Города")
        if not capital or not cities:
            return []
        col = cities[0].index("Гарнизон")
        text = next((r[col] for r in cities[1:] if r and r[0] == capital), "")
        rows = []
        for part in text.split(","):
            if " ×" not in part:
                continue
            name, n = part.strip().rsplit(" ×", 1)
            abil = self.data["units"].get(self.by_name.get(name, ""), {}).get("abilities", {})
            if "ranged" in abil and not abil.get("can_charge"):
                flank, line = "Центр", "Арьергард"
            elif abil.get("can_charge") and not abil.get("one_per_squad"):
                flank, line = "Правый", "Авангард"
            else:
                continue                      # the rest stands where the default puts it
            rows.append((capital, flank, line, name, n))
        return rows

    def manoeuvres(self, books: DemoBooks, book_rows: list[list[str]], scouting: list[list[str]]) -> list[Row]:
        """Choose a manoeuvre for every pre-filled squad row from what the scouting tab shows."""
        enemy: dict[str, set[str]] = {}
        for row in scouting[1:]:
            if len(row) >= 3 and row[0]:
                enemy.setdefault(row[0], set()).add(row[2])
        out = []
        for i, row in enumerate(book_rows[1:]):
            row = (row + [""] * 8)[:8]
            fight, squad, units = row[0], row[1], row[2]
            if not fight:
                continue
            abil = [self.data["units"][self.by_name[name]]["abilities"] if name in self.by_name else {}
                    for name in (part.split(" ×")[0].strip() for part in units.split(","))]
            flank = squad.split()[0] if squad else ""
            near = {"Левый": ("Левый", "Центральный"), "Центральный": ("Левый", "Центральный", "Правый"),
                    "Правый": ("Центральный", "Правый")}.get(flank, ())
            foes = enemy.get(fight, set())
            manoeuvre, target = "Нет", ""
            if abil and all("ranged" in a for a in abil):
                aims = [f"{f} авангард" for f in near if f"{f} авангард" in foes]
                if aims:
                    manoeuvre, target = "Обстрел", aims[0]
                else:
                    manoeuvre = "В укрытие"
            elif abil and all(a.get("can_charge") for a in abil):
                aims = [f"{f} арьергард" for f in near if f"{f} арьергард" in foes]
                if aims:
                    manoeuvre, target = "Натиск", aims[0]
            elif squad.endswith("авангард") and f"{flank} арьергард" in {r[1] for r in book_rows[1:] if r and r[0] == fight}:
                manoeuvre, target = "Защита", f"{flank} арьергард"
            runes = "3" if self.fid == "dwarves" and row[6] != "" else row[6]
            out.append((fight, squad, units, manoeuvre, target, "", runes))
        return out


def run_demo(path: Path, turns: int = 9, echo: Callable[[str], None] = print) -> GameDir:
    if path.exists() and (path / "game.toml").exists():
        shutil.rmtree(path)
    gd = create_game(path, "jade_rose", "demo", backend="xlsx", seed=DEMO_SEED, title="Демо-партия")
    rs = find_ruleset("jade_rose")
    data = rs.dump_data()
    layout = Layout.load("jade_rose")
    books = DemoBooks(gd, layout)
    bots = {fid: Bot(fid, data) for fid in gd.latest_state()["factions"]}
    for _ in range(turns):
        state = gd.latest_state()
        if state["stage"] == "finished":
            break
        turn = state["turn"]
        for fid, bot in bots.items():
            rec = state["factions"][fid]
            if rec.get("eliminated") or rec.get("won"):
                continue
            books.replace(fid, "economy", bot.economy_rows(state, turn))
            books.replace(fid, "garrisons", bot.garrison_rows(books, state))
            army_rows, order_rows = bot.war_rows(state, turn)
            books.replace(fid, "armies", army_rows)
            books.replace(fid, "army_orders", order_rows)
        report = check(gd)
        echo(f"Ход {turn}: проверка приказов — " + ", ".join(
            f"{fid}: {ok} OK, {bad} с ошибками" for fid, (ok, bad) in report.counts().items() if ok or bad))
        result = run_turn(gd)
        state = gd.latest_state()
        if state["stage"] == "planning":
            for fid, bot in bots.items():
                rows = books.read(fid, books.title("manoeuvres"))
                if len(rows) > 1:
                    scouting = books.read(fid, "Разведка")
                    books.replace(fid, "manoeuvres", bot.manoeuvres(books, rows, scouting))
            echo(f"Ход {turn}: бои требуют планирования — игроки заполнили «Манёвры»")
            result = run_turn(gd)
        echo(f"Ход {result.turn} рассчитан; архив: {result.archive}")
    state = gd.latest_state()
    summary = rs.summary(state)
    echo("")
    echo(f"Демо-игра: {gd.path} (ход {summary['turn']}, этап {summary['stage']})")
    for key, book_id in gd.config.books.items():
        echo(f"  книга {key}: {gd.path / book_id}")
    for fid, f in summary["factions"].items():
        flag = " — ПОБЕДА" if fid in summary.get("winners", []) else (" — выбыла" if f["eliminated"] else "")
        echo(f"  {f['name']}{flag}: золото {f['gold']}, городов {len(f['cities'])}, "
             f"юнитов {sum(f['units'].values())}")
    echo("Откройте книги в Excel или LibreOffice; 'forumwar status DIR' покажет сводку.")
    return gd
