"""Issue 11 item 2: the map picture. A MapPicture (the rule-set contract) drawn to PNG: the right size, one
colour per owner at each place, labels that never overlap, only the viewer's own arrows; `forumwar map`;
the public book gets the picture every stage (xlsx: embedded, and LibreOffice still opens the book;
Google Sheets: the archived PNG and a note for the GM)."""
from __future__ import annotations

import io
import random
import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from PIL import Image

from engine import find_ruleset
from engine.ruleset import MapArrow, MapLink, MapMarker, MapPicture, MapPlace
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.map_drawing import HEIGHT_PX, RUINS, UNOWNED, WIDTH_PX, draw_map, layout
from sheets_bridge.pictures import MAP_TAB
from sheets_bridge.scenarios import load_scenario
from sheets_bridge.stage import run_turn

SEED = "map-seed"


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _pixel(png: bytes, xy: tuple[float, float]) -> tuple[int, int, int]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.getpixel((round(xy[0]), round(xy[1])))   # type: ignore[return-value]


def _close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 3) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def _demo_state() -> dict:
    state = load_scenario(find_ruleset("jade_rose"), "demo").state
    state["cities"]["qinghe"]["ruins"] = True          # a ruin and a neutral city, as a late game has
    state["cities"]["qinghe"]["owner"] = None
    state["cities"]["misty_graveyard"]["owner"] = None
    return state


def _disjoint(boxes: list[tuple[float, float, float, float]]) -> list[tuple[int, int]]:
    """Pairs of boxes that intersect."""
    return [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes[i + 1:], i + 1)
            if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])]


def test_the_public_map_is_a_png_of_the_fixed_size_with_each_place_in_its_owner_s_colour():
    rs = find_ruleset("jade_rose")
    state = _demo_state()
    picture = rs.map_data().picture(state, None, events=[{"kind": "battle", "city": "blood_ford"}])
    drawing = draw_map(picture, "Ход 1 — общая карта")
    image = Image.open(io.BytesIO(drawing.png))
    assert image.format == "PNG" and image.size == (WIDTH_PX, HEIGHT_PX)
    owners = {p.owner for p in picture.places if p.owner is not None}
    assert owners == set(state["factions"])
    assert len({drawing.colours[o] for o in owners}) == len(owners)      # one colour per owner
    assert len({*drawing.colours.values(), UNOWNED, RUINS}) == len(owners) + 2
    for place in picture.places:
        expected = RUINS if place.ruined else drawing.colours[place.owner] if place.owner else UNOWNED
        got = _pixel(drawing.png, drawing.centres[place.key])
        assert _close(got, _rgb(expected)), (place.name, got, expected)


def test_a_faction_keeps_its_colour_whatever_order_the_state_lists_the_factions_in():
    rs = find_ruleset("jade_rose")
    state = _demo_state()
    reordered = dict(state, factions=dict(reversed(list(state["factions"].items()))))
    first = draw_map(rs.map_data().picture(state, None))
    second = draw_map(rs.map_data().picture(reordered, None))
    assert first.colours == second.colours and first.png == second.png


def _crowded(n: int, seed: int) -> MapPicture:
    """n provinces with long Cyrillic names and no coordinates, linked at random (fixed seed)."""
    rng = random.Random(seed)
    words = ["Северная", "Южная", "Туманная", "Кровавая", "Нефритовая", "Белая", "Гавань", "Пустошь",
             "Долина", "Застава", "Чаща", "Топь"]
    places = tuple(MapPlace(f"p{i}", f"{rng.choice(words)} {rng.choice(words)} {i}",
                            "sea" if i % 9 == 0 else "land", owner=f"f{i % 5}" if i % 4 else None,
                            label=f"сила {rng.randint(1, 9)}") for i in range(n))
    links = tuple(dict.fromkeys(MapLink(f"p{i}", f"p{j}", "sea" if (i + j) % 7 == 0 else "land")
                                for i in range(n) for j in rng.sample(range(n), 2) if i < j))
    factions = {f"f{k}": f"Раса номер {k}" for k in range(5)}
    markers = tuple(MapMarker(f"p{i}", "battle", "бой") for i in range(0, n, 6))
    return MapPicture(places, links, factions, markers)


@pytest.mark.parametrize("n,seed", [(16, 1), (30, 2), (45, 3)])
def test_labels_never_overlap_each_other_and_stay_inside_the_picture(n, seed):
    drawing = draw_map(_crowded(n, seed), "Плотная карта")
    boxes = list(drawing.label_boxes.values())
    assert len(boxes) == n
    assert _disjoint(boxes) == []
    assert all(0 <= x0 and 0 <= y0 and x1 <= WIDTH_PX and y1 <= HEIGHT_PX for x0, y0, x1, y1 in boxes)


def test_the_demo_map_s_labels_do_not_overlap_and_cover_no_place():
    rs = find_ruleset("jade_rose")
    drawing = draw_map(rs.map_data().picture(_demo_state(), None), "Ход 1")
    boxes = list(drawing.label_boxes.values())
    assert _disjoint(boxes) == []
    for x, y in drawing.centres.values():
        assert not any(x0 < x < x1 and y0 < y < y1 for x0, y0, x1, y1 in boxes)


def test_places_without_coordinates_get_the_same_layout_and_the_same_bytes_every_time():
    picture = _crowded(20, 5)
    assert layout(picture) == layout(picture)
    assert draw_map(picture).png == draw_map(picture).png


def test_given_coordinates_are_kept_and_only_the_missing_ones_are_laid_out():
    places = (MapPlace("a", "Альфа", "land", x=0.0, y=0.0), MapPlace("b", "Бета", "land", x=10.0, y=0.0),
              MapPlace("c", "Гамма", "land"))
    where = layout(MapPicture(places, (MapLink("a", "c"), MapLink("b", "c")), {}))
    assert where["a"] == (0.0, 0.0) and where["b"] == (10.0, 0.0) and set(where) == {"a", "b", "c"}


def test_a_faction_s_map_draws_its_own_arrows_only_and_the_public_map_none():
    """Two arrows across open ground (no link under them): A's and B's. A's map shows A's arrow in A's
    colour and nothing where B's would be; the public map shows neither."""
    places = (MapPlace("n", "Север", "land", "A", x=0.0, y=10.0), MapPlace("s", "Юг", "land", "B", x=0.0, y=0.0),
              MapPlace("e", "Восток", "land", "B", x=10.0, y=10.0), MapPlace("w", "Запад", "land", "A", x=10.0, y=0.0))
    arrows = (MapArrow("n", "s", "attack", "A"), MapArrow("e", "w", "attack", "B"))
    picture = MapPicture(places, (), {"A": "Эльфы", "B": "Гномы"}, arrows=arrows)

    def middle(d, a: str, b: str) -> tuple[float, float]:
        (xa, ya), (xb, yb) = d.centres[a], d.centres[b]
        return (xa + xb) / 2, (ya + yb) / 2

    mine = draw_map(picture, viewer="A")
    assert _close(_pixel(mine.png, middle(mine, "n", "s")), _rgb(mine.colours["A"]), 10)
    assert _pixel(mine.png, middle(mine, "e", "w")) == (255, 255, 255)
    public = draw_map(picture, viewer=None)
    assert _pixel(public.png, middle(public, "n", "s")) == (255, 255, 255)


# -- a game: forumwar map, the public book, LibreOffice ------------------------------------------

@pytest.fixture(scope="module")
def game(tmp_path_factory):
    gd = create_game(tmp_path_factory.mktemp("map") / "g", "jade_rose", "demo", backend="xlsx", seed=SEED)
    run_turn(gd)
    return gd


def test_forumwar_map_draws_a_faction_s_map_named_by_its_display_name(game, tmp_path):
    out = tmp_path / "карта.png"
    result = CliRunner().invoke(main, ["map", str(game.path), "--turn", "1", "--faction", "Империя",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Карта (фракции Империя) хода 1" in result.output and str(out) in result.output
    assert Image.open(out).size == (WIDTH_PX, HEIGHT_PX)
    by_id = tmp_path / "by-id.png"
    assert CliRunner().invoke(main, ["map", str(game.path), "--turn", "1", "--faction", "empire",
                                     "-o", str(by_id)]).exit_code == 0
    assert by_id.read_bytes() == out.read_bytes()


def test_forumwar_map_refuses_an_unknown_faction_or_turn_in_russian(game, tmp_path):
    bad = CliRunner().invoke(main, ["map", str(game.path), "--faction", "Атланты", "-o", str(tmp_path / "x.png")])
    assert bad.exit_code == 2 and "нет фракции «Атланты»" in bad.output and "Империя" in bad.output
    late = CliRunner().invoke(main, ["map", str(game.path), "--turn", "40", "-o", str(tmp_path / "x.png")])
    assert late.exit_code == 2 and "хода 40 в игре нет" in late.output
    assert not (tmp_path / "x.png").exists()


def test_forumwar_map_help_is_russian():
    result = CliRunner().invoke(main, ["map", "--help"])
    assert result.exit_code == 0 and "Нарисовать карту игры в PNG" in result.output and "--faction" in result.output


def test_every_stage_archives_the_public_map_and_embeds_it_in_the_public_book(game):
    archived = game.archive_path(1) / "map-orders.png"
    assert Image.open(archived).size == (WIDTH_PX, HEIGHT_PX)
    book = openpyxl.load_workbook(game.path / game.config.books["public"])
    assert book.sheetnames.index(MAP_TAB) == 1                       # right after «Карта»
    assert len(book[MAP_TAB]._images) == 1 and book[MAP_TAB].protection.sheet
    exported = openpyxl.load_workbook(game.archive_path(1) / "public-orders.xlsx")
    assert len(exported[MAP_TAB]._images) == 1
    embedded = exported[MAP_TAB]._images[0]._data()
    assert embedded == archived.read_bytes()


def test_the_picture_survives_the_next_push_of_the_book(game, tmp_path):
    from sheets_bridge.backends.base import TabWrite
    from sheets_bridge.backends.xlsx.backend import XlsxBackend
    copy = tmp_path / "books" / "public.xlsx"
    copy.parent.mkdir()
    shutil.copy(game.path / game.config.books["public"], copy)
    XlsxBackend(tmp_path).write_book("books/public.xlsx", [TabWrite("Хроника", ("Ход", "Текст"), (("1", "х"),))])
    assert len(openpyxl.load_workbook(copy)[MAP_TAB]._images) == 1


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_the_public_book_with_the_embedded_map_converts_to_pdf_in_libreoffice(game, tmp_path):
    book = tmp_path / "public.xlsx"
    shutil.copy(game.archive_path(1) / "public-orders.xlsx", book)
    done = subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path}/lo",
                           "--convert-to", "pdf", "--outdir", str(tmp_path), str(book)],
                          capture_output=True, text=True, timeout=180)
    pdf = tmp_path / "public.pdf"
    assert done.returncode == 0 and pdf.is_file(), done.stderr
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"/Subtype /Image" in data or b"/Subtype/Image" in data


def test_without_a_drive_for_pictures_the_gm_is_told_where_the_map_is_and_how_to_paste_it(tmp_path):
    from tests.fake_google import FakeGoogle, fake_backend, gm_created_books
    gm, bot = "gm@example.com", "forumwar@map.iam.gserviceaccount.com"
    fake = FakeGoogle()     # books the GM made by hand: the service account has no Drive to keep pictures
    books = gm_created_books(fake, gm, bot, {key: [] for key in ("empire", "vampires", "dwarves", "jade", "public",
                                                                 "gm")})
    backend = fake_backend(fake, bot, gm_emails=[gm])
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed=SEED, book_ids=books,
                     backend_factory=lambda _gd: backend)
    said: list[str] = []
    run_turn(gd, be=backend, progress=said.append)
    archived = gd.archive_path(1) / "map-orders.png"
    assert Image.open(archived).size == (WIDTH_PX, HEIGHT_PX)
    note = next(line for line in said if line.startswith("рисунок карты:"))
    assert str(archived) in note and "Вставка → Изображение" in note and f"«{MAP_TAB}»" in note
    assert any(line.startswith("графики фракций:") for line in said)
    assert any("не может хранить рисунки" in line for line in said)      # and why they are not in the books


def test_the_map_module_draws_from_the_contract_only():
    source = Path(__file__).parents[2] / "sheets_bridge"
    for name in ("map_drawing.py", "pictures.py", "commands/map.py", "charts.py", "backends/xlsx/pictures.py"):
        text = (source / name).read_text(encoding="utf-8")
        assert "jade_rose" not in text and "titania" not in text, name


def test_the_png_holds_the_same_pixels_whichever_deflate_writes_it(monkeypatch: pytest.MonkeyPatch):
    """zlib-ng deflates the PNG where it is installed; without it (a platform it has no wheel for) the standard
    library's zlib writes the same picture: both decode to the very pixels drawn, and each is the same bytes
    every time."""
    import zlib

    from sheets_bridge import map_drawing
    drawing = draw_map(find_ruleset("jade_rose").map_data().picture(_demo_state(), None), "Ход 1 — общая карта")
    pixels = Image.open(io.BytesIO(drawing.png)).convert("RGB")
    monkeypatch.setattr(map_drawing, "compressobj", zlib.compressobj)
    monkeypatch.setattr(map_drawing, "PNG_COMPRESSION", 1)
    plain = map_drawing.png_bytes(pixels)
    assert plain == map_drawing.png_bytes(pixels)
    assert Image.open(io.BytesIO(plain)).convert("RGB").tobytes() == pixels.tobytes()
