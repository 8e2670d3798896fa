"""The shapes of the Titania game state and of its records, as TypedDicts.

`TitaniaState` is one JSON snapshot of a game, kept from turn to turn: the envelope every rule set carries
(engine.state.Envelope: ruleset, turn, stage, factions) and Titania's own part (the map, owners, buildings,
armies, natives, Bosses, Keepers, caravans in transit, battles, the last turn's outcome, the records, events,
quests, offers, a situation game's content and opening, a start by the book's set-up). Written by
engine.titania.setup (`new_game`, `found`), engine.titania.situation_game (`game_from_situation`) and
engine.titania.game_turn (`resolve`, `begin_turn`). These are types only: the values stay plain dicts and
lists, so a state is still the JSON it was. The adjudicator's input and output (SCHEMA, SCHEMA_V2: the
situation dicts and the World) are not this state; where their records are copied into it unchanged they stay
`dict[str, Any]`. The contract (engine.ruleset) speaks of `Mapping[str, Any]` and `dict[str, Any]`;
`titania_state` and `plain` are the two casts at that border.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from engine.state import clone

Limits = dict[str, int]             # "max_strength", "hire", "replenish" (and "food": a situation's own)
Purse = dict[str, int]              # resource -> amount
Relation = Literal["allies", "at_war"]  # the faction record's lists of the factions it is allied with, at war with


# -- the map ---------------------------------------------------------------------------------------------------

class Province(TypedDict):
    """A province of the map (setup.py, situation_game.py); `deposits` None: not yet revealed (or the sea)."""

    name: str
    sea: bool
    island: bool
    shrine: bool
    capital: bool
    deposits: list[str] | None
    keeper: str | None                  # the Keeper whose home it is
    boss: bool
    boss_name: NotRequired[str]
    market: NotRequired[bool]           # a Keepers' Market a situation gives (SCHEMA_V2 §6)
    x: NotRequired[float]               # the scenario's grid position (the map picture)
    y: NotRequired[float]


class GameMap(TypedDict):
    provinces: dict[str, Province]
    adjacency: list[list[str]]          # [province, province], each pair once, sorted


# -- factions and Keepers --------------------------------------------------------------------------------------

class FactionRecord(TypedDict):
    """A player faction: the envelope's name and flags, its picks, relations, Might and purse, then what the
    turns add (known technologies, spells, items and the limits after them)."""

    name: str
    race: str                           # "" while a start by the book leaves it open
    colour: str
    capital: str
    allies: list[str]
    at_war: list[str]
    might: int
    gold: int
    wood: int
    influence: int
    stone: int
    mana: int
    techs: NotRequired[list[str]]
    spells: NotRequired[list[str]]
    items: NotRequired[list[str]]
    limits: NotRequired[Limits]         # after the last turn (the adjudicator's)
    base_limits: NotRequired[Limits]    # a situation's own limits, before technologies
    eliminated: NotRequired[bool]
    won: NotRequired[bool]


class Keeper(TypedDict):
    """A Keeper faction (setup.py `_keepers`, situation_game.py): its home provinces and whether it is at war."""

    name: str
    race: str
    home: list[str]
    at_war: bool
    techs: NotRequired[list[str]]
    items: NotRequired[list[str]]       # quest items handed in
    resources: NotRequired[Purse]       # caravans' cargo delivered
    limits: NotRequired[Limits]
    base_limits: NotRequired[Limits]


# -- troops ----------------------------------------------------------------------------------------------------

class Army(TypedDict):
    faction: str                        # a player faction or a Keeper
    province: str
    strength: int
    naval: bool


class Boss(TypedDict):
    health: int


# A caravan on its way, for next turn's `planning.arrivals` (SCHEMA §1.4; SCHEMA_V2 §6 adds the sender and items)
Arrival = TypedDict("Arrival", {"to": str, "from": NotRequired[str], "resources": Purse,
                                "items": NotRequired[list[str]]})


# -- battles (SCHEMA §2 `battles`, kept with their turn) -------------------------------------------------------

Support = TypedDict("Support", {"faction": str, "from": str, "value": int})

# The attacker of a battle; a Boss fight's has no supports, modifiers or total.
Attacker = TypedDict("Attacker", {"faction": str, "from": str, "strength": int, "supports": NotRequired[list[Support]],
                                  "modifiers": NotRequired[int], "total": NotRequired[int]})


class Defender(TypedDict):
    factions: list[str]
    strength: int
    armies: list[dict[str, Any]]        # {"faction", "strength"} before the battle
    supports: list[Support]
    modifiers: int
    total: int


class BattleRecord(TypedDict):
    """One battle of a turn as the adjudicator recorded it (a Boss fight has no `defender`; its `damage` is
    {"to_boss", "to_attacker"}, else {"attacker", "defender"}), with the turn and whether the Boss destroyed the
    attacking army (game_turn `_chronicle`)."""

    n: int
    province: str
    kind: str                           # "army", "natives", "keeper" or "boss"
    attacker: Attacker
    defender: NotRequired[Defender]
    result: str                         # "attacker", "defender" or "draw"
    adjusted: NotRequired[str]          # "grove", "protection" or "nimbleness"
    damage: dict[str, int]
    buildings_lost: NotRequired[int]
    owner_after: NotRequired[str | None]
    turn: int
    attacker_fallen: NotRequired[bool]


# -- events, quests, offers ------------------------------------------------------------------------------------

# An event record (SCHEMA_V2 §5; engine.titania.events): the catalog record's fields, then its course.
EventRecord = TypedDict("EventRecord", {
    "id": str, "class": str, "started": int, "status": str, "progress": dict[str, int], "debuffed": list[str],
    "name": NotRequired[str], "goal": NotRequired[dict[str, Any]], "debuff": NotRequired[dict[str, Any]],
    "debuff_turns": NotRequired[int], "ends": NotRequired[int], "winner": NotRequired[str],
    "from": NotRequired[int], "until": NotRequired[int]})


class QuestRecord(TypedDict):
    """A Keeper's quest (SCHEMA_V2 §6; engine.titania.quests)."""

    id: str
    kind: str                           # "deliver", "boss_item" or "find_item"
    progress: dict[str, int]
    done_by: str | None
    resource: NotRequired[str]
    amount: NotRequired[int]
    item: NotRequired[str]
    province: NotRequired[str]
    item_holder: NotRequired[str | None]


# A declaration waiting for the other side (engine.titania.diplomacy): "act" is "ally" or "peace".
Offer = TypedDict("Offer", {"from": str, "to": str, "act": str, "turn": int})


# -- the records -----------------------------------------------------------------------------------------------

class LedgerLine(TypedDict):
    faction: str
    resource: str
    amount: int
    reason: str


class LogEntry(TypedDict):
    faction: str
    text: str


class ChronicleEntry(TypedDict):
    turn: int
    kind: str
    text: str


# -- the last turn ---------------------------------------------------------------------------------------------

class Begun(TypedDict):
    """What opening the turn did (game_turn.begin_turn): the adjudicator's events and reveals."""

    events: list[dict[str, Any]]
    revealed: dict[str, dict[str, Any]]


class LastTurn(TypedDict, total=False):
    """The outcome of the turn that resolved (game_turn.resolve: the adjudicator's output, SCHEMA §2 and
    SCHEMA_V2 §11, kept as it came; `rows`: each row's verdict, engine.titania.verdicts), what opening the next
    one did (`begun`), and the natives a start placed (`natives_placed`, SCHEMA_V2 §8)."""

    turn: int
    turn_order: list[str]
    might: dict[str, int]
    abilities: dict[str, dict[str, Any]]
    rewards: list[dict[str, Any]]
    events: list[dict[str, Any]]
    food: dict[str, int]
    squads: dict[str, int]
    rows: dict[str, dict[str, dict[str, Any]]]      # faction -> "tab:row" -> verdict
    keeper_orders: list[dict[str, Any]]
    keeper_planning: list[dict[str, Any]]
    revealed: dict[str, dict[str, Any]]
    spells: dict[str, list[dict[str, Any]]]
    quests: dict[str, QuestRecord]
    active_events: list[EventRecord]
    might_allocation: dict[str, dict[str, Any]]
    planning: dict[str, Any]                         # "resources" and "food" of the Planning
    begun: Begun
    natives_placed: dict[str, Any]


# -- a game from a situation, a start by the book ----------------------------------------------------------------

class Content(TypedDict):
    """A game's own content (situation_game.py): the situation's schema and, of a v2 file, its catalog."""

    schema: str
    catalog: NotRequired[dict[str, Any]]


class Opening(TypedDict):
    """What a situation fixed for its own turn (engine.titania.opening)."""

    turn: int
    dice: dict[str, Any]
    choices: dict[str, Any]
    planning: bool
    production: bool
    events: bool
    seed: NotRequired[int | str]
    keeper_reinforce: NotRequired[dict[str, Any]]
    keeper_orders: NotRequired[list[dict[str, Any]]]
    keeper_planning: NotRequired[list[dict[str, Any]]]


class StartSettings(TypedDict):
    """engine/titania/data/start.toml with the scenario's [start] over it (setup.start_settings)."""

    stage: bool
    keepers: int
    keeper_provinces: int
    unique_races: bool
    capital_name_length: int
    colours: list[str]
    keeper_names: list[str]
    keeper_technologies: list[str]


class StartParts(TypedDict):
    """The scenario's parts the founding places (setup.new_game; JSON as the scenario gave them)."""

    keepers: Any
    bosses: Any
    provinces: list[Any] | None
    armies: Any
    names: dict[str, str]               # faction -> its capital's name


class StartRecord(TypedDict):
    """A start by the book waiting in its set-up stage (engine.titania.start_book)."""

    settings: StartSettings
    parts: StartParts
    seed: str


# -- the state -------------------------------------------------------------------------------------------------

class TitaniaState(TypedDict):
    schema_version: int
    ruleset: str
    turn: int
    stage: str                          # "orders", "setup" (turn 0) or "finished"
    factions: dict[str, FactionRecord]
    params: dict[str, Any]              # the scenario's [params] over engine/titania/data/params.toml
    victory: dict[str, Any]             # the scenario's [victory] (engine.titania.victory.read_table)
    map: GameMap
    owners: dict[str, str]              # province -> faction or Keeper
    buildings: dict[str, list[str]]     # province -> building types
    armies: list[Army]
    natives: dict[str, int]             # province -> Strength
    bosses: dict[str, Boss]
    protected: dict[str, str]           # province -> faction (SCHEMA §1.3)
    stolen: list[str]
    keeper_trigger_used: list[str]
    in_transit: list[Arrival]
    battles: list[BattleRecord]
    last: LastTurn
    chronicle: list[ChronicleEntry]
    log: list[LogEntry]
    ledger: list[LedgerLine]
    keepers: dict[str, Keeper]
    active_events: NotRequired[list[EventRecord]]
    quests: NotRequired[dict[str, QuestRecord]]
    offers: NotRequired[list[Offer]]
    content: NotRequired[Content]
    opening: NotRequired[Opening]
    faction_order: NotRequired[list[str]]   # a situation's own order of factions (the turn's draws go in it)
    turn_begun: NotRequired[int]        # the turn whose opening already ran (game_turn.begin_turn)
    start: NotRequired[StartRecord]


# -- the border with the contract ----------------------------------------------------------------------------

def titania_state(state: Mapping[str, Any]) -> TitaniaState:
    """The contract's state (plain JSON) seen as the Titania state it is."""
    return cast(TitaniaState, state)


def plain(state: TitaniaState) -> dict[str, Any]:
    """The Titania state as the contract's plain JSON dict (the same object)."""
    return cast(dict[str, Any], state)


def copy_of(state: TitaniaState) -> TitaniaState:
    """A deep copy of the state (engine.state.clone), so that a turn never changes its input."""
    return titania_state(clone(dict(plain(state))))


def balance(rec: FactionRecord | Keeper | Mapping[str, Any], resource: str) -> int:
    """A faction's balance of `resource` (0 when it holds none)."""
    value: int = cast(Mapping[str, Any], rec).get(resource, 0)
    return value
