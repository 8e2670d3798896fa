"""The Jade Rose economy stage: era gifts, determinism, validation before the deadline, parsing of the
orders tab and the scenario; DATC style, each docstring quoting the rule book. Income, buildings,
hiring and slaves have their own modules."""
from __future__ import annotations

import pytest

from engine.jade_rose import turn
from engine.jade_rose.economy_orders import ACTIONS, actions_for, parse_economy_rows
from engine.jade_rose.setup import ScenarioError, new_game
from engine.jade_rose.turn import validate_economy
from engine.ruleset import Row
from engine.state import canonical_json
from tests.jade_rose.small_games import CITIES, make_game, resolve_orders, rows, run_rows

# -- stage -----------------------------------------------------------------------------------

def test_era_gift_goes_to_every_faction_tied_for_fewest_cities():
    """«При наступлении эпохи боги посылают подарок (600з) фракции с наименьшим числом городов» (ties: all, JR-61)."""
    state = make_game(turn=3)
    state["cities"]["mons"]["owner"] = "empire"
    state["cities"]["qinghe"]["owner"] = "empire"
    turn.start_of_turn(state, 1)
    gifts = {line["faction"]: line["amount"] for line in state["ledger"] if "Подарок" in line["reason"]}
    assert gifts == {"dwarves": 600, "jade": 600}
    state = make_game(turn=4)
    turn.start_of_turn(state, 1)
    assert not [line for line in state["ledger"] if "Подарок" in line["reason"]]


def test_resolve_is_deterministic_and_does_not_touch_its_input():
    """Same state + orders + seed -> byte-identical result; the input state is not mutated."""
    state = make_game(gold=1000)
    orders = {f: parse_economy_rows(state, f, rows(("Построить", CITIES[f][0][1], name, "")))[0]
              for f, name in (("empire", "Барак"), ("dwarves", "Карьер"), ("jade", "Рисовые поля"))}
    frozen = canonical_json(state)
    first, s1 = resolve_orders(state, orders, seed=99)
    second, s2 = resolve_orders(state, orders, seed=99)
    assert canonical_json(state) == frozen
    assert canonical_json(first) == canonical_json(second) and s1 == s2
    assert first["turn"] == 2 and first["era"] == "twilight"


def test_validate_reports_not_enough_gold_before_the_deadline():
    """`check`: the dry run includes this turn's income, so 450 gold of income is already counted."""
    state = make_game(gold=0)
    statuses = validate_economy(state, "empire", rows(("Построить", "Аурум", "Часовня", ""),
                                                      ("Построить", "Феррум", "Казарма", ""),
                                                      ("Нанять", "", "Рыцарь", 1)))
    assert statuses[0].ok
    assert statuses[1].errors[0].code == "JR_TIER_ABOVE_LEVEL"
    assert statuses[2].errors[0].code == "JR_UNIT_LOCKED" and "Зал рыцарей" in statuses[2].text()
    state["factions"]["empire"]["units"] = {"empire_archpriest": 12}
    (status,) = validate_economy(state, "empire", rows(("Построить", "Аурум", "Часовня", "")))
    assert status.errors[0].code == "JR_NOT_ENOUGH_GOLD"
    assert state["ledger"] == [] and state["factions"]["empire"]["gold"] == 0


# -- parsing -------------------------------------------------------------------------------------

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


# -- scenario ---------------------------------------------------------------------------------------

def test_jade_capital_starts_with_the_great_forge_taking_a_slot():
    """«В вашей столице с начала игры есть обладающая божественной силой гигантская кузня» (JR-89: takes a slot)."""
    state = make_game(gold=1000)
    assert state["cities"]["yulong"]["buildings"] == ["jade_great_forge"]
    statuses = run_rows(state, "jade", ("Построить", "Юйлун", "Рисовые поля", ""),
                   ("Построить", "Юйлун", "Вербовочный пункт", ""))
    assert all(s.ok for s in statuses)
    state["cities"]["yulong"]["level"] = 2
    (status,) = run_rows(state, "jade", ("Построить", "Юйлун", "Нефритовая шахта", ""))
    assert status.errors[0].code == "JR_NO_FREE_SLOT" and "Великая Кузня" in status.text()


def test_scenario_problems_are_all_reported_at_once():
    scenario = {"factions": {"empire": {"gold": -5}, "ogres": {"gold": 10},
                             "vampires": {"gold": 1, "units": {"Рыцарь": 2, "Полукровка": 40}}},
                "cities": {"a": {"name": "А", "owner": "empire", "capital": True, "level": 4},
                           "b": {"name": "Б", "owner": "dwarves"},
                           "c": {"name": "В", "owner": "vampires"}},
                "roads": [["a", "zzz"], ["a", "a"]]}
    with pytest.raises(ScenarioError) as err:
        new_game(scenario)
    text = "\n".join(err.value.problems)
    for fragment in ("ogres", "-5", "Рыцарь", "600 рабов", "уровень должен быть", "dwarves",
                     "zzz", "в него же", "ровно одна столица"):
        assert fragment in text, fragment
