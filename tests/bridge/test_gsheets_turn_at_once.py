"""Issue 22 item 5: on Google, `turn` sends each order book's lock-and-read and each book's export into the
archive together, through the pool the pushes use (base.WorksOnManyBooks), still one read and one write per
book, and the pacer counts what Google's quota counts: every batchUpdate a write (the lock-and-read too),
Drive's exports outside the Sheets quota. Concurrency is observed with the fake's gatherings (requests held
until they are all in flight together), never by timing. On both rule sets' demo games."""
from __future__ import annotations

import collections

import pytest

from engine import find_ruleset
from sheets_bridge import pictures
from sheets_bridge.backends.base import BookRef, WorksOnManyBooks
from sheets_bridge.backends.gsheets.game import book_label
from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import order_books, stage_tabs
from sheets_bridge.stage import run_turn
from sheets_bridge.tab_lock import lock
from tests.fake_google import FakeGoogle, fake_backend

GM = "gm@example.com"
BOT = "forumwar@at-once.iam.gserviceaccount.com"


class Game:
    def __init__(self, path, ruleset: str):
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        self.folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        self.gd = create_game(path, ruleset, "demo", backend="gsheets", seed="at-once", backend_factory=self.backend)

    def backend(self, gd: GameDir):
        """As a new forumwar command opens it."""
        books = [BookRef(key, book, book_label(gd.config, key)) for key, book in gd.config.books.items()]
        return fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=self.folder, books=books,
                            metadata_path=gd.state_dir / "gsheets-meta.json")

    def order_books(self) -> list[str]:
        """The books whose order tabs the open stage reads."""
        state = self.gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        return [k for k in order_books(rs, state) if stage_tabs(rs, layout, state["stage"], k)]


@pytest.fixture(params=["jade_rose", "titania"])
def game(request, tmp_path) -> Game:
    return Game(tmp_path / "game", request.param)


@pytest.fixture
def books_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's requests for the books alone: no picture drawn, even under make test-full (the pictures'
    Drive requests are test_gsheets_pictures.py's)."""
    monkeypatch.setattr(pictures, "publish", lambda *args, **kwargs: None)


@pytest.mark.usefixtures("books_alone")
def test_a_turn_locks_and_reads_the_order_books_together_and_archives_every_book_together(game):
    be = game.backend(game.gd)
    assert isinstance(be, WorksOnManyBooks)
    readers = game.order_books()
    assert len(readers) >= 3
    books = game.gd.config.books
    game.fake.calls.clear()
    locks = game.fake.gather("spreadsheets.batchUpdate", len(readers))     # the first batchUpdates: the locks
    exports = game.fake.gather("drive.files.export", len(books))
    steps: list[str] = []
    run_turn(game.gd, be=be, progress=steps.append)
    assert locks.met, "the order books' lock-and-reads were sent one after another"
    assert exports.met, "the books' exports were sent one after another"
    by_id = {book: key for key, book in books.items()}
    ops = collections.Counter((by_id.get(c.file_id), c.op) for c in game.fake.calls if c.identity == BOT)
    for key in books:                    # still one read (the lock) and one write per book, one export
        writes = 2 if key in readers else 1
        assert ops[(key, "spreadsheets.batchUpdate")] == writes, key
        assert ops[(key, "drive.files.export")] == 1, key
    assert sum(ops.values()) == len(books) + len(readers) + len(books)
    archive = game.gd.archive_path(1)
    assert sorted(p.name.split("-")[0] for p in archive.glob("*.xlsx")) == sorted(books)
    saved = [s for s in steps if s.startswith("в архив сохранена книга")]
    assert [s.done for s in saved] == list(range(1, len(books) + 1))         # the bar counts each book once


@pytest.mark.usefixtures("books_alone")
def test_the_pacer_counts_two_writes_per_order_book_and_no_read(game):
    be = game.backend(game.gd)
    readers, books = game.order_books(), game.gd.config.books
    run_turn(game.gd, be=be)
    sent = dict(be.http.stats.sent)
    assert sent == {"POST write": 2 * len(readers) + (len(books) - len(readers)), "GET drive": len(books)}


def test_lock_reads_the_order_books_together(game):
    """`forumwar lock` closes the order tabs with the same read."""
    be = game.backend(game.gd)
    readers = game.order_books()
    gathering = game.fake.gather("spreadsheets.batchUpdate", len(readers))
    report = lock(game.gd, be=be, force=True)
    assert report.done and gathering.met
