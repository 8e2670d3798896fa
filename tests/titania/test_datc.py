"""The Titania DATC-style suite: one adjudication file per rule of the book (tests/titania/cases/*.json).

Each case names its rule, quotes the Russian sentence of the seed and the ruling it relies on; the
asserted `expect` subset is compared by the README's rules (tests/titania/compare.py).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.titania.adjudicate import adjudicate
from tests.titania.compare import mismatches

CASES = sorted((Path(__file__).resolve().parent / "cases").glob("*.json"))


def test_suite_is_not_empty() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["case"] == path.stem
    assert case["rule"]["rules"] and case["rule"]["ru"] and case["rule"]["ruling"]
    result = adjudicate(case)
    assert result.output is not None, result.problems
    assert mismatches(case["expect"], result.output) == []
