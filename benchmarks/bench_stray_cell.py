"""Benchmark: `turn` on local xlsx books with one stray cell in a standing order tab, near vs far.

A value at row 200 000 of «Армии» (never cleared) once made every later stage format every row down to
it (12 s, 584 MiB). Reading and formatting now cover only the used rows and the order rows, so the
two games should take about the same time and store the same number of cells.
"""
from __future__ import annotations

import re
import tempfile
import time
import warnings
import zipfile
from pathlib import Path

import openpyxl

from sheets_bridge.create import create_game
from sheets_bridge.stage import run_turn

ROWS = (240, 200_000)
STAGES = 2


def _cells(path: Path) -> int:
    with zipfile.ZipFile(path) as z:
        return sum(len(re.findall(rb"<c[ >]", z.read(n))) for n in z.namelist() if n.startswith("xl/worksheets/"))


def _run(root: Path, row: int) -> tuple[float, int]:
    gd = create_game(root / f"stray-{row}", "jade_rose", "demo", backend="xlsx", seed="bench-stray")
    book = gd.path / gd.config.books["empire"]
    with warnings.catch_warnings():     # plain openpyxl drops the order tabs' formula print areas, and says so
        warnings.filterwarnings("ignore", "Print area cannot be set to Defined name")
        wb = openpyxl.load_workbook(book)
    wb["Армии"].cell(row=row, column=1, value="забытая армия")
    wb.save(book)
    started = time.perf_counter()
    for _ in range(STAGES):
        run_turn(gd)
    return (time.perf_counter() - started) / STAGES, _cells(book)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        results = {row: _run(Path(tmp), row) for row in ROWS}
    for row, (seconds, cells) in results.items():
        print(f"   stray cell at row {row:>7}: {seconds:.2f} s per stage, {cells} cells in the faction book")
    near, far = (results[r] for r in ROWS)
    print(f"   far/near time ratio {far[0] / near[0]:.2f} (target about 1), same cells: {far[1] == near[1]}")


if __name__ == "__main__":
    main()
