"""The backend contract (sheets_bridge.backends.base), checked on every registered backend: local xlsx
files and Google Sheets over the fake. The same checks run on both: the registry and the declared
abilities, one read and one write per book, a write that fails changes nothing, protections, and every
cell type written reads back the same way on both."""
from __future__ import annotations

import collections
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from gspread.exceptions import APIError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl.worksheet._writer import WorksheetWriter

from sheets_bridge.backends import KINDS, UnknownBackend, kind
from sheets_bridge.backends.base import (
    AdoptsBooks,
    Backend,
    BackendError,
    HoldsPictures,
    LocksOnRead,
    PutsPictures,
    SharesGame,
    TabWrite,
    WritesManyBooks,
)
from sheets_bridge.backends.gsheets.backend import GSheetsBackend
from sheets_bridge.backends.xlsx import backend as xlsx_backend
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.gameconfig import BACKENDS
from tests.fake_google import FakeGoogle, fake_backend, fake_client

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
ALICE = "alice@example.com"
HEADER = ("Действие", "Что", "Количество", "Статус")


def orders_tab(**kw: object) -> TabWrite:
    return TabWrite("Экономика", header=HEADER, kind="orders", locked_columns=(3,), editors=(ALICE,),
                    order_rows=20, **kw)  # type: ignore[arg-type]


def status_tab(rows: tuple[tuple[object, ...], ...] = (("Золото", 100),)) -> TabWrite:
    return TabWrite("Сводка", header=("Показатель", "Значение"), rows=rows)


@dataclass
class Store:
    """One backend with two books, and what the checks need to see through it."""

    be: Backend
    books: dict[str, str]
    ops: collections.Counter[tuple[str, str]] = field(default_factory=collections.Counter)
    player_may_edit: Callable[[str, str, str], bool] = lambda book, title, cell: False
    break_next_write: Callable[[], None] = lambda: None


def _xlsx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    be = XlsxBackend(tmp_path, password="contract")
    store = Store(be, {key: be.create_book(key, f"Книга {key}") for key in ("empire", "public")})
    files = xlsx_backend.xlsx_files
    real_read, real_edit, real_save = files.load_for_reading, files.load_for_edit, files.save

    def book_of(path: Path) -> str:
        return Path(path).relative_to(tmp_path).as_posix()

    def counted(real: Callable, op: str) -> Callable:
        def wrapper(path, *args, **kwargs):  # type: ignore[no-untyped-def]
            store.ops[(book_of(path if op != "write" else args[0]), op)] += 1
            return real(path, *args, **kwargs)
        return wrapper

    monkeypatch.setattr(files, "load_for_reading", counted(real_read, "read"))
    monkeypatch.setattr(files, "load_for_edit", counted(real_edit, "load for writing"))
    monkeypatch.setattr(files, "save", counted(real_save, "write"))

    def may_edit(book: str, title: str, cell: str) -> bool:
        import openpyxl
        ws = openpyxl.load_workbook(be.book_path(book))[title]
        return not (ws.protection.sheet and ws[cell].protection.locked)

    def break_next_write() -> None:
        real = WorksheetWriter.write
        calls: list[str] = []

        def crash_after_first_sheet(self):  # type: ignore[no-untyped-def]
            calls.append(self.ws.title)
            if len(calls) > 1:
                raise OSError("disk full")
            return real(self)
        monkeypatch.setattr(WorksheetWriter, "write", crash_after_first_sheet)

    store.player_may_edit, store.break_next_write = may_edit, break_next_write
    return store


def _gsheets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    fake = FakeGoogle()
    for email in (GM, ALICE):
        fake.add_user(email)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})   # where pictures go too
    books = {key: fake.create_spreadsheet(GM, f"forumwar: {key}", {ALICE: "writer"} if key == "empire" else {},
                                          parent=folder) for key in ("empire", "public")}
    be = fake_backend(fake, BOT, gm_emails=[GM], metadata_path=tmp_path / "meta.json")
    store = Store(be, books)
    names = {v: k for k, v in books.items()}

    def ops() -> collections.Counter[tuple[str, str]]:
        counter: collections.Counter[tuple[str, str]] = collections.Counter()
        for call in fake.calls:
            if call.file_id in names:
                counter[(call.file_id, "write" if call.op == "spreadsheets.batchUpdate" else "read")] += 1
        return counter

    def may_edit(book: str, title: str, cell: str) -> bool:
        try:
            fake_client(fake, ALICE).http_client.values_update(
                book, f"'{title}'!{cell}", params={"valueInputOption": "RAW"}, body={"values": [["x"]]})
        except APIError:
            return False
        return True

    store.player_may_edit = may_edit
    store.break_next_write = lambda: fake.inject(status=400, times=10, op="spreadsheets.batchUpdate",
                                                 message="refused")
    store.ops = _LiveCounter(ops, fake)  # type: ignore[assignment]
    return store


class _LiveCounter(collections.Counter[tuple[str, str]]):
    """The fake's request log read as (book, read/write) counts; `clear` forgets the log so far."""

    def __init__(self, read: Callable[[], collections.Counter[tuple[str, str]]], fake: FakeGoogle) -> None:
        super().__init__()
        self._read, self._fake = read, fake

    def __getitem__(self, key: tuple[str, str]) -> int:
        return self._read()[key]

    def clear(self) -> None:
        self._fake.calls.clear()


MAKERS = {"xlsx": _xlsx, "gsheets": _gsheets}


@pytest.fixture(params=sorted(MAKERS))
def store(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Store]:
    yield MAKERS[request.param](tmp_path, monkeypatch)


def test_every_backend_of_game_toml_is_registered_and_declares_its_name():
    assert set(BACKENDS) == set(KINDS) == set(MAKERS)
    assert all(kind(name).name == name for name in BACKENDS)
    with pytest.raises(UnknownBackend) as caught:
        kind("dropbox")
    assert "такого нет" in str(caught.value) and "«dropbox»" in str(caught.value)


def test_each_backend_is_a_backend_and_its_abilities_match_its_kind(store):
    be = store.be
    assert isinstance(be, Backend)
    declared = kind(be.name)
    assert isinstance(be, AdoptsBooks) == declared.adopts_books
    assert isinstance(be, SharesGame) == (declared.sharing_note is None)
    abilities = {p.__name__ for p in (LocksOnRead, WritesManyBooks, PutsPictures, HoldsPictures, AdoptsBooks,
                                      SharesGame) if isinstance(be, p)}
    assert abilities == ({"PutsPictures", "HoldsPictures"} if isinstance(be, XlsxBackend) else
                         {"LocksOnRead", "WritesManyBooks", "AdoptsBooks", "SharesGame", "PutsPictures"})
    assert isinstance(be, GSheetsBackend | XlsxBackend)


def _png(colour: tuple[int, int, int]) -> bytes:
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(out, format="PNG")
    return out.getvalue()


def test_pictures_reach_their_tab_and_a_new_stage_replaces_them(store):
    """PutsPictures: the tab holds the note and the picture (xlsx: embedded; Google: a link to it), a later
    stage's picture replaces it, and no picture leaves the note alone."""
    book = store.books["empire"]
    store.be.write_book(book, [status_tab()])
    assert isinstance(store.be, PutsPictures)
    store.be.put_pictures(book, "Рисунок карты", [_png((200, 0, 0))], "Карта вашей фракции")
    first = store.be.read_tabs(book, ["Рисунок карты"])["Рисунок карты"]
    assert first[0][0] == "Карта вашей фракции"
    assert "Сводка" in store.be.tab_titles(book) and "Рисунок карты" in store.be.tab_titles(book)
    store.be.put_pictures(book, "Рисунок карты", [_png((0, 0, 200))], "Карта вашей фракции")
    assert store.be.read_tabs(book, ["Рисунок карты"])["Рисунок карты"] == first    # the same place, new picture
    store.be.put_pictures(book, "Рисунок карты", [], "Рисунки выключены")
    assert store.be.read_tabs(book, ["Рисунок карты"])["Рисунок карты"][0][0] == "Рисунки выключены"
    assert store.be.read_tabs(book, ["Сводка"])["Сводка"][1] == ["Золото", "100"]


def test_a_stage_reads_each_book_once_and_writes_it_once(store):
    for book in store.books.values():
        store.be.write_book(book, [status_tab(), orders_tab()])
    store.ops.clear()
    for book in store.books.values():
        store.be.read_orders(book, ["Экономика", "Сводка"])
        store.be.write_book(book, [status_tab((("Золото", 5),)), orders_tab(column_updates={3: {2: "OK"}})])
    for book in store.books.values():
        assert store.ops[(book, "read")] == 1
        assert store.ops[(book, "write")] == 1


def test_a_write_that_fails_leaves_the_book_as_it_was(store):
    book = store.books["empire"]
    store.be.write_book(book, [status_tab((("Золото", "старое"),)), orders_tab()])
    before = store.be.read_tabs(book, ["Сводка", "Экономика"])
    store.break_next_write()
    with pytest.raises((OSError, BackendError)):
        store.be.write_book(book, [status_tab((("Золото", "новое"),)), orders_tab(rows=(("Нанять", "x", 1),))])
    assert store.be.read_tabs(book, ["Сводка", "Экономика"]) == before


def test_protections_leave_a_player_exactly_the_open_order_cells(store):
    book = store.books["empire"]
    store.be.write_book(book, [status_tab(), orders_tab()])
    assert store.player_may_edit(book, "Экономика", "A2")
    assert store.player_may_edit(book, "Экономика", "C20")
    assert not store.player_may_edit(book, "Экономика", "D2"), "the status column"
    assert not store.player_may_edit(book, "Экономика", "A1"), "the header"
    assert not store.player_may_edit(book, "Сводка", "B2"), "a status tab"
    store.be.write_book(book, [orders_tab(locked=True)])
    assert not store.player_may_edit(book, "Экономика", "A2"), "a closed order tab"


CELLS = ("текст", "Ёжик в тумане", "=1+1", "+7", "'кавычка", "0042", "", 0, 7, -15, 10**12, 2.5, 0.1,
         "a" * 300, "две\nстроки")


def test_every_cell_type_reads_back_as_the_same_text_on_every_backend(store):
    book = store.books["public"]
    store.be.write_book(book, [TabWrite("Журнал", header=("A",) * len(CELLS), rows=(CELLS,))])
    read = store.be.read_tabs(book, ["Журнал"])["Журнал"]
    expected = ["" if c == "" else str(c) for c in CELLS]
    assert read[1][:len(expected)] == expected[:len(read[1])] and all(c == "" for c in expected[len(read[1]):])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(st.one_of(st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=20),
                                st.integers(-10**9, 10**9)), min_size=1, max_size=6))
def test_any_written_value_reads_back_as_its_text(store, cells):
    book = store.books["public"]
    store.be.write_book(book, [TabWrite("Журнал", header=("A",) * len(cells), rows=(tuple(cells),))])
    read = store.be.read_tabs(book, ["Журнал"])["Журнал"]
    expected = [str(c).strip() for c in cells]
    got = (read[1] if len(read) > 1 else []) + [""] * len(cells)
    assert [str(c).strip() for c in got[:len(cells)]] == expected
