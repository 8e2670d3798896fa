"""FakeGoogle: an in-process Google (Sheets v4, Drive v3, OAuth token) for tests and benchmarks.

One file for one class over 400 lines: the HTTP entry point, faults, quota, the request log and the Sheets
endpoints share one lock and one state; Drive's part is the `fake_drive.DriveFiles` mixin.

It holds files, shared drives and identities; answers HTTP requests routed to it by
`FakeGoogleAdapter`; enforces file permissions, protected ranges per caller, and the
per-minute Sheets quota; and injects latency and faults on demand. Every request is logged, and
checked against Google's discovery documents (`discovery`): by default a request Google would
refuse raises DiscoveryViolation in the caller, so any test sending one fails. Drive's files and
permissions are `fake_drive.DriveFiles`; one spreadsheet is `fake_sheets.Spreadsheet`.
"""
from __future__ import annotations

import collections
import copy
import email
import json
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import orjson

from tests.fake_google import discovery as discovery_docs
from tests.fake_google import field_mask
from tests.fake_google.fake_batch import answer_batch, is_batch
from tests.fake_google.fake_drive import (
    FOLDER_MIME,
    MEDIA_KEY,
    RANK,
    SPREADSHEET_MIME,
    DriveFile,
    DriveFiles,
    drive_error,
)
from tests.fake_google.fake_errors import ApiError, sheets_error
from tests.fake_google.fake_identity import Identity, IdSource
from tests.fake_google.fake_oauth import TOKEN_PREFIX, OAuthServer, caller_app
from tests.fake_google.fake_sheets import Spreadsheet

SERVICE_ACCOUNT_DOMAIN = ".gserviceaccount.com"


@dataclass
class Fault:
    """An injected failure. kind: "http" (answer `status`), "reset" (connection error before the
    request is applied) or "drop" (apply it, then lose the answer as a connection error)."""

    kind: str = "http"
    status: int = 500
    times: int = 1
    op: str | None = None
    file_id: str | None = None
    retry_after: float | None = None
    message: str | None = None
    reason: str | None = None         # answer in Drive's shape with this reason (e.g. sharingRateLimitExceeded)


class Gathering:
    """The next `count` requests of one operation, each held until all of them are in flight at once
    (`met`), or until `timeout` real seconds passed (requests sent one after another: `met` stays False).
    Makes concurrency observable without timing anything."""

    def __init__(self, op: str, count: int, timeout: float):
        self.op, self.count, self.timeout = op, count, timeout
        self.arrived = 0         # requests taken so far (the gathering holds the first `count`)
        self.waiting = 0         # requests held now
        self.met = False
        self._cond = threading.Condition()

    def take(self) -> bool:
        """Count one more request of the op in (the caller holds the fake's lock); False once full."""
        if self.arrived >= self.count:
            return False
        self.arrived += 1
        return True

    def join(self) -> None:
        with self._cond:
            self.waiting += 1
            if self.waiting >= self.count:
                self.met = True
                self._cond.notify_all()
            elif not self._cond.wait_for(lambda: self.met, self.timeout):
                self.waiting -= 1            # alone until the timeout: gone on without the others

    def __reduce__(self) -> tuple[Any, ...]:      # a pickled fake (the crash sweep) holds none
        return (Gathering, (self.op, 0, 0.0))


@dataclass(frozen=True)
class Sent:
    """One request as received (for checks against the discovery documents)."""

    method: str
    url: str
    body: Any
    problems: tuple[str, ...] = ()
    identity: str = ""
    bridge: bool = False        # sent by forumwar: a service account, or a person signed in through OAuth


@dataclass(frozen=True)
class Call:
    """One logged request: who, what operation on which file, the answered status, and when
    (on the fake's clock, once answered)."""

    identity: str
    method: str
    op: str
    file_id: str | None
    status: int
    url: str
    at: float = 0.0


class FakeGoogle(DriveFiles, OAuthServer):
    """The fake's whole state. Thread-safe; latency is slept outside the lock."""

    def __init__(self, *, seed: int = 0, latency: float = 0.0, quota_per_minute: tuple[int, int] | None = (60, 60),
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
                 locale: str = "en_US", quota_retry_after: bool = False, discovery: str = "raise",
                 search_lag: float = 0.0):
        """`discovery`: "raise" (a request of a service account, i.e. of the bridge, departing from
        Google's discovery documents raises DiscoveryViolation), "answer" (it gets Google's 400
        instead) or "off". Requests of people (gspread in a test, as a browser would) are only
        recorded: Google takes the few fields gspread sends outside the documents.
        `search_lag`: seconds (on `clock`) before Drive's search (files.list) shows a new file, as Drive's
        index can lag behind a create; a files.get by id sees it at once."""
        self.lock = threading.RLock()
        self.ids = IdSource(random.Random(seed), self.lock)
        self.latency = latency
        self.quota_per_minute = quota_per_minute
        self.quota_retry_after = quota_retry_after
        self.clock = clock
        self.sleep = sleep
        self.search_lag = search_lag
        self.locale = locale
        self.identities: dict[str, Identity] = {}
        self.files: dict[str, DriveFile] = {}
        self.drives: dict[str, dict[str, str]] = {}
        self.faults: list[Fault] = []
        self.calls: list[Call] = []
        self.notifications: list[tuple[str, str, str]] = []
        self.discovery = discovery if discovery == "off" or discovery_docs.available() else "off"
        self.sent: list[Sent] = []
        self._quota: dict[tuple[str, str], collections.deque] = collections.defaultdict(collections.deque)
        self._seconds = 0
        self.gatherings: list[Gathering] = []
        self._oauth_init()

    # -- set-up helpers (no HTTP) -----------------------------------------------------------------
    def add_user(self, email: str, *, google_account: bool = True, storage: bool = True) -> Identity:
        with self.lock:
            ident = self.identities[email] = Identity(email, google_account, storage)
            return ident

    def add_service_account(self, email: str, *, storage: bool = False) -> Identity:
        return self.add_user(email, storage=storage)

    def token_for(self, email: str) -> str:
        if email not in self.identities:
            self.add_user(email)
        return TOKEN_PREFIX + email

    def add_shared_drive(self, name: str, members: dict[str, str]) -> str:
        """A shared drive with members by role (organizer, fileOrganizer, writer, reader); returns
        the id of its root folder, usable as `parents`."""
        with self.lock:
            drive_id = "0A" + self.ids.text(17)
            self.drives[drive_id] = dict(members)
            self.files[drive_id] = DriveFile(drive_id, name, FOLDER_MIME, None, [], drive_id,
                                             self._now(), self._now())
            return drive_id

    def create_spreadsheet(self, owner: str, title: str, shared_with: dict[str, str] | None = None,
                           parent: str | None = None) -> str:
        """What a GM does in the browser: create a book and share it (no request is logged)."""
        with self.lock:
            file = self._new_file(title, SPREADSHEET_MIME, owner, [parent] if parent else [])
            for email, role in (shared_with or {}).items():
                self._grant(file, "user", role, email)
            return file.id

    def share(self, file_id: str, email: str, role: str) -> None:
        with self.lock:
            self._grant(self.files[file_id], "user", role, email)

    def delete_file(self, file_id: str) -> None:
        with self.lock:
            del self.files[file_id]

    def spreadsheet(self, file_id: str) -> Spreadsheet:
        sheet = self.files[file_id].spreadsheet
        assert sheet is not None
        return sheet

    def inject(self, kind: str = "http", status: int = 500, times: int = 1, op: str | None = None,
               file_id: str | None = None, retry_after: float | None = None, message: str | None = None,
               reason: str | None = None) -> Fault:
        fault = Fault(kind, status, times, op, file_id, retry_after, message, reason)
        with self.lock:
            self.faults.append(fault)
        return fault

    def gather(self, op: str, count: int, timeout: float = 2.0) -> Gathering:
        """Hold the next `count` requests of `op` until they are all in flight together (see Gathering)."""
        gathering = Gathering(op, count, timeout)
        with self.lock:
            self.gatherings.append(gathering)
        return gathering

    def _gathering(self, op: str) -> Gathering | None:
        with self.lock:
            for gathering in self.gatherings:
                if gathering.op == op and gathering.take():
                    return gathering
        return None

    def count(self, op: str | None = None, *, file_id: str | None = None, identity: str | None = None,
              status: int | None = None) -> int:
        """How many logged requests match (op may be a prefix such as "values." or "drive.")."""
        with self.lock:
            return sum(1 for c in self.calls
                       if (op is None or c.op == op or (op.endswith(".") and c.op.startswith(op)))
                       and (file_id is None or c.file_id == file_id)
                       and (identity is None or c.identity == identity)
                       and (status is None or c.status == status))


    # -- HTTP entry point -----------------------------------------------------------------------
    def handle(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None, *,
               part: bool = False) -> tuple[int, dict, bytes]:
        """Answer one HTTP request: (status, headers, body); `part`: a call of a Drive batch (no latency of its own)."""
        parts = urlsplit(url)
        op, file_id = _classify(method, parts.netloc, parts.path)
        gathering = self._gathering(op)
        if gathering is not None:
            gathering.join()
        if self.latency and not part:
            self.sleep(self.latency)
        query = parse_qs(parts.query, keep_blank_values=True)
        identity = ""
        try:
            if op in ("oauth.token", "oauth.revoke"):
                with self.lock:
                    email, answer = (self._token(body, headers) if op == "oauth.token"
                                     else self._revoke(parts.query, body))
                self._log(email, method, op, None, answer[0], url)
                return answer
            identity, bridge = self._identity(headers)
            if is_batch(parts.netloc, parts.path) and method == "POST" and not part:      # fake_batch
                answer = answer_batch(lambda m, u, h, b: self.handle(m, u, h, b, part=True), headers, body)
                self._log(identity, method, "drive.batch", None, answer[0], url)
                return answer
            self._check_discovery(method, url, headers, body, identity, bridge)
            self.check_scopes(method, url, headers, file_id)      # fake_oauth: what the token's scopes allow
            fault = self._take_fault(op, file_id)
            if fault is not None and fault.kind == "reset":
                self._log(identity, method, op, file_id, 0, url)
                raise ConnectionResetError("injected connection reset")
            if fault is not None and fault.kind == "http":
                raise self._fault_error(fault)
            self._check_quota(identity, op)
            payload, media = _payload(headers, body)
            if media is not None:
                payload = {**(payload or {}), MEDIA_KEY: media}
            with self.lock:
                status, out_headers, data = self._dispatch(op, method, parts.path, query, payload, identity, file_id)
            self._log(identity, method, op, file_id, status, url)
            if fault is not None and fault.kind == "drop":
                raise ConnectionResetError("injected lost response")
            return status, out_headers, data
        except ApiError as err:
            self._log(identity, method, op, file_id, err.status, url)
            headers_out = {"Content-Type": "application/json; charset=UTF-8", **err.headers}
            return err.status, headers_out, _json(err.body)

    def _check_discovery(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None,
                         identity: str, bridge: bool) -> None:
        """Record the request; one that departs from the discovery documents raises or gets a 400."""
        try:
            payload, _ = _payload(headers, body)
        except ValueError:
            payload = None
        problems = tuple(discovery_docs.check(method, url, payload)) if self.discovery != "off" else ()
        with self.lock:
            self.sent.append(Sent(method, url, payload, problems, identity, bridge))
        if not problems or not bridge:
            return
        if self.discovery == "raise":
            raise discovery_docs.DiscoveryViolation(f"{method} {url}\n" + "\n".join(problems))
        raise sheets_error(400, "Invalid JSON payload received. " + "; ".join(problems))

    def _log(self, identity: str, method: str, op: str, file_id: str | None, status: int, url: str) -> None:
        with self.lock:
            self.calls.append(Call(identity, method, op, file_id, status, url, self.clock()))

    def _identity(self, headers: Mapping[str, str]) -> tuple[str, bool]:
        """(who, whether forumwar sent it) from the bearer token; 401 as Google answers a missing or dead one."""
        auth = headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            raise sheets_error(401, "Request is missing required authentication credential. Expected OAuth 2 "
                                    "access token, login cookie or other valid authentication credential.")
        owner = self.access_token_owner(auth[len("Bearer "):])
        if owner is None:
            raise sheets_error(401, "Request had invalid authentication credentials. Expected OAuth 2 access "
                                    "token, login cookie or other valid authentication credential. See "
                                    "https://developers.google.com/identity/sign-in/web/devconsole-project.")
        email, issued = owner
        return email, issued or email.endswith(SERVICE_ACCOUNT_DOMAIN)

    def _take_fault(self, op: str, file_id: str | None) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.times > 0 and (fault.op is None or fault.op == op) \
                        and (fault.file_id is None or fault.file_id == file_id):
                    fault.times -= 1
                    return fault
        return None

    @staticmethod
    def _fault_error(fault: Fault) -> ApiError:
        messages = {429: "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per "
                         "minute per user' of service 'sheets.googleapis.com' for consumer "
                         "'project_number:000000000000'.",
                    500: "Internal error encountered.", 502: "Bad Gateway",
                    503: "The service is currently unavailable.", 504: "Deadline exceeded."}
        if fault.reason is not None:
            err = drive_error(fault.status, fault.message or f"Injected {fault.reason}.", fault.reason,
                              domain="usageLimits")
        else:
            err = sheets_error(fault.status, fault.message or messages.get(fault.status, "Injected error."))
        if fault.retry_after is not None:
            err.headers["Retry-After"] = str(fault.retry_after)
        return err

    def _check_quota(self, identity: str, op: str) -> None:
        if self.quota_per_minute is None or not op.startswith(("spreadsheets.", "values.")):
            return
        kind = "read" if op in ("spreadsheets.get", "values.get", "values.batchGet") else "write"
        limit = self.quota_per_minute[0 if kind == "read" else 1]
        with self.lock:
            now = self.clock()
            window = self._quota[(identity, kind)]
            while window and window[0] <= now - 60:
                window.popleft()
            if len(window) >= limit:
                metric = "Read requests" if kind == "read" else "Write requests"
                err = sheets_error(
                    429, f"Quota exceeded for quota metric '{metric}' and limit '{metric} per minute per user' of "
                         "service 'sheets.googleapis.com' for consumer 'project_number:000000000000'.",
                    details=[{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED",
                              "domain": "googleapis.com",
                              "metadata": {"quota_limit": f"{kind.capitalize()}RequestsPerMinutePerUser",
                                           "service": "sheets.googleapis.com"}}])
                if self.quota_retry_after:
                    err.headers["Retry-After"] = str(max(1, int(window[0] + 60 - now + 0.999)))
                raise err
            window.append(now)

    # -- routing ---------------------------------------------------------------------------------
    def _dispatch(self, op: str, method: str, path: str, query: dict, body: Any, who: str,
                  file_id: str | None) -> tuple[int, dict, bytes]:
        if op.startswith(("spreadsheets.", "values.")):
            if op == "spreadsheets.create":
                result = self._sheets_create(body or {}, who)
            else:
                result = self._sheets(op, path, query, body, who, file_id or "")
        elif op.startswith("drive."):
            result = self._drive(op, path, query, body, who, file_id or "")
        else:
            raise sheets_error(404, "Not Found", "NOT_FOUND")
        if isinstance(result, tuple):
            return result
        if result is None:
            return 204, {"Content-Type": "text/html"}, b""
        fields = query.get("fields", [None])[0]
        if fields:
            result = field_mask.select(result, field_mask.parse(fields))
        return 200, {"Content-Type": "application/json; charset=UTF-8"}, _json(result)

    # -- Sheets v4 ---------------------------------------------------------------------------------
    def _book(self, file_id: str, who: str, write: bool) -> tuple[DriveFile, Spreadsheet]:
        file = self.files.get(file_id)
        if file is None or file.spreadsheet is None:
            raise sheets_error(404, "Requested entity was not found.")
        role = self.role_of(file, who)
        if role is None or (write and RANK[role] < RANK["writer"]):
            raise sheets_error(403, "The caller does not have permission")
        return file, file.spreadsheet

    def _sheets_create(self, body: dict, who: str) -> dict:
        ident = self.identities[who]
        if not ident.storage:
            raise sheets_error(403, "The caller does not have permission")
        title = body.get("properties", {}).get("title", "Untitled spreadsheet")
        file = self._new_file(title, SPREADSHEET_MIME, who, [])
        file.app = caller_app().client_id
        assert file.spreadsheet is not None
        return file.spreadsheet.resource(who)

    def _strangers(self, file: DriveFile) -> frozenset[str]:
        """The addresses a protection of `file` may not name: those without a Google account that hold no
        permission on it (one invited by a notified share holds one). A group's members cannot be told, so a
        file shared with a group has none."""
        perms = list(file.permissions.values())
        if any(p.get("type") == "group" for p in perms):
            return frozenset()
        holders = {str(p.get("emailAddress", "")).lower() for p in perms}
        return frozenset(e for e, ident in self.identities.items()
                         if not ident.google_account and e.lower() not in holders)

    def _sheets(self, op: str, path: str, query: dict, body: Any, who: str, file_id: str) -> Any:
        write = op not in ("spreadsheets.get", "values.get", "values.batchGet")
        file, book = self._book(file_id, who, write)
        one = lambda name, default=None: query.get(name, [default])[0]  # noqa: E731
        if op == "spreadsheets.get":
            # includeGridData is ignored when a field mask asks for the data itself.
            grid = str(one("includeGridData", "false")).lower() == "true" or "data" in re.split(
                r"[^A-Za-z]+", one("fields", "") or "")
            return book.resource(who, include_grid=grid, ranges=query.get("ranges"))
        if op == "values.get":
            return book.values_get(_range_from_path(path), one("valueRenderOption", "FORMATTED_VALUE"),
                                   one("majorDimension", "ROWS"))
        if op == "values.batchGet":
            ranges = query.get("ranges", [])
            render = one("valueRenderOption", "FORMATTED_VALUE")
            major = one("majorDimension", "ROWS")
            return {"spreadsheetId": book.id, "valueRanges": [book.values_get(r, render, major) for r in ranges]}
        body = body or {}
        work = copy.deepcopy(book)
        if op == "spreadsheets.batchUpdate":
            replies = work.batch_update(body.get("requests", []), who, self._strangers(file))
            result: dict[str, Any] = {"spreadsheetId": book.id, "replies": replies}
            if body.get("includeSpreadsheetInResponse"):
                result["updatedSpreadsheet"] = work.resource(
                    who, include_grid=bool(body.get("responseIncludeGridData")),
                    ranges=body.get("responseRanges") or None)
        elif op == "values.update":
            result = work.values_update(_range_from_path(path), body.get("values", []),
                                        one("valueInputOption", ""), who, body.get("majorDimension") or "ROWS")
        elif op == "values.batchUpdate":
            option = body.get("valueInputOption", "")
            responses = [work.values_update(vr.get("range", ""), vr.get("values", []), option, who,
                                            vr.get("majorDimension") or "ROWS") for vr in body.get("data", [])]
            result = {"spreadsheetId": book.id,
                      "totalUpdatedRows": sum(r["updatedRows"] for r in responses),
                      "totalUpdatedColumns": sum(r["updatedColumns"] for r in responses),
                      "totalUpdatedCells": sum(r["updatedCells"] for r in responses),
                      "totalUpdatedSheets": len({r["updatedRange"].rpartition("!")[0] for r in responses}),
                      "responses": responses}
        elif op == "values.clear":
            result = {"spreadsheetId": book.id, "clearedRange": work.values_clear(_range_from_path(path), who)}
        elif op == "values.batchClear":
            result = {"spreadsheetId": book.id,
                      "clearedRanges": [work.values_clear(r, who) for r in body.get("ranges", [])]}
        elif op == "values.append":
            result = work.values_append(_range_from_path(path), body.get("values", []), one("valueInputOption", ""),
                                        who, one("insertDataOption", "OVERWRITE"))
        else:
            raise sheets_error(404, "Not Found")
        file.spreadsheet = work
        file.modified = self._now()
        return result



def _classify(method: str, host: str, path: str) -> tuple[str, str | None]:
    """(operation name, file id) of a request, from its method, host and raw path."""
    if host == "oauth2.googleapis.com" and path in ("/token", "/revoke"):
        return "oauth." + path[1:], None
    if host == "www.googleapis.com" and path == "/drive/v3/about":
        return ("drive.about.get" if method == "GET" else "unknown"), None
    if host == "sheets.googleapis.com" and path.startswith("/v4/spreadsheets"):
        rest = path[len("/v4/spreadsheets"):]
        if rest in ("", "/"):
            return ("spreadsheets.create" if method == "POST" else "unknown"), None
        rest = rest[1:]
        if "/values" not in rest:
            if rest.endswith(":batchUpdate") and method == "POST":
                return "spreadsheets.batchUpdate", unquote(rest[: -len(":batchUpdate")])
            return ("spreadsheets.get" if method == "GET" else "unknown"), unquote(rest)
        file_id, _, tail = rest.partition("/values")
        file_id = unquote(file_id)
        ops = {(":batchGet", "GET"): "values.batchGet", (":batchUpdate", "POST"): "values.batchUpdate",
               (":batchClear", "POST"): "values.batchClear"}
        if (tail, method) in ops:
            return ops[(tail, method)], file_id
        if tail.endswith(":append") and method == "POST":
            return "values.append", file_id
        if tail.endswith(":clear") and method == "POST":
            return "values.clear", file_id
        return {"GET": "values.get", "PUT": "values.update"}.get(method, "unknown"), file_id
    if host == "www.googleapis.com" and path.startswith("/upload/drive/v3/files"):
        ids = [unquote(p) for p in path[len("/upload/drive/v3/files"):].split("/") if p]
        if not ids and method == "POST":
            return "drive.files.create", None
        if len(ids) == 1 and method == "PATCH":
            return "drive.files.update", ids[0]
        return "unknown", None
    if host == "www.googleapis.com" and path.startswith("/drive/v3/files"):
        parts = [unquote(p) for p in path[len("/drive/v3/files"):].split("/") if p]
        if not parts:
            return {"POST": "drive.files.create", "GET": "drive.files.list"}.get(method, "unknown"), None
        file_id = parts[0]
        if len(parts) == 1:
            return {"GET": "drive.files.get", "DELETE": "drive.files.delete",
                    "PATCH": "drive.files.update"}.get(method, "unknown"), file_id
        if parts[1] == "export":
            return "drive.files.export", file_id
        if parts[1] == "copy":
            return "drive.files.copy", file_id
        if parts[1] == "permissions":
            if len(parts) == 2:
                return {"GET": "drive.permissions.list", "POST": "drive.permissions.create"}.get(
                    method, "unknown"), file_id
            return {"GET": "drive.permissions.get", "DELETE": "drive.permissions.delete",
                    "PATCH": "drive.permissions.update"}.get(method, "unknown"), file_id
    return "unknown", None


def _payload(headers: Mapping[str, str], body: bytes | None) -> tuple[Any, bytes | None]:
    """(JSON metadata, media bytes) of a request body: JSON, a multipart/related upload (metadata then
    media, RFC 2387, as Drive's uploadType=multipart) or bare media (uploadType=media)."""
    kind = headers.get("Content-Type", "")
    if not body:
        return None, None
    if kind.startswith("application/json"):
        return json.loads(body), None
    if kind.startswith("multipart/related"):
        message = email.message_from_bytes(b"Content-Type: " + kind.encode() + b"\r\n\r\n" + body)
        parts = [bytes(part.get_payload(decode=True)) for part in message.walk() if not part.is_multipart()]
        return json.loads(parts[0]), parts[1] if len(parts) > 1 else b""
    return None, body


def _range_from_path(path: str) -> str:
    tail = path.split("/values/", 1)[1]
    for suffix in (":append", ":clear"):
        if tail.endswith(suffix):
            tail = tail[: -len(suffix)]
    return unquote(tail)


def _json(body: Any) -> bytes:
    """A response body as Google sends it: UTF-8 JSON indented by two spaces (orjson: the responses
    are whole books, and json's indenting encoder is pure Python)."""
    return orjson.dumps(body, option=orjson.OPT_INDENT_2)
