"""`forumwar verify`: check the dice and the history of a game against its files and its published record.

For every resolved stage: the revealed seed and salt match the commitment, the stage re-runs from the
archive (state before, orders as read, seed) into exactly the recorded state after, and the hash chain
recomputed from those files matches the heads recorded at the time. Then the public book's «Честность»,
the record players saw: every published commitment, seed, salt and chain head is compared with the files,
a resolved stage the book does not show is a problem, and so is a stage the book shows that the files do
not have (a history cut short). Chain heads a player copied from forum posts (`heads`) are looked up in
the recomputed chain; the first stage where the chain departs from them is named. Nothing is written.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine import find_ruleset
from engine.ruleset import Ruleset
from sheets_bridge import fairness, opening
from sheets_bridge.backends.base import Backend
from sheets_bridge.gamedir import GameDir, GameDirError
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import replay_state
from sheets_bridge.stage_common import stages_named

Stage = tuple[int, str]
_HEX = re.compile(r"[0-9a-fA-F]{64}")
NOT_YET = "после этапа"   # what «Честность» shows for a seed or salt not revealed yet


@dataclass
class Verification:
    """What `verify` found: one line per checked stage and head, and every problem, each once."""

    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    published_read: bool = False
    stages: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    def problem(self, where: str, text: str) -> None:
        line = f"{where}: {text}"
        if line not in self.problems:
            self.problems.append(line)


@dataclass(frozen=True)
class PublishedRow:
    """One row of the public «Честность»: what players were shown of one stage's dice and chain."""

    turn: int
    stage: str          # the stage id; the title as shown when it names no stage of the rule set
    commitment: str
    seed: str
    salt: str
    head: str

    @property
    def resolved(self) -> bool:
        """The row says the stage was resolved: its seed is revealed or a chain head is shown."""
        return bool(self.head) or (bool(self.seed) and self.seed != NOT_YET)


def published_rows(gd: GameDir, be: Backend, rs: Ruleset) -> dict[Stage, PublishedRow]:
    """The public book's «Честность», stage by stage (an empty or missing tab gives no rows)."""
    tab = next(t for t in Layout.load(rs.name).books["public"].tabs if t.key == "fairness")
    rows = be.read_tabs(gd.config.books["public"], [tab.title]).get(tab.title, [])
    ids = {rs.stage_title(s): s for s in rs.stages}
    found: dict[Stage, PublishedRow] = {}
    for row in rows[1:]:
        cells = [str(c).strip() for c in row] + [""] * 6
        if not cells[0].isdigit():
            continue
        row_ = PublishedRow(int(cells[0]), ids.get(cells[1], cells[1]), *cells[2:6])
        found.setdefault((row_.turn, row_.stage), row_)
    return found


def verify(gd: GameDir, turn: int | None = None, be: Backend | None = None,
           heads: Sequence[str] = ()) -> Verification:
    """Check every resolved stage (of one turn if given) against the files and, when `be` reads the
    public book, against the published record; then check each chain head in `heads`. Reads the game
    without its lock and writes nothing (`GameDir.read`: it waits for a command writing the game)."""
    return gd.read(lambda: _verified(gd, turn, be, heads))


def _verified(gd: GameDir, turn: int | None, be: Backend | None, heads: Sequence[str]) -> Verification:
    out = Verification()
    keys = opening.snapshot_keys(gd)
    if not keys:
        from sheets_bridge.stage_common import StageError
        raise StageError(f"в {gd.state_dir} нет снимков: проверять нечего")
    rs = find_ruleset(gd.read_snapshot(*opening.parse_stem(keys[0]))["ruleset"])
    published: dict[Stage, PublishedRow] = {}
    if be is not None:
        try:
            published = published_rows(gd, be, rs)
            out.published_read = True
        except Exception as exc:  # the book is a second witness; the files are checked anyway
            out.warnings.append(f"не удалось прочитать общую книгу ({exc}); сверяю только файлы игры")
    recorded = gd.chain()
    chain: list[tuple[Stage, str]] = []
    head = fairness.GENESIS
    for before_key, after_key in itertools.pairwise(keys):
        t, stage = opening.parse_stem(before_key)
        head, problems = _check_link(gd, t, stage, after_key, head, recorded)
        chain.append(((t, stage), head))
        if turn is not None and t != turn:
            continue
        problems = _check_stage(gd, t, stage, after_key) + problems
        if out.published_read:
            problems += _published_problems(gd, published.get((t, stage)), t, stage, head)
        where = _where(rs, (t, stage))
        for p in problems:
            out.problem(where, p)
        out.checked.append(f"{where}: {'ошибки' if problems else 'всё сходится'}")
        out.stages += 1
    if out.published_read:
        _check_open_and_extra(gd, rs, out, published, opening.parse_stem(keys[-1]),
                              {s for s, _ in chain}, turn)
    for text in heads:
        _check_head(gd, rs, out, text, chain, heads)
    return out


def _where(rs: Ruleset, at: Stage) -> str:
    return f"ход {at[0]}, этап «{rs.stage_title(at[1])}»"


def _of(rs: Ruleset, at: Stage) -> str:
    return f"хода {at[0]}, этапа «{rs.stage_title(at[1])}»"


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


def _check_link(gd: GameDir, turn: int, stage: str, after_key: str, head: str,
                recorded: dict[str, str]) -> tuple[str, list[str]]:
    try:
        new_head = opening.chain_link(gd, (turn, stage), after_key, head)
    except GameDirError as exc:
        return head, [str(exc)]
    if recorded.get(opening.stem(turn, stage)) != new_head:
        return new_head, ["цепочка хешей, пересчитанная из архива, не совпадает с записанной при расчёте "
                          "этапа: история переписана"]
    return new_head, []


def _published_problems(gd: GameDir, row: PublishedRow | None, turn: int, stage: str, head: str) -> list[str]:
    """A resolved stage against its row in the public book."""
    if row is None:
        return ["в общей книге («Честность») нет строки этого этапа: опубликованная запись о костях и "
                "цепочке удалена"]
    problems = []
    try:
        seed = gd.stage_seed(turn, stage)
    except GameDirError:
        seed = None   # already reported by the stage check
    if seed is not None:
        if row.commitment != seed.commitment:
            problems.append("хеш костей в общей книге не совпадает с хешем в файлах игры (seeds.json): "
                            "опубликованное обязательство подменено")
        if (row.seed, row.salt) != (seed.seed, seed.salt):
            problems.append("зерно и соль в общей книге не совпадают с раскрытыми в файлах игры")
    if not row.head:
        problems.append("в общей книге нет цепочки хешей после этого этапа")
    elif row.head != head:
        problems.append("цепочка хешей не совпадает с опубликованной в общей книге: история переписана")
    return problems


def _check_open_and_extra(gd: GameDir, rs: Ruleset, out: Verification, published: dict[Stage, PublishedRow],
                          open_stage: Stage, resolved: set[Stage], turn: int | None) -> None:
    """The open stage's published commitment, and every published stage the files do not have."""
    for at, row in published.items():
        if at in resolved or (turn is not None and at[0] != turn):
            continue
        where = _where(rs, at)
        if at != open_stage:
            out.problem(where, "этап опубликован в общей книге, но его нет в файлах игры: история обрезана "
                               "или переписана")
            continue
        if row.resolved:
            out.problem(where, "в общей книге этап показан рассчитанным (раскрыто зерно или есть цепочка), "
                               "а в файлах игры он не рассчитан: история обрезана")
        try:
            seed = gd.stage_seed(*at)
        except GameDirError as exc:
            out.problem(where, str(exc))
            continue
        if row.commitment != seed.commitment:
            out.problem(where, "хеш костей открытого этапа в общей книге не совпадает с хешем в файлах игры")
    if open_stage[1] != "finished" and open_stage not in published and (turn is None or open_stage[0] == turn):
        out.problem(_where(rs, open_stage), "в общей книге нет хеша костей открытого этапа")


def stage_of(rs: Ruleset, text: str) -> str | None:
    """The stage a head's label names (`stage_common.stages_named`), if it names one."""
    found = stages_named(rs, text)
    return found[0] if len(found) == 1 else None


def _parse_head(rs: Ruleset, text: str) -> tuple[str | None, Stage | None, str]:
    """(head, stage it was published after if the text says so, problem)."""
    found = _HEX.findall(text)
    if len(found) != 1:
        return None, None, (f"«{text}» — не хеш цепочки: нужен 64-значный шестнадцатеричный хеш из поста "
                            "(ХЕШ или ХОД:ЭТАП:ХЕШ)")
    head = found[0].lower()
    label = text.replace(found[0], "").strip(" :")
    if not label:
        return head, None, ""
    parts = [p for p in re.split(r"[:\s,]+", label) if p]
    turn = next((int(p) for p in parts if p.isdigit()), None)
    stage = next((s for p in parts if (s := stage_of(rs, p)) is not None), None)
    if turn is None or stage is None:
        titles = ", ".join(f"«{rs.stage_title(s).split(' ')[0]}»" for s in rs.stages if s != "finished")
        return head, None, f"«{label}» — не ход и этап (ожидается ХОД:ЭТАП:ХЕШ, этап — одно из: {titles})"
    return head, (turn, stage), ""


def _check_head(gd: GameDir, rs: Ruleset, out: Verification, text: str,
                chain: list[tuple[Stage, str]], given: Sequence[str]) -> None:
    head, at, problem = _parse_head(rs, text)
    if head is None or problem:
        out.problem("хеш из поста", problem)
        return
    short = f"хеш {head[:16]}…"
    by_head = {h: s for s, h in chain}
    if head in by_head:
        if at is not None and at != by_head[head]:
            out.problem(short, f"это цепочка после {_of(rs, by_head[head])}, а не после {_of(rs, at)}")
        else:
            out.checked.append(f"{short}: совпадает с цепочкой после {_of(rs, by_head[head])}; вся история до "
                               "него та же, что была опубликована")
        return
    retired = _retired_stage(gd, rs, head)
    if retired is not None:
        (t, s), epoch, first = retired
        out.problem(short, f"это цепочка после {_of(rs, (t, s))} из истории, отменённой откатом "
                           f"№ {epoch}; нынешняя история расходится с ней начиная с {_of(rs, first)} "
                           "(откат записан в журнале игры)")
        return
    order = [s for s, _ in chain]
    if at is None:
        out.problem(short, "такой цепочки нет в истории игры ни после одного этапа: история, которую видел "
                           "игрок, переписана (или хеш скопирован с ошибкой). Укажите этап поста "
                           "(--head ХОД:ЭТАП:ХЕШ), чтобы назвать место расхождения")
        return
    if at not in order:
        out.problem(short, f"{_where(rs, at)}: этого этапа нет среди рассчитанных в файлах игры: история обрезана "
                           "или переписана")
        return
    index = order.index(at)
    matched = [order.index(by_head[h]) for g in given
               if (h := (_parse_head(rs, g)[0] or "")) in by_head and order.index(by_head[h]) < index]
    last = max(matched, default=-1)
    if last == index - 1:
        out.problem(short, f"история игры расходится с цепочкой из поста начиная с {_of(rs, at)}: "
                           "этот этап пересчитан или переписан")
    else:
        since = _of(rs, order[last + 1])
        out.problem(short, f"история игры расходится с цепочкой из поста на одном из этапов с {since} до "
                           f"{_of(rs, at)} включительно; добавьте --head с хешами постов этих этапов, чтобы назвать "
                           "первый")


def _retired_stage(gd: GameDir, rs: Ruleset, head: str) -> tuple[Stage, int, Stage] | None:
    """Where a head of a rolled-back history was: its stage, the rollback's number, the first stage
    that rollback set aside."""
    retired = gd.retired_links()
    for key, value in retired.items():
        if value != head:
            continue
        stem, _, epoch = key.partition("@")
        same = sorted((opening.parse_stem(k.partition("@")[0]) for k in retired if k.endswith(f"@{epoch}")),
                      key=lambda at: (at[0], rs.stages.index(at[1]) if at[1] in rs.stages else len(rs.stages)))
        return opening.parse_stem(stem), int(epoch), same[0]
    return None
