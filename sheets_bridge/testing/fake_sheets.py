"""One spreadsheet of the fake: sheets, cells, validations, protections, and Sheets v4 semantics.

Cells are sparse dicts of CellData (`userEnteredValue`, `userEnteredFormat`, `dataValidation`).
Every method takes the caller's e-mail so protected ranges are enforced per identity.
"""
from __future__ import annotations

import ast
import copy
import itertools
import json
import math
import operator
import re
from collections.abc import Callable, Iterable
from typing import Any

from sheets_bridge.testing import field_mask
from sheets_bridge.testing.a1 import (
    Bounds,
    RangeError,
    RangeRef,
    col_letters,
    format_range,
    parse_cells,
    quote_title,
    split_title,
)

PROTECTED_MESSAGE = ("You are trying to edit a protected cell or object. Please contact the "
                     "spreadsheet owner to remove protection if you need to edit.")
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_DEFAULT_GRID = {"rowCount": 1000, "columnCount": 26}


class ApiError(Exception):
    """An HTTP error answer of the fake: status, JSON body and extra headers."""

    def __init__(self, status: int, body: dict, headers: dict[str, str] | None = None):
        super().__init__(body.get("error", {}).get("message", ""))
        self.status = status
        self.body = body
        self.headers = headers or {}


_STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


def sheets_error(code: int, message: str, status: str | None = None, **extra: Any) -> ApiError:
    """An error in the Sheets v4 shape: {"error": {code, message, status}}."""
    error = {"code": code, "message": message, "status": status or _STATUS_NAMES.get(code, "UNKNOWN")}
    error.update(extra)
    return ApiError(code, {"error": error})


def invalid(message: str) -> ApiError:
    return sheets_error(400, message)


# -- values -------------------------------------------------------------------------------

def user_entered(value: Any, option: str) -> dict | None:
    """A value from the values API as a userEnteredValue; None means "leave the cell alone"."""
    if value is None:
        return None
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    if not isinstance(value, str):
        raise invalid(f"Invalid values[][]: {value!r}")
    if value == "":
        return {}
    if option == "RAW":
        return {"stringValue": value}
    if value.startswith("'"):
        return {"stringValue": value[1:]}
    if value.startswith("="):
        return {"formulaValue": value}
    if _NUMBER.fullmatch(value.strip()):
        number = float(value)
        return {"numberValue": int(number) if number.is_integer() and "." not in value else number}
    if value.upper() in ("TRUE", "FALSE"):
        return {"boolValue": value.upper() == "TRUE"}
    return {"stringValue": value}


_BINOPS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _arith(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _arith(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _arith(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_arith(node.left), _arith(node.right))
    raise ValueError("not arithmetic")


def effective(uev: dict | None) -> dict | None:
    """What a cell evaluates to: formulas of plain arithmetic are computed, others are #NAME?."""
    if not uev:
        return None
    if "formulaValue" in uev:
        try:
            value = _arith(ast.parse(uev["formulaValue"][1:].strip(), mode="eval"))
            return {"numberValue": value}
        except (ValueError, SyntaxError, ZeroDivisionError, TypeError):
            return {"errorValue": {"type": "NAME", "message": "Unknown function or range."}}
    return dict(uev)


def number_json(value: float) -> int | float:
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else value


def format_number(value: float) -> str:
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return format(value, ".10g")


def render(cell: dict | None, option: str) -> Any:
    """A cell as the values API returns it for valueRenderOption `option`."""
    uev = (cell or {}).get("userEnteredValue")
    if not uev:
        return ""
    if option == "FORMULA" and "formulaValue" in uev:
        return uev["formulaValue"]
    ev = effective(uev) or {}
    if "stringValue" in ev:
        return ev["stringValue"]
    if "numberValue" in ev:
        return number_json(ev["numberValue"]) if option != "FORMATTED_VALUE" else format_number(ev["numberValue"])
    if "boolValue" in ev:
        return ev["boolValue"] if option != "FORMATTED_VALUE" else ("TRUE" if ev["boolValue"] else "FALSE")
    if "errorValue" in ev:
        return "#NAME?" if ev["errorValue"].get("type") == "NAME" else "#ERROR!"
    return ""


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

    def __deepcopy__(self, memo: dict) -> Sheet:
        other = Sheet(copy.deepcopy(self.properties, memo))
        other.cells = dict(self.cells)
        other.protected = copy.deepcopy(self.protected, memo)
        other.dimensions = copy.deepcopy(self.dimensions, memo)
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

    def used_extent(self) -> tuple[int, int]:
        """(rows, cols) up to the last cell holding a value."""
        keys = [k for k, cell in self.cells.items() if cell.get("userEnteredValue")]
        if not keys:
            return 0, 0
        return max(r for r, _ in keys) + 1, max(c for _, c in keys) + 1


class Spreadsheet:
    """A spreadsheet with Google's values and batchUpdate semantics; `owner` edits everything."""

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
                                  "gridProperties": dict(_DEFAULT_GRID)}))

    # -- lookup ---------------------------------------------------------------------------
    def sheet_by_id(self, sheet_id: int) -> Sheet:
        for sheet in self.sheets:
            if sheet.sheet_id == sheet_id:
                return sheet
        raise invalid(f"No grid with id: {sheet_id}")

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

    # -- batchUpdate ----------------------------------------------------------------------------
    def batch_update(self, requests: list[dict], who: str) -> list[dict]:
        """Apply the requests in order; the caller runs this on a copy to make it atomic."""
        replies = []
        for i, request in enumerate(requests):
            if not isinstance(request, dict) or len(request) != 1:
                raise invalid(f"Invalid requests[{i}]: exactly one kind of request is required.")
            (kind, body), = request.items()
            handler = getattr(self, f"_r_{kind}", None)
            if handler is None:
                raise invalid(f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]': "
                              "Cannot find field.")
            try:
                replies.append(handler(body, who))
            except ApiError as err:
                message = err.body["error"]["message"]
                raise invalid(f"Invalid requests[{i}].{kind}: {message}") from None
        return replies

    def _grid(self, grid: dict) -> tuple[Sheet, int, int, int, int]:
        sheet = self.sheet_by_id(grid.get("sheetId", 0))
        r0, r1, c0, c1 = grid_range_bounds(grid).clip(sheet.rows, sheet.cols)
        end_r, end_c = grid.get("endRowIndex"), grid.get("endColumnIndex")
        if end_r is not None and end_r > sheet.rows or end_c is not None and end_c > sheet.cols:
            raise invalid(f"Range ({quote_title(sheet.title)}!{col_letters((end_c or 1) - 1)}{end_r or 1}) "
                          f"exceeds grid limits. Max rows: {sheet.rows}, max columns: {sheet.cols}")
        return sheet, r0, r1, c0, c1

    def _r_addSheet(self, body: dict, who: str) -> dict:
        props = copy.deepcopy(body.get("properties", {}))
        sheet_id = props.get("sheetId")
        if sheet_id is None:
            sheet_id = self._new_id()
        elif any(s.sheet_id == sheet_id for s in self.sheets):
            raise invalid(f"Sheet with id {sheet_id} already exists.")
        title = props.get("title") or f"Sheet{len(self.sheets) + 1}"
        if any(s.title.lower() == title.lower() for s in self.sheets):
            raise invalid(f'A sheet with the name "{title}" already exists. Please enter another name.')
        grid = dict(_DEFAULT_GRID)
        grid.update(props.get("gridProperties", {}))
        index = min(props.get("index", len(self.sheets)), len(self.sheets))
        props.update({"sheetId": sheet_id, "title": title, "sheetType": props.get("sheetType", "GRID"),
                      "gridProperties": grid})
        sheet = Sheet(props)
        ordered = sorted(self.sheets, key=lambda s: s.properties["index"])
        ordered.insert(index, sheet)
        for i, s in enumerate(ordered):
            s.properties["index"] = i
        self.sheets.append(sheet)
        return {"addSheet": {"properties": copy.deepcopy(props)}}

    def _r_deleteSheet(self, body: dict, who: str) -> dict:
        sheet = self.sheet_by_id(body.get("sheetId", 0))
        if len(self.sheets) == 1:
            raise invalid("You can't remove all the sheets in a document.")
        self.check_sheet_edit(sheet, who)
        self.sheets.remove(sheet)
        for i, s in enumerate(sorted(self.sheets, key=lambda s: s.properties["index"])):
            s.properties["index"] = i
        return {}

    def _r_updateSheetProperties(self, body: dict, who: str) -> dict:
        props = body.get("properties", {})
        sheet = self.sheet_by_id(props.get("sheetId", 0))
        fields = body.get("fields")
        if not fields:
            raise invalid("At least one field must be updated with 'fields'.")
        self.check_sheet_edit(sheet, who)
        tree = field_mask.parse(fields)
        new = copy.deepcopy(sheet.properties)
        field_mask.update(new, props, tree)
        new["sheetId"] = sheet.sheet_id
        new.setdefault("gridProperties", {})
        grid = new["gridProperties"]
        for key, default in _DEFAULT_GRID.items():
            grid.setdefault(key, sheet.properties["gridProperties"][key] if key in
                            sheet.properties["gridProperties"] else default)
        for props in (new, grid):
            for key in [k for k, v in props.items() if v is False or (v == 0 and k.startswith("frozen"))]:
                del props[key]
        if grid.get("frozenRowCount", 0) > grid["rowCount"]:
            raise invalid("frozenRowCount is larger than the number of rows.")
        title = new.get("title")
        if not title:
            raise invalid("The sheet title must not be empty.")
        if any(s is not sheet and s.title.lower() == title.lower() for s in self.sheets):
            raise invalid(f'A sheet with the name "{title}" already exists. Please enter another name.')
        if new.get("hidden") and all(s.properties.get("hidden") for s in self.sheets if s is not sheet):
            raise invalid("You can't hide all the sheets in a document.")
        old_index = sheet.properties["index"]
        sheet.properties = new
        self._trim(sheet)
        if new.get("index", old_index) != old_index:
            ordered = [s for s in sorted(self.sheets, key=lambda s: s.properties["index"]) if s is not sheet]
            ordered.insert(min(new["index"], len(ordered)), sheet)
            for i, s in enumerate(ordered):
                s.properties["index"] = i
        return {}

    @staticmethod
    def _trim(sheet: Sheet) -> None:
        for (r, c) in list(sheet.cells):
            if r >= sheet.rows or c >= sheet.cols:
                del sheet.cells[(r, c)]

    def _r_updateSpreadsheetProperties(self, body: dict, who: str) -> dict:
        if not body.get("fields"):
            raise invalid("At least one field must be updated with 'fields'.")
        field_mask.update(self.properties, body.get("properties", {}), field_mask.parse(body["fields"]))
        return {}

    def _r_updateCells(self, body: dict, who: str) -> dict:
        fields = body.get("fields")
        if not fields:
            raise invalid("At least one field must be updated with 'fields'.")
        tree = field_mask.parse(fields)
        rows = body.get("rows", [])
        if "range" in body:
            sheet, r0, r1, c0, c1 = self._grid(body["range"])
            self.check_edit(sheet, r0, r1, c0, c1, who)
            covered = set()
            for i, row in enumerate(rows):
                for j, cell in enumerate(row.get("values", [])):
                    if r0 + i < r1 and c0 + j < c1:
                        covered.add((r0 + i, c0 + j))
                        self._apply_cell(sheet, r0 + i, c0 + j, cell, tree)
            for key in [k for k in sheet.cells if k not in covered]:
                if r0 <= key[0] < r1 and c0 <= key[1] < c1:
                    self._apply_cell(sheet, key[0], key[1], {}, tree)
            return {}
        start = body.get("start", {})
        sheet = self.sheet_by_id(start.get("sheetId", 0))
        r0, c0 = start.get("rowIndex", 0), start.get("columnIndex", 0)
        height = len(rows)
        width = max((len(row.get("values", [])) for row in rows), default=0)
        if r0 + height > sheet.rows or c0 + width > sheet.cols:
            raise invalid(f"Range ({quote_title(sheet.title)}!{col_letters(c0 + max(width, 1) - 1)}"
                          f"{r0 + height}) exceeds grid limits. Max rows: {sheet.rows}, "
                          f"max columns: {sheet.cols}")
        self.check_edit(sheet, r0, r0 + height, c0, c0 + width, who)
        for i, row in enumerate(rows):
            for j, cell in enumerate(row.get("values", [])):
                self._apply_cell(sheet, r0 + i, c0 + j, cell, tree)
        return {}

    @staticmethod
    def _apply_cell(sheet: Sheet, r: int, c: int, data: dict, tree: field_mask.Tree | None) -> None:
        Spreadsheet._check_value(data)
        cell = Spreadsheet._updated(sheet.cells.get((r, c)), data, tree)
        if cell:
            sheet.cells[(r, c)] = cell
        else:
            sheet.cells.pop((r, c), None)

    @staticmethod
    def _check_value(data: dict) -> None:
        uev = data.get("userEnteredValue")
        if uev is not None:
            kinds = set(uev) & {"stringValue", "numberValue", "boolValue", "formulaValue", "errorValue"}
            if len(kinds) != 1 or len(uev) != 1:
                raise invalid(f"Invalid userEnteredValue: {uev!r}")
            if "numberValue" in uev and (not isinstance(uev["numberValue"], (int, float))
                                         or isinstance(uev["numberValue"], bool)
                                         or not math.isfinite(uev["numberValue"])):
                raise invalid(f"Invalid value at 'numberValue': {uev['numberValue']!r}")

    @staticmethod
    def _updated(existing: dict | None, data: dict, tree: field_mask.Tree | None) -> dict:
        """A new cell dict: `existing` with the masked fields of `data` (existing is not changed)."""
        cell = dict(existing or {})
        for name in (cell if tree is None else tree):
            if isinstance(cell.get(name), dict):
                cell[name] = copy.deepcopy(cell[name])   # nested parts may be shared with a copy
        field_mask.update(cell, data, tree)
        return cell

    def _r_repeatCell(self, body: dict, who: str) -> dict:
        if not body.get("fields"):
            raise invalid("At least one field must be updated with 'fields'.")
        sheet, r0, r1, c0, c1 = self._grid(body.get("range", {}))
        self.check_edit(sheet, r0, r1, c0, c1, who)
        tree = field_mask.parse(body["fields"])
        cell = body.get("cell", {})
        self._check_value(cell)
        self._map_cells(sheet, [(r, c) for r in range(r0, r1) for c in range(c0, c1)],
                        lambda existing: self._updated(existing, cell, tree))
        return {}

    def _r_setDataValidation(self, body: dict, who: str) -> dict:
        sheet, r0, r1, c0, c1 = self._grid(body.get("range", {}))
        self.check_edit(sheet, r0, r1, c0, c1, who)
        rule = body.get("rule")
        if rule is None:
            keys = [k for k in sheet.cells if r0 <= k[0] < r1 and c0 <= k[1] < c1]
            self._map_cells(sheet, keys,
                            lambda cell: {k: v for k, v in (cell or {}).items() if k != "dataValidation"})
            return {}
        condition = rule.get("condition", {})
        if condition.get("type") == "ONE_OF_LIST" and not condition.get("values"):
            raise invalid("Data validation rule of type ONE_OF_LIST requires at least one value.")
        rule = copy.deepcopy(rule)      # shared by the cells of the range, never changed in place
        keys = [(r, c) for r in range(r0, r1) for c in range(c0, c1)]
        self._map_cells(sheet, keys, lambda cell: {**(cell or {}), "dataValidation": rule})
        return {}

    @staticmethod
    def _map_cells(sheet: Sheet, keys: Iterable[tuple[int, int]], change: Callable[[dict | None], dict]) -> None:
        """Replace each cell by `change(cell)`; a cell object shared by several cells is changed once
        and the result shared (cells are never changed in place, so sharing is safe)."""
        done: dict[int, tuple[dict | None, dict]] = {}     # keeps each old cell alive: its id stays its own
        for key in keys:
            existing = sheet.cells.get(key)
            if id(existing) not in done:
                done[id(existing)] = (existing, change(existing))
            result = done[id(existing)][1]
            if result:
                sheet.cells[key] = result
            else:
                sheet.cells.pop(key, None)

    def _all_protected(self) -> Iterable[tuple[Sheet, dict]]:
        for sheet in self.sheets:
            for prot in sheet.protected:
                yield sheet, prot

    def _r_addProtectedRange(self, body: dict, who: str) -> dict:
        prot = copy.deepcopy(body.get("protectedRange", {}))
        rng = prot.get("range")
        if rng is None:
            raise invalid("A protected range requires a range.")
        sheet = self.sheet_by_id(rng.get("sheetId", 0))
        rng.setdefault("sheetId", sheet.sheet_id)
        self._check_holes(prot)
        pid = prot.get("protectedRangeId")
        if pid is None:
            pid = self._new_id()
        elif any(p["protectedRangeId"] == pid for _, p in self._all_protected()):
            raise invalid(f"Duplicate protected range id: {pid}")
        prot["protectedRangeId"] = pid
        echo = copy.deepcopy(prot)          # the reply echoes the request, not what is stored
        echo["editors"] = {k: v for k, v in (echo.get("editors") or {}).items() if v}
        self._keep_requester(prot, who)
        sheet.protected.append(prot)
        return {"addProtectedRange": {"protectedRange": self.protected_view(echo, who)}}

    @staticmethod
    def _keep_requester(prot: dict, who: str) -> None:
        """Google keeps whoever sets a protection among its editors (warning-only ones included)."""
        prot.pop("requestingUserCanEdit", None)
        for key in ("description", "warningOnly"):
            if not prot.get(key):
                prot.pop(key, None)
        editors = prot["editors"] = dict(prot.get("editors") or {})
        users = editors["users"] = list(editors.get("users") or [])
        if who not in users:
            users.append(who)

    def _check_holes(self, prot: dict) -> None:
        rng = prot["range"]
        whole = not any(k in rng for k in ("startRowIndex", "endRowIndex", "startColumnIndex", "endColumnIndex"))
        if prot.get("unprotectedRanges") and not whole:
            raise invalid("Unprotected ranges are only supported on protected sheets.")
        if prot.get("warningOnly") and (prot.get("editors") or {}).get("users"):
            raise invalid("Editors are not supported with warningOnly protection.")
        for hole in prot.get("unprotectedRanges", ()):
            hole.setdefault("sheetId", rng.get("sheetId", 0))

    def _find_protected(self, pid: Any) -> tuple[Sheet, dict]:
        for sheet, prot in self._all_protected():
            if prot["protectedRangeId"] == pid:
                return sheet, prot
        raise invalid(f"No protected range with id: {pid}")

    def _r_updateProtectedRange(self, body: dict, who: str) -> dict:
        new = body.get("protectedRange", {})
        if not body.get("fields"):
            raise invalid("At least one field must be updated with 'fields'.")
        sheet, prot = self._find_protected(new.get("protectedRangeId"))
        if not self.can_edit_protection(prot, who):
            raise invalid(PROTECTED_MESSAGE)
        updated = copy.deepcopy(prot)
        field_mask.update(updated, copy.deepcopy(new), field_mask.parse(body["fields"]))
        updated["protectedRangeId"] = prot["protectedRangeId"]
        updated.setdefault("range", {}).setdefault("sheetId", sheet.sheet_id)
        target = self.sheet_by_id(updated["range"]["sheetId"])
        self._check_holes(updated)
        self._keep_requester(updated, who)
        sheet.protected.remove(prot)
        target.protected.append(updated)
        return {}

    def _r_deleteProtectedRange(self, body: dict, who: str) -> dict:
        sheet, prot = self._find_protected(body.get("protectedRangeId"))
        if not self.can_edit_protection(prot, who):
            raise invalid(PROTECTED_MESSAGE)
        sheet.protected.remove(prot)
        return {}

    def _r_updateDimensionProperties(self, body: dict, who: str) -> dict:
        rng = body.get("range", {})
        sheet = self.sheet_by_id(rng.get("sheetId", 0))
        dim = rng.get("dimension")
        if dim not in ("ROWS", "COLUMNS"):
            raise invalid("A dimension (ROWS or COLUMNS) is required.")
        limit = sheet.rows if dim == "ROWS" else sheet.cols
        start, end = rng.get("startIndex", 0), rng.get("endIndex", limit)
        if end > limit:
            raise invalid(f"Invalid dimension range: endIndex {end} is after the last {dim.lower()[:-1]} "
                          f"[{limit}].")
        tree = field_mask.parse(body.get("fields", ""))
        for i in range(start, end):
            meta = sheet.dimensions.setdefault((dim, i), {})
            field_mask.update(meta, body.get("properties", {}), tree)
        return {}

    def _r_autoResizeDimensions(self, body: dict, who: str) -> dict:
        return {}

    def _r_appendDimension(self, body: dict, who: str) -> dict:
        sheet = self.sheet_by_id(body.get("sheetId", 0))
        length = body.get("length", 0)
        if length <= 0:
            raise invalid("length must be greater than zero.")
        self.check_sheet_edit(sheet, who)
        grid = sheet.properties["gridProperties"]
        grid["rowCount" if body.get("dimension") == "ROWS" else "columnCount"] += length
        return {}

    def _r_insertDimension(self, body: dict, who: str) -> dict:
        rng = body.get("range", {})
        sheet = self.sheet_by_id(rng.get("sheetId", 0))
        self.check_sheet_edit(sheet, who)
        self._insert(sheet, rng.get("dimension", "ROWS"), rng.get("startIndex", 0), rng.get("endIndex", 0))
        return {}

    def _r_deleteDimension(self, body: dict, who: str) -> dict:
        rng = body.get("range", {})
        sheet = self.sheet_by_id(rng.get("sheetId", 0))
        self.check_sheet_edit(sheet, who)
        dim, start, end = rng.get("dimension", "ROWS"), rng.get("startIndex", 0), rng.get("endIndex", 0)
        axis = 0 if dim == "ROWS" else 1
        n = end - start
        moved = {}
        for key, cell in sheet.cells.items():
            pos = key[axis]
            if start <= pos < end:
                continue
            new = list(key)
            if pos >= end:
                new[axis] -= n
            moved[(new[0], new[1])] = cell
        sheet.cells = moved
        grid = sheet.properties["gridProperties"]
        grid["rowCount" if axis == 0 else "columnCount"] -= n
        return {}

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
        for prot in sheet.protected:
            for rng in [prot["range"], *prot.get("unprotectedRanges", ())]:
                lo, hi = ("startRowIndex", "endRowIndex") if axis == 0 else ("startColumnIndex", "endColumnIndex")
                if rng.get(lo) is not None and rng[lo] >= start:
                    rng[lo] += n
                if rng.get(hi) is not None and rng[hi] > start:
                    rng[hi] += n
