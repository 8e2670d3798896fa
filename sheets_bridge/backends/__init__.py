"""The backends wing: where books live. `base` declares the seam; `xlsx` and `gsheets` implement it.

`registry` names every backend and its settings table, importing nothing; a kind's package is imported only
when it is asked for (Google's libraries load only for a Google game). A third backend adds a package here
with its `KIND` (its settings, their checks, its options and commands) and one line to each of the registry's
tables.
"""
from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sheets_bridge.backends.base import Backend, BackendKind, BackendOptions, undeclared_abilities
from sheets_bridge.backends.registry import KINDS, NAMES

if TYPE_CHECKING:       # gamedir reads game.toml through gameconfig, which reads the registry in this package
    from sheets_bridge.gamedir import GameDir

__all__ = ["KINDS", "NAMES", "UnknownBackend", "all_kinds", "kind", "open_backend"]


class UnknownBackend(KeyError):
    """game.toml names a backend the registry does not have."""

    def __str__(self) -> str:
        return (f"в game.toml указано хранилище книг backend = «{self.args[0]}», такого нет: укажите "
                "backend = \"xlsx\" (файлы Excel) или backend = \"gsheets\" (Google-таблицы)")


class UndeclaredAbility(TypeError):
    """A backend class has an ability's methods without naming the ability among its bases (unchecked by mypy)."""


def kind(name: str) -> BackendKind[Any]:
    """The declared kind of backend `name` (UnknownBackend when there is none), checked as it registers: its
    name is its registry name and its backend class declares every ability it has."""
    if name not in KINDS:
        raise UnknownBackend(name)
    found: BackendKind[Any] = importlib.import_module(KINDS[name]).KIND
    if found.name != name:
        raise TypeError(f"{KINDS[name]}.KIND is named {found.name!r}, the registry says {name!r}")
    return found


def all_kinds() -> list[BackendKind[Any]]:
    """Every registered kind, in registry order."""
    return [kind(name) for name in KINDS]


def check_abilities(k: BackendKind[Any]) -> None:
    """UndeclaredAbility when `k`'s backend class has an ability it does not declare as a base."""
    missing = undeclared_abilities(k.backend_class())
    if missing:
        raise UndeclaredAbility(f"{k.backend_class().__qualname__} has {', '.join(missing)} without declaring it")


def open_backend(gd: GameDir, options: BackendOptions | None = None) -> Backend:
    """The backend of a game directory, as its game.toml names it, with a command's backend options."""
    k = kind(gd.config.backend)
    return k.open(gd, k.settings(gd.config.backend_settings, options or {}))


def options_of(command: str, given: Mapping[str, Any]) -> dict[str, str | None]:
    """The backend options of `command` among a click command's parameters (the others left out)."""
    names = {o.name for k in all_kinds() for o in k.command_options(command)}
    return {name: value for name, value in given.items() if name in names}
