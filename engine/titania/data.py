"""Titania content data: technologies, spells, events and Keeper quests (templates/titania/data/*.toml).

The rule book lists none of them (G1-G5, G45), so they are data a game master replaces. Each record
carries typed effects (engine.titania.effects); the loader checks the four files together and reports
every problem at once, in Russian, each prefixed with the file and the path of the value.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.datafiles import DataError, Problems, freeze, is_int, read_toml_files
from engine.titania.effects import PERMANENT, RESOURCES, SPELL_EFFECTS, TARGETS, WHEN, Effect

FILES = ("technologies", "spells", "events", "quests")
QUEST_KINDS = ("deliver", "boss_item", "find_item")
GOALS = ("contribute", "kill_boss")
EVENT_CLASSES = ("minor", "major")


@dataclass(frozen=True)
class Technology:
    id: str
    name: str
    cost: Mapping[str, int]
    might: int
    requires: tuple[str, ...]
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class Spell:
    id: str
    name: str
    learn: Mapping[str, int]
    cast: Mapping[str, int]
    target: str
    range: str
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class EventDef:
    id: str
    cls: str  # minor | major
    name: str
    task: str
    goal: Mapping[str, Any]
    debuff: tuple[Effect, ...]


@dataclass(frozen=True)
class QuestDef:
    id: str
    name: str
    kind: str
    resource: str | None
    amount: tuple[int, int]
    item: str | None


@dataclass(frozen=True)
class TitaniaData:
    technologies: Mapping[str, Technology]
    spells: Mapping[str, Spell]
    events: Mapping[str, Mapping[str, EventDef]]  # class -> id -> event
    quests: Mapping[str, QuestDef]
    items: Mapping[str, str]  # item id -> Russian name
    keeper_set: tuple[str, ...]

    def item_name(self, item: str) -> str:
        return self.items.get(item, item)


def _record(pr: Problems, where: str, raw: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> bool:
    """A table with every required field (each missing one and each unknown one reported)."""
    return pr.fields(where, raw, required, optional) and all(k in raw for k in required)


def _cost(pr: Problems, where: str, value: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    if not pr.table(where, value):
        return out
    for res, n in value.items():
        if pr.choice(f"{where}.{res}", res, RESOURCES) and pr.integer(f"{where}.{res}", n, 0):
            out[res] = n
    return out


def _effects(pr: Problems, where: str, value: Any, allowed: tuple[str, ...]) -> tuple[Effect, ...]:
    if not isinstance(value, list):
        pr.add(where, f"ожидается список эффектов, а не {value!r}")
        return ()
    out: list[Effect] = []
    for i, raw in enumerate(value):
        at = f"{where}[{i}]"
        if not _record(pr, at, raw, ("type",), ("value", "resource", "building", "when")):
            continue
        kind = raw["type"]
        if not pr.choice(f"{at}.type", kind, allowed):
            continue
        ok = True
        needs_value = kind not in ("stop", "ward")
        if needs_value and not pr.integer(f"{at}.value", raw.get("value"),
                                          0 if kind in ("damage", "reinforce", "gain") else None):
            ok = False
        resource = raw.get("resource")
        if kind in ("production", "gain"):
            ok = pr.choice(f"{at}.resource", resource, RESOURCES) and ok
        building = raw.get("building")
        if building is not None and not pr.text(f"{at}.building", building):
            ok = False
        when = raw.get("when", "any")
        if kind == "battle_modifier" and not pr.choice(f"{at}.when", when, WHEN):
            ok = False
        if ok:
            out.append(Effect(str(kind), int(raw.get("value", 0)), resource if isinstance(resource, str) else None,
                              building if isinstance(building, str) else None, str(when)))
    return tuple(out)


def _technologies(pr: Problems, doc: Mapping[str, Any]) -> tuple[dict[str, Technology], tuple[str, ...]]:
    where = "technologies.toml"
    out: dict[str, Technology] = {}
    table = doc.get("technology", {})
    if not pr.table(f"{where}: technology", table):
        table = {}
    for tid, raw in table.items():
        at = f"{where}: technology.{tid}"
        if not _record(pr, at, raw, ("name", "cost", "effects"), ("might", "requires")):
            continue
        pr.text(f"{at}.name", raw["name"])
        might = raw.get("might", 0)
        pr.integer(f"{at}.might", might, 0)
        requires = raw.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            pr.add(f"{at}.requires", f"ожидается список идентификаторов технологий, а не {requires!r}")
            requires = []
        out[tid] = Technology(tid, str(raw["name"]), _cost(pr, f"{at}.cost", raw["cost"]),
                              might if is_int(might) else 0, tuple(requires),
                              _effects(pr, f"{at}.effects", raw["effects"], PERMANENT))
    for tid, tech in out.items():
        for r in tech.requires:
            if r not in out:
                pr.add(f"{where}: technology.{tid}.requires", f"нет технологии {r!r}")
    keeper_set = doc.get("keeper_set", [])
    if not isinstance(keeper_set, list) or not all(isinstance(t, str) for t in keeper_set):
        pr.add(f"{where}: keeper_set", f"ожидается список технологий, а не {keeper_set!r}")
        keeper_set = []
    for t in keeper_set:
        if t not in out:
            pr.add(f"{where}: keeper_set", f"нет технологии {t!r}")
    for key in sorted(set(doc) - {"technology", "keeper_set"}):
        pr.add(f"{where}: {key}", "неизвестный раздел (известны: technology, keeper_set)")
    return out, tuple(t for t in keeper_set if t in out)


def _spells(pr: Problems, doc: Mapping[str, Any]) -> dict[str, Spell]:
    where = "spells.toml"
    out: dict[str, Spell] = {}
    table = doc.get("spell", {})
    if not pr.table(f"{where}: spell", table):
        table = {}
    for key in sorted(set(doc) - {"spell"}):
        pr.add(f"{where}: {key}", "неизвестный раздел (известен: spell)")
    for sid, raw in table.items():
        at = f"{where}: spell.{sid}"
        if not _record(pr, at, raw, ("name", "learn", "cast", "target", "effects"), ("range",)):
            continue
        pr.text(f"{at}.name", raw["name"])
        target = raw["target"]
        pr.choice(f"{at}.target", target, TARGETS)
        rng = raw.get("range", "adjacent")
        pr.choice(f"{at}.range", rng, ("adjacent", "any"))
        effects = _effects(pr, f"{at}.effects", raw["effects"], SPELL_EFFECTS)
        if target == "none" and any(e.type not in ("gain",) for e in effects):
            pr.add(f"{at}.effects", "заклинание без цели может иметь только эффект «gain»")
        if target == "own_province" and any(e.type != "ward" for e in effects):
            pr.add(f"{at}.effects", "заклинание на свою провинцию может иметь только эффект «ward»")
        if target in ("own_army", "enemy_army") and any(e.type in ("gain", "ward") for e in effects):
            pr.add(f"{at}.effects", "заклинание на войско не может иметь эффекты «gain» и «ward»")
        out[sid] = Spell(sid, str(raw["name"]), _cost(pr, f"{at}.learn", raw["learn"]),
                         _cost(pr, f"{at}.cast", raw["cast"]), str(target), str(rng), effects)
    return out


def _events(pr: Problems, doc: Mapping[str, Any]) -> dict[str, dict[str, EventDef]]:
    where = "events.toml"
    out: dict[str, dict[str, EventDef]] = {c: {} for c in EVENT_CLASSES}
    for key in sorted(set(doc) - set(EVENT_CLASSES)):
        pr.add(f"{where}: {key}", "неизвестный раздел (известны: minor, major)")
    for cls in EVENT_CLASSES:
        table = doc.get(cls, {})
        if not pr.table(f"{where}: {cls}", table):
            continue
        for eid, raw in table.items():
            at = f"{where}: {cls}.{eid}"
            if not _record(pr, at, raw, ("name", "task", "goal", "debuff")):
                continue
            pr.text(f"{at}.name", raw["name"])
            pr.text(f"{at}.task", raw["task"])
            goal = raw["goal"]
            if _record(pr, f"{at}.goal", goal, ("type",), ("resource", "amount")) \
                    and pr.choice(f"{at}.goal.type", goal["type"], GOALS) and goal["type"] == "contribute":
                pr.choice(f"{at}.goal.resource", goal.get("resource"), RESOURCES)
                pr.integer(f"{at}.goal.amount", goal.get("amount"), 1)
            out[cls][eid] = EventDef(eid, cls, str(raw["name"]), str(raw["task"]),
                                     dict(goal) if isinstance(goal, Mapping) else {},
                                     _effects(pr, f"{at}.debuff", raw["debuff"], PERMANENT))
    return out


def _range(pr: Problems, where: str, value: Any) -> tuple[int, int]:
    if (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)
            and 1 <= value[0] <= value[1]):
        return value[0], value[1]
    pr.add(where, f"ожидается диапазон [от, до] из целых чисел не меньше 1, а не {value!r}")
    return 1, 1


def _quests(pr: Problems, doc: Mapping[str, Any]) -> tuple[dict[str, QuestDef], dict[str, str]]:
    where = "quests.toml"
    for key in sorted(set(doc) - {"quest", "item"}):
        pr.add(f"{where}: {key}", "неизвестный раздел (известны: quest, item)")
    items: dict[str, str] = {}
    itable = doc.get("item", {})
    if pr.table(f"{where}: item", itable):
        for iid, raw in itable.items():
            if _record(pr, f"{where}: item.{iid}", raw, ("name",)) and pr.text(f"{where}: item.{iid}.name",
                                                                             raw["name"]):
                items[iid] = raw["name"]
    out: dict[str, QuestDef] = {}
    table = doc.get("quest", {})
    if not pr.table(f"{where}: quest", table):
        table = {}
    for qid, raw in table.items():
        at = f"{where}: quest.{qid}"
        if not _record(pr, at, raw, ("name", "kind"), ("resource", "amount", "item")):
            continue
        pr.text(f"{at}.name", raw["name"])
        kind = raw["kind"]
        if not pr.choice(f"{at}.kind", kind, QUEST_KINDS):
            continue
        resource, amount, item = None, (1, 1), None
        if kind == "deliver":
            if pr.choice(f"{at}.resource", raw.get("resource"), ("stone", "mana")):
                resource = raw["resource"]
            amount = _range(pr, f"{at}.amount", raw.get("amount"))
        else:
            item = raw.get("item")
            if item not in items:
                pr.add(f"{at}.item", f"нет предмета {item!r} в разделе item")
        out[qid] = QuestDef(qid, str(raw["name"]), str(kind), resource, amount,
                            item if isinstance(item, str) else None)
    return out, items


def validate(docs: Mapping[str, Mapping[str, Any]]) -> TitaniaData:
    """Check the parsed files together; raises DataError listing every problem."""
    pr = Problems()
    technologies, keeper_set = _technologies(pr, docs.get("technologies", {}))
    spells = _spells(pr, docs.get("spells", {}))
    events = _events(pr, docs.get("events", {}))
    quests, items = _quests(pr, docs.get("quests", {}))
    pr.raise_if_any("Данные «Титании»")
    return TitaniaData(freeze(technologies), freeze(spells), freeze(events), freeze(quests), freeze(items),
                       keeper_set)


def load_data(package: str = "templates", folder: str = "titania/data") -> TitaniaData:
    """Read and check the four files of a package folder; raises DataError listing every problem."""
    return validate(read_toml_files(package, folder, FILES))


@cache
def default_data() -> TitaniaData:
    """The shipped defaults (tested; cached)."""
    return load_data()


__all__ = ["DataError", "EventDef", "QuestDef", "Spell", "Technology", "TitaniaData", "default_data",
           "load_data", "validate"]
