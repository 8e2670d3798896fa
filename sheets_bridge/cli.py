"""The `forumwar` command line (click). Exit codes: 0 ok, 1 error, 2 usage.

One file for the command group and its commands' options and Russian help (each command a few lines
that call the bridge); the larger commands keep their logic in their own modules (commands/: post, map,
adjudicate, schedule; and status_view)."""
from __future__ import annotations

import json
import secrets
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import click
from click.core import ParameterSource

from engine import find_ruleset, ruleset_names
from sheets_bridge.backends import all_kinds
from sheets_bridge.cli_text import (
    RussianGroup,
    TerminalProgress,
    confirm,
    game_at,
    progress_bar,
)
from sheets_bridge.commands.adjudicate import adjudicate as adjudicate_command
from sheets_bridge.commands.battle import battle as battle_command
from sheets_bridge.commands.errors import errors_to_click
from sheets_bridge.commands.map import charts_command, map_command
from sheets_bridge.commands.post import post as post_command
from sheets_bridge.fairness import UNFAIR_NOTICE
from sheets_bridge.gameconfig import BACKENDS, ruleset_problem

if TYPE_CHECKING:
    from engine.ruleset import Ruleset
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.scenarios import Scenario
    from sheets_bridge.stage import Unplayed

T = TypeVar("T")


def _echo_json(obj: object) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=False))


_progress = TerminalProgress()     # progress lines on stderr; bars for counted steps on a terminal


def _in_book_order(gd: GameDir, counts: Mapping[str, T]) -> list[tuple[str, T]]:
    """Per-book figures in the game's order of books (the factions as game.toml lists them, the GM last)."""
    order = list(gd.config.books)
    return sorted(counts.items(), key=lambda kv: order.index(kv[0]) if kv[0] in order else len(order))


def _stage_id(rs: Ruleset, given: str) -> str:
    """A stage as the GM names it -> the stage id (`stage_common.stages_named`)."""
    from sheets_bridge.stage_common import stages_named
    known = ", ".join(f"«{rs.stage_title(s)}» ({s})" for s in rs.stages)
    found = stages_named(rs, given)
    if len(found) == 1:
        return found[0]
    if found:
        raise click.BadParameter(f"«{given}» — начало названия нескольких этапов; этапы хода: {known}",
                                 param_hint="ЭТАП")
    raise click.BadParameter(f"нет этапа «{given}»; этапы хода: {known}", param_hint="ЭТАП")


# expected failures as Russian messages (exit 1), an unfinished progress bar's line ended first
_errors_to_click = errors_to_click(finish=_progress.finish)


@click.group(cls=RussianGroup, name="forumwar")
@click.version_option(package_name="forumwar", message="%(prog)s, версия %(version)s",
                      help="Показать версию и выйти.")
def main() -> None:
    """forumwar — помощник мастера форумной стратегии: приказы фракций в таблицах, расчёт ходов, отчёты.

    Обычный порядок: forumwar new (создать игру), игроки заполняют приказы в своих книгах,
    forumwar check (проверить приказы), forumwar turn (рассчитать этап), forumwar post (посты для форума).
    ИГРА в вызовах команд — папка игры (та, где лежит game.toml). Справка по команде: forumwar КОМАНДА --help."""


# -- games -----------------------------------------------------------------------------

@main.command()
@click.argument("game_dir", type=click.Path(file_okay=False))
@click.option("--ruleset", "ruleset", required=True,
              help="Правила игры: имя или псевдоним (список — forumwar ruleset list).")
@click.option("--scenario", default="demo", show_default=True,
              help="Сценарий: имя готового сценария правил (templates/<правила>/scenarios) или путь к файлу .toml.")
@click.option("--situation", default=None, type=click.Path(dir_okay=False),
              help="Вместо сценария — файл ситуации JSON (как у forumwar adjudicate): игра продолжится с того "
                   "положения, что в нём описано; его приказы не читаются (их впишут игроки). Так переносят в "
                   "forumwar игру, которую вели в своей таблице: docs/situation.md.")
@click.option("--backend", type=click.Choice(list(BACKENDS)), default="xlsx", show_default=True,
              help="Где книги: xlsx — файлы Excel в папке игры, gsheets — Google-таблицы.")
@click.option("--seed", default=None,
              help="Главное зерно, чтобы партию можно было повторить (по умолчанию — новые случайные зёрна; "
                   "с заданным зерном игра не считается честной).")
@click.option("--title", default=None, help="Название игры в книгах.")
@click.option("--book", "books", multiple=True, metavar="КНИГА=ТАБЛИЦА",
              help="gsheets: взять для книги таблицу, созданную мастером (ключ или ссылка); КНИГА — название "
                   "или идентификатор фракции, «общая» (public) или «мастера» (gm). Повторите для каждой книги.")
@_errors_to_click
def new(game_dir: str, ruleset: str, scenario: str, situation: str | None, backend: str, seed: str | None,
        title: str | None, books: tuple[str, ...], **backend_options: str | None) -> None:
    """Создать игру в папке ИГРА и её книги по сценарию: по книге на фракцию, общую книгу и книгу мастера."""
    from sheets_bridge.create import create_game
    try:
        find_ruleset(ruleset)
    except KeyError as exc:
        raise click.BadParameter(str(ruleset_problem(ruleset)), param_hint="--ruleset") from exc
    from sheets_bridge.scenarios import Scenario, read_situation, situation_scenario
    made: str | Scenario = scenario
    if situation is not None:  # a game already going on, from where the situation file says it stands
        if click.get_current_context().get_parameter_source("scenario") is not ParameterSource.DEFAULT:
            raise click.UsageError("укажите --scenario или --situation, но не оба сразу.")
        source, data = read_situation(situation)
        made = situation_scenario(find_ruleset(ruleset), data, source, Path(situation).stem,
                                  seed if seed is not None else secrets.token_hex(16))
    book_ids = {}
    for item in books:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise click.BadParameter(f"«{item}»: нужно КНИГА=ТАБЛИЦА (ключ таблицы или ссылка на неё)",
                                     param_hint="--book")
        book_ids[_book_key(ruleset, made, key.strip())] = value.strip()
    from sheets_bridge.backends import kind as backend_kind
    if book_ids and not backend_kind(backend).adopts_books:
        takers = ", ".join(k.name for k in map(backend_kind, BACKENDS) if k.adopts_books)
        raise click.BadParameter(f"--book бывает только с --backend {takers}", param_hint="--book")
    chosen = backend_kind(backend)   # e.g. the GM's own books or folder: the login asks for the whole Drive first
    chosen.prepare_access(chosen.settings({}, backend_options), adopts=bool(book_ids), echo=click.echo)
    gd = create_game(Path(game_dir), ruleset, made, backend=backend, seed=seed, title=title,
                     book_ids=book_ids or None, progress=_progress, options=backend_options)
    where = backend_kind(backend).books_text
    rules = find_ruleset(gd.config.ruleset).title
    named = f"«{gd.config.title}»" + (f" ({rules})" if gd.config.title != rules else "")
    click.echo(f"Игра {named} создана в {game_dir}: "
               f"книг {len(gd.config.books)} ({where}). Дальше: игроки заполняют приказы, мастер — forumwar turn.")
    who = backend_kind(backend).identity_text(gd.config)
    if who:
        click.echo(who)
    for line in made.notes if isinstance(made, Scenario) else ():
        click.echo(line)
    notes = find_ruleset(gd.config.ruleset).announcements(gd.latest_state())
    if notes:
        click.echo("Объявите игрокам (чего нет в книге правил, и как это решено в этой игре):")
        click.echo("\n".join(f"  - {line}" for line in notes))
    from sheets_bridge import battle_warmup
    if battle_warmup.warm_for_game(gd.config.ruleset):
        _progress(battle_warmup.BACKGROUND)


def _book_key(ruleset: str, scenario: str | Scenario, given: str) -> str:
    """A book of --book as the GM names it (a faction's name, «общая», «мастера») -> its key in game.toml."""
    from engine.state import Envelope
    from sheets_bridge.scenarios import Scenario, ScenarioError, load_scenario
    aliases = {"общая": "public", "общая книга": "public", "мастера": "gm", "книга мастера": "gm"}
    wanted = given.casefold().replace("ё", "е")
    if wanted in aliases:
        return aliases[wanted]
    try:
        loaded = scenario if isinstance(scenario, Scenario) else load_scenario(find_ruleset(ruleset), scenario)
        factions = Envelope.of(loaded.state).factions
    except ScenarioError:
        return given               # create_game reports the scenario's problems
    return next((f.id for f in factions if f.name.casefold().replace("ё", "е") == wanted), given)


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@_errors_to_click
def check(game_dir: str) -> None:
    """Проверить приказы открытого этапа и вписать каждой строке её статус; ничего не рассчитывается."""
    from sheets_bridge.pull import book_name
    from sheets_bridge.stage import check as run_check
    gd = game_at(game_dir)
    report = run_check(gd, progress=_progress)
    _progress.finish()
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    click.echo(f"Ход {state['turn']}, этап «{rs.stage_title(state['stage'])}»: приказы проверены, "
               "статусы вписаны в книги.")
    for fid, (ok, bad) in _in_book_order(gd, report.counts()):
        click.echo(f"  {book_name(state, fid)}: строк без ошибок {ok}, с ошибками {bad}")
    for p in report.problems:
        click.echo(f"  проблема: {p}")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--yes", is_flag=True,
              help="Рассчитать этап, даже если никто ещё не подал приказов, не спрашивая (для скриптов).")
@click.option("--if-ready", "if_ready", is_flag=True,
              help="Рассчитать этап до срока, только если все фракции с игроками сказали «Приказы готовы» "
                   "(вкладка «Готовность»); иначе сказать, кого ждём, и ничего не менять (для cron, "
                   "[schedule] early = true).")
@_errors_to_click
def turn(game_dir: str, yes: bool, if_ready: bool) -> None:
    """Закрыть открытый этап: прочитать и проверить приказы, рассчитать этап, обновить книги, сохранить архив.

    Если никто ещё не подал приказов, а срок не прошёл (или его нет), turn спрашивает, рассчитывать ли
    этап; без терминала отказывается, если не дан --yes. Пока идёт вопрос, вкладки приказов закрыты (turn
    уже прочитал их), после ответа «нет» они снова открыты. После forumwar lock или по истечении срока
    вопроса нет (расписание cron работает как прежде). Если прошлый запуск прервался (сбой сети, Google),
    turn доделывает тот же этап и не считает его дважды."""
    from sheets_bridge.stage import NotReady, run_turn
    gd = game_at(game_dir)
    try:
        report = run_turn(gd, progress=_progress, ask=None if yes else _resolve_unplayed(game_dir), if_ready=if_ready)
    except NotReady as exc:             # cron asks every few minutes: not being ready yet is no error
        _progress.finish()
        said = str(exc)
        click.echo(f"{said[:1].upper()}{said[1:]}.")
        return
    _progress.finish()
    rs = find_ruleset(gd.latest_state()["ruleset"])
    closed, opened = rs.stage_title(report.stage), rs.stage_title(report.next_stage)
    if report.kind == "rollback":
        click.echo(f"Дозавершён откат к ходу {report.next_turn}, этапу «{opened}»; книги обновлены.")
    else:
        what = "дозавершён после сбоя" if report.resumed else "рассчитан"
        click.echo(f"Ход {report.turn}, этап «{closed}» {what}; теперь ход {report.next_turn}, этап «{opened}».")
    from sheets_bridge.pull import book_name
    state = gd.latest_state()
    for fid, (ok, bad) in _in_book_order(gd, report.counts()):
        click.echo(f"  {book_name(state, fid)}: приказов принято {ok}, отклонено {bad}")
    for p in report.problems:
        click.echo(f"  проблема: {p}")
    message = rs.stage_message(report.next_stage)
    if message and report.kind != "rollback":
        click.echo(message)
    click.echo(f"Архив: {report.archive}")


def _resolve_unplayed(game_dir: str) -> Callable[[Unplayed], bool]:
    """`turn`'s question for a stage nobody has played: «[да/нет]» on a terminal, a refusal without one."""
    from sheets_bridge.cli_text import stdin_is_terminal

    def ask(idle: Unplayed) -> bool:
        when = f"срок ({idle.deadline}) ещё не прошёл" if idle.deadline else "срок не задан"
        what = (f"Ход {idle.turn}, этап «{idle.stage_title}»: никто ещё не подал приказов "
                f"(не поданы: {', '.join(idle.waiting)}), {when}.")
        if not stdin_is_terminal():
            click.echo(f"{what} Рассчитать его без приказов: "
                       f"forumwar turn {game_dir} --yes; закрыть приёмку приказов до срока: "
                       f"forumwar lock {game_dir} --force, затем turn.", err=True)
            return False
        return confirm(f"{what} Рассчитать этап без приказов?")
    return ask


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Для скриптов: то же в JSON (ключи прежние, новые добавлены).")
@_errors_to_click
def status(game_dir: str, as_json: bool) -> None:
    """Ход, этап, срок и сколько до него осталось; по фракциям — поданы ли приказы, ошибки, казна."""
    from sheets_bridge.status_view import status as status_output
    gd = game_at(game_dir)
    out = gd.read(lambda: status_output(gd, as_json))
    if as_json:
        _echo_json(out)
    else:
        click.echo(out)


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--force", is_flag=True, help="Закрыть и до срока.")
@_errors_to_click
def lock(game_dir: str, force: bool) -> None:
    """Закрыть вкладки приказов всех фракций в срок: правки после этого не читаются (ни check, ни turn)."""
    from sheets_bridge.tab_lock import lock as run_lock
    click.echo(run_lock(game_at(game_dir), force=force, progress=_progress).message)


@main.command("schedule")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--cron", is_flag=True, help="Вывести строки для crontab: check каждый час, lock в срок.")
@_errors_to_click
def schedule_cmd(game_dir: str, cron: bool) -> None:
    """Расписание этапов из game.toml ([schedule]) и срок открытого этапа."""
    from sheets_bridge.commands.schedule import schedule_text
    click.echo(schedule_text(game_at(game_dir), cron))


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--notify", is_flag=True,
              help="Разослать приглашения Google о доступе: письмо со ссылкой на книгу, названием игры и фракции "
                   "(по умолчанию не рассылаются; ссылки на книги команда печатает всегда).")
@click.option("--revoke", is_flag=True, help="Заодно закрыть доступ тем, кого нет в game.toml.")
@_errors_to_click
def share(game_dir: str, notify: bool, revoke: bool, **backend_options: str | None) -> None:
    """Открыть каждую книгу ровно тем, кто указан в game.toml, и дать игрокам править их вкладки приказов.

    О всех, у кого есть доступ сверх этого, команда предупреждает."""
    from sheets_bridge.backends import kind as backend_kind
    from sheets_bridge.backends.base import SharesGame
    from sheets_bridge.create import share_books
    from sheets_bridge.stage_common import open_backend
    gd = game_at(game_dir)
    if backend_kind(gd.config.backend).sharing_note is not None:
        click.echo(backend_kind(gd.config.backend).sharing_note)
        return
    be = open_backend(gd, backend_options)
    if not isinstance(be, SharesGame):
        raise click.ClickException(f"хранилище книг «{gd.config.backend}» не умеет раздавать доступ")
    warnings = share_books(gd, be, notify=notify, revoke=revoke)
    for warning in warnings:
        click.echo(f"предупреждение: {warning}")
    click.echo(f"Доступ к книгам ({len(gd.config.books)}) открыт ровно тем, кто указан в game.toml; игроки могут "
               "писать в своих вкладках приказов" + (f". Предупреждений: {len(warnings)}." if warnings else "."))
    from sheets_bridge.commands.links import links_text
    click.echo(links_text(gd, be, notified=notify))


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--to", "dest", type=click.Path(file_okay=False), default=None,
              help="Папка для файлов (по умолчанию archive/export в папке игры).")
@_errors_to_click
def export(game_dir: str, dest: str | None) -> None:
    """Сохранить все книги игры файлами Excel (.xlsx)."""
    from sheets_bridge.pull import book_name
    from sheets_bridge.stage_common import open_backend
    gd = game_at(game_dir)
    be = open_backend(gd)
    state = gd.latest_state()
    out = Path(dest) if dest else gd.path / "archive" / "export"
    out.mkdir(parents=True, exist_ok=True)
    books = list(gd.config.books.items())
    with progress_bar(books, "Сохраняю книги") as items:
        for key, book_id in items:
            be.export_xlsx(book_id, str(out / f"{key}.xlsx"))
    click.echo(f"Книги ({len(books)}: {', '.join(book_name(state, k) for k, _ in books)}) сохранены в {out}")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("turn_no", type=int)
@click.argument("stage", default="orders")
@click.option("--reopen", is_flag=True,
              help="Открыть этап заново: игроки смогут править восстановленные приказы, этап получит новое "
                   "зерно (старое уже раскрыто). Без флага приказы восстанавливаются закрытыми, и следующий "
                   "turn даст тот же результат с тем же зерном.")
@click.option("--yes", is_flag=True, help="Не спрашивать подтверждения.")
@_errors_to_click
def rollback(game_dir: str, turn_no: int, stage: str, reopen: bool, yes: bool) -> None:
    """Откатить игру к началу этапа ЭТАП (по умолчанию «приказы») хода ХОД.

    Вкладки приказов этого этапа восстанавливаются ровно такими, какими их заполнили игроки, все книги
    обновляются заново; более поздние снимки, зёрна и архивы не удаляются, а откладываются в сторону."""
    from sheets_bridge.stage import rollback as run_rollback
    gd = game_at(game_dir)
    rs = find_ruleset(gd.config.ruleset)
    stage = _stage_id(rs, stage)
    if not yes:
        if not confirm(f"Откатить игру {game_dir} к началу хода {turn_no}, этапа «{rs.stage_title(stage)}»? "
                       "Рассчитанное после этого будет отложено в сторону."):
            click.echo("Отменено: игра не изменена.", err=True)
            sys.exit(1)
    report = run_rollback(gd, turn_no, stage, reopen=reopen, progress=_progress)
    if reopen:
        how = "этап открыт заново: игроки могут править приказы; у этапа новое зерно, его хеш уже в общей книге"
        if gd.config.seed is not None:
            how += (" (игра создана с заданным зерном --seed, поэтому новое зерно выведено из него и номера "
                    f"отката {gd.epoch()}: кости предсказуемы, это не честная игра)")
    else:
        how = ("приказы восстановлены и закрыты: следующий turn рассчитает этап по приказам, поданным к первому "
               "расчёту, с тем же зерном; правки во вкладках приказов фракций не будут прочитаны")
    click.echo(f"Игра откачена к ходу {report.next_turn}, этапу «{rs.stage_title(report.next_stage)}»; обновлено книг: "
               f"{len(report.pushed)}; {how}.")


@main.command("replay")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("turn_no", type=int)
@click.argument("stage", default="orders")
@_errors_to_click
def replay_cmd(game_dir: str, turn_no: int, stage: str) -> None:
    """Пересчитать этап ЭТАП (по умолчанию «приказы») хода ХОД из архива и сравнить с записанным итогом.

    Игра не меняется."""
    from sheets_bridge.stage import replay
    gd = game_at(game_dir)
    same, message = replay(gd, turn_no, _stage_id(find_ruleset(gd.config.ruleset), stage))
    click.echo(message)
    if not same:
        sys.exit(1)


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--turn", "turn_no", type=int, default=None, help="Проверить только этот ход.")
@click.option("--offline", is_flag=True, help="Не читать общую книгу (только файлы игры).")
@click.option("--head", "heads", multiple=True, metavar="ХОД:ЭТАП:ХЕШ",
              help="Цепочка, скопированная из поста на форуме (ХОД:ЭТАП:ХЕШ или только ХЕШ); можно "
                   "несколько раз. Называет первый этап, где история игры расходится с ней.")
@_errors_to_click
def verify(game_dir: str, turn_no: int | None, offline: bool, heads: tuple[str, ...]) -> None:
    """Проверить честность игры: хеши зёрен, пересчёт каждого этапа из архива и цепочку хешей.

    Сверяет файлы игры между собой и с тем, что опубликовано в общей книге («Честность»): каждый хеш
    костей, зерно, соль и цепочку после каждого этапа. С --head сверяет и цепочку из поста на форуме.
    Ничего не записывает. Код выхода 1, если что-то не сходится; каждая ошибка названа один раз, с этапом."""
    from sheets_bridge.backends.base import BackendError
    from sheets_bridge.stage_common import open_backend
    from sheets_bridge.verify import verify as run_verify
    gd = game_at(game_dir)
    be, warnings = None, []
    if not offline:
        try:
            be = open_backend(gd)
        except BackendError as exc:
            warnings.append(f"общая книга недоступна ({exc}); сверяю только файлы игры")
    result = run_verify(gd, turn_no, be, heads)
    result.warnings[:0] = warnings
    if not result.published_read:
        result.warnings.append("общая книга не прочитана: опубликованные хеши и цепочка не сверены")
    for line in result.warnings:
        click.echo(f"предупреждение: {line}")
    for line in result.checked:
        click.echo(line)
    if gd.config.seed is not None:
        click.echo(UNFAIR_NOTICE)
    for line in result.problems:
        click.echo(f"ОШИБКА: {line}", err=True)
    if not result.ok:
        sys.exit(1)
    heads_note = f", цепочек из постов: {len(heads)}" if heads else ""
    click.echo(f"Проверено этапов: {result.stages}{heads_note}; всё сходится.")


@main.command()
@click.argument("dir", default="games/demo", type=click.Path(file_okay=False))
@click.option("--ruleset", "ruleset_name", default=None,
              help="Правила, чьи демо-игроки играют партию (по умолчанию — единственные правила с демо-игроками).")
@click.option("--turns", default=None, type=click.IntRange(1, 1000),
              help="Сколько ходов сыграть (по умолчанию — всю демо-партию).")
@_errors_to_click
def demo(dir: str, ruleset_name: str | None, turns: int | None) -> None:
    """Создать демо-игру: скриптовые игроки заполняют приказы в своих книгах, мастер проверяет и считает ходы."""
    from sheets_bridge.demo import run_demo
    if ruleset_name:
        try:
            find_ruleset(ruleset_name)
        except KeyError as exc:
            raise click.BadParameter(str(ruleset_problem(ruleset_name)), param_hint="--ruleset") from exc
    run_demo(Path(dir), turns=turns, echo=_progress.echo, ruleset=ruleset_name, progress=_progress)


# -- rule sets and battles --------------------------------------------------------------

@main.group()
def ruleset() -> None:
    """Правила игры: какие есть и все их числа."""


@ruleset.command("list")
def ruleset_list() -> None:
    """Перечислить правила: «имя: название» (имя годится для --ruleset)."""
    for name in ruleset_names():
        click.echo(f"{name}: {find_ruleset(name).title}")


@ruleset.command("dump")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True,
              help="Вывести все данные в JSON (без флага — сколько записей в разделе).")
def ruleset_dump(name: str, as_json: bool) -> None:
    """Показать все числа файлов данных правил ПРАВИЛА (имя или псевдоним)."""
    try:
        rs = find_ruleset(name)
    except KeyError as exc:
        raise click.BadParameter(str(ruleset_problem(name)), param_hint="ПРАВИЛА") from exc
    data = rs.dump_data()
    if as_json:
        _echo_json(data)
        return
    click.echo(f"Правила «{rs.title}»: разделы данных и число записей (все числа: --json)")
    for section, items in data.items():
        size = len(items) if hasattr(items, "__len__") else ""
        click.echo(f"  {section}: {size}")


# Titania: one turn from a situation file (the command lives in commands/adjudicate.py)
main.add_command(adjudicate_command)
main.add_command(battle_command)      # a battle's odds over many runs (commands/battle.py)
main.add_command(post_command)        # the turn's forum posts (commands/post.py)
main.add_command(map_command)         # the map picture and the charts' table (commands/map.py)
main.add_command(charts_command)
for _kind in all_kinds():               # each backend's own commands (gsheets: login, logout) and options
    for _command in _kind.commands():
        main.add_command(_command)
    new.params += _kind.command_options("new")
    share.params += _kind.command_options("share")


def run() -> None:
    """The `forumwar` program: a console that degrades on legacy code pages, then the commands."""
    from sheets_bridge import console
    console.install()
    main()


if __name__ == "__main__":
    run()
