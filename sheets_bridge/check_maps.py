"""The maps of `check` (issue 41 §1): each faction's map with its orders as they stand, before the deadline.

Each `check` draws, for every faction with a book, the rule set's map of the open stage as that faction may see
it (its fog of war: MapData.picture of the faction, the same as the map the stage opened with) and that
faction's own orders as `check` just read them (MapData.picture's `orders`, `pictures.map_orders`): Titania's
moves, attacks, supports, splits and spells, Jade Rose's attacks with what each does on capture. A row with an
error is not drawn (the orders' "refused" rows), and the legend ends with a line saying how many there are and
where to read why (ERRORS_NOTE). Nothing of another faction is drawn: the arrows are built from this faction's
parsed orders only, and the rest of the picture is what the turn's map of it shows.

The picture goes where the stage's faction map goes (`pictures.MAP_TAB`, the same note): on xlsx into the book
with its `check` write, in the same save (`HoldsPictures`); on Google into the same Drive file, updated in place,
after the books' writes, one picture going up while the next is drawn (`SendsPictures`); the tab keeps its link
and note, so it costs no Sheets write. `check` is no stage: nothing is archived, the picture lives in the book
only until the next `check` or the stage's resolution replaces it. One painter draws every map of a `check`
over the public one (the shared ground and labels drawn once). `[pictures] draw = false` draws nothing.
"""
from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.ruleset import MapData, MapPicture, ParsedOrders, Ruleset
from sheets_bridge import pictures
from sheets_bridge.backends.base import Backend, HoldsPictures, PicturesNotStored, PutsPictures, SendsPictures
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage_common import Progress, Step, noop

if TYPE_CHECKING:
    from sheets_bridge.map_drawing import MapPainter

ERRORS_NOTE = ("строк с ошибками не нарисовано: {count}", "почему — в столбце «Статус»")   # two lines of the legend


@dataclass(frozen=True)
class CheckMap:
    """One faction's map drawn by `check`: the PNG put in its book, the arrows drawn (source, target, kind)
    and the legend's lines."""

    faction: str
    png: bytes
    arrows: tuple[tuple[str, str, str], ...]
    legend: tuple[str, ...]


def errors_note(count: int) -> list[str]:
    """The legend's last lines when `count` rows have an error («строк с ошибками не нарисовано: 2», and where to
    read why); none without errors."""
    return [line.format(count=count) for line in ERRORS_NOTE] if count else []


def check_title(rs: Ruleset, state: Mapping[str, Any], name: str) -> str:
    """«Титания, ход 2, этап «приказы»: приказы фракции Эльфы до расчёта»."""
    return (f"{rs.title}, ход {state['turn']}, этап «{rs.stage_title(str(state['stage']))}»: приказы фракции "
            f"{name} до расчёта")


def publish(gd: GameDir, be: Backend, rs: Ruleset, state: Mapping[str, Any], parsed: Mapping[str, ParsedOrders],
            factions: Sequence[str], progress: Progress = noop) -> list[CheckMap]:
    """Draw each faction's map with its orders of `parsed` and put it in the faction's book; the maps drawn.
    Nothing where pictures are off, the rule set has no map or the backend keeps no picture."""
    maps = rs.map_data()
    if not gd.config.draw_pictures or maps is None or not isinstance(be, PutsPictures):
        return []
    from sheets_bridge.map_drawing import MapPainter, battles_title
    books = gd.config.books
    names = {f.id: f.name for f in rs.summary(state).factions}
    mine = [fid for fid in factions if fid in books and fid in names]
    if not mine:
        return []
    events = pictures.events_into(gd, f"turn-{int(state['turn']):04d}-{state['stage']}")
    public = maps.picture(state, None, events=events)
    note = pictures.map_note(True, battles_title(public))      # the stage's own: Google's tab stays as it is
    painter = MapPainter()
    gc.freeze()       # what is alive now (the books read: millions of objects) is not looked through while drawing
    try:
        return _draw_and_put(gd, be, rs, maps, state, parsed, mine, painter, public, events, note, names, progress)
    finally:
        gc.unfreeze()


def _draw_and_put(gd: GameDir, be: PutsPictures, rs: Ruleset, maps: MapData, state: Mapping[str, Any],
                  parsed: Mapping[str, ParsedOrders], mine: Sequence[str], painter: MapPainter, public: MapPicture,
                  events: Sequence[Mapping[str, Any]], note: str, names: Mapping[str, str],
                  progress: Progress) -> list[CheckMap]:
    """Each faction's map of `mine` drawn and put in its book (`publish`)."""
    books = gd.config.books
    drawn: list[CheckMap] = []
    for n, fid in enumerate(mine, 1):
        given = parsed.get(fid)
        picture = maps.picture(state, fid, orders=pictures.map_orders(given) if given is not None else None,
                               events=events)
        errors = sum(not s.ok for s in given.statuses) if given is not None else 0
        drawing = painter.draw(picture, check_title(rs, state, names[fid]), fid, public,
                               legend_notes=errors_note(errors))
        shown = tuple((a.source, a.target, a.kind) for a in picture.arrows
                      if a.faction == fid and a.source != a.target)
        drawn.append(CheckMap(fid, drawing.png, shown, tuple(text for text, _ in drawing.legend)))
        try:
            be.put_pictures(books[fid], pictures.MAP_TAB, [drawing.png], note)
        except PicturesNotStored as exc:           # said once; the check goes on without its maps
            progress(str(exc))
            return drawn
        progress(Step(f"нарисована карта приказов {n} из {len(mine)}: {names[fid]}", n, len(mine)))
    progress(f"карты приказов — в книги фракций ({len(drawn)}), вкладка «{pictures.MAP_TAB}»")
    return drawn


@contextlib.contextmanager
def with_writes(gd: GameDir, be: Backend, rs: Ruleset, state: Mapping[str, Any],
                parsed: Mapping[str, ParsedOrders], factions: Sequence[str],
                progress: Progress = noop) -> Iterator[None]:
    """Around `check`'s writes of the books: the order maps go in with them where the backend holds pictures for
    a book's write (drawn first), else they are put after the writes (sent together where the backend can)."""
    if isinstance(be, HoldsPictures):
        with be.holding_pictures():
            publish(gd, be, rs, state, parsed, factions, progress)
            yield
        return
    yield
    if not isinstance(be, SendsPictures):
        publish(gd, be, rs, state, parsed, factions, progress)
        return
    try:
        with be.sending_pictures():
            publish(gd, be, rs, state, parsed, factions, progress)
    except PicturesNotStored as exc:           # met by the last picture sent
        progress(str(exc))
