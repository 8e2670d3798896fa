"""JSON-serialisable game state helpers: schema version and canonical bytes."""
from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SCHEMA_VERSION = 1


def canonical_json(obj: Any) -> str:
    """Deterministic JSON text: sorted keys, no NaN, UTF-8 kept readable."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def clone(state: dict[str, Any]) -> dict[str, Any]:
    """Deep copy, so that resolve never mutates its input."""
    return copy.deepcopy(state)


class SchemaVersionError(ValueError):
    """A state written in a format this version does not read (message in Russian, for the GM)."""

    def __init__(self, found: object) -> None:
        self.found = found
        if isinstance(found, int) and not isinstance(found, bool) and found > SCHEMA_VERSION:
            hint = "она записана более новой версией forumwar: обновите forumwar"
        elif found is None:
            hint = "в нём нет поля schema_version: это не снимок forumwar или он повреждён"
        else:
            hint = "такой версии формата нет: снимок повреждён или изменён вручную"
        super().__init__(f"версия формата состояния {found!r}, а эта версия forumwar читает {SCHEMA_VERSION}; {hint}")


def check_schema(state: Mapping[str, Any]) -> None:
    """Refuse a state whose `schema_version` is not the one this code reads (SchemaVersionError)."""
    version = state.get("schema_version")
    if version != SCHEMA_VERSION or isinstance(version, bool):
        raise SchemaVersionError(version)


# -- the envelope: the part of any rule set's state the bridge may read ------------------------

@dataclass(frozen=True)
class FactionInfo:
    """A faction as the bridge sees it: id, display name, and whether it still plays."""

    id: str
    name: str
    eliminated: bool = False
    won: bool = False

    @property
    def playing(self) -> bool:
        return not (self.eliminated or self.won)


@dataclass(frozen=True)
class Envelope:
    """What every rule set's state carries at its top level, in the same shape:
    `ruleset`, `turn`, `stage` and `factions` ({id: {"name", "eliminated"?, "won"?}}).
    Everything else in a state is the rule set's own; the bridge reads only this."""

    ruleset: str
    turn: int
    stage: str
    factions: tuple[FactionInfo, ...]

    @classmethod
    def of(cls, state: Mapping[str, Any]) -> Envelope:
        factions = tuple(FactionInfo(str(fid), str(f.get("name", fid)), bool(f.get("eliminated", False)),
                                     bool(f.get("won", False)))
                         for fid, f in state["factions"].items())
        return cls(str(state["ruleset"]), int(state["turn"]), str(state["stage"]), factions)

    @property
    def faction_ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.factions)

    def faction(self, fid: str) -> FactionInfo | None:
        return next((f for f in self.factions if f.id == fid), None)

    def name(self, fid: str) -> str:
        info = self.faction(fid)
        return info.name if info else fid
