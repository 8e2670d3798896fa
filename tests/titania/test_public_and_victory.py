"""Rulings T4-5 (what the public learns of a faction) and T4-7 (victory) of RULINGS.md «Titania, turn 4», DATC
style: one test per rule case, each quoting the ruling and the Russian rule book's sentence it reads
(/work/shared/seeds/002_0f606babf3d16169.txt), then its setup, the expected outcome and the expected state.

The game is the packaged demo scenario (seven factions; «Альбион» is the humans' capital, next to «Серые Топи»
and «Вересковая Пустошь»), changed only where a case says so.
"""
from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine import find_ruleset
from engine.ruleset import Row, StageResult
from engine.titania import views
from engine.titania.forum_posts import TitaniaPosts
from engine.titania.map_picture import TitaniaMap
from engine.titania.setup import ScenarioProblems
from engine.titania.victory import check_victory, rules, settings
from sheets_bridge.cli import main

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]

T4_5 = ("T4-5: «While the game runs, the public (forum posts, public book, chronicle) learns of a faction only what "
        "the public book shows: its provinces, Shrines and Might (the turn order), and the armies that fought in "
        "published battles, with their Strength there. No faction's army total is published. A GM who ranks by "
        "Strength at the end publishes it once, in the final standings.»")
BOOK_MIGHT = ("«Могущество — особый ресурс, который ваша страна получает по количеству захваченных провинций со "
              "Святилищами Древних … Количество текущего Могущества определяет порядок хода»")
T4_7 = ("T4-7: «Before the game the GM names the victory provinces in the scenario: which provinces, how many a "
        "faction must hold at the end of a turn (default: all), and an optional last turn. They are marked on the "
        "public map, unless the GM hides them. Holding the required number at the end of a turn wins. At the last "
        "turn, or when several factions qualify at once, the tie is broken by more victory provinces, then more "
        "Shrines, then more provinces. If still tied, the victory is shared. Without victory provinces, the present "
        "defaults stay (end after turn 12; 5 Shrines win). They are marked \"not in the rule book\", and `forumwar "
        "new` announces them.»")
BOOK_VICTORY = ("«Мастер знает и устанавливает заранее только места спавна Боссов, Хранителей и провинции с "
                "условиями победы»")
assert T4_5 and BOOK_MIGHT and T4_7 and BOOK_VICTORY   # quoted in every docstring below


def _scenario() -> dict[str, Any]:
    return tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8"))


def _state(victory: dict[str, Any] | None = None) -> dict[str, Any]:
    """The demo's first turn; `victory` replaces its [victory] table (checked as `new` checks it)."""
    scen = _scenario()
    if victory is not None:
        scen["victory"] = victory
    return RS.new_game(scen)


def _hold(state: dict[str, Any], fid: str, *pids: str, shrine: bool = False) -> None:
    for p in pids:
        state["owners"][p] = fid
        if shrine:
            state["map"]["provinces"][p]["shrine"] = True


def _winners(state: dict[str, Any]) -> list[str]:
    return sorted(f for f, rec in state["factions"].items() if rec.get("won"))


def _last_chronicle(state: dict[str, Any]) -> str:
    return str(state["chronicle"][-1]["text"])


def _played_turn(state: dict[str, Any] | None = None,
                 rows: dict[str, dict[str, list[Row]]] | None = None) -> tuple[dict[str, Any], StageResult]:
    before: dict[str, Any] = json.loads(json.dumps(state if state is not None else _state()))
    parsed = {fid: RS.validate(before, fid, "orders", tabs) for fid, tabs in (rows or {}).items()}
    return before, RS.resolve(before, "orders", parsed, 7)


# -- T4-5: what the public learns of a faction -------------------------------------------------------------------

def test_t4_5_the_chronicle_post_and_the_public_book_publish_no_army_total() -> None:
    """T4-5 (the ruling quoted in T4_5); the book: «Могущество … определяет порядок хода».

    Setup: the demo's first turn is played (the Keepers and natives as the demo has them).
    Expected outcome: the chronicle post's «Положение фракций» and the public book's «Фракции» show each faction's
    provinces and Shrines (Might) and its status, the same rows in the same order; neither shows a Strength.
    Expected state: the GM book and `status` still know every army (the GM may keep everything)."""
    before, result = _played_turn()
    state = result.state
    post = TitaniaPosts().posts(before, result)[0].bbcode
    table = views.standings(state)
    assert table.columns == ("Фракция", "Раса", "Цвет", "Столица", "Провинций", "Святилищ (Могущество)", "Статус",
                             "Союзники", "Война с")
    standings = post[post.index("[spoiler=Положение фракций]"):post.index("[/spoiler]")]
    lines = [ln for ln in standings.splitlines() if ln.startswith("[*]")]
    assert [ln[3:ln.index(" (")] for ln in lines] == [row[0] for row in table.rows], "same factions, same order"
    for line, row in zip(lines, table.rows, strict=True):
        assert f"провинций {row[4]}, Святилищ (Могущество) {row[5]}" in line
    assert "сила" not in standings.lower() and "Сила" not in " ".join(table.columns)
    public = RS.views(state)["public"]
    assert not any("сил" in c.lower() for t in public.values() for c in t.columns)
    assert "Могущество" in RS.views(state)["gm"]["factions"].columns
    assert all("сила войск" in f.lines[0] for f in RS.summary(state).factions), "the GM's summary keeps it"


def test_t4_5_the_strength_of_an_army_that_fought_is_published_with_its_battle() -> None:
    """T4-5: «… and the armies that fought in published battles, with their Strength there»; the book: «Побеждает
    войско с наибольшей суммарной силой».

    Setup: the orcs' capital garrison of 3 attacks the Stone Giant's lair «Логово Великана».
    Expected outcome: the battle's report gives the attacking army's Strength 3 and the chronicle tells it.
    Expected state: the standings still show no Strength of the orcs (their other armies stay unknown)."""
    rows = {"grimgor": {"campaign": [Row(2, {"army": "Гримгор", "order": "Идти / атаковать",
                                              "target": "Логово Великана"})]}}
    before, result = _played_turn(rows=rows)
    posts = TitaniaPosts().posts(before, result)
    report = next(p for p in posts if p.battle).bbcode
    assert "Нападает Орда Гримгора из провинции «Гримгор», сила 3;" in report
    assert any("Войско фракции «Орда Гримгора» (сила 3) напало на Босса" in row[2]
               for row in views.chronicle(result.state).rows)
    assert "сила" not in posts[0].bbcode[posts[0].bbcode.index("[spoiler=Положение фракций]"):]


def test_t4_5_the_final_standings_publish_strength_once_when_the_game_ranks_by_it() -> None:
    """T4-5: «A GM who ranks by Strength at the end publishes it once, in the final standings»; the default end
    (victory.toml, not in the book) ranks by Shrines, provinces, then Strength on the map.

    Setup: the demo without victory provinces, played to its last turn (8) with no faction ahead.
    Expected outcome: the game ends; the final standings (public book and chronicle post) show «Сила войск (итог)»,
    ranked by it after Shrines and provinces; the chronicle names the winner's Strength only because it decided.
    Expected state: stage «finished», the strongest of the tied factions won."""
    state = _state()
    state["turn"] = 8
    state["armies"] = [a for a in state["armies"] if a["faction"] != "albion"] + \
        [{"faction": "albion", "province": "albion", "strength": 9, "naval": False}]
    assert "Сила войск (итог)" not in views.standings(state).columns
    before = copy.deepcopy(state)
    check_victory(state, 8)
    assert state["stage"] == "finished" and _winners(state) == ["albion"]
    assert _last_chronicle(state) == ("Игра окончена. Победа: Королевство Альбион — лучшая по итогам 8 ходов: "
                                      "Святилищ 0, провинций 1, сила войск 9.")
    table = views.standings(state)
    assert table.columns[-1] == "Сила войск (итог)" and table.rows[0][0] == "Королевство Альбион"
    assert table.rows[0][-1] == 9
    before["turn"] = 8
    state["turn"] = 9
    post = TitaniaPosts().posts(before, StageResult(state, {}))[0].bbcode
    assert "[*]Королевство Альбион (люди): провинций 1, Святилищ (Могущество) 0, сила войск (итог) 9 — ПОБЕДА" in post


def test_t4_5_a_game_won_by_victory_provinces_never_publishes_strength() -> None:
    """T4-5 with T4-7: the victory provinces rank the end, so no Strength is ever published, not even at the end.

    Setup: victory provinces «Серые Топи» and «Вересковая Пустошь»; the humans hold both at the end of turn 3.
    Expected outcome: the humans win; the final standings show «Провинций победы», no Strength.
    Expected state: stage «finished»."""
    state = _state({"provinces": ["marsh", "w_moor"]})
    _hold(state, "albion", "marsh", "w_moor")
    check_victory(state, 3)
    assert state["stage"] == "finished" and _winners(state) == ["albion"]
    table = views.standings(state)
    assert table.columns[-1] == "Провинций победы" and not any("Сила" in c for c in table.columns)
    assert table.rows[0][0] == "Королевство Альбион" and table.rows[0][-1] == 2
    assert "сила" not in _last_chronicle(state)


# -- T4-7: victory ---------------------------------------------------------------------------------------------

def test_t4_7_holding_all_the_victory_provinces_at_the_end_of_a_turn_wins() -> None:
    """T4-7 (quoted in T4_7): «Holding the required number at the end of a turn wins … how many … (default: all)»;
    the book: «Мастер знает и устанавливает заранее … провинции с условиями победы».

    Setup: victory provinces «Серые Топи» and «Вересковая Пустошь» (default: both needed). The humans hold
    «Серые Топи»; their garrison of «Альбион» marches into the empty «Вересковая Пустошь».
    Expected outcome: the march captures it; at the end of the turn the humans hold both and win.
    Expected state: stage «finished», Albion `won`, the chronicle names the provinces held."""
    state = _state({"provinces": ["marsh", "w_moor"]})
    _hold(state, "albion", "marsh")
    check_victory(state, 1)
    assert state["stage"] == "orders" and _winners(state) == [], "one of two is not enough"
    rows = {"albion": {"campaign": [Row(2, {"army": "Альбион", "order": "Идти / атаковать",
                                             "target": "Вересковая Пустошь"})]}}
    _, result = _played_turn(state, rows)
    after = result.state
    assert after["owners"]["w_moor"] == "albion" and after["stage"] == "finished" and _winners(after) == ["albion"]
    assert _last_chronicle(after) == ("Игра окончена. Победа: Королевство Альбион — держит провинций победы: 2 из 2 "
                                      "(«Серые Топи», «Вересковая Пустошь»).")


def test_t4_7_the_gm_may_ask_for_fewer_than_all() -> None:
    """T4-7: «how many a faction must hold at the end of a turn (default: all)».

    Setup: three victory provinces, `provinces_to_win = 2`; the orcs hold «Восточная Степь» and «Перешеек Ветров».
    Expected outcome: the orcs win.  Expected state: stage «finished», only the orcs `won`."""
    state = _state({"provinces": ["e_steppe", "isthmus", "s_vale"], "provinces_to_win": 2})
    _hold(state, "grimgor", "e_steppe", "isthmus")
    check_victory(state, 2)
    assert state["stage"] == "finished" and _winners(state) == ["grimgor"]


def test_t4_7_several_qualify_at_once_more_victory_provinces_win() -> None:
    """T4-7: «when several factions qualify at once, the tie is broken by more victory provinces».

    Setup: three victory provinces, one needed; the orcs hold two, the humans one.
    Expected outcome: the orcs win alone.  Expected state: the humans have not won."""
    state = _state({"provinces": ["e_steppe", "isthmus", "marsh"], "provinces_to_win": 1})
    _hold(state, "grimgor", "e_steppe", "isthmus")
    _hold(state, "albion", "marsh")
    check_victory(state, 4)
    assert _winners(state) == ["grimgor"]
    assert "из нескольких дошедших до цели — провинций победы 2, Святилищ 0, провинций 3" in _last_chronicle(state)


def test_t4_7_several_qualify_with_as_many_victory_provinces_more_shrines_win() -> None:
    """T4-7: «… then more Shrines»; the book: Might «равняется количеству захваченных вами провинций со
    Святилищами Древних».

    Setup: two victory provinces, one needed; the orcs and the humans hold one each; the humans also hold
    «Тихая Долина», made a Shrine, the orcs two plain provinces more.
    Expected outcome: the humans win (1 Shrine beats 0 despite fewer provinces).  Expected state: orcs not `won`."""
    state = _state({"provinces": ["e_steppe", "marsh"], "provinces_to_win": 1})
    _hold(state, "grimgor", "e_steppe", "isthmus", "raven_ford")
    _hold(state, "albion", "marsh")
    _hold(state, "albion", "s_vale", shrine=True)
    check_victory(state, 4)
    assert _winners(state) == ["albion"]


def test_t4_7_several_qualify_with_as_many_shrines_more_provinces_win() -> None:
    """T4-7: «… then more provinces».

    Setup: two victory provinces, one needed; the orcs and the humans hold one each and no Shrine; the orcs hold
    one province more.  Expected outcome: the orcs win.  Expected state: humans not `won`."""
    state = _state({"provinces": ["e_steppe", "marsh"], "provinces_to_win": 1})
    _hold(state, "grimgor", "e_steppe", "isthmus")
    _hold(state, "albion", "marsh")
    check_victory(state, 4)
    assert _winners(state) == ["grimgor"]


def test_t4_7_still_tied_the_victory_is_shared() -> None:
    """T4-7: «If still tied, the victory is shared».

    Setup: two victory provinces, one needed; the orcs and the humans each hold one and as many provinces and
    Shrines (none).  Expected outcome: both win.  Expected state: both `won`, the chronicle says it is shared."""
    state = _state({"provinces": ["e_steppe", "marsh"], "provinces_to_win": 1})
    _hold(state, "grimgor", "e_steppe")
    _hold(state, "albion", "marsh")
    check_victory(state, 4)
    assert state["stage"] == "finished" and _winners(state) == ["albion", "grimgor"]
    assert "(победа общая)" in _last_chronicle(state)


def test_t4_7_at_the_last_turn_the_same_order_decides_and_strength_does_not() -> None:
    """T4-7: «At the last turn … the tie is broken by more victory provinces, then more Shrines, then more
    provinces»: the optional last turn the GM names ends the game.

    Setup: victory provinces «Серые Топи», «Вересковая Пустошь», «Восточная Степь», all needed; `last_turn = 6`.
    At the end of turn 6 the humans hold one, the orcs none but an army of 10 and more provinces.
    Expected outcome: the humans win: the victory province counts first, Strength not at all.
    Expected state: stage «finished»."""
    state = _state({"provinces": ["marsh", "w_moor", "e_steppe"], "last_turn": 6})
    _hold(state, "albion", "marsh")
    _hold(state, "grimgor", "isthmus", "raven_ford")
    state["armies"].append({"faction": "grimgor", "province": "isthmus", "strength": 10, "naval": False})
    check_victory(state, 5)
    assert state["stage"] == "orders"
    check_victory(state, 6)
    assert state["stage"] == "finished" and _winners(state) == ["albion"]
    assert _last_chronicle(state).endswith("лучшая по итогам 6 ходов: провинций победы 1, Святилищ 0, провинций 2.")


def test_t4_7_without_a_last_turn_the_game_goes_on_and_shrines_do_not_win() -> None:
    """T4-7: «an optional last turn»; «Without victory provinces, the present defaults stay»: with them, the
    defaults (end after turn 12, 5 Shrines) do not apply unless the scenario sets them.

    Setup: victory provinces without `last_turn`; turn 12 ends; the humans hold 5 Shrines but no victory province.
    Expected outcome: nobody wins.  Expected state: stage «orders»; `settings` says no last turn (0)."""
    state = _state({"provinces": ["marsh", "w_moor"]})
    _hold(state, "albion", "e_steppe", "isthmus", "raven_ford", "s_vale", "ash_hills", shrine=True)
    check_victory(state, 12)
    assert state["stage"] == "orders" and _winners(state) == []
    assert settings(state) == {"last_turn": 0, "shrines_to_win": 0, "provinces_to_win": 2}
    assert views.summary(state, "albion").rows[-1][:2] == ("Конец игры", "без последнего хода")


def test_t4_7_without_victory_provinces_the_defaults_stay() -> None:
    """T4-7: «Without victory provinces, the present defaults stay (end after turn 12; 5 Shrines win)»
    (engine/titania/data/victory.toml, marked «not in the rule book»).

    Setup: the demo with an empty [victory] table.
    Expected outcome: 5 Shrines held at the end of turn 3 win at once; else the game ends after turn 12.
    Expected state: `rules` gives last turn 12 and 5 Shrines; the data file marks both «not in the rule book»."""
    state = _state({})
    assert (rules(state).last_turn, rules(state).shrines_to_win, rules(state).provinces) == (12, 5, ())
    shrines = copy.deepcopy(state)
    _hold(shrines, "albion", "e_steppe", "isthmus", "raven_ford", "s_vale", "ash_hills", shrine=True)
    check_victory(shrines, 3)
    assert _winners(shrines) == ["albion"] and "удерживает Святилищ Древних: 5" in _last_chronicle(shrines)
    check_victory(state, 11)
    assert state["stage"] == "orders"
    check_victory(state, 12)
    assert state["stage"] == "finished"
    data = (ROOT / "engine/titania/data/victory.toml").read_text(encoding="utf-8")
    assert len(re.findall(r"(?m)^(last_turn|shrines_to_win) = \d+ +# default: not in the rule book", data)) == 2


def test_t4_7_the_victory_provinces_are_marked_on_the_public_map() -> None:
    """T4-7: «They are marked on the public map, unless the GM hides them».

    Setup: victory provinces «Серые Топи» and «Вересковая Пустошь».
    Expected outcome: the public book's «Карта» (and each faction's) marks them «провинция победы» in «Тип», the
    map picture labels them; no other province is marked. The standings show who holds how many.
    Expected state: `rules(state).hidden` is False."""
    state = _state({"provinces": ["marsh", "w_moor"]})
    assert not rules(state).hidden
    for table in (views.public_map(state), views.public_map(state, "grimgor")):
        marked = sorted(row[0] for row in table.rows if "провинция победы" in row[1])
        assert marked == ["Вересковая Пустошь", "Серые Топи"]
    for viewer in (None, "grimgor"):
        labels = {p.key: p.label for p in TitaniaMap().picture(state, viewer).places}
        assert sorted(k for k, label in labels.items() if "провинция победы" in label) == ["marsh", "w_moor"]
    assert views.standings(state).columns[-1] == "Провинций победы"


def test_t4_7_hidden_victory_provinces_are_not_marked() -> None:
    """T4-7: «… unless the GM hides them».

    Setup: the same provinces with `hide_provinces = true`.
    Expected outcome: no map, picture or standings shows them or who holds how many while the game runs; a win
    still counts them.  Expected state: `rules(state).hidden` is True."""
    state = _state({"provinces": ["marsh", "w_moor"], "hide_provinces": True})
    assert rules(state).hidden
    assert not any("провинция победы" in row[1] for row in views.public_map(state).rows)
    assert not any("провинция победы" in p.label for p in TitaniaMap().picture(state, None).places)
    assert "Провинций победы" not in views.standings(state).columns
    _hold(state, "albion", "marsh", "w_moor")
    check_victory(state, 2)
    assert _winners(state) == ["albion"]


def test_t4_7_a_bad_victory_table_is_refused_with_every_problem_at_once() -> None:
    """T4-7: the GM «names the victory provinces in the scenario»; a scenario is checked whole (README: `new`
    lists every problem at once and creates no game).

    Setup: [victory] names a province that does not exist, one by its display name, a sea, one twice; asks for
    more than there are; a bad last turn; an unknown key.
    Expected outcome: ScenarioProblems listing each, in Russian.  Expected state: no game."""
    with pytest.raises(ScenarioProblems) as err:
        _state({"provinces": ["marsh", "atlantis", "Альбион", "sea_mid", "marsh"], "provinces_to_win": 9,
                "last_turn": 0, "hide": True})
    problems = err.value.problems
    assert "[victory]: неизвестный ключ «hide»; допустимы: provinces, provinces_to_win, last_turn, shrines_to_win, " \
           "hide_provinces." in problems
    assert "[victory] last_turn = 0: нужно целое число не меньше 1 — номер последнего хода." in problems
    assert "[victory] provinces: нет таких провинций на карте: «atlantis», «Альбион» (это название; id — " \
           "«albion»)." in problems
    assert "[victory] provinces: море не захватывается, а значит его не удержать: «Срединное море»." in problems
    assert "[victory] provinces: провинция названа дважды: «marsh»." in problems
    assert "[victory] provinces_to_win = 9: провинций победы всего 5 — больше держать нельзя." in problems
    with pytest.raises(ScenarioProblems) as err:
        _state({"provinces_to_win": 1, "hide_provinces": True, "shrines_to_win": -1})
    assert err.value.problems == [
        "[victory] shrines_to_win = -1: нужно целое число не меньше 0 — сколько Святилищ дают победу (0 — не дают).",
        "[victory] provinces_to_win задано, а провинций победы нет: назовите их в provinces.",
        "[victory] hide_provinces = true, а провинций победы нет: прятать нечего."]


def test_t4_7_forumwar_new_announces_the_defaults_or_the_victory_provinces(tmp_path: Path) -> None:
    """T4-7: the defaults «are marked "not in the rule book", and `forumwar new` announces them»; a GM's victory
    provinces are announced instead.

    Setup: `forumwar new` of the packaged scenario «start» (no victory provinces), then of the demo with three.
    Expected outcome: the first announces the end after turn 12 or at 5 Shrines as defaults not in the rule book;
    the second names the provinces, how many to hold and the tie-breaks.  Expected state: both games created."""
    out = CliRunner().invoke(main, ["new", str(tmp_path / "a"), "--ruleset", "titania", "--scenario", "start",
                                    "--seed", "t47"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output[out.output.index("Объявите игрокам"):].split())
    assert ("Конец игры (G7): после хода 12 или сразу, когда фракция держит 5 Святилищ Древних; затем побеждает "
            "лучшая по Святилищам, провинциям и силе войск. Это значения по умолчанию — в книге правил их нет") in text
    scen = (ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8")
    scen = scen.replace('[victory]\nlast_turn = 8', '[victory]\nprovinces = ["marsh", "w_moor", "e_steppe"]\n'
                                                    'provinces_to_win = 2\nlast_turn = 8')
    path = tmp_path / "победа.toml"
    path.write_text(scen, encoding="utf-8")
    out = CliRunner().invoke(main, ["new", str(tmp_path / "b"), "--ruleset", "titania", "--scenario", str(path),
                                    "--seed", "t47"])
    assert out.exit_code == 0, out.output
    text = " ".join(out.output.split())
    assert ("Победа (G7, T4-7): провинции победы — «Серые Топи», «Вересковая Пустошь», «Восточная Степь»; "
            "побеждает фракция, что в конце хода держит 2 из них. Если дошли несколько — у кого больше провинций "
            "победы, затем Святилищ, затем провинций; при полном равенстве победа общая. После хода 8 побеждает "
            "лучшая по тому же счёту.") in text
