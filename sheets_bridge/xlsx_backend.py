"""The embedded backend: one local .xlsx file per book, read and written with openpyxl.

A book id is the file's path relative to the backend root (e.g. "books/empire.xlsx").
Each `write_book` loads the file once, applies every TabWrite and saves atomically
(temporary file in the same directory, then `os.replace`), so a crash never leaves a
half-written book and repeating a write gives the same book. A TabWrite without header and
rows only sets values; otherwise the tab's layout (header style, frozen rows, widths,
protection, dropdowns) is applied from it.
"""
from __future__ import annotations

import datetime as dt
import math
import os
import re
import shutil
import tempfile
import zipfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.numbers import BUILTIN_FORMATS_REVERSE
from openpyxl.utils import column_index_from_string, get_column_letter, quote_sheetname
from openpyxl.utils.exceptions import InvalidFileException
from openpyxl.worksheet.datavalidation import DataValidation, DataValidationList
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.backend import BackendError, BookForbidden, BookNotFound, TabWrite

LISTS_SHEET = "Списки"          # hidden sheet holding dropdown lists too long to inline
PLACEHOLDER_SHEET = "Лист1"     # the only sheet of a freshly created book
BOOKS_DIR = "books"

MAX_INLINE_LIST = 255            # Excel's limit on an inline list formula
MAX_CELL_TEXT = 32767            # Excel's limit on the text of one cell
FORMULA_PREFIXES = ("=", "+", "-", "@")
EXACT_FLOAT_LIMIT = 2 ** 53      # floats at or above it are not whole numbers a person typed digit by digit

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill(fill_type="solid", fgColor="D9E1F2")
HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="top")
OPEN_CELL = Protection(locked=False)
LOCKED_CELL = Protection(locked=True)
TEXT_FORMAT = "@"

DROPDOWN_ERROR_TITLE = "Недопустимое значение"
DROPDOWN_ERROR = "Выберите значение из выпадающего списка этой ячейки."


class XlsxBackend:
    """Backend over local .xlsx files under `root`."""

    name = "xlsx"

    def __init__(self, root: Path | str):
        self.root = Path(root)

    # -- books ------------------------------------------------------------------
    def book_path(self, book_id: str) -> Path:
        """The file behind a book id (a path relative to the root)."""
        return self.root / book_id

    def create_book(self, key: str, title: str) -> str:
        stem = re.sub(r"[^\w.-]", "_", key.strip()).strip("._")
        if not stem:
            raise BackendError(f"cannot make a file name from book key {key!r}")
        book_id = f"{BOOKS_DIR}/{stem}.xlsx"
        path = self.book_path(book_id)
        if path.exists():
            raise BackendError(f"book file {path} already exists; remove it or use it as it is")
        path.parent.mkdir(parents=True, exist_ok=True)
        wb = Workbook()
        wb.worksheets[0].title = PLACEHOLDER_SHEET
        wb.properties.title = title
        wb.properties.creator = "forumwar"
        _save_atomically(wb, path)
        return book_id

    def read_tabs(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        wb = self._load(book_id, read_only=True)
        try:
            result: dict[str, list[list[str]]] = {}
            for title in titles:
                if title in wb.sheetnames and title not in result:
                    ws = wb[title]
                    ws.reset_dimensions()   # trust the cells, not a possibly stale <dimension>
                    result[title] = _text_rows(ws.iter_rows(values_only=True))
            return result
        finally:
            wb.close()

    def tab_titles(self, book_id: str) -> list[str]:
        """Titles of the book's tabs in order (the hidden dropdown lists left out)."""
        wb = self._load(book_id, read_only=True)
        try:
            return [t for t in wb.sheetnames if t != LISTS_SHEET]
        finally:
            wb.close()

    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None:
        wb = self._load(book_id, read_only=False)
        for tab in tabs:
            _apply(wb, tab)
        _collect_unused_lists(wb)
        _tidy_sheets(wb, {tab.title for tab in tabs})
        _save_atomically(wb, self.book_path(book_id))

    def share(self, book_id: str, readers: list[str], writers: list[str],
              notify: bool = False) -> list[str]:
        people = ", ".join([*writers, *readers]) or "nobody listed"
        return [f"xlsx backend: nothing is shared automatically; the GM hands the file "
                f"{self.book_path(book_id)} to its players ({people}) and collects it back"]

    def export_xlsx(self, book_id: str, dest: str) -> None:
        src = self.book_path(book_id)
        if not src.is_file():
            raise BookNotFound(f"book file {src} not found")
        target = Path(dest)
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        os.close(fd)
        try:
            shutil.copyfile(src, tmp)
            os.replace(tmp, target)
        except BaseException:
            _unlink_quietly(tmp)
            raise

    # -- helpers ----------------------------------------------------------------
    def _load(self, book_id: str, read_only: bool) -> Workbook:
        path = self.book_path(book_id)
        try:
            return load_workbook(path, read_only=read_only)
        except FileNotFoundError:
            raise BookNotFound(f"book file {path} not found (book id {book_id!r})") from None
        except PermissionError as exc:
            raise BookForbidden(f"no permission to open book file {path}: {exc}") from None
        except (zipfile.BadZipFile, InvalidFileException, KeyError, ValueError, OSError) as exc:
            raise BackendError(f"book file {path} is not a readable .xlsx workbook ({exc}); "
                               f"restore it from the game's archive") from None


# -- reading --------------------------------------------------------------------------
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
    for row in rows:
        end = len(row)
        while end and (row[end - 1] is None or row[end - 1] == ""):
            end -= 1
        if not end:
            blank += 1
            continue
        out.extend([] for _ in range(blank))
        blank = 0
        out.append([cell_text(v) for v in row[:end]])
    return out


# -- writing --------------------------------------------------------------------------
def put_value(cell, value: Any) -> None:
    """Write one value; a string is always stored as text, never as a formula."""
    if isinstance(value, float) and not math.isfinite(value):
        value = str(value)
    if value is None or isinstance(value, (bool, int, float)):
        cell.value = value
        cell.quotePrefix = False
        return
    text = ILLEGAL_CHARACTERS_RE.sub("", str(value)).replace("\r\n", "\n").replace("\r", "\n")
    text = text[:MAX_CELL_TEXT]             # XML would turn a bare CR into LF on reading anyway
    cell.value = text
    cell.data_type = "s"        # the setter turns "=..." into a formula and "#N/A" into an error
    cell.quotePrefix = text.startswith(FORMULA_PREFIXES)


def _apply(wb: Workbook, tab: TabWrite) -> None:
    if tab.title == LISTS_SHEET:
        raise BackendError(f"tab title {LISTS_SHEET!r} is reserved for dropdown lists")
    is_new = tab.title not in wb.sheetnames
    ws = _create_sheet(wb, tab.title) if is_new else wb[tab.title]
    if tab.header is not None:
        _write_header(ws, tab.header)
    if tab.rows is not None:
        if ws.max_row > 1:
            ws.delete_rows(2, ws.max_row - 1)
        for r, row in enumerate(tab.rows, start=2):
            for c, value in enumerate(row, start=1):
                put_value(ws.cell(row=r, column=c), value)
    for col, cells in (tab.column_updates or {}).items():
        for row_no, value in cells.items():
            put_value(ws.cell(row=int(row_no), column=int(col) + 1), value)
    if tab.header is None and tab.rows is None and not is_new:
        return      # a values-only update leaves dropdowns, protection and formatting alone
    ws.freeze_panes = f"A{tab.frozen_rows + 1}" if tab.frozen_rows > 0 else None
    for col, width in tab.column_widths.items():
        ws.column_dimensions[get_column_letter(int(col) + 1)].width = width
    ws.protection.sheet = True
    ws.protection.formatColumns = False     # players may still resize columns and rows
    ws.protection.formatRows = False
    if tab.kind == "orders":
        _open_order_cells(ws, tab)
        _set_dropdowns(wb, ws, tab)


def _create_sheet(wb: Workbook, title: str) -> Worksheet:
    if not title or len(title) > 31:
        raise BackendError(f"invalid tab title {title!r}: 1 to 31 characters allowed")
    try:
        ws = wb.create_sheet(title)
    except ValueError as exc:
        raise BackendError(f"invalid tab title {title!r}: {exc}") from None
    if ws.title != title:   # openpyxl renames silently on a clash it sees differently
        wb.remove(ws)
        raise BackendError(f"invalid tab title {title!r}")
    return ws


def _write_header(ws: Worksheet, header: tuple[str, ...]) -> None:
    for c, text in enumerate(header, start=1):
        cell = ws.cell(row=1, column=c)
        put_value(cell, text)
        cell.font, cell.fill, cell.alignment = HEADER_FONT, HEADER_FILL, HEADER_ALIGNMENT
    for cell in _existing_cells(ws):
        if cell.row == 1 and cell.column > len(header):
            cell.value = None
            cell.font, cell.fill, cell.alignment = Font(), PatternFill(), Alignment()


def _existing_cells(ws: Worksheet) -> list[Any]:
    """The cells the sheet holds, without creating any (iter_rows would create every cell of the
    used range, which one far stray cell makes huge). openpyxl keeps them in `_cells`."""
    return list(ws._cells.values())


def formula_text(value: Any) -> str:
    """The text of a formula cell's value (a plain formula string or an array/data-table formula)."""
    return str(getattr(value, "text", None) or value)


def _open_order_cells(ws: Worksheet, tab: TabWrite) -> None:
    """Unlock the order rows' cells except locked columns; a locked tab locks them all.

    Only the rows the tab takes orders in (2 to order_rows + 1) and the header's columns are
    formatted, wherever else the sheet has cells; outside them an empty cell is dropped (older
    books had every row down to a stray cell formatted) and a filled one locked. A player's formula
    anywhere in the tab becomes its text, so it is never carried on into a later book or the archive.
    """
    ncols = len(tab.header) if tab.header is not None else \
        max([int(c) + 1 for c in (*tab.locked_columns, *tab.dropdowns)] + [1])
    last_row = tab.order_rows + 1
    locked_cols = {int(c) + 1 for c in tab.locked_columns}
    # The style ids once, then set on each cell: assigning openpyxl's style objects cell by cell
    # looks each up again and took most of a push's time (thousands of order cells per book).
    protections = _protection_table(ws)
    open_id, locked_id = protections.add(OPEN_CELL), protections.add(LOCKED_CELL)
    text_id = BUILTIN_FORMATS_REVERSE[TEXT_FORMAT]
    for row_no, row in enumerate(ws.iter_rows(min_row=1, max_row=last_row, min_col=1, max_col=ncols), start=1):
        for cell in row:
            is_open = (not tab.locked and row_no >= 2 and cell.column not in locked_cols)
            style = _style_array(cell)
            style.protectionId = open_id if is_open else locked_id
            if is_open:
                style.numFmtId = text_id
    for cell in _existing_cells(ws):
        if cell.data_type == "f":
            put_value(cell, formula_text(cell.value))
        if cell.row > last_row or cell.column > ncols:
            if cell.value is None:
                del ws._cells[(cell.row, cell.column)]
            else:
                cell.protection = LOCKED_CELL


def _protection_table(ws: Worksheet) -> Any:
    """The workbook's table of protection styles (openpyxl's private `_protections`, not in its stubs)."""
    wb: Any = ws.parent
    return wb._protections


def _style_array(cell: Any) -> StyleArray:
    """The cell's own style record, made if it has none (openpyxl's private `_style`, not in its stubs)."""
    if not cell.has_style:
        cell._style = StyleArray()
    style: StyleArray = cell._style
    return style


def _set_dropdowns(wb: Workbook, ws: Worksheet, tab: TabWrite) -> None:
    """Replace the tab's validations with one list validation per dropdown column."""
    ws.data_validations = DataValidationList()
    last_row = tab.order_rows + 1
    for col, items in sorted(tab.dropdowns.items()):
        items = tuple(str(item) for item in items if str(item) != "")
        if not items or last_row < 2:
            continue
        dv = DataValidation(type="list", formula1=_list_formula(wb, items), allow_blank=True,
                            showErrorMessage=True, errorStyle="stop",
                            errorTitle=DROPDOWN_ERROR_TITLE, error=DROPDOWN_ERROR)
        letter = get_column_letter(int(col) + 1)
        dv.add(f"{letter}2:{letter}{last_row}")
        ws.add_data_validation(dv)


def _list_formula(wb: Workbook, items: tuple[str, ...]) -> str:
    inline = '"' + ",".join(items) + '"'
    if len(inline) <= MAX_INLINE_LIST and not any("," in i or '"' in i for i in items):
        return inline
    lists = _lists_sheet(wb)
    columns = _list_columns(lists)
    col = next((c for c, values in columns.items() if values == items), None)
    if col is None:
        col = next(c for c in range(1, len(columns) + 2) if not columns.get(c))
        for r, item in enumerate(items, start=1):
            put_value(lists.cell(row=r, column=col), item)
    letter = get_column_letter(col)
    return f"{quote_sheetname(LISTS_SHEET)}!${letter}$1:${letter}${len(items)}"


def _lists_sheet(wb: Workbook) -> Worksheet:
    if LISTS_SHEET in wb.sheetnames:
        return wb[LISTS_SHEET]
    ws = wb.create_sheet(LISTS_SHEET)
    ws.sheet_state = "hidden"
    ws.protection.sheet = True
    return ws


def _list_columns(ws: Worksheet) -> dict[int, tuple[str, ...]]:
    """Column number -> its list (values down to the first empty cell)."""
    columns: dict[int, tuple[str, ...]] = {}
    for c in range(1, ws.max_column + 1):
        values = []
        for r in range(1, ws.max_row + 1):
            value = ws.cell(row=r, column=c).value
            if value is None or value == "":
                break
            values.append(str(value))
        columns[c] = tuple(values)
    return columns


def _collect_unused_lists(wb: Workbook) -> None:
    """Clear list columns no validation refers to any more, so the sheet does not grow."""
    if LISTS_SHEET not in wb.sheetnames:
        return
    lists = wb[LISTS_SHEET]
    reference = re.compile(rf"^'?{re.escape(LISTS_SHEET)}'?!\$?([A-Z]+)\$?\d")
    used: set[int] = set()
    for ws in wb.worksheets:
        for dv in ws.data_validations.dataValidation:
            match = reference.match((dv.formula1 or "").strip())
            if match:   # LibreOffice saves the sheet name unquoted
                used.add(column_index_from_string(match[1]))
    for c in range(1, lists.max_column + 1):
        if c not in used:
            for r in range(1, lists.max_row + 1):
                lists.cell(row=r, column=c).value = None


def _tidy_sheets(wb: Workbook, written: Iterable[str]) -> None:
    """Drop the empty placeholder, keep the hidden lists last, activate the first visible tab."""
    if PLACEHOLDER_SHEET in wb.sheetnames and PLACEHOLDER_SHEET not in written:
        ws = wb[PLACEHOLDER_SHEET]
        others = [s for s in wb.worksheets if s is not ws and s.sheet_state == "visible"]
        if others and ws.max_row == 1 and ws.max_column == 1 and ws["A1"].value is None:
            wb.remove(ws)
    if LISTS_SHEET in wb.sheetnames:
        wb.move_sheet(LISTS_SHEET, offset=len(wb.sheetnames) - 1 - wb.sheetnames.index(LISTS_SHEET))
    visible = [i for i, s in enumerate(wb.worksheets) if s.sheet_state == "visible"]
    if visible:
        wb.active = visible[0]
        for i, s in enumerate(wb.worksheets):
            s.sheet_view.tabSelected = i == visible[0]


def _save_atomically(wb: Workbook, path: Path) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        wb.save(tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        os.replace(tmp, path)
    except BaseException:
        _unlink_quietly(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _unlink_quietly(path: str | Path) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
