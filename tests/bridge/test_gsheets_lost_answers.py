"""Issue 22 item 4: the Google paths that failed when an answer was lost or an address could not be shared with.

- `share --revoke`: a permission delete whose answer was lost is retried, meets 404, and that is success: the
  remaining books are shared and the protections set (it used to abort `share`, telling the GM to share the
  book with the service account again).
- `share --notify`: a permission create whose answer was lost is looked up before it is sent again, so the
  player gets one invitation, not two.
- An address Google cannot share with silently (no Google account) is not listed as an editor of the order
  tabs' protections, at `share` or at any later push, and the GM is told in Russian what to do; once it holds
  access (`share --notify`) it is listed.
- A spreadsheet create whose answer was lost is found even when Drive's search shows the new file late.
Each on both rule sets' demo games where a game is involved.
"""
from __future__ import annotations

import pytest

from sheets_bridge.backends.base import BookRef
from sheets_bridge.backends.gsheets.game import book_label
from sheets_bridge.backends.gsheets.http import quota_kind
from sheets_bridge.create import create_game, share_books
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import run_turn
from tests.fake_google import FakeClock, FakeGoogle, fake_backend, fake_client
from tests.fake_google.fake_drive import SPREADSHEET_MIME

GM = "gm@example.com"
BOT = "forumwar@lost-answers.iam.gserviceaccount.com"
ALICE, BORIS, SPY = "alice@example.com", "boris@example.com", "spy@example.com"
NO_GOOGLE = "nogoogle@example.org"
RULESETS = ("jade_rose", "titania")


class Game:
    """A demo game on the fake Google in a shared drive; the first faction's players are ALICE and
    `also` (another address), the second's BORIS."""

    def __init__(self, path, ruleset: str, also: str | None = None, fake: FakeGoogle | None = None,
                 clock: FakeClock | None = None):
        self.fake = fake or FakeGoogle()
        self.clock = clock
        for person in (GM, ALICE, BORIS, SPY):
            self.fake.add_user(person)
        self.fake.add_user(NO_GOOGLE, google_account=False)
        self.folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        self.ruleset = ruleset
        gd = create_game(path, ruleset, "demo", backend="gsheets", seed="lost-answers", backend_factory=self.backend)
        first, second = list(gd.config.factions)[:2]
        gd.config.gm_emails = [GM]
        gd.config.factions[first].players = [ALICE, *([also] if also else [])]
        gd.config.factions[second].players = [BORIS]
        gd.save_config()
        self.gd = GameDir(gd.path)                 # a new command reads the edited game.toml
        self.first, self.second = first, second

    def backend(self, gd: GameDir):
        """The backend as a new forumwar command opens it (metadata from the game's file)."""
        books = [BookRef(key, book, book_label(gd.config, key)) for key, book in gd.config.books.items()]
        return fake_backend(self.fake, BOT, gm_emails=gd.config.gm_emails, folder_id=self.folder, books=books,
                            metadata_path=gd.state_dir / "gsheets-meta.json", clock=self.clock)

    def book(self, key: str) -> str:
        return self.gd.config.books[key]

    def roles(self, key: str) -> dict[str, str]:
        return {p["emailAddress"]: p["role"] for p in fake_client(self.fake, GM).list_permissions(self.book(key))
                if p["type"] == "user" and not p.get("permissionDetails")}

    def order_tab(self) -> str:
        stage = self.gd.latest_state()["stage"]
        return next(t.title for t in Layout.load(self.ruleset).order_tabs(stage, "faction"))

    def types(self, who: str, key: str) -> None:
        """What a player does in the browser: type one order cell of the open stage's first order tab."""
        fake_client(self.fake, who).open_by_key(self.book(key)).values_update(
            f"'{self.order_tab()}'!A2", params={"valueInputOption": "USER_ENTERED"}, body={"values": [["x"]]})

    def editors(self, key: str) -> set[str]:
        """Every address named as an editor of a protected range of the book."""
        return {user for sheet in self.fake.spreadsheet(self.book(key)).sheets for prot in sheet.protected
                for user in (prot.get("editors") or {}).get("users", [])}


@pytest.fixture(params=RULESETS)
def ruleset(request) -> str:
    return request.param


# -- a lost answer to a permission delete ------------------------------------------------------

def test_a_revoke_whose_answer_was_lost_is_done_and_share_goes_on(tmp_path, ruleset):
    game = Game(tmp_path / "game", ruleset)
    keys = list(game.gd.config.books)
    for key in (keys[0], keys[-1]):                   # an intruder in the first book shared and in the last
        game.fake.share(game.book(key), SPY, "writer")
    game.fake.inject("drop", op="drive.permissions.delete")      # Google removes SPY, the answer is lost
    warnings = share_books(game.gd, game.backend(game.gd), revoke=True)
    for key in keys:
        assert SPY not in game.roles(key), key
    assert game.fake.count("drive.permissions.delete", status=404) == 1      # the retry: it was gone
    assert sum(f"доступ {SPY} («редактирование») снят" in w for w in warnings) == 2
    assert not any("сервисн" in w for w in warnings)
    assert game.roles(game.first)[ALICE] == "writer" and game.roles(game.second)[BORIS] == "writer"
    game.types(ALICE, game.first)                     # the protections were set after it
    game.types(BORIS, game.second)


def test_a_delete_that_meets_404_at_once_is_still_an_error():
    """Only the retry of a delete that may have been applied takes 404 as done."""
    from sheets_bridge.backends.base import BookNotFound
    fake = FakeGoogle()
    fake.add_user(GM)
    be = fake_backend(fake, BOT)
    book = fake.create_spreadsheet(GM, "Книга", {BOT: "writer"})
    fake.delete_file(book)
    with pytest.raises(BookNotFound):
        be.share(book, readers=[], writers=[ALICE])


# -- a lost answer to a permission create with an invitation -------------------------------------

def test_an_invitation_whose_answer_was_lost_is_sent_once(tmp_path, ruleset):
    game = Game(tmp_path / "game", ruleset)
    book = game.book(game.first)
    game.fake.inject("drop", op="drive.permissions.create", file_id=book)    # ALICE invited, the answer lost
    assert not any(ALICE in w for w in share_books(game.gd, game.backend(game.gd), notify=True))
    invited = [who for who, file_id, _ in game.fake.notifications if file_id == book]
    assert invited.count(ALICE) == 1
    assert game.roles(game.first)[ALICE] == "writer"
    assert game.fake.count("drive.permissions.create", file_id=book) == 2     # ALICE once, the GM once
    game.types(ALICE, game.first)


def test_a_create_whose_answer_was_lost_before_it_was_applied_is_sent_again():
    fake = FakeGoogle()
    fake.add_user(GM)
    fake.add_user(ALICE)
    book = fake.create_spreadsheet(GM, "Книга", {BOT: "writer"})
    be = fake_backend(fake, BOT, gm_emails=[GM])
    fake.inject("reset", op="drive.permissions.create")                     # never reached Google
    assert be.share(book, readers=[], writers=[ALICE], notify=True) == []
    assert [who for who, _, _ in fake.notifications] == [ALICE]
    assert fake.count("drive.permissions.list") == 2                         # the share's, the look-up


# -- an address without a Google account --------------------------------------------------------

def test_an_address_that_was_not_shared_with_is_no_editor_and_the_gm_is_told(tmp_path, ruleset):
    game = Game(tmp_path / "game", ruleset, also=NO_GOOGLE)
    warnings = share_books(game.gd, game.backend(game.gd))
    name = game.gd.config.factions[game.first].name
    about = [w for w in warnings if NO_GOOGLE in w and w.startswith(f"книга фракции «{name}»")]
    assert len(about) == 1 and sum(NO_GOOGLE in w for w in warnings) == 2     # and the public book's
    assert about[0].startswith(f"книга фракции «{name}»: не удалось открыть доступ {NO_GOOGLE}")
    assert "не вносит его в редакторы вкладок приказов" in about[0]
    assert "адрес с аккаунтом Google" in about[0] and "forumwar share --notify" in about[0]
    assert NO_GOOGLE not in game.roles(game.first)
    assert NO_GOOGLE not in game.editors(game.first)
    assert ALICE in game.editors(game.first)
    game.types(ALICE, game.first)

    run_turn(game.gd, be=game.backend(game.gd))      # a later command pushes the books again: still no editor
    assert NO_GOOGLE not in game.editors(game.first) and ALICE in game.editors(game.first)

    assert not any(NO_GOOGLE in w for w in share_books(game.gd, game.backend(game.gd), notify=True))
    assert game.roles(game.first)[NO_GOOGLE] == "writer"
    assert NO_GOOGLE in game.editors(game.first)


def test_a_player_the_gm_shares_by_hand_after_share_is_an_editor_at_the_next_push(tmp_path):
    """Only the addresses a share could not give access are left out; one forumwar never tried is listed."""
    game = Game(tmp_path / "game", "jade_rose", also=NO_GOOGLE)
    share_books(game.gd, game.backend(game.gd))
    game.gd.config.factions[game.second].players.append(SPY)
    game.gd.save_config()
    game.gd = GameDir(game.gd.path)
    game.fake.share(game.book(game.second), SPY, "writer")          # in the browser, without forumwar share
    run_turn(game.gd, be=game.backend(game.gd))
    assert SPY in game.editors(game.second) and BORIS in game.editors(game.second)
    assert NO_GOOGLE not in game.editors(game.first)


def test_a_book_shared_with_a_group_keeps_its_editors(tmp_path):
    """Who is in a group cannot be listed: the editors stay as game.toml names them."""
    game = Game(tmp_path / "game", "jade_rose", also=NO_GOOGLE)
    fake_client(game.fake, GM).insert_permission(game.book(game.first), "players@groups.example.com",
                                                 perm_type="group", role="writer", notify=False)
    share_books(game.gd, game.backend(game.gd))
    assert NO_GOOGLE in game.editors(game.first)


# -- the pacer counts as Google does ---------------------------------------------------------------

@pytest.mark.parametrize(("method", "url", "kind"), [
    ("get", "https://sheets.googleapis.com/v4/spreadsheets/k", "read"),
    ("get", "https://sheets.googleapis.com/v4/spreadsheets/k/values:batchGet", "read"),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets/k:batchUpdate", "write"),
    ("post", "https://sheets.googleapis.com/v4/spreadsheets/k:getByDataFilter", "read"),
    ("put", "https://sheets.googleapis.com/v4/spreadsheets/k/values/A1?valueInputOption=RAW", "write"),
    ("get", "https://www.googleapis.com/drive/v3/files/k/export", None),
    ("post", "https://www.googleapis.com/drive/v3/files/k/permissions", None),
])
def test_requests_count_against_the_sheets_quota_as_google_counts_them(method, url, kind):
    assert quota_kind(method, url) == kind


# -- a lost spreadsheet create while Drive's search lags -------------------------------------------

LAG = 20.0


def _drive_that_lags() -> tuple[FakeGoogle, FakeClock, str]:
    clock = FakeClock()
    fake = FakeGoogle(clock=clock, search_lag=LAG)
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
    return fake, clock, folder


def _spreadsheets(fake: FakeGoogle) -> list[str]:
    return [f.id for f in fake.files.values() if f.mime_type == SPREADSHEET_MIME]


def test_the_fake_drive_search_shows_a_new_file_only_after_its_lag():
    fake, clock, folder = _drive_that_lags()
    client = fake_client(fake, GM)
    made = client.http_client.request("post", "https://www.googleapis.com/drive/v3/files", json={
        "name": "Книга", "mimeType": SPREADSHEET_MIME, "parents": [folder]},
        params={"supportsAllDrives": "true"}).json()["id"]
    search = {"q": "name = \"Книга\"", "supportsAllDrives": "true", "includeItemsFromAllDrives": "true",
              "corpora": "allDrives"}
    listed = lambda: [f["id"] for f in client.http_client.request(  # noqa: E731
        "get", "https://www.googleapis.com/drive/v3/files", params=search).json()["files"]]
    assert listed() == []
    assert made in fake.files and client.open_by_key(made).id == made      # a get by id sees it at once
    clock.sleep(LAG)
    assert listed() == [made]


def test_a_lost_create_is_found_while_drive_search_lags(tmp_path):
    fake, clock, folder = _drive_that_lags()
    be = fake_backend(fake, BOT, clock=clock, folder_id=folder)
    fake.inject("drop", op="drive.files.create")             # made by Google, the answer lost
    book = be.create_book("empire", "Империя")
    assert _spreadsheets(fake) == [book]
    assert fake.count("drive.files.create") == 1               # never sent a second time


def test_a_create_that_never_reached_google_is_sent_again_after_the_search_settles(tmp_path):
    fake, clock, folder = _drive_that_lags()
    be = fake_backend(fake, BOT, clock=clock, folder_id=folder)
    fake.inject("reset", op="drive.files.create")
    book = be.create_book("empire", "Империя")
    assert _spreadsheets(fake) == [book]
    assert fake.count("drive.files.create") == 2


def test_new_whose_creates_lose_answers_under_search_lag_makes_each_book_once(tmp_path, ruleset):
    clock = FakeClock()
    fake = FakeGoogle(clock=clock, search_lag=LAG)
    fake.inject("drop", op="drive.files.create", times=3)
    game = Game(tmp_path / "game", ruleset, fake=fake, clock=clock)
    assert sorted(_spreadsheets(fake)) == sorted(game.gd.config.books.values())


def test_a_new_process_right_after_a_lost_create_waits_for_drive_search_and_finds_it(tmp_path):
    """The first `new` made the spreadsheet but died before recording it; the next one starts at once."""
    from sheets_bridge.backends.base import BackendError
    fake, clock, folder = _drive_that_lags()
    meta = tmp_path / "gsheets-meta.json"
    first = fake_backend(fake, BOT, clock=FakeClock(), folder_id=folder, metadata_path=meta)   # Drive's time stands
    fake.inject("drop", op="drive.files.create")
    fake.inject("reset", op="drive.files.list", times=10_000)
    with pytest.raises(BackendError):
        first.create_book("empire", "Империя")
    fake.faults.clear()
    [made] = _spreadsheets(fake)
    second = fake_backend(fake, BOT, clock=clock, folder_id=folder, metadata_path=meta)
    assert second.create_book("empire", "Империя") == made
    assert _spreadsheets(fake) == [made] and fake.count("drive.files.create") == 1


def test_a_new_process_long_after_a_create_that_never_left_sends_it_at_once(tmp_path):
    """The search has long caught up with a create sent an hour ago: no pause before sending it again."""
    import json
    import time

    from sheets_bridge.backends.base import BackendError
    fake, clock, folder = _drive_that_lags()
    meta = tmp_path / "gsheets-meta.json"
    first = fake_backend(fake, BOT, clock=FakeClock(), folder_id=folder, metadata_path=meta)
    fake.inject("reset", op="drive.files.create", times=10_000)               # never reached Google
    with pytest.raises(BackendError):
        first.create_book("empire", "Империя")
    fake.faults.clear()
    saved = json.loads(meta.read_text(encoding="utf-8"))
    saved["create_sent"]["empire"] = time.time() - 3600                        # the GM re-runs `new` an hour later
    meta.write_text(json.dumps(saved), encoding="utf-8")
    second = fake_backend(fake, BOT, clock=clock, folder_id=folder, metadata_path=meta)
    book = second.create_book("empire", "Империя")
    assert _spreadsheets(fake) == [book] and clock.sleeps == []
