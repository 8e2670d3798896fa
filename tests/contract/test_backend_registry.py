"""A backend owns its settings (issue 39 §4): one registry of backends that imports nothing; each backend's
settings, their checks, its options and its commands in its own folder; `open` takes that backend's settings;
the abilities a backend class has are declared as its bases, so mypy checks each method's signature against
the Protocol."""
from __future__ import annotations

import ast
import sys
import types
from pathlib import Path
from typing import Any

import click
import pytest

from sheets_bridge.backends import all_kinds, check_abilities, kind, registry
from sheets_bridge.backends.base import (
    ABILITIES,
    Backend,
    BackendKind,
    LocksOnRead,
    TabWrite,
    undeclared_abilities,
)
from sheets_bridge.backends.gsheets.settings import GoogleSettings
from sheets_bridge.gameconfig import GameConfig, GameConfigError, config_problems

ROOT = Path(__file__).resolve().parents[2]


def test_the_registry_imports_nothing():
    """«One registry of backends that imports nothing.»"""
    tree = ast.parse((ROOT / "sheets_bridge" / "backends" / "registry.py").read_text(encoding="utf-8"))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)]
    assert [ast.unparse(node) for node in imports] == ["from __future__ import annotations"]
    assert set(registry.SETTINGS_TABLES) <= set(registry.KINDS) == set(registry.NAMES)


def test_game_toml_knows_the_backends_only_through_the_registry():
    """gameconfig names no backend and no backend's key: its known backends and tables are the registry's."""
    text = (ROOT / "sheets_bridge" / "gameconfig.py").read_text(encoding="utf-8")
    for word in ("gsheets", "google", "identity", "credentials", "service_account"):
        assert word not in text.lower(), word


@pytest.mark.parametrize("name", registry.NAMES)
def test_each_backend_class_declares_every_ability_it_has(name):
    """«Abilities are declared so that mypy checks each implementation's signature»: every ability Protocol a
    backend class satisfies by shape is among its bases (mypy checks an override against a declared base)."""
    k = kind(name)
    cls = k.backend_class()
    assert issubclass(cls, Backend)
    assert undeclared_abilities(cls) == []
    check_abilities(k)
    has = [a for a in ABILITIES if a in cls.__mro__]
    assert has, "each backend here has at least one ability"


def test_an_ability_implemented_without_being_declared_is_caught():
    class Sly(Backend):
        name = "sly"

        def create_book(self, key: str, title: str) -> str: return key
        def read_tabs(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]: return {}
        def read_orders(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]: return {}
        def tab_titles(self, book_id: str) -> list[str]: return []
        def write_book(self, book_id: str, tabs: list[TabWrite]) -> None: return None
        def share(self, book_id: str, readers: list[str], writers: list[str], notify: bool = False) -> list[str]:
            return []
        def export_xlsx(self, book_id: str, dest: str) -> None: return None
        def lock_and_read(self, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]: return {}

    assert undeclared_abilities(Sly) == ["LocksOnRead"]

    class Honest(Sly, LocksOnRead):
        pass

    assert undeclared_abilities(Honest) == []


def test_google_settings_live_in_the_google_backend_and_game_toml_keeps_its_table():
    """game.toml does not change: [google] is kept as written and read by the Google backend's settings."""
    data: dict[str, Any] = {"ruleset": "jade_rose", "scenario": "demo", "backend": "gsheets",
                            "google": {"identity": "gm", "account": "gm@gmail.com"}}
    config = GameConfig.from_dict(data)
    assert config.backend_settings == {"identity": "gm", "account": "gm@gmail.com"}
    assert "[google]\nidentity = \"gm\"\naccount = \"gm@gmail.com\"" in config.to_toml()
    assert GameConfig.from_toml(config.to_toml()).to_dict() == config.to_dict()
    k = kind("gsheets")
    settings = k.settings(config.backend_settings, {"credentials": "key.json", "folder": "0AbC"})
    assert settings == GoogleSettings("gm", "gm@gmail.com", "key.json", "0AbC")
    assert "аккаунт мастера gm@gmail.com" in str(k.identity_text(config))


def test_a_wrong_google_table_is_refused_by_the_google_backends_checks():
    problems = config_problems({"ruleset": "jade_rose", "scenario": "demo", "backend": "gsheets",
                                "google": {"identity": "robot", "account": "не адрес", "colour": "red"}})
    assert any("неизвестный ключ «colour»" in p for p in problems)
    assert any("google.identity" in p and "'robot'" in p for p in problems)
    assert any("google.account" in p for p in problems)
    with pytest.raises(GameConfigError):
        GameConfig.from_dict({"ruleset": "jade_rose", "scenario": "demo", "google": []})


def test_each_backends_options_and_commands_reach_the_cli():
    """`login`, `logout` and the Google options of `new` and `share` come from the Google backend's kind."""
    from sheets_bridge.cli import main
    names = {c.name for k in all_kinds() for c in k.commands()}
    assert {"login", "logout"} <= names <= set(main.commands)
    new = main.commands["new"]
    share = main.commands["share"]
    for k in all_kinds():
        assert {o.name for o in k.command_options("new")} <= {p.name for p in new.params}
        assert {o.name for o in k.command_options("share")} <= {p.name for p in share.params}
    every = [p.name for p in new.params]
    assert len(every) == len(set(every)), "no two backends declare the same option"


def test_a_third_backend_registers_in_its_own_folder_and_one_line(monkeypatch, tmp_path):
    """A third backend: a package with its KIND, and one line in each registry table. Its table is kept in
    game.toml as is, checked by its kind, read into its own settings, which its `open` takes."""
    from sheets_bridge import backends
    from sheets_bridge.backends.xlsx.backend import XlsxBackend
    opened: list[Any] = []

    class DiskKind(BackendKind[dict[str, Any]]):
        name = "disk"
        books_text = "файлы на диске"

        def backend_class(self) -> type[Backend]:
            return XlsxBackend

        def settings(self, table: Any, options: Any) -> dict[str, Any]:
            return {**table, **{k: v for k, v in options.items() if v is not None}}

        def settings_problems(self, table: Any) -> list[str]:
            return [] if table.get("root") else ["disk.root — папка книг"]

        def command_options(self, command: str) -> list[click.Option]:
            return [click.Option(["--root"])] if command == "new" else []

        def open(self, gd: Any, settings: dict[str, Any]) -> Backend:
            opened.append(settings)
            return XlsxBackend(gd.path)

    module = types.ModuleType("forumwar_disk_backend")
    module.KIND = DiskKind()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "forumwar_disk_backend", module)
    monkeypatch.setitem(registry.KINDS, "disk", "forumwar_disk_backend")
    monkeypatch.setitem(registry.SETTINGS_TABLES, "disk", "disk")
    assert "disk" in {k.name for k in backends.all_kinds()}
    base = {"ruleset": "jade_rose", "scenario": "demo", "backend": "disk"}
    assert config_problems({**base, "disk": {}}) == ["disk.root — папка книг"]
    config = GameConfig.from_dict({**base, "disk": {"root": "/книги"}})
    assert config.backend_settings == {"root": "/книги"}
    assert 'disk' in config.to_toml() and '/книги' in config.to_toml()

    class Folder:
        path = tmp_path
        config = GameConfig.from_dict({**base, "disk": {"root": "/книги"}})

    be = backends.open_backend(Folder(), {"verbose": "1"})  # type: ignore[arg-type]
    assert isinstance(be, XlsxBackend) and opened == [{"root": "/книги", "verbose": "1"}]
