"""A broken tab or header reaches the players and is never misread (issue 8, item 4).

With «Количество» renamed to «Кол-во», every hire row used to pass as «нанято 1» although the player
wrote 10; a renamed or deleted order tab was reported only to the GM, partly in English. Now nothing is
read from a column whose header is not the expected one, every filled row of such a tab is refused with
a Russian message naming the column, and the players read it in the tab's status column and in
«Сводка» — for a renamed tab, with where their orders went.
"""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from engine.ruleset import Row
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, rows_from_sheet
from sheets_bridge.stage import check, run_turn
from tests.fake_google import FakeGoogle, fake_backend, fake_client
from tests.games import new_game

GM = "gm@example.com"
BOT = "forumwar@broken-tabs.iam.gserviceaccount.com"
LATIN = set("abcdefghijklmnopqrstuvwxyz")


def _economy():
    return Layout.load("jade_rose").books["faction"].tab("economy")


def _new(tmp_path: Path) -> GameDir:
    return new_game(tmp_path / "g", seed="broken-tabs")


def _capital(gd: GameDir, fid: str = "empire") -> str:
    return next(c["name"] for c in gd.latest_state()["cities"].values() if c["owner"] == fid and c.get("capital"))


def _book(gd: GameDir, key: str = "empire") -> Path:
    return gd.path / gd.config.books[key]


def _edit(path: Path, change) -> None:
    wb = openpyxl.load_workbook(path)
    change(wb)
    wb.save(path)


def _values(path: Path, title: str) -> list[tuple]:
    return list(openpyxl.load_workbook(path)[title].iter_rows(values_only=True))


def _is_russian(text: str) -> bool:
    return not (set(text.lower()) & LATIN)


# -- reading a header -----------------------------------------------------------------------------

def test_a_renamed_count_header_is_never_read_and_refuses_every_row():
    raw = [["Действие", "Город", "Что", "Кол-во", "Статус"], ["Нанять", "", "Копейщик", "10"],
           ["Нанять", "", "Копейщик", "3"], [], ["Продать", "Аурум", "Барак"]]
    read = rows_from_sheet(_economy(), raw)
    assert read.rows == [] and not read.header_ok
    assert [s.number for s in read.refused] == [2, 3, 5]
    assert all(s.errors[0].code == "E_COLUMN_MISSING" and "«Количество»" in s.text() for s in read.refused)
    assert [n.code for n in read.notices] == ["E_TAB_COLUMN_MISSING"] and "«Экономика»" in read.notices[0].message()


def test_columns_are_found_by_exact_title_in_any_order():
    raw = [["Статус", "Количество", " Что ", "Действие", "Город", "Заметки"],
           ["OK", "10", "Копейщик", "Нанять", "", "=1+1"]]
    read = rows_from_sheet(_economy(), raw)
    assert read.header_ok and not read.refused and not read.notices
    assert read.rows == [Row(2, {"action": "Нанять", "city": "", "what": "Копейщик", "count": "10"})]


def test_a_doubled_header_is_ambiguous_and_refused():
    raw = [["Действие", "Город", "Что", "Количество", "Количество", "Статус"], ["Нанять", "", "Копейщик", "10", "1"]]
    read = rows_from_sheet(_economy(), raw)
    assert read.rows == [] and read.refused[0].errors[0].code == "E_COLUMN_TWICE"
    assert "«Количество»" in read.refused[0].text() and "дважды" in read.refused[0].text()


# -- a whole game ---------------------------------------------------------------------------------

def test_renamed_count_column_hires_nothing_and_the_players_are_told(tmp_path):
    gd = _new(tmp_path)
    units_before = dict(gd.latest_state()["factions"]["empire"]["units"])
    fill_orders(_book(gd), "Экономика", [("Построить", _capital(gd), "Барак", ""), ("Нанять", "", "Копейщик", "10")])
    _edit(_book(gd), lambda wb: wb["Экономика"].cell(row=1, column=4, value="Кол-во"))

    report = check(gd)
    rows = _values(_book(gd), "Экономика")
    for row in rows[1:3]:
        assert "Количество" in row[4] and not row[4].startswith("OK"), row
    gm_lines = [p for p in report.problems if "Экономика" in p]
    assert gm_lines and all(_is_russian(p) for p in gm_lines) and gm_lines[0].startswith("Империя: ")

    report = run_turn(gd)
    state = gd.latest_state()
    assert state["factions"]["empire"]["units"] == units_before
    capital = next(c for c in state["cities"].values() if c["name"] == _capital(gd))
    assert "empire_barrack" not in capital.get("buildings", [])
    assert report.counts()["empire"][0] == 0
    summary = [str(c) for row in _values(_book(gd), "Сводка") for c in row if c]
    assert any("«Количество»" in c and "«Экономика»" in c for c in summary)
    log = _values(_book(gd), "Итоги приказов")
    assert all("Количество" in str(r[4]) for r in log[1:] if r[1] == "Экономика")
    problems = [str(c) for row in _values(_book(gd, "gm"), "Проблемы") for c in row if c]
    assert any(c.startswith("Империя: ") and "«Количество»" in c for c in problems)


def test_a_renamed_tab_is_found_and_the_players_learn_where_their_orders_went(tmp_path):
    gd = _new(tmp_path)
    fill_orders(_book(gd), "Гарнизоны", [("Штальбург", "Центр", "Авангард", "Копейщик", "2")])
    _edit(_book(gd), lambda wb: setattr(wb["Гарнизоны"], "title", "Мои гарнизоны"))

    report = check(gd)
    line = next(p for p in report.problems if "Гарнизоны" in p)
    assert "«Мои гарнизоны»" in line and "не прочитаны" in line and _is_russian(line)

    run_turn(gd)
    summary = [str(c) for row in _values(_book(gd), "Сводка") for c in row if c]
    notice = next(c for c in summary if "«Гарнизоны»" in c)
    assert "«Мои гарнизоны»" in notice and "не прочитаны" in notice and "назван" in notice
    problems = [str(c) for row in _values(_book(gd, "gm"), "Проблемы") for c in row if c]
    assert any("«Мои гарнизоны»" in c for c in problems)
    assert _values(_book(gd), "Мои гарнизоны")[1][:5] == ("Штальбург", "Центр", "Авангард", "Копейщик", 2)


def test_a_deleted_tab_is_told_to_the_players_in_russian(tmp_path):
    gd = _new(tmp_path)
    _edit(_book(gd), lambda wb: wb.remove(wb["Приказы армиям"]))
    report = check(gd)
    line = next(p for p in report.problems if "Приказы армиям" in p)
    assert line.startswith("Империя: ") and "не найдена" in line and _is_russian(line)
    run_turn(gd)
    summary = [str(c) for row in _values(_book(gd), "Сводка") for c in row if c]
    assert any("«Приказы армиям»" in c and "не найдена" in c for c in summary)
    assert "Приказы армиям" in openpyxl.load_workbook(_book(gd)).sheetnames   # recreated, empty


def test_google_a_renamed_tab_is_found_too(tmp_path):
    fake = FakeGoogle()
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
    made = {}

    def factory(gd: GameDir):
        made["be"] = fake_backend(fake, BOT, gm_emails=[GM], folder_id=folder,
                                  metadata_path=gd.state_dir / "gsheets-meta.json")
        return made["be"]

    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed="broken-tabs",
                     backend_factory=factory)
    book = fake_client(fake, GM).open_by_key(gd.config.books["empire"])
    book.values_update("'Экономика'!A2", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["Нанять", "", "Копейщик", "10"]]})
    book.worksheet("Экономика").update_title("Экономика старая")
    report = check(gd, be=made["be"])
    line = next(p for p in report.problems if "Экономика" in p)
    assert "«Экономика старая»" in line and _is_russian(line)


@pytest.mark.parametrize("title", ["Экономика", "Армии"])
def test_status_cells_are_never_written_over_the_header(tmp_path, title):
    from engine.errors import OrderError
    from engine.ruleset import RowStatus
    from sheets_bridge.layouts import status_column_update
    tab = next(t for t in Layout.load("jade_rose").order_tabs() if t.title == title)
    write = status_column_update(tab, [RowStatus(tab.key, 1, (OrderError("E_TAB_MISSING", {"tab": title}),)),
                                       RowStatus(tab.key, 2)], [c.title for c in tab.columns], clear_rows=[1, 3])
    assert set(write.column_updates[tab.status_index]) == {2, 3}
