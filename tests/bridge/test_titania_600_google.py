"""Titania at 600 provinces on Google Sheets (issue 39 §3): the generated world at scale 4 (64 factions on 600
provinces, benchmarks/titania_world.py) is created on the fake Google and plays a turn, with every request of the
bridge checked against Google's discovery documents (FakeGoogle's default) and Google's limits enforced
(tests/fake_google/fake_limits.py): its place dropdowns, longer than the 500 items of a ONE_OF_LIST, are ranges
over each book's hidden list tab, and a turn still costs one read and one write per book.

About five minutes on a shared two-core machine: run in `make test-full` (FORUMWAR_FULL_TESTS=1) only."""
from __future__ import annotations

import os

import pytest

from benchmarks.bench_titania import google_stage
from sheets_bridge import pictures
from sheets_bridge.backends.gsheets.sheets_requests import LIST_TAB, MAX_LIST_ITEMS

pytestmark = [pytest.mark.long,
              pytest.mark.skipif(os.environ.get("FORUMWAR_FULL_TESTS") != "1",
                                 reason="five minutes: make test-full (FORUMWAR_FULL_TESTS=1)")]


def test_a_600_province_titania_turn_on_google(tmp_path, monkeypatch):
    from tests.fake_google import fake_google
    fakes: list[fake_google.FakeGoogle] = []
    init = fake_google.FakeGoogle.__init__

    def keep(self, *args, **kwargs):
        init(self, *args, **kwargs)
        fakes.append(self)
    monkeypatch.setattr(fake_google.FakeGoogle, "__init__", keep)
    monkeypatch.setattr(pictures, "publish", lambda *args, **kwargs: None)   # the map is not this test's
    st = google_stage(tmp_path, scale=4)
    fake, = fakes
    assert fake.discovery == "raise"
    factions = [k for k in st.books if k not in ("public", "gm")]
    assert len(factions) == 64
    for key in [*factions, "gm"]:
        assert st.reads.get(key) == ["spreadsheets.batchUpdate"], key
    for key in st.books:
        assert st.writes.get(key) == ["spreadsheets.batchUpdate"], key
    assert all(not sent.problems for sent in fake.sent if sent.bridge)
    assert not [c for c in fake.calls if c.status >= 400]           # nothing refused, nothing retried
    ranged = 0
    for key in st.books:
        book = fake.spreadsheet(st.books[key])
        lists = book.sheet_by_title(LIST_TAB)
        assert lists is None or lists.properties.get("hidden") is True, key
        for sheet in book.sheets:
            for cell in sheet.cells.values():
                condition = (cell.get("dataValidation") or {}).get("condition", {})
                assert len(condition.get("values", ())) <= MAX_LIST_ITEMS
                ranged += condition.get("type") == "ONE_OF_RANGE"
    print(f"ONE_OF_RANGE cells: {ranged}")
    assert ranged          # some dropdown of the game lists more than 500 places
