"""The pictures of an opened stage: the public map and every faction's charts.

Drawn from the opened snapshot (and, for the map, the events of the stage that resolved into it, when
archived), they are archived as PNG beside the stage's exports (`map-STAGE.png`, `charts-STAGE-FACTION.png`
in archive/turn-NNNN/; `map-start.png` for a new game) and put in the public book (the map) and the GM
book (the charts) by a backend that can (`put_pictures`: the xlsx one). On Google Sheets the GM is told
where the pictures are and how to paste them. Every step rewrites the same bytes, so re-running an
interrupted opening is harmless.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine import find_ruleset
from engine.ruleset import Ruleset
from sheets_bridge.atomic import atomic_write_bytes
from sheets_bridge.backends.base import Backend, PutsPictures
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage_common import Progress, noop

MAP_TAB = "Рисунок карты"
CHARTS_TAB = "Графики"
MAP_NOTE = "Карта после этапа: цвет — владелец, звезда — бой этого хода. Таблица — во вкладке рядом."
CHARTS_NOTE = "Графики фракций ход за ходом (доход, казна, армия, владения); таблицу выгружает forumwar charts."
PASTE_HINT = ("в Google-таблице откройте книгу, выберите «Вставка → Изображение → Изображение поверх ячеек» "
              "и загрузите этот файл")


def map_title(rs: Ruleset, state: Mapping[str, Any], faction: str | None = None) -> str:
    """«Война Нефритовой Розы: ход 2, приказы — общая карта» (or «— карта фракции Империя»)."""
    whose = "общая карта"
    if faction is not None:
        names = {f.id: f.name for f in rs.summary(state).factions}
        whose = f"карта фракции {names.get(faction, faction)}"
    return f"{rs.title}: ход {state['turn']}, {rs.stage_title(str(state['stage']))} — {whose}"


def events_into(gd: GameDir, key: str) -> list[dict[str, Any]]:
    """The archived events of the stage that resolved into the snapshot `key` (none if not archived)."""
    keys = [p.stem for p in gd.snapshots()]
    if key not in keys or keys.index(key) == 0:
        return []
    before = keys[keys.index(key) - 1]
    turn, stage = int(before[len("turn-"):].split("-", 1)[0]), before.split("-", 2)[2]
    path = gd.archive_path(turn) / f"events-{stage}.json"
    if not path.is_file():
        return []
    events = json.loads(path.read_text(encoding="utf-8"))
    return [e for e in events if isinstance(e, dict)] if isinstance(events, list) else []


def public_map(rs: Ruleset, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> bytes | None:
    maps = rs.map_data()
    if maps is None:
        return None
    from sheets_bridge.map_drawing import draw_map
    return draw_map(maps.picture(state, None, events=events), map_title(rs, state)).png


def faction_charts(gd: GameDir, rs: Ruleset, state: Mapping[str, Any]) -> dict[str, bytes]:
    """Faction id -> its charts PNG over every turn so far."""
    from sheets_bridge.charts import charts, turn_table
    names = {f.id: f.name for f in rs.summary(state).factions}
    return charts(turn_table(gd), {fid: names.get(fid, fid) for fid in rs.factions(state)})


def publish(gd: GameDir, be: Backend, key: str, archive: Path | None, stage: str | None,
            progress: Progress = noop, with_charts: bool = True) -> None:
    """Draw, archive (when `archive` and `stage` say where) and put in the books the pictures of the
    opened snapshot `key`. The charts change only when a turn opens (their rows are each turn's first
    snapshot): `with_charts=False` leaves the ones already drawn."""
    turn, snapshot_stage = int(key[len("turn-"):].split("-", 1)[0]), key.split("-", 2)[2]
    put = be.put_pictures if isinstance(be, PutsPictures) else None
    if put is None and (archive is None or stage is None):
        return
    state = gd.read_snapshot(turn, snapshot_stage)
    rs = find_ruleset(str(state["ruleset"]))
    png = public_map(rs, state, events_into(gd, key))
    charts = faction_charts(gd, rs, state) if with_charts else {}
    books = gd.config.books
    saved: list[Path] = []
    if archive is not None and stage is not None:
        if png is not None:
            saved.append(archive / f"map-{stage}.png")
            atomic_write_bytes(saved[-1], png)
        for fid, chart in charts.items():
            saved.append(archive / f"charts-{stage}-{fid}.png")
            atomic_write_bytes(saved[-1], chart)
    if put is not None:
        if png is not None and "public" in books:
            put(books["public"], MAP_TAB, [png], MAP_NOTE)
        if charts and "gm" in books:
            put(books["gm"], CHARTS_TAB, list(charts.values()), CHARTS_NOTE)
        if png is not None or charts:
            progress("рисунок карты и графики добавлены в общую книгу и книгу мастера")
    elif saved:
        if png is not None:
            progress(f"рисунок карты: {saved[0]}; {PASTE_HINT} (общая книга, вкладка «{MAP_TAB}»)")
        if charts:
            progress(f"графики фракций: {archive}/charts-{stage}-*.png; {PASTE_HINT} "
                     f"(книга мастера, вкладка «{CHARTS_TAB}»)")
