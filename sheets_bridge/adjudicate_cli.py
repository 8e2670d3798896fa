"""`forumwar adjudicate FILE.json [--seed S] [--json | --report]`: one Titania turn (SCHEMA.md)."""
from __future__ import annotations

import json
import sys

import click


def _seed(value: str) -> int | str:
    return int(value) if value.lstrip("-").isdigit() else value


@click.command("adjudicate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", default="0", show_default=True,
              help="Зерно случайности для всего, что файл не задаёт через dice и choices.")
@click.option("--json", "as_json", is_flag=True, help="Итог в JSON (titania.adjudicate.v1).")
@click.option("--report", "as_report", is_flag=True, help="Отчёт по-русски: приказ за приказом, бой за боем "
                                                          "(по умолчанию).")
def adjudicate(file: str, seed: str, as_json: bool, as_report: bool) -> None:
    """Разобрать один ход «Титании» по файлу ситуации FILE.json.

    Файл описывает карту, фракции, состояние и приказы (схема titania.adjudicate.v1). Команда ничего не
    спрашивает: броски, которые файл не задаёт, берутся из зерна --seed. Выход 0 — разбор готов,
    1 — файл не принят (список ошибок), 2 — неверный вызов.
    """
    if as_json and as_report:
        raise click.UsageError("укажите --json или --report, но не оба сразу.")
    from engine.titania.adjudicate import adjudicate as run
    from engine.titania.report import render
    try:
        with open(file, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        click.echo(f"Ошибка: не удаётся прочитать {file}: {exc.strerror or exc}", err=True)
        sys.exit(1)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        click.echo(f"Ошибка: {file} — это не JSON в UTF-8 ({exc}).", err=True)
        sys.exit(1)
    result = run(data, _seed(seed))
    if result.output is None:
        click.echo(f"Файл {file} не принят:", err=True)
        for problem in result.problems:
            click.echo(f"  • {problem}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result.output, ensure_ascii=False, indent=1))
    else:
        click.echo(render(result, seed), nl=False)
