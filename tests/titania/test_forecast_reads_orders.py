"""The forecasts of a check hand the engine the orders `validate` builds, not a copy of them (issue 23 item 3:
the copy was a twentieth of a check): so the engine must never change an order it is given. Each order reaches
the engine frozen here (a dict or list that refuses every change), on the bench world's books and on books
typed at random; a change would raise. The statuses and orders are those of a check whose forecasts are
given their own copy (the way before)."""
from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping
from typing import Any, NoReturn

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import titania_world
from engine.ruleset import ParsedOrders, Row
from engine.titania import book_orders, forecast, game_turn
from engine.titania.races import RACES
from tests.titania.typed_books import books_of, with_purses


def _refused(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError("the engine changed an order a book gave it")


class FrozenDict(dict):  # type: ignore[type-arg]
    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refused


class FrozenList(list):  # type: ignore[type-arg]
    __setitem__ = __delitem__ = append = extend = insert = pop = remove = clear = sort = reverse = _refused
    __iadd__ = __imul__ = _refused


def frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return FrozenDict({k: frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList(frozen(v) for v in value)
    return value


def _validated(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]]) -> dict[str, Any]:
    free = {f: RACES[state["factions"][f]["race"]].free_hire > 0 for f in books}
    parsed = book_orders.validate_books(state, "orders", books, free)
    return {f: (p.orders, [(s.tab, s.number, s.text()) for s in p.statuses]) for f, p in parsed.items()}


def _both(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]],
          monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The check with every order frozen as the engine gets it, and the same check with a copy of them each."""
    add_keys = game_turn.add_keys

    def frozen_keys(keys: dict[str, Any], fid: str, items: Iterable[Mapping[str, Any]], *rest: Any) -> None:
        add_keys(keys, fid, [frozen(dict(i)) for i in items], *rest)
        for key in ("planning_orders", "orders"):
            keys[key] = FrozenList(keys[key])

    with monkeypatch.context() as m:
        m.setattr(forecast, "add_keys", frozen_keys)
        got = _validated(state, books)

    def copied_keys(keys: dict[str, Any], fid: str, items: Iterable[Mapping[str, Any]], *rest: Any) -> None:
        add_keys(keys, fid, pickle.loads(pickle.dumps(list(items))), *rest)

    with monkeypatch.context() as m:
        m.setattr(forecast, "add_keys", copied_keys)
        want = _validated(state, books)
    assert got == want
    return got


def test_the_engine_changes_no_order_of_the_bench_worlds_books(monkeypatch):
    w = titania_world.world()
    got = _both(w.state, w.books(), monkeypatch)
    kinds = {item["order"].get("type") or item["order"].get("kind") for orders, _ in got.values() for item in orders
             if "order" in item}
    assert {"move", "support", "split", "hold", "hire", "build", "caravan"} <= kinds, kinds


@settings(max_examples=25, suppress_health_check=list(HealthCheck), database=None, deadline=None)
@given(data=st.data(), rich=st.booleans(), factions=st.sets(st.integers(0, 15), min_size=1, max_size=5))
def test_nor_an_order_of_books_typed_at_random(data, rich, factions):
    w = titania_world.world()
    state = with_purses(w.state) if rich else w.state
    with pytest.MonkeyPatch.context() as monkeypatch:
        _both(state, data.draw(books_of(state, factions)), monkeypatch)


def test_a_check_gives_each_order_once_to_its_forecast_and_to_the_turn():
    """The orders `validate` returns are those the forecast ran: the turn's input copies them (adjudicate's
    deep copy), the forecast does not."""
    w = titania_world.world()
    state, books = w.state, w.books()
    ix = book_orders.Index(state)
    f = sorted(books)[0]
    parsed: ParsedOrders = book_orders.validate(state, f, "orders", books[f],
                                                RACES[state["factions"][f]["race"]].free_hire > 0, ix)
    keys = ix.outlook.orders(f, list(parsed.orders))
    mine = [item["order"] for item in parsed.orders if item.get("kind") == "campaign"]
    assert keys["orders"] and all(a is b for a, b in zip(keys["orders"], mine, strict=True))
