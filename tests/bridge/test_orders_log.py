"""Issue 11 item 7: «Итоги приказов» keeps every stage of the turn — after the planning stage the
players still see how their economy and army orders of the same turn came out."""
from __future__ import annotations

import pytest

from sheets_bridge.backends.xlsx.backend import XlsxBackend

pytestmark = pytest.mark.long


def test_after_the_planning_stage_the_log_holds_the_turn_s_orders_and_manoeuvres(jade_rose_demo):
    """The Empire's book as the planning stage of turn 1 left it (its archived export)."""
    gd = jade_rose_demo.gd
    export = gd.archive_path(1) / "empire-planning.xlsx"
    assert export.is_file(), "the demo's first turn has a planning stage"
    log = XlsxBackend(gd.path).read_tabs(str(export.relative_to(gd.path)), ["Итоги приказов"])["Итоги приказов"]
    tabs = [row[1] for row in log[1:] if row and row[0]]
    assert "Экономика" in tabs and "Манёвры" in tabs, tabs
    assert tabs.index("Экономика") < tabs.index("Манёвры"), "stage by stage, in the rule set's order"
    assert {row[0] for row in log[1:] if row and row[0]} == {"1"}
