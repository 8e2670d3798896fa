"""GSheetsBackend against the fake: TabWrite semantics, request counts, repeat-safety, protections.

One module for the one class: each test writes and reads through the same fake-backed backend fixtures."""
from __future__ import annotations

import copy

import openpyxl
import pytest
from gspread.exceptions import APIError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheets_bridge.backends.base import TabWrite
from tests.fake_google import FakeGoogle, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "bot@forumwar-test.iam.gserviceaccount.com"
ALICE, AMIR = "alice@example.com", "amir@example.com"        # players of the Empire
BORIS = "boris@example.com"                                  # player of the Dwarves
HEADER = ("Армия", "Фланг", "Линия", "Юнит", "Количество", "Статус")


def army_orders(*, statuses: dict[int, str] | None = None, locked: bool = False, editors=(ALICE, AMIR),
                dropdowns: dict | None = None, order_rows: int = 200) -> TabWrite:
    return TabWrite("Армии", header=HEADER, kind="orders", order_rows=order_rows, locked=locked, editors=editors,
                    column_updates={5: statuses} if statuses else None, locked_columns=(5,),
                    dropdowns=dropdowns if dropdowns is not None else {
                        1: ("Левый", "Центр", "Правый"), 2: ("Авангард", "Арьергард"), 3: ("Мечники", "Лучники")},
                    column_widths={0: 16, 5: 40})


def summary(gold: int = 100, notes: tuple[str, ...] = ()) -> TabWrite:
    rows = (("Золото", gold), ("Эпоха", "Первая"), *(("Заметка", n) for n in notes))
    return TabWrite("Сводка", header=("Показатель", "Значение"), rows=rows)


@pytest.fixture
def fake() -> FakeGoogle:
    return FakeGoogle()


@pytest.fixture
def books(fake) -> dict[str, str]:
    return gm_created_books(fake, GM, BOT, {"empire": [ALICE, AMIR], "dwarves": [BORIS], "public": [], "gm": []})


@pytest.fixture
def backend(fake, books):
    return fake_backend(fake, BOT, gm_emails=[GM])


def fill_orders(fake, book_id: str, who: str, rows: list[list[str]], first_row: int = 2) -> None:
    book = fake_client(fake, who).open_by_key(book_id)
    book.values_update(f"'Армии'!A{first_row}", params={"valueInputOption": "USER_ENTERED"}, body={"values": rows})


def stored_values(fake, book_id: str, title: str) -> dict[tuple[int, int], dict]:
    sheet = fake.spreadsheet(book_id).sheet_by_title(title)
    return {k: c["userEnteredValue"] for k, c in sheet.cells.items() if c.get("userEnteredValue")}


def test_write_then_read_round_trip(backend, books):
    backend.write_book(books["empire"], [summary(), army_orders()])
    tabs = backend.read_tabs(books["empire"], ["Сводка", "Армии", "Манёвры"])
    assert tabs == {"Сводка": [["Показатель", "Значение"], ["Золото", "100"], ["Эпоха", "Первая"]],
                    "Армии": [list(HEADER)]}


def test_rows_replace_the_tab_and_clear_the_rest(backend, books):
    backend.write_book(books["empire"], [summary(notes=("a", "b", "c", "d"))])
    backend.write_book(books["empire"], [summary(gold=7)])
    assert backend.read_tabs(books["empire"], ["Сводка"])["Сводка"] == [
        ["Показатель", "Значение"], ["Золото", "7"], ["Эпоха", "Первая"]]


def test_column_updates_set_statuses_and_leave_players_cells_alone(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    fill_orders(fake, empire, ALICE, [["1-я", "Левый", "Авангард", "Мечники", "5"],
                                      ["1-я", "Центр", "Авангард", "Лучники", "пять"]])
    backend.write_book(empire, [army_orders(statuses={2: "OK", 3: "В поле «Количество» должно быть целое число"})])
    assert backend.read_tabs(empire, ["Армии"])["Армии"] == [
        list(HEADER),
        ["1-я", "Левый", "Авангард", "Мечники", "5", "OK"],
        ["1-я", "Центр", "Авангард", "Лучники", "пять", "В поле «Количество» должно быть целое число"]]


def test_what_players_type_in_order_cells_is_read_as_typed(fake, backend, books):
    """Open order cells are plain text, as in the xlsx books: a formula stays its text for the
    validator to refuse, and "05" keeps its zero."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    fill_orders(fake, empire, ALICE, [["1-я", "Левый", "Авангард", "Мечники", "=2+3"], ["05", "", "", "", "7"]])
    assert backend.read_tabs(empire, ["Армии"])["Армии"][1:] == [["1-я", "Левый", "Авангард", "Мечники", "=2+3"],
                                                                ["05", "", "", "", "7"]]
    assert stored_values(fake, empire, "Армии")[(1, 4)] == {"stringValue": "=2+3"}


FORMULA_LOOKING = ("=IMPORTRANGE(\"x\",\"A1\")", "+7", "-3", "@SUM(A1)", "=1+1", "'=quoted", "=HYPERLINK(\"h\")")


def test_player_supplied_strings_are_never_sent_as_formulas(fake, backend, books):
    """Every string goes out as stringValue: no request body carries a formulaValue."""
    empire = books["empire"]
    bodies: list[bytes] = []
    backend.http.session.hooks["response"].append(lambda r, *a, **k: bodies.append(r.request.body or b""))
    backend.write_book(empire, [TabWrite("Журнал", header=("Событие",), rows=tuple((s,) for s in FORMULA_LOOKING)),
                                army_orders(statuses={2: "=1+1"})])
    assert bodies and not any(b"formulaValue" in body for body in bodies)
    journal = stored_values(fake, empire, "Журнал")
    assert all(set(v) == {"stringValue"} for v in journal.values())
    assert backend.read_tabs(empire, ["Журнал"])["Журнал"][1:] == [[s] for s in FORMULA_LOOKING]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cells=st.lists(st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30),
                                st.integers(-10**12, 10**12)), min_size=1, max_size=6))
def test_any_value_round_trips_as_written(fake, backend, books, cells):
    """Invariant: what the backend writes is what it reads back, as text; nothing is evaluated."""
    backend.write_book(books["dwarves"], [TabWrite("Журнал", header=("A",) * len(cells), rows=(tuple(cells),))])
    read = backend.read_tabs(books["dwarves"], ["Журнал"])["Журнал"]
    assert read[1] == [str(c) for c in cells]


def _stage(backend, books, statuses: dict[int, str]) -> None:
    factions = ("empire", "dwarves")
    backend.read_books({books[f]: ["Армии", "Манёвры"] for f in factions})
    players = {"empire": (ALICE, AMIR), "dwarves": (BORIS,)}
    writes = {books[f]: [summary(gold=5), army_orders(statuses=statuses, editors=players[f])] for f in factions}
    writes[books["public"]] = [TabWrite("Карта", header=("Город", "Владелец"), rows=(("Рим", "Империя"),))]
    writes[books["gm"]] = [TabWrite("Проблемы", header=("Фракция", "Строка", "Ошибка"), rows=())]
    backend.write_books(writes)


@pytest.mark.parametrize("orders", [1, 150])
def test_one_read_and_one_write_per_book_per_stage_whatever_the_number_of_orders(fake, backend, books, orders):
    _stage(backend, books, {})
    for faction, who in (("empire", ALICE), ("dwarves", BORIS)):
        fill_orders(fake, books[faction], who, [["1-я", "Левый", "Авангард", "Мечники", str(i)] for i in range(orders)])
    fake.calls.clear()
    _stage(backend, books, {row: "OK" for row in range(2, orders + 2)})
    for faction in ("empire", "dwarves"):
        assert fake.count("values.batchGet", file_id=books[faction]) == 1
        assert fake.count("spreadsheets.batchUpdate", file_id=books[faction]) == 1
        assert fake.count(file_id=books[faction]) == 2
    for key in ("public", "gm"):
        assert fake.count("spreadsheets.batchUpdate", file_id=books[key]) == 1
        assert fake.count(file_id=books[key]) == 1
    assert backend.read_tabs(books["empire"], ["Армии"])["Армии"][orders] == \
        ["1-я", "Левый", "Авангард", "Мечники", str(orders - 1), "OK"]


def test_metadata_file_keeps_a_new_process_at_one_read_and_one_write(fake, books, tmp_path):
    path = tmp_path / "gsheets-meta.json"
    first = fake_backend(fake, BOT, gm_emails=[GM], metadata_path=path)
    first.write_book(books["empire"], [summary(), army_orders()])
    fake.calls.clear()
    second = fake_backend(fake, BOT, gm_emails=[GM], metadata_path=path)
    second.read_tabs(books["empire"], ["Армии"])
    second.write_book(books["empire"], [summary(gold=1), army_orders(statuses={2: "OK"})])
    assert [c.op for c in fake.calls] == ["values.batchGet", "spreadsheets.batchUpdate"]


def _snapshot(fake, book_id: str) -> dict:
    book = fake.spreadsheet(book_id)
    sheets = {s.title: (copy.deepcopy(s.properties), copy.deepcopy(s.cells), sorted(
        (p["protectedRangeId"], repr(p)) for p in s.protected), copy.deepcopy(s.dimensions)) for s in book.sheets}
    return sheets


def test_repeating_a_write_changes_nothing(fake, backend, books):
    tabs = [summary(), army_orders(statuses={2: "OK"})]
    backend.write_book(books["empire"], tabs)
    before = _snapshot(fake, books["empire"])
    backend.write_book(books["empire"], tabs)
    assert _snapshot(fake, books["empire"]) == before


def test_write_retried_after_a_lost_answer_duplicates_nothing(fake, backend, books):
    """The first batchUpdate is applied but its answer is lost; the retry must not add tabs,
    protections or validations twice, and the book ends as after one clean write."""
    tabs = [summary(), army_orders(statuses={2: "OK"})]
    backend.write_book(books["dwarves"], tabs)              # the reference: one clean write
    fake.inject("drop", op="spreadsheets.batchUpdate", file_id=books["empire"])
    backend.write_book(books["empire"], tabs)
    assert [(c.op, c.status) for c in fake.calls if c.file_id == books["empire"]] == [
        ("spreadsheets.get", 200), ("spreadsheets.batchUpdate", 200),   # applied, answer lost
        ("spreadsheets.batchUpdate", 400),                              # same body again: sheets exist
        ("spreadsheets.get", 200), ("spreadsheets.batchUpdate", 200)]   # rebuilt from fresh metadata
    assert _snapshot(fake, books["empire"]) == _snapshot(fake, books["dwarves"])


def test_tab_renamed_by_hand_is_reported_and_recreated(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [summary(), army_orders()])
    gm = fake_client(fake, GM).open_by_key(empire)
    gm.worksheet("Армии").update_title("Армии (копия)")
    assert backend.read_tabs(empire, ["Армии"]) == {}
    warnings = backend.check_tabs(empire, ["Сводка", "Армии"])
    assert "нет вкладки «Армии»" in warnings[0] and "«Армии (копия)»" in warnings[1]
    backend.write_book(empire, [summary(), army_orders()])
    assert backend.read_tabs(empire, ["Армии"]) == {"Армии": [list(HEADER)]}


def test_protection_removed_by_hand_is_restored(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [summary()])
    gm = fake_client(fake, GM).open_by_key(empire)
    pid = fake.spreadsheet(empire).sheet_by_title("Сводка").protected[0]["protectedRangeId"]
    gm.batch_update({"requests": [{"deleteProtectedRange": {"protectedRangeId": pid}}]})
    backend.write_book(empire, [summary(gold=3)])
    assert [p["protectedRangeId"] for p in fake.spreadsheet(empire).sheet_by_title("Сводка").protected] == [pid]


def _edit(fake, who: str, book_id: str, cell: str, value: str = "x") -> None:
    fake_client(fake, who).http_client.values_update(book_id, cell, params={"valueInputOption": "RAW"},
                                                     body={"values": [[value]]})


def test_status_tabs_and_status_column_are_refused_to_players(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [summary(), army_orders()])
    _edit(fake, ALICE, empire, "'Армии'!A2", "1-я")
    for cell in ("'Армии'!F2", "'Армии'!A1", "'Сводка'!B2"):
        with pytest.raises(APIError) as excinfo:
            _edit(fake, ALICE, empire, cell)
        assert excinfo.value.code == 400 and "protected cell" in excinfo.value.error["message"]
    _edit(fake, GM, empire, "'Сводка'!B2", "1000")           # the GM may correct anything


def test_another_factions_player_cannot_touch_the_book(fake, backend, books):
    backend.write_book(books["empire"], [army_orders()])
    with pytest.raises(APIError) as excinfo:
        _edit(fake, BORIS, books["empire"], "'Армии'!A2")
    assert excinfo.value.code == 403


def test_open_cells_are_editable_only_by_the_tabs_players(fake, backend, books):
    """Someone with edit access to the book but not listed as a player cannot fill orders."""
    empire = books["empire"]
    fake.share(empire, "helper@example.com", "writer")
    backend.write_book(empire, [army_orders(editors=(ALICE,))])
    _edit(fake, ALICE, empire, "'Армии'!B2", "Левый")
    for who in ("helper@example.com", AMIR):
        with pytest.raises(APIError):
            _edit(fake, who, empire, "'Армии'!B2", "Правый")


def test_locked_order_tab_refuses_players_until_unlocked(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [army_orders(locked=True)])
    with pytest.raises(APIError):
        _edit(fake, ALICE, empire, "'Армии'!A2", "1-я")
    backend.write_book(empire, [army_orders(locked=False)])
    _edit(fake, ALICE, empire, "'Армии'!A2", "1-я")
    backend.write_book(empire, [army_orders(locked=True)])
    with pytest.raises(APIError):
        _edit(fake, AMIR, empire, "'Армии'!A3", "2-я")
    assert backend.read_tabs(empire, ["Армии"])["Армии"][1][0] == "1-я"


def test_values_only_update_leaves_layout_protection_and_dropdowns_alone(fake, backend, books):
    """A TabWrite without header and rows (the statuses written by `check`) only sets its cells."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    before = _snapshot(fake, empire)
    statuses_only = TabWrite("Армии", header=None, column_updates={5: {2: "OK", 3: "Ошибка"}}, kind="orders",
                             locked_columns=(5,))
    backend.write_book(empire, [statuses_only])
    properties, cells, protections, dimensions = _snapshot(fake, empire)["Армии"]
    assert (properties, protections, dimensions) == before["Армии"][:1] + before["Армии"][2:]
    assert cells[(1, 5)]["userEnteredValue"] == {"stringValue": "OK"}
    assert cells[(1, 3)]["dataValidation"]["condition"]["type"] == "ONE_OF_LIST"
    _edit(fake, AMIR, empire, "'Армии'!A2", "1-я")


def _validation(fake, book_id: str, title: str, row: int, col: int) -> dict | None:
    sheet = fake.spreadsheet(book_id).sheet_by_title(title)
    return sheet.cells.get((row - 1, col), {}).get("dataValidation")


def test_dropdowns_cover_the_order_rows_of_their_column(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [army_orders(order_rows=40)])
    rule = _validation(fake, empire, "Армии", 2, 3)
    assert rule == {"condition": {"type": "ONE_OF_LIST", "values": [{"userEnteredValue": "Мечники"},
                                                                    {"userEnteredValue": "Лучники"}]},
                    "strict": True, "showCustomUi": True}
    assert _validation(fake, empire, "Армии", 41, 3) == rule          # order_rows = 40, below the header
    assert _validation(fake, empire, "Армии", 42, 3) is None
    assert _validation(fake, empire, "Армии", 1, 3) is None           # never on the header
    assert _validation(fake, empire, "Армии", 2, 5) is None           # nor on the status column


def test_dropdowns_are_replaced_not_accumulated(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    backend.write_book(empire, [army_orders(dropdowns={1: ("Левый", "=IMPORTRANGE(1)", "+1")})])
    assert _validation(fake, empire, "Армии", 2, 3) is None
    rule = _validation(fake, empire, "Армии", 2, 1)
    assert rule["condition"]["values"] == [{"userEnteredValue": "Левый"}]
    assert rule["strict"] is False     # formula-looking items are left out, so typing them stays possible


def test_frozen_header_widths_and_header_format(fake, backend, books):
    backend.write_book(books["empire"], [army_orders()])
    sheet = fake.spreadsheet(books["empire"]).sheet_by_title("Армии")
    assert sheet.properties["gridProperties"]["frozenRowCount"] == 1
    assert sheet.dimensions[("COLUMNS", 0)] == {"pixelSize": 16 * 7 + 12}
    assert sheet.cells[(0, 0)]["userEnteredFormat"]["textFormat"] == {"bold": True}


def test_read_of_tabs_the_book_lacks_costs_nothing(fake, backend, books):
    backend.write_book(books["empire"], [summary()])
    fake.calls.clear()
    assert backend.read_tabs(books["empire"], ["Манёвры"]) == {}
    assert fake.calls == []


def test_export_xlsx_keeps_tabs_and_text(backend, books, tmp_path):
    backend.write_book(books["empire"], [summary(notes=("=1+1",)), army_orders()])
    dest = tmp_path / "archive" / "empire.xlsx"
    backend.export_xlsx(books["empire"], str(dest))
    workbook = openpyxl.load_workbook(dest)
    assert workbook.sheetnames == ["Сводка", "Армии", "Sheet1"]
    ws = workbook["Сводка"]
    assert [[c.value for c in row] for row in ws.iter_rows()] == [
        ["Показатель", "Значение"], ["Золото", 100], ["Эпоха", "Первая"], ["Заметка", "=1+1"]]
    assert ws["B4"].data_type == "s"


def test_lock_and_read_closes_the_tabs_and_reads_them_in_one_request(fake, backend, books):
    empire = books["empire"]
    backend.write_book(empire, [summary(), army_orders()])
    fill_orders(fake, empire, ALICE, [["1-я", "Левый", "Авангард", "Мечники", "5"], ["2-я", "", "", "", "=1+1"]])
    expected = backend.read_tabs(empire, ["Армии"])
    fake.calls.clear()
    assert backend.lock_and_read(empire, ["Армии", "Манёвры"]) == expected
    assert [c.op for c in fake.calls] == ["spreadsheets.batchUpdate"]
    with pytest.raises(APIError):
        _edit(fake, ALICE, empire, "'Армии'!A4", "поздний приказ")
    backend.write_book(empire, [army_orders(statuses={2: "OK"})])      # the push reopens the tab
    _edit(fake, ALICE, empire, "'Армии'!A4", "3-я")


def test_lock_then_push_leaves_the_protections_of_a_clean_push(fake, backend, books):
    backend.write_book(books["dwarves"], [army_orders()])
    backend.write_book(books["empire"], [army_orders()])
    backend.lock_and_read(books["empire"], ["Армии"])
    backend.write_book(books["empire"], [army_orders()])
    assert _snapshot(fake, books["empire"]) == _snapshot(fake, books["dwarves"])


def test_grid_growth_is_applied_once_when_a_lost_answer_is_retried(fake, backend, books):
    """Issue 8 item 7e: a write that grows a grid, whose answer is lost and which is sent again,
    leaves the grid as one write would (it was 2 902 rows instead of 1 501)."""
    book = books["empire"]
    backend.write_book(book, [summary()])
    grown = TabWrite("Сводка", header=("Показатель", "Значение"), rows=tuple(("Строка", n) for n in range(1500)))
    fake.inject("drop", op="spreadsheets.batchUpdate", file_id=book)
    backend.write_book(book, [grown])
    assert fake.count("spreadsheets.batchUpdate", file_id=book, status=200) == 3     # first, lost, resent
    sheet = fake.spreadsheet(book).sheet_by_title("Сводка")
    assert sheet.rows == 1501
    assert backend.read_tabs(book, ["Сводка"])["Сводка"][-1] == ["Строка", "1499"]


def test_grid_growth_is_an_absolute_size(fake, backend, books):
    backend.write_book(books["empire"], [summary()])
    fake.sent.clear()
    backend.write_book(books["empire"], [TabWrite("Сводка", header=("А",) * 30, rows=(("x",),) * 300)])
    body = next(s.body for s in fake.sent if s.url.endswith("batchUpdate") or ":batchUpdate?" in s.url)
    assert not any("appendDimension" in r for r in body["requests"])
    sizes = [r["updateSheetProperties"] for r in body["requests"] if "updateSheetProperties" in r]
    assert sizes[0]["properties"]["gridProperties"] == {"frozenRowCount": 1, "rowCount": 301, "columnCount": 30}


def test_cell_colours_use_background_color_style_not_the_deprecated_field(fake, backend, books):
    """Issue 8 item 7g: `backgroundColor` is deprecated in Sheets v4; `backgroundColorStyle` replaces it."""
    fake.sent.clear()
    backend.write_book(books["empire"], [army_orders()])
    sent = "".join(str(s.body) + s.url for s in fake.sent)
    assert "'backgroundColor'" not in sent and "backgroundColor%" not in sent and "backgroundColorStyle" in sent
    sheet = fake.spreadsheet(books["empire"]).sheet_by_title("Армии")
    assert sheet.cells[(0, 0)]["userEnteredFormat"]["backgroundColorStyle"] == {
        "rgbColor": {"red": 0.85, "green": 0.89, "blue": 0.95}}
    assert sheet.cells[(1, 5)]["userEnteredFormat"]["backgroundColorStyle"] == {
        "rgbColor": {"red": 0.94, "green": 0.94, "blue": 0.94}}


def _type_extra_formula(fake, book_id: str, cell: str = "'Армии'!J2", formula: str = "=2*3") -> None:
    """A formula typed into a column beyond the layout (not plain-text formatted; the GM may, and so
    could a player in a book from before the open cells were bounded)."""
    fake_client(fake, GM).open_by_key(book_id).values_update(
        cell, params={"valueInputOption": "USER_ENTERED"}, body={"values": [[formula]]})


def test_a_formula_seen_at_the_lock_is_written_back_as_its_text_in_the_same_single_write(fake, backend, books):
    """Issue 8 item 8: «A formula a player puts anywhere in an order tab (extra columns too) is never
    copied back into a book or the archive as a formula» — a standing tab keeps its cells, so the
    push after the lock rewrites the formula cells it read as stringValue."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    fill_orders(fake, empire, ALICE, [["1-я", "Левый", "Авангард", "Мечники", "5"]])
    _type_extra_formula(fake, empire)
    _type_extra_formula(fake, empire, "'Армии'!K2", '=HYPERLINK("http://example.com","х")')
    assert stored_values(fake, empire, "Армии")[(1, 9)] == {"formulaValue": "=2*3"}       # guard: a real formula
    backend.lock_and_read(empire, ["Армии"])
    fake.calls.clear()
    backend.write_book(empire, [army_orders(statuses={2: "OK"})])
    assert [c.op for c in fake.calls] == ["spreadsheets.batchUpdate"]
    cells = stored_values(fake, empire, "Армии")
    assert cells[(1, 9)] == {"stringValue": "=2*3"}
    assert cells[(1, 10)] == {"stringValue": '=HYPERLINK("http://example.com","х")'}
    assert cells[(1, 4)] == {"stringValue": "5"} and cells[(1, 5)] == {"stringValue": "OK"}
    assert not any("formulaValue" in v for v in cells.values())


def test_formulas_seen_at_the_lock_are_rewritten_by_a_new_process(fake, books, tmp_path):
    """A `turn` that stops after the lock and is run again pushes from the metadata file alone."""
    path = tmp_path / "gsheets-meta.json"
    first = fake_backend(fake, BOT, gm_emails=[GM], metadata_path=path)
    first.write_book(books["empire"], [army_orders()])
    _type_extra_formula(fake, books["empire"])
    first.lock_and_read(books["empire"], ["Армии"])
    second = fake_backend(fake, BOT, gm_emails=[GM], metadata_path=path)
    second.write_book(books["empire"], [army_orders()])
    assert stored_values(fake, books["empire"], "Армии")[(1, 9)] == {"stringValue": "=2*3"}


def test_a_formula_replaced_after_the_lock_is_not_written_back(fake, backend, books):
    """The GM edits the locked tab before the push: the later read drops the stale formula, so the
    push keeps the GM's value."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    _type_extra_formula(fake, empire)
    backend.lock_and_read(empire, ["Армии"])
    _edit(fake, GM, empire, "'Армии'!J2", "исправлено")
    backend.read_tabs(empire, ["Армии"])
    backend.write_book(empire, [army_orders()])
    assert stored_values(fake, empire, "Армии")[(1, 9)] == {"stringValue": "исправлено"}


def test_a_values_only_update_leaves_formulas_for_the_next_layout_write(fake, backend, books):
    """As on xlsx: `check`'s status writes touch only status cells; the push with the layout converts."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders()])
    _type_extra_formula(fake, empire)
    backend.lock_and_read(empire, ["Армии"])
    backend.write_book(empire, [TabWrite("Армии", column_updates={5: {2: "OK"}}, kind="orders")])
    assert stored_values(fake, empire, "Армии")[(1, 9)] == {"formulaValue": "=2*3"}
    backend.write_book(empire, [army_orders()])
    assert stored_values(fake, empire, "Армии")[(1, 9)] == {"stringValue": "=2*3"}


def test_open_cells_end_at_the_order_row_limit(fake, backend, books):
    """Issue 8 item 5: order tabs take orders in the header plus `order_rows` rows; a player cannot
    type below them (a far stray cell would slow every later turn)."""
    empire = books["empire"]
    backend.write_book(empire, [army_orders(order_rows=5)])
    _edit(fake, ALICE, empire, "'Армии'!A6", "5-я")              # row 6: the fifth and last order row
    for cell in ("'Армии'!A7", "'Армии'!E100"):
        with pytest.raises(APIError) as excinfo:
            _edit(fake, ALICE, empire, cell, "дальше")
        assert excinfo.value.code == 400 and "protected cell" in excinfo.value.error["message"]
    _edit(fake, GM, empire, "'Армии'!A7", "мастер")              # the GM still edits anywhere
