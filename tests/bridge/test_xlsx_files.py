"""Books kept parsed between loads (sheets_bridge/xlsx_files.py): never stale, never changed by a read
or by an edit that was not saved, and a write gives the same bytes whether or not the book was read."""
from __future__ import annotations

import datetime as dt
import shutil
import zipfile
from pathlib import Path

import openpyxl
from hypothesis import given, settings
from hypothesis import strategies as st

from sheets_bridge import xlsx_files
from sheets_bridge.backend import TabWrite
from sheets_bridge.xlsx_backend import XlsxBackend


def _book(tmp_path: Path, value: str = "первое") -> Path:
    wb = openpyxl.Workbook()
    wb.active.title = "Лист"
    wb.active["B2"] = value
    path = tmp_path / "book.xlsx"
    wb.save(path)
    return path


def _parts(path: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist() if n != "docProps/core.xml"}


def test_a_book_another_program_changed_is_parsed_again(tmp_path):
    path = _book(tmp_path)
    assert xlsx_files.load_for_reading(path)["Лист"]["B2"].value == "первое"
    other = openpyxl.load_workbook(path)          # a player's spreadsheet program
    other["Лист"]["B2"] = "второе"
    other.save(path)
    assert xlsx_files.load_for_reading(path)["Лист"]["B2"].value == "второе"


def test_an_edit_that_is_not_saved_leaves_the_kept_book_as_the_file_is(tmp_path):
    path = _book(tmp_path)
    xlsx_files.load_for_reading(path)
    edited = xlsx_files.load_for_edit(path)
    edited["Лист"]["B2"] = "не сохранено"
    assert xlsx_files.load_for_reading(path)["Лист"]["B2"].value == "первое"


def test_a_saved_edit_is_what_the_next_load_reads(tmp_path):
    path = _book(tmp_path)
    wb = xlsx_files.load_for_edit(path)
    wb["Лист"]["C3"] = 7
    xlsx_files.save(wb, path)
    assert xlsx_files.load_for_reading(path)["Лист"]["C3"].value == 7
    assert openpyxl.load_workbook(path)["Лист"]["C3"].value == 7


def test_a_write_after_a_read_gives_the_bytes_of_a_write_after_a_fresh_parse(tmp_path):
    """The bridge reads a book's orders, then writes it: reading must leave nothing in the kept workbook
    (no cell, no style) that a fresh parse of the file would not have."""
    backend = XlsxBackend(tmp_path, password="секрет")
    book = backend.create_book("b", "Книга")
    tabs = [TabWrite("Армии", header=("Армия", "Юнит", "Количество", "Статус"), kind="orders", order_rows=30,
                     locked_columns=(3,), numbers={2: 1}, dropdowns={1: ("Рыцарь", "Лучник")},
                     rows=(("Первая", "Рыцарь", 3, "OK"),)),
            TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", 100),))]
    backend.write_book(book, tabs)
    twin = tmp_path / "books" / "twin.xlsx"
    shutil.copyfile(backend.book_path(book), twin)
    backend.read_tabs(book, ["Армии", "Сводка", "нет такой"])
    backend.tab_titles(book)
    statuses = [TabWrite("Армии", column_updates={3: {2: "Нет такого юнита", 3: "OK"}})]   # «Сводка» untouched
    backend.write_book(book, statuses)
    xlsx_files.forget()
    backend.write_book("books/twin.xlsx", statuses)
    assert _parts(backend.book_path(book)) == _parts(twin)


values = st.one_of(st.text(st.characters(min_codepoint=32, exclude_categories=("Cs",)), max_size=8),
                   st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                   st.booleans(), st.dates(min_value=dt.date(1950, 1, 1), max_value=dt.date(2100, 1, 1)))


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(1, 30), st.integers(1, 8)), values, max_size=25))
def test_sheet_values_are_what_openpyxl_s_read_only_mode_yields(tmp_path_factory, cells):
    path = tmp_path_factory.mktemp("values") / "v.xlsx"
    wb = openpyxl.Workbook()
    for (r, c), v in cells.items():
        wb.active.cell(row=r, column=c, value=v)
    wb.save(path)
    read_only = openpyxl.load_workbook(path, read_only=True)
    expected = list(read_only.active.iter_rows(values_only=True)) if cells else []
    read_only.close()
    assert xlsx_files.sheet_values(openpyxl.load_workbook(path).active) == expected
