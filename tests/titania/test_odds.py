"""Issue 11 item 4 for Titania: the «Симулятор» tab. A player describes a hypothetical battle in rows
(attacker, defenders, possible supports with race, Strength and Might) and gets the totals and the
outcome with every support, without each one, and without any — settled by the adjudicator itself, so
the rule book's rules apply: «Суммарная сила = сила войска + подмога + модификаторы» (A2.1), a draw on
equal totals (A4.1), racial rules such as the wood elves' «Хранители рощи» and the undead's «Марш
мертвых»; each bad row gets a Russian message and the rest still count."""
from __future__ import annotations

from typing import Any

from click.testing import CliRunner

from engine import find_ruleset
from engine.ruleset import Row, Table
from engine.titania.odds import TAB, TitaniaOdds, vocabularies
from sheets_bridge.scenarios import load_scenario

KEYS = ("role", "race", "strength", "might")


def _state() -> dict[str, Any]:
    return load_scenario(find_ruleset("titania"), "demo").state


def _rows(*cells: tuple[str, ...]) -> list[Row]:
    return [Row(i + 2, dict(zip(KEYS, c, strict=False))) for i, c in enumerate(cells)]


def _odds(*cells: tuple[str, ...], faction: str = "grimgor") -> tuple[list[str], Table]:
    statuses, table = TitaniaOdds().odds(_state(), faction, _rows(*cells))
    assert all(s.tab == TAB for s in statuses)
    return [s.text() for s in statuses], table


def _variant(table: Table, start: str) -> tuple[Any, ...]:
    return next(r for r in table.rows if str(r[0]).startswith(start))


def test_totals_and_outcome_with_every_support_without_each_and_without_any() -> None:
    """Orcs against skaven: races without battle modifiers of their own."""
    texts, table = _odds(("Нападающий", "", "4"), ("Обороняющийся", "скавены", "5"),
                         ("Подмога нападающему", "", "2"), ("Подмога обороне", "", "1"))
    assert texts == ["OK: нападающий: орки, сила 4", "OK: обороняющийся: скавены, сила 5",
                     "OK: подмога нападающему: орки, сила 2; подмога засчитана",
                     "OK: подмога обороне: скавены, сила 1; подмога засчитана"]
    assert [r[0] for r in table.rows] == [
        "Вся подмога, как описано", "Без подмоги строки 4 (подмога нападающему: орки, сила 2)",
        "Без подмоги строки 5 (подмога обороне: скавены, сила 1)", "Без всякой подмоги"]
    full, no_attack_help, no_defence_help, none = table.rows
    assert full[1:4] == ("6 (сила 4, подмога +2)", "6 (сила 5, подмога +1)", "ничья")
    assert no_attack_help[1:4] == ("4 (сила 4)", "6 (сила 5, подмога +1)", "победила оборона")
    assert no_defence_help[1:4] == ("6 (сила 4, подмога +2)", "5 (сила 5)", "победил нападающий")
    assert none[1:4] == ("4 (сила 4)", "5 (сила 5)", "победила оборона")
    assert "исход меняется" in no_attack_help[6] and "исход меняется" in no_defence_help[6]
    assert "(см. «Войско», п. 4.1)" in full[6]
    assert "(см. «Войско», п. 2.1; «Фаза Похода», п. 7.2)" in no_defence_help[6]


def test_a_draw_costs_each_side_half_its_strength_and_a_win_the_enemy_s_strength() -> None:
    """A4.1: «обе стороны теряют половину»; A2.1: the loser takes damage equal to the winner's strength — and
    loses at most what it had: the 6 dealt to a defender of 2 cost it 2, not 6."""
    _, table = _odds(("Нападающий", "люди", "4"), ("Обороняющийся", "люди", "4"))
    (only,) = table.rows
    assert only[3:6] == ("ничья", 2, 2)
    _, table = _odds(("Нападающий", "люди", "6"), ("Обороняющийся", "люди", "2"))
    assert table.rows[0][3:6] == ("победил нападающий", 2, 2)
    _, table = _odds(("Нападающий", "люди", "2"), ("Обороняющийся", "люди", "7"))
    assert table.rows[0][3:6] == ("победила оборона", 2, 2)


def test_might_adds_one_strength_per_point_on_the_army_that_gets_it() -> None:
    """«+1 к силе за очко» of Might put on an army (Ресурсы: Могущество)."""
    _, table = _odds(("Нападающий", "орки", "4", "2"), ("Обороняющийся", "скавены", "5"))
    assert table.rows[0][1:4] == ("6 (сила 4, модификаторы +2)", "5 (сила 5)", "победил нападающий")
    _, table = _odds(("Нападающий", "орки", "4"), ("Обороняющийся", "скавены", "4"),
                     ("Подмога обороне", "", "1", "1"))
    assert table.rows[0][2] == "6 (сила 4, подмога +2)"      # Might on a supporter raises its support


def test_humans_adaptability_turns_a_loss_by_one_into_a_draw() -> None:
    """G50: «Если сила войска противника на 1 больше, войско людей получает +1 к силе» (applied last, G50 a)."""
    _, table = _odds(("Нападающий", "люди", "4"), ("Обороняющийся", "скавены", "5"), faction="albion")
    assert table.rows[0][1:4] == ("5 (сила 4, модификаторы +1)", "5 (сила 5)", "ничья")


def test_undead_weaken_the_defence_s_support_and_high_elves_strengthen_it() -> None:
    """«Марш мертвых: Когда войска нежити атакуют, вражеские войска, оказывающие подмогу в этом бою,
    получают дебаф -1 силы»; «Защитники Ултуана: Подмога высших эльфов получает +1 к силе при битвах в
    обороне»."""
    _, table = _odds(("Нападающий", "нежить", "4"), ("Обороняющийся", "орки", "3"),
                     ("Подмога обороне", "высшие эльфы", "2"))
    assert table.rows[0][2] == "5 (сила 3, подмога +1, модификаторы +1)"


def test_wood_elves_win_a_draw_on_their_own_land() -> None:
    """Лесные эльфы, «Хранители рощи»: a draw on their land is the defence's victory."""
    _, table = _odds(("Нападающий", "люди", "4"), ("Обороняющийся", "лесные эльфы", "4"))
    row = table.rows[0]
    assert row[3] == "победила оборона"
    assert row[6].startswith("ничья: суммарные силы равны") and "Хранители рощи" in row[6]


def test_natives_take_no_support_and_the_row_says_why() -> None:
    """Туземцы: «в этом бою подмога невозможна»."""
    texts, table = _odds(("Нападающий", "скавены", "3"), ("Обороняющийся", "туземцы", "3"),
                         ("Подмога обороне", "", "2"))
    assert texts[2].startswith("OK: подмога обороне")
    assert "подмога не засчитана: в этом бою подмога невозможна" in texts[2]
    assert table.rows[0][2] == "3 (сила 3)"


def test_each_bad_row_gets_its_russian_message_and_the_others_still_count() -> None:
    texts, table = _odds(("Нападающий", "", "5"), ("Обороняющийся", "гномы", "3"),
                         ("Разведчик", "", "1"), ("Подмога обороне", "эльфы", "2"),
                         ("Подмога нападающему", "", "ноль"), ("Нападающий", "", "2"),
                         ("Подмога нападающему", "туземцы", "1"), ("Обороняющийся", "туземцы", "2"),
                         ("Обороняющийся", "гномы", "2", "-1"))
    assert texts[0] == "OK: нападающий: орки, сила 5" and texts[1] == "OK: обороняющийся: гномы, сила 3"
    assert texts[2].startswith("Роль «Разведчик» не распознана. Допустимо: Нападающий, Обороняющийся")
    assert texts[3].startswith("Раса «эльфы» не распознана. Допустимо: люди, гномы, лесные эльфы")
    assert "«Сила»" in texts[4] and "«ноль»" in texts[4]
    assert texts[5] == ("Нападающий в бою один (каждое нападение — свой бой): он уже описан в строке 2. "
                        "Другие войска могут помочь строкой «Подмога нападающему».")
    assert texts[6] == "Туземцы могут только обороняться: они не нападают и не оказывают подмогу."
    assert texts[7].startswith("В одной провинции стоят либо туземцы, либо войска фракций")
    assert "«Могущество»" in texts[8]
    assert table.rows[0][1:4] == ("5 (сила 5)", "3 (сила 3)", "победил нападающий")
    assert table.rows[-1][0] == "Не учтены строки" and table.rows[-1][6].startswith("4, 5, 6, 7, 8, 9, 10:")


def test_a_battle_needs_an_attacker_and_a_defence() -> None:
    texts, table = _odds(("Обороняющийся", "гномы", "3"))
    assert texts == ["Опишите нападающего: строку с ролью «Нападающий», его расой и силой."]
    assert table.rows[0][0] == "Опишите бой во вкладке «Симулятор»"
    texts, _ = _odds(("Нападающий", "", "3"))
    assert texts[0].startswith("Опишите оборону")


def test_no_rows_give_the_explanation_and_no_statuses() -> None:
    statuses, table = TitaniaOdds().odds(_state(), "albion", [Row(2, {k: "" for k in KEYS})])
    assert statuses == () and "Опишите бой" in table.rows[0][0]


def test_the_same_description_always_gives_the_same_answer() -> None:
    rows = (("Нападающий", "орки", "5"), ("Обороняющийся", "люди", "3"), ("Подмога обороне", "высшие эльфы", "2"))
    assert _odds(*rows) == _odds(*rows)


def test_every_support_is_switched_off_on_its_own() -> None:
    """With n supports, n + 2 variants: all, without each one in turn, without any."""
    rows = [("Нападающий", "", "3"), ("Обороняющийся", "скавены", "3")] + [("Подмога нападающему", "", "1")] * 3
    _, table = _odds(*rows)
    assert len(table.rows) == 5
    totals = [r[1] for r in table.rows]
    assert totals == ["6 (сила 3, подмога +3)", "5 (сила 3, подмога +2)", "5 (сила 3, подмога +2)",
                      "5 (сила 3, подмога +2)", "3 (сила 3)"]


def test_the_simulator_dropdowns_are_in_the_book_s_vocabularies() -> None:
    rs = find_ruleset("titania")
    vocab = rs.vocabularies(_state(), "albion")
    assert vocab["sim_roles"] == vocabularies()["sim_roles"] == [
        "Нападающий", "Обороняющийся", "Подмога нападающему", "Подмога обороне"]
    assert "туземцы" in vocab["sim_races"] and "лесные эльфы" in vocab["sim_races"]
    calc = rs.odds_calculator()
    assert calc is not None and calc.tab == "simulator" and calc.result_tab == "odds"


def test_check_fills_the_simulator_statuses_and_the_result_tab_of_a_titania_book(tmp_path) -> None:
    """The round trip through an xlsx book: `forumwar check` reads «Симулятор», writes the statuses and «Расчёт боя»."""
    import openpyxl

    from sheets_bridge.cli import main
    runner = CliRunner()
    game = tmp_path / "g"
    made = runner.invoke(main, ["new", str(game), "--ruleset", "titania", "--scenario", "demo", "--seed", "s"])
    assert made.exit_code == 0, made.output
    book = game / "books" / "albion.xlsx"
    wb = openpyxl.load_workbook(book)
    sim = wb["Симулятор"]
    for r, cells in enumerate((("Нападающий", "", 4), ("Обороняющийся", "гномы", 4), ("Подмога нападающему", "", 1)),
                              start=2):
        for c, value in enumerate(cells, start=1):
            sim.cell(r, c, value)
    wb.save(book)
    out = runner.invoke(main, ["check", str(game)])
    assert out.exit_code == 0, out.output
    wb = openpyxl.load_workbook(book)
    statuses = [wb["Симулятор"].cell(r, 5).value for r in (2, 3, 4)]
    assert statuses[2] == "OK: подмога нападающему: люди, сила 1; подмога засчитана"
    result = [[c.value for c in row] for row in wb["Расчёт боя"].iter_rows()]
    assert result[1][:4] == ["Вся подмога, как описано", "5 (сила 4, подмога +1)", "4 (сила 4)", "победил нападающий"]
