"""`forumwar map GAME [--turn N] [--faction F] -o map.png` and `forumwar charts GAME [--csv FILE]`.

The map of a turn is drawn from the turn's last snapshot (the latest one without --turn), with the
markers of the turn of the stage that resolved into it (`pictures.events_into`: one star per place, which
the message counts, and the legend says which turn they are of: «бой этого хода» or «бой хода 2») and,
for a faction's map, the orders that faction gave in that snapshot's stage when they are archived
(`pictures.faction_orders`, passed to `MapData.picture`).
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from engine import find_ruleset
from engine.ruleset import Ruleset
from sheets_bridge.atomic import atomic_write_bytes
from sheets_bridge.cli_text import game_at
from sheets_bridge.commands.errors import errors_to_click
from sheets_bridge.gamedir import GameDir


def _snapshot(gd: GameDir, turn: int | None) -> Path:
    """The last snapshot of `turn` (the latest snapshot when None)."""
    snapshots = gd.snapshots()
    if not snapshots:
        raise click.ClickException("в игре нет ни одного снимка состояния: она не начата")
    if turn is None:
        return snapshots[-1]
    of_turn = [p for p in snapshots if int(p.stem.split("-")[1]) == turn]
    if not of_turn:
        turns = sorted({int(p.stem.split("-")[1]) for p in snapshots})
        raise click.BadParameter(f"хода {turn} в игре нет; есть ходы {turns[0]}–{turns[-1]}", param_hint="--turn")
    return of_turn[-1]


def _save(path: Path, data: bytes, what: str) -> None:
    """Write the command's file where the user asked (its folder made if missing); a place they cannot
    write is told in Russian."""
    from sheets_bridge.commands.errors import os_problem
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
    except OSError as exc:
        raise click.ClickException(f"не удалось сохранить {what} в {path}: {os_problem(exc)}; укажите файл в "
                                   "папке, куда вы можете писать") from None


def _faction(rs: Ruleset, state: Mapping[str, Any], given: str) -> str:
    """A faction id from its display name or id (case and «ё» ignored)."""
    names = {f.id: f.name for f in rs.summary(state).factions}

    def norm(text: str) -> str:
        return text.strip().lower().replace("ё", "е")

    for fid, name in names.items():
        if norm(given) in (norm(fid), norm(name)):
            return fid
    raise click.BadParameter(f"нет фракции «{given}»; фракции игры: {', '.join(names.values())}",
                             param_hint="--faction")


@click.command("map")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--turn", "turn_no", type=click.IntRange(0), default=None,
              help="Ход, чью карту рисовать (по умолчанию — текущий).")
@click.option("--faction", default=None,
              help="Фракция (название или идентификатор): её карта с её приказами стрелками; без него — общая карта.")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="Куда сохранить рисунок PNG.")
@errors_to_click()
def map_command(game_dir: str, turn_no: int | None, faction: str | None, output: str) -> None:
    """Нарисовать карту игры в PNG: владельцы городов или провинций цветом, размер и уровень, дороги и
    море, руины, бои (в легенде сказано, какого хода), легенда.

    Карта фракции показывает только то, что видно в её книге, и её собственные приказы стрелками."""
    gd = game_at(game_dir)
    state, rs, fid, picture, drawing = gd.read(lambda: _drawn(gd, turn_no, faction))
    _save(Path(output), drawing.png, "рисунок")
    whose = "общая" if fid is None else f"фракции {picture.factions.get(fid, fid)}"
    click.echo(f"Карта ({whose}) хода {state['turn']}, этапа «{rs.stage_title(str(state['stage']))}» "
               f"сохранена в {output}: мест {len(picture.places)}, отмечено боёв {len(drawing.marks)}, "
               f"стрелок-приказов {len(drawing.arrows)}.")


def _drawn(gd: GameDir, turn_no: int | None, faction: str | None) -> tuple[dict[str, Any], Ruleset, str | None,
                                                                      Any, Any]:
    """The map asked for, drawn from the game as read (inside `GameDir.read`): the snapshot's state, its
    rule set, the faction (None: the common map), the picture and its drawing."""
    from sheets_bridge.map_drawing import draw_map
    from sheets_bridge.pictures import events_into, faction_orders, map_title
    path = _snapshot(gd, turn_no)
    state = json.loads(path.read_text(encoding="utf-8"))
    rs = find_ruleset(str(state["ruleset"]))
    maps = rs.map_data()
    if maps is None:
        raise click.ClickException(f"правила «{rs.title}» не рисуют карту")
    fid = _faction(rs, state, faction) if faction is not None else None
    orders = faction_orders(gd, rs, state, fid) if fid is not None else None
    picture = maps.picture(state, fid, orders=orders, events=events_into(gd, path.stem))
    return state, rs, fid, picture, draw_map(picture, map_title(rs, state, fid), viewer=fid)


@click.command("charts")
@click.argument("game_dir", type=click.Path(exists=True, file_okay=False))
@click.option("--csv", "csv_file", default=None, type=click.Path(dir_okay=False),
              help="Сохранить таблицу в CSV (UTF-8, открывается в Excel и LibreOffice).")
@errors_to_click()
def charts_command(game_dir: str, csv_file: str | None) -> None:
    """Таблица фракций ход за ходом: доход, казна, армия, города или провинции.

    Без --csv печатает таблицу; графики каждой фракции (PNG) лежат в архиве хода и в книге мастера."""
    from sheets_bridge.charts import turn_table
    gd = game_at(game_dir)
    table = gd.read(lambda: turn_table(gd))
    if csv_file is None:
        click.echo(table.to_string(index=False))
        return
    _save(Path(csv_file), table.to_csv(index=False).encode("utf-8-sig"), "таблицу")
    click.echo(f"Таблица сохранена в {csv_file}: строк {len(table)} (ходов {table['Ход'].nunique()}, "
               f"фракций {table['Фракция'].nunique()}).")
