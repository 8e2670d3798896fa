"""Pictures on Google: each PNG is a Drive file readable by exactly the people of its book, linked from a tab.

One file, over 400 lines: the uploads, the lookup of a stage's permissions in one batch call and the background
round of `sending_pictures` share the files' marks and their lock.

Google's documentation leaves one way: the Sheets API cannot place an image over cells, and `=IMAGE(url)`
shows only what Google's servers can fetch without the player's sign-in, i.e. a file open to anyone with the
link, which would let anyone see a faction's map. So a picture is a PNG file in the game's pictures folder
(beside the books: the GM's Drive or the shared-drive folder). Its readers are copied from its book's own
permissions, people and groups only, never a link or a domain; a faction's map is seen by that faction's
players and the GMs, the public map by everyone who may open the public book, the charts by the GMs. The
book's picture tab holds the note and a link per picture, which opens it in Drive for a signed-in reader.

One file per place (book, tab, number), found again by a mark in its appProperties and updated in place each
stage: the link never changes, Drive keeps the earlier versions (the game's archive/ keeps every stage's PNG).
So the tab is written only when its links or note change (in practice at the first stage): a stage's pictures
cost Drive requests only, none of the Sheets write quota.

A stage's pictures are sent together (`sending`, the backend's `sending_pictures`): each `put` hands its
uploads to a pool of PICTURE_WORKERS threads and returns, so a picture goes up while the next is drawn, and
the round ends when every one is stored. The readers are checked without a request per picture: the
permissions of every book and every known picture file are listed once per round, in one call of Drive's
batch endpoint (`drive_batch`), and a file's permissions change only where they differ from its book's
people (those changes, when several, in one batch too). Outside a round a `put` does its work at once.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import secrets
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

import requests
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL

from sheets_bridge.backends.base import BackendError, BookNotFound, PicturesNotStored, TabWrite
from sheets_bridge.backends.gsheets import drive_batch
from sheets_bridge.backends.gsheets.accounts import Who
from sheets_bridge.backends.gsheets.auth import SETUP_DOC
from sheets_bridge.backends.gsheets.http import ResilientHTTPClient
from sheets_bridge.backends.gsheets.sheets_requests import BookMeta


class Host(Protocol):
    """What the pictures use of the gsheets backend (GSheetsBackend): its client, names, lock and errors."""

    http: HTTPClient
    who: Who
    account_email: str
    _names: dict[str, str]
    _keys: dict[str, str]
    _lock: threading.RLock

    def _save(self) -> None: ...

    def _errors(self, book_id: str | None, action: str, name: str | None = None) -> AbstractContextManager[None]: ...

    def metadata(self, book_id: str, refresh: bool = False) -> BookMeta: ...

    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None: ...

UPLOAD_URL = "https://www.googleapis.com/upload/drive/v3/files"
FOLDER_MIME = "application/vnd.google-apps.folder"
PICTURE_MARK = "forumwarPicture"        # appProperties key: which place a PNG file fills
FOLDER_MARK = "forumwarPictures"        # appProperties key of a game's pictures folder
FOLDER_SLOT = "folder"
PERMISSION_FIELDS = "permissions(id,type,role,emailAddress,domain,permissionDetails(inherited))"
PEOPLE = ("user", "group")
# Picture requests in flight at once in a round: a 16-faction stage's charts go up together. Drive allows
# 12,000 requests a minute per user; even at 0.1 s a request 16 threads stay under a tenth of that.
PICTURE_WORKERS = 16
_T = TypeVar("_T")


def view_url(file_id: str) -> str:
    return f"https://drive.google.com/file/d/{file_id}/view"


def slot_mark(book_id: str, title: str, index: int) -> str:
    return hashlib.sha256(f"{book_id}\x1f{title}\x1f{index}".encode()).hexdigest()[:32]


def _id_of(answer: requests.Response) -> str:
    """The file id of a create's answer, or of the search that found the file a lost answer had made."""
    data = answer.json()
    return str(data["files"][0]["id"] if "files" in data else data["id"])


def _own(perm: dict[str, Any]) -> bool:
    """A permission given on the file itself (not a shared drive's membership, inherited by every file)."""
    details = perm.get("permissionDetails") or []
    return not details or not all(d.get("inherited") for d in details)


class _Round:
    """One stage's pictures sent together: the pool their jobs run in (None: each job at once, in the caller),
    the permission lists looked up in it (each once), and the jobs' futures. A job waits only for jobs handed
    in before it (a tab for its pictures), so the pool's first-in, first-out queue never leaves a waiting job
    without a thread for what it waits for."""

    def __init__(self, pool: ThreadPoolExecutor | None):
        self.pool = pool
        self.futures: list[Future[Any]] = []
        self.batched: set[str] = set()          # ids whose permissions the round's batch lists
        self.batch: Future[dict[str, list[dict[str, Any]]]] | None = None
        self.told = False                       # a PicturesNotStored was raised to a `put` already
        self._once: dict[str, Future[Any]] = {}
        self._lock = threading.Lock()

    def run(self, job: Callable[[], _T]) -> Future[_T]:
        """The job handed to the pool, or done now (its error raised now) outside a round."""
        if self.pool is None:
            done: Future[_T] = Future()
            done.set_result(job())
            return done
        future = self.pool.submit(job)
        with self._lock:
            self.futures.append(future)
        return future

    def once(self, key: str, job: Callable[[], _T]) -> _T:
        """`job()`'s result, computed by the first caller of `key` in the round (the others wait for it)."""
        with self._lock:
            future = self._once.get(key)
            mine = future is None
            if future is None:
                future = self._once[key] = Future()
        if mine:
            try:
                future.set_result(job())
            except BaseException as exc:
                future.set_exception(exc)
        result: _T = future.result()
        return result

    def not_stored(self) -> PicturesNotStored | None:
        """A PicturesNotStored some finished job met, if none was raised to a `put` yet."""
        if self.told:
            return None
        with self._lock:
            done = [f for f in self.futures if f.done() and not f.cancelled()]
        return next((e for f in done if isinstance(e := f.exception(), PicturesNotStored)), None)


class DrivePictures:
    """The picture files of one backend's game, and their readers; the file ids are kept in its metadata."""

    def __init__(self, backend: Host, known: dict[str, str]):
        self.be = backend
        # slot mark -> its file id, FOLDER_SLOT -> the folder's, "of:FILE" -> the file's book, "tab:BOOK:TITLE" ->
        # what the tab was last written with
        self.known = known
        self._round: _Round | None = None

    # -- a round ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def sending(self) -> Iterator[None]:
        """Send the pictures of the `put`s made meanwhile together; on leaving, wait until every one is stored and
        raise the first failure (a PicturesNotStored only if no `put` raised one)."""
        if self._round is not None:
            yield
            return
        with ThreadPoolExecutor(PICTURE_WORKERS, thread_name_prefix="pictures") as pool:
            current = self._round = _Round(pool)
            try:
                yield
            finally:
                wait(current.futures)
                self._round = None
        errors = [e for f in current.futures if (e := f.exception()) is not None]
        for error in errors:
            if not isinstance(error, PicturesNotStored):
                raise error
        if errors and not current.told:
            raise errors[0]

    # -- the tab ---------------------------------------------------------------------------------
    def put(self, book_id: str, title: str, pictures: list[bytes], note: str) -> None:
        """Store each PNG in its file (readers: the book's people), then write the tab: the note and the links.
        In a round the work is handed to its pool; a PicturesNotStored met by an earlier picture is raised here."""
        current = self._round or _Round(None)
        told = current.not_stored()
        if told is not None:
            current.told = True
            raise told
        files: list[Future[str]] = []
        slots = [slot_mark(book_id, title, index) for index in range(len(pictures))]
        if pictures:
            folder = self._folder(book_id)           # once per game: a Drive that keeps no file says so here
            self._look_up_all(current)
            label = self.be._names.get(book_id) or "книга"
            for index, png in enumerate(pictures):
                name = f"{title} — {label}" + (f", {index + 1}" if len(pictures) > 1 else "") + ".png"
                files.append(current.run(functools.partial(
                    self._send, current, slots[index], name, png, folder, book_id)))
        current.run(functools.partial(self._tab, book_id, title, note, files, [self.known.get(s) for s in slots]))

    def _send(self, current: _Round, slot: str, name: str, png: bytes, folder: str, book_id: str) -> str:
        """One picture's bytes into its file, its readers made its book's people; the file's id."""
        file_id, made = self._store(slot, name, png, folder, book_id)
        people = self._people(book_id, current)
        self._share(file_id, people, book_id, [] if made else self._lookup(file_id, book_id, current))
        if self.known.get(f"of:{file_id}") != book_id:
            self._remember(f"of:{file_id}", book_id)
        return file_id

    def _tab(self, book_id: str, title: str, note: str, files: list[Future[str]], known: list[str | None]) -> None:
        """The tab's note and a link per picture. Where every picture's file is known (`known`: their ids before
        the uploads), the tab is written at once, beside the uploads; it is written again only if an upload had
        to make another file (one deleted by hand)."""
        if known and all(known):
            self._write_tab(book_id, title, note, [str(k) for k in known])
        self._write_tab(book_id, title, note, [f.result() for f in files])

    def _write_tab(self, book_id: str, title: str, note: str, ids: list[str]) -> None:
        """Write the tab if its note or links differ from what it was last written with."""
        rows = [("Открыть рисунок" + (f" {n} из {len(ids)}" if len(ids) > 1 else "") + " (откроется на Google Диске)",
                 view_url(file_id)) for n, file_id in enumerate(ids, 1)]
        tab = TabWrite(title, header=(note, ""), rows=tuple(rows), column_widths={0: 45, 1: 60}, link_columns=(1,))
        written = hashlib.sha256(json.dumps([note, rows], ensure_ascii=False).encode()).hexdigest()[:32]
        slot = f"tab:{book_id}:{title}"
        if self.known.get(slot) != written or title not in self.be.metadata(book_id).sheets:
            self.be.write_book(book_id, [tab])     # the links stay from stage to stage: written when they change
            self._remember(slot, written)

    def reshare(self, book_id: str) -> None:
        """After the book's people changed (`forumwar share`): its pictures' readers follow."""
        files = [key[3:] for key, book in self.known.items() if key.startswith("of:") and book == book_id]
        if files:
            current = _Round(None)
            people = self._people(book_id, current)
            for file_id in files:
                self._share(file_id, people, book_id, self._lookup(file_id, book_id, current))

    # -- files -------------------------------------------------------------------------------------
    def _request(self, book_id: str, method: str, url: str, **kwargs: Any) -> requests.Response:
        with self.be._errors(book_id, "pictures"):
            try:
                return self.be.http.request(method, url, **kwargs)
            except APIError as err:
                if err.code == 403 and "storageQuotaExceeded" in json.dumps(getattr(err, "error", {})):
                    raise PicturesNotStored(
                        f"{self.be.who.nominative} не может хранить рисунки на Google Диске: у сервисного аккаунта "
                        "нет своего места. Рисунки остались в archive/ игры. Чтобы они попадали в книги, ведите игру "
                        "от аккаунта мастера (forumwar login) или создайте книги в папке общего диска "
                        f"(см. {SETUP_DOC}, «Карты и графики в Google-таблицах»).") from err
                raise

    def _search(self, key: str, value: str) -> requests.Response:
        """Drive's search for the files carrying this mark in their appProperties."""
        query = f"appProperties has {{ key='{key}' and value='{value}' }} and trashed = false"
        return self.be.http.request("get", DRIVE_FILES_API_V3_URL, params={
            "q": query, "fields": "files(id)", "supportsAllDrives": "true", "includeItemsFromAllDrives": "true",
            "corpora": "allDrives"})

    def _find(self, key: str, value: str, book_id: str) -> str | None:
        with self.be._errors(book_id, "pictures"):
            files = self._search(key, value).json().get("files") or []
        return str(files[0]["id"]) if files else None

    def _remember(self, slot: str, file_id: str) -> str:
        with self.be._lock:
            self.known[slot] = file_id
            self.be._save()
        return file_id

    def _folder(self, book_id: str) -> str:
        """The game's pictures folder, beside the GM book (or this book): found by its mark or made once."""
        if FOLDER_SLOT in self.known:
            return self.known[FOLDER_SLOT]
        anchor = next((b for b, key in self.be._keys.items() if key == "gm"), book_id)
        mark = hashlib.sha256(anchor.encode()).hexdigest()[:32]
        found = self._find(FOLDER_MARK, mark, book_id)
        if found is None:
            info = self._request(anchor, "get", f"{DRIVE_FILES_API_V3_URL}/{anchor}",
                                 params={"supportsAllDrives": "true", "fields": "name,parents"}).json()
            game = str(info.get("name") or "игра").rsplit(" — ", 1)[0]    # «Игра — книга мастера» -> «Игра»
            body: dict[str, Any] = {"name": f"forumwar: рисунки — {game}", "mimeType": FOLDER_MIME,
                                    "appProperties": {FOLDER_MARK: mark}}
            if info.get("parents"):
                body["parents"] = [info["parents"][0]]
            found = _id_of(self._request(book_id, "post", DRIVE_FILES_API_V3_URL, json=body, params={
                "supportsAllDrives": "true", "fields": "id"}, **self._recover(FOLDER_MARK, mark, book_id)))
        return self._remember(FOLDER_SLOT, found)

    def _recover(self, key: str, value: str, book_id: str) -> dict[str, Any]:
        """A create whose answer was lost is looked for by its mark before it is sent again (its answer is then
        the search's: `_id_of` reads both)."""
        if not isinstance(self.be.http, ResilientHTTPClient):
            return {}

        def find() -> requests.Response | None:
            answer = self._search(key, value)
            return answer if answer.json().get("files") else None
        return {"recover": find}

    def _store(self, slot: str, name: str, png: bytes, folder: str, book_id: str) -> tuple[str, bool]:
        """The picture's bytes into its file: an update of the known file, else a new file (multipart upload);
        (its id, whether it was made now)."""
        tried: set[str] = set()
        file_id = self.known.get(slot) or self._find(PICTURE_MARK, slot, book_id)
        while file_id is not None and file_id not in tried:
            tried.add(file_id)
            try:
                self._request(book_id, "patch", f"{UPLOAD_URL}/{file_id}", data=png,
                              params={"uploadType": "media", "supportsAllDrives": "true", "fields": "id"},
                              headers={"Content-Type": "image/png"})
                return self._remember(slot, file_id), False
            except BookNotFound:              # deleted by hand: another with the mark, or a new file
                file_id = self._find(PICTURE_MARK, slot, book_id)
        metadata = {"name": name, "mimeType": "image/png", "parents": [folder], "appProperties": {PICTURE_MARK: slot}}
        boundary = "forumwar" + secrets.token_hex(12)
        body = (f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
                f"{json.dumps(metadata, ensure_ascii=False)}\r\n--{boundary}\r\nContent-Type: image/png\r\n\r\n"
                ).encode() + png + f"\r\n--{boundary}--\r\n".encode()
        recover = self._recover(PICTURE_MARK, slot, book_id)
        answer = self._request(book_id, "post", UPLOAD_URL, data=body,
                               params={"uploadType": "multipart", "supportsAllDrives": "true", "fields": "id"},
                               headers={"Content-Type": f"multipart/related; boundary={boundary}"}, **recover)
        made = "files" not in answer.json()    # a lost answer's file found by the search may hold readers already
        return self._remember(slot, _id_of(answer)), made

    # -- readers ------------------------------------------------------------------------------------
    def _permissions_url(self, file_id: str) -> str:
        return f"{DRIVE_FILES_API_V3_URL}/{file_id}/permissions"

    def _listed(self, file_id: str, book_id: str) -> list[dict[str, Any]]:
        """The permissions of a file or a book, in a request of their own."""
        answer = self._request(book_id, "get", self._permissions_url(file_id),
                               params={"supportsAllDrives": "true", "fields": PERMISSION_FIELDS}).json()
        perms: list[dict[str, Any]] = answer.get("permissions") or []
        return perms

    def _look_up_all(self, current: _Round) -> None:
        """At a round's first picture: list the permissions of every book and every picture file it knows, in
        one batch call (handed to the pool first, so it is on its way while the pictures are drawn)."""
        if current.pool is None or current.batch is not None:
            return
        files = {key[3:]: book for key, book in self.known.items() if key.startswith("of:")}
        ids = {**{book: book for book in [*self.be._keys, *files.values()]}, **files}
        if not ids:
            return
        current.batched.update(ids)
        current.batch = current.run(functools.partial(self._batch_lists, ids))

    def _batch_lists(self, ids: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
        """The permissions of each id (file or book id -> its book), listed in Drive batch calls; an id whose
        call failed is left out (it is then listed alone)."""
        order = list(ids)
        calls = [drive_batch.Call("get", self._permissions_url(i),
                                  {"supportsAllDrives": "true", "fields": PERMISSION_FIELDS}) for i in order]
        try:
            with self.be._errors(next(iter(ids.values())), "pictures"):
                answers = drive_batch.send(self.be.http, calls)
        except BackendError:
            return {}
        return {i: list(a.body.get("permissions") or []) for i, a in zip(order, answers, strict=True)
                if a.ok and isinstance(a.body, dict)}

    def _lookup(self, file_id: str, book_id: str, current: _Round) -> list[dict[str, Any]]:
        """The permissions of a file or a book, listed once a round: from the round's batch where it has them."""
        if file_id in current.batched and current.batch is not None:
            listed = current.batch.result()       # handed in before any picture: never waited for without a thread
            if file_id in listed:
                return listed[file_id]
        found: list[dict[str, Any]] = current.once(file_id, functools.partial(self._listed, file_id, book_id))
        return found

    def _people(self, book_id: str, current: _Round) -> dict[str, str]:
        """Who may open the book: its people and groups, address -> "user" or "group" (a link or a domain is
        never copied)."""
        return {str(p["emailAddress"]).lower(): str(p["type"]) for p in self._lookup(book_id, book_id, current)
                if p.get("type") in PEOPLE and p.get("emailAddress") and _own(p)}

    def _share(self, file_id: str, people: dict[str, str], book_id: str, perms: list[dict[str, Any]]) -> None:
        """Make the file's own readers exactly `people` (its permissions now: `perms`): add the missing, remove
        any other (a link included). Several changes go in one batch call; one that fails there is sent again
        alone, as a single change is."""
        me = self.be.account_email.lower()
        have: dict[str, str] = {}
        changes: list[drive_batch.Call] = []
        for perm in perms:
            if not _own(perm) or perm.get("role") == "owner":
                continue
            email = str(perm.get("emailAddress") or "").lower()
            if perm.get("type") in PEOPLE and email in people:
                have[email] = str(perm["id"])
            elif email != me:
                changes.append(drive_batch.Call("delete", f"{self._permissions_url(file_id)}/{perm['id']}",
                                                {"supportsAllDrives": "true"}))
        for email in sorted(set(people) - set(have) - {me}):
            changes.append(drive_batch.Call("post", self._permissions_url(file_id), {
                "supportsAllDrives": "true", "sendNotificationEmail": "false", "fields": "id"},
                {"type": people[email], "role": "reader", "emailAddress": email}))
        answers: list[drive_batch.Answer] = []
        if len(changes) > 1:
            with self.be._errors(book_id, "pictures"):
                answers = drive_batch.send(self.be.http, changes)
        for n, change in enumerate(changes):
            answer = answers[n] if n < len(answers) else None
            if answer is not None and (answer.ok or answer.status == 400 and change.method == "post"
                                       or answer.status == 404 and change.method == "delete"):
                continue          # done; or an address without a Google account: it cannot open Drive files anyway
            try:
                self._request(book_id, change.method, change.url, params=dict(change.params),
                              **({"json": dict(change.body)} if change.body is not None else {}))
            except BackendError:
                if change.method == "delete":
                    raise
                continue          # an address without a Google account, as above
