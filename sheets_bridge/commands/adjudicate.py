"""`forumwar adjudicate FILE.json [--seed S] [--json | --report]`: one situation file settled by the rule
set whose `adjudicator()` capability reads the file's schema (Titania: titania.adjudicate.v1, SCHEMA.md)."""
from __future__ import annotations

import json
import sys
from typing import Any

import click

from engine import find_ruleset, ruleset_names
from engine.ruleset import Adjudicator, SituationGames
from sheets_bridge.scenarios import ScenarioError
from sheets_bridge.stage_common import StageError, os_error_text


def _adjudicator(data: object) -> Adjudicator:
    """The capability of the rule set whose schema the file names (the only one when it names none)."""
    able = {rs.name: a for rs in (find_ruleset(n) for n in ruleset_names()) if (a := rs.adjudicator()) is not None}
    schema = data.get("schema") if isinstance(data, dict) else None
    for adjudicator in able.values():
        if schema in (adjudicator.schema, *adjudicator.schemas):
            return adjudicator
    if len(able) == 1 and schema is None:
        return next(iter(able.values()))
    known = ", ".join(a.schema for a in able.values())
    click.echo(f"Ошибка: схема файла «{schema}» не знакома ни одному набору правил; известны: {known}.", err=True)
    sys.exit(1)


def _seed(value: str) -> int | str:
    return int(value) if value.lstrip("-").isdigit() else value


@click.command("adjudicate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", default="0", show_default=True,
              help="Зерно случайности для всего, что файл не задаёт через dice и choices.")
@click.option("--json", "as_json", is_flag=True, help="Итог в JSON (titania.adjudicate.v1).")
@click.option("--report", "as_report", is_flag=True, help="Отчёт по-русски: приказ за приказом, бой за боем "
                                                          "(по умолчанию).")
@click.option("--through-books", "through_books", is_flag=True,
              help="Сыграть ход через книги фракций, как игроки: игра из ситуации (во временной папке, книги "
                   "Excel), приказы вписаны строками во вкладки приказов, затем check и turn; итог читается из "
                   "игры. Вывод — тот же, что без этого флага (только --json).")
def adjudicate(file: str, seed: str, as_json: bool, as_report: bool, through_books: bool) -> None:
    """Разобрать один ход «Титании» по файлу ситуации ФАЙЛ (JSON).

    Файл описывает карту, фракции, состояние и приказы (схема titania.adjudicate.v1 или .v2). Команда ничего не
    спрашивает: броски, которые файл не задаёт, берутся из зерна --seed. Выход 0 — разбор готов,
    1 — файл не принят (список ошибок) или, с --through-books, проверка и ход разошлись в вердикте строки,
    2 — неверный вызов.
    """
    if as_json and as_report:
        raise click.UsageError("укажите --json или --report, но не оба сразу.")
    if through_books and not as_json:
        raise click.UsageError("--through-books отвечает только в JSON: добавьте --json.")
    try:
        with open(file, encoding="utf-8-sig") as fh:     # Notepad's BOM is not part of the JSON
            data = json.load(fh)
    except OSError as exc:
        click.echo(f"Ошибка: не удаётся прочитать {file}: {os_error_text(exc)}.", err=True)
        sys.exit(1)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        click.echo(f"Ошибка: {file} — это не JSON в UTF-8 ({exc}).", err=True)
        sys.exit(1)
    adjudicator = _adjudicator(data)
    if through_books:
        _through_books(file, data, _seed(seed))
        return
    result = adjudicator.adjudicate(data, _seed(seed))
    if result.output is None:
        click.echo(f"Файл {file} не принят:", err=True)
        for problem in result.problems:
            click.echo(f"  • {problem}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result.output, ensure_ascii=False, indent=1))
    else:
        click.echo(result.report, nl=False)


def _through_books(file: str, data: dict[str, Any], seed: int | str) -> None:
    """`--through-books`: the answer read from a game played through its books (sheets_bridge.through_books)."""
    from sheets_bridge.through_books import play
    able = [rs for rs in (find_ruleset(n) for n in ruleset_names()) if isinstance(rs.adjudicator(), SituationGames)]
    schema = data.get("schema")
    rs = next((r for r in able if schema in (getattr(r.adjudicator(), "schemas", ()))), able[0] if able else None)
    if rs is None:
        click.echo("Ошибка: ни одни правила не играют ситуацию через книги.", err=True)
        sys.exit(1)
    try:
        played = play(rs, data, seed)
    except (StageError, ScenarioError) as exc:
        click.echo(f"Ошибка: {exc}", err=True)
        sys.exit(1)
    if played.output is None:
        click.echo(f"Файл {file} не сыгран через книги:", err=True)
        for problem in played.problems:
            click.echo(f"  • {problem}", err=True)
        sys.exit(1)
    click.echo(json.dumps(played.output, ensure_ascii=False, indent=1))
    if played.mismatches:
        click.echo("Проверка и ход разошлись в вердиктах строк:", err=True)
        for line in played.mismatches:
            click.echo(f"  • {line}", err=True)
        sys.exit(1)
