"""Russian that reads as Russian: a number agrees with its noun, a preposition gets the case it governs.

Built on pymorphy3 and its OpenCorpora dictionaries (pymorphy3-dicts-ru), which inflect a word given in its
dictionary form. The analyzer is created on first use, once per process (loading its dictionaries takes about
a quarter of a second; `make bench` measures it), and every answer is cached, so a message costs a dictionary
lookup only the first time a word is met. Everything here is deterministic: the same words give the same forms.

- `agree(5, "юнит")` -> «5 юнитов»; `agree(2, "вечный слуга")` -> «2 вечных слуги»;
  `agree(21, "юнит", "gent")` -> «21 юнита» (after «не больше», «из»…).
- `plural(5, "юнит")` -> «юнитов»: the words alone, for a number shown elsewhere.
- `inflect("Великая Кузня", "gent")` -> «Великой Кузни» (after «до»); `inflect("защитник", "gent")` -> «защитника».
- `render(template, params)` formats a message template where a field may carry a mark:
  `{count:юнит}` -> «3 юнита», `{limit:юнит|gent}` -> «не больше 21 юнита», `{side:@gent}` -> the value inflected.

A word is inflected only when the dictionary knows it or engine/russian.toml lists its forms; any other word
(a game name such as «Грунгни», a player's name) is left exactly as written. Text in «» is never touched.
"""
from __future__ import annotations

import functools
import importlib.resources
import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Case = Literal["nomn", "gent", "datv", "accs", "ablt", "loct"]
CASES: tuple[Case, ...] = ("nomn", "gent", "datv", "accs", "ablt", "loct")
# The case a preposition governs in the games' messages (those with one case only; «с», «в», «на» take two)
GOVERNS: Mapping[str, Case] = {"до": "gent", "из": "gent", "у": "gent", "без": "gent", "для": "gent",
                               "после": "gent", "против": "gent", "от": "gent", "к": "datv", "по": "datv",
                               "через": "accs", "про": "accs", "над": "ablt", "перед": "ablt", "при": "loct",
                               "о": "loct", "об": "loct"}
_INFLECTED_POS = frozenset({"NOUN", "ADJF", "PRTF"})
_WORD = re.compile(r"[А-Яа-яЁё]+(?:-[А-Яа-яЁё]+)*")
_QUOTED = re.compile(r"«[^«»]*»")


def number_form(n: int | float) -> Literal[0, 1, 2]:
    """Which form a number takes its noun in: 0 as 1, 21, 101 (юнит); 1 as 2–4, 22–24 and fractions
    (юнита); 2 as 0, 5–20, 25–30 (юнитов). Negative numbers agree as their absolute value."""
    if isinstance(n, float) and not n.is_integer():
        return 1
    whole = abs(int(n))
    if whole % 10 == 1 and whole % 100 != 11:
        return 0
    if 2 <= whole % 10 <= 4 and not 12 <= whole % 100 <= 14:
        return 1
    return 2


# The number each form stands for when asking the dictionary (its rules depend only on the form)
_FORM_NUMBER = {0: 1, 1: 2, 2: 5}


def agree(n: int | float, phrase: str, case: Case = "nomn") -> str:
    """The number and its noun phrase agreed with it: «1 юнит», «3 юнита», «5 юнитов», «21 юнита» (gent)."""
    return f"{_number_text(n)} {plural(n, phrase, case)}"


def plural(n: int | float, phrase: str, case: Case = "nomn") -> str:
    """The phrase (written in the nominative singular) in the form the number `n` takes it in `case`."""
    return _agreed(number_form(n), phrase, case)


def inflect(phrase: str, case: Case) -> str:
    """The phrase (nominative, singular or plural) in `case`, keeping its number: «защитник, правый авангард»
    -> «защитника, правого авангарда» (gent). Words in «» and words the dictionary does not know stay as written."""
    return _inflected(phrase, case)


def after(preposition: str, phrase: str) -> str:
    """The preposition and the phrase in the case it governs (GOVERNS): after("против", "защитник") ->
    «против защитника»."""
    return f"{preposition} {inflect(phrase, GOVERNS[preposition.lower()])}"


def render(template: str, params: Mapping[str, Any]) -> str:
    """`template.format(**params)`, with agreement marks: `{n:юнит}`, `{n:юнит|gent}` (number and noun phrase
    agreed), `{x:@gent}` (the value inflected into a case). Other format specs work as in str.format."""
    return _FORMATTER.vformat(template, (), params)


@dataclass(frozen=True)
class Mark:
    """An agreement mark of a template field: `phrase` agreed with the number (or, when phrase is empty,
    the field's own value inflected) in `case`."""

    phrase: str
    case: Case


def parse_mark(spec: str) -> Mark | None:
    """The agreement mark a field's format spec holds, or None for an ordinary spec (``>5``, ``+d``…).
    Raises ValueError for a mark with an unknown case."""
    if spec.startswith("@"):
        return Mark("", _case(spec[1:]))
    if not _WORD.match(spec):
        return None
    phrase, _, case = spec.partition("|")
    return Mark(phrase.strip(), _case(case or "nomn"))


def is_known(word: str) -> bool:
    """Whether `word` (one word) is inflected here: the dictionary knows it or engine/russian.toml lists it."""
    lower = word.lower()
    return lower in _table() or _analyzer().word_is_known(lower)


class _Formatter(string.Formatter):
    def format_field(self, value: Any, format_spec: str) -> str:
        mark = parse_mark(format_spec)
        if mark is None:
            return str(super().format_field(value, format_spec))
        if not mark.phrase:
            return inflect(str(value), mark.case)
        number = _as_number(value)
        if number is None:      # not a number after all: shown as written, never a crash
            return f"{value} {mark.phrase}"
        return agree(number, mark.phrase, mark.case)


_FORMATTER = _Formatter()


def _case(text: str) -> Case:
    if text not in CASES:
        raise ValueError(f"unknown case {text!r}: one of {', '.join(CASES)}")
    return text


def _as_number(value: object) -> int | float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return value
    text = str(value).replace("\u00a0", "").replace(" ", "").replace("−", "-")
    try:
        return int(text)
    except ValueError:
        return None


def _number_text(n: int | float) -> str:
    if isinstance(n, float):
        return (str(int(n)) if n.is_integer() else f"{n:g}".replace(".", ",")).replace("-", "−")
    return str(n)


@functools.cache
def _analyzer() -> Any:
    """The one MorphAnalyzer of the process, over the packaged Russian dictionaries (no entry-point search)."""
    import pymorphy3
    import pymorphy3_dicts_ru

    return pymorphy3.MorphAnalyzer(path=pymorphy3_dicts_ru.get_path(), lang="ru")


@functools.cache
def _table() -> dict[str, dict[str, list[str]]]:
    text = importlib.resources.files("engine").joinpath("russian.toml").read_text(encoding="utf-8")
    words = tomllib.loads(text)["words"]
    return {str(k): {"sing": list(v["sing"]), "plur": list(v["plur"])} for k, v in words.items()}


@functools.cache
def mass_nouns() -> frozenset[str]:
    """Nouns counted as an amount (engine/russian.toml `mass`): «5 золота», not «5 золот»."""
    text = importlib.resources.files("engine").joinpath("russian.toml").read_text(encoding="utf-8")
    return frozenset(str(w) for w in tomllib.loads(text).get("mass", ()))


def _table_form(word: str, number: str, case: Case) -> str | None:
    forms = _table().get(word.lower())
    return None if forms is None else forms[number][CASES.index(case)]


def _base_parse(word: str) -> Any:
    """The dictionary's reading of `word` as a noun, adjective or participle in the nominative (the form
    templates and names are written in), or None: unknown words and other parts of speech are not inflected."""
    morph = _analyzer()
    lower = word.lower()
    if not morph.word_is_known(lower):
        return None
    parses = [p for p in morph.parse(lower) if p.tag.POS in _INFLECTED_POS]
    # the nominative first, then the word's own dictionary form (руна, not the plural of руно), then the singular
    parses.sort(key=lambda p: (p.tag.case != "nomn", p.normal_form != lower, p.tag.number != "sing"))
    return parses[0] if parses else None


def _restore_case_of_letters(original: str, form: str) -> str:
    if original.isupper() and len(original) > 1:
        return form.upper()
    if original[:1].isupper():
        return "-".join(part[:1].upper() + part[1:] for part in form.split("-")) if "-" in original \
            else form[:1].upper() + form[1:]
    return form


def _word_agreed(word: str, form: int, case: Case) -> str:
    plural_number = "plur" if form == 2 or (form == 1 and case not in ("nomn", "accs")) else "sing"
    if case in ("nomn", "accs"):
        table_case: Case = case if form == 0 else "gent"
    else:
        table_case = case
    table = _table_form(word, plural_number, table_case)
    if table is not None:
        return _restore_case_of_letters(word, table)
    parse = _base_parse(word)
    if parse is None:
        return word
    if form != 0 and parse.normal_form in mass_nouns():
        amount = parse.inflect({"sing", "gent" if case in ("nomn", "accs") else case})
        return word if amount is None else _restore_case_of_letters(word, str(amount.word))
    if case != "nomn":
        parse = parse.inflect({case}) or parse
    agreed = parse.make_agree_with_number(_FORM_NUMBER[form])
    return word if agreed is None else _restore_case_of_letters(word, str(agreed.word))


def _word_inflected(word: str, case: Case) -> str:
    lower = word.lower()
    for forms in _table().values():
        for number in ("sing", "plur"):
            if forms[number][0] == lower:
                return _restore_case_of_letters(word, forms[number][CASES.index(case)])
    parse = _base_parse(word)
    if parse is None:
        return word
    grammemes = {case} if parse.tag.number is None else {case, parse.tag.number}
    inflected = parse.inflect(grammemes)
    return word if inflected is None else _restore_case_of_letters(word, str(inflected.word))


def _map_words(phrase: str, change: Any) -> str:
    """`change` applied to each word of `phrase` outside «» quotes."""
    out: list[str] = []
    pos = 0
    for quoted in _QUOTED.finditer(phrase):
        out.append(_WORD.sub(lambda m: str(change(m.group(0))), phrase[pos:quoted.start()]))
        out.append(quoted.group(0))
        pos = quoted.end()
    out.append(_WORD.sub(lambda m: str(change(m.group(0))), phrase[pos:]))
    return "".join(out)


@functools.lru_cache(maxsize=4096)
def _agreed(form: int, phrase: str, case: Case) -> str:
    return _map_words(phrase, lambda word: _word_agreed(word, form, case))


@functools.lru_cache(maxsize=4096)
def _inflected(phrase: str, case: Case) -> str:
    if case == "nomn":
        return phrase
    return _map_words(phrase, lambda word: _word_inflected(word, case))
