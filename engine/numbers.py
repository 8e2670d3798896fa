"""Whole numbers typed into order cells: the one parser every count column uses.

A count is written as people write it: ASCII digits, optionally grouped by three with one space,
no-break space, thin space or narrow no-break space between groups ("1200", "1 200", "1 200 000").
Nothing else is a count: no sign, no decimal point or comma, no exponent ("1e3"), no other scripts'
digits. A bad value gets a Russian message that says what is allowed and echoes the value shortened.
"""
from __future__ import annotations

import re

from engine.errors import OrderError

GROUP_SEPARATORS = " \u00a0\u2009\u202f"      # space, no-break space, thin space, narrow no-break space
MAX_DIGITS = 15                               # longer than any sane count; keeps int() cheap and bounded
ECHO_LIMIT = 20                               # characters of a bad value quoted back in a message
TOO_LARGE: int = 10 ** MAX_DIGITS             # what a longer number reads as: above any maximum

_SEP = "[" + GROUP_SEPARATORS + "]"
_WHOLE = re.compile(rf"[0-9]+|[0-9]{{1,3}}(?:{_SEP}[0-9]{{3}})+")

def group_digits(value: int) -> str:
    """An integer as a Russian reader writes it: groups of three joined by no-break spaces."""
    return f"{value:,}".replace(",", "\u00a0")


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """A player's value as quoted back in a message: at most `limit` characters."""
    return text if len(text) <= limit else text[:limit] + "…"


def whole_number(text: str) -> int | None:
    """The whole number written in `text` (digits, optionally grouped by three), or None."""
    clean = text.strip()
    if not _WHOLE.fullmatch(clean):
        return None
    digits = "".join(ch for ch in clean if ch not in GROUP_SEPARATORS)
    if len(digits.lstrip("0")) > MAX_DIGITS:
        return TOO_LARGE                  # without converting a huge string
    return int(digits)


def read_count(text: str, column: str, *, maximum: int, minimum: int = 1) -> int | OrderError:
    """`text` as a count in [minimum, maximum], or the error to show on the row."""
    value = whole_number(text)
    if value is None or value < minimum:
        if minimum >= 1:
            return OrderError("E_NOT_A_NUMBER", {"column": column, "value": echo(text)})
        return OrderError("E_NOT_A_WHOLE_NUMBER", {"column": column, "value": echo(text), "min": minimum,
                                                   "max": group_digits(maximum)})
    if value > maximum:
        return OrderError("E_NUMBER_TOO_LARGE", {"column": column, "value": echo(text), "max": group_digits(maximum)})
    return value
