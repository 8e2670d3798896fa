"""Merged cells of the fake's spreadsheets, as Sheets v4 keeps them: each sheet's `merges` (GridRanges,
the Sheet resource's `merges` field), made by `mergeCells` (MERGE_ALL, MERGE_COLUMNS, MERGE_ROWS; only
the top left cell of a merge keeps its value) and undone by `unmergeCells` (every merge inside the range);
either refuses a range that holds part of a merge only. Rows and columns inserted or deleted move them
(`fake_book.Sheet.shift_merges`). `MergedBook`; `fake_sheets.Spreadsheet` builds on it."""
from __future__ import annotations

from tests.fake_google.fake_book import Rect, Sheet, merge_grid, merge_rect
from tests.fake_google.fake_errors import invalid
from tests.fake_google.fake_formats import FormattedBook

MERGE_TYPES = ("MERGE_ALL", "MERGE_COLUMNS", "MERGE_ROWS")
PARTLY_MESSAGE = "You must select all cells in a merged range to merge or unmerge them."
FROZEN_ROWS_MESSAGE = "You can't merge frozen and non-frozen rows."
FROZEN_COLUMNS_MESSAGE = "You can't merge frozen and non-frozen columns."


def _overlaps(a: Rect, b: Rect) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def _inside(a: Rect, b: Rect) -> bool:
    """Whether `a` lies wholly inside `b`."""
    return b[0] <= a[0] and a[1] <= b[1] and b[2] <= a[2] and a[3] <= b[3]


class MergedBook(FormattedBook):
    """A book whose sheets hold merged cells (`Sheet.merges`)."""

    def _merge_area(self, body: dict, who: str) -> tuple[Sheet, Rect, list[dict]]:
        """The request's sheet and range, and the sheet's merges outside it; a merge partly inside is refused."""
        if "range" not in body:
            raise invalid("A range is required.")
        sheet, r0, r1, c0, c1 = self._grid(body["range"])
        self.check_edit(sheet, r0, r1, c0, c1, who)
        area = (r0, r1, c0, c1)
        outside = []
        for merge in sheet.merges:
            old = merge_rect(merge)
            if not _overlaps(old, area):
                outside.append(merge)
            elif not _inside(old, area):
                raise invalid(PARTLY_MESSAGE)
        return sheet, area, outside

    def _r_mergeCells(self, body: dict, who: str) -> dict:
        kind = body.get("mergeType", "MERGE_ALL")
        if kind not in MERGE_TYPES:
            raise invalid(f"Invalid value at 'merge_type' ({kind})")
        sheet, area, outside = self._merge_area(body, who)
        grid = sheet.properties["gridProperties"]
        r0, r1, c0, c1 = area
        if kind != "MERGE_ROWS" and r0 < grid.get("frozenRowCount", 0) < r1:
            raise invalid(FROZEN_ROWS_MESSAGE)
        if kind != "MERGE_COLUMNS" and c0 < grid.get("frozenColumnCount", 0) < c1:
            raise invalid(FROZEN_COLUMNS_MESSAGE)
        if kind == "MERGE_ALL":
            pieces = [area]
        elif kind == "MERGE_COLUMNS":
            pieces = [(r0, r1, c, c + 1) for c in range(c0, c1)]
        else:
            pieces = [(r, r + 1, c0, c1) for r in range(r0, r1)]
        merged = []
        for p in pieces:
            if (p[1] - p[0]) * (p[3] - p[2]) < 2:
                continue
            for r in range(p[0], p[1]):
                for c in range(p[2], p[3]):
                    if (r, c) != (p[0], p[2]):
                        self._set_value(sheet, r, c, {})
            merged.append(merge_grid(sheet.sheet_id, p))
        sheet.merges = outside + merged
        return {}

    def _r_unmergeCells(self, body: dict, who: str) -> dict:
        sheet, _, outside = self._merge_area(body, who)
        sheet.merges = outside
        return {}
