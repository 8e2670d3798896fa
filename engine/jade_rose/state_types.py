"""The shapes of the Jade Rose state and of every record that crosses its modules, as TypedDicts.

`JadeRoseState` is one JSON snapshot: the envelope every rule set carries (engine.state.Envelope: ruleset,
turn, stage, factions) and Jade Rose's own part (era, cities, roads, the turn's ledger, journal, reports and
pending battles). Beside it: the orders and plans parsed from the books (economy orders, the war plan, the
manoeuvre plan, GM adjustments), and the war's events. These are types only: the values stay plain dicts
and lists, so a state is still the JSON it was. The contract (engine.ruleset) speaks of `Mapping[str, Any]`
and `dict[str, Any]`; `jade_rose_state` and `plain` are the two casts at that border.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

Units = dict[str, int]                  # unit key -> count


# -- the state ----------------------------------------------------------------------------------------------

class HireBatch(TypedDict):
    """A vampire hiring, oldest first (hibernation.py): the turn, the unit key and how many."""

    turn: int
    unit: str
    count: int


class Crusade(TypedDict):
    """The dwarves' vengeful campaign of the turn (L210, JR-82)."""

    turn: int
    against: str
    discount_pct: int
    units: Units                        # units hired at the discount so far


class FactionRecord(TypedDict):
    """A faction: the envelope's name and flags, gold and units, then what only some factions keep."""

    name: str
    gold: int
    eliminated: bool
    won: bool
    units: Units
    won_turn: NotRequired[int]
    destroyed_at_midnight: NotRequired[bool]
    subjugated_by: NotRequired[str]             # the vampires' victory (L141)
    # the Empire (factions/empire.py)
    honor: NotRequired[int]
    corruption: NotRequired[int]
    corruption_actions: NotRequired[dict[str, int]]     # action kind -> uses so far (JR-66)
    first_builds: NotRequired[list[str]]                # police buildings already built once
    armies_blocked: NotRequired[bool]                   # a purge of the generals this turn (L88)
    # the vampires (factions/vampires.py, hibernation.py)
    slaves: NotRequired[int]
    eternal_servants: NotRequired[int]
    ritual_done: NotRequired[bool]
    hibernating: NotRequired[Units]
    crypts: NotRequired[dict[str, Units]]               # city id -> who sleeps in its crypt
    hire_order: NotRequired[list[HireBatch]]
    sleep_choice: NotRequired[list[list[Any]]]          # this turn's named sleepers: [unit key, count]
    # the dwarves (factions/dwarves.py)
    runes: NotRequired[int]
    grudges: NotRequired[dict[str, int]]                # faction -> grudges held against it
    grudge_turns: NotRequired[dict[str, int]]           # faction -> the turn of its last new grudge
    grudge_rooms: NotRequired[dict[str, str]]           # city id -> the faction its room records
    investment: NotRequired[int]
    investment_pct: NotRequired[int]
    crusade: NotRequired[Crusade]
    # the Jade Court (factions/jade_court.py)
    jade: NotRequired[int]


class City(TypedDict):
    """A city (setup.py); `x`, `y`: where the map picture draws it."""

    name: str
    owner: str | None
    large: bool
    level: int
    buildings: list[str]
    capital: bool
    ruins: bool
    no_income_turns: int
    x: NotRequired[float]
    y: NotRequired[float]


class LedgerLine(TypedDict):
    """A ledger line (engine.ledger) and its tags; an income forecast line has the same shape."""

    faction: str
    resource: str
    amount: int
    reason: str
    city: NotRequired[str]
    against: NotRequired[str]           # grudges: the faction they are held against
    kind: NotRequired[str]
    turn: NotRequired[int]
    pct: NotRequired[int]               # the corruption penalty's percentage and the gold it applied to
    base: NotRequired[int]


class LogEntry(TypedDict):
    faction: str
    text: str


class ChronicleEntry(TypedDict):
    turn: int
    kind: str
    text: str


class BattlePost(TypedDict):
    """One fight's forum post (war/posts.py), kept for the stage's posts."""

    id: str
    city: str
    title: str
    bbcode: str


class Midnight(TypedDict):
    turn: int
    survivors: list[str]
    destroyed: list[str]


# -- the pending battles (war/battles.py) ------------------------------------------------------------------

class Squad(TypedDict):
    """A squad of a battle side; `garrison`: the part of `units` that belongs to the city's garrison."""

    flank: str
    line: str
    units: Units
    garrison: Units


class SideModifiers(TypedDict):
    grudges: int
    forge_distance: int | None
    plague: bool


Modifiers = dict[str, SideModifiers]    # by role: "attacker", "defender"


class Attack(TypedDict):
    """One attacking army of a battle: a fight "<battle id>/<n>"."""

    fight: str
    faction: str
    army: str
    row: int | None
    capture: str
    skip_planning: bool
    needs_planning: bool
    squads: list[Squad]
    notes: list[str]
    modifiers: Modifiers


class Defence(TypedDict):
    squads: list[Squad]
    armies: list[str]
    garrison_only: bool
    notes: list[str]


class PendingBattle(TypedDict):
    """The battle for one attacked city, id "b<turn>-<city id>"; its attackers fight in list order."""

    id: str
    city: str
    defender: str | None
    target: str                         # "city", "ruins" or "empty"
    needs_planning: bool
    defence: Defence
    attackers: list[Attack]


class JadeRoseState(TypedDict):
    schema_version: int
    ruleset: str
    scenario: str
    turn: int
    stage: str
    era: str
    factions: dict[str, FactionRecord]
    cities: dict[str, City]
    roads: list[list[str]]              # [city id, city id], each road once
    ledger: list[LedgerLine]
    log: list[LogEntry]
    chronicle: NotRequired[list[ChronicleEntry]]
    reports: NotRequired[dict[str, list[str]]]          # faction (or "gm") -> this turn's battle reports
    battle_posts: NotRequired[list[BattlePost]]
    battles: NotRequired[list[PendingBattle]]
    midnight: NotRequired[Midnight]


# -- orders and plans ----------------------------------------------------------------------------------------

class EconomyOrder(TypedDict):
    """A row of «Экономика» (economy_orders.py); `target`: the rival faction of a campaign or grudge room."""

    row: int
    kind: str
    city: str | None
    what: str | None
    count: int
    target: NotRequired[str]


class PlanRow(TypedDict):
    row: int
    unit: str
    count: int


class PlanSquad(TypedDict):
    """The rows of one army (or garrison) at one position of the war tabs."""

    flank: str
    line: str
    units: Units
    rows: list[PlanRow]


class ArmyPlan(TypedDict):
    squads: list[PlanSquad]
    order: str | None                   # "attack", "defend", "disperse" or None
    city: str | None
    capture: str                        # "colonise", "plunder", "raze" or "raze_leave"
    skip_planning: bool
    row: int | None                     # the row of its order in «Приказы армиям»


class WarPlan(TypedDict):
    """A faction's war tabs (war/armies.py): armies by name, garrison placements by city id."""

    armies: dict[str, ArmyPlan]
    garrisons: dict[str, list[PlanSquad]]


class SquadManoeuvre(TypedDict):
    kind: str
    target: str | None                  # "flank/line"
    free_move: str | None
    row: int


class FightPlan(TypedDict):
    role: str                           # "attacker" or "defender"
    runes: int
    squads: dict[str, SquadManoeuvre]   # by the squad's "flank/line"
    rune_rows: NotRequired[list[int]]


class ManoeuvrePlan(TypedDict):
    """A faction's «Манёвры» (war/manoeuvres.py), by fight id."""

    fights: dict[str, FightPlan]


class Adjustment(TypedDict):
    """A GM correction (adjustments.py)."""

    row: int
    faction: str
    resource: str
    amount: int
    reason: str


# -- the war's events (war/__init__.py) ---------------------------------------------------------------------

class BattleEvent(TypedDict):
    """One fight; `deaths` and the rest by faction (a fight's defender holds the city: a neutral city has no
    garrison, so it falls without a fight)."""

    kind: Literal["battle"]
    id: str
    city: str
    attacker: str
    defender: str
    winner: str
    deaths: dict[str, Units]
    army_deaths: dict[str, Units]
    army_size: dict[str, int]


class CaptureEvent(TypedDict):
    kind: Literal["capture"]
    city: str
    attacker: str
    previous_owner: str | None
    choice: str                         # "colonise", "plunder", "raze" or "ruins"
    large: bool
    level_before: int
    era_max_level: int
    base_income: int
    buildings_lost: list[str]
    left: NotRequired[bool]             # a raze whose ruins the attacker declined


class FailedAttackEvent(TypedDict):
    kind: Literal["failed_attack"]
    city: str
    attacker: str
    defender: str


class EliminatedEvent(TypedDict):
    kind: Literal["eliminated"]
    faction: str


WarEvent = BattleEvent | CaptureEvent | FailedAttackEvent | EliminatedEvent


# -- the border with the contract ----------------------------------------------------------------------------

def jade_rose_state(state: Mapping[str, Any]) -> JadeRoseState:
    """The contract's state (plain JSON) seen as the Jade Rose state it is."""
    return cast(JadeRoseState, state)


def plain(state: JadeRoseState) -> dict[str, Any]:
    """The Jade Rose state as the contract's plain JSON dict (the same object)."""
    return cast(dict[str, Any], state)


def balance(rec: FactionRecord, resource: str) -> int:
    """The faction's balance of `resource` (gold or one of its own), 0 when it holds none."""
    value: int = cast(Mapping[str, Any], rec).get(resource, 0)
    return value
