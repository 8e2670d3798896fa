"""Game start («НАЧАЛО ИГРЫ») from a scenario: the map, factions with colour, race and capital, natives,
Keepers and Bosses; the first state of a Titania game.

Rule book: each faction picks a unique colour, a race and «любую провинцию на карте, граничащую с морем
(кроме островов)» as its capital; the capital gets «один рудник т1 по добыче золота, одну лесопилку т1 и
гарнизон войск с силой 3», gives 2 Influence and 3 Food (the province's `capital` flag, SCHEMA §1.1), and
«все остальные ресурсы убираются с этой провинции» (deposits: gold and wood only, no Shrine).
Natives by rings around the capitals (G41 a), Keepers with all t1 buildings and 1-10 Strength per province,
Bosses with Health 10 on a Shrine and a t1 extraction building. The randomness of the set-up comes from a
stream seeded by the scenario (`setup_seed`, else its title), so a scenario always starts the same game.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rng import Random, stream
from engine.state import SCHEMA_VERSION
from engine.titania import natives
from engine.titania.holdings import apply_holdings
from engine.titania.map import DEPOSITS
from engine.titania.params import Params, default_params, override
from engine.titania.races import RACES
from engine.titania.reveal import reveal_around

CAPITAL_GARRISON = 3  # Game start: «гарнизон войск с силой 3»
CAPITAL_BUILDINGS = ("mine", "sawmill")  # «один рудник т1 по добыче золота, одну лесопилку т1»
KEEPER_STRENGTH = (1, 10)  # Keepers: «На каждой провинции Хранителей появляется войско с силой 1-10»
RESOURCE_KEYS = ("gold", "wood", "influence", "stone", "mana")
DEPOSIT_BUILDING = {"gold": "mine", "wood": "sawmill", "fertile": "farm", "stone": "quarry", "mana": "tower"}


class ScenarioProblems(ValueError):
    """A scenario that cannot start a game; `.problems` lists every problem, in Russian."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _text(v: object) -> str:
    return v.strip() if isinstance(v, str) else ""


def _provinces(raw: object, problems: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
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


def neighbours(state: Mapping[str, Any]) -> dict[str, set[str]]:
    """Province -> adjacent provinces."""
    out: dict[str, set[str]] = {p: set() for p in state["map"]["provinces"]}
    for a, b in state["map"]["adjacency"]:
        out[a].add(b)
        out[b].add(a)
    return out


def _factions(raw: object, provinces: dict[str, dict[str, Any]], nb: dict[str, set[str]],
              problems: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    if not isinstance(raw, dict) or len(raw) < 2:
        problems.append("[factions.*]: нужны хотя бы две фракции игроков.")
        return out
    colours: dict[str, str] = {}
    for fid, f in raw.items():
        where = f"[factions.{fid}]"
        if not isinstance(f, dict):
            problems.append(f"{where}: нужна таблица.")
            continue
        race, colour, capital = _text(f.get("race")), _text(f.get("colour")), _text(f.get("capital"))
        if race not in RACES:
            problems.append(f"{where}: раса «{race}» неизвестна; допустимы: {', '.join(RACES)}.")
        if not colour:
            problems.append(f"{where}: нужен цвет фракции (colour).")
        elif colour.casefold() in colours:
            problems.append(f"{where}: цвет «{colour}» уже у фракции «{colours[colour.casefold()]}» "
                            "(цвет должен быть уникальным).")
        colours[colour.casefold()] = str(fid)
        p = provinces.get(capital)
        if p is None:
            problems.append(f"{where}: столица «{capital}» не найдена среди провинций карты.")
        elif p["sea"] or p["island"] or not any(provinces[n]["sea"] for n in nb[capital]):
            problems.append(f"{where}: столица «{p['name']}» должна граничить с морем и не быть островом "
                            "(«любую провинцию на карте, граничащую с морем (кроме островов)»).")
        elif p["capital"]:
            problems.append(f"{where}: «{p['name']}» уже столица другой фракции.")
        else:
            p["capital"] = True
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
                         if isinstance(allies, list) else [], "at_war": [], "might": 0, **start}
    for fid, f in out.items():
        for ally in f["allies"]:
            if ally not in out:
                problems.append(f"[factions.{fid}]: союзник «{ally}» — не фракция игрока.")
            elif fid not in out[ally]["allies"]:
                out[ally]["allies"] = sorted({*out[ally]["allies"], fid})
    return out


def _keepers(raw: object, provinces: dict[str, dict[str, Any]], rng: Random, state: dict[str, Any],
             problems: list[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
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
        if race not in RACES:
            problems.append(f"{where}: раса «{race}» неизвестна; допустимы: {', '.join(RACES)}.")
        shrine = _text(k.get("shrine")) or home[0]
        ok = True
        for p in home:
            if p not in provinces or provinces[p]["sea"] or provinces[p]["capital"]:
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
    return out


def _bosses(raw: object, provinces: dict[str, dict[str, Any]], rng: Random, state: dict[str, Any],
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
        info.update(shrine=True, boss=True, deposits=[res], boss_name=_text(b.get("name")) or "Босс")
        state["buildings"][p] = [DEPOSIT_BUILDING[res]]
        state["bosses"][p] = {"health": health}


def place_natives(state: dict[str, Any], rng: Random) -> None:
    """G41 a, G40 a (SCHEMA_V2 §8, engine.titania.natives: the adjudicator's `setup.natives` runs the same
    function): around each capital three random neighbours (filled up from 2 steps away) have no natives; every
    other free land province gets a squad of its distance over land from the nearest capital. Keeper, Boss,
    owned and capital provinces and the sea have none."""
    provinces = state["map"]["provinces"]
    nb = neighbours(state)
    land = frozenset(p for p, info in provinces.items() if not info["sea"])
    eligible = frozenset(p for p in land if not (provinces[p]["capital"] or provinces[p]["keeper"]
                                                 or provinces[p]["boss"]) and state["owners"].get(p) is None
                         and p not in state["natives"])
    capitals = [p for p, info in provinces.items() if info["capital"]]
    _, placed = natives.place(land, nb, capitals, eligible, {}, lambda _cap: rng)
    state["natives"].update(placed)


def new_game(scenario: Mapping[str, Any], ruleset: str = "titania") -> dict[str, Any]:
    """The first state (turn 1, stage «orders») of a scenario; ScenarioProblems lists every problem."""
    problems: list[str] = []
    params_raw = scenario.get("params")
    params: Params = override(default_params(), params_raw, problems)
    provinces = _provinces(scenario.get("provinces"), problems)
    state: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION, "ruleset": ruleset, "turn": 1, "stage": "orders",
        "params": dict(params_raw) if isinstance(params_raw, dict) else {},
        "victory": dict(scenario["victory"]) if isinstance(scenario.get("victory"), dict) else {},
        "map": {"provinces": provinces, "adjacency": _adjacency(scenario.get("adjacency"), provinces, problems)},
        "owners": {}, "buildings": {}, "armies": [], "natives": {}, "bosses": {}, "protected": {}, "stolen": [],
        "keeper_trigger_used": [], "in_transit": [], "battles": [], "last": {}, "chronicle": [], "log": [],
        "ledger": []}
    nb = neighbours(state)
    state["factions"] = _factions(scenario.get("factions"), provinces, nb, problems)
    rng = stream(str(scenario.get("setup_seed", scenario.get("title", "titania"))), "titania", "setup")
    state["keepers"] = _keepers(scenario.get("keepers"), provinces, rng, state, problems)
    _bosses(scenario.get("bosses"), provinces, rng, state, params.boss_health, problems)
    apply_holdings(scenario.get("provinces"), state, problems)  # a game that starts in progress
    if problems:
        raise ScenarioProblems(problems)
    for fid, f in state["factions"].items():
        cap = f["capital"]
        info = provinces[cap]
        info.update(deposits=["gold", "wood"], shrine=False)  # «все остальные ресурсы убираются»
        if _text(scenario["factions"][fid].get("capital_name")):
            info["name"] = _text(scenario["factions"][fid]["capital_name"])
        state["owners"][cap] = fid
        state["buildings"][cap] = list(CAPITAL_BUILDINGS)
        state["armies"].append({"faction": fid, "province": cap, "strength": CAPITAL_GARRISON, "naval": False})
    for a in scenario.get("armies", []) if isinstance(scenario.get("armies"), list) else []:
        if isinstance(a, dict) and a.get("faction") in state["factions"] and a.get("province") in provinces:
            state["armies"].append({"faction": a["faction"], "province": a["province"],
                                    "strength": int(a.get("strength", 1)), "naval": provinces[a["province"]]["sea"]})
    place_natives(state, rng)
    reveal_around(state, str(scenario.get("setup_seed", scenario.get("title", "titania"))))
    return state
