"""The stage schedule of game.toml `[schedule]`: rules, deadlines, time left, crontab lines. Pure.

A rule is either a weekly (or daily) wall-clock time in the game's zone, «Sunday 20:00», or a span
after the previous stage's deadline, «+48h» (after the opening, if that time has passed when the stage
opens). Every time is a wall-clock time in the zone, so
«Sunday 20:00» stays 20:00 when the clocks change, and «+48h» after Sunday 20:00 is Tuesday 20:00
even across a change (47 or 49 real hours then). A wall-clock time that does not exist (the hour the
clocks skip in spring) moves forward by the gap; one that happens twice (autumn) is its first time.
"""
from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

UTC = dt.UTC

WEEKDAYS: dict[str, int] = {}
for _number, _names in enumerate((
        ("monday", "mon", "понедельник", "пн"), ("tuesday", "tue", "вторник", "вт"),
        ("wednesday", "wed", "среда", "ср"), ("thursday", "thu", "четверг", "чт"),
        ("friday", "fri", "пятница", "пт"), ("saturday", "sat", "суббота", "сб"),
        ("sunday", "sun", "воскресенье", "вс"))):
    for _name in _names:
        WEEKDAYS[_name] = _number
DAILY = ("daily", "ежедневно", "каждый день")
SHORT_DAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")
DAY_NAMES = ("понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье")
EXAMPLES = "«Sunday 20:00», «вс 20:00», «daily 20:00» или «+48h» (через 48 часов после срока прошлого этапа)"

_WEEKLY_RE = re.compile(r"^(?P<day>[^\d\s][^\d]*?)\s+(?P<hour>\d{1,2}):(?P<minute>\d{2})$")
_AFTER_RE = re.compile(r"^\+?\s*(?P<hours>\d+)\s*(h|ч|час|часа|часов)$")


class ScheduleError(ValueError):
    """A schedule rule that cannot be read; the message (Russian) says what is allowed."""


@dataclass(frozen=True)
class Weekly:
    """At a wall-clock time every week on `weekday` (0 Monday … 6 Sunday), or every day if None."""

    at: dt.time
    weekday: int | None = None

    def describe(self) -> str:
        day = "каждый день" if self.weekday is None else DAY_NAMES[self.weekday]
        return f"{day} в {self.at:%H:%M}"


@dataclass(frozen=True)
class After:
    """`hours` of wall-clock time after the previous stage's deadline (or after the stage opened)."""

    hours: int

    def describe(self) -> str:
        return f"через {self.hours} ч после срока прошлого этапа"


Rule = Weekly | After


def parse_rule(value: object) -> Rule:
    """A rule from its game.toml value: «Sunday 20:00», «вс 20:00», «daily 20:00», «+48h» or 48."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value <= 0:
            raise ScheduleError(f"число часов должно быть больше нуля, а не {value}")
        return After(value)
    if not isinstance(value, str):
        raise ScheduleError(f"ожидалась строка вида {EXAMPLES}, а не {value!r}")
    text = " ".join(value.strip().lower().split())
    after = _AFTER_RE.match(text)
    if after:
        hours = int(after["hours"])
        if hours <= 0:
            raise ScheduleError(f"«{value}»: число часов должно быть больше нуля")
        return After(hours)
    weekly = _WEEKLY_RE.match(text)
    if not weekly:
        raise ScheduleError(f"«{value}» не понято: пишите {EXAMPLES}")
    day = weekly["day"].strip().rstrip(",")
    hour, minute = int(weekly["hour"]), int(weekly["minute"])
    if hour > 23 or minute > 59:
        raise ScheduleError(f"«{value}»: время {weekly['hour']}:{weekly['minute']} не бывает (от 00:00 до 23:59)")
    if day in DAILY:
        return Weekly(dt.time(hour, minute))
    if day not in WEEKDAYS:
        raise ScheduleError(f"«{value}»: день недели «{day}» не понят; пишите, например, «Sunday» или «вс» "
                            f"(или «daily» — каждый день)")
    return Weekly(dt.time(hour, minute), WEEKDAYS[day])


def parse_fixed(value: str, zone: dt.tzinfo) -> dt.datetime:
    """A one-off deadline of `[deadlines]` («2025-03-16T20:00», in the zone unless it names an offset)."""
    when = dt.datetime.fromisoformat(value.strip())
    return when if when.tzinfo is not None else localize(when, zone)


# -- wall-clock arithmetic ---------------------------------------------------------------------

def localize(naive: dt.datetime, zone: dt.tzinfo) -> dt.datetime:
    """A wall-clock time in `zone`: a skipped time moves forward by the gap, a doubled one is its first."""
    return naive.replace(tzinfo=zone, fold=0).astimezone(UTC).astimezone(zone)


def next_slot(rule: Weekly, after: dt.datetime, zone: dt.tzinfo) -> dt.datetime:
    """The first time of `rule` strictly after the instant `after`."""
    start = after.astimezone(zone).date()
    for days in range(9):
        day = start + dt.timedelta(days=days)
        if rule.weekday is None or day.weekday() == rule.weekday:
            when = localize(dt.datetime.combine(day, rule.at), zone)
            if when.timestamp() > after.timestamp():
                return when
    raise AssertionError("a weekly slot always comes within 8 days")   # pragma: no cover


def add_wall_hours(when: dt.datetime, hours: int, zone: dt.tzinfo) -> dt.datetime:
    """`hours` later on the zone's wall clock (Sunday 20:00 + 48 h is Tuesday 20:00 in any week)."""
    local = when.astimezone(zone).replace(tzinfo=None)
    return localize(local + dt.timedelta(hours=hours), zone)


def deadline(rule: Rule, opened: dt.datetime, zone: dt.tzinfo,
             previous_deadline: dt.datetime | None = None) -> dt.datetime:
    """The deadline of a stage that opened at `opened` under `rule`. A span counts from the previous
    stage's deadline (a stage opened a little late keeps the scheduled time, so cron can lock it), or
    from the opening if that time had passed already when the stage opened (or it has no previous)."""
    if isinstance(rule, Weekly):
        return next_slot(rule, opened, zone)
    if previous_deadline is not None:
        due = add_wall_hours(previous_deadline, rule.hours, zone)
        if due.timestamp() > opened.timestamp():
            return due
    return add_wall_hours(opened, rule.hours, zone)


# -- Russian text ---------------------------------------------------------------------------

def span_text(seconds: float) -> str:
    """A duration in short Russian: «1 д 3 ч», «5 ч 20 мин», «7 мин», «меньше минуты»."""
    total = int(seconds) // 60
    days, hours, minutes = total // 1440, total % 1440 // 60, total % 60
    if days:
        return f"{days} д {hours} ч" if hours else f"{days} д"
    if hours:
        return f"{hours} ч {minutes} мин" if minutes else f"{hours} ч"
    return f"{minutes} мин" if minutes else "меньше минуты"


def time_left_text(due: dt.datetime, now: dt.datetime) -> str:
    """«до срока 1 д 3 ч» before the deadline, «срок прошёл 2 ч назад» at or after it."""
    left = due.timestamp() - now.timestamp()
    return f"до срока {span_text(left)}" if left > 0 else f"срок прошёл {span_text(-left)} назад"


def when_text(when: dt.datetime, zone: zoneinfo.ZoneInfo) -> str:
    """«вс 16.03.2025 20:00 (Europe/Moscow)»."""
    local = when.astimezone(zone)
    return f"{SHORT_DAYS[local.weekday()]} {local:%d.%m.%Y %H:%M} ({zone.key})"


# -- crontab ----------------------------------------------------------------------------------

def slots(rules: Mapping[str, Rule], stages: Sequence[str]) -> dict[str, Weekly | None]:
    """Each scheduled stage's deadline as a weekly wall-clock slot, when it is one: a span after a
    weekly stage is weekly too (Sunday 20:00 + 48 h: Tuesday 20:00). None: it depends on the opening."""
    out: dict[str, Weekly | None] = {}
    previous: Weekly | None = None
    for stage in stages:
        rule = rules.get(stage)
        if rule is None:
            previous = None
            continue
        if isinstance(rule, Weekly):
            slot: Weekly | None = rule
        elif previous is not None:
            monday = dt.datetime(2024, 1, 1)     # a Monday; only weekday and time matter
            base = monday + dt.timedelta(days=previous.weekday or 0)
            moved = dt.datetime.combine(base.date(), previous.at) + dt.timedelta(hours=rule.hours)
            slot = Weekly(moved.time(), None if previous.weekday is None else moved.weekday())
        else:
            slot = None
        out[stage] = previous = slot
    return out


def cron_lines(rules: Mapping[str, Rule], stages: Sequence[str], titles: Mapping[str, str], zone: str,
               check: str, lock: str) -> list[str]:
    """Crontab lines: `check` every hour at :30 and `lock` at every deadline slot, in the game's zone
    (CRON_TZ); a stage whose deadline hangs on its opening gets a `lock` every 10 minutes (lock does
    nothing before the deadline and nothing twice)."""
    found = slots(rules, stages)
    lines = [f"CRON_TZ={zone}",
             "# Каждый час проверять приказы: игроки видят ошибки в «Статусе» до срока.",
             f"30 * * * * {check}"]
    by_time: dict[tuple[int, int], list[str]] = {}
    described = []
    for stage, slot in found.items():
        if slot is None:
            continue
        described.append(f"{titles.get(stage, stage)} — {slot.describe()}")
        days = by_time.setdefault((slot.at.hour, slot.at.minute), [])
        days.append("*" if slot.weekday is None else str((slot.weekday + 1) % 7))
    if described:
        lines.append("# Закрывать вкладки приказов в срок: " + "; ".join(described) + ".")
    for (hour, minute), days in sorted(by_time.items()):
        dow = "*" if "*" in days else ",".join(sorted(set(days), key=int))
        lines.append(f"{minute} {hour} * * {dow} {lock}")
    loose = [titles.get(s, s) for s, slot in found.items() if slot is None]
    if loose:
        lines.append(f"# Срок этапов {', '.join(loose)} зависит от того, когда этап открылся: "
                     "lock каждые 10 минут (до срока он ничего не делает).")
        lines.append(f"*/10 * * * * {lock}")
    if not loose:
        lines.append("# Если cron сервера не понимает CRON_TZ, пересчитайте часы в пояс сервера "
                     "или закрывайте вкладки каждые 10 минут (до срока lock ничего не делает):")
        lines.append(f"# */10 * * * * {lock}")
    return lines
