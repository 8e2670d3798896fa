"""The gsheets backend: books are Google spreadsheets, reached through gspread.

Per book and stage it sends one `values:batchGet` (read) and one `spreadsheets:batchUpdate`
(write: tabs, values as stringValue/numberValue, formats, dropdowns, protections). Sheet ids
and protected-range ids are derived from tab titles, so a repeated write never duplicates
anything. Spreadsheet metadata is cached (in memory, optionally in a JSON file) and refreshed
from every write's answer; a 400 caused by stale metadata triggers one refresh and one retry.

The HTTP layer (`ResilientHTTPClient`) adds a timeout, bounded jittered retries on 429/5xx,
connection errors and Google's rate-limit 403s (Retry-After honoured; other 400/403/404 never
retried) and client-side pacing under the per-minute quota. The pacing budget of a real game is
kept in a small locked file per service account, so every forumwar command of the machine and
every thread shares it. Every write is idempotent: grids are sized absolutely, and a spreadsheet
create carries a marker (Drive appProperties) by which a retry finds the file it already made.
"""
from __future__ import annotations

import collections
import contextlib
import email.utils
import fcntl
import functools
import hashlib
import json
import math
import os
import random
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import gspread
import requests
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient, ParamsType
from gspread.urls import (
    DRIVE_FILES_API_V3_URL,
    SPREADSHEET_BATCH_UPDATE_URL,
    SPREADSHEET_URL,
    SPREADSHEET_VALUES_BATCH_URL,
)
from gspread.utils import ExportFormat, extract_id_from_url

from sheets_bridge.backend import BackendError, BookRef, TabWrite
from sheets_bridge.google_auth import (
    ApiUnavailableError,
    BookRejected,
    ServiceAccount,
    book_url,
    explain,
    explain_refresh,
    load_service_account,
)

PROTECTION_TAG = "forumwar"
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# 403s that mean "slow down", not "forbidden" (Drive): retried like a 429.
RETRY_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded", "sharingRateLimitExceeded"})
CREATE_MARKER = "forumwarCreate"       # Drive appProperties key carrying the create's token
HEADER_FORMAT = {"textFormat": {"bold": True}, "wrapStrategy": "WRAP", "verticalAlignment": "MIDDLE",
                 "backgroundColorStyle": {"rgbColor": {"red": 0.85, "green": 0.89, "blue": 0.95}}}
LOCKED_FORMAT = {"backgroundColorStyle": {"rgbColor": {"red": 0.94, "green": 0.94, "blue": 0.94}}}
DEFAULT_SHEET_TITLES = ("Sheet1", "Лист1", "Лист 1")
_ROLE_RU = {"reader": "чтение", "writer": "редактирование", "commenter": "комментирование", "owner": "владелец",
            "fileOrganizer": "упорядочивание", "organizer": "управление"}
_META_FIELDS = ("properties.title,sheets(properties(sheetId,title,index,gridProperties),"
                "protectedRanges(protectedRangeId,description))")
Formulas = Mapping[tuple[int, int], str]       # (0-based row, column) -> a formula's text


# -- HTTP: pacing and retries --------------------------------------------------------------------

@dataclass(frozen=True)
class RetryPolicy:
    """How hard to try one request: `attempts` in all, exponential jittered delays between them."""

    attempts: int = 7
    base_delay: float = 1.0
    max_delay: float = 32.0
    max_retry_after: float = 120.0
    timeout: tuple[float, float] = (10.0, 60.0)

    def delay(self, attempt: int, rng: random.Random, retry_after: float | None = None) -> float:
        """Seconds to wait after failed attempt number `attempt` (0-based): "equal jitter", at least
        the server's Retry-After (capped)."""
        cap = min(self.max_delay, self.base_delay * 2 ** attempt)
        wait = cap / 2 + rng.uniform(0, cap / 2)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after))
        return wait


class RequestPacer:
    """At most `reads` GETs and `writes` other requests in any `window` seconds, across threads.

    With `path` the budget lives in that small JSON file under an exclusive fcntl lock, so every
    process using the same file (every forumwar command of the machine) shares it; without, it
    is this process's own. Send times from another clock epoch (after a reboot) are dropped.
    """

    def __init__(self, reads: int = 55, writes: int = 55, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 path: str | Path | None = None):
        self.limits = {"read": reads, "write": writes}
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self.path = Path(path) if path is not None else None
        self._sent: dict[str, list[float]] = {"read": [], "write": []}
        self._lock = threading.Lock()
        self.waited = 0.0

    def acquire(self, kind: str) -> None:
        """Wait until one more request of `kind` fits in the window, and count it."""
        while True:
            with self._lock, self._budget() as sent:
                now = self.clock()
                times = sorted(t for t in sent.get(kind, []) if now - self.window < t <= now)
                if len(times) < self.limits[kind]:
                    sent[kind] = [*times, now]
                    return
                sent[kind] = times
                wait = times[0] + self.window - now
                self.waited += wait
            self.sleep(wait)

    @contextlib.contextmanager
    def _budget(self) -> Iterator[dict[str, list[float]]]:
        if self.path is None:
            yield self._sent
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with os.fdopen(os.dup(fd), "r+", encoding="utf-8") as fh:
                try:
                    data = json.loads(fh.read() or "{}")
                    sent = {k: [float(t) for t in data.get(k, [])] for k in self.limits}
                except (ValueError, TypeError, AttributeError):
                    sent = {k: [] for k in self.limits}
                yield sent
                fh.seek(0)
                fh.truncate()
                fh.write(json.dumps(sent))
        finally:
            os.close(fd)        # closing the last descriptor releases the lock


def quota_file(service_email: str) -> Path:
    """The shared pacing budget of one service account: $FORUMWAR_CACHE_DIR, else the user cache
    dir ($XDG_CACHE_HOME or ~/.cache)/forumwar, one small file per account."""
    base = os.environ.get("FORUMWAR_CACHE_DIR") or Path(
        os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "forumwar"
    digest = hashlib.sha256(service_email.lower().encode("utf-8")).hexdigest()[:16]
    return Path(base) / f"sheets-quota-{digest}.json"


@dataclass
class RequestStats:
    """Requests sent (by "METHOD kind"), retries made and seconds slept; thread-safe."""

    sent: collections.Counter = field(default_factory=collections.Counter)
    retries: int = 0
    slept: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def total(self) -> int:
        with self.lock:
            return sum(self.sent.values())


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value)
        return max(0.0, parsed.timestamp() - time.time()) if parsed else None


def error_reasons(response: requests.Response) -> set[str]:
    """The `reason`s of a Google error answer (Drive: error.errors[].reason; Sheets: details[].reason)."""
    try:
        error = response.json().get("error", {})
    except ValueError:
        return set()
    if not isinstance(error, dict):
        return set()
    items = [*(error.get("errors") or []), *(error.get("details") or [])]
    return {str(i["reason"]) for i in items if isinstance(i, dict) and i.get("reason")}


def _retryable(response: requests.Response) -> bool:
    if response.status_code in RETRY_STATUSES:
        return True
    return response.status_code == 403 and bool(error_reasons(response) & RETRY_REASONS)


class ResilientHTTPClient(HTTPClient):
    """gspread's HTTPClient with timeout, pacing and bounded retries. Build it with `http_client_factory`."""

    policy: RetryPolicy = RetryPolicy()
    pacer: RequestPacer | None = None
    sleep: Callable[[float], None] = staticmethod(time.sleep)
    rng: random.Random = random.Random()
    stats: RequestStats | None = None

    def __init__(self, auth: Any, session: requests.Session | None = None):
        super().__init__(auth, session)
        self.timeout = self.policy.timeout

    def request(self, method: str, endpoint: str, params: Any = None, data: Any = None, json: Any = None,
                files: Any = None, headers: Any = None, *,
                recover: Callable[[], requests.Response | None] | None = None) -> requests.Response:
        """Send with pacing and bounded retries. Before re-sending a request that may have been applied
        (lost answer, 5xx), `recover()` is asked first: a Response it returns is taken as the answer."""
        kind = "read" if method.lower() == "get" else "write"
        maybe_applied = False
        for attempt in range(self.policy.attempts):
            last = attempt == self.policy.attempts - 1
            if maybe_applied and recover is not None:
                found = recover()
                if found is not None:
                    return found
            if self.pacer is not None:
                self.pacer.acquire(kind)
            self._count(f"{method.upper()} {kind}")
            try:
                response = self.session.request(method=method, url=endpoint, json=json, params=params, data=data,
                                                files=files, headers=headers, timeout=self.timeout)
            except (requests.ConnectionError, requests.Timeout):
                if last:
                    raise
                maybe_applied = True
                self._wait(self.policy.delay(attempt, self.rng))
                continue
            if response.ok:
                return response
            if not _retryable(response) or last:
                raise APIError(response)
            maybe_applied = response.status_code >= 500
            self._wait(self.policy.delay(attempt, self.rng, _retry_after(response)))
        raise AssertionError("unreachable")

    def _count(self, key: str) -> None:
        if self.stats is not None:
            with self.stats.lock:
                self.stats.sent[key] += 1

    def _wait(self, seconds: float) -> None:
        if self.stats is not None:
            with self.stats.lock:
                self.stats.retries += 1
                self.stats.slept += seconds
        self.sleep(seconds)


def http_client_factory(policy: RetryPolicy = RetryPolicy(), pacer: RequestPacer | None = None,
                        sleep: Callable[[float], None] = time.sleep, rng: random.Random | None = None,
                        stats: RequestStats | None = None) -> type[ResilientHTTPClient]:
    """A ResilientHTTPClient subclass bound to these settings, for `gspread.Client(http_client=...)`."""
    return type("BoundResilientHTTPClient", (ResilientHTTPClient,), {
        "policy": policy, "pacer": pacer if pacer is not None else RequestPacer(),
        "sleep": staticmethod(sleep), "rng": rng or random.Random(), "stats": stats or RequestStats()})


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
                             for p in entry.get("protectedRanges", [])})
        return cls(str(resource.get("properties", {}).get("title", "")), sheets)

    def to_json(self) -> dict:
        return {"title": self.title, "sheets": [
            {"sheet_id": s.sheet_id, "title": s.title, "index": s.index, "row_count": s.row_count,
             "column_count": s.column_count, "frozen_rows": s.frozen_rows,
             "protections": {str(k): v for k, v in s.protections.items()}} for s in self.sheets.values()]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BookMeta:
        sheets = {}
        for s in data.get("sheets", []):
            sheets[s["title"]] = SheetMeta(s["sheet_id"], s["title"], s["index"], s["row_count"], s["column_count"],
                                           s.get("frozen_rows", 0),
                                           {int(k): v for k, v in s.get("protections", {}).items()})
        return cls(data.get("title", ""), sheets)


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


def cell_data(value: Any) -> dict:
    """A value as CellData: text is always stringValue (never a formula), numbers numberValue."""
    if value is None or value == "":
        return {}
    if isinstance(value, bool):
        return {"userEnteredValue": {"boolValue": value}}
    if isinstance(value, (int, float)) and math.isfinite(value):
        return {"userEnteredValue": {"numberValue": value}}
    return {"userEnteredValue": {"stringValue": str(value)}}


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


def _dropdown_rule(values: Iterable[str]) -> dict | None:
    items = list(dict.fromkeys(str(v) for v in values if str(v).strip()))
    # Google parses a list item that starts with "=" or "+" as a formula: such items are left out.
    safe = [v for v in items if not v.startswith(("=", "+"))]
    if not safe:
        return None
    return {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": v} for v in safe]},
            "strict": len(safe) == len(items), "showCustomUi": True}


def _width(tab: TabWrite) -> int:
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
               drop_default_sheet: bool = False, formulas: Mapping[str, Formulas] | None = None) -> list[dict]:
    """The requests of the one batchUpdate that writes `tabs` to a book described by `meta`.

    `staff` (service account and GM) edit everything; a tab's `editors` also edit the open cells
    of an unlocked order tab. `formulas` (tab title -> formula cells last read there) are written
    back as their text wherever a tab with a layout keeps its cells, as the xlsx backend does, so
    a player's formula in a standing order tab never reaches a later book or the archive.
    Pure: the same inputs give the same requests.
    """
    staff = sorted(set(staff))
    tabs = list(tabs)
    requests_: list[dict] = []
    taken = {s.sheet_id for s in meta.sheets.values()}
    for position, tab in enumerate(tabs):
        existing = meta.sheets.get(tab.title)
        width, height = _width(tab), _height(tab)
        if existing is not None and tab.header is None and tab.rows is None:
            # A values-only update (e.g. the statuses of `check`) leaves layout and protection alone.
            cells = tab.column_updates or {}
            requests_.extend(_grow(existing, max([c + 1 for c in cells] + [1]),
                                   max([r for rows in cells.values() for r in rows] + [1])))
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
        else:
            sheet_id = existing.sheet_id
            rows, cols = max(height, existing.row_count), max(width, existing.column_count)
            requests_.extend(_grow(existing, width, height, tab.frozen_rows))
            protections = existing.protections
            if tab.rows is None:        # kept cells: the header and status writes below still win
                requests_.extend(_formulas_as_text(sheet_id, (formulas or {}).get(tab.title, {})))
        requests_.extend(_cell_requests(tab, sheet_id, rows, cols))
        requests_.extend(_protection_requests(tab, sheet_id, width, protections, staff))
    default = meta.sheets.get(next((t for t in DEFAULT_SHEET_TITLES if t in meta.sheets), ""))
    if drop_default_sheet and default is not None and default.title not in {t.title for t in tabs} and tabs:
        requests_.append({"deleteSheet": {"sheetId": default.sheet_id}})
    return requests_


def _grow(sheet: SheetMeta, width: int, height: int, frozen_rows: int | None = None) -> list[dict]:
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


def _formulas_as_text(sheet_id: int, cells: Formulas) -> list[dict]:
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


def _cell_requests(tab: TabWrite, sheet_id: int, rows: int, cols: int, values_only: bool = False) -> list[dict]:
    out: list[dict] = []
    if tab.header is not None:
        header = [{**cell_data(v), "userEnteredFormat": HEADER_FORMAT} for v in tab.header]
        out.append({"updateCells": {
            "range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0},
            "rows": [{"values": header}], "fields": "userEnteredValue,userEnteredFormat"}})
    if tab.rows is not None:
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
            rule = _dropdown_rule(values)
            if rule is not None:
                out.append({"setDataValidation": {"range": {
                    "sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                    "startColumnIndex": col, "endColumnIndex": col + 1}, "rule": rule}})
        for col in tab.locked_columns:
            out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                                                 "startColumnIndex": col, "endColumnIndex": col + 1},
                                       "cell": {"userEnteredFormat": LOCKED_FORMAT},
                                       "fields": "userEnteredFormat.backgroundColorStyle"}})
        if tab.kind == "orders":
            # Plain-text cells, as the xlsx backend's "@": what a player types stays text ("05", "=1+1").
            for a, b in _open_intervals(_width(tab), tab.locked_columns):
                out.append({"repeatCell": {"range": {"sheetId": sheet_id, "startRowIndex": 1, "endRowIndex": end,
                                                     "startColumnIndex": a, "endColumnIndex": b},
                                           "cell": {"userEnteredFormat": {"numberFormat": {"type": "TEXT"}}},
                                           "fields": "userEnteredFormat.numberFormat"}})
    for col, chars in sorted(tab.column_widths.items()):
        out.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": col, "endIndex": col + 1},
            "properties": {"pixelSize": int(chars * 7 + 12)}, "fields": "pixelSize"}})
    return out


def _protection_requests(tab: TabWrite, sheet_id: int, width: int, existing: Mapping[int, str],
                         staff: list[str]) -> list[dict[str, Any]]:
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


def lock_requests(sheet: SheetMeta, staff: list[str]) -> list[dict]:
    """Close an order tab: its sheet protection loses its holes, the players' open ranges go."""
    pid = stable_id("protect", sheet.sheet_id)
    prot = {"protectedRangeId": pid, "range": {"sheetId": sheet.sheet_id}, "unprotectedRanges": [],
            "description": f"{PROTECTION_TAG}: приём приказов закрыт, идёт обработка хода",
            "warningOnly": False, "editors": {"users": staff}}
    out: list[dict] = [{"updateProtectedRange": {"protectedRange": prot,
                                                 "fields": "unprotectedRanges,description,warningOnly,editors"}}
                       if pid in sheet.protections else {"addProtectedRange": {"protectedRange": prot}}]
    for other, description in sorted(sheet.protections.items()):
        if other != pid and description.startswith(PROTECTION_TAG):
            out.append({"deleteProtectedRange": {"protectedRangeId": other}})
    return out


# -- reading ----------------------------------------------------------------------------------------

def _user_entered(value: dict | None) -> Any:
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


def _grid_size(a1: str) -> tuple[int, int] | None:
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


# -- the backend ---------------------------------------------------------------------------------------

class GSheetsBackend:
    """Books are Google spreadsheets opened by key; see the module docstring for the guarantees."""

    name = "gsheets"

    def __init__(self, client: gspread.Client, service_email: str, *, gm_emails: Iterable[str] = (),
                 folder_id: str | None = None, books: Iterable[BookRef] = (),
                 metadata_path: str | Path | None = None, max_workers: int = 8):
        self.client = client
        self.http: HTTPClient = client.http_client
        self.service_email = service_email
        self.gm_emails = tuple(gm_emails)
        self.folder_id = folder_id
        self.max_workers = max_workers
        self.metadata_path = Path(metadata_path) if metadata_path else None
        self._names = {b.book_id: b.title or b.key for b in books}
        self._meta: dict[str, BookMeta] = {}
        self._fresh: set[str] = set()
        self._creating: dict[str, str] = {}          # book key -> token of its spreadsheet create
        # book id -> tab title -> formula cells seen at the last lock_and_read, written back as text
        self._formulas: dict[str, dict[str, dict[tuple[int, int], str]]] = {}
        self._lock = threading.RLock()
        if self.metadata_path and self.metadata_path.is_file():
            try:
                saved = json.loads(self.metadata_path.read_text(encoding="utf-8"))
                self._meta = {k: BookMeta.from_json(v) for k, v in saved.get("books", {}).items()}
                self._fresh = set(saved.get("fresh", []))
                self._creating = {str(k): str(v) for k, v in saved.get("creating", {}).items()}
                self._formulas = {book: {title: {(int(r), int(c)): str(text) for r, c, text in cells}
                                         for title, cells in tabs.items()}
                                  for book, tabs in saved.get("formulas", {}).items()}
            except (ValueError, KeyError, TypeError, AttributeError):
                self._meta = {}

    @property
    def request_stats(self) -> RequestStats | None:
        """Requests sent, retries and seconds slept so far (None with a plain gspread HTTPClient)."""
        return getattr(self.http, "stats", None)

    # -- naming and errors ---------------------------------------------------------------------------
    def name_book(self, book_id: str, name: str) -> None:
        """Give a book a human name for error messages (e.g. "faction book 'Империя'")."""
        self._names[book_id] = name

    def _book_name(self, book_id: str) -> str:
        name = self._names.get(book_id)
        return f"книга «{name}»" if name else "книга без названия"

    @contextlib.contextmanager
    def _errors(self, book_id: str | None, action: str, name: str | None = None) -> Iterator[None]:
        from google.auth.exceptions import RefreshError, TransportError
        try:
            yield
        except APIError as err:
            raise explain(err, book=name or self._book_name(book_id or ""), book_id=book_id,
                          service_email=self.service_email, action=action) from err
        except RefreshError as err:
            raise explain_refresh(err, self.service_email) from err
        except (requests.RequestException, TransportError) as err:
            where = f"{name or self._book_name(book_id or '')}" + (f" ({book_url(book_id)})" if book_id else "")
            raise ApiUnavailableError(
                f"Could not reach Google to {action} {where}: {err.__class__.__name__}: {err}. Check the network "
                "and run the command again; nothing was half-written.") from err

    # -- metadata --------------------------------------------------------------------------------------
    def _store(self, book_id: str, meta: BookMeta) -> BookMeta:
        with self._lock:
            self._meta[book_id] = meta
            self._save()
        return meta

    def _save(self) -> None:
        """Write the metadata file (atomically); the caller holds the lock."""
        if not self.metadata_path:
            return
        data = {"books": {k: v.to_json() for k, v in sorted(self._meta.items())},
                "fresh": sorted(self._fresh), "creating": dict(sorted(self._creating.items())),
                "formulas": {book: {title: [[r, c, text] for (r, c), text in sorted(cells.items())]
                                    for title, cells in sorted(tabs.items())}
                             for book, tabs in sorted(self._formulas.items()) if tabs}}
        self.metadata_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.metadata_path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.metadata_path)

    def _fetch_meta(self, book_id: str) -> BookMeta:
        response = self.http.request("get", SPREADSHEET_URL % book_id,
                                     params={"includeGridData": "false", "fields": _META_FIELDS})
        return self._store(book_id, BookMeta.from_resource(response.json()))

    def metadata(self, book_id: str, refresh: bool = False) -> BookMeta:
        """The cached metadata of a book, fetched once (one spreadsheets.get) when unknown."""
        with self._lock:
            meta = self._meta.get(book_id)
        if meta is None or refresh:
            with self._errors(book_id, "open"):
                meta = self._fetch_meta(book_id)
        return meta

    def tab_titles(self, book_id: str) -> list[str]:
        """Titles of the book's tabs in order, from the cache (no request once the book is known)."""
        return [s.title for s in sorted(self.metadata(book_id).sheets.values(), key=lambda s: s.index)]

    def check_tabs(self, book_id: str, expected: Iterable[str]) -> list[str]:
        """Warnings for the GM (Russian): expected tabs that are missing, and tabs nobody expects (renamed?)."""
        titles = self.tab_titles(book_id)
        expected = list(expected)
        missing = [t for t in expected if t not in titles]
        extra = [t for t in titles if t not in expected and t not in DEFAULT_SHEET_TITLES]
        name = self._book_name(book_id)
        warnings = [f"{name} ({book_url(book_id)}): нет вкладки «{t}» — её переименовали или удалили. Приказы из неё "
                    f"не прочитать; при следующем обновлении она появится пустой." for t in missing]
        if missing and extra:
            warnings.append(f"{name}: лишние вкладки {', '.join(f'«{t}»' for t in extra)}; если одна из них — "
                            "переименованная вкладка приказов, верните ей название до дедлайна.")
        return warnings

    # -- Backend interface -----------------------------------------------------------------------------
    def create_book(self, key: str, title: str) -> str:
        """Create a spreadsheet in the shared-drive folder (`folder_id`); return its key.

        The file carries a token in its Drive appProperties, kept in the metadata file before the
        create is sent: a retry after a lost answer, or a re-run of `new` after a crash, finds the
        spreadsheet it already made instead of making another.
        """
        with self._lock:
            token = self._creating.get(key)
            earlier = token is not None
            if token is None:
                token = self._creating[key] = secrets.token_hex(16)
                self._save()
        name = f"book '{title}'"
        with self._errors(None, "create", name=name):
            response = self._created(token) if earlier else None
            if response is None:
                payload: dict[str, Any] = {"name": title, "mimeType": "application/vnd.google-apps.spreadsheet",
                                           "appProperties": {CREATE_MARKER: token}}
                if self.folder_id:
                    payload["parents"] = [self.folder_id]
                extra: dict[str, Any] = ({"recover": lambda: self._created(token)}
                                         if isinstance(self.http, ResilientHTTPClient) else {})
                response = self.http.request("post", DRIVE_FILES_API_V3_URL, json=payload,
                                             params={"supportsAllDrives": "true"}, **extra)
        answer = response.json()
        book_id = answer["files"][0]["id"] if "files" in answer else answer["id"]
        self._names.setdefault(book_id, title)
        with self._lock:
            self._fresh.add(book_id)
            self._save()
        return book_id

    def _created(self, token: str) -> requests.Response | None:
        """The files.list answer naming the spreadsheet made with `token`, or None if there is none."""
        query = f"appProperties has {{ key='{CREATE_MARKER}' and value='{token}' }} and trashed = false"
        response = self.http.request("get", DRIVE_FILES_API_V3_URL, params={
            "q": query, "fields": "files(id,name)", "supportsAllDrives": "true",
            "includeItemsFromAllDrives": "true", "corpora": "allDrives" if self.folder_id else "user"})
        return response if response.json().get("files") else None

    def adopt_book(self, key_or_url: str, name: str | None = None) -> str:
        """Take a spreadsheet the GM created (key or URL): check that the service account can edit it."""
        book_id = extract_id_from_url(key_or_url) if "/" in key_or_url else key_or_url.strip()
        if name:
            self.name_book(book_id, name)
        meta = self.metadata(book_id, refresh=True)
        with self._errors(book_id, "open"):
            info = self.http.request("get", f"{DRIVE_FILES_API_V3_URL}/{book_id}",
                                     params={"supportsAllDrives": "true", "fields": "id,name,capabilities(canEdit)"}
                                     ).json()
        if not info.get("capabilities", {}).get("canEdit", False):
            from sheets_bridge.backend import BookForbidden
            raise BookForbidden(
                f"{self._book_name(book_id).capitalize()} ({book_url(book_id)}) is shared with the service account "
                f"{self.service_email} as a viewer only. Change its role to Editor in the Share dialog.")
        if len(meta.sheets) == 1 and next(iter(meta.sheets)) in DEFAULT_SHEET_TITLES:
            with self._lock:
                self._fresh.add(book_id)  # a blank new spreadsheet: its default tab goes at the first write
        return book_id

    def read_tabs(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """The named tabs' cells in ONE values:batchGet; tabs the book does not have are left out."""
        meta = self.metadata(book_id)
        wanted = list(dict.fromkeys(titles))
        for attempt in (0, 1):
            present = [t for t in wanted if t in meta.sheets]
            if not present:
                return {}
            try:
                with self._errors(book_id, "read"):
                    try:
                        response = self.http.request("get", SPREADSHEET_VALUES_BATCH_URL % book_id, params={
                            "ranges": [quote_title(t) for t in present], "majorDimension": "ROWS",
                            "valueRenderOption": "FORMULA", "dateTimeRenderOption": "FORMATTED_STRING"})
                    except APIError as err:
                        if attempt == 0 and err.code == 400:
                            raise _Stale() from err
                        raise
            except _Stale:
                meta = self.metadata(book_id, refresh=True)
                continue
            value_ranges = response.json().get("valueRanges", [])
            self._note_sizes(book_id, present, value_ranges)
            out = {title: text_rows(vr.get("values", [])) for title, vr in zip(present, value_ranges, strict=True)}
            self._forget_changed_formulas(book_id, out)
            return out
        return {}

    def _forget_changed_formulas(self, book_id: str, tabs: Mapping[str, list[list[str]]]) -> None:
        """Drop remembered formula cells whose text is no longer there (edited since): writing them
        back would overwrite the new value. Values read with FORMULA show a formula as its text."""
        with self._lock:
            known = self._formulas.get(book_id, {})
            changed = False
            for title, rows in tabs.items():
                cells = known.get(title)
                if not cells:
                    continue
                kept = {(r, c): text for (r, c), text in cells.items()
                        if r < len(rows) and c < len(rows[r]) and rows[r][c] == text}
                if kept != cells:
                    changed = True
                    if kept:
                        known[title] = kept
                    else:
                        del known[title]
            if changed:
                self._save()

    def _note_sizes(self, book_id: str, titles: list[str], value_ranges: list[dict]) -> None:
        with self._lock:
            meta = self._meta.get(book_id)
            if meta is None:
                return
            for title, vr in zip(titles, value_ranges, strict=True):
                size = _grid_size(vr.get("range", ""))
                if size and title in meta.sheets:
                    meta.sheets[title].row_count, meta.sheets[title].column_count = size

    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Write every tab in ONE spreadsheets:batchUpdate (atomic at Google; safe to repeat)."""
        if not tabs:
            return
        staff = (self.service_email, *self.gm_emails)
        with self._lock:
            formulas = {title: dict(cells) for title, cells in self._formulas.get(book_id, {}).items()}
        answer = self._batch_update(book_id, "write", lambda meta: {
            "requests": plan_write(meta, tabs, staff, drop_default_sheet=book_id in self._fresh, formulas=formulas),
            "includeSpreadsheetInResponse": True, "responseIncludeGridData": False},
            fields=f"updatedSpreadsheet({_META_FIELDS})")
        with self._lock:
            self._fresh.discard(book_id)
            known = self._formulas.get(book_id, {})
            for tab in tabs:
                if tab.header is not None or tab.rows is not None:     # its formulas are text now
                    known.pop(tab.title, None)
        self._store(book_id, BookMeta.from_resource(answer.get("updatedSpreadsheet", {})))

    def update_protections(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Re-apply the protections that a push of `tabs` would set (staff, each order tab's
        editors, its open cells), in ONE batchUpdate that touches no cell. For `share`: the people
        of game.toml can edit exactly their order tabs at once, not after the next push."""
        staff = sorted({self.service_email, *self.gm_emails})

        def build(meta: BookMeta) -> dict:
            requests_ = [r for tab in tabs if tab.title in meta.sheets
                         for r in _protection_requests(tab, meta.sheets[tab.title].sheet_id, _width(tab),
                                                       meta.sheets[tab.title].protections, staff)]
            return {"requests": requests_, "includeSpreadsheetInResponse": True, "responseIncludeGridData": False}

        if not any(tab.title in self.metadata(book_id).sheets for tab in tabs):
            return
        answer = self._batch_update(book_id, "protect", build, fields=f"updatedSpreadsheet({_META_FIELDS})")
        self._store(book_id, BookMeta.from_resource(answer.get("updatedSpreadsheet", {})))

    def lock_and_read(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """Close the named order tabs to players and read them, in ONE spreadsheets:batchUpdate.

        For `turn`: no late edit can slip in between the lock and the read, and the stage still
        costs one request before the push (which reopens the next stage's tabs). Returns what
        `read_tabs` would; tabs the book lacks are left out. The cells that hold formulas are
        remembered (in the metadata file too): the next `write_book` of a tab turns them into text.
        """
        wanted = list(dict.fromkeys(titles))
        staff = sorted({self.service_email, *self.gm_emails})
        present: list[str] = []

        def build(meta: BookMeta) -> dict:
            present[:] = [t for t in wanted if t in meta.sheets]
            requests_ = [r for t in present for r in lock_requests(meta.sheets[t], staff)]
            return {"requests": requests_, "includeSpreadsheetInResponse": True,
                    "responseRanges": [quote_title(t) for t in present], "responseIncludeGridData": True}

        if not any(t in self.metadata(book_id).sheets for t in wanted):
            return {}
        answer = self._batch_update(book_id, "lock and read", build, fields=(
            "updatedSpreadsheet(properties.title,sheets(properties(sheetId,title,index,gridProperties),"
            "protectedRanges(protectedRangeId,description),data.rowData.values.userEnteredValue))"))
        sheets = answer.get("updatedSpreadsheet", {}).get("sheets", [])
        out = {}
        with self._lock:
            meta = self._meta[book_id]
            meta.sheets.update(BookMeta.from_resource({"sheets": sheets}).sheets)
            formulas = self._formulas.setdefault(book_id, {})
            for entry in sheets:
                title = entry["properties"]["title"]
                rows = ((entry.get("data") or [{}])[0]).get("rowData", [])
                values = [[cell.get("userEnteredValue") or {} for cell in row.get("values", [])] for row in rows]
                out[title] = text_rows([[_user_entered(v) for v in row] for row in values])
                found = {(r, c): str(v["formulaValue"]) for r, row in enumerate(values)
                         for c, v in enumerate(row) if "formulaValue" in v}
                if found:
                    formulas[title] = found
                else:
                    formulas.pop(title, None)
        self._store(book_id, meta)
        return {t: out[t] for t in present if t in out}

    def _batch_update(self, book_id: str, action: str, build: Callable[[BookMeta], dict], fields: str) -> dict:
        """One batchUpdate built from the cached metadata; a 400 (stale metadata: a tab renamed or
        deleted by hand, or a lost answer that was applied after all) refreshes it and retries once."""
        meta = self.metadata(book_id)
        for attempt in (0, 1):
            body = build(meta)
            try:
                with self._errors(book_id, action):
                    try:
                        return self.http.request("post", SPREADSHEET_BATCH_UPDATE_URL % book_id, json=body,
                                                 params={"fields": fields}).json()
                    except APIError as err:
                        if attempt == 0 and err.code == 400:
                            raise _Stale() from err
                        raise
            except _Stale:
                meta = self.metadata(book_id, refresh=True)
        raise AssertionError("unreachable")

    def read_books(self, wanted: Mapping[str, list[str]]) -> dict[str, dict[str, list[list[str]]]]:
        """`read_tabs` for several books at once, concurrently (pacing keeps it under quota)."""
        results = self._concurrently({b: functools.partial(self.read_tabs, b, list(wanted[b])) for b in wanted}, None)
        return results

    def write_books(self, books: Mapping[str, list[TabWrite]],
                    progress: Callable[[str], None] | None = None) -> None:
        """`write_book` for several books concurrently; `progress(book_id)` (in the calling thread)
        after each book written, e.g. to journal it and advance a progress bar.

        Every book that can be written is written; then one BackendError lists the failures.
        """
        self._concurrently({b: functools.partial(self.write_book, b, list(books[b])) for b in books}, progress)

    def _concurrently(self, jobs: Mapping[str, Callable[[], Any]],
                      progress: Callable[[str], None] | None) -> dict[str, Any]:
        results: dict[str, Any] = {}
        failures: dict[str, BackendError] = {}
        workers = max(1, min(self.max_workers, len(jobs)))
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="gsheets") as pool:
            futures = {pool.submit(job): book for book, job in jobs.items()}
            for future in as_completed(futures):
                book = futures[future]
                try:
                    results[book] = future.result()
                except BackendError as err:
                    failures[book] = err
                    continue
                if progress is not None:
                    progress(book)
        if failures:
            first = next(iter(failures.values()))
            if len(failures) == 1:
                raise first
            error = type(first)("; ".join(str(e) for e in failures.values()))
            error.failures = failures  # type: ignore[attr-defined]
            raise error
        return results

    def share(self, book_id: str, readers: list[str], writers: list[str], notify: bool = False,
              *, revoke: bool = False) -> list[str]:
        """Give exactly these people access (writers win over readers); the GMs are always writers
        and the service account is kept.

        Returns Russian warnings for the GM: people with access who are not listed (removed only with
        `revoke=True`), link sharing, and addresses Google cannot share with silently.
        """
        name = self._book_name(book_id)
        desired: dict[str, str] = {e.strip().lower(): "reader" for e in readers if e.strip()}
        desired.update({e.strip().lower(): "writer" for e in (*writers, *self.gm_emails) if e.strip()})
        desired.pop(self.service_email.lower(), None)
        url = f"{DRIVE_FILES_API_V3_URL}/{book_id}/permissions"
        common: ParamsType = {"supportsAllDrives": "true"}
        warnings: list[str] = []
        with self._errors(book_id, "share"):
            perms = self.http.list_permissions(book_id)
            current = {str(p.get("emailAddress", "")).lower(): p for p in perms
                       if p.get("type") == "user" and not p.get("permissionDetails")}
            for perm in perms:
                email_ = str(perm.get("emailAddress", "")).lower()
                role = _ROLE_RU.get(str(perm.get("role")), str(perm.get("role")))
                inherited = bool(perm.get("permissionDetails"))
                if perm.get("type") == "anyone":
                    warnings.append(f"{name}: открыта всем, у кого есть ссылка ({role}); "
                                    "выключите доступ по ссылке в окне «Настройки доступа».")
                elif perm.get("type") in ("domain", "group"):
                    who = perm.get("domain") or perm.get("emailAddress")
                    kind = "домен" if perm.get("type") == "domain" else "группа"
                    warnings.append(f"{name}: у {kind}а {who} доступ «{role}», "
                                    "а в game.toml его нет.")
                elif email_ == self.service_email.lower() or email_ in desired:
                    continue
                elif inherited:
                    warnings.append(f"{name}: {email_} видит её как участник общего диска, а в game.toml его нет; "
                                    "если это неверно, уберите его из участников общего диска.")
                elif perm.get("role") == "owner":
                    warnings.append(f"{name}: её владелец {email_} не указан в game.toml ни мастером, ни игроком.")
                elif revoke:
                    self.http.request("delete", f"{url}/{perm['id']}", params=common)
                    warnings.append(f"{name}: доступ {email_} («{role}») "
                                    "снят — в game.toml его нет.")
                else:
                    warnings.append(f"{name}: у {email_} доступ «{role}», "
                                    "а в game.toml его нет; уберите его в окне «Настройки доступа» или запустите "
                                    "forumwar share --revoke.")
            for person, role in sorted(desired.items()):
                granted = current.get(person)
                if granted is not None and granted.get("role") in (role, "owner"):
                    continue
                if granted is not None and granted.get("role") in ("writer", "reader", "commenter"):
                    self.http.request("patch", f"{url}/{granted['id']}", json={"role": role}, params=common)
                    continue
                try:
                    self.http.request("post", url, json={"type": "user", "role": role, "emailAddress": person},
                                      params={**common, "sendNotificationEmail": "true" if notify else "false"})
                except APIError as err:
                    if err.code != 400:
                        raise
                    warnings.append(f"{name}: не удалось открыть доступ {person} без письма-уведомления (Google: "
                                    f"{err.error.get('message', err)}). Попросите адрес с аккаунтом Google или "
                                    "запустите forumwar share --notify.")
        return warnings

    def export_xlsx(self, book_id: str, dest: str) -> None:
        """Save the book as a real .xlsx file (Drive export), written atomically."""
        with self._errors(book_id, "export"):
            content = self.http.export(book_id, ExportFormat.EXCEL)
        path = Path(dest)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(content)
        os.replace(tmp, path)


class _Stale(Exception):
    """A 400 that one metadata refresh may cure."""


def open_gsheets_backend(credentials_path: str | Path, *, gm_emails: Iterable[str] = (),
                         folder_id: str | None = None, books: Iterable[BookRef] = (),
                         metadata_path: str | Path | None = None, policy: RetryPolicy = RetryPolicy(),
                         max_workers: int = 8) -> GSheetsBackend:
    """The backend for a real game: credentials from a service-account key file (see google_auth)."""
    account: ServiceAccount = load_service_account(credentials_path)
    pacer = RequestPacer(path=quota_file(account.email))      # one budget for every command of the machine
    client = gspread.Client(auth=account.credentials, http_client=http_client_factory(policy, pacer))
    return GSheetsBackend(client, account.email, gm_emails=gm_emails, folder_id=folder_id, books=books,
                          metadata_path=metadata_path, max_workers=max_workers)


CREDENTIALS_ENV = "FORUMWAR_CREDENTIALS"
FOLDER_ENV = "FORUMWAR_DRIVE_FOLDER"
METADATA_FILE = "gsheets-meta.json"


def credentials_path(game_path: str | Path | None = None, given: str | Path | None = None) -> Path:
    """Where the key is: `given`, else $FORUMWAR_CREDENTIALS, else credentials.json in the game
    directory, else credentials.json in the current directory (the one named in errors)."""
    candidates = [Path(p) for p in (given, os.environ.get(CREDENTIALS_ENV)) if p]
    if candidates:
        return candidates[0]
    local = [Path(game_path) / "credentials.json"] if game_path else []
    for path in (*local, Path("credentials.json")):
        if path.is_file():
            return path
    return Path("credentials.json")


def book_label(config: Any, key: str) -> str:
    """How errors name a book: the faction's name, "public" or "GM"."""
    factions = getattr(config, "factions", {}) or {}
    if key in factions:
        return f"{factions[key].name}"
    return {"gm": "GM", "public": "public"}.get(key, key)


def backend_for_game(gd: Any, credentials: str | Path | None = None, *,
                     folder_id: str | None = None) -> GSheetsBackend:
    """The gsheets backend of a game directory: books and GMs from game.toml, metadata cached in
    state/gsheets-meta.json, new books created in `folder_id` (or $FORUMWAR_DRIVE_FOLDER)."""
    config = gd.config
    books = [BookRef(key, book_id, book_label(config, key)) for key, book_id in config.books.items()]
    return open_gsheets_backend(credentials_path(gd.path, credentials), gm_emails=config.gm_emails,
                                folder_id=folder_id or os.environ.get(FOLDER_ENV) or None, books=books,
                                metadata_path=Path(gd.state_dir) / METADATA_FILE)


def share_plan(config: Any) -> dict[str, tuple[list[str], list[str]]]:
    """Who gets each book (key -> (readers, writers)) from game.toml: a faction book its players
    (writers), the public book every player (readers), the GM book nobody else; GMs are writers of all."""
    gms = list(config.gm_emails)
    everyone = sorted({p for f in config.factions.values() for p in f.players})
    plan: dict[str, tuple[list[str], list[str]]] = {}
    for key in config.books:
        if key in config.factions:
            plan[key] = ([], [*config.factions[key].players, *gms])
        elif key == "public":
            plan[key] = ([p for p in everyone if p not in gms], gms)
        else:
            plan[key] = ([], gms)
    return plan


def share_game(backend: Any, config: Any, *, notify: bool = False, revoke: bool = False) -> list[str]:
    """`forumwar share`: share every book of game.toml with exactly its people; all warnings."""
    warnings: list[str] = []
    for key, (readers, writers) in share_plan(config).items():
        extra = {"revoke": True} if revoke else {}
        warnings.extend(backend.share(config.books[key], readers, writers, notify=notify, **extra))
    return warnings


__all__ = ["GSheetsBackend", "backend_for_game", "open_gsheets_backend", "credentials_path", "share_game",
           "share_plan", "RetryPolicy", "RequestPacer", "RequestStats", "ResilientHTTPClient", "http_client_factory",
           "plan_write", "lock_requests", "stable_id", "BookMeta", "BookRejected", "quota_file", "error_reasons"]
