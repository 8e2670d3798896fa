"""game.toml: the game's configuration (GameConfig), its validation (every problem at once), and
the small TOML writer that saves it.

One file, over 400 lines: the dataclass, the checks of each of its tables and the writer are one format, read and
written together (a key added in one place must be checked and written in the others); the backends' own tables
are not here but in their packages (sheets_bridge.backends.registry)."""
from __future__ import annotations

import datetime as dt
import importlib
import posixpath
import re
import tomllib
import zoneinfo
from dataclasses import dataclass, field
from typing import Any

from engine.russian import agree
from sheets_bridge.backends import registry
from sheets_bridge.backends.registry import NAMES
from sheets_bridge.schedule import ScheduleError, parse_rule

BACKENDS = NAMES          # game.toml's backend names (the registry's)

SHARED_BOOKS = ("public", "gm")
CONFIG_FILE = "game.toml"
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class GameDirError(Exception):
    """A problem with the game directory; the message says what to do."""


class GameConfigError(GameDirError):
    """game.toml is malformed; `problems` lists every problem found."""

    def __init__(self, problems: list[str], source: str = CONFIG_FILE):
        self.problems = list(problems)
        super().__init__(f"{source}: ошибок {len(problems)}:\n" + "\n".join(f"  - {p}" for p in problems))


# -- configuration ------------------------------------------------------------------------
@dataclass
class FactionConfig:
    name: str
    players: list[str] = field(default_factory=list)
    forum_names: list[str] = field(default_factory=list)   # the players' names on the forum (reminders name them)


@dataclass
class GameConfig:
    ruleset: str
    scenario: str
    backend: str = "xlsx"
    seed: str | None = None             # master seed; None: every stage seed drawn with `secrets`
    title: str = ""
    factions: dict[str, FactionConfig] = field(default_factory=dict)
    gm_emails: list[str] = field(default_factory=list)
    books: dict[str, str] = field(default_factory=dict)       # book key -> backend book id
    deadlines: dict[str, str] = field(default_factory=dict)   # stage -> ISO datetime or ""
    timezone: str = "Europe/Moscow"
    schedule: dict[str, str | int] = field(default_factory=dict)   # stage -> rule (sheets_bridge.schedule)
    early: bool = False                 # [schedule] early: a stage every faction says is ready may close early
    reminder_hours: int | None = None   # [schedule] reminder: the reminder post this many hours before a deadline
    draw_pictures: bool = True          # [pictures] draw: the maps and charts after every stage
    forum: str = "phpbb"                # [forum] dialect: the BBCode of `forumwar post` (sheets_bridge.posts)
    # the backends' own tables as game.toml has them (registry.SETTINGS_TABLES), read by their kinds
    backend_tables: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def backend_settings(self) -> dict[str, Any]:
        """The game's backend's own table ({} when it has none)."""
        return self.backend_tables.get(registry.SETTINGS_TABLES.get(self.backend, ""), {})

    def set_backend_settings(self, table: dict[str, Any]) -> None:
        """Record the game's backend's own table (`new`: its kind's configure_new)."""
        if self.backend in registry.SETTINGS_TABLES:
            self.backend_tables[registry.SETTINGS_TABLES[self.backend]] = dict(table)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"ruleset": self.ruleset, "scenario": self.scenario,
                                "backend": self.backend, "title": self.title}
        if self.seed is not None:
            data["seed"] = self.seed
        data["timezone"] = self.timezone
        data["gm_emails"] = list(self.gm_emails)
        data["factions"] = {fid: {"name": f.name, "players": list(f.players),
                                  **({"forum_names": list(f.forum_names)} if f.forum_names else {})}
                            for fid, f in self.factions.items()}
        data["books"] = dict(self.books)
        data["deadlines"] = dict(self.deadlines)
        if self.schedule or self.early or self.reminder_hours is not None:
            data["schedule"] = {**self.schedule, **({"early": True} if self.early else {}),
                                **({"reminder": self.reminder_hours} if self.reminder_hours is not None else {})}
        if self.forum != "phpbb":
            data["forum"] = {"dialect": self.forum}
        if not self.draw_pictures:
            data["pictures"] = {"draw": False}
        for name, table in self.backend_tables.items():
            data[name] = dict(table)
        return data

    def to_toml(self) -> str:
        return _dump_toml(self.to_dict())

    @classmethod
    def from_dict(cls, data: Any, source: str = CONFIG_FILE) -> GameConfig:
        problems = config_problems(data)
        if problems:
            raise GameConfigError(problems, source)
        seed = data.get("seed")
        return cls(
            ruleset=data["ruleset"], scenario=data["scenario"],
            backend=data.get("backend", "xlsx"),
            seed=None if seed is None else str(seed),
            title=data.get("title", ""),
            factions={fid: FactionConfig(f["name"], list(f.get("players", [])), list(f.get("forum_names", [])))
                      for fid, f in data.get("factions", {}).items()},
            gm_emails=list(data.get("gm_emails", [])),
            books=dict(data.get("books", {})),
            deadlines=dict(data.get("deadlines", {})),
            timezone=data.get("timezone", "Europe/Moscow"),
            schedule={k: v for k, v in data.get("schedule", {}).items() if k not in SCHEDULE_OPTIONS},
            early=bool(data.get("schedule", {}).get("early", False)),
            reminder_hours=data.get("schedule", {}).get("reminder"),
            forum=str(data.get("forum", {}).get("dialect", "phpbb")),
            draw_pictures=data.get("pictures", {}).get("draw", True),
            backend_tables={name: dict(data[name]) for name in registry.SETTINGS_TABLES.values() if name in data},
        )

    @classmethod
    def from_toml(cls, text: str, source: str = CONFIG_FILE) -> GameConfig:
        return cls.from_dict(parse_config_text(text, source), source)

    def problems(self) -> list[str]:
        return config_problems(self.to_dict())


_KNOWN_KEYS = {"ruleset", "scenario", "backend", "seed", "title", "factions", "gm_emails",
               "books", "deadlines", "timezone", "schedule", "forum", "pictures"}   # and the backends' tables
FORUMS = ("phpbb", "spoiler", "xenforo")   # the dialects of sheets_bridge.posts.DIALECTS
SCHEDULE_OPTIONS = ("early", "reminder")   # [schedule] keys that are no stage


def parse_config_text(text: str, source: str = CONFIG_FILE) -> dict[str, Any]:
    """game.toml's text as TOML data; GameConfigError (Russian, with the line) when it is not TOML."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameConfigError([toml_problem(exc) + " Исправьте game.toml в текстовом редакторе."],
                              source) from None


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def toml_problem(exc: tomllib.TOMLDecodeError) -> str:
    """A TOML syntax error in Russian: where it is and what the parser said."""
    at = _TOML_AT.search(str(exc))
    where = (f"в строке {at.group(1)}, столбце {at.group(2)}" if at
             else "в конце файла" if "end of document" in str(exc) else "в файле")
    detail = _TOML_AT.sub("", str(exc)).replace("(at end of document)", "").strip()
    return (f"ошибка синтаксиса TOML {where} (сообщение разбора: {detail}); проверьте кавычки, знаки «=» "
            "и скобки [таблиц].")


def ruleset_problem(name: Any) -> str | None:
    """Why `name` names no rule set (Russian, with the known ones), or None when it names one."""
    from engine.registry import find_ruleset, ruleset_names
    try:
        find_ruleset(str(name))
    except KeyError:
        known = ", ".join(f"{n} («{find_ruleset(n).title}»)" for n in ruleset_names())
        return f"нет правил «{name}»; известны: {known}"
    return None


def book_key_problems(books: Any) -> list[str]:
    """One book file or spreadsheet named by two owners (a faction sees the other's tabs): each pair."""
    if not isinstance(books, dict):
        return []
    owners: dict[str, list[str]] = {}
    for key, book_id in books.items():
        if isinstance(book_id, str) and book_id.strip():
            owners.setdefault(_same_book(book_id), []).append(str(key))
    return [f"books.{' и books.'.join(keys)} = {books[keys[0]]!r}: одна книга "
            f"у {agree(len(keys), 'владелец', 'gent')}; у каждой "
            "фракции, у общей книги и у книги мастера должна быть своя книга (иначе игроки увидят чужие "
            "вкладки). Верните каждой её файл или таблицу" for keys in owners.values() if len(keys) > 1]


def _same_book(book_id: str) -> str:
    """A book id as compared for sharing: a path without ./, .. and case of a Windows drive."""
    text = book_id.strip().replace("\\", "/")
    return posixpath.normpath(text).casefold() if text.lower().endswith(".xlsx") else text


def config_problems(data: Any) -> list[str]:
    """Every problem of a parsed game.toml, in file order; empty when it is valid."""
    if not isinstance(data, dict):
        return ["настройки игры должны быть таблицей TOML (ключ = значение)"]
    problems: list[str] = []
    known = _KNOWN_KEYS | set(registry.SETTINGS_TABLES.values())
    for key in data:
        if key not in known:
            problems.append(f"неизвестный ключ «{key}» (известны: {', '.join(sorted(known))})")
    for key in ("ruleset", "scenario"):
        if key not in data:
            problems.append(f"не указан ключ «{key}»")
        elif not isinstance(data[key], str) or not data[key].strip():
            problems.append(f"«{key}» должен быть непустой строкой, а не {data[key]!r}")
        elif key == "ruleset" and (why := ruleset_problem(data[key])) is not None:
            problems.append(f"ruleset = {data[key]!r}: {why}")
    backend = data.get("backend", "xlsx")
    if backend not in registry.KINDS:
        problems.append(f"«backend» должен быть одним из: {', '.join(registry.KINDS)}, а не {backend!r}")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (str, int))):
        problems.append(f"«seed» должен быть строкой (или целым числом), а не {seed!r}")
    if not isinstance(data.get("title", ""), str):
        problems.append(f"«title» должен быть строкой, а не {data['title']!r}")
    forum = data.get("forum", {})
    if not isinstance(forum, dict) or set(forum) - {"dialect"} or forum.get("dialect", "phpbb") not in FORUMS:
        problems.append(f"[forum] — это dialect = одно из: {', '.join(FORUMS)} (движок форума для forumwar post), "
                        f"а не {forum!r}")
    timezone = data.get("timezone", "Europe/Moscow")
    if not isinstance(timezone, str) or not _is_timezone(timezone):
        problems.append(f"«timezone» должен быть часовым поясом IANA, например 'Europe/Moscow', а не {timezone!r}")
    problems += _email_list_problems("gm_emails", data.get("gm_emails", []))

    factions = data.get("factions", {})
    if not isinstance(factions, dict):
        problems.append("«factions» должен состоять из таблиц [factions.<идентификатор>]")
        factions = {}
    for fid, faction in factions.items():
        where = f"factions.{fid}"
        if fid in SHARED_BOOKS:
            problems.append(f"идентификатор фракции «{fid}» занят общей книгой или книгой мастера; выберите другой")
        if not isinstance(faction, dict):
            problems.append(f"{where} должен быть таблицей с ключами name и players")
            continue
        for key in faction:
            if key not in ("name", "players", "forum_names"):
                problems.append(f"{where}: неизвестный ключ «{key}» (известны: name, players, forum_names)")
        name = faction.get("name")
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{where}.name должен быть непустой строкой, а не {name!r}")
        problems += _email_list_problems(f"{where}.players", faction.get("players", []))
        problems += _forum_name_problems(f"{where}.forum_names", faction.get("forum_names", []))

    books = data.get("books", {})
    if not isinstance(books, dict):
        problems.append("«books» должен быть таблицей: книга = её файл или идентификатор таблицы")
        books = {}
    for key, book_id in books.items():
        if key not in factions and key not in SHARED_BOOKS:
            problems.append(f"books.{key}: нет такой фракции; книги — фракции из [factions], public (общая) "
                            "и gm (мастера)")
        if not isinstance(book_id, str) or not book_id.strip():
            problems.append(f"books.{key} должен быть непустой строкой, а не {book_id!r}")
    problems += book_key_problems(books)

    deadlines = data.get("deadlines", {})
    if not isinstance(deadlines, dict):
        problems.append("«deadlines» должен быть таблицей: этап = \"ГГГГ-ММ-ДДTЧЧ:ММ\" или \"\"")
        deadlines = {}
    for stage, when in deadlines.items():
        if not isinstance(when, str):
            problems.append(f"deadlines.{stage} должен быть строкой, а не {when!r}")
        elif when.strip():
            try:
                dt.datetime.fromisoformat(when.strip())
            except ValueError:
                problems.append(f"deadlines.{stage} = {when!r}: не дата и время; пишите, например, "
                                f"«2025-03-16T20:00» (время в поясе игры) или «2025-03-16T20:00+03:00»")
    problems += schedule_problems(data.get("schedule", {}), data.get("ruleset"))
    problems += pictures_problems(data.get("pictures", {}))
    for name, table in registry.SETTINGS_TABLES.items():
        if table in data:
            problems += _backend_kind(name).settings_problems(data[table])
    return problems


def _backend_kind(name: str) -> Any:
    """A backend's declared kind (its package's KIND, as the registry names it), for its own table's checks;
    found by name, as sheets_bridge.backends.kind finds it: the kinds read game configurations themselves."""
    return importlib.import_module(registry.KINDS[name]).KIND


PICTURES_KEYS = ("draw",)


def pictures_problems(pictures: Any) -> list[str]:
    """The problems of `[pictures]` (draw = true or false), in Russian."""
    if not isinstance(pictures, dict):
        return [f"[pictures] должна быть таблицей, например «[pictures]» и под ней «draw = false», а не {pictures!r}"]
    problems = [f"pictures: неизвестный ключ «{key}» (известен: {', '.join(PICTURES_KEYS)})"
                for key in pictures if key not in PICTURES_KEYS]
    draw = pictures.get("draw", True)
    if not isinstance(draw, bool):
        problems.append(f"pictures.draw должен быть true (рисовать карты и графики после каждого этапа) или false "
                        f"(не рисовать), а не {draw!r}")
    return problems


def schedule_problems(schedule: Any, ruleset: Any) -> list[str]:
    """The problems of `[schedule]` (stage = rule), in Russian: unreadable rules and unknown stages."""
    if not isinstance(schedule, dict):
        return [f"[schedule] должна быть таблицей «этап = правило», например orders = \"Sunday 20:00\" "
                f"и planning = \"+48h\", а не {schedule!r}"]
    stages = _ruleset_stages(ruleset)
    problems = []
    early = schedule.get("early", False)
    if not isinstance(early, bool):
        problems.append(f"schedule.early должен быть true (этап, все фракции которого готовы, можно рассчитать до "
                        f"срока) или false, а не {early!r}")
    hours = schedule.get("reminder")
    if hours is not None and (isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= 168):
        problems.append(f"schedule.reminder — за сколько часов до срока готовить напоминание (целое от 1 до 168), "
                        f"а не {hours!r}")
    for stage, rule in schedule.items():
        if stage in SCHEDULE_OPTIONS:
            continue
        if stages and stage not in stages:
            known = ", ".join(f"{s} ({title})" for s, title in stages.items())
            problems.append(f"schedule.{stage}: у этих правил нет этапа «{stage}»; этапы: {known}")
        try:
            parse_rule(rule)
        except ScheduleError as exc:
            problems.append(f"schedule.{stage}: {exc}")
    return problems


def _ruleset_stages(name: Any) -> dict[str, str]:
    """The rule set's stages and their titles; empty if the rule set is unknown (reported elsewhere)."""
    if not isinstance(name, str):
        return {}
    try:
        from engine.registry import find_ruleset
        rs = find_ruleset(name)
    except KeyError:
        return {}
    return {s: rs.stage_title(s) for s in rs.stages}


def _forum_name_problems(where: str, names: Any) -> list[str]:
    """A faction's forum names: a list of plain names (a reminder post prints them as text)."""
    from engine.free_text import text_problem
    if not isinstance(names, list):
        return [f"{where} должен быть списком имён на форуме, например [\"Ветер\", \"Тень\"], а не {names!r}"]
    out = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            out.append(f"{where}: {name!r} — не имя на форуме (нужна непустая строка)")
        elif (why := text_problem(name, column="Имя на форуме", limit=64)) is not None:
            out.append(f"{where}: {why.message()}")
    return out


def _email_list_problems(where: str, emails: Any) -> list[str]:
    if not isinstance(emails, list):
        return [f"{where} должен быть списком адресов e-mail, а не {emails!r}"]
    return [f"{where}: {e!r} — не адрес e-mail" for e in emails
            if not isinstance(e, str) or not EMAIL_RE.match(e)]


def _is_timezone(name: str) -> bool:
    try:
        zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return False
    return True


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml_str(key)   # fullmatch: "$" would allow a final newline


def _toml_str(text: str) -> str:
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def _dump_toml(data: dict[str, Any], prefix: str = "") -> str:
    """Scalars and arrays first, then one [table] per nested dict (enough for game.toml)."""
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items()
             if not isinstance(v, dict)]
    for key, value in data.items():
        if isinstance(value, dict):
            name = f"{prefix}{_toml_key(key)}"
            only_tables = value and all(isinstance(v, dict) for v in value.values())
            if not only_tables:     # a table of tables needs no header of its own
                lines += ["", f"[{name}]"]
            body = _dump_toml(value, name + ".")
            if body:
                lines.append(body)
    return "\n".join(lines).strip("\n") + "\n" if not prefix else "\n".join(lines).strip("\n")


def share_plan(config: GameConfig) -> dict[str, tuple[list[str], list[str]]]:
    """Who gets each book (key -> (readers, writers)) from game.toml: a faction book its players
    (writers), the public book every player (readers), the GM book nobody else; GMs are writers of all."""
    gms = list(config.gm_emails)
    everyone = sorted({p for f in config.factions.values() for p in f.players})
    plan: dict[str, tuple[list[str], list[str]]] = {}
    for key in config.books:
        if key in config.factions:
            plan[key] = ([], [*config.factions[key].players, *gms])
        elif key == "public":
            plan[key] = ([p for p in everyone if p not in gms], gms)
        else:
            plan[key] = ([], gms)
    return plan
