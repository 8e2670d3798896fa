"""Issue 11 item 6: progress on long work. Counted steps (books pushed, checked, archived; demo turns)
draw a bar on a terminal and stay plain lines in logs; many simulated battles report each chunk of runs
as it completes, and the odds do not depend on it."""
from __future__ import annotations

import json

from engine import find_ruleset
from sheets_bridge.cli_text import BAR_WIDTH, TerminalProgress
from sheets_bridge.stage_common import Step
from tests.paths import REPO


def test_a_counted_job_redraws_one_bar_line_on_a_terminal(capsys):
    progress = TerminalProgress(terminal=True)
    progress("ход 1, этап «Приказы»: читаю приказы")
    for done in range(1, 5):
        progress(Step(f"обновлена книга {done} из 4", done, 4))
    progress.echo("Ход 1 рассчитан")
    out = capsys.readouterr()
    lines = out.err.split("\n")
    assert lines[0] == "  ход 1, этап «Приказы»: читаю приказы"
    redraws = lines[1].split("\r\x1b[K")[1:]
    assert len(redraws) == 4, "the four steps share one line"
    assert redraws[0].startswith("  [" + "█" * (BAR_WIDTH // 4) + "░" * (BAR_WIDTH - BAR_WIDTH // 4) + "]")
    assert redraws[-1] == "  [" + "█" * BAR_WIDTH + "] обновлена книга 4 из 4"
    assert out.out == "Ход 1 рассчитан\n"


def test_an_unfinished_bar_ends_its_line_before_the_next_message(capsys):
    progress = TerminalProgress(terminal=True)
    progress(Step("ход 1 (1 из 8)", 1, 8))
    progress.echo("Ход 1: проверка приказов")
    progress("читаю приказы")
    out = capsys.readouterr()
    assert out.err.endswith("ход 1 (1 из 8)\n  читаю приказы\n")
    assert out.out == "Ход 1: проверка приказов\n"


def test_in_a_log_every_step_is_a_plain_line(capsys):
    progress = TerminalProgress(terminal=False)
    for done in (1, 2):
        progress(Step(f"обновлена книга {done} из 2: Империя", done, 2))
    assert capsys.readouterr().err == "  обновлена книга 1 из 2: Империя\n  обновлена книга 2 из 2: Империя\n"


def test_many_simulated_battles_report_each_chunk_and_the_odds_do_not_change():
    spec = json.loads((REPO / "templates/jade_rose/battles/example.json").read_text(encoding="utf-8"))
    simulator = find_ruleset("jade_rose").battle_simulator()
    heard: list[int] = []
    with_bar = simulator.simulate(spec, 12_000, 5, progress=heard.append)
    assert sum(heard) == 12_000 and len(heard) == 3, heard      # chunks of 5 000 runs
    assert with_bar == simulator.simulate(spec, 12_000, 5)
