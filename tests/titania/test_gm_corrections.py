"""GM corrections in the Titania GM book (issue 24 item 3): «A «Корректировки» tab in the GM book, as Jade
Rose has: resource changes, army Strength, ownership, buildings, each with a reason. Each row gets a status,
goes into the journal and is replayed by `replay` and `verify`.» (DESIGN: «GM corrections are orders in the GM
book's adjustments tab, so every change is in the log and replays».)"""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import GM_BOOK, ParsedOrders, Row
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, replay, run_turn
from sheets_bridge.verify import verify

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]
KEYS = ("action", "faction", "province", "what", "amount", "reason")


def demo_state() -> dict[str, Any]:
    return RS.new_game(tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8")))


def tab(*rows: tuple[str, ...]) -> dict[str, list[Row]]:
    return {"corrections": [Row(i + 2, dict(zip(KEYS, r, strict=False))) for i, r in enumerate(rows)]}


def test_the_gm_book_has_the_corrections_tab_of_the_orders_stage() -> None:
    t = Layout.load("titania").tab("corrections", "gm")
    assert t is not None and t.title == "Корректировки" and t.stage == "orders"
    assert [c.title for c in t.columns] == ["Что", "Фракция", "Провинция", "Ресурс или постройка", "Изменение",
                                            "Причина", "С кем", "Статус"]
    assert "corrections" in RS.order_tabs("orders")
    vocab = RS.gm_vocabularies(demo_state())
    assert vocab["gm_actions"] == ["Ресурс", "Сила войска", "Владелец", "Постройка: добавить", "Постройка: убрать",
                                   "Союз: заключить", "Союз: разорвать", "Война: объявить", "Война: закончить"]
    assert "Древняя Роща" in vocab["gm_factions"] and "туземцы" in vocab["gm_factions"]


def test_check_reads_each_row_against_the_state_and_the_rows_above() -> None:
    state = demo_state()
    got = RS.validate_gm(state, "orders", tab(
        ("Ресурс", "Королевство Альбион", "", "Золото", "2", "потерянный караван"),
        ("Ресурс", "Королевство Альбион", "", "золото", "-5", "штраф"),        # 3 + 2 = 5: fine
        ("Ресурс", "Королевство Альбион", "", "золото", "-1", "ещё штраф"),    # nothing left
        ("Сила войска", "Древняя Роща", "Вересковая Пустошь", "", "-2", "ошибка таблицы"),
        ("Владелец", "", "Западная бухта", "", "", "море"),
        ("Постройка: добавить", "", "Альбион", "рудник", "", "дважды"),
        ("Постройка: убрать", "", "Альбион", "ферма", "", "нет её"),
        ("Телепорт", "Орда Гримгора", "", "", "", ""),
        ("Ресурс", "Орки", "", "мана", "0", "x"),
    ))
    assert [[e.code for e in s.errors] for s in got.statuses] == [
        [], [], ["T_GM_BELOW_ZERO"], ["T_GM_NO_ARMY"], ["T_GM_SEA"], ["T_GM_BUILDING"], ["T_GM_BUILDING"],
        ["T_GM_ACTION", "T_GM_REASON"], ["T_GM_FACTION", "T_GM_AMOUNT"]]
    texts = [s.text() for s in got.statuses]
    assert texts[0] == ("OK: будет применено в начале хода 1, до приказов этого хода: их проверка его уже "
                        "учитывает")
    assert texts[2] == "У фракции «Королевство Альбион» золото 0 (с корректировками выше): отнять 1 нельзя."
    assert "В провинции «Альбион» уже есть рудник" in texts[5] and "там: рудник, лесопилка." in texts[6]
    assert len(got.orders) == 2 and got.faction == GM_BOOK


def test_the_turn_applies_each_correction_first_with_its_reason_in_the_ledger_and_the_journal() -> None:
    state = demo_state()
    gm = RS.validate_gm(state, "orders", tab(
        ("Ресурс", "Королевство Альбион", "", "Золото", "5", "компенсация за сбой"),
        ("Сила войска", "Королевство Альбион", "Альбион", "", "2", "гарнизон по решению мастера"),
        ("Сила войска", "туземцы", "Северные Утёсы", "", "-2", "туземцы ушли"),
        ("Владелец", "Орда Гримгора", "Восточная Степь", "", "", "передача по договору"),
        ("Постройка: добавить", "", "Альбион", "ферма", "", "забытая ферма"),
    ))
    assert all(s.ok for s in gm.statuses)
    plain = RS.resolve(state, "orders", {}, 9).state
    result = RS.resolve(state, "orders", {GM_BOOK: gm}, 9)
    new = result.state
    assert new["factions"]["albion"]["gold"] == plain["factions"]["albion"]["gold"] + 5
    assert any(e["amount"] == 5 and e["reason"] == "Корректировка мастера: компенсация за сбой" for e in new["ledger"])
    assert [a["strength"] for a in new["armies"] if a["province"] == "albion"] == [5]
    assert "n_cliffs" not in new["natives"] and new["owners"]["e_steppe"] == "grimgor"
    assert "farm" in new["buildings"]["albion"]
    assert [s.text() for s in result.statuses[GM_BOOK]] == [
        "OK: применено: золото +5 фракции «Королевство Альбион»",
        "OK: применено: сила войска фракции «Королевство Альбион» в провинции «Альбион» +2",
        "OK: применено: сила войска туземцев в провинции «Северные Утёсы» -2",
        "OK: применено: владелец провинции «Восточная Степь»: Орда Гримгора",
        "OK: применено: в провинции «Альбион» добавлена постройка: ферма"]
    journal = [e["text"] for e in new["log"] if e["faction"] == "albion"]
    assert "Ход 1, корректировка мастера: золото +5 фракции «Королевство Альбион» (компенсация за сбой)." in journal
    assert any("ферма" in t for t in journal)
    assert [e["text"] for e in new["log"] if e["faction"] == "grimgor"][0].startswith(
        "Ход 1, корректировка мастера: владелец провинции «Восточная Степь»: Орда Гримгора")
    assert RS.resolve(state, "orders", {GM_BOOK: gm}, 9).state == new


@pytest.mark.long
def test_corrections_typed_in_the_gm_book_are_applied_logged_and_replay(tmp_path: Path) -> None:
    plain = create_game(tmp_path / "plain", "titania", "demo", backend="xlsx", seed="gm")
    run_turn(plain)
    gd = create_game(tmp_path / "g", "titania", "demo", backend="xlsx", seed="gm")
    fill_orders(gd.path / gd.config.books["gm"], "Корректировки",
                [("Ресурс", "Высокий Лотерн", "", "Дерево", "4", "компенсация за сбой таблицы"),
                 ("Ресурс", "Высокий Лотерн", "", "Мана", "-4", "ошибка")])
    assert check(gd).counts()["gm"] == (1, 1)
    run_turn(gd)
    assert gd.latest_state()["factions"]["lothern"]["wood"] == plain.latest_state()["factions"]["lothern"]["wood"] + 4
    assert replay(gd, 1, "orders")[0]
    assert verify(gd, be=XlsxBackend(gd.path)).ok
    saved = (gd.path / "archive/turn-0001/statuses-orders.json").read_text(encoding="utf-8")
    assert "применено: дерево +4 фракции «Высокий Лотерн»" in saved


def test_no_corrections_outside_the_orders_stage() -> None:
    state = RS.new_game(tomllib.loads((ROOT / "templates/titania/scenarios/start.toml").read_text(encoding="utf-8")))
    got = RS.validate_gm(state, "setup", tab(("Ресурс", "Северная держава", "", "золото", "5", "x")))
    assert got == ParsedOrders(GM_BOOK, "setup", (), ())


def test_a_correction_typed_before_the_deadline_counts_for_that_turns_rows(tmp_path: Path) -> None:
    """Issue 38 §2: «A correction typed before a stage's deadline applies before that stage's orders, `check`
    counts it, and its message names the stage where it applies.» The issue's reproduction: «Ресурс · Королевство
    Альбион · мана · 6»; Альбион learns «Благословение» (2 mana) in the same turn's Planning. Before: the row failed
    in check and in turn («нужно мана 2, а к этой строке у вас мана 0»). Expected: both say OK, the turn learns it."""
    gd = create_game(tmp_path / "g", "titania", "demo", backend="xlsx", seed="gm")
    fill_orders(gd.path / gd.config.books["gm"], "Корректировки",
                [("Ресурс", "Королевство Альбион", "", "мана", "6", "подарок богов")])
    fill_orders(gd.path / gd.config.books["albion"], "Планирование",
                [("Изучить заклинание", "", "Благословение")])
    report = check(gd)
    assert [(o["tab"], o["text"]) for o in report.outcomes["albion"] if o["tab"] == "planning"] == [
        ("planning", "OK: изучить «Благословение»")]
    run_turn(gd)
    assert gd.latest_state()["factions"]["albion"]["spells"] == ["blessing"]
