"""Where a rule stands in the rule book, as a player finds it: «(см. «Фаза Похода», п. 2.2)».

The engine names the rules by its own stable codes (P1.1, C10.2, A7.1 for the numbered points of the
planning, campaign and army sections; "bosses" for a section; "resources.might" for a named part of one), as
docs/rulings.md and the English digest do; they are not the book's: its three numbered lists repeat their
numbers and have no letters. Every text a player reads cites the book's section by its name and the point by
the book's own number instead, from engine/titania/data/rulebook.toml (read through engine.datafiles and
checked, every problem at once). The machine interface (`forumwar adjudicate`) carries no citation.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from engine.datafiles import Problems, read_toml

POINT = re.compile(r"\d{1,2}\.\d")


@dataclass(frozen=True)
class Section:
    id: str
    name: str
    opens: str
    code: str | None
    points: tuple[str, ...]
    topics: Mapping[str, str]


@dataclass(frozen=True)
class Book:
    sections: tuple[Section, ...]  # in the book's order

    def section(self, sid: str) -> Section:
        return next(s for s in self.sections if s.id == sid)

    def locate(self, code: str) -> tuple[Section, str | None, str | None]:
        """(section, point, topic) of one internal code; KeyError for a code the book does not have."""
        code = code.strip()
        for s in self.sections:
            if s.code is not None and code.startswith(s.code) and code[len(s.code):] in s.points:
                return s, code[len(s.code):], None
            if code == s.id:
                return s, None, None
            if code.startswith(s.id + ".") and code[len(s.id) + 1:] in s.topics:
                return s, None, s.topics[code[len(s.id) + 1:]]
        raise KeyError(f"no rule-book place for the code {code!r}")


def parse(doc: Mapping[str, Any], problems: Problems) -> Book:
    sections: list[Section] = []
    raw = doc.get("sections")
    if not problems.fields("rulebook.toml", doc, ("sections",)) or not problems.table("sections", raw):
        return Book(())
    assert isinstance(raw, Mapping)
    codes: set[str] = set()
    for sid, rec in raw.items():
        where = f"sections.{sid}"
        if not problems.fields(where, rec, ("name", "opens"), ("code", "points", "topics")):
            continue
        ok = "name" in rec and problems.text(f"{where}.name", rec["name"])
        ok = "opens" in rec and problems.text(f"{where}.opens", rec["opens"]) and ok
        code = rec.get("code")
        points = rec.get("points", [])
        topics = rec.get("topics", {})
        if code is not None and not (isinstance(code, str) and re.fullmatch(r"[A-Z]", code)):
            problems.add(f"{where}.code", f"ожидается одна заглавная латинская буква, а не {code!r}")
            ok = False
        elif code is not None and code in codes:
            problems.add(f"{where}.code", f"буква {code!r} уже занята другим разделом")
            ok = False
        if not isinstance(points, list) or not all(isinstance(p, str) and POINT.fullmatch(p) for p in points):
            problems.add(f"{where}.points", f"ожидается список номеров вида \"2.2\", а не {points!r}")
            ok = False
        elif bool(points) != (code is not None):
            problems.add(where, "у раздела с пунктами должна быть буква code, и наоборот")
            ok = False
        if not problems.table(f"{where}.topics", topics) or not all(
                isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in topics.items()):
            problems.add(f"{where}.topics", "ожидается таблица «код = название части»")
            ok = False
        if ok:
            if code is not None:
                codes.add(code)
            sections.append(Section(str(sid), rec["name"], rec["opens"], code, tuple(points), dict(topics)))
    return Book(tuple(sections))


@cache
def book() -> Book:
    """The shipped table (tested; read once)."""
    problems = Problems()
    out = parse(read_toml("engine.titania", "data", "rulebook.toml") or {}, problems)
    problems.raise_if_any("Разделы книги правил «Титании» (rulebook.toml)")
    return out


def _numbers(points: list[str]) -> str:
    if len(points) == 1:
        return f"п. {points[0]}"
    return "пп. " + ", ".join(points[:-1]) + " и " + points[-1]


def ref(rule: str) -> str:
    """The book's places of a rule: "C2.2, A1.1, A11.1" -> «Фаза Похода», п. 2.2; «Войско», пп. 1.1 и 11.1.
    Codes of one section are cited together, sections in the order the codes name them."""
    b = book()
    groups: dict[str, tuple[Section, list[str], list[str]]] = {}
    for code in filter(None, (c.strip() for c in rule.split(","))):
        section, point, topic = b.locate(code)
        _, points, topics = groups.setdefault(section.id, (section, [], []))
        if point is not None and point not in points:
            points.append(point)
        if topic is not None and topic not in topics:
            topics.append(topic)
    parts = []
    for section, points, topics in groups.values():
        where = f"«{section.name}»"
        if points:
            where += ", " + _numbers(sorted(points, key=lambda n: int(n.split(".")[0])))
        if topics:
            where += ", " + " и ".join(topics)
        parts.append(where)
    return "; ".join(parts)


def see(rule: str) -> str:
    """«см. «Фаза Похода», п. 2.2» for a text's parentheses ("" for no rule)."""
    return f"см. {ref(rule)}" if rule.strip() else ""


__all__ = ["Book", "Section", "book", "ref", "see"]
