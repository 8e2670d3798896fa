"""The rule-set interface and the plain data types that cross it.

The bridge (`sheets_bridge`) talks to a rule set only through this interface:
rows in, orders and per-row statuses out; state in, tables for each book out.

One module, over 400 lines, on purpose: it is the whole contract (the abstract rule set, its optional
capabilities and the data types they exchange), the one file a rule-set author reads from top to bottom.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from engine.errors import OrderError
from engine.state import Envelope

GM_BOOK = "gm"   # the key of the GM book's orders in `resolve`; never a faction id

OK_TEXT = "OK"


@dataclass(frozen=True)
class Row:
    """One order row as read from a sheet: its 1-based sheet row and cells by column key."""

    number: int
    cells: Mapping[str, str]

    def get(self, key: str) -> str:
        value = self.cells.get(key, "")
        return "" if value is None else str(value).strip()

    def is_blank(self) -> bool:
        return all(not str(v or "").strip() for v in self.cells.values())


@dataclass(frozen=True)
class RowStatus:
    """The verdict on one order row: OK (with an optional note) or a list of errors."""

    tab: str
    number: int
    errors: tuple[OrderError, ...] = ()
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.errors

    def text(self) -> str:
        if self.ok:
            return f"{OK_TEXT}: {self.note}" if self.note else OK_TEXT
        return " ".join(e.message() for e in self.errors)


@dataclass(frozen=True)
class ParsedOrders:
    """A faction's orders for one stage, as JSON-able dicts, with a status per non-blank row."""

    faction: str
    stage: str
    orders: tuple[dict[str, Any], ...]
    statuses: tuple[RowStatus, ...]


@dataclass(frozen=True)
class Table:
    """A rectangular view for one tab: column titles and rows of plain values."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...] = ()


@dataclass(frozen=True)
class StageResult:
    """What resolving a stage produced: the new state, final row statuses and reports."""

    state: dict[str, Any]
    statuses: Mapping[str, tuple[RowStatus, ...]]
    events: tuple[dict[str, Any], ...] = ()
    reports: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FactionSummary:
    """One faction in `status`: Russian lines to print, flags, and JSON-able extras. `numbers` are the
    figures the bridge charts turn by turn (Russian title -> number, in display order): a rule set gives
    the faction's income, balance, army size and cities or provinces under the titles its books use."""

    id: str
    name: str
    lines: tuple[str, ...] = ()
    eliminated: bool = False
    won: bool = False
    extras: Mapping[str, Any] = field(default_factory=dict)
    numbers: Mapping[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Summary:
    """What `status` shows: generic lines (Russian) and per-faction lines, plus rule-set extras
    that `status --json` passes through unchanged."""

    lines: tuple[str, ...]
    factions: tuple[FactionSummary, ...]
    extras: Mapping[str, Any] = field(default_factory=dict)


class BattleRuns(Protocol):
    """The runs of one battle (`BattleSimulator.runs`), played in parts in a fixed order: the first ones
    on the plain path, which needs nothing prepared, while the fast one is prepared elsewhere; the rest
    on the fast path. However they are split, the odds of all the runs are `simulate`'s."""

    @property
    def runs(self) -> int: ...

    @property
    def done(self) -> int: ...

    @property
    def left(self) -> int: ...

    @property
    def needs_kernel(self) -> bool:
        """Whether `play_rest` would run on the fast path, the one `warm_up` prepares."""

    def play_plain(self, n: int) -> int:
        """Play the next `n` runs (at most those left) on the plain path; how many were played."""

    def play_rest(self, workers: int | None = None, progress: Callable[[int], None] | None = None) -> None:
        """Play every run left; `progress` hears how many more are done as they complete."""

    def odds(self) -> dict[str, Any]:
        """`simulate`'s figures over the runs played so far (their number in "runs")."""


@runtime_checkable
class BattleSimulator(Protocol):
    """Optional capability: simulate one battle described as JSON, many runs, and report it."""

    def simulate(self, spec: Mapping[str, Any], runs: int, seed: int,
                 progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        """Odds over `runs` battles; `progress`, if given, hears how many more runs are done as they
        complete (so a console can draw a bar; the result does not depend on it)."""

    def report(self, spec: Mapping[str, Any], seed: int, bbcode: bool = False) -> str: ...

    def warm_up(self) -> None:
        """Prepare what the fast path needs (a compiled kernel: once per machine it may take a minute;
        a separate process may do it, the result is kept on disk)."""

    def prepared(self) -> bool:
        """Whether `warm_up` is quick now (nothing to compile on this machine); it compiles nothing."""

    def runs(self, spec: Mapping[str, Any], runs: int, seed: int) -> BattleRuns:
        """The runs of a battle to play in parts (raises SpecError as `simulate` does)."""


@runtime_checkable
class DemoPlayers(Protocol):
    """Optional capability: scripted players for `forumwar demo`. Given the state and what a
    faction's book shows (tab title -> rows, header first), the rows it types into each order tab
    for the open stage (tab key -> rows of cells in the layout's column order)."""

    scenario: str      # the packaged scenario the players know
    seed: str          # the demo's fixed seed
    turns: int         # how many turns the scripted game lasts

    def orders(self, state: Mapping[str, Any], faction: str,
               book: Mapping[str, list[list[str]]]) -> dict[str, list[tuple[Any, ...]]]: ...


@dataclass(frozen=True)
class Adjudication:
    """The answer to one situation file: the rule set's JSON output (None when the file was refused),
    the problems of a refused file (Russian), and the Russian report of the outcome."""

    output: dict[str, Any] | None
    problems: tuple[str, ...] = ()
    report: str = ""


@runtime_checkable
class Adjudicator(Protocol):
    """Optional capability: settle one situation described in a file (its own schema) without a game —
    conformance cases and a GM's disputes (`forumwar adjudicate`)."""

    schema: str        # the schema id a situation file names in its "schema" key (the current one)
    schemas: tuple[str, ...]   # every schema id it reads, `schema` among them (older versions too)

    def adjudicate(self, situation: Mapping[str, Any], seed: int | str) -> Adjudication: ...


@dataclass(frozen=True)
class SituationGame:
    """A game's first state made from a situation file (`forumwar new --situation`), or the file's problems; `notes`:
    what the GM should tell the players of it (Russian)."""

    state: dict[str, Any] | None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class BookRows:
    """A situation's orders as the rows players type (`forumwar adjudicate --through-books`): book (faction id)
    -> order tab key -> rows of cells by column key, the first at sheet row 2; the situation as the game is made
    from it; the orders that have no row form (Russian); and the rule set's own record of where each order went
    (`plan`, opaque to the bridge)."""

    books: Mapping[str, Mapping[str, Sequence[Mapping[str, str]]]]
    situation: Mapping[str, Any]
    problems: tuple[str, ...] = ()
    plan: Any = None


@runtime_checkable
class SituationGames(Protocol):
    """Optional capability of an adjudicator: a game made from a situation file (its orders ignored), and the
    file's turn played through the faction books: the rows to type, then the answer of `adjudicate` read back
    from the game after its `check` and `turn`."""

    def game(self, situation: Mapping[str, Any], seed: int | str, fix_turn: bool = False) -> SituationGame:
        """`seed`: the chance of making the game; `fix_turn`: the situation's own turn draws from it as well (a
        game that is not fair, to answer as `adjudicate` does), else from the game's stage seed."""
        ...

    def rows(self, situation: Mapping[str, Any], state: Mapping[str, Any]) -> BookRows: ...

    def answer(self, situation: Mapping[str, Any], rows: BookRows, before: Mapping[str, Any],
               after: Mapping[str, Any], checked: Mapping[str, Mapping[tuple[str, int], bool]]
               ) -> tuple[dict[str, Any], tuple[str, ...]]: ...


@dataclass(frozen=True)
class MapPlace:
    """A city or province of the map as one book may show it. `x`, `y` come from the scenario (None:
    the drawer lays the place out); `owner` is a faction id or None; `label` a short size/level note."""

    key: str
    name: str
    kind: str                      # "city", "land" or "sea"
    owner: str | None = None
    label: str = ""
    x: float | None = None
    y: float | None = None
    ruined: bool = False


@dataclass(frozen=True)
class MapLink:
    a: str
    b: str
    kind: str = "road"             # "road", "land" or "sea"


@dataclass(frozen=True)
class MapMarker:
    """Something that happened at a place (a battle, a capture); `turn`: the turn it happened in (None:
    not known), so that a map of a later turn never calls it «этого хода»."""

    place: str
    kind: str                      # "battle"
    text: str = ""
    turn: int | None = None


@dataclass(frozen=True)
class MapArrow:
    """One of the viewing faction's own orders: from a place to a place."""

    source: str
    target: str
    kind: str                      # "attack", "move" or "support"
    faction: str


@dataclass(frozen=True)
class MapPicture:
    """Everything a map drawing needs, already filtered to what the viewer may see; `turn`: the turn of
    the state drawn (its markers of that turn are «этого хода», older ones are told by their turn)."""

    places: tuple[MapPlace, ...]
    links: tuple[MapLink, ...]
    factions: Mapping[str, str]                  # faction id -> display name
    markers: tuple[MapMarker, ...] = ()
    arrows: tuple[MapArrow, ...] = ()
    turn: int | None = None


@runtime_checkable
class MapData(Protocol):
    """Optional capability: the map of a state as the public (faction None) or one faction may see it,
    with that faction's own orders as arrows (`orders`: its parsed orders of the open stage, if any) and
    the `events` (StageResult.events) of the stages that resolved in the turn of the markers (an event may
    say its "turn"; else it is the turn of the stage that resolved into `state`) as markers, each with
    its turn."""

    def picture(self, state: Mapping[str, Any], faction: str | None, orders: Mapping[str, Any] | None = None,
                events: Sequence[Mapping[str, Any]] = ()) -> MapPicture: ...


@dataclass(frozen=True)
class ForumPost:
    """One forum-ready post (BBCode, Russian). `battle`: the battle it reports; `faction`: the faction
    whose own post it is (empty for the public ones)."""

    key: str                       # stable within the stage (with `battle`/`faction`): "chronicle", a battle id, …
    title: str
    bbcode: str
    battle: str = ""
    faction: str = ""


@runtime_checkable
class ForumPosts(Protocol):
    """Optional capability: the posts a GM puts in the forum thread after a stage resolved from
    `before` into `result` (the public chronicle of the stage first, then one full report per battle)."""

    def posts(self, before: Mapping[str, Any], result: StageResult) -> tuple[ForumPost, ...]: ...


@runtime_checkable
class OddsCalculator(Protocol):
    """Optional capability: a faction describes a hypothetical battle in the rows of tab `tab` (a layout
    tab of kind "simulator": read at every check, never locked or cleared); the answer is a status per
    row and the table for the read-only tab `result_tab` (the odds, the totals, the expected losses)."""

    tab: str
    result_tab: str

    def odds(self, state: Mapping[str, Any], faction: str,
             rows: Sequence[Row]) -> tuple[tuple[RowStatus, ...], Table]: ...


class Ruleset(ABC):
    """The rule-set contract: everything the bridge may rely on, and nothing more.

    Declarative data (name, title, stages and their Russian titles and messages) plus hooks.
    The state a rule set returns is its own, except the envelope (`engine.state.Envelope`) every
    state carries at its top level. Book keys used by `views`: each faction id, "public" and "gm".
    Optional capabilities (a battle simulator, scripted demo players, a situation-file adjudicator, map
    data for drawing, forum posts, the odds of a hypothetical battle) are None unless declared.
    """

    name: ClassVar[str] = ""
    aliases: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = ""
    # Every input stage id: the first is the one each turn opens with; a stage that opens only once (a set-up
    # before the first turn, at turn 0, as Titania's) comes after the stages of a turn. The rule set says which
    # stage a resolution opens (the state's "stage").
    stages: ClassVar[tuple[str, ...]] = ("orders",)
    templates_anchor: ClassVar[str] = "templates"   # package holding <name>/layout.toml and scenarios/
    secret_fields: ClassVar[tuple[str, ...]] = ()   # faction-record fields no other faction's book may show
    stage_titles: ClassVar[Mapping[str, str]] = {"finished": "игра окончена"}   # Russian display names
    stage_messages: ClassVar[Mapping[str, str]] = {   # printed after `turn` opens that stage
        "finished": "Игра окончена: победителей покажет forumwar status."}

    def stage_title(self, stage: str) -> str:
        """The stage's Russian display name (its id if the rule set gives none)."""
        return self.stage_titles.get(stage, Ruleset.stage_titles.get(stage, stage))

    def stage_message(self, stage: str) -> str:
        """What the GM is told when `stage` opens ("" for nothing)."""
        return self.stage_messages.get(stage, Ruleset.stage_messages.get(stage, ""))

    # -- data and set-up --------------------------------------------------
    @abstractmethod
    def dump_data(self) -> dict[str, Any]:
        """Every number of the rule set's data files, JSON-able."""

    @abstractmethod
    def new_game(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        """Initial state (JSON-able, with schema_version and the envelope) from a scenario mapping."""

    def factions(self, state: Mapping[str, Any]) -> list[str]:
        """Faction ids of the game, in a stable order."""
        return list(Envelope.of(state).faction_ids)

    # -- orders ----------------------------------------------------------
    @abstractmethod
    def order_tabs(self, stage: str) -> tuple[str, ...]:
        """Tab keys (faction and GM books) that carry orders in `stage`."""

    def vocabularies(self, state: Mapping[str, Any], faction: str | None) -> dict[str, list[str]]:
        """Closed vocabularies (dropdown lists) by name for one faction's book (None: the public book)."""
        return {}

    def gm_vocabularies(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        """Closed vocabularies of the GM book's order tabs (adjustments)."""
        return {}

    @abstractmethod
    def validate(self, state: Mapping[str, Any], faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        """Parse and check a faction's rows; never raises on bad input."""

    def validate_books(self, state: Mapping[str, Any], stage: str,
                       books: Mapping[str, Mapping[str, list[Row]]]) -> dict[str, ParsedOrders]:
        """`validate` of several factions' books of one state (faction -> its tabs), each the same as alone; a
        rule set may read the state once for all of them. Default: one `validate` a book."""
        return {faction: self.validate(state, faction, stage, tabs) for faction, tabs in books.items()}

    def validate_gm(self, state: Mapping[str, Any], stage: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        """Parse and check the GM book's rows (corrections); never raises. Default: none accepted."""
        return ParsedOrders(GM_BOOK, stage, (), ())

    def corrected(self, state: Mapping[str, Any], stage: str, gm: ParsedOrders) -> Mapping[str, Any]:
        """The state the factions' rows of `stage` are read against: the GM's corrections typed before the
        deadline (`gm`, validate_gm's) applied as the stage applies them, before its orders, so that `check` and
        `turn` count them. Never mutates `state`. Default: the state as it is."""
        return state

    @abstractmethod
    def resolve(self, state: Mapping[str, Any], stage: str, orders: Mapping[str, ParsedOrders],
                seed: int) -> StageResult:
        """Close `stage`: pure and deterministic in (state, orders, seed); never mutates `state`.
        `orders` holds each faction's ParsedOrders and the GM book's under the key GM_BOOK."""

    # -- views -------------------------------------------------------------
    @abstractmethod
    def views(self, state: Mapping[str, Any], result: StageResult | None = None
              ) -> dict[str, dict[str, Table]]:
        """Tables per book key and status-tab key."""

    @abstractmethod
    def summary(self, state: Mapping[str, Any]) -> Summary:
        """What `status` prints, in Russian, and the extras of `status --json`."""

    def awaiting(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        """What the open stage awaits from whom: faction id -> list of Russian notes."""
        return {f: [] for f in self.factions(state)}

    def announcements(self, state: Mapping[str, Any]) -> tuple[str, ...]:
        """What the GM tells the players before a new game (Russian lines; `new` prints them under «объявите
        игрокам»): the defaults the rule book lacks that a player notices, with this game's values."""
        return ()

    # -- optional capabilities -------------------------------------------------
    def battle_simulator(self) -> BattleSimulator | None:
        return None

    def demo_players(self) -> DemoPlayers | None:
        return None

    def adjudicator(self) -> Adjudicator | None:
        return None

    def map_data(self) -> MapData | None:
        return None

    def forum_posts(self) -> ForumPosts | None:
        return None

    def odds_calculator(self) -> OddsCalculator | None:
        return None
