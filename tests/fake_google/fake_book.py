"""One spreadsheet of the fake without its batchUpdate: sheets, sparse cells, protection checks,
the Spreadsheet resource and the values API (`Book`; `fake_sheets.Spreadsheet` adds batchUpdate).

Cells are sparse dicts of CellData (`userEnteredValue`, `userEnteredFormat`, `dataValidation`).
Every method takes the caller's e-mail so protected ranges are enforced per identity.

One module over 400 lines: `Sheet` and `Book` share the sparse cell model and its protection checks, which
the values API and the resource views both read; split, each half would import the other's internals.
"""
from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterable
from typing import Any

from tests.fake_google.a1 import (
    Bounds,
    RangeError,
    RangeRef,
    col_letters,
    format_range,
    parse_cells,
    quote_title,
    split_title,
)
from tests.fake_google.fake_errors import PROTECTED_MESSAGE, invalid, sheets_error
from tests.fake_google.fake_limits import check_size, check_text
from tests.fake_google.fake_values import effective, render, user_entered

DEFAULT_GRID = {"rowCount": 1000, "columnCount": 26}


def _proto3(value: Any) -> Any:
    """Drop what proto3 JSON leaves out: None, False, empty lists (empty messages stay)."""
    if isinstance(value, dict):
        return {k: _proto3(v) for k, v in value.items() if v is not None and v is not False and v != []}
    if isinstance(value, list):
        return [_proto3(v) for v in value]
    return value


def grid_range_bounds(grid: dict) -> Bounds:
    return Bounds(grid.get("startRowIndex"), grid.get("endRowIndex"),
                  grid.get("startColumnIndex"), grid.get("endColumnIndex"))


def _intersects(a: Bounds, r0: int, r1: int, c0: int, c1: int) -> tuple[int, int, int, int] | None:
    ar0, ar1 = max(a.row0 or 0, r0), min(r1 if a.row1 is None else a.row1, r1)
    ac0, ac1 = max(a.col0 or 0, c0), min(c1 if a.col1 is None else a.col1, c1)
    if ar0 >= ar1 or ac0 >= ac1:
        return None
    return ar0, ar1, ac0, ac1


Rect = tuple[int, int, int, int]        # a merge: start row, end row, start column, end column (ends exclusive)


def merge_rect(grid: dict) -> Rect:
    return (grid.get("startRowIndex", 0), grid["endRowIndex"], grid.get("startColumnIndex", 0),
            grid["endColumnIndex"])


def merge_grid(sheet_id: int, r: Rect) -> dict:
    return {"sheetId": sheet_id, "startRowIndex": r[0], "endRowIndex": r[1], "startColumnIndex": r[2],
            "endColumnIndex": r[3]}


# -- the model ------------------------------------------------------------------------------

class Sheet:
    """One tab: properties, sparse cells, dimension metadata and its protected ranges.

    A cell dict is never changed in place (it is replaced), so a copy of the sheet shares them.
    """

    def __init__(self, properties: dict):
        self.properties = properties
        self.cells: dict[tuple[int, int], dict] = {}
        self.protected: list[dict] = []
        self.dimensions: dict[tuple[str, int], dict] = {}
        self.conditional: list[dict] = []          # conditional format rules, in priority order
        self.merges: list[dict] = []               # merged ranges: bounded GridRanges with the sheet's id

    def __deepcopy__(self, memo: dict) -> Sheet:
        other = Sheet(copy.deepcopy(self.properties, memo))
        other.cells = dict(self.cells)
        other.protected = copy.deepcopy(self.protected, memo)
        other.dimensions = copy.deepcopy(self.dimensions, memo)
        other.conditional = copy.deepcopy(getattr(self, "conditional", []), memo)
        other.merges = copy.deepcopy(getattr(self, "merges", []), memo)
        return other

    @property
    def sheet_id(self) -> int:
        return self.properties["sheetId"]

    @property
    def title(self) -> str:
        return self.properties["title"]

    @property
    def rows(self) -> int:
        return self.properties["gridProperties"]["rowCount"]

    @property
    def cols(self) -> int:
        return self.properties["gridProperties"]["columnCount"]

    def shift_merges(self, dim: str, start: int, end: int, inserted: bool) -> None:
        """Move the merges with rows (or columns) `start` to `end` inserted before `start`, or deleted: a
        merge grows by the rows inserted inside it, loses the rows deleted from it, and goes when fewer
        than two of its cells are left."""
        lo, hi = (0, 1) if dim == "ROWS" else (2, 3)
        n = end - start
        kept = []
        for merge in self.merges:
            r = list(merge_rect(merge))
            for i in (lo, hi):
                if inserted:
                    if r[i] > start or (i == lo and r[i] == start):
                        r[i] += n
                elif r[i] >= end:
                    r[i] -= n
                elif r[i] > start:
                    r[i] = start
            if (r[1] - r[0]) * (r[3] - r[2]) >= 2:
                kept.append(merge_grid(self.sheet_id, (r[0], r[1], r[2], r[3])))
        self.merges = kept


class Book:
    """A spreadsheet with Google's values semantics; `owner` edits everything."""

    def __init__(self, spreadsheet_id: str, title: str, owner: str | None,
                 new_id: Callable[[], int], locale: str = "en_US"):
        self.id = spreadsheet_id
        self.owner = owner
        self.properties = {"title": title, "locale": locale, "autoRecalc": "ON_CHANGE",
                           "timeZone": "Etc/GMT",
                           "defaultFormat": {"backgroundColor": {"red": 1, "green": 1, "blue": 1},
                                             "verticalAlignment": "BOTTOM",
                                             "wrapStrategy": "OVERFLOW_CELL",
                                             "textFormat": {"fontFamily": "arial,sans,sans-serif",
                                                            "fontSize": 10}}}
        self.sheets: list[Sheet] = []
        self._new_id = new_id
        first = "Лист1" if locale.startswith("ru") else "Sheet1"
        self.sheets.append(Sheet({"sheetId": 0, "title": first, "index": 0, "sheetType": "GRID",
                                  "gridProperties": dict(DEFAULT_GRID)}))

    # -- lookup ---------------------------------------------------------------------------
    def sheet_by_id(self, sheet_id: int) -> Sheet:
        for sheet in self.sheets:
            if sheet.sheet_id == sheet_id:
                return sheet
        raise invalid(f"No grid with id: {sheet_id}")

    def _grid(self, grid: dict) -> tuple[Sheet, int, int, int, int]:
        """A GridRange's sheet and bounds within its grid, or Google's 400 for a range past the grid."""
        sheet = self.sheet_by_id(grid.get("sheetId", 0))
        r0, r1, c0, c1 = grid_range_bounds(grid).clip(sheet.rows, sheet.cols)
        end_r, end_c = grid.get("endRowIndex"), grid.get("endColumnIndex")
        if end_r is not None and end_r > sheet.rows or end_c is not None and end_c > sheet.cols:
            raise invalid(f"Range ({quote_title(sheet.title)}!{col_letters((end_c or 1) - 1)}{end_r or 1}) "
                          f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}")
        return sheet, r0, r1, c0, c1

    def sheet_by_title(self, title: str) -> Sheet | None:
        for sheet in self.sheets:
            if sheet.title == title:
                return sheet
        return None

    def resolve(self, text: str) -> tuple[Sheet, RangeRef]:
        """A1 text -> (sheet, bounds), or Google's "Unable to parse range" 400."""
        try:
            title, cells = split_title(text)
            if title is None:
                sheet = self.sheet_by_title(cells or "")
                if sheet is not None:
                    return sheet, RangeRef(sheet.title, Bounds(), whole_sheet=True)
                if not self.sheets:
                    raise RangeError(text)
                sheet = sorted(self.sheets, key=lambda s: s.properties["index"])[0]
                return sheet, RangeRef(sheet.title, parse_cells(cells or ""))
            sheet = self.sheet_by_title(title)
            if sheet is None:
                raise RangeError(text)
            if cells is None:
                return sheet, RangeRef(title, Bounds(), whole_sheet=True)
            return sheet, RangeRef(title, parse_cells(cells))
        except RangeError:
            raise invalid(f"Unable to parse range: {text}") from None

    # -- protection -------------------------------------------------------------------------
    def can_edit_protection(self, prot: dict, who: str) -> bool:
        if who == self.owner or prot.get("warningOnly"):
            return True
        editors = prot.get("editors") or {}
        return who in (editors.get("users") or ()) or bool(editors.get("domainUsersCanEdit"))

    def check_edit(self, sheet: Sheet, r0: int, r1: int, c0: int, c1: int, who: str) -> None:
        """Refuse, as Google does, an edit touching a protected cell the caller may not edit."""
        if r0 >= r1 or c0 >= c1:
            return
        for prot in sheet.protected:
            if self.can_edit_protection(prot, who):
                continue
            hit = _intersects(grid_range_bounds(prot["range"]), r0, r1, c0, c1)
            if hit and not self._covered(hit, prot.get("unprotectedRanges", ())):
                raise invalid(PROTECTED_MESSAGE)

    @staticmethod
    def _covered(rect: tuple[int, int, int, int], holes: Iterable[dict]) -> bool:
        r0, r1, c0, c1 = rect
        clipped = [h for h in (_intersects(grid_range_bounds(g), r0, r1, c0, c1) for g in holes) if h]
        if not clipped:
            return False
        rows = sorted({r0, r1, *(h[0] for h in clipped), *(h[1] for h in clipped)})
        cols = sorted({c0, c1, *(h[2] for h in clipped), *(h[3] for h in clipped)})
        for ra, rb in itertools.pairwise(rows):
            for ca, cb in itertools.pairwise(cols):
                if not any(h[0] <= ra and rb <= h[1] and h[2] <= ca and cb <= h[3] for h in clipped):
                    return False
        return True

    def check_sheet_edit(self, sheet: Sheet, who: str) -> None:
        """Structural changes (rename, resize, delete) need the right to edit the whole sheet."""
        self.check_edit(sheet, 0, max(sheet.rows, 1), 0, max(sheet.cols, 1), who)

    # -- resource -----------------------------------------------------------------------------
    def protected_view(self, prot: dict, who: str) -> dict:
        out = copy.deepcopy(prot)
        rng = out["range"]
        if rng.get("sheetId") == 0:
            del rng["sheetId"]
        for hole in out.get("unprotectedRanges", ()):
            if hole.get("sheetId") == 0:
                del hole["sheetId"]
        can = self.can_edit_protection(prot, who)
        if can:
            out["requestingUserCanEdit"] = True
        else:
            out.pop("editors", None)
        return _proto3(out)

    def resource(self, who: str, include_grid: bool = False, ranges: list[str] | None = None) -> dict:
        """The Spreadsheet resource of spreadsheets.get (before any `fields` mask)."""
        wanted: dict[int, list[Bounds]] = {}
        for text in ranges or []:
            sheet, ref = self.resolve(text)
            wanted.setdefault(sheet.sheet_id, []).append(ref.bounds)
        sheets = []
        for sheet in sorted(self.sheets, key=lambda s: s.properties["index"]):
            if ranges and sheet.sheet_id not in wanted:
                continue
            entry: dict[str, Any] = {"properties": copy.deepcopy(sheet.properties)}
            if sheet.protected:
                entry["protectedRanges"] = [self.protected_view(p, who) for p in sheet.protected]
            if getattr(sheet, "conditional", None):
                entry["conditionalFormats"] = copy.deepcopy(sheet.conditional)
            if getattr(sheet, "merges", None):      # a sheet id of 0 left out, as proto3 does
                entry["merges"] = [{k: v for k, v in m.items() if not (k == "sheetId" and v == 0)}
                                   for m in sheet.merges]
            if include_grid:
                entry["data"] = [self._grid_data(sheet, b) for b in wanted.get(sheet.sheet_id, [Bounds()])]
            sheets.append(entry)
        return {"spreadsheetId": self.id, "properties": copy.deepcopy(self.properties), "sheets": sheets,
                "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{self.id}/edit"}

    def _grid_data(self, sheet: Sheet, bounds: Bounds) -> dict:
        r0, r1, c0, c1 = bounds.clip(sheet.rows, sheet.cols)
        any_rows = [r for (r, c) in sheet.cells if r0 <= r < r1 and c0 <= c < c1]
        last_row = min(r1, max(any_rows) + 1) if any_rows else r0
        row_data = []
        for r in range(r0, last_row):
            values = []
            for c in range(c0, c1):
                cell = sheet.cells.get((r, c))
                values.append(self._cell_view(cell))
            while values and not values[-1]:
                values.pop()
            row_data.append({"values": values} if values else {})
        data: dict[str, Any] = {"rowData": row_data} if row_data else {}
        data |= {"rowMetadata": [self._dimension(sheet, "ROWS", r, 21) for r in range(r0, r1)],
                 "columnMetadata": [self._dimension(sheet, "COLUMNS", c, 100) for c in range(c0, c1)]}
        if r0:
            data["startRow"] = r0
        if c0:
            data["startColumn"] = c0
        return data

    @staticmethod
    def _dimension(sheet: Sheet, dim: str, index: int, default: int) -> dict:
        meta = {"pixelSize": default, **sheet.dimensions.get((dim, index), {})}
        return {k: v for k, v in meta.items() if v is not False}

    @staticmethod
    def _cell_view(cell: dict | None) -> dict:
        if not cell:
            return {}
        out = dict(cell)   # shallow: the view is serialised at once and never mutated
        ev = effective(cell.get("userEnteredValue"))
        if ev:
            out["effectiveValue"] = ev
            out["formattedValue"] = render(cell, "FORMATTED_VALUE")
        return out

    # -- values API -------------------------------------------------------------------------------
    def values_get(self, text: str, render_option: str = "FORMATTED_VALUE",
                   major: str = "ROWS") -> dict:
        sheet, ref = self.resolve(text)
        r0, r1, c0, c1 = ref.bounds.clip(sheet.rows, sheet.cols)
        if ref.bounds.row0 is not None and ref.bounds.row0 >= sheet.rows:
            raise invalid(f"Range ({quote_title(sheet.title)}!{text.rpartition('!')[2]}) exceeds grid limits. "
                          f"Max rows: {sheet.rows}, max columns: {sheet.cols}")
        rows = []
        for r in range(r0, r1):
            row = [render(sheet.cells.get((r, c)), render_option) for c in range(c0, c1)]
            while row and row[-1] == "":
                row.pop()
            rows.append(row)
        while rows and not rows[-1]:
            rows.pop()
        if major == "COLUMNS" and rows:
            width = max(len(row) for row in rows)
            cols = [[row[c] if c < len(row) else "" for row in rows] for c in range(width)]
            for col in cols:
                while col and col[-1] == "":
                    col.pop()
            rows = cols
        out: dict[str, Any] = {"range": format_range(sheet.title, r0, r1, c0, c1), "majorDimension": major}
        if rows:
            out["values"] = rows
        return out

    def values_update(self, text: str, values: list, option: str, who: str,
                      major: str = "ROWS", grow: bool = False) -> dict:
        if option not in ("RAW", "USER_ENTERED"):
            raise invalid("'valueInputOption' is required but not specified" if not option
                          else f"Invalid value at 'value_input_option' ({option})")
        if not isinstance(values, list) or any(not isinstance(row, list) for row in values):
            message = ("Invalid value at 'data.values' (type.googleapis.com/google.protobuf.ListValue), "
                       + json.dumps(values, ensure_ascii=False))
            raise sheets_error(400, message, details=[{"@type": "type.googleapis.com/google.rpc.BadRequest",
                                                       "fieldViolations": [{"field": "data.values",
                                                                            "description": message}]}])
        if major == "COLUMNS":
            width = max((len(col) for col in values), default=0)
            values = [[col[r] if r < len(col) else None for col in values] for r in range(width)]
        sheet, ref = self.resolve(text)
        r0, c0 = ref.bounds.row0 or 0, ref.bounds.col0 or 0
        height = len(values)
        width = max((len(row) for row in values), default=0)
        b = ref.bounds
        single_cell = b.row1 == r0 + 1 and b.col1 == c0 + 1 and b.row0 is not None and b.col0 is not None
        if not single_cell and (b.row1 is not None and r0 + height > b.row1
                                or b.col1 is not None and c0 + width > b.col1):
            raise invalid(f"Requested writing within range [{text}], but tried writing beyond it")
        if grow:
            grid = sheet.properties["gridProperties"]
            grid["rowCount"] = max(grid["rowCount"], r0 + height)
            grid["columnCount"] = max(grid["columnCount"], c0 + width)
            check_size((s.title, s.rows, s.cols) for s in self.sheets)
        if r0 + height > sheet.rows or c0 + width > sheet.cols:
            raise invalid(f"Range ({quote_title(sheet.title)}!{col_letters(c0 + width - 1)}{r0 + height}) "
                          f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}")
        self.check_edit(sheet, r0, r0 + height, c0, c0 + width, who)
        cells = 0
        for i, row in enumerate(values):
            for j, value in enumerate(row):
                fmt = sheet.cells.get((r0 + i, c0 + j), {}).get("userEnteredFormat", {})
                as_text = option == "USER_ENTERED" and fmt.get("numberFormat", {}).get("type") == "TEXT"
                uev = user_entered(value, "RAW" if as_text and isinstance(value, str) else option)
                if uev is None:
                    continue
                check_text(uev)
                cells += 1
                self._set_value(sheet, r0 + i, c0 + j, uev)
        return {"spreadsheetId": self.id,
                "updatedRange": format_range(sheet.title, r0, r0 + max(height, 1), c0, c0 + max(width, 1)),
                "updatedRows": height, "updatedColumns": width, "updatedCells": cells}

    @staticmethod
    def _set_value(sheet: Sheet, r: int, c: int, uev: dict) -> None:
        cell = dict(sheet.cells.get((r, c), {}))
        if uev:
            cell["userEnteredValue"] = uev
        else:
            cell.pop("userEnteredValue", None)
        if cell:
            sheet.cells[(r, c)] = cell
        else:
            sheet.cells.pop((r, c), None)

    def values_clear(self, text: str, who: str) -> str:
        sheet, ref = self.resolve(text)
        r0, r1, c0, c1 = ref.bounds.clip(sheet.rows, sheet.cols)
        self.check_edit(sheet, r0, r1, c0, c1, who)
        for (r, c) in list(sheet.cells):
            if r0 <= r < r1 and c0 <= c < c1:
                self._set_value(sheet, r, c, {})
        return format_range(sheet.title, r0, r1, c0, c1)

    def values_append(self, text: str, values: list, option: str, who: str, insert: str) -> dict:
        sheet, ref = self.resolve(text)
        r0, r1, c0, c1 = ref.bounds.clip(sheet.rows, sheet.cols)
        used = [r for (r, c), cell in sheet.cells.items()
                if r0 <= r < r1 and c0 <= c < c1 and cell.get("userEnteredValue")]
        start = max(used) + 1 if used else r0
        out: dict[str, Any] = {"spreadsheetId": self.id}
        if used:
            width = max(c for (r, c), cell in sheet.cells.items() if r0 <= r < start and c0 <= c < c1
                        and cell.get("userEnteredValue")) + 1
            out["tableRange"] = format_range(sheet.title, min(used), start, c0, width)
        if insert == "INSERT_ROWS":
            self._insert(sheet, "ROWS", start, start + len(values))
        target = f"{quote_title(sheet.title)}!{col_letters(c0)}{start + 1}"
        out["updates"] = self.values_update(target, values, option, who, grow=True)
        return out

    @staticmethod
    def _insert(sheet: Sheet, dim: str, start: int, end: int) -> None:
        axis = 0 if dim == "ROWS" else 1
        n = end - start
        if n <= 0:
            return
        moved = {}
        for key, cell in sheet.cells.items():
            new = list(key)
            if key[axis] >= start:
                new[axis] += n
            moved[(new[0], new[1])] = cell
        sheet.cells = moved
        grid = sheet.properties["gridProperties"]
        grid["rowCount" if axis == 0 else "columnCount"] += n
        sheet.shift_merges(dim, start, end, inserted=True)
        for prot in sheet.protected:
            for rng in [prot["range"], *prot.get("unprotectedRanges", ())]:
                lo, hi = ("startRowIndex", "endRowIndex") if axis == 0 else ("startColumnIndex", "endColumnIndex")
                if rng.get(lo) is not None and rng[lo] >= start:
                    rng[lo] += n
                if rng.get(hi) is not None and rng[hi] > start:
                    rng[hi] += n
