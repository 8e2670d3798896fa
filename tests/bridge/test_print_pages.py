"""Issue 23 item 5: «every tab prints readable on A4 (wrap, not shrink), uses its columns, and empty order
tabs do not print blank pages.» (Seen in LibreOffice's PDFs of a Jade Rose faction book and GM book:
«Бои» and «Честность» wrap inside the page instead of running off it or shrinking.)"""
from __future__ import annotations

import openpyxl

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
