"""`forumwar verify`: check the dice and the history of a game from its files alone.

For every resolved stage: the published commitment matches the revealed seed and salt, the
stage re-runs from the archive (state before, orders as read, seed) into exactly the recorded
state after, and the hash chain recomputed from those files matches the heads recorded at the
time and the heads published in the public book. Nothing is written to the game.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from engine import find_ruleset
from engine.ruleset import Ruleset
from sheets_bridge import fairness, opening
from sheets_bridge.backend import Backend
from sheets_bridge.gamedir import GameDir, GameDirError
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import replay_state
from sheets_bridge.stage_common import StageError


@dataclass
class Verification:
    """What `verify` found: one line per checked stage, and every problem naming its stage."""

    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def published_heads(gd: GameDir, be: Backend, rs: Ruleset) -> dict[tuple[int, str], str]:
    """Chain heads as the public book shows them: (turn, stage title) -> head."""
    tab = next(t for t in Layout.load(rs.name).books["public"].tabs if t.key == "fairness")
    rows = be.read_tabs(gd.config.books["public"], [tab.title]).get(tab.title, [])
    heads = {}
    for row in rows[1:]:
        if len(row) >= 6 and str(row[0]).strip().isdigit() and str(row[5]).strip():
            heads[(int(str(row[0]).strip()), str(row[1]).strip())] = str(row[5]).strip()
    return heads


def verify(gd: GameDir, turn: int | None = None, be: Backend | None = None) -> Verification:
    """Check every resolved stage (of one turn if given); `be` reads the public book's heads."""
    out = Verification()
    with gd.lock(shared=True):
        keys = opening.snapshot_keys(gd)
        if not keys:
            raise StageError(f"в {gd.state_dir} нет снимков: проверять нечего")
        rs = find_ruleset(gd.read_snapshot(*opening.parse_stem(keys[0]))["ruleset"])
        published: dict[tuple[int, str], str] = {}
        if be is not None:
            try:
                published = published_heads(gd, be, rs)
            except Exception as exc:  # the book is a second witness; the files are checked anyway
                out.warnings.append(f"не удалось прочитать общую книгу ({exc}); сверяю только файлы игры")
        recorded = gd.chain()
        head = fairness.GENESIS
        for before_key, after_key in itertools.pairwise(keys):
            t, stage = opening.parse_stem(before_key)
            where = f"ход {t}, этап «{rs.stage_title(stage)}»"
            previous = head
            head, link_problems = _check_link(gd, rs, t, stage, after_key, previous, recorded, published)
            if turn is not None and t != turn:
                continue
            problems = _check_stage(gd, t, stage, after_key) + link_problems
            out.problems += [f"{where}: {p}" for p in problems]
            out.checked.append(f"{where}: {'ошибки' if problems else 'всё сходится'}")
    return out


def _check_stage(gd: GameDir, turn: int, stage: str, after_key: str) -> list[str]:
    problems = []
    try:
        seed = gd.stage_seed(turn, stage)
    except GameDirError as exc:
        return [str(exc)]
    if fairness.commitment(seed.seed, seed.salt) != seed.commitment:
        problems.append("опубликованный хеш не совпадает с раскрытыми зерном и солью "
                        "(зерно или соль изменены после публикации)")
    try:
        got, _ = replay_state(gd, turn, stage)
    except Exception as exc:  # a broken archive is a finding, not a crash
        return problems + [f"пересчёт из архива невозможен: {exc}"]
    expected = gd.snapshot_path(*opening.parse_stem(after_key)).read_text(encoding="utf-8")
    if got != expected:
        problems.append(f"пересчёт из архива (состояние до, приказы, зерно) отличается от снимка "
                        f"{after_key}: изменены приказы в архиве, зерно или снимки")
    return problems


def _check_link(gd: GameDir, rs: Ruleset, turn: int, stage: str, after_key: str, head: str,
                recorded: dict[str, str], published: dict[tuple[int, str], str]) -> tuple[str, list[str]]:
    key = opening.stem(turn, stage)
    try:
        new_head = opening.chain_link(gd, (turn, stage), after_key, head)
    except GameDirError as exc:
        return head, [str(exc)]
    problems: list[str] = []
    if recorded.get(key) != new_head:
        problems.append("цепочка хешей, пересчитанная из архива, не совпадает с записанной при расчёте "
                        "этапа: история переписана")
    shown: Any = published.get((turn, rs.stage_title(stage)))
    if shown is not None and shown != new_head:
        problems.append("цепочка хешей не совпадает с опубликованной в общей книге: история переписана")
    return new_head, problems
