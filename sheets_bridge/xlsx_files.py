"""Loading and saving .xlsx files, with each parsed workbook kept for the next load of the same bytes.

Parsing a book with openpyxl costs as much as writing it, and a command reads a book (the orders) and
then writes it (the statuses, the results). So a workbook loaded for reading is kept, keyed by the
exact bytes of its file; a later load hashes the file and reuses the kept workbook only for the same
bytes (a player's edit, another program or a restored archive changes them, and the file is parsed
again; a copy of the file is the same workbook). Reading never changes a kept workbook; an edit takes
it out (`load_for_edit`) and `save` does not put it back: openpyxl's writer leaves small traces in the
workbook it saves (e.g. the sheet's outline level), so only a fresh parse is the exact equivalent of
the file, and the next write of a book gives the same bytes whether or not the process read it
before. Workbooks holding pictures or charts are never kept (openpyxl reads their images from the
loaded file once).
"""
from __future__ import annotations

import hashlib
import io
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.gamedir import atomic_write_bytes

KEPT_BOOKS = 16          # every book of the largest scenario (Titania's ten), with room


class _Kept:
    """Digest of a file's bytes -> the workbook they parse to, least recently used first."""

    def __init__(self) -> None:
        self._books: OrderedDict[bytes, Workbook] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, digest: bytes, take: bool) -> Workbook | None:
        with self._lock:
            if take:
                return self._books.pop(digest, None)
            wb = self._books.get(digest)
            if wb is not None:
                self._books.move_to_end(digest)
            return wb

    def put(self, digest: bytes, wb: Workbook) -> None:
        if _holds_pictures(wb):
            return
        with self._lock:
            self._books[digest] = wb
            self._books.move_to_end(digest)
            while len(self._books) > KEPT_BOOKS:
                self._books.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._books.clear()


_KEPT = _Kept()


def _digest(data: bytes) -> bytes:
    return hashlib.blake2b(data, digest_size=20).digest()


def _holds_pictures(wb: Workbook) -> bool:
    return any(getattr(ws, "_images", None) or getattr(ws, "_charts", None) for ws in wb.worksheets)


def _load(path: Path, take: bool) -> Workbook:
    data = Path(path).read_bytes()
    digest = _digest(data)
    kept = _KEPT.get(digest, take)
    if kept is not None:
        return kept
    wb = load_workbook(io.BytesIO(data))
    if not take:
        _KEPT.put(digest, wb)
    return wb


def load_for_reading(path: Path) -> Workbook:
    """The workbook in the file, to read only (it may be the one kept for these bytes: never change it)."""
    return _load(path, take=False)


def load_for_edit(path: Path) -> Workbook:
    """The workbook in the file, to change and `save`; nothing else sees it until it is saved."""
    return _load(path, take=True)


def forget() -> None:
    """Drop every kept workbook (the next load of any file parses it)."""
    _KEPT.clear()


def save(wb: Workbook, path: Path) -> None:
    """Write the workbook atomically (a temporary file in the same folder, synced, then `os.replace`)."""
    path = Path(path)
    buffer = io.BytesIO()
    wb.save(buffer)
    atomic_write_bytes(path, buffer.getvalue())


def sheet_values(ws: Worksheet) -> list[tuple[Any, ...]]:
    """The sheet's values row by row from row 1 and column A to its last cell, None where empty: what
    openpyxl's read-only `iter_rows(values_only=True)` yields, without adding cells to the sheet."""
    cells: dict[tuple[int, int], Any] = ws._cells    # openpyxl's own store; iter_rows would fill it
    if not cells:
        return []
    last_row = max(r for r, _ in cells)
    last_col = max(c for _, c in cells)
    grid: list[list[Any]] = [[None] * last_col for _ in range(last_row)]
    for (r, c), cell in cells.items():
        grid[r - 1][c - 1] = cell.value
    return [tuple(row) for row in grid]
