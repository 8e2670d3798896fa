"""Issue 23 item 5: «every tab prints readable on A4 (wrap, not shrink), uses its columns, and empty order
tabs do not print blank pages.» (Seen in LibreOffice's PDFs of a Jade Rose faction book and GM book:
«Бои» and «Честность» wrap inside the page instead of running off it or shrinking.)"""
from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import warnings
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
import pandas as pd
import pytest
from openpyxl.worksheet.page import PageMargins

from sheets_bridge.backends.base import TabWrite
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.backends.xlsx.tabs import NARROWEST, PAGE_CHARACTERS, page_widths, rows_on_a_page

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def test_a_tab_wider_than_its_page_is_narrowed_widest_first_and_those_columns_wrap():
    tab = TabWrite("Честность", header=("Ход", "Этап", "Хеш", "Зерно", "Соль", "Цепочка"),
                   column_widths={0: 6, 1: 18, 2: 66, 3: 66, 4: 66, 5: 66}, landscape=True)
    widths, wrapped = page_widths(tab)
    assert sum(widths.values()) <= PAGE_CHARACTERS["landscape"]
    assert widths[0] == 6 and widths[1] == 18, "narrow columns keep their width"
    assert wrapped == {2, 3, 4, 5} and all(NARROWEST <= widths[c] < 66 for c in wrapped)


def test_a_tab_that_fits_its_page_keeps_its_widths():
    tab = TabWrite("Сводка", header=("Показатель", "Значение"), column_widths={0: 30, 1: 40})
    assert page_widths(tab) == ({0: 30, 1: 40}, set())


def _book(tmp_path, tabs):
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, tabs)
    return openpyxl.load_workbook(tmp_path / book)


def test_an_empty_order_tab_prints_no_page_and_a_filled_one_prints_down_to_its_last_row(tmp_path):
    """«A Jade Rose faction book prints 15 pages, mostly empty order tabs … empty order tabs do not print
    blank pages.» Seen in LibreOffice after the first fix: each empty order tab still printed its header
    alone, on a page of its own (7 of the demo book's 15)."""
    orders = TabWrite("Экономика", header=("Действие", "Что", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=100, column_widths={0: 20, 1: 20, 2: 40})
    filled = TabWrite("Армии", header=("Армия", "Юнит", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=100, rows=(("1-я", "Копейщик", ""), ("1-я", "Лучник", "")),
                      column_widths={0: 20, 1: 20, 2: 40})
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, [orders, filled])
    # empty: its first page of order rows under the repeated header, fixed (no page in LibreOffice while they
    # are empty, one blank form in Excel); filled: as far down as the last row holding anything, worked out as
    # the book prints, so a row typed later prints too
    cells = "'Армии'!$A$1:$C$101"
    assert _print_areas(tmp_path / book) == {
        "Экономика": "'Экономика'!$A$2:$C$49",
        "Армии": f"OFFSET('Армии'!$A$1,0,0,MAX(1,SUMPRODUCT(MAX(({cells}<>\"\")*ROW({cells})))),3)"}
    assert all(ws.print_title_rows == "$1:$1" for ws in openpyxl.load_workbook(tmp_path / book).worksheets)


def test_an_empty_order_tab_typed_into_prints_down_to_its_last_row_after_the_checks_statuses(tmp_path):
    """The fixed print area of an order tab written empty is its first page of order rows; the next
    values-only write of the tab (a check's statuses) gives it the formula of a tab written with orders, and
    the one after its orders are cleared gives it the first page again."""
    orders = TabWrite("Экономика", header=("Действие", "Что", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=100, column_widths={0: 20, 1: 20, 2: 40})
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, [orders])
    path = tmp_path / book
    be.write_book(book, [TabWrite("Экономика", column_updates={2: {2: ""}}, kind="orders")])
    assert _print_areas(path) == {"Экономика": "'Экономика'!$A$2:$C$49"}, "still empty: still fixed"
    _type(path, "Экономика", {"A3": "Налог"})
    be.write_book(book, [TabWrite("Экономика", column_updates={2: {3: "OK"}}, kind="orders")])
    cells = "'Экономика'!$A$1:$C$101"
    assert _print_areas(path) == {
        "Экономика": f"OFFSET('Экономика'!$A$1,0,0,MAX(1,SUMPRODUCT(MAX(({cells}<>\"\")*ROW({cells})))),3)"}
    be.write_book(book, [TabWrite("Экономика", column_updates={0: {3: ""}, 2: {3: ""}}, kind="orders")])
    assert _print_areas(path) == {"Экономика": "'Экономика'!$A$2:$C$49"}, "cleared: the first page again"


def test_an_empty_order_tabs_print_area_is_the_rows_one_a4_page_holds_under_its_header():
    """A4 is 842 × 595 points; the margins are 0.5 and 0.6 inch; a row is 15 points, and the header as tall
    as its wrapped titles. Portrait: (842 − 79.2 − 15) / 15 = 49.8, so 49 rows fit, one is kept spare for a
    spreadsheet's rounding: 48. Landscape: (595 − 79.2 − 15) / 15 = 33.4: 32. A three-line header (48
    points): 46."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.page_margins = PageMargins(top=0.5, bottom=0.6)
    assert rows_on_a_page(ws) == 48
    ws.page_setup.orientation = "landscape"
    assert rows_on_a_page(ws) == 32
    ws.page_setup.orientation = "portrait"
    ws.row_dimensions[1].height = 48
    assert rows_on_a_page(ws) == 46


def test_a_filled_tab_prints_all_its_rows_and_an_empty_one_its_empty_first_row(tmp_path):
    """A tab only the bridge writes (a report): no print area while it has rows, so every row prints; none,
    and its print area is one empty row (no page in LibreOffice, where its header printed alone)."""
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    scouting = TabWrite("Разведка", header=("Бой", "Противник", "Позиция"), rows=())
    be.write_book(book, [scouting, TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 5),))])
    assert _print_areas(tmp_path / book) == {"Разведка": "'Разведка'!$A$2:$C$2"}
    be.write_book(book, [TabWrite("Разведка", header=scouting.header, rows=(("Цинхэ", "Вампиры", "центр"),))])
    assert _print_areas(tmp_path / book) == {}


def test_a_header_notes_box_is_stored_above_the_sheet_at_its_size(tmp_path):
    """LibreOffice counts a hidden note's box as a drawing on the page it lies over, and openpyxl stores every
    box near the sheet's top-left corner, over the first order rows: the page of an empty order tab printed
    for it. A header note's box now lies above the sheet's top edge, with room for LibreOffice to grow it to
    its text; its size (what the pointer shows) is kept."""
    tab = TabWrite("Экономика", header=("Действие", "Что", "Статус"), kind="orders", order_rows=10,
                   notes={0: "Что сделать: построить, продать, нанять " * 3, 1: "Здание или юнит"})
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, [tab])
    with zipfile.ZipFile(tmp_path / book) as archive:
        vml = [archive.read(n) for n in archive.namelist() if n.endswith(".vml")]
    assert len(vml) == 1
    styles = [dict(p.strip().split(":", 1) for p in shape.get("style", "").split(";") if ":" in p)
              for shape in ElementTree.fromstring(vml[0]).iter("{urn:schemas-microsoft-com:vml}shape")]
    assert len(styles) == 2
    for style in styles:
        height = float(style["height"].removesuffix("px")) * 0.75
        assert float(style["margin-top"].removesuffix("pt")) + height == pytest.approx(-xlsx_files.NOTE_CLEARANCE)
        assert style["visibility"] == "hidden" and height >= 27
    assert openpyxl.load_workbook(tmp_path / book)["Экономика"]["A1"].comment.text.startswith("Что сделать")


def _print_areas(book: Path) -> dict[str, str]:
    """Each tab's print area as the file holds it (its `_xlnm.Print_Area`), by the tab's title."""
    with zipfile.ZipFile(book) as archive:
        root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    titles = [sheet.get("name") for sheet in root.iter(f"{{{MAIN}}}sheet")]
    return {str(titles[int(name.get("localSheetId", -1))]): name.text or ""
            for name in root.iter(f"{{{MAIN}}}definedName") if name.get("name") == "_xlnm.Print_Area"}


def _type(book: Path, tab: str, cells: dict[str, str]) -> None:
    """Type texts into cells of a tab's order rows as a player's spreadsheet saves them: only the sheet's XML
    changes (no openpyxl, which would give the file another print area)."""
    with zipfile.ZipFile(book) as archive:
        items = [(item, archive.read(item.filename)) for item in archive.infolist()]
        root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
        rels = ElementTree.fromstring(archive.read("xl/_rels/workbook.xml.rels"))
    rid = next(sheet.get(f"{{{RELS}}}id") for sheet in root.iter(f"{{{MAIN}}}sheet") if sheet.get("name") == tab)
    target = next(str(rel.get("Target")) for rel in rels if rel.get("Id") == rid)
    part = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as archive:
        for item, data in items:
            if item.filename == part:
                xml = data.decode()
                for ref, text in cells.items():         # an order cell is in the file, empty, with its style
                    xml, n = re.subn(rf'<c r="{ref}"( s="\d+")?( t="\w+")?(/>|></c>)',
                                     rf'<c r="{ref}"\1 t="inlineStr"><is><t>{text}</t></is></c>', xml)
                    assert n == 1, ref
                data = xml.encode()
            archive.writestr(item, data)


def test_a_print_area_given_by_a_formula_stays_through_the_bridges_loads_and_saves(tmp_path):
    """openpyxl keeps a print area only as cell ranges: its reader drops a formula's (with a warning), and the
    bridge's next write of the book, of the statuses alone, left the tab without one."""
    orders = TabWrite("Экономика", header=("Действие", "Что", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=10, rows=(("Налог", "", ""),), column_widths={0: 20, 1: 20, 2: 40})
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, [orders, TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 5),))])
    path = tmp_path / book
    written = _print_areas(path)
    assert set(written) == {"Экономика"} and written["Экономика"].startswith("OFFSET('Экономика'!$A$1,")
    for kept in (True, False):                  # the workbook kept from the last save, and one parsed again
        if not kept:
            xlsx_files.forget()
        with warnings.catch_warnings():
            warnings.simplefilter("error")      # openpyxl's "Print area cannot be set to Defined name"
            wb = xlsx_files.load_for_edit(path)
        assert wb["Экономика"].defined_names["Print_Area"].value == written["Экономика"]
        xlsx_files.save(wb, path)
        assert _print_areas(path) == written
    _type(path, "Экономика", {"A3": "Сбор"})
    be.write_book(book, [TabWrite("Экономика", column_updates={2: {3: "OK"}}, kind="orders")])
    assert _print_areas(path) == written
    assert be.read_tabs(book, ["Экономика"])["Экономика"][2][:3] == ["Сбор", "", "OK"]
    # as LibreOffice saves it back: the sheet's name unquoted, the name's other attributes spelt out
    with zipfile.ZipFile(path) as archive:
        items = [(item, archive.read(item.filename)) for item in archive.infolist()]
    lo_style = written["Экономика"].replace("'Экономика'", "Экономика").replace("<>", "&lt;&gt;").replace('"', "&quot;")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for item, data in items:
            if item.filename == "xl/workbook.xml":
                data = re.sub(r'<definedName name="_xlnm.Print_Area" localSheetId="0">[^<]*</definedName>',
                              '<definedName function="false" hidden="false" localSheetId="0" name="_xlnm.Print_Area" '
                              f'vbProcedure="false">{lo_style}</definedName>', data.decode()).encode()
            archive.writestr(item, data)
    xlsx_files.forget()
    xlsx_files.save(xlsx_files.load_for_edit(path), path)
    assert _print_areas(path) == {"Экономика": written["Экономика"].replace("'Экономика'", "Экономика")}
    with pytest.warns(UserWarning, match="Print area cannot be set to Defined name"):     # openpyxl's own reader
        assert pd.read_excel(path, sheet_name="Экономика").shape == (2, 3)


def test_the_narrowed_columns_of_a_status_tab_wrap_and_nothing_is_shrunk_below_the_page(tmp_path):
    text = "длинная строка отчёта о бое, " * 8
    wb = _book(tmp_path, [TabWrite("Бои", header=("Отчёт о боях",), rows=((text,),), column_widths={0: 120},
                                   landscape=True)])
    ws = wb["Бои"]
    assert ws.column_dimensions["A"].width <= PAGE_CHARACTERS["landscape"]
    assert ws["A2"].alignment.wrap_text


def test_the_gm_book_puts_battle_reports_in_their_own_tab_not_in_a_column():
    """«The GM's «Все бои» leaves 6 of its 7 columns empty and puts everything in «Примечание».»"""
    from engine.jade_rose.war.views import gm_views
    state = {"battles": [], "cities": {}, "factions": {},
             "reports": {"gm": ["Бой за город Цинхэ — ход 3\nАтакующий: Империя"]}}
    tables = gm_views(state)  # type: ignore[arg-type]
    assert tables["gm_battles"].rows == ()
    assert tables["gm_reports"].rows == (("Бой за город Цинхэ — ход 3",), ("Атакующий: Империя",))


# -- Titania (issue 23 item 5): seen in LibreOffice's PDFs of the demo's «Королевство Альбион» book and GM book --

def test_a_text_longer_than_its_narrow_column_wraps_instead_of_running_past_the_tab(tmp_path):
    """«Технологии»'s «Действие» (11 wide, texts of 88 letters) ran over the empty columns after the tab, so
    LibreOffice printed those too and shrank the page to unreadable; «Честность»'s «Этап» was cut by its
    neighbour. A text longer than its column wraps in it, whatever the column."""
    action = "на чужое войско в своей или соседней провинции: урон 1, приказы войска отменены"
    wb = _book(tmp_path, [TabWrite("Технологии", header=("Что", "Действие"), rows=(("Заклинание", action),
                                                                                   ("Лимиты", "3 / 3")),
                                   column_widths={0: 14, 1: 11})])
    ws = wb["Технологии"]
    assert ws["B2"].alignment.wrap_text and not ws["B3"].alignment.wrap_text and not ws["A2"].alignment.wrap_text
    assert ws.row_dimensions[2].height >= 15 * 7            # the row as tall as the wrapped text


def test_a_picture_tab_prints_on_a4_as_wide_as_its_pictures_with_the_note_wrapped_within_them(tmp_path):
    """The map's tab printed on Letter, the picture at two thirds of the page: its one-line note, wider than
    the picture, set the page's width. Column A is the pictures' width and the note wraps in it."""
    import io

    from PIL import Image

    from sheets_bridge.backends.xlsx.pictures import COLUMN_WIDTH, SHOWN_WIDTH
    from sheets_bridge.pictures import map_note
    png = io.BytesIO()
    Image.new("RGB", (1400, 1000), "white").save(png, format="PNG")
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("albion", "Альбион")
    be.write_book(book, [TabWrite("Сводка", header=("Показатель", "Значение"))])
    be.put_pictures(book, "Рисунок карты", [png.getvalue()], map_note(True, "бой хода 2"))
    ws = openpyxl.load_workbook(tmp_path / book)["Рисунок карты"]
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4) and ws.page_setup.orientation == "landscape"
    assert (ws.page_setup.fitToWidth, ws.page_setup.fitToHeight) == (1, 1)
    assert ws.column_dimensions["A"].width == COLUMN_WIDTH and abs(COLUMN_WIDTH * 7 + 5 - SHOWN_WIDTH) < 7
    assert ws["A1"].alignment.wrap_text and ws.row_dimensions[1].height == 30      # the note: two lines


def test_every_titania_tab_fits_its_page_with_the_widths_the_layout_gives(titania_tabs):
    """The Titania layout's widths are what an A4 page holds, each column's share its text's: narrowing the
    widest columns to one cap made «Соседи и что там видно» 20 wide beside a 20-wide «Тип» (rows of seven
    lines) and every order tab's «Статус» 15 wide, on the screen too."""
    assert {tab.title for tab in titania_tabs if page_widths(tab)[1]} == set()
    assert {tab.title for tab in titania_tabs} >= {"Технологии", "Провинции", "Карта", "Планирование", "Честность"}


@pytest.fixture(scope="module")
def titania_game(tmp_path_factory):
    """The Titania demo after its first turn, the next stage's orders typed by the demo players."""
    from engine import find_ruleset
    from engine.state import Envelope
    from sheets_bridge.create import create_game
    from sheets_bridge.demo import DemoBooks
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.layouts import Layout
    from sheets_bridge.stage import run_turn
    gd = create_game(tmp_path_factory.mktemp("titania") / "g", "titania", "demo", backend="xlsx", seed="print")

    def play() -> None:
        state = gd.latest_state()
        rs = find_ruleset("titania")
        players, books = rs.demo_players(), DemoBooks(gd, Layout.load("titania"))
        assert players is not None
        for faction in Envelope.of(state).factions:
            if faction.playing:
                books.replace(faction.id, players.orders(state, faction.id, books.read_all(faction.id)))

    play()
    run_turn(gd)
    gd = GameDir(gd.path)
    play()
    return gd


@pytest.fixture(scope="module")
def titania_tabs(titania_game):
    """Every TabWrite the Titania demo's books were last written with (all its books' tabs)."""
    from engine import find_ruleset
    from sheets_bridge.layouts import Layout
    from sheets_bridge.render import render_books
    gd = titania_game
    rs = find_ruleset("titania")
    books = render_books(gd, rs, Layout.load("titania"), gd.latest_state(), {}, set(), (), None, None, False, None)
    return [tab for writes in books.values() for tab in writes if tab.header is not None]


def _pdf(book: Path, folder: Path) -> Path:
    """The book printed by LibreOffice, a PDF in `folder`."""
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{folder}/lo", "--convert-to", "pdf",
                    "--outdir", str(folder), str(book)], check=True, capture_output=True, timeout=180)
    return folder / f"{book.stem}.pdf"


def _page_texts(book: Path, folder: Path) -> list[str]:
    """The text of each page of the book printed by LibreOffice."""
    text = subprocess.run(["pdftotext", "-layout", str(_pdf(book, folder)), "-"], check=True, capture_output=True,
                          text=True).stdout
    return [" ".join(page.split()) for page in text.split("\f") if page.strip()]


def _printed(book: Path, folder: Path) -> list[tuple[str, float]]:
    """Each page of the book printed by LibreOffice: its tab (from the footer) and the median height of its
    words (points: 13.8 at the sheet's own size)."""
    text = subprocess.run(["pdftotext", "-bbox", str(_pdf(book, folder)), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = []
    for page in text.split("<page ")[1:]:
        heights = [float(b) - float(a) for a, b in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', page)]
        words = re.findall(r">([^<]*)</word>", page)
        footer = " ".join(words[words.index("—") - 1:]) if "—" in words else ""
        pages.append((footer, statistics.median(heights) if heights else 0.0))
    return pages


needs_soffice = pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                                   reason="LibreOffice (soffice) and poppler (pdftotext) are needed to print a book")


@needs_soffice
@pytest.mark.parametrize("key", ["albion", "gm"])
def test_titania_books_print_every_page_at_its_own_size_one_or_a_few_pages_a_tab(titania_game, key, tmp_path):
    """Before: «Технологии» printed at 60 % (its words 8.5 pt boxes), the pictures on Letter; «Карта» 4 pages."""
    src = titania_game.path / titania_game.config.books[key]
    shutil.copy(src, tmp_path / src.name)
    pages = _printed(tmp_path / src.name, tmp_path)
    visible = [ws for ws in openpyxl.load_workbook(src).worksheets if ws.sheet_state == "visible"]
    pictures = sum(max(len(ws._images) - 1, 0) for ws in visible)  # a picture tab prints a picture a page
    shrunk = [(footer, height) for footer, height in pages if height and height < 12.5]
    assert shrunk == [], shrunk
    holding = [ws for ws in visible if ws._images or any(c.row > 1 and c.value not in (None, "")
                                                         for c in ws._cells.values())]
    assert len(holding) <= len(pages) <= len(holding) + pictures + 4
    assert all(footer for footer, _ in pages), pages  # every page says its tab and number, a picture's too
    empty = {ws.title.split()[-1] for ws in visible if ws not in holding}    # a footer shows the title's last word
    assert empty.isdisjoint(footer.split(" — ")[0].split()[-1] for footer, _ in pages), "an empty tab printed"


@needs_soffice
def test_an_empty_order_tab_prints_no_page_and_rows_typed_after_the_bridge_wrote_the_book_print(tmp_path):
    """The print area of an order tab was fixed when the bridge wrote it: a row the player typed afterwards in
    Excel or LibreOffice did not print until the bridge's next write of the tab. Then an empty order tab
    printed its header alone on a page of its own (its header notes' boxes lay over its first rows).

    Now a tab written with orders prints every row typed later; one written empty prints no page, and its
    first page of order rows once typed into, all of them on one page; a row typed below that page prints
    once a check has written the tab's statuses."""
    columns = {"header": ("Действие", "Что", "Статус"), "kind": "orders", "locked_columns": (2,), "order_rows": 100,
               "column_widths": {0: 20, 1: 20, 2: 40}, "notes": {0: "Что сделать: построить, продать, нанять",
                                                                 1: "Здание или юнит", 2: "Заполняет forumwar"}}
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("empire", "Империя")
    be.write_book(book, [TabWrite("Экономика", **columns), TabWrite("Манёвры", **columns),
                         TabWrite("Армии", rows=(("Нанять", "Копейщик", "OK"),), **columns)])
    path = tmp_path / book
    _type(path, "Армии", {"A5": "Вписано", "B5": "Лучник", "B40": "Конница"})
    first_page = {f"B{row}": f"Обход{row}" for row in range(2, 50)}       # the page's 48 rows, every one typed
    _type(path, "Манёвры", {**first_page, "B60": "Ниже"})

    def printed() -> list[tuple[str, str]]:
        return [(page.rsplit(" — стр.", 1)[0].rsplit(" ", 1)[-1], page) for page in _page_texts(path, tmp_path)]

    pages = printed()
    assert [tab for tab, _ in pages] == ["Манёвры", "Армии"], "«Экономика», empty, prints no page"
    assert all(page.startswith("Действие Что Статус") for _, page in pages), "the header on every page"
    maneuvres, armies = pages[0][1], pages[1][1]
    assert all(f"Обход{row}" in maneuvres.split() for row in range(2, 50)) and "Ниже" not in maneuvres
    assert all(word in armies for word in ("Копейщик", "Вписано", "Лучник", "Конница")), armies
    be.write_book(book, [TabWrite("Манёвры", column_updates={2: {2: "OK", 60: "OK"}}, kind="orders")])
    pages = printed()
    assert [tab for tab, _ in pages] == ["Манёвры", "Манёвры", "Армии"]
    assert "Ниже" in pages[1][1] and pages[1][1].startswith("Действие Что Статус")


@needs_soffice
def test_an_order_typed_into_a_faction_book_after_its_last_write_prints(titania_game, tmp_path):
    book = tmp_path / "albion.xlsx"
    shutil.copy(titania_game.path / titania_game.config.books["albion"], book)
    _type(book, "Поход", {"D101": "Вписано"})            # the tab's last order row
    campaign = [page for page in _page_texts(book, tmp_path) if "Поход — стр." in page]
    assert any("Вписано" in page for page in campaign), campaign
