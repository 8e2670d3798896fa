"""`share`: exactly the people of game.toml, no notification e-mails unless asked, intruders reported."""
from __future__ import annotations

import pytest

from sheets_bridge.backends.base import BookRef
from tests.fake_google import FakeGoogle, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
ALICE, AMIR, BORIS = "alice@example.com", "amir@example.com", "boris@example.com"


@pytest.fixture
def fake() -> FakeGoogle:
    return FakeGoogle()


@pytest.fixture
def book(fake) -> str:
    return gm_created_books(fake, GM, BOT, {"empire": []})["empire"]


@pytest.fixture
def backend(fake, book):
    return fake_backend(fake, BOT, gm_emails=[GM], books=[BookRef("empire", book, "Империя")])


def roles(fake, book: str) -> dict[str, str]:
    return {p["emailAddress"]: p["role"] for p in fake_client(fake, GM).list_permissions(book)
            if p["type"] == "user"}


def test_share_grants_exactly_the_listed_people_without_emails(fake, backend, book):
    warnings = backend.share(book, readers=[BORIS], writers=[ALICE, AMIR, GM])
    assert warnings == []
    assert roles(fake, book) == {GM: "owner", BOT: "writer", ALICE: "writer", AMIR: "writer", BORIS: "reader"}
    assert fake.notifications == []


def test_share_twice_changes_nothing(fake, backend, book):
    backend.share(book, readers=[BORIS], writers=[ALICE])
    fake.calls.clear()
    assert backend.share(book, readers=[BORIS], writers=[ALICE]) == []
    assert [c.op for c in fake.calls] == ["drive.permissions.list"]


def test_wrong_roles_are_corrected(fake, backend, book):
    fake.share(book, BORIS, "writer")          # a reader who was given edit rights by hand
    fake.share(book, ALICE, "reader")
    backend.share(book, readers=[BORIS], writers=[ALICE])
    assert roles(fake, book)[BORIS] == "reader" and roles(fake, book)[ALICE] == "writer"


def test_people_who_should_not_have_access_are_reported_not_removed(fake, backend, book):
    fake.share(book, "spy@example.com", "reader")
    warnings = backend.share(book, readers=[], writers=[ALICE])
    assert len(warnings) == 1
    assert "книга фракции «Империя»: у spy@example.com доступ «чтение», а в game.toml его нет" in warnings[0]
    assert "spy@example.com" in roles(fake, book)


def test_revoke_removes_them(fake, backend, book):
    fake.share(book, "spy@example.com", "writer")
    warnings = backend.share(book, readers=[], writers=[ALICE], revoke=True)
    assert "доступ spy@example.com («редактирование») снят" in warnings[0]
    assert "spy@example.com" not in roles(fake, book) and BOT in roles(fake, book)


def test_link_sharing_is_reported(fake, backend, book):
    fake_client(fake, GM).insert_permission(book, None, perm_type="anyone", role="reader")
    warnings = backend.share(book, readers=[], writers=[ALICE])
    assert any("книга фракции «Империя»: открыта всем, у кого есть ссылка" in w for w in warnings)


def test_address_without_google_account_needs_a_notification(fake, backend, book):
    fake.add_user("nogoogle@example.org", google_account=False)
    warnings = backend.share(book, readers=[], writers=[ALICE, "nogoogle@example.org"])
    assert "nogoogle@example.org" in warnings[0] and "--notify" in warnings[0]
    assert roles(fake, book)[ALICE] == "writer"
    assert backend.share(book, readers=[], writers=[ALICE, "nogoogle@example.org"], notify=True) == []
    assert [n[0] for n in fake.notifications] == ["nogoogle@example.org"]


def test_owner_outside_game_toml_is_reported(fake, book):
    backend = fake_backend(fake, BOT, books=[BookRef("empire", book, "Империя")])
    warnings = backend.share(book, readers=[], writers=[ALICE])
    assert warnings == [f"книга фракции «Империя»: её владелец {GM} не указан в game.toml ни мастером, ни игроком."]


def test_share_game_gives_each_book_to_exactly_its_people(fake):
    from types import SimpleNamespace

    books = gm_created_books(fake, GM, BOT, {"empire": [], "dwarves": [], "public": [], "gm": []})
    config = SimpleNamespace(
        gm_emails=[GM], books=books,
        factions={"empire": SimpleNamespace(name="Империя", players=[ALICE, AMIR]),
                  "dwarves": SimpleNamespace(name="Гномы", players=[BORIS])})
    fake.share(books["gm"], ALICE, "reader")          # a leak the GM did not notice
    backend = fake_backend(fake, BOT, gm_emails=[GM], books=[BookRef("gm", books["gm"], "GM")])
    warnings = backend.share_game(config)
    assert roles(fake, books["empire"]) == {GM: "owner", BOT: "writer", ALICE: "writer", AMIR: "writer"}
    assert roles(fake, books["dwarves"]) == {GM: "owner", BOT: "writer", BORIS: "writer"}
    assert roles(fake, books["public"]) == {GM: "owner", BOT: "writer", ALICE: "reader", AMIR: "reader",
                                            BORIS: "reader"}
    assert warnings == [f"книга мастера: у {ALICE} доступ «чтение», а в game.toml его нет; уберите его в окне "
                        "«Настройки доступа» или запустите forumwar share --revoke."]
    backend.share_game(config, revoke=True)
    assert roles(fake, books["gm"]) == {GM: "owner", BOT: "writer"}
    assert fake.notifications == []


def test_sharing_rate_limit_is_retried_later(fake, backend, book):
    """Issue 8 item 7f: Drive's 403 sharingRateLimitExceeded means "later", not "forbidden"."""
    fake.inject("http", status=403, reason="sharingRateLimitExceeded", op="drive.permissions.create", times=2)
    assert backend.share(book, readers=[], writers=[ALICE]) == []
    assert roles(fake, book)[ALICE] == "writer"
    assert [c.status for c in fake.calls if c.op == "drive.permissions.create"] == [403, 403, 200]


def test_persistent_sharing_rate_limit_is_explained_as_a_limit_not_a_missing_right(fake, backend, book):
    from sheets_bridge.backends.gsheets.auth import ApiUnavailableError
    fake.inject("http", status=403, reason="sharingRateLimitExceeded", op="drive.permissions.create", times=1000)
    with pytest.raises(ApiUnavailableError) as excinfo:
        backend.share(book, readers=[], writers=[ALICE])
    message = str(excinfo.value)
    assert "sharingRateLimitExceeded" in message and "лимит приглашений" in message
    assert "forumwar share" in message and "Редактор" in message and "ни при чём" in message
    assert "нет прав редактора" not in message             # not the advice for a missing right


def test_notify_sends_googles_invitation_with_a_russian_note_naming_the_game_and_the_book(fake):
    from types import SimpleNamespace

    books = gm_created_books(fake, GM, BOT, {"empire": [], "public": [], "gm": []})
    config = SimpleNamespace(gm_emails=[GM], books=books, title="Весна",
                             factions={"empire": SimpleNamespace(name="Империя", players=[ALICE])})
    backend = fake_backend(fake, BOT, gm_emails=[GM])
    assert backend.share_game(config, notify=True) == []
    notes = {(email, file_id): note for email, file_id, note in fake.notifications}
    faction_note = notes[(ALICE, books["empire"])]
    assert "книгу фракции «Империя» в игре «Весна»" in faction_note and "«Доступные мне»" in faction_note
    assert "общую книгу игры «Весна»" in notes[(ALICE, books["public"])]
    assert all("Мастер открыл вам" in note for note in notes.values())


def test_without_notify_no_note_is_sent(fake, backend, book):
    backend.share(book, readers=[], writers=[ALICE])
    assert fake.notifications == [] and not any("emailMessage" in s.url for s in fake.sent)
