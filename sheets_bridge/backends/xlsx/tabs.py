"""How one TabWrite lands in an openpyxl workbook: values, header style and notes, frozen rows,
widths, wrapped text with fitted row heights, cell protection, dropdowns (inline or from the hidden
lists sheet), whole-number validation, OK/error colours, print settings and the tidying of its tabs.
One file: each of these is a few lines on the same worksheet, applied in one order per write.

A string is always stored as text, never as a formula, and a player's formula in an order tab
becomes its text. The xlsx backend loads a book, applies each tab with `apply_tab`, then calls
`collect_unused_lists` and `tidy_sheets` before saving.
"""
from __future__ import annotations

import bisect
import copy
import functools
import math
import re
import textwrap
from collections.abc import Iterable
from typing import Any, Literal

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell, MergedCell
from openpyxl.comments import Comment
from openpyxl.formatting.formatting import ConditionalFormattingList
from openpyxl.formatting.rule import FormulaRule
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.numbers import BUILTIN_FORMATS_REVERSE
from openpyxl.utils import column_index_from_string, get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation, DataValidationList
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from engine.russian import agree
from sheets_bridge.backends.base import BackendError, TabWrite
from sheets_bridge.backends.xlsx.files import PRINT_AREA, collector_paused, set_print_cells, set_print_formula
from sheets_bridge.layouts import HEADER_CHAR, as_number

LISTS_SHEET = "Списки"          # hidden sheet holding dropdown lists too long to inline
PLACEHOLDER_SHEET = "Лист1"     # the only sheet of a freshly created book

MAX_INLINE_LIST = 255            # Excel's limit on an inline list formula
MAX_CELL_TEXT = 32767            # Excel's limit on the text of one cell
CUT_NOTE = "\n… [текст обрезан: в ячейку Excel помещается не больше 32 767 знаков]"
MAX_TITLE = 31                   # Excel's limit on a sheet title
FORMULA_PREFIXES = ("=", "+", "-", "@")

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill(fill_type="solid", fgColor="D9E1F2")
HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="center")
WRAP_ALIGNMENT = Alignment(wrap_text=True, vertical="top")
TOP_ALIGNMENT = Alignment(vertical="top")        # a row's cells start on its first line beside a wrapped one
LOCKED_FILL = PatternFill(fill_type="solid", fgColor="F0F0F0")     # cells the bridge fills (as on Google)
OK_FILL = PatternFill(fill_type="solid", start_color="D9EAD3", end_color="D9EAD3")
ERROR_FILL = PatternFill(fill_type="solid", start_color="F4CCCC", end_color="F4CCCC")
OK_FONT, ERROR_FONT = Font(color="274E13"), Font(color="990000")
OPEN_CELL = Protection(locked=False)
LOCKED_CELL = Protection(locked=True)
TEXT_FORMAT = "@"
GENERAL_FORMAT = 0               # numFmtId of "General": what a player types in a number column is a number
DEFAULT_WIDTH = 8.43             # Excel's width of a column without one (characters)
LINE_POINTS = 15                 # height of one line of 11 pt text
MAX_ROW_LINES = 27               # a row never grows past this (409 points is Excel's limit)
NOTE_AUTHOR = "forumwar"
WHOLE_LIMIT = 1_000_000_000      # the bound of an "any whole number" validation

DROPDOWN_ERROR_TITLE = "Недопустимое значение"
DROPDOWN_ERROR = "Выберите значение из выпадающего списка этой ячейки."
NUMBER_ERROR_TITLE = "Нужно целое число"


_UNCLEAN = re.compile(ILLEGAL_CHARACTERS_RE.pattern + "|\r")      # what a text loses or changes on its way in
QUOTE_PREFIX = 7                # StyleArray's fields by place (openpyxl's named ones go through a descriptor)
FONT, FILL, NUMBER_FORMAT, PROTECTION, ALIGNMENT = 0, 1, 3, 4, 5


def put_value(cell: Cell | MergedCell, value: Any) -> None:
    """Write one value; a string is always stored as text, never as a formula."""
    if isinstance(value, float) and not math.isfinite(value):
        value = str(value)
    if value is None or isinstance(value, (bool, int, float)):
        cell.value = value
        cell.quotePrefix = False
        return
    text = str(value)
    if _UNCLEAN.search(text):
        text = ILLEGAL_CHARACTERS_RE.sub("", text).replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > MAX_CELL_TEXT:           # cut where it shows, and say so (as on Google)
        text = text[:MAX_CELL_TEXT - len(CUT_NOTE)] + CUT_NOTE
    box: Any = cell             # set as the value setter would, without its checks (done above) and its guesses:
    if isinstance(cell, MergedCell):
        box.value = text                    # openpyxl refuses it: a merged cell holds no value
    box._value, box.data_type = text, "s"   # it turns "=..." into a formula and "#N/A" into an error
    if text.startswith(FORMULA_PREFIXES):
        _style_array(cell)[QUOTE_PREFIX] = 1
    elif box._style is not None:
        box._style[QUOTE_PREFIX] = 0


def apply_tab(wb: Workbook, tab: TabWrite) -> None:
    """Write `tab` into `wb`, creating its sheet if needed; a values-only write of an existing
    tab leaves dropdowns, protection and formatting alone (the cycle collector paused: `collector_paused`)."""
    with collector_paused():
        _apply_tab(wb, tab)


def _apply_tab(wb: Workbook, tab: TabWrite) -> None:
    if tab.title == LISTS_SHEET:
        raise BackendError(f"Название вкладки «{LISTS_SHEET}» занято: в нём forumwar хранит длинные выпадающие "
                           "списки. Переименуйте вкладку в раскладке игры.")
    is_new = tab.title not in wb.sheetnames
    ws = _create_sheet(wb, tab.title) if is_new else wb[tab.title]
    unmerge(ws, tab)
    if tab.header is not None:
        _write_header(ws, tab.header, tab.notes)
    if tab.rows is not None:
        _put_rows(ws, tab.rows)
    for col, cells in (tab.column_updates or {}).items():
        for row_no, value in cells.items():
            put_value(ws.cell(row=int(row_no), column=int(col) + 1), value)
    if tab.kind == "orders" and tab.clear_statuses_below and tab.status_column is not None:
        _clear_statuses_below(ws, tab.status_column, tab.order_rows + 1,
                              {int(r) for r in (tab.column_updates or {}).get(tab.status_column, {})})
    if tab.header is None and tab.rows is None and not is_new:
        # a values-only update leaves dropdowns, protection and formatting alone, but statuses wrap and
        # their rows' heights follow the text
        if tab.status_column is not None:
            wrap_id = _alignment_id(ws, WRAP_ALIGNMENT)
            for row_no in (tab.column_updates or {}).get(tab.status_column, {}):
                cell = ws._cells.get((int(row_no), tab.status_column + 1))   # none: a status cleared below the rows
                if int(row_no) > 1 and cell is not None:
                    _style_array(cell).alignmentId = wrap_id
        fit_rows(ws, {int(r) for cells in (tab.column_updates or {}).values() for r in cells if int(r) > 1})
        if tab.kind == "orders":
            _print_as_it_holds(ws)
        return
    ws.freeze_panes = f"A{tab.frozen_rows + 1}" if tab.frozen_rows > 0 else None
    widths, narrowed = page_widths(tab)
    for col, width in widths.items():
        ws.column_dimensions[get_column_letter(int(col) + 1)].width = width
    ws.protection.sheet = True
    ws.protection.formatColumns = False     # players may still resize columns and rows
    ws.protection.formatRows = False
    last_row = tab.order_rows + 1 if tab.kind == "orders" else max(ws.max_row, 2)
    if tab.kind == "orders":
        _open_order_cells(ws, tab)
        _set_dropdowns(wb, ws, tab)
    else:
        _align_cells(ws, {*tab.wrap_columns, *narrowed}, last_row)
    _set_status_colours(ws, tab.status_column, last_row)
    _fit_header(ws)
    fit_rows(ws, range(2, max(ws.max_row, last_row if tab.kind == "orders" else 0) + 1))   # its empty rows too
    _set_print(ws, tab)
    if tab.kind == "orders":
        _print_filled_rows(ws, last_row)
    else:
        _print_if_filled(ws)


def _put_rows(ws: Worksheet, rows: Iterable[Iterable[Any]]) -> None:
    """The sheet's rows under the header replaced by these (as `delete_rows` and `ws.cell` would, in one pass
    over the sheet's cells: each of those walks them all)."""
    cells: dict[tuple[int, int], Any] = ws._cells
    for key in [key for key in cells if key[0] > 1]:
        del cells[key]
    last = 1 if cells else 0
    for r, row in enumerate(rows, start=2):
        for c, value in enumerate(row, start=1):
            cell = cells[(r, c)] = Cell(ws, row=r, column=c)
            put_value(cell, value)
            last = r
    sheet: Any = ws             # openpyxl's private count of rows in use, which ws.cell() keeps
    sheet._current_row = last


def _clear_statuses_below(ws: Worksheet, status_column: int, last_row: int, written: set[int]) -> None:
    """Drop the status column's empty cells below the order rows (`last_row` and above are order rows) and
    every one there that this write did not set (the rows `written`; `TabWrite.clear_statuses_below`: they held
    the bridge's statuses of rows past the limit); a row left with no cell loses its height too. So the
    sheet's cells, its used range and the rows `_print_filled_rows` prints end where the rows holding
    something do."""
    column = status_column + 1
    cells = ws._cells
    below = [key for key in cells if key[1] == column and key[0] > last_row]
    if not below:
        return
    for key in below:
        if cells[key].value in (None, "") or key[0] not in written:
            del cells[key]
    rows_left = {row for row, _ in cells}
    for row, _ in below:
        if row not in rows_left and row in ws.row_dimensions:
            ws.row_dimensions[row].height = None


def unmerge(ws: Worksheet, tab: TabWrite) -> None:
    """Undo the merges that a write of `tab` meets: every one of the sheet when the tab is written with
    its layout (header or rows), else those holding a cell the write sets. A merged cell holds no value
    of its own (openpyxl cannot write one), and an order row spread over a merge is not read
    (E_MERGED_CELLS), so the player gets the cells back one by one. Each takes the style of the nearest
    cell of its column below the header that no merge hid (an order cell stays open to the player, a
    status cell closed); in the header row, or a column without one, none (a header is styled when it is
    written; a cell without a style is closed)."""
    ranges = list(ws.merged_cells.ranges)
    if not ranges:
        return
    if tab.header is None and tab.rows is None:
        written = [(int(r), int(c) + 1) for c, cells in (tab.column_updates or {}).items() for r in cells]
        ranges = [m for m in ranges if any(m.min_row <= r <= m.max_row and m.min_col <= c <= m.max_col
                                           for r, c in written)]
    cells: dict[tuple[int, int], Any] = ws._cells
    hidden = {(r, c) for m in ranges for r in range(m.min_row, m.max_row + 1) for c in range(m.min_col, m.max_col + 1)
              if (r, c) != (m.min_row, m.min_col)}
    styled: dict[int, dict[int, StyleArray]] = {}      # column -> row -> style, of the cells that keep theirs
    for (r, c), cell in cells.items():
        if r > 1 and (r, c) not in hidden and not isinstance(cell, MergedCell) and cell.has_style:
            styled.setdefault(c, {})[r] = _style_array(cell)
    rows_of = {c: sorted(found) for c, found in styled.items()}
    for merge in ranges:
        ws.merged_cells.remove(merge)
    for row, column in sorted(hidden):
        cells.pop((row, column), None)
        style = _nearest(styled.get(column, {}), rows_of.get(column, []), row) if row > 1 else None
        if style is not None:
            cells[(row, column)] = Cell(ws, row=row, column=column, style_array=copy.copy(style))


def _nearest(styles: dict[int, StyleArray], rows: list[int], row: int) -> StyleArray | None:
    """The style at the row of `rows` (sorted) nearest to `row`, the upper one on a tie."""
    at = bisect.bisect_left(rows, row)
    near = rows[max(at - 1, 0):at + 1]
    if not near:
        return None
    return styles[min(near, key=lambda r: (abs(r - row), r))]


def _create_sheet(wb: Workbook, title: str) -> Worksheet:
    if not title:
        raise BackendError("У вкладки нет названия, а Excel требует от 1 до 31 знака. Назовите её в раскладке игры.")
    if len(title) > MAX_TITLE:
        raise BackendError(f"Название вкладки «{title[:40]}» — {agree(len(title), 'знак')}, а Excel принимает "
                           f"от 1 до {MAX_TITLE}. Сократите его в раскладке игры.")
    try:
        ws: Worksheet = wb.create_sheet(title)
    except ValueError:
        raise BackendError(f"Название вкладки «{title}» Excel не примет: в нём не бывает знаков : \\ / ? * [ ]. "
                           "Исправьте его в раскладке игры.") from None
    if ws.title != title:   # openpyxl renames silently on a clash it sees differently
        wb.remove(ws)
        raise BackendError(f"Название вкладки «{title}» Excel путает с другой вкладкой книги. Переименуйте одну из "
                           "них в раскладке игры.")
    return ws


def _write_header(ws: Worksheet, header: tuple[str, ...], notes: dict[int, str]) -> None:
    book: Any = ws.parent       # the style ids once (openpyxl hashes a font or fill again at every assignment)
    font_id, fill_id = book._fonts.add(HEADER_FONT), book._fills.add(HEADER_FILL)
    alignment_id = _alignment_id(ws, HEADER_ALIGNMENT)
    for c, text in enumerate(header, start=1):
        cell = ws.cell(row=1, column=c)
        put_value(cell, text)
        style = _style_array(cell)
        style[FONT], style[FILL], style[ALIGNMENT] = font_id, fill_id, alignment_id
        note = notes.get(c - 1)
        cell.comment = _note(note) if note else None
    for cell in [cell for (row, column), cell in _cells(ws).items() if row == 1 and column > len(header)]:
        cell.value = None
        cell.font, cell.fill, cell.alignment = Font(), PatternFill(), Alignment()
        cell.comment = None


def _size_notes(wb: Workbook) -> None:
    """Every header note of ours the size its text needs, on every write: a note's size is kept in the
    file's drawing part, which openpyxl does not read, so a book parsed again has default-sized notes
    (a values-only write then shrank them and cut their text)."""
    for ws in wb.worksheets:
        for (row, _), cell in getattr(ws, "_cells", {}).items():
            if row == 1 and cell.comment is not None and cell.comment.author == NOTE_AUTHOR:
                cell.comment.height, cell.comment.width = _note_size(cell.comment.text)


def _note(text: str) -> Comment:
    """A header note sized to show its line whole."""
    height, width = _note_size(text)
    return Comment(text, NOTE_AUTHOR, height=height, width=width)


def _note_size(text: str) -> tuple[int, int]:
    """A note's height and width showing its text whole (about 40 characters a line, 15 px each)."""
    lines = len(textwrap.wrap(text, 40)) or 1
    return 20 * lines + 16, 300


def column_width(ws: Worksheet, column: int) -> float:
    """The width (characters) of a sheet's column, 1-based."""
    dim = ws.column_dimensions.get(get_column_letter(column))
    return float(dim.width) if dim is not None and dim.customWidth and dim.width else DEFAULT_WIDTH


@functools.lru_cache(maxsize=1 << 16)
def text_lines(text: str, width: float, char: float = 1.0) -> int:
    """How many lines `text` takes wrapped in a column `width` characters wide (letters `char` wide); once per
    text and width (a tab's rows repeat their texts, and each write fits every row again)."""
    per_line = max(1, math.floor((width - 1) / char))
    text = str(text)
    if len(text) <= per_line and "\n" not in text and "\t" not in text:
        return 1                # the wrapping of a text as long as a line (tabs grow to 8 spaces) is that line
    return sum(len(textwrap.wrap(part, per_line)) or 1 for part in text.split("\n"))


def _fit_header(ws: Worksheet) -> None:
    """Row 1 tall enough for its wrapped bold titles (spreadsheets do not grow it on opening a file)."""
    lines = max([text_lines(str(c.value), column_width(ws, c.column), HEADER_CHAR)
                 for (row, _), c in _cells(ws).items() if row == 1 and c.value not in (None, "")] + [1])
    ws.row_dimensions[1].height = LINE_POINTS * min(lines, MAX_ROW_LINES) + 3 if lines > 1 else None


def fit_rows(ws: Worksheet, rows: Iterable[int]) -> None:
    """Give each of these rows the height its wrapped cells need (one line: the default height);
    LibreOffice and Excel keep a file's row heights as they are, so a long status would be cut."""
    wanted = set(rows)
    if not wanted:
        return
    lines = dict.fromkeys(wanted, 1)
    widths: dict[int, float] = {}
    book: Any = ws.parent
    wrapping = {n for n, alignment in enumerate(book._alignments) if alignment.wrap_text}
    for (row, column), cell in _cells(ws).items():
        value, style = cell._value, cell._style
        if row in wanted and isinstance(value, str) and value and (style[ALIGNMENT] if style else 0) in wrapping:
            if column not in widths:
                widths[column] = column_width(ws, column)
            lines[row] = max(lines[row], text_lines(value, widths[column]))
    dims = ws.row_dimensions
    for row, n in lines.items():
        dim = dims.get(row)         # a row's dimension is made only when its height changes
        if n > 1:
            if dim is None or dim.height != LINE_POINTS * min(n, MAX_ROW_LINES):
                dims[row].height = LINE_POINTS * min(n, MAX_ROW_LINES)
        elif dim is not None and dim.height is not None:
            dim.height = None


def _align_cells(ws: Worksheet, wrap_columns: Iterable[int], last_row: int) -> None:
    """Rows 2 to `last_row` aligned to the top; the text of the `wrap_columns` (0-based) wraps, and so does
    any other text longer than its column: it would run over its neighbours or, beside an empty one, past
    the tab's last column, and a printed page would shrink to take it in (or cut it beside a filled one)."""
    cols = {int(c) + 1 for c in wrap_columns}
    wrap_id, top_id = _alignment_id(ws, WRAP_ALIGNMENT), _alignment_id(ws, TOP_ALIGNMENT)
    widths: dict[int, float] = {}
    for (row, column), cell in _cells(ws).items():
        if 2 <= row <= last_row:
            wrap = column in cols
            value = cell._value
            if not wrap and isinstance(value, str) and value:
                if column not in widths:
                    widths[column] = column_width(ws, column)
                wrap = "\n" in value or len(value) > widths[column] - 1
            _style_array(cell)[ALIGNMENT] = wrap_id if wrap else top_id


def _set_status_colours(ws: Worksheet, column: int | None, last_row: int) -> None:
    """Replace the sheet's conditional formats: in the status column, OK green and any other text red."""
    ws.conditional_formatting = ConditionalFormattingList()
    if column is None or last_row < 2:
        return
    letter = get_column_letter(int(column) + 1)
    first, cells = f"{letter}2", f"{letter}2:{letter}{last_row}"
    ws.conditional_formatting.add(cells, FormulaRule(formula=[f'LEFT({first},2)="OK"'], fill=OK_FILL, font=OK_FONT,
                                                     stopIfTrue=True))
    ws.conditional_formatting.add(cells, FormulaRule(formula=[f'AND({first}<>"",LEFT({first},2)<>"OK")'],
                                                     fill=ERROR_FILL, font=ERROR_FONT, stopIfTrue=True))


PAGE_CHARACTERS = {"portrait": 80, "landscape": 116}   # column widths (characters) an A4 page holds unshrunk
NARROWEST = 14                                         # a column narrowed for the page keeps this much


def page_widths(tab: TabWrite) -> tuple[dict[int, int], set[int]]:
    """The tab's column widths made to fit the A4 page it prints on, and the columns narrowed for it (they
    wrap): the widest columns give way first, so the page is wrapped, never shrunk to unreadable."""
    widths = {int(c): int(w) for c, w in tab.column_widths.items()}
    room = PAGE_CHARACTERS[orientation(tab)]
    if sum(widths.values()) <= room or not widths:
        return widths, set()
    cap = max(widths.values())
    while cap > NARROWEST and sum(min(w, cap) for w in widths.values()) > room:
        cap -= 1
    return {c: min(w, cap) for c, w in widths.items()}, {c for c, w in widths.items() if w > cap}


def orientation(tab: TabWrite) -> Literal["portrait", "landscape"]:
    """Landscape for a tab the layout prints so, or whose columns a portrait page cannot hold."""
    wide = tab.landscape or sum(int(w) for w in tab.column_widths.values()) > PAGE_CHARACTERS["portrait"]
    return "landscape" if wide else "portrait"


def _set_print(ws: Worksheet, tab: TabWrite) -> None:
    """A4, as wide as the page (landscape for a wide tab), the header row on every page, page numbers."""
    setup = ws.page_setup
    setup.paperSize = ws.PAPERSIZE_A4
    setup.orientation = orientation(tab)
    setup.fitToWidth, setup.fitToHeight = 1, 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_rows = f"1:{max(tab.frozen_rows, 1)}"
    ws.print_options.gridLines = True
    ws.page_margins = PageMargins(left=0.4, right=0.4, top=0.5, bottom=0.6, header=0.2, footer=0.3)
    number_pages(ws)


def number_pages(ws: Worksheet) -> None:
    """Each printed page says its tab and its number: «Бои — стр. 2 из 9»."""
    footer = ws.oddFooter
    if footer is not None:
        footer.center.text = "&[Tab] — стр. &[Page] из &[Pages]"


A4_POINTS = {"portrait": 842, "landscape": 595}   # the height of an A4 page


def rows_on_a_page(ws: Worksheet) -> int:
    """How many rows of the default height a printed page of the sheet holds under its repeated header (at
    its full size; fitting its width to the page can only make it hold more)."""
    margins = ws.page_margins
    room = A4_POINTS[ws.page_setup.orientation or "portrait"] - 72 * (margins.top + margins.bottom)
    header = ws.row_dimensions[1].height if 1 in ws.row_dimensions else None
    return max(int((room - (header or LINE_POINTS)) // LINE_POINTS) - 1, 1)


def _print_filled_rows(ws: Worksheet, last_row: int) -> None:
    """An order tab prints its orders under the header, which repeats on every page, and no page at all in
    LibreOffice while it holds none.

    Holding orders, its print area is a formula down to its last row holding anything, so a row the player
    types later prints too. Excel works it out as it prints; LibreOffice does not read a formula print area
    and prints the cells holding something, which are the same rows. Holding none, that formula would give the
    header alone, printed on a page of its own. So its print area is then fixed: its first page of order rows.
    LibreOffice prints no page of empty rows (the header notes' boxes are kept off them: files.notes_above),
    and Excel prints that one page, a blank order form (a larger area would print pages of empty grid). The
    first write of the tab after orders are typed (a check's statuses, `_print_as_it_holds`) gives it the
    formula, down to `last_row`, the tab's last order row."""
    filled = _filled_rows(ws)
    ncols = max(ws.max_column, 1)
    if not filled:
        set_print_cells(ws, f"A2:{get_column_letter(ncols)}{min(last_row, 1 + rows_on_a_page(ws))}")
        return
    sheet = quote_sheetname(ws.title)
    cells = f"{sheet}!$A$1:${get_column_letter(ncols)}${max(filled + [last_row])}"
    set_print_formula(ws, f'OFFSET({sheet}!$A$1,0,0,MAX(1,SUMPRODUCT(MAX(({cells}<>"")*ROW({cells})))),{ncols})')


def _print_if_filled(ws: Worksheet) -> None:
    """A tab the bridge fills (nobody types in it) prints every row it holds, and no page when it holds none
    under its header: its print area is then its first row under the header, empty (LibreOffice prints no
    page of it, and the header alone on a page of its own without it)."""
    if _filled_rows(ws):
        ws.print_area = None
    else:
        set_print_cells(ws, f"A2:{get_column_letter(max(ws.max_column, 1))}2")


def _print_as_it_holds(ws: Worksheet) -> None:
    """A values-only write of an order tab (a check's statuses) prints it as one written with the orders it
    holds now (`_print_filled_rows`): the formula once orders are typed into a tab written empty, and the
    first empty page once they are all cleared. The tab's cells end at its last order row (_open_order_cells
    drops empty ones below it)."""
    if ws.print_area is None and PRINT_AREA not in ws.defined_names:
        return      # a tab from a book made before print areas
    _print_filled_rows(ws, max(ws.max_row, 2))


def _filled_rows(ws: Worksheet) -> list[int]:
    """The rows under the header holding anything (a row of several filled cells once for each)."""
    return [row for (row, _), c in _cells(ws).items() if row > 1 and c._value not in (None, "")]


def _cells(ws: Worksheet) -> dict[tuple[int, int], Any]:
    """openpyxl's own store of the sheet's cells (row, column) -> cell, without creating any."""
    cells: dict[tuple[int, int], Any] = ws._cells
    return cells


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
    numeric = {int(c) + 1 for c in tab.numbers}
    wrapped = {int(c) + 1 for c in tab.wrap_columns}
    # The style ids once, then set on each cell: assigning openpyxl's style objects cell by cell
    # looks each up again and took most of a push's time (thousands of order cells per book).
    protections = _protection_table(ws)
    open_id, locked_id = protections.add(OPEN_CELL), protections.add(LOCKED_CELL)
    text_id = BUILTIN_FORMATS_REVERSE[TEXT_FORMAT]
    wrap_id, plain_id = _alignment_id(ws, WRAP_ALIGNMENT), _alignment_id(ws, TOP_ALIGNMENT)
    grey_id = _fill_id(ws, LOCKED_FILL)
    # per column: open?, protection, alignment, fill, number format (None: left as it is), a count?
    plan = []
    for column in range(1, ncols + 1):
        is_open = not tab.locked and column not in locked_cols
        number_format = GENERAL_FORMAT if column in numeric else text_id if is_open else None
        plan.append((column, is_open, open_id if is_open else locked_id, wrap_id if column in wrapped else plain_id,
                     grey_id if column in locked_cols else 0, number_format, column in numeric))
    # an order cell the sheet does not have yet is made with its column's style at once
    new_cell_styles = []
    for _, is_open, protection_id, alignment_id, fill_id, number_format, _ in plan:
        style = StyleArray()
        style.protectionId = protection_id
        if is_open:
            style.alignmentId, style.fillId = alignment_id, fill_id
            style.numFmtId = number_format or 0
        new_cell_styles.append(style)
    cells = _cells(ws)
    for column in range(1, ncols + 1):
        _style_array(cells.get((1, column)) or ws.cell(row=1, column=column)).protectionId = locked_id
    for row_no in range(2, last_row + 1):
        for (column, is_open, protection_id, alignment_id, fill_id, number_format, is_count), new_style in zip(
                plan, new_cell_styles, strict=True):
            cell = cells.get((row_no, column))
            if cell is None:
                if any(new_style):      # a cell with neither value nor style is not stored (xlsx_files.save)
                    cells[(row_no, column)] = Cell(ws, row=row_no, column=column, style_array=new_style)
                continue
            style = _style_array(cell)
            style[PROTECTION] = protection_id
            value = cell._value
            if not is_open and value in (None, ""):
                style[ALIGNMENT] = style[FILL] = style[NUMBER_FORMAT] = 0    # an empty closed cell is not stored
                continue
            style[ALIGNMENT], style[FILL] = alignment_id, fill_id
            if number_format is not None:
                style[NUMBER_FORMAT] = number_format
            if is_count and isinstance(value, str):   # a count typed as text ("12", "1 200") becomes the number
                put_value(cell, as_number(value))
    sheet: Any = ws             # openpyxl's private count of rows in use, which ws.cell() keeps
    sheet._current_row = max(sheet._current_row, last_row)
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


def _alignment_id(ws: Worksheet, alignment: Alignment) -> int:
    """The id of `alignment` in the workbook's table (openpyxl's private `_alignments`)."""
    wb: Any = ws.parent
    return int(wb._alignments.add(alignment))


def _fill_id(ws: Worksheet, fill: PatternFill) -> int:
    """The id of `fill` in the workbook's table (openpyxl's private `_fills`)."""
    wb: Any = ws.parent
    return int(wb._fills.add(fill))


def _style_array(cell: Any) -> StyleArray:
    """The cell's own style record, made if it has none (openpyxl's private `_style`, not in its stubs)."""
    if cell._style is None:     # (a record of zeros is no style: `has_style`)
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
    for col, minimum in sorted(tab.numbers.items()):
        if last_row < 2:
            continue
        if minimum is None:
            dv = DataValidation(type="whole", operator="between", formula1=str(-WHOLE_LIMIT),
                                formula2=str(WHOLE_LIMIT), error="Введите целое число, например 100 или -50.")
        else:
            dv = DataValidation(type="whole", operator="greaterThanOrEqual", formula1=str(minimum),
                                error=f"Введите целое число не меньше {minimum}, например 12.")
        dv.allow_blank, dv.showErrorMessage, dv.errorStyle = True, True, "stop"
        dv.errorTitle = NUMBER_ERROR_TITLE
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
    ws: Worksheet = wb.create_sheet(LISTS_SHEET)
    ws.sheet_state = "hidden"
    ws.protection.sheet = True
    return ws


def _list_columns(ws: Worksheet) -> dict[int, tuple[str, ...]]:
    """Column number -> its list (values down to the first empty cell)."""
    columns: dict[int, tuple[str, ...]] = {}
    cells = _cells(ws)              # read without making a cell (ws.cell made each one it looked at)
    for c in range(1, ws.max_column + 1):
        values = []
        for r in range(1, ws.max_row + 1):
            cell = cells.get((r, c))
            value = cell.value if cell is not None else None
            if value is None or value == "":
                break
            values.append(str(value))
        columns[c] = tuple(values)
    return columns


def collect_unused_lists(wb: Workbook) -> None:
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
    for (_, c), cell in _cells(lists).items():
        if c not in used:
            cell.value = None


def tidy_sheets(wb: Workbook, written: Iterable[str]) -> None:
    """Drop the empty placeholder, keep the hidden lists last, activate the first visible tab, size
    the header notes."""
    _size_notes(wb)
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
