"""The `forumwar` command line (click). Exit codes: 0 ok, 1 error, 2 usage."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from engine import find_ruleset, ruleset_names


def _echo_json(obj) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=1, sort_keys=False))


def _game(path: str):
    from sheets_bridge.gamedir import GameDir
    p = Path(path)
    if not (p / "game.toml").exists():
        raise click.ClickException(f"{path} is not a forumwar game directory (no game.toml); create one with 'forumwar new'")
    return GameDir(p)


def _progress(msg: str) -> None:
    click.echo(f"  {msg}", err=True)


def _errors_to_click(fn):
    """Turn expected failures into click errors (exit 1) with their message."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from sheets_bridge.backend import BackendError
        from sheets_bridge.stage_common import StageError
        from sheets_bridge import gamedir
        expected = (StageError, BackendError, gamedir.GameDirError)
        try:
            return fn(*args, **kwargs)
        except expected as exc:
            raise click.ClickException(str(exc)) from exc
    return wrapper


@click.group()
@click.version_option(package_name="forumwar")
def main() -> None:
    """forumwar: game-master backend for forum strategy games (rule set: jade_rose)."""


# -- games -----------------------------------------------------------------------------

@main.command()
@click.argument("game_dir", type=click.Path(file_okay=False))
@click.option("--ruleset", "ruleset", default="jade_rose", show_default=True, help="Rule set name or alias.")
@click.option("--scenario", default="demo", show_default=True, help="Scenario name in templates/<ruleset>/scenarios or a .toml path.")
@click.option("--backend", type=click.Choice(["xlsx", "gsheets"]), default="xlsx", show_default=True)
@click.option("--seed", default=None, help="Master seed for a reproducible game (default: fresh random seeds).")
@click.option("--title", default=None, help="Game title shown in the books.")
@click.option("--book", "books", multiple=True, metavar="KEY=SPREADSHEET",
              help="gsheets: use a spreadsheet the GM created (key or URL) for a book; KEY is a faction id, "
                   "'public' or 'gm'. Repeat for every book.")
@click.option("--folder", default=None, help="gsheets: shared-drive folder id where missing books are created.")
@click.option("--credentials", default=None, type=click.Path(dir_okay=False),
              help="gsheets: service-account key file (default: $FORUMWAR_CREDENTIALS or credentials.json).")
@_errors_to_click
def new(game_dir, ruleset, scenario, backend, seed, title, books, folder, credentials):
    """Create a game directory and its books from a scenario."""
    from sheets_bridge.create import create_game
    try:
        find_ruleset(ruleset)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="--ruleset")
    book_ids = {}
    for item in books:
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise click.BadParameter(f"{item!r}: expected KEY=SPREADSHEET_KEY_OR_URL", param_hint="--book")
        book_ids[key.strip()] = value.strip()
    if book_ids and backend != "gsheets":
        raise click.BadParameter("--book needs --backend gsheets", param_hint="--book")
    gd = create_game(Path(game_dir), ruleset, scenario, backend=backend, seed=seed, title=title,
                     book_ids=book_ids or None, progress=_progress, credentials=credentials, folder_id=folder)
    click.echo(f"Created {gd.config.ruleset} game in {game_dir} with {len(gd.config.books)} books ({backend}).")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@_errors_to_click
def check(game_dir):
    """Validate the open stage's orders and write each row's status; resolve nothing."""
    from sheets_bridge.stage import check as run_check
    report = run_check(_game(game_dir), progress=_progress)
    for fid, (ok, bad) in report.counts().items():
        click.echo(f"{fid}: {ok} rows OK, {bad} rows with errors")
    for p in report.problems:
        click.echo(f"problem: {p}")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@_errors_to_click
def turn(game_dir):
    """Close the open stage: pull, validate, resolve, push, archive."""
    from sheets_bridge.stage import run_turn
    gd = _game(game_dir)
    report = run_turn(gd, progress=_progress)
    rs = find_ruleset(gd.latest_state()["ruleset"])
    closed, opened = rs.stage_title(report.stage), rs.stage_title(report.next_stage)
    if report.kind == "rollback":
        click.echo(f"Дозавершён откат к ходу {report.next_turn}, этапу «{opened}»; книги обновлены.")
    else:
        what = "дозавершён после сбоя" if report.resumed else "рассчитан"
        click.echo(f"Ход {report.turn}, этап «{closed}» {what}; теперь ход {report.next_turn}, этап «{opened}».")
    from sheets_bridge.pull import book_name
    state = gd.latest_state()
    for fid, (ok, bad) in report.counts().items():
        click.echo(f"  {book_name(state, fid)}: приказов принято {ok}, отклонено {bad}")
    for p in report.problems:
        click.echo(f"  проблема: {p}")
    if report.next_stage == "planning":
        click.echo("Бои требуют планирования: каждая сторона видит расстановку противника во вкладке «Разведка» "
                   "и заполняет «Манёвры»; в дедлайн планирования снова запустите turn.")
    elif report.next_stage == "finished":
        click.echo("Игра окончена: победителей покажет forumwar status.")
    click.echo(f"Архив: {report.archive}")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@_errors_to_click
def status(game_dir, as_json):
    """Turn, stage, era, and per faction balances, resources, cities and units."""
    gd = _game(game_dir)
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    info = rs.summary(state)
    info["awaiting"] = rs.awaiting(state)
    info["books"] = dict(gd.config.books)
    info["fair_dice"] = gd.config.seed is None
    if as_json:
        _echo_json(info)
        return
    click.echo(f"{rs.title}: turn {info['turn']}, stage {info['stage']}, era {info.get('era')}")
    if gd.config.seed is not None:
        click.echo("Зерно задано при создании (--seed): кости предсказуемы, не для честной игры.")
    for fid, f in info["factions"].items():
        res = ", ".join(f"{k} {v}" for k, v in f.get("resources", {}).items())
        flag = " (eliminated)" if f.get("eliminated") else (" (won)" if f.get("won") else "")
        click.echo(f"- {f['name']}{flag}: gold {f['gold']}{'; ' + res if res else ''}; "
                   f"{len(f['cities'])} cities; {sum(f['units'].values())} units")
        for note in info["awaiting"].get(fid, []):
            click.echo(f"    awaiting: {note}")


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--notify", is_flag=True, help="Send Google's notification e-mails (off by default).")
@click.option("--revoke", is_flag=True, help="Also remove access of people who are not in game.toml.")
@click.option("--credentials", default=None, type=click.Path(dir_okay=False), help="Service-account key file.")
@_errors_to_click
def share(game_dir, notify, revoke, credentials):
    """Share each book with exactly the people in game.toml, let them edit their order tabs, report anyone else."""
    gd = _game(game_dir)
    if gd.config.backend != "gsheets":
        click.echo("This game uses local xlsx books: hand each faction its own file from the books/ folder "
                   "(the public book to everyone, the GM book to nobody).")
        return
    from sheets_bridge.create import share_books
    from sheets_bridge.gsheets_backend import backend_for_game
    warnings = share_books(gd, backend_for_game(gd, credentials), notify=notify, revoke=revoke)
    for warning in warnings:
        click.echo(f"warning: {warning}")
    click.echo(f"Shared {len(gd.config.books)} books" + (f" with {len(warnings)} warnings." if warnings else "."))


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--to", "dest", type=click.Path(file_okay=False), default=None, help="Directory (default: archive/export).")
@_errors_to_click
def export(game_dir, dest):
    """Export every book of the game as .xlsx files."""
    from sheets_bridge.stage_common import open_backend
    gd = _game(game_dir)
    be = open_backend(gd)
    out = Path(dest) if dest else gd.path / "archive" / "export"
    out.mkdir(parents=True, exist_ok=True)
    with click.progressbar(list(gd.config.books.items()), label="exporting") as items:
        for key, book_id in items:
            be.export_xlsx(book_id, str(out / f"{key}.xlsx"))
    click.echo(f"Exported {len(gd.config.books)} books to {out}")


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
def rollback(game_dir, turn_no, stage, reopen, yes):
    """Откатить игру к началу этапа STAGE хода TURN_NO.

    Вкладки приказов этого этапа восстанавливаются ровно такими, какими их заполнили игроки, все книги
    обновляются заново; более поздние снимки, зёрна и архивы не удаляются, а откладываются в сторону."""
    from sheets_bridge.stage import rollback as run_rollback
    gd = _game(game_dir)
    rs = find_ruleset(gd.config.ruleset)
    if not yes:
        click.confirm(f"Откатить игру {game_dir} к началу хода {turn_no}, этапа «{rs.stage_title(stage)}»? Рассчитанное "
                      f"после этого будет отложено в сторону", abort=True)
    report = run_rollback(gd, turn_no, stage, reopen=reopen, progress=_progress)
    how = ("этап открыт заново: игроки могут править приказы; у этапа новое зерно"
           if reopen else "приказы восстановлены и закрыты: следующий turn рассчитает их с тем же зерном")
    click.echo(f"Игра откачена к ходу {report.next_turn}, этапу «{rs.stage_title(report.next_stage)}»; обновлено книг: "
               f"{len(report.pushed)}; {how}.")


@main.command("replay")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.argument("turn_no", type=int)
@click.argument("stage", default="orders")
@_errors_to_click
def replay_cmd(game_dir, turn_no, stage):
    """Пересчитать рассчитанный этап из архива и сравнить с записанным результатом (игра не меняется)."""
    from sheets_bridge.stage import replay
    same, message = replay(_game(game_dir), turn_no, stage)
    click.echo(message)
    if not same:
        sys.exit(1)


@main.command()
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--turn", "turn_no", type=int, default=None, help="Проверить только этот ход.")
@click.option("--offline", is_flag=True, help="Не читать общую книгу (только файлы игры).")
@_errors_to_click
def verify(game_dir, turn_no, offline):
    """Проверить честность игры: хеши зёрен, пересчёт каждого этапа из архива и цепочку хешей.

    Ничего не записывает. Код выхода 1, если что-то не сходится; каждая ошибка называет этап."""
    from sheets_bridge.stage_common import open_backend
    from sheets_bridge.verify import verify as run_verify
    from sheets_bridge.backend import BackendError
    gd = _game(game_dir)
    be, warnings = None, []
    if not offline:
        try:
            be = open_backend(gd)
        except BackendError as exc:
            warnings.append(f"общая книга недоступна ({exc}); сверяю только файлы игры")
    result = run_verify(gd, turn_no, be)
    result.warnings[:0] = warnings
    for line in result.warnings:
        click.echo(f"предупреждение: {line}")
    for line in result.checked:
        click.echo(line)
    if gd.config.seed is not None:
        click.echo("Внимание: игра создана с --seed, её кости предсказуемы (не для честной игры).")
    for line in result.problems:
        click.echo(f"ОШИБКА: {line}", err=True)
    if not result.ok:
        sys.exit(1)
    click.echo(f"Проверено этапов: {len(result.checked)}; всё сходится.")


@main.command()
@click.argument("dir", default="games/demo", type=click.Path(file_okay=False))
@click.option("--turns", default=9, show_default=True, help="How many turns the scripted demo plays (9 = to Midnight).")
@_errors_to_click
def demo(dir, turns):
    """Create a demo game, fill scripted orders as players would, check and play a few turns."""
    from sheets_bridge.demo import run_demo
    run_demo(Path(dir), turns=turns, echo=click.echo)


# -- rule sets and battles --------------------------------------------------------------

@main.group()
def ruleset():
    """Inspect rule sets."""


@ruleset.command("list")
def ruleset_list():
    """List the rule sets."""
    for name in ruleset_names():
        click.echo(f"{name}: {find_ruleset(name).title}")


@ruleset.command("dump")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the default is a short table).")
def ruleset_dump(name, as_json):
    """Print every number of a rule set's data files."""
    try:
        rs = find_ruleset(name)
    except KeyError as exc:
        raise click.BadParameter(str(exc.args[0]), param_hint="NAME")
    data = rs.dump_data()
    if as_json:
        _echo_json(data)
        return
    for section, items in data.items():
        size = len(items) if hasattr(items, "__len__") else ""
        click.echo(f"{section}: {size}")


@main.command()
@click.argument("file", type=click.File("r", encoding="utf-8"), required=False)
@click.option("--runs", default=1000, show_default=True, type=click.IntRange(1, 10_000_000))
@click.option("--seed", default=1, show_default=True, type=int)
@click.option("--json", "as_json", is_flag=True, help="Print odds as JSON.")
@click.option("--report", is_flag=True, help="Print the full report of one battle (use with --runs 1).")
@click.option("--bbcode", is_flag=True, help="Render the report as forum BBCode.")
@click.option("--example", is_flag=True,
              help="Вывести пример файла боя, который поставляется с forumwar: сохраните его "
                   "(forumwar battle --example > бой.json) и впишите свои отряды.")
def battle(file, runs, seed, as_json, report, bbcode, example):
    """Simulate one battle described in a JSON FILE and print the odds or a report."""
    if example or file is None:
        if file is not None or not example:
            raise click.UsageError("укажите файл боя FILE или --example (пример файла), но не то и другое вместе.")
        from sheets_bridge.layouts import TEMPLATES
        click.echo(TEMPLATES.joinpath("jade_rose", "battles", "example.json").read_text(encoding="utf-8"), nl=False)
        return
    try:
        spec = json.load(file)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{file.name}: not valid JSON ({exc})")
    try:
        rs = find_ruleset(spec.get("ruleset", "jade_rose") if isinstance(spec, dict) else "jade_rose")
    except KeyError as exc:
        raise click.ClickException(str(exc.args[0]))
    from engine.errors import SpecError
    try:
        if report or bbcode:
            click.echo(rs.battle_report(spec, seed, bbcode=bbcode))
            if runs == 1:
                return
        result = rs.simulate_battle(spec, runs, seed)
    except SpecError as exc:
        for problem in exc.problems:
            click.echo(f"Ошибка: {problem}", err=True)
        sys.exit(1)
    if as_json:
        _echo_json(result)
    else:
        click.echo(f"runs {result['runs']}, seed {result['seed']}: attacker wins {result['attacker_win']:.3f}, "
                   f"defender wins {result['defender_win']:.3f}, mean rounds {result['mean_rounds']:.1f}")
        for side in ("attacker", "defender"):
            surv = ", ".join(f"{k} {v:.1f}" for k, v in result["survivors"][side].items())
            click.echo(f"  {side} survivors (mean): {surv or '-'}")


if __name__ == "__main__":
    main()
