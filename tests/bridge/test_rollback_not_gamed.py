"""Issue 20 item 2: a rollback cannot be used to replay a revealed stage with new orders; item 7:
restored rows keep their types.

«After a plain `rollback DIR N STAGE` (the stage's seed already revealed), an edit typed into a closed
order tab is read by the next `turn`: the stage is resolved again with the known dice and the changed
orders, and `verify` passes.» Must: a plain rollback re-resolves the stage from the orders exactly as
archived at its first resolution, never from the books; a later edit has no effect and its row's
status says it was not read. `--reopen` draws a new seed, a `--seed` game's too (from the master seed
and the rollback's epoch), and says that such a game is not a fair one."""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from sheets_bridge.backends.xlsx.backend import XlsxBackend, cell_text
from sheets_bridge.cli import main
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.render import typed_cell
from sheets_bridge.stage import check, rollback, run_turn
from sheets_bridge.verify import verify
from tests.games import new_game


def _jade_rose(tmp_path: Path, seed: str | None) -> tuple[GameDir, str, tuple[int, int], object]:
    """A Jade Rose game whose Empire hires 4 spearmen; the edit makes it 40 (and the cheater richer in
    troops if it were read)."""
    gd = new_game(tmp_path / "g", seed=seed) if seed else _fresh(tmp_path, "jade_rose")
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", [("Нанять", "", "Копейщик", "4")])
    return gd, "Экономика", (2, 4), 40


def _titania(tmp_path: Path, seed: str | None) -> tuple[GameDir, str, tuple[int, int], object]:
    """A Titania game whose Albion army holds; the edit turns it into an attack."""
    gd = new_game(tmp_path / "g", "titania", seed=seed) if seed else _fresh(tmp_path, "titania")
    fill_orders(gd.path / gd.config.books["albion"], "Поход", [("1", "Альбион", "Стоять")])
    return gd, "Поход", (2, 3), "Идти / атаковать"


def _fresh(tmp_path: Path, ruleset: str) -> GameDir:
    from sheets_bridge.create import create_game
    return create_game(tmp_path / "g", ruleset, "demo", backend="xlsx")


GAMES = {"jade_rose": (_jade_rose, "empire"), "titania": (_titania, "albion")}


def _edit(path: Path, tab: str, cell: tuple[int, int], value: object) -> None:
    """A cheating player types into the closed tab (the xlsx protection has no password for them here)."""
    wb = openpyxl.load_workbook(path)
    wb[tab].cell(*cell).value = value
    wb.save(path)


@pytest.mark.parametrize("ruleset", sorted(GAMES))
@pytest.mark.parametrize("seed", ["rollback-gamed", pytest.param(None, marks=pytest.mark.full)], ids=["seeded", "fair"])
def test_a_plain_rollback_resolves_the_orders_as_archived_and_an_edit_is_not_read(tmp_path, ruleset, seed):
    make, faction = GAMES[ruleset]
    gd, tab, cell, cheat = make(tmp_path, seed)
    first = run_turn(gd)
    result_key = gd.snapshot_path(first.next_turn, first.next_stage)
    first_result = result_key.read_text(encoding="utf-8")
    rollback(gd, 1, first.stage)
    book = gd.path / gd.config.books[faction]
    _edit(book, tab, cell, cheat)
    checked = check(gd)
    flagged = [s for s in checked.outcomes[faction] if s["row"] == cell[0] and "не прочитана" in s["text"]]
    assert flagged and "отката этапа" in flagged[0]["text"]
    again = run_turn(gd)
    assert gd.snapshot_path(again.next_turn, again.next_stage).read_text(encoding="utf-8") == first_result
    row = next(s for s in again.outcomes[faction] if s["row"] == cell[0])
    assert "Правка этой строки после отката этапа" in row["text"] and "не прочитана" in row["text"]
    archived = json.loads((gd.archive_path(1) / f"orders-{first.stage}-{faction}.json").read_text(encoding="utf-8"))
    assert str(cheat) not in json.dumps(archived, ensure_ascii=False)
    assert verify(gd, be=XlsxBackend(gd.path)).ok


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_reopen_of_a_seeded_game_draws_a_new_seed_from_the_master_seed_and_the_epoch(tmp_path, ruleset):
    make, faction = GAMES[ruleset]
    gd, _, _, _ = make(tmp_path, "reopen-seed")
    stage = gd.latest_state()["stage"]
    old = gd.stage_seed(1, stage)
    run_turn(gd)
    out = CliRunner().invoke(main, ["rollback", str(gd.path), "1", stage, "--reopen", "--yes"])
    assert out.exit_code == 0, out.output
    new = GameDir(gd.path).stage_seed(1, stage)
    assert new.seed != old.seed and new.deterministic and not new.revealed
    assert "новое зерно" in out.output and "не честная игра" in out.output and "номера отката 1" in out.output
    twin = tmp_path / "twin"                              # the same game, rolled back the same way
    twin_gd, _, _, _ = make(twin, "reopen-seed")
    run_turn(twin_gd)
    rollback(twin_gd, 1, stage, reopen=True)
    assert twin_gd.stage_seed(1, stage).seed == new.seed  # still reproducible


def test_a_plain_rollback_message_says_what_the_next_turn_reads(tmp_path):
    gd, _, _, _ = _jade_rose(tmp_path, "rollback-gamed")
    run_turn(gd)
    out = CliRunner().invoke(main, ["rollback", str(gd.path), "1", "приказы", "--yes"])
    assert out.exit_code == 0, out.output
    assert "по приказам, поданным к первому расчёту" in out.output and "не будут прочитаны" in out.output


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_restored_rows_hold_numbers_as_numbers(tmp_path, ruleset):
    """«After a rollback, numbers a player typed come back as text (Titania: '2', '5', type s).»"""
    make, faction = GAMES[ruleset]
    gd, tab, _, _ = make(tmp_path, "typed-rows")
    book = gd.path / gd.config.books[faction]
    before = {(c.row, c.column): (c.value, c.data_type) for row in openpyxl.load_workbook(book)[tab].iter_rows(
        min_row=2, max_row=3) for c in row if c.value is not None and c.column < 7}
    assert any(isinstance(v, int) for v, _ in before.values())
    first = run_turn(gd)
    rollback(gd, 1, first.stage)
    after = {(c.row, c.column): (c.value, c.data_type) for row in openpyxl.load_workbook(book)[tab].iter_rows(
        min_row=2, max_row=3) for c in row if c.value is not None and c.column < 7}
    assert after == before


@given(st.one_of(st.integers(min_value=-10**15 + 1, max_value=10**15 - 1),
                 st.floats(allow_nan=False, allow_infinity=False).filter(lambda x: not x.is_integer()),
                 st.booleans(), st.text(max_size=8)))
def test_a_typed_cell_is_what_reading_its_text_gives_back(value):
    """Property: reading a restored cell gives the very text that was archived, whatever was typed."""
    text = cell_text(value)
    restored = typed_cell(text)
    assert cell_text(restored) == text
    if isinstance(value, bool | int | float) and not isinstance(value, str):
        assert restored == value and type(restored) is type(value)
