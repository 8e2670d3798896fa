"""Shared fixtures and the suite's order: the few long tests (marked `long`) start first, so the two
xdist workers finish together instead of one waiting for the crash sweep at the end."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import REPO, SHARED


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: takes tens of seconds or more; scheduled first")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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
