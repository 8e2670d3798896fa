"""Count cells accept whole numbers as people write them, nothing else (issue 8, item 8).

«1e3» used to be read as 1000 and 1e308 was echoed back as a 309-digit number. Now a count is ASCII
digits, optionally grouped by three with a space, no-break space, thin space or narrow no-break space;
anything else gets a Russian message saying what is allowed, and a too-large value is refused with the
bound. One parser (engine.numbers) serves the economy, army, garrison and manoeuvre tabs.
"""
from __future__ import annotations

import openpyxl
import pytest

from engine.errors import OrderError
from engine.jade_rose.economy_orders import parse_economy_rows
from engine.jade_rose.war.armies import parse_war_tabs
from engine.numbers import read_count, whole_number
from engine.ruleset import Row
from sheets_bridge.backends.xlsx.backend import cell_text
from sheets_bridge.demo import fill_orders
from sheets_bridge.stage import check
from tests.games import new_game
from tests.jade_rose.small_games import make_game, rows

ACCEPTED = [("7", 7), ("10", 10), ("05", 5), ("1 200", 1200), ("1\u00a0200", 1200), ("1\u2009200", 1200),
            ("1\u202f200", 1200), ("12 345 678", 12345678), (" 42 ", 42)]
REJECTED = ["1e3", "1E3", "1e+308", "10.0", "2.5", "1,5", "1.000", "+5", "-3", "0x10", "١٢", "１２", "12 00",
            "1  200", "1 2 3", "пять", "10 шт", "inf", "nan", "", "1_000"]


@pytest.mark.parametrize("text, value", ACCEPTED)
def test_whole_numbers_as_people_write_them_are_accepted(text, value):
    assert whole_number(text) == value


@pytest.mark.parametrize("text", REJECTED)
def test_anything_else_is_not_a_count(text):
    assert whole_number(text) is None


def test_the_message_says_what_is_allowed_and_the_bound_applies():
    error = read_count("1e3", "Количество", maximum=100_000)
    assert isinstance(error, OrderError) and error.code == "E_NOT_A_NUMBER"
    assert "«1e3»" in error.message() and "цифрами" in error.message() and "1 200" in error.message()
    too_big = read_count("100 001", "Количество", maximum=100_000)
    assert isinstance(too_big, OrderError) and too_big.code == "E_NUMBER_TOO_LARGE"
    assert "100\u00a0000" in too_big.message()
    assert read_count("100 000", "Количество", maximum=100_000) == 100_000
    runes = read_count("-1", "Руны", minimum=0, maximum=1000)
    assert isinstance(runes, OrderError) and "от 0 до 1\u00a0000" in runes.message()
    assert read_count("0", "Руны", minimum=0, maximum=1000) == 0


def test_a_huge_value_is_echoed_short_and_never_converted_whole():
    text = "9" * 5000                        # int() of this would raise past Python's 4300-digit limit
    error = read_count(text, "Количество", maximum=100_000)
    assert isinstance(error, OrderError) and error.code == "E_NUMBER_TOO_LARGE"
    assert len(error.message()) < 200


def test_economy_hire_of_1e3_is_refused_not_read_as_1000():
    orders, statuses = parse_economy_rows(make_game(gold=10**6), "empire",
                                          rows(("Нанять", "", "Копейщик", "1e3"), ("Нанять", "", "Копейщик", "1 000")))
    assert [o["count"] for o in orders] == [1000]
    assert statuses[0].errors[0].code == "E_NOT_A_NUMBER" and "1e3" in statuses[0].text()


def test_army_and_garrison_counts_use_the_same_rule():
    state = make_game()
    armies = [Row(2, {"army": "1", "flank": "Центр", "line": "Авангард", "unit": "Копейщик", "count": "1e2"}),
              Row(3, {"army": "1", "flank": "Левый", "line": "Авангард", "unit": "Копейщик", "count": "1 0"})]
    garrisons = [Row(2, {"city": "Аурум", "flank": "Центр", "line": "Авангард", "unit": "Копейщик",
                         "count": "2.0"})]
    _, statuses = parse_war_tabs(state, "empire", {"armies": armies, "garrisons": garrisons})
    codes = {(s.tab, s.number): [e.code for e in s.errors] for s in statuses}
    assert codes[("armies", 2)] == ["E_NOT_A_NUMBER"] and codes[("armies", 3)] == ["E_NOT_A_NUMBER"]
    assert codes[("garrisons", 2)] == ["E_NOT_A_NUMBER"]


def test_a_numeric_1e308_cell_reads_as_excel_shows_it():
    assert cell_text(1e308) == "1e+308"
    assert cell_text(12.0) == "12" and cell_text(2.5) == "2.5"


def test_1e308_typed_in_a_book_gets_a_short_russian_message(tmp_path):
    gd = new_game(tmp_path / "g", seed="count-cells")
    book = gd.path / gd.config.books["empire"]
    fill_orders(book, "Экономика", [("Нанять", "", "Копейщик", "1")])
    wb = openpyxl.load_workbook(book)
    wb["Экономика"]["D2"].value = 1e308          # a number cell, as Excel stores what was typed
    wb.save(book)
    report = check(gd)
    status = next(s for s in report.outcomes["empire"] if s["row"] == 2)
    assert not status["ok"] and "1e+308" in status["text"] and "цифрами" in status["text"]
    assert len(status["text"]) < 200 and "0" * 30 not in status["text"]
