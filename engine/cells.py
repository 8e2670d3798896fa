"""Reading order cells as people type them, for every rule set: names, yes/no, counts, integers.

A name matches whatever its case, ё or е, quote style, dash style and extra spaces, and also when
a Latin letter that looks like a Cyrillic one slipped into a Russian word («Kарак» typed with a
Latin K). Counts and signed integers are whole numbers, digits optionally grouped by three
(engine.numbers holds the count parser and its messages).
"""
from __future__ import annotations

import re
import unicodedata

from engine.numbers import GROUP_SEPARATORS, read_count, whole_number

__all__ = ["normalize_name", "parse_yes_no", "read_count", "signed_integer", "whole_number", "YES", "NO"]

YES, NO = "Да", "Нет"
_QUOTES = re.compile(r"[\"'«»„“”‘’‚`´*]")
_DASHES = re.compile(r"\s*[‐‑‒–—―-]\s*")
_CYRILLIC = re.compile(r"[а-яё]")
# Latin letters that look the same as Cyrillic ones, in lower case (after casefold).
_LOOKALIKES = str.maketrans({"a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м",
                             "o": "о", "p": "р", "t": "т", "x": "х", "y": "у"})
_YES_WORDS = frozenset({"да", "yes", "y", "+", "1", "истина", "true"})
_NO_WORDS = frozenset({"нет", "no", "n", "-", "0", "ложь", "false"})


def normalize_name(text: str) -> str:
    """The form two names are compared in: case, ё/е, quotes, dashes, spacing and Latin
    look-alike letters inside a Russian word do not matter."""
    text = unicodedata.normalize("NFKC", str(text)).replace("\u00a0", " ").casefold().replace("ё", "е")
    text = _QUOTES.sub(" ", text)
    text = _DASHES.sub("-", text)
    words = []
    for word in text.split():
        words.append(word.translate(_LOOKALIKES) if _CYRILLIC.search(word) else word)
    return " ".join(words)


def parse_yes_no(text: str, yes: frozenset[str] = frozenset(), no: frozenset[str] = frozenset()) -> bool | None:
    """«Да»/«Нет» (and the usual ways to write them, plus a rule set's own `yes`/`no` words);
    None for anything else."""
    norm = normalize_name(text)
    if norm in _YES_WORDS or norm in yes:
        return True
    return False if norm in _NO_WORDS or norm in no else None


def signed_integer(text: str) -> int | None:
    """A whole number with an optional sign («-300», «+1 200», «−5» with a minus sign), or None."""
    clean = text.strip().replace("\u2212", "-")
    sign = -1 if clean.startswith("-") else 1
    body = clean[1:].lstrip(GROUP_SEPARATORS) if clean[:1] in "+-" else clean
    value = whole_number(body)
    return None if value is None else sign * value
