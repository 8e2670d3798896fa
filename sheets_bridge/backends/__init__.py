"""The backends wing: where books live. `base` declares the seam; `xlsx` and `gsheets` implement it.

`KINDS` is the registry, game.toml's backend name -> the module whose `KIND` declares it. A kind is
imported only when a game uses it (Google's libraries load only for a Google game). A third backend
adds a package here with its `KIND` and one line below, and its name to `gameconfig.BACKENDS`.
"""
from __future__ import annotations

import importlib

from sheets_bridge.backends.base import Backend, BackendKind
from sheets_bridge.gameconfig import BACKENDS
from sheets_bridge.gamedir import GameDir

KINDS = {"xlsx": "sheets_bridge.backends.xlsx", "gsheets": "sheets_bridge.backends.gsheets"}


class UnknownBackend(KeyError):
    """game.toml names a backend the registry does not have."""

    def __str__(self) -> str:
        return (f"в game.toml указано хранилище книг backend = «{self.args[0]}», такого нет: укажите "
                "backend = \"xlsx\" (файлы Excel) или backend = \"gsheets\" (Google-таблицы)")


def kind(name: str) -> BackendKind:
    """The declared kind of backend `name` (UnknownBackend when there is none)."""
    if name not in KINDS or name not in BACKENDS:
        raise UnknownBackend(name)
    found: BackendKind = importlib.import_module(KINDS[name]).KIND
    return found


def open_backend(gd: GameDir, credentials: str | None = None, folder_id: str | None = None) -> Backend:
    """The backend of a game directory, as its game.toml names it."""
    return kind(gd.config.backend).open(gd, credentials, folder_id)
