"""`check` and `turn` give one verdict (issue 20): for every row that `check` marks OK, the turn carries it out,
or a cause from the closed list engine.titania.reasons.EXTERNAL_CAUSES (another faction's orders or a
battle) defeats it and the row's status names it.

Random order tabs typed from the game's own vocabularies (tests/titania/typed_books.py) go through the real
xlsx books (`check`, then `turn`) and, with more examples, straight through the rule set's validate and
resolve on a richer state.
"""
from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.ruleset import ParsedOrders, RowStatus
from engine.titania.campaign_rows import HOLD_GIVES_WAY
from engine.titania.game_turn import BLIND_MISSED
from engine.titania.reasons import EXTERNAL_CAUSES, FALLEN, REASONS, explain
from sheets_bridge import stage
from sheets_bridge.demo import run_demo
from sheets_bridge.gamedir import GameDir
from sheets_bridge.pull import merge_statuses
from tests.titania.typed_books import Rows, as_rows, book

RS = find_ruleset("titania")
# each reason's text, and a Boss fight's when the Boss destroyed the attacking army (reasons.FALLEN)
TEXTS = [(code, explain(code, fallen)) for code in REASONS for fallen in (False, True) if code in FALLEN or not fallen]
TYPED = ("albion", "lothern", "necropolis")  # neighbours on the demo map after three turns


@pytest.fixture(scope="module")
def played() -> Iterator[Path]:
    """The scripted demo after three turns: several provinces and armies per faction, neighbours in reach."""
    with tempfile.TemporaryDirectory(prefix="forumwar-agree-") as tmp:
        path = Path(tmp) / "game"
        run_demo(path, turns=3, echo=lambda _line: None, ruleset="titania")
        yield path


def verdict_problem(checked: RowStatus, final: str) -> str | None:
    """Why a row that check called OK does not satisfy the property (None: it does). A cast or Intimidation aimed
    at a province the faction could not see finds no army there: that is another faction's doing (BLIND_MISSED)."""
    if final.startswith("OK: выполнен") or final.startswith("OK: подмога не понадобилась"):
        return None
    if final == f"OK: {BLIND_MISSED}":
        return None
    if final == checked.text() and final.endswith(HOLD_GIVES_WAY):  # a «Стоять» that gave way is no order
        return None
    codes = [code for code, text in TEXTS if text in final]
    if codes and codes[0] in EXTERNAL_CAUSES:
        return None
    return f"{checked.tab} row {checked.number}: check said «{checked.text()}», the turn «{final}»"


def _write(book_path: Path, typed: Rows) -> None:
    wb = openpyxl.load_workbook(book_path)
    for title, rows in typed.items():
        ws = wb[title]
        header = [str(c.value or "").strip() for c in ws[1]]
        for n, cells in enumerate(rows, 2):
            for column, text in cells.items():
                ws.cell(n, header.index(column) + 1, text)
    wb.save(book_path)


@settings(max_examples=3, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_every_row_check_calls_ok_is_executed_at_the_turn_or_defeated_by_a_named_outside_cause(
        played: Path, data: st.DataObject) -> None:
    """Through the books: `forumwar check` writes the statuses, `forumwar turn` the final verdicts."""
    state = GameDir(played).latest_state()
    books = {f: data.draw(book(state, f), label=f) for f in TYPED}
    with tempfile.TemporaryDirectory(prefix="forumwar-agree-") as tmp:
        path = Path(tmp) / "game"
        shutil.copytree(played, path)
        gd = GameDir(path)
        for fid, typed in books.items():
            _write(path / gd.config.books[fid], typed)
        checked = stage.check(gd)
        stage.run_turn(gd)
        final = json.loads((path / "archive" / f"turn-{state['turn']:04d}" / "statuses-orders.json")
                           .read_text(encoding="utf-8"))
    problems = []
    for fid in TYPED:
        texts = {(s["tab"], s["row"]): s["text"] for s in final[fid]}
        for s in checked.outcomes[fid]:
            if s["ok"]:
                status = RowStatus(s["tab"], s["row"], note=s["text"].removeprefix("OK: "))
                problems.append(verdict_problem(status, texts[(s["tab"], s["row"])]))
            elif texts[(s["tab"], s["row"])] != s["text"]:  # an error at check is the same error at the turn
                problems.append(f"{s['tab']} row {s['row']}: «{s['text']}», then «{texts[(s['tab'], s['row'])]}»")
    assert [p for p in problems if p] == []


def _rich(state: Mapping[str, Any]) -> dict[str, Any]:
    """The same world with purses to spend and a farm in every own province (food for new squads)."""
    out = json.loads(json.dumps(state))
    for rec in out["factions"].values():
        for r in ("gold", "wood", "stone", "mana"):
            rec[r] = int(rec.get(r, 0)) + 12
    for p, owner in out["owners"].items():
        if owner in out["factions"] and not out["map"]["provinces"][p]["sea"]:
            have = out["buildings"].setdefault(p, [])
            if "farm" not in have:
                have.append("farm")
    return out


@settings(max_examples=40, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data(), rich=st.booleans(), seed=st.integers(0, 2 ** 32))
def test_the_same_on_the_rule_set_for_every_faction(played: Path, data: st.DataObject, rich: bool,
                                                    seed: int) -> None:
    """validate is what both commands run; resolve gives the final verdicts (every faction typing at once)."""
    state = GameDir(played).latest_state()
    state = _rich(state) if rich else state
    before = json.dumps(state, sort_keys=True)
    books = {f: data.draw(book(state, f), label=f) for f in state["factions"]}
    parsed: dict[str, ParsedOrders] = {f: RS.validate(state, f, "orders", as_rows(b)) for f, b in books.items()}
    assert {f: RS.validate(state, f, "orders", as_rows(b)) for f, b in books.items()} == parsed
    assert json.dumps(state, sort_keys=True) == before, "validation changed the game state"
    result = RS.resolve(state, "orders", parsed, seed)
    final = {f: {(s.tab, s.number): s.text() for s in ss} for f, ss in merge_statuses(parsed, result.statuses).items()}
    problems = [verdict_problem(s, final[f][(s.tab, s.number)])
                for f, p in parsed.items() for s in p.statuses if s.ok]
    assert [p for p in problems if p] == []
