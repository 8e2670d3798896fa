"""Rule-set registry and engine core helpers."""
import pytest

from engine import find_ruleset, ruleset_names
from engine.errors import CATALOGUE, OrderError, define
from engine.rng import derive_seed, stream


def test_find_ruleset_by_name_and_alias():
    assert find_ruleset("jade_rose").name == "jade_rose"
    assert find_ruleset("Jade-Rose").name == "jade_rose"
    assert find_ruleset("Война Нефритовой Розы").name == "jade_rose"
    assert "jade_rose" in ruleset_names()


def test_unknown_ruleset_lists_known_ones():
    with pytest.raises(KeyError, match="jade_rose"):
        find_ruleset("chess")


def test_streams_are_independent_of_other_ids():
    a1 = [stream(42, "battle", "city-a").random() for _ in range(1)]
    stream(42, "battle", "city-b").random()
    a2 = [stream(42, "battle", "city-a").random() for _ in range(1)]
    assert a1 == a2
    assert derive_seed(42, "battle", "a") != derive_seed(42, "battle", "b")
    assert derive_seed(42, "x") != derive_seed(43, "x")


def test_error_codes_are_stable_and_render_russian():
    err = OrderError("E_NOT_A_NUMBER", {"column": "Количество", "value": "много"})
    assert "Количество" in err.message() and "много" in err.message()
    with pytest.raises(ValueError):
        define({"E_NOT_A_NUMBER": "другой текст"})
    assert all(code == code.upper() for code in CATALOGUE)
