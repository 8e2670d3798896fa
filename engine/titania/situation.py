"""Parse a `titania.adjudicate.v1` or `.v2` situation (SCHEMA §1, SCHEMA_V2) into frozen dataclasses.

A v2 file brings its own `catalog` (absent: empty, default G72 closed catalog); a v1 file is adjudicated as
before, with the game's own content (engine.titania.data) as its catalog.

Every structural problem is collected (in Russian) and reported at once; nothing here raises on bad
input. Orders, Planning orders, abilities and allocations are kept as given: a malformed one is voided
during resolution (`bad_order`, `bad_target`), it does not make the file bad.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeGuard

from engine.titania.catalog import parse_catalog
from engine.titania.data import default_data
from engine.titania.extensions import Extensions, parse_extensions
from engine.titania.map import DEPOSITS, Province, TitaniaMap
from engine.titania.params import RESOURCES, Params, default_params, override
from engine.titania.races import RACES

SCHEMA_ID = "titania.adjudicate.v1"
SCHEMA_V2 = "titania.adjudicate.v2"
SCHEMAS = (SCHEMA_ID, SCHEMA_V2)
KINDS = ("player", "keeper")


@dataclass(frozen=True)
class FactionSpec:
    id: str
    race: str
    kind: str = "player"
    allies: frozenset[str] = frozenset()
    at_war: frozenset[str] = frozenset()
    resources: Mapping[str, int] = field(default_factory=dict)
    max_strength: int = 3
    hire: int = 3
    replenish: int = 3
    food: int | None = None
    name: str = ""  # display name (optional; the id when absent)

    @property
    def is_keeper(self) -> bool:
        return self.kind == "keeper"


@dataclass(frozen=True)
class ArmySpec:
    faction: str
    province: str
    strength: int
    naval: bool = False


@dataclass(frozen=True)
class Situation:
    map: TitaniaMap
    factions: tuple[FactionSpec, ...]
    owners: Mapping[str, str | None]
    buildings: Mapping[str, tuple[str, ...]]
    armies: tuple[ArmySpec, ...]
    natives: Mapping[str, int]
    bosses: Mapping[str, int]
    protected: Mapping[str, str]
    keeper_trigger_used: frozenset[str]
    planning: Mapping[str, Any] | None
    might_allocation: Mapping[str, Any]
    abilities: Mapping[str, Any]
    orders: tuple[Any, ...]
    dice: Mapping[str, Any]
    choices: Mapping[str, Any]
    params: Params
    ext: Extensions = field(default_factory=Extensions)
    schema: str = SCHEMA_ID
    setup_natives: bool = False  # SCHEMA_V2 §8: place the natives (game start) before anything else

    def faction(self, fid: str) -> FactionSpec:
        return next(f for f in self.factions if f.id == fid)


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, text: str) -> None:
        self.items.append(f"{where}: {text}")


def _int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _obj(data: Mapping[str, Any], key: str, pr: _Problems, where: str) -> dict[str, Any]:
    value = data.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        pr.add(f"{where}{key}", "нужен объект {…}.")
        return {}
    return value


def _parse_map(raw: object, pr: _Problems) -> TitaniaMap:
    provinces: dict[str, Province] = {}
    adjacency: dict[str, set[str]] = {}
    if not isinstance(raw, dict):
        pr.add("map", "нужен объект с ключами provinces и adjacency.")
        return TitaniaMap({}, {})
    plist = raw.get("provinces")
    if not isinstance(plist, list) or not plist:
        pr.add("map.provinces", "нужен непустой список провинций.")
        plist = []
    for i, p in enumerate(plist):
        where = f"map.provinces[{i}]"
        if not isinstance(p, dict):
            pr.add(where, "провинция должна быть объектом.")
            continue
        pid = p.get("id")
        if not isinstance(pid, str) or not pid:
            pr.add(f"{where}.id", "нужен непустой строковый идентификатор.")
            continue
        if pid in provinces:
            pr.add(f"{where}.id", f"провинция «{pid}» уже описана выше.")
            continue
        name = p.get("name", pid)
        if not isinstance(name, str) or not name:
            pr.add(f"{where}.name", "название должно быть непустой строкой.")
            name = pid
        flags = {}
        for flag in ("sea", "island", "shrine", "capital", "hidden", "market"):
            v = p.get(flag, False)
            if not isinstance(v, bool):
                pr.add(f"{where}.{flag}", f"нужно true или false, а указано {v!r}.")
                v = False
            flags[flag] = v
        deposits: frozenset[str] | None = None
        if "deposits" in p and p["deposits"] is not None:
            d = p["deposits"]
            if not isinstance(d, list) or not all(isinstance(x, str) and x in DEPOSITS for x in d):
                pr.add(f"{where}.deposits", f"нужен список из {', '.join(DEPOSITS)}.")
            else:
                deposits = frozenset(d)
        provinces[pid] = Province(pid, name, flags["sea"], flags["island"], flags["shrine"], flags["capital"],
                                  deposits, flags["hidden"] and not flags["sea"] and not flags["capital"],
                                  flags["market"])
        adjacency[pid] = set()
    alist = raw.get("adjacency", [])
    if not isinstance(alist, list):
        pr.add("map.adjacency", "нужен список пар провинций.")
        alist = []
    for i, pair in enumerate(alist):
        where = f"map.adjacency[{i}]"
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(x, str) for x in pair):
            pr.add(where, "нужна пара идентификаторов провинций [\"a\", \"b\"].")
            continue
        a, b = pair
        missing = [x for x in (a, b) if x not in provinces]
        if missing:
            pr.add(where, f"нет такой провинции: {', '.join(missing)}.")
            continue
        if a == b:
            pr.add(where, "провинция не может граничить сама с собой.")
            continue
        adjacency[a].add(b)
        adjacency[b].add(a)
    return TitaniaMap(provinces, {k: frozenset(v) for k, v in adjacency.items()})


def _parse_factions(raw: object, params: Params, pr: _Problems) -> tuple[FactionSpec, ...]:
    if not isinstance(raw, list) or not raw:
        pr.add("factions", "нужен непустой список фракций.")
        return ()
    rows: list[dict[str, Any]] = []
    ids: list[str] = []
    for i, f in enumerate(raw):
        where = f"factions[{i}]"
        if not isinstance(f, dict):
            pr.add(where, "фракция должна быть объектом.")
            continue
        fid = f.get("id")
        if not isinstance(fid, str) or not fid or fid == "natives":
            pr.add(f"{where}.id", "нужен непустой строковый идентификатор (кроме зарезервированного «natives»).")
            continue
        if fid in ids:
            pr.add(f"{where}.id", f"фракция «{fid}» уже описана выше.")
            continue
        ids.append(fid)
        rows.append({**f, "_where": where})
    known = set(ids)
    allies: dict[str, set[str]] = {fid: set() for fid in ids}
    war: dict[str, set[str]] = {fid: set() for fid in ids}
    specs: list[FactionSpec] = []
    for f in rows:
        where, fid = f["_where"], f["id"]
        race = f.get("race")
        if race not in RACES:
            pr.add(f"{where}.race", f"неизвестная раса {race!r}; допустимы: {', '.join(RACES)}.")
            race = "humans"
        kind = f.get("kind", "player")
        if kind not in KINDS:
            pr.add(f"{where}.kind", f"нужно «player» или «keeper», а указано {kind!r}.")
            kind = "player"
        for key, table in (("allies", allies), ("at_war", war)):
            lst = f.get(key, [])
            if not isinstance(lst, list) or not all(isinstance(x, str) for x in lst):
                pr.add(f"{where}.{key}", "нужен список идентификаторов фракций.")
                continue
            for other in lst:
                if other not in known or other == fid:
                    pr.add(f"{where}.{key}", f"нет другой фракции «{other}».")
                    continue
                table[fid].add(other)
                table[other].add(fid)
        resources: dict[str, int] = {r: 0 for r in RESOURCES}
        res = f.get("resources", {})
        if not isinstance(res, dict):
            pr.add(f"{where}.resources", "нужен объект «ресурс: количество».")
            res = {}
        for r, n in res.items():
            if r not in RESOURCES or not _int(n) or n < 0:
                pr.add(f"{where}.resources.{r}", f"ресурс должен быть одним из {', '.join(RESOURCES)}, "
                                                 f"количество — целым не меньше 0 (указано {n!r}).")
            else:
                resources[r] = n
        limits = f.get("limits", {})
        if not isinstance(limits, dict):
            pr.add(f"{where}.limits", "нужен объект с лимитами.")
            limits = {}
        lim: dict[str, int | None] = {
            "max_strength": params.keeper_max_strength if kind == "keeper" else params.max_strength,
            "hire": params.hire, "replenish": params.replenish, "food": None}
        for key, v in limits.items():
            if key not in lim:
                pr.add(f"{where}.limits.{key}", "неизвестный лимит (известны: max_strength, hire, replenish, food).")
            elif not _int(v) or v < (1 if key == "max_strength" else 0):
                pr.add(f"{where}.limits.{key}", f"нужно целое неотрицательное число, а указано {v!r}.")
            else:
                lim[key] = v
        name = f.get("name", fid)
        if not isinstance(name, str) or not name:
            pr.add(f"{where}.name", "название фракции должно быть непустой строкой.")
            name = fid
        specs.append(FactionSpec(fid, str(race), str(kind), frozenset(), frozenset(), resources,
                                 int(lim["max_strength"] or 1), int(lim["hire"] or 0), int(lim["replenish"] or 0),
                                 lim["food"], name))
    keepers = {s.id for s in specs if s.is_keeper}
    for fid in keepers:
        if allies[fid]:
            pr.add("factions", f"Хранитель «{fid}» не может быть в союзе (с ними дипломатия недоступна).")
    return tuple(replace(s, allies=frozenset(() if s.id in keepers else allies[s.id] - keepers),
                         at_war=frozenset(war[s.id])) for s in specs)


def _parse_state(raw: dict[str, Any], tmap: TitaniaMap, fids: set[str], pr: _Problems) -> dict[str, Any]:
    provs = tmap.provinces
    out: dict[str, Any] = {}
    owners: dict[str, str | None] = {}
    for p, f in _obj(raw, "owners", pr, "state.").items():
        if p not in provs:
            pr.add(f"state.owners.{p}", "нет такой провинции.")
        elif f is not None and f not in fids:
            pr.add(f"state.owners.{p}", f"нет фракции {f!r}.")
        elif f is not None and provs[p].sea:
            pr.add(f"state.owners.{p}", "морские провинции не захватываются и не имеют владельца (C7.2).")
        else:
            owners[p] = f
    out["owners"] = owners
    buildings: dict[str, tuple[str, ...]] = {}
    for p, lst in _obj(raw, "buildings", pr, "state.").items():
        if p not in provs:
            pr.add(f"state.buildings.{p}", "нет такой провинции.")
        elif not isinstance(lst, list) or not all(isinstance(b, str) and b for b in lst):
            pr.add(f"state.buildings.{p}", "нужен список типов построек.")
        elif len(set(lst)) != len(lst):
            pr.add(f"state.buildings.{p}", "в провинции может быть только по одной постройке каждого типа (P1.1).")
        else:
            buildings[p] = tuple(lst)
    out["buildings"] = buildings
    armies: list[ArmySpec] = []
    seen: set[tuple[str, str]] = set()
    alist = raw.get("armies", [])
    if not isinstance(alist, list):
        pr.add("state.armies", "нужен список войск.")
        alist = []
    for i, a in enumerate(alist):
        where = f"state.armies[{i}]"
        if not isinstance(a, dict):
            pr.add(where, "войско должно быть объектом.")
            continue
        fa, pa, sa, naval = a.get("faction"), a.get("province"), a.get("strength"), a.get("naval", False)
        bad = False
        if fa not in fids:
            pr.add(f"{where}.faction", f"нет фракции {fa!r}.")
            bad = True
        if pa not in provs:
            pr.add(f"{where}.province", f"нет провинции {pa!r}.")
            bad = True
        if not _int(sa) or sa < 1:
            pr.add(f"{where}.strength", f"сила войска — целое число не меньше 1 (указано {sa!r}).")
            bad = True
        if not isinstance(naval, bool):
            pr.add(f"{where}.naval", "нужно true или false.")
            bad = True
        if bad or not isinstance(fa, str) or not isinstance(pa, str) or not _int(sa):
            continue
        if provs[pa].sea and not naval:
            pr.add(where, f"сухопутное войско не может стоять в море «{provs[pa].name}» (нужно naval: true).")
            continue
        if (fa, pa) in seen:
            pr.add(where, f"у фракции «{fa}» уже есть войско в провинции «{provs[pa].name}» "
                          "(одно войско фракции на провинцию).")
            continue
        seen.add((fa, pa))
        armies.append(ArmySpec(fa, pa, sa, naval))
    out["armies"] = tuple(armies)
    natives: dict[str, int] = {}
    for p, n in _obj(raw, "natives", pr, "state.").items():
        if p not in provs or provs[p].sea:
            pr.add(f"state.natives.{p}", "нет такой сухопутной провинции.")
        elif not _int(n) or n < 0:
            pr.add(f"state.natives.{p}", f"сила туземцев — целое число не меньше 0 (указано {n!r}).")
        elif n > 0:
            natives[p] = n
    out["natives"] = natives
    bosses: dict[str, int] = {}
    for p, b in _obj(raw, "bosses", pr, "state.").items():
        h = b.get("health") if isinstance(b, dict) else None
        if p not in provs:
            pr.add(f"state.bosses.{p}", "нет такой провинции.")
        elif not _int(h) or h < 1:
            pr.add(f"state.bosses.{p}", "нужен объект {\"health\": целое не меньше 1}.")
        else:
            bosses[p] = h
    out["bosses"] = bosses
    protected: dict[str, str] = {}
    for p, f in _obj(raw, "protected", pr, "state.").items():
        if p not in provs or f not in fids:
            pr.add(f"state.protected.{p}", "нужна существующая провинция и фракция.")
        else:
            protected[p] = f
    out["protected"] = protected
    used = raw.get("keeper_trigger_used", [])
    if not isinstance(used, list) or not all(x in fids for x in used):
        pr.add("state.keeper_trigger_used", "нужен список идентификаторов Хранителей.")
        used = []
    out["keeper_trigger_used"] = frozenset(used)
    return out


def parse_situation(data: object) -> tuple[Situation | None, list[str]]:
    """Parse a situation dict; returns (situation, []) or (None, problems)."""
    pr = _Problems()
    if not isinstance(data, dict):
        return None, ["файл: нужен объект JSON {…} с ключами schema, map, factions, state, orders."]
    schema = data.get("schema", SCHEMA_ID)
    if schema not in SCHEMAS:
        pr.add("schema", f"ожидается «{SCHEMA_ID}» или «{SCHEMA_V2}», а указано {schema!r}.")
        schema = SCHEMA_ID
    params = override(default_params(), data.get("params"), pr.items)
    tmap = _parse_map(data.get("map"), pr)
    factions = _parse_factions(data.get("factions"), params, pr)
    fids = {f.id for f in factions}
    state_raw = data.get("state", {})
    if not isinstance(state_raw, dict):
        pr.add("state", "нужен объект состояния.")
        state_raw = {}
    state = _parse_state(state_raw, tmap, fids, pr)
    planning = data.get("planning")
    if planning is not None and not isinstance(planning, dict):
        pr.add("planning", "нужен объект фазы Планирования.")
        planning = None
    orders = data.get("orders", [])
    if not isinstance(orders, list):
        pr.add("orders", "нужен список приказов.")
        orders = []
    mapping_keys = ("might_allocation", "abilities", "dice", "choices")
    maps = {k: _obj(data, k, pr, "") for k in mapping_keys}
    if schema == SCHEMA_V2:
        catalog, more = parse_catalog(data.get("catalog"))
        pr.items.extend(more)
    else:  # v1: the game's content, but the v1 buildings (SCHEMA §1.3: a fort does nothing) — v1 output stays
        catalog = replace(default_data(), buildings={})
    ext = parse_extensions(data, state_raw, tmap, [f.id for f in factions], [f.id for f in factions if f.is_keeper],
                           catalog, pr.items)
    setup = _obj(data, "setup", pr, "")
    natives = setup.get("natives", False)
    if not isinstance(natives, bool):
        pr.add("setup.natives", f"нужно true или false, а указано {natives!r}.")
        natives = False
    if pr.items:
        return None, pr.items
    return Situation(tmap, factions, state["owners"], state["buildings"], state["armies"], state["natives"],
                     state["bosses"], state["protected"], state["keeper_trigger_used"], planning,
                     maps["might_allocation"], maps["abilities"], tuple(orders), maps["dice"], maps["choices"],
                     params, ext, str(schema), natives), []
