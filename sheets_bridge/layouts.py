"""Tab layouts (templates/<ruleset>/layout.toml): loading and turning them into reads and writes."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from engine.ruleset import Row, RowStatus, Table
from sheets_bridge.backend import TabWrite

# The `templates` package (the top-level templates/ folder), found wherever forumwar is installed.
TEMPLATES: Traversable = files("templates")
BOOK_KINDS = ("faction", "public", "gm")


class LayoutError(ValueError):
    def __init__(self, problems: list[str]):
        super().__init__("invalid layout:\n  " + "\n  ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Column:
    key: str
    title: str
    list: str = ""
    values: tuple[str, ...] = ()
    width: int = 0
    status: bool = False


@dataclass(frozen=True)
class TabLayout:
    key: str
    title: str
    kind: str
    stage: str = ""
    columns: tuple[Column, ...] = ()
    widths: tuple[int, ...] = ()
    keep: bool = False          # order tab whose rows stay from stage to stage (standing orders)

    @property
    def status_index(self) -> int | None:
        for i, col in enumerate(self.columns):
            if col.status:
                return i
        return None


@dataclass(frozen=True)
class BookLayout:
    kind: str
    title: str
    tabs: tuple[TabLayout, ...]

    def tab(self, key: str) -> TabLayout:
        return next(t for t in self.tabs if t.key == key)


@dataclass(frozen=True)
class Layout:
    ruleset: str
    books: dict[str, BookLayout]

    @classmethod
    def load(cls, ruleset: str, root: Traversable = TEMPLATES) -> "Layout":
        """The layout of `ruleset` from the packaged templates (or from `root`, a folder or Traversable)."""
        raw = tomllib.loads(root.joinpath(ruleset, "layout.toml").read_text(encoding="utf-8"))
        return cls.from_dict(ruleset, raw)

    @classmethod
    def from_dict(cls, ruleset: str, raw: dict) -> "Layout":
        problems: list[str] = []
        books: dict[str, BookLayout] = {}
        for kind in BOOK_KINDS:
            braw = raw.get("books", {}).get(kind)
            if braw is None:
                problems.append(f"books.{kind}: missing")
                continue
            tabs = []
            seen_titles: set[str] = set()
            for i, traw in enumerate(braw.get("tabs", [])):
                where = f"books.{kind}.tabs[{i}]"
                for need in ("key", "title", "kind"):
                    if need not in traw:
                        problems.append(f"{where}: missing {need}")
                if traw.get("kind") not in ("orders", "status"):
                    problems.append(f"{where}: kind must be 'orders' or 'status'")
                if traw.get("title") in seen_titles:
                    problems.append(f"{where}: duplicate tab title {traw.get('title')!r}")
                seen_titles.add(traw.get("title"))
                cols = []
                for j, craw in enumerate(traw.get("columns", [])):
                    if "key" not in craw or "title" not in craw:
                        problems.append(f"{where}.columns[{j}]: needs key and title")
                        continue
                    cols.append(Column(key=craw["key"], title=craw["title"], list=craw.get("list", ""),
                                       values=tuple(craw.get("values", ())), width=int(craw.get("width", 0)),
                                       status=bool(craw.get("status", False))))
                if traw.get("kind") == "orders":
                    if not cols:
                        problems.append(f"{where}: an order tab needs columns")
                    elif sum(c.status for c in cols) != 1:
                        problems.append(f"{where}: an order tab needs exactly one status column")
                    if not traw.get("stage"):
                        problems.append(f"{where}: an order tab needs its stage")
                tabs.append(TabLayout(key=traw.get("key", ""), title=traw.get("title", ""),
                                      kind=traw.get("kind", ""), stage=traw.get("stage", ""),
                                      columns=tuple(cols), widths=tuple(traw.get("widths", ())),
                                      keep=bool(traw.get("keep", False))))
            books[kind] = BookLayout(kind=kind, title=braw.get("title", "{game}"), tabs=tuple(tabs))
        if problems:
            raise LayoutError(problems)
        return cls(ruleset=ruleset, books=books)

    def order_tabs(self, stage: str | None = None, kind: str | None = None) -> list[TabLayout]:
        """Order tabs of one book kind (all kinds when None), optionally of one stage."""
        kinds = BOOK_KINDS if kind is None else (kind,)
        return [t for k in kinds for t in self.books[k].tabs
                if t.kind == "orders" and (stage is None or t.stage == stage)]


def book_kind(book_key: str) -> str:
    return book_key if book_key in ("public", "gm") else "faction"


# -- reading ---------------------------------------------------------------------

def rows_from_sheet(tab: TabLayout, raw: list[list[str]]) -> tuple[list[Row], list[str]]:
    """Map a tab's text rows to `Row`s by header title; return problems with the header itself.

    Columns are found by their header title, so a GM may reorder them; a missing column is a
    tab-level problem (its cells read as blank).
    """
    problems: list[str] = []
    header = [str(c).strip() for c in (raw[0] if raw else [])]
    index: dict[str, int] = {}
    for col in tab.columns:
        if col.status:
            continue
        if col.title in header:
            index[col.key] = header.index(col.title)
        else:
            problems.append(f"во вкладке «{tab.title}» нет столбца «{col.title}»")
    rows = []
    for offset, cells in enumerate(raw[1:], start=2):
        values = {key: (cells[i] if i < len(cells) else "") for key, i in index.items()}
        row = Row(number=offset, cells=values)
        if not row.is_blank():
            rows.append(row)
    return rows, problems


# -- writing ---------------------------------------------------------------------

def _widths(tab: TabLayout) -> dict[int, int]:
    if tab.columns:
        return {i: c.width for i, c in enumerate(tab.columns) if c.width}
    return {i: w for i, w in enumerate(tab.widths) if w}


def status_tab(tab: TabLayout, table: Table) -> TabWrite:
    return TabWrite(title=tab.title, header=tuple(table.columns), rows=tuple(tuple(r) for r in table.rows),
                    kind="status", column_widths=_widths(tab))


def order_tab(tab: TabLayout, vocab: dict[str, list[str]], editors: tuple[str, ...],
              rows: tuple[tuple, ...] | None = (), locked: bool = False) -> TabWrite:
    """An order tab: header, dropdowns, open cells for `editors`; `rows=()` clears it, None keeps it."""
    dropdowns = {}
    for i, col in enumerate(tab.columns):
        values = tuple(col.values) or tuple(vocab.get(col.list, ())) if (col.values or col.list) else ()
        if values:
            dropdowns[i] = values
    status = tab.status_index
    return TabWrite(title=tab.title, header=tuple(c.title for c in tab.columns), rows=rows, kind="orders",
                    dropdowns=dropdowns, locked_columns=(status,) if status is not None else (),
                    editors=editors, column_widths=_widths(tab), locked=locked)


def status_column_update(tab: TabLayout, statuses: list[RowStatus], header_map: list[str],
                         clear_rows: list[int] = ()) -> TabWrite:
    """Write only the status cells of an order tab (players' cells untouched)."""
    col = tab.status_index
    status_title = tab.columns[col].title
    # Write where the sheet has its status header (a GM may have moved it), else at the layout position.
    if status_title in header_map:
        col = header_map.index(status_title)
    cells = {n: "" for n in clear_rows}
    cells.update({s.number: s.text() for s in statuses})
    return TabWrite(title=tab.title, column_updates={col: cells}, kind="orders",
                    locked_columns=(col,), header=None)
