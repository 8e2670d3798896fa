"""A turn reads once and writes once (issue 40, items 1 and 2): on xlsx, a whole `turn` started as a new process
starts (no parsed book kept) parses each book once and saves each book once. The Jade Rose demo game in every run;
Titania's generated world at 64 factions on 600 provinces (benchmarks/titania_world.py, scale 4: 66 books, more
than the 64 workbooks once kept, so every book was parsed twice) with FORUMWAR_FULL_TESTS=1 (`make test-full`).
What it costs is `make bench`'s (benchmarks/bench_turn_cost.py)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchmarks.bench_turn_cost import jade_rose_game, titania_game
from engine.state import Envelope
from sheets_bridge.backends.xlsx import files as xlsx_files
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import run_turn


def _turn_once(gd: GameDir) -> None:
    before = Envelope.of(gd.latest_state())
    books = {str((gd.path / book_id).resolve()) for book_id in gd.config.books.values()}
    xlsx_files.forget()                                 # as a new `forumwar turn` process starts
    with xlsx_files.tallied() as tally:
        run_turn(gd)
    after = Envelope.of(gd.latest_state())
    assert (after.turn, after.stage) != (before.turn, before.stage)
    assert set(tally.saved) == books and set(tally.saved.values()) == {1}
    assert set(tally.parsed) <= books and set(tally.parsed.values()) == {1}


def test_a_jade_rose_turn_parses_each_book_once_and_saves_it_once(tmp_path: Path) -> None:
    _turn_once(jade_rose_game(tmp_path))


@pytest.mark.long
@pytest.mark.skipif(os.environ.get("FORUMWAR_FULL_TESTS") != "1",
                    reason="creates and plays a 64-faction game (minutes): with FORUMWAR_FULL_TESTS=1 (make test-full)")
def test_a_64_faction_titania_turn_parses_each_of_its_66_books_once_and_saves_it_once(tmp_path: Path) -> None:
    gd = titania_game(tmp_path, 4)
    assert len(gd.config.books) == 66
    _turn_once(gd)
