"""Explicit registry of rule sets, found by name or alias."""
from __future__ import annotations

import importlib

from engine.ruleset import Ruleset

_RULESETS: dict[str, type[Ruleset]] = {}
_ALIASES: dict[str, str] = {}
# Rule-set packages imported on first lookup; a new rule set adds one line here.
_BUILTIN_PACKAGES = ("engine.jade_rose.game", "engine.titania.game")
_loaded = False


def register(cls: type[Ruleset]) -> type[Ruleset]:
    """Class decorator: add a rule set under its name and aliases."""
    _RULESETS[cls.name] = cls
    for alias in (cls.name, *cls.aliases):
        _ALIASES[_norm(alias)] = cls.name
    return cls


def _norm(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_").replace("ё", "е")


def _load_builtins() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for pkg in _BUILTIN_PACKAGES:
            importlib.import_module(pkg)


def find_ruleset(name: str) -> Ruleset:
    """Return a fresh instance of the rule set called `name` (or an alias of it)."""
    _load_builtins()
    key = _ALIASES.get(_norm(name))
    if key is None:
        known = ", ".join(sorted(_RULESETS))
        raise KeyError(f"unknown ruleset {name!r}; known: {known}")
    return _RULESETS[key]()


def ruleset_names() -> list[str]:
    _load_builtins()
    return sorted(_RULESETS)
