"""The shared reading of order cells (engine.cells): names, yes/no, signed integers."""
from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.cells import normalize_name, parse_yes_no, signed_integer


def test_a_name_matches_whatever_its_case_yo_quotes_dashes_and_spacing():
    assert normalize_name("  «Чёрная  ТОПЬ» ") == normalize_name("черная топь")
    assert normalize_name("Карак–Азгал") == normalize_name("карак - азгал")


def test_a_latin_look_alike_letter_inside_a_russian_word_still_matches():
    assert normalize_name("Kарак-Aзгал") == normalize_name("Карак-Азгал")     # Latin K and A
    assert normalize_name("Ноктис") == normalize_name("Hоктиc")               # Latin H and c
    assert normalize_name("Market") == "market"                               # a Latin word stays Latin


def test_yes_and_no_as_people_write_them_and_a_rule_set_s_own_words():
    assert [parse_yes_no(t) for t in ("Да", " да ", "yes", "+")] == [True] * 4
    assert [parse_yes_no(t) for t in ("Нет", "no", "-")] == [False] * 3
    assert parse_yes_no("может быть") is None and parse_yes_no("") is None
    assert parse_yes_no("пропустить", yes=frozenset({"пропустить"})) is True


def test_signed_integers_take_a_sign_and_groups_of_three_and_nothing_else():
    assert [signed_integer(t) for t in ("-300", "+1 200", "\u22125", "42")] == [-300, 1200, -5, 42]
    assert [signed_integer(t) for t in ("1e3", "--3", "3.5", "", "-")] == [None] * 5


@given(st.integers(-10**12, 10**12))
def test_every_integer_written_plainly_reads_back(value):
    assert signed_integer(str(value)) == value


@given(st.text(max_size=40))
def test_normalizing_never_raises_and_is_idempotent(text):
    once = normalize_name(text)
    assert normalize_name(once) == once
