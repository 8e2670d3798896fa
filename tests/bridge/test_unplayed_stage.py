"""Issue 20 item 6: a stage nobody played is not resolved by accident.

«When no faction has typed any order row and the stage's deadline has not passed (or there is none),
`turn` asks «[да/нет]» and names who has not submitted. Without a terminal it refuses unless given
`--yes`. After `lock`, or when the deadline has passed, `turn` goes on without asking, so cron keeps
working.»"""
from __future__ import annotations

from pathlib import Path

import pandas  # noqa: F401  (imported before freezegun stops the clock)
import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from sheets_bridge import cli_text
from sheets_bridge.cli import main
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import rollback, run_turn
from sheets_bridge.tab_lock import lock
from tests.games import new_game

ALL = ("Дворфы", "Империя", "Нефритовый двор", "Вампиры")


def _turn(gd: GameDir, *args: str, answer: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None
          ) -> tuple[int, str]:
    if monkeypatch is not None:
        monkeypatch.setattr(cli_text, "stdin_is_terminal", lambda: answer is not None)
    result = CliRunner().invoke(main, ["turn", str(gd.path), *args], input=answer)
    return result.exit_code, result.output


def _snapshots(gd: GameDir) -> list[str]:
    return sorted(p.name for p in gd.state_dir.glob("turn-*.json"))


@pytest.fixture
def idle(tmp_path: Path) -> GameDir:
    return new_game(tmp_path / "g", seed="unplayed")


def test_without_a_terminal_turn_refuses_an_unplayed_stage_and_names_who_has_not_submitted(idle, monkeypatch):
    before = _snapshots(idle)
    code, out = _turn(idle, monkeypatch=monkeypatch)
    assert code == 1
    assert "Ход 1, этап «приказы»: никто ещё не подал приказов (не поданы: " in out
    assert all(name in out for name in ALL) and "срок не задан" in out
    assert f"forumwar turn {idle.path} --yes" in out
    assert "этап «приказы» не рассчитан: никто не подал приказов; игра не изменена" in out
    assert _snapshots(idle) == before and idle.latest_state()["turn"] == 1


def test_on_a_terminal_turn_asks_and_a_no_changes_nothing(idle, monkeypatch):
    before = _snapshots(idle)
    code, out = _turn(idle, answer="нет\n", monkeypatch=monkeypatch)
    assert code == 1 and "Рассчитать этап без приказов? [да/нет]" in out
    assert _snapshots(idle) == before


def test_on_a_terminal_a_yes_resolves_the_stage(idle, monkeypatch):
    code, out = _turn(idle, answer="да\n", monkeypatch=monkeypatch)
    assert code == 0, out
    assert idle.latest_state()["turn"] == 2


def test_yes_resolves_without_asking(idle, monkeypatch):
    code, out = _turn(idle, "--yes", monkeypatch=monkeypatch)
    assert code == 0, out
    assert "[да/нет]" not in out and idle.latest_state()["turn"] == 2


def test_one_typed_row_of_one_faction_is_a_played_stage(idle, monkeypatch):
    fill_orders(idle.path / idle.config.books["dwarves"], "Экономика", [("Нанять", "", "Копейщик", "1")])
    code, out = _turn(idle, monkeypatch=monkeypatch)
    assert code == 0, out
    assert "[да/нет]" not in out and idle.latest_state()["turn"] == 2


def test_after_lock_turn_goes_on_without_asking(idle, monkeypatch):
    lock(idle, force=True)
    code, out = _turn(idle, monkeypatch=monkeypatch)
    assert code == 0, out
    assert idle.latest_state()["turn"] == 2


def test_after_the_deadline_turn_goes_on_without_asking_as_cron_runs_it(tmp_path, monkeypatch):
    with freeze_time("2025-03-25 17:05:00"):                       # Tuesday 20:05 MSK
        gd = new_game(tmp_path / "g", seed="unplayed-deadline")
        gd.config.schedule = {"orders": "Sunday 20:00", "planning": "+48h"}
        gd.save_config()
        gd = GameDir(gd.path)
    with freeze_time("2025-03-29 12:00:00"):                       # before the deadline: refused
        code, out = _turn(gd, monkeypatch=monkeypatch)
    assert code == 1 and "срок (" in out and "ещё не прошёл" in out
    with freeze_time("2025-03-30 17:03:00"):                       # cron at 20:03 MSK
        code, out = _turn(gd, monkeypatch=monkeypatch)
    assert code == 0, out
    assert gd.latest_state()["turn"] == 2


def test_a_plain_rollback_resolves_its_kept_orders_without_asking(idle, monkeypatch):
    run_turn(idle)
    rollback(idle, 1, "orders")
    code, out = _turn(idle, monkeypatch=monkeypatch)
    assert code == 0, out
    assert idle.latest_state()["turn"] == 2


def test_the_library_call_keeps_resolving_without_a_question(idle):
    """`run_turn` without `ask` (the demo, scripts) resolves as before."""
    assert run_turn(idle).next_turn == 2
