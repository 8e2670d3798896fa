"""The embedded backend: one local .xlsx file per book, read and written with openpyxl.

A book id is the file's path relative to the backend root (e.g. "books/empire.xlsx").
Each `write_book` loads the file once, applies every TabWrite and saves atomically
(temporary file in the same directory, then `os.replace`), so a crash never leaves a
half-written book and repeating a write gives the same book. Files are loaded and saved through
`xlsx_files`, which keeps each parsed workbook for the next use of the same bytes. Pictures put while
`holding_pictures` is open go into the book with its next `write_book`, in the same save (a stage loads
and saves each book once, not once more for its map). A TabWrite without header and
rows only sets values; otherwise the tab's layout (header style, frozen rows, widths,
protection, dropdowns) is applied from it (`xlsx_tabs`). Protected sheets carry the game's
password (`xlsx_password`: state/xlsx-password.txt of the game directory that is the root).
"""
from __future__ import annotations

import contextlib
import datetime as dt
import math
import re
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from openpyxl import Workbook
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.atomic import atomic_write_bytes
from sheets_bridge.backends.base import (
    Backend,
    BackendError,
    BookForbidden,
    BookNotFound,
    HoldsPictures,
    PutsPictures,
    TabWrite,
    TypesOrders,
    with_merges,
)
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.backends.xlsx.password import game_password, lock_sheets
from sheets_bridge.backends.xlsx.pictures import put_pictures
from sheets_bridge.backends.xlsx.tabs import (
    LISTS_SHEET,
    PLACEHOLDER_SHEET,
    apply_tab,
    collect_unused_lists,
    tidy_sheets,
)

BOOKS_DIR = "books"
WINDOWS_RESERVED = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                              *(f"LPT{i}" for i in range(1, 10))})
EXACT_FLOAT_LIMIT = 2 ** 53      # floats at or above it are not whole numbers a person typed digit by digit


class XlsxBackend(Backend, TypesOrders, PutsPictures, HoldsPictures):
    """Backend over local .xlsx files under `root`."""

    name = "xlsx"

    def __init__(self, root: Path | str, password: str | None = None):
        self.root = Path(root)
        self._password = password
        self._held: dict[str, dict[str, tuple[list[bytes], str]]] | None = None   # book -> tab -> pictures, note

    @property
    def password(self) -> str | None:
        """The sheets' password: the one given, else the game's (drawn at the first write of a game)."""
        if self._password is None:
            self._password = game_password(self.root)
        return self._password

    # -- books ------------------------------------------------------------------
    def book_path(self, book_id: str) -> Path:
        """The file behind a book id (a path relative to the root)."""
        return self.root / book_id

    def create_book(self, key: str, title: str) -> str:
        stem = re.sub(r"[^\w.-]", "_", key.strip()).strip("._")
        if not stem:
            raise BackendError(f"из имени книги {key!r} не получается имя файла: оставьте в нём латинские "
                               "буквы, цифры, «_» и «-»")
        if stem.split(".")[0].upper() in WINDOWS_RESERVED:   # «con.xlsx» cannot exist on Windows
            stem = f"{stem}_book"
        book_id = f"{BOOKS_DIR}/{stem}.xlsx"
        path = self.book_path(book_id)
        if path.exists():
            raise BackendError(f"файл книги {path} уже есть: уберите его или возьмите игру, которой он принадлежит")
        path.parent.mkdir(parents=True, exist_ok=True)
        wb = Workbook()
        wb.worksheets[0].title = PLACEHOLDER_SHEET
        wb.properties.title = title
        wb.properties.creator = "forumwar"
        xlsx_files.save(wb, path)
        return book_id

    def read_tabs(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        return _read(self._load(book_id, edit=False), titles)

    def read_orders(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """`read_tabs`, with the merged cells of these tabs under MERGED_CELLS (`backend.with_merges`)."""
        wb = self._load(book_id, edit=False)
        tabs = _read(wb, titles)
        return with_merges(tabs, {title: merged_cells(wb[title]) for title in tabs})

    def tab_titles(self, book_id: str) -> list[str]:
        """Titles of the book's tabs in order (the hidden dropdown lists left out)."""
        return [t for t in self._load(book_id, edit=False).sheetnames if t != LISTS_SHEET]

    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Apply the tabs, then any pictures held for the book (`holding_pictures`), and save it once."""
        wb = self._load(book_id, edit=True)
        for tab in tabs:
            apply_tab(wb, tab)
        collect_unused_lists(wb)
        tidy_sheets(wb, {tab.title for tab in tabs})
        held = self._held.pop(book_id, {}) if self._held is not None else {}
        for title, (pictures, note) in held.items():
            put_pictures(wb, title, pictures, note, after=wb.sheetnames[0])
        lock_sheets(wb, self.password)
        xlsx_files.save(wb, self.book_path(book_id))

    def type_rows(self, book_id: str, tabs: Mapping[str, list[Mapping[str, str]]]) -> None:
        """TypesOrders: each tab's rows deleted, then these typed, and the book saved once, as Excel saves it (the
        order tabs' cells are left unlocked for the players)."""
        wb = self._load(book_id, edit=True)
        for tab, rows in tabs.items():
            ws = wb[tab]
            header = [cell_text(c.value).strip() for c in ws[1]]
            for line in ws.iter_rows(min_row=2):  # what the tab held (pre-filled rows) is deleted first
                for cell in line:
                    cell.value = None
            for n, cells in enumerate(rows, 2):
                for title, text in cells.items():
                    ws.cell(n, header.index(title) + 1, int(text) if re.fullmatch(r"-?\d+", text) else text)
        xlsx_files.save(wb, self.book_path(book_id))

    def put_pictures(self, book_id: str, title: str, pictures: list[bytes], note: str) -> None:
        """Make `title` a picture tab of the book (after its first tab) holding these PNGs (`xlsx_pictures`):
        now, or with the book's next write while `holding_pictures` is open."""
        if self._held is not None:
            self._held.setdefault(book_id, {})[title] = (list(pictures), note)
            return
        self._put_now(book_id, {title: (pictures, note)})

    @contextlib.contextmanager
    def holding_pictures(self) -> Iterator[None]:
        """Within it, each book's pictures wait for its next `write_book`, which saves them with its tabs;
        those of a book not written by the end are saved then, each book loaded and saved once. Nothing
        held is saved when the block fails (the stage's opening, re-run, puts them again)."""
        if self._held is not None:                # within another: that one saves them
            yield
            return
        self._held = {}
        try:
            yield
            held, self._held = self._held, None
            for book_id, tabs in held.items():
                self._put_now(book_id, tabs)
        finally:
            self._held = None

    def _put_now(self, book_id: str, tabs: dict[str, tuple[list[bytes], str]]) -> None:
        """The pictures put in the book by themselves, the book left as `write_book` leaves it (a parse gives
        the header notes their default size: `tidy_sheets` sizes them again)."""
        wb = self._load(book_id, edit=True)
        tidy_sheets(wb, set())
        for title, (pictures, note) in tabs.items():
            put_pictures(wb, title, pictures, note, after=wb.sheetnames[0])
        lock_sheets(wb, self.password)
        xlsx_files.save(wb, self.book_path(book_id))

    def share(self, book_id: str, readers: list[str], writers: list[str],
              notify: bool = False) -> list[str]:
        people = ", ".join([*writers, *readers]) or "в game.toml никто не указан"
        return [f"книги Excel не раздаются сами: отдайте файл {self.book_path(book_id)} его игрокам ({people}) "
                "и соберите его обратно к дедлайну"]

    def export_xlsx(self, book_id: str, dest: str) -> None:
        src = self.book_path(book_id)
        if not src.is_file():
            raise BookNotFound(f"нет файла книги {src}: верните его на место (копии книг — в archive/) "
                               "или исправьте путь в [books] файла game.toml")
        atomic_write_bytes(Path(dest), src.read_bytes())

    # -- helpers ----------------------------------------------------------------
    def _load(self, book_id: str, edit: bool) -> Workbook:
        path = self.book_path(book_id)
        try:
            return xlsx_files.load_for_edit(path) if edit else xlsx_files.load_for_reading(path)
        except FileNotFoundError:
            raise BookNotFound(f"нет файла книги {path} (в [books] файла game.toml — {book_id!r}): верните файл "
                               "на место (копии книг — в archive/) или исправьте путь") from None
        except PermissionError as exc:
            raise BookForbidden(f"нет прав открыть файл книги {path} ({exc.strerror or exc}): закройте его в Excel "
                                "или LibreOffice и проверьте права на файл") from None
        except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError) as exc:
            raise BackendError(f"файл книги {path} — не читаемая книга .xlsx ({exc}); верните её копию из "
                               "archive/ игры") from None


# -- reading --------------------------------------------------------------------------
def _read(wb: Workbook, titles: list[str]) -> dict[str, list[list[str]]]:
    result: dict[str, list[list[str]]] = {}
    for title in titles:
        if title in wb.sheetnames and title not in result:
            result[title] = _text_rows(xlsx_files.sheet_values(wb[title]))
    return result


def merged_cells(ws: Worksheet) -> list[str]:
    """The sheet's merged ranges in A1 form («A4:A5»), top to bottom, left to right."""
    return [m.coord for m in sorted(ws.merged_cells.ranges, key=lambda m: (m.min_row, m.min_col, m.coord))]


def cell_text(value: Any) -> str:
    """A cell value as the text a player sees: integral numbers without '.0', None as ''."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) < EXACT_FLOAT_LIMIT:
            return str(int(value))
        return repr(value)        # 2.5, and 1e+308 as Excel shows it rather than 309 digits
    if isinstance(value, dt.datetime):
        if value.time() == dt.time(0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    return str(value)


def _text_rows(rows: Iterable[tuple[Any, ...]]) -> list[list[str]]:
    """Rows as text without trailing blank cells and rows. Only cells that hold something are
    converted: the empty rows openpyxl yields for a gap (e.g. up to one stray far cell) cost a test."""
    out: list[list[str]] = []
    blank = 0
    last: tuple[Any, ...] | None = None
    for row in rows:
        if row is last:                  # the very row just found blank (sheet_values' one empty tuple)
            blank += 1
            continue
        end = len(row)
        while end and (row[end - 1] is None or row[end - 1] == ""):
            end -= 1
        if not end:
            blank += 1
            last = row
            continue
        out += [[] for _ in range(blank)]
        blank = 0
        out.append([cell_text(v) for v in row[:end]])
    return out
