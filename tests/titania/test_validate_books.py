"""All the books of one check read on one reading of the state (issue 23 item 3): the rule set's
`validate_books`, which the bridge's pull calls, gives every book exactly what `validate` gives it alone, and
the bridge validates through it. Not timed: the speed figures live in `make bench`
(benchmarks/bench_titania_validation.py)."""
from __future__ import annotations

from typing import Any

import pytest

from benchmarks import titania_world
from engine import find_ruleset
from engine.ruleset import GM_BOOK, ParsedOrders, Row
from engine.titania.world import Owners

RS = find_ruleset("titania")


def _same(one: ParsedOrders, two: ParsedOrders) -> None:
    assert one.orders == two.orders
    assert [(s.tab, s.number, s.text()) for s in one.statuses] == [(s.tab, s.number, s.text()) for s in two.statuses]


@pytest.fixture(scope="module")
def world() -> titania_world.World:
    return titania_world.world()


def test_every_book_read_together_gets_what_it_gets_alone(world):
    books = world.books()
    together = RS.validate_books(world.state, "orders", books)
    assert set(together) == set(books)
    assert sum(not s.ok for p in together.values() for s in p.statuses) > 50  # the world's wrong rows
    for fid, tabs in books.items():
        _same(together[fid], RS.validate(world.state, fid, "orders", tabs))


def test_a_book_of_an_unknown_or_eliminated_faction_gets_no_orders(world):
    state: dict[str, Any] = {**world.state, "factions": dict(world.state["factions"])}
    state["factions"]["f01"] = {**state["factions"]["f01"], "eliminated": True}
    books = world.books()
    got = RS.validate_books(state, "orders", {"f00": books["f00"], "f01": books["f01"], "nobody": books["f02"]})
    assert got["f01"].orders == () and got["f01"].statuses == ()
    assert got["nobody"].orders == () and got["nobody"].statuses == ()
    _same(got["f00"], RS.validate(state, "f00", "orders", books["f00"]))


def test_the_bridge_validates_the_factions_books_at_once(world, monkeypatch):
    from sheets_bridge.layouts import Layout
    from sheets_bridge.pull import parse_books
    layout = Layout.load("titania")
    titles = {t.key: t for t in layout.order_tabs("orders")}
    raw: dict[str, dict[str, list[list[str]]]] = {}
    for fid in ("f00", "f01"):
        raw[fid] = {}
        for key, rows in world.rows[fid].items():
            cols = titles[key].columns
            header = [c.title for c in cols]
            by_key = {c.key: i for i, c in enumerate(cols)}
            cells = [[""] * len(cols) for _ in rows]
            for out, row in zip(cells, rows, strict=True):
                for k, v in zip(titania_world.COLUMNS[key], row, strict=False):
                    out[by_key[k]] = v
            raw[fid][titles[key].title] = [header, *cells]
    raw[GM_BOOK] = {}
    calls: list[list[str]] = []
    batch = type(RS).validate_books

    def counted(self: Any, state: Any, stage: str, books: Any) -> dict[str, ParsedOrders]:
        calls.append(sorted(books))
        return batch(self, state, stage, books)

    monkeypatch.setattr(type(RS), "validate_books", counted)
    parsed, _ = parse_books(RS, layout, world.state, "orders", raw)
    assert calls == [["f00", "f01"]]  # one call for the factions' books, the GM's book apart
    for fid in ("f00", "f01"):
        alone = RS.validate(world.state, fid, "orders", {
            key: [Row(n, dict(zip(titania_world.COLUMNS[key], cells, strict=False)))
                  for n, cells in enumerate(rows, 2)] for key, rows in world.rows[fid].items()})
        assert [(s.tab, s.number, s.text()) for s in parsed[fid].statuses] == \
            [(s.tab, s.number, s.text()) for s in alone.statuses]


def test_the_bench_world_doubles_with_its_scale():
    one, two = titania_world.world(), titania_world.world(scale=2)
    for key in ("factions", "keepers", "bosses"):
        assert len(two.state[key]) == 2 * len(one.state[key]), key
    assert len(two.state["map"]["provinces"]) == 2 * len(one.state["map"]["provinces"])
    armies = [sum(1 for a in w.state["armies"] if a["faction"] in w.state["factions"]) for w in (one, two)]
    assert armies[1] == 2 * armies[0]
    assert 1.8 * one.typed() <= two.typed() <= 2.2 * one.typed()


def test_the_owners_of_a_turn_keep_each_factions_provinces_at_hand():
    owners = Owners({"a": "red", "b": None, "c": "red", "d": "blue"})
    assert owners.owned("red") == ["a", "c"]
    owners["a"] = "blue"
    owners["b"] = "red"
    assert owners.owned("red") == ["b", "c"] and owners.owned("blue") == ["a", "d"]
    assert owners == {"a": "blue", "b": "red", "c": "red", "d": "blue"}
    for change in (lambda: owners.pop("a"), lambda: owners.update(a="red"), lambda: owners.clear()):
        with pytest.raises(TypeError):
            change()
    with pytest.raises(KeyError):
        owners["nowhere"] = "red"
    assert owners.owned("red") == ["b", "c"]
