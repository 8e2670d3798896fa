"""The toy rule set is registered only while the contract tests run."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import registry


@pytest.fixture(autouse=True, scope="session")
def toy_registered() -> Iterator[None]:
    from tests.contract.toy import Coins
    registry.register(Coins)
    yield
    registry._RULESETS.pop(Coins.name, None)
    for alias in [a for a, name in registry._ALIASES.items() if name == Coins.name]:
        registry._ALIASES.pop(alias)
