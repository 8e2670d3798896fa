"""The fake enforces what Google enforces: file roles, protected ranges per caller, atomic batches."""
from __future__ import annotations

import copy

import pytest
from gspread.exceptions import APIError

from tests.fake_google import PROTECTED_MESSAGE, FakeGoogle, fake_client

GM = "gm@example.com"
ALICE = "alice@example.com"      # player of the book's faction
BOB = "bob@example.com"          # player of another faction
VIEWER = "viewer@example.com"


@pytest.fixture
def fake() -> FakeGoogle:
    fake = FakeGoogle()
    for email in (GM, ALICE, BOB, VIEWER):
        fake.add_user(email)
    return fake


@pytest.fixture
def book_id(fake: FakeGoogle) -> str:
    """Sheet1 protected except A2:C (open to Alice); 'Сводка' fully protected (GM only)."""
    key = fake.create_spreadsheet(GM, "Империя", {ALICE: "writer", VIEWER: "reader"})
    gm = fake_client(fake, GM).open_by_key(key)
    summary = gm.add_worksheet("Сводка", 20, 5)
    gm.batch_update({"requests": [
        {"addProtectedRange": {"protectedRange": {
            "protectedRangeId": 11, "range": {"sheetId": 0}, "editors": {"users": [GM]},
            "unprotectedRanges": [{"sheetId": 0, "startRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 3}]}}},
        {"addProtectedRange": {"protectedRange": {
            "protectedRangeId": 12, "range": {"sheetId": 0, "startRowIndex": 1, "startColumnIndex": 0,
                                              "endColumnIndex": 3},
            "editors": {"users": [GM, ALICE]}}}},
        {"addProtectedRange": {"protectedRange": {
            "protectedRangeId": 13, "range": {"sheetId": summary.id}, "editors": {"users": [GM]}}}},
    ]})
    return key


def _protected_error(excinfo) -> None:
    assert excinfo.value.code == 400
    assert excinfo.value.error["message"].endswith(PROTECTED_MESSAGE)
    assert excinfo.value.error["status"] == "INVALID_ARGUMENT"


def test_player_edits_open_order_cells(fake, book_id):
    book = fake_client(fake, ALICE).open_by_key(book_id)
    book.values_update("'Sheet1'!A2:C3", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["1-я армия", "Мечники", "5"], ["2-я армия", "Лучники", "3"]]})
    assert book.values_get("'Sheet1'!A2:C3")["values"] == [["1-я армия", "Мечники", "5"],
                                                           ["2-я армия", "Лучники", "3"]]


@pytest.mark.parametrize("target, values", [
    ("'Sheet1'!D2", [["OK"]]),              # the status column
    ("'Sheet1'!A1", [["Армия"]]),           # the header
    ("'Sheet1'!C2:D2", [["5", "OK"]]),      # half open, half protected: refused whole
    ("'Сводка'!A1", [["Золото: 9999"]]),    # a status tab
])
def test_player_edit_of_protected_cell_gets_googles_400(fake, book_id, target, values):
    book = fake_client(fake, ALICE).open_by_key(book_id)
    with pytest.raises(APIError) as excinfo:
        book.values_update(target, params={"valueInputOption": "RAW"}, body={"values": values})
    _protected_error(excinfo)
    assert book.values_get(target).get("values") is None     # nothing was written


def test_player_cannot_change_status_cells_through_batch_update_either(fake, book_id):
    book = fake_client(fake, ALICE).open_by_key(book_id)
    summary_id = book.worksheet("Сводка").id
    for request in ({"updateCells": {"start": {"sheetId": summary_id}, "fields": "userEnteredValue",
                                     "rows": [{"values": [{"userEnteredValue": {"stringValue": "x"}}]}]}},
                    {"deleteProtectedRange": {"protectedRangeId": 13}},
                    {"updateSheetProperties": {"properties": {"sheetId": summary_id, "title": "Моя"},
                                               "fields": "title"}},
                    {"deleteSheet": {"sheetId": summary_id}}):
        with pytest.raises(APIError) as excinfo:
            book.batch_update({"requests": [request]})
        _protected_error(excinfo)
    assert [ws.title for ws in fake_client(fake, GM).open_by_key(book_id).worksheets()] == ["Sheet1", "Сводка"]


def test_other_factions_player_cannot_open_or_edit_the_book(fake, book_id):
    client = fake_client(fake, BOB)
    with pytest.raises(PermissionError):
        client.open_by_key(book_id)
    with pytest.raises(APIError) as excinfo:
        client.http_client.values_update(book_id, "'Sheet1'!A2", params={"valueInputOption": "RAW"},
                                         body={"values": [["x"]]})
    assert excinfo.value.code == 403


def test_viewer_reads_but_cannot_write(fake, book_id):
    book = fake_client(fake, VIEWER).open_by_key(book_id)
    assert book.values_get("'Sheet1'!A1")["range"] == "Sheet1!A1"
    with pytest.raises(APIError) as excinfo:
        book.values_update("'Sheet1'!A2", params={"valueInputOption": "RAW"}, body={"values": [["x"]]})
    assert excinfo.value.code == 403


def test_gm_and_owner_edit_everything(fake, book_id):
    book = fake_client(fake, GM).open_by_key(book_id)
    book.values_update("'Сводка'!A1", params={"valueInputOption": "RAW"}, body={"values": [["Золото"]]})
    book.values_update("'Sheet1'!D2", params={"valueInputOption": "RAW"}, body={"values": [["OK"]]})
    assert book.values_get("'Сводка'!A1")["values"] == [["Золото"]]


def test_editors_are_hidden_from_callers_who_cannot_edit_the_range(fake, book_id):
    meta = fake_client(fake, ALICE).open_by_key(book_id).fetch_sheet_metadata()
    by_id = {p["protectedRangeId"]: p for s in meta["sheets"] for p in s.get("protectedRanges", [])}
    assert "editors" not in by_id[13] and "requestingUserCanEdit" not in by_id[13]
    assert by_id[12]["requestingUserCanEdit"] is True and ALICE in by_id[12]["editors"]["users"]


def test_batch_update_is_atomic(fake, book_id):
    """A batch whose third request fails changes nothing, not even the first two."""
    book = fake_client(fake, GM).open_by_key(book_id)
    before = copy.deepcopy(fake.spreadsheet(book_id).resource(GM))
    with pytest.raises(APIError) as excinfo:
        book.batch_update({"requests": [
            {"addSheet": {"properties": {"title": "Новый"}}},
            {"updateCells": {"start": {"sheetId": 0}, "fields": "userEnteredValue",
                             "rows": [{"values": [{"userEnteredValue": {"stringValue": "x"}}]}]}},
            {"deleteSheet": {"sheetId": 424242}},
        ]})
    assert excinfo.value.error["message"] == "Invalid requests[2].deleteSheet: No grid with id: 424242"
    assert fake.spreadsheet(book_id).resource(GM) == before


def test_string_value_that_looks_like_a_formula_stays_text(fake, book_id):
    book = fake_client(fake, GM).open_by_key(book_id)
    book.batch_update({"requests": [{"updateCells": {
        "start": {"sheetId": 0, "rowIndex": 1}, "fields": "userEnteredValue",
        "rows": [{"values": [{"userEnteredValue": {"stringValue": "=1+1"}},
                             {"userEnteredValue": {"formulaValue": "=1+1"}}]}]}}]})
    formatted = book.values_get("'Sheet1'!A2:B2", params={"valueRenderOption": "FORMATTED_VALUE"})
    assert formatted["values"] == [["=1+1", "2"]]
    raw = book.values_get("'Sheet1'!A2:B2", params={"valueRenderOption": "FORMULA"})
    assert raw["values"] == [["=1+1", "=1+1"]]


def test_unprotected_hole_is_only_open_where_declared(fake, book_id):
    """Row 2 column D (status) is outside the hole A2:C; column C is inside it."""
    book = fake_client(fake, ALICE).open_by_key(book_id)
    book.values_update("'Sheet1'!C500", params={"valueInputOption": "RAW"}, body={"values": [["ok"]]})
    with pytest.raises(APIError):
        book.values_update("'Sheet1'!D500", params={"valueInputOption": "RAW"}, body={"values": [["no"]]})
