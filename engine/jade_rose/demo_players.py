"""Scripted Jade Rose players for `forumwar demo` (the DemoPlayers capability).

Each turn the four factions' "players" choose their orders from the game state, the rule set's data
and what their own book shows (the «Города» tab, and «Манёвры» with «Разведка» when battles need
planning): economy and faction actions from a calendar, armies and army orders, a garrison
placement, manoeuvres. Every faction also makes one deliberate mistake per turn so the status
messages show. The calendar touches every mechanic of the rule book at least once; the game ends
at Midnight after turn 9. Pure: the bridge types the rows into the books.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from engine.jade_rose.data import dump_data
from engine.jade_rose.state_types import JadeRoseState, jade_rose_state

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
        "empire": [("Построить", "Ауренхайм", "Штаб тайной полиции", ""),
                   ("Построить", "Мариенталь", "Зал рыцарей", ""),
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
                     ("Продать", "Нахтбург", "Поместья вампиров", ""),
                     ("Построить", "Нахтбург", "Особняки вампиров", ""),
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
                     ("!Продать", "Нахтбург", "Кровавый дворец", "")],          # not built there
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
        "jade": [("Продать", "Лотосовая Долина", "Поместья", ""),
                 ("Построить", "Лотосовая Долина", "Великая Кузня", ""),
                 ("Купить нефрит", "", "", "300"), ("Нанять", "", "Нефритовый воин", "10"),
                 ("!Построить", "Юйлун", "Великая Кузня", "")],                # one per city
    },
}

# War calendar: turn -> faction -> list of (army, order, target city, capture choice, skip planning, units).
# units: "all" (every awake unit not in another army) or {unit name: count}.
WarRow = tuple[str, str, str, str, str, Literal["all"] | dict[str, int]]
WAR: dict[int, dict[str, list[WarRow]]] = {
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


class Bot:
    """One faction's scripted player."""

    def __init__(self, fid: str, data: dict[str, Any]):
        self.fid = fid
        self.data = data
        self.by_name = {u["name"]: k for k, u in data["units"].items() if u["faction"] == fid}

    def own_cities(self, state: JadeRoseState) -> set[str]:
        return {c["name"] for c in state["cities"].values() if c.get("owner") == self.fid and not c.get("ruins")}

    def economy_rows(self, state: JadeRoseState, turn: int) -> list[Row]:
        rows: list[Row] = []
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

    def awake_units(self, state: JadeRoseState) -> dict[str, int]:
        rec = state["factions"][self.fid]
        sleeping = rec.get("hibernating", {})
        return {k: n - sleeping.get(k, 0) for k, n in rec.get("units", {}).items() if n - sleeping.get(k, 0) > 0}

    def deploy(self, units: dict[str, int]) -> list[tuple[str, str, str, int]]:
        """Shooters in the centre rearguard, chargers on the left, everyone else in the centre vanguard."""
        rows: list[tuple[str, str, str, int]] = []
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
            rows = [(f, "Авангард" if f == "Центр" else line, k, n) for f, line, k, n in rows]
        return rows

    def war_rows(self, state: JadeRoseState, turn: int) -> tuple[list[Row], list[Row]]:
        plan = WAR.get(turn, {}).get(self.fid)
        if plan is None and turn >= 4:
            plan = self.late_plan(state, turn)
        army_rows: list[Row] = []
        order_rows: list[Row] = []
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

    def late_plan(self, state: JadeRoseState, turn: int) -> list[WarRow]:
        roads = state["roads"]
        mine = {cid for cid, c in state["cities"].items() if c.get("owner") == self.fid and not c.get("ruins")}
        targets: set[str] = set()
        for a, b in roads:
            for x, y in ((a, b), (b, a)):
                if x in mine and state["cities"][y].get("owner") != self.fid:
                    owner = state["cities"][y].get("owner")
                    rec = state["factions"].get(owner) if owner is not None else None
                    if owner is None or not (rec is not None and rec.get("won")):
                        targets.add(y)
        if not targets or not self.awake_units(state):
            return []

        def weakness(cid: str) -> tuple[int, int, bool, int, str]:
            c = state["cities"][cid]
            prey = 0 if c.get("owner") == "vampires" else 1
            return (1 if c.get("ruins") else 0, prey, c["large"], c["level"], c["name"])

        target = min(targets, key=weakness)
        capture = LATE_CAPTURE.get(turn, "Колонизировать")
        return [("Поход", "Атаковать", state["cities"][target]["name"], capture, "Нет", "all")]

    def garrison_rows(self, cities: list[list[str]], state: JadeRoseState) -> list[Row]:
        """Place the capital's garrison as the «Города» tab shows it: shooters behind, riders on the right."""
        capital = next((c["name"] for c in state["cities"].values()
                        if c.get("owner") == self.fid and c.get("capital") and not c.get("ruins")), None)
        if not capital or not cities:
            return []
        col = cities[0].index("Гарнизон")
        text = next((r[col] for r in cities[1:] if r and r[0] == capital), "")
        rows: list[Row] = []
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

    def manoeuvres(self, book_rows: list[list[str]], scouting: list[list[str]]) -> list[Row]:
        """Choose a manoeuvre for every pre-filled squad row from what the scouting tab shows."""
        enemy: dict[str, set[str]] = {}
        for row in scouting[1:]:
            if len(row) >= 3 and row[0]:
                enemy.setdefault(row[0], set()).add(row[2])
        out: list[Row] = []
        for book_row in book_rows[1:]:
            row = (book_row + [""] * 8)[:8]
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
            elif squad.endswith("авангард") and f"{flank} арьергард" in {
                    r[1] for r in book_rows[1:] if r and r[0] == fight}:
                manoeuvre, target = "Защита", f"{flank} арьергард"
            runes = "3" if self.fid == "dwarves" and row[6] != "" else row[6]
            out.append((fight, squad, units, manoeuvre, target, "", runes))
        return out


class JadeRoseDemoPlayers:
    """The scripted players of the packaged demo scenario."""

    scenario = "demo"
    seed = "forumwar-demo"
    turns = 9

    def __init__(self) -> None:
        self._bots: dict[str, Bot] = {}

    def bot(self, fid: str) -> Bot:
        if fid not in self._bots:
            self._bots[fid] = Bot(fid, dump_data())
        return self._bots[fid]

    def orders(self, state: Mapping[str, Any], faction: str,
               book: Mapping[str, list[list[str]]]) -> dict[str, list[tuple[Any, ...]]]:
        """Rows per order tab key for the open stage (tabs left out are not touched)."""
        bot, st = self.bot(faction), jade_rose_state(dict(state))
        if st["stage"] == "planning":
            rows = book.get("Манёвры", [])
            if len(rows) <= 1:
                return {}
            return {"manoeuvres": list(bot.manoeuvres(rows, book.get("Разведка", [])))}
        armies, army_orders = bot.war_rows(st, st["turn"])
        return {"economy": list(bot.economy_rows(st, st["turn"])),
                "garrisons": list(bot.garrison_rows(book.get("Города", []), st)),
                "armies": list(armies), "army_orders": list(army_orders)}
