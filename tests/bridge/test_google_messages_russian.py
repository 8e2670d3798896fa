"""Every failure the fake Google can produce reaches the GM as natural Russian (issue 11 item 6):
mostly Cyrillic, the book named as the GM knows it (never a bare spreadsheet id), and what to do."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from sheets_bridge.backends.base import BackendError, BookForbidden, BookNotFound, BookRef, TabWrite
from sheets_bridge.backends.gsheets.auth import (
    ApiDisabledError,
    ApiUnavailableError,
    BookRejected,
    CredentialsError,
    DriveStorageError,
    load_service_account,
)
from sheets_bridge.backends.gsheets.game import open_gsheets_backend
from tests.fake_google import FakeClock, FakeGoogle, fake_backend, gm_created_books, routed_to
from tests.paths import REPO

GM = "gm@example.com"
ALICE = "alice@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
TABS = [TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 10),))]
EMPIRE = "книга фракции «Империя»"
TITLE = "Нефритовая роза — Империя"

# What a GM reads besides Russian: product and file names, and Google's own terms it must type or find.
ALLOWED_LATIN = {"Google", "Sheets", "Drive", "API", "Cloud", "Console", "JSON", "JSON-", "xlsx", "game.toml",
                 "forumwar", "credentials.json", "credentials.example.json", "docs", "google_sheets.md",
                 "FORUMWAR_CREDENTIALS", "FORUMWAR_DRIVE_FOLDER", "REPLACE_ME", "private_key", "id", "ID",
                 "gitignore", "books", "invalid_grant", "sharingRateLimitExceeded",
                 "userRateLimitExceeded", "type", "authorized_user", "OAuth", "null", "folders", "Trash", "IAM",
                 "google", "identity", "gm", "service_account", "account"}   # game.toml's [google] as typed
DO = re.compile(r"\b(откройте|добавьте|подождите|запустите|проверьте|скачайте|создайте|замените|восстановите|"
                r"нажмите|смените|выберите|выполните)\b", re.IGNORECASE)


def stripped(message: str) -> str:
    """The message without what may stay Latin: links, e-mails, Google's own answer, commands in
    backquotes and options, English in brackets (console names after their Russian name, technical
    details) and Google's status with its answer."""
    text = message.split("Ответ Google:")[0]
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\S+@\S+", " ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"--[a-z][a-z-]*", " ", text)                 # command-line options
    while True:                     # brackets without Russian, innermost first: «Редактор» (Editor), details
        shorter = re.sub(r"\([^()А-Яа-яЁё]*\)", " ", text)
        if shorter == text:
            break
        text = shorter
    return re.sub(r"\((?:\d{3}|код \d+|нет ответа):[^()]*\)", " ", text)       # (401: …), (код 503: …)


def check_russian(message: str, *, book: str | None, book_id: str | None = None) -> None:
    """Cyrillic-dominant, no unexplained English word, the book by its label, no bare id, what to do."""
    text = stripped(message)
    cyrillic = re.findall(r"[А-Яа-яЁё][А-Яа-яЁё-]*", text)
    latin = re.findall(r"[A-Za-z][A-Za-z0-9_./\-]*", text)
    assert len(cyrillic) >= 2 * len(latin), (len(cyrillic), latin, message)
    words = {w.strip(".-") for w in re.findall(r"[A-Za-z][A-Za-z0-9_.\-]*", text)}
    assert words <= ALLOWED_LATIN, (words - ALLOWED_LATIN, message)
    if book is not None:
        assert book.lower() in message.lower(), message
    if book_id is not None:
        assert book_id not in re.sub(r"https://docs\.google\.com/spreadsheets/d/\S+", " ", message), message
    assert DO.search(message), message


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


def raised(kind: type[BackendError], call: Callable[[], object]) -> str:
    with pytest.raises(kind) as excinfo:
        call()
    return str(excinfo.value)


# -- the book's own failures: named as the GM knows it -------------------------------------------------

def test_book_not_shared_with_the_service_account(fake, clock):
    private = fake.create_spreadsheet(GM, "Империя")
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("empire", private, "Империя")])
    message = raised(BookForbidden, lambda: backend.write_book(private, TABS))
    check_russian(message, book=EMPIRE, book_id=private)
    assert "«Настройки доступа» (Share)" in message and "«Уведомить пользователей» (Notify people)" in message


def test_book_shared_read_only_is_refused_when_adopted(fake):
    key = fake.create_spreadsheet(GM, TITLE, {BOT: "reader"})
    message = raised(BookForbidden, lambda: fake_backend(fake, BOT).adopt_book(key, name=TITLE))
    check_russian(message, book=f"книга «{TITLE}»", book_id=key)
    assert "только просматривать" in message and "«Редактор» (Editor)" in message


def test_sharing_refused_to_a_reader_service_account(fake, clock):
    key = fake.create_spreadsheet(GM, "Империя", {BOT: "reader"})
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("empire", key, "Империя")])
    message = raised(BookForbidden, lambda: backend.share(key, readers=[], writers=[ALICE]))
    check_russian(message, book=EMPIRE, book_id=key)
    assert "не разрешено менять доступ" in message and "(Editors can change permissions and share)" in message


def test_deleted_book_when_read(fake, backend, book):
    fake.delete_file(book)
    message = raised(BookNotFound, lambda: backend.read_tabs(book, ["Армии"]))
    check_russian(message, book=EMPIRE, book_id=book)
    assert "«Корзины» (Trash)" in message and "game.toml" in message


def test_deleted_public_book_when_shared(fake, clock):
    public = gm_created_books(fake, GM, BOT, {"public": []})["public"]
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("public", public, "общая книга")])
    fake.delete_file(public)
    message = raised(BookNotFound, lambda: backend.share(public, readers=[ALICE], writers=[]))
    check_russian(message, book="Общая книга", book_id=public)
    assert "её не видит" in message


def test_gm_book_is_named_the_gm_book(fake, clock):
    gm_book = fake.create_spreadsheet(GM, "Мастер")
    backend = fake_backend(fake, BOT, clock=clock, books=[BookRef("gm", gm_book, "книга мастера")])
    message = raised(BookForbidden, lambda: backend.lock_and_read(gm_book, ["Сводка"]))
    check_russian(message, book="Книга мастера", book_id=gm_book)


def test_export_refused(fake, backend, book):
    fake.inject("http", status=403, op="drive.files.export")
    message = raised(BookForbidden, lambda: backend.export_xlsx(book, "/nonexistent/never-written.xlsx"))
    check_russian(message, book=EMPIRE, book_id=book)
    assert "выгрузить её в xlsx" in message


def test_request_rejected_as_invalid_after_the_metadata_refresh(fake, backend, book):
    backend.metadata(book)
    fake.inject("http", status=400, times=2, op="spreadsheets.batchUpdate", message="Invalid requests[0]")
    message = raised(BookRejected, lambda: backend.write_book(book, TABS))
    check_russian(message, book=EMPIRE, book_id=book)
    assert "отклонил запрос" in message and "ничего не применено" in message


# -- Google's trouble: retries exhausted --------------------------------------------------------------

@pytest.mark.parametrize("status", [429, 500, 503])
def test_retries_exhausted(fake, backend, book, status):
    backend.metadata(book)
    fake.inject("http", status=status, times=1000, op="spreadsheets.batchUpdate")
    message = raised(ApiUnavailableError, lambda: backend.write_book(book, TABS))
    check_russian(message, book=EMPIRE, book_id=book)
    assert f"код {status}" in message and "обновить её" in message and "Ничего не записано наполовину" in message


def test_network_down(fake, backend, book):
    backend.metadata(book)
    fake.inject("reset", times=1000)
    message = raised(ApiUnavailableError, lambda: backend.read_tabs(book, ["Sheet1"]))
    check_russian(message, book=EMPIRE, book_id=book)
    assert "не удалось связаться с Google, чтобы прочитать её" in message


@pytest.mark.parametrize("reason, expected", [
    ("sharingRateLimitExceeded", "лимит приглашений"),
    ("userRateLimitExceeded", "отправлять запросы реже"),
])
def test_rate_limits_that_do_not_pass(fake, backend, book, reason, expected):
    fake.inject("http", status=403, reason=reason, op="drive.permissions.create", times=1000)
    message = raised(ApiUnavailableError, lambda: backend.share(book, readers=[], writers=[ALICE]))
    check_russian(message, book=EMPIRE, book_id=book)
    assert expected in message


# -- setting up: creating books, the project -----------------------------------------------------------

def test_no_drive_storage_when_creating(fake):
    fake.add_user(GM)
    fake.add_service_account(BOT)
    message = raised(DriveStorageError, lambda: fake_backend(fake, BOT).create_book("empire", TITLE))
    check_russian(message, book=f"Книга «{TITLE}»")
    assert "--book КНИГА=КЛЮЧ" in message and "--folder ID" in message


def test_folder_not_shared_when_creating(fake):
    fake.add_user(GM)
    folder = fake.add_shared_drive("Чужой диск", {GM: "organizer"})
    backend = fake_backend(fake, BOT, folder_id=folder)
    message = raised(BookNotFound, lambda: backend.create_book("empire", TITLE))
    check_russian(message, book=f"Книга «{TITLE}»")
    assert "не найдена или не открыта" in message and "«Администратор контента» (Content manager)" in message


@pytest.mark.parametrize("api", ["Sheets", "Drive"])
def test_api_not_enabled(fake, backend, book, api):
    fake.inject("http", status=403, op="spreadsheets.get",
                message=f"Google {api} API has not been used in project 123 before or it is disabled.")
    message = raised(ApiDisabledError, lambda: backend.read_tabs(book, ["Сводка"]))
    check_russian(message, book=None, book_id=book)
    assert f"не включён Google {api} API" in message
    assert "«API и сервисы → Библиотека» (APIs & Services → Library)" in message and "«Включить» (Enable)" in message


def test_credentials_not_accepted(fake, backend, book):
    fake.inject("http", status=401, op="spreadsheets.get")
    message = raised(CredentialsError, lambda: backend.read_tabs(book, ["Сводка"]))
    check_russian(message, book=None, book_id=book)
    assert "не принял учётные данные" in message and "(IAM & Admin → Service accounts)" in message


# -- the key file ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def key_info() -> dict:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return {"type": "service_account", "project_id": "forumwar-test", "private_key_id": "0123abcd",
            "private_key": pem, "client_email": BOT, "client_id": "1234567890",
            "token_uri": "https://oauth2.googleapis.com/token"}


def test_revoked_key(tmp_path, monkeypatch, key_info):
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "cache"))
    fake = FakeGoogle()
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    fake.identities[BOT].revoked = True
    path = tmp_path / "credentials.json"
    path.write_text(json.dumps(key_info), encoding="utf-8")
    with routed_to(fake):
        backend = open_gsheets_backend(path, books=[BookRef("empire", book, "Империя")])
        message = raised(CredentialsError, lambda: backend.read_tabs(book, ["Сводка"]))
    check_russian(message, book=None, book_id=book)
    assert "Google не принял ключ сервисного аккаунта" in message and "часы" in message


@pytest.mark.parametrize("content", [
    None,                                                      # no file at all
    b"\xff\xfe\x00binary",
    '{"type": "service_account",\n  "client_email": }',
    ["not", "a", "key"],
    {"installed": {"client_id": "x"}},
    {"type": "authorized_user", "refresh_token": "x"},
    {"type": "service_account", "client_email": BOT, "token_uri": "https://oauth2.googleapis.com/token"},
    "example",
    {"type": "service_account", "client_email": BOT, "token_uri": "https://oauth2.googleapis.com/token",
     "private_key": "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n"},
], ids=["missing", "binary", "broken-json", "json-list", "oauth-client", "login-token", "cut", "placeholders",
        "unreadable-key"])
def test_key_file_mistakes(tmp_path, content):
    path = tmp_path / "credentials.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content == "example":
        path.write_text((REPO / "credentials.example.json").read_text(encoding="utf-8"), encoding="utf-8")
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif content is not None:
        path.write_text(json.dumps(content), encoding="utf-8")
    message = raised(CredentialsError, lambda: load_service_account(path))
    check_russian(message.replace(str(path), "credentials.json"), book=None)
    assert str(Path(path)) in message                  # which file, so the GM knows what to replace
