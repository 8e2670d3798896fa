"""Fair dice: secret stage seeds with salted commitments, and the hash chain over the archive.

A stage's seed and salt are 256 bits each from the OS, drawn when the stage opens. Before the
orders are read the public book shows `commitment = SHA-256("<seed>:<salt>")`; after the stage
resolves it shows the seed and the salt, so anyone can check the dice with any SHA-256 tool.
A game made with `--seed` derives both from that master seed: reproducible, and not fair.

Each resolved stage adds one link to a hash chain over what it was made of (state before, orders
as read, seed and salt, state after); the head is published in the public book every stage, so
rewriting history consistently (a snapshot together with its result) still shows.
"""
from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

GENESIS = "0" * 64

CHECK_HINT = (
    "Как проверить кости: после этапа здесь появляются зерно и соль; SHA-256 от строки «зерно:соль» "
    "(например, echo -n 'зерно:соль' | sha256sum) должен совпасть с хешем, опубликованным до этапа.",
    "Цепочка — хеш всей истории (состояние до, приказы, зерно, состояние после); мастер и игроки "
    "пересчитывают её и весь этап из архива командой forumwar verify.",
)
UNFAIR_NOTICE = ("Игра создана с заданным зерном (--seed): кости предсказуемы, это демо или тест, "
                 "не для честной игры.")


@dataclass(frozen=True)
class SeedRecord:
    """One stage's dice: seed and salt as hex text, the published commitment, and its state."""

    seed: str
    salt: str
    commitment: str
    revealed: bool = False
    deterministic: bool = False

    @property
    def engine_seed(self) -> int:
        """The integer the engine's random streams are derived from."""
        return int(self.seed, 16)

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "salt": self.salt, "commitment": self.commitment,
                "revealed": self.revealed, "deterministic": self.deterministic}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeedRecord:
        return cls(seed=str(data["seed"]), salt=str(data["salt"]), commitment=str(data["commitment"]),
                   revealed=bool(data.get("revealed", False)),
                   deterministic=bool(data.get("deterministic", False)))


def commitment(seed: str, salt: str) -> str:
    """SHA-256 hex of "<seed>:<salt>", the value published before a stage's orders are read."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


def draw(master: str | None, turn: int, stage: str, epoch: int = 0) -> SeedRecord:
    """A new stage seed: secret randomness, or derived from `master` for a reproducible game. After a
    rollback (`epoch` > 0) a reproducible game derives it from the epoch too, so a stage reopened or
    played again gets other dice than the ones already revealed."""
    if master is None:
        seed, salt = secrets.token_hex(32), secrets.token_hex(32)
    else:
        base = f"{master}|{turn}|{stage}" + (f"|epoch {epoch}" if epoch else "")
        digest = hashlib.sha256(base.encode()).digest()
        seed = format(int.from_bytes(digest[:8], "big") >> 1, "x")
        salt = hashlib.sha256(f"{base}|salt".encode()).hexdigest()
    return SeedRecord(seed, salt, commitment(seed, salt), deterministic=master is not None)


def digest_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def orders_digest(raw_books: Mapping[str, Any]) -> str:
    """One hash over every book's orders as read (canonical JSON of {book: tabs})."""
    text = json.dumps(raw_books, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return digest_text(text)


def link(previous: str, turn: int, stage: str, before: str, orders: str, seed: SeedRecord,
         after: str) -> str:
    """The chain head after one stage: a hash of the previous head and of what the stage was made of.

    `before` and `after` are the snapshots' canonical JSON texts, `orders` the digest of the
    orders as read."""
    body = {"previous": previous, "turn": turn, "stage": stage, "before": digest_text(before),
            "orders": orders, "seed": seed.seed, "salt": seed.salt, "after": digest_text(after)}
    return digest_text(json.dumps(body, sort_keys=True, separators=(",", ":")))
