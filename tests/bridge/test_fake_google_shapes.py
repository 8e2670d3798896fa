"""The fake answers in the shapes Google really uses.

Expected bodies below are taken from the recorded real responses in gspread's own test
cassettes (burnash/gspread, tests/cassettes/*.json): same requests, same answers.
"""
from __future__ import annotations

import io
import json

import gspread
import openpyxl
import pytest
import requests

from tests.fake_google import FakeGoogle, fake_client, fake_session

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
SHEETS = "https://sheets.googleapis.com/v4/spreadsheets"
DRIVE = "https://www.googleapis.com/drive/v3/files"


@pytest.fixture
def fake() -> FakeGoogle:
    fake = FakeGoogle()
    fake.add_user(GM)
    fake.add_service_account(BOT)
    return fake


@pytest.fixture
def book(fake: FakeGoogle) -> gspread.Spreadsheet:
    key = fake.create_spreadsheet(GM, "Test", {BOT: "writer"})
    return fake_client(fake, GM).open_by_key(key)


def test_whole_sheet_read_trims_trailing_blanks_like_cassette_get_all_values(book):
    """WorksheetTest.test_get_all_values: a 4x4 grid written RAW, then GET values/'Sheet1'."""
    ws = book.sheet1
    ws.resize(4, 4)
    update = book.values_update("'Sheet1'!A1:D4", params={"valueInputOption": "RAW"}, body={
        "values": [["A1", "B1", "", "D1"], ["", "b2", "", ""], ["", "", "", ""], ["A4", "B4", "", "D4"]]})
    assert update == {"spreadsheetId": book.id, "updatedRange": "Sheet1!A1:D4", "updatedRows": 4,
                      "updatedColumns": 4, "updatedCells": 16}
    assert book.values_get("'Sheet1'") == {
        "range": "Sheet1!A1:D4", "majorDimension": "ROWS",
        "values": [["A1", "B1", "", "D1"], ["", "b2"], [], ["A4", "B4", "", "D4"]]}
    assert book.values_get("'Sheet1'!A1:D1") != {"range": "Sheet1!A1:D1", "majorDimension": "ROWS"}


def test_empty_range_has_no_values_key_like_cassette(book):
    """WorksheetTest.test_get_all_values: an empty range answers only range and majorDimension."""
    assert book.values_get("'Sheet1'!A1:D1") == {"range": "Sheet1!A1:D1", "majorDimension": "ROWS"}


def test_batch_get_clips_open_columns_to_grid_and_quotes_emoji_title_like_cassette(book):
    """SpreadsheetTest.test_values_batch_get: ranges "🌵 …!A:A" on a 10x10 sheet echo A1:A10, quoted."""
    title = "🌵 test_values_batch_get 1"
    book.add_worksheet(title, 10, 10)
    book.values_update(f"{title}!A1", params={"valueInputOption": "RAW"},
                       body={"values": [["🍇", "🍉", "🍋"], ["🍐", "🍎", "🍓"]]})
    answer = book.values_batch_get([f"{title}!A:A", f"{title}!B:B"])
    assert answer == {"spreadsheetId": book.id, "valueRanges": [
        {"range": f"'{title}'!A1:A10", "majorDimension": "ROWS", "values": [["🍇"], ["🍐"]]},
        {"range": f"'{title}'!B1:B10", "majorDimension": "ROWS", "values": [["🍉"], ["🍎"]]}]}


@pytest.mark.parametrize("title, echoed", [
    ("Sheet2", "Sheet2!A1"),            # plain identifier: bare
    ("D3", "'D3'!A1"),                  # looks like a cell (cassette test_get_all_values_title_is_a1_notation)
    ("Армии", "'Армии'!A1"),            # Cyrillic: quoted
    ("Приказы армиям", "'Приказы армиям'!A1"),
    ("It's", "'It''s'!A1"),             # a quote is doubled
])
def test_titles_are_quoted_in_echoed_ranges_as_google_does(book, title, echoed):
    book.add_worksheet(title, 5, 5)
    answer = book.values_update(f"'{title.replace(chr(39), chr(39) * 2)}'!A1", params={"valueInputOption": "RAW"},
                                body={"values": [["x"]]})
    assert answer["updatedRange"] == echoed
    assert book.values_get(f"'{title.replace(chr(39), chr(39) * 2)}'!A1")["values"] == [["x"]]


def test_user_entered_formula_is_evaluated_like_cassette_numeric_value(book):
    """CellTest.test_numeric_value: "= 1 / 1024" entered USER_ENTERED reads back as 0.0009765625."""
    book.values_update("'Sheet1'!A1", params={"valueInputOption": "USER_ENTERED"}, body={"values": [["= 1 / 1024"]]})
    formatted = book.values_get("'Sheet1'!A1", params={"valueRenderOption": "FORMATTED_VALUE"})
    assert formatted == {"range": "Sheet1!A1", "majorDimension": "ROWS", "values": [["0.0009765625"]]}
    formula = book.values_get("'Sheet1'!A1", params={"valueRenderOption": "FORMULA"})
    assert formula["values"] == [["= 1 / 1024"]]


def test_error_bodies_match_recorded_403_and_404(fake):
    """ClientTest.test_access_non_existing_spreadsheet / test_access_private_spreadsheet."""
    private = fake.create_spreadsheet(GM, "Private")
    session = fake_session(fake, BOT)
    missing = session.get(f"{SHEETS}/test", params={"includeGridData": "false"})
    assert missing.status_code == 404
    assert missing.json() == {"error": {"code": 404, "message": "Requested entity was not found.",
                                        "status": "NOT_FOUND"}}
    denied = session.get(f"{SHEETS}/{private}", params={"includeGridData": "false"})
    assert denied.status_code == 403
    assert denied.json() == {"error": {"code": 403, "message": "The caller does not have permission",
                                       "status": "PERMISSION_DENIED"}}
    assert denied.headers["Content-Type"] == "application/json; charset=UTF-8"


def test_unknown_tab_in_range_is_unable_to_parse(book):
    with pytest.raises(gspread.exceptions.APIError) as err:
        book.values_batch_get(["'Sheet1'", "'Нет такого'"])
    assert err.value.code == 400
    assert err.value.error == {"code": 400, "message": "Unable to parse range: 'Нет такого'",
                               "status": "INVALID_ARGUMENT"}


def test_batch_update_answers_one_reply_per_request_like_cassettes(book):
    """WorksheetTest.test_add_protected_range_normal / test_freeze: replies in order, {} when empty."""
    answer = book.batch_update({"requests": [
        {"updateSheetProperties": {"properties": {"sheetId": 0, "gridProperties": {"frozenRowCount": 2}},
                                   "fields": "gridProperties/frozenRowCount"}},
        {"addSheet": {"properties": {"title": "Новый", "gridProperties": {"rowCount": 10, "columnCount": 10}}}},
        {"addProtectedRange": {"protectedRange": {
            "range": {"startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2,
                      "sheetId": 0},
            "description": None, "warningOnly": False, "requestingUserCanEdit": False,
            "editors": {"users": [], "groups": []}}}},
    ]})
    assert answer["spreadsheetId"] == book.id
    frozen, added, protected = answer["replies"]
    assert frozen == {}
    props = added["addSheet"]["properties"]
    assert {k: props[k] for k in ("title", "index", "sheetType", "gridProperties")} == {
        "title": "Новый", "index": 1, "sheetType": "GRID", "gridProperties": {"rowCount": 10, "columnCount": 10}}
    assert isinstance(props["sheetId"], int) and props["sheetId"] > 0
    prot = protected["addProtectedRange"]["protectedRange"]
    assert isinstance(prot["protectedRangeId"], int)
    assert prot["range"] == {"startRowIndex": 0, "endRowIndex": 2, "startColumnIndex": 0, "endColumnIndex": 2}
    assert prot["requestingUserCanEdit"] is True
    meta = book.fetch_sheet_metadata()
    first = meta["sheets"][0]
    assert first["properties"] == {"sheetId": 0, "title": "Sheet1", "index": 0, "sheetType": "GRID",
                                   "gridProperties": {"rowCount": 1000, "columnCount": 26, "frozenRowCount": 2}}
    assert first["protectedRanges"][0]["editors"] == {"users": [GM]}   # the requester is kept as editor


def test_drive_create_and_get_answer_recorded_fields(fake):
    """ClientTest.test_create: POST drive/v3/files answers kind, id, name, mimeType only."""
    session = fake_session(fake, GM)
    created = session.post(DRIVE, params={"supportsAllDrives": True},
                           json={"name": "Test", "mimeType": "application/vnd.google-apps.spreadsheet"})
    body = created.json()
    assert set(body) == {"kind", "id", "name", "mimeType"}
    assert body["kind"] == "drive#file" and body["mimeType"] == "application/vnd.google-apps.spreadsheet"
    meta = session.get(f"{DRIVE}/{body['id']}", params={"supportsAllDrives": True, "includeItemsFromAllDrives": True,
                                                        "fields": "id,name,createdTime,modifiedTime"}).json()
    assert set(meta) == {"id", "name", "createdTime", "modifiedTime"}
    gone = session.get(f"{DRIVE}/nope")
    assert gone.status_code == 404
    assert gone.json()["error"]["errors"][0]["reason"] == "notFound"
    assert gone.json()["error"]["message"] == "File not found: nope."


def test_permissions_round_trip_through_gspread(fake, book):
    book.share("player@example.com", perm_type="user", role="writer", notify=False)
    perms = {p["emailAddress"]: p for p in book.list_permissions()}
    assert perms[GM]["role"] == "owner" and perms["player@example.com"]["role"] == "writer"
    assert perms[BOT]["kind"] == "drive#permission" and perms[BOT]["type"] == "user"
    assert fake.notifications == []
    book.remove_permissions("player@example.com")
    assert "player@example.com" not in {p["emailAddress"] for p in book.list_permissions()}


def test_export_csv_and_xlsx(book):
    """ClientTest.test_client_export_spreadsheet: text/csv of the first sheet is "a1,B2"."""
    book.values_update("'Sheet1'!A1", params={"valueInputOption": "RAW"}, body={"values": [["a1", "B2"]]})
    assert book.export(gspread.utils.ExportFormat.CSV) == b"a1,B2"
    book.values_update("'Sheet1'!A2", params={"valueInputOption": "RAW"}, body={"values": [["=1+1", 5]]})
    workbook = openpyxl.load_workbook(io.BytesIO(book.export(gspread.utils.ExportFormat.EXCEL)))
    ws = workbook["Sheet1"]
    assert [c.value for c in ws[2]] == ["=1+1", 5]
    assert ws["A2"].data_type == "s"            # a RAW string that looks like a formula stays text


def test_an_xlsx_export_is_kept_for_the_same_content_only(fake):
    """The fake keeps an export for a book of the same sheets, cells and dimensions (two books alike
    share it); a changed cell, a renamed tab or a resized column gives a new export of the new content."""
    first, twin = (fake_client(fake, GM).open_by_key(fake.create_spreadsheet(GM, "Test", {})) for _ in range(2))
    for book in (first, twin):
        book.values_update("'Sheet1'!A1", params={"valueInputOption": "RAW"}, body={"values": [["a1", 7]]})
    made = first.export(gspread.utils.ExportFormat.EXCEL)
    assert twin.export(gspread.utils.ExportFormat.EXCEL) == made

    def sheet(book: gspread.Spreadsheet) -> openpyxl.worksheet.worksheet.Worksheet:
        return openpyxl.load_workbook(io.BytesIO(book.export(gspread.utils.ExportFormat.EXCEL))).worksheets[0]

    twin.values_update("'Sheet1'!B1", params={"valueInputOption": "RAW"}, body={"values": [[8]]})
    assert [c.value for c in sheet(twin)[1]] == ["a1", 8]
    twin.sheet1.update_title("Итоги")
    assert sheet(twin).title == "Итоги"
    twin.batch_update({"requests": [{"updateDimensionProperties": {
        "range": {"sheetId": twin.sheet1.id, "dimension": "COLUMNS", "startIndex": 0, "endIndex": 1},
        "properties": {"pixelSize": 210}, "fields": "pixelSize"}}]})
    assert sheet(twin).column_dimensions["A"].width == 30
    assert [c.value for c in sheet(first)[1]] == ["a1", 7]


def test_unauthenticated_request_is_401(fake):
    answer = requests.Session()
    from tests.fake_google import mount
    mount(answer, fake)
    response = answer.get(f"{SHEETS}/whatever")
    assert response.status_code == 401
    assert response.json()["error"]["status"] == "UNAUTHENTICATED"


def test_gspread_high_level_calls_work_unmodified(book):
    """A tour of gspread's worksheet API against the fake: append, insert, format, freeze, clear."""
    ws = book.sheet1
    ws.append_row(["a", "b", "c"])
    ws.append_row(["d", "e", "f"])
    ws.insert_row(["x", "y", "z"], 1)
    assert ws.get_all_values()[:3] == [["x", "y", "z"], ["a", "b", "c"], ["d", "e", "f"]]
    ws.format("A1:C1", {"textFormat": {"bold": True}})
    ws.freeze(rows=1)
    ws.update_title("Renamed")
    assert book.worksheet("Renamed").frozen_row_count == 1
    ws.batch_clear(["A2:C2"])
    assert book.values_get("Renamed!A1:C3")["values"] == [["x", "y", "z"], [], ["d", "e", "f"]]
    ws.delete_rows(2)
    assert ws.get_all_values()[:2] == [["x", "y", "z"], ["d", "e", "f"]]
    assert json.loads(json.dumps(book.fetch_sheet_metadata()))["properties"]["title"] == "Test"


def test_typing_into_plain_text_cells_keeps_text(book):
    """A cell formatted as plain text (numberFormat TEXT) keeps what is typed: no number, no formula."""
    book.batch_update({"requests": [{"repeatCell": {
        "range": {"sheetId": 0, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 3},
        "cell": {"userEnteredFormat": {"numberFormat": {"type": "TEXT"}}},
        "fields": "userEnteredFormat.numberFormat"}}]})
    book.values_update("'Sheet1'!A1:D1", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["05", "=1+1", "TRUE", "07"]]})
    assert book.values_get("'Sheet1'!A1:D1", params={"valueRenderOption": "UNFORMATTED_VALUE"})["values"] == [
        ["05", "=1+1", "TRUE", 7]]
