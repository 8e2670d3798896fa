"""Retries, pacing, timeouts and fast failures of the gsheets backend (clock injected: no test waits)."""
from __future__ import annotations

import random
import statistics

import pytest
from gspread.exceptions import APIError
from gspread.urls import SPREADSHEET_VALUES_BATCH_URL

from sheets_bridge.backends.base import BookForbidden, BookNotFound, BookRef, TabWrite
from sheets_bridge.backends.gsheets.auth import ApiDisabledError, ApiUnavailableError
from sheets_bridge.backends.gsheets.backend import GSheetsBackend
from sheets_bridge.backends.gsheets.http import RequestPacer, RetryPolicy, http_client_factory
from tests.fake_google import FakeClock, FakeGoogle, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
TABS = [TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 10),))]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake(clock) -> FakeGoogle:
    return FakeGoogle(clock=clock)


@pytest.fixture
def book(fake) -> str:
    return gm_created_books(fake, GM, BOT, {"empire": []})["empire"]


@pytest.fixture
def backend(fake, clock, book):
    return fake_backend(fake, BOT, gm_emails=[GM], clock=clock, books=[BookRef("empire", book, "Империя")])


def statuses(fake, op: str) -> list[int]:
    return [c.status for c in fake.calls if c.op == op]


def test_push_meeting_429_and_500s_completes_with_bounded_retries(fake, clock, backend, book):
    fake.inject("http", status=429, op="spreadsheets.batchUpdate", retry_after=30)
    fake.inject("http", status=500, times=2, op="spreadsheets.batchUpdate")
    backend.write_book(book, TABS)
    assert statuses(fake, "spreadsheets.batchUpdate") == [429, 500, 500, 200]
    first, second, third = clock.sleeps
    assert first >= 30                                   # Retry-After honoured
    assert 1.0 <= second <= 2.0 and 2.0 <= third <= 4.0  # attempts 1 and 2: equal jitter under 2 s and 4 s caps
    assert backend.read_tabs(book, ["Сводка"])["Сводка"][1] == ["Золото", "10"]


def test_persistent_5xx_gives_up_after_the_policy_attempts(fake, clock, backend, book):
    backend.metadata(book)
    fake.inject("http", status=503, times=1000, op="spreadsheets.batchUpdate")
    with pytest.raises(ApiUnavailableError) as excinfo:
        backend.write_book(book, TABS)
    assert statuses(fake, "spreadsheets.batchUpdate") == [503] * RetryPolicy().attempts
    assert len(clock.sleeps) == RetryPolicy().attempts - 1
    assert "Ничего не записано наполовину" in str(excinfo.value)
    assert "Книга фракции «Империя»" in str(excinfo.value)


def test_403_fails_fast_naming_the_book_and_the_service_account(fake, clock):
    private = fake.create_spreadsheet(GM, "Империя")            # the GM forgot to share it
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("empire", private, "Империя")])
    with pytest.raises(BookForbidden) as excinfo:
        backend.write_book(private, TABS)
    message = str(excinfo.value)
    assert "«Империя»" in message and f"https://docs.google.com/spreadsheets/d/{private}" in message
    assert f"добавьте {BOT} с ролью «Редактор»" in message
    assert len(fake.calls) == 1 and clock.sleeps == []


def test_deleted_book_is_a_clear_404(fake, clock, backend, book):
    fake.delete_file(book)
    with pytest.raises(BookNotFound) as excinfo:
        backend.read_tabs(book, ["Армии"])
    assert "таблица не найдена" in str(excinfo.value) and "«Корзины» (Trash)" in str(excinfo.value)
    assert len(fake.calls) == 1 and clock.sleeps == []


def test_400_is_never_retried(fake, clock, backend, book):
    with pytest.raises(APIError):
        backend.http.request("get", SPREADSHEET_VALUES_BATCH_URL % book, params={"ranges": ["'Нет'!A1"]})
    assert len(fake.calls) == 1 and clock.sleeps == []


def test_connection_errors_are_retried(fake, clock, backend, book):
    backend.write_book(book, TABS)
    fake.inject("reset", times=2, op="values.batchGet")
    assert backend.read_tabs(book, ["Сводка"])["Сводка"][0] == ["Показатель", "Значение"]
    assert statuses(fake, "values.batchGet") == [0, 0, 200] and len(clock.sleeps) == 2


def test_connection_errors_without_end_give_a_clear_error(fake, clock, backend, book):
    backend.metadata(book)
    fake.inject("reset", times=1000)
    with pytest.raises(ApiUnavailableError) as excinfo:
        backend.read_tabs(book, ["Sheet1"])
    assert "не удалось связаться с Google" in str(excinfo.value)
    assert fake.count("values.batchGet") == RetryPolicy().attempts


def test_every_request_carries_the_timeout(backend, book):
    backend.read_tabs(book, ["Сводка"])
    adapter = backend.http.session.get_adapter("https://sheets.googleapis.com/v4/spreadsheets")
    assert adapter.last_timeout == RetryPolicy().timeout == (10.0, 60.0)


def test_pacing_stays_below_the_quota_without_any_429(fake, clock, backend, book):
    backend.write_book(book, TABS)
    start = clock()
    for _ in range(130):
        backend.read_tabs(book, ["Сводка"])
    assert fake.count(status=429) == 0 and fake.count("values.batchGet", status=200) == 130
    assert clock() - start >= 120              # 130 reads at 55 a minute need two waits of a window


def test_quota_429s_are_absorbed_by_retries_that_honour_retry_after(clock):
    fake = FakeGoogle(clock=clock, quota_retry_after=True)
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    factory = http_client_factory(RetryPolicy(), RequestPacer(reads=10_000, writes=10_000, clock=clock,
                                                              sleep=clock.sleep), sleep=clock.sleep,
                                  rng=random.Random(1))
    backend = GSheetsBackend(fake_client(fake, BOT, http_client=factory), BOT)
    backend.write_book(book, TABS)
    for _ in range(75):
        backend.read_tabs(book, ["Сводка"])
    assert fake.count(status=429) > 0 and fake.count("values.batchGet", status=200) == 75


def test_retry_delays_are_bounded_and_jittered():
    policy, rng = RetryPolicy(), random.Random(7)
    for attempt in range(12):
        cap = min(policy.max_delay, policy.base_delay * 2 ** attempt)
        draws = [policy.delay(attempt, rng) for _ in range(400)]
        assert cap / 2 <= min(draws) and max(draws) <= cap <= policy.max_delay
        # uniform on [cap/2, cap]: mean 0.75 cap, standard error about 0.007 cap
        assert abs(statistics.mean(draws) - 0.75 * cap) < 0.04 * cap
    assert policy.delay(0, rng, retry_after=500) == policy.max_retry_after


def test_write_books_goes_on_past_a_forbidden_book_and_names_it(fake, clock):
    books = gm_created_books(fake, GM, BOT, {"empire": [], "dwarves": []})
    private = fake.create_spreadsheet(GM, "Эльфы")
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("elves", private, "Эльфы")])
    done: list[str] = []
    with pytest.raises(BookForbidden) as excinfo:
        backend.write_books({books["empire"]: TABS, private: TABS, books["dwarves"]: TABS}, progress=done.append)
    assert "«Эльфы»" in str(excinfo.value)
    assert sorted(done) == sorted([books["empire"], books["dwarves"]])      # progress: books written
    for key in ("empire", "dwarves"):
        assert backend.read_tabs(books[key], ["Сводка"])["Сводка"][1] == ["Золото", "10"]


def test_disabled_api_says_to_enable_it(fake, clock, backend, book):
    fake.inject("http", status=403, op="spreadsheets.get",
                message="Google Sheets API has not been used in project 123 before or it is disabled.")
    with pytest.raises(ApiDisabledError) as excinfo:
        backend.read_tabs(book, ["Сводка"])
    assert "не включён Google Sheets API" in str(excinfo.value)
    assert "«API и сервисы → Библиотека»" in str(excinfo.value) and "нужны оба" in str(excinfo.value)
