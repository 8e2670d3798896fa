"""Shared fixtures and the suite's order: the few long tests (marked `long`) start first, so the two
xdist workers finish together instead of one waiting for the crash sweep at the end.

Drawing the map and the charts costs seconds at every stage opening, so only the picture tests draw them
(tests/bridge/test_map_drawing.py, test_charts.py) and, with FORUMWAR_FULL_TESTS=1 (`make test-full`),
every test: the full crash sweep then crashes before every picture write too. Elsewhere a stage opens
exactly as in the product but for that one step."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.paths import REPO, SHARED


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: takes tens of seconds or more; scheduled first")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


FULL = os.environ.get("FORUMWAR_FULL_TESTS") == "1"
PICTURE_TESTS = {"test_map_drawing.py", "test_charts.py"}


@pytest.fixture(autouse=True)
def _pictures_only_where_tested(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if not FULL and request.path.name not in PICTURE_TESTS:
        monkeypatch.setattr("sheets_bridge.pictures.publish", lambda *args, **kwargs: None)


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
