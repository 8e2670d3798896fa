"""Scripted Titania players for `forumwar demo --ruleset titania` (the DemoPlayers capability).

Each turn every faction's "player" looks at what its book shows (its own provinces and armies and the
troops next to them: the fog of war of the books, never more) and types: a building, a hire (the skaven
also their free Rat swarm), a technology when rich enough (the Lizardmen naming their «Дары Богов» discount:
wood, then gold), a caravan by sea between the two port-owning
factions; Campaign orders in its own sequence (capture empty neighbours, attack weaker or equal
neighbours, natives and Bosses, splitting the capital's garrison, supporting its own attacks); the Might
allocation and its race's active ability. Every faction also makes one deliberate mistake a turn, so the
books show the Russian row messages. The game ends after turn 8 (the scenario's [victory]).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.book_orders import (
    ABILITY_FORM,
    BUILD,
    CARAVAN,
    HIRE,
    HOLD,
    MIGHT_ROW,
    MOVE,
    RATS,
    RESEARCH,
    SUPPORT,
    Book,
    data,
)
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, ability_name
from engine.titania.races import RACES
from engine.titania.state_types import balance, titania_state
from engine.titania.views import food, squads

Cells = tuple[str, ...]
BUILD_ORDER = (("fertile", "farm"), ("gold", "mine"), ("wood", "sawmill"), ("stone", "quarry"), ("mana", "tower"))
BOSS_HUNTERS = {"karak": "boss_wyrm", "grimgor": "boss_giant"}   # who tries a Boss, and which
CARAVAN_ROUTE = ("albion", "lothern", ("Западная бухта", "Тихая Долина", "Лотерн"))


class TitaniaDemoPlayers:
    scenario = "demo"
    seed = "titania-demo"
    turns = 8

    def orders(self, state: Mapping[str, Any], faction: str,
               book: Mapping[str, list[list[str]]]) -> dict[str, list[tuple[Any, ...]]]:
        b = Book(titania_state(state), faction)
        turn = int(state["turn"])
        planning, influence = _planning(b, turn)
        campaign, attacks = _campaign(b, turn)
        might = _might(b, attacks, influence)
        mistake = _mistake(b, turn)
        for tab, row in mistake:
            {"planning": planning, "campaign": campaign, "might": might}[tab].append(row)
        return {"planning": planning, "campaign": campaign, "might": might}


def _income(b: Book) -> dict[str, int]:
    """What the faction will have after production (P5.1), as its books show it."""
    f = b.state["factions"][b.faction]
    out = {r: int(balance(f, r)) for r in ("gold", "wood", "influence", "stone", "mana")}
    for p in b.owned():
        out["influence"] += 2 if b.state["map"]["provinces"][p]["capital"] else 1
        for bld in b.state["buildings"].get(p, []):
            res = {"mine": "gold", "sawmill": "wood", "quarry": "stone", "tower": "mana"}.get(bld)
            if res:
                out[res] += 1
    return out


def _limit(b: Book) -> int:
    limits = b.state["factions"][b.faction].get("limits") or {}
    return int(limits.get("max_strength", 3))


def _planning(b: Book, turn: int) -> tuple[list[Cells], int]:
    purse = _income(b)
    rows: list[Cells] = []
    capital = b.state["factions"][b.faction]["capital"]
    owned = b.own_land()
    if turn == 1 and b.faction in CARAVAN_ROUTE[:2] and capital in owned:
        rows.append((BUILD, b.pname(capital), BUILDING_NAMES["port"], "", "", ""))
        purse["influence"] -= 1
    elif purse["influence"] >= 2:
        for p in owned:
            deposits = b.state["map"]["provinces"][p]["deposits"] or []
            have = b.state["buildings"].get(p, [])
            choice = next((bld for dep, bld in BUILD_ORDER if dep in deposits and bld not in have), None)
            if choice is not None:
                rows.append((BUILD, b.pname(p), BUILDING_NAMES[choice], "", "", ""))
                purse["influence"] -= 1
                break
    known = b.state["factions"][b.faction].get("techs", [])
    choices = RACES[b.race].research_discounts   # the Lizardmen name their discount: wood, then gold
    for tech, discount in (("drill", "wood"), ("recruiting", "gold")):
        cost = dict(data(b.state).technologies[tech].cost)
        if tech in known or turn < 3 or not all(purse[r] >= n + 2 for r, n in cost.items()):
            continue
        named = RESOURCE_NAMES[discount] if discount in choices else ""
        if named:
            cost[discount] -= 1
        rows.append((RESEARCH, "", data(b.state).technologies[tech].name, "", "", "", named))
        for r, n in cost.items():
            purse[r] -= n
        break
    armies = b.armies()
    limit = _limit(b)
    room = sorted((p for p in armies if p in owned and armies[p]["strength"] < limit),
                  key=lambda p: (p != capital, b.pname(p)))
    if room:
        p = room[0]
        n = min(purse["gold"], purse["wood"], limit - int(armies[p]["strength"]), 3)
        if n >= 1:
            rows.append((HIRE, b.pname(p), "", str(n), "", ""))
            purse["gold"] -= n
            purse["wood"] -= n
    elif capital in owned and capital not in armies and squads(b.state, b.faction) < food(b.state, b.faction):
        n = min(purse["gold"], purse["wood"], 2)
        if n >= 1:
            rows.append((HIRE, b.pname(capital), "", str(n), "", ""))
    if RACES[b.race].free_hire and capital in owned:
        rows.append((RATS, b.pname(capital), "", "", "", ""))
    sender, receiver, route = CARAVAN_ROUTE
    if turn == 2 and b.faction == sender and receiver in b.state["factions"] and purse["gold"] >= 1:
        rows.append((CARAVAN, b.pname(capital), "золото", "1", b.fname(receiver), ", ".join(route)))
    return rows, purse["influence"]


def _enemy_strength(b: Book, p: str) -> int | None:
    """Hostile Strength seen in a neighbouring province (None: nobody there)."""
    s = b.state
    total = sum(a["strength"] for a in s["armies"] if a["province"] == p and a["faction"] != b.faction)
    total += int(s["natives"].get(p, 0))
    return total if total or p in s["bosses"] else None


def _campaign(b: Book, turn: int) -> tuple[list[Cells], list[tuple[str, str]]]:
    s = b.state
    provinces = s["map"]["provinces"]
    capital = s["factions"][b.faction]["capital"]
    armies = b.armies()
    rows: list[Cells] = []
    attacks: list[tuple[str, str]] = []
    taken: set[str] = set()
    free_slots = food(s, b.faction) - squads(s, b.faction)
    seq = 1
    choices: dict[str, tuple[int, str]] = {}
    for p in sorted(armies, key=b.pname):
        strength = int(armies[p]["strength"])
        best: tuple[int, str] | None = None
        for n in b.neighbours(p):
            info = provinces[n]
            if info["sea"] or s["owners"].get(n) == b.faction:
                continue
            enemy = _enemy_strength(b, n)
            if n in s["bosses"]:
                score = 1 if BOSS_HUNTERS.get(b.faction) == n and turn >= 3 and strength >= 3 else 0
            elif enemy is None:
                score = 5
            elif s["owners"].get(n) in s.get("keepers", {}):
                score = 3 if strength >= enemy else 0
            elif strength > enemy:
                score = 4
            elif strength + 2 >= enemy:
                score = 2  # equal or a little weaker: worth it with support (or a draw)
            else:
                score = 0
            if score and (best is None or score > best[0]):
                best = (score, n)
        if best is not None and strength >= 1 and not (p == capital and strength < 2):
            choices[p] = best
    supporters: dict[str, str] = {}
    origins: set[str] = set()
    for p, (score, target) in sorted(choices.items(), key=lambda kv: (kv[1][0] != 2, -kv[1][0])):
        if p in supporters or target in taken:
            continue
        helper = next((q for q in sorted(armies, key=b.pname) if q != p and q not in supporters and q not in origins
                       and target in b.neighbours(q)), None) if score == 2 else None
        if score == 2 and helper is None and turn % 2:
            continue  # not strong enough alone: wait for a better turn
        strength = int(armies[p]["strength"])
        taken.add(target)
        if p == capital and free_slots > 0:
            rows.append((str(seq), b.pname(p), MOVE, b.pname(target), "", str(strength - 1)))
            rows.append(("", b.pname(p), HOLD, "", "", ""))
            free_slots -= 1
        elif p == capital:
            continue
        else:
            rows.append((str(seq), b.pname(p), MOVE, b.pname(target), "", ""))
        attacks.append((p, target))
        origins.add(p)
        seq += 1
        if helper is not None and _enemy_strength(b, target):
            supporters[helper] = target
            rows.append(("", b.pname(helper), SUPPORT, b.pname(target), "", ""))
            taken.add(helper)
    busy = {p for p, _ in attacks} | set(supporters)
    staying = [p for p in sorted(armies, key=b.pname) if p not in busy]
    for p in staying:  # a standing army backs a neighbouring own army that an enemy may attack (A3.1)
        danger = {q: sum(_enemy_strength(b, n) or 0 for n in b.neighbours(q) if n != p)
                  for q in b.neighbours(p) if q in staying}
        threatened = max(sorted(danger), key=lambda q: danger[q], default=None)
        if threatened is not None and danger[threatened] > 0:
            rows.append(("", b.pname(p), SUPPORT, b.pname(threatened), "", ""))
    return rows, attacks


def _might(b: Book, attacks: list[tuple[str, str]], influence: int) -> list[Cells]:
    rows: list[Cells] = []
    if b.might() > 0 and attacks:
        rows.append((MIGHT_ROW, b.pname(attacks[0][0]), "", "", "", str(b.might()), ""))
    if influence < 1:
        return rows
    name = ability_name(b.race)
    armies = sorted(b.armies(), key=b.pname)
    capital = b.state["factions"][b.faction]["capital"]
    form = ABILITY_FORM.get(b.race, "army")
    lead = attacks[0][0] if attacks else (armies[0] if armies else None)
    if form == "army" and lead is not None:
        rows.append((name, b.pname(lead), "", "", "", "", ""))
    elif form == "own_province" and b.state["owners"].get(capital) == b.faction:
        rows.append((name, "", b.pname(capital), "", "", "", ""))
    elif form == "province" and attacks:
        rows.append((name, "", b.pname(attacks[0][1]), "", "", "", ""))
    elif form == "army_two" and attacks:
        origin, target = attacks[0]
        other = next((n for n in b.neighbours(target) if n != origin and not b.state["map"]["provinces"][n]["sea"]),
                     None)
        if other is not None:
            rows.append((name, b.pname(origin), b.pname(target), b.pname(other), "", "", ""))
    elif form == "allocation" and attacks:
        rows.append((name, b.pname(attacks[0][0]), "", "", "", "1", ""))
    elif form == "enemy_army":  # Intimidation: a foreign army next to an own province
        own = set(b.owned())
        foreign = sorted({a["province"] for a in b.state["armies"] if a["faction"] in b.state["factions"]
                          and a["faction"] != b.faction and any(n in own for n in b.neighbours(a["province"]))},
                         key=b.pname)
        if foreign:
            rows.append((name, "", b.pname(foreign[0]), "", "", "", ""))
    return rows


def _mistake(b: Book, turn: int) -> list[tuple[str, Cells]]:
    """One deliberate mistake a turn, a different kind each turn."""
    armies = sorted(b.armies(), key=b.pname)
    army = b.pname(armies[0]) if armies else "Нигде"
    foreign = next((f["capital"] for fid, f in b.state["factions"].items() if fid != b.faction), None)
    far = b.pname(foreign) if foreign else "Луна"
    other_race = next(r for r in ABILITY_FORM if r != b.race)
    kinds: list[tuple[str, Cells]] = [
        ("planning", (BUILD, far, BUILDING_NAMES["farm"], "", "", "")),
        ("campaign", ("", army, MOVE, far, "", "")),
        ("planning", (HIRE, b.pname(b.state["factions"][b.faction]["capital"]), "", "много", "", "")),
        ("might", (MIGHT_ROW, army, "", "", "", "5", "")),
        ("campaign", ("", army, "Отступить", "", "", "")),
        ("might", (ability_name(other_race), army, "", "", "", "", "")),
    ]
    return [kinds[(turn + len(b.faction)) % len(kinds)]]
