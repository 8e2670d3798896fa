"""Picture tabs of an xlsx book: a protected sheet holding PNG images one below another, under a note.

Putting the same pictures again gives the same sheet (the old images are replaced), so a stage
whose opening is re-run after a crash leaves the book as an uninterrupted run would.
"""
from __future__ import annotations

from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.backends.xlsx.files import KeptImage

SHOWN_WIDTH = 1000          # pixels an image takes on the sheet (its height scaled alike)
ROW_PIXELS = 20             # Excel's default row height in pixels


def put_pictures(wb: Workbook, title: str, pictures: Sequence[bytes], note: str, after: str | None = None) -> None:
    """Make `title` a protected sheet with `note` in A1 and the PNG `pictures` below it; a new sheet goes
    right after the sheet `after` when the book has one, else last."""
    is_new = title not in wb.sheetnames
    ws = wb.create_sheet(title) if is_new else wb[title]
    if not isinstance(ws, Worksheet):
        raise TypeError(f"{title!r} is a chart sheet, not a worksheet")
    if is_new and after is not None and after in wb.sheetnames:
        wb.move_sheet(ws, offset=wb.sheetnames.index(after) + 1 - wb.sheetnames.index(title))
    ws._images = []   # type: ignore[attr-defined]  # openpyxl's list of a sheet's images (no stub): replace them
    ws["A1"] = note
    ws["A1"].font = Font(bold=True)
    row = 3
    for png in pictures:
        image = KeptImage(png)
        scale = SHOWN_WIDTH / image.width if image.width > SHOWN_WIDTH else 1.0
        image.width, image.height = round(image.width * scale), round(image.height * scale)
        ws.add_image(image, f"A{row}")
        row += image.height // ROW_PIXELS + 2
    ws.page_setup.orientation = "landscape"      # printed or exported to PDF: each picture one page wide
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = len(pictures) or 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.protection.sheet = True
