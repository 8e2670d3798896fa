"""How a command's expected failures reach the user: a Russian message and exit code 1, never a traceback."""
from __future__ import annotations

import errno
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
    folder this user may not touch (PermissionError), a disk only for reading and any other error of the
    system are told in Russian, not as a traceback."""

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
            except OSError as exc:
                if exc.errno == errno.EPIPE:
                    raise                # output piped into `head` and the like: click ends quietly
                if finish is not None:
                    finish()
                if isinstance(exc, PermissionError) or exc.errno == errno.EROFS:
                    raise click.ClickException(permission_text(exc)) from exc
                text = os_problem(exc)
                text = text if text.startswith("ошибка системы") else f"ошибка системы: {text}"
                raise click.ClickException(text + (f" ({exc.filename})" if exc.filename else "")) from exc
        return wrapper
    return decorate


def permission_text(exc: OSError) -> str:
    """A file or folder this user may not read or write, or a disk only for reading, as the user reads it."""
    where = f" к {exc.filename}" if exc.filename else ""
    if exc.errno == errno.EROFS:
        return (f"нет записи{where}: диск открыт только для чтения. Команды, которые ничего не меняют (verify, "
                "replay, status, post, map, charts), работают и там; остальным нужна копия игры на диске, куда "
                "можно писать")
    return (f"нет доступа{where}: нет прав (файл или папка другого пользователя или открыты только для чтения). "
            "Выберите папку, куда вы можете писать, или дайте себе права на эту; игру ведите всегда от имени "
            "одного пользователя, владельца её папки (без sudo), и повторите")


def os_problem(exc: OSError) -> str:
    """What went wrong with a file, in Russian: no rights, a disk only for reading, no room, else the
    system's words."""
    if isinstance(exc, PermissionError):
        return "нет прав на запись"
    if exc.errno == errno.EROFS:
        return "диск только для чтения"
    if exc.errno == errno.ENOSPC:
        return "на диске нет места"
    from sheets_bridge.stage_common import os_error_text
    return os_error_text(exc)
