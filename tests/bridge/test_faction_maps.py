"""Issue 23 item 1: each faction's map in its own book. After every stage each faction's xlsx book holds its
faction's map (its own orders as arrows, the rule set's fog of war) in «Рисунок карты», and the archive keeps
`map-STAGE-FACTION.png` beside the public `map-STAGE.png`; the legend draws the arrows as the map does (in the
faction's colour); labels keep off the arrows; one star per place, and the console counts the stars. On Google
Sheets the pictures stay out of the books (archived, with a note for the GM). `[pictures] draw = false` draws
nothing; a turn never imports matplotlib, even to draw; forked workers give the bytes one process gives."""
from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from PIL import Image

from engine import find_ruleset
from engine.ruleset import MapArrow, MapLink, MapMarker, MapPicture, MapPlace
from sheets_bridge import pictures
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.charts import ChartPainter, charts, figures, turn_rows
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import type_orders
from sheets_bridge.gameconfig import GameConfig, GameConfigError
from sheets_bridge.gamedir import GameDir
from sheets_bridge.map_drawing import BATTLE, WIDTH_PX, MapPainter, battles_title, draw_map
from sheets_bridge.pictures import CHARTS_TAB, MAP_TAB, OFF_NOTE, map_note
from sheets_bridge.stage import run_turn
from tests.paths import REPO

SEED = "faction-maps"
DRAW = pictures.publish          # the real one, taken before the suite turns pictures off (tests/conftest.py)


@pytest.fixture(scope="module", autouse=True)
def _draw_pictures() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pictures, "publish", DRAW)
        yield


def _play_demo_orders(gd: GameDir) -> None:
    """Every faction types the rule set's scripted demo orders of the open stage into its book."""
    type_orders(gd, find_ruleset(gd.config.ruleset))


@pytest.fixture(scope="module")
def jade(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """The Jade Rose demo's first orders stage, played (attacks declared: battles wait for planning)."""
    gd = create_game(tmp_path_factory.mktemp("jade") / "g", "jade_rose", "demo", backend="xlsx", seed=SEED)
    _play_demo_orders(gd)
    run_turn(gd)
    return gd


@pytest.fixture(scope="module")
def titania(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """The Titania demo's first turn, played with the scripted orders (moves and attacks)."""
    gd = create_game(tmp_path_factory.mktemp("titania") / "g", "titania", "demo", backend="xlsx", seed=SEED)
    _play_demo_orders(gd)
    run_turn(gd)
    return gd


def _images(gd: GameDir, key: str) -> list[bytes]:
    book = openpyxl.load_workbook(gd.path / gd.config.books[key])
    return [image._data() for image in book[MAP_TAB]._images] if MAP_TAB in book.sheetnames else []


@pytest.mark.parametrize("which", ["jade", "titania"])
def test_every_faction_book_holds_its_own_map_and_the_archive_keeps_it_beside_the_public_one(which, request):
    gd = request.getfixturevalue(which)
    rs = find_ruleset(gd.latest_state()["ruleset"])
    stage = rs.stages[0]
    archive = gd.archive_path(1)
    public = (archive / f"map-{stage}.png").read_bytes()
    seen = {public}
    key = gd.snapshots()[-1].stem
    stars = battles_title(rs.map_data().picture(gd.latest_state(), None, events=pictures.events_into(gd, key)))
    for fid in gd.config.factions:
        png = (archive / f"map-{stage}-{fid}.png").read_bytes()
        assert Image.open(io.BytesIO(png)).size == (WIDTH_PX, 1000)
        assert _images(gd, fid) == [png], fid                          # its book shows exactly its map
        seen.add(png)
        book = openpyxl.load_workbook(gd.path / gd.config.books[fid])
        assert book[MAP_TAB]["A1"].value == map_note(True, stars) and book[MAP_TAB].protection.sheet
        assert book.sheetnames.index(MAP_TAB) == 1                      # right after the summary
        exported = openpyxl.load_workbook(archive / f"{fid}-{stage}.xlsx")
        assert [i._data() for i in exported[MAP_TAB]._images] == [png]  # the archived book too
    assert len(seen) == len(gd.config.factions) + 1                    # each map its own
    assert _images(gd, "public") == [public]


@pytest.mark.parametrize("which", ["jade", "titania"])
def test_a_faction_s_map_is_the_rule_set_s_picture_for_it_with_the_orders_it_gave(which, request):
    """The book's map is drawn from what `map_data` gives that faction (its fog of war) and its orders of
    the stage that resolved; so it has the faction's arrows, and only the faction's."""
    gd = request.getfixturevalue(which)
    rs = find_ruleset(gd.latest_state()["ruleset"])
    maps = rs.map_data()
    key = gd.snapshots()[-1].stem
    state = gd.latest_state()
    turn, stage = pictures.closed_stage(gd, key)
    before = gd.read_snapshot(turn, stage)
    arrows = 0
    public = maps.picture(state, None, events=pictures.events_into(gd, key))
    assert draw_map(public, pictures.map_title(rs, state), base=public).png == (
        gd.archive_path(turn) / f"map-{stage}.png").read_bytes()
    for fid in gd.config.factions:
        orders = pictures.faction_orders(gd, rs, before, fid)
        picture = pictures.faction_picture(maps, state, fid, pictures.events_into(gd, key), before, orders)
        assert {a.faction for a in picture.arrows} <= {fid}
        own = maps.picture(state, fid)
        assert [p.label for p in picture.places] == [p.label for p in own.places]      # its fog of war
        drawing = draw_map(picture, pictures.map_title(rs, state, fid), viewer=fid, base=public)
        assert drawing.png == (gd.archive_path(turn) / f"map-{stage}-{fid}.png").read_bytes()
        arrows += len(drawing.arrows)
    assert arrows > 0                                                  # the demo's orders move and attack


def test_titania_fog_of_war_a_faction_s_map_shows_troops_only_where_it_sees():
    state = find_ruleset("titania").map_data().picture(_titania_start(), "albion")
    labels = {p.key: p.label for p in state.places}
    assert "сила 3" in labels["albion"] and "сила" not in labels["grimgor"]


def _titania_start() -> dict[str, Any]:
    from sheets_bridge.scenarios import load_scenario
    return load_scenario(find_ruleset("titania"), "demo").state


# -- the legend, the labels, the stars -------------------------------------------------------------

def _square() -> MapPicture:
    """Four places on a square and a fifth in the middle of its diagonal, where the attack crosses."""
    places = (MapPlace("n", "Северная Застава", "land", "A", x=0.0, y=10.0),
              MapPlace("s", "Южная Гавань", "land", "B", x=10.0, y=0.0),
              MapPlace("e", "Восточный Брод", "land", "B", x=10.0, y=10.0),
              MapPlace("w", "Западная Топь", "land", "A", x=0.0, y=0.0),
              MapPlace("m", "Лунная Поляна", "land", None, "Святилище\nХранители «Древняя Роща»\nсила 9",
                       x=4.6, y=5.4))
    links = (MapLink("n", "e", "land"), MapLink("e", "s", "land"), MapLink("s", "w", "land"),
             MapLink("w", "n", "land"))
    arrows = (MapArrow("n", "s", "attack", "A"), MapArrow("w", "e", "support", "A"), MapArrow("w", "m", "move", "A"))
    return MapPicture(places, links, {"A": "Эльфы", "B": "Гномы"}, arrows=arrows)


def _crosses(segment: tuple[float, float, float, float], box: tuple[float, float, float, float]) -> bool:
    x0, y0, x1, y1 = segment
    steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
    return any(box[0] <= x0 + (x1 - x0) * k / steps <= box[2] and box[1] <= y0 + (y1 - y0) * k / steps <= box[3]
               for k in range(steps + 1))


def test_no_label_lies_on_an_arrow():
    drawing = draw_map(_square(), "Карта фракции Эльфы", viewer="A")
    assert len(drawing.arrows) == 3
    for key, box in drawing.label_boxes.items():
        assert not any(_crosses(arrow, box) for arrow in drawing.arrows), key


def test_the_demo_maps_labels_lie_on_no_arrow(titania, jade):
    for gd in (titania, jade):
        rs = find_ruleset(gd.latest_state()["ruleset"])
        key = gd.snapshots()[-1].stem
        state, closed = gd.latest_state(), pictures.closed_stage(gd, key)
        before = gd.read_snapshot(*closed)
        for fid in gd.config.factions:
            picture = pictures.faction_picture(rs.map_data(), state, fid, [], before,
                                               pictures.faction_orders(gd, rs, before, fid))
            drawing = draw_map(picture, viewer=fid)
            for name, box in drawing.label_boxes.items():
                assert not any(_crosses(arrow, box) for arrow in drawing.arrows), (fid, name)


def _count(png: bytes, colour: str, box: tuple[int, int, int, int], tolerance: int = 8) -> int:
    rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
    image = Image.open(io.BytesIO(png)).convert("RGB").crop(box)
    return sum(n for n, c in image.getcolors(image.width * image.height)
               if all(abs(a - b) <= tolerance for a, b in zip(c, rgb, strict=True)))


def test_the_legend_draws_the_arrows_in_the_faction_s_colour_as_the_map_does():
    mine = draw_map(_square(), viewer="A")
    colour = mine.colours["A"]
    entries = dict(mine.legend)
    assert {k: v for k, v in entries.items() if k.startswith("ваш приказ")} == {
        "ваш приказ: атака": colour, "ваш приказ: поддержка": colour, "ваш приказ: движение": colour}
    legend = (int(WIDTH_PX * 0.76), 0, WIDTH_PX, 500)
    strokes = (int(WIDTH_PX * 0.76), 0, int(WIDTH_PX * 0.76) + 50, 500)     # the swatches' column, no text
    without = draw_map(_square(), viewer=None)                  # the same legend without the orders
    assert _count(mine.png, colour, legend) - _count(without.png, colour, legend) > 60
    assert _count(mine.png, "#333333", strokes, 4) <= _count(without.png, "#333333", strokes, 4)


def _stars(png: bytes) -> int:
    """Blobs of the battle colour on the map (the Dwarves' red and the marked labels' dark red are other
    colours): the stars."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    rgb = tuple(int(BATTLE[i:i + 2], 16) for i in (1, 3, 5))
    width, height = image.size
    pixels = image.load()
    red = {(x, y) for x in range(int(width * 0.74)) for y in range(height)
           if all(abs(a - b) <= 12 for a, b in zip(pixels[x, y], rgb, strict=True))}
    blobs = 0
    while red:
        todo = [red.pop()]
        size = 1
        while todo:
            x, y = todo.pop()
            for near in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if near in red:
                    red.remove(near)
                    todo.append(near)
                    size += 1
        blobs += size >= 10                     # a star's body, not a stray pixel of its outline
    return blobs


def test_one_star_per_place_however_many_events_happened_there():
    rs = find_ruleset("jade_rose")
    from sheets_bridge.scenarios import load_scenario
    state = load_scenario(rs, "demo").state
    events = [{"kind": "battle", "city": "blood_ford"}, {"kind": "capture", "city": "blood_ford"},
              {"kind": "failed_attack", "city": "qinghe"}]
    picture = rs.map_data().picture(state, None, events=events)
    assert [(m.place, m.text) for m in picture.markers] == [("blood_ford", "бой, захват"),
                                                            ("qinghe", "атака отбита")]
    drawing = draw_map(picture)
    assert drawing.marks == ("blood_ford", "qinghe") and _stars(drawing.png) == 2
    doubled = MapPicture(picture.places, picture.links, picture.factions, (*picture.markers, *picture.markers))
    assert draw_map(doubled).marks == ("blood_ford", "qinghe")


def test_forumwar_map_counts_the_stars_it_drew(jade, tmp_path):
    out = tmp_path / "map.png"
    planning = jade.path.parent / "planned"
    import shutil
    shutil.copytree(jade.path, planning)
    game = GameDir(planning)
    _play_demo_orders(game)
    run_turn(game)                                                    # the planning stage: battles fought
    result = CliRunner().invoke(main, ["map", str(planning), "-o", str(out)])
    assert result.exit_code == 0, result.output
    stars = _stars(out.read_bytes())
    assert stars >= 1 and f"отмечено боёв {stars}," in result.output
    events = json.loads((game.archive_path(1) / "events-planning.json").read_text(encoding="utf-8"))
    assert stars == len({e["city"] for e in events if e.get("kind") in ("battle", "capture", "failed_attack")})


# -- painters, workers, imports, the switch --------------------------------------------------------

def test_a_painter_draws_each_map_as_a_fresh_one_would_in_any_order():
    painter = MapPainter()
    square = _square()
    crowded = dataclasses.replace(square, markers=(MapMarker("m", "battle", "бой"),))
    first = [painter.draw(p, "т", v).png for p, v in ((square, "A"), (crowded, None), (square, None))]
    assert first == [draw_map(square, "т", "A").png, draw_map(crowded, "т").png, draw_map(square, "т").png]
    # over a base (a stage's public map under each faction's), in any order, after anything else
    public = dataclasses.replace(square, arrows=())
    seen = dataclasses.replace(square, places=tuple(dataclasses.replace(p, label="сила 3") if p.key == "e" else p
                                                    for p in square.places))
    jobs = ((public, None), (square, "A"), (seen, "A"), (seen, None), (square, None))
    fresh = [draw_map(p, "т", v, base=public).png for p, v in jobs]
    assert [painter.draw(p, "т", v, base=public).png for p, v in jobs] == fresh
    assert [painter.draw(p, "т", v, base=public).png for p, v in reversed(jobs)] == fresh[::-1]
    assert fresh[0] == draw_map(public, "т").png          # the public map over itself is the public map


def test_a_stage_draws_the_shared_ground_once_and_a_faction_s_map_weighs_only_its_own_labels(monkeypatch):
    """Issue 40 item 3: the links, the places and the shared layer (the public map's stars and labels) are
    drawn once for a stage's maps however many factions there are, and each faction's map weighs the labels
    of what it alone sees, not the whole map's; each is the very picture a fresh painter draws over the base."""
    from sheets_bridge import map_drawing
    calls = {"links_image": 0, "places_image": 0, "shared_layer": 0}
    for name in calls:
        real = getattr(map_drawing, name)

        def counted(*args: Any, _real: Any = real, _name: str = name) -> Any:
            calls[_name] += 1
            return _real(*args)
        monkeypatch.setattr(map_drawing, name, counted)
    weighed: list[int] = []
    greedy = MapPainter._greedy

    def counting(self: MapPainter, order: Any, *args: Any) -> Any:
        weighed.append(len(order))
        return greedy(self, order, *args)
    monkeypatch.setattr(MapPainter, "_greedy", counting)
    state = _titania_start()
    maps = find_ruleset("titania").map_data()
    public = maps.picture(state, None)
    painter = MapPainter()
    painter.draw(public, "общая", None, public)
    assert weighed == [len(public.places), 0]              # the base once; over it, the public map weighs none
    factions = sorted(state["factions"])
    differing, drawn = [], []
    for fid in factions:
        weighed.clear()
        picture = maps.picture(state, fid)
        drawn.append((picture, painter.draw(picture, fid, fid, public).png))
        differing.append(sum(a.label != b.label for a, b in zip(picture.places, public.places, strict=True)))
        assert weighed == [differing[-1]]                  # its own labels only (no arrows here to displace any)
    assert len(factions) > 2 and 0 < max(differing) < len(public.places)
    assert calls == {"links_image": 1, "places_image": 1, "shared_layer": 1}
    for fid, (picture, png) in zip(factions, drawn, strict=True):
        assert png == draw_map(picture, fid, fid, base=public).png


def test_one_chart_figure_redrawn_for_each_faction_gives_each_faction_s_own_chart(jade):
    rows = turn_rows(jade)
    names = {f.id: f.name for f in find_ruleset("jade_rose").summary(jade.latest_state()).factions}
    together = charts(rows, names)
    for fid, name in reversed(list(names.items())):
        assert ChartPainter(figures(rows)).draw(rows, name, _colour(fid, names)) == together[fid], fid


def _colour(fid: str, names: dict[str, str]) -> str:
    from sheets_bridge.map_drawing import faction_colours
    return faction_colours(names)[fid]


def test_forked_workers_draw_the_same_pictures_as_one_process(jade, monkeypatch):
    state = jade.latest_state()
    rs = find_ruleset(state["ruleset"])
    key = jade.snapshots()[-1].stem
    jobs = [pictures.Job("map"), *(pictures.Job("map", f) for f in jade.config.factions),
            *(pictures.Job("charts", f) for f in jade.config.factions)]
    names = {f.id: f.name for f in rs.summary(state).factions}

    def work() -> Any:
        return pictures._Work(jade, rs, state, pictures.events_into(jade, key),
                              jade.read_snapshot(*pictures.closed_stage(jade, key)), names, turn_rows(jade), jobs)

    assert pictures.workers() >= 1
    assert not pictures._worth_workers(work())            # a demo's few small maps are drawn here
    monkeypatch.setattr(pictures, "workers", lambda: 2)
    monkeypatch.setattr(pictures, "FORK_FROM", 0)         # as a big stage's are: by forked workers
    forks: list[str] = []
    real_pool = pictures.mp.get_context

    def context(method: str) -> Any:
        forks.append(method)
        return real_pool(method)

    monkeypatch.setattr(pictures.mp, "get_context", context)
    steps: list[str] = []
    forked = pictures.draw_all(work(), steps.append)
    assert forks == ["fork"]
    monkeypatch.setattr(pictures, "workers", lambda: 1)
    alone = pictures.draw_all(work())
    assert forked == alone and len(forked) == len(jobs)
    assert steps[-1] == f"нарисовано картинок: {len(jobs)} из {len(jobs)}"


def test_a_turn_opens_and_saves_each_book_once_with_its_pictures_and_draws_from_the_orders_it_read(
        tmp_path, monkeypatch):
    """Issue 23 item 2: the pictures go into each book in the same save as the stage's tabs (xlsx holds them
    for the push), so a turn parses each book at most once (its read; the write and the pictures use the
    workbook kept) and saves it once; the faction maps' arrows come from the orders the turn just parsed,
    not from the archive parsed again."""
    from sheets_bridge.backends.xlsx import files as xlsx_files
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx", seed=SEED)
    _play_demo_orders(gd)
    xlsx_files.forget()                                   # as a new `forumwar turn` process starts
    parses: list[int] = []
    saves: list[str] = []
    real_load, real_save = xlsx_files.load_workbook, xlsx_files.save
    monkeypatch.setattr(xlsx_files, "load_workbook", lambda data: (parses.append(1), real_load(data))[1])
    monkeypatch.setattr(xlsx_files, "save", lambda wb, path: (saves.append(Path(path).name), real_save(wb, path))[1])
    monkeypatch.setattr(pictures, "faction_orders", lambda *args: pytest.fail("the archived orders parsed again"))
    run_turn(GameDir(gd.path))
    books = {Path(book).name for book in gd.config.books.values()}
    assert sorted(saves) == sorted(books) and len(parses) <= len(books)
    stage = find_ruleset("jade_rose").stages[0]
    for fid in gd.config.factions:                        # and the books hold this stage's maps
        assert _images(gd, fid) == [(gd.archive_path(1) / f"map-{stage}-{fid}.png").read_bytes()]


def test_pictures_draw_false_draws_nothing_and_clears_the_pictures_drawn_before(tmp_path, monkeypatch):
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx", seed=SEED)    # `new` drew its maps
    assert _images(gd, "empire") and (gd.archive_path(1) / "map-start.png").is_file()
    text = (gd.path / "game.toml").read_text(encoding="utf-8") + "\n[pictures]\ndraw = false\n"
    (gd.path / "game.toml").write_text(text, encoding="utf-8")
    said: list[str] = []
    run_turn(GameDir(gd.path), progress=said.append)
    assert not list(gd.archive_path(1).glob("*-orders*.png"))
    for key, book in gd.config.books.items():
        wb = openpyxl.load_workbook(gd.path / book)
        tab = wb[CHARTS_TAB if key == "gm" else MAP_TAB]
        assert tab._images == [] and tab["A1"].value == OFF_NOTE, key     # no stale start map left
    assert not any("рисунок карты" in line or "нарисовано" in line for line in said)
    put: list[str] = []
    monkeypatch.setattr(XlsxBackend, "put_pictures", lambda self, book, *args: put.append(book))
    run_turn(GameDir(gd.path))                                      # nothing left to clear: no book touched
    assert put == [] and not list(gd.archive_path(2).glob("*.png"))


def test_the_switch_is_validated_and_written_back_as_it_was_read():
    base = {"ruleset": "jade_rose", "scenario": "demo"}
    config = GameConfig.from_dict({**base, "pictures": {"draw": False}})
    assert config.draw_pictures is False and "[pictures]\ndraw = false" in config.to_toml()
    assert GameConfig.from_toml(config.to_toml()).draw_pictures is False
    assert GameConfig.from_dict(base).draw_pictures is True and "pictures" not in GameConfig.from_dict(base).to_toml()
    with pytest.raises(GameConfigError) as bad:
        GameConfig.from_dict({**base, "pictures": {"draw": "нет", "colour": 1}})
    text = str(bad.value)
    assert "pictures.draw должен быть true" in text and "'нет'" in text
    assert "pictures: неизвестный ключ «colour»" in text
    with pytest.raises(GameConfigError, match=r"\[pictures\] должна быть таблицей"):
        GameConfig.from_dict({**base, "pictures": False})


def _imported_by_a_turn(tmp_path: Path, draw: bool) -> dict[str, bool]:
    gd = create_game(tmp_path / ("on" if draw else "off"), "titania", "demo", backend="xlsx", seed=SEED)
    if not draw:
        text = (gd.path / "game.toml").read_text(encoding="utf-8") + "\n[pictures]\ndraw = false\n"
        (gd.path / "game.toml").write_text(text, encoding="utf-8")
    script = ("import sys\nfrom sheets_bridge.gamedir import GameDir\nfrom sheets_bridge.stage import run_turn\n"
              f"run_turn(GameDir({str(gd.path)!r}))\n"
              "print({m: m in sys.modules for m in ('matplotlib', 'networkx', 'pandas')})")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout.strip().splitlines()[-1])        # noqa: S307  # our own script's dict


@pytest.mark.full
def test_a_turn_never_imports_matplotlib_networkx_or_pandas_even_to_draw(tmp_path):
    """The pictures are drawn with Pillow (matplotlib's import alone cost a turn 0.4 s); its font file is read."""
    assert _imported_by_a_turn(tmp_path, draw=False) == {"matplotlib": False, "networkx": False, "pandas": False}
    assert _imported_by_a_turn(tmp_path, draw=True) == {"matplotlib": False, "networkx": False, "pandas": False}


def test_without_a_drive_for_pictures_the_faction_maps_are_archived_and_the_gm_is_told_where(tmp_path):
    from tests.fake_google import FakeGoogle, fake_backend, gm_created_books
    gm, bot = "gm@example.com", "forumwar@maps.iam.gserviceaccount.com"
    fake = FakeGoogle()     # books the GM made by hand: the service account has no Drive to keep pictures
    books = gm_created_books(fake, gm, bot, {key: [] for key in ("empire", "vampires", "dwarves", "jade", "public",
                                                                 "gm")})
    backend = fake_backend(fake, bot, gm_emails=[gm])
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed=SEED, book_ids=books,
                     backend_factory=lambda _gd: backend)
    said: list[str] = []
    run_turn(gd, be=backend, progress=said.append)
    for fid in gd.config.factions:
        assert Image.open(gd.archive_path(1) / f"map-orders-{fid}.png").size == (WIDTH_PX, 1000)
    note = next(line for line in said if line.startswith("карты фракций:"))
    assert f"{gd.archive_path(1)}/map-orders-*.png" in note and "Вставка → Изображение" in note


def test_the_readme_tells_the_gm_the_switch_in_a_block_game_toml_accepts():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = next(part.split("```", 1)[0] for part in readme.split("```toml\n")[1:] if "[pictures]" in part)
    config = GameConfig.from_dict({"ruleset": "jade_rose", "scenario": "demo", **tomllib.loads(block)})
    assert config.draw_pictures is False
    assert "map-ЭТАП-ФРАКЦИЯ.png" in readme and "«Рисунок карты»" in readme
