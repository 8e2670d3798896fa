"""Setting up books for a real GM: adopt spreadsheets the GM created, or create them in a shared drive."""
from __future__ import annotations

import pytest

from sheets_bridge.backends.base import BookForbidden, BookNotFound, TabWrite
from sheets_bridge.backends.gsheets.auth import DriveStorageError
from tests.fake_google import FakeGoogle, fake_backend

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
SUMMARY = TabWrite("Сводка", header=("Показатель", "Значение"), rows=(("Золото", 1),))


@pytest.fixture
def fake() -> FakeGoogle:
    fake = FakeGoogle()
    fake.add_user(GM)
    fake.add_service_account(BOT)          # like every new service account: no Drive storage
    return fake


def test_create_without_a_shared_drive_explains_both_ways_out(fake):
    backend = fake_backend(fake, BOT, gm_emails=[GM])
    with pytest.raises(DriveStorageError) as excinfo:
        backend.create_book("empire", "Империя")
    message = str(excinfo.value)
    assert f"сервисный аккаунт {BOT} не может её создать — у него нет своего места на Google Диске" in message
    assert "создайте таблицы сами" in message and "общем диске" in message and "(Content manager)" in message


def test_create_in_a_shared_drive_folder_and_drop_the_default_tab(fake):
    folder = fake.add_shared_drive("Игра", {GM: "organizer", BOT: "fileOrganizer"})
    backend = fake_backend(fake, BOT, gm_emails=[GM], folder_id=folder)
    book = backend.create_book("empire", "Империя")
    assert fake.files[book].parents == [folder] and fake.files[book].owner is None
    backend.write_book(book, [SUMMARY])
    assert backend.tab_titles(book) == ["Сводка"]
    assert [s.title for s in fake.spreadsheet(book).sheets] == ["Сводка"]


def test_create_in_a_folder_not_shared_with_the_service_account(fake):
    folder = fake.add_shared_drive("Чужой диск", {GM: "organizer"})
    backend = fake_backend(fake, BOT, folder_id=folder)
    with pytest.raises(BookNotFound) as excinfo:
        backend.create_book("empire", "Империя")
    assert "«Администратор контента» (Content manager)" in str(excinfo.value) and BOT in str(excinfo.value)


@pytest.mark.parametrize("form", ["key", "url"])
def test_adopt_a_book_the_gm_created(fake, form):
    key = fake.create_spreadsheet(GM, "Империя", {BOT: "writer"})
    given = key if form == "key" else f"https://docs.google.com/spreadsheets/d/{key}/edit#gid=0"
    backend = fake_backend(fake, BOT, gm_emails=[GM])
    assert backend.adopt_book(given, name="Империя") == key
    backend.write_book(key, [SUMMARY])
    assert backend.tab_titles(key) == ["Сводка"]          # the blank default tab went away


def test_adopting_a_book_that_already_has_content_keeps_its_tabs(fake):
    key = fake.create_spreadsheet(GM, "Империя", {BOT: "writer"})
    backend = fake_backend(fake, BOT, gm_emails=[GM])
    backend.write_book(key, [TabWrite("Заметки мастера", rows=(("x",),))])
    assert fake_backend(fake, BOT).adopt_book(key) == key
    assert backend.tab_titles(key) == ["Заметки мастера", "Sheet1"]


def test_adopt_a_book_not_shared_says_with_whom_to_share(fake):
    key = fake.create_spreadsheet(GM, "Империя")
    backend = fake_backend(fake, BOT)
    with pytest.raises(BookForbidden) as excinfo:
        backend.adopt_book(key, name="Империя")
    assert "Книга «Империя»" in str(excinfo.value) and f"добавьте {BOT} с ролью «Редактор»" in str(excinfo.value)


def test_adopt_a_book_shared_read_only(fake):
    key = fake.create_spreadsheet(GM, "Империя", {BOT: "reader"})
    with pytest.raises(BookForbidden) as excinfo:
        fake_backend(fake, BOT).adopt_book(key, name="Империя")
    assert "может её только просматривать" in str(excinfo.value)


def test_adopt_a_deleted_book(fake):
    key = fake.create_spreadsheet(GM, "Империя", {BOT: "writer"})
    fake.delete_file(key)
    with pytest.raises(BookNotFound):
        fake_backend(fake, BOT).adopt_book(key)
