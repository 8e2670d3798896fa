"""Issue 41 §1, «Your orders on the map, before the deadline»: «Each `check` draws, in each faction's book, the
faction's map with its orders as they stand: moves, attacks, supports, splits and spell targets (Titania); armies'
targets and what happens on capture (Jade Rose). It uses the same picture and place as the map after the turn».
«A row with an error is drawn differently from an OK row …, or not drawn, with a legend that says which»; «Fog of
war holds as it does in the turn's maps: nothing another faction did or has is drawn». §4: «Pictures checked by a
test that reads the PNG's drawn arrows' count from the drawing's data, not its pixels».

Scripted games on xlsx (Jade Rose and Titania) and one Jade Rose check on the fake Google: players type orders
(one row with an error), `check` runs, and each faction's book holds the PNG of a drawing whose data (its arrows,
its legend) shows that faction's orders only, the erroneous row left out and told by the legend."""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from engine import find_ruleset
from engine.ruleset import MapPicture, Row
from sheets_bridge import check_maps, pictures
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.demo import fill_orders, type_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.map_drawing import Drawing, MapPainter
from sheets_bridge.pictures import MAP_TAB, map_orders
from sheets_bridge.stage import check
from tests.bridge.backend_games import GoogleGame
from tests.games import new_game

SEED = "check-maps"
ARMIES, ORDERS = "Армии", "Приказы армиям"


@dataclasses.dataclass
class Drawn:
    """What the painter drew in a check: each map's picture, viewer and Drawing, in order."""

    maps: list[tuple[MapPicture, str | None, Drawing]] = dataclasses.field(default_factory=list)

    def of(self, fid: str) -> tuple[MapPicture, Drawing]:
        """The last map drawn for `fid` (the check's: the game's making drew the stage's maps before it)."""
        return [(p, d) for p, viewer, d in self.maps if viewer == fid][-1]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    record = Drawn()
    real = MapPainter.draw

    def draw(self: MapPainter, picture: MapPicture, title: str = "", viewer: str | None = None,
             base: MapPicture | None = None, legend_notes: Any = ()) -> Drawing:
        drawing = real(self, picture, title, viewer, base, legend_notes)
        record.maps.append((picture, viewer, drawing))
        return drawing
    monkeypatch.setattr(MapPainter, "draw", draw)
    yield record


def _images(gd: GameDir, key: str) -> list[bytes]:
    book = openpyxl.load_workbook(gd.path / gd.config.books[key])
    return [image._data() for image in book[MAP_TAB]._images] if MAP_TAB in book.sheetnames else []  # type: ignore[attr-defined]


def _pngs(gd: GameDir) -> set[Path]:
    return set((gd.path / "archive").rglob("*.png"))


def _demo_orders(gd: GameDir) -> None:
    """Every faction types the rule set's scripted demo orders of the open stage (the demo's own mistakes too)."""
    type_orders(gd, find_ruleset(gd.config.ruleset))


def _legend(drawing: Drawing) -> list[str]:
    return [text for text, _ in drawing.legend]


def test_jade_rose_check_draws_each_faction_s_armies_targets_and_captures_in_its_book(tmp_path, drawn, monkeypatch):
    """«armies' targets and what happens on capture (Jade Rose)». Rows: «Империя» sends «Северная» to attack
    «Чёрная Топь», «Разграбить», and types a second order for an army it never formed (an error); «Вампиры»
    defend «Чёрная Топь»; the others give no army order. Expected after `check`: each faction's book holds its
    map, the PNG of a drawing with 1 arrow for «Империя» (plunder, from its city next to «Чёрная Топь» by road),
    1 for «Вампиры» (defence), none for the others; the legend names the kinds drawn and, in «Империя»'s, that
    1 row with an error is not drawn; every book is saved once (the map with check's write) and nothing is
    archived (check is no stage)."""
    from sheets_bridge.backends.xlsx import files as xlsx_files
    gd = new_game(tmp_path / "g", "jade_rose", "demo", seed=SEED)
    book = gd.path / gd.config.books["empire"]
    fill_orders(book, ARMIES, [("Северная", "Центр", "Авангард", "Копейщик", "10")])
    fill_orders(book, ORDERS, [("Северная", "Атаковать", "Чёрная Топь", "Разграбить", "Нет"),
                               ("Призрачная", "Атаковать", "Нахтбург", "", "")])
    vampires = gd.path / gd.config.books["vampires"]
    fill_orders(vampires, ARMIES, [("Стража", "Центр", "Авангард", "Полукровка", "10")])
    fill_orders(vampires, ORDERS, [("Стража", "Оборонять", "Чёрная Топь", "", "")])
    archived = _pngs(gd)
    saves: list[str] = []
    real_save = xlsx_files.save
    def save(wb: Any, path: Any) -> None:
        saves.append(Path(path).name)
        real_save(wb, path)
    monkeypatch.setattr(xlsx_files, "save", save)
    report = check(gd)
    assert sorted(saves) == sorted(Path(gd.config.books[k]).name for k in report.pushed)   # one save per book
    assert _pngs(gd) == archived
    errors = {fid: sum(not o["ok"] for o in outcomes) for fid, outcomes in report.outcomes.items()}
    state = gd.latest_state()
    expected = {"empire": [("plunder", "black_marsh")], "vampires": [("defend", "black_marsh")],
                "dwarves": [], "jade": []}
    for fid, arrows in expected.items():
        picture, drawing = drawn.of(fid)
        assert _images(gd, fid) == [drawing.png]                         # the book holds this drawing
        assert len(drawing.arrows) == len(arrows)                        # the drawing's data, not its pixels
        assert [(a.kind, a.target) for a in picture.arrows] == arrows
        assert all(a.faction == fid for a in picture.arrows)
        for a in picture.arrows:                                         # from its own city next by road
            assert state["cities"][a.source]["owner"] == fid
            assert sorted([a.source, a.target]) in [sorted(r) for r in state["roads"]]
        legend = _legend(drawing)
        titles = {"plunder": "ваш приказ: атака — разграбление", "defend": "ваш приказ: оборона города"}
        assert [t for t in legend if t.startswith("ваш приказ")] == [titles[k] for k, _ in arrows]
        assert legend[-2:] == check_maps.errors_note(errors[fid]) or errors[fid] == 0
        assert not any(t.startswith("строк с ошибками") for t in legend) or errors[fid] > 0
    assert errors["empire"] == 1 and check_maps.errors_note(1) == _legend(drawn.of("empire")[1])[-2:]


def test_titania_check_draws_moves_attacks_splits_and_supports_and_leaves_out_the_row_with_an_error(tmp_path, drawn):
    """«moves, attacks, supports, splits … (Titania)». Rows: the demo's scripted orders, in which «Королевство
    Альбион» splits its army (2 go to «Вересковая Пустошь», 1 stays) and sends it to «Гримгор», which does not
    border «Альбион» (an error). Expected: «Альбион»'s drawing has 1 arrow (the split's march, a move: nobody
    holds the heath) and its legend says 1 row with an error is not drawn; every faction's book holds the PNG of
    its drawing, whose arrows are the Campaign steps of its own accepted orders, each from its own army."""
    gd = new_game(tmp_path / "g", "titania", "demo", seed=SEED)
    _demo_orders(gd)
    report = check(gd)
    state = gd.latest_state()
    names = {pid: p["name"] for pid, p in state["map"]["provinces"].items()}
    picture, drawing = drawn.of("albion")
    assert [(a.source, names[a.target], a.kind) for a in picture.arrows] == [("albion", "Вересковая Пустошь", "move")]
    assert len(drawing.arrows) == 1
    assert check_maps.errors_note(1) == _legend(drawing)[-2:]
    assert sum(not o["ok"] for o in report.outcomes["albion"]) == 1
    from engine.titania.map_picture import campaign_steps
    from sheets_bridge.pull import parse_books
    raw = {fid: dict(XlsxBackend(gd.path).read_tabs(gd.config.books[fid], [t.title for t in
                                                                         Layout.load("titania").order_tabs()]))
           for fid in state["factions"]}
    parsed, _ = parse_books(find_ruleset("titania"), Layout.load("titania"), state, "orders", raw)
    total = 0
    for fid in state["factions"]:
        picture, drawing = drawn.of(fid)
        assert _images(gd, fid) == [drawing.png]
        steps = {(army, target) for army, _, target in campaign_steps(map_orders(parsed[fid]))}
        assert {(a.source, a.target) for a in picture.arrows} == steps
        assert len(drawing.arrows) == len(steps) and all(a.faction == fid for a in picture.arrows)
        total += len(drawing.arrows)
    assert total >= 5                                   # the demo's factions march


def test_titania_spell_targets_are_drawn_from_the_capital_or_the_province_next_to_the_enemy():
    """«spell targets (Titania)». Setup: «Альбион» knows «Огненный шар» (an enemy army next to it) and
    «Благословение» (an own army), holds «Вересковая Пустошь» with an army, mana 5. Rows («Мощь и магия»): a fireball
    at the Keepers in «Лунная Поляна», a blessing on its army in «Вересковая Пустошь», and a cast of an unknown
    spell (an error). Expected: two spell arrows, Альбион → Лунная Поляна (its province next to the target) and
    Альбион (its capital) → Вересковая Пустошь; the erroneous row draws nothing; the legend says «заклинание»
    in the dash-dot style no other Titania order has."""
    from sheets_bridge.map_drawing import ARROW_STYLES, ARROW_TITLES
    rs = find_ruleset("titania")
    state = json.loads(json.dumps(_titania_start()))
    ids = {p["name"]: pid for pid, p in state["map"]["provinces"].items()}
    heath, grove = ids["Вересковая Пустошь"], ids["Лунная Поляна"]
    state["owners"][heath] = "albion"
    state["armies"].append({"faction": "albion", "province": heath, "strength": 2, "naval": False})
    state["factions"]["albion"].update(mana=5, spells=["fireball", "blessing"])
    rows = [{"action": "Заклинание", "spell": "Огненный шар", "province1": "Лунная Поляна"},
            {"action": "Заклинание", "spell": "Благословение", "army": "Вересковая Пустошь"},
            {"action": "Заклинание", "spell": "Нет такого", "army": "Альбион"}]
    parsed = rs.validate(state, "albion", "orders", {"might": [Row(n, r) for n, r in enumerate(rows, 2)]})
    assert [s.ok for s in parsed.statuses] == [True, True, False]
    maps = rs.map_data()
    assert maps is not None
    picture = maps.picture(state, "albion", orders=map_orders(parsed))
    assert sorted((a.source, a.target, a.kind) for a in picture.arrows) == sorted(
        [("albion", grove, "spell"), ("albion", heath, "spell")])
    drawing = MapPainter().draw(picture, "", "albion", legend_notes=check_maps.errors_note(1))
    assert len(drawing.arrows) == 2 and "ваш приказ: заклинание" in _legend(drawing)
    assert ARROW_TITLES["spell"] == "заклинание"
    assert ARROW_STYLES["spell"] not in {ARROW_STYLES[k] for k in ("attack", "move", "support")}


_START: list[dict[str, Any]] = []


def _titania_start() -> dict[str, Any]:
    if not _START:
        import tempfile
        with tempfile.TemporaryDirectory() as folder:
            _START.append(new_game(Path(folder) / "g", "titania", "demo", seed=SEED).latest_state())
    return _START[0]


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_fog_of_war_a_check_map_is_the_faction_s_own_view_with_its_own_arrows(tmp_path, drawn, ruleset):
    """«Fog of war holds as it does in the turn's maps: nothing another faction did or has is drawn». Rows: every
    faction's demo orders. Expected: each faction's check picture is, but for its arrows, exactly the rule set's
    picture of the state for that faction (what the stage's own map of it shows), and every arrow is its own."""
    gd = new_game(tmp_path / "g", ruleset, "demo", seed=SEED)
    _demo_orders(gd)
    drawn.maps.clear()
    check(gd)
    state = gd.latest_state()
    maps = find_ruleset(ruleset).map_data()
    assert maps is not None
    events = pictures.events_into(gd, f"turn-{state['turn']:04d}-{state['stage']}")
    viewers = [viewer for _, viewer, _ in drawn.maps]
    assert sorted(viewers) == sorted(f for f in gd.config.factions if f in state["factions"])
    for picture, viewer, _ in drawn.maps:
        assert viewer is not None
        own = maps.picture(state, viewer, events=events)
        assert dataclasses.replace(picture, arrows=()) == dataclasses.replace(own, arrows=())
        assert {a.faction for a in picture.arrows} <= {viewer}


def test_with_pictures_off_check_draws_and_puts_nothing(tmp_path, drawn):
    """`[pictures] draw = false` (game.toml): `check` draws no map and the books keep what they had."""
    gd = new_game(tmp_path / "g", "jade_rose", "demo", seed=SEED)
    (gd.path / "game.toml").write_text((gd.path / "game.toml").read_text(encoding="utf-8")
                                       + "\n[pictures]\ndraw = false\n", encoding="utf-8")
    gd = GameDir(gd.path)
    _demo_orders(gd)
    before = {fid: _images(gd, fid) for fid in gd.config.factions}
    drawn.maps.clear()
    check(gd)
    assert drawn.maps == []
    assert {fid: _images(gd, fid) for fid in gd.config.factions} == before


def test_google_check_updates_the_stage_s_map_file_in_place(tmp_path, drawn):
    """«the Drive picture on Google»: on the fake Google, after a player types an attack and `check` runs, the
    faction book's «Рисунок карты» still links the same Drive file as the stage's map, now holding the check's
    drawing (1 arrow); the tab is not written again (its note and link are the stage's)."""
    from tests.bridge.test_gsheets_pictures import _links
    game = GoogleGame(tmp_path / "g", SEED)
    gd, fake = game.gd, game.fake
    before = {fid: _links(fake, gd.config.books[fid], MAP_TAB) for fid in gd.config.factions}
    game.type_rows("empire", ARMIES, [("Северная", "Центр", "Авангард", "Копейщик", "10")])
    game.type_rows("empire", ORDERS, [("Северная", "Атаковать", "Чёрная Топь", "Колонизировать", "Нет"),
                                      ("Призрачная", "Атаковать", "Нахтбург", "", "")])
    tab_writes: list[str] = []
    real_write = type(game.be).write_book

    def write_book(be: Any, book_id: str, tabs: list[Any]) -> None:
        tab_writes.extend(t.title for t in tabs if t.title == MAP_TAB)
        real_write(be, book_id, tabs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(type(game.be), "write_book", write_book)
        check(GameDir(gd.path), game.be)
    assert tab_writes == []
    for fid in gd.config.factions:
        (file_id,) = _links(fake, gd.config.books[fid], MAP_TAB)
        assert [file_id] == before[fid]
        _, drawing = drawn.of(fid)
        assert fake.files[file_id].content == drawing.png
    picture, drawing = drawn.of("empire")
    assert [(a.kind, a.target) for a in picture.arrows] == [("colonise", "black_marsh")] and len(drawing.arrows) == 1
    assert check_maps.errors_note(1) == _legend(drawing)[-2:]
