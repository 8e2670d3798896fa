"""How a command's expected failures reach the user: a Russian message and exit code 1, never a traceback."""
from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

P = ParamSpec("P")
R = TypeVar("R")


def errors_to_click(finish: Callable[[], None] | None = None) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A decorator that turns expected failures into click errors (exit 1) with their message, each on a
    line of its own; `finish` ends an unfinished progress line of the command first.

    A refusal because another forumwar command holds the game starts a new line on a terminal: that
    command may be drawing its progress bar in the same terminal, without the line's end yet. A file or
    folder this user may not touch (PermissionError) is told in Russian, not as a traceback."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            from sheets_bridge import gamedir
            from sheets_bridge.backends.base import BackendError
            from sheets_bridge.cli_text import stderr_is_terminal
            from sheets_bridge.stage_common import StageError
            expected = (StageError, BackendError, gamedir.GameDirError)
            try:
                return fn(*args, **kwargs)
            except expected as exc:
                if finish is not None:
                    finish()
                if isinstance(exc, gamedir.GameLocked) and stderr_is_terminal():
                    click.echo("", err=True)
                raise click.ClickException(str(exc)) from exc
            except PermissionError as exc:
                if finish is not None:
                    finish()
                raise click.ClickException(permission_text(exc)) from exc
        return wrapper
    return decorate


def permission_text(exc: PermissionError) -> str:
    """A file or folder this user may not read or write, as the user reads it."""
    where = f" к {exc.filename}" if exc.filename else ""
    return (f"нет доступа{where}: файл или папка принадлежит другому пользователю или открыта только для "
            "чтения. Проверьте права на папку игры (forumwar нужно запускать от имени её владельца) и повторите")
