"""A1 notation as Google Sheets reads and writes it: titles, cells, ranges."""
from __future__ import annotations

import re
from dataclasses import dataclass

_PLAIN_TITLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CELLISH = re.compile(r"(?i)([A-Z]{1,3}[0-9]+|R[0-9]*C[0-9]*)")
_REF = re.compile(r"(?i)^([A-Z]*)([0-9]*)$")


class RangeError(ValueError):
    """A range Google would refuse with "Unable to parse range"."""


def col_letters(index: int) -> str:
    """0-based column index -> letters (0 -> A, 26 -> AA)."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def col_index(letters: str) -> int:
    """Letters -> 0-based column index."""
    value = 0
    for ch in letters.upper():
        value = value * 26 + ord(ch) - 64
    return value - 1


def quote_title(title: str) -> str:
    """A sheet title as Google echoes it in ranges: bare only when it is a plain identifier."""
    if _PLAIN_TITLE.fullmatch(title) and not _CELLISH.fullmatch(title):
        return title
    return "'" + title.replace("'", "''") + "'"


@dataclass(frozen=True)
class Bounds:
    """A 0-based half-open rectangle; None means unbounded on that side."""

    row0: int | None = None
    row1: int | None = None
    col0: int | None = None
    col1: int | None = None

    def clip(self, rows: int, cols: int) -> tuple[int, int, int, int]:
        r0 = self.row0 or 0
        c0 = self.col0 or 0
        r1 = rows if self.row1 is None else min(self.row1, rows)
        c1 = cols if self.col1 is None else min(self.col1, cols)
        return r0, max(r0, r1), c0, max(c0, c1)

    def contains(self, row: int, col: int) -> bool:
        return ((self.row0 is None or row >= self.row0) and (self.row1 is None or row < self.row1)
                and (self.col0 is None or col >= self.col0) and (self.col1 is None or col < self.col1))


@dataclass(frozen=True)
class RangeRef:
    """A parsed range: the sheet title (None: first sheet) and its bounds."""

    title: str | None
    bounds: Bounds
    whole_sheet: bool = False


def split_title(text: str) -> tuple[str | None, str | None]:
    """("'My sheet'!A1:B2") -> ("My sheet", "A1:B2"); a bare part is returned as (None, part)."""
    if text.startswith("'"):
        i, chars = 1, []
        while i < len(text):
            ch = text[i]
            if ch == "'":
                if text[i + 1:i + 2] == "'":
                    chars.append("'")
                    i += 2
                    continue
                rest = text[i + 1:]
                if rest == "":
                    return "".join(chars), None
                if rest.startswith("!"):
                    return "".join(chars), rest[1:]
                raise RangeError(text)
            chars.append(ch)
            i += 1
        raise RangeError(text)
    if "!" in text:
        title, _, rest = text.rpartition("!")
        return title, rest
    return None, text


def parse_cells(text: str) -> Bounds:
    """"A1", "A1:B2", "A:B", "2:5", "A2:C" -> bounds; "$A$1" (an absolute reference) is A1."""
    parts = text.replace("$", "").split(":")
    if len(parts) > 2 or not text:
        raise RangeError(text)
    refs = []
    for part in parts:
        m = _REF.match(part)
        if not m or not (m.group(1) or m.group(2)):
            raise RangeError(text)
        col = col_index(m.group(1)) if m.group(1) else None
        row = int(m.group(2)) - 1 if m.group(2) else None
        if row is not None and row < 0:
            raise RangeError(text)
        refs.append((row, col))
    if len(refs) == 1:
        (row, col), = refs
        if row is None or col is None:
            raise RangeError(text)
        return Bounds(row, row + 1, col, col + 1)
    (r0, c0), (r1, c1) = refs
    bounds = Bounds(r0, None if r1 is None else r1 + 1, c0, None if c1 is None else c1 + 1)
    if bounds.row0 is not None and bounds.row1 is not None and bounds.row1 <= bounds.row0:
        bounds = Bounds(bounds.row1 - 1, bounds.row0 + 1, bounds.col0, bounds.col1)
    if bounds.col0 is not None and bounds.col1 is not None and bounds.col1 <= bounds.col0:
        bounds = Bounds(bounds.row0, bounds.row1, bounds.col1 - 1, bounds.col0 + 1)
    return bounds


def format_range(title: str, r0: int, r1: int, c0: int, c1: int) -> str:
    """Title and 0-based half-open rectangle -> "'Title'!A1:B2" (a single cell as "A1")."""
    start = f"{col_letters(c0)}{r0 + 1}"
    end = f"{col_letters(max(c0, c1 - 1))}{max(r0, r1 - 1) + 1}"
    cells = start if start == end else f"{start}:{end}"
    return f"{quote_title(title)}!{cells}"
