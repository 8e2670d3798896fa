"""engine/russian.py, the agreement the messages use (issue 38 §5: «Prefer a well-kept morphology library for this,
over more hand-written plural helpers. pymorphy3 with its Russian dictionaries inflects words and agrees them with
numbers»): numbers with nouns and adjective phrases, cases after prepositions, the template marks, words the
dictionary does not know, and its purity (the same answer every time, one analyzer per process)."""
from __future__ import annotations

import pytest

from engine import russian
from engine.russian import after, agree, inflect, number_form, parse_mark, plural, render


@pytest.mark.parametrize(("n", "form"), [(0, 2), (1, 0), (2, 1), (4, 1), (5, 2), (11, 2), (12, 2), (14, 2), (21, 0),
                                         (22, 1), (25, 2), (101, 0), (111, 2), (112, 2), (-1, 0), (-3, 1), (1.5, 1)])
def test_number_form_is_the_russian_rule(n: int | float, form: int) -> None:
    assert number_form(n) == form


def test_a_noun_agrees_with_1_2_5_11_21_22() -> None:
    """«Numbers agree with their nouns»: the three forms, and 11–14 take the many-form."""
    assert [agree(n, "дорога") for n in (1, 2, 5, 11, 21, 22)] == [
        "1 дорога", "2 дороги", "5 дорог", "11 дорог", "21 дорога", "22 дороги"]
    assert [plural(n, "обида") for n in (1, 2, 5, 11, 21, 22)] == ["обида", "обиды", "обид", "обид", "обида", "обиды"]


def test_an_adjective_phrase_agrees_as_a_whole() -> None:
    """«вечный слуга»: after 2–4 the adjective takes the genitive plural, the noun the genitive singular; a
    feminine adjective takes the nominative plural («2 великие кузни»)."""
    assert [agree(n, "вечный слуга") for n in (1, 2, 5, 21)] == [
        "1 вечный слуга", "2 вечных слуги", "5 вечных слуг", "21 вечный слуга"]
    assert [agree(n, "нефритовый воин") for n in (1, 3, 11)] == [
        "1 нефритовый воин", "3 нефритовых воина", "11 нефритовых воинов"]
    assert agree(2, "Великая Кузня") == "2 Великие Кузни"


def test_a_number_phrase_in_an_oblique_case() -> None:
    """After «не больше», «из» (genitive), «при» (prepositional), «на» (accusative, animate «юнит»)."""
    assert [agree(n, "юнит", "gent") for n in (1, 2, 5, 21)] == ["1 юнита", "2 юнитов", "5 юнитов", "21 юнита"]
    assert [agree(n, "Святилище", "loct") for n in (1, 3)] == ["1 Святилище", "3 Святилищах"]
    assert [agree(n, "юнит", "accs") for n in (1, 2, 5)] == ["1 юнита", "2 юнита", "5 юнитов"]
    assert [agree(n, "раб", "gent") for n in (1, 15, 21)] == ["1 раба", "15 рабов", "21 раба"]


def test_an_amount_keeps_the_genitive_singular() -> None:
    """Resources are amounts: «5 золота», «3 влияния» (engine/russian.toml mass), never «5 влияний»."""
    assert [agree(n, "золото") for n in (1, 2, 5)] == ["1 золото", "2 золота", "5 золота"]
    assert [agree(n, "влияние") for n in (1, 5, 21)] == ["1 влияние", "5 влияния", "21 влияние"]


def test_a_word_the_dictionary_lacks_comes_from_the_table_and_names_stay_as_written() -> None:
    """«юнит» is not in OpenCorpora: engine/russian.toml gives its forms. A game name the dictionary does not know
    (Грунгни) and anything in «» stay exactly as written, whatever the case asked."""
    assert not russian._analyzer().word_is_known("юнит") and russian.is_known("юнит")
    assert [agree(n, "юнит") for n in (1, 3, 5)] == ["1 юнит", "3 юнита", "5 юнитов"]
    assert not russian.is_known("Грунгни")
    assert inflect("Грунгни", "gent") == "Грунгни" and agree(5, "Грунгни") == "5 Грунгни"
    assert inflect("защитник «Вечный страж»", "datv") == "защитнику «Вечный страж»"


def test_a_preposition_governs_its_case() -> None:
    """«против защитник» was seen: after() puts the phrase in the case the preposition governs, keeping its
    number and the capital letters."""
    assert after("против", "защитник, правый авангард") == "против защитника, правого авангарда"
    assert after("до", "Великая Кузня") == "до Великой Кузни"
    assert after("к", "атакующие") == "к атакующим"
    assert inflect("юниты", "ablt") == "юнитами"
    assert inflect("Великая Кузня", "nomn") == "Великая Кузня"


def test_render_marks() -> None:
    """Template marks: {n:юнит} agrees the number, {n:юнит|gent} in a case, {x:@gent} inflects the value; other
    specs and plain fields format as str.format; a marked field that holds no number is shown as written."""
    text = render("{a:юнит}; не больше {b:юнит|gent}; против {c:@gent}; {d:>3}; {e}", {
        "a": 22, "b": "21", "c": "защитник", "d": 7, "e": "x"})
    assert text == "22 юнита; не больше 21 юнита; против защитника;   7; x"
    assert render("{a:юнит}", {"a": "много"}) == "много юнит"
    assert render("{a:юнит}", {"a": "1\u00a0001"}) == "1001 юнит"


def test_parse_mark() -> None:
    assert parse_mark("юнит") == russian.Mark("юнит", "nomn")
    assert parse_mark("вечный слуга|gent") == russian.Mark("вечный слуга", "gent")
    assert parse_mark("@datv") == russian.Mark("", "datv")
    assert parse_mark(">5") is None and parse_mark("+d") is None and parse_mark("") is None
    with pytest.raises(ValueError):
        parse_mark("юнит|genitive")


def test_the_same_answer_every_time_from_one_analyzer() -> None:
    """Deterministic and loaded once per process: the caches cleared, the same words give the same forms from
    the same analyzer object."""
    first = [agree(n, p) for p in ("юнит", "вечный слуга", "обида") for n in (1, 2, 5, 11, 21, 22)]
    analyzer = russian._analyzer()
    russian._agreed.cache_clear()
    assert [agree(n, p) for p in ("юнит", "вечный слуга", "обида") for n in (1, 2, 5, 11, 21, 22)] == first
    assert russian._analyzer() is analyzer
