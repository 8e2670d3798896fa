"""One far-away cell does not slow every later turn (issue 8, item 5).

A single value at row 200 000 of «Армии» (a standing order tab, never cleared) used to make every
later `turn` format 200 000 rows (12 s, 584 MiB). Now reading and formatting cover only the used
rows and the tab's order rows: the work a turn does — cells converted when reading, rows handed to
the rule set and archived, cells stored in the book — is the same wherever the stray cell sits, and
the row past the limit gets a Russian message. The assertions count work, not wall time.
"""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest

from sheets_bridge.backends.xlsx import backend as xlsx_backend
from sheets_bridge.layouts import ORDER_ROWS, Layout
from sheets_bridge.stage import check, run_turn
from tests.games import new_game

FAR = 200_000
NEAR = ORDER_ROWS + 40          # also past the limit, but close by


def _cells_in_book(path: Path) -> int:
    """<c> elements stored in every sheet of an .xlsx file: the cells a save wrote."""
    with zipfile.ZipFile(path) as z:
        return sum(len(re.findall(rb"<c[ >]", z.read(n))) for n in z.namelist() if n.startswith("xl/worksheets/"))


def _play(tmp_path: Path, name: str, row: int, monkeypatch) -> dict:
    gd = new_game(tmp_path / name, seed="stray-cells")
    book = gd.path / gd.config.books["empire"]
    wb = openpyxl.load_workbook(book)
    wb["Армии"].cell(row=row, column=1, value="забытая армия")
    wb.save(book)
    converted = {"n": 0}
    real = xlsx_backend.cell_text

    def counting(value):
        converted["n"] += 1
        return real(value)

    monkeypatch.setattr(xlsx_backend, "cell_text", counting)
    checked = check(gd)
    for _ in range(3):                   # orders -> planning -> next turn's orders -> planning
        run_turn(gd)
    monkeypatch.setattr(xlsx_backend, "cell_text", real)
    archived = json.loads((gd.archive_path(1) / "orders-orders-empire.json").read_text(encoding="utf-8"))
    return {"gd": gd, "book": book, "converted": converted["n"], "cells": _cells_in_book(book),
            "archived_rows": len(archived["Армии"]), "checked": checked}


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    monkeypatch = pytest.MonkeyPatch()
    tmp = tmp_path_factory.mktemp("stray")
    try:
        yield {"near": _play(tmp, "near", NEAR, monkeypatch), "far": _play(tmp, "far", FAR, monkeypatch)}
    finally:
        monkeypatch.undo()


def test_turn_work_does_not_depend_on_where_the_stray_cell_sits(games):
    near, far = games["near"], games["far"]
    assert far["converted"] == near["converted"]          # cells turned into text while reading
    assert far["cells"] == near["cells"]                  # cells the saves stored in the book
    armies_last_row = Layout.load("jade_rose").books["faction"].tab("armies").last_row
    assert far["archived_rows"] == near["archived_rows"] <= armies_last_row
    assert far["cells"] < 5_000


def test_formatting_stops_at_the_order_rows(games):
    wb = openpyxl.load_workbook(games["far"]["book"])
    ws = wb["Армии"]
    last = ORDER_ROWS + 1
    for dv in ws.data_validations.dataValidation:
        assert all(r.max_row <= last for r in dv.sqref.ranges)
    assert ws.cell(row=FAR, column=1).value == "забытая армия"        # the player's cell is kept
    assert ws.cell(row=FAR, column=1).protection.locked
    assert not ws.cell(row=last, column=1).protection.locked and ws.cell(row=last + 1, column=1).protection.locked


def test_a_row_past_the_limit_gets_a_russian_message(games):
    checked = games["far"]["checked"]
    status = next(s for s in checked.outcomes["empire"] if s["row"] == FAR)
    assert not status["ok"] and f"Строка {FAR}" in status["text"] and f"2–{ORDER_ROWS + 1}" in status["text"]
    notice = next(p for p in checked.problems if "«Армии»" in p)
    assert notice.startswith("Империя: ") and f"строка {FAR}" in notice
    cell = openpyxl.load_workbook(games["far"]["book"])["Армии"].cell(row=FAR, column=6).value
    assert cell == status["text"]


def test_the_row_limit_is_layout_data():
    from sheets_bridge.layouts import LayoutError
    raw = {"books": {k: {"tabs": []} for k in ("faction", "public", "gm")}}
    raw["books"]["faction"]["tabs"] = [{"key": "x", "title": "Икс", "kind": "orders", "stage": "orders", "rows": 30,
                                         "columns": [{"key": "a", "title": "А"},
                                                     {"key": "s", "title": "Статус", "status": True}]}]
    assert Layout.from_dict("t", raw).books["faction"].tab("x").last_row == 31
    raw["books"]["faction"]["tabs"][0]["rows"] = "много"
    with pytest.raises(LayoutError):
        Layout.from_dict("t", raw)
