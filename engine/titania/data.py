"""The game's own content: engine/titania/data/*.toml, each file one part of the v2 `catalog`.

The rule book lists no technology, spell, event, quest item or building effect (G1-G5, G45), so they are data
a game master replaces. The files together are exactly the `catalog` of titania.adjudicate.v2 (SCHEMA_V2 §1):
technologies.toml holds `[technologies.ID]`, spells.toml `[spells.ID]`, events.toml `[events.ID]`,
quests.toml `[quests.ID]` and `[items.ID]`, buildings.toml `[buildings.TYPE]`. They are read through
engine.datafiles and checked by engine.titania.catalog.parse_catalog (strictly: an unknown field or section
is reported too), every problem at once, in Russian, prefixed with the file and the path of the value. The
game passes this catalog in every situation it adjudicates (engine.titania.game_turn), so the books and
`forumwar adjudicate` run one path.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from engine.datafiles import DataError, read_toml_files
from engine.titania.catalog import Catalog, EventDef, QuestDef, Spell, Technology, parse_catalog, to_json
from engine.titania.state_types import TitaniaState

# file -> the catalog sections it holds
FILES: dict[str, tuple[str, ...]] = {"technologies": ("technologies",), "spells": ("spells",),
                                     "events": ("events",), "quests": ("quests", "items"),
                                     "buildings": ("buildings",)}
FILE_OF = {section: name for name, sections in FILES.items() for section in sections}


def merge(docs: Mapping[str, Mapping[str, Any]]) -> tuple[dict[str, Any], list[str]]:
    """The catalog dict from the parsed files, and the problems of sections in the wrong file."""
    out: dict[str, Any] = {}
    problems: list[str] = []
    for name, doc in docs.items():
        allowed = FILES.get(name, ())
        for key, value in doc.items():
            if key in allowed:
                out[key] = value
            else:
                problems.append(f"{name}.toml: {key}: неизвестный раздел (в этом файле: {', '.join(allowed)})")
    return out, problems


def validate(docs: Mapping[str, Mapping[str, Any]]) -> Catalog:
    """Check the parsed files together; raises DataError listing every problem."""
    raw, problems = merge(docs)
    catalog, more = parse_catalog(raw, lambda s: f"{FILE_OF.get(s, s)}.toml: {s}", strict=True)
    problems += more
    if problems:
        raise DataError(problems, "Данные «Титании»")
    return catalog


def read(package: str = "engine.titania", folder: str = "data") -> dict[str, dict[str, Any]]:
    return read_toml_files(package, folder, tuple(FILES))


def load_data(package: str = "engine.titania", folder: str = "data") -> Catalog:
    """Read and check the files of a package folder; raises DataError listing every problem."""
    return validate(read(package, folder))


@cache
def default_data() -> Catalog:
    """The shipped content (tested; cached)."""
    return load_data()


@cache
def _shipped_json() -> str:
    raw, _ = merge(read())
    return json.dumps(to_json(raw), ensure_ascii=False)


def catalog_json() -> dict[str, Any]:
    """The shipped content as a situation file's `catalog` (a fresh copy)."""
    default_data()  # checked first: a broken install fails here, with every problem
    out: dict[str, Any] = json.loads(_shipped_json())
    return out


@cache
def _parsed(text: str) -> Catalog:
    """A catalog given as JSON text, checked (a game from a situation file: the file's own, already accepted)."""
    catalog, _ = parse_catalog(json.loads(text))
    return catalog


def content_of(state: TitaniaState) -> Catalog:
    """The game's content: its own (`content.catalog`, a game made from a v2 situation, SCHEMA_V2 §1), the
    content of a v1 situation (the shipped content without its building records, as `adjudicate` reads a v1
    file), else the shipped content."""
    content: Mapping[str, Any] = state.get("content") or {}
    if "catalog" in content:
        return _parsed(json.dumps(content["catalog"], ensure_ascii=False, sort_keys=True))
    if content.get("schema") == "titania.adjudicate.v1":
        return replace(default_data(), buildings={})
    return default_data()


def catalog_input(state: TitaniaState) -> dict[str, Any]:
    """The `catalog` of the game's turn input (a fresh copy): its own content, else the shipped one."""
    content: Mapping[str, Any] = state.get("content") or {}
    if "catalog" in content:
        out: dict[str, Any] = json.loads(json.dumps(content["catalog"]))
        return out
    return catalog_json()


TitaniaData = Catalog  # the content's type under its older name

__all__ = ["Catalog", "DataError", "EventDef", "QuestDef", "Spell", "Technology", "TitaniaData", "catalog_input",
           "catalog_json", "content_of", "default_data", "load_data", "validate"]
