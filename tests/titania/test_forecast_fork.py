"""The forecasts of a check go on from one shared start of the turn (issue 23 item 3): each faction's runs on a
copy-on-write fork of it (engine.titania.fork) instead of a whole world built and started afresh. The fork must
change nothing: every book gets the statuses and orders, and every forecast reaches the world, that the fresh
world gives (forecast.Outlook(fork=False), the way before), on the bench world, with books typed at random, and
when the start of the Planning depends on the faction (a Keeper's quest completed by two arrivals at once).
Not timed: the speed figures live in `make bench` (benchmarks/bench_titania_validation.py)."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import titania_world
from engine.ruleset import ParsedOrders, Row
from engine.titania import book_orders, forecast
from engine.titania.fork import CopyOnRead, Fork, Template
from engine.titania.outcome import to_json
from engine.titania.races import RACES
from tests.titania.typed_books import books_of, with_purses


@pytest.fixture(scope="module")
def world() -> titania_world.World:
    return titania_world.world()


def _pair(state: Mapping[str, Any]) -> tuple[book_orders.Index, book_orders.Index]:
    """An Index whose forecasts fork the shared start, and one whose forecasts build their worlds afresh."""
    forked, fresh = book_orders.Index(state), book_orders.Index(state)
    fresh._outlook = forecast.Outlook(state, fork=False)
    assert forked.outlook.fork and not fresh.outlook.fork
    return forked, fresh


def _books(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]],
           ix: book_orders.Index) -> dict[str, ParsedOrders]:
    return {f: book_orders.validate(state, f, "orders", tabs, RACES[state["factions"][f]["race"]].free_hire > 0, ix)
            for f, tabs in books.items()}


def _same_books(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]]) -> dict[str, ParsedOrders]:
    forked, fresh = _pair(state)
    got, want = _books(state, books, forked), _books(state, books, fresh)
    for f in books:
        assert got[f].orders == want[f].orders, f
        assert [(s.tab, s.number, s.text()) for s in got[f].statuses] == \
            [(s.tab, s.number, s.text()) for s in want[f].statuses], f
    return got


def _seen(fs: forecast.Foresight | None) -> Any:
    """Everything a forecast reached: the world as the adjudication's output shows it, and the verdicts."""
    assert fs is not None
    w = fs.world
    out = to_json(w, fs.records, {"orders": fs.planning}, {"might": fs.might or {}})
    out["more"] = {"moves": sorted(fs.moves.items()), "grown": [(a.uid, n) for a, n in w.grown],
                   "armies": [vars(a) | {"task": None} for a in w.alive()], "captured_by": w.captured_by,
                   "occupancy_changed": sorted(w.occupancy_changed), "hidden_left": sorted(w.hidden_left),
                   "reveal_seen": w.reveal_seen, "known_techs": dict(w.known_techs.items()),
                   "active_techs": dict(w.active_techs.items()), "keeper_trigger_used": sorted(w.keeper_trigger_used)}
    return json.loads(json.dumps(out, sort_keys=True, default=repr))


def _same_forecasts(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]]) -> None:
    """Each book's orders (as validate gives them) run by the forecast on a fork and on a fresh world."""
    parsed = _same_books(state, books)
    forked, fresh = _pair(state)
    for f, p in parsed.items():
        items = list(p.orders)
        planning = [i for i in items if i.get("kind") == "planning"]
        one = forecast.plan(forked.outlook, f, planning)
        two = forecast.plan(fresh.outlook, f, planning)
        assert _seen(one) == _seen(two), f
        assert one is not None and two is not None
        assert _seen(forecast.go_on(forked.outlook, one, items)) == _seen(forecast.go_on(fresh.outlook, two, items)), f
        assert _seen(forecast.foresee(forked.outlook, f, items)) == _seen(forecast.foresee(fresh.outlook, f, items)), f


def test_every_book_of_the_bench_world_gets_from_the_forks_what_fresh_worlds_give(world):
    books = world.books()
    got = _same_books(world.state, books)
    assert sum(not s.ok for p in got.values() for s in p.statuses) > 50  # the world's wrong rows, forecasts' too


def test_every_forecast_on_a_fork_reaches_the_world_a_fresh_one_reaches(world):
    _same_forecasts(world.state, world.books())


@pytest.mark.parametrize("scale", [2])
def test_the_same_on_the_bench_world_twice_as_large(scale):
    w = titania_world.world(scale=scale)
    _same_books(w.state, w.books())


@settings(max_examples=25, suppress_health_check=list(HealthCheck), database=None, deadline=None)
@given(data=st.data(), rich=st.booleans(), factions=st.sets(st.integers(0, 15), min_size=1, max_size=5))
def test_books_typed_at_random_get_the_same_on_forks(world, data, rich, factions):
    state = with_purses(world.state) if rich else world.state
    _same_forecasts(state, data.draw(books_of(state, factions)))


def _contested(state: Mapping[str, Any]) -> tuple[dict[str, Any], str, list[str]]:
    """The state with a Keeper's stone quest that two factions' caravans in transit complete at once."""
    out = json.loads(json.dumps(state))
    keeper = sorted(out["keepers"])[0]
    senders = sorted(out["factions"])[:2]
    out["quests"] = {keeper: {"id": "stone", "kind": "deliver", "resource": "stone", "amount": 3, "progress": {},
                              "done_by": None}}
    out["in_transit"] = [{"to": keeper, "from": f, "resources": {"stone": 4}} for f in senders]
    return out, keeper, senders


def test_when_the_start_of_the_planning_depends_on_the_faction_each_fork_runs_it(world):
    state, keeper, senders = _contested(world.state)
    forked, _ = _pair(state)
    _, prepared = forked.outlook.start()
    assert not prepared  # the quest's winner is the earliest in the move order: each forecast's own faction
    won = [forecast.plan(forked.outlook, f, []) for f in senders]
    assert [[r["faction"] for r in fs.world.rewards] for fs in won if fs is not None] == [[f] for f in senders]
    books = {f: world.books()[f] for f in senders}
    _same_forecasts(state, books)
    one, _, _ = _contested(world.state)
    one["in_transit"] = one["in_transit"][:1]
    assert _pair(one)[0].outlook.start()[1]  # one sender: the same for every faction, in the template


def test_the_forecasts_leave_the_shared_start_as_it_was(world):
    books = world.books()
    forked, _ = _pair(world.state)
    template, _ = forked.outlook.start()
    before = _seen(forecast.Foresight("", template.world, []))
    _books(world.state, books, forked)
    assert _seen(forecast.Foresight("", template.world, [])) == before
    fresh, _ = forecast.Outlook(world.state).start()
    assert _seen(forecast.Foresight("", fresh.world, [])) == before


def test_a_fork_has_every_part_of_a_world_but_the_list_of_all_armies(world):
    template, _ = forecast.Outlook(world.state).start()
    w = template.fork()
    parts = set(vars(template.world))
    assert parts - {"armies"} <= set(vars(w))
    assert not hasattr(w, "armies")  # every army is reached through `_of` and `_at` (or `alive`, a copy of all)
    with pytest.raises(ValueError):
        Template(w)


def test_a_fork_copies_an_army_or_a_value_only_when_it_reads_it(world):
    template, _ = forecast.Outlook(world.state).start()
    base = template.world
    w = template.fork()
    assert isinstance(w, Fork) and isinstance(w.buildings, CopyOnRead)
    f = sorted(world.state["factions"])[0]
    mine = w.armies_of(f)
    assert [vars(a) for a in mine] == [vars(a) for a in base.armies_of(f)]
    assert all(a is not b for a, b in zip(mine, base.armies_of(f), strict=True))
    there = mine[0].province
    assert mine[0] in w.armies_in(there)  # the same copy by faction and by province
    mine[0].strength += 1
    assert base.armies_of(f)[0].strength == mine[0].strength - 1
    grown = w.add_army(f, there, 1)
    assert grown.uid == len(base.armies) + 1 and w.own_army(f, there) is mine[0]
    p = w.owned(f)[0]
    w.buildings[p].append("farm")
    w.resources[f]["gold"] += 5
    assert base.buildings[p] != w.buildings[p] and base.resources[f]["gold"] + 5 == w.resources[f]["gold"]
    assert set(w.buildings.copied()) == {p} and len(w.buildings) == len(base.buildings)
    assert dict(w.buildings.items()) == {**base.buildings, p: w.buildings[p]}
    with pytest.raises(TypeError):
        w.buildings.update({p: []})
    with pytest.raises(KeyError):
        w.buildings["nowhere"] = []
    assert len(w.alive()) == len(base.alive()) + 1


def _hidden(state: Mapping[str, Any]) -> dict[str, Any]:
    """Fewer armies (four a faction) and every land province but the capitals not revealed yet (deposits
    unknown): some are revealed at the start of the turn, the rest as armies come near."""
    out = json.loads(json.dumps(state))
    for info in out["map"]["provinces"].values():
        if not info["sea"] and not info["capital"]:
            info.update(deposits=None, shrine=False)
    kept: dict[str, int] = {}
    armies = []
    for a in out["armies"]:
        kept[a["faction"]] = kept.get(a["faction"], 0) + 1
        if a["faction"] not in out["factions"] or kept[a["faction"]] <= 4:
            armies.append(a)
    out["armies"] = armies
    return out


def test_forks_of_a_world_with_provinces_to_reveal_reveal_what_fresh_worlds_do(world):
    state = _hidden(world.state)
    template, _ = forecast.Outlook(state).start()
    assert template.world.hidden_left and template.world.revealed  # some revealed at the start, some left
    assert template.looking == ()  # every army looked around at the start of the turn
    w = template.fork()
    assert w.lookers() == []
    f = sorted(state["factions"])[0]
    army = w.armies_of(f)[0]
    assert [a.uid for a in w.lookers()] == [a.uid for a in w.armies_of(f)]  # reached: looked at again
    assert army.uid in w.reveal_seen
    _same_forecasts(state, world.books())


@settings(max_examples=10, suppress_health_check=list(HealthCheck), database=None, deadline=None)
@given(data=st.data(), factions=st.sets(st.integers(0, 15), min_size=1, max_size=4))
def test_books_typed_at_random_on_a_world_to_reveal_get_the_same_on_forks(world, data, factions):
    state = _hidden(world.state)
    _same_forecasts(state, data.draw(books_of(state, factions)))


def test_each_round_of_a_check_reaches_what_a_fresh_world_reaches(world):
    """`again` runs a check's first Campaign round on the world the Planning left, and a later round by a whole
    new forecast (a new fork): every round reaches what the fresh world reaches, and each its own world."""
    books = world.books()
    forked, fresh = _pair(world.state)
    f = sorted(books)[0]
    parsed = _books(world.state, {f: books[f]}, forked)[f]
    items = list(parsed.orders)
    seen = forecast.plan(forked.outlook, f, [i for i in items if i.get("kind") == "planning"])
    assert seen is not None and isinstance(seen.world, Fork)
    rounds = [forecast.again(forked.outlook, seen, items, first=n == 0) for n in range(3)]
    assert rounds[0] is not None and rounds[0].world is seen.world
    assert len({id(r.world) for r in rounds if r is not None}) == 3
    assert all(isinstance(r.world, Fork) for r in rounds if r is not None)
    want = forecast.foresee(fresh.outlook, f, items)
    assert all(_seen(r) == _seen(want) for r in rounds)


def test_a_copy_of_the_owners_and_the_original_change_apart():
    from engine.titania.world import Owners
    owners = Owners({"a": "red", "b": None, "c": "red", "d": "blue"})
    copy = owners.copy()
    copy["a"] = "blue"
    assert owners.owned("red") == ["a", "c"] and owners.owned("blue") == ["d"]
    assert copy.owned("red") == ["c"] and copy.owned("blue") == ["a", "d"]
    owners["b"] = "red"
    again = copy.copy()
    copy["c"] = None
    assert owners.owned("red") == ["a", "b", "c"] and again.owned("red") == ["c"] and copy.owned("red") == []
    assert owners == {"a": "red", "b": "red", "c": "red", "d": "blue"} and copy["c"] is None and again["c"] == "red"
