"""Seeded random streams: every battle or event draws from its own stream.

A stream is derived from (stage seed, stable id), so adding a battle never
changes the dice of another one. The engine never touches global random state.
"""
from __future__ import annotations

import hashlib
import random as _stdlib_random

# The one place the engine touches the `random` module: only private instances are made, never the
# module's global generator. Other engine modules import `Random` and `stream` from here.
Random = _stdlib_random.Random


def derive_seed(seed: int | str, *stable_id: object) -> int:
    """A 64-bit integer derived from the stage seed and a stable id."""
    text = "|".join([str(seed), *(str(part) for part in stable_id)])
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def stream(seed: int | str, *stable_id: object) -> Random:
    """A private `random.Random` for one stable id."""
    return Random(derive_seed(seed, *stable_id))


def commitment(seed: int | str) -> str:
    """SHA-256 hex of the seed, published before orders are read."""
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()
