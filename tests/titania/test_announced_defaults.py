"""The defaults the book lacks, announced by `new` (issue 24 item 3): «The defaults the book lacks (victory after
turn 12 or 5 Shrines, event debuff length, the Keepers' empty standard technology set, natives never returning)
live in the scenario or game.toml. `new` prints them as «объявите игрокам».»"""
from __future__ import annotations

import tomllib
from pathlib import Path

from click.testing import CliRunner

from engine import find_ruleset
from engine.titania.defaults import turns
from sheets_bridge.cli import main

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]


def scenario(name: str) -> dict:
    return tomllib.loads((ROOT / f"templates/titania/scenarios/{name}.toml").read_text(encoding="utf-8"))


def test_new_prints_the_defaults_to_announce_with_this_game_s_values(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "titania", "--scenario", "start",
                                    "--seed", "ann"])
    assert res.exit_code == 0, res.output
    text = res.output[res.output.index("Объявите игрокам"):]
    for part in ("после хода 12 или сразу, когда фракция держит 5 Святилищ Древних",   # start.toml's [victory]
                 "Дебаф проигравших в событии длится 5 ходов (G84)",
                 "«Стандартный набор технологий» Хранителей пуст (в книге его нет)",
                 "никогда не возвращаются", "(G91)", "их ходы идут после всех игроков (G12)",
                 "и при нулевом тоже", "(G13)", "войско игрока — не Хранителей и не туземцев", "(G38, G88)"):
        assert part in text, part


def test_the_announced_values_come_from_the_scenario() -> None:
    scen = scenario("demo")
    scen["victory"] = {"last_turn": 10, "shrines_to_win": 0}
    scen["params"] = {"debuff_turns": 3}
    scen["keepers"]["grove"]["technologies"] = ["drill"]
    lines = RS.announcements(RS.new_game(scen))
    assert lines[0].startswith("Конец игры (G7): после хода 10; затем")
    assert lines[1].startswith("Дебаф проигравших в событии длится 3 хода")
    assert lines[2].startswith("«Стандартный набор технологий» Хранителей «Строевая подготовка»")
    state = RS.new_game(scen)
    assert state["keepers"]["grove"]["techs"] == ["drill"] and "techs" not in state["keepers"]["oaks"]
    assert [turns(n) for n in (1, 2, 5, 11, 12, 21, 22)] == ["1 ход", "2 хода", "5 ходов", "11 ходов", "12 ходов",
                                                          "21 ход", "22 хода"]


def test_a_keeper_s_technologies_must_be_in_the_catalog() -> None:
    scen = scenario("demo")
    scen["keepers"]["grove"]["technologies"] = ["lasers"]
    try:
        RS.new_game(scen)
    except ValueError as exc:
        assert "[keepers.grove] technologies: нет таких технологий: lasers" in str(exc)
    else:
        raise AssertionError("a Keeper with an unknown technology was accepted")
