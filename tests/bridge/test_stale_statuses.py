"""Issue 38 §2: «A cleared row loses its status. After a row typed below a tab's limit is cleared, its old
«Строка 202 не прочитана…» stays, and it prints an extra page.»

When statuses are written back, every status cell of a row that no longer holds anything is cleared, below the
tab's row limit too, so nothing stale stays, and the sheet's used range and print area end where its rows do
again. On both backends (xlsx files; Google through gspread, unmodified, against the fake of its HTTP API): a row
typed in «Армии» (orders read in rows 2–201) at row 202 gets its status at `check`; cleared, it loses it at the
next `check`, and at the next stage's push when no check came between (a standing tab, whose status cells the
push rewrites); a row still filled there keeps its «не прочитана» from stage to stage.
"""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from sheets_bridge.backends.xlsx.files import load_for_edit, save
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, run_turn
from tests.bridge.backend_games import BACKENDS, GM, Game, GoogleGame, new_game
from tests.fake_google import fake_client

TAB = Layout.load("jade_rose").books["faction"].tab("armies")
ROW = TAB.last_row + 1                      # 202: the first row past the limit
FACTION = "empire"
NOT_READ = f"Строка {ROW} не прочитана: приказы читаются только в строках 2–{TAB.last_row} вкладки «{TAB.title}»"
STATUS = next(i for i, c in enumerate(TAB.columns) if c.status)
LETTERS = "ABCDEFGHIJ"


def _type_at(game: Game, row: int, values: list[str]) -> None:
    """Type the cells of one row (from column A), or clear them (empty strings), as in a spreadsheet."""
    if isinstance(game, GoogleGame):
        book = fake_client(game.fake, GM).open_by_key(game.gd.config.books[FACTION])
        sheet = book.worksheet(TAB.title)
        if sheet.row_count < row:                      # the grid ends at the order rows: add rows first
            sheet.add_rows(row - sheet.row_count + 20)
        cells = f"'{TAB.title}'!A{row}:{LETTERS[len(values) - 1]}{row}"
        if any(values):
            book.values_update(cells, params={"valueInputOption": "USER_ENTERED"}, body={"values": [values]})
        else:
            book.values_clear(cells)
        return
    path = game.gd.path / game.gd.config.books[FACTION]
    wb = load_for_edit(path)
    for column, value in enumerate(values, start=1):
        wb[TAB.title].cell(row=row, column=column).value = value or None
    save(wb, path)


def _rows(game: Game) -> list[list[Any]]:
    """The tab as read: its rows down to the last one holding anything (Google's values; xlsx's cells)."""
    return game.read(FACTION, [TAB.title])[TAB.title]


def _status(game: Game, row: int) -> str:
    rows = _rows(game)
    return str(rows[row - 1][STATUS]) if len(rows) >= row and len(rows[row - 1]) > STATUS else ""


def _print_area(game: Game) -> Any:
    """The xlsx tab's print area (a formula area, which openpyxl cannot read, is None); None on Google."""
    if isinstance(game, GoogleGame):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return openpyxl.load_workbook(game.gd.path / game.gd.config.books[FACTION])[TAB.title].print_area


def _last_cell_row(game: Game) -> int:
    """The last row holding a cell of the tab: the sheet's used range (xlsx: the stored cells; Google: the
    values range it answers)."""
    if isinstance(game, GoogleGame):
        return len(_rows(game))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return int(openpyxl.load_workbook(game.gd.path / game.gd.config.books[FACTION])[TAB.title].max_row)


@pytest.fixture(params=BACKENDS)
def game(request: pytest.FixtureRequest, tmp_path: Path) -> Game:
    return new_game(request.param, tmp_path / "game", seed="stale-statuses")


def test_a_row_typed_past_the_limit_gets_its_status_and_loses_it_once_cleared(game: Game) -> None:
    """«type a row beyond the limit, check (status appears), clear the row, check again (status gone, the
    sheet's used range / print area back to normal)»."""
    before = (_print_area(game), _last_cell_row(game))
    assert before[1] < ROW
    _type_at(game, ROW, ["Поздняя армия", "Копейщик", "4"])
    check(game.gd, be=game.be)
    assert _status(game, ROW).startswith(NOT_READ)
    _type_at(game, ROW, ["", "", ""])
    assert _status(game, ROW).startswith(NOT_READ)              # the player cannot clear the bridge's cell
    check(game.gd, be=game.be)
    assert _status(game, ROW) == ""
    assert (_print_area(game), _last_cell_row(game)) == before
    assert all(not any(str(c).strip() for c in row) for row in _rows(game)[1:])


def test_a_standing_tab_keeps_the_status_of_a_row_still_past_the_limit_and_drops_it_once_cleared(game: Game) -> None:
    """The stage's push rewrites the status cells of «Армии» (a standing tab): a row still filled past the
    limit keeps its «не прочитана» (the turn read it so), one cleared before the turn without a check loses
    it, and the tab prints as an empty one again."""
    before = (_print_area(game), _last_cell_row(game))
    _type_at(game, ROW, ["Поздняя армия", "Копейщик", "4"])
    run_turn(game.gd, be=game.be)                                # nothing to plan: turn 2 opens
    state = game.gd.latest_state()
    assert (state["turn"], state["stage"]) == (2, "orders")
    assert _status(game, ROW).startswith(NOT_READ)
    _type_at(game, ROW, ["", "", ""])
    run_turn(game.gd, be=game.be)
    assert game.gd.latest_state()["turn"] == 3
    assert _status(game, ROW) == ""
    assert (_print_area(game), _last_cell_row(game)) == before
