"""Drive's xlsx export of a fake spreadsheet: values, merged cells, frozen rows, widths, dropdowns.

An export is kept for the same content (a book's sheets, cells, dimensions and merges), as building the file
costs most of a fake Google stage's archive; a process may also take exports made elsewhere
(`keep_exports`): the crash sweep's reruns find those of the uninterrupted run."""
from __future__ import annotations

import hashlib
import pickle
from collections import OrderedDict

from openpyxl import Workbook
from openpyxl.cell.cell import TYPE_STRING
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from sheets_bridge.backends.xlsx.files import workbook_bytes
from tests.fake_google.fake_book import merge_rect
from tests.fake_google.fake_sheets import Spreadsheet
from tests.fake_google.fake_values import effective

KEPT_EXPORTS = 64
_EXPORTS: OrderedDict[bytes, bytes] = OrderedDict()     # digest of a book's content -> its export


def spreadsheet_to_xlsx(book: Spreadsheet) -> bytes:
    """The bytes of a real .xlsx file holding every sheet of `book`."""
    key = _content_digest(book)
    data = _EXPORTS.get(key)
    if data is None:
        data = _build(book)
    keep_exports({key: data})
    return data


def exports() -> dict[bytes, bytes]:
    """The exports this process keeps, by content digest."""
    return dict(_EXPORTS)


def keep_exports(made: dict[bytes, bytes]) -> None:
    """Keep exports (by content digest) for the next export of the same content."""
    for key, data in made.items():
        _EXPORTS[key] = data
        _EXPORTS.move_to_end(key)
    while len(_EXPORTS) > KEPT_EXPORTS:
        _EXPORTS.popitem(last=False)


def _content_digest(book: Spreadsheet) -> bytes:
    """Equal for books whose sheets hold the same properties, cells, dimensions and merges."""
    content = [(sheet.properties, sorted(sheet.cells.items()), sorted(sheet.dimensions.items()),
                getattr(sheet, "merges", [])) for sheet in book.sheets]
    return hashlib.blake2b(pickle.dumps(content, protocol=pickle.HIGHEST_PROTOCOL), digest_size=20).digest()


def _build(book: Spreadsheet) -> bytes:
    workbook = Workbook()
    workbook.remove(workbook.worksheets[0])
    for sheet in sorted(book.sheets, key=lambda s: s.properties["index"]):
        ws = workbook.create_sheet(sheet.title[:31])
        lists: dict[tuple[str, ...], list[tuple[int, int]]] = {}
        items: dict[int, tuple[str, ...]] = {}      # a range's cells share one rule object: read it once
        for (r, c), cell in sorted(sheet.cells.items()):
            if cell.get("userEnteredValue"):
                _put(ws.cell(row=r + 1, column=c + 1), cell["userEnteredValue"])
            rule = cell.get("dataValidation", {}).get("condition", {})
            if rule.get("type") == "ONE_OF_LIST":
                key = items.get(id(rule))
                if key is None:
                    key = items[id(rule)] = tuple(v.get("userEnteredValue", "") for v in rule.get("values", []))
                lists.setdefault(key, []).append((c, r))
        for values, cells in lists.items():
            formula = '"' + ",".join(v.replace('"', '""') for v in values) + '"'
            if len(formula) <= 255:
                validation = DataValidation(type="list", formula1=formula, allow_blank=True)
                for ref in _ranges(cells):
                    validation.add(ref)
                ws.add_data_validation(validation)
        for merge in getattr(sheet, "merges", []):
            r0, r1, c0, c1 = merge_rect(merge)
            ws.merge_cells(start_row=r0 + 1, end_row=r1, start_column=c0 + 1, end_column=c1)
        frozen = sheet.properties["gridProperties"].get("frozenRowCount", 0)
        if frozen:
            ws.freeze_panes = f"A{frozen + 1}"
        for (dim, index), meta in sheet.dimensions.items():
            if dim == "COLUMNS" and meta.get("pixelSize"):
                ws.column_dimensions[get_column_letter(index + 1)].width = meta["pixelSize"] / 7
    return workbook_bytes(workbook)


def _put(target, uev: dict) -> None:
    """One value: formulas as formulas, text always as text (never parsed), numbers and booleans."""
    if "formulaValue" in uev:
        target.value = uev["formulaValue"]
    elif "stringValue" in uev:
        target.value = uev["stringValue"]
        target.data_type = TYPE_STRING
    else:
        ev = effective(uev) or {}
        target.value = ev.get("numberValue", ev.get("boolValue"))


def _ranges(cells: list[tuple[int, int]]) -> list[str]:
    """(col, row) cells as column runs in A1 notation: B2:B201."""
    out: list[str] = []
    run: list[tuple[int, int]] = []
    for col, row in sorted(cells) + [(-1, -1)]:
        if run and (col != run[-1][0] or row != run[-1][1] + 1):
            letter = get_column_letter(run[0][0] + 1)
            out.append(f"{letter}{run[0][1] + 1}:{letter}{run[-1][1] + 1}")
            run = []
        run.append((col, row))
    return out
