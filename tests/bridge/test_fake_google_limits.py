"""A fake as strict as Google (issue 39 §3): each request Google refuses for one of its limits gets Google's
400 INVALID_ARGUMENT from the fake too (the limits and their sources: tests/fake_google/fake_limits.py), and the
bridge never sends such a request: a dropdown of more than 500 places becomes a ONE_OF_RANGE over the book's
hidden list tab, a text over 50,000 characters is cut with a note, a title over 100 characters is refused in
Russian before anything is sent."""
from __future__ import annotations

import pytest
from gspread.exceptions import APIError

from sheets_bridge.backends.base import BackendError, TabWrite
from sheets_bridge.backends.gsheets.sheets_requests import (
    CUT_NOTE,
    LIST_TAB,
    MAX_CELL_CHARS,
    BookMeta,
    plan_write,
)
from tests.fake_google import FakeGoogle, discovery, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "bot@limits.iam.gserviceaccount.com"
ALICE = "alice@example.com"
NOBODY = "nogoogle@example.org"           # an address without a Google account
PLACES = tuple(f"Провинция {i:03d}" for i in range(600))


@pytest.fixture
def fake() -> FakeGoogle:
    fake = FakeGoogle()
    fake.add_user(GM)
    fake.add_user(NOBODY, google_account=False)
    return fake


@pytest.fixture
def book(fake):
    return fake_client(fake, GM).open_by_key(fake.create_spreadsheet(GM, "Книга"))


def refusal(book, *requests) -> dict:
    """Google's answer to a batchUpdate the fake refuses, with the book left as it was."""
    before = book.fetch_sheet_metadata()
    with pytest.raises(APIError) as excinfo:
        book.batch_update({"requests": list(requests)})
    assert excinfo.value.response.status_code == 400
    assert book.fetch_sheet_metadata() == before          # atomic: nothing of the batch applied
    body = excinfo.value.response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "status"}
    assert body["error"]["code"] == 400 and body["error"]["status"] == "INVALID_ARGUMENT"
    return body["error"]


def cells(text: str, sheet_id: int = 0) -> dict:
    return {"updateCells": {"start": {"sheetId": sheet_id, "rowIndex": 0, "columnIndex": 0},
                            "rows": [{"values": [{"userEnteredValue": {"stringValue": text}}]}],
                            "fields": "userEnteredValue"}}


# -- the fake refuses each request past a limit, and takes the one at it -------------------------------

def test_a_sheet_title_of_101_characters_is_refused(book):
    error = refusal(book, {"addSheet": {"properties": {"title": "я" * 101}}})
    assert error["message"].startswith("Invalid requests[0].addSheet: ") and "100" in error["message"]
    error = refusal(book, {"updateSheetProperties": {"properties": {"sheetId": 0, "title": "я" * 101},
                                                     "fields": "title"}})
    assert error["message"].startswith("Invalid requests[0].updateSheetProperties: ")
    book.batch_update({"requests": [{"addSheet": {"properties": {"title": "я" * 100}}}]})


def test_a_book_of_10_5_million_cells_is_refused(book):
    """Sheet1 (1000 x 26) and a sheet of 10.5 M cells: past the book's 10 M."""
    error = refusal(book, {"addSheet": {"properties": {"title": "Большая", "gridProperties": {
        "rowCount": 525_000, "columnCount": 20}}}})
    assert error["message"] == ("Invalid requests[0].addSheet: This action would increase the number of cells "
                                "in the workbook above the limit of 10000000 cells.")
    error = refusal(book, {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {
        "rowCount": 404_000}}, "fields": "gridProperties.rowCount"}})           # 404,000 x 26 > 10 M
    assert "10000000 cells" in error["message"]
    book.batch_update({"requests": [{"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {
        "rowCount": 384_000}}, "fields": "gridProperties.rowCount"}}]})         # 9,984,000 cells


def test_20000_columns_are_refused(book):
    error = refusal(book, {"addSheet": {"properties": {"title": "Широкая", "gridProperties": {
        "rowCount": 10, "columnCount": 20_000}}}})
    assert error["message"].startswith("Invalid requests[0].addSheet: ") and "18278 columns" in error["message"]
    book.batch_update({"requests": [{"addSheet": {"properties": {"title": "Широкая", "gridProperties": {
        "rowCount": 10, "columnCount": 18_278}}}}]})


def test_a_cell_of_50001_characters_is_refused(book):
    error = refusal(book, cells("ы" * 50_001))
    assert error["message"] == ("Invalid requests[0].updateCells: Your input contains more than the maximum of "
                                "50000 characters in a single cell.")
    with pytest.raises(APIError) as excinfo:           # the values API refuses it as well
        book.values_update("Sheet1!A1", params={"valueInputOption": "RAW"}, body={"values": [["ы" * 50_001]]})
    assert excinfo.value.response.json()["error"]["message"] == (
        "Your input contains more than the maximum of 50000 characters in a single cell.")
    book.batch_update({"requests": [cells("ы" * 50_000)]})


def test_update_cells_with_both_start_and_range_is_refused(book):
    both = cells("текст")
    both["updateCells"]["range"] = {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1}
    error = refusal(book, cells("первый"), both)
    assert error["message"] == ("Invalid value at 'requests[1].update_cells' (oneof), oneof field 'area' is "
                                "already set. Cannot set 'range'")


def test_an_inverted_grid_range_is_refused(book):
    error = refusal(book, {"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 5, "endRowIndex": 3},
                                          "cell": {"note": "x"}, "fields": "note"}})
    assert error["message"].startswith("Invalid requests[0].repeatCell: ") and "startRowIndex (5)" in error["message"]
    refusal(book, {"addProtectedRange": {"protectedRange": {"range": {
        "sheetId": 0, "startColumnIndex": 4, "endColumnIndex": 2}, "editors": {"users": [GM]}}}})
    book.batch_update({"requests": [{"repeatCell": {"range": {"sheetId": 0, "startRowIndex": 3, "endRowIndex": 3},
                                                    "cell": {"note": "x"}, "fields": "note"}}]})   # empty is fine


def test_one_of_list_with_501_values_is_refused(book):
    def rule(n: int) -> dict:
        return {"setDataValidation": {"range": {"sheetId": 0, "startRowIndex": 1, "endRowIndex": 5}, "rule": {
            "condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": p} for p in PLACES[:n]]}}}}
    error = refusal(book, rule(501))
    assert error["message"].startswith("Invalid requests[0].setDataValidation: ") and "500" in error["message"]
    book.batch_update({"requests": [rule(500)]})


def test_protection_editors_without_a_google_account_are_refused(book):
    def protect(editors: list[str], pid: int) -> dict:
        return {"addProtectedRange": {"protectedRange": {"protectedRangeId": pid, "range": {"sheetId": 0},
                                                         "editors": {"users": editors}}}}
    error = refusal(book, protect([GM, NOBODY], 7))
    assert error["message"].startswith("Invalid requests[0].addProtectedRange: ") and NOBODY in error["message"]
    book.batch_update({"requests": [protect([GM], 7)]})
    error = refusal(book, {"updateProtectedRange": {"protectedRange": {
        "protectedRangeId": 7, "editors": {"users": [NOBODY]}}, "fields": "editors"}})
    assert error["message"].startswith("Invalid requests[0].updateProtectedRange: ")


# -- the discovery check knows the oneofs -------------------------------------------------------------

def test_discovery_check_learns_the_oneofs():
    if not discovery.available():
        pytest.skip("the discovery documents are not in the repository")
    sheets = next(api for api in discovery.apis() if api.name == "sheets")
    assert ("area", ("start", "range")) in sheets.oneofs["UpdateCellsRequest"]
    # learnt from the descriptions ("When writing, only one of range or named_range_id or table_id may be set")
    assert ("namedRangeId", "range", "tableId") in [fields for _, fields in sheets.oneofs["ProtectedRange"]]
    for schema, unions in discovery.UNION_FIELDS.items():       # the table names fields the documents have
        fields = sheets.schemas[schema]["properties"]
        assert all(f in fields for _, group in unions for f in group if f != "*"), schema
    url = "https://sheets.googleapis.com/v4/spreadsheets/abc:batchUpdate"
    both = cells("x")
    both["updateCells"]["range"] = {"sheetId": 0}
    assert discovery.check("POST", url, {"requests": [both]}) == [
        "sheets.spreadsheets.batchUpdate: body.requests[0].updateCells: Invalid value at "
        "'requests[0].update_cells' (oneof), oneof field 'area' is already set. Cannot set 'range'"]
    assert discovery.check("POST", url, {"requests": [cells("x")]}) == []
    two_kinds = {**cells("x"), "addSheet": {"properties": {"title": "B"}}}
    assert "oneof field 'kind' is already set" in discovery.check("POST", url, {"requests": [two_kinds]})[0]


# -- the bridge stays inside every limit ------------------------------------------------------------

def orders(title: str = "Приказы армий", places: tuple[str, ...] = PLACES, rows=()) -> TabWrite:
    return TabWrite(title=title, header=("Армия", "Куда", "Статус"), rows=rows, kind="orders",
                    dropdowns={1: places}, order_rows=20, status_column=2, locked_columns=(2,),
                    editors=(ALICE,))


@pytest.fixture
def backend(fake):
    key = gm_created_books(fake, GM, BOT, {"empire": [ALICE]})["empire"]
    return fake_backend(fake, BOT, gm_emails=[GM]), key


def validation(fake, key, title, row, col) -> dict:
    sheet = fake.spreadsheet(key).sheet_by_title(title)
    return sheet.cells[(row, col)]["dataValidation"]


def test_a_dropdown_of_600_places_is_a_range_on_the_hidden_list_tab(fake, backend):
    be, key = backend
    be.write_book(key, [orders()])
    rule = validation(fake, key, "Приказы армий", 1, 1)
    assert rule["condition"] == {"type": "ONE_OF_RANGE",
                                 "values": [{"userEnteredValue": f"='{LIST_TAB}'!$A$1:$A$600"}]}
    assert rule["strict"] is True
    lists = fake.spreadsheet(key).sheet_by_title(LIST_TAB)
    assert lists.properties["hidden"] is True
    assert [lists.cells[(r, 0)]["userEnteredValue"]["stringValue"] for r in range(600)] == list(PLACES)
    assert be.tab_titles(key) == ["Приказы армий", "Sheet1"]      # the helper tab is left out
    assert be.check_tabs(key, ["Приказы армий"]) == []
    # protected for staff alone: Alice, an editor of the book, cannot change a place
    alice = fake_client(fake, ALICE).open_by_key(key)
    with pytest.raises(APIError):
        alice.values_update(f"'{LIST_TAB}'!A1", params={"valueInputOption": "RAW"}, body={"values": [["x"]]})
    # the list is checked as a list: a short one stays ONE_OF_LIST
    be.write_book(key, [orders("Приказы флотов", PLACES[:500])])
    assert validation(fake, key, "Приказы флотов", 1, 1)["condition"]["type"] == "ONE_OF_LIST"


def test_each_long_dropdown_keeps_its_own_column_across_writes(fake, backend):
    be, key = backend
    be.write_book(key, [orders("Приказы армий"), orders("Приказы флотов", PLACES[::-1] + ("Море",))])
    fleets = validation(fake, key, "Приказы флотов", 1, 1)["condition"]["values"][0]["userEnteredValue"]
    assert fleets == f"='{LIST_TAB}'!$B$1:$B$601"
    shorter = PLACES[:550]
    be.write_book(key, [orders("Приказы армий", shorter)])           # one tab only: its column is rewritten
    lists = fake.spreadsheet(key).sheet_by_title(LIST_TAB)
    assert validation(fake, key, "Приказы армий", 1, 1)["condition"]["values"][0]["userEnteredValue"] == (
        f"='{LIST_TAB}'!$A$1:$A$550")
    assert [lists.cells[(r, 0)]["userEnteredValue"]["stringValue"] for r in range(550)] == list(shorter)
    assert (550, 0) not in lists.cells                                # the old tail is cleared
    assert lists.cells[(600, 1)]["userEnteredValue"]["stringValue"] == "Море"   # the other list untouched
    assert validation(fake, key, "Приказы флотов", 1, 1)["condition"]["values"][0]["userEnteredValue"] == fleets


def test_the_bridge_never_sends_a_list_over_500_nor_both_start_and_range():
    tabs = [orders(rows=(("A", PLACES[0], ""),)), TabWrite(title="Сводка", header=("Итог",), rows=(("x",),)),
            TabWrite(title="Приказы армий", column_updates={2: {2: "OK"}}, kind="orders", order_rows=20,
                     header=None, status_column=2, locked_columns=(2,))]
    meta = BookMeta("Книга", {})
    for request in plan_write(meta, tabs, [BOT, GM], formulas={"Сводка": {(3, 0): "=1+1"}}):
        (kind, body), = request.items()
        if kind == "updateCells":
            assert not ("start" in body and "range" in body)
        if kind == "setDataValidation" and body.get("rule"):
            assert len(body["rule"]["condition"].get("values", [])) <= 500


def test_a_text_over_50000_characters_is_cut_with_a_note(fake, backend):
    be, key = backend
    report = "бой " * 20_000                                          # 80,000 characters
    be.write_book(key, [TabWrite(title="Отчёт", header=("Отчёт",), rows=((report,),))])
    text = fake.spreadsheet(key).sheet_by_title("Отчёт").cells[(1, 0)]["userEnteredValue"]["stringValue"]
    assert len(text) == MAX_CELL_CHARS and text.endswith(CUT_NOTE) and text.startswith("бой бой")
    assert "не больше 50 000 знаков" in CUT_NOTE


def test_a_title_over_100_characters_is_refused_before_anything_is_sent(fake, backend):
    be, key = backend
    with pytest.raises(BackendError) as excinfo:
        be.write_book(key, [TabWrite(title="Д" * 101, header=("x",), rows=())])
    assert "длиннее 100 знаков" in str(excinfo.value)
    assert fake.count("spreadsheets.batchUpdate") == 0               # no write was sent
    with pytest.raises(BackendError):
        be.write_book(key, [TabWrite(title=LIST_TAB, header=("x",), rows=())])


def test_protections_never_name_an_address_without_a_google_account(fake, backend):
    """The share leaves such an editor out (issue 8), so the write's protections never name them."""
    be, key = backend
    assert any(NOBODY in w for w in be.share(key, readers=[], writers=[ALICE, NOBODY]))
    tab = orders(places=PLACES[:3])
    be.write_book(key, [TabWrite(**{**tab.__dict__, "editors": (ALICE, NOBODY)})])
    prots = [p for s in fake.spreadsheet(key).sheets for p in s.protected]
    assert prots and all(NOBODY not in (p.get("editors") or {}).get("users", []) for p in prots)
