"""`forumwar status`: the GM's console: turn, stage, the rule set's lines, deadline and time left, and
per faction whether it submitted or says its orders are ready, how many rows have errors and its balance line.

Who submitted is read from the rows kept when the stage was locked, else from the books themselves
when they are local files (xlsx: free to read), else from the last `check` of the stage (Google
Sheets: `check`, e.g. from cron, reads the books; `status` never spends the quota).
"""
from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import find_ruleset
from engine.ruleset import Ruleset, Summary
from engine.state import Envelope
from sheets_bridge import deadlines, readiness, schedule, submissions, tab_lock
from sheets_bridge.backends import kind as backend_kind
from sheets_bridge.fairness import UNFAIR_NOTICE
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.pull import parse_books, pull
from sheets_bridge.stage_common import open_backend
from sheets_bridge.submissions import Submission

SOURCES = {"lock": "по приказам, закрытым в срок", "books": "по книгам сейчас", "check": "по проверке"}


@dataclass(frozen=True)
class Console:
    """Everything `status` shows beyond the rule set's summary."""

    clock: deadlines.StageClock
    locked_at: str | None                       # when the open stage's order tabs were locked
    submissions: dict[str, Submission] | None   # None: not known (never checked)
    source: str | None                          # "lock", "books" or "check"
    checked_at: str | None = None


def gather(gd: GameDir, state: Mapping[str, Any], rs: Ruleset) -> Console:
    """The open stage's clock, lock and submissions, from the cheapest source that knows them."""
    clock = deadlines.clock(gd, state, tuple(rs.stages))
    turn, stage = int(state["turn"]), str(state["stage"])
    record = tab_lock.lock_record(gd, turn, stage)
    locked_at = str(record.get("at", "")) if record else None
    if stage == "finished":
        return Console(clock, locked_at, None, None)
    layout = Layout.load(rs.name)
    kept = tab_lock.locked_books(gd, state)
    if kept is not None:
        parsed, _ = parse_books(rs, layout, dict(state), stage, kept)
        return Console(clock, locked_at, submissions.count(rs, layout, state, stage, kept, parsed), "lock")
    if backend_kind(gd.config.backend).reads_are_free:
        parsed, raw_books, _ = pull(gd, open_backend(gd), rs, layout, dict(state), stage,
                                    kept=tab_lock.kept_orders(gd, state))
        return Console(clock, None, submissions.count(rs, layout, state, stage, raw_books, parsed), "books")
    last = submissions.last_check(gd.journal(), turn, stage, gd.epoch())
    if last is None:
        return Console(clock, None, None, None)
    return Console(clock, None, last[1], "check", last[0])


def table(rows: Sequence[Sequence[str]], header: Sequence[str] | None = None) -> list[str]:
    """Rows as left-aligned columns two spaces apart (the last column is not padded)."""
    body = [list(header)] if header else []
    body += [list(r) for r in rows]
    if not body:
        return []
    widths = [max(len(r[i]) for r in body if i < len(r)) for i in range(max(len(r) for r in body))]
    out = ["  ".join(cell.ljust(widths[i]) if i < len(r) - 1 else cell for i, cell in enumerate(r)).rstrip()
           for r in body]
    if header:
        out.insert(1, "  ".join("-" * w for w in widths))
    return out


def _when(gd: GameDir, at: str | None) -> str:
    if not at:
        return "время не записано"
    return schedule.when_text(dt.datetime.fromisoformat(at), deadlines.zone(gd))


def render(gd: GameDir, rs: Ruleset, state: Mapping[str, Any], summary: Summary, awaiting: Mapping[str, list[str]],
           console: Console, now: dt.datetime) -> list[str]:
    """The Russian text of `status`."""
    env = Envelope.of(state)
    clock = console.clock
    head = [("Игра", gd.config.title)] if gd.config.title and gd.config.title != rs.title else []
    head += [("Положение" if i == 0 else "", line) for i, line in enumerate(summary.lines)]
    if env.stage != "finished":
        head.append(("Срок", clock.deadline_text()))
        if clock.deadline is not None:
            head.append(("Осталось", clock.left_text(now)))
        head.append(("Вкладки приказов", f"закрыты ({_when(gd, console.locked_at)})" if console.locked_at
                     else "открыты"))
    lines = [f"{rs.title}: ход {env.turn}, этап «{rs.stage_title(env.stage)}»", *table(head)]
    if gd.config.seed is not None:
        lines.append(UNFAIR_NOTICE)
    lines.append("")
    known = console.submissions or {}
    rows = []
    for f in summary.factions:
        sub = known.get(f.id)
        if f.eliminated or f.won:
            state_text, count, errors = ("выбыла" if f.eliminated else "победа"), "", ""
        elif sub is None:
            state_text, count, errors = "неизвестно", "", ""
        else:
            state_text = readiness.SUBMISSION_TEXT[readiness.submission_state(sub.submitted, sub.ready,
                                                                              bool(awaiting.get(f.id)))]
            count, errors = str(sub.rows), str(sub.errors)
        rows.append((f.name, state_text, count, errors, "; ".join(f.lines)))
    lines += table(rows, ("Фракция", "Приказы", "Строк", "С ошибками", "Казна и силы"))
    lines.append("")
    if env.stage == "finished":
        return lines
    if console.source is None:
        lines.append("Приказы ещё не проверялись: forumwar check прочитает книги и покажет, кто их подал.")
    else:
        where = SOURCES[console.source]
        if console.source == "check":
            where += f" ({_when(gd, console.checked_at)})"
        lines.append(f"Сведения о приказах — {where}.")
    waiting = [f for f in summary.factions if not (f.eliminated or f.won)
               and not (known.get(f.id) and known[f.id].submitted) and awaiting.get(f.id)]
    for f in waiting:
        lines.append(f"Ждём от фракции «{f.name}»: " + "; ".join(awaiting[f.id]))
    if console.submissions is not None:
        players = readiness.players(gd.config)
        if readiness.all_ready(awaiting, players, {k: s.ready for k, s in known.items()}):
            lines.append("Все фракции с игроками сказали «Приказы готовы»: этап можно рассчитать до срока "
                         "(forumwar turn" + (", или cron сам: [schedule] early = true" if gd.config.early else "")
                         + ").")
        else:
            counted = readiness.playing(awaiting, players)
            unready = [f.name for f in summary.factions
                       if f.id in counted and not (known.get(f.id) and known[f.id].ready)]
            if unready and any(s.ready for s in known.values()):
                lines.append("Ещё не сказали «Приказы готовы»: " + ", ".join(f"«{n}»" for n in unready) + ".")
    return lines


def status_json(gd: GameDir, state: Mapping[str, Any], rs: Ruleset, summary: Summary,
                awaiting: Mapping[str, list[str]], console: Console, now: dt.datetime) -> dict[str, Any]:
    """`status --json`: the keys scripts already read, plus «deadline», «locked», «submissions_source»,
    «checked_at» and each faction's «submission» (null when not known)."""
    env = Envelope.of(state)
    known = console.submissions or {}
    return {"ruleset": rs.name, "title": rs.title, "turn": env.turn, "stage": env.stage,
            "stage_title": rs.stage_title(env.stage), "lines": list(summary.lines), **summary.extras,
            "factions": {f.id: {"name": f.name, "eliminated": f.eliminated, "won": f.won,
                                "lines": list(f.lines), **f.extras,
                                "submission": known[f.id].to_json() if f.id in known else None}
                         for f in summary.factions},
            "awaiting": dict(awaiting), "books": dict(gd.config.books), "fair_dice": gd.config.seed is None,
            "deadline": console.clock.to_json(now), "locked": console.locked_at is not None,
            "submissions_source": console.source, "checked_at": console.checked_at}


def status(gd: GameDir, as_json: bool, now: dt.datetime | None = None) -> str | dict[str, Any]:
    """What `forumwar status` prints: the text, or the JSON object."""
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    summary, awaiting = rs.summary(state), rs.awaiting(state)
    console = gather(gd, state, rs)
    now = now or deadlines.now_utc()
    if as_json:
        return status_json(gd, state, rs, summary, awaiting, console, now)
    return "\n".join(render(gd, rs, state, summary, awaiting, console, now))
