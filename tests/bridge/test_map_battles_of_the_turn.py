"""Issue 38 §1: «The map of turn 3 marks turn 2's battles as «бой этого хода».»

A map of a turn marks only the battles fought in that turn as «бой этого хода»; the battles of the turn that
just ended, which the map opening the next turn shows, are told truthfully: «бой хода 2». Checked on played
demo games of both rule sets (pictures drawn, xlsx books): the legend each map's drawing produces (the data it
draws, `Drawing.legend`), the note above the map in the public book and in every faction's book, and
`forumwar map --turn N` for an archived turn, which draws the very picture the books got.
"""
from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from PIL import Image

from engine import find_ruleset
from sheets_bridge import pictures
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import type_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.map_drawing import BATTLE, Drawing, MapPainter, battles_title, draw_map
from sheets_bridge.pictures import MAP_TAB, map_note
from sheets_bridge.scenarios import load_scenario
from sheets_bridge.stage import run_turn

SEED = "battles-of-the-turn"
DRAW = pictures.publish          # the real one, taken before the suite turns pictures off (tests/conftest.py)
THIS_TURN = "бой этого хода"


@pytest.fixture(scope="module", autouse=True)
def _draw_pictures() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pictures, "publish", DRAW)
        yield


def _play_stage(gd: GameDir) -> None:
    """Every faction types the rule set's scripted demo orders of the open stage; the stage resolves."""
    type_orders(gd, find_ruleset(gd.config.ruleset))
    run_turn(gd)


def _played(path: Path, ruleset: str, stages: int) -> GameDir:
    gd = create_game(path, ruleset, "demo", backend="xlsx", seed=SEED)
    for _ in range(stages):
        _play_stage(gd)
    return gd


@pytest.fixture(scope="module")
def jade(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """Jade Rose played to the opening of turn 3 (turn 1: orders and planning, turn 2: orders; a battle in
    each turn)."""
    gd = _played(tmp_path_factory.mktemp("jade") / "g", "jade_rose", 3)
    assert gd.snapshots()[-1].stem == "turn-0003-orders"
    return gd


@pytest.fixture(scope="module")
def titania(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """Titania played to the opening of turn 3 (a battle in turn 2)."""
    gd = _played(tmp_path_factory.mktemp("titania") / "g", "titania", 2)
    assert gd.snapshots()[-1].stem == "turn-0003-orders"
    return gd


def _legend(drawing: Drawing) -> dict[str, str]:
    return dict(drawing.legend)


def _drawn(gd: GameDir, key: str, faction: str | None = None) -> tuple[Any, Drawing]:
    """The picture the opening of snapshot `key` drew for the public (or a faction), and its drawing."""
    state = gd.read_snapshot(*pictures._stem(key))
    rs = find_ruleset(str(state["ruleset"]))
    maps = rs.map_data()
    assert maps is not None
    picture = maps.picture(state, faction, events=pictures.events_into(gd, key))
    return picture, draw_map(picture, pictures.map_title(rs, state, faction), viewer=faction)


def _book_note(gd: GameDir, key: str) -> str:
    return str(openpyxl.load_workbook(gd.path / gd.config.books[key])[MAP_TAB]["A1"].value)


@pytest.mark.parametrize("which", ["jade", pytest.param("titania", marks=pytest.mark.full)])
def test_the_map_opening_turn_3_tells_turn_2_s_battles_as_turn_2_s_never_as_this_turn_s(
        which: str, request: pytest.FixtureRequest) -> None:
    """«a map made at the opening of turn 3 before any battle of turn 3 shows no «бой этого хода»»."""
    gd = request.getfixturevalue(which)
    key = gd.snapshots()[-1].stem
    picture, drawing = _drawn(gd, key)
    assert picture.turn == 3 and picture.markers, "the demo fights a battle in turn 2"
    assert {m.turn for m in picture.markers} == {2}
    assert battles_title(picture) == "бой хода 2"
    legend = _legend(drawing)
    assert legend["бой хода 2"] == BATTLE and THIS_TURN not in legend
    assert len(drawing.marks) == len({m.place for m in picture.markers}) >= 1
    # the books: the public map's note and every faction's, beside the picture drawn from the same data
    assert _book_note(gd, "public") == map_note(False, "бой хода 2")
    assert "звезда — бой хода 2" in _book_note(gd, "public")
    for fid in gd.config.factions:
        note = _book_note(gd, fid)
        assert note == map_note(True, "бой хода 2") and "этого хода" not in note, fid
        _, own = _drawn(gd, key, fid)
        assert _legend(own)["бой хода 2"] == BATTLE and THIS_TURN not in _legend(own), fid


def test_a_jade_rose_map_at_the_opening_of_turn_2_tells_turn_1_s_battles_and_no_map_calls_an_old_one_this_turn_s(
        jade: GameDir) -> None:
    """Every map the game drew: a star is «бой этого хода» only when its battle was fought in the map's own
    turn. The map opening turn 2 shows the battle of turn 1's planning as «бой хода 1»."""
    picture, drawing = _drawn(jade, "turn-0002-orders")
    assert {m.turn for m in picture.markers} == {1} and _legend(drawing).get("бой хода 1") == BATTLE
    for path in jade.snapshots():
        picture, drawing = _drawn(jade, path.stem)
        if THIS_TURN in _legend(drawing):
            assert {m.turn for m in picture.markers} == {picture.turn}, path.stem
        for m in picture.markers:
            assert m.turn is not None and m.turn <= picture.turn, path.stem


def test_within_a_turn_its_own_battles_are_this_turn_s_and_after_it_they_are_that_turn_s() -> None:
    """The Jade Rose rule of a battle's turn: the planning map of turn 1 shows the battles turn 1's orders
    stage fought as this turn's; the same battles on the map opening turn 2 are turn 1's; an event that says
    its turn keeps it."""
    rs = find_ruleset("jade_rose")
    maps = rs.map_data()
    assert maps is not None
    state = load_scenario(rs, "demo").state
    fought = [{"kind": "battle", "city": "blood_ford"}, {"kind": "capture", "city": "blood_ford"}]
    planning = dict(state, turn=1, stage="planning")
    during = maps.picture(planning, None, events=fought)
    assert battles_title(during) == THIS_TURN and _legend(draw_map(during))[THIS_TURN] == BATTLE
    opening = dict(state, turn=2, stage="orders")
    after = maps.picture(opening, None, events=fought)
    assert battles_title(after) == "бой хода 1" and THIS_TURN not in _legend(draw_map(after))
    assert battles_title(maps.picture(planning, None, events=[{**fought[0], "turn": 0}])) == "бой хода 0"
    assert battles_title(maps.picture(opening, None)) is None and "звезда" not in map_note(False, None)


@pytest.mark.parametrize("which", ["jade", "titania"])
def test_forumwar_map_of_an_archived_turn_draws_the_books_picture_with_its_battles_turn(
        which: str, request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`forumwar map --turn 2` (the last snapshot of turn 2: the state the books showed while turn 2 was
    played) is the picture the books got; its stars are the battles of turn 1, told as turn 1's."""
    gd = request.getfixturevalue(which)
    drawn: list[Drawing] = []
    real = MapPainter.draw

    def recording(self: MapPainter, *args: Any, **kwargs: Any) -> Drawing:
        drawing = real(self, *args, **kwargs)
        drawn.append(drawing)
        return drawing

    monkeypatch.setattr(MapPainter, "draw", recording)
    out = tmp_path / "map.png"
    result = CliRunner().invoke(main, ["map", str(gd.path), "--turn", "2", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "хода 2" in result.output
    key = "turn-0002-orders"
    assert [p.stem for p in gd.snapshots() if p.stem.startswith("turn-0002-")][-1] == key
    closed = pictures.closed_stage(gd, key)
    assert closed is not None
    turn, stage = closed
    assert out.read_bytes() == (gd.archive_path(turn) / f"map-{stage}.png").read_bytes()
    legend = _legend(drawn[-1])
    picture, _ = _drawn(gd, key)
    told = battles_title(picture)
    assert THIS_TURN not in legend
    if picture.markers:                      # Jade Rose: the battle of turn 1's planning; Titania's turn 1: none
        assert told == "бой хода 1" and legend[told] == BATTLE
    else:
        assert told is None and not any(text.startswith("бой") for text in legend)
    assert Image.open(io.BytesIO(out.read_bytes())).size == (1400, 1000)
