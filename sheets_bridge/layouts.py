"""Tab layouts (templates/<ruleset>/layout.toml): loading and turning them into reads and writes.

One file: the layout's validation, the reading of a tab by its headers and the writes of a tab use the
same column and row rules."""
from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

from engine.errors import OrderError
from engine.numbers import TOO_LARGE, whole_number
from engine.ruleset import Row, RowStatus, Table
from sheets_bridge.backends.base import TabWrite

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
# tab kinds: "orders" (a stage's order rows), "status" (written by the bridge), "simulator" (a hypothetical battle,
# open at every stage), "ready" (the players' «Приказы готовы», read with the orders)
TAB_KINDS = ("orders", "status", "simulator", "ready")
COLUMN_KINDS = {"": None, "text": None, "count": 1, "integer": None}   # kind -> the default minimum
WRAP_WIDTH = 30             # a column at least this wide (characters) wraps its text
PORTRAIT_WIDTH = 100        # a tab whose columns are wider in all (characters) prints in landscape
HEADER_CHAR = 1.2           # width of a bold header letter, in column-width characters


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
    help: str = ""              # one line on the header cell (a note): what to write in the column
    kind: str = ""              # "count" (whole number, at least `minimum`), "integer" (any sign) or text
    minimum: int | None = None  # a count's smallest value (1 unless the layout says `min`)
    prefilled: bool = False     # filled by the bridge (e.g. a squad's composition): players cannot edit it

    @property
    def numeric(self) -> bool:
        return self.kind in ("count", "integer")


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
    status_title: str = ""      # status tab: the column of row verdicts (OK green, errors red)
    orientation: str = ""       # "portrait" or "landscape" when printed; empty: by the columns' width

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
        return _parsed(ruleset, folder.joinpath("layout.toml").read_text(encoding="utf-8"))

    @classmethod
    def from_dict(cls, ruleset: str, raw: dict[str, Any]) -> Layout:
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
                if traw.get("kind") not in TAB_KINDS:
                    problems.append(f"{where}: kind must be one of {', '.join(map(repr, TAB_KINDS))}")
                if traw.get("title") in seen_titles:
                    problems.append(f"{where}: duplicate tab title {traw.get('title')!r}")
                seen_titles.add(traw.get("title"))
                cols = []
                for j, craw in enumerate(traw.get("columns", [])):
                    if "key" not in craw or "title" not in craw:
                        problems.append(f"{where}.columns[{j}]: needs key and title")
                        continue
                    cols.append(_column(craw, f"{where}.columns[{j}]", problems))
                if traw.get("orientation", "") not in ("", "portrait", "landscape"):
                    problems.append(f"{where}: orientation must be 'portrait' or 'landscape'")
                if traw.get("kind") in ("orders", "simulator", "ready"):
                    if not cols:
                        problems.append(f"{where}: an order tab needs columns")
                    elif sum(c.status for c in cols) != 1:
                        problems.append(f"{where}: an order tab needs exactly one status column")
                    if traw.get("kind") == "orders" and not traw.get("stage"):
                        problems.append(f"{where}: an order tab needs its stage")
                n_rows = traw.get("rows", ORDER_ROWS)
                if isinstance(n_rows, bool) or not isinstance(n_rows, int) or n_rows < 1:
                    problems.append(f"{where}: rows must be a whole number of order rows (at least 1)")
                    n_rows = ORDER_ROWS
                tabs.append(TabLayout(key=traw.get("key", ""), title=traw.get("title", ""),
                                      kind=traw.get("kind", ""), stage=traw.get("stage", ""),
                                      columns=tuple(cols), widths=tuple(traw.get("widths", ())),
                                      keep=bool(traw.get("keep", False)),
                                      rows=n_rows, status_title=str(traw.get("status_column", "")),
                                      orientation=str(traw.get("orientation", ""))))
            books[kind] = BookLayout(kind=kind, title=braw.get("title", "{game}"), tabs=tuple(tabs))
        if problems:
            raise LayoutError(problems)
        return cls(ruleset=ruleset, books=books)

    def ready_tab(self, kind: str = "faction") -> TabLayout | None:
        """The book's "ready" tab: one row where the players say their orders for the stage are ready (read with
        the orders, cleared when a stage opens; sheets_bridge.readiness); None when the layout has none."""
        return next((t for t in self.books[kind].tabs if t.kind == "ready"), None)

    def simulator_tab(self, key: str, kind: str = "faction") -> TabLayout | None:
        """The book's "simulator" tab `key`: an input tab of every stage (read by `check`, never locked or
        cleared) where a player describes a hypothetical battle; None when the layout has none."""
        return next((t for t in self.books[kind].tabs if t.kind == "simulator" and t.key == key), None)

    def tab(self, key: str, kind: str = "faction") -> TabLayout | None:
        return next((t for t in self.books[kind].tabs if t.key == key), None)

    def order_tabs(self, stage: str | None = None, kind: str | None = None) -> list[TabLayout]:
        """Order tabs of one book kind (all kinds when None), optionally of one stage."""
        kinds = BOOK_KINDS if kind is None else (kind,)
        return [t for k in kinds for t in self.books[k].tabs
                if t.kind == "orders" and (stage is None or t.stage == stage)]


@functools.lru_cache(maxsize=16)
def _parsed(ruleset: str, text: str) -> Layout:
    """The layout a layout.toml text gives, parsed once per text (a Layout is frozen: every load of the
    same file shares it; a stage loads its rule set's layout a few times)."""
    return Layout.from_dict(ruleset, tomllib.loads(text))


def _column(craw: dict[str, Any], where: str, problems: list[str]) -> Column:
    """One column of an order tab from layout.toml; what is wrong with it goes to `problems`."""
    kind = craw.get("kind", "")
    if kind not in COLUMN_KINDS:
        problems.append(f"{where}: kind must be one of {', '.join(repr(k) for k in COLUMN_KINDS if k)}")
        kind = ""
    minimum = craw.get("min", COLUMN_KINDS.get(kind))
    if minimum is not None and (isinstance(minimum, bool) or not isinstance(minimum, int)):
        problems.append(f"{where}: min must be a whole number")
        minimum = None
    if "min" in craw and kind != "count":
        problems.append(f"{where}: min is for kind = 'count' columns")
    help_text = craw.get("help", "")
    if not isinstance(help_text, str) or "\n" in help_text:
        problems.append(f"{where}: help must be one line of text")
        help_text = ""
    status = bool(craw.get("status", False))
    prefilled = bool(craw.get("prefilled", False))
    if status and (prefilled or kind):
        problems.append(f"{where}: the status column cannot be prefilled or numeric")
    return Column(key=craw["key"], title=craw["title"], list=craw.get("list", ""),
                  values=tuple(craw.get("values", ())), width=int(craw.get("width", 0)), status=status,
                  help=help_text, kind=kind, minimum=minimum if kind == "count" else None, prefilled=prefilled)


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

def header_width(title: str) -> int:
    """The narrowest column (characters) whose bold header never breaks inside a word («Уровен|ь»)."""
    longest = max((len(word) for word in str(title).split()), default=0)
    return math.ceil(longest * HEADER_CHAR) + 1 if longest else 0


def _widths(tab: TabLayout, header: tuple[str, ...]) -> dict[int, int]:
    """Column widths from the layout, each widened to fit its header's longest word."""
    given = [c.width for c in tab.columns] if tab.columns else list(tab.widths)
    widths = {}
    for i in range(max(len(given), len(header))):
        width = given[i] if i < len(given) else 0
        need = header_width(header[i]) if i < len(header) else 0
        if width or need > DEFAULT_WIDTH:
            widths[i] = max(width, need)
    return widths


DEFAULT_WIDTH = 8           # what a spreadsheet gives a column without a width (characters, about)


def _print_wide(tab: TabLayout, widths: dict[int, int]) -> bool:
    if tab.orientation:
        return tab.orientation == "landscape"
    return sum(widths.values()) > PORTRAIT_WIDTH


def status_tab(tab: TabLayout, table: Table) -> TabWrite:
    header = tuple(str(c) for c in table.columns)
    widths = _widths(tab, header)
    status = header.index(tab.status_title) if tab.status_title in header else None
    return TabWrite(title=tab.title, header=header, rows=tuple(tuple(r) for r in table.rows),
                    kind="status", column_widths=widths, landscape=_print_wide(tab, widths),
                    wrap_columns=tuple(i for i, w in sorted(widths.items()) if w >= WRAP_WIDTH or i == status),
                    status_column=status)


def as_number(value: Any) -> Any:
    """A whole number written as text ("12", "1 200") as the number, for a numeric column; else as is."""
    if isinstance(value, str):
        text = value.strip()
        sign = -1 if text.startswith("-") else 1
        number = whole_number(text[1:] if text[:1] in "+-" else text)
        if number is not None and number < TOO_LARGE:
            return sign * number
    return value


def order_tab(tab: TabLayout, vocab: dict[str, list[str]], editors: tuple[str, ...],
              rows: tuple[tuple[Any, ...], ...] | None = (), locked: bool = False,
              clear_statuses_below: bool = False) -> TabWrite:
    """An order tab: header, dropdowns, open cells for `editors`; `rows=()` clears it, None keeps it.
    `clear_statuses_below`: its status cells below the order rows are cleared but for those the write sets
    (TabWrite.clear_statuses_below)."""
    dropdowns = {}
    for i, col in enumerate(tab.columns):
        values = tuple(col.values) or tuple(vocab.get(col.list, ())) if (col.values or col.list) else ()
        if values:
            dropdowns[i] = values
    status = tab.status_index
    header = tuple(c.title for c in tab.columns)
    widths = _widths(tab, header)
    numbers = {i: c.minimum for i, c in enumerate(tab.columns) if c.numeric}
    if rows and numbers:
        rows = tuple(tuple(as_number(v) if i in numbers else v for i, v in enumerate(row)) for row in rows)
    closed = tuple(i for i, c in enumerate(tab.columns) if c.status or c.prefilled)
    return TabWrite(title=tab.title, header=header, rows=rows, kind="orders",
                    dropdowns=dropdowns, locked_columns=closed,
                    editors=editors, column_widths=widths, locked=locked, order_rows=tab.rows,
                    notes={i: c.help for i, c in enumerate(tab.columns) if c.help}, numbers=numbers,
                    wrap_columns=tuple(i for i, w in sorted(widths.items()) if w >= WRAP_WIDTH or i == status),
                    status_column=status, landscape=_print_wide(tab, widths),
                    clear_statuses_below=clear_statuses_below)


def status_column_update(tab: TabLayout, statuses: list[RowStatus], header_map: list[str],
                         clear_rows: Iterable[int] = ()) -> TabWrite:
    """Write only the status cells of an order tab (players' cells untouched): the `statuses`, blank in
    `clear_rows` (order rows whose status is stale); below the order rows every status cell but those of
    `statuses` is cleared (TabWrite.clear_statuses_below), so a row typed past the limit and then cleared
    loses its old «не прочитана» at the next write."""
    col = tab.status_position(header_map)
    cells = {n: "" for n in clear_rows if n > 1}
    cells.update({s.number: s.text() for s in statuses if s.number > 1})   # row 1 is the header
    return TabWrite(title=tab.title, column_updates={col: cells}, kind="orders", order_rows=tab.rows,
                    locked_columns=(col,), header=None, status_column=col, clear_statuses_below=True)
