"""Loading and saving .xlsx files, with each parsed workbook kept for the next load of the same bytes.

One file, over 400 lines: what a load gives (openpyxl's reader, with the print areas it drops) is what a save
must leave on the workbook it keeps, and both handle the same private tables of openpyxl's workbook.

Parsing a book with openpyxl costs as much as writing it, and a command reads a book (the orders) and
then writes it (the statuses, the results), and the next command reads what the last one wrote. So a
workbook loaded for reading, and one just saved, is kept (within KEPT_MEMORY, not a count of books that a
game could exceed: `_Kept`), keyed by the exact bytes of its file; a later
load hashes the file and reuses the kept workbook only for the same bytes (a player's edit, another
program or a restored archive changes them, and the file is parsed again; a copy of the file is the
same workbook). Reading never changes a kept workbook; an edit takes it out (`load_for_edit`) until it
is saved. A saved workbook is kept only once it is what a parse of its file gives: openpyxl's writer
leaves traces on the workbook it saves (the columns' outline level, the comments' drawing part), and
its reader numbers the style parts afresh and gives comments their default size; these are evened out
(`_as_parsed`) when the saved workbook is loaded again, not at the save (a `turn` never loads a book it saved),
so the next write of a book gives the same bytes whether the process kept it or parsed it
(tests/bridge/test_xlsx_files.py; the whole demos give identical files either way).
A sheet's pictures are kept as their bytes (`KeptImage`: openpyxl's own image reads its file once and
closes it), so a book holding the map is kept too and saved any number of times; its pictures are stored
in the file as they are (a PNG does not deflate: compressing it again only costs time). Workbooks holding
charts are never kept, nor is one saved with merged cells (the reader makes a merge's cells anew).
A sheet's print area may be a formula (`set_print_formula`: an order tab prints down to its last filled row,
one typed after the bridge wrote the book too), which openpyxl's reader drops and the loads here keep.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import io
import math
import threading
from collections import Counter, OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import NoneType
from typing import Any
from xml.etree import ElementTree
from zipfile import ZIP_DEFLATED, ZIP_STORED, ZipFile

from openpyxl import Workbook
from openpyxl.cell.cell import MergedCell
from openpyxl.comments import Comment
from openpyxl.comments.comment_sheet import CommentRecord
from openpyxl.compat.strings import safe_string
from openpyxl.drawing.image import Image
from openpyxl.drawing.spreadsheet_drawing import SpreadsheetDrawing
from openpyxl.reader.drawings import find_images
from openpyxl.reader.excel import ExcelReader
from openpyxl.styles import Alignment, Protection
from openpyxl.styles.cell_style import StyleArray
from openpyxl.utils import get_column_letter
from openpyxl.utils.indexed_list import IndexedList
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet._writer import WorksheetWriter
from openpyxl.worksheet.print_settings import PrintArea
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

from sheets_bridge.atomic import atomic_write_bytes

KEPT_MEMORY = 1 << 30    # bytes the kept workbooks may take (about: CELL_BYTES a cell); 64 factions on 600
                         # provinces keep their 66 books in about 300 MB
CELL_BYTES = 500         # a parsed cell's memory, its value and style record included (tracemalloc: 480 to 520)
_PARSED_COMMENT = Comment("", "")    # a parsed comment's size: openpyxl's default
PARSED_TYPES = ("s", "f", "b", "e", "inlineStr")     # cell types other than numbers that a file holds as they are
PRINT_AREA = "Print_Area"        # the defined name of a sheet's print area (`_xlnm.Print_Area` in the file)


@dataclass
class _Entry:
    wb: Workbook
    size: int                   # estimated bytes (`_size`)
    written: bytes | None       # the file just saved from `wb`, until the kept workbook is made as parsed


class _Kept:
    """Digest of a file's bytes -> the workbook they parse to, least recently used first, within KEPT_MEMORY.

    A workbook just saved goes in as the first to leave: a stage reads every book before it writes any, and the
    books read wait there for their writes; those written are wanted again only by the next command. So a game
    whose books take more than the room keeps as many of them from read to write as fit (a cycle through more
    books than an LRU holds would find none), and a game within it parses each book once per stage."""

    def __init__(self) -> None:
        self._books: OrderedDict[bytes, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._size = 0

    def get(self, digest: bytes, take: bool) -> _Entry | None:
        with self._lock:
            if take:
                entry = self._books.pop(digest, None)
                if entry is not None:
                    self._size -= entry.size
                return entry
            entry = self._books.get(digest)
            if entry is not None:
                self._books.move_to_end(digest)
            return entry

    def put(self, digest: bytes, entry: _Entry, first_out: bool = False) -> None:
        if entry.size > KEPT_MEMORY:
            return
        with self._lock:
            old = self._books.pop(digest, None)
            self._size += entry.size - (old.size if old is not None else 0)
            self._books[digest] = entry
            if first_out:
                self._books.move_to_end(digest, last=False)
            while self._size > KEPT_MEMORY and self._books:
                self._size -= self._books.popitem(last=False)[1].size

    def clear(self) -> None:
        with self._lock:
            self._books.clear()
            self._size = 0


def _size(wb: Workbook) -> int:
    """About the memory a workbook takes: CELL_BYTES a cell."""
    return CELL_BYTES * max(sum(len(getattr(ws, "_cells", ())) for ws in wb.worksheets), 1)


_KEPT = _Kept()


@dataclass(frozen=True)
class Tally:
    """What the loads and saves of a block did (`tallied`): file path -> how many times it was parsed, saved."""

    parsed: Counter[str] = field(default_factory=Counter)
    saved: Counter[str] = field(default_factory=Counter)


_TALLIES: list[Tally] = []


@contextlib.contextmanager
def tallied() -> Iterator[Tally]:
    """Count every parse and save of a book within the block, by its file (the tests' and `make bench`'s check
    that a stage parses each book once and saves it once)."""
    tally = Tally()
    _TALLIES.append(tally)
    try:
        yield tally
    finally:
        _TALLIES.remove(tally)


def _count(kind: str, path: Path) -> None:
    for tally in list(_TALLIES):
        getattr(tally, kind)[str(Path(path).resolve())] += 1


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off within the block (as it was after it): parsing, filling or writing a book makes
    objects by the hundred thousand, and each full collection they set off walks every object alive, the books
    kept and read included (a stage holding its books read spent a third of its parsing so)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


class KeptImage(Image):
    """A sheet's picture that keeps its file's bytes (its format's, as openpyxl writes it): saved any number
    of times, where openpyxl's own image reads its file-like object once and closes it."""

    def __init__(self, data: bytes, fmt: str = "png") -> None:
        super().__init__(io.BytesIO(data))       # the size, from the header
        self.data, self.format = data, fmt

    def _data(self) -> bytes:
        return self.data


def _kept_images(wb: Workbook) -> None:
    """Make every picture a parse gave a KeptImage of the same bytes, place and size."""
    for ws in wb.worksheets:
        images: list[Any] = getattr(ws, "_images", [])
        if any(not isinstance(image, KeptImage) for image in images):
            ws._images = []                    # type: ignore[attr-defined]  # openpyxl's own list (no stub)
            _set_images(ws, images)


def _holds_pictures(wb: Workbook) -> bool:
    """Whether a sheet holds what cannot be kept: a chart, or a picture not kept as its bytes."""
    return any(getattr(ws, "_charts", None) or any(not isinstance(i, KeptImage) for i in getattr(ws, "_images", ()))
               for ws in wb.worksheets)


def _load(path: Path, take: bool) -> Workbook:
    data = Path(path).read_bytes()
    digest = _digest(data)
    entry = _KEPT.get(digest, take)
    if entry is not None and entry.written is not None:     # saved, not yet made as parsed (`save`)
        if _as_parsed(entry.wb, entry.written):
            entry.written = None
        else:
            _KEPT.get(digest, take=True)
            entry = None
    if entry is not None:
        return entry.wb
    with collector_paused():
        wb = load_workbook(io.BytesIO(data))
    _count("parsed", path)
    _kept_images(wb)
    if not take:
        _KEPT.put(digest, _Entry(wb, _size(wb), None))
    return wb


def load_workbook(file: io.BytesIO) -> Workbook:
    """openpyxl's `load_workbook`, keeping each sheet's print area that is a formula (`_Reader`)."""
    reader = _Reader(file)
    reader.read()
    return reader.wb


class _Reader(ExcelReader):
    """openpyxl's reader (`load_workbook`'s), keeping each sheet's print area that is a formula (not cell
    ranges, as openpyxl tells them): its own drops one, warning "Print area cannot be set to Defined name"."""

    formulas: list[DefinedName]

    def read_workbook(self) -> None:
        super().read_workbook()
        names: Any = self.parser.defined_names          # type: ignore[attr-defined]  # set by parse (no stub)
        self.formulas = [name for name in names.definedName if name.is_reserved == PRINT_AREA
                         and name.localSheetId is not None and _is_formula(name.value)]
        names.definedName = [name for name in names.definedName if all(name is not f for f in self.formulas)]

    def read_worksheets(self) -> None:
        super().read_worksheets()
        sheets: list[Any] = self.wb._sheets     # type: ignore[attr-defined]  # all, as localSheetId counts them
        for name in self.formulas:
            at = int(name.localSheetId or 0)
            if at < len(sheets) and isinstance(sheets[at], Worksheet):
                set_print_formula(sheets[at], str(name.value))


def _is_formula(area: str) -> bool:
    try:
        PrintArea.from_string(area)
    except TypeError:
        return True
    return False


def set_print_cells(ws: Worksheet, cells: str) -> None:
    """Make the sheet's print area fixed cells (`A2:C101`), in place of a formula's."""
    ws.defined_names.pop(PRINT_AREA, None)
    ws.print_area = cells


def set_print_formula(ws: Worksheet, formula: str) -> None:
    """Make the sheet's print area the cells a formula gives (a reference, such as an OFFSET's), worked out as
    the book prints: kept as the sheet's own defined name, which the writer writes as its `_xlnm.Print_Area`."""
    ws.print_area = None
    ws.defined_names[PRINT_AREA] = DefinedName(PRINT_AREA, attr_text=formula)


def load_for_reading(path: Path) -> Workbook:
    """The workbook in the file, to read only (it may be the one kept for these bytes: never change it)."""
    return _load(path, take=False)


def load_for_edit(path: Path) -> Workbook:
    """The workbook in the file, to change and `save`; nothing else sees it until it is saved."""
    return _load(path, take=True)


def forget() -> None:
    """Drop every kept workbook (the next load of any file parses it)."""
    _KEPT.clear()


def save(wb: Workbook, path: Path) -> None:
    """Write the workbook atomically (a temporary file in the same folder, synced, then `os.replace`)
    and keep it for the next load of the file. The file depends on the cells alone, not on what the
    workbook went through (kept from the last write, with the cells a write touched, or parsed from its
    file): cells with nothing in them are left out (openpyxl writes no such cell, but the empty row around
    it), and the cell styles are numbered afresh by their first use as the file is written, sheet by sheet
    and row by row (a style a workbook gained later is numbered later, and a parse keeps the file's order)."""
    path = Path(path)
    with collector_paused():
        for ws in wb.worksheets:
            _drop_empty_cells(ws)
        book: Any = wb              # openpyxl's style tables are private, not in its stubs
        book._cell_styles = IndexedList([StyleArray()])          # the writer adds each style as it first meets it
        data = workbook_bytes(wb)
    atomic_write_bytes(path, data)
    _count("saved", path)
    if not _holds_pictures(wb):     # made as parsed when it is loaded again (`_load`): a `turn` never does
        _KEPT.put(_digest(data), _Entry(wb, _size(wb), data), first_out=True)


_VML = "urn:schemas-microsoft-com:vml"
_VML_EXCEL = "urn:schemas-microsoft-com:office:excel"
POINTS_PER_PIXEL = 0.75
NOTE_CLEARANCE = 240.0   # points between a header note's box and the sheet's top edge: LibreOffice grows a box to
                         # its text (openpyxl's reader gives a parsed note the default 144×79 px: 4 or 5 lines)


def notes_above(vml: bytes) -> bytes:
    """A sheet's notes drawing part with the box of each header note (row 1) stored above the sheet, its
    bottom NOTE_CLEARANCE above the sheet's top edge; its size is kept. A hidden note is shown beside its
    cell, at its size, when the pointer is over the cell. The stored place is where LibreOffice reckons its
    box to lie, and openpyxl stores every box near the sheet's top-left corner, over rows 2 to 6: a page of
    empty order rows there then counts as holding a drawing, and LibreOffice printed it (an empty order
    tab's header alone)."""
    root = ElementTree.fromstring(vml)
    for shape in root.iter(f"{{{_VML}}}shape"):
        row = shape.find(f"{{{_VML_EXCEL}}}ClientData/{{{_VML_EXCEL}}}Row")
        if row is None or (row.text or "").strip() != "0":
            continue
        style = [part.strip() for part in shape.get("style", "").split(";") if part.strip()]
        fields = dict(part.split(":", 1) for part in style if ":" in part)
        height = fields.get("height", "")
        if not height.endswith("px"):
            continue
        points = float(height[:-2]) * POINTS_PER_PIXEL
        fields["margin-top"] = f"{-(points + NOTE_CLEARANCE):g}pt"
        shape.set("style", ";".join(f"{k}:{v}" for k, v in fields.items()))
    return ElementTree.tostring(root)


class _NotesAbove:
    """The archive as openpyxl's comment writer writes to it: a notes drawing part goes in as `notes_above`
    gives it."""

    def __init__(self, archive: ZipFile) -> None:
        self.archive = archive

    def writestr(self, name: str, data: Any, *args: Any, **kwargs: Any) -> None:
        if str(name).endswith(".vml"):
            data = notes_above(data if isinstance(data, bytes) else str(data).encode())
        self.archive.writestr(name, data, *args, **kwargs)


class _InMemoryWriter(ExcelWriter):
    """openpyxl's writer, with each worksheet's XML built in memory: its own `write_worksheet` writes
    it to a temporary file, copies that into the archive and deletes it (about a fifth of a save)."""

    def __init__(self, wb: Workbook, archive: ZipFile):
        super().__init__(wb, archive)
        self.zip = archive

    def write_worksheet(self, ws: Any) -> None:
        ws._drawing = SpreadsheetDrawing()
        ws._drawing.charts = ws._charts
        ws._drawing.images = ws._images
        out = io.BytesIO()
        writer: Any = _RowsWriter(ws, out=out)
        writer.write()
        ws._rels = writer._rels
        data = out.getvalue()
        if writer.rows_xml is not None:
            data = data.replace(_ROWS_MARK, writer.rows_xml, 1)
        self.zip.writestr(ws.path[1:], data)
        self.manifest.append(ws)

    def _write_comment(self, ws: Any) -> None:
        writer: Any = self
        archive = writer._archive
        writer._archive = _NotesAbove(archive)
        try:
            super()._write_comment(ws)      # type: ignore[misc]  # openpyxl's, without a stub
        finally:
            writer._archive = archive

    def _write_images(self) -> None:
        for image in self._images:  # type: ignore[attr-defined]  # openpyxl's writer's own list (no stub)
            # stored: a PNG deflates by a few bytes, at the cost of a save
            self.zip.writestr(image.path[1:], image._data(), compress_type=ZIP_STORED)


_ROWS_MARK = b"forumwar:rows:3f9c1e"     # where `_RowsWriter` puts the rows it wrote itself (in sheetData)
_PLAIN_TYPES = {"s": "inlineStr", "n": "n", "b": "b", "inlineStr": "inlineStr"}   # data type -> `t` in the file


def _escaped(text: str) -> str:
    """Text as lxml writes it in an element or an attribute value."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("\r", "&#13;") if "\r" in text else text


class _RowsWriter(WorksheetWriter):
    """openpyxl's worksheet writer, whose rows of plain cells (a text, a number, a truth value, nothing) are
    written as text in one go, the very bytes its writer gives them (lxml, element by element: the larger part
    of a save). A sheet holding any other cell (a formula, a date, rich text, a link) is written by openpyxl."""

    rows_xml: bytes | None = None

    def write_rows(self) -> None:
        parts = self._plain_rows()
        if parts is None or not parts:
            super().write_rows()
            return
        stream: Any = self.xf
        xf = stream.send(True)
        with xf.element("sheetData"):
            xf.write(_ROWS_MARK.decode())
        stream.send(None)
        self.rows_xml = "".join(parts).encode("ascii", "xmlcharrefreplace")   # as lxml's stream: &#1043;

    def _plain_rows(self) -> list[str] | None:
        ws: Any = self.ws
        if ws.merged_cells.ranges:
            return None
        cell: Any
        for cell in ws._cells.values():
            value = cell._value
            if (cell.data_type not in _PLAIN_TYPES or cell._hyperlink is not None
                    or not (value is None or type(value) in (str, int, float, bool))
                    or (cell.data_type == "inlineStr" and value is not None)):   # (an empty text parsed)
                return None
        cell_styles = ws.parent._cell_styles
        style_ids: dict[tuple[int, ...], int] = {}      # openpyxl's StyleArray hashes in Python, cell by cell
        dims = ws.row_dimensions
        parts: list[str] = []
        for row_idx, row in self.rows():    # sorted, with the rows of a height
            dim = dims.get(row_idx)
            attrs = f' r="{row_idx}"' + ("".join(f' {k}="{_escaped(v)}"' for k, v in dim) if dim is not None else "")
            cells = []
            for cell in row:
                if cell._comment is not None:
                    ws._comments.append(CommentRecord.from_cell(cell))
                style = cell._style
                styled = style is not None and any(style)
                value = cell._value
                if value is None and not styled and not cell._comment:
                    continue
                head = f'<c r="{get_column_letter(cell.column)}{cell.row}"'
                if styled:
                    key = tuple(style)
                    style_id = style_ids.get(key)
                    if style_id is None:
                        style_id = style_ids[key] = cell_styles.add(style)
                    head += f' s="{style_id}"'
                head += f' t="{_PLAIN_TYPES[cell.data_type]}"'
                if value is None or value == "":
                    cells.append(head + "></c>")        # lxml's stream closes an element apart
                elif cell.data_type == "s":
                    space = ' xml:space="preserve"' if value != value.strip() else ""
                    cells.append(f"{head}><is><t{space}>{_escaped(value)}</t></is></c>")
                else:
                    number = "" if isinstance(value, float) and not math.isfinite(value) else f"{value:.16g}"
                    cells.append(f"{head}><v>{number}</v></c>")
            parts.append(f"<row{attrs}>{''.join(cells)}</row>")
        return parts


def workbook_bytes(wb: Workbook) -> bytes:
    """The .xlsx file of a workbook, as `Workbook.save` writes it."""
    if wb.write_only:
        raise ValueError("a write-only workbook is saved by openpyxl itself")
    buffer = io.BytesIO()
    wb.properties.modified = dt.datetime.now(tz=dt.UTC).replace(tzinfo=None)
    with ZipFile(buffer, "w", ZIP_DEFLATED, allowZip64=True) as archive:
        _InMemoryWriter(wb, archive).write_data()
    return buffer.getvalue()


def _as_parsed(wb: Workbook, data: bytes) -> bool:
    """Make a workbook just saved what a parse of its file gives, or say it cannot be (then it is
    left as it is and not kept). The writer leaves the columns' outline level and the comments'
    drawing part on the workbook; the file holds numbers to 16 digits, an empty text as no value,
    no empty cell or row, style parts as XML and comments without their size (it lives in the
    drawing part, which the reader does not read); pictures come back as the reader reads them from `data`,
    the file written (its anchors, with their defaults), and are kept as their bytes (`KeptImage`). Charts,
    hyperlinks, merged cells, a date or a number shown as one (it comes back as a datetime) and values of
    other types are not evened out."""
    if _holds_pictures(wb):
        return False
    work = [_cells_to_even(ws) for ws in wb.worksheets]     # first every cell is checked, then changed
    if any(w is None for w in work) or not _images_as_parsed(wb, data):
        return False
    renumbered = _styles_as_parsed(wb)
    if renumbered is None:
        return False

    def restyle(item: Any) -> None:
        new = renumbered.get(tuple(item._style))
        if new is not None:
            item._style = StyleArray(new)

    for ws, cells_work in zip(wb.worksheets, work, strict=True):
        assert cells_work is not None
        empty, numbers, blanks, comments = cells_work
        for dimensions in (ws.row_dimensions, ws.column_dimensions):
            dim: Any
            for dim in dimensions.values():
                if renumbered and dim.has_style:
                    restyle(dim)
        ws.column_dimensions.max_outline = None
        ws.legacy_drawing = None
        for row in [r for r, dim in ws.row_dimensions.items() if not {k for k, _ in dim} - {"r", "spans"}]:
            del ws.row_dimensions[row]          # a row with nothing of its own is not in the file
        cells: dict[tuple[int, int], Any] = ws._cells
        for key in empty:
            del cells[key]                      # nor is a cell with nothing in it
        for cell in numbers:
            text = safe_string(cell._value)
            cell._value = _cast_number(text) if text else None
        for cell in blanks:
            cell._value, cell.data_type = None, "inlineStr"
        for cell in comments:
            cell.comment.height, cell.comment.width = _PARSED_COMMENT.height, _PARSED_COMMENT.width
        if renumbered:
            for cell in cells.values():
                if cell.has_style:
                    restyle(cell)
    return True


def _images_as_parsed(wb: Workbook, data: bytes) -> bool:
    """Each sheet's pictures as the reader gives them from the file written, `data` (False: it gives others)."""
    sheets = [ws for ws in wb.worksheets if getattr(ws, "_images", None)]
    if not sheets:
        return True
    with ZipFile(io.BytesIO(data)) as archive:
        read = []
        for ws in sheets:
            drawing: Any = ws._drawing          # type: ignore[attr-defined]  # the writer's, numbered: its part
            charts, images = find_images(archive, drawing.path[1:])
            if charts or len(images) != len(ws._images):   # type: ignore[attr-defined]  # openpyxl's own list
                return False
            read.append(images)
    for ws, images in zip(sheets, read, strict=True):
        ws._images = []                        # type: ignore[attr-defined]
        _set_images(ws, images)
    return True


def _set_images(ws: Worksheet, images: list[Any]) -> None:
    kept_images: list[Any] = ws._images         # type: ignore[attr-defined]
    for image in images:
        kept = KeptImage(image._data(), image.format)
        kept.anchor, kept.width, kept.height = image.anchor, image.width, image.height
        kept_images.append(kept)


def _drop_empty_cells(ws: Any) -> None:
    """Take out of the sheet the cells holding nothing: no value (or an empty text), style, note or link,
    and the rows holding nothing of their own, which a parse of the file leaves out (a merge's cells are
    kept)."""
    cells: dict[tuple[int, int], Any] = getattr(ws, "_cells", {})
    if not hasattr(ws, "row_dimensions"):
        return
    empty = [key for key, cell in cells.items() if (cell._value is None or cell._value == "") and not cell.has_style
             and not isinstance(cell, MergedCell) and cell._comment is None and cell._hyperlink is None]
    for key in empty:
        del cells[key]
    for row in [r for r, dim in ws.row_dimensions.items() if not {k for k, _ in dim} - {"r", "spans"}]:
        del ws.row_dimensions[row]              # nor a row with nothing of its own (once a taller one)


def _cells_to_even(ws: Worksheet) -> tuple[list[tuple[int, int]], list[Any], list[Any], list[Any]] | None:
    """The sheet's cells that a parse of its file gives otherwise: (empty ones, which the file does not
    hold, numbers, empty texts, cells with a comment); None if a cell cannot be made what its parse
    gives (a hyperlink, a date or a number shown as one, a value of another type), or if the sheet has
    merged cells (the reader makes their cells anew, without their styles)."""
    if ws.merged_cells.ranges:
        return None
    empty: list[tuple[int, int]] = []
    numbers: list[Any] = []
    blanks: list[Any] = []
    comments: list[Any] = []
    cells: dict[tuple[int, int], Any] = ws._cells
    for key, cell in cells.items():
        if isinstance(cell, MergedCell) or cell._hyperlink is not None:
            return None
        value, kind = cell._value, cell.data_type
        if kind == "n":
            if value is not None:
                if type(value) not in (int, float) or cell.is_date:
                    return None
                numbers.append(cell)
        elif kind not in PARSED_TYPES or not isinstance(value, (str, bool, NoneType)):
            return None
        elif value == "" and kind == "s":
            blanks.append(cell)
        if cell._comment is not None:
            comments.append(cell)
        elif value is None and not cell.has_style:
            empty.append(key)
    return empty, numbers, blanks, comments


def _styles_as_parsed(wb: Workbook) -> dict[tuple[int, ...], StyleArray] | None:
    """Rebuild the workbook's style tables as the reader builds them from the file just written, and
    give each style that the parse numbers otherwise, by its fields, its parsed one (None: the file's
    first style is not plain).
    The file holds each style's alignment and protection inline, so the reader numbers them afresh,
    in the order the styles first use them; the workbook's own tables may hold them otherwise."""
    book: Any = wb              # openpyxl's style tables are private, not in its stubs
    written: Any = book._cell_styles
    alignments: Any = IndexedList([Alignment()])
    protections: Any = IndexedList([Protection()])
    parsed = []
    for style in written:
        new = StyleArray(style)
        new.alignmentId = alignments.add(_reread(book._alignments[style.alignmentId])) if style.alignmentId else 0
        new.protectionId = protections.add(_reread(book._protections[style.protectionId])) if style.protectionId else 0
        parsed.append(new)
    for table in ("_fonts", "_fills", "_borders"):      # written whole, read back as written
        setattr(book, table, IndexedList([_reread(item) for item in getattr(book, table)]))
    if not parsed or any(parsed[0]):
        return None
    book._cell_styles, book._alignments, book._protections = IndexedList(parsed), alignments, protections
    return {tuple(old): new for old, new in zip(written, parsed, strict=True) if tuple(old) != tuple(new)}


def _reread(item: Any) -> Any:
    """A style part (font, fill, border, alignment, protection) as the reader reads it from its XML."""
    return type(item).from_tree(item.to_tree())


def _cast_number(text: str) -> int | float:
    """A number's text in the file as openpyxl's reader reads it."""
    return float(text) if "." in text or "E" in text or "e" in text else int(text)


def sheet_values(ws: Worksheet) -> list[tuple[Any, ...]]:
    """The sheet's values row by row from row 1 and column A to its last cell, None where empty: what
    openpyxl's read-only `iter_rows(values_only=True)` yields, without adding cells to the sheet."""
    cells: dict[tuple[int, int], Any] = ws._cells    # openpyxl's own store; iter_rows would fill it
    if not cells:
        return []
    last_row = max(r for r, _ in cells)
    last_col = max(c for _, c in cells)
    filled: dict[int, list[Any]] = {}
    for (r, c), cell in cells.items():
        filled.setdefault(r, [None] * last_col)[c - 1] = cell.value
    empty = (None,) * last_col          # one tuple for every row without a cell (a gap up to a stray far cell)
    return [tuple(filled[r]) if r in filled else empty for r in range(1, last_row + 1)]
