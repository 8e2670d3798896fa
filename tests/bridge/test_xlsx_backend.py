"""XlsxBackend: every TabWrite feature round-trips through a real .xlsx file."""
from __future__ import annotations

import shutil
import subprocess
import zipfile

import openpyxl
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.worksheet._writer import WorksheetWriter

from sheets_bridge.backends.base import BackendError, BookNotFound, TabWrite
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.backends.xlsx.backend import XlsxBackend, cell_text
from sheets_bridge.backends.xlsx.tabs import LISTS_SHEET

ARMY_HEADER = ("Армия", "Юнит", "Количество", "Статус")
CITIES = tuple(f"Город номер {i}" for i in range(40))       # > 255 characters inline
UNITS = ("Копейщики", "Лучники", "Всадники")


def orders_tab(**overrides) -> TabWrite:
    spec = dict(title="Армии", header=ARMY_HEADER, kind="orders",
                dropdowns={0: CITIES, 1: UNITS}, locked_columns=(3,), order_rows=20,
                column_widths={0: 24, 3: 60})
    spec.update(overrides)
    return TabWrite(**spec)


@pytest.fixture
def backend(tmp_path) -> XlsxBackend:
    return XlsxBackend(tmp_path)


@pytest.fixture
def book(backend) -> str:
    return backend.create_book("empire", "Империя — приказы")


def load(backend: XlsxBackend, book_id: str) -> openpyxl.Workbook:
    return openpyxl.load_workbook(backend.book_path(book_id))


def validations(ws) -> list[tuple[str, str]]:
    return sorted((dv.formula1, str(dv.sqref)) for dv in ws.data_validations.dataValidation)


def test_create_book_makes_a_titled_file(backend, book):
    assert book == "books/empire.xlsx"
    wb = load(backend, book)
    assert wb.properties.title == "Империя — приказы"
    with pytest.raises(BackendError, match="уже есть"):
        backend.create_book("empire", "again")


def test_values_round_trip_as_text(backend, book):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле", "Значение"),
                                       rows=(("Золото", 120), ("Доход", 12.5), ("Ход", 3.0),
                                             ("Пусто", None), ("Заметка", "текст")))])
    assert backend.read_tabs(book, ["Сводка"]) == {"Сводка": [
        ["Поле", "Значение"], ["Золото", "120"], ["Доход", "12.5"], ["Ход", "3"],
        ["Пусто"], ["Заметка", "текст"]]}
    cell = load(backend, book)["Сводка"]["B2"]
    assert cell.value == 120 and cell.data_type == "n"     # numbers stay numbers in the sheet


@pytest.mark.parametrize("text", ["=1+1", "=HYPERLINK(\"http://x\")", "+7", "-5", "@SUM(A1)",
                                  "#N/A", "=", "0123"])
def test_text_that_looks_like_a_formula_stays_text(backend, book, text):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле",), rows=((text,),))])
    cell = load(backend, book)["Сводка"]["A2"]
    assert (cell.value, cell.data_type) == (text, "s")
    assert cell.quotePrefix == text.startswith(("=", "+", "-", "@"))
    with zipfile.ZipFile(backend.book_path(book)) as zf:
        sheet_xml = "".join(zf.read(n).decode() for n in zf.namelist() if "worksheets/" in n)
    assert "<f>" not in sheet_xml
    assert backend.read_tabs(book, ["Сводка"])["Сводка"][1] == [text]
    backend.write_book(book, [TabWrite("Сводка", column_updates={1: {3: "ok"}})])
    assert load(backend, book)["Сводка"]["A2"].data_type == "s"   # survives a reload and resave


def test_a_formula_typed_by_a_player_is_read_as_its_text(backend, book):
    path = backend.book_path(book)
    wb = openpyxl.load_workbook(path)
    ws = wb.create_sheet("Армии")
    ws.append(list(ARMY_HEADER))
    ws.append(["Первая", "=A1&\"x\"", "=2*3"])
    wb.save(path)
    assert backend.read_tabs(book, ["Армии"])["Армии"][1] == ["Первая", '=A1&"x"', "=2*3"]


def test_read_tabs_trims_and_formats_numbers(backend, book):
    path = backend.book_path(book)
    wb = openpyxl.load_workbook(path)
    ws = wb.create_sheet("Армии")
    ws["A1"], ws["B1"], ws["C1"] = "Армия", "Юнит", "Количество"
    ws["A2"], ws["C2"], ws["E2"] = "Первая", 40.0, None
    ws["B3"] = 0.1
    ws["A5"], ws["B5"] = 7, -3.0
    ws["F9"] = ""               # an empty string is as empty as nothing
    ws["D12"].font = openpyxl.styles.Font(bold=True)    # a styled empty cell far below
    wb.save(path)
    assert backend.read_tabs(book, ["Армии", "Нет такой"]) == {"Армии": [
        ["Армия", "Юнит", "Количество"], ["Первая", "", "40"], ["", "0.1"], [], ["7", "-3"]]}


def test_cell_text_renders_like_a_player_reads():
    assert [cell_text(v) for v in (None, 5, 5.0, -2.0, 2.5, 1e20, True)] == \
        ["", "5", "5", "-2", "2.5", "1e+20", "TRUE"]      # as Excel shows 1E+20, not 21 digits


def test_rows_replace_all_data_and_clear_leftovers(backend, book):
    backend.write_book(book, [TabWrite("Войска", header=("Юнит", "Число", "Где"),
                                       rows=(("Лучники", 5, "резерв"), ("Копейщики", 3, "А1"),
                                             ("Всадники", 2, "А2")))])
    backend.write_book(book, [TabWrite("Войска", header=("Юнит", "Число"),
                                       rows=(("Лучники", 4),))])
    assert backend.read_tabs(book, ["Войска"])["Войска"] == [["Юнит", "Число"], ["Лучники", "4"]]


def test_column_updates_set_only_those_cells(backend, book):
    backend.write_book(book, [orders_tab()])
    path = backend.book_path(book)
    wb = openpyxl.load_workbook(path)               # players fill two rows
    for r, row in enumerate((["Первая", "Лучники", "10"], ["Вторая", "Всадники", "x"]), start=2):
        for c, value in enumerate(row, start=1):
            wb["Армии"].cell(row=r, column=c, value=value)
    wb.save(path)
    backend.write_book(book, [orders_tab(column_updates={3: {2: "OK", 3: "Количество — число"}})])
    assert backend.read_tabs(book, ["Армии"])["Армии"] == [
        list(ARMY_HEADER), ["Первая", "Лучники", "10", "OK"],
        ["Вторая", "Всадники", "x", "Количество — число"]]


def test_values_only_update_leaves_dropdowns_protection_and_format_alone(backend, book):
    backend.write_book(book, [orders_tab(locked=True)])
    before = load(backend, book)["Армии"]
    backend.write_book(book, [TabWrite("Армии", column_updates={3: {2: "OK"}}, kind="orders",
                                       locked_columns=(3,), frozen_rows=0)])
    ws = load(backend, book)["Армии"]
    assert ws["D2"].value == "OK"
    assert validations(ws) == validations(before)
    assert all(c.protection.locked for row in ws.iter_rows(min_row=1, max_row=21) for c in row)
    assert ws.freeze_panes == "A2" and ws.column_dimensions["A"].width == 24


def test_dropdowns_present_once_after_two_identical_writes(backend, book):
    backend.write_book(book, [orders_tab()])
    backend.write_book(book, [orders_tab()])
    wb = load(backend, book)
    assert validations(wb["Армии"]) == [
        ('"Копейщики,Лучники,Всадники"', "B2:B21"), ("'Списки'!$A$1:$A$40", "A2:A21")]
    dv = wb["Армии"].data_validations.dataValidation[0]
    assert dv.type == "list" and dv.showErrorMessage
    lists = wb[LISTS_SHEET]
    assert lists.sheet_state == "hidden" and lists.protection.sheet
    assert [lists.cell(row=r, column=1).value for r in range(1, 41)] == list(CITIES)
    assert lists.max_column == 1


def test_long_lists_share_one_column_and_stale_lists_are_cleared(backend, book):
    backend.write_book(book, [orders_tab(dropdowns={0: CITIES, 1: CITIES})])
    ws = load(backend, book)["Армии"]
    assert {f for f, _ in validations(ws)} == {"'Списки'!$A$1:$A$40"}
    fewer = CITIES[:30]
    backend.write_book(book, [orders_tab(dropdowns={0: fewer})])
    wb = load(backend, book)
    assert validations(wb["Армии"]) == [("'Списки'!$B$1:$B$30", "A2:A21")]
    lists = wb[LISTS_SHEET]
    assert all(lists.cell(row=r, column=1).value is None for r in range(1, 41))
    assert [lists.cell(row=r, column=2).value for r in range(1, 31)] == list(fewer)


def test_lists_used_by_other_tabs_survive_a_write(backend, book):
    backend.write_book(book, [orders_tab(), orders_tab(title="Гарнизоны", dropdowns={0: CITIES[:35]})])
    path = backend.book_path(book)
    wb = openpyxl.load_workbook(path)       # LibreOffice saves the reference unquoted
    dv = wb["Гарнизоны"].data_validations.dataValidation[0]
    assert dv.formula1 == "'Списки'!$B$1:$B$35"
    dv.formula1 = "Списки!$B$1:$B$35"
    wb.save(path)
    backend.write_book(book, [orders_tab(dropdowns={1: UNITS})])
    lists = load(backend, book)[LISTS_SHEET]
    assert [lists.cell(row=r, column=2).value for r in range(1, 36)] == list(CITIES[:35])
    assert lists.cell(row=1, column=1).value is None      # the list no tab uses is cleared


def test_list_items_with_commas_go_to_the_lists_sheet(backend, book):
    backend.write_book(book, [orders_tab(dropdowns={1: ("Пехота, тяжёлая", "Лучники")})])
    (formula, _), = validations(load(backend, book)["Армии"])
    assert formula == "'Списки'!$A$1:$A$2"


def test_order_tab_open_cells_unlocked_except_locked_columns_and_header(backend, book):
    backend.write_book(book, [orders_tab()])
    ws = load(backend, book)["Армии"]
    assert ws.protection.sheet
    assert not ws["A2"].protection.locked and not ws["C21"].protection.locked
    assert ws["D2"].protection.locked                       # status column
    assert ws["A1"].protection.locked                       # header
    assert ws["E2"].protection.locked and ws["A22"].protection.locked   # outside the order area


def test_locked_order_tab_locks_every_cell(backend, book):
    backend.write_book(book, [orders_tab()])
    backend.write_book(book, [orders_tab(locked=True)])
    ws = load(backend, book)["Армии"]
    assert ws.protection.sheet
    assert all(c.protection.locked for row in ws.iter_rows(min_row=1, max_row=21) for c in row)
    backend.write_book(book, [orders_tab()])                 # the next stage reopens it
    assert not load(backend, book)["Армии"]["B5"].protection.locked


def test_status_tab_is_fully_protected(backend, book):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле", "Значение"),
                                       rows=(("Золото", 5),))])
    ws = load(backend, book)["Сводка"]
    assert ws.protection.sheet
    assert ws["A2"].protection.locked and ws["B2"].protection.locked
    assert ws.data_validations.dataValidation == []


def test_header_is_styled_frozen_and_columns_sized(backend, book):
    backend.write_book(book, [orders_tab(), TabWrite("Бои", header=("Бой",), frozen_rows=2)])
    wb = load(backend, book)
    ws = wb["Армии"]
    assert ws.freeze_panes == "A2" and wb["Бои"].freeze_panes == "A3"
    assert ws["A1"].font.b and ws["A1"].fill.fill_type == "solid" and ws["A1"].alignment.wrap_text
    assert ws.column_dimensions["A"].width == 24 and ws.column_dimensions["D"].width == 60


def test_tabs_keep_first_written_order_and_placeholder_goes(backend, book):
    backend.write_book(book, [TabWrite("Сводка", header=("a",)), orders_tab()])
    backend.write_book(book, [TabWrite("Журнал", header=("b",)), TabWrite("Сводка", header=("c",))])
    wb = load(backend, book)
    assert wb.sheetnames == ["Сводка", "Армии", "Журнал", LISTS_SHEET]
    assert wb.active.title == "Сводка"


def test_bad_tab_titles_are_refused_clearly(backend, book):
    for title in ("Приказы/армии", "х" * 32, LISTS_SHEET):
        with pytest.raises(BackendError):
            backend.write_book(book, [TabWrite(title, header=("a",))])
    assert load(backend, book).sheetnames == ["Лист1"]


def test_identical_writes_give_identical_book_parts(backend, book):
    tabs = [TabWrite("Сводка", header=("Поле",), rows=(("=x",), (5,))), orders_tab()]
    backend.write_book(book, tabs)
    with zipfile.ZipFile(backend.book_path(book)) as zf:
        first = {n: zf.read(n) for n in zf.namelist()}
    backend.write_book(book, tabs)
    with zipfile.ZipFile(backend.book_path(book)) as zf:
        second = {n: zf.read(n) for n in zf.namelist()}
    assert first.keys() == second.keys()
    assert [n for n in first if first[n] != second[n]] in ([], ["docProps/core.xml"])


def test_a_header_note_keeps_its_size_through_a_values_only_write_of_a_book_read_again(backend, book):
    """A note's size lives in the file's drawing part, which openpyxl does not read: a book parsed
    again and given only statuses must still show each note whole, as sized when it was written."""
    long_note = "Город, где стоит армия: выберите из списка; армия в пути — город, куда она идёт. " * 3
    backend.write_book(book, [orders_tab(notes={0: long_note, 3: "Заполняет мастер"})])

    def drawing() -> bytes:
        with zipfile.ZipFile(backend.book_path(book)) as zf:
            return zf.read(next(n for n in zf.namelist() if n.endswith(".vml")))

    sized = drawing()
    assert b"height:" in sized and b"width:300" in sized.replace(b"px", b"").replace(b"pt", b"")
    xlsx_files.forget()
    backend.write_book(book, [TabWrite("Армии", column_updates={3: {2: "OK"}})])
    assert drawing() == sized


def test_crash_mid_save_leaves_the_old_book(backend, book, monkeypatch):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле",), rows=(("старое",),))])
    before = backend.book_path(book).read_bytes()
    real = WorksheetWriter.write
    calls = []

    def crash_after_first_sheet(self):
        calls.append(self.ws.title)
        if len(calls) > 1:
            raise OSError("disk full")
        return real(self)

    monkeypatch.setattr(WorksheetWriter, "write", crash_after_first_sheet)
    with pytest.raises(OSError, match="disk full"):
        backend.write_book(book, [TabWrite("Сводка", rows=(("новое",),)), orders_tab()])
    assert len(calls) == 2
    assert backend.book_path(book).read_bytes() == before
    assert sorted(p.name for p in backend.book_path(book).parent.iterdir()) == ["empire.xlsx"]
    monkeypatch.undo()
    assert backend.read_tabs(book, ["Сводка"])["Сводка"] == [["Поле"], ["старое"]]


def test_pandas_opens_the_book(backend, book):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле", "Значение"),
                                       rows=(("Золото", 120), ("=формула", "x"))), orders_tab()])
    frames = pd.read_excel(backend.book_path(book), sheet_name=None)
    assert list(frames) == ["Сводка", "Армии", LISTS_SHEET]
    assert frames["Сводка"]["Поле"].tolist() == ["Золото", "=формула"]
    assert list(frames["Армии"].columns) == list(ARMY_HEADER)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed")
def test_libreoffice_reads_text_as_text(backend, book, tmp_path):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле", "Значение"),
                                       rows=(("=1+1", "-5"), ("@x", 3))), orders_tab()])
    out = tmp_path / "csv"
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/lo",
                    "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76", "--outdir", str(out),
                    str(backend.book_path(book))],
                   check=True, capture_output=True, timeout=120)
    assert (out / "empire.csv").read_text(encoding="utf-8").splitlines() == \
        ["Поле,Значение", "=1+1,-5", "@x,3"]


def test_missing_and_corrupt_books_raise_backend_errors(backend, book):
    with pytest.raises(BookNotFound):
        backend.read_tabs("books/nobody.xlsx", ["Сводка"])
    backend.book_path("books/broken.xlsx").write_bytes(b"not a zip at all")
    with pytest.raises(BackendError, match="не читаемая книга .xlsx"):
        backend.write_book("books/broken.xlsx", [TabWrite("Сводка")])


def test_export_copies_and_share_explains(backend, book, tmp_path):
    backend.write_book(book, [TabWrite("Сводка", header=("Поле",), rows=(("x",),))])
    dest = tmp_path / "archive" / "turn-0001" / "empire.xlsx"
    backend.export_xlsx(book, str(dest))
    assert dest.read_bytes() == backend.book_path(book).read_bytes()
    warnings = backend.share(book, ["a@x.ru"], ["b@x.ru"])
    assert len(warnings) == 1 and "отдайте файл" in warnings[0] and "b@x.ru" in warnings[0]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=12))
def test_any_text_reads_back_unchanged_or_without_control_characters(backend, book, texts):
    """Invariant: text reads back as written, minus characters xlsx cannot hold (CR becomes LF)."""
    backend.write_book(book, [TabWrite("Журнал", header=("Запись",),
                                       rows=tuple((t,) for t in texts))])
    got = [row[0] if row else "" for row in backend.read_tabs(book, ["Журнал"])["Журнал"][1:]]
    expected = [openpyxl.cell.cell.ILLEGAL_CHARACTERS_RE.sub("", t).replace("\r\n", "\n")
                .replace("\r", "\n") for t in texts]
    while expected and expected[-1] == "":
        expected.pop()
    assert got == expected


def _png(colour: tuple[int, int, int]) -> bytes:
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (60, 40), colour).save(out, format="PNG")
    return out.getvalue()


def _saves(monkeypatch) -> list[str]:
    saved: list[str] = []
    real = xlsx_files.save
    monkeypatch.setattr(xlsx_files, "save", lambda wb, path: (saved.append(path.name), real(wb, path)))
    return saved


def _book_parts(path) -> dict[str, bytes]:
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist() if n != "docProps/core.xml"}


def test_pictures_held_go_into_the_book_with_its_write_in_one_save(backend, book, tmp_path, monkeypatch):
    """Within `holding_pictures` a picture put waits for the book's write, which saves it with the tabs: one
    save, and the book a write and then a put of its own would give."""
    tabs = [orders_tab(rows=(("Город номер 1", "Лучники", 3, "OK"),))]
    png = _png((10, 120, 200))
    twin = XlsxBackend(tmp_path / "twin", password=backend.password)
    twin_book = twin.create_book("empire", "Империя — приказы")
    twin.write_book(twin_book, tabs)
    twin.put_pictures(twin_book, "Рисунок карты", [png], "Карта вашей фракции")
    saved = _saves(monkeypatch)
    with backend.holding_pictures():
        backend.put_pictures(book, "Рисунок карты", [png], "Карта вашей фракции")
        assert saved == [] and "Рисунок карты" not in backend.tab_titles(book)     # held, not written
        backend.write_book(book, tabs)
    assert saved == ["empire.xlsx"]
    assert _book_parts(backend.book_path(book)) == _book_parts(twin.book_path(twin_book))
    assert backend.tab_titles(book) == ["Армии", "Рисунок карты"]


def test_pictures_of_a_book_not_written_are_saved_when_the_holding_ends_and_none_after_a_failure(backend, book,
                                                                                                monkeypatch):
    backend.write_book(book, [orders_tab()])
    other = backend.create_book("public", "Общая")
    backend.write_book(other, [TabWrite("Хроника", header=("Ход", "Текст"))])
    saved = _saves(monkeypatch)
    with backend.holding_pictures():
        backend.put_pictures(book, "Рисунок карты", [_png((200, 0, 0))], "первая")
        backend.put_pictures(book, "Рисунок карты", [_png((0, 0, 200))], "вторая")     # the last one counts
        backend.put_pictures(other, "Рисунок карты", [_png((0, 200, 0))], "общая")
        backend.write_book(other, [TabWrite("Хроника", header=("Ход", "Текст"), rows=(("1", "бой"),))])
    assert saved == ["public.xlsx", "empire.xlsx"]                  # the unwritten book: once, at the end
    pictured = openpyxl.load_workbook(backend.book_path(book))["Рисунок карты"]
    assert pictured["A1"].value == "вторая" and [i._data() for i in pictured._images] == [_png((0, 0, 200))]
    saved.clear()
    with pytest.raises(RuntimeError), backend.holding_pictures():
        backend.put_pictures(book, "Рисунок карты", [_png((1, 2, 3))], "не сохранится")
        raise RuntimeError("the push failed")
    assert saved == [] and openpyxl.load_workbook(backend.book_path(book))["Рисунок карты"]["A1"].value == "вторая"
    backend.put_pictures(book, "Рисунок карты", [], "сразу")                        # not holding: at once
    assert saved == ["empire.xlsx"]


def test_a_book_written_before_an_interruption_gets_its_pictures_as_the_one_save_would_have_given_them(tmp_path):
    """An opening interrupted after a book's push puts that book's pictures when re-run, by themselves (a
    parse of the book, the pictures, a save): the book is then the one the uninterrupted push saved with its
    pictures — the header notes keep their size, and neither has the empty cells and rows a write touched."""
    tabs = [orders_tab(notes={0: "Город, где стоит армия"}, rows=(("Город номер 1", "Лучники", 3, ""),)),
            TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", ""), ("Нефрит", 3)))]
    png = _png((90, 10, 160))
    once = XlsxBackend(tmp_path / "once", password="p")
    book = once.create_book("empire", "Империя")
    with once.holding_pictures():
        once.put_pictures(book, "Рисунок карты", [png], "Карта")
        once.write_book(book, tabs)
    twice = XlsxBackend(tmp_path / "twice", password="p")
    twice.create_book("empire", "Империя")
    twice.write_book(book, tabs)                     # pushed, then the opening stopped
    xlsx_files.forget()                              # re-run in a new process
    with twice.holding_pictures():
        twice.put_pictures(book, "Рисунок карты", [png], "Карта")
    assert _book_parts(twice.book_path(book)) == _book_parts(once.book_path(book))


def test_the_protection_hash_is_worked_out_once_per_game_and_kept_with_the_password(tmp_path, monkeypatch):
    """100 000 rounds of SHA-512 are a seventh of a second: a game's hash is kept on the password file's second line,
    and a later process (its own hashes forgotten) writes the books without working it out again; a password the
    GM typed in anew gets its own hash."""
    from sheets_bridge.backends.xlsx import password as xlsx_password

    (tmp_path / "game.toml").write_text("", encoding="utf-8")
    first = XlsxBackend(tmp_path)
    book = first.create_book("b", "Книга")
    first.write_book(book, [TabWrite("Сводка", header=("Поле",), rows=(("Золото",),))])
    lines = xlsx_password.password_path(tmp_path).read_text(encoding="utf-8").splitlines()
    salt, digest = xlsx_password.protection_hash(lines[0])
    assert lines[1].split()[-2:] == [salt, digest]
    rounds = []
    sha512 = xlsx_password.hashlib.sha512

    def counted(data: bytes = b"") -> object:
        rounds.append(1)
        return sha512(data)

    monkeypatch.setattr(xlsx_password.hashlib, "sha512", counted)
    xlsx_password.forget()                              # a new process
    XlsxBackend(tmp_path).write_book(book, [TabWrite("Сводка", header=("Поле",), rows=(("Нефрит",),))])
    assert not rounds
    assert openpyxl.load_workbook(tmp_path / book)["Сводка"].protection.hashValue == digest
    xlsx_password.password_path(tmp_path).write_text("новый-пароль\n", encoding="utf-8")
    xlsx_password.forget()
    XlsxBackend(tmp_path).write_book(book, [TabWrite("Сводка", header=("Поле",), rows=(("Лес",),))])
    assert len(rounds) > xlsx_password.SPIN_COUNT
    monkeypatch.undo()
    assert openpyxl.load_workbook(tmp_path / book)["Сводка"].protection.hashValue == \
        xlsx_password.protection_hash("новый-пароль")[1]
    assert xlsx_password.stored_password(tmp_path) == "новый-пароль"


def test_a_text_longer_than_an_excel_cell_is_cut_where_it_shows_and_says_so(tmp_path):
    """Excel keeps at most 32,767 characters in a cell: a longer text (a long battle report) is cut with a Russian
    note at its end, as on Google (50,000), never silently."""
    from sheets_bridge.backends.xlsx.tabs import CUT_NOTE, MAX_CELL_TEXT
    be = XlsxBackend(tmp_path)
    book = be.create_book("public", "Общая")
    long_text = "бой " * 10_000
    be.write_book(book, [TabWrite("Хроника", header=("Текст",), rows=((long_text,),))])
    cell = be.read_tabs(book, ["Хроника"])["Хроника"][1][0]
    assert len(cell) == MAX_CELL_TEXT and cell.endswith(CUT_NOTE.strip("\n")) and "обрезан" in cell
    assert cell.startswith(long_text[:1000])


@pytest.mark.parametrize(("title", "said"), [("В" * 32, "32 знака, а Excel принимает от 1 до 31"),
                                              ("Армии/флоты", "не бывает знаков"),
                                              ("", "нет названия")])
def test_a_tab_title_excel_refuses_is_a_russian_message(tmp_path, title, said):
    from sheets_bridge.backends.base import BackendError
    be = XlsxBackend(tmp_path)
    book = be.create_book("public", "Общая")
    with pytest.raises(BackendError) as caught:
        be.write_book(book, [TabWrite(title, header=("А",), rows=())])
    assert said in str(caught.value) and "раскладке игры" in str(caught.value)
