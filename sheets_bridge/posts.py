"""Forum posts of each stage: the rule set's posts (the `forum_posts` capability) plus, under the public
chronicle, the fairness of the dice — the stage's commitment, its seed and salt, the next stage's
commitment, and how anyone checks them. Archived as `archive/turn-NNNN/post-STAGE-KEY.bbcode` before
the stage's commit (so a crash is finished identically); `forumwar post` prints them."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engine.ruleset import ForumPost, Ruleset, StageResult
from sheets_bridge import fairness
from sheets_bridge.fairness import SeedRecord

PREFIX = "post-"
SUFFIX = ".bbcode"


@dataclass(frozen=True)
class ArchivedPost:
    turn: int
    stage: str
    key: str
    bbcode: str
    path: Path


@dataclass(frozen=True)
class ChainHead:
    """The hash chain's head after one resolved stage, as the chronicle post publishes it."""

    turn: int
    stage: str
    head: str


def fairness_section(rs: Ruleset, record: SeedRecord, following: SeedRecord | None,
                     chain: ChainHead | None = None) -> str:
    """The dice of the stage, in BBCode: what was published before it and what anyone can check now,
    and the chain head after it (the forum keeps this copy of the history, out of the GM's hands)."""
    lines = ["[u]Честность костей[/u]"]
    if record.deterministic:
        lines.append(fairness.UNFAIR_NOTICE)
    lines += [f"Хеш, опубликованный до этапа: [code]{record.commitment}[/code]",
              f"Зерно: [code]{record.seed}[/code]", f"Соль: [code]{record.salt}[/code]"]
    if following is not None:
        lines.append(f"Хеш костей следующего этапа: [code]{following.commitment}[/code]")
    hints = [fairness.CHECK_HINT[0], fairness.CHECK_HINT[1]]
    if chain is not None:
        label = head_label(rs, chain.turn, chain.stage, chain.head)
        lines.append(f"Цепочка после этапа (ход {chain.turn}, «{rs.stage_title(chain.stage)}»): "
                     f"[code]{label}[/code]")
        hints.append(f"Сохраните цепочку: кто угодно проверит, что история игры с тех пор не переписана, "
                     f"командой forumwar verify ПАПКА_ИГРЫ --head {label} (можно дать несколько --head "
                     f"из разных постов: verify назовёт первый этап, где история расходится).")
    lines += [f"[spoiler=Как проверить]{chr(10).join(hints)}[/spoiler]"]
    return "\n".join(lines) + "\n"


def head_label(rs: Ruleset, turn: int, stage: str, head: str) -> str:
    """A head as posts show it and `verify --head` takes it: `ХОД:ЭТАП:ХЕШ` (the stage title's first word)."""
    return f"{turn}:{rs.stage_title(stage).split(' ')[0]}:{head}"


def stage_posts(rs: Ruleset, before: Mapping[str, Any], result: StageResult, record: SeedRecord,
                following: SeedRecord | None, chain: ChainHead | None = None) -> tuple[ForumPost, ...]:
    """The posts of one resolution; the first one (the chronicle) carries the fairness section."""
    maker = rs.forum_posts()
    if maker is None:
        return ()
    posts = list(maker.posts(before, result))
    if posts:
        section = fairness_section(rs, record, following, chain)
        posts[0] = replace(posts[0], bbcode=posts[0].bbcode.rstrip() + "\n\n" + section)
    return tuple(posts)


_NAME = re.compile(rf"{PREFIX}(?P<stage>[a-z_]+)-(?P<n>\d+)-(?P<key>.+){re.escape(SUFFIX)}")


def archive_key(post: ForumPost) -> str:
    """The post's key in the archive: `battle-…` for a battle's report, `faction-ID-…` for a faction's
    own post, the rule set's key for the public ones."""
    if post.faction:
        return f"faction-{post.faction}-{post.key}"
    return f"battle-{post.key}" if post.battle else post.key


def file_name(stage: str, n: int, post: ForumPost) -> str:
    """`post-STAGE-NN-KEY.bbcode`: the number keeps the rule set's order of the posts."""
    return f"{PREFIX}{stage}-{n:02d}-{re.sub(r'[^0-9A-Za-z_.-]+', '-', archive_key(post))}{SUFFIX}"


def archived(folder: Path, turn: int, stages: tuple[str, ...]) -> list[ArchivedPost]:
    """Every archived post of one turn's folder, stage by stage in the rule set's order."""
    found = []
    for path in folder.glob(f"{PREFIX}*{SUFFIX}") if folder.is_dir() else ():
        m = _NAME.fullmatch(path.name)
        if m is not None:
            order = stages.index(m["stage"]) if m["stage"] in stages else len(stages)
            found.append((order, int(m["n"]), ArchivedPost(turn, m["stage"], m["key"],
                                                           path.read_text(encoding="utf-8"), path)))
    return [post for _, _, post in sorted(found, key=lambda t: (t[0], t[1]))]
