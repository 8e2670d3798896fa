"""One spreadsheet of the fake: `Book` (cells, protections, values API) with Sheets v4's
batchUpdate requests, applied in order with Google's checks and error messages (conditional formats in
`fake_formats`, merged cells in `fake_merges`)."""
from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable
from typing import Any

from tests.fake_google import discovery, fake_limits, field_mask
from tests.fake_google.a1 import col_letters, quote_title
from tests.fake_google.fake_book import DEFAULT_GRID, Sheet
from tests.fake_google.fake_errors import PROTECTED_MESSAGE, ApiError, invalid
from tests.fake_google.fake_merges import MergedBook


class Spreadsheet(MergedBook):
    """A spreadsheet with Google's values and batchUpdate semantics; `owner` edits everything."""

    no_account: frozenset[str] = frozenset()      # addresses with no Google account (set per batchUpdate)

    # -- batchUpdate ----------------------------------------------------------------------------
    def batch_update(self, requests: list[dict], who: str, no_account: frozenset[str] = frozenset()) -> list[dict]:
        """Apply the requests in order; the caller runs this on a copy to make it atomic. `no_account`: the
        addresses without a Google account, which no protection may name (fake_limits)."""
        self.no_account = no_account
        replies = []
        for i, request in enumerate(requests):
            if not isinstance(request, dict) or len(request) != 1:
                raise invalid(f"Invalid requests[{i}]: exactly one kind of request is required.")
            (kind, body), = request.items()
            handler = getattr(self, f"_r_{kind}", None)
            if handler is None:
                raise invalid(f"Invalid JSON payload received. Unknown name \"{kind}\" at 'requests[{i}]': "
                              "Cannot find field.")
            oneof = discovery.request_oneof_error(kind, body, f"requests[{i}].{kind}") \
                if isinstance(body, dict) else None
            if oneof is not None:
                raise invalid(oneof)        # refused while the body is parsed, before any request runs
            try:
                fake_limits.check_ranges(body)
                replies.append(handler(body, who))
                fake_limits.check_size((s.title, s.rows, s.cols) for s in self.sheets)
            except ApiError as err:
                message = err.body["error"]["message"]
                raise invalid(f"Invalid requests[{i}].{kind}: {message}") from None
        return replies

    def _r_addSheet(self, body: dict, who: str) -> dict:
        props = copy.deepcopy(body.get("properties", {}))
        sheet_id = props.get("sheetId")
        if sheet_id is None:
            sheet_id = self._new_id()
        elif any(s.sheet_id == sheet_id for s in self.sheets):
            raise invalid(f"Sheet with id {sheet_id} already exists.")
        title = props.get("title") or f"Sheet{len(self.sheets) + 1}"
        fake_limits.check_title(title)
        if any(s.title.lower() == title.lower() for s in self.sheets):
            raise invalid(f'A sheet with the name "{title}" already exists. Please enter another name.')
        grid = dict(DEFAULT_GRID)
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
        for key, default in DEFAULT_GRID.items():
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
        fake_limits.check_title(title)
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
            fake_limits.check_text(uev)
            if "numberValue" in uev and (not isinstance(uev["numberValue"], (int, float))
                                         or isinstance(uev["numberValue"], bool)
                                         or not math.isfinite(uev["numberValue"])):
                raise invalid(f"Invalid value at 'numberValue': {uev['numberValue']!r}")

    @staticmethod
    def _updated(existing: dict | None, data: dict, tree: field_mask.Tree | None) -> dict:
        """A new cell dict: `existing` with the masked fields of `data`. Neither is changed, and the
        result shares their untouched parts: a request's body is the fake's own (decoded from the
        request), and cells are replaced, never changed in place."""
        return field_mask.merged(existing or {}, data, tree)

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
        fake_limits.check_condition(condition)
        if condition.get("type") == "ONE_OF_RANGE":
            self._check_list_range(condition)
        rule = copy.deepcopy(rule)      # shared by the cells of the range, never changed in place
        keys = [(r, c) for r in range(r0, r1) for c in range(c0, c1)]
        self._map_cells(sheet, keys, lambda cell: {**(cell or {}), "dataValidation": rule})
        return {}

    def _check_list_range(self, condition: dict) -> None:
        """ONE_OF_RANGE takes one value: a formula naming a range of this spreadsheet ("='Lists'!A1:A9")."""
        values = condition.get("values") or []
        text = str((values[0] if len(values) == 1 else {}).get("userEnteredValue", ""))
        if not text.startswith("="):
            raise invalid("Data validation rule of type ONE_OF_RANGE requires one value: a range such as =A1:A9.")
        self.resolve(text[1:])      # Google's "Unable to parse range" for a sheet that does not exist

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
        fake_limits.check_editors(prot, self.no_account)
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
        fake_limits.check_editors(updated, self.no_account)
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
        sheet.shift_merges(dim, start, end, inserted=False)
        return {}
