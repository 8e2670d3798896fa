"""«Приказы готовы»: each faction book's «Готовность» tab (layout kind "ready"), one cell the players set to «да»
when their orders for the stage are ready.

The cell is read with the order tabs, in the same request (`pull` adds the tab to each book's read), so
readiness costs no request of its own; every opening of a stage clears it (render). A faction that edits its
orders after saying «да» stays ready: its last rows count, as at the deadline. With `[schedule] early = true`
a stage whose every awaited faction with players is ready may be resolved before its deadline
(`forumwar turn --if-ready`, from the cron line of `forumwar schedule --cron`).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cells import normalize_name
from engine.ruleset import Table
from sheets_bridge.gameconfig import GameConfig
from sheets_bridge.layouts import Layout, TabLayout, book_kind

READY = "да"
SUBMISSION_TEXT = {"missing": "не поданы", "submitted": "поданы", "ready": "готовы", "unknown": "неизвестно",
                   "not_needed": "не требуются"}
RawBook = Mapping[str, list[list[str]]]


def ready_tab(layout: Layout, key: str) -> TabLayout | None:
    """The «Готовность» tab of book `key` (faction books only)."""
    return layout.ready_tab() if book_kind(key) == "faction" else None


def read_titles(layout: Layout, key: str) -> list[str]:
    """The tab titles a read of book `key`'s orders adds for readiness."""
    tab = ready_tab(layout, key)
    return [tab.title] if tab is not None else []


def _cell(tab: TabLayout, rows: list[list[str]]) -> str:
    """The «Приказы готовы» cell as typed (the column found by its header title, else at its layout place)."""
    if len(rows) < 2:
        return ""
    header = [str(c).strip() for c in rows[0]]
    title = tab.columns[0].title
    index = header.index(title) if title in header else 0
    return str(rows[1][index]).strip() if index < len(rows[1]) else ""


def is_ready(layout: Layout, key: str, raw: RawBook) -> bool:
    """Whether the book says «да» in its «Приказы готовы» cell."""
    tab = ready_tab(layout, key)
    if tab is None or tab.title not in raw:
        return False
    return normalize_name(_cell(tab, raw[tab.title])) == normalize_name(READY)


def status_text(layout: Layout, key: str, raw: RawBook) -> str | None:
    """What `check` writes beside the cell: None when it is empty."""
    tab = ready_tab(layout, key)
    if tab is None or tab.title not in raw:
        return None
    typed = _cell(tab, raw[tab.title])
    if not typed:
        return None
    if is_ready(layout, key, raw):
        return ("OK: мастер видит, что приказы готовы. До расчёта их ещё можно править — считаются последние; "
                "передумали — очистите ячейку.")
    return f"Не понято «{typed}»: выберите «{READY}» из списка, когда приказы готовы, или оставьте ячейку пустой."


def players(config: GameConfig) -> dict[str, list[str]]:
    """Each faction's players' e-mails as game.toml names them (whose readiness counts: `playing`)."""
    return {fid: list(faction.players) for fid, faction in config.factions.items()}


def playing(awaited: Mapping[str, Any], players: Mapping[str, list[str]]) -> list[str]:
    """The factions whose readiness counts: those the stage awaits that have players in game.toml, or every
    awaited faction when game.toml names no player at all (books handed out as files)."""
    waited = [f for f, notes in awaited.items() if notes]
    if any(players.get(f) for f in players):
        return [f for f in waited if players.get(f)]
    return waited


def all_ready(awaited: Mapping[str, Any], players: Mapping[str, list[str]], ready: Mapping[str, bool]) -> bool:
    """Whether every faction whose readiness counts (`playing`) is ready, and there is at least one."""
    counted = playing(awaited, players)
    return bool(counted) and all(ready.get(f, False) for f in counted)


def submission_state(submitted: bool, ready: bool, awaited: bool) -> str:
    """A faction's orders for the open stage: "ready", "submitted", "missing" or "not_needed"."""
    if ready:
        return "ready"
    if submitted:
        return "submitted"
    return "missing" if awaited else "not_needed"


def readiness_table(names: Mapping[str, str], players: Mapping[str, list[str]], states: Mapping[str, str],
                    rows: Mapping[str, tuple[int, int]]) -> Table:
    """The GM book's «Готовность»: per faction, its players, its orders' state, rows and rows with errors."""
    body = [(names[f], str(len(players.get(f, []))), SUBMISSION_TEXT[states.get(f, "unknown")],
             *(str(n) for n in rows.get(f, (0, 0))))
            for f in names]
    return Table(("Фракция", "Игроков", "Приказы", "Строк", "С ошибками"), tuple(body))
