"""Issue 38 §2, Jade Rose: «A GM correction arrives when its message says. … A correction typed before a
stage's deadline applies before that stage's orders, `check` counts it, and its message names the stage where
it applies.»

The GM book's «Корректировки» (engine/jade_rose/adjustments.py) are read first; the orders stage applies them at
its very start, before the start-of-turn events, the income and the factions' orders (turn.resolve_orders_stage),
and the factions' rows are read against the state they make (Ruleset.corrected), in `check` and in `turn`.
"""
from __future__ import annotations

from pathlib import Path

from engine import find_ruleset
from engine.jade_rose.adjustments import parse_adjustments
from engine.jade_rose.state_types import jade_rose_state
from engine.ruleset import GM_BOOK, ParsedOrders, Row
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.scenarios import load_scenario
from sheets_bridge.stage import StageReport, check, run_turn
from tests.games import new_game

RS = find_ruleset("jade_rose")
APPLIES = ("OK: будет применено в начале этапа «приказы» хода 1, до событий начала хода, дохода и приказов этого "
           "этапа: проверка приказов фракции его уже учитывает")
# The Empire of the demo game: 1000 gold, four cities (750 income), 10 spearmen and 6 archers (80 upkeep).
# A barracks (150) and 120 spearmen (1800) need 1950; it has 1000 + 750 − 80 = 1670, or 1520 after the barracks.
EMPIRE_ORDERS: list[tuple[str, ...]] = [("Построить", "Ауренхайм", "Барак", ""), ("Нанять", "", "Копейщик", "120")]


def _texts(report: StageReport, book: str, tab: str) -> list[str]:
    return [str(o["text"]) for o in report.outcomes[book] if o["tab"] == tab]


def _game(tmp_path: Path) -> GameDir:
    gd = new_game(tmp_path / "g", seed="gm-adjustments")
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", EMPIRE_ORDERS)
    return gd


def test_gold_the_gm_adds_pays_for_a_hire_in_check_and_in_turn(tmp_path: Path) -> None:
    """Setup: the demo game, turn 1. The Empire orders «Построить · Ауренхайм · Барак» and «Нанять · Копейщик ·
    120», 1800 gold it does not have («нужно 1800з, а у вас 1520з»). The GM then types «Империя · Золото · 500 ·
    компенсация за сбой таблицы» before the deadline.
    Expected: `check` answers the GM's row «OK: будет применено в начале этапа «приказы» хода 1, …» and now
    accepts the hire; `turn` hires the 120 spearmen with the GM's gold, whose ledger line comes first."""
    gd = _game(tmp_path)
    before = check(gd)
    assert _texts(before, "empire", "economy") == ["OK: Построить: построено за 150з",
                                                   "Не хватает золота: нужно 1800з, а у вас 1520з."]
    fill_orders(gd.path / gd.config.books[GM_BOOK], "Корректировки",
                [("Империя", "Золото", "500", "компенсация за сбой таблицы")])
    report = check(gd)
    assert _texts(report, GM_BOOK, "adjustments") == [APPLIES]
    assert _texts(report, "empire", "economy") == ["OK: Построить: построено за 150з",
                                                   "OK: Нанять: нанято 120 за 1800з"]
    turn = run_turn(gd)
    assert _texts(turn, "empire", "economy") == ["OK: Построить: построено за 150з",
                                                 "OK: Нанять: нанято 120 за 1800з"]
    assert _texts(turn, GM_BOOK, "adjustments") == [APPLIES]
    state = gd.latest_state()
    empire = state["factions"]["empire"]
    assert empire["units"]["empire_spearman"] == 130
    assert empire["gold"] == 1000 + 500 + 750 - 80 - 150 - 1800
    first = next(line for line in state["ledger"] if line["faction"] == "empire")
    assert (first["amount"], first["reason"]) == (500, "Корректировка мастера: компенсация за сбой таблицы")


def test_gold_the_gm_takes_away_refuses_a_row_in_check_and_in_turn_alike(tmp_path: Path) -> None:
    """Setup: the Empire orders «Построить · Ауренхайм · Барак» and «Нанять · Копейщик · 40» (600 gold); the GM
    types «Империя · Золото · -1000 · долг», which applies before the orders too: 0 + 750 − 80 = 670 gold.
    Expected: check and turn alike build the barracks (150) and refuse the hire («нужно 600з, а у вас 520з»)."""
    gd = new_game(tmp_path / "g", seed="gm-adjustments")
    fill_orders(gd.path / gd.config.books["empire"], "Экономика",
                [("Построить", "Ауренхайм", "Барак", ""), ("Нанять", "", "Копейщик", "40")])
    fill_orders(gd.path / gd.config.books[GM_BOOK], "Корректировки", [("Империя", "Золото", "-1000", "долг")])
    expected = ["OK: Построить: построено за 150з", "Не хватает золота: нужно 600з, а у вас 520з."]
    assert _texts(check(gd), "empire", "economy") == expected
    assert _texts(run_turn(gd), "empire", "economy") == expected
    assert gd.latest_state()["factions"]["empire"]["gold"] == 1000 - 1000 + 750 - 80 - 150


def test_the_gm_rows_are_read_one_after_another_and_no_balance_goes_below_zero() -> None:
    """Setup: the demo game (the Empire: 1000 gold, honor 0). GM rows: gold −600, gold −600 (only 400 left after
    the row above), honor −5, gold +200, gold −600 (600 after the rows above).
    Expected: rows 2, 5 and 6 are accepted; row 3 and 4 are refused with the balance the rows above leave."""
    state = load_scenario(RS, "demo").state
    rows = [Row(n, {"faction": "Империя", "resource": r, "amount": a, "reason": "правка"})
            for n, (r, a) in enumerate([("Золото", "-600"), ("Золото", "-600"), ("Честь", "-5"), ("Золото", "200"),
                                        ("Золото", "-600")], start=2)]
    orders, statuses = parse_adjustments(jade_rose_state(state), rows)
    assert [o["row"] for o in orders] == [2, 5, 6]
    assert statuses[1].text() == ("У фракции «Империя» золото 400 (с корректировками выше): отнять 600 нельзя, "
                                  "запас не уходит ниже нуля. Можно отнять не больше 400.")
    assert statuses[2].text() == ("У фракции «Империя» честь 0 (с корректировками выше): отнять 5 нельзя, "
                                  "запас не уходит ниже нуля. Отнимать нечего.")


def test_the_planning_stage_reads_the_rows_against_the_state_as_it_is() -> None:
    """The «Корректировки» tab belongs to the orders stage: at planning nothing corrects the state."""
    state = load_scenario(RS, "demo").state
    gm = ParsedOrders(GM_BOOK, "planning", ({"row": 2, "faction": "empire", "resource": "gold", "amount": 5,
                                             "reason": "x"},), ())
    assert RS.corrected(state, "planning", gm) is state
    fixed = RS.corrected(state, "orders", ParsedOrders(GM_BOOK, "orders", gm.orders, ()))
    assert fixed["factions"]["empire"]["gold"] == state["factions"]["empire"]["gold"] + 5
    assert state["factions"]["empire"]["gold"] == 1000          # never mutated
