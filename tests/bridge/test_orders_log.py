"""Issue 11 item 7: «Итоги приказов» keeps every stage of the turn — after the planning stage the
players still see how their economy and army orders of the same turn came out."""
from __future__ import annotations

import pytest

from sheets_bridge.demo import run_demo
from sheets_bridge.xlsx_backend import XlsxBackend

pytestmark = pytest.mark.long


def test_after_the_planning_stage_the_log_holds_the_turn_s_orders_and_manoeuvres(tmp_path):
    gd = run_demo(tmp_path / "demo", turns=1, echo=lambda _: None, ruleset="jade_rose")
    state = gd.latest_state()
    assert state["turn"] == 2, "the demo's first turn has a planning stage and is fully resolved"
    log = XlsxBackend(gd.path).read_tabs(gd.config.books["empire"], ["Итоги приказов"])["Итоги приказов"]
    tabs = [row[1] for row in log[1:] if row and row[0]]
    assert "Экономика" in tabs and "Манёвры" in tabs, tabs
    assert tabs.index("Экономика") < tabs.index("Манёвры"), "stage by stage, in the rule set's order"
    assert {row[0] for row in log[1:] if row and row[0]} == {"1"}
