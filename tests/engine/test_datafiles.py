"""The shared data-file core (engine.datafiles): every problem at once, each check, reading, freezing."""
from __future__ import annotations

import json
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.datafiles import DataError, Problems, freeze, is_int, read_toml, read_toml_files, thaw


def test_every_problem_is_collected_and_raised_together():
    p = Problems()
    assert not p
    p.integer("units.a.attack", -3, minimum=0)
    p.fields("units.b", {"name": "Б", "colour": "red"}, ("name", "hp"))
    p.text("units.c.name", " ")
    assert p
    assert p.items == ["units.a.attack: отрицательное число -3",
                       "units.b: нет поля 'hp'",
                       "units.b: неизвестное поле 'colour'",
                       "units.c.name: ожидается непустой текст, а не ' '"]
    with pytest.raises(DataError) as err:
        p.raise_if_any("Данные игры")
    assert err.value.problems == p.items
    assert str(err.value).startswith("Данные игры: ошибок — 4:\n- units.a.attack: отрицательное число -3")


def test_no_problem_raises_nothing():
    p = Problems()
    assert p.table("a", {}) and p.integer("b", 0, minimum=0) and p.choice("c", "x", ("x", "y"))
    p.raise_if_any()
    assert p.items == []


@pytest.mark.parametrize("check, args, message", [
    ("table", ({"a": 1},), None),
    ("table", ([1],), "ожидается таблица, а не [1]"),
    ("fields", ({"a": 1, "b": 2}, ("a",), ("b",)), None),
    ("integer", (5, 0, 10), None),
    ("integer", (True,), "ожидается целое число, а не True"),
    ("integer", (1.5,), "ожидается целое число, а не 1.5"),
    ("integer", ("3",), "ожидается целое число, а не '3'"),
    ("integer", (-1, 0), "отрицательное число -1"),
    ("integer", (0, 1), "должно быть не меньше 1, а не 0"),
    ("integer", (11, 0, 10), "должно быть не больше 10, а не 11"),
    ("integer", (-7,), None),
    ("number", (0.5, 0, 1), None),
    ("number", (1, 0, 1), None),
    ("number", (False,), "ожидается число, а не False"),
    ("number", (1.5, 0, 1), "должно быть от 0 до 1, а не 1.5"),
    ("boolean", (False,), None),
    ("boolean", (0,), "ожидается true или false, а не 0"),
    ("boolean", ("да",), "ожидается true или false, а не 'да'"),
    ("text", ("Рыцарь",), None),
    ("text", ("",), "ожидается непустой текст, а не ''"),
    ("text", (3,), "ожидается непустой текст, а не 3"),
    ("choice", ("all", ("all", "ranged")), None),
    ("choice", ("melee", ("all", "ranged")), "'melee' не подходит; допустимо: 'all', 'ranged'"),
])
def test_each_check_accepts_good_values_and_names_what_is_wrong(check, args, message):
    p = Problems()
    passed = getattr(p, check)("x.y", *args)
    assert passed is (message is None)
    assert p.items == ([] if message is None else [f"x.y: {message}"])


def test_fields_lists_each_missing_and_each_unknown_field_and_rejects_a_non_table():
    p = Problems()
    assert p.fields("eras.dawn", {"name": "Рассвет", "x": 1, "y": 2}, ("name", "first_turn", "last_turn"))
    assert not p.fields("eras.day", "день", ("name",))
    assert p.items == ["eras.dawn: нет поля 'first_turn'", "eras.dawn: нет поля 'last_turn'",
                       "eras.dawn: неизвестное поле 'x'", "eras.dawn: неизвестное поле 'y'",
                       "eras.day: ожидается таблица, а не 'день'"]


def test_is_int_takes_integers_and_not_toml_booleans():
    assert is_int(0) and is_int(-3)
    assert not is_int(True) and not is_int(1.0) and not is_int("1")


@pytest.fixture
def data_package(tmp_path, monkeypatch):
    """A throw-away package `datafiles_probe` on sys.path with data/good.toml and a broken data/bad.toml."""
    package = tmp_path / "datafiles_probe"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "data" / "good.toml").write_text('[units.a]\nname = "Копейщик"\nhp = 20\n', encoding="utf-8")
    (package / "data" / "bad.toml").write_text("[units\nname = ", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "datafiles_probe"


def test_read_toml_reads_a_packaged_file_and_none_when_it_is_absent(data_package):
    assert read_toml(data_package, "data", "good.toml") == {"units": {"a": {"name": "Копейщик", "hp": 20}}}
    assert read_toml(data_package, "data", "absent.toml") is None


def test_read_toml_files_reports_a_missing_and_a_broken_file_together(data_package):
    with pytest.raises(DataError) as err:
        read_toml_files(data_package, "data", ("good", "bad", "absent"))
    problems = err.value.problems
    assert len(problems) == 2
    assert problems[0].startswith("bad.toml: не читается как TOML: ")
    assert problems[1] == "absent.toml: файла нет"


def test_read_toml_files_skips_an_absent_optional_file(data_package):
    docs = read_toml_files(data_package, "data", ("good",), optional=("absent",))
    assert docs == {"good": {"units": {"a": {"name": "Копейщик", "hp": 20}}}}


def test_a_broken_optional_file_is_still_a_problem(data_package):
    with pytest.raises(DataError) as err:
        read_toml_files(data_package, "data", ("good",), optional=("bad",))
    assert [p.split(":")[0] for p in err.value.problems] == ["bad.toml"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20)


@given(JSON)
def test_thaw_of_freeze_gives_back_the_json_value(value):
    assert thaw(freeze(value)) == value
    assert json.loads(json.dumps(thaw(freeze(value)))) == json.loads(json.dumps(value))


@given(st.dictionaries(st.text(max_size=5), JSON, max_size=4))
def test_frozen_tables_and_lists_cannot_be_changed(value):
    frozen = freeze({"t": value, "l": [value]})
    assert isinstance(frozen, MappingProxyType) and isinstance(frozen["l"], tuple)
    with pytest.raises(TypeError):
        frozen["t"]["new"] = 1
    with pytest.raises(TypeError):
        frozen["new"] = 1
