"""The fake's per-minute quota, injected latency and injected faults."""
from __future__ import annotations

import pytest
import requests
from gspread.exceptions import APIError

from tests.fake_google import FakeClock, FakeGoogle, fake_client

GM = "gm@example.com"
OTHER = "other@example.com"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def fake(clock: FakeClock) -> FakeGoogle:
    fake = FakeGoogle(clock=clock, quota_per_minute=(60, 60))
    fake.add_user(GM)
    fake.add_user(OTHER)
    return fake


def test_61st_read_in_a_minute_is_429_resource_exhausted(fake, clock):
    key = fake.create_spreadsheet(GM, "Квота", {OTHER: "reader"})
    http = fake_client(fake, GM).http_client
    for _ in range(60):
        http.values_get(key, "'Sheet1'!A1")
    with pytest.raises(APIError) as excinfo:
        http.values_get(key, "'Sheet1'!A1")
    error = excinfo.value.error
    assert excinfo.value.code == 429 and error["status"] == "RESOURCE_EXHAUSTED"
    assert "Read requests per minute per user" in error["message"]
    assert error["details"][0]["reason"] == "RATE_LIMIT_EXCEEDED"
    # Writes have their own budget, and so has every other user.
    http.values_update(key, "'Sheet1'!A1", params={"valueInputOption": "RAW"}, body={"values": [["x"]]})
    fake_client(fake, OTHER).http_client.values_get(key, "'Sheet1'!A1")
    clock.sleep(60.0)
    assert http.values_get(key, "'Sheet1'!A1")["values"] == [["x"]]


def test_rejected_requests_do_not_use_quota(fake, clock):
    key = fake.create_spreadsheet(GM, "Квота")
    http = fake_client(fake, GM).http_client
    for _ in range(60):
        http.values_get(key, "'Sheet1'!A1")
    for _ in range(5):
        with pytest.raises(APIError):
            http.values_get(key, "'Sheet1'!A1")
    clock.sleep(60.0)
    for _ in range(60):
        http.values_get(key, "'Sheet1'!A1")
    assert fake.count("values.get", status=200) == 120 and fake.count("values.get", status=429) == 5


def test_quota_retry_after_header_is_optional(clock):
    fake = FakeGoogle(clock=clock, quota_per_minute=(1, 1), quota_retry_after=True)
    key = fake.create_spreadsheet(GM, "Квота")
    http = fake_client(fake, GM).http_client
    http.values_get(key, "'Sheet1'!A1")
    clock.sleep(15.0)
    with pytest.raises(APIError) as excinfo:
        http.values_get(key, "'Sheet1'!A1")
    assert excinfo.value.response.headers["Retry-After"] == "45"


def test_latency_is_slept_once_per_request():
    slept: list[float] = []
    fake = FakeGoogle(latency=0.2, sleep=slept.append)
    key = fake.create_spreadsheet(GM, "Медленно")
    client = fake_client(fake, GM)
    client.open_by_key(key).values_get("'Sheet1'!A1")
    assert slept == [0.2, 0.2]


def test_http_fault_answers_once_then_clears(fake):
    key = fake.create_spreadsheet(GM, "Сбой")
    http = fake_client(fake, GM).http_client
    fake.inject("http", status=503, times=2, op="values.get", retry_after=7)
    for _ in range(2):
        with pytest.raises(APIError) as excinfo:
            http.values_get(key, "'Sheet1'!A1")
        assert excinfo.value.code == 503 and excinfo.value.response.headers["Retry-After"] == "7"
    assert http.values_get(key, "'Sheet1'!A1")["range"] == "Sheet1!A1"


def test_reset_fault_applies_nothing_and_drop_fault_applies_but_loses_the_answer(fake):
    key = fake.create_spreadsheet(GM, "Сбой")
    http = fake_client(fake, GM).http_client
    body = {"values": [["первый"]]}
    fake.inject("reset", op="values.update")
    with pytest.raises(requests.ConnectionError):
        http.values_update(key, "'Sheet1'!A1", params={"valueInputOption": "RAW"}, body=body)
    assert "values" not in http.values_get(key, "'Sheet1'!A1")
    fake.inject("drop", op="values.update")
    with pytest.raises(requests.ConnectionError):
        http.values_update(key, "'Sheet1'!A1", params={"valueInputOption": "RAW"}, body=body)
    assert http.values_get(key, "'Sheet1'!A1")["values"] == [["первый"]]


def test_faults_can_target_one_file(fake):
    first = fake.create_spreadsheet(GM, "Первая")
    second = fake.create_spreadsheet(GM, "Вторая")
    http = fake_client(fake, GM).http_client
    fake.inject("http", status=500, file_id=second)
    http.values_get(first, "'Sheet1'!A1")
    with pytest.raises(APIError):
        http.values_get(second, "'Sheet1'!A1")
    assert fake.count(file_id=second, status=500) == 1 and fake.count(file_id=first) == 1
