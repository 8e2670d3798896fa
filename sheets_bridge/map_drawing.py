"""Drawing a map picture (engine.ruleset.MapPicture) to PNG with matplotlib, whatever rule set made it.

Places are coloured by owner (one fixed colour per faction, by its place in `MapPicture.factions`, so a
faction keeps its colour from turn to turn; unowned grey, sea blue, ruins hatched), with the name and
the size/level note beside them; links are lines (sea links dashed); battles are red stars; the viewer's
own orders are arrows; a legend names the factions. Coordinates are the places' x (east) and y (north);
places without them are laid out by networkx's spring layout with a fixed seed. Labels are placed at the
first of several offsets around their place that overlaps no other label, place or the frame.

Only the object-oriented Figure API with the Agg canvas is used (no pyplot, no global state); the PNG
carries no timestamp, so the same picture gives the same bytes.
"""
from __future__ import annotations

import io
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import networkx as nx
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, Patch
from matplotlib.text import Text
from matplotlib.transforms import Bbox, offset_copy

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
LINK_COLOURS = {"road": "#8c7b63", "land": "#8c7b63", "sea": SEA}
Style = Literal["solid", "dashed", "dotted"]
ARROW_STYLES: dict[str, Style] = {"attack": "solid", "move": "dashed", "support": "dotted"}
ARROW_TITLES = {"attack": "атака", "move": "движение", "support": "поддержка"}
MARKER_SIZE = {"city": 17.0, "land": 19.0, "sea": 19.0}   # points
MARKERS = {"city": "o", "land": "s", "sea": "h"}
STAR_OFFSET = 13.0               # points up and right of its place
LABEL_PAD = 5.0                  # pixels kept between labels
# Where a label may go: its anchor offset from the place (points) and its alignment; tried ring by ring,
# then again in smaller type
Offset = tuple[float, float, Literal["left", "center", "right"], Literal["bottom", "center", "top"]]
DIRECTIONS: tuple[Offset, ...] = (
    (0, -1, "center", "top"), (0, 1, "center", "bottom"), (1, 0, "left", "center"), (-1, 0, "right", "center"),
    (0.85, -0.85, "left", "top"), (-0.85, -0.85, "right", "top"), (0.85, 0.85, "left", "bottom"),
    (-0.85, 0.85, "right", "bottom"))
OFFSETS: tuple[Offset, ...] = tuple((dx * ring, dy * ring, ha, va) for ring in (14, 24, 36, 50, 66)
                                    for dx, dy, ha, va in DIRECTIONS)
FONT_SIZES = (8.5, 7.5, 6.5)

Box = tuple[float, float, float, float]     # x0, y0, x1, y1 in PNG pixels (y down)


@dataclass(frozen=True)
class Drawing:
    """A drawn map: the PNG, each place's centre and label box in PNG pixels, each owner's colour."""

    png: bytes
    centres: Mapping[str, tuple[float, float]]
    label_boxes: Mapping[str, Box]
    colours: Mapping[str, str]            # faction id -> "#rrggbb"


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


def _box(text: Text, renderer: RendererAgg) -> Bbox:
    return text.get_window_extent(renderer).expanded(1.0, 1.0).padded(LABEL_PAD / 2)


def _overlap(a: Bbox, b: Bbox) -> float:
    w = min(a.x1, b.x1) - max(a.x0, b.x0)
    h = min(a.y1, b.y1) - max(a.y0, b.y0)
    return w * h if w > 0 and h > 0 else 0.0


def _outside(box: Bbox, frame: Bbox) -> float:
    inside = _overlap(box, frame)
    return box.width * box.height - inside


class _Boxes:
    """Placed boxes bucketed by a grid of CELL pixels, so a candidate is tested only against its neighbours."""

    CELL = 64.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Bbox]] = {}

    def _keys(self, box: Bbox) -> list[tuple[int, int]]:
        c = self.CELL
        return [(i, j) for i in range(int(box.x0 // c), int(box.x1 // c) + 1)
                for j in range(int(box.y0 // c), int(box.y1 // c) + 1)]

    def add(self, box: Bbox) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)

    def overlap(self, box: Bbox) -> float:
        near = {id(b): b for key in self._keys(box) for b in self.cells.get(key, ())}
        return sum(_overlap(box, other) for other in near.values())


_SHIFT_X = {"left": 0.0, "center": 0.5, "right": 1.0}
_SHIFT_Y = {"bottom": 0.0, "center": 0.5, "top": 1.0}


def _place_labels(fig: Figure, texts: dict[str, Text], centres: Mapping[str, tuple[float, float]],
                  frame: Bbox, renderer: RendererAgg, stars: Sequence[tuple[float, float]] = ()) -> None:
    """Move each label to the first offset that touches no placed label, no place and stays in the frame;
    when none is free, to the offset with the least overlap. A label's size is measured once per font
    size; its box at each offset follows from the alignment."""
    radius = max(MARKER_SIZE.values()) / 72 * DPI / 2 + 1
    dots, placed = _Boxes(), _Boxes()
    for x, y in [*centres.values(), *stars]:
        dots.add(Bbox.from_extents(x - radius, y - radius, x + radius, y + radius))
    points = DPI / 72
    for key in sorted(texts, key=lambda k: (-centres[k][1], centres[k][0], k)):   # top to bottom, left to right
        text = texts[key]
        x, y = centres[key]
        best: tuple[float, Bbox, Offset, float] | None = None
        for size in FONT_SIZES:
            text.set_fontsize(size)
            text.set_position((x, y))
            text.set_horizontalalignment("left")
            text.set_verticalalignment("bottom")
            measured = _box(text, renderer)
            width, height = measured.width, measured.height
            left, bottom = measured.x0 - x, measured.y0 - y
            for option in OFFSETS:
                dx, dy, ha, va = option
                x0 = x + dx * points + left - _SHIFT_X[ha] * width
                y0 = y + dy * points + bottom - _SHIFT_Y[va] * height
                box = Bbox.from_extents(x0, y0, x0 + width, y0 + height)
                cost = placed.overlap(box) + dots.overlap(box) + _outside(box, frame)
                if best is None or cost < best[0]:
                    best = (cost, box, option, size)
                if cost == 0:
                    break
            if best is not None and best[0] == 0:
                break
        assert best is not None
        dx, dy, ha, va = best[2]
        text.set_fontsize(best[3])
        text.set_position((x + dx * points, y + dy * points))
        text.set_horizontalalignment(ha)
        text.set_verticalalignment(va)
        placed.add(best[1])


def draw_map(picture: MapPicture, title: str = "", viewer: str | None = None) -> Drawing:
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
    for link in picture.links:
        if link.a in where and link.b in where:
            (xa, ya), (xb, yb) = where[link.a], where[link.b]
            ax.plot([xa, xb], [ya, yb], color=LINK_COLOURS.get(link.kind, "#8c7b63"), linewidth=2.2,
                    linestyle="--" if link.kind == "sea" else "-", zorder=1, solid_capstyle="round")
    for place in picture.places:
        x, y = where[place.key]
        ax.scatter([x], [y], s=MARKER_SIZE.get(place.kind, 17.0) ** 2, marker=MARKERS.get(place.kind, "o"),
                   c=_fill(place, colours), edgecolors="#202020", linewidths=1.2,
                   hatch="xxx" if place.ruined else None, zorder=3)
    shown = {p.key for p in picture.places}
    notes: dict[str, list[str]] = {}
    star_offset = offset_copy(ax.transData, fig=fig, x=STAR_OFFSET, y=STAR_OFFSET, units="points")
    for marker in picture.markers:
        if marker.place in shown:
            x, y = where[marker.place]
            ax.plot([x], [y], marker="*", markersize=15, color=BATTLE, markeredgecolor="white",
                    markeredgewidth=0.8, zorder=5, transform=star_offset)
            if marker.text and marker.text not in notes.setdefault(marker.place, []):
                notes[marker.place].append(marker.text)
    arrows = [a for a in picture.arrows if viewer is not None and a.faction == viewer
              and a.source in where and a.target in where]
    for arrow in arrows:
        ax.add_patch(FancyArrowPatch(where[arrow.source], where[arrow.target], arrowstyle="-|>", mutation_scale=22,
                                     linewidth=2.6, linestyle=ARROW_STYLES.get(arrow.kind, "solid"),
                                     color=colours.get(arrow.faction, "#000000"), shrinkA=12, shrinkB=12, zorder=4))
    renderer = canvas.get_renderer()   # type: ignore[no-untyped-call]  # matplotlib does not annotate it
    to_pixels = ax.transData
    centres_display = {p.key: tuple(map(float, to_pixels.transform(where[p.key]))) for p in picture.places}
    texts: dict[str, Text] = {}
    for place in picture.places:
        cx, cy = centres_display[place.key]
        texts[place.key] = fig.text(cx, cy, _label_text(place, notes), transform=None, fontsize=8.5,
                                    fontfamily=FONT, linespacing=1.15, zorder=6,
                                    color="#7a0014" if place.key in notes else "#111111",
                                    bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.75,
                                          "edgecolor": "none"})
    frame = ax.get_window_extent(renderer)
    lift = STAR_OFFSET * DPI / 72
    stars = [(centres_display[m.place][0] + lift, centres_display[m.place][1] + lift)
             for m in picture.markers if m.place in centres_display]
    _place_labels(fig, texts, {k: (v[0], v[1]) for k, v in centres_display.items()}, frame, renderer, stars)
    _legend(fig, picture, colours, arrows_kinds=[a.kind for a in arrows])
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    boxes = {k: _png_box(t.get_window_extent(renderer)) for k, t in texts.items()}
    centres = {k: (v[0], HEIGHT_PX - v[1]) for k, v in centres_display.items()}
    return Drawing(buf.getvalue(), centres, boxes, colours)


def _png_box(box: Bbox) -> Box:
    return (float(box.x0), float(HEIGHT_PX - box.y1), float(box.x1), float(HEIGHT_PX - box.y0))


def _legend(fig: Figure, picture: MapPicture, colours: Mapping[str, str], arrows_kinds: list[str]) -> None:
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
        handles.append(Line2D([], [], color=LINK_COLOURS["road"], linewidth=2.2, label="дорога"))
    if link_kinds & {"land"}:
        handles.append(Line2D([], [], color=LINK_COLOURS["land"], linewidth=2.2, label="граница"))
    if "sea" in link_kinds:
        handles.append(Line2D([], [], color=SEA, linewidth=2.2, linestyle="--", label="морской путь"))
    if picture.markers:
        handles.append(Line2D([], [], marker="*", markersize=15, color=BATTLE, linestyle="none",
                              label="бой этого хода"))
    for kind in dict.fromkeys(arrows_kinds):
        handles.append(Line2D([], [], color="#333333", linewidth=2.6, linestyle=ARROW_STYLES.get(kind, "solid"),
                              label=f"ваш приказ: {ARROW_TITLES.get(kind, kind)}"))
    fig.legend(handles=handles, loc="upper left", bbox_to_anchor=(0.76, 0.92), frameon=True, fontsize=10,
               prop={"family": FONT, "size": 10}, title="Обозначения", title_fontproperties={"family": FONT,
                                                                                                "weight": "bold"})
