"""Issue 38 §1, Jade Rose: «`check` shows dice that the turn does not repeat … Where the outcome is random,
`check` shows its range or its chance …, never one draw. It cannot know the stage's dice and must not look as
if it does. The same goes for every check message … that depends on a die.»

What a die decides in the orders stage is the Empire's: the corruption roll at the start of the turn (and the
income and honor its penalty takes), an action against corruption and the secret police's first build (their
ranges: tests/jade_rose/factions/test_empire.py; the gold or honor a row meets: tests/jade_rose/test_turn.py).
The battles' dice and the order of the attacks on a city come at the turn, and no note of `check` tells them.

The property here: `check`'s dry run draws its dice from a seed of its own (turn.CHECK_SEED); were any message to
tell one draw, another seed would change it. Over random states and rows typed from the dropdowns, every
faction's statuses are the same whatever that seed is.
"""
from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.jade_rose import turn
from engine.ruleset import ParsedOrders
from sheets_bridge.scenarios import load_scenario
from tests.jade_rose.test_turn_properties import Picker, _rows, faction_rows, random_state

RS = find_ruleset("jade_rose")
DEMO = load_scenario(RS, "demo").state


def _texts(parsed: ParsedOrders) -> list[tuple[str, int, str]]:
    return [(s.tab, s.number, s.text()) for s in parsed.statuses]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_check_message_depends_on_the_dry_runs_dice(data: st.DataObject) -> None:
    """Setup: the demo game with random treasuries, corruption, honor, units, city levels and buildings, at a
    random turn; every faction types random rows (economy, armies, army orders, garrisons).
    Expected: `validate` (what `check` runs) gives every row the same status with the dry run's dice drawn from
    seed 0, 1 or 2^31 − 1."""
    p = Picker(data)
    state = random_state(p, DEMO)
    books = {fid: {k: _rows(k, v) for k, v in faction_rows(p, state, fid).items()} for fid in sorted(state["factions"])}
    seen: list[dict[str, Any]] = []
    saved = turn.CHECK_SEED
    try:
        for seed in (0, 1, 2**31 - 1):
            turn.CHECK_SEED = seed
            seen.append({fid: _texts(RS.validate(state, fid, "orders", tabs)) for fid, tabs in books.items()})
    finally:
        turn.CHECK_SEED = saved
    assert seen[1] == seen[0] and seen[2] == seen[0]
