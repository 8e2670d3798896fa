"""Issue 8 item 7b-d: `new` records each book as soon as it exists and can be re-run to finish a
half-made game; `turn` and `check` refuse a game whose books are incomplete; a retried
spreadsheet create finds the spreadsheet it already made instead of leaving an orphan."""
from __future__ import annotations

import pytest

from sheets_bridge.backends.base import BackendError
from sheets_bridge.backends.gsheets.auth import ApiUnavailableError
from sheets_bridge.create import create_game, require_complete_books
from sheets_bridge.gamedir import GameDir, GameDirError
from sheets_bridge.stage import check, run_turn
from sheets_bridge.stage_common import StageError
from tests.fake_google import FakeGoogle, fake_backend
from tests.fake_google.fake_drive import SPREADSHEET_MIME

GM = "gm@example.com"
BOT = "forumwar@resume.iam.gserviceaccount.com"
KEYS = ["empire", "vampires", "dwarves", "jade", "public", "gm"]


class Drive:
    """A shared-drive folder on the fake; `new` may be made to fail after `fail_after` creates."""

    def __init__(self) -> None:
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        self.folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        self.fail_after: int | None = None
        self.created: list[str] = []

    def backend(self, gd: GameDir):
        be = fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=self.folder,
                          metadata_path=gd.state_dir / "gsheets-meta.json")
        original = be.create_book

        def create_book(key: str, title: str) -> str:
            if self.fail_after is not None and len(self.created) == self.fail_after:
                self.fake.inject("http", status=503, times=10_000, op="drive.files.create")
            book = original(key, title)
            self.created.append(key)
            return book

        be.create_book = create_book
        return be

    def new(self, path):
        return create_game(path, "jade_rose", "demo", backend="gsheets", seed="resume", backend_factory=self.backend)

    def spreadsheets(self) -> int:
        return sum(1 for f in self.fake.files.values() if f.mime_type == SPREADSHEET_MIME)


def _half_made(tmp_path) -> tuple[Drive, GameDir]:
    drive = Drive()
    drive.fail_after = 3
    with pytest.raises(ApiUnavailableError):
        drive.new(tmp_path / "game")
    drive.fake.faults.clear()
    drive.fail_after = None
    return drive, GameDir(tmp_path / "game")


def test_new_records_each_book_as_soon_as_it_exists(tmp_path):
    drive, gd = _half_made(tmp_path)
    assert sorted(gd.config.books) == sorted(KEYS[:3])
    assert all(book in drive.fake.files for book in gd.config.books.values())


def test_new_rerun_finishes_a_half_made_game_without_making_books_again(tmp_path):
    drive, gd = _half_made(tmp_path)
    made = dict(gd.config.books)
    gd = drive.new(tmp_path / "game")
    assert sorted(gd.config.books) == sorted(KEYS)
    assert {k: gd.config.books[k] for k in made} == made
    assert drive.spreadsheets() == 6                        # no orphan, no duplicate
    titles = [s.title for s in drive.fake.spreadsheet(gd.config.books["empire"]).sheets]
    assert "Экономика" in titles and "Сводка" in titles
    run_turn(gd, be=drive.backend(gd))                      # the game plays


@pytest.mark.parametrize("command", [run_turn, check], ids=["turn", "check"])
def test_turn_and_check_refuse_a_game_whose_books_are_incomplete(tmp_path, command):
    drive, gd = _half_made(tmp_path)
    with pytest.raises(StageError) as excinfo:
        command(gd, be=drive.backend(gd))
    message = str(excinfo.value)
    assert "создана не до конца" in message and "forumwar new" in message
    assert "Нефрит" in message and "книга мастера" in message        # what is missing, by display name


def test_turn_reads_nothing_from_a_half_made_game(tmp_path):
    drive, gd = _half_made(tmp_path)
    drive.fake.calls.clear()
    with pytest.raises(StageError):
        run_turn(gd, be=drive.backend(gd))
    assert drive.fake.calls == []


def test_require_complete_books_passes_a_complete_game(tmp_path):
    gd = Drive().new(tmp_path / "game")
    require_complete_books(gd)


def test_new_rerun_on_a_complete_game_is_refused(tmp_path):
    drive = Drive()
    drive.new(tmp_path / "game")
    with pytest.raises(StageError, match="уже создана"):
        drive.new(tmp_path / "game")
    assert drive.spreadsheets() == 6


def test_new_rerun_with_another_backend_is_refused(tmp_path):
    _half_made(tmp_path)
    with pytest.raises(GameDirError, match="другая игра"):
        create_game(tmp_path / "game", "jade_rose", "demo", backend="xlsx", seed="resume")


def test_new_still_refuses_a_directory_that_holds_something_else(tmp_path):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "notes.txt").write_text("x")
    with pytest.raises(GameDirError, match="не пуста"):
        Drive().new(tmp_path / "game")


# -- 7d: a retried create finds what it made ------------------------------------------------

def test_create_whose_answer_was_lost_finds_the_spreadsheet_it_made(tmp_path):
    drive = Drive()
    be = fake_backend(drive.fake, BOT, folder_id=drive.folder)
    drive.fake.inject("drop", op="drive.files.create")       # applied by Google, answer lost
    book = be.create_book("empire", "Империя")
    assert drive.spreadsheets() == 1 and book in drive.fake.files
    assert drive.fake.count("drive.files.create") == 1        # never sent a second time


def test_create_after_a_reset_connection_is_sent_again(tmp_path):
    drive = Drive()
    be = fake_backend(drive.fake, BOT, folder_id=drive.folder)
    drive.fake.inject("reset", op="drive.files.create")       # never reached Google
    book = be.create_book("empire", "Империя")
    assert drive.spreadsheets() == 1 and book in drive.fake.files


def test_a_new_process_finds_the_spreadsheet_a_crashed_one_made(tmp_path):
    """The first `new` made the spreadsheet but died before recording it (every answer lost)."""
    drive = Drive()
    meta = tmp_path / "gsheets-meta.json"
    first = fake_backend(drive.fake, BOT, folder_id=drive.folder, metadata_path=meta)
    drive.fake.inject("drop", op="drive.files.create", times=10_000)
    drive.fake.inject("reset", op="drive.files.list", times=10_000)
    with pytest.raises(BackendError):
        first.create_book("empire", "Империя")
    drive.fake.faults.clear()
    made = [f.id for f in drive.fake.files.values() if f.mime_type == SPREADSHEET_MIME]
    second = fake_backend(drive.fake, BOT, folder_id=drive.folder, metadata_path=meta)
    assert second.create_book("empire", "Империя") == made[0]
    assert drive.spreadsheets() == 1


def test_every_book_gets_its_own_marker(tmp_path):
    drive = Drive()
    be = fake_backend(drive.fake, BOT, folder_id=drive.folder)
    books = {be.create_book(key, key) for key in ("empire", "dwarves")}
    assert len(books) == 2
    markers = [f.app_properties for f in drive.fake.files.values() if f.mime_type == SPREADSHEET_MIME]
    assert len({tuple(m.items()) for m in markers}) == 2
