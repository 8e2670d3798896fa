"""Click's own words in Russian: its gettext messages, the usage line's metavars, the help layout.

Click marks every string it prints (``Usage:``, ``Options``, ``Error: ...``, ``[default: ...]``) with
``gettext``; a gettext catalog would follow the locale of the shell (``LANG=C`` in most servers and
containers), and the GM's console must be Russian everywhere. So :func:`install` points the
``gettext``/``ngettext`` names of click's modules at the catalogue below, and :class:`RussianGroup`
gives every command added to it (by decorator or ``add_command``) Russian metavars.
"""
from __future__ import annotations

import importlib
import shutil
import sys
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any, TypeVar

import click

from engine.cells import parse_yes_no
from engine.russian import number_form
from sheets_bridge.stage_common import Step, os_error_text

CATALOG: dict[str, str] = {
    # help layout
    "Usage:": "Вызов:",
    "Options": "Параметры",
    "Commands": "Команды",
    "Positional arguments": "Аргументы",
    "Show this message and exit.": "Показать эту справку и выйти.",
    "Show the version and exit.": "Показать версию и выйти.",
    "%(prog)s, version %(version)s": "%(prog)s, версия %(version)s",
    "default: {default}": "по умолчанию: {default}",
    "env var: {var}": "переменная окружения: {var}",
    "required": "обязательно",
    "(dynamic)": "(вычисляется)",
    "deprecated": "устарело",
    # usage errors
    "Error: {message}": "Ошибка: {message}",
    "Try '{command} {option}' for help.": "Справка: {command} {option}",
    "Missing argument": "Не указан аргумент",
    "Missing option": "Не указан параметр",
    "Missing parameter": "Не указан параметр",
    "Missing {param_type}": "Не указано: {param_type}",
    "Missing parameter: {param_name}": "Не указан параметр {param_name}",
    "Missing command.": "Не указана команда.",
    "No such option {name!r}.": "Нет параметра «{name}».",
    "No such command {name!r}.": "Нет команды «{name}».",
    "Invalid value for {param_hint}: {message}": "Неверное значение {param_hint}: {message}",
    "Invalid value: {message}": "Неверное значение: {message}",
    "Option {name!r} does not take a value.": "Параметру «{name}» значение не нужно.",
    "Argument {name!r} takes {nargs} values.": "Аргументу «{name}» нужно значений: {nargs}.",
    "Invalid start character for option ({option})": "Параметр начинается с недопустимого знака ({option})",
    "Could not open file {filename!r}: {message}": "Не удаётся открыть файл «{filename}»: {message}",
    "unknown error": "неизвестная ошибка",
    "Aborted!": "Отменено.",
    "Value must be an iterable.": "Нужен список значений.",
    # values of the parameter types
    "{value!r} is not a valid integer.": "«{value}» — не целое число.",
    "{value!r} is not a valid {number_type}.": "«{value}» — не число.",
    "{value} is not in the range {range}.": "{value} — вне допустимых пределов {range}.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "«{value}» — не «да» или «нет»; понятны значения: {states}",
    "{value!r} is not a valid UUID.": "«{value}» — не UUID.",
    "Choose from:\n\t{choices}": "Выберите одно из:\n\t{choices}",
    "Choice({choices})": "Выбор({choices})",
    "{name} {filename!r} does not exist.": "«{filename}»: такого пути нет.",
    "{name} {filename!r} is a file.": "«{filename}» — файл, а нужна папка.",
    "{name} {filename!r} is a directory.": "«{filename}» — папка, а нужен файл.",
    "{name} {filename!r} is not readable.": "«{filename}» не читается (нет прав).",
    "{name} {filename!r} is not writable.": "В «{filename}» нельзя записать (нет прав).",
    "{name} {filename!r} is not executable.": "«{filename}» нельзя запустить.",
    "file": "файл",
    "directory": "папка",
    "path": "путь",
    # prompts
    "Do you want to continue?": "Продолжить?",
    "Confirm the action without prompting.": "Подтвердить без вопроса.",
    "Repeat for confirmation": "Повторите для подтверждения",
    "Error: The two entered values do not match.": "Ошибка: введённые значения не совпадают.",
    "Error: invalid input": "Ошибка: непонятный ответ",
    "Press any key to continue...": "Нажмите любую клавишу…",
}

# (singular, plural) -> the three Russian forms: 1 книга, 2 книги, 5 книг
PLURALS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("Лишний аргумент ({args})", "Лишние аргументы ({args})", "Лишние аргументы ({args})"),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("Может быть, {possibility}?", "(Может быть, одно из: {possibilities}?)",
         "(Может быть, одно из: {possibilities}?)"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("Параметру «{name}» нужно значение.", "Параметру «{name}» нужно {nargs} значения.",
         "Параметру «{name}» нужно {nargs} значений."),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("Нужно значений: {nargs}, а дано одно.", "Нужно значений: {nargs}, а дано {len}.",
         "Нужно значений: {nargs}, а дано {len}."),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("«{value}» — не {choice}.", "«{value}» — не одно из {choices}.", "«{value}» — не одно из {choices}."),
    ("{value!r} does not match the format {format}.", "{value!r} does not match the formats {formats}."):
        ("«{value}» не в формате {format}.", "«{value}» не в форматах {formats}.",
         "«{value}» не в форматах {formats}."),
    ("{len_type} values are required, but {len_value} was given.",
     "{len_type} values are required, but {len_value} were given."):
        ("Нужно значений: {len_type}, а дано {len_value}.", "Нужно значений: {len_type}, а дано {len_value}.",
         "Нужно значений: {len_type}, а дано {len_value}."),
}

# click's modules that print marked strings (each did `from gettext import gettext as _`)
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils",
                 "_termui_impl", "shell_completion")

T = TypeVar("T")

OPTIONS_METAVAR = "[ПАРАМЕТРЫ]"
SUBCOMMAND_METAVAR = "КОМАНДА [АРГУМЕНТЫ]..."

# metavars of the option types (click prints TEXT, INTEGER, FILENAME, ...)
TYPE_METAVARS = {"text": "ТЕКСТ", "integer": "ЧИСЛО", "integer range": "ЧИСЛО", "float": "ЧИСЛО",
                 "float range": "ЧИСЛО", "filename": "ФАЙЛ"}
# metavars of options, by parameter name (before the type's)
OPTION_METAVARS = {"ruleset": "ПРАВИЛА", "ruleset_name": "ПРАВИЛА", "seed": "ЗЕРНО", "title": "НАЗВАНИЕ",
                   "scenario": "СЦЕНАРИЙ", "turn_no": "ХОД", "turn": "ХОД", "turns": "ХОДОВ", "faction": "ФРАКЦИЯ",
                   "battle": "ГОРОД", "folder": "ПАПКА"}
# metavars of the commands' arguments, by parameter name
ARGUMENT_METAVARS = {"game_dir": "ИГРА", "dir": "ПАПКА", "file": "ФАЙЛ", "turn_no": "ХОД", "stage": "ЭТАП",
                     "name": "ПРАВИЛА"}


def gettext(message: str) -> str:
    return CATALOG.get(message, message)


def russian_form(n: int) -> int:
    """0 for 1, 21, 31…; 1 for 2–4, 22–24…; 2 for the rest (5–20, 25–30…): engine.russian's rule."""
    return number_form(n)


def ngettext(singular: str, plural: str, n: int) -> str:
    forms = PLURALS.get((singular, plural))
    if forms is None:
        return singular if n == 1 else plural
    return forms[russian_form(n)]


def install() -> None:
    """Make click print its own strings in Russian (idempotent; whatever the shell's locale)."""
    for name in CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = ngettext  # type: ignore[attr-defined]


def _path_metavar(kind: click.Path) -> str:
    if kind.dir_okay and not kind.file_okay:
        return "ПАПКА"
    return "ФАЙЛ" if kind.file_okay and not kind.dir_okay else "ПУТЬ"


def russify(command: click.Command) -> click.Command:
    """Russian metavars for a command's usage line and options (explicit metavars are kept)."""
    command.options_metavar = OPTIONS_METAVAR
    for param in command.params:
        if param.metavar is not None:
            continue
        if isinstance(param, click.Argument):
            base = ARGUMENT_METAVARS.get(param.name or "")
            if base is not None:
                param.metavar = base if param.required else f"[{base}]"
        elif isinstance(param, click.Option) and not param.is_flag:
            if param.name in OPTION_METAVARS and not isinstance(param.type, click.Choice):
                param.metavar = OPTION_METAVARS[param.name]
            elif isinstance(param.type, click.Path):
                param.metavar = _path_metavar(param.type)
            elif param.type.name in TYPE_METAVARS:
                param.metavar = TYPE_METAVARS[param.type.name]
    if isinstance(command, click.Group):
        command.subcommand_metavar = SUBCOMMAND_METAVAR
        for sub in command.commands.values():
            russify(sub)
    return command


class RussianGroup(click.Group):
    """A group whose commands, however added, speak Russian; its sub-groups are RussianGroups too."""

    group_class = type

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        install()
        russify(self)

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        super().add_command(russify(cmd), name)


def game_at(path: str) -> Any:
    """The game at `path` (a GameDir), its game.toml read and checked against the game before any
    command does anything: a bad game.toml stops every command with its Russian problems."""
    from pathlib import Path

    from sheets_bridge.gamedir import GameDir, GameDirError
    if not (Path(path) / "game.toml").is_file():
        raise click.ClickException(f"{path} — не папка игры forumwar (нет game.toml); "
                                   "создайте игру командой forumwar new")
    gd = GameDir(Path(path), notice=lambda text: click.echo(f"предупреждение: {text}", err=True))
    try:
        _ = gd.config
    except GameDirError as exc:
        raise click.ClickException(str(exc)) from exc
    return gd


class ReadableFile(click.File):
    """click.File for reading whose refusal is Russian («x.json»: такого файла нет), not the system's words."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str | bytes) and value not in ("-", b"-"):
            try:
                with open(value, "rb"):
                    pass
            except OSError as exc:
                self.fail(f"«{click.format_filename(value)}»: {os_error_text(exc)}", param, ctx)
        return super().convert(value, param, ctx)


def decoded(data: bytes) -> str:
    """A text file as a GM's editor saved it: UTF-8 (with or without Notepad's BOM), else Windows'
    Russian code page (cp1251: what `forumwar … > файл` writes on a Russian Windows)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1251", errors="replace")


BATTLES_WARMING = ("готовлю расчёт шансов для вкладки «Шансы»: это нужно один раз на этом компьютере (и после "
                   "обновления forumwar), обычно меньше минуты, на загруженном компьютере — дольше…")


def warm_battles(simulator: Any, say: Callable[[str], None]) -> None:
    """Prepare the simulator's fast path before the battles that use it: `check`'s «Шансы» tab (issue 38
    §6). When it is ready (numba's cache holds the kernel: `new` had it prepared in the background, or a
    `battle` did), it loads in under a second and nothing is said. When it is not (another machine than
    `new`'s, forumwar or numba updated since), `say` BATTLES_WARMING before waiting, so the GM knows what
    the wait is and how long it may be; if another process is preparing it, wait for that one and load its
    work rather than compile it twice. Whether to say so is decided by looking, never by a timer.

    Why check waits rather than play its runs on the plain path as `battle` does: the tab's figures are
    the same either way, but one description's 2000 runs take the plain path 8 s to a minute (4 to 30 ms
    a run), about what the compile takes once (20 to 30 s of CPU), and every description of every later
    check would pay that again; the usual first check finds the kernel prepared since `new`."""
    from sheets_bridge.battle_warmup import preparing
    if simulator.prepared():
        simulator.warm_up()
        return
    say(BATTLES_WARMING)
    with preparing():
        simulator.warm_up()


def stderr_is_terminal() -> bool:
    return sys.stderr.isatty()


def stdin_is_terminal() -> bool:
    """Whether a question can be answered: stdin is a terminal (not cron, a pipe or a test runner)."""
    return sys.stdin.isatty()


def confirm(text: str) -> bool:
    """Ask a yes/no question in Russian (click.confirm's «[y/N]» and its English answers are fixed):
    «да» (as the books read yes/no, or «д») goes on, «нет», «н» or Enter does not; anything else asks again."""
    while True:
        answer = click.prompt(f"{text} [да/нет]", default="", show_default=False, err=True)
        decided = parse_yes_no(str(answer), yes=frozenset({"д"}), no=frozenset({"н", ""}))
        if decided is not None:
            return decided
        click.echo("Ответьте «да» или «нет».", err=True)


BAR_WIDTH = 20


class TerminalProgress:
    """The console's progress on stderr: each message on its own line; on a terminal, a counted step
    (stage_common.Step) redraws one line with a bar instead, until its job is done. `echo` prints a
    result line on stdout below an unfinished bar."""

    def __init__(self, terminal: bool | None = None) -> None:
        self._terminal = terminal
        self._open = False

    def __call__(self, message: str) -> None:
        terminal = stderr_is_terminal() if self._terminal is None else self._terminal
        if terminal and isinstance(message, Step) and message.total > 0:
            filled = min(BAR_WIDTH, round(BAR_WIDTH * message.done / message.total))
            line = f"  [{'█' * filled}{'░' * (BAR_WIDTH - filled)}] {message}"
            width = shutil.get_terminal_size().columns - 1
            self._open = message.done < message.total
            sys.stderr.write("\r\x1b[K" + line[:max(width, 20)] + ("" if self._open else "\n"))
            sys.stderr.flush()      # (click.echo would strip the escape that clears the line)
            return
        self.finish()
        click.echo(f"  {message}", err=True)

    def finish(self) -> None:
        """End an unfinished bar's line."""
        if self._open:
            click.echo("", err=True)
            self._open = False

    def echo(self, text: str) -> None:
        self.finish()
        click.echo(text)


def runs_bar(runs: int, label: str) -> AbstractContextManager[Any]:
    """A bar over `runs` simulated battles on a terminal (its `update(n)` hears each chunk); silent
    otherwise."""
    if not stderr_is_terminal():
        return nullcontext(None)
    return click.progressbar(length=runs, label=label, file=sys.stderr, show_pos=True, show_percent=True)


def progress_bar(items: Sequence[T], label: str) -> AbstractContextManager[Iterable[T]]:
    """A Russian progress bar on stderr when it is a terminal; silent otherwise (logs, tests, pipes)."""
    if not stderr_is_terminal():
        return nullcontext(items)
    return click.progressbar(items, label=label, file=sys.stderr,
                             show_pos=True, show_percent=False)
