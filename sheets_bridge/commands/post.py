"""`forumwar post GAME [--turn N] [--battle ГОРОД] [--faction ФРАКЦИЯ]`: the archived forum posts;
`--reminder [--before ЧАСЫ] [-o ФАЙЛ]`: the reminder of the open stage (sheets_bridge.reminders)."""
from __future__ import annotations

from pathlib import Path

import click

from engine import find_ruleset
from engine.cells import normalize_name
from engine.ruleset import Ruleset
from sheets_bridge import deadlines, posts, reminders
from sheets_bridge.atomic import atomic_write_text
from sheets_bridge.cli_text import game_at
from sheets_bridge.commands.errors import errors_to_click
from sheets_bridge.gamedir import GameDir


@click.command("post")
@click.argument("game_dir", type=click.Path(file_okay=False))
@click.option("--turn", type=int, default=None, help="Ход (по умолчанию последний рассчитанный).")
@click.option("--battle", default=None, help="Только отчёт о бое: город или провинция, как в книгах.")
@click.option("--faction", default=None, help="Только пост этой фракции (её города и итоги хода).")
@click.option("--forum", type=click.Choice(sorted(posts.DIALECTS)), default=None,
              help="Движок форума, чьи теги печатать: " + "; ".join(
                  f"{d.name} — {d.description}" for d in posts.DIALECTS.values())
              + f". По умолчанию — [forum] dialect из game.toml, иначе {posts.DEFAULT_DIALECT}.")
@click.option("--reminder", is_flag=True,
              help="Вместо постов хода — напоминание об открытом этапе: срок, сколько осталось и кто ещё не подал "
                   "приказы или не сказал, что они готовы (имена на форуме — forum_names в game.toml).")
@click.option("--before", type=click.IntRange(1, 168), default=None, metavar="ЧАСЫ",
              help="С --reminder: только если до срока этапа осталось не больше стольких часов (для cron).")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="ФАЙЛ",
              help="С --reminder: записать напоминание в файл, а не печатать; напоминание этапа пишется один раз.")
@errors_to_click()
def post(game_dir: str, turn: int | None, battle: str | None, faction: str | None, forum: str | None,
         reminder: bool, before: int | None, output: str | None) -> None:
    """Напечатать готовые посты для форума (BBCode) по итогам хода, каждый под строкой-заголовком.

    Сначала общая хроника каждого этапа с проверкой честности костей, затем полный отчёт о каждом бое,
    затем по посту каждой фракции с итогами хода (после последнего этапа). Строку-заголовок в форум не
    копируйте: пост — всё, что под ней. Посты лежат в archive/turn-NNNN/post-*.bbcode.

    С --reminder — напоминание игрокам «ждём приказы от…» об открытом этапе.
    """
    gd = game_at(game_dir)
    if not reminder:
        if before is not None or output is not None:
            raise click.UsageError("--before и -o бывают только с --reminder.")
        click.echo(gd.read(lambda: _posts_text(gd, turn, battle, faction, forum)))
        return
    if turn is not None or battle is not None or faction is not None:
        raise click.UsageError("--reminder — об открытом этапе: без --turn, --battle и --faction.")
    click.echo(gd.read(lambda: _reminder(gd, forum or gd.config.forum, before, output)), nl=False)


def _reminder(gd: GameDir, dialect: str, before: int | None, output: str | None) -> str:
    """The reminder post, printed or written to `output` (then a line saying so); empty when not due yet."""
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    now = deadlines.now_utc()
    found = reminders.reminder(gd, state, rs, now)
    if found is None:
        raise click.ClickException("игра окончена: напоминать не о чем")
    if before is not None and not reminders.due(found, before, now):
        return ""       # cron calls every few minutes: nothing until the deadline is that close
    if output is None:
        return reminders.file_text(found, dialect).split("\n", 1)[1]
    path = Path(output)
    if path.is_file() and reminders.already_written(path.read_text(encoding="utf-8"), found):
        return ""       # this stage's reminder is written already
    atomic_write_text(path, reminders.file_text(found, dialect))
    return f"Напоминание (ход {found.turn}, этап «{rs.stage_title(found.stage)}») записано в {path}.\n"


def _posts_text(gd: GameDir, turn: int | None, battle: str | None, faction: str | None, forum: str | None) -> str:
    """The chosen posts under their headings, read from the archive (ClickException when there are none)."""
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    dialect = forum or gd.config.forum
    turns = sorted(int(p.name[len("turn-"):]) for p in (gd.path / "archive").glob("turn-*") if p.is_dir())
    found = [t for t in turns if posts.archived(gd.archive_path(t), t, rs.stages)]
    if turn is None:
        if not found:
            raise click.ClickException("постов ещё нет: они появляются после первого рассчитанного этапа")
        turn = found[-1]
    every = posts.archived(gd.archive_path(turn), turn, rs.stages)
    if not every:
        raise click.ClickException(f"постов хода {turn} нет; есть посты ходов: "
                                   f"{', '.join(map(str, found)) or 'никаких'}")
    chosen = _turn_posts(every)
    if faction is not None:
        wanted = normalize_name(faction)
        ids = [fid for fid in rs.factions(state)
               if wanted in (normalize_name(fid), normalize_name(state["factions"][fid]["name"]))]
        if not ids:
            names = ", ".join(state["factions"][f]["name"] for f in rs.factions(state))
            raise click.ClickException(f"фракции «{faction}» нет в игре; есть: {names}")
        chosen = [p for p in chosen if p.faction == ids[0]]
        if not chosen:
            raise click.ClickException(f"у фракции «{state['factions'][ids[0]]['name']}» нет своего поста "
                                       f"в ходе {turn}")
    elif battle is not None:
        wanted = normalize_name(battle)
        chosen = [p for p in chosen if p.kind == "battle" and wanted in normalize_name(p.title)]
        if not chosen:
            raise click.ClickException(f"в ходе {turn} нет боя за «{battle}»")
    several = len(rs.stages) > 1
    return "\n\n".join(f"{_heading(rs, p, several)}\n{posts.in_dialect(p.bbcode, dialect).rstrip()}"
                       for p in chosen)


def _turn_posts(every: list[posts.ArchivedPost]) -> list[posts.ArchivedPost]:
    """The public posts of every stage, then the battles, then one post per faction and kind: the last
    stage's, whose figures are the turn's final ones."""
    last: dict[str, posts.ArchivedPost] = {}
    for p in every:
        if p.kind == "faction":
            last[p.key] = p
    return ([p for p in every if p.kind == "public"] + [p for p in every if p.kind == "battle"]
            + list(last.values()))


def _heading(rs: Ruleset, p: posts.ArchivedPost, several_stages: bool) -> str:
    """The line above a post that names it (not part of the post)."""
    what = p.title or p.key
    if p.kind == "public" and several_stages:
        what += f", этап «{rs.stage_title(p.stage)}»"
    return f"=== {what} ==="
