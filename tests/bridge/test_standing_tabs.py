"""Issue 11 item 7: the statuses of standing order tabs are refreshed at every stage.

«Армии» and «Гарнизоны» keep their rows from turn to turn (layout `keep = true`), so their status
column must never show an old verdict: after the orders stage each row shows how it came out, even if
nobody ran `check`; when the next turn opens, each row is checked anew against the new state (a unit
lost in battle shows at once), exactly as `check` would write it. On both backends.
"""
from __future__ import annotations

import pytest

from sheets_bridge.stage import check, run_turn
from tests.bridge.backend_games import BACKENDS, new_game

ARMY = [("Первая", "Центр", "Авангард", "Копейщик", "10"), ("Первая", "Центр", "Арьергард", "Лучник", "6"),
        ("Вторая", "Центр", "Авангард", "Мечник", "3")]
ATTACK = [("Первая", "Атаковать", "Кровавый Брод", "Колонизировать", "Нет")]


def _statuses(game, title: str) -> list[str]:
    rows = game.read("empire", [title])[title]
    col = rows[0].index("Статус")
    return [row[col] if col < len(row) else "" for row in rows[1:]]


@pytest.fixture(scope="module", params=BACKENDS)
def game(request, tmp_path_factory):
    """Empire's army of all its reserve attacks Кровавый Брод; «Армии» gets no `check` before the turn."""
    g = new_game(request.param, tmp_path_factory.mktemp(request.param) / "game", seed="standing")
    g.type_rows("empire", "Армии", ARMY)
    g.type_rows("empire", "Приказы армиям", ATTACK)
    g.before = _statuses(g, "Армии")
    run_turn(g.gd, be=g.be)                      # orders -> planning (the battle has a planning stage)
    g.planning = g.gd.latest_state()["stage"]
    g.after_orders = _statuses(g, "Армии")
    run_turn(g.gd, be=g.be)                      # planning -> the next turn's orders
    g.next_turn = g.gd.latest_state()
    g.after_planning = _statuses(g, "Армии")
    check(g.gd, be=g.be)
    g.after_check = _statuses(g, "Армии")
    return g


def test_after_the_orders_stage_each_standing_row_shows_its_verdict(game):
    """Setup: three «Армии» rows typed, no `check`. Orders: the turn. Expected: the two rows of
    «Первая» say OK, the row of a unit the Empire has not got says so, as the archive records."""
    assert game.before == ["", "", ""], "nobody checked the rows before the turn"
    assert game.planning == "planning"
    assert game.after_orders[:2] == ["OK", "OK"]
    assert "Мечник" in game.after_orders[2] and "нет" in game.after_orders[2]


def test_the_next_turn_checks_standing_rows_anew_as_check_would(game):
    """Setup: the battle at Кровавый Брод cost the Empire troops. Expected: at the next turn's opening
    «Армии» rows say how many of each unit are left, and `check` writes exactly the same."""
    assert (game.next_turn["turn"], game.next_turn["stage"]) == (2, "orders")
    assert game.after_planning == game.after_check
    assert game.after_planning != game.after_orders, "the battle's losses show in the rows"
    assert any("у вас только" in text for text in game.after_planning[:2]), game.after_planning
