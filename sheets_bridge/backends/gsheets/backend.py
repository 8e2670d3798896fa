"""The gsheets backend: books are Google spreadsheets, reached through gspread.

One file for one class, over 400 lines, because its methods share one metadata cache, its lock and file,
and one translation of Google's errors; the requests it sends are built in `sheets_requests`,
its HTTP layer is `http` and opening it for a game directory is `game`.

Per book and stage it sends one read and one `spreadsheets:batchUpdate` (write). The orders are read
with one `spreadsheets.get` of the order tabs' values and merged cells (`read_orders`), or at a lock with
the batchUpdate that closes the tabs and returns them (`lock_and_read`, a write for Google's quota); other
tabs with one `values:batchGet` (`read_tabs`). Independent books are worked on at once (`write_books`,
`each_book`: up to MAX_WORKERS threads, every request paced within the quota). Spreadsheet metadata is
cached (in memory, optionally in a JSON file) and refreshed from every write's answer and every read of
orders; a 400 caused by stale metadata triggers one refresh and one retry.
Every write is idempotent: grids are sized absolutely, and a spreadsheet create carries a
marker (Drive appProperties) by which a retry finds the file it already made.
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

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

from sheets_bridge.backends.base import (
    AdoptsBooks,
    Backend,
    BackendError,
    BookRef,
    LinksBooks,
    LocksOnRead,
    PutsPictures,
    SendsPictures,
    SharesGame,
    TabWrite,
    WorksOnManyBooks,
    WritesManyBooks,
    with_merges,
)
from sheets_bridge.backends.gsheets.accounts import Who
from sheets_bridge.backends.gsheets.auth import (
    ApiUnavailableError,
    action_phrase,
    book_place,
    book_url,
    explain,
    explain_refresh,
)
from sheets_bridge.backends.gsheets.http import ResilientHTTPClient
from sheets_bridge.backends.gsheets.settings import GoogleIdentity
from sheets_bridge.backends.gsheets.sheets_requests import (
    DEFAULT_SHEET_TITLES,
    LIST_TAB,
    META_FIELDS,
    SHEET_FIELDS,
    BookMeta,
    grid_size,
    grid_tabs,
    lock_requests,
    plan_write,
    protection_requests,
    quote_title,
    tab_width,
    text_rows,
    user_entered,
)
from sheets_bridge.gameconfig import GameConfig, share_plan

if TYPE_CHECKING:
    from sheets_bridge.backends.gsheets.pictures import DrivePictures

CREATE_MARKER = "forumwarCreate"       # Drive appProperties key carrying the create's token
# Pauses (seconds, a minute in all) between searches for a spreadsheet whose create may have been applied:
# Drive's search can show a new file only some seconds after it was made.
CREATE_SETTLE = (2.0, 4.0, 8.0, 16.0, 30.0)
# Books worked on at once (`write_books`, `each_book`): every book of a 16-faction game (18 books) in one go.
# The pacer, not the pool, keeps the requests within Google's per-minute quota.
MAX_WORKERS = 20
_T = TypeVar("_T")
_BOOK_KINDS = {"public": "общая книга", "gm": "книга мастера"}
_EDITS = frozenset({"writer", "fileOrganizer", "organizer", "owner"})    # roles that may edit a file
_ROLE_RU = {"reader": "чтение", "writer": "редактирование", "commenter": "комментирование", "owner": "владелец",
            "fileOrganizer": "упорядочивание", "organizer": "управление"}


class GSheetsBackend(Backend, LocksOnRead, WritesManyBooks, WorksOnManyBooks, PutsPictures, SendsPictures,
                     AdoptsBooks, SharesGame, LinksBooks):
    """Books are Google spreadsheets opened by key; see the module docstring for the guarantees."""

    name = "gsheets"

    def __init__(self, client: gspread.Client, account_email: str, *, identity: GoogleIdentity = "service_account",
                 gm_emails: Iterable[str] = (),
                 folder_id: str | None = None, books: Iterable[BookRef] = (),
                 metadata_path: str | Path | None = None, max_workers: int = MAX_WORKERS):
        self.client = client
        self.http: HTTPClient = client.http_client
        self.who = Who(account_email, identity)   # whom Google sees: the service account or the GM signed in
        self.account_email = account_email
        self.gm_emails = tuple(gm_emails)
        self.folder_id = folder_id
        self.max_workers = max_workers
        self.metadata_path = Path(metadata_path) if metadata_path else None
        self._names = {b.book_id: b.title or b.key for b in books}
        self._keys = {b.book_id: b.key for b in books}
        self._meta: dict[str, BookMeta] = {}
        self._fresh: set[str] = set()
        self._creating: dict[str, str] = {}          # book key -> token of its spreadsheet create
        self._sent_at: dict[str, float] = {}         # book key -> when (time.time()) its create was last sent
        # book id -> tab title -> formula cells seen at the last lock_and_read, written back as text
        self._formulas: dict[str, dict[str, dict[tuple[int, int], str]]] = {}
        self._denied: dict[str, list[str]] = {}       # book id -> editors the last share could not give access
        self._pictures: dict[str, str] = {}           # picture place (or "folder") -> its Drive file id
        self._drive: DrivePictures | None = None      # the pictures' sender (its round, while one is open)
        self._lock = threading.RLock()
        if self.metadata_path and self.metadata_path.is_file():
            try:
                saved = json.loads(self.metadata_path.read_text(encoding="utf-8"))
                self._meta = {k: BookMeta.from_json(v) for k, v in saved.get("books", {}).items()}
                self._fresh = set(saved.get("fresh", []))
                self._creating = {str(k): str(v) for k, v in saved.get("creating", {}).items()}
                self._sent_at = {str(k): float(v) for k, v in saved.get("create_sent", {}).items()}
                self._formulas = {book: {title: {(int(r), int(c)): str(text) for r, c, text in cells}
                                         for title, cells in tabs.items()}
                                  for book, tabs in saved.get("formulas", {}).items()}
                self._denied = {str(book): [str(e) for e in who] for book, who in saved.get("denied", {}).items()}
                self._pictures = {str(k): str(v) for k, v in saved.get("pictures", {}).items()}
            except (ValueError, KeyError, TypeError, AttributeError):
                self._meta = {}

    # -- naming and errors ---------------------------------------------------------------------------
    def name_book(self, book_id: str, name: str) -> None:
        """Give a book a human name for messages: its title, shown as «книга «title»»."""
        self._names[book_id] = name

    def _book_name(self, book_id: str) -> str:
        """The book as the GM knows it: «книга фракции «Империя»», «общая книга», «книга мастера»,
        or «книга «title»» for a book known by its title only."""
        key, name = self._keys.get(book_id), self._names.get(book_id)
        if key in _BOOK_KINDS:
            return _BOOK_KINDS[key]
        if key and name:
            return f"книга фракции «{name}»"
        return f"книга «{name}»" if name else "книга без названия"

    @contextlib.contextmanager
    def _errors(self, book_id: str | None, action: str, name: str | None = None) -> Iterator[None]:
        from google.auth.exceptions import RefreshError, TransportError
        try:
            yield
        except APIError as err:
            raise explain(err, book=name or self._book_name(book_id or ""), book_id=book_id,
                          who=self.who, action=action) from err
        except RefreshError as err:
            raise explain_refresh(err, self.who) from err
        except (requests.RequestException, TransportError) as err:
            where = book_place(name or self._book_name(book_id or ""), book_id)
            raise ApiUnavailableError(
                f"{where}: не удалось связаться с Google, чтобы {action_phrase(action)} ({err.__class__.__name__}: "
                f"{err}). Проверьте подключение к интернету и запустите команду снова; ничего не записано "
                "наполовину.") from err

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
                "create_sent": dict(sorted(self._sent_at.items())),
                "formulas": {book: {title: [[r, c, text] for (r, c), text in sorted(cells.items())]
                                    for title, cells in sorted(tabs.items())}
                             for book, tabs in sorted(self._formulas.items()) if tabs},
                "denied": dict(sorted(self._denied.items())), "pictures": dict(sorted(self._pictures.items()))}
        self.metadata_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.metadata_path.with_suffix(f".tmp{os.getpid()}.{threading.get_ident()}")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.metadata_path)

    def _fetch_meta(self, book_id: str) -> BookMeta:
        response = self.http.request("get", SPREADSHEET_URL % book_id,
                                     params={"includeGridData": "false", "fields": META_FIELDS})
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
        """Titles of the book's tabs in order, from the cache (no request once the book is known); the hidden
        list tab of long dropdowns (LIST_TAB) left out."""
        return [s.title for s in sorted(self.metadata(book_id).sheets.values(), key=lambda s: s.index)
                if s.title != LIST_TAB]

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
        spreadsheet it already made instead of making another. Drive's search may show a new file only
        a while after it was made, so the search is repeated for up to CREATE_SETTLE seconds before a
        create is taken as never made and sent again.
        """
        with self._lock:
            token = self._creating.get(key)
            earlier = token is not None
            if token is None:
                token = self._creating[key] = secrets.token_hex(16)
                self._save()
            sent_at = self._sent_at.get(key)
        name = f"книга «{title}»"
        find = self._finder(token, sent_at)
        with self._errors(None, "create", name=name):
            response = find() if earlier else None
            if response is None:
                payload: dict[str, Any] = {"name": title, "mimeType": "application/vnd.google-apps.spreadsheet",
                                           "appProperties": {CREATE_MARKER: token}}
                if self.folder_id:
                    payload["parents"] = [self.folder_id]
                with self._lock:
                    self._sent_at[key] = time.time()
                    self._save()
                extra: dict[str, Any] = {"recover": find} if isinstance(self.http, ResilientHTTPClient) else {}
                response = self.http.request("post", DRIVE_FILES_API_V3_URL, json=payload,
                                             params={"supportsAllDrives": "true"}, **extra)
        answer = response.json()
        book_id = str(answer["files"][0]["id"] if "files" in answer else answer["id"])
        self._names.setdefault(book_id, title)
        with self._lock:
            self._fresh.add(book_id)
            self._save()
        return book_id

    def _finder(self, token: str, sent_at: float | None = None) -> Callable[[], requests.Response | None]:
        """A search for the spreadsheet made with `token` that waits for Drive's search to catch up: it
        searches again after each of CREATE_SETTLE's pauses (across all its calls, for one create) before
        it answers None. A create an earlier command sent at `sent_at` (time.time()) has had that long to
        show already: only the rest of the pauses is waited."""
        sleep = self.http.sleep if isinstance(self.http, ResilientHTTPClient) else time.sleep
        pauses = list(CREATE_SETTLE)
        elapsed = max(0.0, time.time() - sent_at) if sent_at is not None else 0.0
        while pauses and elapsed > 0:
            first = pauses.pop(0)
            if first > elapsed:
                pauses.insert(0, first - elapsed)
            elapsed -= first

        def find() -> requests.Response | None:
            while True:
                found = self._created(token)
                if found is not None or not pauses:
                    return found
                sleep(pauses.pop(0))
        return find

    def _created(self, token: str) -> requests.Response | None:
        """The files.list answer naming the spreadsheet made with `token`, or None if the search shows none."""
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
            from sheets_bridge.backends.base import BookForbidden
            raise BookForbidden(
                f"{book_place(self._book_name(book_id), book_id)}: {self.who.nominative} может её "
                "только просматривать. Откройте книгу в браузере, нажмите «Настройки доступа» (Share) и смените "
                "его роль на «Редактор» (Editor), затем запустите команду снова.")
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

    def read_orders(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """`read_tabs` with the tabs' merged cells (under backend.MERGED_CELLS), in ONE spreadsheets.get of
        the tabs' grid data: the values as `lock_and_read` reads them (what the player entered, a formula
        as its text), the merges and the tabs' metadata as they are now (the cache is refreshed from it)."""
        meta = self.metadata(book_id)
        wanted = list(dict.fromkeys(titles))
        for attempt in (0, 1):
            present = [t for t in wanted if t in meta.sheets]
            if not present:
                return {}
            try:
                with self._errors(book_id, "read"):
                    try:
                        response = self.http.request("get", SPREADSHEET_URL % book_id, params={
                            "ranges": [quote_title(t) for t in present], "includeGridData": "true",
                            "fields": f"sheets({SHEET_FIELDS},data.rowData.values.userEnteredValue)"})
                    except APIError as err:
                        if attempt == 0 and err.code == 400:
                            raise _Stale() from err
                        raise
            except _Stale:
                meta = self.metadata(book_id, refresh=True)
                continue
            sheets = response.json().get("sheets", [])
            read = grid_tabs(sheets)
            with self._lock:
                known = self._meta[book_id]
                known.sheets.update(BookMeta.from_resource({"sheets": sheets}).sheets)
            self._store(book_id, known)
            out = {t: text_rows([[user_entered(v) for v in row] for row in read[t][0]]) for t in present if t in read}
            self._forget_changed_formulas(book_id, out)
            return with_merges(out, {t: read[t][1] for t in out})
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

    def _note_sizes(self, book_id: str, titles: list[str], value_ranges: list[dict[str, Any]]) -> None:
        with self._lock:
            meta = self._meta.get(book_id)
            if meta is None:
                return
            for title, vr in zip(titles, value_ranges, strict=True):
                size = grid_size(vr.get("range", ""))
                if size and title in meta.sheets:
                    meta.sheets[title].row_count, meta.sheets[title].column_count = size

    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Write every tab in ONE spreadsheets:batchUpdate (atomic at Google; safe to repeat)."""
        if not tabs:
            return
        tabs = self._without_denied(book_id, tabs)
        staff = (self.account_email, *self.gm_emails)
        with self._lock:
            formulas = {title: dict(cells) for title, cells in self._formulas.get(book_id, {}).items()}
        answer = self._batch_update(book_id, "write", lambda meta: {
            "requests": plan_write(meta, tabs, staff, drop_default_sheet=book_id in self._fresh, formulas=formulas),
            "includeSpreadsheetInResponse": True, "responseIncludeGridData": False},
            fields=f"updatedSpreadsheet({META_FIELDS})")
        with self._lock:
            self._fresh.discard(book_id)
            known = self._formulas.get(book_id, {})
            for tab in tabs:
                if tab.header is not None or tab.rows is not None:     # its formulas are text now
                    known.pop(tab.title, None)
        self._store(book_id, BookMeta.from_resource(answer.get("updatedSpreadsheet", {})))

    def put_pictures(self, book_id: str, title: str, pictures: list[bytes], note: str) -> None:
        """Each PNG as a Drive file readable by exactly the book's people, linked from tab `title`
        (`pictures.DrivePictures`); no picture: the tab says `note` alone. Within `sending_pictures`, in the
        background."""
        self._drive_pictures().put(book_id, title, pictures, note)

    def sending_pictures(self) -> contextlib.AbstractContextManager[None]:
        """The pictures put meanwhile go up together, each while the next is drawn (base.SendsPictures)."""
        return self._drive_pictures().sending()

    def _drive_pictures(self) -> DrivePictures:
        from sheets_bridge.backends.gsheets.pictures import DrivePictures
        with self._lock:
            if self._drive is None:
                self._drive = DrivePictures(self, self._pictures)
            return self._drive

    def update_protections(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Re-apply the protections that a push of `tabs` would set (staff, each order tab's
        editors, its open cells), in ONE batchUpdate that touches no cell. For `share`: the people
        of game.toml can edit exactly their order tabs at once, not after the next push."""
        staff = sorted({self.account_email, *self.gm_emails})
        tabs = self._without_denied(book_id, tabs)

        def build(meta: BookMeta) -> dict[str, Any]:
            requests_ = [r for tab in tabs if tab.title in meta.sheets
                         for r in protection_requests(tab, meta.sheets[tab.title].sheet_id, tab_width(tab),
                                                      meta.sheets[tab.title].protections, staff)]
            return {"requests": requests_, "includeSpreadsheetInResponse": True, "responseIncludeGridData": False}

        if not any(tab.title in self.metadata(book_id).sheets for tab in tabs):
            return
        answer = self._batch_update(book_id, "protect", build, fields=f"updatedSpreadsheet({META_FIELDS})")
        self._store(book_id, BookMeta.from_resource(answer.get("updatedSpreadsheet", {})))

    def lock_and_read(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """Close the named order tabs to players and read them, in ONE spreadsheets:batchUpdate.

        For `turn`: no late edit can slip in between the lock and the read, and the stage still
        costs one request before the push (which reopens the next stage's tabs). Returns what
        `read_orders` would (the tabs' merged cells too); tabs the book lacks are left out. The cells
        that hold formulas are remembered (in the metadata file too): the next `write_book` of a tab
        turns them into text.
        """
        wanted = list(dict.fromkeys(titles))
        staff = sorted({self.account_email, *self.gm_emails})
        present: list[str] = []

        def build(meta: BookMeta) -> dict[str, Any]:
            present[:] = [t for t in wanted if t in meta.sheets]
            requests_ = [r for t in present for r in lock_requests(meta.sheets[t], staff)]
            return {"requests": requests_, "includeSpreadsheetInResponse": True,
                    "responseRanges": [quote_title(t) for t in present], "responseIncludeGridData": True}

        if not any(t in self.metadata(book_id).sheets for t in wanted):
            return {}
        answer = self._batch_update(book_id, "lock and read", build, fields=(
            f"updatedSpreadsheet(properties.title,sheets({SHEET_FIELDS},data.rowData.values.userEnteredValue))"))
        sheets = answer.get("updatedSpreadsheet", {}).get("sheets", [])
        out = {}
        read = grid_tabs(sheets)
        with self._lock:
            meta = self._meta[book_id]
            meta.sheets.update(BookMeta.from_resource({"sheets": sheets}).sheets)
            formulas = self._formulas.setdefault(book_id, {})
            for title, (values, _) in read.items():
                out[title] = text_rows([[user_entered(v) for v in row] for row in values])
                found = {(r, c): str(v["formulaValue"]) for r, row in enumerate(values)
                         for c, v in enumerate(row) if "formulaValue" in v}
                if found:
                    formulas[title] = found
                else:
                    formulas.pop(title, None)
        self._store(book_id, meta)
        return with_merges({t: out[t] for t in present if t in out}, {t: read[t][1] for t in present if t in read})

    def _batch_update(self, book_id: str, action: str, build: Callable[[BookMeta], dict[str, Any]],
                      fields: str) -> dict[str, Any]:
        """One batchUpdate built from the cached metadata; a 400 (stale metadata: a tab renamed or
        deleted by hand, or a lost answer that was applied after all) refreshes it and retries once."""
        meta = self.metadata(book_id)
        for attempt in (0, 1):
            body = build(meta)
            try:
                with self._errors(book_id, action):
                    try:
                        answer: dict[str, Any] = self.http.request(
                            "post", SPREADSHEET_BATCH_UPDATE_URL % book_id, json=body, params={"fields": fields}).json()
                        return answer
                    except APIError as err:
                        if attempt == 0 and err.code == 400:
                            raise _Stale() from err
                        raise
            except _Stale:
                meta = self.metadata(book_id, refresh=True)
        raise AssertionError("unreachable")

    def each_book(self, jobs: Mapping[str, Callable[[], _T]],
                  progress: Callable[[str], None] | None = None) -> dict[str, _T]:
        """The jobs of several books at once, in the pool `write_books` pushes with (`max_workers` threads;
        the pacer keeps every request within the quota): see base.WorksOnManyBooks."""
        return self._concurrently(jobs, progress)

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

    def _concurrently(self, jobs: Mapping[str, Callable[[], _T]],
                      progress: Callable[[str], None] | None) -> dict[str, _T]:
        results: dict[str, _T] = {}
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

    def book_link(self, book_id: str) -> str:
        """The book's address in a browser (base.LinksBooks)."""
        return book_url(book_id)

    def share_game(self, config: GameConfig, *, notify: bool = False, revoke: bool = False) -> list[str]:
        """`forumwar share`: share every book of game.toml with exactly its people; all warnings. With `notify`
        Google's invitation carries a Russian note naming the game and the book (`invitation`)."""
        from sheets_bridge.backends.gsheets.pictures import DrivePictures
        warnings: list[str] = []
        for key, (readers, writers) in share_plan(config).items():
            message = invitation(config, key) if notify else None
            warnings.extend(self.share(config.books[key], readers, writers, notify=notify, revoke=revoke,
                                       message=message))
            DrivePictures(self, self._pictures).reshare(config.books[key])    # the pictures' readers follow
        return warnings

    def share(self, book_id: str, readers: list[str], writers: list[str], notify: bool = False,
              *, revoke: bool = False, message: str | None = None) -> list[str]:
        """Give exactly these people access (writers win over readers); the GMs are always writers
        and the service account is kept.

        Returns Russian warnings for the GM: people with access who are not listed (removed only with
        `revoke=True`), link sharing, and addresses Google cannot share with silently. The editors it could
        not give access are remembered (in the metadata file too) until a share gives it to them: no
        protection lists them as editors meanwhile (`_without_denied`). A permission create whose answer was
        lost is looked up before it is sent again (a second one would send a second invitation).
        """
        name = self._book_name(book_id)
        desired: dict[str, str] = {e.strip().lower(): "reader" for e in readers if e.strip()}
        desired.update({e.strip().lower(): "writer" for e in (*writers, *self.gm_emails) if e.strip()})
        desired.pop(self.account_email.lower(), None)
        url = f"{DRIVE_FILES_API_V3_URL}/{book_id}/permissions"
        common: ParamsType = {"supportsAllDrives": "true"}
        warnings: list[str] = []
        with self._errors(book_id, "share"):
            perms = self.http.list_permissions(book_id)
            current = {str(p.get("emailAddress", "")).lower(): p for p in perms
                       if p.get("type") == "user" and not p.get("permissionDetails")}
            # edit rights by a group or by link: who holds access cannot be told, so no editor is left out
            unknown = any(p.get("type") in ("group", "anyone") and p.get("role") in _EDITS for p in perms)
            denied: list[str] = []
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
                elif email_ == self.account_email.lower() or email_ in desired:
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
                lookup: dict[str, Any] = ({"recover": functools.partial(self._permission_of, book_id, person, role)}
                                          if isinstance(self.http, ResilientHTTPClient) else {})
                try:
                    self.http.request("post", url, json={"type": "user", "role": role, "emailAddress": person},
                                      params={**common, "sendNotificationEmail": "true" if notify else "false",
                                              **({"emailMessage": message} if notify and message else {})},
                                      **lookup)
                except APIError as err:
                    if err.code != 400:
                        raise
                    left_out = role == "writer" and not unknown and person not in {e.lower() for e in self.gm_emails}
                    if left_out:
                        denied.append(person)
                    warnings.append(self._not_shared(name, person, err, left_out))
        with self._lock:
            if denied:
                self._denied[book_id] = sorted(denied)
            else:
                self._denied.pop(book_id, None)
            self._save()
        return warnings

    @staticmethod
    def _not_shared(name: str, person: str, err: APIError, left_out: bool) -> str:
        """The warning for an address Google would not share the book with (no Google account behind it);
        `left_out`: it is no editor of the order tabs meanwhile."""
        why = (f"{name}: не удалось открыть доступ {person} без письма-уведомления (Google: "
               f"{err.error.get('message', err)}).")
        if left_out:
            what = ("Пока у этого адреса нет доступа, forumwar не вносит его в редакторы вкладок приказов: "
                    "писать приказы с него нельзя.")
        else:
            what = "Пока у этого адреса нет доступа, книгу с него не открыть."
        return (f"{why} {what} Что сделать: попросите у игрока адрес с аккаунтом Google и впишите его в game.toml, "
                "затем запустите forumwar share; или запустите forumwar share --notify — Google пришлёт на этот "
                "адрес приглашение, доступ откроется сразу, и forumwar внесёт адрес в редакторы.")

    def _permission_of(self, book_id: str, person: str, role: str) -> requests.Response | None:
        """The permissions.list answer in which `person` holds `role` (a create whose answer was lost
        was applied after all), or None: asked before a permission create is sent again."""
        url = f"{DRIVE_FILES_API_V3_URL}/{book_id}/permissions"
        params: dict[str, Any] = {"supportsAllDrives": "true", "pageSize": 100,
                                  "fields": "nextPageToken,permissions(id,type,role,emailAddress)"}
        while True:
            response = self.http.request("get", url, params=params)
            answer = response.json()
            for perm in answer.get("permissions", []):
                if (perm.get("type") == "user" and str(perm.get("emailAddress", "")).lower() == person
                        and perm.get("role") in (role, "owner")):
                    return response
            if not answer.get("nextPageToken"):
                return None
            params = {**params, "pageToken": answer["nextPageToken"]}

    def _without_denied(self, book_id: str, tabs: list[TabWrite]) -> list[TabWrite]:
        """`tabs` whose editors leave out the addresses the last `share` could not give access to the book:
        a protection would name someone who cannot open it (see `share`)."""
        with self._lock:
            denied = set(self._denied.get(book_id, ()))
        if not denied:
            return tabs
        return [dataclasses.replace(t, editors=tuple(e for e in t.editors if e.strip().lower() not in denied))
                if any(e.strip().lower() in denied for e in t.editors) else t for t in tabs]

    def export_xlsx(self, book_id: str, dest: str) -> None:
        """Save the book as a real .xlsx file (Drive export), written atomically."""
        with self._errors(book_id, "export"):
            content = self.http.export(book_id, ExportFormat.EXCEL)
        path = Path(dest)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        tmp.write_bytes(content)
        os.replace(tmp, path)


def invitation(config: GameConfig, key: str) -> str:
    """The note of Google's invitation e-mail (`share --notify`): the game, the book, and where to find it."""
    game = f"«{config.title}»"
    factions = getattr(config, "factions", {}) or {}
    if key in factions:
        what = (f"книгу фракции «{factions[key].name}» в игре {game}. В ней вы пишете приказы своей фракции во "
                "вкладках приказов")
    elif key == "public":
        what = f"общую книгу игры {game}: карта, хроника и отчёты, которые видят все игроки"
    else:
        what = f"книгу мастера игры {game}"
    return (f"Мастер открыл вам {what}. Откройте её по кнопке в этом письме; позже она найдётся на Google Диске "
            "в разделе «Доступные мне». Войдите в тот аккаунт Google, на который пришло это письмо.")


class _Stale(Exception):
    """A 400 that one metadata refresh may cure."""


__all__ = ["GSheetsBackend", "CREATE_MARKER", "MAX_WORKERS"]
