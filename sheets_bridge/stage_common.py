"""What every stage command shares: the error type, progress callbacks, opening the backend."""
from __future__ import annotations

import errno
from collections.abc import Callable
from typing import TYPE_CHECKING

from sheets_bridge.backends.base import Backend, BackendOptions
from sheets_bridge.gamedir import GameDir

if TYPE_CHECKING:
    from engine.ruleset import Ruleset

Progress = Callable[[str], None]


class Step(str):
    """A progress message that is one step of a counted job, `done` of `total`: a log prints the text,
    a terminal also draws a bar (sheets_bridge.cli_text.TerminalProgress)."""

    done: int
    total: int

    def __new__(cls, text: str, done: int, total: int) -> Step:
        step = super().__new__(cls, text)
        step.done, step.total = done, total
        return step


class StageError(Exception):
    """A stage cannot run; the message tells the GM why."""


_OS_ERRORS = {errno.ENOENT: "такого файла нет", errno.EACCES: "нет прав на чтение",
              errno.EPERM: "нет прав на чтение", errno.EISDIR: "это папка, а не файл",
              errno.ENOTDIR: "часть пути — не папка", errno.ENAMETOOLONG: "слишком длинное имя"}


def os_error_text(exc: OSError) -> str:
    """An operating system error as the GM reads it (Russian; the system's own words only when unusual)."""
    return _OS_ERRORS.get(exc.errno or 0) or f"ошибка системы: {exc.strerror or exc}"


def noop(_msg: str) -> None:
    pass


def open_backend(gd: GameDir, options: BackendOptions | None = None) -> Backend:
    """The game's backend, as game.toml names it, with a command's backend options (a StageError for a name the
    registry lacks)."""
    from sheets_bridge.backends import UnknownBackend
    from sheets_bridge.backends import open_backend as open_kind
    try:
        return open_kind(gd, options)
    except UnknownBackend as exc:
        raise StageError(str(exc)) from None


def missing_books(gd: GameDir) -> list[str]:
    """Book keys of the game (its factions, "public", "gm") that game.toml records no book for."""
    config = gd.config
    return [key for key in [*config.factions, "public", "gm"] if key not in config.books]


def require_complete_books(gd: GameDir) -> None:
    """Refuse to run a stage on a half-made game (a `new` that stopped before every book existed)."""
    missing = missing_books(gd)
    if not missing and gd.snapshots():
        return
    names = {key: gd.config.factions[key].name for key in gd.config.factions}
    names |= {"public": "общая книга", "gm": "книга мастера"}
    what = f"нет книг: {', '.join(names[k] for k in missing)}" if missing else "нет начального состояния"
    raise StageError(f"игра в {gd.path} создана не до конца ({what}). Запустите ту же команду "
                     "`forumwar new` ещё раз: она доделает игру, не создавая заново уже сделанные книги.")


def stages_named(rs: Ruleset, given: str) -> list[str]:
    """The stages a GM's or a post's word names: the one whose id or Russian title it is, else every stage
    whose title starts with it («план» for «планирование боёв»); case and ё do not matter."""
    def fold(text: str) -> str:
        return " ".join(text.casefold().replace("ё", "е").split())
    wanted = fold(given.strip().strip("«»\"'"))
    exact = [s for s in rs.stages if wanted in (s, fold(rs.stage_title(s)))]
    return exact[:1] or [s for s in rs.stages if wanted and fold(rs.stage_title(s)).startswith(wanted)]
