"""Drawing a map picture (engine.ruleset.MapPicture) to PNG with Pillow, whatever rule set made it.

One file, over 400 lines: the label placement needs the geometry of every place, link, star and arrow drawn,
and the charts (charts.py) draw with its strokes, type and PNG writer.

Places are coloured by owner (one fixed colour per faction, by its place in `MapPicture.factions`, so a
faction keeps its colour from turn to turn; unowned grey, sea blue, ruins hatched), with the name and
the size/level note beside them; links are lines (sea links dashed); a place where something happened
gets one red star (however many markers name it: their notes go under its label), and the legend says
which turn the stars are of (`battles_title`: «бой этого хода» only for the map's own turn); the viewer's
own orders are arrows in the viewer's colour, and the legend shows them in that colour; a legend names
the factions. Coordinates are the places' x (east) and y (north); places without them are laid out by
networkx's spring layout with a fixed seed (networkx is imported only then).

Labels are placed at the offset around their place, nearest first, that overlaps no other label, place,
star or arrow and stays in the frame, preferring, among the free ones of a ring, the one that covers the
least of the links (a label may cross a road, never an arrow). The search weighs all of a label's
candidate boxes at once as numpy arrays (each label measured once per font size) against the boxes and
strokes within their reach; what does not change between the maps of a stage (a label's candidates at its
place, their overlaps with the places and stars, the links they cover) is worked out once per painter.

Drawn with Pillow alone, which the books already need (matplotlib, which drew them before, cost a turn
0.4 s to import, more than drawing every map of a demo stage now does): shapes are drawn SUPERSAMPLE
times larger and reduced, so their edges are smooth; text is DejaVu Sans, whose regular and bold files
ship with forumwar in sheets_bridge/fonts beside their licence (the copies matplotlib shipped, which is no
longer installed). What the maps of a stage share is drawn once per painter: the
links and places under everything else, each marker, the star, each line of text, each label, each legend,
each label's spot over the same links and obstacles. A stage's maps are drawn over its public map (`base`):
its labels are placed once, a faction's map weighs only the labels that differ or that its arrows cover; and
the ground with the public stars and labels (the shared layer) is drawn once, each map being a copy of it
redrawn only where its own arrows, labels, legend and title lie (`MapPainter._compose`), to the same pixels
as drawing everything on the ground. The PNG is written here (`png_bytes`): rows
unfiltered, no timestamp, so the same picture gives the same bytes; a third of Pillow's own time on these
flat pictures, about as small; deflated by zlib-ng where it is installed (as it is with forumwar: a third of
zlib's time again, and smaller), else by the standard library's zlib.
"""
from __future__ import annotations

import functools
import io
import math
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Literal

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.ruleset import MapMarker, MapPicture, MapPlace

try:
    from zlib_ng.zlib_ng import compressobj
    PNG_COMPRESSION = 2          # zlib-ng's level: smaller than zlib's 1, in under half its time
except ImportError:              # a platform zlib-ng has no wheel for: the same PNG format, slower
    from zlib import compressobj  # type: ignore[assignment]
    PNG_COMPRESSION = 1          # zlib's level: 6% larger than at 3 on these pictures, a tenth quicker

WIDTH_PX, HEIGHT_PX, DPI = 1400, 1000, 100
PT = DPI / 72                    # pixels per typographic point
FONT = "DejaVu Sans"             # has Cyrillic; its two files ship in sheets_bridge/fonts (free licence)
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# Faction colours in game order (tab20's strong and light tones without greys and sea blues)
PALETTE = ("#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#bcbd22", "#17becf",
           "#ffbb78", "#98df8a", "#c5b0d5", "#c49c94", "#f7b6d2", "#dbdb8d", "#393b79", "#637939")
UNOWNED = "#a0a0a0"
SEA = "#6baed6"
RUINS = "#d9d9d9"
BATTLE = "#b2001e"
NO_VIEWER_ARROW = "#333333"
EDGE = "#202020"                 # the outline of places and of the legend's swatches
LINK_COLOURS = {"road": "#8c7b63", "land": "#8c7b63", "sea": SEA}
OTHER_LINK = "#8c7b63"
Style = Literal["solid", "dashed", "dotted", "dashdot"]
# Each rule set's kinds of arrows in their own styles (Titania: attack, move, support, spell; Jade Rose: what
# an attack does to the city it takes)
ARROW_STYLES: dict[str, Style] = {"attack": "solid", "move": "dashed", "support": "dotted", "spell": "dashdot",
                                  "colonise": "solid", "plunder": "dashed", "raze": "dotted", "defend": "dashdot"}
ARROW_TITLES = {"attack": "атака", "move": "движение", "support": "поддержка", "spell": "заклинание",
                "colonise": "атака — колонизация", "plunder": "атака — разграбление", "raze": "атака — разрушение",
                "defend": "оборона города"}
DASHES: dict[Style, tuple[float, ...] | None] = {"solid": None, "dashed": (3.7, 1.6), "dotted": (1.0, 1.65),
                                                 "dashdot": (4.5, 1.5, 1.0, 1.5)}
ARROW_WIDTH = 2.6                # points
ARROW_SHRINK = 12.0              # points kept free at each end of an arrow
ARROW_HEAD = (8.8, 4.4)          # points: the head's length and half width
LINK_WIDTH = 2.2
EDGE_WIDTH = 1.2                 # points: a place's outline
MARKER_SIZE = {"city": 17.0, "land": 19.0, "sea": 19.0}   # points
MARKERS = {"city": "o", "land": "s", "sea": "h"}
STAR_OFFSET = 13.0               # points up and right of its place
STAR_SIZE = 15.0
LABEL_PAD = 5.0                  # pixels kept between labels
LINE_SPACING = 1.15              # a label's lines, in font sizes
SUPERSAMPLE = 3                  # shapes are drawn this many times larger, then reduced: smooth edges
FRAME = (0.02, 0.03, 0.72, 0.89)  # the map's area in the picture (left, bottom, width, height; fractions)
TITLE_AT = (0.02, 0.97)          # the title's left edge and top (fractions, from the bottom)
LEGEND_AT = (0.76, 0.92)         # the legend's upper left corner (fractions, from the bottom)
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
Point = tuple[float, float]
INK = (255,)                      # what a pen draws on a mask (`Pen` on a grey (0,) canvas): full cover
RGB = tuple[int, ...]              # a colour as its channels: (r, g, b), (r, g, b, a) or (grey,)
_Lines = tuple[tuple[str, Point, Point], ...]     # each link drawn: its kind and ends (PNG pixels)


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


# -- the pen: type, strokes and shapes, and the PNG ------------------------------------------------

def rgb(colour: str) -> RGB:
    """«#rrggbb» as (r, g, b)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


@functools.cache
def _font_file(bold: bool) -> bytes:
    """The font file's bytes, from the package's own fonts folder (sheets_bridge/fonts, with its licence)."""
    return files("sheets_bridge").joinpath("fonts", FONT_FILES[bold]).read_bytes()


@functools.cache
def font(points: float, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold) at `points` (pixels at DPI)."""
    return ImageFont.truetype(io.BytesIO(_font_file(bold)), size=points * PT)


@functools.cache
def text_size(text: str, points: float, bold: bool = False) -> tuple[float, float]:
    """(width, height) in pixels of a text's box, its lines LINE_SPACING apart (as `put_text` draws it)."""
    ascent, descent = font(points, bold).getmetrics()
    lines = text.split("\n")
    return max(_length(line, points, bold) for line in lines), (len(lines) - 1) * _step(points) + ascent + descent


@functools.lru_cache(maxsize=16384)
def _length(line: str, points: float, bold: bool) -> float:
    """A line's advance in pixels (the same lines recur on every map of a stage)."""
    return font(points, bold).getlength(line)


def _step(points: float) -> float:
    return points * PT * LINE_SPACING


def put_text(image: Image.Image, xy: Point, text: str, points: float, colour: str | tuple[int, ...],
             bold: bool = False, align: HAlign = "left") -> None:
    """Draw the text with its box's upper left corner at `xy` (whole pixels: the same glyphs wherever it
    goes), each line aligned within the box; each line's glyphs are rendered once (`_line_mask`)."""
    for stamp in _text_stamps(xy, text, points, colour if isinstance(colour, tuple) else rgb(colour), bold, align):
        stamp.put(image)


def _text_stamps(xy: Point, text: str, points: float, fill: RGB, bold: bool = False,
                 align: HAlign = "left") -> list[_Stamp]:
    """Each line of the text as `put_text` draws it: its glyphs' cover in the colour, on whole pixels."""
    width = text_size(text, points, bold)[0]
    out = []
    for i, line in enumerate(text.split("\n")):
        if not line:
            continue
        x = round(xy[0] + (width - _length(line, points, bold)) * _SHIFT_X[align])
        y = round(xy[1] + i * _step(points))
        mask, left, top = _line_mask(line, points, bold)
        out.append(_Stamp(("text", line, points, bold, fill, x, y),
                          (x + left, y + top, x + left + mask.width, y + top + mask.height), fill, mask))
    return out


@functools.lru_cache(maxsize=8192)
def _line_mask(line: str, points: float, bold: bool) -> tuple[Image.Image, int, int]:
    """A line of text rendered as a mask, and where its upper left corner lies from the line's anchor (its
    left end on the ascender line): the glyphs drawn there at whole pixels are these."""
    rendered, (left, top) = font(points, bold).getmask2(line, "L", anchor="la", ink=255)   # the glyphs' cover
    width, height = rendered.size
    if not (width and height):
        return Image.new("L", (max(1, width), max(1, height)), 0), left, top
    return Image.Image()._new(rendered), left, top


def dashes(a: Point, b: Point, pattern: tuple[float, ...] | None) -> list[tuple[Point, Point]]:
    """The pieces of the segment a→b drawn in a dash pattern (on, off lengths, repeated: (on, off, on, off) is a
    dash and a dot; None: the whole)."""
    if pattern is None:
        return [(a, b)]
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return []
    pairs = list(zip(pattern[0::2], pattern[1::2], strict=True))
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    out: list[tuple[Point, Point]] = []
    at = 0.0
    n = 0
    while at < length:
        on, off = pairs[n % len(pairs)]
        end = min(at + on, length)
        out.append(((a[0] + ux * at, a[1] + uy * at), (a[0] + ux * end, a[1] + uy * end)))
        at = end + off
        n += 1
    return out


class Pen:
    """Draws on a canvas SUPERSAMPLE (`scale`) times larger than the picture part it stands for, whose
    upper left corner is `origin` (picture pixels): coordinates and widths are given in picture pixels."""

    def __init__(self, size: tuple[int, int], background: tuple[int, ...], origin: Point = (0.0, 0.0),
                 scale: int = SUPERSAMPLE) -> None:
        self.size, self.origin, self.scale = size, origin, scale
        mode = {1: "L", 3: "RGB", 4: "RGBA"}[len(background)]
        self.canvas = Image.new(mode, (size[0] * scale, size[1] * scale), background)
        self.draw = ImageDraw.Draw(self.canvas)

    def _xy(self, p: Point) -> Point:
        return (p[0] - self.origin[0]) * self.scale, (p[1] - self.origin[1]) * self.scale

    def line(self, a: Point, b: Point, colour: RGB, width: float, style: Style = "solid",
             round_caps: bool = False) -> None:
        """A stroke `width` pixels wide, solid, dashed or dotted (dashes in widths, as matplotlib's)."""
        pattern = DASHES[style]
        scaled = None if pattern is None else tuple(length * width for length in pattern)
        w = max(1, round(width * self.scale))
        for p, q in dashes(a, b, scaled):
            self.draw.line([self._xy(p), self._xy(q)], fill=colour, width=w)
            if round_caps:
                for end in (p, q):
                    self.circle(end, width / 2, colour)

    def circle(self, centre: Point, radius: float, colour: RGB) -> None:
        x, y = self._xy(centre)
        r = radius * self.scale
        self.draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)

    def polygon(self, points: Sequence[Point], fill: RGB | None, edge: RGB | None = None, width: float = 0) -> None:
        """A filled polygon, its outline stroked `width` pixels wide across the path (half in, half out)."""
        xy = [self._xy(p) for p in points]
        if fill is not None:
            self.draw.polygon(xy, fill=fill)
        if edge is not None and width > 0:
            self.draw.line([*xy, xy[0], xy[1]], fill=edge, width=max(1, round(width * self.scale)), joint="curve")

    def ring(self, centre: Point, radius: float, colour: RGB, width: float) -> None:
        """A circle's outline stroked `width` pixels wide across it."""
        x, y = self._xy(centre)
        r = (radius + width / 2) * self.scale
        self.draw.ellipse([x - r, y - r, x + r, y + r], outline=colour, width=max(1, round(width * self.scale)))

    def disc(self, centre: Point, radius: float, fill: RGB, edge: RGB | None = None, width: float = 0) -> None:
        """A filled circle, its outline stroked `width` pixels wide across it."""
        if edge is not None and width > 0:
            self.circle(centre, radius + width / 2, edge)
            self.circle(centre, max(radius - width / 2, 0.0), fill)
        else:
            self.circle(centre, radius, fill)

    def image(self) -> Image.Image:
        """The canvas reduced to the picture's size, each pixel the mean of those it stands for. A
        transparent canvas's background has the colour of the strokes at its edges (a marker's outline, an
        arrow's own): averaged with them it leaves their colour and thins their cover, as it should."""
        return self.canvas.reduce(self.scale)


def png_bytes(image: Image.Image) -> bytes:
    """An RGB PNG of the opaque picture: no alpha channel, no metadata (the same picture, the same bytes);
    rows unfiltered, which on these flat pictures compresses about as well as Pillow's filters, in a third
    of the time. Pillow packs the rows `width * 3 + 1` bytes apart, a zero after each: after a first zero,
    those are the rows each led by its filter byte (none), deflated as they are."""
    rgb_image = image if image.mode == "RGB" else image.convert("RGB")
    width, height = rgb_image.size
    rows = rgb_image.tobytes("raw", "RGB", width * 3 + 1)
    deflate = compressobj(PNG_COMPRESSION)
    data = deflate.compress(b"\0") + deflate.compress(memoryview(rows)[:-1]) + deflate.flush()

    def chunk(kind: bytes, data: bytes) -> list[bytes]:
        return [struct.pack(">I", len(data)), kind, data, struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))]

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)       # 8 bits, truecolour
    return b"".join([b"\x89PNG\r\n\x1a\n", *chunk(b"IHDR", header), *chunk(b"IDAT", data), *chunk(b"IEND", b"")])


def regular_polygon(centre: Point, radius: float, sides: int, rotation: float = 90.0) -> list[Point]:
    """The corners of a regular polygon around `centre` (picture pixels, y down), the first at
    `rotation` degrees counter-clockwise from east."""
    return [(centre[0] + radius * math.cos(math.radians(rotation + 360 * k / sides)),
             centre[1] - radius * math.sin(math.radians(rotation + 360 * k / sides))) for k in range(sides)]


def star(centre: Point, radius: float) -> list[Point]:
    """A five-pointed star pointing up (matplotlib's «*»: the inner radius 0.382 of the outer)."""
    outer = regular_polygon(centre, radius, 5)
    inner = regular_polygon(centre, radius * 0.381966, 5, 90.0 + 36.0)
    return [p for pair in zip(outer, inner, strict=True) for p in pair]


# -- the map's geometry --------------------------------------------------------------------------

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


def _notes(picture: MapPicture, shown: set[str]) -> dict[str, list[str]]:
    """The markers' texts at each place shown that has a marker (its star), each text once."""
    notes: dict[str, list[str]] = {}
    for marker in picture.markers:
        if marker.place in shown:
            here = notes.setdefault(marker.place, [])
            if marker.text and marker.text not in here:
                here.append(marker.text)
    return notes


def _same_ground(a: MapPicture, b: MapPicture) -> bool:
    """Whether the two pictures lay out the same places at the same spots with the same links."""
    return a.links == b.links and [(p.key, p.x, p.y) for p in a.places] == [(p.key, p.x, p.y) for p in b.places]


def _label_colour(key: str, notes: Mapping[str, list[str]]) -> str:
    return "#7a0014" if key in notes else "#111111"


def _label_text(place: MapPlace, notes: Mapping[str, list[str]]) -> str:
    lines = [place.name] + ([place.label] if place.label else []) + notes.get(place.key, [])
    return "\n".join(lines)


# -- label placement: boxes and segments as rows of arrays, in display pixels (y up) ----------------

_SHIFT_X = {"left": 0.0, "center": 0.5, "right": 1.0}
_SHIFT_Y = {"bottom": 0.0, "center": 0.5, "top": 1.0}
# Every (penalty, font size index, offset) a label may take, cheapest first: nearer rings, then smaller type
_CANDIDATES = sorted((ring * RING_PENALTY + size * SIZE_PENALTY + DIRECTION_PENALTY[d], size, ring, d)
                     for size in range(len(FONT_SIZES)) for ring in range(len(RINGS)) for d in range(len(DIRECTIONS)))


def _overlap_terms(columns: tuple[np.ndarray, ...], others: np.ndarray) -> np.ndarray:
    """The overlap area of each of the boxes whose x0, y0, x1, y1 are `columns` (each n×1) with each of the
    others (m×4 as x0, y0, x1, y1): n×m."""
    x0, y0, x1, y1 = columns
    w: np.ndarray = np.minimum(x1, others[:, 2])
    w -= np.maximum(x0, others[:, 0])
    h = np.minimum(y1, others[:, 3])
    h -= np.maximum(y0, others[:, 1])
    np.maximum(w, 0.0, out=w)
    np.maximum(h, 0.0, out=h)
    w *= h
    return w


def _strokes(segments: np.ndarray) -> np.ndarray:
    """Each segment (m×5: xa, ya, xb, yb, half width) as `_covered` weighs it (m×6: xa, ya, half width, 1/dx,
    1/dy, its stroke's area per unit along it), worked out once per map. Along an axis the segment does not
    move it is inside a box for every t or for none: 1/tiny there makes that so."""
    xa, ya, xb, yb, hw = (segments[:, k] for k in range(5))
    dx, dy = xb - xa, yb - ya
    strokes: np.ndarray = np.stack([xa, ya, hw, 1 / np.where(dx == 0, 1e-300, dx), 1 / np.where(dy == 0, 1e-300, dy),
                                    np.hypot(dx, dy) * 2 * hw], axis=1)
    return strokes


def _covered(boxes: np.ndarray, strokes: np.ndarray) -> np.ndarray:
    """The area of each box the strokes cover, summed (strokes m×6, `_strokes`): the length of a segment
    inside the box widened by the stroke's half width, times the stroke's width. Where the segment crosses
    the widened box: the parameters t0, t1 along it (none when t1 <= t0). Called within an errstate that
    lets 1/tiny overflow to infinity (`MapPainter._place`)."""
    if not len(strokes):
        return np.zeros(len(boxes))
    xa, ya, hw, step_x, step_y, weight = strokes.T
    ax = (boxes[:, None, 0] - hw - xa) * step_x
    bx = (boxes[:, None, 2] + hw - xa) * step_x
    ay = (boxes[:, None, 1] - hw - ya) * step_y
    by = (boxes[:, None, 3] + hw - ya) * step_y
    t0 = np.maximum(np.maximum(np.minimum(ax, bx), np.minimum(ay, by)), 0.0)
    t1 = np.minimum(np.minimum(np.maximum(ax, bx), np.maximum(ay, by)), 1.0)
    area: np.ndarray = (np.maximum(t1 - t0, 0.0) * weight).sum(axis=1)
    return area


def _near(items: np.ndarray, bounds: np.ndarray, region: Box) -> np.ndarray:
    """The items whose bounds (rows of x0, y0, x1, y1) may touch the region."""
    if not len(items):
        return items
    return items[(bounds[:, 0] < region[2]) & (region[0] < bounds[:, 2]) & (bounds[:, 1] < region[3])
                 & (region[1] < bounds[:, 3])]


def _bounds(segments: np.ndarray) -> np.ndarray:
    """Each segment's box, widened by its stroke's half width (segments m×5: xa, ya, xb, yb, half width)."""
    hw = segments[:, 4]
    return np.stack([np.minimum(segments[:, 0], segments[:, 2]) - hw, np.minimum(segments[:, 1], segments[:, 3]) - hw,
                     np.maximum(segments[:, 0], segments[:, 2]) + hw, np.maximum(segments[:, 1], segments[:, 3]) + hw],
                    axis=1)


class _Obstacles:
    """What a label must keep off (places, stars, the viewer's arrows and the labels placed: `hard`) and
    what it should cover as little as it can (the links), with the frame it stays in."""

    def __init__(self, frame: Box, boxes: Sequence[Box], arrows: Sequence[Segment], links: Sequence[Segment],
                 room: int) -> None:
        self.frame = frame
        self.boxes = np.zeros((len(boxes) + room, 4))
        self.boxes[:len(boxes)] = boxes if boxes else np.zeros((0, 4))
        self.count = self.fixed = len(boxes)             # the places' and stars' boxes, then the labels placed
        arrow_segments = np.array(arrows, dtype=float).reshape(-1, 5)
        link_segments = np.array(links, dtype=float).reshape(-1, 5)
        self.arrow_bounds, self.link_bounds = _bounds(arrow_segments), _bounds(link_segments)
        self.arrows, self.links = _strokes(arrow_segments), _strokes(link_segments)     # m×6 each
        self._given = (frame, boxes, links, room)

    def without_arrows(self) -> _Obstacles:
        """The same frame, places, stars and links, with no arrow and no label placed."""
        frame, boxes, links, room = self._given
        return _Obstacles(frame, boxes, [], links, room)

    def add_box(self, box: Box) -> None:
        self.boxes[self.count] = box
        self.count += 1


@dataclass(frozen=True)
class _Candidates:
    """Every spot a label may take around its place (in `_CANDIDATES` order): its box kept clear (the text
    box and half the gap to the next label) and its text box, both from the place's centre."""

    clear: np.ndarray            # n×4
    text: np.ndarray             # n×4
    reach: Box                   # the union of the clear boxes


_PENALTIES = np.array([c[0] for c in _CANDIDATES])
_SIZES = np.array([c[1] for c in _CANDIDATES])
# Each candidate's anchor offset from its place (pixels) and its alignment as the share of the text box's
# width and height left of and below the anchor
_OFFSETS = np.array([(DIRECTIONS[d][0] * RINGS[ring] * PT, DIRECTIONS[d][1] * RINGS[ring] * PT,
                      _SHIFT_X[DIRECTIONS[d][2]], _SHIFT_Y[DIRECTIONS[d][3]]) for _, _, ring, d in _CANDIDATES])


@dataclass
class _Placements:
    """What the labels placed over the same links found: the candidate each label took among the obstacles
    within its reach (by text, place and those obstacles), and each label's candidates at its place (by
    text and place)."""

    chosen: dict[tuple[object, ...], int] = field(default_factory=dict)
    spots: dict[tuple[str, float, float], _Spot] = field(default_factory=dict)
    # the labels of each base placed (`MapPainter._place`), by its places' texts and colours: each with its box kept
    bases: dict[tuple[tuple[str, str, str], ...], dict[str, tuple[_Label, Box]]] = field(default_factory=dict)


@dataclass
class _Spot:
    """A label's candidates around its place: the region they reach, their boxes kept clear (n×4, and as
    four n×1 columns), how much of each lies out of the frame (None: all in it), their text boxes, their
    overlaps with the places and stars, and how much of the links each covers (weighed when first needed)."""

    region: Box
    clear: np.ndarray
    columns: tuple[np.ndarray, ...]
    outside: np.ndarray | None
    text: list[list[float]]
    kept: np.ndarray                 # n×m: each one's overlap with each place's and star's box within reach
    links: np.ndarray | None = None


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
    """A label, a place's marker or the star rendered once: RGBA pixels and where its text box's left and
    top edges (a marker's centre) lie in them."""

    image: Image.Image
    left: float
    top: float


def _shrunk(a: tuple[float, float], b: tuple[float, float], by: float) -> tuple[float, float, float, float]:
    """The segment a→b with `by` pixels cut off each end (an arrow kept off the places it joins)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= 2 * by:
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        return mid[0], mid[1], mid[0], mid[1]
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return a[0] + ux * by, a[1] + uy * by, b[0] - ux * by, b[1] - uy * by


def _marker_shape(pen: Pen, shape: str, centre: Point, size: float, fill: RGB | None, edge: RGB | None,
                  width: float) -> None:
    """matplotlib's marker `shape` («o», «s», «h») of `size` pixels (a circle's diameter, a square's side,
    a hexagon's corner-to-corner) around `centre`."""
    if shape == "s":
        h = size / 2
        pen.polygon([(centre[0] - h, centre[1] - h), (centre[0] + h, centre[1] - h), (centre[0] + h, centre[1] + h),
                     (centre[0] - h, centre[1] + h)], fill, edge, width)
    elif shape == "h":
        pen.polygon(regular_polygon(centre, size / 2, 6), fill, edge, width)
    elif fill is not None:
        pen.disc(centre, size / 2, fill, edge, width)
    elif edge is not None:
        pen.ring(centre, size / 2, edge, width)


def _hatch(pen: Pen, inside: Image.Image, centre: Point, spacing: float, colour: RGB, width: float) -> None:
    """Cross-hatch («xxx») the part of the pen's canvas that `inside` (a mask of its size) covers, the
    crossings around `centre` (picture pixels), so that the centre itself shows the fill."""
    lines = Image.new("L", pen.canvas.size, 0)
    draw = ImageDraw.Draw(lines)
    w, h = pen.canvas.size
    cx, cy = pen._xy(centre)
    step = spacing * pen.scale
    stroke = max(1, round(width * pen.scale))
    for k in range(-math.ceil((w + h) / step) - 1, math.ceil((w + h) / step) + 2):
        a = cx - cy + (k + 0.5) * step          # x - y = a: falling to the right
        b = cx + cy + (k + 0.5) * step          # x + y = b: rising to the right
        draw.line([(a, 0), (a + h, h)], fill=255, width=stroke)
        draw.line([(b, 0), (b - h, h)], fill=255, width=stroke)
    mask = Image.new("L", pen.canvas.size, 0)
    mask.paste(lines, (0, 0), inside)
    pen.canvas.paste(Image.new(pen.canvas.mode, pen.canvas.size, (*colour, 255)[:len(pen.canvas.mode)]), (0, 0), mask)


HATCH_SPACING = 100 / 18        # pixels between hatch lines (matplotlib's «xxx» at DPI)


def _swatch(kind: str, fill: str, ruined: bool, scale: int = 4) -> _Sprite:
    """A place's marker: its shape in its fill colour, outlined, hatched when ruined."""
    size = MARKER_SIZE.get(kind, 17.0) * PT
    width = EDGE_WIDTH * PT
    side = math.ceil(size * 1.2 + 2 * width) + 4
    centre = (side / 2, side / 2)
    shape = MARKERS.get(kind, "o")
    pen = Pen((side, side), (*rgb(EDGE), 0), scale=scale)
    _marker_shape(pen, shape, centre, size, rgb(fill), None, 0)
    if ruined:
        inside = Pen((side, side), (0,), scale=scale)
        _marker_shape(inside, shape, centre, size, (255,), None, 0)
        _hatch(pen, inside.canvas, centre, HATCH_SPACING, rgb(EDGE), 1.0 * PT)
    _marker_shape(pen, shape, centre, size, None, rgb(EDGE), width)
    return _Sprite(pen.image(), centre[0], centre[1])


def _star_sprite(fill: str = BATTLE, edge: RGB = (255, 255, 255), edge_width: float = 0.8, scale: int = 4) -> _Sprite:
    radius = STAR_SIZE * PT / 2
    side = math.ceil(2 * radius + 2 * edge_width * PT) + 4
    centre = (side / 2, side / 2)
    pen = Pen((side, side), (*edge, 0), scale=scale)
    pen.polygon(star(centre, radius), rgb(fill), edge, edge_width * PT)
    return _Sprite(pen.image(), centre[0], centre[1])


def _paste(image: Image.Image, sprite: _Sprite, x: float, y: float) -> None:
    """Put the sprite with its anchor (`left`, `top`) at (x, y), on whole pixels."""
    _sprite_stamp((), sprite, x, y).put(image)


@dataclass(frozen=True, eq=False)
class _Stamp:
    """One thing drawn on a map's ground, on whole pixels: an image (with its own alpha as the mask, or
    opaque) or a colour through a mask, within `box` (x0, y0, x1, y1). Stamps with the same `key` draw the
    same pixels at the same place; `shared`: one every map of a stage may have (a star, a label)."""

    key: tuple[object, ...]
    box: tuple[int, int, int, int]
    source: Image.Image | RGB
    mask: Image.Image | None = None
    shared: bool = False

    def put(self, target: Image.Image, ox: int = 0, oy: int = 0) -> None:
        """Draw it on `target`, whose upper left corner is (ox, oy) of the picture (Pillow clips to it)."""
        x0, y0, x1, y1 = self.box
        if isinstance(self.source, Image.Image):
            target.paste(self.source, (x0 - ox, y0 - oy), self.mask)
        else:
            target.paste(self.source, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), self.mask)


def _sprite_stamp(key: tuple[object, ...], sprite: _Sprite, x: float, y: float, shared: bool = False) -> _Stamp:
    """The sprite with its anchor (`left`, `top`) at (x, y), on whole pixels (`key` tells its pixels)."""
    px, py = round(x - sprite.left), round(y - sprite.top)
    return _Stamp((*key, px, py), (px, py, px + sprite.image.width, py + sprite.image.height), sprite.image,
                  sprite.image, shared)


@dataclass(frozen=True)
class _Shared:
    """The shared layer of a painter's maps (`MapPainter._compose`): its ground, its stamps' keys in their
    order (and as a set) with their boxes, and the ground with those stamps drawn."""

    ground: object
    order: tuple[tuple[object, ...], ...]
    keys: set[tuple[object, ...]]
    boxes: tuple[tuple[int, int, int, int], ...]
    image: Image.Image


def links_image(lines: _Lines) -> Image.Image:
    """The white picture with the links drawn (kind, end, end in PNG pixels): roads, then land, then sea."""
    # the finer canvas reaches as far right and down as the links do (the legend's side stays white)
    reach = LINK_WIDTH * PT + 4
    right = max([x + reach for _, a, b in lines for x in (a[0], b[0])], default=1.0)
    bottom = max([y + reach for _, a, b in lines for y in (a[1], b[1])], default=1.0)
    pen = Pen((min(WIDTH_PX, math.ceil(right)), min(HEIGHT_PX, math.ceil(bottom))), (255, 255, 255))
    order = {"road": 0, "land": 1, "sea": 2}
    for kind, a, b in sorted(lines, key=lambda line: order.get(line[0], 3)):
        pen.line(a, b, rgb(LINK_COLOURS.get(kind, OTHER_LINK)), LINK_WIDTH * PT,
                 "dashed" if kind == "sea" else "solid", round_caps=kind in LINK_COLOURS)
    ground = Image.new("RGB", (WIDTH_PX, HEIGHT_PX), (255, 255, 255))
    ground.paste(pen.image(), (0, 0))
    return ground


def places_image(links: Image.Image, places: tuple[tuple[str, str, bool, Point], ...],
                 swatches: dict[tuple[str, str, bool], _Sprite]) -> Image.Image:
    """The links' picture with each place's marker (kind, fill, ruined, centre) on it; `swatches`: the
    markers rendered so far, by kind, fill and ruin (each rendered once)."""
    image = links.copy()
    for kind, fill, ruined, (x, y) in places:
        key = (kind, fill, ruined)
        if key not in swatches:
            swatches[key] = _swatch(*key)
        _paste(image, swatches[key], x, y)
    return image


def shared_layer(ground: Image.Image, stamps: Sequence[_Stamp]) -> Image.Image:
    """The ground with the stamps every map of a stage shares drawn on it (once per stage)."""
    image = ground.copy()
    for stamp in stamps:
        stamp.put(image)
    return image


@dataclass(frozen=True)
class _Entry:
    """One line of the legend: a swatch («patch»), a stroke («line») or the star («star»), and its text."""

    kind: str
    text: str
    colour: str
    style: Style = "solid"
    hatch: bool = False


LEGEND_POINTS = 10.0
LEGEND_TITLE = "Обозначения"
LEGEND_FRAME = "#cccccc"


def _legend_image(entries: tuple[_Entry, ...]) -> Image.Image:
    """The legend as matplotlib's default one lays out (its spacings in font sizes): a white box with a
    light frame, the bold title, then each entry's swatch or stroke and its text."""
    fs = LEGEND_POINTS * PT
    pad, sep, handle_w, handle_h, gap = 0.4 * fs, 0.5 * fs, 2.0 * fs, 0.7 * fs, 0.8 * fs
    title_w, title_h = text_size(LEGEND_TITLE, LEGEND_POINTS, bold=True)
    sizes = [text_size(e.text, LEGEND_POINTS) for e in entries]
    row_h = max([handle_h, *(h for _, h in sizes)])
    width = math.ceil(2 * pad + max(title_w, handle_w + gap + max((w for w, _ in sizes), default=0.0))) + 2
    height = math.ceil(2 * pad + title_h + sep + len(entries) * row_h + max(len(entries) - 1, 0) * sep) + 2
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle([0, 0, width - 1, height - 1], radius=round(0.2 * fs), outline=rgb(LEGEND_FRAME),
                           width=max(1, round(1.0 * PT)))
    column = (math.floor(pad) - 3, math.ceil(pad + handle_w) + 3)          # the swatches, drawn finely
    pen = Pen((column[1] - column[0], height - 2), (255, 255, 255), origin=(column[0], 1))
    tops = [pad + title_h + sep + i * (row_h + sep) for i in range(len(entries))]
    for entry, top in zip(entries, tops, strict=True):
        mid = top + row_h / 2
        x0, x1 = pad, pad + handle_w
        if entry.kind == "patch":
            corners = [(x0, mid - handle_h / 2), (x1, mid - handle_h / 2), (x1, mid + handle_h / 2),
                       (x0, mid + handle_h / 2)]
            pen.polygon(corners, rgb(entry.colour))
            if entry.hatch:
                inside = Image.new("L", pen.canvas.size, 0)
                ImageDraw.Draw(inside).polygon([pen._xy(p) for p in corners], fill=255)
                _hatch(pen, inside, ((x0 + x1) / 2, mid), HATCH_SPACING, rgb(EDGE), 1.0 * PT)
            pen.polygon(corners, None, rgb(EDGE), 1.0 * PT)
        elif entry.kind == "star":
            pen.polygon(star(((x0 + x1) / 2, mid), STAR_SIZE * PT / 2), rgb(entry.colour), rgb(entry.colour), PT)
        elif entry.kind == "note":          # a line of text alone (what the map leaves out)
            pass
        else:
            line_w = ARROW_WIDTH * PT if entry.text.startswith("ваш приказ") else LINK_WIDTH * PT
            pen.line((x0, mid), (x1, mid), rgb(entry.colour), line_w, entry.style)
    image.paste(pen.image(), (column[0], 1))
    put_text(image, ((width - title_w) / 2, pad), LEGEND_TITLE, LEGEND_POINTS, "#000000", bold=True)
    for entry, top, (_, h) in zip(entries, tops, sizes, strict=True):
        put_text(image, (pad + handle_w + gap, top + (row_h - h) / 2), entry.text, LEGEND_POINTS, "#000000")
    return image


def shown_markers(picture: MapPicture) -> tuple[MapMarker, ...]:
    """The picture's markers at places it shows (the ones drawn as stars)."""
    shown = {p.key for p in picture.places}
    return tuple(m for m in picture.markers if m.place in shown)


def battles_title(picture: MapPicture) -> str | None:
    """What the map's stars are, as the legend and the book's note say it: «бой этого хода» only for
    markers of the picture's own turn, «бой хода 2» for those of turn 2 (the map that opens turn 3 shows
    the battles of turn 2), «бой» when a turn is not known; None without stars."""
    turns = {m.turn for m in shown_markers(picture)}
    if not turns:
        return None
    if None in turns or picture.turn is None:
        return "бой"
    told = ["этого хода" if t == picture.turn else f"хода {t}" for t in sorted(t for t in turns if t is not None)]
    return "бой " + " или ".join(told)


def _legend_entries(picture: MapPicture, colours: Mapping[str, str], arrow_kinds: Sequence[str],
                    arrow_colour: str, battles: str | None, notes: Sequence[str] = ()) -> tuple[_Entry, ...]:
    """The legend's entries: the factions, then the kinds of places and links drawn, the star, the arrows, the
    `notes` (lines of text alone)."""
    entries = [_Entry("patch", name, colours[fid]) for fid, name in sorted(picture.factions.items())]
    kinds = {p.kind for p in picture.places}
    if any(p.owner is None and not p.ruined and p.kind != "sea" for p in picture.places):
        entries.append(_Entry("patch", "ничьи", UNOWNED))
    if any(p.ruined for p in picture.places):
        entries.append(_Entry("patch", "руины", RUINS, hatch=True))
    if "sea" in kinds:
        entries.append(_Entry("patch", "море", SEA))
    link_kinds = {link.kind for link in picture.links}
    if "road" in link_kinds:
        entries.append(_Entry("line", "дорога", LINK_COLOURS["road"]))
    if "land" in link_kinds:
        entries.append(_Entry("line", "граница", LINK_COLOURS["land"]))
    if "sea" in link_kinds:
        entries.append(_Entry("line", "морской путь", SEA, "dashed"))
    if battles is not None:
        entries.append(_Entry("star", battles, BATTLE))
    for kind in dict.fromkeys(arrow_kinds):
        entries.append(_Entry("line", f"ваш приказ: {ARROW_TITLES.get(kind, kind)}", arrow_colour,
                              ARROW_STYLES.get(kind, "solid")))
    entries += [_Entry("note", text, "#000000") for text in notes]
    return tuple(entries)


class MapPainter:
    """Draws maps one after another, keeping what they share: each label's measure in each type size and
    each label rendered once (a stage's public map and every faction's map have most labels in common),
    the last map's links and places, each marker, the star, each legend, and the spot each label took
    among the obstacles within its reach. A label's pixels do not depend on where it goes (text is drawn
    on whole pixels) and a label goes where a search among the same obstacles takes it, so a map's PNG is
    the same whatever the painter drew before it."""

    SPRITE_MARGIN = 4                    # pixels around a label's text box: its white backing

    def __init__(self) -> None:
        self._sprites: dict[tuple[str, int, str, str], _Sprite] = {}
        self._swatches: dict[tuple[str, str, bool], _Sprite] = {}
        self._legends: dict[tuple[_Entry, ...], Image.Image] = {}
        self._links: tuple[_Lines, Image.Image] | None = None
        self._ground_kept: tuple[tuple[tuple[str, str, bool, Point], ...], Image.Image] | None = None
        self._star: _Sprite | None = None
        self._spots: dict[str, _Candidates] = {}
        self._placed: tuple[tuple[_Lines, list[Box]], _Placements] | None = None    # the last map's links, places
        self._shared: _Shared | None = None          # the first map's ground, stars and labels (`_compose`)

    # -- labels ------------------------------------------------------------------------------
    def _measure(self, text: str, size: int) -> tuple[float, float, float, float]:
        """(left, bottom, width, height) of the text box anchored left-bottom at (0, 0) in FONT_SIZES[size]."""
        width, height = text_size(text, FONT_SIZES[size])
        return 0.0, 0.0, width, height

    def _candidates(self, text: str) -> _Candidates:
        """The label's spots around its place (measured once per text)."""
        found = self._spots.get(text)
        if found is None:
            pad = LABEL_PAD / 2
            sizes = np.array([self._measure(text, size)[2:] for size in range(len(FONT_SIZES))])[_SIZES]
            x0 = _OFFSETS[:, 0] - _OFFSETS[:, 2] * sizes[:, 0]
            y0 = _OFFSETS[:, 1] - _OFFSETS[:, 3] * sizes[:, 1]
            extents = np.stack([x0, y0, x0 + sizes[:, 0], y0 + sizes[:, 1]], axis=1)
            clear = extents + (-pad, -pad, pad, pad)
            reach = (float(clear[:, 0].min()), float(clear[:, 1].min()), float(clear[:, 2].max()),
                     float(clear[:, 3].max()))
            found = self._spots[text] = _Candidates(clear, extents, reach)
        return found

    def _spot(self, text: str, x: float, y: float, obstacles: _Obstacles, placed: _Placements) -> _Spot:
        """The label's candidates around its place (x, y), once per painter, links and places (their boxes'
        overlaps with the places' and stars' boxes too)."""
        found = placed.spots.get((text, x, y))
        if found is None:
            spots = self._candidates(text)
            at = np.array((x, y, x, y))
            region = (x + spots.reach[0], y + spots.reach[1], x + spots.reach[2], y + spots.reach[3])
            clear = spots.clear + at
            fx0, fy0, fx1, fy1 = obstacles.frame
            outside = None
            if not (fx0 <= region[0] and fy0 <= region[1] and region[2] <= fx1 and region[3] <= fy1):
                w = np.maximum(np.minimum(clear[:, 2], fx1) - np.maximum(clear[:, 0], fx0), 0.0)
                h = np.maximum(np.minimum(clear[:, 3], fy1) - np.maximum(clear[:, 1], fy0), 0.0)
                outside = (clear[:, 2] - clear[:, 0]) * (clear[:, 3] - clear[:, 1]) - w * h    # out of the frame
            columns = tuple(clear[:, k:k + 1] for k in range(4))
            kept = obstacles.boxes[:obstacles.fixed]
            found = placed.spots[(text, x, y)] = _Spot(region, clear, columns, outside, (spots.text + at).tolist(),
                                                       _overlap_terms(columns, _near(kept, kept, region)))
        return found

    def _place(self, texts: Mapping[str, str], colours: Mapping[str, str], centres: Mapping[str, tuple[float, float]],
               obstacles: _Obstacles, placed: _Placements,
               base: Mapping[str, tuple[str, str]] | None = None) -> dict[str, _Label]:
        """Each label, top to bottom and left to right, at its cheapest candidate (`_greedy`). Over a `base`
        (the labels' texts and colours of the map under this one, by place: a stage's public map under a
        faction's), the
        base's labels are placed first, without arrows (once per painter); each of this map's labels with the
        base's text and colour, that no arrow of this map covers, stays where the base's went, and the others
        (a faction's own: what it alone sees, and those its arrows displace) are placed, in the same order,
        among those and the places, stars and arrows. So a faction's map weighs its own labels only."""
        order = sorted(texts, key=lambda k: (-centres[k][1], centres[k][0], k))
        kept: dict[str, _Label] = {}
        if base is not None and base.keys() == texts.keys():
            signature = tuple((key, *base[key]) for key in order)
            under = placed.bases.get(signature)
            if under is None:
                labels = self._greedy(order, {key: text for key, (text, _) in base.items()},
                                      {key: colour for key, (_, colour) in base.items()}, centres,
                                      obstacles.without_arrows(), placed)
                pad = LABEL_PAD / 2
                under = placed.bases[signature] = {
                    key: (label, (label.extent[0] - pad, label.extent[1] - pad, label.extent[2] + pad,
                                  label.extent[3] + pad)) for key, label in labels.items()}
            same = [key for key in order if base[key] == (texts[key], colours[key])]
            if same:
                boxes = np.array([under[key][1] for key in same])
                with np.errstate(over="ignore", invalid="ignore"):       # as in `_greedy`
                    covered = _covered(boxes, obstacles.arrows)
                for key, hit in zip(same, covered.tolist(), strict=True):
                    if hit == 0:
                        kept[key] = under[key][0]
                        obstacles.add_box(under[key][1])
        own = self._greedy([key for key in order if key not in kept], texts, colours, centres, obstacles, placed)
        return {key: kept[key] if key in kept else own[key] for key in order}

    def _greedy(self, order: Sequence[str], texts: Mapping[str, str], colours: Mapping[str, str],
                centres: Mapping[str, tuple[float, float]], obstacles: _Obstacles,
                placed: _Placements) -> dict[str, _Label]:
        """The labels in this order, each at its cheapest candidate (`_CANDIDATES`) that touches no placed
        label, place, star or arrow and stays in the frame; among those the least covered links win, plus
        the penalty of going further out or smaller (the first of equals). When none is free, the least
        overlap, then the least penalty. All of a label's candidates are weighed at once (arrays), against
        what lies within their reach; a label with the text, place and obstacles within its reach of one
        placed before over the same links (`placed`) goes where that went, and what does not change from
        map to map (the candidates' boxes, the frame, the links they cover) is worked out once per label and
        place over the same links."""
        pad = LABEL_PAD / 2
        arrow_bounds = obstacles.arrow_bounds.tolist()
        no_arrows = obstacles.arrows[:0]
        out: dict[str, _Label] = {}
        with np.errstate(over="ignore", invalid="ignore"):       # 1/tiny times a distance: infinity (`_strokes`)
            for key in order:
                text = texts[key]
                x, y = centres[key]
                spot = self._spot(text, x, y, obstacles, placed)
                r0, r1, r2, r3 = region = spot.region
                placed_boxes = obstacles.boxes[obstacles.fixed:obstacles.count]
                boxes = _near(placed_boxes, placed_boxes, region)
                near = [i for i, (b0, b1, b2, b3) in enumerate(arrow_bounds)
                        if b0 < r2 and r0 < b2 and b1 < r3 and r1 < b3]
                arrows = obstacles.arrows[near] if near else no_arrows
                signature = (text, x, y, boxes.tobytes(), arrows.tobytes())
                chosen = placed.chosen.get(signature, -1)
                if chosen < 0:
                    terms = spot.kept
                    if len(boxes):                   # the labels' after the places' and stars', as they were placed
                        terms = np.concatenate((terms, _overlap_terms(spot.columns, boxes)), axis=1)
                    hard = terms.sum(axis=1)
                    if near:
                        hard += _covered(spot.clear, arrows)
                    if spot.outside is not None:
                        hard += spot.outside
                    free = np.flatnonzero(hard == 0)
                    if len(free):
                        if spot.links is None:
                            spot.links = _covered(spot.clear, _near(obstacles.links, obstacles.link_bounds, region))
                        chosen = int(free[int(np.argmin(_PENALTIES[free] + spot.links[free]))])
                    else:
                        chosen = int(np.lexsort((_PENALTIES, hard))[0])
                    placed.chosen[signature] = chosen
                _, size, _, d = _CANDIDATES[chosen]
                x0, y0, x1, y1 = spot.text[chosen]
                obstacles.add_box((x0 - pad, y0 - pad, x1 + pad, y1 + pad))
                out[key] = _Label(text, size, colours[key], DIRECTIONS[d][2], (x0, y0, x1, y1))
        return out

    def _label(self, label: _Label) -> _Sprite:
        """The label rendered (once): its text on a rounded white backing, three quarters opaque."""
        key = (label.text, label.size, label.colour, label.ha)
        sprite = self._sprites.get(key)
        if sprite is None:
            points = FONT_SIZES[label.size]
            width, height = text_size(label.text, points)
            margin = self.SPRITE_MARGIN
            pad = 0.15 * points * PT
            size = (math.ceil(width) + 2 * margin + 2, math.ceil(height) + 2 * margin + 2)
            backing = Image.new("RGBA", size, (255, 255, 255, 0))
            ImageDraw.Draw(backing).rounded_rectangle(
                [margin + 1 - pad, margin + 1 - pad, margin + 1 + width + pad, margin + 1 + height + pad],
                radius=pad, fill=(255, 255, 255, 191))
            colour = rgb(label.colour)
            text = Image.new("RGBA", size, (*colour, 0))
            put_text(text, (margin + 1, margin + 1), label.text, points, (*colour, 255),
                     align=label.ha)
            sprite = self._sprites[key] = _Sprite(Image.alpha_composite(backing, text), margin + 1, margin + 1)
        return sprite

    # -- what maps share -----------------------------------------------------------------------
    def _ground(self, lines: _Lines, places: tuple[tuple[str, str, bool, Point], ...]) -> Image.Image:
        """The white picture with these links (kind, end, end in PNG pixels) and places (kind, fill, ruined,
        centre) drawn: the last one is kept (every map of a stage has the same links, most the same places),
        and given as it is kept (not to be drawn on)."""
        if self._links is None or self._links[0] != lines:
            self._links = (lines, links_image(lines))
            self._ground_kept = None
        if self._ground_kept is None or self._ground_kept[0] != places:
            self._ground_kept = (places, places_image(self._links[1], places, self._swatches))
        return self._ground_kept[1]

    def _compose(self, ground_key: object, ground: Image.Image, stamps: Sequence[_Stamp]) -> Image.Image:
        """The map: the ground with the stamps on it in their order. The shared layer (the ground with every
        `shared` stamp of the first map drawn on this ground: a stage's public map, its stars and labels)
        is drawn once; each map is a copy of it, redrawn from the ground only within the boxes of the stamps
        one of the two has and the other has not (a faction's arrows, its labels that differ, the legend,
        the title). Outside those boxes the same stamps lie in the same order, so every pixel is the one
        drawing all the stamps on the ground gives."""
        keys = [stamp.key for stamp in stamps]
        layer = self._shared
        if layer is not None and layer.ground == ground_key:
            mine = set(keys)
            if [k for k in keys if k in layer.keys] != [k for k in layer.order if k in mine]:
                layer = None                         # the stamps both have lie in another order
        else:
            layer = None
        if layer is None:
            shared = [stamp for stamp in stamps if stamp.shared]
            layer = self._shared = _Shared(ground_key, tuple(s.key for s in shared), {s.key for s in shared},
                                           tuple(s.box for s in shared), shared_layer(ground, shared))
            mine = set(keys)
        redraw = [stamp.box for stamp in stamps if stamp.key not in layer.keys]
        redraw += [box for key, box in zip(layer.order, layer.boxes, strict=True) if key not in mine]
        width, height = ground.size
        rects = np.clip(np.array(redraw, dtype=np.int64).reshape(-1, 4), 0, [width, height, width, height])
        rects = rects[(rects[:, 0] < rects[:, 2]) & (rects[:, 1] < rects[:, 3])]
        boxes = np.array([stamp.box for stamp in stamps], dtype=np.int64).reshape(-1, 4)
        hits = ((boxes[:, None, 0] < rects[:, 2]) & (rects[:, 0] < boxes[:, None, 2])
                & (boxes[:, None, 1] < rects[:, 3]) & (rects[:, 1] < boxes[:, None, 3]))      # stamp × part
        if int(hits.sum()) + 2 * len(rects) >= len(stamps):     # redrawing the parts would paste more: all anew
            image = ground.copy()
            for stamp in stamps:
                stamp.put(image)
            return image
        image = layer.image.copy()
        for part_at, hit in zip(rects.tolist(), hits.T, strict=True):
            x0, y0, x1, y1 = part_at
            part = ground.crop((x0, y0, x1, y1))
            for index in np.flatnonzero(hit).tolist():
                stamps[index].put(part, x0, y0)
            image.paste(part, (x0, y0))
        return image

    def _legend(self, entries: tuple[_Entry, ...]) -> Image.Image:
        if entries not in self._legends:
            self._legends[entries] = _legend_image(entries)
        return self._legends[entries]

    # -- a map ---------------------------------------------------------------------------------
    def draw(self, picture: MapPicture, title: str = "", viewer: str | None = None,
             base: MapPicture | None = None, legend_notes: Sequence[str] = ()) -> Drawing:
        """The picture as a WIDTH_PX × HEIGHT_PX PNG; arrows only of `viewer` (none on the public map). Over a
        `base` with the same places and links (a stage's public map under a faction's), the labels the two
        share stay where the base's go, unless an arrow covers them (`_place`). `legend_notes`: lines the legend ends
        with (what the map leaves out)."""
        colours = faction_colours(picture.factions)
        where = layout(picture)
        xs = [xy[0] for xy in where.values()] or [0.0]
        ys = [xy[1] for xy in where.values()] or [0.0]
        span_x, span_y = max(max(xs) - min(xs), 1e-9), max(max(ys) - min(ys), 1e-9)
        x_low, x_high = min(xs) - 0.14 * span_x, max(xs) + 0.14 * span_x
        y_low, y_high = min(ys) - 0.14 * span_y, max(ys) + 0.10 * span_y
        left, bottom, width, height = (FRAME[0] * WIDTH_PX, FRAME[1] * HEIGHT_PX, FRAME[2] * WIDTH_PX,
                                       FRAME[3] * HEIGHT_PX)
        centres_display = {p.key: (left + (where[p.key][0] - x_low) / (x_high - x_low) * width,
                                   bottom + (where[p.key][1] - y_low) / (y_high - y_low) * height)
                           for p in picture.places}
        centres = {k: (v[0], HEIGHT_PX - v[1]) for k, v in centres_display.items()}
        links = [link for link in picture.links if link.a in where and link.b in where]
        lines = tuple((link.kind, centres[link.a], centres[link.b]) for link in links)
        markers = tuple((p.kind, _fill(p, colours), p.ruined, centres[p.key]) for p in picture.places)
        ground = self._ground(lines, markers)
        shown = {p.key for p in picture.places}
        notes = _notes(picture, shown)
        marks = tuple(notes)                                  # one star per place, however many markers
        arrows = [a for a in picture.arrows if viewer is not None and a.faction == viewer
                  and a.source in where and a.target in where and a.source != a.target]
        arrow_colour = colours.get(viewer, NO_VIEWER_ARROW) if viewer is not None else NO_VIEWER_ARROW
        drawn_arrows = [_shrunk(centres_display[a.source], centres_display[a.target], ARROW_SHRINK * PT)
                        for a in arrows]
        arrow_ends = tuple((x0, HEIGHT_PX - y0, x1, HEIGHT_PX - y1) for x0, y0, x1, y1 in drawn_arrows)
        # What is drawn on the ground, in order: the arrows, the stars, the legend, the labels, the title
        stamps: list[_Stamp] = []
        for arrow, ends in zip(arrows, arrow_ends, strict=True):
            stamps += _arrow(ends[:2], ends[2:], arrow_colour, ARROW_STYLES.get(arrow.kind, "solid"))
        lift = STAR_OFFSET * PT
        if marks:
            if self._star is None:
                self._star = _star_sprite()
            stamps += [_sprite_stamp(("star",), self._star, centres[key][0] + lift, centres[key][1] - lift, True)
                       for key in marks]
        entries = _legend_entries(picture, colours, [a.kind for a in arrows], arrow_colour,
                                  battles_title(picture) if marks else None,
                                  legend_notes)
        legend = self._legend(entries)
        at = (round(LEGEND_AT[0] * WIDTH_PX + 0.5 * LEGEND_POINTS * PT),
              round((1 - LEGEND_AT[1]) * HEIGHT_PX + 0.5 * LEGEND_POINTS * PT))
        stamps.append(_Stamp(("legend", entries, *at), (*at, at[0] + legend.width, at[1] + legend.height), legend))
        radius = max(MARKER_SIZE.values()) / 72 * DPI / 2 + 1
        star_radius = STAR_SIZE / 72 * DPI / 2
        kept_off = [(x - radius, y - radius, x + radius, y + radius) for x, y in centres_display.values()]
        kept_off += [(x + lift - star_radius, y + lift - star_radius, x + lift + star_radius, y + lift + star_radius)
                  for x, y in (centres_display[key] for key in marks)]
        obstacles = _Obstacles((left, bottom, left + width, bottom + height), kept_off,
                               [(*seg, ARROW_WIDTH * PT / 2 + 4) for seg in drawn_arrows],     # the line, its head
                               [(*centres_display[link.a], *centres_display[link.b], LINK_WIDTH * PT / 2)
                                for link in links], len(picture.places))
        if self._placed is None or self._placed[0] != (lines, kept_off):
            self._placed = ((lines, kept_off), _Placements())
        texts = {p.key: _label_text(p, notes) for p in picture.places}
        label_colours = {p.key: _label_colour(p.key, notes) for p in picture.places}
        under = None
        if base is not None and _same_ground(base, picture):
            below = _notes(base, shown)
            under = {p.key: (_label_text(p, below), _label_colour(p.key, below)) for p in base.places}
        labels = self._place(texts, label_colours, centres_display, obstacles, self._placed[1], under)
        stamps += [_sprite_stamp(("label", label.text, label.size, label.colour, label.ha), self._label(label),
                                 label.extent[0], HEIGHT_PX - label.extent[3], True) for label in labels.values()]
        if title:
            stamps += _text_stamps((TITLE_AT[0] * WIDTH_PX, (1 - TITLE_AT[1]) * HEIGHT_PX), title,
                                   15 if len(title) <= 70 else 12, rgb("#000000"), bold=True)
        image = self._compose((lines, markers), ground, stamps)
        boxes = {k: (lab.extent[0], HEIGHT_PX - lab.extent[3], lab.extent[2], HEIGHT_PX - lab.extent[1])
                 for k, lab in labels.items()}
        return Drawing(png_bytes(image), centres, boxes, colours, arrow_ends, marks,
                       tuple((e.text, e.colour) for e in entries))


def _arrow(start: Point, end: Point, colour: str, style: Style) -> list[_Stamp]:
    """An order's arrow from `start` to its head's tip at `end` (PNG pixels): the line in its style, the
    head a filled triangle, both stroked ARROW_WIDTH wide (its cover, in its colour; none if it has no length)."""
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    if length == 0:
        return []
    ux, uy = (end[0] - start[0]) / length, (end[1] - start[1]) / length
    head_length, half_width = ARROW_HEAD[0] * PT, ARROW_HEAD[1] * PT
    base = (end[0] - ux * min(head_length, length), end[1] - uy * min(head_length, length))
    head = [end, (base[0] - uy * half_width, base[1] + ux * half_width),
            (base[0] + uy * half_width, base[1] - ux * half_width)]
    stroke = ARROW_WIDTH * PT
    reach = stroke * 2
    x0 = math.floor(min(p[0] for p in (start, *head)) - reach)
    y0 = math.floor(min(p[1] for p in (start, *head)) - reach)
    x1 = math.ceil(max(p[0] for p in (start, *head)) + reach)
    y1 = math.ceil(max(p[1] for p in (start, *head)) + reach)
    pen = Pen((x1 - x0, y1 - y0), (0,), origin=(x0, y0))           # the arrow's cover: one colour
    pen.line(start, base, INK, stroke, style)
    pen.polygon(head, INK, INK, stroke)
    return [_Stamp(("arrow", start, end, colour, style), (x0, y0, x1, y1), rgb(colour), pen.image())]


def draw_map(picture: MapPicture, title: str = "", viewer: str | None = None,
             base: MapPicture | None = None) -> Drawing:
    """The picture as a WIDTH_PX × HEIGHT_PX PNG; arrows only of `viewer` (none on the public map); over `base`
    (`MapPainter.draw`). To draw several maps, keep one MapPainter: they share its labels and ground."""
    return MapPainter().draw(picture, title, viewer, base)
