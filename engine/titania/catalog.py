"""The content the rule book does not contain, in the `catalog` form of titania.adjudicate.v2 (SCHEMA_V2 §1).

«Меня попросили добавить Правила, Технологии и Заклинания на одну страницу…»: only the rules are in the book,
so technologies, spells, events, Keeper quests, items and building effects are content. A v2 situation file
brings its own `catalog`; the game's own content (engine/titania/data/*.toml, engine.titania.data) is the
same form, checked by the same `parse_catalog`, so every conformance case also tests what the books play.

Default G72 (closed catalog): the catalog is the complete list for one adjudication; nothing else is drawn.
The engine implements effect *types*, never named items. Every problem is collected (Russian, path first).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.datafiles import is_int
from engine.titania.effects import BUILDING_EFFECTS, PERMANENT, RESOURCES, SPELL_EFFECTS, TARGETS, WHEN, Effect
from engine.titania.map import DEPOSITS

SECTIONS = ("technologies", "spells", "events", "quests", "items", "buildings")
QUEST_KINDS = ("deliver", "boss_item", "find_item")
GOALS = ("contribute", "kill_boss")
EVENT_CLASSES = ("minor", "major")
RANGES = ("adjacent", "any")
TRANSFERABLE = ("gold", "wood", "stone", "mana")  # what a caravan can carry (Influence cannot be sent)


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
    target: str  # own_army | enemy_army | own_province | none
    range: str  # adjacent | any (enemy armies only)
    effects: tuple[Effect, ...]


@dataclass(frozen=True)
class EventDef:
    id: str
    cls: str  # minor | major
    name: str
    goal: Mapping[str, Any]  # {"type": "contribute", "resource", "amount"} or {"type": "kill_boss"}
    debuff: tuple[Effect, ...]
    debuff_turns: int | None  # None: params.debuff_turns
    record: Mapping[str, Any]  # the catalog record as given (JSON form): what a new event record carries


@dataclass(frozen=True)
class QuestDef:
    id: str
    kind: str  # deliver | boss_item | find_item
    resource: str | None
    amount: tuple[int, int]
    item: str | None


@dataclass(frozen=True)
class BuildingDef:
    """Default G92: each field given replaces that field's v1 default (None: not given)."""

    type: str
    produces: Mapping[str, int] | None = None
    food: int | None = None
    needs: str | None = None
    needs_given: bool = False  # `needs: null` (no deposit needed) differs from `needs` absent
    effects: tuple[Effect, ...] = ()
    name: str | None = None  # how the books call a building of the content's own (this implementation's addition)


@dataclass(frozen=True)
class Catalog:
    technologies: Mapping[str, Technology] = field(default_factory=dict)
    spells: Mapping[str, Spell] = field(default_factory=dict)
    events: Mapping[str, EventDef] = field(default_factory=dict)
    quests: Mapping[str, QuestDef] = field(default_factory=dict)
    items: Mapping[str, str] = field(default_factory=dict)  # item id -> display name
    buildings: Mapping[str, BuildingDef] = field(default_factory=dict)

    def item_name(self, item: str) -> str:
        return self.items.get(item, item)

    def events_of(self, cls: str) -> list[str]:
        return sorted(e for e, d in self.events.items() if d.cls == cls)


EMPTY = Catalog()


class _Check:
    """Collects the problems of one catalog; `strict` also reports unknown fields (the GM's TOML), the file
    form ignores them as SCHEMA.md ignores unknown keys."""

    def __init__(self, prefix: Callable[[str], str], strict: bool) -> None:
        self.prefix = prefix
        self.strict = strict
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}")

    def record(self, where: str, raw: Any, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> bool:
        if not isinstance(raw, Mapping):
            self.add(where, f"ожидается таблица (объект), а не {raw!r}")
            return False
        missing = [k for k in required if k not in raw]
        for k in missing:
            self.add(where, f"нет поля {k!r}")
        if self.strict:
            for k in sorted(set(raw) - set(required) - set(optional)):
                self.add(where, f"неизвестное поле {k!r}")
        return not missing

    def text(self, where: str, value: Any) -> bool:
        if isinstance(value, str) and value.strip():
            return True
        self.add(where, f"ожидается непустой текст, а не {value!r}")
        return False

    def integer(self, where: str, value: Any, minimum: int | None = None) -> bool:
        if not is_int(value):
            self.add(where, f"ожидается целое число, а не {value!r}")
            return False
        if minimum is not None and value < minimum:
            self.add(where, f"должно быть не меньше {minimum}, а не {value}")
            return False
        return True

    def choice(self, where: str, value: Any, allowed: tuple[str, ...]) -> bool:
        if value in allowed:
            return True
        self.add(where, f"{value!r} не подходит; допустимо: {', '.join(repr(a) for a in allowed)}")
        return False

    def cost(self, where: str, value: Any) -> dict[str, int]:
        out: dict[str, int] = {}
        if not isinstance(value, Mapping):
            self.add(where, f"ожидается запись «ресурс: количество», а не {value!r}")
            return out
        for res, n in value.items():
            if self.choice(f"{where}.{res}", res, RESOURCES) and self.integer(f"{where}.{res}", n, 0):
                out[str(res)] = int(n)
        return out

    def effects(self, where: str, value: Any, allowed: tuple[str, ...]) -> tuple[Effect, ...]:
        if not isinstance(value, list):
            self.add(where, f"ожидается список эффектов, а не {value!r}")
            return ()
        out: list[Effect] = []
        for i, raw in enumerate(value):
            at = f"{where}[{i}]"
            if not self.record(at, raw, ("type",), ("value", "resource", "building", "when")):
                continue
            kind = raw["type"]
            if not self.choice(f"{at}.type", kind, allowed):
                continue
            ok = True
            if kind not in ("stop", "ward"):
                low = 0 if kind in ("damage", "reinforce", "gain") else None
                ok = self.integer(f"{at}.value", raw.get("value"), low)
            resource = raw.get("resource")
            if kind in ("production", "gain"):
                ok = self.choice(f"{at}.resource", resource, RESOURCES) and ok
            building = raw.get("building")
            if kind == "production" and building is not None:
                ok = self.text(f"{at}.building", building) and ok
            when = raw.get("when", "any")
            if kind == "battle_modifier" and allowed is PERMANENT:
                ok = self.choice(f"{at}.when", when, WHEN) and ok
            if ok:
                out.append(Effect(str(kind), int(raw.get("value", 0)),
                                  str(resource) if kind in ("production", "gain") else None,
                                  str(building) if kind == "production" and building is not None else None,
                                  str(when) if kind == "battle_modifier" and allowed is PERMANENT else "any"))
        return tuple(out)

    def table(self, section: str, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        value = raw.get(section, {})
        if isinstance(value, Mapping):
            return value
        self.add(self.prefix(section), f"ожидается таблица «идентификатор: запись», а не {value!r}")
        return {}


def _technologies(c: _Check, raw: Mapping[str, Any]) -> dict[str, Technology]:
    out: dict[str, Technology] = {}
    table = c.table("technologies", raw)
    for tid, rec in table.items():
        at = f"{c.prefix('technologies')}.{tid}"
        if not c.record(at, rec, ("name", "cost", "effects"), ("might", "requires")):
            continue
        c.text(f"{at}.name", rec["name"])
        might = rec.get("might", 0)
        c.integer(f"{at}.might", might, 0)
        requires = rec.get("requires", [])
        if not isinstance(requires, list) or not all(isinstance(r, str) for r in requires):
            c.add(f"{at}.requires", f"ожидается список идентификаторов технологий, а не {requires!r}")
            requires = []
        out[str(tid)] = Technology(str(tid), str(rec["name"]), c.cost(f"{at}.cost", rec["cost"]),
                                   might if is_int(might) else 0, tuple(requires),
                                   c.effects(f"{at}.effects", rec["effects"], PERMANENT))
    for tid, tech in out.items():
        for r in tech.requires:
            if r not in out:
                c.add(f"{c.prefix('technologies')}.{tid}.requires", f"нет технологии {r!r} в каталоге")
    return out


def _spells(c: _Check, raw: Mapping[str, Any]) -> dict[str, Spell]:
    out: dict[str, Spell] = {}
    for sid, rec in c.table("spells", raw).items():
        at = f"{c.prefix('spells')}.{sid}"
        if not c.record(at, rec, ("name", "learn", "cast", "target", "effects"), ("range",)):
            continue
        c.text(f"{at}.name", rec["name"])
        target = rec["target"]
        c.choice(f"{at}.target", target, TARGETS)
        rng = rec.get("range", "any")
        c.choice(f"{at}.range", rng, RANGES)
        effects = c.effects(f"{at}.effects", rec["effects"], SPELL_EFFECTS)
        if c.strict:  # an effect its target cannot carry is a GM's slip in the game's own content
            kinds = {e.type for e in effects}
            if target == "none" and kinds - {"gain"}:
                c.add(f"{at}.effects", "заклинание без цели может иметь только эффект «gain»")
            if target == "own_province" and kinds - {"ward", "gain"}:
                c.add(f"{at}.effects", "заклинание на свою провинцию может иметь только эффекты «ward» и «gain»")
            if target in ("own_army", "enemy_army") and "ward" in kinds:
                c.add(f"{at}.effects", "заклинание на войско не может иметь эффект «ward»")
        out[str(sid)] = Spell(str(sid), str(rec["name"]), c.cost(f"{at}.learn", rec["learn"]),
                              c.cost(f"{at}.cast", rec["cast"]), str(target), str(rng), effects)
    return out


def _json(value: Any) -> Any:
    """A plain JSON copy of a parsed TOML/JSON value (mappings to dicts, sequences to lists)."""
    if isinstance(value, Mapping):
        return {str(k): _json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json(v) for v in value]
    return value


def _events(c: _Check, raw: Mapping[str, Any]) -> dict[str, EventDef]:
    out: dict[str, EventDef] = {}
    for eid, rec in c.table("events", raw).items():
        at = f"{c.prefix('events')}.{eid}"
        if not c.record(at, rec, ("class", "name", "goal", "debuff"), ("debuff_turns",)):
            continue
        ok = c.choice(f"{at}.class", rec["class"], EVENT_CLASSES)
        ok = c.text(f"{at}.name", rec["name"]) and ok
        goal = rec["goal"]
        if c.record(f"{at}.goal", goal, ("type",), ("resource", "amount")):
            if c.choice(f"{at}.goal.type", goal["type"], GOALS) and goal["type"] == "contribute":
                ok = c.choice(f"{at}.goal.resource", goal.get("resource"), RESOURCES) and ok
                ok = c.integer(f"{at}.goal.amount", goal.get("amount"), 1) and ok
        else:
            ok = False
        turns = rec.get("debuff_turns")
        if turns is not None and not c.integer(f"{at}.debuff_turns", turns, 1):
            turns = None
        debuff = c.effects(f"{at}.debuff", rec["debuff"], PERMANENT)
        if ok:
            out[str(eid)] = EventDef(str(eid), str(rec["class"]), str(rec["name"]), _json(goal), debuff,
                                     turns if is_int(turns) else None, _json(rec))
    return out


def _range(c: _Check, where: str, value: Any) -> tuple[int, int] | None:
    if (isinstance(value, list) and len(value) == 2 and all(is_int(v) for v in value)
            and 0 <= value[0] <= value[1]):
        return value[0], value[1]
    c.add(where, f"ожидается диапазон [от, до] из целых чисел не меньше 0, а не {value!r}")
    return None


def _items(c: _Check, raw: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for iid, rec in c.table("items", raw).items():
        at = f"{c.prefix('items')}.{iid}"
        if c.record(at, rec, ("name",)) and c.text(f"{at}.name", rec["name"]):
            out[str(iid)] = str(rec["name"])
    return out


def _quests(c: _Check, raw: Mapping[str, Any], items: Mapping[str, str]) -> dict[str, QuestDef]:
    out: dict[str, QuestDef] = {}
    for qid, rec in c.table("quests", raw).items():
        at = f"{c.prefix('quests')}.{qid}"
        if not c.record(at, rec, ("kind",), ("resource", "amount", "item")):
            continue
        kind = rec["kind"]
        if not c.choice(f"{at}.kind", kind, QUEST_KINDS):
            continue
        if kind == "deliver":
            # «передать определённое количество камня или маны»; any resource a caravan can carry is accepted
            ok = c.choice(f"{at}.resource", rec.get("resource"), TRANSFERABLE)
            amount = _range(c, f"{at}.amount", rec.get("amount"))
            if ok and amount is not None:
                out[str(qid)] = QuestDef(str(qid), "deliver", str(rec["resource"]), amount, None)
            continue
        item = rec.get("item")
        if item not in items:
            c.add(f"{at}.item", f"нет предмета {item!r} в разделе items каталога")
            continue
        out[str(qid)] = QuestDef(str(qid), str(kind), None, (0, 0), str(item))
    return out


def _buildings(c: _Check, raw: Mapping[str, Any]) -> dict[str, BuildingDef]:
    out: dict[str, BuildingDef] = {}
    for btype, rec in c.table("buildings", raw).items():
        at = f"{c.prefix('buildings')}.{btype}"
        if not c.record(at, rec, (), ("produces", "food", "needs", "effects", "name")):
            continue
        name = rec.get("name")
        if name is not None and (not isinstance(name, str) or not name.strip()):
            c.add(f"{at}.name", "название постройки — непустая строка")
            name = None
        produces = c.cost(f"{at}.produces", rec["produces"]) if "produces" in rec else None
        food = rec.get("food")
        if food is not None and not c.integer(f"{at}.food", food):
            food = None
        needs = rec.get("needs")
        if needs is not None and not c.choice(f"{at}.needs", needs, DEPOSITS):
            needs = None
        effects = c.effects(f"{at}.effects", rec["effects"], BUILDING_EFFECTS) if "effects" in rec else ()
        out[str(btype)] = BuildingDef(str(btype), produces, food if is_int(food) else None,
                                      str(needs) if needs is not None else None, "needs" in rec, effects,
                                      name.strip() if isinstance(name, str) else None)
    return out


def parse_catalog(raw: object, prefix: Callable[[str], str] = lambda s: f"catalog.{s}", strict: bool = False
                  ) -> tuple[Catalog, list[str]]:
    """A catalog from its JSON/TOML form; returns (catalog, problems). Absent sections are empty."""
    if raw is None:
        return EMPTY, []
    c = _Check(prefix, strict)
    if not isinstance(raw, Mapping):
        c.add(prefix("").rstrip("."), "нужен объект с разделами " + ", ".join(SECTIONS))
        return EMPTY, c.items
    if strict:
        for key in sorted(set(raw) - set(SECTIONS)):
            c.add(prefix(key), f"неизвестный раздел (известны: {', '.join(SECTIONS)})")
    technologies = _technologies(c, raw)
    spells = _spells(c, raw)
    events = _events(c, raw)
    items = _items(c, raw)
    quests = _quests(c, raw, items)
    buildings = _buildings(c, raw)
    return Catalog(technologies, spells, events, quests, items, buildings), c.items


def to_json(raw: Any) -> Any:
    """The plain JSON form of a catalog as read (for a situation file's `catalog`)."""
    return _json(raw)
