"""Books that read well (issue 11, item 7), on both backends.

Driven by the real Jade Rose layout: the status column wraps and says OK in green and anything else
in red (conditional formats, replaced and never duplicated by a second write); every order column
explains itself in a note on its header; count columns hold numbers under whole-number validation;
prefilled «Манёвры» cells are locked while the choice columns stay open; xlsx sheets carry the game's
password (Excel's SHA-512 scheme) and print fitted to the page width with the header on every page —
a faction book converted by LibreOffice prints on a handful of pages (it was 37–41).
"""
from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from gspread.exceptions import APIError

from engine.errors import OrderError
from engine.numbers import read_count
from engine.ruleset import RowStatus, Table
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.backends.xlsx.password import password_path, protection_hash, stored_password
from sheets_bridge.create import create_game
from sheets_bridge.layouts import Layout, LayoutError, header_width, order_tab, status_column_update, status_tab
from tests.fake_google import FakeGoogle, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
ALICE = "alice@example.com"
LAYOUT = Layout.load("jade_rose")
FACTION = LAYOUT.books["faction"]
PASSWORD = "проверка-пароля"
MANOEUVRE_ROW = ("b1-auren/1 — Ауренхайм", "Левый авангард", "Копейщик ×10", "", "", "", "", "")
SPARE_PAGES = 2            # measured: one page per tab holding something (37 pages before)


def _writes() -> list:
    """A faction book's order tabs as the bridge renders them, «Манёвры» prefilled with one squad and
    «Армии» restored with counts typed as text, plus «Итоги приказов» with an OK and an error verdict."""
    tabs = []
    for tab in FACTION.tabs:
        if tab.kind != "orders":
            continue
        rows: tuple | None = ()
        if tab.key == "manoeuvres":
            rows = (MANOEUVRE_ROW,)
        elif tab.key == "armies":
            rows = (("Первая", "Центр", "Авангард", "Копейщик", "12"),
                    ("Первая", "Центр", "Авангард", "Лучник", "1 200"))
        tabs.append(order_tab(tab, {"flanks": ["Левый фланг", "Центр", "Правый фланг"]}, (ALICE,), rows=rows))
    log = FACTION.tab("orders_log")
    tabs.append(status_tab(log, Table(("Ход", "Вкладка", "Строка", "Приказ", "Итог"), (
        (1, "Экономика", 2, "Нанять · Копейщик · 6", "OK: нанято 6 за 90з"),
        (1, "Экономика", 3, "Нанять · Рыцарь · 5", "«Рыцарь» пока нельзя нанимать: нужна постройка " * 3)))))
    return tabs


class XlsxBook:
    name = "xlsx"

    def __init__(self, tmp: Path):
        self.be = XlsxBackend(tmp, password=PASSWORD)
        self.book = self.be.create_book("empire", "Империя")
        self.path = self.be.book_path(self.book)

    def write(self, tabs: list) -> None:
        self.be.write_book(self.book, tabs)

    def sheet(self, title: str):
        return openpyxl.load_workbook(self.path)[title]

    def status_rules(self, title: str) -> list[str]:
        return [r.formula[0] for cf in self.sheet(title).conditional_formatting for r in cf.rules]

    def notes(self, title: str) -> dict[str, str]:
        ws = self.sheet(title)
        return {c.value: c.comment.text for c in ws[1] if c.comment is not None}

    def number_cells(self, title: str, col: int) -> list:
        ws = self.sheet(title)
        return [ws.cell(row=r, column=col + 1).value for r in (2, 3)]

    def number_rule(self, title: str, col: int) -> str:
        ws = self.sheet(title)
        letter = openpyxl.utils.get_column_letter(col + 1)
        found = [dv for dv in ws.data_validations.dataValidation if f"{letter}2:{letter}201" in str(dv.sqref)]
        assert len(found) == 1 and found[0].type == "whole" and found[0].showErrorMessage
        assert "целое число" in found[0].error
        return f"{found[0].operator} {found[0].formula1}"

    def player_may_edit(self, title: str, row: int, col: int) -> bool:
        ws = self.sheet(title)
        assert ws.protection.sheet
        return not ws.cell(row=row, column=col + 1).protection.locked


class GoogleBook:
    name = "gsheets"

    def __init__(self, tmp: Path):
        self.fake = FakeGoogle()
        self.book = gm_created_books(self.fake, GM, BOT, {"empire": [ALICE]})["empire"]
        self.be = fake_backend(self.fake, BOT, gm_emails=[GM], metadata_path=tmp / "meta.json")

    def write(self, tabs: list) -> None:
        self.be.write_book(self.book, tabs)

    def sheet(self, title: str):
        return self.fake.spreadsheet(self.book).sheet_by_title(title)

    def status_rules(self, title: str) -> list[str]:
        return [r["booleanRule"]["condition"]["type"] for r in self.sheet(title).conditional]

    def notes(self, title: str) -> dict[str, str]:
        sheet = self.sheet(title)
        return {c["userEnteredValue"]["stringValue"]: c["note"] for (r, _), c in sheet.cells.items()
                if r == 0 and c.get("note")}

    def number_cells(self, title: str, col: int) -> list:
        sheet = self.sheet(title)
        values = [sheet.cells[(r, col)]["userEnteredValue"] for r in (1, 2)]
        assert sheet.cells[(1, col)]["userEnteredFormat"]["numberFormat"]["type"] == "NUMBER"
        return [v.get("numberValue", v.get("stringValue")) for v in values]

    def number_rule(self, title: str, col: int) -> str:
        rule = self.sheet(title).cells[(5, col)]["dataValidation"]
        assert rule["strict"] and "Целое число" in rule["inputMessage"]
        assert rule["condition"]["type"] == "CUSTOM_FORMULA"
        return rule["condition"]["values"][0]["userEnteredValue"]

    def player_may_edit(self, title: str, row: int, col: int) -> bool:
        letter = openpyxl.utils.get_column_letter(col + 1)
        try:
            fake_client(self.fake, ALICE).open_by_key(self.book).values_update(
                f"'{title}'!{letter}{row}", params={"valueInputOption": "RAW"}, body={"values": [["x"]]})
        except APIError:
            return False
        return True


@pytest.fixture(params=[XlsxBook, GoogleBook], ids=["xlsx", "gsheets"])
def book(request, tmp_path):
    written = request.param(tmp_path)
    written.write(_writes())
    written.write(_writes())        # a second write replaces what the first set, never adds to it
    return written


def test_status_colours_are_set_once_after_two_writes(book):
    for tab in [*LAYOUT.order_tabs(kind="faction"), FACTION.tab("orders_log")]:
        rules = book.status_rules(tab.title)
        if book.name == "xlsx":
            letter = openpyxl.utils.get_column_letter(
                (tab.status_index if tab.kind == "orders" else 4) + 1)
            assert rules == [f'LEFT({letter}2,2)="OK"', f'AND({letter}2<>"",LEFT({letter}2,2)<>"OK")'], tab.title
        else:
            assert rules == ["TEXT_STARTS_WITH", "NOT_BLANK"], tab.title


def test_the_status_column_wraps(book):
    tab = FACTION.tab("economy")
    long_error = RowStatus(tab.key, 2, (OrderError("JR_UNKNOWN_ACTION", {"value": "Сжечь", "allowed": "… " * 60}),))
    book.write([status_column_update(tab, [long_error], [c.title for c in tab.columns])])   # as `check` does
    if book.name == "xlsx":
        ws = book.sheet(tab.title)
        assert ws.cell(row=2, column=tab.status_index + 1).alignment.wrap_text is True
        assert ws.row_dimensions[2].height >= 45          # the row grows with the message
        log = book.sheet("Итоги приказов")
        assert log["E3"].alignment.wrap_text and log.row_dimensions[3].height >= 30   # a long error: 2+ lines
        assert log.row_dimensions[2].height is None                                  # a short OK: one line
    else:
        fmt = book.sheet(tab.title).cells[(1, tab.status_index)]["userEnteredFormat"]
        assert fmt["wrapStrategy"] == "WRAP" and fmt["verticalAlignment"] == "TOP"


def test_every_order_column_has_a_header_note(book):
    for tab in LAYOUT.order_tabs(kind="faction"):
        assert book.notes(tab.title) == {c.title: c.help for c in tab.columns}, tab.title


def test_count_columns_hold_numbers_with_whole_number_validation(book):
    armies = FACTION.tab("armies")
    count = next(i for i, c in enumerate(armies.columns) if c.key == "count")
    assert book.number_cells(armies.title, count) == [12, 1200]     # "1 200" typed as text, now a number
    if book.name == "xlsx":
        assert book.number_rule(armies.title, count) == "greaterThanOrEqual 1"
        assert book.number_rule("Манёвры", 6) == "greaterThanOrEqual 0"            # runes: 0 allowed
    else:
        assert book.number_rule(armies.title, count) == "=(INT(E2)=E2)*(E2>=1)"
        assert book.number_rule("Манёвры", 6) == "=(INT(G2)=G2)*(G2>=0)"


def test_numbers_read_back_through_the_shared_count_parser(book):
    rows = book.be.read_tabs(book.book, ["Армии"])["Армии"]
    assert [read_count(r[4], "Количество", maximum=100_000) for r in rows[1:]] == [12, 1200]


def test_prefilled_manoeuvre_cells_are_locked_and_choice_cells_open(book):
    tab = FACTION.tab("manoeuvres")
    for i, col in enumerate(tab.columns):
        expected = not (col.prefilled or col.status)
        assert book.player_may_edit(tab.title, 2, i) is expected, col.title
    assert [c.key for c in tab.columns if c.prefilled] == ["battle", "squad", "units"]


def test_xlsx_print_settings_fit_the_width_and_repeat_the_header(tmp_path):
    book = XlsxBook(tmp_path)
    book.write(_writes())
    for title in ("Экономика", "Манёвры", "Итоги приказов"):
        ws = book.sheet(title)
        assert ws.sheet_properties.pageSetUpPr.fitToPage
        assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 0)
        assert ws.print_title_rows == "$1:$1"
        assert ws.page_setup.orientation == "landscape"      # all three are wider than a portrait page
        assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4)


def test_headers_never_break_inside_a_word():
    cities = status_tab(FACTION.tab("cities"), Table(("Город", "Размер", "Уровень", "Доход"), ()))
    assert cities.column_widths[2] >= header_width("Уровень") > 8     # «Уровен|ь» in the 8 wide column
    for tab in LAYOUT.order_tabs():
        widths = order_tab(tab, {}, ()).column_widths
        assert all(widths[i] >= header_width(c.title) for i, c in enumerate(tab.columns)), tab.title


def test_xlsx_header_row_is_as_tall_as_its_wrapped_titles(tmp_path):
    book = XlsxBook(tmp_path)
    book.write(_writes())
    assert book.sheet("Приказы армиям").row_dimensions[1].height >= 30    # «Без планирования»: two lines
    assert book.sheet("Экономика").row_dimensions[1].height is None


def test_every_jade_rose_order_column_is_explained_in_one_russian_line():
    for tab in LAYOUT.order_tabs():
        for col in tab.columns:
            assert col.help and "\n" not in col.help and any("а" <= ch <= "я" for ch in col.help), \
                (tab.title, col.title)


def test_the_layout_refuses_a_bad_column_kind_min_or_help():
    def layout(column: dict) -> dict:
        tab = {"key": "t", "title": "Т", "kind": "orders", "stage": "orders",
               "columns": [column, {"key": "s", "title": "Статус", "status": True}]}
        return {"books": {"faction": {"tabs": [tab]}, "public": {"tabs": []}, "gm": {"tabs": []}}}

    for column, problem in [({"key": "n", "title": "Н", "kind": "number"}, "kind must be one of"),
                            ({"key": "n", "title": "Н", "kind": "count", "min": "1"}, "min must be a whole number"),
                            ({"key": "n", "title": "Н", "min": 1}, "min is for kind = 'count'"),
                            ({"key": "n", "title": "Н", "help": "две\nстроки"}, "help must be one line")]:
        with pytest.raises(LayoutError) as excinfo:
            Layout.from_dict("t", layout(column))
        assert any(problem in p for p in excinfo.value.problems), excinfo.value.problems


# -- a real game: the password and the printed book ---------------------------------------------

@pytest.fixture(scope="module")
def game(tmp_path_factory):
    lines: list[str] = []
    gd = create_game(tmp_path_factory.mktemp("read-well") / "g", "jade_rose", "demo", backend="xlsx",
                     seed="read-well", progress=lines.append)
    return gd, lines


def _excel_hash(password: str, salt: bytes, spins: int) -> str:
    """Excel's sheet protection hash (ECMA-376 agile, SHA-512), written out from the spec."""
    h = hashlib.sha512(salt + password.encode("utf-16-le")).digest()
    for i in range(spins):
        h = hashlib.sha512(h + i.to_bytes(4, "little")).digest()
    return base64.b64encode(h).decode()


def test_xlsx_sheets_are_protected_with_the_games_stored_password(game):
    gd, lines = game
    password = stored_password(gd.path)
    assert password and len(password) >= 12
    assert password_path(gd.path).stat().st_mode & 0o777 == 0o600
    assert any(str(password_path(gd.path)) in line and "пароль" in line for line in lines)   # `new` says where
    for key in ("empire", "public", "gm"):
        wb = openpyxl.load_workbook(gd.path / gd.config.books[key])
        for ws in wb.worksheets:
            prot = ws.protection
            assert prot.sheet and prot.algorithmName == "SHA-512" and prot.password is None, ws.title
            assert prot.hashValue == _excel_hash(password, base64.b64decode(prot.saltValue), prot.spinCount)
    assert protection_hash(password)[1] == prot.hashValue


def test_the_password_is_kept_between_writes(game):
    gd, _ = game
    before = stored_password(gd.path)
    XlsxBackend(gd.path).write_book(gd.config.books["empire"], [status_tab(FACTION.tab("summary"), Table(("А",), ()))])
    assert stored_password(gd.path) == before
    ws = openpyxl.load_workbook(gd.path / gd.config.books["empire"])["Сводка"]
    assert ws.protection.hashValue == protection_hash(before)[1]


@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdfinfo") is None,
                    reason="LibreOffice (soffice) and poppler (pdfinfo) are needed to print a book")
def test_a_faction_book_prints_on_a_few_pages(game, tmp_path):
    gd, _ = game
    src = gd.path / gd.config.books["empire"]
    shutil.copy(src, tmp_path / "empire.xlsx")
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/lo", "--convert-to", "pdf",
                    "--outdir", str(tmp_path), str(tmp_path / "empire.xlsx")], check=True, capture_output=True,
                   timeout=180)
    info = subprocess.run(["pdfinfo", str(tmp_path / "empire.pdf")], check=True, capture_output=True, text=True)
    pages = int(next(line.split()[-1] for line in info.stdout.splitlines() if line.startswith("Pages:")))
    visible = [ws for ws in openpyxl.load_workbook(src).worksheets if ws.sheet_state == "visible"]
    # a tab with nothing under its header (every order tab of a new game) prints no page
    holding = [ws for ws in visible if ws._images or any(c.row > 1 and c.value not in (None, "")
                                                         for c in ws._cells.values())]
    assert len(holding) < len(visible)
    assert len(holding) <= pages <= len(holding) + SPARE_PAGES < 37
