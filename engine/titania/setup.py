"""Game start («НАЧАЛО ИГРЫ») from a scenario: the map, factions with colour, race and capital, natives,
Keepers and Bosses; the first state of a Titania game.

One file, over 400 lines: both starts (a scenario that fixes everything, and the set-up stage) run its `found`,
and the checks of a scenario's start and the founding read the same map and placement rules.

A scenario without a `[start]` table fixes every faction's colour, race and capital: the game starts at turn 1.
With `[start]` (defaults: engine/titania/data/start.toml) the start goes as the book says: what the scenario
leaves open the players pick in the «Начало игры» tab of a set-up stage at turn 0 (engine.titania.start_book),
and its resolution founds the capitals, places the Keepers (the GM's, and random ones up to `keepers`), the
Bosses and the natives (`found`, the one function both starts run); with `stage = false` what is open is drawn
by lot at once.

Rule book: each faction picks a unique colour, a race and «любую провинцию на карте, граничащую с морем
(кроме островов)» as its capital; the capital gets «один рудник т1 по добыче золота, одну лесопилку т1 и
гарнизон войск с силой 3», gives 2 Influence and 3 Food (the province's `capital` flag, SCHEMA §1.1), and
«все остальные ресурсы убираются с этой провинции» (deposits: gold and wood only, no Shrine).
Natives by rings around the capitals (G41 a), Keepers with all t1 buildings and 1-10 Strength per province,
Bosses with Health 10 on a Shrine and a t1 extraction building. The randomness of a start the scenario fixes
(or draws at once) comes from a stream seeded by the scenario (`setup_seed`, else its title), so a scenario
always starts the same game; a set-up stage's comes from that stage's seed, as every stage's.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping
from functools import cache
from typing import Any, Final, Literal, cast

from engine.datafiles import read_toml
from engine.rng import Random, stream
from engine.russian import agree
from engine.state import SCHEMA_VERSION
from engine.titania import natives, victory
from engine.titania.data import default_data
from engine.titania.holdings import apply_holdings
from engine.titania.map import DEPOSITS
from engine.titania.params import default_params, override
from engine.titania.races import RACES
from engine.titania.reveal import reveal_around
from engine.titania.state_types import FactionRecord, Keeper, Province, StartParts, StartSettings, TitaniaState

CAPITAL_GARRISON = 3  # Game start: «гарнизон войск с силой 3»
CAPITAL_BUILDINGS = ("mine", "sawmill")  # «один рудник т1 по добыче золота, одну лесопилку т1»
KEEPER_STRENGTH = (1, 10)  # Keepers: «На каждой провинции Хранителей появляется войско с силой 1-10»
START = "setup"  # the set-up stage (turn 0) of a start by the book
Choice = Literal["colour", "race", "capital"]
CHOICES: Final = ("colour", "race", "capital")  # what a player picks (and the capital's name, optional)
RESOURCE_KEYS: Final = ("gold", "wood", "influence", "stone", "mana")
DEPOSIT_BUILDING = {"gold": "mine", "wood": "sawmill", "fertile": "farm", "stone": "quarry", "mana": "tower"}


class ScenarioProblems(ValueError):
    """A scenario that cannot start a game; `.problems` lists every problem, in Russian."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _text(v: object) -> str:
    return v.strip() if isinstance(v, str) else ""


def _provinces(raw: object, problems: list[str]) -> dict[str, Province]:
    out: dict[str, Province] = {}
    if not isinstance(raw, list) or not raw:
        problems.append("[[provinces]]: нужен список провинций карты.")
        return out
    for i, p in enumerate(raw):
        where = f"[[provinces]] №{i + 1}"
        if not isinstance(p, dict) or not _text(p.get("id")):
            problems.append(f"{where}: нужна таблица с непустым id.")
            continue
        pid = _text(p["id"])
        if pid in out:
            problems.append(f"{where}: провинция «{pid}» описана дважды.")
            continue
        deposits = p.get("deposits")
        if deposits is not None and (not isinstance(deposits, list) or not all(d in DEPOSITS for d in deposits)):
            problems.append(f"{where} ({pid}): deposits — список из {', '.join(DEPOSITS)}.")
            deposits = None
        x, y = p.get("x", 0), p.get("y", 0)
        if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in (x, y)):
            problems.append(f"{where} ({pid}): координаты x и y должны быть числами.")
            x, y = 0, 0
        sea = bool(p.get("sea", False))
        out[pid] = {"name": _text(p.get("name")) or pid, "sea": sea, "island": bool(p.get("island", False)),
                    "shrine": bool(p.get("shrine", False)), "capital": False, "x": x, "y": y,
                    "deposits": None if sea else (sorted(deposits) if deposits is not None else None),
                    "keeper": None, "boss": False}
    return out


def _adjacency(raw: object, provinces: Mapping[str, Any], problems: list[str]) -> list[list[str]]:
    pairs: set[tuple[str, str]] = set()
    if not isinstance(raw, list):
        problems.append("adjacency: нужен список пар соседних провинций [\"a\", \"b\"].")
        return []
    for pair in raw:
        if (not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair)
                or pair[0] == pair[1]):
            problems.append(f"adjacency: {pair!r} — нужна пара разных провинций.")
            continue
        missing = [x for x in pair if x not in provinces]
        if missing:
            problems.append(f"adjacency: нет провинции {', '.join(missing)}.")
            continue
        a, b = sorted(pair)
        pairs.add((a, b))
    return [[a, b] for a, b in sorted(pairs)]


def neighbours(state: TitaniaState) -> dict[str, set[str]]:
    """Province -> adjacent provinces."""
    out: dict[str, set[str]] = {p: set() for p in state["map"]["provinces"]}
    for a, b in state["map"]["adjacency"]:
        out[a].add(b)
        out[b].add(a)
    return out



# -- the start by the book: settings ------------------------------------------------------------------------

START_KEYS = {"stage": bool, "keepers": int, "keeper_provinces": int, "unique_races": bool,
              "capital_name_length": int, "colours": list, "keeper_names": list, "keeper_technologies": list}


@cache
def _start_defaults() -> dict[str, Any]:
    return read_toml("engine.titania", "data", "start.toml") or {}


def start_settings(raw: object, problems: list[str]) -> StartSettings:
    """engine/titania/data/start.toml with the scenario's `[start]` over it (JSON-able)."""
    out: dict[str, Any] = dict(_start_defaults())
    if not isinstance(raw, dict):
        problems.append("[start]: нужна таблица настроек начала игры.")
        return cast(StartSettings, out)  # start.toml: the keys of StartSettings
    for key, value in raw.items():
        kind = START_KEYS.get(key)
        if kind is None:
            problems.append(f"[start] {key}: неизвестная настройка (известны: {', '.join(START_KEYS)}).")
        elif kind is int and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            problems.append(f"[start] {key}: нужно целое число не меньше 0, а указано {value!r}.")
        elif kind is bool and not isinstance(value, bool):
            problems.append(f"[start] {key}: нужно true или false, а указано {value!r}.")
        elif kind is list and (not isinstance(value, list) or (not value and key != "keeper_technologies")
                               or not all(isinstance(v, str) and v.strip() for v in value)):
            problems.append(f"[start] {key}: нужен {'' if key == 'keeper_technologies' else 'непустой '}список "
                            "названий.")
        else:
            out[key] = [v.strip() for v in value] if kind is list else value
    if out["keeper_provinces"] < 1:
        problems.append("[start] keeper_provinces: у Хранителей хотя бы одна провинция.")
    if len({c.casefold() for c in out["colours"]}) != len(out["colours"]):
        problems.append("[start] colours: цвета в списке повторяются.")
    return cast(StartSettings, out)


def _json(value: object) -> Any:
    """A scenario part kept in the set-up state (TOML gives JSON-able values but dates)."""
    if isinstance(value, dict):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v) for v in value]
    return value if value is None or isinstance(value, str | int | float | bool) else str(value)


# -- factions --------------------------------------------------------------------------------------------

def coastal(provinces: Mapping[str, Any], nb: Mapping[str, set[str]], p: str) -> bool:
    """«любую провинцию на карте, граничащую с морем (кроме островов)»."""
    info = provinces[p]
    return not info["sea"] and not info["island"] and any(provinces[n]["sea"] for n in nb[p])


def _factions(raw: object, provinces: dict[str, Province], nb: dict[str, set[str]],
              settings: Mapping[str, Any] | None, problems: list[str]
              ) -> tuple[dict[str, FactionRecord], dict[str, str]]:
    """The faction records and the capital names the scenario gives. With `settings` (a start by the book) a
    colour, race or capital left out is open: "" in the record, for the players to pick."""
    out: dict[str, FactionRecord] = {}
    names: dict[str, str] = {}
    if not isinstance(raw, dict) or len(raw) < 2:
        problems.append("[factions.*]: нужны хотя бы две фракции игроков.")
        return out, names
    colours: dict[str, str] = {}
    races: dict[str, str] = {}
    open_ok = settings is not None
    for fid, f in raw.items():
        where = f"[factions.{fid}]"
        if not isinstance(f, dict):
            problems.append(f"{where}: нужна таблица.")
            continue
        race, colour, capital = _text(f.get("race")), _text(f.get("colour")), _text(f.get("capital"))
        if race or not open_ok:
            if race not in RACES:
                problems.append(f"{where}: раса «{race}» неизвестна; допустимы: {', '.join(RACES)}.")
            elif settings is not None and settings["unique_races"] and race in races:
                problems.append(f"{where}: раса «{race}» уже у фракции «{races[race]}» (каждая раса — один раз; "
                                "повтор разрешает unique_races = false в [start]).")
            races.setdefault(race, str(fid))
        if not colour:
            if not open_ok:
                problems.append(f"{where}: нужен цвет фракции (colour).")
        elif colour.casefold() in colours:
            problems.append(f"{where}: цвет «{colour}» уже у фракции «{colours[colour.casefold()]}» "
                            "(цвет должен быть уникальным).")
        colours[colour.casefold()] = str(fid)
        if capital or not open_ok:
            p = provinces.get(capital)
            if p is None:
                problems.append(f"{where}: столица «{capital}» не найдена среди провинций карты.")
            elif not coastal(provinces, nb, capital):
                problems.append(f"{where}: столица «{p['name']}» должна граничить с морем и не быть островом "
                                "(«любую провинцию на карте, граничащую с морем (кроме островов)»).")
            elif p["capital"]:
                problems.append(f"{where}: «{p['name']}» уже столица другой фракции.")
            else:
                p["capital"] = True
        if _text(f.get("capital_name")):
            names[str(fid)] = _text(f.get("capital_name"))
        allies = f.get("allies", [])
        purse = f.get("resources", {})
        start = {r: 0 for r in RESOURCE_KEYS}
        if not isinstance(purse, dict) or not all(r in RESOURCE_KEYS and isinstance(n, int) and not isinstance(n, bool)
                                                  and n >= 0 for r, n in purse.items()):
            problems.append(f"{where}: resources — таблица «ресурс = количество» из {', '.join(RESOURCE_KEYS)}.")
        else:
            start.update(purse)
        out[str(fid)] = {"name": _text(f.get("name")) or str(fid), "race": race, "colour": colour,
                         "capital": capital, "allies": sorted(a for a in allies if isinstance(a, str))
                         if isinstance(allies, list) else [], "at_war": [], "might": 0, "gold": start["gold"],
                         "wood": start["wood"], "influence": start["influence"], "stone": start["stone"],
                         "mana": start["mana"]}
    for fid, f in out.items():
        for ally in f["allies"]:
            if ally not in out:
                problems.append(f"[factions.{fid}]: союзник «{ally}» — не фракция игрока.")
            elif fid not in out[ally]["allies"]:
                out[ally]["allies"] = sorted({*out[ally]["allies"], fid})
    return out, names


# -- Keepers and Bosses ----------------------------------------------------------------------------------

def _keepers(raw: object, provinces: dict[str, Province], rng: Random, state: TitaniaState,
             problems: list[str], random_race: bool = False, technologies: object = ()) -> dict[str, Keeper]:
    """The Keepers at their places; `random_race`: a Keeper without a race gets a random one («со случайной
    расой»); `technologies`: the standard set of a Keeper whose table gives none."""
    out: dict[str, Keeper] = {}
    if raw is None:
        return out
    if not isinstance(raw, dict):
        problems.append("[keepers.*]: нужны таблицы Хранителей.")
        return out
    for kid, k in raw.items():
        where = f"[keepers.{kid}]"
        home = k.get("provinces") if isinstance(k, dict) else None
        if not isinstance(k, dict) or not isinstance(home, list) or not home:
            problems.append(f"{where}: нужен список provinces (у Хранителей по 2 провинции).")
            continue
        race = _text(k.get("race"))
        if not race and random_race:
            race = rng.choice(sorted(RACES))
        if race not in RACES:
            problems.append(f"{where}: раса «{race}» неизвестна; допустимы: {', '.join(RACES)}.")
        shrine = _text(k.get("shrine")) or home[0]
        ok = True
        for p in home:
            if p not in provinces or provinces[p]["sea"] or provinces[p]["capital"] or provinces[p]["keeper"]:
                problems.append(f"{where}: «{p}» — не свободная сухопутная провинция карты.")
                ok = False
        if not ok:
            continue
        for p in home:
            info = provinces[p]
            info["keeper"] = str(kid)
            if p == shrine:
                info["shrine"] = True
            deposits = set(info["deposits"] or ("gold", "wood"))
            if info["shrine"]:
                deposits.discard(rng.choice(sorted(deposits & {"gold", "wood"}) or ["gold"]))
            info["deposits"] = sorted(deposits)
            # «со всеми постройками т1» and a Market («Рынок»)
            state["buildings"][p] = sorted({DEPOSIT_BUILDING[d] for d in deposits} | {"market"})
            state["owners"][p] = str(kid)
            state["armies"].append({"faction": str(kid), "province": p, "strength": rng.randint(*KEEPER_STRENGTH),
                                    "naval": False})
        out[str(kid)] = {"name": _text(k.get("name")) or str(kid), "race": race, "home": list(home),
                         "at_war": False}
        techs = _keeper_techs(k.get("technologies", technologies), where, problems)
        if techs:
            out[str(kid)]["techs"] = techs
    return out


def _keeper_techs(raw: object, where: str, problems: list[str]) -> list[str]:
    """«стандартный набор технологий» of a Keeper: technology ids of the game's catalog."""
    known = default_data().technologies
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        problems.append(f"{where} technologies: нужен список идентификаторов технологий.")
        return []
    bad = [t for t in raw if t not in known]
    if bad:
        problems.append(f"{where} technologies: нет таких технологий: {', '.join(bad)} (есть: {', '.join(known)}).")
    return sorted({t for t in raw if t in known})


def _random_keepers(state: TitaniaState, settings: Mapping[str, Any], taken: set[str], rng: Random
                    ) -> tuple[dict[str, Any], list[str]]:
    """Keepers up to `settings.keepers` beside the GM's (as [keepers.*] tables, with a random race, for
    `_keepers`): each on `keeper_provinces` connected free land provinces, none a capital or next to one, none
    next to another Keeper's, none `taken` (the GM's Keepers and Bosses). The notes say what found no room."""
    provinces = state["map"]["provinces"]
    nb = neighbours(state)
    have = [k for k in state["keepers"]]
    wanted = max(0, int(settings["keepers"]) - len(have))
    size = int(settings["keeper_provinces"])
    names = [n for n in settings["keeper_names"] if n not in {k["name"] for k in state["keepers"].values()}]
    blocked = set(taken) | {p for p, i in provinces.items() if i["capital"] or i["keeper"]}
    blocked |= {n for p in list(blocked) if provinces[p]["capital"] or provinces[p]["keeper"] for n in nb[p]}
    out: dict[str, Any] = {}
    notes: list[str] = []
    for i in range(wanted):
        free = sorted(p for p, info in provinces.items() if not info["sea"] and p not in blocked
                      and state["owners"].get(p) is None)
        realm: list[str] = []
        for first in rng.sample(free, len(free)):
            realm = [first]
            while len(realm) < size:
                grow = sorted({n for p in realm for n in nb[p] if n in free and n not in realm})
                if not grow:
                    break
                realm.append(rng.choice(grow))
            if len(realm) == size:
                break
            realm = []
        if not realm:
            notes.append(f"на карте не нашлось места ещё для {agree(wanted - i, 'фракция', 'gent')} Хранителей "
                         f"(каждой нужны свободные соседние провинции вдали от столиц: {size})")
            break
        kid = next(f"keeper{n}" for n in range(1, 10 ** 6) if f"keeper{n}" not in state["keepers"]
                   and f"keeper{n}" not in out)
        out[kid] = {"name": names[i] if i < len(names) else f"Хранители {len(have) + i + 1}",
                    "provinces": realm, "shrine": rng.choice(realm)}
        blocked |= set(realm) | {n for p in realm for n in nb[p]}
    return out, notes


def _bosses(raw: object, provinces: dict[str, Province], rng: Random, state: TitaniaState,
            health: int, problems: list[str]) -> None:
    if raw is None:
        return
    if not isinstance(raw, list):
        problems.append("[[bosses]]: нужен список Боссов.")
        return
    for i, b in enumerate(raw):
        p = _text(b.get("province")) if isinstance(b, dict) else ""
        info = provinces.get(p)
        if info is None or info["sea"] or info["capital"] or info["keeper"]:
            problems.append(f"[[bosses]] №{i + 1}: «{p}» — не свободная сухопутная провинция карты.")
            continue
        assert isinstance(b, dict)
        # «В провинции Босса всегда есть Святилище Древних и добывающее здание т1 (золото или дерево)»
        res = str(b["resource"]) if b.get("resource") in ("gold", "wood") else rng.choice(["gold", "wood"])
        info.update({"shrine": True, "boss": True, "deposits": [res], "boss_name": _text(b.get("name")) or "Босс"})
        state["buildings"][p] = [DEPOSIT_BUILDING[res]]
        state["bosses"][p] = {"health": health}


def place_natives(state: TitaniaState, rng: Random) -> dict[str, Any]:
    """G41 a, G40 a (SCHEMA_V2 §8, engine.titania.natives: the adjudicator's `setup.natives` runs the same
    function): around each capital three random neighbours (filled up from 2 steps away) have no natives; every
    other free land province gets a squad of its distance over land from the nearest capital. Keeper, Boss,
    owned and capital provinces and the sea have none. Returns the `natives_placed` event (SCHEMA_V2 §8)."""
    provinces = state["map"]["provinces"]
    nb = neighbours(state)
    land = frozenset(p for p, info in provinces.items() if not info["sea"])
    eligible = frozenset(p for p in land if not (provinces[p]["capital"] or provinces[p]["keeper"]
                                                 or provinces[p]["boss"]) and state["owners"].get(p) is None
                         and p not in state["natives"])
    capitals = [p for p, info in provinces.items() if info["capital"]]
    free, placed = natives.place(land, nb, capitals, eligible, {}, lambda _cap: rng)
    state["natives"].update(placed)
    return {"kind": "natives_placed", "free": free, "natives": placed}


# -- the founding: one function for both starts ------------------------------------------------------------

def reserved(parts: Mapping[str, Any]) -> set[str]:
    """Provinces the GM set for Keepers and Bosses, or handed to a faction: no capital may be founded there."""
    out: set[str] = set()
    keepers = parts.get("keepers")
    for k in keepers.values() if isinstance(keepers, dict) else ():
        if isinstance(k, dict) and isinstance(k.get("provinces"), list):
            out.update(p for p in k["provinces"] if isinstance(p, str))
    bosses = parts.get("bosses")
    for b in bosses if isinstance(bosses, list) else ():
        if isinstance(b, dict) and isinstance(b.get("province"), str):
            out.add(b["province"])
    for p in parts.get("provinces") or () if isinstance(parts.get("provinces"), list) else ():
        if isinstance(p, dict) and p.get("owner") is not None and isinstance(p.get("id"), str):
            out.add(p["id"])
    return out


def capital_candidates(state: TitaniaState, parts: Mapping[str, Any]) -> list[str]:
    """Where a capital may still be founded: coastal land, not an island, not a capital, not reserved."""
    provinces = state["map"]["provinces"]
    nb = neighbours(state)
    taken = reserved(parts)
    return sorted(p for p in provinces if coastal(provinces, nb, p) and not provinces[p]["capital"] and p not in taken)


def free_choices(state: TitaniaState, parts: Mapping[str, Any], settings: Mapping[str, Any],
                 faction: str | None = None) -> dict[str, list[str]]:
    """What is still free to pick (besides `faction`'s own picks): colours (as the list says them), race ids,
    capital provinces."""
    others = [f for fid, f in state["factions"].items() if fid != faction]
    used_colours = {f["colour"].casefold() for f in others if f["colour"]}
    used_races = {f["race"] for f in others if f["race"]} if settings["unique_races"] else set()
    own = state["factions"].get(faction) if faction is not None else None
    mine = own.get("capital") if own is not None else None
    capitals = capital_candidates(state, parts)
    if mine:
        capitals = sorted({*capitals, mine})
    return {"colour": [c for c in settings["colours"] if c.casefold() not in used_colours],
            "race": [r for r in RACES if r not in used_races], "capital": capitals}


def draw_open(state: TitaniaState, parts: Mapping[str, Any], settings: Mapping[str, Any], seed: int | str
              ) -> dict[str, list[str]]:
    """Fill every faction's open colour, race and capital by lot (each from its own stream of `seed`), in the
    order of the faction ids; returns what each faction got by lot."""
    drawn: dict[str, list[str]] = {}
    provinces = state["map"]["provinces"]
    for fid in sorted(state["factions"]):
        rec = state["factions"][fid]
        for key in CHOICES:
            if rec[key]:
                continue
            options = free_choices(state, parts, settings, fid)[key]
            if key == "capital":
                options = [p for p in options if p != rec["capital"]]
            if not options:
                continue
            rec[key] = stream(seed, "titania", "start", "lot", key, fid).choice(options)
            if key == "capital":
                provinces[rec[key]]["capital"] = True
            drawn.setdefault(fid, []).append(key)
    return drawn


def found(state: TitaniaState, parts: Mapping[str, Any], settings: Mapping[str, Any] | None, rng: Random,
          reveal_seed: int | str, problems: list[str]) -> list[str]:
    """Found the game on a state whose factions all have colour, race and capital: the GM's Keepers (and, in a
    start by the book, random ones up to `keepers`), the Bosses, the provinces handed out, then each capital
    with its buildings and garrison and without its other resources, the scenario's armies, the natives by
    rings and the resources next to every army. Appends the scenario's problems (then stops before the
    capitals); returns notes for the GM (Russian) and leaves turn 1, stage «orders»."""
    provinces = state["map"]["provinces"]
    params = override(default_params(), state.get("params") or None, [])
    for f in state["factions"].values():
        if f["capital"] in provinces:
            provinces[f["capital"]]["capital"] = True
    standard = (settings or start_settings({}, []))["keeper_technologies"]
    state["keepers"] = _keepers(parts.get("keepers"), provinces, rng, state, problems, random_race=settings is not None,
                                technologies=list(standard))
    notes: list[str] = []
    if settings is not None:
        extra, notes = _random_keepers(state, settings, reserved(parts), rng)
        state["keepers"].update(_keepers(extra, provinces, rng, state, problems, random_race=True,
                                         technologies=list(standard)))
    _bosses(parts.get("bosses"), provinces, rng, state, params.boss_health, problems)
    apply_holdings(parts.get("provinces"), state, problems)  # a game that starts in progress
    if problems:
        return notes
    names = parts.get("names") or {}
    for fid, f in state["factions"].items():
        cap = f["capital"]
        info = provinces[cap]
        info.update({"deposits": ["gold", "wood"], "shrine": False})  # «все остальные ресурсы убираются»
        if names.get(fid):
            info["name"] = names[fid]
        state["owners"][cap] = fid
        state["buildings"][cap] = list(CAPITAL_BUILDINGS)
        state["armies"].append({"faction": fid, "province": cap, "strength": CAPITAL_GARRISON, "naval": False})
    armies = parts.get("armies")
    for a in armies if isinstance(armies, list) else []:
        if isinstance(a, dict) and a.get("faction") in state["factions"] and a.get("province") in provinces:
            state["armies"].append({"faction": a["faction"], "province": a["province"],
                                    "strength": int(a.get("strength", 1)), "naval": provinces[a["province"]]["sea"]})
    placed = place_natives(state, rng)
    reveal_around(state, reveal_seed)
    state.update({"turn": 1, "stage": "orders"})
    state.pop("start", None)
    state["last"] = {"natives_placed": placed} if settings is not None else state.get("last", {})
    return notes


def _open(state: TitaniaState) -> bool:
    return any(not f[k] for f in state["factions"].values() for k in CHOICES)


def new_game(scenario: Mapping[str, Any], ruleset: str = "titania") -> TitaniaState:
    """The first state of a scenario: turn 1, stage «orders», when the scenario fixes the start (or its
    `[start]` says `stage = false`, or leaves nothing open); else turn 0, the set-up stage, whose resolution
    (engine.titania.start_book) founds the game. ScenarioProblems lists every problem."""
    problems: list[str] = []
    params_raw = scenario.get("params")
    override(default_params(), params_raw, problems)
    provinces = _provinces(scenario.get("provinces"), problems)
    state: TitaniaState = {
        "schema_version": SCHEMA_VERSION, "ruleset": ruleset, "turn": 1, "stage": "orders",
        "params": dict(params_raw) if isinstance(params_raw, dict) else {},
        "victory": victory.read_table(scenario.get("victory"), provinces, problems),
        "map": {"provinces": provinces, "adjacency": _adjacency(scenario.get("adjacency"), provinces, problems)},
        "owners": {}, "buildings": {}, "armies": [], "natives": {}, "bosses": {}, "protected": {}, "stolen": [],
        "keeper_trigger_used": [], "in_transit": [], "battles": [], "last": {}, "chronicle": [], "log": [],
        "ledger": [], "keepers": {}, "factions": {}}  # the factions next: they read the map
    nb = neighbours(state)
    settings = start_settings(scenario["start"], problems) if "start" in scenario else None
    state["factions"], names = _factions(scenario.get("factions"), provinces, nb, settings, problems)
    parts: StartParts = {"keepers": _json(scenario.get("keepers")), "bosses": _json(scenario.get("bosses")),
             "provinces": _json([p for p in scenario.get("provinces") or [] if isinstance(p, dict)
                                 and ("owner" in p or "buildings" in p)])
             if isinstance(scenario.get("provinces"), list) else None,
             "armies": _json(scenario.get("armies")), "names": names}
    seed_text = str(scenario.get("setup_seed", scenario.get("title", "titania")))
    rng = stream(seed_text, "titania", "setup")
    if settings is None:
        found(state, parts, None, rng, seed_text, problems)
        if problems:
            raise ScenarioProblems(problems)
        return state
    if not problems:
        _check_start(state, parts, settings, seed_text, problems)
    if problems:
        raise ScenarioProblems(problems)
    if not settings["stage"] or not _open(state):
        draw_open(state, parts, settings, seed_text)
        found(state, parts, settings, rng, seed_text, problems)
        return state
    state.update({"turn": 0, "stage": START, "start": {"settings": settings, "parts": parts, "seed": seed_text}})
    return state


def _check_start(state: TitaniaState, parts: Mapping[str, Any], settings: Mapping[str, Any], seed: str,
                 problems: list[str]) -> None:
    """A start by the book can be founded whatever the players pick: enough colours, races and coastal
    provinces for every open choice, and the GM's Keepers, Bosses and handed-out provinces fit (a trial
    founding with the open choices drawn by lot)."""
    factions = state["factions"]
    free = free_choices(state, parts, settings)
    whats = {"colour": "цветов", "race": "рас", "capital": "приморских провинций для столиц"}
    for key in CHOICES:
        what = whats[key]
        wanted = sum(1 for f in factions.values() if not f[key])
        if wanted > len(free[key]):
            hint = " (или разрешите повтор рас: unique_races = false)" if key == "race" else ""
            problems.append(f"[start]: фракциям нужно выбрать {wanted}, а свободных {what} {len(free[key])}{hint}.")
    for p in parts.get("provinces") or []:
        owner = p.get("owner")
        if owner in factions and not factions[owner]["capital"]:
            problems.append(f"[[provinces]] {p.get('id')}: провинцию отдают фракции «{owner}», а столицу она ещё "
                            "выбирает: задайте её столицу (capital) или уберите owner.")
    if problems:
        return
    trial = copy.deepcopy(state)
    draw_open(trial, parts, settings, f"{seed}|trial")
    found(trial, parts, settings, stream(seed, "titania", "setup", "trial"), seed, problems)
