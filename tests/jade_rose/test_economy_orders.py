"""The «Экономика» tab (economy_orders.py): the actions each faction may give, parsing of its rows (the rule book's
wording, faction names), a Russian message naming what is allowed for every bad row, and garbage rows
(hypothesis) that never raise."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.jade_rose import turn
from engine.jade_rose.economy_orders import ACTIONS, actions_for, parse_economy_rows
from engine.ruleset import Row
from tests.jade_rose.demo_cases import (
    DEMO_STATE,
    FACTIONS,
    SETTINGS,
    garbage_rows,
)
from tests.jade_rose.small_games import codes, make_game, rows


def test_actions_list_and_faction_only_actions():
    common = ("Построить", "Продать", "Улучшить город", "Восстановить руины", "Нанять")
    assert ACTIONS[:5] == common
    assert actions_for("jade") == common + ("Купить нефрит",)
    assert actions_for("empire") == common + ("Чистка генералов", "Чистка чиновников", "Показательная казнь",
                                              "Слежка", "Террор")
    assert actions_for("vampires") == common + ("Ритуал вечных слуг", "Обратить в рабов", "Отправить в спячку")
    assert actions_for("dwarves") == common + ("Мстительный поход", "Вложить", "Записывать обиды")


@pytest.mark.parametrize("cells, code, words", [
    (("Построить", "Аурум", "Башня магов", ""), "JR_UNKNOWN_BUILDING", ["Барак", "Великий собор"]),
    (("Построить", "Аурум", "Склеп", ""), "JR_FOREIGN_BUILDING", ["Вампиры", "Часовня"]),
    (("Построить", "Ноктис", "Барак", ""), "JR_CITY_NOT_OWNED", ["Аурум", "Феррум"]),
    (("Построить", "Атлантида", "Барак", ""), "JR_UNKNOWN_CITY", ["Аурум"]),
    (("Построить", "", "Барак", ""), "JR_CITY_REQUIRED", ["Аурум"]),
    (("Построить", "Аурум", "", ""), "JR_BUILDING_REQUIRED", ["Часовня"]),
    (("Построить", "Аурум", "Барак", "2"), "JR_ONE_AT_A_TIME", ["«2»"]),
    (("Нанять", "", "Копейщик", "десять"), "E_NOT_A_NUMBER", ["Количество", "десять"]),
    (("Нанять", "", "Копейщик", "-3"), "E_NOT_A_NUMBER", ["-3"]),
    (("Нанять", "", "Копейщик", "2.5"), "E_NOT_A_NUMBER", ["2.5"]),
    (("Нанять", "", "Копейщик", "1e9"), "E_NOT_A_NUMBER", ["1e9", "1 200"]),
    (("Нанять", "", "Копейщик", "1 000 000"), "E_NUMBER_TOO_LARGE", ["100\u00a0000"]),
    (("Нанять", "", "Упырь", "1"), "JR_FOREIGN_UNIT", ["Вампиры", "Копейщик"]),
    (("Нанять", "", "Дракон-призрак", "1"), "JR_UNKNOWN_UNIT", ["Рыцарь"]),
    (("Нанять", "", "", "1"), "JR_UNIT_REQUIRED", ["Копейщик"]),
    (("Снести", "Аурум", "Барак", ""), "JR_UNKNOWN_ACTION", ["Построить", "Нанять"]),
    (("Купить нефрит", "", "", "100"), "JR_ACTION_NOT_FOR_FACTION", ["Нефритовый двор"]),
    (("", "Аурум", "Барак", ""), "E_REQUIRED", ["Действие"]),
    (("=1+1", "", "", ""), "E_FORMULA", ["=1+1"]),
])
def test_bad_rows_get_a_russian_message_naming_what_is_allowed(cells, code, words):
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, "empire", rows(cells))
    assert orders == [] and len(statuses) == 1
    assert code in [e.code for e in statuses[0].errors]
    for word in words:
        assert word in statuses[0].text(), (word, statuses[0].text())


def test_blank_rows_get_no_status_and_case_spacing_do_not_matter():
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, "empire", [
        Row(2, {"action": "", "city": None, "what": "  ", "count": ""}),
        Row(3, {"action": "  построить ", "city": "аурум", "what": "ЧАСОВНЯ", "count": " 1 "}),
        Row(4, {"action": "нанять", "what": "копейщики", "count": "10 "})])
    assert [s.number for s in statuses] == [3, 4] and all(s.ok for s in statuses)
    assert orders == [{"row": 3, "kind": "build", "city": "aurum", "what": "empire_chapel", "count": 1},
                      {"row": 4, "kind": "hire", "city": None, "what": "empire_spearman", "count": 10}]


@pytest.mark.parametrize("faction, cells, code, words", [
    ("dwarves", ("Мстительный поход", "", "", ""), "JR_FACTION_REQUIRED", ["Империя", "Вампиры"]),
    ("dwarves", ("Мстительный поход", "", "Огры", ""), "JR_UNKNOWN_FACTION", ["Огры", "Нефритовый двор"]),
    ("dwarves", ("Мстительный поход", "", "Дворфы", ""), "JR_SELF_TARGET", ["Империя"]),
    ("dwarves", ("Вложить", "", "", ""), "JR_COUNT_REQUIRED", ["Вложить"]),
    ("dwarves", ("Записывать обиды", "", "Империя", ""), "JR_CITY_REQUIRED", ["Карак"]),
    ("vampires", ("Обратить в рабов", "Аурум", "", ""), "JR_CITY_NOT_OWNED", ["Ноктис"]),
    ("vampires", ("Ритуал вечных слуг", "", "", "2"), "JR_ONE_AT_A_TIME", ["«2»"]),
    ("empire", ("Ритуал вечных слуг", "", "", ""), "JR_ACTION_NOT_FOR_FACTION", ["Вампиры", "Террор"]),
    ("jade", ("Чистка генералов", "", "", ""), "JR_ACTION_NOT_FOR_FACTION", ["Империя", "Купить нефрит"]),
])
def test_bad_faction_action_rows_get_a_russian_message(faction, cells, code, words):
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, faction, rows(cells))
    assert orders == [] and code in codes(statuses[0])
    for word in words:
        assert word in statuses[0].text(), (word, statuses[0].text())


def test_faction_actions_accept_the_rule_books_wording_and_faction_names():
    state = make_game()
    orders, statuses = parse_economy_rows(state, "dwarves", rows(("объявить мстительный поход", "", "империя", ""),
                                                                 ("Записывать обиды", "монс", "нефритовый двор", "")))
    assert all(s.ok for s in statuses)
    assert [(o["kind"], o["target"], o["city"]) for o in orders] == [("crusade", "empire", None),
                                                                    ("grudge_target", "jade", "mons")]
    orders, statuses = parse_economy_rows(state, "empire", rows(("Установление слежки", "", "", ""),
                                                                ("Террор коррупционеров", "", "", "1")))
    assert all(s.ok for s in statuses) and [o["kind"] for o in orders] == ["surveillance", "terror"]


@SETTINGS
@given(st.sampled_from(FACTIONS).flatmap(lambda f: st.tuples(st.just(f), garbage_rows(f))))
def test_garbage_rows_never_raise_and_every_non_blank_row_gets_one_status(case):
    faction, rows = case
    orders, statuses = parse_economy_rows(DEMO_STATE, faction, rows)
    non_blank = [r.number for r in rows if not r.is_blank()]
    assert [s.number for s in statuses] == non_blank
    assert all(s.text() for s in statuses)
    checked = turn.validate_economy(DEMO_STATE, faction, rows)
    assert [s.number for s in checked] == non_blank
    assert all(s.ok or s.text() != "OK" for s in checked)
