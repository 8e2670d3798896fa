"""Google's limits on a spreadsheet, enforced by the fake as Google does (issue 39 §3): a request past one
gets Google's 400 INVALID_ARGUMENT, so a bridge that would fail at Google fails in the tests too.

Where each limit comes from:

- 10 million cells per spreadsheet, 18,278 columns (column ZZZ), 50,000 characters in a cell: Google Drive
  Help, "Files you can store in Google Drive" (https://support.google.com/drive/answer/37603); the raise to
  ten million cells: https://workspaceupdates.googleblog.com/2022/03/ten-million-cells-google-sheets.html.
  Google's own words for two of them, as real answers quote them: "This action would increase the number
  of cells in the workbook above the limit of 10000000 cells." (https://github.com/nithinmurali/pygsheets/
  issues/589) and "Your input contains more than the maximum of 50000 characters in a single cell."
  (https://github.com/freelabz/secator/issues/96, https://github.com/moevm/github_repo_commitment_calc/
  issues/67).
- A sheet's name: at most 100 characters (https://github.com/getodk/collect/issues/2918, whose fix shortens
  names for Google; https://github.com/hildogjr/KiCost/issues/52: "Google Spreadsheet is <=100").
- GridRange: "The start index must always be less than or equal to the end index" (the GridRange schema of
  the Sheets v4 discovery document, discovery_documents/sheets.v4.json; REST reference
  https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/other#GridRange).
- ONE_OF_LIST: at most 500 items (the limit of Sheets' "Dropdown" list as issue 39 states it; the discovery
  document only says "an arbitrary number", and no stored public source states the number: see the report
  of issue 39 §3). A longer list is a ONE_OF_RANGE over cells.
- Protection editors must be Google accounts, as a Drive share must (fake_drive's invalidSharingRequest); an
  address invited by a notified share holds a permission and counts as one (fake_google's `_strangers`).

The wording of the messages Google's answers were not found for (the title, columns, list and editor
limits) follows the shape of the ones quoted above; tests assert the shape and the limit, not the words.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tests.fake_google.fake_errors import invalid

MAX_CELLS = 10_000_000
MAX_COLUMNS = 18_278
MAX_CELL_CHARS = 50_000
MAX_TITLE = 100
MAX_LIST_ITEMS = 500
CELL_TEXT_MESSAGE = f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters in a single cell."
_TEXT_KINDS = ("stringValue", "formulaValue")
_PAIRS = (("startRowIndex", "endRowIndex"), ("startColumnIndex", "endColumnIndex"), ("startIndex", "endIndex"))


def check_title(title: str) -> None:
    if len(title) > MAX_TITLE:
        raise invalid(f"The sheet name \"{title[:30]}…\" is {len(title)} characters long; "
                      f"sheet names can be at most {MAX_TITLE} characters.")


def check_text(uev: dict | None) -> None:
    """A userEnteredValue whose text is over 50,000 characters."""
    for kind in _TEXT_KINDS:
        text = (uev or {}).get(kind)
        if isinstance(text, str) and len(text) > MAX_CELL_CHARS:
            raise invalid(CELL_TEXT_MESSAGE)


def check_ranges(value: Any) -> None:
    """Every GridRange (and DimensionRange) in a request body: a start after its end is refused."""
    if isinstance(value, dict):
        for start, end in _PAIRS:
            a, b = value.get(start), value.get(end)
            if isinstance(a, int) and isinstance(b, int) and a > b:
                raise invalid(f"Invalid range: {start} ({a}) must be less than or equal to {end} ({b}).")
        for item in value.values():
            check_ranges(item)
    elif isinstance(value, list):
        for item in value:
            check_ranges(item)


def check_condition(condition: dict) -> None:
    """A data validation condition: ONE_OF_LIST takes at most 500 items."""
    values = condition.get("values") or []
    if condition.get("type") == "ONE_OF_LIST" and len(values) > MAX_LIST_ITEMS:
        raise invalid(f"ONE_OF_LIST data validation can have at most {MAX_LIST_ITEMS} items; "
                      f"this rule has {len(values)}.")


def check_size(grids: Iterable[tuple[str, int, int]]) -> None:
    """The sheets' (title, rows, columns): over 18,278 columns in a sheet, or 10 million cells in the book."""
    total = 0
    for title, rows, cols in grids:
        if cols > MAX_COLUMNS:
            raise invalid(f"This action would increase the number of columns in sheet \"{title}\" above the "
                          f"limit of {MAX_COLUMNS} columns.")
        total += rows * cols
    if total > MAX_CELLS:
        raise invalid(f"This action would increase the number of cells in the workbook above the limit of "
                      f"{MAX_CELLS} cells.")


def check_editors(prot: dict, no_account: Iterable[str]) -> None:
    """A protection naming an editor who has no Google account."""
    users = {str(u).lower() for u in (prot.get("editors") or {}).get("users") or ()}
    strangers = sorted(users & {e.lower() for e in no_account})
    if strangers:
        raise invalid(f"The editor {strangers[0]} of the protected range has no Google account. Editors of a "
                      "protected range must be Google accounts.")
