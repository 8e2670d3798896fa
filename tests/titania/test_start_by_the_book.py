"""The start of a game as the book says («НАЧАЛО ИГРЫ», issue 24 item 2): a set-up stage at turn 0 whose
«Начало игры» tab each faction fills, `check` reading every cell in Russian, and the turn that founds the game.

«Вы — лидер своего народа… выбрать уникальный цвет, расу из списка игровых рас, а также любую провинцию на
карте, которая граничит с морем (кроме островов), чтобы провозгласить её своей столицей. Как столица, она
сразу же получает один золотой рудник т1, одну лесопилку т1, гарнизон войск с силой 3.»
"""
from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from engine import find_ruleset
from engine.ruleset import ParsedOrders, Row
from engine.titania.natives import land_distances
from engine.titania.setup import ScenarioProblems, neighbours
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, replay, run_turn
from sheets_bridge.verify import verify

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]
CASE = Path(__file__).parent / "cases" / "start_natives_by_rings_around_the_founded_capitals.json"


def packaged() -> dict[str, Any]:
    return tomllib.loads((ROOT / "templates/titania/scenarios/start.toml").read_text(encoding="utf-8"))


def case_scenario(**start: Any) -> dict[str, Any]:
    """The map of the natives case as a scenario of a start by the book: two factions pick, the GM set the
    Keeper on kp and the Boss on bp."""
    case = json.loads(CASE.read_text(encoding="utf-8"))
    provinces = [{"id": p["id"], "name": p["name"], "sea": p["sea"], "island": p["island"]}
                 for p in case["map"]["provinces"]]
    return {"title": "Кольца туземцев", "provinces": provinces, "adjacency": case["map"]["adjacency"],
            "factions": {"red": {"name": "Красные"}, "blue": {"name": "Синие"}},
            "keepers": {"k1": {"name": "Хранители Холма", "provinces": ["kp"]}},
            "bosses": [{"province": "bp", "name": "Змей"}], "start": {"keepers": 1, **start}}


def rows(*cells: dict[str, str]) -> dict[str, list[Row]]:
    return {"start": [Row(i + 2, c) for i, c in enumerate(cells)]}


def codes(parsed: ParsedOrders) -> list[list[str]]:
    return [[e.code for e in s.errors] for s in parsed.statuses]


def test_a_scenario_with_start_opens_the_set_up_stage_at_turn_zero() -> None:
    """«чтобы основать свою империю, вам нужно выбрать…»: nothing is founded before the players pick."""
    state = RS.new_game(packaged())
    assert (state["turn"], state["stage"]) == (0, "setup")
    assert RS.order_tabs("setup") == ("start",) and "setup" in RS.stages and RS.stages[0] == "orders"
    tab = Layout.load("titania").tab("start")
    assert tab is not None and tab.title == "Начало игры" and tab.stage == "setup"
    assert [c.title for c in tab.columns] == ["Цвет", "Раса", "Столица", "Название столицы", "Статус"]
    assert not state["armies"] and not state["owners"] and not state["natives"] and not state["keepers"]
    assert all(not f["race"] and not f["capital"] and not f["colour"] for f in state["factions"].values())
    vocab = RS.vocabularies(state, "north")
    assert "орки" in vocab["start_races"] and "красный" in vocab["start_colours"]
    assert "Остров Чаек" not in vocab["start_capitals"]                # an island
    assert "Серые Топи" not in vocab["start_capitals"]                 # no sea next to it
    assert "Белые Скалы" in vocab["start_capitals"]
    assert RS.awaiting(state)["north"] == ["выбор во вкладке «Начало игры»"]
    assert "Начало игры" in RS.summary(state).lines[0]


def test_a_scenario_without_start_is_founded_at_once_as_before() -> None:
    state = RS.new_game(tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8")))
    assert (state["turn"], state["stage"]) == (1, "orders") and "start" not in state
    assert RS.order_tabs("orders") == ("planning", "campaign", "might", "diplomacy", "corrections")


def test_check_reads_each_cell_and_says_in_russian_what_is_wrong_and_what_is_free() -> None:
    state = RS.new_game(packaged())
    got = RS.validate(state, "north", "setup", rows(
        {"colour": "в крапинку", "race": "эльфы ночи", "capital": "Остров Чаек", "capital_name": "Серые топи"},
        {"colour": "синий"}))
    assert codes(got) == [["T_START_UNKNOWN", "T_START_UNKNOWN", "T_START_NOT_COASTAL", "E_NAME_LOOKALIKE"],
                          ["T_START_ONCE"]]
    text = got.statuses[0].text()
    assert "«в крапинку» нет среди вариантов поля «Цвет»" in text and "это остров" in text
    assert "кроме островов" in text and "не отличить от названия провинции «Серые Топи»" in text
    assert got.orders == ()
    inland = RS.validate(state, "north", "setup", rows({"colour": "Синий", "race": "Гномы", "capital": "Серые Топи"}))
    assert codes(inland) == [["T_START_NOT_COASTAL"]] and "не граничит с морем" in inland.statuses[0].text()
    assert inland.orders == ({"kind": "start", "rows": [2], "colour": "синий", "race": "dwarfs"},)  # the rest stands
    ok = RS.validate(state, "north", "setup", rows({"colour": "СИНИЙ", "race": "люди", "capital": "белые скалы",
                                                     "capital_name": "Новый Альбион"}))
    assert codes(ok) == [[]] and ok.statuses[0].text().startswith("OK: выбор принят: цвет синий; раса люди; "
                                                                   "столица Белые Скалы («Новый Альбион»)")
    assert ok.orders == ({"kind": "start", "rows": [2], "colour": "синий", "race": "humans", "capital": "albion",
                          "capital_name": "Новый Альбион"},)
    blank = RS.validate(state, "north", "setup", rows({"capital_name": "Х" * 41}))
    assert codes(blank) == [["T_START_NEED", "T_START_NEED", "T_START_NEED", "E_NAME_TOO_LONG"]]
    assert "знаков в нём 41, а можно не больше 40" in blank.statuses[0].text()


def test_what_the_scenario_fixed_stands_and_what_others_hold_is_taken() -> None:
    """«Сценарий может задать любую часть» (issue 24): a fixed race and capital; a fixed colour is nobody
    else's, and a place the GM set for a Keeper or a Boss takes no capital."""
    scen = case_scenario()
    scen["factions"]["red"].update(race="orcs", colour="красный", capital="c1")
    scen["keepers"]["k1"]["provinces"] = ["kp", "a3"]
    scen["adjacency"] = [*scen["adjacency"], ["a3", "s1"]]        # the Keeper's a3 is coastal
    state = RS.new_game(scen)
    assert state["stage"] == "setup" and state["map"]["provinces"]["c1"]["capital"]
    red = RS.validate(state, "red", "setup", rows({"race": "гномы", "capital": "Провинция c1"}))
    assert codes(red) == [["T_START_FIXED"]] and "Раса задан сценарием мастера: «орки»" in red.statuses[0].text()
    blue = RS.validate(state, "blue", "setup", rows({"colour": "красный", "race": "орки", "capital": "Провинция a3"}))
    assert codes(blue) == [["T_START_TAKEN", "T_START_TAKEN", "T_START_NOT_FREE"]]
    assert "Цвет «красный» уже у фракции «Красные»" in blue.statuses[0].text()
    assert RS.vocabularies(state, "blue")["start_capitals"] == ["Провинция c2"]
    result = RS.resolve(state, "setup", {"red": red, "blue": blue}, 5)
    f = result.state["factions"]
    assert (f["red"]["race"], f["red"]["capital"], f["red"]["colour"]) == ("orcs", "c1", "красный")
    assert f["blue"]["capital"] == "c2" and f["blue"]["race"] != "orcs" and f["blue"]["colour"] != "красный"


def test_the_turn_founds_each_capital_places_keepers_bosses_and_natives_and_opens_turn_one() -> None:
    state = RS.new_game(packaged())
    picks = {"north": {"colour": "синий", "race": "люди", "capital": "Белые Скалы", "capital_name": "Новый Альбион"},
             "south": {"colour": "чёрный", "race": "нежить", "capital": "Серый Мыс"},
             "east": {"colour": "зелёный", "race": "орки", "capital": "Красный Берег"},
             "west": {"colour": "красный", "race": "гномы", "capital": "Гранитный Берег"}}
    orders = {f: RS.validate(state, f, "setup", rows(c)) for f, c in picks.items()}
    assert all(codes(o) == [[]] for o in orders.values())
    before = copy.deepcopy(state)
    result = RS.resolve(state, "setup", orders, 11)
    assert state == before                                              # pure
    new = result.state
    assert (new["turn"], new["stage"]) == (1, "orders") and "start" not in new
    provinces, nb = new["map"]["provinces"], neighbours(new)
    caps = {"north": "albion", "south": "necropolis", "east": "grimgor", "west": "karak_morn"}
    for fid, cap in caps.items():
        # «один золотой рудник т1, одну лесопилку т1, гарнизон войск с силой 3»; «все остальные ресурсы убираются»
        assert new["factions"][fid]["capital"] == cap and new["owners"][cap] == fid and provinces[cap]["capital"]
        assert new["buildings"][cap] == ["mine", "sawmill"]
        assert provinces[cap]["deposits"] == ["gold", "wood"] and not provinces[cap]["shrine"]
        assert [a["strength"] for a in new["armies"] if a["faction"] == fid] == [3]
        race = RS.dump_data()["races"][new["factions"][fid]["race"]]["name"]
        assert [s.text() for s in result.statuses[fid]] == [f"OK: основано: столица «{provinces[cap]['name']}», "
                                                            f"{race}, цвет {picks[fid]['colour']}"]
    assert provinces["albion"]["name"] == "Новый Альбион"
    # Keepers: «3 фракции Хранителей со случайной расой и 2 провинциями (со всеми постройками т1), на одной из
    # которых всегда есть Святилище Древних … войско с силой 1-10 … Рынок»
    keepers = new["keepers"]
    assert len(keepers) == 3 and keepers["grove"]["home"] == ["k_grove1", "k_grove2"]
    assert keepers["temple"]["home"] == ["k_liz1", "k_liz2"]
    for kid, k in keepers.items():
        assert len(k["home"]) == 2 and k["race"] in RS.dump_data()["races"]
        assert sum(provinces[p]["shrine"] for p in k["home"]) >= 1
        for p in k["home"]:
            assert new["owners"][p] == kid and "market" in new["buildings"][p]
            wanted = {"gold": "mine", "wood": "sawmill", "fertile": "farm", "stone": "quarry", "mana": "tower"}
            assert {wanted[d] for d in provinces[p]["deposits"]} <= set(new["buildings"][p])
            assert [1 <= a["strength"] <= 10 for a in new["armies"] if a["province"] == p] == [True]
            if kid not in ("grove", "temple"):                          # the random one lies away from capitals
                assert not any(provinces[n]["capital"] for n in nb[p])
    # Bosses «в местах, заданных мастером»: Health 10, a Shrine and a t1 extraction building
    assert new["bosses"] == {"boss_giant": {"health": 10}, "boss_wyrm": {"health": 10}}
    assert provinces["boss_giant"]["shrine"] and new["buildings"]["boss_giant"] == ["mine"]
    # natives by the rings (G41 a, G40 a): every other free land province reachable over land has d natives
    land = frozenset(p for p, i in provinces.items() if not i["sea"])
    dist = land_distances(caps.values(), land, nb)
    placed = new["last"]["natives_placed"]
    assert placed["natives"] == new["natives"] and new["natives"]
    assert all(n == dist[p] for p, n in new["natives"].items())
    assert not set(new["natives"]) & {*caps.values(), *new["bosses"], *(p for k in keepers.values() for p in k["home"])}
    for cap in caps.values():   # «первые три случайные провинции, смежные к столице без туземцев»
        eligible = [n for n in nb[cap] if n in land and n not in new["owners"] and n not in new["bosses"]]
        assert len(set(eligible) & set(placed["free"])) >= min(3, len(eligible))
        assert all(new["natives"][n] == 1 for n in eligible if n not in placed["free"])
    assert any(e["kind"] == "Начало" and "Новый Альбион" in e["text"] for e in new["chronicle"])
    assert "Туземцы (G41 a, G40 a)" in result.reports["start"]


def test_two_factions_wanting_one_thing_draw_lots_and_what_is_open_is_drawn_from_what_is_left() -> None:
    """The choices are secret and simultaneous: a contested capital or colour goes to one of them by lot; the
    other, and a faction that wrote nothing, gets a free one by lot, and its row says so."""
    state = RS.new_game(packaged())
    same = {"colour": "синий", "race": "люди", "capital": "Белые Скалы"}
    orders = {f: RS.validate(state, f, "setup", rows(same)) for f in ("north", "south")}
    winners = set()
    for seed in range(12):
        result = RS.resolve(state, "setup", orders, seed)
        f = result.state["factions"]
        winner = next(x for x in ("north", "south") if f[x]["capital"] == "albion")
        loser = "south" if winner == "north" else "north"
        winners.add(winner)
        assert f[winner]["colour"] == "синий" or f[loser]["colour"] == "синий"
        assert len({x["colour"] for x in f.values()}) == 4 and len({x["race"] for x in f.values()}) == 4
        assert len({x["capital"] for x in f.values()}) == 4
        assert all(result.state["map"]["provinces"][x["capital"]]["capital"] for x in f.values())
        text = result.statuses[loser][0].text()
        assert result.statuses[loser][0].errors[0].code == "T_START_LOT"
        assert f"столица «Белые Скалы» по жребию — фракции «{f[winner]['name']}»" in text
        assert "east" not in result.statuses                          # no row, nothing to say: all by lot
        assert RS.resolve(state, "setup", orders, seed).state == result.state   # the lot is the seed's
    assert winners == {"north", "south"}


def test_with_stage_false_the_lot_chooses_at_once() -> None:
    scen = packaged()
    scen["start"]["stage"] = False
    state = RS.new_game(scen)
    assert (state["turn"], state["stage"]) == (1, "orders")
    f = state["factions"]
    assert len({x["capital"] for x in f.values()}) == 4 and all(x["race"] and x["colour"] for x in f.values())
    assert len(state["keepers"]) == 3 and state["natives"] and RS.new_game(scen) == state


def test_a_start_that_cannot_be_founded_is_refused_with_every_problem_in_russian() -> None:
    scen = case_scenario(colours=["красный"], unique_races=True, keepers=-1)
    scen["factions"]["red"]["race"] = "эльфы"
    scen["provinces"] = [*scen["provinces"], {"id": "c3", "name": "Провинция c3"}]
    with pytest.raises(ScenarioProblems) as err:
        RS.new_game(scen)
    assert err.value.problems == [
        "[start] keepers: нужно целое число не меньше 0, а указано -1.",
        "[factions.red]: раса «эльфы» неизвестна; допустимы: " + ", ".join(RS.dump_data()["races"]) + "."]
    scen = case_scenario(colours=["красный"])
    with pytest.raises(ScenarioProblems) as err:
        RS.new_game(scen)
    assert err.value.problems == ["[start]: фракциям нужно выбрать 2, а свободных цветов 1."]


def test_the_natives_of_a_start_by_the_book_are_those_of_the_v2_case() -> None:
    """One path (SCHEMA_V2 §8): the set-up stage on the case's map places the natives the case expects of
    `setup.natives`."""
    case = json.loads(CASE.read_text(encoding="utf-8"))
    state = RS.new_game(case_scenario())
    orders = {"red": RS.validate(state, "red", "setup", rows({"colour": "красный", "race": "люди",
                                                              "capital": "Провинция c1"})),
              "blue": RS.validate(state, "blue", "setup", rows({"colour": "синий", "race": "орки",
                                                               "capital": "Провинция c2"}))}
    new = RS.resolve(state, "setup", orders, 3).state
    assert new["natives"] == case["expect"]["natives"]
    assert new["last"]["natives_placed"] == case["expect"]["events"][0]
    assert new["owners"]["kp"] == "k1" and new["bosses"] == case["state"]["bosses"]


@pytest.mark.long
def test_a_new_game_starts_from_the_start_tab_of_the_xlsx_books(tmp_path: Path) -> None:
    """`forumwar new --scenario start`, the players fill «Начало игры», `check` writes each row's status into
    the book, `turn` founds the game and opens turn 1 with its order tabs; the stage replays and the archive
    verifies."""
    gd = create_game(tmp_path / "g", "titania", "start", backend="xlsx", seed="start-test")
    assert (gd.latest_state()["turn"], gd.latest_state()["stage"]) == (0, "setup")
    north = gd.path / gd.config.books["north"]
    fill_orders(north, "Начало игры", [("синий", "люди", "Белые Скалы", "Новый Альбион")])
    fill_orders(gd.path / gd.config.books["south"], "Начало игры", [("синий", "орки", "Остров Чаек", "")])
    assert check(gd).counts() == {"east": (0, 0), "north": (1, 0), "south": (0, 1), "west": (0, 0)}
    status = openpyxl.load_workbook(gd.path / gd.config.books["south"])["Начало игры"].cell(row=2, column=5).value
    assert "«Остров Чаек» не годится в столицы: это остров" in status
    report = run_turn(gd)
    assert (report.next_turn, report.next_stage) == (1, "orders")
    state = gd.latest_state()
    assert state["factions"]["north"]["capital"] == "albion" and state["map"]["provinces"]["albion"]["name"] == \
        "Новый Альбион"
    book = openpyxl.load_workbook(north)
    assert book["Сводка"].cell(row=2, column=2).value == 1
    assert book["Поход"].cell(row=2, column=2).value == "Новый Альбион"          # turn 1's orders tab, prefilled
    assert "основано: столица «Новый Альбион»" in (gd.path / "archive/turn-0000/statuses-setup.json").read_text(
        encoding="utf-8")
    assert replay(gd, 0, "setup")[0] and verify(gd, be=XlsxBackend(gd.path)).ok
