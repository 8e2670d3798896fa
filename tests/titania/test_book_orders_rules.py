"""`check` and `turn` give one verdict on the Titania order rows (issue 20), one test per rule: the setup, the
rows typed, the status `check` writes and the status after the turn.

The book is read in the order the turn runs it: the Planning rows (their hires feed the Campaign, P4.1), then
the Campaign rows in the faction's order «№». What the engine would void for the faction's own reasons is an
error at check saying what is allowed; a row is never turned into another order; one bad row never cancels
another; what check accepts fails only for a cause another faction or a battle brings, named in its status.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from engine import find_ruleset
from engine.ruleset import Row
from engine.titania.names import ability_name
from sheets_bridge import stage
from sheets_bridge.pull import merge_statuses
from tests.games import new_game

RS = find_ruleset("titania")
Books = Mapping[str, Mapping[str, list[dict[str, str]]]]  # faction -> tab key -> rows of {column key: text}
Texts = dict[str, dict[tuple[str, int], str]]  # faction -> (tab, row) -> status text


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo map on turn 1: each faction holds its capital with an army of 3 (the limit), gold 3, wood 3."""
    return new_game(tmp_path_factory.mktemp("rules") / "game", "titania", "demo", seed="7").latest_state()


def world(start: Mapping[str, Any], armies: Mapping[tuple[str, str], int] = (), owners: Mapping[str, str] = (),
          **purse: int) -> dict[str, Any]:
    """A copy of `start` with armies {(faction, province): strength} set, provinces given to owners and every
    player's purse set (e.g. gold=5)."""
    state: dict[str, Any] = json.loads(json.dumps(start))
    state["owners"].update(dict(owners))
    for (fid, pid), n in dict(armies).items():
        state["armies"] = [a for a in state["armies"] if (a["faction"], a["province"]) != (fid, pid)]
        if n:
            state["armies"].append({"faction": fid, "province": pid, "strength": n, "naval": False})
    for rec in state["factions"].values():
        rec.update(purse)
    return state


def play(state: Mapping[str, Any], books: Books, seed: int = 1) -> tuple[Texts, Texts]:
    """(statuses at check, statuses after the turn): validate is what both commands run on the rows."""
    parsed = {f: RS.validate(state, f, "orders", {t: [Row(n, cells) for n, cells in enumerate(rows, 2)]
                                                   for t, rows in tabs.items()}) for f, tabs in books.items()}
    result = RS.resolve(state, "orders", parsed, seed)
    final = merge_statuses(parsed, result.statuses)
    return ({f: {(s.tab, s.number): s.text() for s in p.statuses} for f, p in parsed.items()},
            {f: {(s.tab, s.number): s.text() for s in ss} for f, ss in final.items()})


def hire(province: str, count: str, pay: str = "") -> dict[str, str]:
    return {"action": "Нанять", "province": province, "count": count, "what": pay}


def move(army: str, target: str, strength: str = "", seq: str = "") -> dict[str, str]:
    return {"seq": seq, "army": army, "order": "Идти / атаковать", "target": target, "strength": strength}


def hold(army: str, strength: str = "", seq: str = "") -> dict[str, str]:
    return {"seq": seq, "army": army, "order": "Стоять", "strength": strength}


# -- the issue's reproduction, through the books --------------------------------------------------------------

def _type(book: Path, tab: str, rows: list[dict[str, object]]) -> None:
    wb = openpyxl.load_workbook(book)
    ws = wb[tab]
    header = [str(c.value or "").strip() for c in ws[1]]
    for n, cells in enumerate(rows, 2):
        for column, value in cells.items():
            ws.cell(n, header.index(column) + 1, value)
    wb.save(book)


def test_the_issue_book_gets_one_verdict_from_check_and_turn(tmp_path: Path) -> None:
    """A7.1 «Максимальная сила отряда … 3» (G6 a), P4.1, G16 a. Setup: Альбион's army of 3, the limit. Rows:
    «Нанять» 2 in «Альбион»; «Поход» №1 «Альбион» «Идти / атаковать» «Вересковая Пустошь» «Сила» 2, №2
    «Альбион» «Стоять» «Сила» 5. Expected: check refuses the hire (the army is at its limit) and the 5 (the
    army has 3, the first row took 2: 1 is left); it accepts the move of 2, and the turn carries it out; the
    two errors are the same at the turn."""
    gd = new_game(tmp_path / "game", "titania", "demo", seed="7")
    book = tmp_path / "game" / gd.config.books["albion"]
    _type(book, "Планирование", [{"Действие": "Нанять", "Провинция": "Альбион", "Количество": 2}])
    _type(book, "Поход", [{"№": 1, "Войско": "Альбион", "Приказ": "Идти / атаковать", "Куда": "Вересковая Пустошь",
                           "Сила": 2}, {"№": 2, "Войско": "Альбион", "Приказ": "Стоять", "Сила": 5}])
    checked = {(s["tab"], s["row"]): s["text"] for s in stage.check(gd).outcomes["albion"]}
    wb = openpyxl.load_workbook(book, read_only=True)
    in_book = [r[-1] for r in wb["Поход"].iter_rows(min_row=2, max_row=3, values_only=True)]
    stage.run_turn(gd)
    final = {(s["tab"], s["row"]): s["text"] for s in json.loads(
        (tmp_path / "game" / "archive" / "turn-0001" / "statuses-orders.json").read_text(encoding="utf-8"))["albion"]}
    assert checked[("planning", 2)] == final[("planning", 2)] == (
        "Нельзя нанять 2 в провинции «Альбион»: там войско силой 3, а лимит силы отряда 3 (см. «Войско», пп. 1.1 "
        "и 7.1). Здесь в этом ходу нанимать больше нельзя.")
    assert checked[("campaign", 2)] == ("OK: часть силой 2: идти / атаковать → «Вересковая Пустошь»; остальные 1 "
                                        "стоят на месте")
    assert final[("campaign", 2)].startswith("OK: выполнен: провинция без враждебных войск занята без боя")
    assert checked[("campaign", 3)] == final[("campaign", 3)]
    assert checked[("campaign", 3)].startswith("В войске «Альбион» сила 3, а в строке 5: строка 2 уже взяла 2, "
                                               "осталось 1")
    assert in_book == [checked[("campaign", 2)], checked[("campaign", 3)]]


# -- Planning before the Campaign --------------------------------------------------------------------------------

def test_hired_strength_takes_orders_the_same_turn(start: dict[str, Any]) -> None:
    """P4.1 «Войска, нанятые вами, могут получать приказы … на этом же ходу в фазе Похода». Setup: Альбион's army
    of 1, gold 3, wood 3. Rows: «Нанять» 2; №1 move 2 to «Вересковая Пустошь», №2 «Стоять» without «Сила».
    Expected: all OK, the split is 2 + 1 of the army of 3; the turn hires, captures and holds."""
    state = world(start, {("albion", "albion"): 1})
    checked, final = play(state, {"albion": {"planning": [hire("Альбион", "2")],
                                             "campaign": [move("Альбион", "Вересковая Пустошь", "2", "1"),
                                                          hold("Альбион", seq="2")]}})
    assert checked["albion"] == {("planning", 2): "OK: нанять силу 2 в провинции «Альбион» за 2 золота и 2 дерева",
                                 ("campaign", 2): "OK: часть силой 2: идти / атаковать → «Вересковая Пустошь»",
                                 ("campaign", 3): "OK: часть силой 1: стоять"}
    assert [final["albion"][k].split(":")[1].strip() for k in sorted(checked["albion"])] == ["выполнен"] * 3


def test_an_impossible_hire_does_not_cancel_the_armys_campaign_rows(start: dict[str, Any]) -> None:
    """A7.1, A1.1 (G6 a: hire and replenishment caps 3). Setup: Альбион's army of 3 (the limit). Rows:
    «Нанять» 99; №1 move 2, №2 «Стоять». Expected: the hire is an error that says nothing more can be hired
    there; the split is made of the army's 3 as it is, and the turn carries both rows out."""
    checked, final = play(start, {"albion": {"planning": [hire("Альбион", "99")],
                                             "campaign": [move("Альбион", "Вересковая Пустошь", "2", "1"),
                                                          hold("Альбион", seq="2")]}})
    assert "Нельзя нанять 99 в провинции «Альбион»" in checked["albion"][("planning", 2)]
    assert "нанимать больше нельзя" in checked["albion"][("planning", 2)]
    assert checked["albion"][("campaign", 3)] == "OK: часть силой 1: стоять"
    assert final["albion"][("campaign", 2)].startswith("OK: выполнен")
    assert final["albion"][("campaign", 3)] == "OK: выполнен: войско удержало позицию (см. «Фаза Похода», п. 12.2)"


def test_a_hire_over_the_per_turn_cap_says_how_much_can_be_hired(start: dict[str, Any]) -> None:
    """G6 a «replenish … 3, hire 3» per province and turn; A7.1 the limit 3. Setup: an army of 1 in «Альбион»,
    gold and wood 9. Rows: «Нанять» 1 (OK), «Нанять» 2 (the army would be 4). Expected: the second row says
    that 1 more can be hired there; the first is carried out."""
    state = world(start, {("albion", "albion"): 1}, gold=9, wood=9)
    checked, final = play(state, {"albion": {"planning": [hire("Альбион", "1"), hire("Альбион", "2")]}})
    assert checked["albion"][("planning", 3)] == final["albion"][("planning", 3)] == (
        "Нельзя нанять 2 в провинции «Альбион»: там войско силой 2, а лимит силы отряда 3 (см. «Войско», пп. 1.1 "
        "и 7.1). Здесь можно нанять не больше 1.")
    assert final["albion"][("planning", 2)] == ("OK: выполнен: войска наняты или пополнены (см. «Фаза Планирования», "
                                                "п. 4.1; «Войско», п. 1.1)")


def test_a_hire_the_purse_cannot_pay_says_what_it_costs_and_what_is_left(start: dict[str, Any]) -> None:
    """P1.1 «Вы можете потратить любое количество имеющихся у вас ресурсов»; «10 влияния = 1 сила войска».
    Setup: an army of 1 in «Альбион», no Influence (the capital yields 2 this turn). Row: «Нанять» 1 for
    «Влияние». Expected: an error at check: 10 Influence needed, 2 there."""
    state = world(start, {("albion", "albion"): 1})
    checked, final = play(state, {"albion": {"planning": [hire("Альбион", "1", "Влияние")]}})
    assert checked["albion"][("planning", 2)] == final["albion"][("planning", 2)] == (
        "Не хватает ресурсов: нужно влияние 10, а к этой строке у вас влияние 2 (с доходом этого хода, за вычетом "
        "строк выше). Уменьшите количество или уберите строку выше.")


def test_a_new_squad_without_food_is_refused_at_check(start: dict[str, Any]) -> None:
    """A1.1, A11.1 «3 Пищи = возможность иметь 3 отряда» (G34 a: only new squads are barred). Setup: Альбион
    holds its capital (food 3) and three provinces, armies in three of them. Row: «Нанять» 1 in «Серые Топи»
    (no army there). Expected: an error naming the food and squads and where hiring is possible."""
    state = world(start, {("albion", "w_moor"): 1, ("albion", "isthmus"): 1},
                  owners={"w_moor": "albion", "isthmus": "albion", "marsh": "albion"})
    checked, _ = play(state, {"albion": {"planning": [hire("Серые Топи", "1")]}})
    assert checked["albion"][("planning", 2)].startswith(
        "Новый отряд в провинции «Серые Топи» не прокормить: пищи у вас на 3 отр., а отрядов уже 3 (см. «Войско», "
        "пп. 1.1 и 11.1). Нанимайте туда, где уже стоит ваше войско (Альбион, Вересковая Пустошь, Перешеек Ветров)")


# -- «Сила»: parts of a split --------------------------------------------------------------------------------------

def test_a_part_bigger_than_the_army_is_an_error_not_the_whole_army(start: dict[str, Any]) -> None:
    """G16 a «вы можете разделить войско». Setup: Альбион's army of 3. Row: move with «Сила» 50. Expected: an
    error «в войске «Альбион» сила 3, а в строке 50» saying what is allowed; the army gets no order."""
    checked, final = play(start, {"albion": {"campaign": [move("Альбион", "Вересковая Пустошь", "50")]}})
    assert checked["albion"][("campaign", 2)] == final["albion"][("campaign", 2)] == (
        "В войске «Альбион» сила 3, а в строке 50: укажите «Силу» от 1 до 3 (3 — всё войско) или оставьте её пустой "
        "— тогда пойдёт всё войско.")


def test_a_part_equal_to_the_army_is_the_whole_army(start: dict[str, Any]) -> None:
    """G16 a. Setup: Альбион's army of 3. Row: move with «Сила» 3. Expected: one order for the whole army (no
    split), carried out."""
    checked, final = play(start, {"albion": {"campaign": [move("Альбион", "Вересковая Пустошь", "3")]}})
    assert checked["albion"][("campaign", 2)] == "OK: идти / атаковать → «Вересковая Пустошь»"
    assert final["albion"][("campaign", 2)].startswith("OK: выполнен: провинция без враждебных войск занята")


def test_the_row_without_strength_takes_the_rest_whatever_its_number(start: dict[str, Any]) -> None:
    """G16 a «часть может остаться и держать оборону». Setup: Альбион's army of 3. Rows: №1 «Стоять» without
    «Сила», №2 move «Сила» 1. Expected: the move takes 1, the hold the other 2."""
    checked, final = play(start, {"albion": {"campaign": [hold("Альбион", seq="1"),
                                                          move("Альбион", "Вересковая Пустошь", "1", "2")]}})
    assert checked["albion"] == {("campaign", 3): "OK: часть силой 1: идти / атаковать → «Вересковая Пустошь»",
                                 ("campaign", 2): "OK: часть силой 2: стоять"}
    assert all(final["albion"][k].startswith("OK: выполнен") for k in checked["albion"])


def test_rows_take_the_army_in_their_order_and_one_too_many_is_the_only_error(start: dict[str, Any]) -> None:
    """A12.1 (the faction's own order «№»), G16 a. Setup: Альбион's army of 3. Rows: №2 «Стоять» «Сила» 2, №1
    move «Сила» 2, №3 «Стоять» «Сила» 1. Expected: №1 takes 2, №2 asks 2 of the 1 left: an error naming what
    is left; №3 takes the last 1; the two good rows are carried out."""
    checked, final = play(start, {"albion": {"campaign": [
        hold("Альбион", "2", "2"), move("Альбион", "Вересковая Пустошь", "2", "1"), hold("Альбион", "1", "3")]}})
    assert checked["albion"][("campaign", 2)].startswith("В войске «Альбион» сила 3, а в строке 2: строка 3 уже "
                                                         "взяла 2, осталось 1")
    assert checked["albion"][("campaign", 3)] == "OK: часть силой 2: идти / атаковать → «Вересковая Пустошь»"
    assert checked["albion"][("campaign", 4)] == "OK: часть силой 1: стоять"
    assert final["albion"][("campaign", 3)].startswith("OK: выполнен")
    assert final["albion"][("campaign", 4)].startswith("OK: выполнен")


def test_a_split_food_cannot_feed_is_refused_at_check(start: dict[str, Any]) -> None:
    """C2.2 «в случае, если уровень вашего снабжения пищей позволяет», G16 a. Setup: Альбион (food 3) has three
    armies. Rows: move 1 of the army of 3 (a new part). Expected: the error says the food and squads and that
    the army can act only whole; the army's other row (without «Сила») then takes the whole army."""
    state = world(start, {("albion", "w_moor"): 1, ("albion", "isthmus"): 1},
                  owners={"w_moor": "albion", "isthmus": "albion"})
    checked, final = play(state, {"albion": {"campaign": [move("Альбион", "Серые Топи", "1"), hold("Альбион")]}})
    assert checked["albion"][("campaign", 2)] == (
        "От войска «Альбион» не отделить часть силой 1: каждая новая часть — новый отряд, а пищи у вас на 3 отр. "
        "при 3 отр. к Походу (см. «Фаза Похода», п. 2.2; «Войско», п. 11.1). Дайте войску один приказ на всю силу 3 "
        "(поле «Сила» пустое) или постройте ферму.")
    assert checked["albion"][("campaign", 3)] == "OK: стоять"
    assert final["albion"][("campaign", 3)] == "OK: выполнен: войско удержало позицию (см. «Фаза Похода», п. 12.2)"


# -- the faction's own moves ---------------------------------------------------------------------------------------

def test_a_move_into_an_own_army_over_the_limit_is_refused_unless_that_army_leaves_first(start: dict[str, Any]) -> None:
    """A7.1 «Невозможно передвинуть войско в свою провинцию, если это превысит максимальную силу отряда» (G30
    a). Setup: Альбион 3 in its capital, 2 in «Вересковая Пустошь» (its own). Rows: the 2 move into «Альбион».
    Expected: an error naming the army there and the limit. Then with the capital's army leaving first (№1) the
    same move (№2) is OK, and the turn carries both out."""
    state = world(start, {("albion", "w_moor"): 2}, owners={"w_moor": "albion"})
    checked, _ = play(state, {"albion": {"campaign": [move("Вересковая Пустошь", "Альбион")]}})
    assert checked["albion"][("campaign", 2)] == (
        "В провинции «Альбион» к этому ходу стоит ваше войско силой 3, лимит силы отряда 3: войско силой 2 туда не "
        "войдёт (см. «Войско», п. 7.1). Сначала выведите войско из провинции «Альбион» (приказом с меньшим «№»).")
    checked, final = play(state, {"albion": {"campaign": [move("Вересковая Пустошь", "Альбион", seq="2"),
                                                          move("Альбион", "Серые Топи", seq="1")]}})
    assert set(checked["albion"].values()) == {"OK: идти / атаковать → «Альбион»",
                                               "OK: идти / атаковать → «Серые Топи»"}
    assert all(final["albion"][k].startswith("OK: выполнен") for k in checked["albion"])


def test_a_support_from_the_province_the_attack_comes_from_is_refused(start: dict[str, Any]) -> None:
    """C11.2 «Войска из одной провинции не могут оказывать подмогу войскам, которые выдвигаются из этой же
    провинции» (G19 a). Setup: Альбион's army of 3, natives 2 in «Северные Утёсы» next to «Серые Топи» (its
    own, army 3). Rows: №1 part 2 of «Серые Топи» attacks «Северные Утёсы», №2 the rest supports it. Expected:
    the support is an error saying why; the attack is carried out (and its status is the battle's)."""
    state = world(start, {("albion", "marsh"): 3}, owners={"marsh": "albion"})
    checked, final = play(state, {"albion": {"campaign": [
        move("Серые Топи", "Северные Утёсы", "2", "1"),
        {"seq": "2", "army": "Серые Топи", "order": "Поддержать", "target": "Северные Утёсы"}]}})
    assert checked["albion"][("campaign", 3)].startswith("Так не выполнить: нельзя поддерживать атаку из своей же "
                                                         "провинции (см. «Фаза Похода», п. 11.2). Поддерживаемая атака "
                                                         "идёт из провинции «Серые Топи»")
    assert checked["albion"][("campaign", 2)] == ("OK: часть силой 2: идти / атаковать → «Северные Утёсы»; остальные 1 "
                                                  "стоят на месте")
    assert final["albion"][("campaign", 2)].startswith("OK: ")


# -- what another faction does ------------------------------------------------------------------------------------

def test_a_move_cancelled_by_another_factions_attack_says_so(start: dict[str, Any]) -> None:
    """C12.2 «Если войско было атаковано … все приказы, отданные этому войску … отменяются». Setup: Альбион 1 in
    «Серые Топи»; Лотерн 3 in «Мыс Бурь» next to it, with a Shrine (Might 1: it moves first, C1.2). Rows:
    Альбион's army moves to «Перешеек Ветров»; Лотерн attacks «Серые Топи». Expected: check accepts both; at
    the turn Лотерн wins and Альбион's row names the attack that cancelled it."""
    state = world(start, {("albion", "marsh"): 1, ("lothern", "w_cape"): 3},
                  owners={"marsh": "albion", "w_cape": "lothern"})
    state["map"]["provinces"]["w_cape"].update(shrine=True, deposits=["gold"])
    checked, final = play(state, {"albion": {"campaign": [move("Серые Топи", "Перешеек Ветров")]},
                                  "lothern": {"campaign": [move("Мыс Бурь", "Серые Топи")]}})
    assert checked["albion"][("campaign", 2)] == "OK: идти / атаковать → «Перешеек Ветров»"
    assert final["lothern"][("campaign", 2)] == ("OK: выполнен: атака выиграна: суммарная сила больше (см. «Войско», "
                                                 "п. 2.1; «Фаза Похода», п. 7.2)")
    assert final["albion"][("campaign", 2)] == ("OK: отменён: войско было атаковано или получило урон до своего "
                                                "приказа (см. «Фаза Похода», п. 12.2)")


def test_an_own_army_held_back_by_another_faction_makes_the_move_into_it_fail_with_that_cause(
        start: dict[str, Any]) -> None:
    """A7.1 (G30 a) and «Охранные чары: … Первое войско, напавшее на эту провинцию, обязано отступить» (G55 a).
    Setup: Альбион 2 in «Серые Топи», 3 in its capital; Лотерн 1 in «Мыс Бурь» with 1 Influence, wards it.
    Rows: Альбион №1 «Серые Топи» attacks «Мыс Бурь», №2 the capital's 3 go into «Серые Топи» (3 + 2 is over the
    limit, but the 2 leave first). Expected: check accepts both; at the turn the ward turns the 2 back, so they
    stay and the 3 cannot come in: the row names that its own army did not leave because of others."""
    state = world(start, {("albion", "marsh"): 2, ("lothern", "w_cape"): 1},
                  owners={"marsh": "albion", "w_cape": "lothern"})
    ward = {"action": ability_name("high_elves"), "province1": "Мыс Бурь"}
    checked, final = play(state, {"albion": {"campaign": [move("Серые Топи", "Мыс Бурь", seq="1"),
                                                          move("Альбион", "Серые Топи", seq="2")]},
                                  "lothern": {"might": [ward]}})
    assert checked["albion"][("campaign", 3)] == "OK: идти / атаковать → «Серые Топи»"
    assert checked["lothern"][("might", 2)].startswith("OK: «Охранные чары»")
    assert final["albion"][("campaign", 2)].startswith("OK: не удался: первое напавшее войско отброшено")
    assert final["albion"][("campaign", 3)] == (
        "OK: не удался из-за других фракций или боя: ваше войско в провинции назначения не ушло оттуда (его приказ "
        "сорвали другие фракции), и вместе сила превысила бы лимит отряда — превышен лимит силы отряда или найма "
        "(см. «Войско», пп. 1.1 и 7.1)")
