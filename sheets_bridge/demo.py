"""`forumwar demo`: a scripted game on local xlsx books, played the way players would.

The rule set's scripted players (its DemoPlayers capability) choose each faction's orders from the
state and what the faction's book shows; here they are typed into the faction's own Excel book
(openpyxl, as a player editing the file). The GM runs `check` and `turn` like in a real game.
Nothing here knows a rule set.
"""
from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import find_ruleset, ruleset_names
from engine.ruleset import Ruleset
from engine.state import Envelope
from sheets_bridge.backends.xlsx.files import load_for_edit, load_for_reading, save, sheet_values
from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import book_name
from sheets_bridge.stage import check, run_turn
from sheets_bridge.stage_common import StageError, Step


class DemoBooks:
    """Typing into the faction books as players do (the GM's bridge never goes through here)."""

    def __init__(self, gd: GameDir, layout: Layout):
        self.gd = gd
        self.layout = layout

    def path(self, key: str) -> Path:
        return self.gd.path / self.gd.config.books[key]

    def title(self, key: str) -> str:
        return next(t.title for t in self.layout.order_tabs() if t.key == key)

    def replace(self, book: str, tabs: dict[str, list[tuple[Any, ...]]]) -> None:
        """Clear each tab's rows below the header and type new ones (numbers as numbers, like Excel
        does): tab key -> rows, in one editing session of the book."""
        if not tabs:
            return
        wb = load_for_edit(self.path(book))
        for tab_key, rows in tabs.items():
            ws = wb[self.title(tab_key)]
            width = ws.max_column
            for r in range(2, ws.max_row + 1):
                for c in range(1, width + 1):
                    ws.cell(row=r, column=c).value = None
            for r, values in enumerate(rows, start=2):
                for c, value in enumerate(values, start=1):
                    if value != "":
                        ws.cell(row=r, column=c).value = int(value) if str(value).isdigit() else value
        save(wb, self.path(book))

    def read_all(self, book: str) -> dict[str, list[list[str]]]:
        """Every tab of a book as text rows, as the player sees it."""
        wb = load_for_reading(self.path(book))
        return {ws.title: [["" if v is None else str(v) for v in row] for row in sheet_values(ws)]
                for ws in wb.worksheets}

    def read(self, book: str, title: str) -> list[list[str]]:
        wb = load_for_reading(self.path(book))
        if title not in wb.sheetnames:
            return []
        return [["" if v is None else str(v) for v in row] for row in sheet_values(wb[title])]


def fill_orders(book_path: Path, tab_title: str, rows: list[tuple[str, ...]]) -> None:
    """Type rows into an order tab below its last filled row, as a player would in Excel."""
    wb = load_for_edit(book_path)
    ws = wb[tab_title]
    header = [c.value for c in ws[1]]
    start = 2
    while any(ws.cell(row=start, column=i + 1).value not in (None, "") for i in range(len(header) - 1)):
        start += 1
    for r, values in enumerate(rows, start=start):
        for c, value in enumerate(values, start=1):
            if value != "":
                ws.cell(row=r, column=c).value = int(value) if str(value).isdigit() else value
    save(wb, book_path)


def demo_ruleset(name: str | None) -> Ruleset:
    """The named rule set, or the only registered one with scripted demo players."""
    if name:
        return find_ruleset(name)
    able = [find_ruleset(n) for n in ruleset_names() if find_ruleset(n).demo_players() is not None]
    if len(able) != 1:
        raise StageError("укажите правила демо-партии: " + ", ".join(r.name for r in able))
    return able[0]


def type_orders(gd: GameDir, rs: Ruleset, books: DemoBooks | None = None) -> None:
    """Every playing faction types the rule set's scripted demo orders of the open stage into its book."""
    players = rs.demo_players()
    if players is None:
        raise StageError(f"у правил «{rs.title}» нет демо-игроков")
    books = books or DemoBooks(gd, Layout.load(rs.name))
    state = gd.latest_state()
    for faction in Envelope.of(state).factions:
        if faction.playing:
            books.replace(faction.id, players.orders(state, faction.id, books.read_all(faction.id)))


def run_demo(path: Path, turns: int | None = None, echo: Callable[[str], None] = print,
             ruleset: str | None = None, progress: Callable[[str], None] = lambda _msg: None) -> GameDir:
    """Play the scripted game of `ruleset` (default: the only rule set that has demo players);
    `progress` hears what is being done (creating the books, each turn of how many)."""
    rs = demo_ruleset(ruleset)
    players = rs.demo_players()
    if players is None:
        raise StageError(f"у правил «{rs.title}» нет демо-игроков")
    if path.exists() and (path / "game.toml").exists():
        shutil.rmtree(path)
    progress(f"создаю демо-игру «{rs.title}» в {path}")
    gd = create_game(path, rs.name, players.scenario, backend="xlsx", seed=players.seed, title="Демо-партия")
    books = DemoBooks(gd, Layout.load(rs.name))
    result = None
    total = turns or players.turns
    for played in range(total):
        env = Envelope.of(gd.latest_state())
        if env.stage == "finished":
            break
        progress(Step(f"ход {env.turn} ({played + 1} из {total}): игроки заполняют приказы, мастер считает",
                      played + 1, total))
        while True:
            state = gd.latest_state()
            env = Envelope.of(state)
            type_orders(gd, rs, books)
            if env.stage == rs.stages[0]:
                report = check(gd)
                echo(f"Ход {env.turn}: проверка приказов — " + ", ".join(
                    f"{env.name(fid)}: {ok} OK, {bad} с ошибками"
                    for fid, (ok, bad) in report.counts().items() if ok or bad))
            else:
                echo(f"Ход {env.turn}: этап «{rs.stage_title(env.stage)}» — игроки заполнили приказы")
            result = run_turn(gd)
            if result.next_turn != env.turn or result.next_stage in (rs.stages[0], "finished"):
                break
        echo(f"Ход {result.turn} рассчитан; архив: {result.archive}")
    env = Envelope.of(gd.latest_state())
    summary = rs.summary(gd.latest_state())
    echo("")
    echo(f"Демо-игра: {gd.path} (ход {env.turn}, этап «{rs.stage_title(env.stage)}»)")
    for key, book_id in gd.config.books.items():
        echo(f"  {book_name(gd.latest_state(), key)}: {gd.path / book_id}")
    for f in summary.factions:
        flag = " — ПОБЕДА" if f.won else (" — выбыла" if f.eliminated else "")
        echo(f"  {f.name}{flag}: " + "; ".join(f.lines))
    echo(f"Откройте книги в Excel или LibreOffice; сводку покажет forumwar status {gd.path}")
    return gd
