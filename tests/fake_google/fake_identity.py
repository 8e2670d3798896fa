"""Who the fake knows: Google accounts, and the random ids every spreadsheet of one fake shares."""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass


@dataclass
class Identity:
    """A Google account: a person or a service account (which has no Drive storage by default)."""

    email: str
    google_account: bool = True
    storage: bool = True
    revoked: bool = False


class IdSource:
    """Random ids shared by every spreadsheet; copying a spreadsheet keeps the same source."""

    def __init__(self, rng: random.Random, lock: threading.RLock):
        self._rng = rng
        self._lock = lock

    def __call__(self) -> int:
        with self._lock:
            return self._rng.randrange(1, 2**31 - 1)

    def text(self, length: int = 44) -> str:
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
        with self._lock:
            return "1" + "".join(self._rng.choice(alphabet) for _ in range(length - 1))

    def __deepcopy__(self, memo: dict) -> IdSource:
        return self
