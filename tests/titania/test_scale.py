"""Titania at scale (issue 10, item 8): the generated world of benchmarks/titania_world.py (16 factions of all
13 races, 150 provinces, 300 armies, about a thousand typed rows) adjudicates without problems, the same way
every time, and every typed row gets its verdict. Not timed: the speed figure lives in `make bench`."""
from __future__ import annotations

import collections
import json

import pytest

from benchmarks import titania_world
from engine.titania.adjudicate import adjudicate
from engine.titania.reasons import OUTCOMES, REASONS
from engine.titania.setup import neighbours


@pytest.fixture(scope="module")
def world() -> titania_world.World:
    return titania_world.world()


@pytest.fixture(scope="module")
def turn(world):
    from engine.titania import game_turn
    parsed = world.parsed()
    data, _, _ = game_turn.situation(world.state, parsed, 1)
    return parsed, data, adjudicate(data, 1)


def test_the_generated_world_has_the_size_of_the_issue(world):
    s = world.state
    provinces = s["map"]["provinces"]
    races = {f["race"] for f in s["factions"].values()}
    players = [a for a in s["armies"] if a["faction"] in s["factions"]]
    assert len(provinces) == 150 and len(s["factions"]) == 16 and len(races) == 13
    assert len(players) == 300
    assert 900 <= world.typed() <= 1100
    assert sum(info["sea"] for info in provinces.values()) >= 20
    assert sum(info["island"] for info in provinces.values()) == 2
    assert sum(info["shrine"] for info in provinces.values()) >= 10
    assert s["keepers"] and s["bosses"] and s["natives"]
    nb = neighbours(s)
    for f in s["factions"].values():  # «любую провинцию на карте, граничащую с морем (кроме островов)»
        cap = f["capital"]
        assert not provinces[cap]["island"] and any(provinces[n]["sea"] for n in nb[cap])


def test_no_province_holds_armies_of_two_factions_that_are_not_allied(world):
    s = world.state
    at: dict[str, list[str]] = collections.defaultdict(list)
    for a in s["armies"]:
        at[a["province"]].append(a["faction"])
    for p, factions in at.items():
        assert len(factions) == len(set(factions)), p  # one army per faction per province (SCHEMA §1.3)
        for f in factions:
            allies = set(s["factions"][f]["allies"]) if f in s["factions"] else set()
            assert all(g == f or g in allies for g in factions), (p, factions)


def test_the_generator_is_deterministic():
    assert json.dumps(titania_world.situation(), sort_keys=True) == json.dumps(titania_world.situation(),
                                                                               sort_keys=True)


def test_the_large_turn_adjudicates_without_problems(turn):
    _, data, adj = turn
    assert adj.problems == () and adj.output is not None
    out = adj.output
    assert [o["index"] for o in out["orders"]] == list(range(len(data["orders"])))
    assert len(out["planning"]["orders"]) == len(data["planning"]["orders"])
    for item in out["orders"] + out["planning"]["orders"]:
        assert item["outcome"] in OUTCOMES and item["reason"] in REASONS, item
    reasons = collections.Counter(o["reason"] for o in out["orders"] + out["planning"]["orders"])
    for expected in ("moved", "won", "lost", "supported", "split", "held", "captured", "built", "hired", "sent"):
        assert reasons[expected] > 0, expected
    assert sum(o["outcome"] == "void" for o in out["orders"] + out["planning"]["orders"]) > 0
    kinds = {b["kind"] for b in out["battles"]}
    assert {"army", "natives", "keeper", "boss"} <= kinds
    assert len(out["abilities"]) >= 13


def test_the_large_turn_gives_the_same_output_every_time(turn):
    _, data, adj = turn
    again = adjudicate(data, 1)
    assert json.dumps(again.output, sort_keys=True) == json.dumps(adj.output, sort_keys=True)


def test_every_typed_row_gets_a_status_and_wrong_rows_a_russian_message(world, turn):
    parsed, _, _ = turn
    for fid, tabs in world.rows.items():
        got = collections.Counter(st.tab for st in parsed[fid].statuses)
        assert got == collections.Counter({tab: len(rows) for tab, rows in tabs.items() if rows}), fid
    errors = [e for p in parsed.values() for st in p.statuses for e in st.errors]
    assert len(errors) >= 16  # every faction typed at least one wrong row
    assert all(any("а" <= ch <= "я" for ch in e.message().lower()) for e in errors)


def test_a_scenario_cannot_hand_out_keeper_provinces_or_give_them_to_strangers():
    """Scenario `[[provinces]]` owner/buildings (a game in progress): every wrong entry is reported, in Russian."""
    from engine.titania.setup import ScenarioProblems, new_game
    scen = titania_world.scenario()
    keeper_home = scen["keepers"]["grove"]["provinces"][0]
    by_id = {p["id"]: p for p in scen["provinces"]}
    by_id[keeper_home]["owner"] = "f00"
    land = next(p for p in scen["provinces"] if not p.get("sea") and "owner" not in p and p["id"] != keeper_home
                and all(p["id"] not in k["provinces"] for k in scen["keepers"].values()))
    land.update(owner="nobody", buildings=["castle"])
    with pytest.raises(ScenarioProblems) as err:
        new_game(scen)
    text = " ".join(err.value.problems)
    assert "Хранителей и Боссов не отдаются" in text
    assert "владелец «nobody» — не фракция игрока" in text
    assert "buildings — список разных построек" in text
