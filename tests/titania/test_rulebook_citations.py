"""Issue 23 item 6: a player finds every rule a Titania text cites in the rule book itself. The book («Титания.
Версия 1.1», shared/seeds) has no «A12.1» or «C10.2»: its sections follow one another without headings and three
of them number their points in a «Важно помнить» list whose numbers repeat («Важно помнить:1.1 Вы можете
потратить …», «Важно помнить:1.2 Очерёдность хода …», «Важно помнить:1.1 Количество войск …»). So the texts cite
the section by its name and the point by the book's own number, «(см. «Фаза Похода», п. 10.2)», from
engine/titania/data/rulebook.toml; the engine's codes stay inside (reasons, docs/rulings.md) and `forumwar
adjudicate` carries no citation at all (the public cases, tests/titania/test_conformance_public.py).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import find_ruleset
from engine.datafiles import Problems
from engine.errors import CATALOGUE
from engine.ruleset import Row
from engine.titania import codes, corrections, odds, start_book  # noqa: F401 (their templates in CATALOGUE)
from engine.titania.forum_posts import TitaniaPosts
from engine.titania.reasons import FALLEN, REASONS, explain
from engine.titania.rulebook import Book, book, parse, ref, see
from sheets_bridge.scenarios import load_scenario

RS = find_ruleset("titania")
CODE = re.compile(r"\b[PCA]\d{1,2}\.[12]\b|\bG\d{1,3}\b")  # the engine's codes and the rulings' G numbers


@pytest.fixture(scope="module")
def rule_book(shared_dir: Path) -> str:
    """The original Russian rule book: the seed whose text is «Титания. Версия 1.1»."""
    found = [p.read_text(encoding="utf-8") for p in sorted((shared_dir / "seeds").glob("*.txt"))]
    texts = [t for t in found if "Титания. Версия 1.1" in t]
    assert len(texts) == 1
    return " ".join(texts[0].split())


def _spans(text: str, b: Book) -> dict[str, str]:
    """Each section's text: from its opening words to the next section's."""
    starts = [text.index(s.opens) for s in b.sections]
    ends = [*starts[1:], len(text)]
    return {s.id: text[a:e] for s, a, e in zip(b.sections, starts, ends, strict=True)}


def _stem(word: str) -> str:
    """Enough of a Russian word to find it in another case («Фаза» in «фазе», «Похода» in «Поход»)."""
    word = word.lower()
    return word[:max(3, min(5, len(word) - 1))]


def test_every_section_the_texts_cite_opens_in_the_book_once_in_the_book_s_order(rule_book: str) -> None:
    """The table's `opens` are the book's own words, each found once and in the order the book has them; the
    section's name is what those words (or the sentence right after them) call it."""
    b = book()
    found = [rule_book.find(s.opens) for s in b.sections]
    assert [(s.id, rule_book.count(s.opens)) for s in b.sections] == [(s.id, 1) for s in b.sections]
    assert found == sorted(found)
    spans = _spans(rule_book, b)
    for s in b.sections:
        head = spans[s.id][:300].lower()
        assert all(_stem(w) in head for w in s.name.split()), (s.id, s.name, head[:120])


def test_every_numbered_point_is_the_book_s_own_in_its_section(rule_book: str) -> None:
    """«Важно помнить:1.2 … 2.2 Войско может передвинуться на одну провинцию за ход …»: the points of each numbered
    section are exactly those the book numbers between its opening and the next section's; the named parts of the
    resources («Могущество — особый ресурс …») are there too."""
    spans = _spans(rule_book, book())
    for s in book().sections:
        numbered = re.findall(r"(?<!\d)(\d{1,2}\.\d)(?=\s)", spans[s.id])  # «…правилам.12.1 В рамках…» too
        assert numbered == list(s.points), s.id
        for topic in s.topics.values():
            assert f"{topic} — " in spans[s.id], (s.id, topic)


def test_the_points_the_digest_translates_carry_the_book_s_words(rule_book: str) -> None:
    """Spot checks of the mapping against the Russian text itself (the digest's C10.2, A7.1, P3.1)."""
    spans = _spans(rule_book, book())
    assert "10.2 Если войско атаковало и проиграло сражение, оно отступает строго" in spans["campaign"]
    assert "Передвижение в собственную провинцию, которое бы нарушило лимит, невозможно" in spans["army"]
    assert spans["army"].index("7.1 При передвижении") < spans["army"].index("нарушило лимит") \
        < spans["army"].index("8.1 Войска одной фракции")
    assert "3.1 Если между фракциями пролегает море, для передачи ресурсов необходимо наличие порта" in \
        spans["planning"]
    assert ref("C10.2") == "«Фаза Похода», п. 10.2"
    assert ref("A7.1, P3.1") == "«Войско», п. 7.1; «Фаза Планирования», п. 3.1"


def test_every_reason_cites_a_place_the_book_has_and_no_engine_code() -> None:
    """Each reason of the closed catalogue (and a Boss fight the Boss's damage ended) says its rule as the book's
    section and point; a code the table does not know would raise."""
    b = book()
    for code, reason in REASONS.items():
        for fallen in (False, True) if code in FALLEN else (False,):
            text = explain(code, fallen)
            assert not CODE.search(text), text
            assert (f"(см. {ref(reason.rule)})" in text) if reason.rule else "(см." not in text, text
        for one in filter(None, (c.strip() for c in reason.rule.split(","))):
            b.locate(one)
    assert see("C2.2, A1.1, A11.1") == "см. «Фаза Похода», п. 2.2; «Войско», пп. 1.1 и 11.1"
    with pytest.raises(KeyError):
        b.locate("A13.1")


def test_no_message_template_a_player_reads_cites_an_engine_code() -> None:
    """The books' messages (row errors of the orders, start, Simulator and GM tabs)."""
    titania = {k: v for k, v in CATALOGUE.items() if k.startswith("T_")}
    assert titania and {k: v for k, v in titania.items() if CODE.search(v)} == {}
    assert "(см. «Фаза Похода», п. 9.2)" in CATALOGUE["T_LAND_TO_SEA"]


def test_a_turn_s_statuses_posts_chronicle_and_books_cite_the_book_not_the_engine() -> None:
    """A real turn of the demo: the orcs attack the Giant, the humans hire past their limit and move; every text a
    player reads (statuses, posts, chronicle, journal, every tab of every book) and the GM's report."""
    state: dict[str, Any] = json.loads(json.dumps(load_scenario(RS, "demo").state))
    books = {"grimgor": {"campaign": [Row(2, {"army": "Гримгор", "order": "Идти / атаковать",
                                              "target": "Логово Великана"})]},
             "albion": {"planning": [Row(2, {"action": "Нанять", "province": "Альбион", "count": "2"})],
                        "campaign": [Row(2, {"army": "Альбион", "order": "Идти / атаковать",
                                             "target": "Вересковая Пустошь"})]}}
    parsed = {f: RS.validate(state, f, "orders", tabs) for f, tabs in books.items()}
    result = RS.resolve(state, "orders", parsed, 1)
    texts = [s.text() for p in parsed.values() for s in p.statuses]
    texts += [s.text() for ss in result.statuses.values() for s in ss]
    texts += [p.bbcode for p in TitaniaPosts().posts(state, result)]
    texts += [e["text"] for e in result.state["chronicle"] + result.state["log"]]
    texts += [str(cell) for tabs in RS.views(result.state).values() for t in tabs.values()
              for r in t.rows for cell in r]
    texts.append(result.reports["adjudication"])
    assert [t for t in texts if CODE.search(t)] == []
    joined = "\n".join(texts)
    for place in ("(см. «Боссы»)", "(см. «Войско», пп. 1.1 и 7.1)", "; см. «Фаза Похода», п. 1.2)"):
        assert place in joined, place


def test_the_table_is_checked_and_every_problem_reported_at_once() -> None:
    problems = Problems()
    parse({"sections": {"a": {"name": "А", "opens": "", "code": "ab", "points": ["x"]},
                        "b": {"name": "Б", "opens": "Б —", "code": "P"}, "c": {"opens": "В"}}}, problems)
    text = "\n".join(problems.items)
    assert "sections.a.opens" in text and "sections.a.code" in text and "sections.b: у раздела" in text
    assert "sections.c: нет поля 'name'" in text
