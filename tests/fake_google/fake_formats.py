"""Conditional formats of the fake's spreadsheets: the sheet's ordered list of rules, added at an
index and deleted by index as Sheets v4 does (`FormattedBook`; `fake_sheets.Spreadsheet` builds on it)."""
from __future__ import annotations

import copy

from tests.fake_google.fake_book import Book, grid_range_bounds
from tests.fake_google.fake_errors import invalid


class FormattedBook(Book):
    """A book whose sheets carry conditional format rules (`Sheet.conditional`)."""

    def _r_addConditionalFormatRule(self, body: dict, who: str) -> dict:
        rule = copy.deepcopy(body.get("rule") or {})
        ranges = rule.get("ranges") or []
        if not ranges:
            raise invalid("A conditional format rule requires at least one range.")
        if ("booleanRule" in rule) == ("gradientRule" in rule):
            raise invalid("A conditional format rule requires exactly one of booleanRule or gradientRule.")
        sheet_ids = {r.get("sheetId", 0) for r in ranges}
        if len(sheet_ids) != 1:
            raise invalid("All ranges of a conditional format rule must be on the same sheet.")
        sheet = self.sheet_by_id(sheet_ids.pop())
        for rng in ranges:
            r0, r1, c0, c1 = grid_range_bounds(rng).clip(sheet.rows, sheet.cols)
            self.check_edit(sheet, r0, r1, c0, c1, who)
        condition = (rule.get("booleanRule") or {}).get("condition") or {}
        if "booleanRule" in rule and not condition.get("type"):
            raise invalid("A boolean rule requires a condition type.")
        index = body.get("index", 0)
        if not isinstance(index, int) or index < 0:
            raise invalid(f"Invalid index: {index}")
        sheet.conditional.insert(min(index, len(sheet.conditional)), rule)
        return {}

    def _r_deleteConditionalFormatRule(self, body: dict, who: str) -> dict:
        sheet = self.sheet_by_id(body.get("sheetId", 0))
        index = body.get("index", 0)
        if not isinstance(index, int) or not 0 <= index < len(sheet.conditional):
            raise invalid(f"No conditional format on sheet: {sheet.sheet_id} at index: {index}")
        self.check_sheet_edit(sheet, who)
        rule = sheet.conditional.pop(index)
        return {"deleteConditionalFormatRule": {"rule": rule}}
