"""Ready-made gspread clients and backends wired to a FakeGoogle under a given identity."""
from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterable, Iterator
from typing import Any

import gspread
import requests
from gspread.http_client import HTTPClient

from tests.fake_google.adapter import mount
from tests.fake_google.fake_google import FakeGoogle


class FakeClock:
    """A monotonic clock whose `sleep` only advances it: retries and pacing without waiting."""

    def __init__(self, start: float = 1000.0):
        self.now = start
        self.sleeps: list[float] = []
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self.now

    def sleep(self, seconds: float) -> None:
        with self._lock:
            self.sleeps.append(seconds)
            self.now += max(0.0, seconds)


@contextlib.contextmanager
def routed_to(fake: FakeGoogle) -> Iterator[FakeGoogle]:
    """Every Google session forumwar makes meanwhile (its real credentials, token exchanges and
    `forumwar login` included) is answered by `fake`: the bridge's one transport swap point."""
    from sheets_bridge.backends.gsheets.http import route_sessions
    previous = route_sessions(lambda session: mount(session, fake))
    try:
        yield fake
    finally:
        route_sessions(previous)


def fake_session(fake: FakeGoogle, identity: str) -> requests.Session:
    """A requests Session that speaks to `fake` as `identity` (its bearer token)."""
    session = mount(requests.Session(), fake)
    session.headers["Authorization"] = f"Bearer {fake.token_for(identity)}"
    return session


def fake_client(fake: FakeGoogle, identity: str, http_client: Any = HTTPClient) -> gspread.Client:
    """An unmodified gspread.Client whose session routes to `fake` under `identity`."""
    # gspread documents auth=None with a session of one's own; its annotation leaves None out
    return gspread.Client(auth=None, session=fake_session(fake, identity),  # type: ignore[arg-type]
                          http_client=http_client)


def fake_backend(fake: FakeGoogle, service_email: str, *, gm_emails: Iterable[str] = (),
                 clock: FakeClock | None = None, real_time: bool = False, policy: Any = None, seed: int = 0,
                 pacer_path: Any = None, **kwargs: Any):
    """A GSheetsBackend on `fake` as the service account. Retries and pacing sleep on `clock`
    (a fresh FakeClock by default: tests never wait); `real_time=True` sleeps for real (benchmarks).
    `pacer_path`: keep the request budget in that file, shared as by real forumwar commands."""
    from sheets_bridge.backends.gsheets.backend import GSheetsBackend
    from sheets_bridge.backends.gsheets.http import RequestPacer, RetryPolicy, http_client_factory

    if service_email not in fake.identities:
        fake.add_service_account(service_email)
    if real_time:
        factory = http_client_factory(policy or RetryPolicy(), RequestPacer(path=pacer_path), rng=random.Random(seed))
    else:
        clock = clock or FakeClock()
        pacer = RequestPacer(clock=clock, sleep=clock.sleep, path=pacer_path)
        factory = http_client_factory(policy or RetryPolicy(), pacer, sleep=clock.sleep, rng=random.Random(seed))
    client = fake_client(fake, service_email, http_client=factory)
    return GSheetsBackend(client, service_email, gm_emails=gm_emails, **kwargs)


def gm_created_books(fake: FakeGoogle, gm: str, service_email: str,
                     players: dict[str, Iterable[str]]) -> dict[str, str]:
    """What a GM does by hand before `forumwar new`: one spreadsheet per book key, shared with the
    service account (editor) and the book's players (editors); returns book key -> spreadsheet key."""
    for email in (gm, service_email, *(p for group in players.values() for p in group)):
        if email not in fake.identities:
            fake.add_user(email, storage=email != service_email)
    books = {}
    for key, group in players.items():
        shared = {service_email: "writer", **{p: "writer" for p in group}}
        books[key] = fake.create_spreadsheet(gm, f"forumwar: {key}", shared)
    return books
