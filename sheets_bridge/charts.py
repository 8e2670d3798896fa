"""Charts of a game: a per-turn table of every faction's figures (from each turn's first snapshot, through
the rule set's `summary`: FactionSummary.numbers) and one PNG per faction drawn from it."""
from __future__ import annotations

import io
import json

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from engine import find_ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.map_drawing import FONT, PALETTE, faction_colours

TURN, FACTION = "Ход", "Фракция"
WIDTH_PX, HEIGHT_PX, DPI = 1000, 700, 100


def turn_table(gd: GameDir) -> pd.DataFrame:
    """One row per turn and faction: «Ход», «Фракция» (display name), then the rule set's figures
    (Russian titles, in the order the rule set gives them). A turn's row is its first snapshot: the
    state as that turn opens."""
    first: dict[int, dict[str, object]] = {}
    for path in gd.snapshots():
        state = json.loads(path.read_text(encoding="utf-8"))
        first.setdefault(int(state["turn"]), state)
    rows: list[dict[str, object]] = []
    for turn, state in sorted(first.items()):
        rs = find_ruleset(str(state["ruleset"]))
        for faction in rs.summary(state).factions:
            rows.append({TURN: turn, FACTION: faction.name, **faction.numbers})
    return pd.DataFrame(rows, columns=_columns(rows))


def _columns(rows: list[dict[str, object]]) -> list[str]:
    columns = [TURN, FACTION]
    for row in rows:
        columns += [key for key in row if key not in columns]
    return columns


def figures(table: pd.DataFrame) -> list[str]:
    """The charted figures of a table: its columns after «Ход» and «Фракция»."""
    return [str(c) for c in table.columns if c not in (TURN, FACTION)]


def faction_chart(table: pd.DataFrame, faction: str, colour: str = PALETTE[0]) -> bytes:
    """A WIDTH_PX × HEIGHT_PX PNG: one small chart per figure of `faction` (display name) over the turns."""
    mine = table[table[FACTION] == faction].sort_values(TURN)
    names = figures(table) or ["—"]
    cols = 2 if len(names) > 1 else 1
    rows = (len(names) + cols - 1) // cols
    fig = Figure(figsize=(WIDTH_PX / DPI, HEIGHT_PX / DPI), dpi=DPI)
    FigureCanvasAgg(fig)
    fig.suptitle(f"{faction}: ход за ходом", fontfamily=FONT, fontsize=15, fontweight="bold")
    for i, name in enumerate(names):
        ax = fig.add_subplot(rows, cols, i + 1)
        ax.set_title(name, fontfamily=FONT, fontsize=12)
        if name in mine:
            values = pd.to_numeric(mine[name], errors="coerce")
            ax.plot(mine[TURN], values, marker="o", color=colour, linewidth=2.2)
            if bool((values.dropna() % 1 == 0).all()):
                ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel(TURN, fontfamily=FONT)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.grid(True, alpha=0.3)
    fig.subplots_adjust(left=0.08, right=0.97, top=0.88, bottom=0.08, hspace=0.45, wspace=0.2)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def charts(table: pd.DataFrame, factions: dict[str, str]) -> dict[str, bytes]:
    """A chart per faction (id -> PNG) for the factions of the game (id -> display name), each in the
    faction's map colour."""
    colours = faction_colours(factions)
    return {fid: faction_chart(table, name, colours[fid]) for fid, name in factions.items()}
