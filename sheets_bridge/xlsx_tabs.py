"""How one TabWrite lands in an openpyxl workbook: values, header style, frozen rows, widths,
cell protection, dropdowns (inline or from the hidden lists sheet) and the tidying of its tabs.

A string is always stored as text, never as a formula, and a player's formula in an order tab
becomes its text. The xlsx backend loads a book, applies each tab with `apply_tab`, then calls
`collect_unused_lists` and `tidy_sheets` before saving.
"""
from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Alignment, Font, PatternFill, Protection
from openpyxl.styles.cell_style import StyleArray
from openpyxl.styles.numbers import BUILTIN_FORMATS_REVERSE
from openpyxl.utils import column_index_from_string, get_column_letter, quote_sheetname
from openpyxl.worksheet.datavalidation import DataValidation, DataValidationList
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.backend import BackendError, TabWrite

LISTS_SHEET = "Списки"          # hidden sheet holding dropdown lists too long to inline
PLACEHOLDER_SHEET = "Лист1"     # the only sheet of a freshly created book

MAX_INLINE_LIST = 255            # Excel's limit on an inline list formula
MAX_CELL_TEXT = 32767            # Excel's limit on the text of one cell
FORMULA_PREFIXES = ("=", "+", "-", "@")

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill(fill_type="solid", fgColor="D9E1F2")
HEADER_ALIGNMENT = Alignment(wrap_text=True, vertical="top")
OPEN_CELL = Protection(locked=False)
LOCKED_CELL = Protection(locked=True)
TEXT_FORMAT = "@"

DROPDOWN_ERROR_TITLE = "Недопустимое значение"
DROPDOWN_ERROR = "Выберите значение из выпадающего списка этой ячейки."


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


def apply_tab(wb: Workbook, tab: TabWrite) -> None:
    """Write `tab` into `wb`, creating its sheet if needed; a values-only write of an existing
    tab leaves dropdowns, protection and formatting alone."""
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
    for c in range(1, lists.max_column + 1):
        if c not in used:
            for r in range(1, lists.max_row + 1):
                lists.cell(row=r, column=c).value = None


def tidy_sheets(wb: Workbook, written: Iterable[str]) -> None:
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
