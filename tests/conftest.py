"""Shared fixtures and the suite's order: the few long tests (marked `long`) start first, so the two
xdist workers finish together instead of one waiting for the crash sweep at the end.

The suite runs with `--dist loadfile`: each test file runs on one worker, except that the files
sharing a costly session fixture (the whole scripted demo of a rule set) form one scope in
SHARED_SCOPES and run on one worker, which plays that demo once. (xdist's own `loadgroup` marks
leave the node ids unchanged under this pytest, so its groups never form.)

Drawing the map and the charts costs seconds at every stage opening, so only the picture tests draw them
(tests/bridge/test_map_drawing.py, test_charts.py, test_gsheets_pictures.py) and, with FORUMWAR_FULL_TESTS=1
(`make test-full`), every test: the full crash sweep then crashes before every picture write too. Elsewhere a
stage opens exactly as in the product but for that one step."""
from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from sheets_bridge import check_maps, pictures
from sheets_bridge.demo import run_demo
from sheets_bridge.gamedir import GameDir
from tests.paths import REPO, SHARED

# Property tests check behaviour, never speed (speed is `make bench`): no per-example deadline, which a
# loaded CI machine or a first example that compiles or imports would otherwise miss now and then.
settings.register_profile("forumwar", deadline=None)
settings.load_profile("forumwar")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: takes tens of seconds or more; scheduled first")
    config.addinivalue_line("markers", "full: a slower sibling of what every run checks (another code page, rule set "
                                       "or backend, a subprocess): run by make test-full (FORUMWAR_FULL_TESTS=1) only")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    if os.environ.get("FORUMWAR_FULL_TESTS") != "1":
        later = pytest.mark.skip(reason="make test-full (FORUMWAR_FULL_TESTS=1): every run has a faster sibling")
        for item in items:
            if item.get_closest_marker("full") is not None:
                item.add_marker(later)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the worker holds once the tests are collected (every module imported, every test item)
    lives to the end: the garbage collector stops scanning it (gc.freeze). Each full collection used
    to walk it all again, a tenth of the stage-playing tests' time."""
    gc.freeze()


SHARED_SCOPES = {
    "tests/bridge/test_demo.py": "jade_rose_demo",
    "tests/bridge/test_forum_posts.py": "jade_rose_demo",
    "tests/bridge/test_orders_log.py": "jade_rose_demo",
    "tests/titania/test_demo_game.py": "titania_demo",
    "tests/titania/test_forum_posts.py": "titania_demo",
}


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """loadfile, with the files of SHARED_SCOPES grouped into their scopes."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFixtureScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            scope = str(super()._split_scope(nodeid))
            return SHARED_SCOPES.get(scope, scope)

    return SharedFixtureScheduling(config, log)


FULL = os.environ.get("FORUMWAR_FULL_TESTS") == "1"
PICTURE_TESTS = {"test_map_drawing.py", "test_charts.py", "test_gsheets_pictures.py", "test_check_maps.py"}
DRAW = pictures.publish
DRAW_CHECK = check_maps.publish          # `check`'s order maps (issue 41 §1), off where the pictures are


@pytest.fixture(scope="session", autouse=True)
def _no_pictures() -> Iterator[None]:
    """No picture is drawn, from the session's start: a module's or the session's own games too (a
    function-scoped switch came after them, and their stage openings drew the map and the charts)."""
    with pytest.MonkeyPatch.context() as patch:
        if not FULL:
            patch.setattr(pictures, "publish", lambda *args, **kwargs: None)
            patch.setattr(check_maps, "publish", lambda *args, **kwargs: [])
        yield


@pytest.fixture(scope="module", autouse=True)
def _pictures_where_tested(request: pytest.FixtureRequest) -> Iterator[None]:
    """The picture tests draw them, their module's games included."""
    with pytest.MonkeyPatch.context() as patch:
        if request.path.name in PICTURE_TESTS:
            patch.setattr(pictures, "publish", DRAW)
            patch.setattr(check_maps, "publish", DRAW_CHECK)
        yield


@dataclass(frozen=True)
class DemoRun:
    """A scripted demo played to its end: the game and the lines `forumwar demo` printed."""

    gd: GameDir
    lines: tuple[str, ...]


def _play_demo(factory: pytest.TempPathFactory, ruleset: str) -> DemoRun:
    lines: list[str] = []
    gd = run_demo(factory.mktemp(ruleset) / "demo", echo=lines.append, ruleset=ruleset)
    return DemoRun(gd, tuple(lines))


@pytest.fixture(scope="session")
def jade_rose_demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """The whole Jade Rose demo, played once per worker (its files share a scope: SHARED_SCOPES)."""
    return _play_demo(tmp_path_factory, "jade_rose")


@pytest.fixture(scope="session")
def titania_demo(tmp_path_factory: pytest.TempPathFactory) -> DemoRun:
    """The whole Titania demo, played once per worker (its files share a scope: SHARED_SCOPES)."""
    return _play_demo(tmp_path_factory, "titania")


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The checkout (templates/, engine/, sheets_bridge/)."""
    return REPO


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """`../shared`: the rule books, rulings and conformance cases (skips when absent)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not beside this checkout")
    return SHARED
