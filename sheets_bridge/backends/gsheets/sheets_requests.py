"""What the gsheets backend sends and reads: spreadsheet metadata, the one batchUpdate of a book,
and the text of the cells it reads back. One file: every request of that one batchUpdate is built
from the same cached metadata and stable ids, and they must agree with each other.

Per book and stage the backend sends one read (a `spreadsheets.get` of the order tabs' values and
merged cells, or the batchUpdate that closes them and reads them) and one `spreadsheets:batchUpdate`
(write: tabs, values as stringValue/numberValue, formats, header notes, dropdowns, whole-number
validation, OK/error colours, protections, and the undoing of merges the write meets), built here from
cached metadata (`BookMeta`) by pure functions. Sheet ids and protected-range ids are derived from tab
titles (`stable_id`), and a tab's conditional formats are deleted (as many as the metadata counts)
before its own are added, so a repeated write never duplicates anything; grids are sized
absolutely, so a repeated request is harmless. Sheets has no print settings in its API: a book's
printing is left to Google's print dialog.

Google's limits (tests/fake_google/fake_limits.py cites them) are kept here: a dropdown list longer than
MAX_LIST_ITEMS becomes a ONE_OF_RANGE over a column of the book's hidden, protected list tab (LIST_TAB, written
in the same batchUpdate; `ListTab`), a text longer than MAX_CELL_CHARS is cut with a visible note, and a tab
title over MAX_TITLE characters or a grid over MAX_COLUMNS columns is refused before anything is sent.
"""
from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.russian import agree
from sheets_bridge.backends.base import BackendError, TabWrite

PROTECTION_TAG = "forumwar"
HEADER_FORMAT = {"textFormat": {"bold": True}, "wrapStrategy": "WRAP", "verticalAlignment": "MIDDLE",
                 "backgroundColorStyle": {"rgbColor": {"red": 0.85, "green": 0.89, "blue": 0.95}}}
LOCKED_FORMAT = {"backgroundColorStyle": {"rgbColor": {"red": 0.94, "green": 0.94, "blue": 0.94}}}
WRAP_FORMAT = {"wrapStrategy": "WRAP", "verticalAlignment": "TOP"}
OK_FORMAT = {"backgroundColorStyle": {"rgbColor": {"red": 0.85, "green": 0.92, "blue": 0.83}},
             "textFormat": {"foregroundColorStyle": {"rgbColor": {"red": 0.15, "green": 0.31, "blue": 0.07}}}}
ERROR_FORMAT = {"backgroundColorStyle": {"rgbColor": {"red": 0.96, "green": 0.8, "blue": 0.8}},
                "textFormat": {"foregroundColorStyle": {"rgbColor": {"red": 0.6, "green": 0.0, "blue": 0.0}}}}
NUMBER_FORMAT = {"numberFormat": {"type": "NUMBER", "pattern": "0"}}
OK_PREFIX = "OK"
DEFAULT_SHEET_TITLES = ("Sheet1", "Лист1", "Лист 1")
SHEET_FIELDS = ("properties(sheetId,title,index,gridProperties),protectedRanges(protectedRangeId,description),"
                "conditionalFormats(ranges(sheetId)),merges")
META_FIELDS = f"properties.title,sheets({SHEET_FIELDS})"
# Google's limits (see the module docstring)
MAX_LIST_ITEMS = 500             # items of a ONE_OF_LIST dropdown
MAX_CELL_CHARS = 50_000          # characters in one cell
MAX_TITLE = 100                  # characters of a tab title
MAX_COLUMNS = 18_278             # columns of a sheet (ZZZ)
CUT_NOTE = "\n… [текст обрезан: в ячейку Google Таблиц помещается не больше 50 000 знаков]"
# The hidden tab holding dropdown lists too long for ONE_OF_LIST, one per book: no layout tab starts with
# "forumwar", and tab_titles leaves it out.
LIST_TAB = "forumwar списки"
Formulas = Mapping[tuple[int, int], str]       # (0-based row, column) -> a formula's text
Merge = tuple[int, int, int, int]              # a merged range: 0-based start row, end row, start column, end column


# -- metadata -------------------------------------------------------------------------------------

@dataclass
class SheetMeta:
    sheet_id: int
    title: str
    index: int
    row_count: int
    column_count: int
    frozen_rows: int = 0
    protections: dict[int, str] = field(default_factory=dict)
    conditional_rules: int = 0          # conditional format rules on the sheet (a write replaces them all)
    merges: tuple[Merge, ...] = ()      # its merged ranges (end indexes exclusive, as in a GridRange)


@dataclass
class BookMeta:
    """What the backend remembers of a spreadsheet so it never fetches metadata per tab."""

    title: str
    sheets: dict[str, SheetMeta]

    @classmethod
    def from_resource(cls, resource: Mapping[str, Any]) -> BookMeta:
        sheets = {}
        for entry in resource.get("sheets", []):
            props = entry.get("properties", {})
            grid = props.get("gridProperties", {})
            sheets[props["title"]] = SheetMeta(
                sheet_id=int(props.get("sheetId", 0)), title=props["title"], index=int(props.get("index", 0)),
                row_count=int(grid.get("rowCount", 0)), column_count=int(grid.get("columnCount", 0)),
                frozen_rows=int(grid.get("frozenRowCount", 0)),
                protections={int(p["protectedRangeId"]): str(p.get("description", ""))
                             for p in entry.get("protectedRanges", [])},
                conditional_rules=len(entry.get("conditionalFormats", [])),
                merges=tuple(_merge(g) for g in entry.get("merges", [])))
        return cls(str(resource.get("properties", {}).get("title", "")), sheets)

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "sheets": [
            {"sheet_id": s.sheet_id, "title": s.title, "index": s.index, "row_count": s.row_count,
             "column_count": s.column_count, "frozen_rows": s.frozen_rows,
             "protections": {str(k): v for k, v in s.protections.items()},
             "conditional_rules": s.conditional_rules, "merges": [list(m) for m in s.merges]}
            for s in self.sheets.values()]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BookMeta:
        sheets = {}
        for s in data.get("sheets", []):
            sheets[s["title"]] = SheetMeta(s["sheet_id"], s["title"], s["index"], s["row_count"], s["column_count"],
                                           s.get("frozen_rows", 0),
                                           {int(k): v for k, v in s.get("protections", {}).items()},
                                           int(s.get("conditional_rules", 0)),
                                           tuple((int(r0), int(r1), int(c0), int(c1))
                                                 for r0, r1, c0, c1 in s.get("merges", [])))
        return cls(data.get("title", ""), sheets)


def _merge(grid: Mapping[str, Any]) -> Merge:
    """A merged GridRange as (start row, end row, start column, end column); a missing index is 0."""
    return (int(grid.get("startRowIndex", 0)), int(grid.get("endRowIndex", 0)),
            int(grid.get("startColumnIndex", 0)), int(grid.get("endColumnIndex", 0)))


def merge_a1(merge: Merge) -> str:
    """A merged range in A1 form: (3, 5, 0, 1) -> "A4:A5"."""
    r0, r1, c0, c1 = merge
    return f"{_column_letters(c0)}{r0 + 1}:{_column_letters(max(c1 - 1, c0))}{max(r1, r0 + 1)}"


# -- building the one batchUpdate of a book --------------------------------------------------------

def stable_id(*parts: object) -> int:
    """A positive 31-bit id derived from `parts` (Google's sheet and protected-range ids are int32)."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") % (2**31 - 2) + 1


def stable_sheet_id(title: str, taken: set[int]) -> int:
    salt = 0
    while True:
        sheet_id = stable_id("sheet", title, salt)
        if sheet_id not in taken:
            return sheet_id
        salt += 1


def cell_data(value: Any) -> dict[str, Any]:
    """A value as CellData: text is always stringValue (never a formula), numbers numberValue."""
    if value is None or value == "":
        return {}
    if isinstance(value, bool):
        return {"userEnteredValue": {"boolValue": value}}
    if isinstance(value, (int, float)) and math.isfinite(value):
        return {"userEnteredValue": {"numberValue": value}}
    return {"userEnteredValue": {"stringValue": fit_text(str(value))}}


def fit_text(text: str) -> str:
    """`text` cut to Google's MAX_CELL_CHARS, saying so in Russian at its end (a long report stays readable)."""
    if len(text) <= MAX_CELL_CHARS:
        return text
    return text[:MAX_CELL_CHARS - len(CUT_NOTE)] + CUT_NOTE


def link_cell(value: Any) -> dict[str, Any]:
    """A web address as a cell whose text is a link (TextFormat.link): still text, never a formula."""
    cell = cell_data(value)
    text = str(value or "")
    if text.startswith("https://"):
        cell["userEnteredFormat"] = {"textFormat": {"link": {"uri": text}}}
    return cell


def _runs(rows: Iterable[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for row in sorted(rows):
        if runs and row == runs[-1][-1] + 1:
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def _open_intervals(width: int, locked: Iterable[int]) -> list[tuple[int, int]]:
    closed = set(locked)
    intervals: list[tuple[int, int]] = []
    for col in range(width):
        if col in closed:
            continue
        if intervals and intervals[-1][1] == col:
            intervals[-1] = (intervals[-1][0], col + 1)
        else:
            intervals.append((col, col + 1))
    return intervals


def dropdown_items(values: Iterable[str]) -> list[str]:
    """A dropdown's items: each once, blanks left out."""
    return list(dict.fromkeys(str(v) for v in values if str(v).strip()))


def _dropdown_rule(values: Iterable[str], source: str | None = None) -> dict[str, Any] | None:
    """The validation of a dropdown: ONE_OF_LIST, or ONE_OF_RANGE over `source` (a range formula of the list
    tab, given for a list longer than MAX_LIST_ITEMS)."""
    items = dropdown_items(values)
    if source is not None:       # the cells hold every item as text, "=…" ones too
        return {"condition": {"type": "ONE_OF_RANGE", "values": [{"userEnteredValue": source}]},
                "strict": True, "showCustomUi": True}
    # Google parses a list item that starts with "=" or "+" as a formula: such items are left out.
    safe = [v for v in items if not v.startswith(("=", "+"))]
    if not safe:
        return None
    return {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": v} for v in safe]},
            "strict": len(safe) == len(items), "showCustomUi": True}


class ListTab:
    """The book's hidden list tab (LIST_TAB) in one write: a column per dropdown whose list is too long for
    ONE_OF_LIST, for staff alone to edit. Each column belongs to one (tab, column) pair, for good: a protected
    range over the column records it (its id derived from the pair, its description ending in the column's
    letters), so a later write of that tab finds and rewrites the same column, and a write of other tabs
    leaves it alone."""

    def __init__(self, meta: BookMeta, taken: set[int]):
        self.sheet = meta.sheets.get(LIST_TAB)
        self.sheet_id = self.sheet.sheet_id if self.sheet else stable_sheet_id(LIST_TAB, taken)
        self.used: dict[int, int] = {}        # protected-range id -> column, from the metadata
        for pid, description in (self.sheet.protections if self.sheet else {}).items():
            letters = description.rpartition("→ ")[2]
            if letters.isalpha() and letters.isupper():
                self.used[pid] = _column_index(letters)
        self.lists: dict[int, tuple[int, str, list[str]]] = {}   # pid -> (column, owner, items) written now

    def source(self, title: str, col: int, items: list[str]) -> str:
        """The range formula a ONE_OF_RANGE of tab `title`, column `col`, uses for `items`."""
        pid = stable_id("list", title, col)
        column = self.used.get(pid)
        if column is None:
            taken = set(self.used.values())
            column = next(c for c in range(len(taken) + 1) if c not in taken)
            self.used[pid] = column
        self.lists[pid] = (column, f"«{title}», столбец {col + 1}", items)
        letters = _column_letters(column)
        return f"={quote_title(LIST_TAB)}!${letters}$1:${letters}${len(items)}"

    def requests(self, staff: list[str]) -> list[dict[str, Any]]:
        """The list tab's part of the write (before any validation refers to it): made or grown, its columns
        written (each to the grid's end), protected."""
        if not self.lists:
            return []
        height = max(len(items) for _, _, items in self.lists.values())
        width = max(self.used.values()) + 1
        out: list[dict[str, Any]] = []
        if self.sheet is None:
            out.append({"addSheet": {"properties": {
                "sheetId": self.sheet_id, "title": LIST_TAB, "hidden": True,
                "gridProperties": {"rowCount": height, "columnCount": width}}}})
        else:
            out.extend(_grow(self.sheet, width, height))
        existing = self.sheet.protections if self.sheet else {}
        note = f"{PROTECTION_TAG}: списки для выпадающих списков, изменять их нельзя"
        protections: list[dict[str, Any]] = [{"protectedRangeId": stable_id("protect", self.sheet_id),
                                              "range": {"sheetId": self.sheet_id}, "description": note}]
        for pid, (column, owner, items) in sorted(self.lists.items(), key=lambda item: item[1][0]):
            out.append({"updateCells": {
                "range": {"sheetId": self.sheet_id, "startRowIndex": 0,
                          "startColumnIndex": column, "endColumnIndex": column + 1},
                "rows": [{"values": [{"userEnteredValue": {"stringValue": fit_text(item)}}]} for item in items],
                "fields": "userEnteredValue"}})
            protections.append({"protectedRangeId": pid, "range": {
                "sheetId": self.sheet_id, "startColumnIndex": column, "endColumnIndex": column + 1},
                "description": f"{PROTECTION_TAG}: список для {owner} → {_column_letters(column)}"})
        for prot in protections:
            prot.update({"warningOnly": False, "editors": {"users": staff}})
            if prot["protectedRangeId"] in existing:
                out.append({"updateProtectedRange": {"protectedRange": prot,
                                                     "fields": "range,description,warningOnly,editors"}})
            else:
                out.append({"addProtectedRange": {"protectedRange": prot}})
        return out


def tab_width(tab: TabWrite) -> int:
    """How many columns a write of `tab` spans (at least 1)."""
    widths = [len(tab.header or ()), *(len(r) for r in tab.rows or ()),
              *(c + 1 for c in (tab.column_updates or {})), *(c + 1 for c in tab.dropdowns),
              *(c + 1 for c in tab.locked_columns), *(c + 1 for c in tab.column_widths)]
    return max(widths + [1])


def _height(tab: TabWrite) -> int:
    heights = [tab.frozen_rows + 1, 1 + len(tab.rows or ())]
    for rows in (tab.column_updates or {}).values():
        heights.extend(rows)
    if tab.kind == "orders":
        heights.append(tab.order_rows + 1)
    return max(heights)


def plan_write(meta: BookMeta, tabs: Iterable[TabWrite], staff: Iterable[str],
               drop_default_sheet: bool = False, formulas: Mapping[str, Formulas] | None = None
               ) -> list[dict[str, Any]]:
    """The requests of the one batchUpdate that writes `tabs` to a book described by `meta`.

    `staff` (service account and GM) edit everything; a tab's `editors` also edit the open cells
    of an unlocked order tab. `formulas` (tab title -> formula cells last read there) are written
    back as their text wherever a tab with a layout keeps its cells, as the xlsx backend does, so
    a player's formula in a standing order tab never reaches a later book or the archive.
    Pure: the same inputs give the same requests.
    """
    staff = sorted(set(staff))
    tabs = list(tabs)
    check_limits(tabs)
    requests_: list[dict[str, Any]] = []
    taken = {s.sheet_id for s in meta.sheets.values()}
    lists = ListTab(meta, taken)
    taken.add(lists.sheet_id)
    sources: dict[tuple[str, int], str] = {}      # (tab, column) -> the list tab's range for a long dropdown
    for tab in tabs:
        if tab.header is None and tab.rows is None and tab.title in meta.sheets:
            continue                            # a values-only write sets no validation
        for col, values in sorted(tab.dropdowns.items()):
            items = dropdown_items(values)
            if len(items) > MAX_LIST_ITEMS:
                sources[(tab.title, col)] = lists.source(tab.title, col, items)
    requests_.extend(lists.requests(staff))
    for position, tab in enumerate(tabs):
        existing = meta.sheets.get(tab.title)
        width, height = tab_width(tab), _height(tab)
        if existing is not None and tab.header is None and tab.rows is None:
            # A values-only update (e.g. the statuses of `check`) leaves layout and protection alone.
            cells = tab.column_updates or {}
            requests_.extend(_grow(existing, max([c + 1 for c in cells] + [1]),
                                   max([r for rows in cells.values() for r in rows] + [1])))
            written = {(int(r) - 1, int(c)) for c, rows in cells.items() for r in rows}
            requests_.extend(unmerge_requests(existing, written))
            requests_.extend(statuses_below_cleared(tab, existing.sheet_id, existing.row_count))
            requests_.extend(_cell_requests(tab, existing.sheet_id, 0, 0, values_only=True))
            continue
        if existing is None:
            sheet_id = stable_sheet_id(tab.title, taken)
            taken.add(sheet_id)
            rows, cols = max(height, 100), max(width, 26)
            requests_.append({"addSheet": {"properties": {
                "sheetId": sheet_id, "title": tab.title, "index": position,
                "gridProperties": {"rowCount": rows, "columnCount": cols, "frozenRowCount": tab.frozen_rows}}}})
            protections: dict[int, str] = {}
            old_rules = 0
        else:
            sheet_id = existing.sheet_id
            rows, cols = max(height, existing.row_count), max(width, existing.column_count)
            requests_.extend(_grow(existing, width, height, tab.frozen_rows))
            requests_.extend(unmerge_requests(existing))
            protections = existing.protections
            old_rules = existing.conditional_rules
            if tab.rows is None:        # kept cells: the header and status writes below still win
                requests_.extend(_formulas_as_text(sheet_id, (formulas or {}).get(tab.title, {})))
                requests_.extend(statuses_below_cleared(tab, sheet_id, existing.row_count))
        requests_.extend(_cell_requests(tab, sheet_id, rows, cols, sources=sources))
        requests_.extend(status_colour_requests(tab, sheet_id, old_rules))
        requests_.extend(protection_requests(tab, sheet_id, width, protections, staff))
    default = meta.sheets.get(next((t for t in DEFAULT_SHEET_TITLES if t in meta.sheets), ""))
    if drop_default_sheet and default is not None and default.title not in {t.title for t in tabs} and tabs:
        requests_.append({"deleteSheet": {"sheetId": default.sheet_id}})
    return requests_


def check_limits(tabs: Iterable[TabWrite]) -> None:
    """Refuse, in Russian and before anything is sent, a write Google would refuse whole: a tab title over
    MAX_TITLE characters (cutting it would lose the tab the next read looks for), the list tab's own title,
    or a tab wider than MAX_COLUMNS."""
    for tab in tabs:
        if tab.title == LIST_TAB:
            raise BackendError(f"Название вкладки «{LIST_TAB}» занято: в нём forumwar хранит длинные выпадающие "
                               "списки. Переименуйте вкладку в раскладке игры.")
        if len(tab.title) > MAX_TITLE:
            longer = agree(MAX_TITLE, "знак", "gent")
            raise BackendError(f"Название вкладки «{tab.title[:40]}…» длиннее {longer} ({len(tab.title)}): "
                               "Google Таблицы такое не примут. Сократите его в раскладке игры.")
        if tab_width(tab) > MAX_COLUMNS:
            raise BackendError(f"Во вкладке «{tab.title}» {agree(tab_width(tab), 'столбец')}, а в Google Таблицах их "
                               f"не больше {MAX_COLUMNS}.")


def statuses_below_cleared(tab: TabWrite, sheet_id: int, grid_rows: int) -> list[dict[str, Any]]:
    """An order tab's status cells below its order rows cleared, before the write sets the ones still due
    (`TabWrite.clear_statuses_below`: the bridge's statuses of rows past the limit); none when the grid (of
    `grid_rows` rows) ends at the order rows."""
    first = tab.order_rows + 1              # 0-based: the first row below the order rows
    if not (tab.kind == "orders" and tab.clear_statuses_below and tab.status_column is not None) or grid_rows <= first:
        return []
    return [{"updateCells": {"range": {"sheetId": sheet_id, "startRowIndex": first,        # to the grid's end
                                       "startColumnIndex": tab.status_column, "endColumnIndex": tab.status_column + 1},
                             "fields": "userEnteredValue"}}]


def unmerge_requests(sheet: SheetMeta, cells: Iterable[tuple[int, int]] | None = None) -> list[dict[str, Any]]:
    """Undo the sheet's merges that a write meets: all of them (one unmergeCells over the whole sheet,
    which never spans a merge partly) for a write with the tab's layout, else each merge holding one of
    `cells` (0-based row, column), the ones a values-only write sets. An order row spread over a merge is
    not read (E_MERGED_CELLS): the player gets the cells back one by one."""
    if not sheet.merges:
        return []
    if cells is None:
        return [{"unmergeCells": {"range": {"sheetId": sheet.sheet_id}}}]
    wanted = set(cells)
    out = []
    for r0, r1, c0, c1 in sheet.merges:
        if any(r0 <= r < r1 and c0 <= c < c1 for r, c in wanted):
            out.append({"unmergeCells": {"range": {"sheetId": sheet.sheet_id, "startRowIndex": r0, "endRowIndex": r1,
                                                   "startColumnIndex": c0, "endColumnIndex": c1}}})
    return out


def _grow(sheet: SheetMeta, width: int, height: int, frozen_rows: int | None = None) -> list[dict[str, Any]]:
    """One updateSheetProperties setting the grid's absolute size (grown, never shrunk, so the
    writes fit) and, if given, its frozen rows. Absolute sizes make a repeated request harmless
    (appendDimension applied twice after a lost answer would grow the grid twice)."""
    grid: dict[str, int] = {}
    if frozen_rows is not None:
        grid["frozenRowCount"] = frozen_rows
    if height > sheet.row_count:
        grid["rowCount"] = height
    if width > sheet.column_count:
        grid["columnCount"] = width
    if not grid:
        return []
    return [{"updateSheetProperties": {"properties": {"sheetId": sheet.sheet_id, "gridProperties": grid},
                                       "fields": ",".join(f"gridProperties.{k}" for k in grid)}}]


def _formulas_as_text(sheet_id: int, cells: Formulas) -> list[dict[str, Any]]:
    """updateCells rewriting formula cells below the header as stringValue, one per run of a row."""
    by_row: dict[int, dict[int, str]] = {}
    for (row, col), text in cells.items():
        if row >= 1:            # the header row is rewritten whole anyway
            by_row.setdefault(row, {})[col] = text
    out = []
    for row, cols in sorted(by_row.items()):
        for run in _runs(cols):
            out.append({"updateCells": {
                "start": {"sheetId": sheet_id, "rowIndex": row, "columnIndex": run[0]},
                "rows": [{"values": [{"userEnteredValue": {"stringValue": cols[c]}} for c in run]}],
                "fields": "userEnteredValue"}})
    return out


def _cell_requests(tab: TabWrite, sheet_id: int, rows: int, cols: int, values_only: bool = False,
                   sources: Mapping[tuple[str, int], str] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if tab.header is not None:
        header = [{**cell_data(v), "userEnteredFormat": HEADER_FORMAT,
                   **({"note": tab.notes[i]} if tab.notes.get(i) else {})} for i, v in enumerate(tab.header)]
        out.append({"updateCells": {
            "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0},
            "rows": [{"values": header}], "fields": "userEnteredValue,userEnteredFormat,note"}})
    if tab.rows is not None and tab.link_columns:
        out.append({"updateCells": {
            "range": {"sheetId": sheet_id, "startRowIndex": 1, "startColumnIndex": 0},
            "rows": [{"values": [link_cell(v) if c in tab.link_columns else cell_data(v) for c, v in enumerate(row)]}
                     for row in tab.rows], "fields": "userEnteredValue,userEnteredFormat.textFormat.link"}})
    elif tab.rows is not None:
        out.append({"updateCells": {
            "range": {"sheetId": sheet_id, "startRowIndex": 1, "startColumnIndex": 0},
            "rows": [{"values": [cell_data(v) for v in row]} for row in tab.rows], "fields": "userEnteredValue"}})
    for col, cells in sorted((tab.column_updates or {}).items()):
        for run in _runs(cells):
            out.append({"updateCells": {
                "start": {"sheetId": sheet_id, "rowIndex": run[0] - 1, "columnIndex": col},
                "rows": [{"values": [cell_data(cells[row])]} for row in run], "fields": "userEnteredValue"}})
    if values_only:
        return out
    if tab.kind == "orders" or tab.dropdowns:
        end = max(tab.order_rows if tab.kind == "orders" else 0, len(tab.rows or ())) + 1
        out.append({"setDataValidation": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": rows,
                                                    "startColumnIndex": 0, "endColumnIndex": cols}}})
        for col, values in sorted(tab.dropdowns.items()):
            rule = _dropdown_rule(values, (sources or {}).get((tab.title, col)))
            if rule is not None:
                out.append({"setDataValidation": {"range": {
                    "sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                    "startColumnIndex": col, "endColumnIndex": col + 1}, "rule": rule}})
        for col, minimum in sorted(tab.numbers.items()):
            if col in tab.dropdowns:
                continue
            out.append({"setDataValidation": {"range": {
                "sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                "startColumnIndex": col, "endColumnIndex": col + 1}, "rule": whole_number_rule(col, minimum)}})
        for col in tab.locked_columns:
            out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                                                 "startColumnIndex": col, "endColumnIndex": col + 1},
                                       "cell": {"userEnteredFormat": LOCKED_FORMAT},
                                       "fields": "userEnteredFormat.backgroundColorStyle"}})
        if tab.kind == "orders":
            # Plain-text cells, as the xlsx backend's "@": what a player types stays text ("05", "=1+1");
            # whole-number columns are numbers.
            for a, b in _open_intervals(tab_width(tab), (*tab.locked_columns, *tab.numbers)):
                out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                                                     "startColumnIndex": a, "endColumnIndex": b},
                                           "cell": {"userEnteredFormat": {"numberFormat": {"type": "TEXT"}}},
                                           "fields": "userEnteredFormat.numberFormat"}})
            for col in sorted(tab.numbers):
                out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                                                     "startColumnIndex": col, "endColumnIndex": col + 1},
                                           "cell": {"userEnteredFormat": NUMBER_FORMAT},
                                           "fields": "userEnteredFormat.numberFormat"}})
    wrap_end = max(tab.order_rows if tab.kind == "orders" else 0, len(tab.rows or ())) + 1
    for col in sorted(set(tab.wrap_columns)):
        out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": wrap_end,
                                             "startColumnIndex": col, "endColumnIndex": col + 1},
                                   "cell": {"userEnteredFormat": WRAP_FORMAT},
                                   "fields": "userEnteredFormat.wrapStrategy,userEnteredFormat.verticalAlignment"}})
    for col, chars in sorted(tab.column_widths.items()):
        out.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": col, "endIndex": col + 1},
            "properties": {"pixelSize": int(chars * 7 + 12)}, "fields": "pixelSize"}})
    return out


def whole_number_rule(col: int, minimum: int | None) -> dict[str, Any]:
    """Validation of a whole-number column (at least `minimum`; None: any sign), from its row 2.
    The formula has no argument separator, so it reads the same in every spreadsheet locale."""
    cell = f"{_column_letters(col)}2"
    formula = f"=INT({cell})={cell}" if minimum is None else f"=(INT({cell})={cell})*({cell}>={minimum})"
    message = ("Целое число, например 100 или -50." if minimum is None
               else f"Целое число не меньше {minimum}, например 12.")
    return {"condition": {"type": "CUSTOM_FORMULA", "values": [{"userEnteredValue": formula}]},
            "inputMessage": message, "strict": True}


def _column_index(letters: str) -> int:
    """A1 letters as a 0-based column index (A -> 0, AA -> 26)."""
    col = 0
    for ch in letters:
        col = col * 26 + ord(ch) - 64
    return col - 1


def _column_letters(col: int) -> str:
    """A 0-based column index as A1 letters (0 -> A, 26 -> AA)."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def status_colour_requests(tab: TabWrite, sheet_id: int, old_rules: int) -> list[dict[str, Any]]:
    """Replace the sheet's conditional formats (the `old_rules` the metadata counts) with the tab's
    own: in its status column, text starting with OK green, any other text red."""
    out: list[dict[str, Any]] = [{"deleteConditionalFormatRule": {"sheetId": sheet_id, "index": 0}}
                                 for _ in range(old_rules)]
    if tab.status_column is None:
        return out
    end = max(tab.order_rows if tab.kind == "orders" else 0, len(tab.rows or ())) + 1
    ranges = [{"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": max(end, 2),
               "startColumnIndex": tab.status_column, "endColumnIndex": tab.status_column + 1}]
    rules = [({"type": "TEXT_STARTS_WITH", "values": [{"userEnteredValue": OK_PREFIX}]}, OK_FORMAT),
             ({"type": "NOT_BLANK"}, ERROR_FORMAT)]
    for index, (condition, fmt) in enumerate(rules):
        out.append({"addConditionalFormatRule": {"index": index, "rule": {
            "ranges": ranges, "booleanRule": {"condition": condition, "format": fmt}}}})
    return out


def protection_requests(tab: TabWrite, sheet_id: int, width: int, existing: Mapping[int, str],
                        staff: list[str]) -> list[dict[str, Any]]:
    """The tab's protections: the sheet for `staff` (with the order cells as holes, unless the tab
    is locked), each hole for staff and the tab's editors; stale forumwar protections deleted."""
    sheet_pid = stable_id("protect", sheet_id)
    first_open_row, end_row = max(1, tab.frozen_rows), tab.order_rows + 1   # header + the order rows
    open_tab = tab.kind == "orders" and not tab.locked and end_row > first_open_row
    intervals = _open_intervals(width, tab.locked_columns) if open_tab else []
    if tab.kind != "orders":
        note = f"{PROTECTION_TAG}: лист заполняет мастер, изменять его нельзя"
    elif tab.locked:
        note = f"{PROTECTION_TAG}: приём приказов закрыт, идёт обработка хода"
    else:
        note = f"{PROTECTION_TAG}: заголовок и статусы заполняет мастер"
    holes = [{"sheetId": sheet_id, "startRowIndex": first_open_row, "endRowIndex": end_row,
              "startColumnIndex": a, "endColumnIndex": b} for a, b in intervals]
    desired: list[dict[str, Any]] = [{"protectedRangeId": sheet_pid, "range": {"sheetId": sheet_id},
                                      "description": note, "warningOnly": False, "editors": {"users": staff},
                                      "unprotectedRanges": holes}]
    players = sorted(set(staff) | set(tab.editors))
    for k, hole in enumerate(holes):
        desired.append({"protectedRangeId": stable_id("open", sheet_id, k), "range": hole,
                        "description": f"{PROTECTION_TAG}: приказы фракции", "warningOnly": False,
                        "editors": {"users": players}})
    out: list[dict[str, Any]] = []
    for prot in desired:
        if prot["protectedRangeId"] in existing:
            out.append({"updateProtectedRange": {
                "protectedRange": prot, "fields": "range,description,warningOnly,editors,unprotectedRanges"}})
        else:
            out.append({"addProtectedRange": {"protectedRange": prot}})
    wanted = {p["protectedRangeId"] for p in desired}
    for pid, description in sorted(existing.items()):
        if description.startswith(PROTECTION_TAG) and pid not in wanted:
            out.append({"deleteProtectedRange": {"protectedRangeId": pid}})
    return out


def lock_requests(sheet: SheetMeta, staff: list[str]) -> list[dict[str, Any]]:
    """Close an order tab: its sheet protection loses its holes, the players' open ranges go."""
    pid = stable_id("protect", sheet.sheet_id)
    prot = {"protectedRangeId": pid, "range": {"sheetId": sheet.sheet_id}, "unprotectedRanges": [],
            "description": f"{PROTECTION_TAG}: приём приказов закрыт, идёт обработка хода",
            "warningOnly": False, "editors": {"users": staff}}
    out: list[dict[str, Any]] = [{"updateProtectedRange": {"protectedRange": prot,
                                                 "fields": "unprotectedRanges,description,warningOnly,editors"}}
                       if pid in sheet.protections else {"addProtectedRange": {"protectedRange": prot}}]
    for other, description in sorted(sheet.protections.items()):
        if other != pid and description.startswith(PROTECTION_TAG):
            out.append({"deleteProtectedRange": {"protectedRangeId": other}})
    return out


# -- reading ----------------------------------------------------------------------------------------

def user_entered(value: dict[str, Any] | None) -> Any:
    """A userEnteredValue as the values API renders it with valueRenderOption=FORMULA."""
    if not value:
        return ""
    if "formulaValue" in value:
        return value["formulaValue"]
    if "numberValue" in value:
        return value["numberValue"]
    if "boolValue" in value:
        return value["boolValue"]
    return value.get("stringValue", value.get("errorValue", ""))


def _text(value: Any) -> str:
    """A cell value as text, exactly as the xlsx backend renders it (5.0 -> "5", 2.5 -> "2.5")."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        exact = math.isfinite(value) and value.is_integer() and abs(value) < 2 ** 53   # 1e308 -> "1e+308"
        return str(int(value)) if exact else repr(value)
    return str(value)


def grid_tabs(sheets: Iterable[Mapping[str, Any]]) -> dict[str, tuple[list[list[dict[str, Any]]], list[str]]]:
    """Tab title -> (its cells' userEnteredValue row by row, its merged ranges in A1 form), from the sheets
    of a Spreadsheet resource read with grid data of whole tabs."""
    out = {}
    for entry in sheets:
        rows = ((entry.get("data") or [{}])[0]).get("rowData", [])
        values = [[cell.get("userEnteredValue") or {} for cell in row.get("values", [])] for row in rows]
        merges = sorted((_merge(g) for g in entry.get("merges", [])), key=lambda m: (m[0], m[2], m))
        out[str(entry["properties"]["title"])] = (values, [merge_a1(m) for m in merges])
    return out


def text_rows(values: list[list[Any]]) -> list[list[str]]:
    """A ValueRange's rows as text; like the xlsx backend, blank cells at a row's end and blank
    rows at the end are left out (Google already trims them)."""
    rows = [[_text(v) for v in row] for row in values]
    for row in rows:
        while row and row[-1] == "":
            row.pop()
    while rows and not rows[-1]:
        rows.pop()
    return rows


def quote_title(title: str) -> str:
    return "'" + title.replace("'", "''") + "'"


def grid_size(a1: str) -> tuple[int, int] | None:
    """(rows, cols) from an echoed whole-sheet range such as "'Армии'!A1:Z1000"."""
    cells = a1.rpartition("!")[2]
    if not cells.startswith("A1:"):
        return None
    end = cells[3:]
    letters = "".join(ch for ch in end if ch.isalpha())
    digits = "".join(ch for ch in end if ch.isdigit())
    if not letters or not digits:
        return None
    col = 0
    for ch in letters.upper():
        col = col * 26 + ord(ch) - 64
    return int(digits), col


__all__ = ["SheetMeta", "BookMeta", "Formulas", "stable_id", "stable_sheet_id", "cell_data", "plan_write",
           "protection_requests", "lock_requests", "tab_width", "user_entered", "text_rows", "quote_title",
           "grid_size", "status_colour_requests", "whole_number_rule", "PROTECTION_TAG", "DEFAULT_SHEET_TITLES",
           "META_FIELDS", "SHEET_FIELDS", "Merge", "merge_a1", "unmerge_requests", "grid_tabs", "LIST_TAB",
           "MAX_LIST_ITEMS", "MAX_CELL_CHARS", "MAX_TITLE", "MAX_COLUMNS", "fit_text", "ListTab", "check_limits",
           "dropdown_items"]
