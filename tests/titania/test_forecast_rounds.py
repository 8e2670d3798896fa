"""A check runs a book's Campaign again after dropping the rows the engine voided, until no new row is voided
(engine.titania.book_orders.validate). The last of those rounds only confirms, and it is skipped when the
dropped rows cannot change any other outcome (forecast.inert: orders refused at registration, or whole armies'
moves voided before they changed anything). Skipping must change no verdict: every book gets what the full
rounds give (forecast.Outlook(confirm=True)), on the bench world, with books typed at random, and for the
Dwarfs, whose «Мощь Грунгни» counts the faction's attack orders, void ones too (Race.ability_reads_orders).
Not timed: the speed figures live in `make bench` (benchmarks/bench_titania_validation.py)."""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks import titania_world
from engine.ruleset import ParsedOrders, Row
from engine.titania import book_orders, forecast
from engine.titania.book_orders import MOVE
from engine.titania.names import ability_name
from engine.titania.races import RACES
from engine.titania.tabs import CAMPAIGN, MIGHT
from tests.titania.typed_books import as_rows, books_of, with_purses


@pytest.fixture(scope="module")
def world() -> titania_world.World:
    return titania_world.world()


@pytest.fixture
def rounds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The faction of every Campaign round the checks run."""
    seen: list[str] = []
    again = forecast.again

    def counted(outlook: forecast.Outlook, fs: forecast.Foresight, items: Any, first: bool) -> Any:
        seen.append(fs.faction)
        return again(outlook, fs, items, first)

    monkeypatch.setattr(forecast, "again", counted)
    yield seen


def _check(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]],
           confirm: bool) -> dict[str, ParsedOrders]:
    ix = book_orders.Index(state)
    ix._outlook = forecast.Outlook(state, confirm=confirm)
    return {f: book_orders.validate(state, f, "orders", tabs, RACES[state["factions"][f]["race"]].free_hire > 0, ix)
            for f, tabs in books.items()}


def _verdicts(parsed: Mapping[str, ParsedOrders]) -> dict[str, Any]:
    return {f: (p.orders, [(s.tab, s.number, s.text()) for s in p.statuses]) for f, p in parsed.items()}


def _same(state: Mapping[str, Any], books: Mapping[str, Mapping[str, list[Row]]]) -> dict[str, ParsedOrders]:
    got, want = _check(state, books, confirm=False), _check(state, books, confirm=True)
    assert _verdicts(got) == _verdicts(want)
    return got


def test_moves_void_for_the_army_limit_are_dropped_without_a_confirming_round(world, rounds):
    """Setup: the bench world's books, where several factions move armies into their own provinces past the
    army's Strength limit (A7.1, «T_MOVE_OVER_LIMIT»). Expected: every book gets the verdicts of the full rounds;
    the books whose only voided rows are such moves take one round, the others as many as before."""
    books = world.books()
    want = _check(world.state, books, confirm=True)
    full = list(rounds)
    rounds.clear()
    parsed = _check(world.state, books, confirm=False)
    short = list(rounds)
    assert _verdicts(parsed) == _verdicts(want)
    limited = {f for f, p in parsed.items() if any(e.code == "T_MOVE_OVER_LIMIT" for s in p.statuses
                                                   for e in s.errors)}
    assert limited, "the bench world has moves over the limit"
    assert len(short) < len(full)
    for f in limited:
        assert short.count(f) == 1 or full.count(f) == short.count(f), f
    assert all(short.count(f) >= 1 for f in books)


@settings(max_examples=30, suppress_health_check=list(HealthCheck), database=None, deadline=None)
@given(data=st.data(), rich=st.booleans(), factions=st.sets(st.integers(0, 15), min_size=1, max_size=5))
def test_books_typed_at_random_get_the_verdicts_of_the_full_rounds(world, data, rich, factions):
    state = with_purses(world.state) if rich else world.state
    _same(state, data.draw(books_of(state, factions)))


def _dwarf_raid(state: Mapping[str, Any]) -> tuple[dict[str, Any], str, list[tuple[str, str]]]:
    """The bench world with the Dwarfs out of their alliance, three Dwarf armies each next to a province of
    another faction, the third of those under a Wild raid's protection (its owner's), and Influence for the
    ability."""
    out = json.loads(json.dumps(state))
    dwarf = next(f for f, rec in out["factions"].items() if rec["race"] == "dwarfs")
    out["factions"][dwarf]["influence"] = 5
    for fid, rec in out["factions"].items():
        rec["allies"] = [] if fid == dwarf else [g for g in rec["allies"] if g != dwarf]
    near: dict[str, set[str]] = {}
    for a, b in out["map"]["adjacency"]:
        near.setdefault(a, set()).add(b)
        near.setdefault(b, set()).add(a)
    pairs: list[tuple[str, str]] = []
    used: set[str] = set()
    for army in out["armies"]:
        if army["faction"] != dwarf:
            continue
        target = next((p for p in sorted(near.get(army["province"], ())) if p not in used
                       and out["owners"].get(p) not in (None, dwarf) and out["owners"][p] in out["factions"]), None)
        if target is not None:
            pairs.append((army["province"], target))
            used.add(target)
    assert len(pairs) >= 3, "the bench world's Dwarfs border three other factions' provinces"
    pairs = pairs[:3]
    raided = pairs[2][1]
    out["protected"] = {raided: out["owners"][raided]}
    return out, dwarf, pairs


def test_grungni_counts_the_void_attack_so_dropping_it_is_confirmed(world, monkeypatch):
    """G51 a (Dwarfs, «Мощь Грунгни»): «+1 к силе за каждый атакующий отряд гномов, но не более 3».
    Setup: three Dwarf armies attack three provinces of other factions; the third province is under a Wild raid's
    protection, so that attack is void («под защитой Дикого набега»). «Мощь и магия»: Grungni +2 and +1 to the
    first two armies (3 in all). Expected: the third attack's row is rejected; with it dropped the Dwarfs attack
    with two squads, so the ability (3 > 2) is void at the turn and its rows are rejected at the check too, as
    the full rounds say; skipping the confirming round for the Dwarfs would have called them OK."""
    state, dwarf, pairs = _dwarf_raid(world.state)
    pname = {p: info["name"] for p, info in state["map"]["provinces"].items()}
    campaign = [{"№": str(n + 1), "Войско": pname[a], "Приказ": MOVE, "Куда": pname[t]}
                for n, (a, t) in enumerate(pairs)]
    grungni = ability_name("dwarfs")
    might = [{"Действие": grungni, "Войско": pname[pairs[0][0]], "Очки": "2"},
             {"Действие": grungni, "Войско": pname[pairs[1][0]], "Очки": "1"}]
    books = {dwarf: as_rows({"Поход": campaign, "Мощь и магия": might})}
    parsed = _same(state, books)[dwarf]
    status = {(s.tab, s.number): s for s in parsed.statuses}
    assert [status[(CAMPAIGN, n)].ok for n in (2, 3, 4)] == [True, True, False]
    assert "Дикого набега" in status[(CAMPAIGN, 4)].text()
    assert not status[(MIGHT, 2)].ok and not status[(MIGHT, 3)].ok
    monkeypatch.setattr(RACES["dwarfs"], "ability_reads_orders", False)
    wrong = _check(state, books, confirm=False)[dwarf]
    assert all(s.ok for s in wrong.statuses if s.tab == MIGHT), "the shortcut would have missed it"
