"""Charts of a game: a per-turn table of every faction's figures (from each turn's first snapshot, through
the rule set's `summary`: FactionSummary.numbers) and one PNG per faction drawn from it.

The table is plain rows (`turn_rows`); `turn_table` makes it a pandas DataFrame for `forumwar charts`
(pandas is imported only there). A ChartPainter draws every faction's chart on one figure, changing only
its lines, titles and axes from one faction to the next.
"""
from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import AutoLocator, MaxNLocator
from PIL import Image

from engine import find_ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.map_drawing import FONT, PALETTE, PNG_COMPRESSION, faction_colours

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


class ChartPainter:
    """One figure of small charts (one per figure of the table), redrawn for each faction in turn."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names) or ["—"]
        cols = 2 if len(self.names) > 1 else 1
        rows = (len(self.names) + cols - 1) // cols
        self.fig = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI)
        self.canvas = FigureCanvasAgg(self.fig)
        self.title = self.fig.suptitle("", fontfamily=FONT, fontsize=15, fontweight="bold")
        self.axes: list[Axes] = []
        self.lines: list[Line2D] = []
        for i, name in enumerate(self.names):
            ax = self.fig.add_subplot(rows, cols, i + 1)
            ax.set_title(name, fontfamily=FONT, fontsize=12)
            ax.set_xlabel(TURN, fontfamily=FONT)
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
            ax.grid(True, alpha=0.3)
            (line,) = ax.plot([], [], marker="o", linewidth=2.2)
            self.axes.append(ax)
            self.lines.append(line)
        self.fig.subplots_adjust(left=0.08, right=0.97, top=0.88, bottom=0.08, hspace=0.45, wspace=0.2)

    def draw(self, rows: Sequence[Row], faction: str, colour: str = PALETTE[0]) -> bytes:
        """A WIDTH_PX × HEIGHT_PX PNG: one small chart per figure of `faction` (display name) over the turns."""
        mine = sorted((r for r in rows if r.get(FACTION) == faction), key=lambda r: _number(r.get(TURN)) or 0)
        self.title.set_text(f"{faction}: ход за ходом")
        for name, ax, line in zip(self.names, self.axes, self.lines, strict=True):
            points: list[tuple[float, float]] = []
            for r in mine:
                turn, value = _number(r.get(TURN)), _number(r.get(name))
                if turn is not None and value is not None:
                    points.append((turn, value))
            line.set_data([t for t, _ in points], [v for _, v in points])
            line.set_color(colour)
            whole = bool(points) and all(v == int(v) for _, v in points)
            ax.yaxis.set_major_locator(MaxNLocator(integer=True) if whole else AutoLocator())
            ax.set_autoscale_on(True)           # the last faction's limits may have fixed it
            if points:
                ax.relim()
                ax.autoscale_view()
                low, high = min(v for _, v in points), max(v for _, v in points)
                if whole and high - low < 2:     # whole numbers get whole ticks: at least two in view
                    ax.set_ylim(low - 1, high + 1)
            else:
                ax.set_xlim(0, 1)
                ax.set_ylim(0, 1)
        self.canvas.draw()   # type: ignore[no-untyped-call]  # matplotlib does not annotate it
        buffer = self.canvas.buffer_rgba()   # type: ignore[no-untyped-call]
        image = Image.frombuffer("RGBA", self.canvas.get_width_height(), buffer, "raw", "RGBA", 0, 1).convert("RGB")
        out = io.BytesIO()
        image.save(out, format="PNG", compress_level=PNG_COMPRESSION)
        return out.getvalue()


def faction_chart(rows: Sequence[Row], faction: str, colour: str = PALETTE[0]) -> bytes:
    """One faction's charts (`ChartPainter.draw`) on a figure of its own."""
    return ChartPainter(figures(rows)).draw(rows, faction, colour)


def charts(rows: Sequence[Row], factions: dict[str, str]) -> dict[str, bytes]:
    """A chart per faction (id -> PNG) for the factions of the game (id -> display name), each in the
    faction's map colour, all on one figure."""
    colours = faction_colours(factions)
    painter = ChartPainter(figures(rows))
    return {fid: painter.draw(rows, name, colours[fid]) for fid, name in factions.items()}
