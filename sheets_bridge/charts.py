"""Charts of a game: a per-turn table of every faction's figures (from each turn's first snapshot, through
the rule set's `summary`: FactionSummary.numbers) and one PNG per faction drawn from it.

The table is plain rows (`turn_rows`); `turn_table` makes it a pandas DataFrame for `forumwar charts`
(pandas is imported only there). A ChartPainter draws every faction's chart with Pillow, in the look of
matplotlib's default small multiples (which drew them before: its import cost a turn 0.4 s) and with its
tick choice (`nice_ticks`, matplotlib's MaxNLocator): one small chart per figure, the frames, titles and
labels drawn once, each faction's ticks, grid and line on a copy.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from engine import find_ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.map_drawing import INK, PALETTE, PT, Pen, faction_colours, font, png_bytes, put_text, rgb, text_size

if TYPE_CHECKING:
    import pandas as pd

TURN, FACTION = "Ход", "Фракция"
WIDTH_PX, HEIGHT_PX, DPI = 1000, 700, 100
Row = Mapping[str, object]


def turn_rows(gd: GameDir) -> list[dict[str, object]]:
    """One row per turn and faction: «Ход», «Фракция» (display name), then the rule set's figures
    (Russian titles, in the order the rule set gives them). A turn's row is its first snapshot: the
    state as that turn opens."""
    first: dict[int, dict[str, object]] = {}
    for path in gd.snapshots():
        turn = int(path.stem.split("-")[1])
        if turn not in first:
            first[turn] = json.loads(path.read_text(encoding="utf-8"))
    rows: list[dict[str, object]] = []
    for turn, state in sorted(first.items()):
        rs = find_ruleset(str(state["ruleset"]))
        for faction in rs.summary(state).factions:
            rows.append({TURN: turn, FACTION: faction.name, **faction.numbers})
    return rows


def turn_table(gd: GameDir) -> pd.DataFrame:
    """`turn_rows` as a DataFrame, its columns «Ход», «Фракция», then the figures in first-seen order."""
    import pandas as pd
    rows = turn_rows(gd)
    return pd.DataFrame(rows, columns=columns(rows))


def columns(rows: Sequence[Row]) -> list[str]:
    out = [TURN, FACTION]
    for row in rows:
        out += [key for key in row if key not in out]
    return out


def figures(rows: Sequence[Row]) -> list[str]:
    """The charted figures of a table: its columns after «Ход» and «Фракция»."""
    return [c for c in columns(rows) if c not in (TURN, FACTION)]


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            return float(str(value))
        except ValueError:
            return None
    return float(value)


# -- the ticks: matplotlib's MaxNLocator, its limits and its labels ---------------------------------

ALL_STEPS = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0)     # MaxNLocator's default steps
AUTO_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)                              # AutoLocator's
MARGIN = 0.05                    # of the data's span, added at each end of an axis
MINUS = "\u2212"


def _scale_range(low: float, high: float, bins: int) -> tuple[float, float]:
    span = abs(high - low)
    mean = (high + low) / 2
    offset = 0.0 if abs(mean) / span < 100 else math.copysign(10 ** (math.log10(abs(mean)) // 1), mean)
    return 10 ** (math.log10(span / bins) // 1), offset


def nice_ticks(low: float, high: float, bins: int, steps: Sequence[float] = ALL_STEPS, integer: bool = False,
               min_ticks: int = 2) -> list[float]:
    """The ticks matplotlib's MaxNLocator(nbins=bins, steps, integer, min_n_ticks) puts on [low, high],
    those outside the range included (the axis shows only those within)."""
    low, high = nonsingular(low, high, 1e-13, 1e-14)
    scale, offset = _scale_range(low, high, bins)
    lo, hi = low - offset, high - offset
    extended = [0.1 * s for s in steps[:-1]] + list(steps) + [10 * steps[1]]
    candidates = [s * scale for s in extended]
    if integer:
        candidates = [s for s in candidates if s < 1 or abs(s - round(s)) < 0.001]
    raw = (hi - lo) / bins
    first_large = next((i for i, s in enumerate(candidates) if s >= raw), len(candidates) - 1)
    ticks: list[float] = []
    for step in reversed(candidates[:first_large + 1]):
        if integer and math.floor(hi) - math.ceil(lo) >= min_ticks - 1:
            step = max(1.0, step)
        start = (lo // step) * step
        tolerance = max(1e-10, 10 ** (math.log10(abs(offset) / step) - 12)) if offset else 1e-10
        tolerance = min(0.4999, tolerance)
        d, m = divmod(lo - start, step)
        first = d + 1 if abs(m / step - 1) < tolerance else d
        d, m = divmod(hi - start, step)
        last = d if abs(m / step) < tolerance else d + 1
        ticks = [(first + k) * step + start for k in range(int(last - first) + 1)]
        if sum(1 for t in ticks if lo <= t <= hi) >= min_ticks:
            break
    return [t + offset for t in ticks]


def nonsingular(low: float, high: float, expander: float = 0.05, tiny: float = 1e-15) -> tuple[float, float]:
    """matplotlib's `transforms.nonsingular`: a range of one value (or none) widened around it."""
    if not (math.isfinite(low) and math.isfinite(high)):
        return -expander, expander
    low, high = min(low, high), max(low, high)
    largest = max(abs(low), abs(high))
    if largest < (1e6 / tiny) * 2.2250738585072014e-308:
        return -expander, expander
    if high - low <= largest * tiny:
        if high == 0 and low == 0:
            return -expander, expander
        return low - expander * abs(low), high + expander * abs(high)
    return low, high


def _limits(values: Sequence[float]) -> tuple[float, float]:
    """An axis's view of its values, as matplotlib's autoscale gives it (5% margins)."""
    low, high = nonsingular(min(values), max(values))
    delta = (high - low) * MARGIN
    return low - delta, high + delta


def tick_texts(ticks: Sequence[float]) -> list[str]:
    """The ticks written with as few decimals as tell them apart (matplotlib's ScalarFormatter, its minus)."""
    for decimals in range(7):
        texts = [f"{t:.{decimals}f}" for t in ticks]
        if all(abs(t - float(x)) < 1e-9 * max(1.0, abs(t)) for t, x in zip(ticks, texts, strict=True)):
            break
    return [MINUS + x[1:] if x.startswith("-") and float(x) != 0 else x.lstrip("-") for x in texts]


# -- the picture ------------------------------------------------------------------------------------

TITLE_POINTS, AXES_TITLE_POINTS, LABEL_POINTS = 15.0, 12.0, 10.0
LINE_WIDTH, MARKER_POINTS = 2.2, 6.0         # the faction's line and its points (diameter), in points
GRID = (231, 231, 231)                       # matplotlib's grey #b0b0b0 at 0.3 on white
TICK = 3.5 * PT                              # a tick's length, and its label's distance from it
SPACING = (0.08, 0.97, 0.08, 0.88, 0.45, 0.2)    # left, right, bottom, top (fractions), height and width gaps


@dataclass(frozen=True)
class _Panel:
    """One small chart's frame, in PNG pixels (y down)."""

    name: str
    left: float
    top: float
    right: float
    bottom: float


class ChartPainter:
    """The small charts (one per figure of the table), drawn for each faction in turn: their frames and
    titles once, each faction's ticks, grid and line on a copy."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names) or ["—"]
        cols = 2 if len(self.names) > 1 else 1
        rows = (len(self.names) + cols - 1) // cols
        left, right, bottom, top, hspace, wspace = SPACING
        width = (right - left) * WIDTH_PX / (cols + wspace * (cols - 1))
        height = (top - bottom) * HEIGHT_PX / (rows + hspace * (rows - 1))
        gap = hspace * height
        below = 2 * TICK + font(LABEL_POINTS).getmetrics()[0] + 4 * PT + text_size(TURN, LABEL_POINTS)[1]
        room = below + 6 * PT + text_size("Ay", AXES_TITLE_POINTS)[1]      # «Ход» under a chart, the next title
        if rows > 1 and gap < room:             # three rows and more: the charts give up height, not their labels
            gap = room
            height = ((top - bottom) * HEIGHT_PX - (rows - 1) * gap) / rows
        self.panels = [_Panel(name, left * WIDTH_PX + (i % cols) * width * (1 + wspace),
                              (1 - top) * HEIGHT_PX + (i // cols) * (height + gap),
                              left * WIDTH_PX + (i % cols) * width * (1 + wspace) + width,
                              (1 - top) * HEIGHT_PX + (i // cols) * (height + gap) + height)
                       for i, name in enumerate(self.names)]
        self.base = Image.new("RGB", (WIDTH_PX, HEIGHT_PX), "white")
        ascent = font(AXES_TITLE_POINTS).getmetrics()[0]
        digits = font(LABEL_POINTS).getmetrics()[0]          # the tick labels' height above their baseline
        for panel in self.panels:
            w = text_size(panel.name, AXES_TITLE_POINTS)[0]
            put_text(self.base, ((panel.left + panel.right - w) / 2, panel.top - 6 * PT - ascent), panel.name,
                     AXES_TITLE_POINTS, "#000000")
            w = text_size(TURN, LABEL_POINTS)[0]
            put_text(self.base, ((panel.left + panel.right - w) / 2, panel.bottom + 2 * TICK + digits + 4 * PT),
                     TURN, LABEL_POINTS, "#000000")

    def draw(self, rows: Sequence[Row], faction: str, colour: str = PALETTE[0]) -> bytes:
        """A WIDTH_PX × HEIGHT_PX PNG: one small chart per figure of `faction` (display name) over the turns."""
        mine = sorted((r for r in rows if r.get(FACTION) == faction), key=lambda r: _number(r.get(TURN)) or 0)
        image = self.base.copy()
        draw = ImageDraw.Draw(image)
        title = f"{faction}: ход за ходом"
        put_text(image, ((WIDTH_PX - text_size(title, TITLE_POINTS, True)[0]) / 2, 0.02 * HEIGHT_PX), title,
                 TITLE_POINTS, "#000000", bold=True)
        for panel in self.panels:
            points: list[tuple[float, float]] = []
            for r in mine:
                turn, value = _number(r.get(TURN)), _number(r.get(panel.name))
                if turn is not None and value is not None:
                    points.append((turn, value))
            self._panel(image, draw, panel, points, colour)
        return png_bytes(image)

    def _panel(self, image: Image.Image, draw: ImageDraw.ImageDraw, panel: _Panel, points: list[tuple[float, float]],
               colour: str) -> None:
        """One small chart: the grid at the ticks, the faction's line, the frame, the ticks and their labels."""
        whole = bool(points) and all(v == int(v) for _, v in points)
        if points:
            x_view = _limits([t for t, _ in points])
            y_view = _limits([v for _, v in points])
            low, high = min(v for _, v in points), max(v for _, v in points)
            if whole and high - low < 2:             # whole numbers get whole ticks: at least two in view
                y_view = (low - 1, high + 1)
        else:
            x_view, y_view = (0.0, 1.0), (0.0, 1.0)
        width, height = panel.right - panel.left, panel.bottom - panel.top
        y_bins = max(1, min(9, math.floor(height / PT / (LABEL_POINTS * 2)))) if not whole else 10
        x_ticks = _shown(nice_ticks(*x_view, 10, integer=True, min_ticks=1), x_view)
        y_ticks = _shown(nice_ticks(*y_view, y_bins, AUTO_STEPS if not whole else ALL_STEPS, integer=whole), y_view)

        def px(t: float) -> float:
            return panel.left + (t - x_view[0]) / (x_view[1] - x_view[0]) * width

        def py(v: float) -> float:
            return panel.bottom - (v - y_view[0]) / (y_view[1] - y_view[0]) * height

        for t in x_ticks:
            draw.line([(round(px(t)), round(panel.top)), (round(px(t)), round(panel.bottom))], fill=GRID, width=1)
        for v in y_ticks:
            draw.line([(round(panel.left), round(py(v))), (round(panel.right), round(py(v)))], fill=GRID, width=1)
        if points:
            x0, y0 = math.floor(panel.left), math.floor(panel.top)
            x1, y1 = math.ceil(panel.right), math.ceil(panel.bottom)
            pen = Pen((x1 - x0, y1 - y0), (0,), origin=(x0, y0))       # the line's cover, in its colour
            shown = [(px(t), py(v)) for t, v in points]
            for a, b in zip(shown, shown[1:], strict=False):
                pen.line(a, b, INK, LINE_WIDTH * PT, round_caps=True)
            for p in shown:
                pen.disc(p, MARKER_POINTS * PT / 2, INK)
            image.paste(rgb(colour), (x0, y0, x1, y1), pen.image())
        draw.rectangle([round(panel.left), round(panel.top), round(panel.right), round(panel.bottom)],
                       outline=(0, 0, 0), width=1)
        label_h = text_size("0", LABEL_POINTS)[1]
        for t, text in zip(x_ticks, tick_texts(x_ticks), strict=True):
            x = round(px(t))
            draw.line([(x, round(panel.bottom)), (x, round(panel.bottom + TICK))], fill=(0, 0, 0), width=1)
            put_text(image, (x - text_size(text, LABEL_POINTS)[0] / 2, panel.bottom + 2 * TICK), text, LABEL_POINTS,
                     "#000000")
        for v, text in zip(y_ticks, tick_texts(y_ticks), strict=True):
            y = round(py(v))
            draw.line([(round(panel.left - TICK), y), (round(panel.left), y)], fill=(0, 0, 0), width=1)
            put_text(image, (panel.left - 2 * TICK - text_size(text, LABEL_POINTS)[0], y - label_h / 2), text,
                     LABEL_POINTS, "#000000")


def _shown(ticks: Sequence[float], view: tuple[float, float]) -> list[float]:
    """The ticks within the view (a hair's breadth beyond it counted in, as matplotlib does)."""
    slack = (view[1] - view[0]) * 1e-10
    return [t for t in ticks if view[0] - slack <= t <= view[1] + slack]


def faction_chart(rows: Sequence[Row], faction: str, colour: str = PALETTE[0]) -> bytes:
    """One faction's charts (`ChartPainter.draw`) on a figure of its own."""
    return ChartPainter(figures(rows)).draw(rows, faction, colour)


def charts(rows: Sequence[Row], factions: dict[str, str]) -> dict[str, bytes]:
    """A chart per faction (id -> PNG) for the factions of the game (id -> display name), each in the
    faction's map colour, all on one figure."""
    colours = faction_colours(factions)
    painter = ChartPainter(figures(rows))
    return {fid: painter.draw(rows, name, colours[fid]) for fid, name in factions.items()}
