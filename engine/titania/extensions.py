"""The optional input keys of SCHEMA_EXTENSIONS.md §2: turn, known technologies and spells, events in
force, Keeper quests, items held, and the Campaign's spell casts.

Structural problems are reported in Russian like the rest of the situation; a cast with a bad target is
voided during resolution instead (the file stays readable).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.datafiles import is_int
from engine.titania.data import TitaniaData, default_data
from engine.titania.map import TitaniaMap

if TYPE_CHECKING:
    from engine.titania.situation import FactionSpec


@dataclass(frozen=True)
class Extensions:
    data: TitaniaData = field(default_factory=default_data)
    turn: int | None = None
    technologies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    spells: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    items: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    events: tuple[Mapping[str, Any], ...] = ()
    quests: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    casts: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    keeper_home: Mapping[str, frozenset[str]] = field(default_factory=dict)


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
                problems.append(f"{where}.{f}: нет в данных: {', '.join(bad)} (известны: {', '.join(catalogue)}).")
            out[f] = tuple(dict.fromkeys(x for x in lst if x in catalogue))
    return out


def _ints(raw: object, fids: set[str]) -> dict[str, int]:
    if not isinstance(raw, dict):
        return {}
    return {f: n for f, n in raw.items() if f in fids and is_int(n) and n >= 0}


def _event(e: Mapping[str, Any], fids: set[str]) -> dict[str, Any]:
    """A well-formed event record (unknown or malformed fields dropped)."""
    out: dict[str, Any] = {"id": e["id"], "class": e["class"],
                           "status": e.get("status") if e.get("status") in ("open", "debuff") else "open",
                           "progress": _ints(e.get("progress"), fids),
                           "winner": e.get("winner") if e.get("winner") in fids else None,
                           "debuffed": [f for f in e.get("debuffed", []) if f in fids]
                           if isinstance(e.get("debuffed"), list) else []}
    for key in ("started", "ends", "from", "until"):
        if is_int(e.get(key)):
            out[key] = e[key]
    return out


def _quest(q: Mapping[str, Any], tdata: TitaniaData, tmap: TitaniaMap, fids: set[str], where: str,
           problems: list[str]) -> dict[str, Any] | None:
    d = tdata.quests[q["id"]]
    out: dict[str, Any] = {"id": d.id, "kind": d.kind, "name": d.name, "progress": _ints(q.get("progress"), fids),
                           "done_by": q.get("done_by") if q.get("done_by") in fids else None}
    if d.kind == "deliver":
        amount = q.get("amount")
        if not is_int(amount) or amount < 1:
            problems.append(f"{where}.amount: нужно целое число не меньше 1 (указано {amount!r}).")
            return None
        out.update(resource=d.resource, amount=amount)
        return out
    province = q.get("province")
    if province not in tmap.provinces:
        problems.append(f"{where}.province: нужна провинция карты (указано {province!r}).")
        return None
    out.update(item=d.item, province=province,
               item_holder=q.get("item_holder") if q.get("item_holder") in fids else None)
    return out


def parse_extensions(data: Mapping[str, Any], state: Mapping[str, Any], tmap: TitaniaMap,
                     factions: Sequence[FactionSpec], problems: list[str]) -> Extensions:
    tdata = default_data()
    fids = {f.id for f in factions}
    turn = state.get("turn")
    if turn is not None and (not is_int(turn) or turn < 1):
        problems.append(f"state.turn: номер хода — целое число не меньше 1 (указано {turn!r}).")
        turn = None
    techs = _known(state.get("technologies"), "state.technologies", fids, tdata.technologies, "технологии",
                   problems)
    spells = _known(state.get("spells"), "state.spells", fids, tdata.spells, "заклинания", problems)
    items = _known(state.get("items"), "state.items", fids, tdata.items, "предметы", problems)
    events = state.get("events", [])
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        problems.append("state.events: нужен список событий (как active_events прошлого хода).")
        events = []
    for i, e in enumerate(events):
        cls, eid = e.get("class"), e.get("id")
        if cls not in tdata.events or eid not in tdata.events[cls]:
            problems.append(f"state.events[{i}]: нет события {cls!r}/{eid!r} в events.toml.")
    events = [_event(e, fids) for e in events
              if e.get("class") in tdata.events and e.get("id") in tdata.events[e["class"]]]
    quests = state.get("quests", {})
    keepers = {f.id for f in factions if f.is_keeper}
    if not isinstance(quests, dict):
        problems.append("state.quests: нужен объект «Хранитель: квест».")
        quests = {}
    parsed: dict[str, dict[str, Any]] = {}
    for k, q in quests.items():
        if k not in keepers or not isinstance(q, dict) or q.get("id") not in tdata.quests:
            problems.append(f"state.quests.{k}: нужен Хранитель и квест из quests.toml.")
            continue
        one = _quest(q, tdata, tmap, fids, f"state.quests.{k}", problems)
        if one is not None:
            parsed[k] = one
    home: dict[str, frozenset[str]] = {}
    raw_home = state.get("keeper_home", {})
    if not isinstance(raw_home, dict):
        problems.append("state.keeper_home: нужен объект «Хранитель: [его провинции]».")
        raw_home = {}
    for k, lst in raw_home.items():
        if k not in keepers or not isinstance(lst, list) or not all(p in tmap.provinces for p in lst):
            problems.append(f"state.keeper_home.{k}: нужен Хранитель и список его провинций.")
        else:
            home[k] = frozenset(lst)
    casts = data.get("spells", {})
    if not isinstance(casts, dict) or not all(isinstance(v, list) for v in casts.values()):
        problems.append("spells: нужен объект «фракция: [заклинания]».")
        casts = {}
    return Extensions(tdata, turn, techs, spells, items, tuple(events), parsed,
                      {str(f): tuple(v) for f, v in casts.items()}, home)
