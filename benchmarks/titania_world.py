"""A large Titania world for `make bench` and the scale tests, generated from a seed (deterministic).

150 provinces on a 15×10 hex grid (a planar map: each cell borders up to six others): the western and
eastern edges are sea, two islands stand in their own seas, 16 Shrines; 16 factions of all 13 races in four
alliances of four, each holding about six provinces with buildings (a game in progress: `owner` and
`buildings` on `[[provinces]]`, engine.titania.holdings); three Keepers, three Bosses, natives in the free
land; 300 player armies (allies share provinces). Then the book rows every faction types for one turn:
builds, hires, caravans, a technology, the Rat swarm, moves, attacks, supports, splits, holds, the Might
allocation and the racial ability; mostly legal, some wrong (the Russian row messages must handle them).

`scenario()` is the scenario (as a TOML document: `scenario_toml()`), `world()` its first state with the
typed rows, `situation()` the `titania.adjudicate.v1` input the `turn` builds from them.

One module over 400 lines: the map, the holdings, the armies and the typed rows are drawn from one seeded
stream in one order; split, the modules would have to hand that stream and its order between them.
"""
from __future__ import annotations

import json
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.ruleset import ParsedOrders, Row
from engine.titania import game_turn, setup
from engine.titania.book_orders import (
    ABILITY_FORM,
    BUILD,
    CARAVAN,
    HIRE,
    HOLD,
    LEARN,
    MIGHT_ROW,
    MOVE,
    RATS,
    RESEARCH,
    SUPPORT,
    Book,
    data,
    validate_books,
)
from engine.titania.names import BUILDING_NAMES, ability_name
from engine.titania.races import RACES

WIDTH, HEIGHT = 15, 10
FACTIONS = 16
ARMIES = 300
PROVINCES_EACH = 7
SEED = 2024
COLUMNS = {"planning": ("action", "province", "what", "count", "to", "route"),
           "campaign": ("seq", "army", "order", "target", "for_whom", "strength"),
           "might": ("action", "army", "province1", "province2", "faction", "points", "spell")}
RACE_ORDER = ("humans", "dwarfs", "wood_elves", "high_elves", "dark_elves", "orcs", "skaven", "undead",
              "lizardmen", "fauns", "beastmen", "goblins", "chaos_dwarfs", "humans", "orcs", "skaven")
COLOURS = ("алый", "синий", "зелёный", "белый", "чёрный", "жёлтый", "бурый", "серый", "лиловый", "рыжий",
           "голубой", "розовый", "бирюзовый", "золотой", "серебряный", "медный")
SYLLABLES = ("ар", "бел", "вал", "гор", "дар", "ель", "жар", "зор", "ил", "кар", "лес", "мор", "нор", "ос",
             "пер", "рус", "сол", "тар", "ур", "хол", "цвет", "чер", "яр", "вер", "гал", "дол", "мир", "сев")
BUILDING_OF = {"gold": "mine", "wood": "sawmill", "fertile": "farm", "stone": "quarry", "mana": "tower"}
KEEPERS = (("grove", "wood_elves", "Стражи Рощи"), ("oaks", "fauns", "Дети Дубрав"),
           ("jungle", "lizardmen", "Хранители Джунглей"))
BOSSES = ("Дракон", "Великан", "Змей")
Cells = tuple[str, ...]


def _pid(x: int, y: int, height: int = HEIGHT) -> str:
    return f"p{x:02d}{y}" if height <= 10 else f"p{x:02d}{y:02d}"


def _grid_neighbours(x: int, y: int, height: int = HEIGHT) -> list[tuple[int, int]]:
    """Hex cells in offset rows: odd rows shifted half a cell to the right."""
    shift = 0 if y % 2 == 0 else 1
    cells = [(x - 1, y), (x + 1, y), (x - 1 + shift, y - 1), (x + shift, y - 1), (x - 1 + shift, y + 1),
             (x + shift, y + 1)]
    return [(a, b) for a, b in cells if 0 <= a < WIDTH and 0 <= b < height]


def _names(rng: random.Random, n: int) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    while len(out) < n:
        word = "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((2, 3)))).capitalize()
        if word not in seen:
            seen.add(word)
            out.append(word)
    return out


def _bfs(start: str, nb: Mapping[str, list[str]], allowed: set[str] | None = None) -> dict[str, str | None]:
    """Predecessor map of a breadth-first search (neighbours in sorted order: deterministic)."""
    prev: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        for n in nb[p]:
            if n not in prev and (allowed is None or n in allowed):
                prev[n] = p
                queue.append(n)
    return prev


def _distances(start: str, nb: Mapping[str, list[str]]) -> dict[str, int]:
    """The provinces on a shortest path from `start` to each province, both ends counted (len(_path))."""
    prev = _bfs(start, nb)
    out: dict[str, int] = {}
    for p, before in prev.items():  # in breadth-first order: a province's predecessor comes first
        out[p] = 1 if before is None else out[before] + 1
    return out


def scenario(seed: int = SEED, scale: int = 1) -> dict[str, Any]:
    """The scenario document (the bridge's keys included: title). `scale` (1, 2, 4, ...) multiplies the map's
    height (so the provinces), the factions, the armies, the Shrines, the islands, the Keepers and the Bosses
    (make bench's growth figures); scale 1 is the issue's world, the same as before the parameter."""
    rng = random.Random(seed)
    height = HEIGHT * scale
    coord: dict[str, tuple[int, int]] = {}
    for y in range(height):
        for x in range(WIDTH):
            coord[_pid(x, y, height)] = (x, y)
    nb = {p: sorted(_pid(a, b, height) for a, b in _grid_neighbours(x, y, height)) for p, (x, y) in coord.items()}
    sea = {p for p, (x, _) in coord.items() if x in (0, WIDTH - 1)}
    islands = {_pid(x, y + HEIGHT * k, height) for k in range(scale) for x, y in ((4, 3), (10, 6))}
    for isle in islands:
        sea.update(nb[isle])
    land = [p for p in sorted(nb) if p not in sea]
    names = dict(zip(sorted(nb), _names(rng, len(nb)), strict=True))
    coastal = [p for p in land if p not in islands and any(n in sea for n in nb[p])]
    # capitals: spread over the coast (farthest point first)
    capitals = [rng.choice(coastal)]
    nearest = _distances(capitals[0], nb)
    while len(capitals) < FACTIONS * scale:
        dist = {p: nearest[p] for p in coastal if p not in capitals}
        far = max(dist.values())
        capitals.append(rng.choice(sorted(p for p, d in dist.items() if d == far)))
        nearest = {p: min(d, nearest[p]) for p, d in _distances(capitals[-1], nb).items()}
    near_capital = {n for c in capitals for n in (c, *nb[c])}
    free = [p for p in land if p not in near_capital and p not in islands]
    rng.shuffle(free)
    keepers: dict[str, dict[str, Any]] = {}
    used: set[str] = set()
    for k, (kid, race, title) in enumerate(KEEPERS * scale):
        kid, title = (kid, title) if k < len(KEEPERS) else (f"{kid}{k // len(KEEPERS)}",
                                                            f"{title} {k // len(KEEPERS) + 1}")
        a = next(p for p in free if p not in used and any(n in free and n not in used for n in nb[p]))
        b = next(n for n in nb[a] if n in free and n not in used)
        used.update((a, b, *nb[a], *nb[b]))
        keepers[kid] = {"name": title, "race": race, "provinces": [a, b], "shrine": a}
    bosses = []
    for k, name in enumerate(BOSSES * scale):
        name = name if k < len(BOSSES) else f"{name} {k // len(BOSSES) + 1}"
        p = next(q for q in free if q not in used)
        used.update((p, *nb[p]))
        bosses.append({"province": p, "name": name})
    taken = {p for k in keepers.values() for p in k["provinces"]} | {b["province"] for b in bosses}
    # factions: four alliances of four neighbouring capitals
    order = sorted(capitals, key=lambda p: (coord[p][0] // 8, coord[p][1]))
    fids = [f"f{i:02d}" for i in range(FACTIONS * scale)]
    capital_of = dict(zip(fids, order, strict=True))
    bloc = {f: i // 4 for i, f in enumerate(fids)}
    owner: dict[str, str] = {c: f for f, c in capital_of.items()}
    frontier = {f: deque([c]) for f, c in capital_of.items()}
    for _ in range(PROVINCES_EACH - 1):  # territories grow in turn from the capitals
        for f in fids:
            while frontier[f]:
                p = frontier[f][0]
                options = [n for n in nb[p] if n in land and n not in owner and n not in taken and n not in islands]
                if not options:
                    frontier[f].popleft()
                    continue
                n = rng.choice(options)
                owner[n] = f
                frontier[f].append(n)
                break
    shrines = set(rng.sample(sorted(p for p in land if p not in capitals and p not in taken), 16 * scale))
    provinces = []
    for p in sorted(nb):
        entry: dict[str, Any] = {"id": p, "name": ("Море " if p in sea else "") + names[p],
                                 "x": coord[p][0] * 100 + (50 if coord[p][1] % 2 else 0), "y": coord[p][1] * 100}
        if p in sea:
            entry["sea"] = True
        else:
            deposits = sorted(rng.sample(sorted(BUILDING_OF), rng.choice((1, 2, 2, 3))))
            entry["deposits"] = deposits
            if p in islands:
                entry["island"] = True
            if p in shrines:
                entry["shrine"] = True
            if p in owner and p not in capitals:
                entry["owner"] = owner[p]
                entry["buildings"] = sorted(BUILDING_OF[d] for d in deposits if rng.random() < 0.4)
        provinces.append(entry)
    adjacency = sorted({tuple(sorted((p, n))) for p in nb for n in nb[p]})
    factions: dict[str, Any] = {}
    for i, f in enumerate(fids):
        colour = COLOURS[i % len(COLOURS)] + (f" {i // len(COLOURS) + 1}" if i >= len(COLOURS) else "")
        factions[f] = {"name": f"Держава {names[capital_of[f]]}", "race": RACE_ORDER[i % len(RACE_ORDER)],
                       "colour": colour,
                       "capital": capital_of[f], "capital_name": names[capital_of[f]],
                       "allies": [g for g in fids if g != f and bloc[g] == bloc[f]],
                       "resources": {"gold": 14, "wood": 12, "influence": 20, "stone": 3, "mana": 2}}
    return {"title": "Титания: большой мир", "setup_seed": f"titania-scale-{seed}",
            "params": {"capital_food": 18},  # a large game: food for ~19 squads a faction (GM's choice)
            "provinces": provinces, "adjacency": [list(pair) for pair in adjacency], "factions": factions,
            "keepers": keepers, "bosses": bosses,
            "armies": _armies(rng, fids, bloc, owner, capital_of, sea, nb, ARMIES * scale)}


def _path(a: str, b: str, nb: Mapping[str, list[str]]) -> list[str]:
    prev = _bfs(a, nb)
    out = [b]
    while prev[out[-1]] is not None:
        out.append(str(prev[out[-1]]))
    return out[::-1]


def _armies(rng: random.Random, fids: list[str], bloc: Mapping[str, int], owner: Mapping[str, str],
            capital_of: Mapping[str, str], sea: set[str], nb: Mapping[str, list[str]], armies: int = ARMIES
            ) -> list[dict[str, Any]]:
    """Every owned province garrisoned (capitals by setup), then allies' provinces and the nearby sea until
    there are `armies` player armies; a province never holds armies of two non-allied factions."""
    out = [{"faction": f, "province": p, "strength": rng.randint(1, 3)} for p, f in sorted(owner.items())
           if p not in capital_of.values()]
    at: dict[str, set[str]] = {p: {f} for p, f in owner.items()}
    sea_bloc: dict[str, int] = {}
    candidates: list[tuple[str, str]] = []
    for f in fids:
        own = [p for p, o in owner.items() if o == f]
        candidates += [(f, p) for p, o in sorted(owner.items()) if o != f and bloc[o] == bloc[f]]
        candidates += sorted({(f, s) for p in own for s in nb[p] if s in sea})
    rng.shuffle(candidates)
    for f, p in candidates:
        if len(out) + len(fids) >= armies:
            break
        if f in at.setdefault(p, set()) or (p in sea and sea_bloc.setdefault(p, bloc[f]) != bloc[f]):
            continue
        at[p].add(f)
        out.append({"faction": f, "province": p, "strength": rng.randint(1, 3)})
    return out


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


def scenario_toml(seed: int = SEED, scale: int = 1) -> str:
    """The scenario as a TOML document (inline tables: a GM's file for `forumwar new --scenario`)."""
    lines = ["# Generated by benchmarks/titania_world.py: a large Titania world (make bench)."]
    lines += [f"{k} = {_toml_value(v)}" for k, v in scenario(seed, scale).items()]
    return "\n".join(lines) + "\n"


# -- the rows each faction types ------------------------------------------------------------------------

@dataclass
class World:
    state: dict[str, Any]
    rows: dict[str, dict[str, list[Cells]]]  # faction -> tab key -> typed rows

    def books(self) -> dict[str, dict[str, list[Row]]]:
        """The typed rows as the bridge reads them: rows numbered from 2 under the header."""
        return {fid: {tab: [Row(i + 2, dict(zip(COLUMNS[tab], cells, strict=False))) for i, cells in enumerate(rows)]
                      for tab, rows in tabs.items()} for fid, tabs in self.rows.items()}

    def parsed(self) -> dict[str, ParsedOrders]:
        """The books validated as `check` and `turn` validate them: all at once, on one reading of the state."""
        free = {fid: RACES[self.state["factions"][fid]["race"]].free_hire > 0 for fid in self.rows}
        return validate_books(self.state, "orders", self.books(), free)

    def typed(self) -> int:
        return sum(len(rows) for tabs in self.rows.values() for rows in tabs.values())


def world(seed: int = SEED, scale: int = 1) -> World:
    """The first state of the scenario and one turn of typed orders for every faction."""
    scen = scenario(seed, scale)
    state = setup.new_game({k: v for k, v in scen.items() if k != "title"})
    attacks: dict[str, str] = {}  # target -> attacking faction (first one), for the supports
    campaign: dict[str, list[Cells]] = {}
    books = {fid: Book(state, fid) for fid in state["factions"]}
    nb = setup.neighbours(state)
    for fid in sorted(state["factions"]):
        campaign[fid] = _moves(books[fid], random.Random(f"{seed}-{fid}-moves"), nb, attacks)
    rows: dict[str, dict[str, list[Cells]]] = {}
    for fid in sorted(state["factions"]):
        rng = random.Random(f"{seed}-{fid}")
        b = books[fid]
        moved = [r for r in campaign[fid] if r[2] == MOVE]
        rows[fid] = {"planning": _planning(b, rng, nb),
                     "campaign": campaign[fid] + _supports(b, rng, nb, attacks, campaign[fid]),
                     "might": _might(b, rng, nb, moved)}
    return World(state, rows)


def _moves(b: Book, rng: random.Random, nb: Mapping[str, set[str]], attacks: dict[str, str]) -> list[Cells]:
    """Moves, attacks, splits and holds (about two armies in three); the rest are left for supports."""
    s = b.state
    provinces = s["map"]["provinces"]
    allies = set(s["factions"][b.faction]["allies"])
    rows: list[Cells] = []
    seq = 1
    own = b.armies()
    rows.append(("", "Нигде", HOLD, "", "", ""))  # wrong: no army there
    for p, army in sorted(own.items()):
        strength = int(army["strength"])
        targets = sorted(nb[p])
        roll = rng.random()
        if roll < 0.03:  # wrong: a province that is not adjacent
            far = rng.choice(sorted(set(provinces) - set(targets) - {p}))
            rows.append((str(seq), b.pname(p), MOVE, b.pname(far), "", ""))
        elif roll < 0.05:  # wrong: an order that does not exist
            rows.append(("", b.pname(p), "Отступить", "", "", ""))
        elif roll < 0.40:
            land = [t for t in targets if not provinces[t]["sea"]] if not b.naval(p) else targets
            hostile = [t for t in land if s["owners"].get(t) not in (b.faction, *allies)]
            t = rng.choice(hostile or land or targets)
            attacks.setdefault(t, b.faction)
            mate = next((q for q in sorted(nb[p]) if q in own), None)
            if strength == 3 and mate is not None and rng.random() < 0.5:  # three parts: attack, support, hold
                rows.append((str(seq), b.pname(p), MOVE, b.pname(t), "", "1"))
                rows.append(("", b.pname(p), SUPPORT, b.pname(mate), "", "1"))
                rows.append(("", b.pname(p), HOLD, "", "", ""))
            elif strength >= 2 and rng.random() < 0.4:  # split: part attacks, the rest holds
                rows.append((str(seq), b.pname(p), MOVE, b.pname(t), "", str(strength - 1)))
                rows.append(("", b.pname(p), HOLD, "", "", ""))
            else:
                rows.append((str(seq), b.pname(p), MOVE, b.pname(t), "", ""))
            seq += 1
        elif roll < 0.55:
            rows.append(("", b.pname(p), HOLD, "", "", ""))
    return rows


def _supports(b: Book, rng: random.Random, nb: Mapping[str, set[str]], attacks: Mapping[str, str],
              campaign: list[Cells]) -> list[Cells]:
    """Every army without an order supports an own or allied attack next to it, or an own neighbour."""
    s = b.state
    busy = {r[1] for r in campaign}
    allies = set(s["factions"][b.faction]["allies"])
    rows: list[Cells] = []
    own = b.armies()
    for p in sorted(own):
        if b.pname(p) in busy:
            continue
        helped = [t for t in sorted(nb[p]) if attacks.get(t) in (b.faction, *allies)]
        if helped:
            t = rng.choice(helped)
            rows.append(("", b.pname(p), SUPPORT, b.pname(t), b.fname(attacks[t]), ""))
            continue
        mates = [t for t in sorted(nb[p]) if t in own]
        if mates:
            rows.append(("", b.pname(p), SUPPORT, b.pname(rng.choice(mates)), "", ""))
        else:
            rows.append(("", b.pname(p), HOLD, "", "", ""))
    return rows


def _planning(b: Book, rng: random.Random, nb: Mapping[str, set[str]]) -> list[Cells]:
    s = b.state
    provinces = s["map"]["provinces"]
    rows: list[Cells] = []
    own = b.own_land()
    armies = b.armies()
    for p in own:
        have = s["buildings"].get(p, [])
        possible = [BUILDING_OF[d] for d in provinces[p]["deposits"] or [] if BUILDING_OF[d] not in have]
        if any(provinces[n]["sea"] for n in nb[p]) and "port" not in have:
            possible.append("port")
        if "fort" not in have:
            possible.append("fort")
        for building in rng.sample(possible, len(possible)):
            rows.append((BUILD, b.pname(p), BUILDING_NAMES[building], "", "", ""))
        if rng.random() < 0.15:  # wrong: a building already there, or a mine without gold
            wrong = have[0] if have else "mine"
            rows.append((BUILD, b.pname(p), BUILDING_NAMES[wrong], "", "", ""))
        strength = int(armies[p]["strength"]) if p in armies else 0
        if strength < 3:
            n = 3 - strength if rng.random() < 0.9 else 4 - strength  # sometimes over the limit
            rows.append((HIRE, b.pname(p), "", str(n), "", ""))
        elif rng.random() < 0.3:  # paid in Influence (10 a point): often more than the purse holds
            rows.append((HIRE, b.pname(p), "Влияние", "1", "", ""))
    if RACES[b.race].free_hire:
        rows.append((RATS, b.pname(s["factions"][b.faction]["capital"]), "", "", "", ""))
    if rng.random() < 0.5:
        rows.append((RESEARCH, "", "Строевая подготовка", "", "", ""))
    if rng.random() < 0.5:
        rows.append((LEARN, "", rng.choice(sorted(sp.name for sp in data().spells.values())), "", "", ""))
    allies = sorted(s["factions"][b.faction]["allies"])
    others = sorted(f for f in s["factions"] if f != b.faction and f not in allies)
    for ally in allies + rng.sample(others, 3):  # to allies, and to three others (duties, raids)
        for cargo in ("золото", "дерево")[:2 if ally in allies else 1]:
            start = rng.choice(own)
            route = shortest_route(start, {p for p, o in s["owners"].items() if o == ally}, nb)
            if route:
                rows.append((CARAVAN, b.pname(start), cargo, "1", b.fname(ally), ", ".join(b.pname(x) for x in route)))
    rows.append((BUILD, "Атлантида", BUILDING_NAMES["farm"], "", "", ""))  # wrong: no such province
    rows.append((HIRE, b.pname(own[0]), "", "много", "", ""))  # wrong: not a number
    return rows


def shortest_route(start: str, goal: set[str], nb: Mapping[str, set[str]]) -> list[str]:
    """The provinces after `start` on a shortest route into `goal` (empty when there is none)."""
    prev: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        p = queue.popleft()
        if p in goal:
            out = []
            while p != start:
                out.append(p)
                p = str(prev[p])
            return out[::-1]
        for n in sorted(nb[p]):
            if n not in prev:
                prev[n] = p
                queue.append(n)
    return []


def _might(b: Book, rng: random.Random, nb: Mapping[str, set[str]], moved: list[Cells]) -> list[Cells]:
    s = b.state
    rows: list[Cells] = []
    for i in range(b.might() + 1):  # a point a row to the first attackers; the last row is one too many
        if i < len(moved):
            rows.append((MIGHT_ROW, moved[i][1], "", "", "", "1", ""))
    armies = sorted(b.armies(), key=b.pname)
    form = ABILITY_FORM[b.race]
    name = ability_name(b.race)
    lead = next((b.names[_norm(r[1])] for r in moved), armies[0] if armies else None)
    target = next((b.names[_norm(r[3])] for r in moved), None)
    capital = s["factions"][b.faction]["capital"]
    if lead is None:
        return rows
    if form == "army":
        rows.append((name, b.pname(lead), "", "", "", "", ""))
    elif form == "own_province":
        rows.append((name, "", b.pname(capital), "", "", "", ""))
    elif form == "province" and target is not None:
        rows.append((name, "", b.pname(target), "", "", "", ""))
    elif form == "army_two" and target is not None:
        other = next((n for n in sorted(nb[target]) if n != lead and not s["map"]["provinces"][n]["sea"]), target)
        rows.append((name, b.pname(lead), b.pname(target), b.pname(other), "", "", ""))
    elif form == "allocation":
        rows.append((name, b.pname(lead), "", "", "", "1", ""))
    elif form == "path":
        own = [n for n in sorted(nb[lead]) if s["owners"].get(n) == b.faction]
        if own:
            rows.append((name, b.pname(lead), b.pname(own[0]), "", "", "", ""))
    elif form == "enemy_army":
        foreign = [a["province"] for a in s["armies"] if a["faction"] in s["factions"] and a["faction"] != b.faction
                   and a["province"] in nb[lead] and a["faction"] not in s["factions"][b.faction]["allies"]]
        if foreign:
            rows.append((name, "", b.pname(foreign[0]), "", "", "", ""))
    if rng.random() < 0.2:  # wrong: another race's ability
        other = next(r for r in ABILITY_FORM if r != b.race)
        rows.append((ability_name(other), b.pname(lead), "", "", "", "", ""))
    return rows


def _norm(text: str) -> str:
    from engine.cells import normalize_name
    return normalize_name(text)


def situation(seed: int = SEED, turn_seed: int | str = 1, scale: int = 1) -> dict[str, Any]:
    """The adjudicator's input (titania.adjudicate.v1) that `turn` builds from the typed books."""
    w = world(seed, scale)
    data, _, _ = game_turn.situation(w.state, w.parsed(), turn_seed)
    return data
