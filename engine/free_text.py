"""Text a player types that others read: what a name may hold, and how any text is shown safely.

A name (a Titania capital, a Jade Rose army) is plain text: letters, digits, spaces and a few punctuation
marks. `name_problem` refuses markup (forum tags, HTML), links, a formula's first sign, invisible, control
and bidi characters, a word that mixes Russian and Latin letters, and a name that reads like one already in
the game (case, spacing, ё/е and look-alike letters of other alphabets folded, by Unicode's confusables
list). `plain` is the defence in depth of every post: a tag inside any text shows as text on every forum
dialect the posts support. `shown` is how a message quotes what a player typed: invisible characters made
visible, so a status never hides or reorders text.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cells import normalize_name
from engine.errors import OrderError, define

NO_TAG = "\u200b"   # after «[»: no forum reads «[\u200bb]» as a tag, and it looks like «[b]»
PUNCTUATION = "-–—'’.,«»\"()!?№:"
"""What a name may hold besides letters, digits and single spaces."""
ALLOWED_TEXT = "буквы, цифры, пробел, точку, запятую, дефис и тире, апостроф, кавычки, скобки и знаки ! ? № :"
SHOWN_LIMIT = 40

define({
    "E_NAME_MARKUP": "Название «{value}» не принято: в нём разметка ({found}) — теги форума и HTML в названиях "
                     "не принимаются, другие игроки увидят название как есть. В названии можно "
                     "писать {allowed}.",
    "E_NAME_LINK": "Название «{value}» не принято: в нём ссылка ({found}). Ссылки в названиях не принимаются.",
    "E_NAME_FORMULA": "Название «{value}» не принято: оно начинается со знака «{found}», так начинается формула "
                      "таблицы. Начните название с буквы или цифры.",
    "E_NAME_INVISIBLE": "Название «{value}» не принято: в нём невидимый или управляющий знак ({found}). Такие знаки "
                        "прячут разницу между названиями или меняют порядок букв на экране; наберите название "
                        "заново, без них.",
    "E_NAME_SYMBOL": "Название «{value}» не принято: знак «{found}» в названиях не принимается. В названии можно "
                     "писать {allowed}.",
    "E_NAME_MIXED": "Название «{value}» не принято: в слове «{word}» смешаны русские и латинские буквы (латинские: "
                    "{letters}) — так пишут название, которое выдаёт себя за другое. Наберите слово в одной "
                    "раскладке.",
    "E_NAME_LOOKALIKE": "Название «{value}» не принято: его не отличить от названия {what} «{other}» (регистр, "
                        "пробелы, ё и похожие буквы других алфавитов не в счёт). Выберите другое название.",
    "E_TEXT_MARKUP": "В поле «{column}» разметка ({found}): теги форума и HTML здесь не принимаются, текст попадёт "
                     "в журналы и посты как есть. Напишите его без тегов.",
    "E_TEXT_INVISIBLE": "В поле «{column}» невидимый или управляющий знак ({found}): он прячет или переставляет "
                        "текст на экране. Наберите текст заново, без него.",
    "E_TEXT_TOO_LONG": "Текст в поле «{column}» слишком длинный: знаков в нём {length}, а можно не больше {limit}.",
    "E_NAME_TOO_LONG": "Название «{value}» слишком длинное: знаков в нём {length}, а можно не больше {limit}. "
                       "Сократите его.",
})


@dataclass(frozen=True)
class Taken:
    """A name already in the game that a new one must not look like: `what` names its kind in the
    genitive («провинции», «города», «фракции»)."""

    what: str
    name: str


_MARKUP = re.compile(r"\[/?[A-Za-z*][^\]]*\]?|<\s*/?\s*[A-Za-z!][^>]*>?|[\[\]<>{}]")
_LINK = re.compile(r"[a-z][a-z0-9+.-]*://|www\.|\b[a-z0-9-]+\.(?:ru|com|net|org|example|рф|su|ua|by|io)\b",
                   re.IGNORECASE)
_FORMULA_START = "=+-@"
_INVISIBLE_CATEGORIES = {"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp", "Mn", "Me"}


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES or (ch.isspace() and ch != " ")


def _what_invisible(ch: str) -> str:
    """A Russian word for an invisible character, for the message that refuses it."""
    if _bidi(ch):
        return "знак направления письма"
    if ch in "\u200b\ufeff\u2060":
        return "пробел нулевой ширины"
    if ch in "\u200c\u200d":
        return "невидимый соединитель букв"
    if ch == "\u00ad":
        return "мягкий перенос"
    if ch == "\t":
        return "табуляция"
    if ch in "\n\r\u2028\u2029\x0b\x0c\x85":
        return "перевод строки"
    if unicodedata.category(ch) in ("Mn", "Me"):
        return "надстрочный или подстрочный знак без буквы"
    if ch in "\u00a0\u202f":
        return "неразрывный пробел"
    if ch.isspace():
        return "особый пробел"
    return "управляющий знак"


def shown(text: object, limit: int = SHOWN_LIMIT) -> str:
    """What a player typed, as a message quotes it: each invisible or control character as «⟨U+200B⟩», at most
    `limit` characters of the text."""
    raw = str(text)
    cut = raw if len(raw) <= limit else raw[:limit]
    out = "".join(f"⟨U+{ord(ch):04X}⟩" if _invisible(ch) else ch for ch in cut)
    return out if cut == raw else out + "…"


def plain(text: object) -> str:
    """Any text in a forum post, shown literally: a zero-width space after each «[», so a tag typed into it
    («[b]», «[url=…]») is shown, never applied; bidi controls, which would reorder the post around it, are
    dropped."""
    return "".join(ch for ch in str(text) if not _bidi(ch)).replace("[", "[" + NO_TAG)


def plain_title(text: object) -> str:
    """Text inside a tag's parameter (a spoiler's title): as `plain`, and no «]» or «"» that would end it."""
    return plain(text).replace("]", ")").replace('"', "″")


def _bidi(ch: str) -> bool:
    return unicodedata.bidirectional(ch) in ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI") or \
        ch in "\u200e\u200f\u061c"


def _script(ch: str) -> str | None:
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return "latin" if name.startswith("LATIN") else "cyrillic" if name.startswith("CYRILLIC") else "other"


def folded(text: str) -> str:
    """The form names are compared in for look-alikes: `normalize_name` with spaces collapsed."""
    return " ".join(normalize_name(text).split())


def looks_like(a: str, b: str) -> bool:
    """Whether two names read the same: equal once folded, or confusable letter by letter (Unicode's list)."""
    fa, fb = folded(a), folded(b)
    if fa == fb:
        return True
    if abs(len(fa) - len(fb)) > max(len(fa), len(fb)) // 2:   # no confusable pair differs this much
        return False
    from confusables import is_confusable  # (its table loads once, on the first name compared)
    return bool(is_confusable(fa, fb))


def _invisible_found(text: str) -> str | None:
    bad = [ch for ch in text if _invisible(ch) and ch not in "\n"]
    return ", ".join(dict.fromkeys(f"U+{ord(ch):04X}, {_what_invisible(ch)}" for ch in bad)) if bad else None


def text_problem(text: str, *, column: str, limit: int) -> OrderError | None:
    """Why free text others read (the GM's «Причина»: journals, the ledger, posts) cannot stand (None: it can):
    markup, invisible or control characters, or more than `limit` characters. Links and any letters may."""
    text = unicodedata.normalize("NFC", text)
    found = _invisible_found(text)
    if found:
        return OrderError("E_TEXT_INVISIBLE", {"column": column, "found": found})
    markup = _MARKUP.search(text)
    if markup:
        return OrderError("E_TEXT_MARKUP", {"column": column, "found": f"«{shown(markup.group(0), 20)}»"})
    if len(text) > limit:
        return OrderError("E_TEXT_TOO_LONG", {"column": column, "length": len(text), "limit": limit})
    return None


def name_problem(text: str, *, limit: int, taken: Iterable[Taken] = ()) -> OrderError | None:
    """Why `text` cannot be a name others will read (None: it can). `taken`: the names it must not look like."""
    value = shown(text)
    allowed = ALLOWED_TEXT
    text = unicodedata.normalize("NFC", text)   # «й» typed as «и» and a combining breve is «й»
    found = _invisible_found(text) or ("U+000A, перевод строки" if "\n" in text else None)
    if found:
        return OrderError("E_NAME_INVISIBLE", {"value": value, "found": found})
    if text[:1] in _FORMULA_START:
        return OrderError("E_NAME_FORMULA", {"value": value, "found": text[0]})
    markup = _MARKUP.search(text)
    if markup:
        return OrderError("E_NAME_MARKUP", {"value": value, "found": f"«{shown(markup.group(0), 20)}»",
                                            "allowed": allowed})
    link = _LINK.search(text)
    if link:
        return OrderError("E_NAME_LINK", {"value": value, "found": f"«{link.group(0)}»"})
    for ch in text:
        if not (ch.isalnum() or ch == " " or ch in PUNCTUATION):
            return OrderError("E_NAME_SYMBOL", {"value": value, "found": ch, "allowed": allowed})
    if len(text) > limit:
        return OrderError("E_NAME_TOO_LONG", {"value": value, "limit": limit, "length": len(text)})
    for word in text.split():
        scripts = {s for s in map(_script, word) if s}
        if {"latin", "cyrillic"} <= scripts:
            latin = "".join(dict.fromkeys(ch for ch in word if _script(ch) == "latin"))
            return OrderError("E_NAME_MIXED", {"value": value, "word": word, "letters": latin})
    for other in taken:
        if looks_like(text, other.name):
            return OrderError("E_NAME_LOOKALIKE", {"value": value, "what": other.what, "other": other.name})
    return None
