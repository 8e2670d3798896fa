"""`forumwar new --situation FILE.json` (issue 37 §1): a Titania game made from a situation (SCHEMA / SCHEMA_V2), as
a GM moves into forumwar a game already running in his own spreadsheet. The file's orders are ignored (players type
orders); the file is checked with all its errors listed at once, in Russian, before anything is written; it works on
xlsx and on Google."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from engine import find_ruleset
from sheets_bridge.backends.base import Backend
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.gamedir import GameDir
from sheets_bridge.scenarios import situation_scenario
from sheets_bridge.stage import check, run_turn
from tests.fake_google import FakeGoogle, fake_backend, fake_client

ROOT = Path(__file__).resolve().parents[2]
SITUATION = ROOT / "docs" / "examples" / "situation.json"
RS = find_ruleset("titania")
GM = "gm@example.com"
BOT = "forumwar@situation.iam.gserviceaccount.com"


def test_a_bad_situation_lists_every_problem_and_writes_nothing(tmp_path: Path) -> None:
    data = json.loads(SITUATION.read_text(encoding="utf-8"))
    data["state"]["armies"][0]["strength"] = 0
    data["state"]["owners"]["nowhere"] = "albion"
    data["factions"][1]["race"] = "gnomes"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--ruleset", "titania", "--situation", str(bad)])
    assert out.exit_code != 0
    for where in ("state.armies[0].strength", "state.owners.nowhere", "factions[1].race"):
        assert where in out.output, out.output
    assert "сила войска — целое число не меньше 1" in out.output
    assert not (tmp_path / "game").exists()


def test_the_example_makes_a_game_at_its_turn_and_its_orders_are_ignored(tmp_path: Path) -> None:
    """The documented example (docs/situation.md) at its turn 3: purses, armies, the Keepers' quest and Market, the
    natives and the unrevealed province as the file says; an order in the file changes nothing."""
    data = json.loads(SITUATION.read_text(encoding="utf-8"))
    data["orders"] = [{"faction": "albion", "army": "north", "type": "move", "target": "hills", "seq": 1}]
    data["planning"]["orders"] = [{"kind": "hire", "faction": "albion", "province": "north", "strength": 1,
                                   "pay": "gold_wood"}]
    path = tmp_path / "file.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = CliRunner().invoke(main, ["new", str(tmp_path / "game"), "--ruleset", "titania", "--situation", str(path),
                                    "--seed", "situation"])
    assert out.exit_code == 0, out.output
    gd = GameDir(tmp_path / "game")
    state = gd.latest_state()
    assert (state["turn"], state["stage"]) == (3, "orders")
    assert gd.config.title == "Титания: Холмы и Брод (перенос из таблицы)"
    assert {f: (r["name"], r["gold"], r["mana"]) for f, r in state["factions"].items()} == {
        "albion": ("Королевство Альбион", 5, 4), "horde": ("Орда Гримгора", 4, 1)}
    assert state["quests"]["watchers"]["done_by"] is None and state["keepers"]["watchers"]["home"] == ["bazaar",
                                                                                                       "quarry"]
    assert state["natives"] == {"wilds": 2} and state["factions"]["horde"]["techs"] == ["drill"]
    assert state["map"]["provinces"]["wilds"]["deposits"] is not None  # revealed: an Albion army stands next to it
    summary = {row[0]: row[1] for row in RS.views(state)["albion"]["summary"].rows}
    assert summary["Ход"] == 3 and summary["Столица"] == "Северная Марка"
    # the file's orders are not the players': the turn with empty books hires nothing and moves nothing
    run_turn(gd)
    after = gd.latest_state()
    assert {(a["faction"], a["province"], a["strength"]) for a in after["armies"] if a["faction"] == "albion"} == {
        ("albion", "north", 3), ("albion", "hills", 2)}


def test_on_google_the_same_game_is_made_and_played(tmp_path: Path) -> None:
    """«It works on xlsx and on Google»: the example on spreadsheets of the fake Google; a row typed in the browser
    (a spell learned and cast in one turn) is checked and played."""
    fake = FakeGoogle()
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
    made: dict[str, Backend] = {}

    def factory(gd: GameDir) -> Backend:
        made["be"] = fake_backend(fake, BOT, gm_emails=[GM], folder_id=folder,
                                  metadata_path=gd.state_dir / "gsheets-meta.json")
        return made["be"]

    data = json.loads(SITUATION.read_text(encoding="utf-8"))
    scenario = situation_scenario(RS, data, "«situation.json»", "situation", "seed")
    gd = create_game(tmp_path / "game", "titania", scenario, backend="gsheets", seed="g", backend_factory=factory,
                     pictures=False)
    assert set(gd.config.books) == {"albion", "horde", "public", "gm"}
    book = fake_client(fake, GM).open_by_key(gd.config.books["albion"])
    book.values_update("'Планирование'!A2", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["Изучить заклинание", "", "Благословение"]]})
    book.values_update("'Мощь и магия'!A2", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["Заклинание", "Северная Марка", "", "", "", "", "Благословение"]]})
    be = made["be"]
    report = check(gd, be)
    assert [(o["tab"], o["ok"]) for o in report.outcomes["albion"] if o["tab"] != "campaign"] == [
        ("planning", True), ("might", True)]
    run_turn(gd, be)
    assert gd.latest_state()["factions"]["albion"]["spells"] == ["blessing"]
