"""The pictures of an opened stage: the public map, every faction's own map and every faction's charts.

Drawn from the opened snapshot (and, for the maps, the archived events of the turn of the stage that resolved
into it: its battles are the stars, told in the legend and the book's note as that turn's, `events_into`),
they are archived as PNG beside the stage's exports (`map-STAGE.png`, `map-STAGE-FACTION.png`,
`charts-STAGE-FACTION.png` in archive/turn-NNNN/; `…-start…` for a new game) and put in the books by the
backend (`PutsPictures`; xlsx embeds them, Google links a Drive file only the book's people may open): the
public map in the public book, each faction's map in its own book (tab «Рисунок карты»), the charts in the
GM book. Where the backend can keep no picture (PicturesNotStored: Google without a
Drive for them), the GM is told why, where the pictures are, and how to paste them. Every step rewrites the
same bytes, so re-running an interrupted opening is harmless.

A faction's map is what the rule set's `map_data` lets that faction see (its fog of war) with its own
orders as arrows: those it gave in the stage that just resolved (as the turn parsed them, handed over by
`turn`; else the archived orders as read, parsed again against the state they were given in) and any the
new state itself shows as the faction's (Jade Rose's declared attacks waiting for their battle).

The pictures are drawn with Pillow (map_drawing, charts), by one painter of each kind sharing what the maps
of a stage share: every map is drawn over the public one (`MapPainter.draw`'s base), whose ground, stars and
labels are drawn once per stage; a faction's map weighs and draws only what differs (its arrows, the labels
of what it alone sees and of what its arrows displace, its legend and title). Where the backend
sends each picture as it comes (Google), a big stage's are drawn in parallel by forked workers (as the
battle simulator's runs are) where the system forks, while this process sends those drawn; a small
stage's, and every stage's where the backend holds the pictures for the books' writes (`HoldsPictures`:
xlsx; opening.py draws them before the push), here. The archive and the books get each picture in the
jobs' order, as soon as it is drawn. `[pictures] draw = false` in game.toml draws nothing (and, once, clears
the pictures the last opening put in the books).
"""
from __future__ import annotations

import dataclasses
import gc
import json
import multiprocessing as mp
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import find_ruleset
from engine.ruleset import MapData, MapPicture, ParsedOrders, Ruleset
from sheets_bridge.atomic import atomic_write_bytes
from sheets_bridge.backends.base import Backend, HoldsPictures, PicturesNotStored, PutsPictures
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage_common import Progress, Step, noop

if TYPE_CHECKING:
    from sheets_bridge.charts import ChartPainter
    from sheets_bridge.map_drawing import MapPainter

MAP_TAB = "Рисунок карты"
CHARTS_TAB = "Графики"
MAP_NOTE = "Карта после этапа: цвет — владелец. Таблица — во вкладке рядом."
FACTION_MAP_NOTE = "Карта вашей фракции после этапа: цвет — владелец, стрелки — ваши приказы; на ней то, что видите вы."
CHARTS_NOTE = "Графики фракций ход за ходом (доход, казна, армия, владения); таблицу выгружает forumwar charts."
OFF_NOTE = "Рисунки карт и графики выключены мастером игры ([pictures] draw = false в game.toml)."
PASTE_HINT = ("в Google-таблице откройте книгу, выберите «Вставка → Изображение → Изображение поверх ячеек» "
              "и загрузите этот файл")


def map_note(faction: bool, battles: str | None = None) -> str:
    """The note above a map in its book: the public one or a faction's, with what its stars are when it has
    any (`map_drawing.battles_title`: «бой хода 2» on the map that opens turn 3, never «этого хода»)."""
    if battles is None:
        return FACTION_MAP_NOTE if faction else MAP_NOTE
    if faction:
        return (f"Карта вашей фракции после этапа: цвет — владелец, звезда — {battles}, стрелки — ваши приказы; на "
                "ней то, что видите вы.")
    return f"Карта после этапа: цвет — владелец, звезда — {battles}. Таблица — во вкладке рядом."


def map_title(rs: Ruleset, state: Mapping[str, Any], faction: str | None = None,
              names: Mapping[str, str] | None = None) -> str:
    """«Война Нефритовой Розы: ход 2, приказы — общая карта» (or «— карта фракции Империя»); `names`: the
    factions' display names by id, when known (else the rule set's summary of `state` tells them)."""
    whose = "общая карта"
    if faction is not None:
        if names is None:
            names = {f.id: f.name for f in rs.summary(state).factions}
        whose = f"карта фракции {names.get(faction, faction)}"
    return f"{rs.title}: ход {state['turn']}, {rs.stage_title(str(state['stage']))} — {whose}"


def _stem(key: str) -> tuple[int, str]:
    turn, stage = key[len("turn-"):].split("-", 1)
    return int(turn), stage


def closed_stage(gd: GameDir, key: str) -> tuple[int, str] | None:
    """(turn, stage) of the snapshot before `key`: the stage that resolved into it (None for the first)."""
    keys = [p.stem for p in gd.snapshots()]
    if key not in keys or keys.index(key) == 0:
        return None
    return _stem(keys[keys.index(key) - 1])


def events_into(gd: GameDir, key: str) -> list[dict[str, Any]]:
    """The archived events of the turn of the stage that resolved into the snapshot `key`: of every stage of
    that turn resolved before `key` (none if not archived), each with its "turn". So the map of a turn's
    planning stage marks the battles that turn's orders stage fought, and the map that opens the next turn
    marks every battle of the turn that ended, told as that turn's (MapMarker.turn), not as its own."""
    closed = closed_stage(gd, key)
    if closed is None:
        return []
    turn = closed[0]
    keys = [p.stem for p in gd.snapshots()]
    stages = [stage for t, stage in map(_stem, keys[:keys.index(key)]) if t == turn]
    out: list[dict[str, Any]] = []
    for stage in stages:
        path = gd.archive_path(turn) / f"events-{stage}.json"
        if not path.is_file():
            continue
        events = json.loads(path.read_text(encoding="utf-8"))
        out += [{**e, "turn": turn} for e in (events if isinstance(events, list) else []) if isinstance(e, dict)]
    return out


def map_orders(parsed: ParsedOrders) -> dict[str, Any]:
    """What MapData.picture takes of a faction's parsed orders: {"faction", "stage", "orders", "refused"}, the
    last the (tab, row) of its rows with an error (a rule set draws no order of theirs)."""
    return {"faction": parsed.faction, "stage": parsed.stage, "orders": list(parsed.orders),
            "refused": [(s.tab, s.number) for s in parsed.statuses if not s.ok]}


def faction_orders(gd: GameDir, rs: Ruleset, state: dict[str, Any], faction: str) -> dict[str, Any] | None:
    """The faction's orders given in the stage of the snapshot `state`, if that stage resolved and its
    orders are archived (`map_orders`: what MapData.picture takes)."""
    from sheets_bridge.layouts import Layout
    from sheets_bridge.pull import parse_books
    turn, stage = int(state["turn"]), str(state["stage"])
    path = gd.archive_path(turn) / f"orders-{stage}-{faction}.json"
    if not path.is_file():
        return None
    raw = json.loads(path.read_text(encoding="utf-8"))
    parsed, _ = parse_books(rs, Layout.load(rs.name), state, stage, {faction: raw})
    return map_orders(parsed[faction])


def faction_picture(maps: MapData, state: Mapping[str, Any], faction: str, events: Sequence[Mapping[str, Any]],
                    before: Mapping[str, Any] | None = None, orders: Mapping[str, Any] | None = None) -> MapPicture:
    """The faction's map of `state` with its own arrows: those of its `orders` given in the state `before`
    (the stage that resolved into `state`), then any `state` itself shows; one arrow per pair of places."""
    now = maps.picture(state, faction, events=events)
    if before is None:
        return now
    then = maps.picture(before, faction, orders=orders)
    arrows: dict[tuple[str, str], Any] = {}
    for arrow in (*then.arrows, *now.arrows):
        if arrow.faction == faction:
            arrows.setdefault((arrow.source, arrow.target), arrow)
    return dataclasses.replace(now, arrows=tuple(arrows.values()))


def drawn_before(gd: GameDir, key: str) -> bool:
    """Whether the opening of the snapshot before `key` drew pictures (its archive holds them)."""
    closed = closed_stage(gd, key)
    if closed is None:
        return False
    earlier = closed_stage(gd, f"turn-{closed[0]:04d}-{closed[1]}")
    turn, stage = earlier if earlier is not None else (closed[0], "start")
    folder = gd.archive_path(turn)
    return (folder / f"map-{stage}.png").is_file() or any(folder.glob(f"charts-{stage}-*.png"))


def _picture_tabs(gd: GameDir) -> list[tuple[str, str]]:
    """(book id, picture tab) of every book that gets pictures."""
    books = gd.config.books
    tabs = [(books[k], MAP_TAB) for k in ("public", *gd.config.factions) if k in books]
    return tabs + ([(books["gm"], CHARTS_TAB)] if "gm" in books else [])


# -- drawing every picture of a stage, in parallel where the system forks -------------------------

@dataclass(frozen=True)
class Job:
    """One picture: the public map (faction None), a faction's map, or a faction's charts."""

    kind: str                 # "map" or "charts"
    faction: str | None = None


@dataclass
class _Work:
    """What the workers draw from (inherited when they fork, never pickled)."""

    gd: GameDir
    rs: Ruleset
    state: dict[str, Any]
    events: list[dict[str, Any]]
    before: dict[str, Any] | None
    names: dict[str, str]
    rows: list[dict[str, object]]
    jobs: list[Job]
    orders: Mapping[str, ParsedOrders] | None = None    # the closed stage's orders as the turn parsed them
    maps: MapPainter | None = None           # one painter of each kind per process, kept between jobs
    charts: ChartPainter | None = None
    public: MapPicture | None = None         # the public map's picture: every faction's map is drawn over it

    def public_picture(self) -> MapPicture:
        if self.public is None:
            maps = self.rs.map_data()
            assert maps is not None
            self.public = maps.picture(self.state, None, events=self.events)
        return self.public

    def map_painter(self) -> MapPainter:
        if self.maps is None:
            from sheets_bridge.map_drawing import MapPainter
            self.maps = MapPainter()
        return self.maps

    def chart_painter(self) -> ChartPainter:
        if self.charts is None:
            from sheets_bridge.charts import ChartPainter, figures
            self.charts = ChartPainter(figures(self.rows))
        return self.charts

    def draw(self, job: Job) -> bytes:
        if job.kind == "charts":
            from sheets_bridge.map_drawing import faction_colours
            assert job.faction is not None
            colour = faction_colours(self.names)[job.faction]
            return self.chart_painter().draw(self.rows, self.names[job.faction], colour)
        maps = self.rs.map_data()
        assert maps is not None
        if job.faction is None:
            picture = self.public_picture()
        else:
            orders = None
            if self.before is not None and job.faction in self.before.get("factions", {}):
                given = self.orders.get(job.faction) if self.orders is not None else None
                orders = (map_orders(given) if given is not None
                          else faction_orders(self.gd, self.rs, self.before, job.faction))
            picture = faction_picture(maps, self.state, job.faction, self.events, self.before, orders)
        title = map_title(self.rs, self.state, job.faction, self.names)
        return self.map_painter().draw(picture, title, job.faction, self.public_picture()).png


_WORK: _Work | None = None


def _draw_job(index: int) -> tuple[int, bytes]:
    assert _WORK is not None
    return index, _WORK.draw(_WORK.jobs[index])


def workers() -> int:
    """How many processes draw: one per core (1 where the system cannot fork)."""
    if "fork" not in mp.get_all_start_methods() or mp.current_process().daemon:
        return 1
    return max(1, os.cpu_count() or 1)


FORK_FROM = 2000        # places on all the maps of a stage from which workers draw them (a demo's: about 100)


def _worth_workers(work: _Work) -> bool:
    """Whether the stage's maps are big enough for workers to draw them sooner than this process: a demo
    stage's few small maps take less time here than starting the workers does."""
    places = len(work.public_picture().places) if work.rs.map_data() is not None else 0
    return sum(1 for job in work.jobs if job.kind == "map") * places >= FORK_FROM


def drawing(work: _Work, progress: Progress = noop, parallel: bool = True) -> Iterator[tuple[Job, bytes]]:
    """Each job with its PNG, in the jobs' order, as soon as it is drawn: by forked workers when `parallel`,
    there are several jobs and cores and the maps are big (the caller sends one picture while they draw
    the next), else here. Before the workers fork, the first job is drawn here: they inherit its painter
    with what every map shares (the links, the labels, the legend's parts, the type)."""
    global _WORK
    import sheets_bridge.map_drawing  # noqa: F401  # Pillow's drawing modules imported once, before a fork
    total = len(work.jobs)
    count = min(workers(), total - 1) if parallel and _worth_workers(work) else 1
    _WORK = work

    def done(index: int, png: bytes) -> tuple[Job, bytes]:
        progress(Step(f"нарисовано картинок: {index + 1} из {total}", index + 1, total))
        return work.jobs[index], png

    gc.freeze()    # what is alive now (the books read: millions of objects) is not looked through while drawing,
    try:           # here or in workers that inherit it (nor copied into them by a collection)
        if count > 1:
            yield done(0, _draw_job(0)[1])
            if any(job.kind == "charts" for job in work.jobs):
                work.chart_painter()                   # the charts' frames and titles, for every worker
            with mp.get_context("fork").Pool(count) as pool:
                for index, png in pool.imap(_draw_job, range(1, total)):
                    yield done(index, png)
        else:
            for index in range(total):
                yield done(index, _draw_job(index)[1])
    finally:
        gc.unfreeze()
        _WORK = None


def draw_all(work: _Work, progress: Progress = noop) -> list[bytes]:
    """Every job's PNG, in the jobs' order (`drawing`)."""
    return [png for _, png in drawing(work, progress)]


def _placed(put: Callable[[str, str, list[bytes], str], None], book: str, title: str, pictures: list[bytes],
            note: str, progress: Progress) -> Callable[[str, str, list[bytes], str], None] | None:
    """`put` the pictures in the book; a backend that can keep none here says why (once), and no other
    picture is put: they stay in the archive, and the stage goes on."""
    try:
        put(book, title, pictures, note)
    except PicturesNotStored as exc:
        progress(str(exc))
        return None
    return put


def _battles_title(rs: Ruleset, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str | None:
    """What the stars of the stage's maps are (the same on every map of it: battles are public)."""
    maps = rs.map_data()
    if maps is None:
        return None
    from sheets_bridge.map_drawing import battles_title
    return battles_title(maps.picture(state, None, events=events))


def publish(gd: GameDir, be: Backend, key: str, archive: Path | None, stage: str | None,
            progress: Progress = noop, with_charts: bool = True,
            orders: Mapping[str, ParsedOrders] | None = None) -> None:
    """Draw, archive (when `archive` and `stage` say where) and put in the books the pictures of the
    opened snapshot `key`. The charts change only when a turn opens (their rows are each turn's first
    snapshot): `with_charts=False` leaves the ones already drawn. `orders`: the orders of the stage that
    resolved into `key`, by faction, as the turn that resolved it parsed them (else each faction's archived
    orders are parsed again)."""
    put: Callable[[str, str, list[bytes], str], None] | None = (be.put_pictures if isinstance(be, PutsPictures)
                                                                 else None)
    if not gd.config.draw_pictures:
        if put is not None and drawn_before(gd, key):      # the last opening drew: its pictures would stay
            for book, title in _picture_tabs(gd):
                put(book, title, [], OFF_NOTE)
        return
    if put is None and (archive is None or stage is None):
        return
    state = gd.read_snapshot(*_stem(key))
    rs = find_ruleset(str(state["ruleset"]))
    names = {f.id: f.name for f in rs.summary(state).factions}
    factions = [fid for fid in rs.factions(state) if fid in names]
    jobs: list[Job] = []
    if rs.map_data() is not None:
        jobs += [Job("map"), *(Job("map", fid) for fid in factions)]
    if with_charts:
        jobs += [Job("charts", fid) for fid in factions]
    if not jobs:
        return
    closed = closed_stage(gd, key)
    before = gd.read_snapshot(*closed) if closed is not None and rs.map_data() is not None else None
    rows: list[dict[str, object]] = []
    if with_charts:
        from sheets_bridge.charts import turn_rows
        rows = turn_rows(gd)
    work = _Work(gd, rs, state, events_into(gd, key), before, names, rows, jobs, orders)
    battles = _battles_title(rs, state, work.events)
    books = gd.config.books
    folder = archive if stage is not None else None        # where the pictures are archived, if anywhere
    public: bytes | None = None
    maps: list[str] = []
    charts: dict[str, bytes] = {}
    # Each picture is sent while the next is drawn. Where the backend holds them for the books' writes there
    # is nothing to wait for meanwhile: one process draws them all, sharing every map's labels (forked
    # workers would each draw those again, for more work in all)
    for job, png in drawing(work, progress, parallel=not isinstance(be, HoldsPictures)):
        if job.kind == "charts":
            assert job.faction is not None
            charts[job.faction] = png
        elif job.faction is None:
            public = png
        else:
            maps.append(job.faction)
        if folder is not None:
            name = f"{'charts' if job.kind == 'charts' else 'map'}-{stage}"
            atomic_write_bytes(folder / (f"{name}.png" if job.faction is None else f"{name}-{job.faction}.png"), png)
        if put is not None and job.kind == "map":
            book = "public" if job.faction is None else job.faction
            if book in books:
                put = _placed(put, books[book], MAP_TAB, [png], map_note(job.faction is not None, battles), progress)
    if put is not None and charts and "gm" in books:
        put = _placed(put, books["gm"], CHARTS_TAB, list(charts.values()), CHARTS_NOTE, progress)
    if put is not None:
        mine = [fid for fid in maps if fid in books]
        said = []
        if public is not None:
            said.append(f"рисунок карты — в общую книгу и в книги фракций ({len(mine)})")
        if charts:
            said.append("графики — в книгу мастера")
        progress("; ".join(said))
    elif folder is not None:
        if public is not None:
            progress(f"рисунок карты: {folder / f'map-{stage}.png'}; {PASTE_HINT} (общая книга, вкладка «{MAP_TAB}»)")
        if maps:
            progress(f"карты фракций: {folder}/map-{stage}-*.png (у каждой фракции своя); {PASTE_HINT} "
                     f"(книга фракции, вкладка «{MAP_TAB}»)")
        if charts:
            progress(f"графики фракций: {folder}/charts-{stage}-*.png; {PASTE_HINT} "
                     f"(книга мастера, вкладка «{CHARTS_TAB}»)")
