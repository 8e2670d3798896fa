"""Tab layouts (templates/<ruleset>/layout.toml): loading and turning them into reads and writes."""
from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from engine.errors import OrderError
from engine.ruleset import Row, RowStatus, Table
from sheets_bridge.backend import TabWrite

# The `templates` package (the top-level templates/ folder), found wherever forumwar is installed.
TEMPLATES: Traversable = files("templates")


def templates_root(ruleset: str) -> Traversable:
    """The folder of a rule set's layout, scenarios and examples: <its templates_anchor package>/<name>."""
    from engine import find_ruleset
    try:
        anchor = find_ruleset(ruleset).templates_anchor
    except KeyError:
        anchor = "templates"
    return files(anchor).joinpath(ruleset)
BOOK_KINDS = ("faction", "public", "gm")
# Order rows per order tab (layout.toml may set `rows` per tab): orders are read from sheet rows 2 to
# ORDER_ROWS + 1 only, which is also where dropdowns and open cells go; a filled row below gets a message.
ORDER_ROWS = 200
FORMULA_PREFIXES = ("=", "+", "-", "@")   # what a spreadsheet may take for the start of a formula
PAST_LIMIT_STATUSES = 50    # rows below the limit that get their own status (the tab notice counts them all)


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
    rows: int = ORDER_ROWS      # order tab: how many rows below the header carry orders

    @property
    def last_row(self) -> int:
        """The last sheet row read as an order (the header is row 1)."""
        return self.rows + 1

    @property
    def status_index(self) -> int | None:
        for i, col in enumerate(self.columns):
            if col.status:
                return i
        return None

    def status_position(self, header: list[str]) -> int:
        """Where an order tab's status column is in a sheet with this `header`: under its title if the
        sheet has it (a GM may have moved it), else at the layout position (the layout check gives every
        order tab exactly one status column)."""
        index = self.status_index
        if index is None:
            raise ValueError(f"tab {self.key!r} has no status column")
        title = self.columns[index].title
        return header.index(title) if title in header else index


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
    def load(cls, ruleset: str, root: Traversable | None = None) -> Layout:
        """The layout of `ruleset` from its templates (or from `root`/<ruleset>, a folder or Traversable)."""
        folder = templates_root(ruleset) if root is None else root.joinpath(ruleset)
        raw = tomllib.loads(folder.joinpath("layout.toml").read_text(encoding="utf-8"))
        return cls.from_dict(ruleset, raw)

    @classmethod
    def from_dict(cls, ruleset: str, raw: dict) -> Layout:
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
                n_rows = traw.get("rows", ORDER_ROWS)
                if isinstance(n_rows, bool) or not isinstance(n_rows, int) or n_rows < 1:
                    problems.append(f"{where}: rows must be a whole number of order rows (at least 1)")
                    n_rows = ORDER_ROWS
                tabs.append(TabLayout(key=traw.get("key", ""), title=traw.get("title", ""),
                                      kind=traw.get("kind", ""), stage=traw.get("stage", ""),
                                      columns=tuple(cols), widths=tuple(traw.get("widths", ())),
                                      keep=bool(traw.get("keep", False)),
                                      rows=n_rows))
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

@dataclass(frozen=True)
class TabRead:
    """An order tab as read: rows for the rule set, rows refused before it, notices on the whole tab."""

    rows: list[Row]
    refused: list[RowStatus]
    notices: list[OrderError]
    header_ok: bool = True


def header_title(cell: object) -> str:
    """A header cell as compared with the layout: surrounding and repeated whitespace ignored."""
    return " ".join(str(cell).split())


def column_positions(tab: TabLayout, header: list[str]) -> tuple[dict[str, int], list[str], list[str]]:
    """Sheet position of each of the tab's columns found by its exact title; the titles missing and
    the titles found more than once (neither is ever read)."""
    titles = [header_title(c) for c in header]
    found: dict[str, int] = {}
    missing, twice = [], []
    for col in tab.columns:
        hits = [i for i, t in enumerate(titles) if t == col.title]
        if len(hits) == 1:
            found[col.key] = hits[0]
        elif hits:
            twice.append(col.title)
        elif not col.status:
            missing.append(col.title)
    return found, missing, twice


def _quoted(titles: list[str]) -> str:
    return " и ".join(f"«{t}»" for t in titles)


def _filled(cells: list[str], skip: int | None) -> bool:
    return any(str(c).strip() for i, c in enumerate(cells) if i != skip)


def rows_from_sheet(tab: TabLayout, raw: list[list[str]]) -> TabRead:
    """Map a tab's text rows to `Row`s by header title, reading only columns whose header is exactly
    the layout's title and only rows 2 to `tab.last_row`.

    A missing, renamed or doubled header refuses every filled row of the tab, naming the column; a
    filled row below the limit is refused too (the first PAST_LIMIT_STATUSES of them get a status,
    the tab notice counts them all). Cheap on a long, mostly empty sheet: blank rows cost one test.
    """
    found, missing, twice = column_positions(tab, list(raw[0]) if raw else [])
    status_at = found.get(tab.columns[tab.status_index].key) if tab.status_index is not None else None
    found = {k: i for k, i in found.items() if i != status_at}
    notices: list[OrderError] = []
    refused: list[RowStatus] = []
    body = raw[1:tab.last_row]
    if missing or twice:
        params: dict[str, object] = {"tab": tab.title, "columns": _quoted(missing or twice)}
        row_code, tab_code = ("E_COLUMN_MISSING", "E_TAB_COLUMN_MISSING") if missing else \
            ("E_COLUMN_TWICE", "E_TAB_COLUMN_TWICE")
        notices.append(OrderError(tab_code, params))
        refused += [RowStatus(tab.key, n, (OrderError(row_code, params),))
                    for n, cells in enumerate(body, start=2) if _filled(cells, status_at)]
        rows: list[Row] = []
    else:
        rows = []
        for number, cells in enumerate(body, start=2):
            if not cells:
                continue
            row = Row(number=number, cells={k: (cells[i] if i < len(cells) else "") for k, i in found.items()})
            if not row.is_blank():
                rows.append(row)
    past = [n for n, cells in enumerate(raw[tab.last_row:], start=tab.last_row + 1)
            if cells and _filled(cells, status_at)]
    if past:
        notices.append(OrderError("E_TAB_PAST_LIMIT", {"tab": tab.title, "last": tab.last_row, "count": len(past),
                                                       "first": past[0]}))
        refused += [RowStatus(tab.key, n, (OrderError("E_ROW_PAST_LIMIT", {"tab": tab.title, "row": n,
                                                                             "last": tab.last_row}),))
                    for n in past[:PAST_LIMIT_STATUSES]]
    return TabRead(rows, refused, notices, header_ok=not (missing or twice))


def clip_rows(tab: TabLayout, raw: list[list[str]]) -> list[list[str]]:
    """The part of a tab that is read as orders (header and rows 2 to `tab.last_row`)."""
    return raw[:tab.last_row]


def order_text(tab: TabLayout, raw: list[list[str]], number: int) -> str:
    """Row `number` of an order tab as the player wrote it, for «Итоги приказов»: only the layout's
    columns found by their header (status left out), in layout order. A value that a spreadsheet could
    take for a formula (= + - @) is shown in «», so the text never starts like one."""
    if not raw or not 1 < number <= len(raw):
        return ""
    found, _, _ = column_positions(tab, list(raw[0]))
    cells = raw[number - 1]
    parts = []
    for col in tab.columns:
        i = found.get(col.key)
        value = str(cells[i]).strip() if i is not None and i < len(cells) and not col.status else ""
        if value:
            parts.append(f"«{value}»" if value.startswith(FORMULA_PREFIXES) else value)
    return " · ".join(parts)


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
                    editors=editors, column_widths=_widths(tab), locked=locked, order_rows=tab.rows)


def status_column_update(tab: TabLayout, statuses: list[RowStatus], header_map: list[str],
                         clear_rows: Iterable[int] = ()) -> TabWrite:
    """Write only the status cells of an order tab (players' cells untouched)."""
    col = tab.status_position(header_map)
    cells = {n: "" for n in clear_rows if n > 1}
    cells.update({s.number: s.text() for s in statuses if s.number > 1})   # row 1 is the header
    return TabWrite(title=tab.title, column_updates={col: cells}, kind="orders",
                    locked_columns=(col,), header=None)
