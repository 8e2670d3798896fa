"""The public conformance cases (../shared/conformance/battles/): the attacker's win share of each case at
5 000 runs of the fast simulator agrees with the independent implementation within ±0.03."""
from __future__ import annotations

import json

import pytest

from engine.jade_rose.battle import simulate
from tests.paths import SHARED

CASES = SHARED / "conformance" / "battles"
EXPECTED = json.loads((CASES / "expected.json").read_text(encoding="utf-8")) if CASES.is_dir() else {}


@pytest.mark.skipif(not EXPECTED, reason="../shared/conformance/battles is not available")
@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_conformance_case_attacker_win_share(case):
    spec = json.loads((CASES / case).read_text(encoding="utf-8"))
    out = simulate(spec, 5000, 2024)
    assert abs(out["attacker_win"] - EXPECTED[case]["attacker_win"]) <= 0.03, (case, out["attacker_win"])
    rounds = EXPECTED[case].get("mean_rounds_all_fights")
    if rounds is not None:
        assert abs(out["mean_rounds_all_fights"] - rounds) <= 0.05 * rounds, (case, out["mean_rounds_all_fights"])
