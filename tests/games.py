"""New local games for tests, each made once per test process and then copied.

Making a Jade Rose game writes six books (about a second). A game folder holds no absolute path, and
with a seed given nothing in it is drawn at random but the sheets' password, so a copy of a new game
is that game: `new_game` makes the first one of each kind (rule set, scenario, seed, title, whether
pictures are drawn, and under freezegun the frozen clock time the stage opens at) in a folder of its
own and hands each caller a copy. Tests of making a game itself and of fair (unseeded) dice call
`create_game`.
"""
from __future__ import annotations

import datetime as dt
import shutil
import tempfile
from pathlib import Path

from sheets_bridge import pictures
from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir

_MADE: dict[tuple[str, str, str, str | None, bool, str | None], Path] = {}
_FOLDER: list[tempfile.TemporaryDirectory[str]] = []


def _pictures_drawn() -> bool:
    """Whether this test draws the map and charts (tests/conftest.py turns them off elsewhere)."""
    return getattr(pictures.publish, "__module__", None) == pictures.__name__


def _frozen_clock() -> str | None:
    """The clock time freezegun holds (the journal records when the first stage opened), else None."""
    now = dt.datetime.now(dt.UTC)
    return now.isoformat() if type(now).__name__ == "FakeDatetime" else None


def new_game(path: Path, ruleset: str = "jade_rose", scenario: str = "demo", *, seed: str,
             title: str | None = None) -> GameDir:
    """A new game on local xlsx books at `path`, as `create_game(path, ruleset, scenario, seed=seed,
    title=title)` makes it."""
    key = (ruleset, scenario, seed, title, _pictures_drawn(), _frozen_clock())
    made = _MADE.get(key)
    if made is None or not made.is_dir():
        if not _FOLDER:
            _FOLDER.append(tempfile.TemporaryDirectory(prefix="forumwar-new-games-"))
        made = Path(_FOLDER[0].name) / str(len(_MADE)) / "game"
        create_game(made, ruleset, scenario, backend="xlsx", seed=seed, title=title)
        _MADE[key] = made
    shutil.copytree(made, path)
    return GameDir(path)
