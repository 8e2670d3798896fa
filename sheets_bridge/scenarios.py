"""Scenarios: find one (a packaged name or a GM's own .toml file), read it, check it (every problem at once).

A scenario is a TOML document. The bridge reads three keys of its own: `title` (the game's title),
`gm_emails` and `players` inside each `[factions.<id>]` table; everything else belongs to the rule set,
whose `new_game` checks it. The packaged scenarios live in `templates/<ruleset>/scenarios/*.toml`.
"""
from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from engine.ruleset import Ruleset, SituationGames
from sheets_bridge.gameconfig import toml_problem
from sheets_bridge.layouts import templates_root
from sheets_bridge.stage_common import StageError, os_error_text

BRIDGE_KEYS = ("title", "gm_emails")
PLAYERS_KEY = "players"
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class ScenarioError(StageError):
    """A scenario cannot start a game; `.problems` lists every problem found (Russian)."""

    def __init__(self, source: str, problems: list[str], verdict: str = "не годится для новой игры"):
        self.source = source
        self.problems = list(problems)
        super().__init__(f"Сценарий {source} {verdict}:\n- " + "\n- ".join(self.problems))


@dataclass(frozen=True)
class Scenario:
    """A checked scenario: its name (recorded in game.toml), where it came from, its data and first state."""

    name: str
    source: str
    data: Mapping[str, Any]
    state: dict[str, Any]
    notes: tuple[str, ...] = ()  # what the GM should tell the players (Russian): a situation's fixed draws


def scenarios_dir(ruleset: str) -> Traversable:
    return templates_root(ruleset).joinpath("scenarios")


def packaged_scenarios(ruleset: str) -> list[str]:
    """Names of the scenarios shipped with `ruleset`."""
    folder = scenarios_dir(ruleset)
    if not folder.is_dir():
        return []
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def is_path(ref: str) -> bool:
    """Whether `--scenario` names a file (has a folder part or the .toml suffix) rather than a packaged one."""
    return ref.endswith(".toml") or "/" in ref or "\\" in ref or ref.startswith(("~", "."))


def find_scenario(rs: Ruleset, ref: str) -> tuple[str, str, Traversable]:
    """(name, source for messages, file) of a scenario reference; ScenarioError when there is none."""
    ref = ref.strip()
    if is_path(ref):
        path = Path(ref).expanduser().resolve()
        if not path.is_file():
            what = "это папка, а не файл" if path.is_dir() else "такого файла нет"
            raise ScenarioError(f"«{ref}»", [f"{what} ({path}); укажите путь к файлу .toml своего сценария "
                                             "(относительно текущей папки или полный)."], "не найден")
        return path.stem, f"«{path}»", path
    known = packaged_scenarios(rs.name)
    if ref not in known:
        listed = ", ".join(f"«{k}»" for k in known) or "ни одного"
        raise ScenarioError(f"«{ref}»", [f"среди готовых сценариев правил «{rs.title}» его нет (есть: {listed}); "
                                         "свой сценарий укажите путём к файлу .toml."], "не найден")
    return ref, f"«{ref}»", scenarios_dir(rs.name).joinpath(f"{ref}.toml")


def parse_scenario(text: bytes, source: str) -> dict[str, Any]:
    """The TOML document of a scenario file; ScenarioError (in Russian) when it is not UTF-8 TOML."""
    try:
        decoded = text.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = text[:exc.start].count(b"\n") + 1
        raise ScenarioError(source, [f"файл не в кодировке UTF-8 (первый чужой символ в строке {line}); "
                                     "сохраните его в UTF-8 (в Блокноте: «Сохранить как» → кодировка UTF-8)."]) from exc
    try:
        return tomllib.loads(decoded)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(source, [toml_problem(exc)[:-1] + "; следующие ошибки файла станут видны, когда "
                                     "эта будет исправлена."]) from exc


def _emails(value: Any, where: str, problems: list[str]) -> None:
    if not isinstance(value, list):
        problems.append(f"{where}: ожидается список адресов, например [\"игрок@example.com\"], а не {value!r}.")
        return
    for item in value:
        if not isinstance(item, str) or not _EMAIL.match(item.strip()):
            problems.append(f"{where}: «{item}» не похоже на адрес электронной почты.")


def split_bridge_keys(data: Mapping[str, Any], problems: list[str]) -> dict[str, Any]:
    """Check the bridge's own keys and return the rest of the document (what the rule set reads)."""
    title = data.get("title")
    if title is not None and (not isinstance(title, str) or not title.strip()):
        problems.append(f"title: название игры должно быть непустой строкой, а не {title!r}.")
    if "gm_emails" in data:
        _emails(data["gm_emails"], "gm_emails (почта мастеров)", problems)
    rules = {k: copy.deepcopy(v) for k, v in data.items() if k not in BRIDGE_KEYS}
    factions = rules.get("factions")
    if isinstance(factions, dict):
        for key, table in factions.items():
            if isinstance(table, dict) and PLAYERS_KEY in table:
                _emails(table.pop(PLAYERS_KEY), f"[factions.{key}] players (почта игроков)", problems)
    return rules


def check_scenario(rs: Ruleset, data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """The rule set's first state for `data`; ScenarioError with the bridge's and the rule set's problems."""
    problems: list[str] = []
    rules = split_bridge_keys(data, problems)
    state: dict[str, Any] = {}
    try:
        state = rs.new_game(rules)
    except ValueError as exc:  # the rule set's scenario error: every problem, in Russian
        problems.extend(getattr(exc, "problems", None) or [str(exc)])
    if problems:
        raise ScenarioError(source, problems)
    return state


def load_scenario(rs: Ruleset, ref: str) -> Scenario:
    """Find, read and check a scenario (packaged name or path to a .toml file, from any folder)."""
    name, source, file = find_scenario(rs, ref)
    try:
        text = file.read_bytes()
    except OSError as exc:
        raise ScenarioError(source, [f"файл не читается: {os_error_text(exc)}."]) from exc
    data = parse_scenario(text, source)
    return Scenario(name=name, source=source, data=data, state=check_scenario(rs, data, source))


# -- a game from a situation file (`forumwar new --situation FILE.json`) -----------------------------------------

def situation_games(rs: Ruleset) -> SituationGames:
    """The rule set's ability to make a game from a situation file; ScenarioError when it has none."""
    adjudicator = rs.adjudicator()
    if not isinstance(adjudicator, SituationGames):
        raise ScenarioError(f"правил «{rs.title}»", ["игру из файла ситуации эти правила не создают "
                                                    "(--situation есть у правил с командой adjudicate)."],
                            "не подходят")
    return adjudicator


def read_situation(path: str) -> tuple[str, dict[str, Any]]:
    """(source for messages, the JSON document) of a situation file; ScenarioError when it is not one."""
    file = Path(path).expanduser()
    source = f"«{file}»"
    try:
        text = file.read_bytes()
    except OSError as exc:
        raise ScenarioError(source, [f"файл не читается: {os_error_text(exc)}."], "не найден") from exc
    try:
        data = json.loads(text.decode("utf-8-sig"))   # Notepad's BOM is not part of the JSON
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ScenarioError(source, [f"это не JSON в UTF-8 ({exc})."]) from exc
    if not isinstance(data, dict):
        raise ScenarioError(source, ["нужен объект JSON {…} с ключами schema, map, factions, state."])
    return source, data


def situation_scenario(rs: Ruleset, data: Mapping[str, Any], source: str, name: str,
                       seed: int | str = 0, fix_turn: bool = False) -> Scenario:
    """A checked situation as a scenario (its first state; `seed`: the chance of making it, and with `fix_turn` of
    the situation's own turn); ScenarioError with every problem of the file at once."""
    made = situation_games(rs).game(data, seed, fix_turn)
    if made.state is None:
        raise ScenarioError(source, list(made.problems))
    title = data.get("title") if isinstance(data.get("title"), str) and str(data.get("title")).strip() else \
        f"{rs.title}: {data['case']}" if isinstance(data.get("case"), str) else f"{rs.title}: {name}"
    return Scenario(name=name, source=source, data={"title": title}, state=made.state, notes=made.notes)
