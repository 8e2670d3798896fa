"""The gsheets backend's HTTP layer: gspread's HTTPClient with a timeout, pacing and retries.

`ResilientHTTPClient` adds a timeout, bounded jittered retries on 429/5xx, connection errors
and Google's rate-limit 403s (Retry-After honoured; other 400/403/404 never retried) and
client-side pacing under the per-minute quota. The pacing budget of a real game is kept in a
small locked file per service account (`quota_file`), so every forumwar command of the machine
and every thread shares it. Before re-sending a request that may have been applied, a caller's
`recover()` is asked first (a spreadsheet create finds the file it already made, a permission create
the permission); a delete that may have been applied and then meets 404 has done its work.

The pacer counts requests as Google's Sheets quota does (`quota_kind`): a call that changes a spreadsheet
is a write, whatever it returns, so the `batchUpdate` that locks and reads the order tabs costs a write
like the push; a call that only reads is a read. Drive's requests (exports, sharing, file creates) are
outside the Sheets quota: Drive's own limit is in quota units far above what a game spends, and its
"slow down" answers are retried like a 429.
"""
from __future__ import annotations

import collections
import contextlib
import email.utils
import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import filelock
import requests
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient

# The one swap point for transport: every requests Session forumwar makes for Google (the API's, the token
# exchange's, `forumwar login`'s) passes through `routed`; tests route them to the fake Google there.
SessionRoute = Callable[[requests.Session], requests.Session]
_route: SessionRoute | None = None


def route_sessions(route: SessionRoute | None) -> SessionRoute | None:
    """Route every Google session forumwar makes from now on through `route` (None: the network);
    returns the route it replaces."""
    global _route
    previous, _route = _route, route
    return previous


def routed(session: requests.Session) -> requests.Session:
    """`session`, with the transport `route_sessions` set (as it is when none is set)."""
    return _route(session) if _route is not None else session


def authorized_session(credentials: Any) -> requests.Session:
    """google-auth's AuthorizedSession for `credentials`, its API calls and its token refreshes routed."""
    from google.auth.transport.requests import AuthorizedSession, Request
    return routed(AuthorizedSession(credentials, auth_request=Request(routed(requests.Session()))))


RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
# 403s that mean "slow down", not "forbidden" (Drive): retried like a 429.
RETRY_REASONS = frozenset({"rateLimitExceeded", "userRateLimitExceeded", "sharingRateLimitExceeded"})


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
        wait: float = cap / 2 + rng.uniform(0, cap / 2)
        if retry_after is not None:
            wait = max(wait, min(retry_after, self.max_retry_after))
        return wait


class RequestPacer:
    """At most `reads` read requests and `writes` write requests to the Sheets API (`quota_kind`) in any
    `window` seconds, across threads: Google allows 60 of each a minute per user, so 55 leaves a margin.

    With `path` the budget lives in that small JSON file under an exclusive file lock (filelock), so every
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
        with filelock.FileLock(f"{self.path}.lock"):      # waits: the budget is held for microseconds
            try:
                data = json.loads(self.path.read_text(encoding="utf-8") or "{}")
                sent = {k: [float(t) for t in data.get(k, [])] for k in self.limits}
            except (OSError, ValueError, TypeError, AttributeError):
                sent = {k: [] for k in self.limits}
            yield sent
            self.path.write_text(json.dumps(sent), encoding="utf-8")   # a torn file reads as an empty budget


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

    sent: collections.Counter[str] = field(default_factory=collections.Counter)
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


SHEETS_API = "https://sheets.googleapis.com/"
# Sheets methods sent by POST that only read (Google counts them as read requests).
_READ_POSTS = (":getByDataFilter", ":batchGetByDataFilter", "developerMetadata:search")


def quota_kind(method: str, url: str) -> str | None:
    """The Sheets quota a request counts against, as Google counts it: "read" for a call that only
    reads a spreadsheet, "write" for one that changes it (every batchUpdate, even one that answers with
    the cells it locked), None for a request outside the Sheets API (Drive, the token endpoint)."""
    if not url.startswith(SHEETS_API):
        return None
    if method.lower() == "get":
        return "read"
    path = url.split("?", 1)[0]
    return "read" if path.endswith(_READ_POSTS) else "write"


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
        super().__init__(auth, session if session is not None or auth is None else authorized_session(auth))
        self.timeout = self.policy.timeout

    def request(self, method: str, endpoint: str, params: Any = None, data: Any = None, json: Any = None,
                files: Any = None, headers: Any = None, *,
                recover: Callable[[], requests.Response | None] | None = None) -> requests.Response:
        """Send with pacing and bounded retries. Before re-sending a request that may have been applied
        (lost answer, 5xx), `recover()` is asked first: a Response it returns is taken as the answer.
        A DELETE re-sent after an attempt that may have been applied and answered 404 has succeeded:
        the thing is gone (the 404 is returned as its answer)."""
        kind = quota_kind(method, endpoint)
        maybe_applied = False
        for attempt in range(self.policy.attempts):
            last = attempt == self.policy.attempts - 1
            if maybe_applied and recover is not None:
                found = recover()
                if found is not None:
                    return found
            if self.pacer is not None and kind is not None:
                self.pacer.acquire(kind)
            self._count(f"{method.upper()} {kind or 'drive'}")
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
            if maybe_applied and method.lower() == "delete" and response.status_code == 404:
                return response          # the earlier attempt deleted it; its answer was lost
            if not _retryable(response) or last:
                raise APIError(response)
            maybe_applied = maybe_applied or response.status_code >= 500   # once maybe applied, still so
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


__all__ = ["RetryPolicy", "RequestPacer", "RequestStats", "ResilientHTTPClient", "http_client_factory",
           "quota_file", "quota_kind", "error_reasons", "RETRY_STATUSES", "RETRY_REASONS", "route_sessions",
           "routed", "authorized_session"]
