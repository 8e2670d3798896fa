"""`forumwar adjudicate FILE --through-books`: a situation's turn played as players play it.

A game is made from the situation (`forumwar new --situation`, on xlsx books in a temporary folder, with the
file's seed and dice for its turn: not a fair game), each faction's orders are typed as rows into its order tabs
in the words of the tabs' dropdowns (the rule set's `rows`), `check` writes the statuses, `turn` resolves the
stage, and the answer of `adjudicate` is read back from the game (the rule set's `answer`), with the rows whose
verdict at `check` differs from the turn's.
"""
from __future__ import annotations

import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.ruleset import Ruleset
from sheets_bridge import stage
from sheets_bridge.backends.base import TypesOrders
from sheets_bridge.create import create_game
from sheets_bridge.layouts import Layout
from sheets_bridge.scenarios import situation_games, situation_scenario
from sheets_bridge.stage_common import Progress, StageError, noop, open_backend

GAME_SEED = "through-books"  # the game's stages after the situation's own turn (none are played)


@dataclass(frozen=True)
class Played:
    """The answer read from the game (None when the file could not be played), the rows whose verdict at
    `check` differs from the turn's, and the problems (Russian) that stopped it."""

    output: dict[str, Any] | None
    mismatches: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def play(rs: Ruleset, data: Mapping[str, Any], seed: int | str, progress: Progress = noop,
         folder: Path | None = None) -> Played:
    """Play the situation `data` through the books of a game made in `folder` (a temporary one when None)."""
    games = situation_games(rs)
    made = games.game(data, seed, fix_turn=True)
    if made.state is None:
        return Played(None, problems=made.problems)
    rows = games.rows(data, made.state)
    if rows.problems:
        return Played(None, problems=rows.problems)
    if folder is not None:
        return _play(rs, data, seed, rows, folder, progress)
    with tempfile.TemporaryDirectory(prefix="forumwar-books-") as tmp:
        return _play(rs, data, seed, rows, Path(tmp), progress)


def _play(rs: Ruleset, data: Mapping[str, Any], seed: int | str, rows: Any, folder: Path,
          progress: Progress) -> Played:
    games = situation_games(rs)
    scenario = situation_scenario(rs, rows.situation, "файла ситуации", "situation", seed, fix_turn=True)
    gd = create_game(folder / "game", rs.name, scenario, backend="xlsx", seed=GAME_SEED, pictures=False)
    be = open_backend(gd)
    if not isinstance(be, TypesOrders):
        raise StageError("книги этой игры не заполнить строками приказов")
    layout = Layout.load(rs.name)
    for book, tabs in rows.books.items():
        titled: dict[str, list[Mapping[str, str]]] = {}
        for key, typed in tabs.items():
            tab = layout.tab(key, "faction")
            if tab is None:
                raise StageError(f"в раскладке книг нет вкладки приказов «{key}»")
            titles = {c.key: c.title for c in tab.columns}
            titled[tab.title] = [{titles[k]: v for k, v in cells.items()} for cells in typed]
        progress(f"вписываю приказы фракции «{gd.config.factions[book].name}»: " + ", ".join(f"«{t}»" for t in titled))
        be.type_rows(gd.config.books[book], titled)
    report = stage.check(gd, be, progress)
    checked = {f: {(str(o["tab"]), int(o["row"])): bool(o["ok"]) for o in outcomes}
               for f, outcomes in report.outcomes.items()}
    before = gd.latest_state()
    stage.run_turn(gd, be, progress)
    output, mismatches = games.answer(data, rows, before, gd.latest_state(), checked)
    return Played(output, mismatches)
