"""A v2 game played from the books alone (issue 37, "done when"): made from a situation file with
`forumwar new --situation` (docs/examples/situation.json), then two turns typed by the players into their xlsx books,
`check`, `turn`. In turn 3 «Королевство Альбион» learns «Благословение» and casts it in the same turn (G77), sends
mana to the Keepers' Market at «Торжище» for their quest, and both factions declare an alliance; in turn 4 the caravan
arrives and completes the quest, and Альбион ends the alliance (G46)."""
from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_bridge import stage
from sheets_bridge.backends.base import TypesOrders
from sheets_bridge.cli import main
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage_common import open_backend

ROOT = Path(__file__).resolve().parents[2]
SITUATION = ROOT / "docs" / "examples" / "situation.json"


def _type(gd: GameDir, fid: str, tab: str, rows: list[dict[str, Any]]) -> None:
    be = open_backend(gd)
    assert isinstance(be, TypesOrders)
    be.type_rows(gd.config.books[fid], {tab: [{k: str(v) for k, v in r.items()} for r in rows]})


def _statuses(gd: GameDir, fid: str, tab: str) -> list[str]:
    """The «Статус» column of a tab as the players read it in their book."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(gd.path / gd.config.books[fid], read_only=True)
    rows = list(wb[tab].iter_rows(values_only=True))
    wb.close()
    col = [str(c or "") for c in rows[0]].index("Статус")
    return [str(r[col]) for r in rows[1:] if r[col]]


def _results(gd: GameDir, fid: str, turn: int) -> dict[tuple[str, int], str]:
    """«Итоги приказов» of a turn as the players read it: (tab, row) -> what became of the row."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wb = openpyxl.load_workbook(gd.path / gd.config.books[fid], read_only=True)
    rows = list(wb["Итоги приказов"].iter_rows(values_only=True))[1:]
    wb.close()
    return {(str(r[1]), int(r[2])): str(r[4]) for r in rows if r[0] == turn}


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    path = tmp_path_factory.mktemp("v2") / "game"
    out = CliRunner().invoke(main, ["new", str(path), "--ruleset", "titania", "--situation", str(SITUATION),
                                    "--seed", "scripted"])
    assert out.exit_code == 0, out.output
    return GameDir(path)


def test_a_v2_game_is_played_from_the_books_alone(game: GameDir) -> None:
    state = game.latest_state()
    assert state["turn"] == 3 and state["factions"]["albion"]["mana"] == 4
    assert state["quests"]["watchers"]["done_by"] is None
    # turn 3: learn and cast in one turn, a delivery to the Keepers' Market, an alliance declared by both
    _type(game, "albion", "Планирование", [
        {"Действие": "Изучить заклинание", "Что": "Благословение"},
        {"Действие": "Отправить караван", "Провинция": "Холмы", "Что": "мана", "Количество": 2,
         "Кому": "Стражи Холмов", "Маршрут": "Торжище"}])
    _type(game, "albion", "Мощь и магия", [{"Действие": "Заклинание", "Заклинание": "Благословение",
                                             "Войско": "Северная Марка"}])
    _type(game, "albion", "Дипломатия", [{"Действие": "Заключить союз", "Фракция": "Орда Гримгора"}])
    _type(game, "horde", "Дипломатия", [{"Действие": "Заключить союз", "Фракция": "Королевство Альбион"}])
    checked = stage.check(game)
    assert all(o["ok"] for f in ("albion", "horde") for o in checked.outcomes[f]), checked.outcomes
    assert _statuses(game, "albion", "Планирование") == [
        "OK: изучить «Благословение»",
        "OK: караван: мана 2 для Хранителей «Стражи Холмов» (Рынок в провинции «Торжище») в соседнюю провинцию"]
    assert _statuses(game, "horde", "Дипломатия") == [
        "OK: союз с фракцией «Королевство Альбион» будет заключён, когда она тоже выберет «Заключить союз» (в этом "
        "ходу или позже); до тех пор предложение ждёт её ответа"]
    stage.run_turn(game)
    state = game.latest_state()
    albion, horde = state["factions"]["albion"], state["factions"]["horde"]
    assert albion["spells"] == ["blessing"]
    assert albion["allies"] == ["horde"] and horde["allies"] == ["albion"]
    # mana 4 + 1 (the tower in «Холмы») − 2 learnt − 1 cast − 2 in the caravan
    assert albion["mana"] == 0
    assert state["in_transit"] == [{"to": "watchers", "from": "albion", "resources": {"mana": 2}}]
    done = _results(game, "albion", 3)
    assert done[("Мощь и магия", 2)].startswith("OK: выполнен: заклинание применено")
    assert done[("Планирование", 2)].startswith("OK: выполнен: заклинание изучено")
    assert done[("Планирование", 3)].startswith("OK: выполнен: караван отправлен")
    assert done[("Дипломатия", 2)] == "OK: союз с фракцией «Орда Гримгора» заключён"
    public = [str(e["text"]) for e in state["chronicle"] if e["turn"] == 3]
    assert "Фракции «Королевство Альбион» и «Орда Гримгора» заключили союз." in public
    # turn 4: the caravan arrives at the Market and completes the quest; Альбион ends the alliance
    _type(game, "albion", "Дипломатия", [{"Действие": "Разорвать союз", "Фракция": "Орда Гримгора"}])
    stage.run_turn(game)
    state = game.latest_state()
    assert state["quests"]["watchers"]["done_by"] == "albion"
    assert any(e["kind"] == "quest_done" and e["faction"] == "albion" for e in state["last"]["events"])
    reward = next(r for r in state["last"]["rewards"] if r["kind"] == "quest")
    # «случайное заклинание (кроме уже изученных) или случайную технологию (кроме уже изученных)»: every spell is known
    # (T4-8 c: the kind is drawn among those with something left), so the one technology Альбион lacks
    assert 1 <= reward["gold"] <= 10 and 1 <= reward["wood"] <= 10 and reward.get("technology") == "drill"
    assert "drill" in state["factions"]["albion"]["techs"]
    assert state["factions"]["albion"]["allies"] == [] and state["factions"]["horde"]["allies"] == []
    assert _results(game, "albion", 4)[("Дипломатия", 2)] == "OK: союз с фракцией «Орда Гримгора» разорван"
    assert "Фракция «Королевство Альбион» разорвала союз с фракцией «Орда Гримгора»." in [
        e["text"] for e in state["chronicle"] if e["turn"] == 4]
