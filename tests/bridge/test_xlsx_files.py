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
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, Protection

from sheets_bridge.backends.base import TabWrite
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.backends.xlsx.tabs import put_value


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


def test_a_saved_workbook_is_kept_as_a_parse_of_its_file_would_give_it(tmp_path):
    """What `save` keeps, saved again, gives the file a fresh parse saved again gives: a note's size,
    the columns' outline level and a note removed leave no trace of the earlier save."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"].comment = Comment("заметка игрока", "игрок", height=200, width=300)
    ws["B1"].comment = Comment("вторая", "игрок")
    ws.column_dimensions.group("C", "D", outline_level=1)
    path = tmp_path / "book.xlsx"
    xlsx_files.save(wb, path)
    kept, fresh = xlsx_files.load_for_edit(path), openpyxl.load_workbook(path)
    assert kept is wb
    for book in (kept, fresh):
        book.active["B1"].comment = None
        book.save(tmp_path / f"{'kept' if book is kept else 'fresh'}.xlsx")
    assert _parts(tmp_path / "kept.xlsx") == _parts(tmp_path / "fresh.xlsx")


def test_a_saved_workbook_kept_for_the_next_write_gives_the_bytes_of_a_fresh_parse(tmp_path):
    """`save` keeps the workbook it wrote for the next load of those bytes: a run of writes, each on
    the workbook the last one kept, gives at every step the file of the same writes each on a fresh
    parse (openpyxl's writer leaves traces — the outline level, the comments' drawing — that `save`
    clears). Header notes come and go, dropdowns, widths, statuses, a new tab."""
    army = dict(header=("Армия", "Юнит", "Количество", "Статус"), kind="orders", order_rows=30, locked_columns=(3,),
                numbers={2: 1}, column_widths={0: 24, 3: 60})
    writes = [
        [TabWrite("Армии", notes={0: "Название армии", 3: "Заполняет мастер"}, dropdowns={1: ("Рыцарь", "Лучник")},
                  **army), TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", 100),))],
        [TabWrite("Армии", column_updates={3: {2: "Нет такого юнита", 3: "OK"}})],
        [TabWrite("Армии", dropdowns={1: ("Рыцарь",)}, **army),                    # the notes are gone
         TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", 90), ("Нефрит", 3)))],
        [TabWrite("Сводка", header=("Поле",), rows=(("=не формула",),)), TabWrite("Новая", header=("А",))],
    ]

    def run(folder: Path, parse_each_time: bool) -> list[dict[str, bytes]]:
        backend = XlsxBackend(folder, password="секрет")
        book = backend.create_book("b", "Книга")
        out = []
        for tabs in writes:
            if parse_each_time:
                xlsx_files.forget()
            backend.write_book(book, tabs)
            out.append(_parts(backend.book_path(book)))
        return out

    xlsx_files.forget()
    kept = run(tmp_path / "kept", parse_each_time=False)
    fresh = run(tmp_path / "fresh", parse_each_time=True)
    for n, (a, b) in enumerate(zip(kept, fresh, strict=True), start=1):
        assert a == b, f"write {n}: {sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))}"


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


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.tuples(st.integers(1, 40), st.integers(1, 6)),
                       st.one_of(st.sampled_from(["", "слово", "0"]), st.integers(0, 3)), max_size=12))
def test_a_tab_reads_as_its_rows_of_text_without_trailing_blanks_across_any_gap(cells):
    """The order tab as the bridge reads it (backend._text_rows of sheet_values, whose rows without a cell are
    one shared tuple): each row's text up to its last non-blank cell, a blank row as [] before a later row,
    no blank rows at the end; 0 is a value, "" is blank."""
    from sheets_bridge.backends.xlsx.backend import _text_rows, cell_text
    wb = openpyxl.Workbook()
    for (r, c), v in cells.items():
        wb.active.cell(row=r, column=c, value=v)
    expected = []
    for r in range(1, 41):
        texts = ["" if (r, c) not in cells or cells[(r, c)] in ("", None) else cell_text(cells[(r, c)])
                 for c in range(1, 7)]
        while texts and texts[-1] == "":
            texts.pop()
        expected.append(texts)
    while expected and not expected[-1]:
        expected.pop()
    assert _text_rows(xlsx_files.sheet_values(wb.active)) == expected


bridge_values = st.one_of(st.text(st.characters(min_codepoint=32, exclude_categories=("Cs",)), max_size=8),
                          st.integers(-10**18, 10**18), st.floats(), st.booleans(), st.none(),
                          st.sampled_from(["", "=СУММ(A1)", "#N/A", " пробел ", "a\nb", "5", "1e3", "_x0041_"]))


FORMATS = ["General", "@", "0.00", "dd.mm.yyyy"]
places = st.tuples(st.integers(1, 30), st.integers(1, 8))


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(places, bridge_values, max_size=25), st.dictionaries(places, values, max_size=3),
       st.dictionaries(places, st.tuples(st.sampled_from(FORMATS), st.booleans(), st.booleans()), max_size=8),
       st.lists(st.integers(1, 30), max_size=3),
       st.dictionaries(places, st.tuples(st.sampled_from(FORMATS), st.booleans(), st.booleans()), max_size=8))
def test_a_kept_saved_workbook_reads_and_saves_as_a_fresh_parse_of_its_file(tmp_path_factory, cells, raw, styles,
                                                                            heights, restyled):
    """Whatever the bridge writes into cells (`put_value`: text stays text, odd numbers become text)
    and whatever else a cell may hold (a date), the workbook the next load of a saved file gets reads
    the values a fresh parse of the file reads and saves the same file; it is the very workbook saved
    when the cells hold only what the bridge writes."""
    folder = tmp_path_factory.mktemp("kept")
    wb = openpyxl.Workbook()
    for (r, c), v in cells.items():
        put_value(wb.active.cell(row=r, column=c), v)
    for (r, c), v in raw.items():
        wb.active.cell(row=r, column=c, value=v)
    def style(book: openpyxl.Workbook, plan: dict) -> None:
        for (r, c), (number_format, bold, locked) in plan.items():
            cell = book.active.cell(row=r, column=c)
            cell.number_format, cell.font, cell.protection = number_format, Font(bold=bold), Protection(locked=locked)
            cell.alignment = Alignment(wrap_text=bold, vertical="top" if locked else None)

    style(wb, styles)
    for r in heights:
        wb.active.row_dimensions[r].height = 30
        wb.active.row_dimensions[r].height = None      # as fit_rows leaves a row back to one line
    xlsx_files.save(wb, folder / "v.xlsx")
    kept, fresh = xlsx_files.load_for_edit(folder / "v.xlsx"), openpyxl.load_workbook(folder / "v.xlsx")
    if not raw and all(f != "dd.mm.yyyy" for f, _, _ in styles.values()):
        assert kept is wb
    kept_values, fresh_values = xlsx_files.sheet_values(kept.active), xlsx_files.sheet_values(fresh.active)
    assert [[(type(v), v) for v in row] for row in kept_values] == [[(type(v), v) for v in row] for row in fresh_values]
    for book in (kept, fresh):          # the next write changes the styles again
        style(book, restyled)
    kept.save(folder / "kept.xlsx")
    fresh.save(folder / "fresh.xlsx")
    assert _parts(folder / "kept.xlsx") == _parts(folder / "fresh.xlsx")


def test_the_in_memory_writer_writes_the_file_openpyxl_s_own_save_writes(tmp_path):
    """`save` builds each worksheet's XML in memory instead of in a temporary file: the parts are those
    of `Workbook.save`, for a book with notes, dropdowns, protection and a picture, but for the header notes'
    boxes, which it stores above the sheet (`notes_above`)."""
    from openpyxl.drawing.image import Image
    from PIL import Image as PILImage

    backend = XlsxBackend(tmp_path, password="секрет")
    book = backend.create_book("b", "Книга")
    backend.write_book(book, [TabWrite("Армии", header=("Армия", "Юнит", "Статус"), kind="orders", order_rows=10,
                                       locked_columns=(2,), dropdowns={1: ("Рыцарь", "Лучник")},
                                       notes={0: "Название армии"}, rows=(("Первая", "Рыцарь", "OK"),))])
    wb = openpyxl.load_workbook(backend.book_path(book))
    png = tmp_path / "p.png"
    PILImage.new("RGB", (4, 3), "red").save(png)
    wb.create_sheet("Карта").add_image(Image(str(png)), "B2")
    ours = tmp_path / "ours.xlsx"
    ours.write_bytes(xlsx_files.workbook_bytes(wb))
    wb.save(tmp_path / "theirs.xlsx")
    theirs = _parts(tmp_path / "theirs.xlsx")
    drawings = [name for name in theirs if name.endswith(".vml")]
    assert len(drawings) == 1 and xlsx_files.notes_above(theirs[drawings[0]]) != theirs[drawings[0]]
    assert _parts(ours) == {**theirs, **{name: xlsx_files.notes_above(theirs[name]) for name in drawings}}
    assert openpyxl.load_workbook(ours)["Армии"]["A1"].comment.text == "Название армии"


def _png(colour: tuple[int, int, int], size: tuple[int, int] = (1400, 1000)) -> bytes:
    import io

    from PIL import Image as PILImage
    out = io.BytesIO()
    PILImage.new("RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def test_a_book_holding_the_map_is_kept_and_its_next_write_gives_the_bytes_of_a_fresh_parse(tmp_path):
    """A book with a picture tab (the stage's map) is kept after its save and after a read, as its pictures'
    bytes; a later write on the kept workbook gives the file a write on a fresh parse gives, the picture in
    it unchanged and stored as it is (not deflated again)."""
    from sheets_bridge.backends.xlsx.pictures import put_pictures

    backend = XlsxBackend(tmp_path, password="секрет")
    book = backend.create_book("b", "Книга")
    backend.write_book(book, [TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", 100),))])
    png = _png((200, 30, 30))
    wb = xlsx_files.load_for_edit(backend.book_path(book))
    put_pictures(wb, "Рисунок карты", [png], "Карта", after="Сводка")
    xlsx_files.save(wb, backend.book_path(book))
    assert xlsx_files.load_for_reading(backend.book_path(book)) is wb           # kept, pictures and all
    twin = tmp_path / "books" / "twin.xlsx"
    shutil.copyfile(backend.book_path(book), twin)
    statuses = [TabWrite("Сводка", header=("Поле", "Значение"), rows=(("Золото", 90),))]
    for _ in range(2):                                       # saved twice from the kept workbook
        backend.write_book(book, statuses)
    xlsx_files.forget()
    backend.write_book("books/twin.xlsx", statuses)
    backend.write_book("books/twin.xlsx", statuses)
    assert _parts(backend.book_path(book)) == _parts(twin)
    with zipfile.ZipFile(backend.book_path(book)) as zf:
        (media,) = [i for i in zf.infolist() if i.filename.startswith("xl/media/")]
        assert media.compress_type == zipfile.ZIP_STORED and zf.read(media) == png
    parsed = openpyxl.load_workbook(backend.book_path(book))
    assert [i._data() for i in parsed["Рисунок карты"]._images] == [png]


def test_a_book_a_player_pasted_a_picture_into_is_kept_and_saved_with_it(tmp_path):
    """A picture openpyxl's reader gives (a player's, in a tab of their own) survives any number of saves of
    the kept workbook: it is kept as its bytes."""
    from openpyxl.drawing.image import Image

    path = _book(tmp_path)
    png = tmp_path / "p.png"
    png.write_bytes(_png((0, 90, 0), (30, 20)))
    wb = openpyxl.load_workbook(path)
    wb.create_sheet("Моё").add_image(Image(str(png)), "B2")
    wb.save(path)
    kept = xlsx_files.load_for_edit(path)
    for value in ("второе", "третье"):
        kept["Лист"]["B2"] = value
        xlsx_files.save(kept, path)
        kept = xlsx_files.load_for_edit(path)
    assert [i._data() for i in openpyxl.load_workbook(path)["Моё"]._images] == [png.read_bytes()]
    assert openpyxl.load_workbook(path)["Лист"]["B2"].value == "третье"


def _books(folder: Path, n: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        wb = openpyxl.Workbook()
        for r in range(1, 11):
            wb.active.cell(r, 1, f"книга {i}, строка {r}")
        paths.append(folder / f"b{i:03d}.xlsx")
        wb.save(paths[-1])
    return paths


def _stage(paths: list[Path]) -> xlsx_files.Tally:
    """What a stage does to the books: reads each, then edits and saves each, in the same order."""
    xlsx_files.forget()
    with xlsx_files.tallied() as tally:
        for path in paths:
            xlsx_files.load_for_reading(path)
        for path in paths:
            wb = xlsx_files.load_for_edit(path)
            wb.active["B1"] = "статус"
            xlsx_files.save(wb, path)
    return tally


def test_a_stage_parses_each_of_more_books_than_the_old_count_once(tmp_path):
    """The kept workbooks are bounded by memory, not by a count a game can exceed: 70 books (a 68-faction game;
    64 were kept, and a stage cycling through 66 parsed every book twice) are each parsed once and saved once."""
    paths = _books(tmp_path, 70)
    tally = _stage(paths)
    assert sorted(tally.parsed.values()) == [1] * 70
    assert sorted(tally.saved.values()) == [1] * 70


def test_books_over_the_room_keep_those_that_fit_from_read_to_write(tmp_path, monkeypatch):
    """With room for 3 of 6 books, a stage parses the 3 last read once (they wait for their writes; a book just
    saved is the first to leave) and the others twice: an LRU cycling through them kept none."""
    paths = _books(tmp_path, 6)
    size = xlsx_files.CELL_BYTES * 10
    monkeypatch.setattr(xlsx_files, "KEPT_MEMORY", 3 * size)
    tally = _stage(paths)
    parsed = [tally.parsed[str(p.resolve())] for p in paths]
    assert parsed == [2, 2, 2, 1, 1, 1]
    assert [tally.saved[str(p.resolve())] for p in paths] == [1] * 6
    xlsx_files.forget()
