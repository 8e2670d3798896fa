"""Issue 23 item 5: «every tab prints readable on A4 (wrap, not shrink), uses its columns, and empty order
tabs do not print blank pages.» (Seen in LibreOffice's PDFs of a Jade Rose faction book and GM book:
«Бои» and «Честность» wrap inside the page instead of running off it or shrinking.)"""
from __future__ import annotations

import re
import shutil
import statistics
import subprocess
from pathlib import Path

import openpyxl
import pytest

from sheets_bridge.backends.base import TabWrite
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.backends.xlsx.tabs import NARROWEST, PAGE_CHARACTERS, page_widths


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


def test_empty_order_tabs_print_their_header_only_and_filled_ones_up_to_the_last_row(tmp_path):
    orders = TabWrite("Экономика", header=("Действие", "Что", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=100, column_widths={0: 20, 1: 20, 2: 40})
    filled = TabWrite("Армии", header=("Армия", "Юнит", "Статус"), kind="orders", locked_columns=(2,),
                      order_rows=100, rows=(("1-я", "Копейщик", ""), ("1-я", "Лучник", "")),
                      column_widths={0: 20, 1: 20, 2: 40})
    wb = _book(tmp_path, [orders, filled])
    assert wb["Экономика"].print_area == "'Экономика'!$A$1:$C$1"
    assert wb["Армии"].print_area == "'Армии'!$A$1:$C$3"


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
    from sheets_bridge.pictures import FACTION_MAP_NOTE
    png = io.BytesIO()
    Image.new("RGB", (1400, 1000), "white").save(png, format="PNG")
    be = XlsxBackend(tmp_path, password="p")
    book = be.create_book("albion", "Альбион")
    be.write_book(book, [TabWrite("Сводка", header=("Показатель", "Значение"))])
    be.put_pictures(book, "Рисунок карты", [png.getvalue()], FACTION_MAP_NOTE)
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


def _printed(book: Path, folder: Path) -> list[tuple[str, float]]:
    """Each page of the book printed by LibreOffice: its tab (from the footer) and the median height of its
    words (points: 13.8 at the sheet's own size)."""
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{folder}/lo", "--convert-to", "pdf",
                    "--outdir", str(folder), str(book)], check=True, capture_output=True, timeout=180)
    text = subprocess.run(["pdftotext", "-bbox", str(folder / f"{book.stem}.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = []
    for page in text.split("<page ")[1:]:
        heights = [float(b) - float(a) for a, b in re.findall(r'yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)"', page)]
        words = re.findall(r">([^<]*)</word>", page)
        footer = " ".join(words[words.index("—") - 1:]) if "—" in words else ""
        pages.append((footer, statistics.median(heights) if heights else 0.0))
    return pages


@pytest.mark.skipif(shutil.which("soffice") is None or shutil.which("pdftotext") is None,
                    reason="LibreOffice (soffice) and poppler (pdftotext) are needed to print a book")
@pytest.mark.parametrize("key", ["albion", "gm"])
def test_titania_books_print_every_page_at_its_own_size_one_or_a_few_pages_a_tab(titania_game, key, tmp_path):
    """Before: «Технологии» printed at 60 % (its words 8.5 pt boxes), the pictures on Letter; «Карта» 4 pages."""
    src = titania_game.path / titania_game.config.books[key]
    shutil.copy(src, tmp_path / src.name)
    pages = _printed(tmp_path / src.name, tmp_path)
    visible = [ws.title for ws in openpyxl.load_workbook(src).worksheets if ws.sheet_state == "visible"]
    shrunk = [(footer, height) for footer, height in pages if height and height < 12.5]
    assert shrunk == [], shrunk
    assert len(visible) <= len(pages) <= len(visible) + 4
