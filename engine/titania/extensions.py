"""The input keys titania.adjudicate.v2 adds (SCHEMA_V2 §2-§8): turn, known technologies and spells, items
held, events in force, Keeper quests, and the Campaign's spell casts, read against the file's catalog.

Default G72: an id that is not in the catalog is an input error inside `state` (a Russian problem naming the
path); inside an order or a cast it voids that order (`unknown_item`, during resolution). Records are kept as
given, with the fields the engine uses checked and normalised.
"""
from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.datafiles import is_int
from engine.titania.catalog import EMPTY, Catalog
from engine.titania.map import TitaniaMap


@dataclass(frozen=True)
class Extensions:
    catalog: Catalog = EMPTY
    turn: int | None = None
    technologies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    spells: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    events: tuple[Mapping[str, Any], ...] = ()
    quests: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    casts: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    begun: bool = False  # `state.turn_begun`: the turn's events and quests were begun when the game opened it



def _known(raw: object, where: str, fids: set[str], catalogue: Mapping[str, Any], what: str,
           problems: list[str]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    if raw is None:
        return out
    if not isinstance(raw, dict):
        problems.append(f"{where}: нужен объект «фракция: [{what}]».")
        return out
    for f, lst in raw.items():
        if f not in fids:
            problems.append(f"{where}.{f}: нет такой фракции.")
        elif not isinstance(lst, list) or not all(isinstance(x, str) for x in lst):
            problems.append(f"{where}.{f}: нужен список идентификаторов.")
        else:
            bad = [x for x in lst if x not in catalogue]
            if bad:
                known = ", ".join(catalogue) or "ничего"
                problems.append(f"{where}.{f}: нет в каталоге: {', '.join(bad)} (в каталоге: {known}).")
            out[f] = tuple(dict.fromkeys(x for x in lst if x in catalogue))
    return out


def _ints(raw: object, fids: set[str]) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    return {f: n for f, n in raw.items() if f in fids and is_int(n) and n >= 0}


def _event(e: Mapping[str, Any], catalog: Catalog, fids: set[str]) -> dict[str, Any]:
    """An event record as given, its engine fields normalised (SCHEMA_V2 §5)."""
    out: dict[str, Any] = copy.deepcopy(dict(e))
    out["class"] = catalog.events[e["id"]].cls
    out["status"] = e.get("status") if e.get("status") in ("open", "debuff") else "open"
    out["progress"] = _ints(e.get("progress"), fids)
    out["debuffed"] = sorted(f for f in e.get("debuffed", []) if f in fids) if isinstance(e.get("debuffed"), list) \
        else []
    if e.get("winner") in fids:
        out["winner"] = e["winner"]
    else:
        out.pop("winner", None)
    for key in ("started", "ends", "from", "until"):
        if key in out and not is_int(out[key]):
            del out[key]
    return out


def _quest(q: Mapping[str, Any], catalog: Catalog, tmap: TitaniaMap, fids: set[str], where: str,
           problems: list[str]) -> dict[str, Any] | None:
    d = catalog.quests[q["id"]]
    out: dict[str, Any] = copy.deepcopy(dict(q))
    out.update(kind=d.kind, progress=_ints(q.get("progress"), fids),
               done_by=q.get("done_by") if q.get("done_by") in fids else None)
    if d.kind == "deliver":
        amount = q.get("amount")
        if not is_int(amount) or amount < 1:
            problems.append(f"{where}.amount: нужно целое число не меньше 1 (указано {amount!r}).")
            return None
        out.update(resource=q.get("resource") if isinstance(q.get("resource"), str) else d.resource)
        return out
    province = q.get("province")
    if province not in tmap.provinces:
        problems.append(f"{where}.province: нужна провинция карты (указано {province!r}).")
        return None
    out.update(item=d.item, item_holder=q.get("item_holder") if q.get("item_holder") in fids else None)
    return out


def parse_extensions(data: Mapping[str, Any], state: Mapping[str, Any], tmap: TitaniaMap,
                     factions: Sequence[str], keepers: Sequence[str], catalog: Catalog,
                     problems: list[str]) -> Extensions:
    """`factions`: the ids of every faction of the file, `keepers` those of the Keepers."""
    fids = set(factions)
    turn = state.get("turn")
    if turn is not None and (not is_int(turn) or turn < 1):
        problems.append(f"state.turn: номер хода — целое число не меньше 1 (указано {turn!r}).")
        turn = None
    techs = _known(state.get("technologies"), "state.technologies", fids, catalog.technologies, "технологии",
                   problems)
    spells = _known(state.get("spells"), "state.spells", fids, catalog.spells, "заклинания", problems)
    items = _known(state.get("items"), "state.items", fids, catalog.items, "предметы", problems)
    events = state.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        problems.append("state.events: нужен список записей событий (как active_events прошлого хода).")
        events = []
    for i, e in enumerate(events):
        if e.get("id") not in catalog.events:
            problems.append(f"state.events[{i}]: нет события {e.get('id')!r} в каталоге.")
    parsed_events = tuple(_event(e, catalog, fids) for e in events if e.get("id") in catalog.events)
    quests = state.get("quests", {})
    if not isinstance(quests, dict):
        problems.append("state.quests: нужен объект «Хранитель: квест».")
        quests = {}
    parsed: dict[str, dict[str, Any]] = {}
    for k, q in quests.items():
        if k not in keepers or not isinstance(q, dict) or q.get("id") not in catalog.quests:
            problems.append(f"state.quests.{k}: нужен Хранитель и квест из каталога.")
            continue
        one = _quest(q, catalog, tmap, fids, f"state.quests.{k}", problems)
        if one is not None:
            parsed[k] = one
    casts = data.get("spells", {})
    if not isinstance(casts, dict) or not all(isinstance(v, list) for v in casts.values()):
        problems.append("spells: нужен объект «фракция: [заклинания]».")
        casts = {}
    begun = state.get("turn_begun", False)
    if not isinstance(begun, bool):
        problems.append(f"state.turn_begun: нужно true или false, а указано {begun!r}.")
        begun = False
    return Extensions(catalog, turn, techs, spells, items, parsed_events, parsed,
                      {str(f): tuple(v) for f, v in casts.items()}, begun)
