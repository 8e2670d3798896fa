"""The backend seam: the `Backend` base, a Protocol per optional ability, and `BackendKind`, what the
bridge knows of a backend before opening one (as engine/ruleset.py declares a rule set's contract).

Two backends implement it, in `sheets_bridge.backends`: `xlsx` (local .xlsx files, the embedded
default) and `gsheets` (Google Sheets through gspread). Outside `backends/` the bridge never knows
which one it has: it asks `isinstance(be, LocksOnRead)`, never a backend's name.
"""
from __future__ import annotations

import abc
from collections.abc import Callable, Iterable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    import click

    from sheets_bridge.gameconfig import GameConfig
    from sheets_bridge.gamedir import GameDir

# The merged cells of the tabs a read of orders returns (`read_orders`, `lock_and_read`), kept among the
# tabs under this key, which no tab can be titled (Excel refuses «[» and «]» in a title): one row per tab
# holding merged cells, its title first and then each merged range in A1 form, e.g. ["Экономика", "A4:A5"].
# So the merges travel with the rows wherever the rows go: the archive of the orders as read, the orders
# kept at a lock, a replay.
MERGED_CELLS = "[объединённые ячейки]"


class BackendError(Exception):
    """A failure the GM must act on; the message says what to do (English, for the console)."""


class BookNotFound(BackendError):
    pass


class BookForbidden(BackendError):
    pass


@dataclass(frozen=True)
class TabWrite:
    """Everything to write to one tab in a book's single write.

    Either `rows` (replace the tab's data below the header; the rest is cleared) or
    `column_updates` (set only these cells, leave players' cells alone) is given.
    Values are str, int or float; strings are always written as text, never formulas.
    Row numbers are 1-based sheet rows; column indexes are 0-based.
    A TabWrite with `header=None` and `rows=None` is a values-only update: the tab's
    dropdowns, protection and formatting are left exactly as they are.
    """

    title: str
    header: tuple[str, ...] | None = None
    rows: tuple[tuple[Any, ...], ...] | None = None
    column_updates: dict[int, dict[int, Any]] | None = None
    kind: str = "status"                      # "status" (protected) or "orders"
    dropdowns: dict[int, tuple[str, ...]] = field(default_factory=dict)
    locked_columns: tuple[int, ...] = ()      # order tabs: columns players may not edit (status)
    editors: tuple[str, ...] = ()             # e-mails allowed to edit an order tab's open cells
    order_rows: int = 200                     # order tabs: rows carrying dropdowns
    frozen_rows: int = 1
    column_widths: dict[int, int] = field(default_factory=dict)   # 0-based column -> characters
    locked: bool = False                      # order tab closed while a stage resolves
    notes: dict[int, str] = field(default_factory=dict)           # header notes: what a column is for
    numbers: dict[int, int | None] = field(default_factory=dict)  # order tabs: whole-number columns -> minimum
    wrap_columns: tuple[int, ...] = ()        # columns whose long text wraps within the column
    status_column: int | None = None          # rows saying OK are green there, any other text red
    # order tabs: the status column's cells below the order rows (past `order_rows` + 1) that this write leaves
    # empty or does not set are cleared; they hold the bridge's statuses of rows past the limit, so a row cleared
    # there loses its old status (and the sheet's used range, its printed pages, end above it again)
    clear_statuses_below: bool = False
    landscape: bool = False                   # printed across the page (a wide tab)
    link_columns: tuple[int, ...] = ()        # columns of web addresses, written as links (Google's picture tabs)


@dataclass(frozen=True)
class BookRef:
    """A book known to the game: its key in game.toml and its backend id (path or spreadsheet key)."""

    key: str          # faction id, "public" or "gm"
    book_id: str
    title: str


def with_merges(tabs: dict[str, list[list[str]]], merges: Mapping[str, Iterable[str]]
                ) -> dict[str, list[list[str]]]:
    """`tabs` with the merged ranges of these tabs (title -> A1 ranges) under MERGED_CELLS, if there are any."""
    rows = [[title, *ranges] for title, ranges in merges.items() if title in tabs]
    rows = [row for row in rows if len(row) > 1]
    return {**tabs, MERGED_CELLS: rows} if rows else dict(tabs)


def merged_ranges(tabs: Mapping[str, list[list[str]]]) -> dict[str, list[str]]:
    """Tab title -> its merged ranges in A1 form, from what a read of orders returned (`with_merges`)."""
    out: dict[str, list[str]] = {}
    for row in tabs.get(MERGED_CELLS, []):
        if row:
            out.setdefault(str(row[0]), []).extend(str(r) for r in row[1:])
    return out


class Backend(abc.ABC):
    """A book store: one read and one write per book per stage. Both backends subclass it; what only
    some can do is an optional ability below, tested with isinstance (never by probing attributes)."""

    name: ClassVar[str]

    @abc.abstractmethod
    def create_book(self, key: str, title: str) -> str:
        """Create an empty book; return its id (xlsx: file path; gsheets: spreadsheet key)."""

    @abc.abstractmethod
    def read_tabs(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """All cells of the named tabs in ONE request, as rows (header included); a missing tab is
        simply not in the result."""

    @abc.abstractmethod
    def read_orders(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        """The same in ONE request, with the tabs' merged cells under MERGED_CELLS: what `pull` reads
        orders with."""

    @abc.abstractmethod
    def tab_titles(self, book_id: str) -> list[str]:
        """The titles of the book's tabs in order (internal helper tabs left out)."""

    @abc.abstractmethod
    def write_book(self, book_id: str, tabs: list[TabWrite]) -> None:
        """Write every tab of the list in ONE request; creates missing tabs. Safe to repeat."""

    @abc.abstractmethod
    def share(self, book_id: str, readers: list[str], writers: list[str], notify: bool = False) -> list[str]:
        """Grant access; return warnings (e.g. people with access who should not have it)."""

    @abc.abstractmethod
    def export_xlsx(self, book_id: str, dest: str) -> None:
        """Save the book as a real .xlsx file at dest."""


# -- optional abilities ---------------------------------------------------------------

@runtime_checkable
class LocksOnRead(Protocol):
    """Closes the order tabs in the same request that reads them (no edit slips in between)."""

    def lock_and_read(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]: ...


@runtime_checkable
class TypesOrders(Protocol):
    """Types rows into a book's order tabs as a player does in the spreadsheet program (tab title -> rows): each
    tab's old rows deleted, each row's cells under the columns of those titles, from the row below the header down;
    a whole number typed as a number."""

    def type_rows(self, book_id: str, tabs: Mapping[str, list[Mapping[str, str]]]) -> None: ...


@runtime_checkable
class WritesManyBooks(Protocol):
    """Pushes independent books concurrently; `progress` gets each book id as it is written."""

    def write_books(self, books: Mapping[str, list[TabWrite]],
                    progress: Callable[[str], None] | None = None) -> None: ...


_T = TypeVar("_T")


@runtime_checkable
class WorksOnManyBooks(Protocol):
    """Does independent work on several books at once, as `write_books` pushes them, within the quota:
    `jobs` maps a book id to a call that sends that book's own requests (`turn`: its lock and read, its
    export into the archive); `progress` gets each book id, in the calling thread, as its job ends. Every
    job runs; then one BackendError names the books that failed. Returns each job's result by book id."""

    def each_book(self, jobs: Mapping[str, Callable[[], _T]],
                  progress: Callable[[str], None] | None = None) -> dict[str, _T]: ...


class PicturesNotStored(BackendError):
    """The backend can put no picture in this game's books (e.g. Google without a Drive to keep them): the
    caller keeps them in the archive and says so; the stage goes on."""


@runtime_checkable
class PutsPictures(Protocol):
    """Embeds PNG pictures (the map, the charts) in a tab of a book (PicturesNotStored: it cannot here)."""

    def put_pictures(self, book_id: str, title: str, pictures: list[bytes], note: str) -> None: ...


@runtime_checkable
class HoldsPictures(Protocol):
    """Puts the pictures given while `holding_pictures` is open in each book with its next `write_book`, in
    the same save (xlsx: a stage loads and saves each book once, not once more for its pictures); those of a
    book not written by the end when it closes. The caller draws the pictures before it pushes the books."""

    def holding_pictures(self) -> AbstractContextManager[None]: ...


@runtime_checkable
class SendsPictures(Protocol):
    """Sends the pictures given to `put_pictures` while `sending_pictures` is open together, in the background (a
    put returns before its picture is stored, so one goes up while the next is drawn); all are stored when it
    closes, which raises the first failure. A PicturesNotStored met by an earlier picture is raised by the next
    put, else when it closes."""

    def sending_pictures(self) -> AbstractContextManager[None]: ...


@runtime_checkable
class AdoptsBooks(Protocol):
    """Takes an existing book (one the GM made) into a new game: `new --book`."""

    def adopt_book(self, key_or_url: str, name: str | None = None) -> str: ...


@runtime_checkable
class SharesGame(Protocol):
    """Gives each book of a game exactly its people (`forumwar share`) and sets the tabs' protections."""

    def share_game(self, config: GameConfig, *, notify: bool = False, revoke: bool = False) -> list[str]: ...

    def update_protections(self, book_id: str, tabs: list[TabWrite]) -> None: ...


@runtime_checkable
class LinksBooks(Protocol):
    """Its books have links people open in a browser (a Google spreadsheet's address): `share` prints each
    book's, the GM book lists the factions'. A backend or its kind has it (the link follows from the book's id);
    a backend whose books are files in the game's folder has none."""

    def book_link(self, book_id: str) -> str: ...


# -- what the bridge knows of a backend before it opens one -----------------------------

# A command's options that belong to the backend (each kind declares them, `command_options`), by name: the
# click parameter's name -> its value, e.g. {"credentials": "key.json", "folder": None}
BackendOptions = Mapping[str, "str | None"]
SettingsT = TypeVar("SettingsT")
OPTIONS_COMMANDS = ("new", "share")     # the commands that take a backend's own options


class BackendKind(abc.ABC, Generic[SettingsT]):
    """A backend as game.toml names it: declarative data and the hooks of a game's life that differ
    between backends. One instance per backend, found through the registry `sheets_bridge.backends.registry`.
    `SettingsT` is what its `open` takes: its own game.toml table (registry.SETTINGS_TABLES) with a command's
    options, as `settings` reads them."""

    name: ClassVar[str]                          # game.toml's `backend = "..."`
    books_text: ClassVar[str]                    # how messages name the books: «файлы Excel»
    reads_are_free: ClassVar[bool] = False       # reading every book costs nothing (status reads the books)
    adopts_books: ClassVar[bool] = False         # `new --book` may hand it existing books
    cron_notes: ClassVar[tuple[str, ...]] = ()   # comment lines of `schedule --cron`
    sharing_note: ClassVar[str | None] = None    # what `share` says when the books are shared by hand

    @abc.abstractmethod
    def backend_class(self) -> type[Backend]:
        """The class `open` returns (imported only when asked: Google's libraries load with it); its abilities
        are its declared bases (`undeclared_abilities`)."""

    @abc.abstractmethod
    def settings(self, table: Mapping[str, Any], options: BackendOptions) -> SettingsT:
        """This backend's settings from its game.toml table (checked by `settings_problems`) and a command's
        options (`command_options`)."""

    @abc.abstractmethod
    def open(self, gd: GameDir, settings: SettingsT) -> Backend:
        """The backend of a game directory, with its settings."""

    def settings_problems(self, table: Any) -> list[str]:
        """The problems of this backend's game.toml table, in Russian (every one at once); none by default."""
        return []

    def command_options(self, command: str) -> list[click.Option]:
        """The options this backend adds to a command of OPTIONS_COMMANDS (`new`, `share`); none by default."""
        return []

    def commands(self) -> list[click.Command]:
        """Commands of this backend's own (gsheets: `login`, `logout`), added to the CLI; none by default."""
        return []

    def prepare_access(self, settings: SettingsT, *, adopts: bool, echo: Callable[[str], None]) -> None:
        """Called by `new` before anything is made: gain the access the new game needs (gsheets: a login
        widened to the whole Drive for the GM's own books); nothing by default."""
        return None

    def configure_new(self, config: GameConfig, settings: SettingsT) -> None:
        """Called by `new` before game.toml is first written: settle what this backend records in its table
        (`config.set_backend_settings`; gsheets: which Google identity the game uses); nothing by default."""
        return None

    def identity_text(self, config: GameConfig) -> str | None:
        """The sentence `new` says of whom the books are made and written as (None: nobody to name)."""
        return None

    def prepare_game(self, game_path: Path, progress: Callable[[str], None]) -> None:
        """Called by `new` before the books are made (xlsx: the sheets' password); nothing by default."""
        return None


# every optional ability: the Protocols declared above
ABILITIES: tuple[type, ...] = tuple(value for value in list(globals().values()) if isinstance(value, type)
                                    and value.__module__ == __name__ and getattr(value, "_is_protocol", False))


def undeclared_abilities(cls: type) -> list[str]:
    """The abilities a backend class has by shape but not among its bases: mypy checks an ability's method
    against the Protocol only where the class names it as a base, so every ability must be declared."""
    return [ability.__name__ for ability in ABILITIES
            if all(callable(getattr(cls, name, None)) for name in _members(ability)) and ability not in cls.__mro__]


def _members(ability: type) -> list[str]:
    return [name for name in vars(ability) if not name.startswith("_")]
