"""Titania at scale on Google Sheets (issue 10, item 8): the generated game of 16 factions on 150 provinces
with 300 armies and about a thousand typed rows (benchmarks/titania_world.py) still costs one read and one
write per book for a `turn` on the fake Google: each order book is read (and its order tabs locked) in ONE
request and pushed in ONE; so is the GM book, whose «Корректировки» is an order tab of the stage; the public
book is only pushed."""
from __future__ import annotations

import pytest

from benchmarks.bench_titania import google_stage


@pytest.mark.full
@pytest.mark.long
def test_large_titania_turn_uses_one_read_and_one_write_per_book(tmp_path):
    st = google_stage(tmp_path)
    assert st.armies == 300 and st.typed >= 900
    factions = [k for k in st.books if k not in ("public", "gm")]
    assert len(factions) == 16
    for key in [*factions, "gm"]:
        assert st.reads.get(key) == ["spreadsheets.batchUpdate"], key
    for key in st.books:
        assert st.writes.get(key) == ["spreadsheets.batchUpdate"], key
    assert not st.reads.get("public")
