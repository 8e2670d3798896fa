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


# -- the battle dice: splitmix64, written so that a numba kernel can repeat it bit for bit ----------------
# The Jade Rose battle has two implementations (the reference and a compiled kernel) that must roll the same
# dice for the same seed; both use this generator (the kernel has a numba copy of `mix64` and `Dice.below`,
# checked against these in the tests). Streams: `Dice(seed).substream(tag)` seeds a phase's own stream.

MASK64 = (1 << 64) - 1
GOLDEN64 = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


def mix64(z: int) -> int:
    """The splitmix64 finaliser: a bijective 64-bit hash."""
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)


def sub_seed(seed: int, tag: int) -> int:
    """The seed of stream `tag` (0, 1, …) below a 64-bit seed: splitmix64's output number tag + 1."""
    return mix64((seed + (tag + 1) * GOLDEN64) & MASK64)


class Dice:
    """A splitmix64 stream of uniform integers; `below(n)` is the only draw the battle makes."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) for 1 <= n < 2**31 (the top 32 bits scaled; bias below n / 2**32)."""
        self.state = (self.state + GOLDEN64) & MASK64
        return ((mix64(self.state) >> 32) * n) >> 32
