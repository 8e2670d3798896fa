"""Merged cells in the books (issue 20, item 5): a player merges two cells of an order tab (A4:A5 of
«Экономика»), and `check` used to crash on writing the book back (`'MergedCell' object has no attribute
'_hyperlink'`).

What must hold, on local xlsx books and on Google spreadsheets (the fake), for both rule sets:
- `check` gives every order row a merge touches the Russian status «объединённые ячейки — разъедините их»
  naming the merge («A4:A5»), and reads and checks the other rows of the book as usual (a valid row of the
  same faction is «OK»); the merge stays, for the player to undo;
- `turn` does not carry out those rows (what `check` said), carries out the others, and rewrites the tab
  unmerged; the book reads as usual afterwards, the archive keeps the merges (a replay agrees);
- a merge in a status tab or over an order tab's header crashes nothing and is undone at the next push.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from gspread.exceptions import APIError

from sheets_bridge import stage, tab_lock
from sheets_bridge.backends.base import MERGED_CELLS, Backend
from sheets_bridge.backends.gsheets.sheets_requests import merge_a1
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from tests.fake_google import FakeGoogle, fake_backend, fake_client
from tests.fake_google.fake_merges import PARTLY_MESSAGE
from tests.games import new_game

GM = "gm@example.com"
BOT = "forumwar@merges.iam.gserviceaccount.com"
MERGED = "объединённые ячейки — разъедините их"


# -- the games ------------------------------------------------------------------------------------------

class Books:
    """One new game's books on one backend, typed into and merged as a player would."""

    name: str
    gd: GameDir
    be: Backend

    def type_rows(self, key: str, title: str, rows: list[list[Any]]) -> None:
        raise NotImplementedError

    def merge(self, key: str, title: str, a1: str) -> None:
        raise NotImplementedError

    def merges(self, key: str, title: str) -> list[str]:
        raise NotImplementedError

    def read(self, key: str, title: str) -> list[list[str]]:
        return self.be.read_tabs(self.gd.config.books[key], [title]).get(title, [])


class XlsxBooks(Books):
    name = "xlsx"

    def __init__(self, path: Path, ruleset: str):
        self.gd = new_game(path, ruleset, seed="merges")
        self.be = XlsxBackend(self.gd.path)

    def _edit(self, key: str) -> tuple[Path, Any]:
        path = self.gd.path / self.gd.config.books[key]
        return path, openpyxl.load_workbook(path)

    def type_rows(self, key: str, title: str, rows: list[list[Any]]) -> None:
        path, wb = self._edit(key)
        for r, values in enumerate(rows, start=2):
            for c, value in enumerate(values, start=1):
                if value != "":
                    wb[title].cell(row=r, column=c).value = value
        wb.save(path)

    def merge(self, key: str, title: str, a1: str) -> None:
        path, wb = self._edit(key)        # as Excel does: the merge keeps the top left cell's value only
        wb[title].merge_cells(a1)
        wb.save(path)

    def merges(self, key: str, title: str) -> list[str]:
        wb = openpyxl.load_workbook(self.gd.path / self.gd.config.books[key])
        return sorted(m.coord for m in wb[title].merged_cells.ranges)


class GoogleBooks(Books):
    name = "gsheets"

    def __init__(self, path: Path, ruleset: str):
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        made: dict[str, Backend] = {}

        def factory(gd: GameDir) -> Backend:
            made["be"] = fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=folder,
                                      metadata_path=gd.state_dir / "gsheets-meta.json")
            return made["be"]

        self.gd = create_game(path, ruleset, "demo", backend="gsheets", seed="merges", backend_factory=factory)
        self.be = made["be"]

    def _book(self, key: str) -> Any:
        return fake_client(self.fake, GM).open_by_key(self.gd.config.books[key])

    def type_rows(self, key: str, title: str, rows: list[list[Any]]) -> None:
        self._book(key).values_update(f"'{title}'!A2", params={"valueInputOption": "USER_ENTERED"},
                                      body={"values": rows})

    def merge(self, key: str, title: str, a1: str) -> None:
        self._book(key).worksheet(title).merge_cells(a1)      # gspread's own mergeCells request

    def merges(self, key: str, title: str) -> list[str]:
        sheet = self.fake.spreadsheet(self.gd.config.books[key]).sheet_by_title(title)
        assert sheet is not None
        return sorted(merge_a1((m["startRowIndex"], m["endRowIndex"], m["startColumnIndex"], m["endColumnIndex"]))
                      for m in sheet.merges)


def make_books(backend: str, path: Path, ruleset: str) -> Books:
    return XlsxBooks(path, ruleset) if backend == "xlsx" else GoogleBooks(path, ruleset)


# -- what the players type -----------------------------------------------------------------------------

@dataclass
class Plan:
    """The rows of one faction's order tab, the merge over some of them, and how to see the turn's effect."""

    key: str
    tab: str                    # the tab's title
    tab_key: str
    rows: list[list[Any]]       # from row 2
    merge: str                  # A1
    merged_rows: tuple[int, ...]
    good_row: int               # a valid row of the same tab, carried out by the turn
    done: Any = field(default=None)       # state -> whether the good row was carried out
    skipped: Any = field(default=None)    # state -> whether the merged rows were left undone


def jade_rose_plan(state: dict[str, Any]) -> Plan:
    """«Экономика» of the Empire: a barracks in each of its four cities, rows 4 and 5 merged in column A (the
    issue's A4:A5); rows 2 and 3 are built, the cities of rows 4 and 5 stay without one."""
    cities = {c["name"]: cid for cid, c in state["cities"].items() if c["owner"] == "empire"}
    names = sorted(cities, key=lambda n: (not state["cities"][cities[n]].get("capital"), n))
    rows = [["Построить", name, "Барак"] for name in names[:4]]

    def built(s: dict[str, Any], name: str) -> bool:
        return bool(s["cities"][cities[name]]["buildings"])

    return Plan("empire", "Экономика", "economy", rows, "A4:A5", (4, 5), 2,
                done=lambda s: built(s, names[0]) and built(s, names[1]),
                skipped=lambda s: not built(s, names[2]) and not built(s, names[3]))


def titania_plan(state: dict[str, Any]) -> Plan:
    """«Поход» of Альбион (an army of 3): №1 moves 1 to «Вересковая Пустошь» (row 2); №2 moves 1 to another
    free neighbour and №3 holds 1 (rows 3 and 4, merged in column C, «Приказ»). Without the merge all three
    are carried out."""
    provinces = state["map"]["provinces"]
    pid = {info["name"]: p for p, info in provinces.items()}
    around = {b for a, b in state["map"]["adjacency"] if a == "albion"} | {
        a for a, b in state["map"]["adjacency"] if b == "albion"}
    other = min(provinces[p]["name"] for p in around if p != "w_moor" and not provinces[p]["sea"]
                and not provinces[p]["keeper"] and p not in state["natives"] and not state["owners"].get(p))
    rows = [[1, "Альбион", "Идти / атаковать", "Вересковая Пустошь", "", 1],
            [2, "Альбион", "Идти / атаковать", other, "", 1],
            [3, "Альбион", "Стоять", "", "", 1]]

    def army_in(s: dict[str, Any], name: str) -> bool:
        return any(a["faction"] == "albion" and a["province"] == pid[name] for a in s["armies"])

    return Plan("albion", "Поход", "campaign", rows, "C3:C4", (3, 4), 2,
                done=lambda s: army_in(s, "Вересковая Пустошь"), skipped=lambda s: not army_in(s, other))


PLANS = {"jade_rose": jade_rose_plan, "titania": titania_plan}


@dataclass
class Played:
    """One game played through `check` and `turn` with a merge over order rows."""

    books: Books
    plan: Plan
    merges_before: list[str]
    checked: dict[tuple[str, int], str]
    status_column: list[str]              # the tab's status cells after `check`, from row 2
    merges_after_check: list[str]
    final: dict[tuple[str, int], str]     # the turn's archived statuses
    merges_after_turn: list[str]
    state: dict[str, Any]


def play(books: Books, ruleset: str) -> Played:
    plan = PLANS[ruleset](books.gd.latest_state())
    books.type_rows(plan.key, plan.tab, plan.rows)
    books.merge(plan.key, plan.tab, plan.merge)
    before = books.merges(plan.key, plan.tab)
    report = stage.check(books.gd, be=books.be)
    checked = {(s["tab"], s["row"]): s["text"] for s in report.outcomes[plan.key]}
    sheet = books.read(plan.key, plan.tab)
    col = sheet[0].index("Статус")
    status = [row[col] if col < len(row) else "" for row in sheet[1:]]
    after_check = books.merges(plan.key, plan.tab)
    stage.run_turn(books.gd, be=books.be)
    saved = json.loads((books.gd.archive_path(1) / "statuses-orders.json").read_text(encoding="utf-8"))
    final = {(s["tab"], s["row"]): s["text"] for s in saved[plan.key]}
    return Played(books, plan, before, checked, status, after_check, final, books.merges(plan.key, plan.tab),
                  books.gd.latest_state())


GAMES = [("xlsx", "jade_rose"), ("gsheets", "jade_rose"), ("xlsx", "titania"), ("gsheets", "titania")]


@pytest.fixture(scope="module", params=GAMES, ids=[f"{b}-{r}" for b, r in GAMES])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    backend, ruleset = request.param
    books = make_books(backend, tmp_path_factory.mktemp(f"{backend}-{ruleset}") / "game", ruleset)
    yield play(books, ruleset)


# -- check and turn ---------------------------------------------------------------------------------------

def test_the_player_really_merged_the_cells(played: Played) -> None:
    """Guard: the book holds the merge before `check` (else the rest would prove nothing)."""
    assert played.merges_before == [played.plan.merge]


def test_check_gives_the_merged_rows_the_russian_status_and_reads_the_rest(played: Played) -> None:
    plan = played.plan
    for row in plan.merged_rows:
        text = played.checked[(plan.tab_key, row)]
        assert MERGED in text and f"({plan.merge})" in text, text
        assert played.status_column[row - 2] == text
    assert played.checked[(plan.tab_key, plan.good_row)].startswith("OK"), played.checked
    assert played.status_column[plan.good_row - 2] == played.checked[(plan.tab_key, plan.good_row)]
    assert played.merges_after_check == [plan.merge]      # the player's to undo: only the statuses were written


def test_turn_does_what_check_said_and_leaves_the_merged_rows_undone(played: Played) -> None:
    plan = played.plan
    for row in plan.merged_rows:
        assert played.final[(plan.tab_key, row)] == played.checked[(plan.tab_key, row)]
    assert played.final[(plan.tab_key, plan.good_row)].startswith("OK"), played.final
    assert plan.done(played.state), "the valid row was carried out"
    assert plan.skipped(played.state), "the merged rows were not"


def test_after_the_turn_the_tab_is_unmerged_and_the_book_reads_as_usual(played: Played) -> None:
    books, plan = played.books, played.plan
    assert played.merges_after_turn == []
    titles = books.be.tab_titles(books.gd.config.books[plan.key])
    tabs = books.be.read_tabs(books.gd.config.books[plan.key], titles)
    assert plan.tab in tabs and tabs[plan.tab][0][-1] == "Статус"
    log = [" ".join(row) for row in tabs["Итоги приказов"]]
    assert sum(MERGED in line for line in log) == len(plan.merged_rows)
    archived = json.loads((books.gd.archive_path(1) / f"orders-orders-{plan.key}.json").read_text(encoding="utf-8"))
    assert archived[MERGED_CELLS] == [[plan.tab, plan.merge]]


def test_a_replay_of_the_stage_agrees_with_the_turn(played: Played) -> None:
    """The merges are part of the orders as read: a replay from the archive refuses the same rows."""
    same, message = stage.replay(played.books.gd, 1, "orders")
    assert same, message


# -- merges elsewhere ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("backend", ["xlsx", "gsheets"])
def test_a_merge_in_a_status_tab_and_over_a_header_crashes_nothing(backend: str, tmp_path: Path) -> None:
    """The GM merges two rows of «Сводка» and the headers «Армия» and «Фланг» of «Армии» (a header keeps the
    first title only: the tab is not read, and says why); a merge over the status cells of the two valid
    «Экономика» rows (no order loses a cell: both are OK, and `check`, writing their statuses, undoes it).
    `check` and `turn` run through; every merge is gone after the turn."""
    books = make_books(backend, tmp_path / "game", "jade_rose")
    plan = jade_rose_plan(books.gd.latest_state())
    books.type_rows("empire", "Экономика", plan.rows[:2])
    books.type_rows("empire", "Армии", [["Первая", "Центр", "Авангард", "Копейщик", 1]])
    books.merge("empire", "Сводка", "A2:B3")
    books.merge("empire", "Армии", "A1:B1")
    books.merge("empire", "Экономика", "E2:E3")
    report = stage.check(books.gd, be=books.be)
    checked = {(s["tab"], s["row"]): s["text"] for s in report.outcomes["empire"]}
    assert checked[("economy", 2)].startswith("OK") and checked[("economy", 3)].startswith("OK"), checked
    assert "«Фланг»" in checked[("armies", 2)] and "не прочитана" in checked[("armies", 2)]
    assert not any(MERGED in text for text in checked.values())   # no order lost a cell
    assert books.merges("empire", "Экономика") == []      # its status cells were written: undone
    assert [row[4] for row in books.read("empire", "Экономика")[1:3]] == [checked[("economy", 2)],
                                                                           checked[("economy", 3)]]
    assert books.merges("empire", "Сводка") == ["A2:B3"]
    stage.run_turn(books.gd, be=books.be)
    for title in ("Сводка", "Армии", "Экономика"):
        assert books.merges("empire", title) == [], title
    assert books.read("empire", "Армии")[0][:2] == ["Армия", "Фланг"]
    assert books.read("empire", "Сводка")


def test_an_unmerged_order_cell_stays_open_to_the_player(tmp_path: Path) -> None:
    """xlsx: the cells a merge had hidden come back with the merge's first cell's style, so the player can
    type into them again (the sheet is protected; a cell without a style would be locked)."""
    books = XlsxBooks(tmp_path / "game", "jade_rose")
    books.type_rows("empire", "Армии", [["Первая", "Центр", "Авангард", "Копейщик", 1]] * 3)
    books.merge("empire", "Армии", "A3:F4")          # the status cells too: `check` writes them
    stage.check(books.gd, be=books.be)
    wb = openpyxl.load_workbook(books.gd.path / books.gd.config.books["empire"])
    ws = wb["Армии"]
    assert not ws.merged_cells.ranges
    assert all(ws.cell(row=4, column=c).protection.locked is False for c in range(1, 6))
    assert ws.cell(row=4, column=6).protection.locked is True     # the status column stays the GM's


# -- the fake's merges ---------------------------------------------------------------------------------------

def test_the_fake_merges_and_unmerges_as_google_documents_it(tmp_path: Path) -> None:
    """mergeCells keeps the top left value only and shows in the Sheet resource's `merges`; MERGE_ROWS makes
    one merge per row; unmergeCells undoes every merge inside its range and refuses a range holding part of
    one; rows inserted inside a merge grow it. Every request goes through the discovery check."""
    fake = FakeGoogle()
    fake.add_user(GM)
    book_id = fake.create_spreadsheet(GM, "merges")
    gc = fake_client(fake, GM).open_by_key(book_id)
    ws = gc.sheet1
    ws.update([["a", "b", "c"], ["d", "e", "f"], ["g", "h", "i"]], "A1")
    ws.merge_cells("A1:B2")
    ws.merge_cells("A3:C3", merge_type="MERGE_ROWS")
    assert ws.get_values("A1:C3") == [["a", "", "c"], ["", "", "f"], ["g", "", ""]]
    meta = gc.fetch_sheet_metadata()
    assert meta["sheets"][0]["merges"] == [
        {"startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2},
        {"startRowIndex": 2, "endRowIndex": 3, "startColumnIndex": 0, "endColumnIndex": 3}]
    with pytest.raises(APIError, match=PARTLY_MESSAGE):
        ws.unmerge_cells("A1:A2")
    ws.insert_rows([["x"]], row=2)
    assert fake.spreadsheet(book_id).sheets[0].merges[0]["endRowIndex"] == 3
    ws.unmerge_cells("A1:Z10")
    assert "merges" not in gc.fetch_sheet_metadata()["sheets"][0]
    assert all(not s.problems for s in fake.sent if ":batchUpdate" in s.url)


@pytest.mark.parametrize("backend", ["xlsx", "gsheets"])
def test_rows_merged_when_the_tabs_were_closed_are_not_carried_out(backend: str, tmp_path: Path) -> None:
    """`forumwar lock` keeps the rows as read, merges included (the xlsx lock rewrites the tabs, unmerged):
    the turn refuses the same rows and carries out the valid one."""
    books = make_books(backend, tmp_path / "game", "jade_rose")
    plan = jade_rose_plan(books.gd.latest_state())
    books.type_rows(plan.key, plan.tab, plan.rows)
    books.merge(plan.key, plan.tab, plan.merge)
    assert tab_lock.lock(books.gd, be=books.be, force=True).done
    stage.run_turn(books.gd, be=books.be)
    saved = json.loads((books.gd.archive_path(1) / "statuses-orders.json").read_text(encoding="utf-8"))
    final = {(s["tab"], s["row"]): s["text"] for s in saved[plan.key]}
    assert all(MERGED in final[(plan.tab_key, row)] for row in plan.merged_rows), final
    assert final[(plan.tab_key, plan.good_row)].startswith("OK"), final
    state = books.gd.latest_state()
    assert plan.done(state) and plan.skipped(state)
    assert books.merges(plan.key, plan.tab) == []


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_without_the_merge_the_same_rows_are_carried_out(ruleset: str, tmp_path: Path) -> None:
    """Guard: the merged rows are orders the turn would carry out (else their being left undone proves nothing)."""
    books = XlsxBooks(tmp_path / "game", ruleset)
    plan = PLANS[ruleset](books.gd.latest_state())
    books.type_rows(plan.key, plan.tab, plan.rows)
    report = stage.check(books.gd, be=books.be)
    assert all(s["text"].startswith("OK") for s in report.outcomes[plan.key]), report.outcomes[plan.key]
    stage.run_turn(books.gd, be=books.be)
    state = books.gd.latest_state()
    assert plan.done(state) and not plan.skipped(state)
