"""Scenario lookup and checking (sheets_bridge.scenarios): a packaged name or a GM's own file, from any folder,
with every problem reported at once, in Russian."""
from __future__ import annotations

import copy
import tomllib

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.scenarios import ScenarioError, check_scenario, load_scenario, packaged_scenarios
from tests.paths import JADE_ROSE_DEMO

RS = find_ruleset("jade_rose")
DEMO_FILE = JADE_ROSE_DEMO
DEMO_TEXT = DEMO_FILE.read_text(encoding="utf-8")
DEMO = tomllib.loads(DEMO_TEXT)


def _problems(ref: str) -> list[str]:
    with pytest.raises(ScenarioError) as err:
        load_scenario(RS, ref)
    return err.value.problems


def test_packaged_scenario_is_found_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "demo" in packaged_scenarios("jade_rose")
    scen = load_scenario(RS, "demo")
    assert scen.name == "demo"
    assert sorted(scen.state["factions"]) == ["dwarves", "empire", "jade", "vampires"]


def test_gm_scenario_path_is_read_relative_to_the_current_folder(tmp_path, monkeypatch):
    (tmp_path / "мои").mkdir()
    (tmp_path / "мои" / "осень.toml").write_text(DEMO_TEXT, encoding="utf-8")
    (tmp_path / "игры").mkdir()
    monkeypatch.chdir(tmp_path / "игры")
    scen = load_scenario(RS, "../мои/осень.toml")
    assert scen.name == "осень"
    assert str(tmp_path / "мои" / "осень.toml") in scen.source
    assert len(scen.state["cities"]) == 16


def test_unknown_scenario_name_lists_the_packaged_ones_by_ruleset_title():
    (problem,) = _problems("nosuch")
    assert "«demo»" in problem and "«Война Нефритовой Розы»" in problem and "путём к файлу .toml" in problem


def test_missing_file_and_a_folder_are_told_apart(tmp_path):
    (missing,) = _problems(str(tmp_path / "нет.toml"))
    assert missing.startswith("такого файла нет")
    (folder,) = _problems(str(tmp_path) + "/")
    assert folder.startswith("это папка, а не файл")


def test_every_problem_of_a_scenario_is_reported_at_once(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('title = ""\ngm_emails = ["мастер"]\nroads = [["a", "zz"]]\n'
                   '[factions.empire]\ngold = -5\nplayers = ["x@example.com", "не почта"]\n'
                   '[factions.orcs]\ngold = 1\n'
                   '[cities.a]\nname = "А"\nowner = "empire"\nlevel = 7\n', encoding="utf-8")
    problems = _problems(str(bad))
    expected = ["title: название игры", "«мастер» не похоже на адрес", "«не почта» не похоже на адрес",
                "Неизвестная фракция «orcs»", "стартовое золото не может быть отрицательным",
                "уровень должен быть 1, 2 или 3", "ровно одна столица", "города «zz» нет в сценарии"]
    for text in expected:
        assert sum(text in p for p in problems) == 1, (text, problems)
    assert len(problems) == len(expected)


def test_toml_syntax_error_names_its_line_and_column(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\ngold = = 2\n', encoding="utf-8")
    (problem,) = _problems(str(bad))
    assert "ошибка синтаксиса TOML в строке 2, столбце 8" in problem


def test_a_file_saved_in_windows_1251_is_reported_with_its_line(tmp_path):
    bad = tmp_path / "cp1251.toml"
    bad.write_bytes('name = "x"\ntitle = "Весна"\n'.encode("cp1251"))
    (problem,) = _problems(str(bad))
    assert "не в кодировке UTF-8" in problem and "строке 2" in problem


def test_a_utf8_file_with_a_byte_order_mark_is_accepted(tmp_path):
    good = tmp_path / "bom.toml"
    good.write_bytes(DEMO_TEXT.encode("utf-8-sig"))
    assert load_scenario(RS, str(good)).name == "bom"


def test_players_and_gm_emails_of_a_scenario_reach_the_game_config(tmp_path):
    text = DEMO_TEXT.replace("[factions.empire]\n", '[factions.empire]\nplayers = ["ivan@example.com"]\n')
    scen = tmp_path / "с игроками.toml"
    scen.write_text('title = "Весна"\ngm_emails = ["gm@example.com"]\n' + text, encoding="utf-8")
    gd = create_game(tmp_path / "g", "jade_rose", str(scen), seed="1")
    assert gd.config.factions["empire"].players == ["ivan@example.com"]
    assert gd.config.gm_emails == ["gm@example.com"]
    assert gd.config.title == "Весна" and gd.config.scenario == "с игроками"


def test_new_with_a_bad_scenario_exits_1_lists_every_problem_and_creates_nothing(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[factions.orcs]\ngold = 1\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "jade_rose", "--scenario", str(bad)])
    assert result.exit_code == 1
    assert "Неизвестная фракция «orcs»" in result.output and "Нет ни одного города" in result.output
    assert not (tmp_path / "g").exists()


def _paths(node, prefix=()):
    yield prefix
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        yield from _paths(child, (*prefix, key))


_PATHS = [p for p in _paths(DEMO) if p]
_SCALARS = st.one_of(st.integers(-3, 5), st.text(max_size=4), st.booleans(), st.floats(allow_nan=False))
_VALUES = st.recursive(_SCALARS, lambda c: st.one_of(st.lists(c, max_size=3),
                                                     st.dictionaries(st.text(max_size=3), c, max_size=3)),
                       max_leaves=6)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _VALUES), min_size=1, max_size=3))
def test_any_damaged_scenario_gives_a_state_or_a_scenario_error_never_a_crash(damage):
    data = copy.deepcopy(DEMO)
    for path, value in damage:
        try:  # an earlier change may have removed the place of a later one: then skip it
            node = data
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            pass
    try:
        state = check_scenario(RS, data, "«проба»")
    except ScenarioError as exc:
        assert exc.problems and all(isinstance(p, str) and p for p in exc.problems)
    else:
        assert state["turn"] == 1
