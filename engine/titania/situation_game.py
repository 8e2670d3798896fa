"""A Titania game made from a situation file (SCHEMA §1, SCHEMA_V2): `forumwar new --situation FILE.json`.

A GM who ran a game in his own spreadsheet writes where it stands as a situation (map, factions, races, purses,
armies, buildings, technologies, spells, Keepers, natives, quests, events, turn) and the game goes on from
there in forumwar: the players type their orders in their books. Everything the orders part of the file says
(Planning orders, the Campaign's orders, casts, abilities, the Might allocation) is ignored.

What the file fixes for its turn alone stays with the game as its `opening` and holds for that turn only
(engine.titania.game_turn): the `dice` and `choices`, whether Planning runs and produces, the Keepers'
reinforcements, whether the turn's events step runs (a file without `state.turn`), and the seed the turn's
chance comes from (`forumwar adjudicate --through-books` plays a case with the case's seed; such a game says it
is not a fair game). A v2 file's `catalog` is the game's content (SCHEMA_V2 §1, G72); a v1 file plays with the
game's own content, as `adjudicate` does. A file's `setup.natives` places the natives when the game is made,
with the adjudicator's own function (the `natives_placed` event is the game's first record).
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, cast

from engine.state import SCHEMA_VERSION
from engine.titania.adjudicate import place_natives
from engine.titania.game_turn import begin_turn
from engine.titania.map import DEPOSITS
from engine.titania.params import RESOURCES
from engine.titania.setup import start_settings
from engine.titania.situation import SCHEMA_V2, Situation, parse_situation
from engine.titania.state_types import Content, EventRecord, Opening, Province, QuestRecord, TitaniaState
from engine.titania.world import World

PLANNING_KEYS = ("production", "arrivals", "keeper_reinforce", "stolen", "orders")


def _provinces(sit: Situation, keeper_of: Mapping[str, str]) -> dict[str, Province]:
    out: dict[str, Province] = {}
    for pid, p in sit.map.provinces.items():
        if p.sea:
            deposits: list[str] | None = None
        elif p.hidden:
            deposits = None  # revealed when an army comes near (SCHEMA_V2 §7)
        else:
            deposits = sorted(p.deposits) if p.deposits is not None else list(DEPOSITS)  # absent: any building
        info: Province = {"name": p.name, "sea": p.sea, "island": p.island, "shrine": p.shrine, "capital": p.capital,
                          "deposits": deposits, "keeper": keeper_of.get(pid), "boss": pid in sit.bosses}
        if pid in sit.bosses:
            info["boss_name"] = "Босс"
        if p.market:
            info["market"] = True
        out[pid] = info
    return out


def _content(sit: Situation, data: Mapping[str, Any]) -> Content:
    """The game's content: the file's schema and, of a v2 file, its catalog (SCHEMA_V2 §1)."""
    content: Content = {"schema": sit.schema}
    if sit.schema == SCHEMA_V2:
        content["catalog"] = copy.deepcopy(data.get("catalog") or {})
    return content


def _limits(sit: Situation, fid: str) -> dict[str, int]:
    spec = sit.faction(fid)
    out = {"max_strength": spec.max_strength, "hire": spec.hire, "replenish": spec.replenish}
    if spec.food is not None:
        out["food"] = spec.food
    return out


def game_from_situation(data: object, seed: int | str = 0, fix_turn: bool = False
                        ) -> tuple[TitaniaState | None, list[str]]:
    """The game state a situation starts (turn `state.turn`, else 1; the stage of orders), or None and every
    problem of the file, in Russian. `seed`: the chance of making it (natives placed, resources revealed, an event
    or a quest drawn as its turn begins); `fix_turn`: its turn's own chance comes from `seed` too (as `adjudicate`
    draws it: not a fair game), else from the game's stage seed."""
    sit, problems = parse_situation(copy.deepcopy(data))
    if sit is None:
        return None, problems
    assert isinstance(data, dict)
    players = [f for f in sit.factions if not f.is_keeper]
    keepers = [f for f in sit.factions if f.is_keeper]
    if not players:
        return None, ["factions: нужна хотя бы одна фракция игрока (kind «player»): без неё некому отдавать приказы."]
    keeper_of = {p: o for p, o in sit.owners.items() if o is not None and sit.faction(o).is_keeper}
    ext = sit.ext
    colours = start_settings({}, [])["colours"]
    state: TitaniaState = {
        "schema_version": SCHEMA_VERSION, "ruleset": "titania", "turn": ext.turn or 1, "stage": "orders",
        "params": copy.deepcopy(data.get("params") or {}), "victory": {},
        "map": {"provinces": _provinces(sit, keeper_of),
                "adjacency": sorted(sorted([a, b]) for a, near in sit.map.adjacency.items() for b in near if a < b)},
        "owners": {p: o for p, o in sit.owners.items() if o is not None},
        "buildings": {p: list(b) for p, b in sit.buildings.items() if b},
        "armies": [{"faction": a.faction, "province": a.province, "strength": a.strength,
                    "naval": a.naval or sit.map.provinces[a.province].sea} for a in sit.armies],
        "natives": dict(sit.natives), "bosses": {p: {"health": h} for p, h in sit.bosses.items()},
        "protected": dict(sit.protected), "stolen": [], "keeper_trigger_used": sorted(sit.keeper_trigger_used),
        "in_transit": [], "battles": [], "last": {}, "chronicle": [], "log": [], "ledger": [],
        # the file's records (SCHEMA_V2 §5, §6), as the adjudicator read them
        "active_events": [cast(EventRecord, dict(e)) for e in ext.events],
        "quests": {k: cast(QuestRecord, dict(q)) for k, q in ext.quests.items()},
        "content": _content(sit, data),
        "factions": {},
        "faction_order": [f.id for f in sit.factions],  # the file's order: the order the turn's draws go in
        "keepers": {},  # below, after the factions
    }
    for i, f in enumerate(players):
        capital = next((p for p in state["owners"] if state["owners"][p] == f.id
                        and sit.map.provinces[p].capital), "")
        purse = {r: int(f.resources.get(r, 0)) for r in RESOURCES}
        state["factions"][f.id] = {
            "name": f.name or f.id, "race": f.race, "colour": colours[i % len(colours)], "capital": capital,
            "allies": sorted(f.allies), "at_war": sorted(f.at_war), "might": 0,
            "gold": purse["gold"], "wood": purse["wood"], "influence": purse["influence"], "stone": purse["stone"],
            "mana": purse["mana"],
            "techs": list(ext.technologies.get(f.id, ())), "spells": list(ext.spells.get(f.id, ())),
            "items": list(ext.items.get(f.id, ())), "base_limits": _limits(sit, f.id)}
    state["keepers"] = {k.id: {"name": k.name or k.id, "race": k.race,
                               "home": sorted(p for p, o in keeper_of.items() if o == k.id),
                               "techs": list(ext.technologies.get(k.id, ())), "at_war": bool(k.at_war),
                               "resources": {r: int(k.resources.get(r, 0)) for r in RESOURCES},
                               "base_limits": _limits(sit, k.id)} for k in keepers}
    planning = sit.planning
    if planning is not None:
        state["in_transit"] = copy.deepcopy(list(planning.get("arrivals") or []))
        state["stolen"] = [p for p in planning.get("stolen") or [] if isinstance(p, str)]
    opening: Opening = {
        "turn": state["turn"], "dice": copy.deepcopy(dict(sit.dice)),
        "choices": copy.deepcopy(dict(sit.choices)), "planning": planning is not None,
        "production": bool(planning.get("production", True)) if planning is not None else False,
        "events": ext.turn is not None}
    if fix_turn:
        opening["seed"] = seed
    if planning is not None and isinstance(planning.get("keeper_reinforce"), dict):
        opening["keeper_reinforce"] = copy.deepcopy(planning["keeper_reinforce"])
    state["opening"] = opening
    # the Keepers' orders the file gives for its turn (no book has them: the GM's, as the file says); a turn played
    # as `adjudicate` plays it (`fix_turn`) has exactly those, else the game's standing orders when it gives none
    keeper_ids = {k.id for k in keepers}
    given = [copy.deepcopy(o) for o in sit.orders if isinstance(o, dict) and o.get("faction") in keeper_ids]
    sent = [copy.deepcopy(o) for o in (planning or {}).get("orders") or []
            if isinstance(o, dict) and o.get("faction") in keeper_ids]
    if given or fix_turn:
        state["opening"]["keeper_orders"] = given
    if sent:
        state["opening"]["keeper_planning"] = sent
    if sit.setup_natives:
        w = World(sit, seed)
        place_natives(w)
        state["natives"] = {p: n for p, n in w.natives.items() if n > 0}
        state["last"] = {"natives_placed": w.events[-1]}
    for fid, rec in state["factions"].items():
        rec["might"] = sum(1 for p, o in state["owners"].items() if o == fid and state["map"]["provinces"][p]["shrine"])
    begin_turn(state, seed)  # what the situation's turn begins with, shown in the books before its orders
    return state, []


FIXED = {"turn_order": "очерёдность Похода", "building_loss": "какие постройки теряются",
         "caravan": "набеги на караваны", "boss_reward": "награды за Боссов",
         "keeper_trigger": "подкрепление Хранителей", "event": "события", "quest": "задания Хранителей",
         "quest_reward": "награды за задания", "reveal": "ресурсы провинций", "reveal_lost": "что отнимает Святилище",
         "natives_free": "провинции без туземцев", "retreat": "куда отступать",
         "ally_split": "кто из союзников несёт лишнюю потерю"}


def fixed_notes(data: object) -> tuple[str, ...]:
    """What the GM should tell the players of a game made from `data`: the draws and choices the file fixes for its
    turn (they replace the game's secret draws for that turn)."""
    if not isinstance(data, dict):
        return ()
    keys = [k for part in ("dice", "choices") if isinstance(data.get(part), dict) for k in data[part]]
    if not keys:
        return ()
    what = ", ".join(FIXED.get(str(k), str(k)) for k in keys)
    return (f"Броски и выборы первого хода заданы файлом ситуации ({what}): в этом ходу они заменяют тайный жребий "
            "игры; со следующего хода всё решает жребий игры.",)
