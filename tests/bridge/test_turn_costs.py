"""Issue 39 §1: what a stage costs in requests. `forumwar turn` as `make turn` runs it (no --yes) reads each
order book once, on both backends: the question about a stage nobody played is asked about the rows of the
locked pull (a «нет» gives the players their order tabs back). `check` writes the books together, as the
push does. On Google a stage's pictures go up together, and the people of each book and of each picture file
are listed once a stage, in one call of Drive's batch endpoint. Concurrency is observed with the fake's
gatherings (requests held until they are all in flight together), never by timing."""
from __future__ import annotations

import collections
import copy
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from sheets_bridge import cli_text, pictures, readiness
from sheets_bridge import stage as stage_module
from sheets_bridge.backends.base import Backend
from sheets_bridge.cli import main
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import order_books, stage_tabs
from sheets_bridge.stage import check
from tests.bridge.backend_games import BACKENDS, Game, GoogleGame, new_game

READS = ("read_orders", "read_tabs", "lock_and_read")


@pytest.fixture(params=BACKENDS)
def game(request, tmp_path) -> Game:
    return new_game(request.param, tmp_path / "game", seed="turn-costs")


@pytest.fixture
def books_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """No picture drawn: what is counted is the books' reads."""
    monkeypatch.setattr(pictures, "publish", lambda *args, **kwargs: None)


def _count_reads(be: Backend) -> collections.Counter[str]:
    """Every read of a book the backend makes from now on, by book id (its read methods wrapped)."""
    reads: collections.Counter[str] = collections.Counter()
    for name in READS:
        method = getattr(be, name, None)
        if method is None:
            continue

        def counted(book_id: str, titles: list[str], _method: Callable[..., Any] = method) -> Any:
            reads[book_id] += 1
            return _method(book_id, titles)
        setattr(be, name, counted)
    return reads


def _order_books(game: Game) -> list[str]:
    """The book ids whose order tabs the open stage reads."""
    state = game.gd.latest_state()
    rs = stage_module.find_ruleset(state["ruleset"])
    layout = Layout.load(rs.name)
    return [game.gd.config.books[k] for k in order_books(rs, state) if stage_tabs(rs, layout, state["stage"], k)]


def _make_turn(game: Game, monkeypatch: pytest.MonkeyPatch, answer: str | None = None) -> tuple[int, str]:
    """`forumwar turn GAME` as `make turn` runs it (no --yes), on the game's backend; `answer`: typed at the
    terminal's question (None: no terminal)."""
    monkeypatch.setattr(stage_module, "open_backend", lambda gd, *args: game.be)
    monkeypatch.setattr(cli_text, "stdin_is_terminal", lambda: answer is not None)
    result = CliRunner().invoke(main, ["turn", str(game.gd.path)], input=answer)
    return result.exit_code, result.output


def _economy() -> str:
    return next(t for t in Layout.load("jade_rose").order_tabs("orders") if t.key == "economy").title


@pytest.mark.usefixtures("books_alone")
def test_make_turn_reads_each_order_book_once(game, monkeypatch):
    game.type_rows("dwarves", _economy(), [("Нанять", "", "Копейщик", "1")])
    readers = _order_books(game)
    reads = _count_reads(game.be)
    if isinstance(game, GoogleGame):
        game.fake.calls.clear()
    code, out = _make_turn(game, monkeypatch)
    assert code == 0, out
    assert (game.gd.latest_state()["turn"], game.gd.latest_state()["stage"]) != (1, "orders")
    assert dict(reads) == dict.fromkeys(readers, 1)
    if isinstance(game, GoogleGame):          # nothing else read a book behind the backend's methods
        assert game.fake.count("spreadsheets.get") == game.fake.count("values.") == 0


@pytest.mark.usefixtures("books_alone")
def test_an_unplayed_stage_is_asked_about_the_rows_read_once(game, monkeypatch):
    readers = _order_books(game)
    reads = _count_reads(game.be)
    code, out = _make_turn(game, monkeypatch, answer="да\n")
    assert code == 0 and "Рассчитать этап без приказов? [да/нет]" in out, out
    assert (game.gd.latest_state()["turn"], game.gd.latest_state()["stage"]) != (1, "orders")
    assert dict(reads) == dict.fromkeys(readers, 1)


def _protections(game: GoogleGame, book_id: str, titles: set[str]) -> dict[str, list[dict]]:
    book = game.fake.spreadsheet(book_id)
    return {t: copy.deepcopy(book.sheet_by_title(t).protected) for t in sorted(titles)}


@pytest.mark.usefixtures("books_alone")
def test_a_declined_unplayed_stage_was_read_once_and_its_order_tabs_are_open_again(game, monkeypatch):
    before = sorted(p.name for p in game.gd.state_dir.glob("turn-*.json"))
    state = game.gd.latest_state()
    rs = stage_module.find_ruleset(state["ruleset"])
    layout = Layout.load(rs.name)
    titles = {key: {t.title for t in stage_tabs(rs, layout, state["stage"], key)} for key in game.gd.config.books}
    for key, read in titles.items():                # «Готовность» is read (and closed) with the order tabs
        read |= set(readiness.read_titles(layout, key)) if read else set()
    opened = ({key: _protections(game, game.gd.config.books[key], titles[key]) for key in titles if titles[key]}
              if isinstance(game, GoogleGame) else {})
    readers = _order_books(game)
    closed: dict[str, dict[str, list[dict]]] = {}
    reopen = stage_module._reopen

    def reopened(*args: Any) -> None:          # the tabs as the question found them, then given back
        if isinstance(game, GoogleGame):
            closed.update({key: _protections(game, game.gd.config.books[key], titles[key]) for key in opened})
        reopen(*args)
    monkeypatch.setattr(stage_module, "_reopen", reopened)
    reads = _count_reads(game.be)
    code, out = _make_turn(game, monkeypatch, answer="нет\n")
    assert code == 1 and "не рассчитан: никто не подал приказов; игра не изменена" in out, out
    assert dict(reads) == dict.fromkeys(readers, 1)
    assert sorted(p.name for p in game.gd.state_dir.glob("turn-*.json")) == before
    assert not list(game.gd.archive_path(1).glob("orders-*.json"))
    if isinstance(game, GoogleGame):
        assert len(closed) == len(opened) >= 3
        assert all(closed[key] != opened[key] for key in opened)         # the locked pull had closed them
        assert {key: _protections(game, game.gd.config.books[key], titles[key]) for key in opened} == opened


def test_check_writes_the_books_together(tmp_path):
    game = GoogleGame(tmp_path / "game", seed="turn-costs-check")
    game.type_rows("dwarves", _economy(), [("Нанять", "", "Копейщик", "1")])
    writers = _order_books(game)
    assert len(writers) >= 3
    game.fake.calls.clear()
    together = game.fake.gather("spreadsheets.batchUpdate", len(writers), timeout=30.0)
    report = check(game.gd, be=game.be)
    assert together.met, "check wrote the books one after another"
    written = collections.Counter(c.file_id for c in game.fake.calls if c.op == "spreadsheets.batchUpdate")
    assert set(writers) <= set(written) and set(written.values()) == {1}      # each book in one write
    assert sorted(report.pushed) == sorted(report.outcomes)
