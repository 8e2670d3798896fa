"""Pictures on Google: each PNG is a Drive file readable by exactly the people of its book, linked from a tab.

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
"""
from __future__ import annotations

import hashlib
import json
import secrets
import threading
from contextlib import AbstractContextManager
from typing import Any, Protocol

import requests
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL

from sheets_bridge.backends.base import BackendError, BookNotFound, PicturesNotStored, TabWrite
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


class DrivePictures:
    """The picture files of one backend's game, and their readers; the file ids are kept in its metadata."""

    def __init__(self, backend: Host, known: dict[str, str]):
        self.be = backend
        # slot mark -> its file id, FOLDER_SLOT -> the folder's, "of:FILE" -> the file's book, "tab:BOOK:TITLE" ->
        # what the tab was last written with
        self.known = known

    # -- the tab ---------------------------------------------------------------------------------
    def put(self, book_id: str, title: str, pictures: list[bytes], note: str) -> None:
        """Store each PNG in its file (readers: the book's people), then write the tab: the note and the links."""
        rows: list[tuple[str, str]] = []
        if pictures:
            people = self._people(book_id)
            folder = self._folder(book_id)
            label = self.be._names.get(book_id) or "книга"
            for index, png in enumerate(pictures):
                name = f"{title} — {label}" + (f", {index + 1}" if len(pictures) > 1 else "") + ".png"
                file_id = self._store(slot_mark(book_id, title, index), name, png, folder, book_id)
                self._share(file_id, people, book_id)
                if self.known.get(f"of:{file_id}") != book_id:
                    self._remember(f"of:{file_id}", book_id)
                caption = "Открыть рисунок" + (f" {index + 1} из {len(pictures)}" if len(pictures) > 1 else "")
                rows.append((caption + " (откроется на Google Диске)", view_url(file_id)))
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
            people = self._people(book_id)
            for file_id in files:
                self._share(file_id, people, book_id)

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

    def _store(self, slot: str, name: str, png: bytes, folder: str, book_id: str) -> str:
        """The picture's bytes into its file: an update of the known file, else a new file (multipart upload)."""
        tried: set[str] = set()
        file_id = self.known.get(slot) or self._find(PICTURE_MARK, slot, book_id)
        while file_id is not None and file_id not in tried:
            tried.add(file_id)
            try:
                self._request(book_id, "patch", f"{UPLOAD_URL}/{file_id}", data=png,
                              params={"uploadType": "media", "supportsAllDrives": "true", "fields": "id"},
                              headers={"Content-Type": "image/png"})
                return self._remember(slot, file_id)
            except BookNotFound:              # deleted by hand: another with the mark, or a new file
                file_id = self._find(PICTURE_MARK, slot, book_id)
        metadata = {"name": name, "mimeType": "image/png", "parents": [folder], "appProperties": {PICTURE_MARK: slot}}
        boundary = "forumwar" + secrets.token_hex(12)
        body = (f"--{boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
                f"{json.dumps(metadata, ensure_ascii=False)}\r\n--{boundary}\r\nContent-Type: image/png\r\n\r\n"
                ).encode() + png + f"\r\n--{boundary}--\r\n".encode()
        answer = self._request(book_id, "post", UPLOAD_URL, data=body,
                               params={"uploadType": "multipart", "supportsAllDrives": "true", "fields": "id"},
                               headers={"Content-Type": f"multipart/related; boundary={boundary}"},
                               **self._recover(PICTURE_MARK, slot, book_id))
        return self._remember(slot, _id_of(answer))

    # -- readers ------------------------------------------------------------------------------------
    def _permissions(self, file_id: str, book_id: str) -> list[dict[str, Any]]:
        answer = self._request(book_id, "get", f"{DRIVE_FILES_API_V3_URL}/{file_id}/permissions",
                               params={"supportsAllDrives": "true", "fields": PERMISSION_FIELDS}).json()
        perms: list[dict[str, Any]] = answer.get("permissions") or []
        return perms

    def _people(self, book_id: str) -> dict[str, str]:
        """Who may open the book: its people and groups, address -> "user" or "group" (a link or a domain is
        never copied)."""
        return {str(p["emailAddress"]).lower(): str(p["type"]) for p in self._permissions(book_id, book_id)
                if p.get("type") in PEOPLE and p.get("emailAddress") and _own(p)}

    def _share(self, file_id: str, people: dict[str, str], book_id: str) -> None:
        """Make the file's own readers exactly `people`: add the missing, remove any other (a link included)."""
        me = self.be.account_email.lower()
        have: dict[str, str] = {}
        for perm in self._permissions(file_id, book_id):
            if not _own(perm) or perm.get("role") == "owner":
                continue
            email = str(perm.get("emailAddress") or "").lower()
            if perm.get("type") in PEOPLE and email in people:
                have[email] = str(perm["id"])
            elif email != me:
                self._request(book_id, "delete", f"{DRIVE_FILES_API_V3_URL}/{file_id}/permissions/{perm['id']}",
                              params={"supportsAllDrives": "true"})
        for email in sorted(set(people) - set(have) - {me}):
            try:
                self._request(book_id, "post", f"{DRIVE_FILES_API_V3_URL}/{file_id}/permissions", json={
                    "type": people[email], "role": "reader", "emailAddress": email}, params={
                    "supportsAllDrives": "true", "sendNotificationEmail": "false", "fields": "id"})
            except BackendError:
                continue          # an address without a Google account: it cannot open Drive files anyway
