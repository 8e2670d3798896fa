"""Forum posts of each stage: the rule set's posts (the `forum_posts` capability) plus, under the public
chronicle, the fairness of the dice — the stage's commitment, its seed and salt, the next stage's
commitment, and how anyone checks them. Archived as `archive/turn-NNNN/post-STAGE-KEY.bbcode` before
the stage's commit (so a crash is finished identically); `forumwar post` prints them."""
from __future__ import annotations

import contextlib
import json
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
    title: str = ""

    @property
    def kind(self) -> str:
        """"faction", "battle" or "public" (the chronicle and the rule set's other public posts)."""
        return "faction" if self.key.startswith("faction-") else "battle" if self.key.startswith("battle-") \
            else "public"

    @property
    def faction(self) -> str:
        """The faction id of a faction's own post ("" for the others)."""
        return self.key[len("faction-"):].split("-", 1)[0] if self.kind == "faction" else ""


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


def titles_name(stage: str) -> str:
    """The archive file holding the titles of a stage's posts (file name -> title)."""
    return f"posts-{stage}.json"


def archived(folder: Path, turn: int, stages: tuple[str, ...]) -> list[ArchivedPost]:
    """Every archived post of one turn's folder, stage by stage in the rule set's order."""
    found = []
    titles: dict[str, str] = {}
    for path in folder.glob("posts-*.json") if folder.is_dir() else ():
        with contextlib.suppress(OSError, ValueError):
            titles.update({str(k): str(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()})
    for path in folder.glob(f"{PREFIX}*{SUFFIX}") if folder.is_dir() else ():
        m = _NAME.fullmatch(path.name)
        if m is not None:
            order = stages.index(m["stage"]) if m["stage"] in stages else len(stages)
            text = path.read_text(encoding="utf-8")
            title = titles.get(path.name) or _first_line(text)
            found.append((order, int(m["n"]), ArchivedPost(turn, m["stage"], m["key"], text, path, title)))
    return [post for _, _, post in sorted(found, key=lambda t: (t[0], t[1]))]


def _first_line(bbcode: str) -> str:
    """A post's first line without its tags: the title of a post archived before titles were kept."""
    line = next((ln for ln in bbcode.splitlines() if ln.strip()), "")
    return re.sub(r"\[/?[^\]]*\]", "", line).strip()


# -- forum dialects ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Dialect:
    """The BBCode a forum engine renders: its tags, and how a spoiler is written there."""

    name: str
    description: str
    tags: frozenset[str]
    spoiler: str | None          # template with {title} and {body}; None: the stock fallback (a quote)


_STOCK_PHPBB = frozenset({"b", "i", "u", "quote", "code", "list", "*", "url", "img", "color", "size", "email"})
DIALECTS = {
    "phpbb": Dialect("phpbb", "phpBB как он есть (без [spoiler]: скрытое — в цитате под заголовком)",
                     _STOCK_PHPBB, None),
    "spoiler": Dialect("spoiler", "форумы с тегом [spoiler=…]: phpBB с расширением Spoiler, uCoz, Invision",
                       _STOCK_PHPBB | {"spoiler"}, "[spoiler={title}]{body}[/spoiler]"),
    "xenforo": Dialect("xenforo", "XenForo ([SPOILER=\"…\"])", _STOCK_PHPBB | {"spoiler"},
                       '[SPOILER="{title}"]{body}[/SPOILER]'),
}
DEFAULT_DIALECT = "phpbb"
_SPOILER = re.compile(r"\[spoiler(?:=(?P<title>[^\]]*))?\](?P<body>.*?)\[/spoiler\]", re.S | re.I)


def in_dialect(bbcode: str, dialect: str) -> str:
    """The archived post (written with [spoiler=…]) as forum engine `dialect` renders it."""
    form = DIALECTS[dialect]

    def spoiler(m: re.Match[str]) -> str:
        title, body = (m["title"] or "Подробности").strip().strip('"'), m["body"]
        if form.spoiler is None:
            return f"[b]{title}[/b]\n[quote]{body}[/quote]"
        return form.spoiler.format(title=title, body=body)
    return _SPOILER.sub(spoiler, bbcode)
