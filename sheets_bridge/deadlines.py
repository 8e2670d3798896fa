"""The open stage's deadline in a game directory: when the stage opened (the journal) and the schedule.

A stage opens when its snapshot's opening is journaled («opened», with the time since this module
exists; older games fall back to the snapshot file's time). Its deadline is a one-off date in
`[deadlines]` that falls after the opening, else the `[schedule]` rule (sheets_bridge.schedule).
"""
from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sheets_bridge import schedule
from sheets_bridge.gamedir import GameDir
from sheets_bridge.schedule import UTC, Rule


@dataclass(frozen=True)
class StageClock:
    """The open stage's times: when it opened and its deadline (None: the game sets none)."""

    turn: int
    stage: str
    opened: dt.datetime | None
    deadline: dt.datetime | None
    zone: zoneinfo.ZoneInfo

    def passed(self, now: dt.datetime) -> bool:
        return self.deadline is not None and now.timestamp() >= self.deadline.timestamp()

    def left_text(self, now: dt.datetime) -> str:
        return "срока нет" if self.deadline is None else schedule.time_left_text(self.deadline, now)

    def deadline_text(self) -> str:
        return "не задан" if self.deadline is None else schedule.when_text(self.deadline, self.zone)

    def to_json(self, now: dt.datetime) -> dict[str, Any]:
        return {"opened": _iso(self.opened), "deadline": _iso(self.deadline), "timezone": self.zone.key,
                "seconds_left": None if self.deadline is None else int(self.deadline.timestamp() - now.timestamp()),
                "time_left": self.left_text(now)}


def now_utc() -> dt.datetime:
    return dt.datetime.now(UTC)


def stamp() -> str:
    """The time to journal with an event (UTC, ISO 8601)."""
    return now_utc().isoformat(timespec="seconds")


def _iso(when: dt.datetime | None) -> str | None:
    return None if when is None else when.isoformat(timespec="minutes")


def rules(gd: GameDir) -> dict[str, Rule]:
    """The schedule of game.toml (validated when the configuration was read)."""
    return {stage: schedule.parse_rule(value) for stage, value in gd.config.schedule.items()}


def zone(gd: GameDir) -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(gd.config.timezone)


def opened_at(gd: GameDir, turn: int, stage: str, journal: Sequence[Mapping[str, Any]] | None = None
              ) -> dt.datetime | None:
    """When the snapshot (turn, stage) was last opened; None if it never was."""
    key = f"turn-{turn:04d}-{stage}"
    entries = gd.journal() if journal is None else journal
    opened = [e for e in entries if e.get("event") == "opened" and e.get("opens") == key]
    if opened and isinstance(opened[-1].get("at"), str):
        return dt.datetime.fromisoformat(opened[-1]["at"])
    path = gd.snapshot_path(turn, stage)
    if opened and path.exists():
        return dt.datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return None


def stage_deadline(gd: GameDir, turn: int, stage: str, stages: tuple[str, ...],
                   journal: Sequence[Mapping[str, Any]] | None = None) -> dt.datetime | None:
    """The deadline of (turn, stage) as it stood when that stage opened."""
    tz = zone(gd)
    entries = gd.journal() if journal is None else journal
    opened = opened_at(gd, turn, stage, entries)
    if opened is None:
        return None
    fixed = gd.config.deadlines.get(stage, "").strip()
    if fixed:
        when = schedule.parse_fixed(fixed, tz)
        if when.timestamp() > opened.timestamp():
            return when
    rule = rules(gd).get(stage)
    if rule is None:
        return None
    previous = None
    if isinstance(rule, schedule.After) and stage in stages and stages.index(stage) > 0:
        before = stages[stages.index(stage) - 1]
        previous = stage_deadline(gd, turn, before, stages, entries)
    return schedule.deadline(rule, opened, tz, previous)


def clock(gd: GameDir, state: Mapping[str, Any], stages: tuple[str, ...]) -> StageClock:
    """The open stage's clock (`stages`: the rule set's stage order)."""
    turn, stage = int(state["turn"]), str(state["stage"])
    journal = gd.journal()
    due = None if stage == "finished" else stage_deadline(gd, turn, stage, stages, journal)
    return StageClock(turn, stage, opened_at(gd, turn, stage, journal), due, zone(gd))
