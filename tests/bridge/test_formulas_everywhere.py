"""A formula a player puts anywhere in an order tab is never copied back as a formula (issue 8, item 8).

Players type formulas (and values a spreadsheet may take for one: + - @) into layout columns and into
extra columns beyond the layout (column J), in a tab that is cleared after the stage («Экономика») and
in a standing one («Армии»). After `check` and `turn`, on local xlsx books and on Google spreadsheets
(the fake): «Итоги приказов», «Проблемы» and the archived statuses quote only the layout's columns and
never hold text that starts like a formula; no book and no archived export holds a formula cell,
not even the player's own cell of a standing tab (the push turns it into its text on both backends).
"""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check, run_turn
from tests.fake_google import FakeGoogle, fake_backend, fake_client
from tests.games import new_game

GM = "gm@example.com"
BOT = "forumwar@formulas.iam.gserviceaccount.com"
PREFIXES = ("=", "+", "-", "@")
EXTRA_FORMULA = '=HYPERLINK("http://example.com/x","ссылка")'


def _rows(capital: str) -> dict[str, list[list[str]]]:
    """What the player types, from row 2 on (column J is the 10th)."""
    pad = [""] * 5
    return {"Экономика": [["Построить", capital, "Барак", "", "", *pad, "=1+1"],     # valid row, formula in J
                          ["=2+2", "", "Копейщик", "2"],                             # formula in a layout column
                          ["+Нанять", "", "@Копейщик", "-3", "", *pad, EXTRA_FORMULA]],
            "Армии": [["Первая", "Центр", "Авангард", "Копейщик", "1", "", *[""] * 3, "=2*3"]]}


class XlsxGame:
    name = "xlsx"

    def __init__(self, path: Path):
        self.gd = new_game(path, seed="formulas")
        self.be = None

    def type_rows(self, fid: str, rows: dict[str, list[list[str]]]) -> None:
        path = self.gd.path / self.gd.config.books[fid]
        wb = openpyxl.load_workbook(path)
        for title, body in rows.items():
            for r, values in enumerate(body, start=2):
                for c, value in enumerate(values, start=1):
                    if value:       # openpyxl stores "=…" as a formula, as Excel does for a typed formula
                        wb[title].cell(row=r, column=c).value = int(value) if value.isdigit() else value
        wb.save(path)

    def formula_cells(self) -> list[tuple[str, str, str]]:
        out = []
        for key, book in self.gd.config.books.items():
            out += _xlsx_formulas(self.gd.path / book, key)
        return out

    def texts(self, key: str, title: str) -> list[str]:
        wb = openpyxl.load_workbook(self.gd.path / self.gd.config.books[key])
        return [c for row in wb[title].iter_rows(values_only=True) for c in row if isinstance(c, str)]


class GoogleGame:
    name = "gsheets"

    def __init__(self, path: Path):
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        made = {}

        def factory(gd: GameDir):
            made["be"] = fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=folder,
                                      metadata_path=gd.state_dir / "gsheets-meta.json")
            return made["be"]

        self.gd = create_game(path, "jade_rose", "demo", backend="gsheets", seed="formulas", backend_factory=factory)
        self.be = made["be"]

    def type_rows(self, fid: str, rows: dict[str, list[list[str]]]) -> None:
        book = fake_client(self.fake, GM).open_by_key(self.gd.config.books[fid])
        for title, body in rows.items():   # typed in the browser: parsed as the sheet would (USER_ENTERED)
            book.values_update(f"'{title}'!A2", params={"valueInputOption": "USER_ENTERED"}, body={"values": body})

    def formula_cells(self) -> list[tuple[str, str, str]]:
        out = []
        for key, book_id in self.gd.config.books.items():
            for sheet in self.fake.spreadsheet(book_id).sheets:
                for (r, c), cell in sheet.cells.items():
                    if "formulaValue" in (cell.get("userEnteredValue") or {}):
                        out.append((key, sheet.title, f"R{r + 1}C{c + 1}"))
        return out

    def texts(self, key: str, title: str) -> list[str]:
        tabs = self.be.read_tabs(self.gd.config.books[key], [title])
        return [c for row in tabs.get(title, []) for c in row if c]


def _xlsx_formulas(path: Path, label: str) -> list[tuple[str, str, str]]:
    wb = openpyxl.load_workbook(path)
    return [(label, ws.title, cell.coordinate) for ws in wb.worksheets for row in ws.iter_rows() for cell in row
            if cell.data_type == "f"]


@pytest.fixture(scope="module", params=["xlsx", "gsheets"])
def game(request, tmp_path_factory):
    path = tmp_path_factory.mktemp(request.param) / "game"
    g = XlsxGame(path) if request.param == "xlsx" else GoogleGame(path)
    state = g.gd.latest_state()
    capital = next(c["name"] for c in state["cities"].values() if c["owner"] == "empire" and c.get("capital"))
    g.type_rows("empire", _rows(capital))
    g.before = g.formula_cells()
    check(g.gd, be=g.be)
    run_turn(g.gd, be=g.be)
    return g


def test_the_players_formulas_were_real_formulas_before_the_turn(game):
    """Guard: the test types real formulas (else the checks below would prove nothing)."""
    tabs = {(key, tab) for key, tab, _ in game.before}
    assert ("empire", "Экономика") in tabs and ("empire", "Армии") in tabs


def test_orders_log_and_problems_never_start_like_a_formula_nor_copy_extra_columns(game):
    log = game.texts("empire", "Итоги приказов")
    problems = game.texts("gm", "Проблемы")
    assert log and problems
    for text in log + problems:
        assert not text.startswith(PREFIXES), text
        assert "HYPERLINK" not in text and "2*3" not in text and "1+1" not in text, text
    assert any("«=2+2»" in t for t in log) and any("«+Нанять»" in t and "«@Копейщик»" in t for t in log)


def test_archived_statuses_quote_only_layout_columns(game):
    saved = json.loads((game.gd.archive_path(1) / "statuses-orders.json").read_text(encoding="utf-8"))
    orders = [s["order"] for s in saved["empire"]]
    assert orders
    for text in orders:
        assert not text.startswith(PREFIXES) and "HYPERLINK" not in text and "2*3" not in text, text


def test_no_book_holds_a_formula_in_a_tab_the_bridge_wrote(game):
    left = [f for f in game.formula_cells() if not (f[0] == "empire" and f[1] == "Армии")]
    assert left == []


def test_no_formula_survives_in_a_standing_tab_or_its_archived_export(game):
    archived = [f for p in sorted(game.gd.archive_path(1).glob("*.xlsx")) for f in _xlsx_formulas(p, p.name)]
    assert game.formula_cells() == [] and archived == []


def test_a_standing_tabs_formula_is_kept_as_the_text_the_player_typed(game):
    """The formula is not dropped: «Армии»!J2 now holds the text «=2*3» (a plain value, see above)."""
    assert "=2*3" in game.texts("empire", "Армии")
