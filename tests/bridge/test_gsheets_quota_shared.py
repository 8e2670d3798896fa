"""Issue 8 item 7a: one request budget for every forumwar command of the machine.

A `turn` (60 writes in 3 s) followed at once by `new` met 41 HTTP 429s: each command paced itself
as if it were alone. The budget now lives in a small fcntl-locked file per service account.
"""
from __future__ import annotations

import json
import multiprocessing
import time

import pytest

from sheets_bridge.backends.base import BookRef, TabWrite
from sheets_bridge.backends.gsheets.auth import ApiUnavailableError
from sheets_bridge.backends.gsheets.game import open_gsheets_backend
from sheets_bridge.backends.gsheets.http import RequestPacer, quota_file
from tests.fake_google import FakeClock, FakeGoogle, fake_backend, gm_created_books

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
TABS = [TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 10),))]


def _two_commands(tmp_path, shared: bool):
    """A `turn` that writes 55 times, then at once a second command writing 30 times."""
    clock = FakeClock()
    fake = FakeGoogle(clock=clock)                        # Google's quota: 60 writes a minute
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    path = tmp_path / "quota.json" if shared else None
    turn = fake_backend(fake, BOT, clock=clock, pacer_path=path, books=[BookRef("empire", book, "Империя")])
    for _ in range(55):
        turn.write_book(book, TABS)
    started = clock()
    new = fake_backend(fake, BOT, clock=clock, pacer_path=path, books=[BookRef("empire", book, "Империя")])
    for _ in range(30):
        new.write_book(book, TABS)
    return fake, clock() - started


def test_turn_then_new_share_one_budget_and_meet_no_429(tmp_path):
    fake, waited = _two_commands(tmp_path, shared=True)
    assert fake.count(status=429) == 0
    assert fake.count("spreadsheets.batchUpdate", status=200) == 85
    assert waited >= 59                 # the second command waited for the first one's minute to pass


def test_control_two_budgets_of_their_own_meet_429s(tmp_path):
    """What happened before: each command believed it had the whole quota, and the second failed."""
    with pytest.raises(ApiUnavailableError, match="429"):
        _two_commands(tmp_path, shared=False)


class _ReadClock:
    """time.monotonic, remembering the last reading: the moment the pacer counted a send."""

    last = 0.0

    def __call__(self) -> float:
        self.last = time.monotonic()
        return self.last


def _acquire_in_process(path: str, count: int, out: multiprocessing.Queue[list[float]]) -> None:
    clock = _ReadClock()
    pacer = RequestPacer(reads=3, writes=3, window=1.0, clock=clock, path=path)
    times = []
    for _ in range(count):
        pacer.acquire("write")
        times.append(clock.last)        # not a reading after the return: a busy machine may pause in between
    out.put(times)


def test_the_budget_file_is_shared_between_processes(tmp_path):
    """Two processes each send 3 writes under a budget of 3 a second: together they need 2 s."""
    path = str(tmp_path / "quota.json")
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    workers = [context.Process(target=_acquire_in_process, args=(path, 3, out)) for _ in range(2)]
    for worker in workers:
        worker.start()
    times = sorted(t for _ in workers for t in out.get(timeout=30))
    for worker in workers:
        worker.join(timeout=30)
    assert len(times) == 6
    assert times[3] - times[0] >= 0.999             # never 4 sends within one window
    assert len(json.loads((tmp_path / "quota.json").read_text())["write"]) == 3


def test_sends_from_another_clock_epoch_do_not_block(tmp_path):
    path = tmp_path / "quota.json"
    path.write_text(json.dumps({"write": [1e12] * 10, "read": []}))       # e.g. written before a reboot
    clock = FakeClock()
    pacer = RequestPacer(writes=3, clock=clock, sleep=clock.sleep, path=path)
    pacer.acquire("write")
    assert clock.sleeps == []


def test_a_broken_budget_file_is_started_afresh(tmp_path):
    path = tmp_path / "quota.json"
    path.write_text("not json")
    clock = FakeClock()
    RequestPacer(clock=clock, sleep=clock.sleep, path=path).acquire("read")
    assert len(json.loads(path.read_text())["read"]) == 1


def test_a_real_game_backend_keeps_its_budget_in_the_user_cache(tmp_path, monkeypatch):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    credentials = tmp_path / "credentials.json"
    credentials.write_text(json.dumps({"type": "service_account", "private_key": pem, "client_email": BOT,
                                       "token_uri": "https://oauth2.googleapis.com/token"}))
    monkeypatch.delenv("FORUMWAR_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    one, two = (open_gsheets_backend(credentials) for _ in range(2))
    assert one.http.pacer.path == two.http.pacer.path == quota_file(BOT)
    assert quota_file(BOT).parent == tmp_path / "cache" / "forumwar"
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert quota_file(BOT).parent == tmp_path / "elsewhere"
    assert quota_file("other@x.iam.gserviceaccount.com") != quota_file(BOT)    # one budget per account


@pytest.mark.parametrize("kind", ["read", "write"])
def test_reads_and_writes_have_budgets_of_their_own(tmp_path, kind):
    clock = FakeClock()
    pacer = RequestPacer(reads=2, writes=2, clock=clock, sleep=clock.sleep, path=tmp_path / "q.json")
    other = "write" if kind == "read" else "read"
    for _ in range(2):
        pacer.acquire(other)
    pacer.acquire(kind)
    assert clock.sleeps == []
