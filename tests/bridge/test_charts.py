"""Issue 11 item 3: charts per faction over the turns. A per-turn table (one row per turn and faction, from each
turn's first snapshot through the contract's FactionSummary.numbers), `forumwar charts --csv` (pandas), a PNG
per faction in the archive and in the GM book."""
from __future__ import annotations

import io

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner
from PIL import Image

from engine import find_ruleset
from sheets_bridge.charts import FACTION, HEIGHT_PX, TURN, WIDTH_PX, faction_chart, turn_table
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.map_drawing import faction_colours
from sheets_bridge.pictures import CHARTS_TAB
from sheets_bridge.stage import run_turn

SEED = "charts-seed"
COLUMNS = [TURN, FACTION, "Доход", "Казна", "Армия (юнитов)", "Города"]


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Two turns of the demo scenario with no orders (no battles: each turn resolves in one stage)."""
    gd = create_game(tmp_path_factory.mktemp("charts") / "g", "jade_rose", "demo", backend="xlsx", seed=SEED)
    run_turn(gd)
    run_turn(gd)
    return gd


def test_the_table_has_one_row_per_turn_and_faction_from_each_turn_s_first_snapshot(game):
    table = turn_table(game)
    rs = find_ruleset("jade_rose")
    names = [f.name for f in rs.summary(game.latest_state()).factions]
    assert list(table.columns) == COLUMNS
    assert len(table) == 3 * 4 and sorted(table[TURN].unique()) == [1, 2, 3]
    assert table.groupby(TURN)[FACTION].apply(sorted).tolist() == [sorted(names)] * 3
    first = game.read_snapshot(1, "orders")
    empire = table[(table[TURN] == 1) & (table[FACTION] == "Империя")].iloc[0]
    assert empire["Казна"] == first["factions"]["empire"]["gold"] == 1000     # the scenario's starting gold
    assert empire["Города"] == 4 and empire["Армия (юнитов)"] == 16            # 10 Копейщик + 6 Лучник
    later = game.read_snapshot(2, "orders")
    assert table[(table[TURN] == 2) & (table[FACTION] == "Империя")].iloc[0]["Казна"] == \
        later["factions"]["empire"]["gold"]


def test_forumwar_charts_exports_the_table_as_csv_with_russian_columns(game, tmp_path):
    out = tmp_path / "графики.csv"
    result = CliRunner().invoke(main, ["charts", str(game.path), "--csv", str(out)])
    assert result.exit_code == 0, result.output
    assert "строк 12 (ходов 3, фракций 4)" in result.output
    read = pd.read_csv(out, encoding="utf-8-sig")
    assert list(read.columns) == COLUMNS and len(read) == 12
    assert read.equals(turn_table(game))
    assert out.read_bytes().startswith("\ufeffХод,Фракция".encode())        # Excel reads Cyrillic CSV by the BOM


def test_forumwar_charts_prints_the_table_and_has_russian_help(game):
    shown = CliRunner().invoke(main, ["charts", str(game.path)])
    assert shown.exit_code == 0 and "Нефритовый двор" in shown.output and "Казна" in shown.output
    helped = CliRunner().invoke(main, ["charts", "--help"])
    assert helped.exit_code == 0 and "Таблица фракций ход за ходом" in helped.output


def test_each_faction_s_chart_is_archived_at_its_size_in_its_map_colour(game):
    colours = faction_colours(game.latest_state()["factions"])
    for fid, colour in colours.items():
        png = game.archive_path(2) / f"charts-orders-{fid}.png"
        image = Image.open(png).convert("RGB")
        assert image.size == (WIDTH_PX, HEIGHT_PX)
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        counts = {c: n for n, c in image.getcolors(WIDTH_PX * HEIGHT_PX)}
        assert counts.get(rgb, 0) > 200, fid                               # its lines are drawn in its colour


def test_the_gm_book_holds_one_chart_per_faction(game):
    book = openpyxl.load_workbook(game.path / game.config.books["gm"])
    images = book[CHARTS_TAB]._images
    assert len(images) == 4 and book[CHARTS_TAB].protection.sheet
    exported = openpyxl.load_workbook(game.archive_path(2) / "gm-orders.xlsx")[CHARTS_TAB]._images
    archived = {(game.archive_path(2) / f"charts-orders-{fid}.png").read_bytes() for fid in game.config.factions}
    assert {image._data() for image in exported} == archived


def test_a_chart_of_a_faction_without_figures_is_still_a_picture():
    assert Image.open(io.BytesIO(faction_chart([{TURN: 1, FACTION: "Север"}], "Север"))).size == (WIDTH_PX, HEIGHT_PX)


def test_in_three_rows_of_charts_each_x_label_clears_the_title_of_the_chart_below():
    """Titania's five figures make three rows: the gap between rows holds a chart's tick labels and «Ход»
    and the next chart's title (they ran into each other at matplotlib's gap)."""
    from sheets_bridge.charts import AXES_TITLE_POINTS, LABEL_POINTS, TICK, ChartPainter
    from sheets_bridge.map_drawing import PT, font, text_size
    panels = ChartPainter(["Золото", "Дерево", "Сила войск", "Провинции", "Святилища"]).panels
    digits = font(LABEL_POINTS).getmetrics()[0]                                # a tick label's height
    below = 2 * TICK + digits + 4 * PT + text_size(TURN, LABEL_POINTS)[1]      # tick labels, «Ход»
    above = 6 * PT + text_size("Сила войск", AXES_TITLE_POINTS)[1]            # the next chart's title
    for upper, lower in ((panels[0], panels[2]), (panels[2], panels[4])):
        assert lower.top - upper.bottom >= below + above - 0.5
    assert panels[4].bottom <= HEIGHT_PX - text_size(TURN, LABEL_POINTS)[1] - 2 * TICK   # the last «Ход» drawn
