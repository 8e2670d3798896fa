"""The fake Google server's field masks: `merged` is `update` on a copy, sharing what it does not touch."""
from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tests.fake_google import field_mask

NAMES = st.sampled_from(["a", "b", "c"])
LEAVES = st.one_of(st.integers(-3, 3), st.text("xy", max_size=2), st.booleans(), st.lists(st.integers(0, 2),
                                                                                           max_size=2))
OBJECTS: st.SearchStrategy[Any] = st.recursive(LEAVES, lambda inner: st.dictionaries(NAMES, inner, max_size=3),
                                                max_leaves=8)
DICTS = st.dictionaries(NAMES, OBJECTS, max_size=3)
MASKS = st.recursive(st.sampled_from(["a", "b", "c", "*"]),
                     lambda inner: st.one_of(
                         st.builds(lambda n, m: f"{n}.{m}", NAMES, inner),
                         st.builds(lambda n, ms: f"{n}({','.join(ms)})", NAMES, st.lists(inner, min_size=1,
                                                                                          max_size=2)),
                         st.builds(lambda ms: ",".join(ms), st.lists(inner, min_size=1, max_size=3))),
                     max_leaves=5)


@given(DICTS, DICTS, st.one_of(st.just(""), MASKS))
def test_merged_is_update_on_a_copy_and_changes_neither_input(target, source, mask):
    tree = field_mask.parse(mask)
    before_target, before_source = copy.deepcopy(target), copy.deepcopy(source)
    expected = copy.deepcopy(target)
    field_mask.update(expected, source, tree)
    assert field_mask.merged(target, source, tree) == expected
    assert (target, source) == (before_target, before_source)


def test_merged_shares_the_untouched_parts():
    target = {"userEnteredValue": {"stringValue": "x"}, "userEnteredFormat": {"wrapStrategy": "WRAP"}}
    source = {"userEnteredFormat": {"textFormat": {"bold": True}}}
    out = field_mask.merged(target, source, field_mask.parse("userEnteredFormat.textFormat"))
    assert out == {"userEnteredValue": {"stringValue": "x"},
                   "userEnteredFormat": {"wrapStrategy": "WRAP", "textFormat": {"bold": True}}}
    assert out["userEnteredValue"] is target["userEnteredValue"]
    assert out["userEnteredFormat"]["textFormat"] is source["userEnteredFormat"]["textFormat"]
    assert out["userEnteredFormat"] is not target["userEnteredFormat"]
