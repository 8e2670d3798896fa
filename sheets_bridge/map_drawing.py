"""Drawing a map picture (engine.ruleset.MapPicture) to PNG with matplotlib, whatever rule set made it.
One module over 400 lines: the label placement needs the geometry of every place, link, star and arrow drawn.

Places are coloured by owner (one fixed colour per faction, by its place in `MapPicture.factions`, so a
faction keeps its colour from turn to turn; unowned grey, sea blue, ruins hatched), with the name and
the size/level note beside them; links are lines (sea links dashed); a place where something happened
this turn gets one red star (however many markers name it: their notes go under its label); the viewer's
own orders are arrows in the viewer's colour, and the legend shows them in that colour; a legend names
the factions. Coordinates are the places' x (east) and y (north); places without them are laid out by
networkx's spring layout with a fixed seed (networkx is imported only then).

Labels are placed at the offset around their place, nearest first, that overlaps no other label, place,
star or arrow and stays in the frame, preferring, among the free ones of a ring, the one that covers the
least of the links (a label may cross a road, never an arrow). The search is plain arithmetic on boxes
(each label measured once per font size), bucketed by a grid so each candidate meets only its neighbours.

Only the object-oriented Figure API with the Agg canvas is used (no pyplot, no global state); the PNG
is written by Pillow from the canvas with no timestamp, so the same picture gives the same bytes.
"""
from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import LineCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch
from matplotlib.text import Text
from matplotlib.transforms import offset_copy
from PIL import Image

from engine.ruleset import MapPicture, MapPlace

WIDTH_PX, HEIGHT_PX, DPI = 1400, 1000, 100
FONT = "DejaVu Sans"             # ships with matplotlib; has Cyrillic
# Faction colours in game order (tab20's strong and light tones without greys and sea blues)
PALETTE = ("#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
           "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#393b79", "#637939")
UNOWNED = "#a0a0a0"
SEA = "#6baed6"
RUINS = "#d9d9d9"
BATTLE = "#b2001e"
NO_VIEWER_ARROW = "#333333"
LINK_COLOURS = {"road": "#8c7b63", "land": "#8c7b63", "sea": SEA}
Style = Literal["solid", "dashed", "dotted"]
ARROW_STYLES: dict[str, Style] = {"attack": "solid", "move": "dashed", "support": "dotted"}
ARROW_TITLES = {"attack": "атака", "move": "движение", "support": "поддержка"}
ARROW_WIDTH = 2.6                # points
ARROW_SHRINK = 12.0              # points kept free at each end of an arrow
LINK_WIDTH = 2.2
MARKER_SIZE = {"city": 17.0, "land": 19.0, "sea": 19.0}   # points
MARKERS = {"city": "o", "land": "s", "sea": "h"}
STAR_OFFSET = 13.0               # points up and right of its place
STAR_SIZE = 15.0
LABEL_PAD = 5.0                  # pixels kept between labels
PNG_COMPRESSION = 3              # zlib level of the PNG: as small as 6 on these pictures, and quicker
# Where a label may go: its anchor offset from the place (points) and its alignment; tried ring by ring,
# then again in smaller type
HAlign = Literal["left", "center", "right"]
VAlign = Literal["bottom", "center", "top"]
Offset = tuple[float, float, HAlign, VAlign]
DIRECTIONS: tuple[Offset, ...] = (
    (0, -1, "center", "top"), (0, 1, "center", "bottom"), (1, 0, "left", "center"), (-1, 0, "right", "center"),
    (0.85, -0.85, "left", "top"), (-0.85, -0.85, "right", "top"), (0.85, 0.85, "left", "bottom"),
    (-0.85, 0.85, "right", "bottom"))
RINGS = (14, 24, 36, 50, 66)
OFFSETS: tuple[Offset, ...] = tuple((dx * ring, dy * ring, ha, va) for ring in RINGS for dx, dy, ha, va in DIRECTIONS)
FONT_SIZES = (8.5, 7.5, 6.5)
# A free spot one ring further out (or one type size smaller) must spare this much of the links (px²) to
# be preferred: a label stays next to its place unless it would lie along a road. In a ring, below and
# above the place read best, then beside it; a corner spot (which a neighbour's label could seem to own)
# wins only when it spares more of the links than a thin line crossing the label covers
RING_PENALTY, SIZE_PENALTY = 60.0, 150.0
DIRECTION_PENALTY = (0.0, 10.0, 25.0, 25.0, 60.0, 60.0, 60.0, 60.0)       # in the order of DIRECTIONS

Box = tuple[float, float, float, float]     # x0, y0, x1, y1 (PNG pixels, y down, in a Drawing)
Segment = tuple[float, float, float, float, float]   # xa, ya, xb, yb, half width (display pixels)


@dataclass(frozen=True)
class Drawing:
    """A drawn map: the PNG; each place's centre and label box, each drawn arrow's ends, in PNG pixels;
    each owner's colour; the places marked with a star; the legend's entries (text, colour)."""

    png: bytes
    centres: Mapping[str, tuple[float, float]]
    label_boxes: Mapping[str, Box]
    colours: Mapping[str, str]            # faction id -> "#rrggbb"
    arrows: tuple[tuple[float, float, float, float], ...] = ()
    marks: tuple[str, ...] = ()
    legend: tuple[tuple[str, str], ...] = ()


def faction_colours(factions: Iterable[str]) -> dict[str, str]:
    """One colour per faction id, by the ids' sorted order: a faction keeps its colour from turn to turn
    (and in the charts), whatever order a state lists the factions in."""
    return {fid: PALETTE[i % len(PALETTE)] for i, fid in enumerate(sorted(factions))}


def layout(picture: MapPicture, seed: int = 7) -> dict[str, tuple[float, float]]:
    """Each place's (x, y): its own coordinates; places without them around the placed ones by a spring
    layout (fixed seed), or, when no place has coordinates, on an even grid in the spring layout's order."""
    known = {p.key: (float(p.x), float(p.y)) for p in picture.places if p.x is not None and p.y is not None}
    if len(known) == len(picture.places):
        return known
    import networkx as nx  # only for a map without coordinates (0.1 s to import)
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(p.key for p in picture.places)
    graph.add_edges_from((link.a, link.b) for link in picture.links if link.a in graph and link.b in graph)
    if known:
        placed = nx.spring_layout(graph, pos=dict(known), fixed=list(known), seed=seed)
        return {key: known.get(key, (float(xy[0]), float(xy[1]))) for key, xy in placed.items()}
    placed = nx.spring_layout(graph, seed=seed)
    return _on_grid({key: (float(xy[0]), float(xy[1])) for key, xy in placed.items()})


def _on_grid(where: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Move each place to the nearest free cell of an even grid (greedy, nearest pairs first): a spring
    layout's neighbours stay neighbours, and no two places crowd each other's labels."""
    n = len(where)
    cols = max(1, math.ceil(math.sqrt(n * 1.2)))
    rows = max(1, math.ceil(n / cols))
    xs, ys = [xy[0] for xy in where.values()], [xy[1] for xy in where.values()]

    def norm(v: float, low: float, high: float, cells: int) -> float:
        return (v - low) / (high - low) * (cells - 1) if high > low else (cells - 1) / 2

    spots = {k: (norm(x, min(xs), max(xs), cols), norm(y, min(ys), max(ys), rows)) for k, (x, y) in where.items()}
    pairs = sorted(((sx - c) ** 2 + (sy - r) ** 2, k, (c, r))
                   for k, (sx, sy) in spots.items() for c in range(cols) for r in range(rows))
    out: dict[str, tuple[float, float]] = {}
    taken: set[tuple[int, int]] = set()
    for _, key, cell in pairs:
        if key not in out and cell not in taken:
            out[key] = (float(cell[0]), float(cell[1]))
            taken.add(cell)
    return out


def _fill(place: MapPlace, colours: Mapping[str, str]) -> str:
    if place.kind == "sea":
        return SEA
    if place.ruined:
        return RUINS
    return colours.get(place.owner, UNOWNED) if place.owner is not None else UNOWNED


def _label_text(place: MapPlace, notes: Mapping[str, list[str]]) -> str:
    lines = [place.name] + ([place.label] if place.label else []) + notes.get(place.key, [])
    return "\n".join(lines)


# -- label placement: boxes and segments as plain tuples in display pixels (y up) ------------------

def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    if w <= 0:
        return 0.0
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if h > 0 else 0.0


def _outside(box: Box, frame: Box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1]) - _overlap(box, frame)


def _covered(seg: Segment, box: Box) -> float:
    """The area of the box a segment's stroke covers: the length of the segment inside the box widened by
    the stroke's half width (Liang–Barsky clipping), times the stroke's width."""
    xa, ya, xb, yb, hw = seg
    x0, y0, x1, y1 = box[0] - hw, box[1] - hw, box[2] + hw, box[3] + hw
    dx, dy = xb - xa, yb - ya
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, xa - x0), (dx, x1 - xa), (-dy, ya - y0), (dy, y1 - ya)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        r = q / p
        if p < 0:
            t0 = max(t0, r)
        else:
            t1 = min(t1, r)
        if t0 >= t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy) * 2 * hw


class _Grid:
    """Boxes and segments bucketed by a grid of CELL pixels, so a candidate meets only its neighbours. An
    item spanning several cells is met once per cell it shares with the candidate: a cost, not an area
    (zero exactly when nothing is touched)."""

    CELL = 64.0

    def __init__(self) -> None:
        self.boxes: dict[tuple[int, int], list[Box]] = {}
        self.segments: dict[tuple[int, int], list[Segment]] = {}

    def _cells(self, x0: float, y0: float, x1: float, y1: float) -> list[tuple[int, int]]:
        c = self.CELL
        return [(i, j) for i in range(int(x0 // c), int(x1 // c) + 1) for j in range(int(y0 // c), int(y1 // c) + 1)]

    def add_box(self, box: Box) -> None:
        for key in self._cells(*box):
            self.boxes.setdefault(key, []).append(box)

    def add_segment(self, seg: Segment) -> None:
        xa, ya, xb, yb, hw = seg
        steps = max(1, math.ceil(math.hypot(xb - xa, yb - ya) / (self.CELL / 2)))
        keys: set[tuple[int, int]] = set()
        for k in range(steps + 1):
            x, y = xa + (xb - xa) * k / steps, ya + (yb - ya) * k / steps
            keys.update(self._cells(x - hw - self.CELL / 2, y - hw - self.CELL / 2,
                                    x + hw + self.CELL / 2, y + hw + self.CELL / 2))
        for key in keys:
            self.segments.setdefault(key, []).append(seg)

    def cost(self, box: Box, limit: float = math.inf) -> float:
        """What the box touches (box overlaps and covered strokes); stops once past `limit`."""
        total = 0.0
        x0, y0, x1, y1 = box
        c = self.CELL
        boxes, segments = self.boxes, self.segments
        for i in range(int(x0 // c), int(x1 // c) + 1):
            for j in range(int(y0 // c), int(y1 // c) + 1):
                for b in boxes.get((i, j), ()):
                    if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]:
                        total += (min(x1, b[2]) - max(x0, b[0])) * (min(y1, b[3]) - max(y0, b[1]))
                for seg in segments.get((i, j), ()):
                    total += _covered(seg, box)
                if total > limit:
                    return total
        return total


_SHIFT_X = {"left": 0.0, "center": 0.5, "right": 1.0}
_SHIFT_Y = {"bottom": 0.0, "center": 0.5, "top": 1.0}
# Every (penalty, font size index, offset) a label may take, cheapest first: nearer rings, then smaller type
_CANDIDATES = sorted((ring * RING_PENALTY + size * SIZE_PENALTY + DIRECTION_PENALTY[d], size, ring, d)
                      for size in range(len(FONT_SIZES)) for ring in range(len(RINGS)) for d in range(len(DIRECTIONS)))


@dataclass
class _Obstacles:
    hard: _Grid           # places, stars and the viewer's arrows (and the labels placed): never covered
    links: _Grid          # links: covered as little as the nearest free spots allow
    frame: Box


@dataclass(frozen=True)
class _Label:
    """A label as placed: its text, type size index, alignment, and its text box (display pixels, y up)."""

    text: str
    size: int
    colour: str
    ha: HAlign
    extent: Box


@dataclass(frozen=True)
class _Sprite:
    """A label rendered once: RGBA pixels and where its text box's left and top edges lie in them."""

    image: Image.Image
    left: float
    top: float


def _shrunk(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float, float, float]:
    """The segment a→b with `by` pixels cut off each end (as FancyArrowPatch's shrinkA/shrinkB)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= 2 * by:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return mid[0], mid[1], mid[0], mid[1]
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return a[0] + ux * by, a[1] + uy * by, b[0] - ux * by, b[1] - uy * by


class MapPainter:
    """Draws maps one after another, keeping what they share: each label's measure in each type size and
    each label rendered once (a stage's public map and every faction's map have most labels in common).
    A label's pixels do not depend on where it goes (text is drawn on whole pixels), so a map's PNG is the
    same whatever the painter drew before it."""

    SPRITE_MARGIN = 4                    # pixels around a label's text box: its white backing
    SHEET_WIDTH = 2400                   # pixels of the sheet new labels are rendered on together

    def __init__(self) -> None:
        self._probe_fig = Figure(figsize=(4, 2), dpi=DPI)
        self._probe_canvas = FigureCanvasAgg(self._probe_fig)
        self._probe_renderer = self._probe_canvas.get_renderer()   # type: ignore[no-untyped-call]
        self._probe = self._probe_fig.text(0, 0, "", transform=None, fontfamily=FONT, linespacing=1.15,
                                           ha="left", va="bottom")
        self._measures: dict[tuple[str, int], tuple[float, float, float, float]] = {}
        self._sprites: dict[tuple[str, int, str, str], _Sprite] = {}

    # -- labels ------------------------------------------------------------------------------
    def _measure(self, text: str, size: int) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) of the text box anchored left-bottom at (0, 0) in FONT_SIZES[size]."""
        key = (text, size)
        if key not in self._measures:
            self._probe.set_text(text)
            self._probe.set_fontsize(FONT_SIZES[size])
            box = self._probe.get_window_extent(self._probe_renderer)
            self._measures[key] = (box.x0, box.y0, box.width, box.height)
        return self._measures[key]

    def _place(self, texts: Mapping[str, str], colours: Mapping[str, str], centres: Mapping[str, tuple[float, float]],
               obstacles: _Obstacles) -> dict[str, _Label]:
        """Each label, top to bottom and left to right, at its cheapest candidate (`_CANDIDATES`) that
        touches no placed label, place, star or arrow and stays in the frame; among those the least covered
        links win, plus the penalty of going further out or smaller. When none is free, the least overlap."""
        points = DPI / 72
        pad = LABEL_PAD / 2
        out: dict[str, _Label] = {}
        for key in sorted(texts, key=lambda k: (-centres[k][1], centres[k][0], k)):
            x, y = centres[key]
            best: tuple[float, float, int, int, Box] | None = None      # (hard, score, size, dir, text box)
            for penalty, size, ring, d in _CANDIDATES:
                if best is not None and best[0] == 0 and penalty >= best[1]:
                    break
                left, bottom, width, height = self._measure(texts[key], size)
                dx, dy, ha, va = DIRECTIONS[d]
                x0 = x + dx * RINGS[ring] * points + left - _SHIFT_X[ha] * width
                y0 = y + dy * RINGS[ring] * points + bottom - _SHIFT_Y[va] * height
                box = (x0 - pad, y0 - pad, x0 + width + pad, y0 + height + pad)
                limit = best[0] if best is not None else math.inf
                hard = _outside(box, obstacles.frame)
                if hard <= limit:
                    hard += obstacles.hard.cost(box, limit - hard)
                if hard > limit:
                    continue
                score = penalty
                if hard == 0:
                    score += obstacles.links.cost(box, best[1] - penalty if best is not None and best[0] == 0
                                                  else math.inf)
                if best is None or (hard, score) < best[:2]:
                    best = (hard, score, size, d, (x0, y0, x0 + width, y0 + height))
            assert best is not None
            _, _, size, d, extent = best
            obstacles.hard.add_box((extent[0] - pad, extent[1] - pad, extent[2] + pad, extent[3] + pad))
            out[key] = _Label(texts[key], size, colours[key], DIRECTIONS[d][2], extent)
        return out

    def _render(self, labels: Iterable[_Label]) -> None:
        """Render every label not rendered yet, together on one transparent sheet, and cut each out."""
        margin = self.SPRITE_MARGIN
        todo: dict[tuple[str, int, str, str], _Label] = {}
        for lab in labels:
            if (lab.text, lab.size, lab.colour, lab.ha) not in self._sprites:
                todo[(lab.text, lab.size, lab.colour, lab.ha)] = lab
        if not todo:
            return
        slots: list[tuple[tuple[str, int, str, str], int, int]] = []      # key, left, bottom (sheet pixels, y up)
        x = y = row = 0
        for key in sorted(todo):
            _, _, width, height = self._measure(key[0], key[1])
            w, h = math.ceil(width) + 2 * margin + 2, math.ceil(height) + 2 * margin + 2
            if x + w > self.SHEET_WIDTH and x > 0:
                x, y, row = 0, y + row, 0
            slots.append((key, x, y))
            x, row = x + w, max(row, h)
        sheet_height = y + row
        fig = Figure(figsize=(self.SHEET_WIDTH / DPI, max(sheet_height, 1) / DPI), dpi=DPI, facecolor=(1, 1, 1, 0))
        canvas = FigureCanvasAgg(fig)
        renderer = canvas.get_renderer()   # type: ignore[no-untyped-call]
        placed: list[tuple[tuple[str, int, str, str], Text]] = []
        for key, left, bottom in slots:
            text, size, colour, ha = key
            m_left, m_bottom, width, _ = self._measure(text, size)
            anchor_x = left + margin + 1 - m_left + _SHIFT_X[ha] * width
            anchor_y = bottom + margin + 1 - m_bottom
            placed.append((key, fig.text(round(anchor_x), round(anchor_y), text, transform=None,
                                         fontsize=FONT_SIZES[size], fontfamily=FONT, linespacing=1.15, color=colour,
                                         ha=ha, va="bottom",
                                         bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.75,
                                               "edgecolor": "none"})))
        width_px, height_px = canvas.get_width_height()
        pixels = _pixels(canvas)
        for key, artist in placed:
            box = artist.get_window_extent(renderer)
            x0, x1 = math.floor(box.x0) - margin, math.ceil(box.x1) + margin
            top, bottom = height_px - math.ceil(box.y1) - margin, height_px - math.floor(box.y0) + margin
            sprite = pixels.crop((x0, top, x1, bottom))
            sprite.load()
            self._sprites[key] = _Sprite(sprite, box.x0 - x0, (height_px - box.y1) - top)

    # -- a map ---------------------------------------------------------------------------------
    def draw(self, picture: MapPicture, title: str = "", viewer: str | None = None) -> Drawing:
        """The picture as a WIDTH_PX × HEIGHT_PX PNG; arrows only of `viewer` (none on the public map)."""
        colours = faction_colours(picture.factions)
        where = layout(picture)
        fig = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI)
        canvas = FigureCanvasAgg(fig)
        ax = fig.add_axes((0.02, 0.03, 0.72, 0.89))
        ax.set_axis_off()
        xs = [xy[0] for xy in where.values()] or [0.0]
        ys = [xy[1] for xy in where.values()] or [0.0]
        span_x, span_y = max(max(xs) - min(xs), 1e-9), max(max(ys) - min(ys), 1e-9)
        ax.set_xlim(min(xs) - 0.14 * span_x, max(xs) + 0.14 * span_x)
        ax.set_ylim(min(ys) - 0.14 * span_y, max(ys) + 0.10 * span_y)
        if title:
            fig.suptitle(title, x=0.02, y=0.97, ha="left", fontsize=15 if len(title) <= 70 else 12,
                         fontfamily=FONT, fontweight="bold")
        links = [link for link in picture.links if link.a in where and link.b in where]
        for kind, style in (("road", "-"), ("land", "-"), ("sea", "--")):
            mine = [(where[link.a], where[link.b]) for link in links if link.kind == kind]
            if mine:
                ax.add_collection(LineCollection(mine, colors=LINK_COLOURS[kind], linewidths=LINK_WIDTH,
                                                 linestyles=style, zorder=1, capstyle="round"))
        others = [(where[link.a], where[link.b]) for link in links if link.kind not in LINK_COLOURS]
        if others:
            ax.add_collection(LineCollection(others, colors="#8c7b63", linewidths=LINK_WIDTH, zorder=1))
        groups: dict[tuple[str, bool], list[MapPlace]] = {}
        for place in picture.places:
            groups.setdefault((place.kind, place.ruined), []).append(place)
        for (kind, ruined), group in groups.items():
            ax.scatter([where[p.key][0] for p in group], [where[p.key][1] for p in group],
                       s=MARKER_SIZE.get(kind, 17.0) ** 2, marker=MARKERS.get(kind, "o"),
                       c=[_fill(p, colours) for p in group], edgecolors="#202020", linewidths=1.2,
                       hatch="xxx" if ruined else None, zorder=3)
        shown = {p.key for p in picture.places}
        notes: dict[str, list[str]] = {}
        for marker in picture.markers:
            if marker.place in shown:
                here = notes.setdefault(marker.place, [])
                if marker.text and marker.text not in here:
                    here.append(marker.text)
        marks = tuple(notes)                                  # one star per place, however many markers
        if marks:
            star_offset = offset_copy(ax.transData, fig=fig, x=STAR_OFFSET, y=STAR_OFFSET, units="points")
            ax.plot([where[k][0] for k in marks], [where[k][1] for k in marks], linestyle="none", marker="*",
                    markersize=STAR_SIZE, color=BATTLE, markeredgecolor="white", markeredgewidth=0.8, zorder=5,
                    transform=star_offset)
        arrows = [a for a in picture.arrows if viewer is not None and a.faction == viewer
                  and a.source in where and a.target in where and a.source != a.target]
        arrow_colour = colours.get(viewer, NO_VIEWER_ARROW) if viewer is not None else NO_VIEWER_ARROW
        for arrow in arrows:
            ax.add_patch(FancyArrowPatch(where[arrow.source], where[arrow.target], arrowstyle="-|>",
                                         mutation_scale=22, linewidth=ARROW_WIDTH,
                                         linestyle=ARROW_STYLES.get(arrow.kind, "solid"), color=arrow_colour,
                                         shrinkA=ARROW_SHRINK, shrinkB=ARROW_SHRINK, zorder=4))
        legend = _legend(fig, picture, colours, [a.kind for a in arrows], arrow_colour, bool(marks))
        renderer = canvas.get_renderer()   # type: ignore[no-untyped-call]  # matplotlib does not annotate it
        centres_display = {p.key: (float(v[0]), float(v[1]))
                           for p in picture.places for v in [ax.transData.transform(where[p.key])]}
        frame_box = ax.get_window_extent(renderer)
        obstacles = _Obstacles(_Grid(), _Grid(), (frame_box.x0, frame_box.y0, frame_box.x1, frame_box.y1))
        radius = max(MARKER_SIZE.values()) / 72 * DPI / 2 + 1
        lift = STAR_OFFSET * DPI / 72
        star_radius = STAR_SIZE / 72 * DPI / 2
        for x, y in centres_display.values():
            obstacles.hard.add_box((x - radius, y - radius, x + radius, y + radius))
        for key in marks:
            x, y = centres_display[key]
            obstacles.hard.add_box((x + lift - star_radius, y + lift - star_radius, x + lift + star_radius,
                                    y + lift + star_radius))
        drawn_arrows = [_shrunk(centres_display[a.source], centres_display[a.target], ARROW_SHRINK * DPI / 72)
                        for a in arrows]
        for seg in drawn_arrows:
            obstacles.hard.add_segment((*seg, ARROW_WIDTH * DPI / 72 / 2 + 4))      # the line and its head
        for link in links:
            obstacles.links.add_segment((*centres_display[link.a], *centres_display[link.b],
                                         LINK_WIDTH * DPI / 72 / 2))
        labels = self._place({p.key: _label_text(p, notes) for p in picture.places},
                             {p.key: "#7a0014" if p.key in notes else "#111111" for p in picture.places},
                             centres_display, obstacles)
        self._render(labels.values())
        image = _pixels(canvas)
        for label in labels.values():
            sprite = self._sprites[(label.text, label.size, label.colour, label.ha)]
            left, top = label.extent[0] - sprite.left, HEIGHT_PX - label.extent[3] - sprite.top
            image.alpha_composite(sprite.image, (round(left), round(top)))
        png = _png(image)
        boxes = {k: (lab.extent[0], HEIGHT_PX - lab.extent[3], lab.extent[2], HEIGHT_PX - lab.extent[1])
                 for k, lab in labels.items()}
        centres = {k: (v[0], HEIGHT_PX - v[1]) for k, v in centres_display.items()}
        arrow_ends = tuple((x0, HEIGHT_PX - y0, x1, HEIGHT_PX - y1) for x0, y0, x1, y1 in drawn_arrows)
        return Drawing(png, centres, boxes, colours, arrow_ends, marks, legend)


def draw_map(picture: MapPicture, title: str = "", viewer: str | None = None) -> Drawing:
    """The picture as a WIDTH_PX × HEIGHT_PX PNG; arrows only of `viewer` (none on the public map). To draw
    several maps, keep one MapPainter: they share its labels."""
    return MapPainter().draw(picture, title, viewer)


def _pixels(canvas: FigureCanvasAgg) -> Image.Image:
    """The figure drawn, as an RGBA image of its own (the canvas's buffer copied)."""
    canvas.draw()   # type: ignore[no-untyped-call]  # matplotlib does not annotate it
    buffer = canvas.buffer_rgba()   # type: ignore[no-untyped-call]
    return Image.frombuffer("RGBA", canvas.get_width_height(), buffer, "raw", "RGBA", 0, 1).copy()


def _png(image: Image.Image) -> bytes:
    """An RGB PNG of the opaque picture (no alpha channel, no metadata: the same picture, the same bytes)."""
    buf = io.BytesIO()
    image.convert("RGB").save(buf, format="PNG", compress_level=PNG_COMPRESSION)
    return buf.getvalue()


def _legend(fig: Figure, picture: MapPicture, colours: Mapping[str, str], arrows_kinds: Sequence[str],
            arrow_colour: str, marked: bool) -> tuple[tuple[str, str], ...]:
    """Draw the legend; return its entries (text, colour) as drawn."""
    handles: list[Patch | Line2D] = [Patch(facecolor=colours[fid], edgecolor="#202020", label=name)
                                     for fid, name in sorted(picture.factions.items())]
    kinds = {p.kind for p in picture.places}
    if any(p.owner is None and not p.ruined and p.kind != "sea" for p in picture.places):
        handles.append(Patch(facecolor=UNOWNED, edgecolor="#202020", label="ничьи"))
    if any(p.ruined for p in picture.places):
        handles.append(Patch(facecolor=RUINS, edgecolor="#202020", hatch="xxx", label="руины"))
    if "sea" in kinds:
        handles.append(Patch(facecolor=SEA, edgecolor="#202020", label="море"))
    link_kinds = {link.kind for link in picture.links}
    if link_kinds & {"road"}:
        handles.append(Line2D([], [], color=LINK_COLOURS["road"], linewidth=LINK_WIDTH, label="дорога"))
    if link_kinds & {"land"}:
        handles.append(Line2D([], [], color=LINK_COLOURS["land"], linewidth=LINK_WIDTH, label="граница"))
    if "sea" in link_kinds:
        handles.append(Line2D([], [], color=SEA, linewidth=LINK_WIDTH, linestyle="--", label="морской путь"))
    if marked:
        handles.append(Line2D([], [], marker="*", markersize=STAR_SIZE, color=BATTLE, linestyle="none",
                              label="бой этого хода"))
    for kind in dict.fromkeys(arrows_kinds):
        handles.append(Line2D([], [], color=arrow_colour, linewidth=ARROW_WIDTH,
                              linestyle=ARROW_STYLES.get(kind, "solid"),
                              label=f"ваш приказ: {ARROW_TITLES.get(kind, kind)}"))
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.76, 0.92), frameon=True, fontsize=10,
               prop={"family": FONT, "size": 10}, title="Обозначения", title_fontproperties={"family": FONT,
                                                                                                "weight": "bold"})
    entries: list[tuple[str, str]] = []
    for handle in handles:
        colour = handle.get_facecolor() if isinstance(handle, Patch) else handle.get_color()
        entries.append((str(handle.get_label()), to_hex(colour)))
    return tuple(entries)


