"""Picture tabs of an xlsx book: a protected sheet holding PNG images one below another, under a note,
printed on A4 across the page, as wide as the pictures (the note wraps within them), one picture a page,
each page numbered as a data tab's.

Putting the same pictures again gives the same sheet (the old images are replaced), so a stage
whose opening is re-run after a crash leaves the book as an uninterrupted run would.
"""
from __future__ import annotations

from collections.abc import Sequence

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from sheets_bridge.backends.xlsx.files import KeptImage
from sheets_bridge.backends.xlsx.tabs import LINE_POINTS, number_pages, text_lines
from sheets_bridge.layouts import HEADER_CHAR

SHOWN_WIDTH = 1000          # pixels an image takes on the sheet (its height scaled alike)
ROW_PIXELS = 20             # Excel's default row height in pixels
COLUMN_WIDTH = 142          # characters of column A: SHOWN_WIDTH pixels (7 a character, 5 of padding), so a
                            # printed page is as wide as the pictures, the note wrapped within them


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
    ws["A1"].alignment = Alignment(wrap_text=True, vertical="top")
    ws.column_dimensions["A"].width = COLUMN_WIDTH         # the note wraps within the pictures' width
    lines = text_lines(note, COLUMN_WIDTH, HEADER_CHAR)
    ws.row_dimensions[1].height = LINE_POINTS * lines if lines > 1 else None
    row = 3
    for png in pictures:
        image = KeptImage(png)
        scale = SHOWN_WIDTH / image.width if image.width > SHOWN_WIDTH else 1.0
        image.width, image.height = round(image.width * scale), round(image.height * scale)
        ws.add_image(image, f"A{row}")
        row += image.height // ROW_PIXELS + 2
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "landscape"      # printed or exported to PDF: each picture one page wide
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = len(pictures) or 1
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.page_margins = PageMargins(left=0.4, right=0.4, top=0.4, bottom=0.6, header=0.2, footer=0.3)
    number_pages(ws)
    ws.protection.sheet = True
