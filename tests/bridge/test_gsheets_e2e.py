"""End to end on both backends: the same game, the same orders, the same seed give the same results.

The game is driven through the bridge (`create_game`, `check`, `run_turn`) once on local xlsx
books and once on Google spreadsheets served by the fake; states, statuses and every tab of
every book must be identical, and the Google run must stay at one read and one write per book.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, run_turn
from tests.bridge.backend_games import new_game
from tests.fake_google import FakeGoogle, fake_backend, fake_client

SEED = "parity-seed"
GM = "gm@example.com"
BOT = "forumwar@parity.iam.gserviceaccount.com"


def _economy_title() -> str:
    return next(t for t in Layout.load("jade_rose").order_tabs("orders") if t.key == "economy").title


def _orders(state: dict, fid: str) -> list[tuple[str, ...]]:
    own = sorted((c for c in state["cities"].values() if c.get("owner") == fid),
                 key=lambda c: (not c.get("capital"), c["name"]))
    capital = own[0]["name"]
    return [("Построить", capital, "Барак", ""), ("Нанять", "", "Копейщик", "4"),
            ("Построить", "Атлантида", "Часовня", ""), ("Нанять", "", "Копейщик", "пять"),
            ("Построить", capital, "=1+1", "")]


class Game:
    """The parity game on one backend: the shared kit's game, typing into «Экономика»."""

    def __init__(self, backend: str, path: Path):
        self.game = new_game(backend, path, SEED)
        self.gd, self.be = self.game.gd, self.game.be
        self.fake = getattr(self.game, "fake", None)

    def fill(self, fid: str, rows: list[tuple[str, ...]]) -> None:
        self.game.type_rows(fid, _economy_title(), rows)

    def tabs(self, key: str) -> dict[str, list[list[str]]]:
        return self.game.all_tabs(key)


def _play(game) -> None:
    state = game.gd.latest_state()
    for fid in ("empire", "dwarves"):
        game.fill(fid, _orders(state, fid))
    check(game.gd, be=game.be)
    game.after_check = game.tabs("empire")[_economy_title()]
    run_turn(game.gd, be=game.be)        # orders -> planning
    run_turn(game.gd, be=game.be)        # planning -> next turn


def _results(game) -> dict:
    gd = game.gd
    snapshots = {p.name: p.read_text(encoding="utf-8") for p in sorted(gd.state_dir.glob("turn-*.json"))}
    statuses = {p.name: p.read_text(encoding="utf-8") for p in sorted(gd.path.glob("archive/*/statuses-*.json"))}
    books = {key: game.tabs(key) for key in gd.config.books}
    return {"snapshots": snapshots, "statuses": statuses, "books": books, "after_check": game.after_check}


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict:
    games = {name: Game(name, tmp_path_factory.mktemp(name) / "game") for name in ("xlsx", "gsheets")}
    for game in games.values():
        _play(game)
        game.results = _results(game)
    return games


@pytest.mark.parametrize("part", ["snapshots", "statuses", "books", "after_check"])
def test_both_backends_give_the_same_game(played, part):
    xlsx, google = (played[name].results[part] for name in ("xlsx", "gsheets"))
    if part == "books":
        google = _without_links(google)
    assert xlsx and google == xlsx


def _without_links(books: dict) -> dict:
    """The books without the links the Google GM book lists below «Фракции» (xlsx books are files: no links)."""
    from sheets_bridge.render import LINKS_LABEL
    rows = books["gm"]["Фракции"]
    at = next(i for i, row in enumerate(rows) if row and row[0] == LINKS_LABEL)
    return {**books, "gm": {**books["gm"], "Фракции": rows[:at - 1]}}      # the blank row before it too


@pytest.mark.parametrize("backend", ["xlsx", "gsheets"])
def test_wrong_rows_get_their_russian_message_on_either_backend(played, backend):
    economy = played[backend].after_check
    status = economy[0].index("Статус")
    texts = [row[status] if status < len(row) else "" for row in economy[1:]]
    assert len(texts) == 5 and all(texts)             # every filled row got its status
    assert "Формулы" in texts[4] and "=1+1" in texts[4]    # the formula typed by the player is refused


def test_google_stage_uses_one_read_and_one_write_per_book(tmp_path):
    """`turn` reads each order book in ONE request that also locks its order tabs (a batchUpdate that
    returns the values), then pushes each book in ONE batchUpdate that reopens the next stage's tabs;
    `check` reads with one spreadsheets.get (the values and the merged cells) and writes the statuses in one
    batchUpdate."""
    game = Game("gsheets", tmp_path / "game")
    state = game.gd.latest_state()
    game.fill("empire", _orders(state, "empire"))
    order_books = ("empire", "vampires", "dwarves", "jade", "gm")
    game.fake.calls.clear()
    check(game.gd, be=game.be)
    for key, book_id in game.gd.config.books.items():
        mine = sorted(c.op for c in game.fake.calls if c.file_id == book_id and not c.op.startswith("drive."))
        assert mine == (["spreadsheets.batchUpdate", "spreadsheets.get"] if key in order_books else []), key
    game.fake.calls.clear()
    run_turn(game.gd, be=game.be)
    books = game.gd.config.books
    sheets_calls = [c for c in game.fake.calls if not c.op.startswith("drive.")]
    for key, book_id in books.items():
        mine = [c.op for c in sheets_calls if c.file_id == book_id]
        reads = ["spreadsheets.batchUpdate"] if key in order_books else []
        assert sorted(mine) == sorted(reads + ["spreadsheets.batchUpdate"]), key
    assert game.fake.count("drive.files.export") == len(books)     # the archive copies (Drive, not Sheets)


def test_new_game_adopts_spreadsheets_the_gm_created(tmp_path):
    """`forumwar new --backend gsheets --book KEY=...`: a service account cannot own files, so the GM
    creates the spreadsheets, shares them with it, and the game adopts them instead of creating new ones."""
    from tests.fake_google import gm_created_books
    fake = FakeGoogle()
    keys = ("empire", "vampires", "dwarves", "jade", "public", "gm")
    given = gm_created_books(fake, GM, BOT, {k: () for k in keys})

    def factory(gd: GameDir):
        return fake_backend(fake, BOT, gm_emails=[GM], metadata_path=gd.state_dir / "gsheets-meta.json")

    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed=SEED, book_ids=given,
                     backend_factory=factory)
    assert gd.config.books == given
    created = [c for c in fake.calls if c.op == "drive.files.create"]
    # no book is created; with the pictures drawn (make test-full) their folder is tried once, and the service
    # account, which owns no Drive, is refused (the pictures stay in the archive)
    assert len(created) <= 1 and all(c.status == 403 for c in created), created
    titles = [ws.title for ws in fake_client(fake, GM).open_by_key(given["empire"]).worksheets()]
    assert "Экономика" in titles and "Сводка" in titles

