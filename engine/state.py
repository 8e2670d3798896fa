"""JSON-serialisable game state helpers: schema version and canonical bytes."""
from __future__ import annotations

import copy
import json

SCHEMA_VERSION = 1


def canonical_json(obj) -> str:
    """Deterministic JSON text: sorted keys, no NaN, UTF-8 kept readable."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False) + "\n"


def clone(state: dict) -> dict:
    """Deep copy, so that resolve never mutates its input."""
    return copy.deepcopy(state)


def check_schema(state: dict) -> None:
    version = state.get("schema_version")
    if version != SCHEMA_VERSION:
        raise ValueError(f"state schema version {version!r}, expected {SCHEMA_VERSION}")
