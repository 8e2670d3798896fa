"""Issue 38 §5, «Russian that reads as Russian»: «Numbers agree with their nouns, and prepositions govern their case,
everywhere a message is built from parts: statuses, journals, reports, posts, CLI. … A test walks every message
template with the numbers 1, 2, 5, 11, 21 and 22 and checks the agreement.»

Three walks, each checked by pymorphy3's own reading of the words produced (not by the code that produced them):
- every catalogue template (engine.errors.CATALOGUE, both rule sets and the bridge): each agreement mark rendered
  with 1, 2, 5, 11, 21 and 22 gives the form the number takes; no number field stands bare before a noun;
- every f-string of engine/ and sheets_bridge/: no value stands right before a noun it should agree with unless
  it is listed below as a value that is no number (a name, a flank, an ordinal…);
- the six phrases the issue saw, each built where the project builds it.
"""
from __future__ import annotations

import ast
import importlib
import re
import string
from collections.abc import Iterator
from functools import cache
from typing import Any

import pymorphy3
import pytest

from engine import russian
from engine.errors import CATALOGUE
from tests.paths import REPO

NUMBERS = (1, 2, 5, 11, 21, 22)
SOURCES = ("engine", "sheets_bridge")
WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")


@cache
def morph() -> Any:
    return pymorphy3.MorphAnalyzer()


def _load_catalogue() -> dict[str, str]:
    """Every module that defines catalogue codes, imported (their templates join CATALOGUE)."""
    for package in SOURCES:
        for path in (REPO / package).rglob("*.py"):
            if "define({" in path.read_text(encoding="utf-8"):
                importlib.import_module(".".join(path.relative_to(REPO).with_suffix("").parts))
    return dict(CATALOGUE)


TEMPLATES = _load_catalogue()


def expected_grammemes(n: int, case: str, pos: str, gender: str | None, mass: bool = False) -> set[str]:
    """The school rule, written out here independently of engine/russian.py: after 1, 21… the singular in the
    phrase's case; after 2–4, 22–24… a noun in the genitive singular and its adjective in the genitive plural
    (nominative plural for a feminine one), when the phrase is in the nominative or accusative, else the plural
    in its case; after 5–20, 25–30… the genitive plural (or the plural in an oblique case)."""
    one = n % 10 == 1 and n % 100 != 11
    few = 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14
    if one:
        return {"sing", case}
    if mass:        # an amount (engine/russian.toml mass): «5 золота», «2 влияния»
        return {"sing", case if case not in ("nomn", "accs") else "gent"}
    if case not in ("nomn", "accs"):
        return {"plur", case}
    if few:
        if pos == "NOUN":
            return {"sing", "gent"}
        return {"plur", "nomn"} if gender == "femn" and case == "nomn" else {"plur", "gent"}
    return {"plur", "gent"}


def _base(word: str) -> Any:
    parses = [p for p in morph().parse(word.lower()) if p.tag.POS in ("NOUN", "ADJF", "PRTF")]
    nominative = [p for p in parses if p.tag.case == "nomn"]
    return (nominative or parses)[0]


def _reads_as(word: str, lemma_of: str, grammemes: set[str]) -> bool:
    """Whether pymorphy3 reads `word` as a form of `lemma_of` with all `grammemes` (or, for a word of
    engine/russian.toml, whether it is that table's form)."""
    table = russian._table().get(lemma_of.lower())
    if table is not None:
        number = "plur" if "plur" in grammemes else "sing"
        case = next(g for g in grammemes if g in russian.CASES)
        return word.lower() == table[number][russian.CASES.index(case)]
    lemma = _base(lemma_of).normal_form
    return any(p.normal_form == lemma and grammemes <= set(p.tag.grammemes) for p in morph().parse(word.lower()))


def check_agreement(phrase: str, case: str, n: int, rendered: str) -> list[str]:
    """What is wrong with `rendered`, the phrase agreed with `n` in `case` (empty: it agrees)."""
    head, _, words_text = rendered.partition(" ")
    if head != str(n):
        return [f"«{rendered}» does not start with the number {n}"]
    wrong = []
    for base, word in zip(WORD.findall(phrase), WORD.findall(words_text), strict=True):
        if not russian.is_known(base):
            continue
        parse = _base(base) if base.lower() not in russian._table() else None
        pos = "NOUN" if parse is None else parse.tag.POS
        gender = None if parse is None else parse.tag.gender
        mass = parse is not None and parse.normal_form in russian.mass_nouns()
        want = expected_grammemes(n, case, pos, gender, mass)
        if not _reads_as(word, base, want):
            wrong.append(f"«{rendered}»: «{word}» is not {'+'.join(sorted(want))} of «{base}»")
    return wrong


def template_fields(template: str) -> Iterator[tuple[str, str, str, str]]:
    """(text before, field name, format spec, text after) of each field of a template."""
    parts = list(string.Formatter().parse(template))
    for i, (before, name, spec, _conv) in enumerate(parts):
        if name is None:
            continue
        after = parts[i + 1][0] if i + 1 < len(parts) else ""
        yield before, name, spec or "", after


def _noun_right_after(text: str) -> str | None:
    """The noun or adjective that starts `text` right after one space, not an abbreviation («шт.»)."""
    found = re.match(r" ([А-Яа-яЁё]+)(\.?)", text)
    if not found or found.group(2):
        return None
    word = found.group(1)
    if len(word) <= 2:
        return None
    top = morph().parse(word.lower())[0]
    return word if top.tag.POS in ("NOUN", "ADJF", "PRTF") else None


# Fields of catalogue templates that stand right before a noun but hold no number: (code, field) -> what they hold
NOT_NUMBERS_IN_TEMPLATES: dict[tuple[str, str], str] = {
    ("E_ROW_PAST_LIMIT", "last"): "a row range: «в строках 2–240 вкладки «Армии»» (the tab's genitive)",
    ("T_SPELL_LEARN_FAILS", "row"): "a row number: «строка 12 вкладки «Планирование»»",
    ("JR_WAR_BATTLE_LOST", "against"): "a squad's description before «фракции «X»» (whose squad)",
}


def test_catalogue_is_walked() -> None:
    assert len(TEMPLATES) > 200 and "JR_NOT_ENOUGH_BLOOD" in TEMPLATES and "T_HIRE_FOOD" in TEMPLATES


def test_every_marked_number_agrees_with_its_noun_for_1_2_5_11_21_22() -> None:
    """Every agreement mark ({n:юнит}, {n:юнит|gent}) of every catalogue template, rendered with each of the
    numbers the issue names, gives the noun phrase in the form that number takes; its words are ones the
    dictionary knows (or engine/russian.toml lists), so the mark really inflects them."""
    wrong, marks = [], 0
    for code, template in sorted(TEMPLATES.items()):
        for _before, name, spec, _after in template_fields(template):
            mark = russian.parse_mark(spec)
            if mark is None or not mark.phrase:
                continue
            marks += 1
            unknown = [w for w in WORD.findall(mark.phrase) if not russian.is_known(w)]
            if unknown:
                wrong.append(f"{code}: {{{name}:{spec}}}: words no dictionary knows: {unknown}")
            for n in NUMBERS:
                wrong += [f"{code}: {problem}" for problem in
                          check_agreement(mark.phrase, mark.case, n, russian.render(f"{{x:{spec}}}", {"x": n}))]
    assert marks >= 5 and not wrong, "\n".join(wrong)


def test_no_number_field_stands_bare_before_a_noun() -> None:
    """A field followed by a noun («{cap} юнитов») would read «1 юнитов»: such a pair carries a mark, or the
    field is listed above as holding no number."""
    bare = [f"{code}: {{{name}}} {noun}" for code, template in sorted(TEMPLATES.items())
            for _b, name, spec, after in template_fields(template)
            if russian.parse_mark(spec) is None and (noun := _noun_right_after(after))
            and (code, name) not in NOT_NUMBERS_IN_TEMPLATES]
    assert not bare, "\n".join(bare)


# Fields of catalogue templates right after a preposition that need no inflecting: (code, field) -> what they hold
AFTER_PREPOSITION: dict[tuple[str, str], str] = {
    ("E_LATE_EDIT", "after"): "a genitive phrase the bridge builds: «после закрытия этапа …»",
    ("E_LATE_ROW", "after"): "a genitive phrase the bridge builds",
    ("E_NOT_A_WHOLE_NUMBER", "min"): "a number: «от 0»",
    ("E_NOT_A_WHOLE_NUMBER", "max"): "a number: «до 100»",
    ("JR_ADJ_TOO_LARGE", "max"): "a number: «от −1000000 до 1000000»",
    ("JR_NO_FREE_SLOT", "slots"): "a number: «занято 2 из 3»",
    ("JR_SHORT_AT_WORST", "low"): "a number: «от 40»",
    ("JR_SHORT_AT_WORST", "high"): "a number: «до 60»",
    ("T_NEED_POINTS", "max"): "a number: «от 1 до 3»",
    ("T_SPLIT_FOOD", "squads"): "a number: «при 4 отр.»",
}


def test_a_name_after_a_preposition_is_marked_with_its_case() -> None:
    """«prepositions govern their case»: a field right after «против», «до», «из»… (not in «») carries the case
    mark ({x:@gent}), or is listed above as a number or a phrase built in that case already; every @case mark is
    the case its preposition governs."""
    wrong = []
    for code, template in sorted(TEMPLATES.items()):
        for before, name, spec, _after in template_fields(template):
            found = re.search(r"(?:^|\s)([а-яё]+) $", before)
            if not found or found.group(1).lower() not in russian.GOVERNS:
                continue
            governs = russian.GOVERNS[found.group(1).lower()]
            mark = russian.parse_mark(spec)
            if mark is None and (code, name) not in AFTER_PREPOSITION:
                wrong.append(f"{code}: «{found.group(1)} {{{name}}}» has no case mark")
            elif mark is not None and not mark.phrase and mark.case != governs:
                wrong.append(f"{code}: «{found.group(1)} {{{name}:{spec}}}»: «{found.group(1)}» governs {governs}")
    assert not wrong, "\n".join(wrong)


def test_every_template_renders_with_each_number() -> None:
    """Every template renders with each of 1, 2, 5, 11, 21, 22 in every field, marks included."""
    for code, template in sorted(TEMPLATES.items()):
        names = {name for _b, name, _s, _a in template_fields(template)}
        for n in NUMBERS:
            text = russian.render(template, dict.fromkeys(names, n))
            assert "{" not in text and "}" not in text, (code, text)


# f-string values that stand right before a noun but are no number: (file, expression) -> what they hold
NOT_NUMBERS_IN_CODE: dict[tuple[str, str], str] = {
    ("engine/jade_rose/actions/cities.py", "ordinal(target)"): "an ordinal: «до 3-го уровня»",
    ("engine/jade_rose/factions/jade_court.py", "ordinal(level)"): "an ordinal: «3-го уровня»",
    ("engine/jade_rose/battle/report.py", "FLANK_ADJ[flank].capitalize()"): "a flank's adjective: «Левый фланг»",
    ("engine/jade_rose/war/posts.py", "FLANK_ADJ[flank].capitalize()"): "a flank's adjective: «Левый фланг»",
    ("engine/jade_rose/war/reports.py", "FLANK_ADJ.get(f.flank, f.flank)"): "a flank's adjective: «левый фланг»",
    ("engine/jade_rose/war/armies.py", "FLANK_LOC[flank]"): "a flank's adjective: «на левом фланге»",
    ("engine/jade_rose/demo_players.py", "f"): "a flank's adjective in a demo player's cell: «Левый авангард»",
    ("engine/jade_rose/demo_players.py", "flank"): "a flank's adjective in a demo player's cell",
    ("engine/jade_rose/factions/dwarves.py", "city_name(state, event.get('city'))"): "a city: «город X фракции Y»",
    ("engine/jade_rose/factions/empire.py", "verb"): "a participle: «нами разрушен город»",
    ("engine/titania/corrections.py", "verb"): "a participle: «добавлена постройка»",
    ("engine/titania/corrections.py", "o['amount']"): "a signed change before «фракции «X»» (whose it is)",
    ("engine/titania/forecast.py", "'набрать новый отряд' if new else 'пополнить отряд'"): "a verb phrase: «… силой»",
    ("engine/titania/forum_posts.py", "b['n']"): "a battle's number: «Бой 2 хода 3» (the battle of the turn)",
    ("engine/titania/might_rows.py", "n"): "a bonus to a squad: «+2 отряду в провинции …» (dative of the squad)",
    ("engine/titania/report_extras.py", "size"): "an adjective: «Крупное событие»",
    ("engine/titania/through_books.py", "said"): "a verb: «проверка приняла строку»",
    ("sheets_bridge/backends/gsheets/auth.py", "path"): "a file path: «В файле X клиент OAuth»",
    ("sheets_bridge/backends/gsheets/backend.py", "who"): "an address: «у X доступ»",
    ("sheets_bridge/backends/gsheets/backend.py", "email_"): "an address: «у X доступ»",
    ("sheets_bridge/commands/battle.py", "share"): "a percentage: «в 45% боёв» (the genitive plural for any share)",
    ("sheets_bridge/commands/battle.py", "result['attacker_win']"): "a percentage: «в 45,0% боёв»",
}
AGREED = {"agree", "plural", "inflect", "after"}     # engine.russian's calls: what they give is agreed already
ABBREVIATIONS = {"ч", "мин", "с", "шт", "отр", "арм", "выстр", "пров", "з", "н"}


@cache
def _fstrings() -> tuple[tuple[str, ast.JoinedStr], ...]:
    """(file, node) of every f-string of engine/ and sheets_bridge/ (parsed once for the tests below)."""
    return tuple((path.relative_to(REPO).as_posix(), node) for package in SOURCES
                 for path in sorted((REPO / package).rglob("*.py"))
                 for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.JoinedStr))


@cache
def _fstring_pairs() -> tuple[tuple[str, int, str, str], ...]:
    return tuple(_pairs())


def _pairs() -> Iterator[tuple[str, int, str, str]]:
    """(file, line, expression, noun) of each f-string value followed right by a noun."""
    for rel, node in _fstrings():
        for value, text in zip(node.values, node.values[1:], strict=False):
            if not (isinstance(value, ast.FormattedValue) and isinstance(text, ast.Constant)):
                continue
            call = value.value
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in AGREED:
                continue
            noun = _noun_right_after(str(text.value))
            if noun and noun not in ABBREVIATIONS:
                yield rel, node.lineno, ast.unparse(value.value), noun


def test_no_number_in_an_fstring_stands_bare_before_a_noun() -> None:
    """Messages built in code (statuses, journals, reports, posts, CLI) agree a number with its noun through
    engine.russian (agree, plural): an f-string value right before a noun is either that or a value listed
    above as no number."""
    bare = [f"{file}:{line}: {{{expr}}} {noun}" for file, line, expr, noun in _fstring_pairs()
            if (file, expr) not in NOT_NUMBERS_IN_CODE]
    assert not bare, "\n".join(bare)


def test_the_allowlists_name_only_pairs_that_exist() -> None:
    """The lists of values that are no number hold nothing stale (a fixed pair leaves them)."""
    seen_code = {(file, expr) for file, _l, expr, _n in _fstring_pairs()}
    assert set(NOT_NUMBERS_IN_CODE) <= seen_code
    seen_templates = {(code, name) for code, template in TEMPLATES.items()
                      for _b, name, _s, _a in template_fields(template)}
    assert set(NOT_NUMBERS_IN_TEMPLATES) <= seen_templates and set(AFTER_PREPOSITION) <= seen_templates


# -- The six phrases the issue saw -----------------------------------------------------------------------------

def test_seen_3_yunitov_a_count_of_units_agrees() -> None:
    """Seen: «3 юнитов». The vampires' blood message counts units for every number: «можно нанять ещё 3 юнита»,
    «хватает на 21 юнита», «не больше 1 юнита» (JR_NOT_ENOUGH_BLOOD, JR_UNIT_LIMIT)."""
    from engine.errors import OrderError

    blood = OrderError("JR_NOT_ENOUGH_BLOOD", {"unit": "Полукровка", "need_each": 15, "slaves": 100, "cap": 21,
                                               "per_unit": 15, "used": 18, "left": 3}).message()
    assert "можно нанять ещё 3 юнита «Полукровка»" in blood and "хватает на 21 юнита" in blood
    assert "юнитов «" not in blood and "нужна кровь 15 рабов" in blood
    limit = OrderError("JR_UNIT_LIMIT", {"unit": "Паровой танк", "limit": 1, "have": 1, "left": 0}).message()
    assert limit.startswith("У фракции может быть не больше 1 юнита «Паровой танк»")


def test_seen_1_obid_a_grudge_count_agrees() -> None:
    """Seen: «1 обид». The dwarves' vengeful campaign against a faction they hold one grudge on says «1 обида»,
    and with five «5 обид»."""
    from tests.jade_rose.small_games import make_game, run

    for count, words in ((1, "1 обида,"), (2, "2 обиды,"), (5, "5 обид,")):
        state = make_game(gold=1000)
        state["factions"]["dwarves"]["grudges"]["empire"] = count
        (campaign,) = run(state, "dwarves", ("Мстительный поход", "", "Империя", ""))
        assert campaign.ok and words in campaign.text(), campaign.text()


def test_seen_do_velikoy_kuzni_3_dorog_i_the_roads_agree() -> None:
    """Seen: «до Великой Кузни 3 дорог(и)». The battle report's modifiers count the roads to the Great Forge in
    words that agree: «3 дороги», «5 дорог», «1 дорога» — no «(и)» hedge left anywhere in the messages."""
    from engine.jade_rose.war.reports import modifiers_text

    assert [modifiers_text({"forge_distance": n}, 0) for n in (1, 3, 5)] == [
        "до Великой Кузни 1 дорога", "до Великой Кузни 3 дороги", "до Великой Кузни 5 дорог"]
    hedges = [f"{path.relative_to(REPO)}: {m.group(0)}" for package in SOURCES
              for path in (REPO / package).rglob("*.py")
              for m in re.finditer(r"[а-яё]\((?:и|а|ов|ей|я|ы)\)", path.read_text(encoding="utf-8"))]
    assert hedges == []


def test_seen_protiv_zashchitnik_the_squad_after_protiv_is_genitive(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seen: «против защитник». A fight in the plain battle account names the defending squad in the genitive
    «против» governs: «против защитника, левого авангарда»; its rounds agree («1 раунд», «3 раунда»)."""
    from engine.jade_rose.battle.result import BattleResult, FightSummary
    from engine.jade_rose.war import reports

    fight = FightSummary(phase="clash", flank="left", squads=("атакующий, левый авангард", "защитник, левый авангард"),
                         start=(12, 8), rounds=(None,) * 3, winner="attacker", losses=((), ()))  # type: ignore[arg-type]
    result = BattleResult(winner="attacker", attacker=None, defender=None, bombards=(),  # type: ignore[arg-type]
                          fights=(fight,), rounds=3, rounds_all_fights=3, timeout=False)
    monkeypatch.setattr(reports.battle_pkg, "render_report", None)      # the plain account, not the package's
    text = reports.body(result)
    assert "атакующий, левый авангард (12) против защитника, левого авангарда (8) — 3 раунда" in text
    assert "против защитник," not in text


def test_seen_po_hoda_2_a_range_of_stages_takes_do() -> None:
    """Seen: «по хода 2». «по» never stands before a stage written in the genitive («хода 2, этапа …»): verify's
    range reads «с хода 1, этапа … до хода 3, этапа … включительно» (tests/bridge/test_verify_published.py runs
    it); here every f-string of the project is searched for «по» before a genitive stage."""
    found = [f"{file}:{line}" for file, line, text in _fstring_texts()
             if re.search(r"(?:^|\s)по (?:хода|этапа)\b|(?:^|\s)по \{_of\(", text)]
    assert found == []


def test_seen_goroda_s_takoy_komnatoy_nichego_an_empty_list_agrees_with_its_label() -> None:
    """Seen: «Города с такой комнатой: ничего (сейчас нет подходящих вариантов)». An empty list of choices reads
    «нет ни одного», which agrees with any plural label before it."""
    from engine.errors import OrderError, allowed_list

    text = OrderError("JR_NO_GRUDGE_ROOM", {"city": "Карак", "allowed": allowed_list([])}).message()
    assert text == "В городе «Карак» нет комнаты записи обид. Города с такой комнатой: нет ни одного."


def _fstring_texts() -> Iterator[tuple[str, int, str]]:
    """(file, line, source text) of each f-string of the project, its values written as {expression}."""
    for rel, node in _fstrings():
        text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) for v in node.values)
        yield rel, node.lineno, text
