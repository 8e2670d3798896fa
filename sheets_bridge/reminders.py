"""The reminder post «ждём приказы от…» (`forumwar post GAME --reminder`): the open stage, its deadline with the
time left in the game's time zone, and who has not submitted or has not said «Приказы готовы», by faction and by
the players' forum names (game.toml `forum_names`). It says nothing of any order's content: only whether a
faction submitted and whether it said ready, which the forum sees anyway as players report in.

What is known of the submissions comes from where `status` takes it (status_view.gather): the rows kept at the
lock, the books themselves (xlsx), or the last `check` (Google).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.free_text import plain
from engine.ruleset import Ruleset
from sheets_bridge import status_view
from sheets_bridge.gamedir import GameDir
from sheets_bridge.posts import in_dialect

MARK = "forumwar-напоминание"   # the first line of a reminder file: which stage it reminds of


@dataclass(frozen=True)
class Reminder:
    """A reminder post: its stage and the BBCode; `waiting` names the factions it waits for."""

    turn: int
    stage: str
    bbcode: str
    waiting: tuple[str, ...]
    due: dt.datetime | None

    @property
    def key(self) -> str:
        return f"{MARK}: ход {self.turn}, этап {self.stage}"


def reminder(gd: GameDir, state: Mapping[str, Any], rs: Ruleset, now: dt.datetime) -> Reminder | None:
    """The reminder of the open stage (None when the game is over)."""
    turn, stage = int(state["turn"]), str(state["stage"])
    if stage == "finished":
        return None
    console = status_view.gather(gd, state, rs)
    awaiting = rs.awaiting(dict(state))
    known = console.submissions
    clock = console.clock
    lines = [f"[b]Напоминание: ход {turn}, этап «{plain(rs.stage_title(stage))}»[/b]"]
    if clock.deadline is None:
        lines.append("Срок этапа не назначен: мастер рассчитает этап, когда приказы будут готовы.")
    else:
        lines.append(f"Срок — {clock.deadline_text()}, {clock.left_text(now)}.")
    names = {f: str(state["factions"][f]["name"]) for f in rs.factions(dict(state)) if awaiting.get(f)}
    rows: list[str] = []
    waiting: list[str] = []
    ready: list[str] = []
    for fid, name in names.items():
        sub = (known or {}).get(fid)
        if sub is not None and sub.ready:
            ready.append(name)
            continue
        waiting.append(name)
        what = ("нет сведений" if sub is None else
                "приказы поданы, но не отмечены готовыми" if sub.submitted else "приказы не поданы")
        rows.append(f"[*][b]{plain(name)}[/b]{_players(gd, fid)} — {what}")
    if rows:
        lines += ["Ждём:", "[list]", *rows, "[/list]"]
    else:
        lines.append("Все фракции сказали, что их приказы готовы.")
    if ready and rows:
        lines.append("Готовы: " + ", ".join(f"[b]{plain(n)}[/b]" for n in ready) + ".")
    if known is None:
        lines.append("(Кто подал приказы, мастер ещё не проверял.)")
    lines.append("Когда приказы готовы, выберите «да» на вкладке «Готовность» своей книги"
                 + (": когда готовы все, этап могут рассчитать до срока." if gd.config.early else "."))
    return Reminder(turn, stage, "\n".join(lines), tuple(waiting), clock.deadline)


def _players(gd: GameDir, fid: str) -> str:
    """« (Ветер, Тень)»: the faction's players by their forum names, if the GM gave them."""
    config = gd.config.factions.get(fid)
    names: Sequence[str] = config.forum_names if config is not None else ()
    return f" ({', '.join(plain(n) for n in names)})" if names else ""


def due(found: Reminder, hours: int, now: dt.datetime) -> bool:
    """Whether a reminder `hours` before the deadline is due now: the deadline is that close and not passed."""
    if found.due is None:
        return False
    left = (found.due - now).total_seconds()
    return 0 < left <= hours * 3600


def file_text(found: Reminder, dialect: str) -> str:
    """The reminder file: its mark line (which stage; not for the forum), then the post in the forum's dialect."""
    return f"# {found.key}\n{in_dialect(found.bbcode, dialect)}\n"


def already_written(text: str, found: Reminder) -> bool:
    """Whether a reminder file's text is this stage's reminder (a cron line writes each stage's once)."""
    return text.startswith(f"# {found.key}\n")
