"""What each book shows (views.py): «Войска» says where each unit is (issue 11 item 7), and fog of war: a faction's
book never shows what the faction may not know.

Rule book: «Неизвестно: состав и местонахождение вражеских армий, постройки во вражеских городах, баланс врагов»
— enemy armies, buildings in enemy cities and enemy balances stay hidden. Random states are rendered through the
real bridge and every cell of each faction book is searched for the other factions' secrets, planted as sentinel
values."""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.jade_rose import war
from engine.jade_rose.data import load_data
from engine.jade_rose.views import units
from sheets_bridge.create import create_game
from sheets_bridge.layouts import Layout
from sheets_bridge.render import render_books
from tests.jade_rose.war_kit import attack, make_game


def test_units_in_an_attacking_army_are_shown_there_and_the_rest_in_reserve():
    """Setup: the Empire has 10 spearmen and 4 archers; army «1» attacks Цинхэ with 6 spearmen in the
    centre vanguard and 4 archers in the centre rearguard. Expected: «Войска» lists 6 spearmen and the 4
    archers in army «1» at their positions, and 4 spearmen in reserve."""
    state = make_game({"empire": {"Копейщик": 10, "Лучник": 4}})
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 6),
                                                                 ("Центр", "Арьергард", "Лучник", 4)], "Цинхэ")}, 1)
    rows = {(r[0], r[3]): r[1] for r in units(state, "empire").rows}
    assert rows == {("Копейщик", "армия «1», центральный авангард: атакует город Цинхэ"): 6,
                    ("Копейщик", "резерв"): 4,
                    ("Лучник", "армия «1», центральный арьергард: атакует город Цинхэ"): 4}


def test_without_pending_battles_every_unit_is_in_reserve():
    state = make_game({"empire": {"Копейщик": 10}})
    assert [(r[0], r[1], r[3]) for r in units(state, "empire").rows] == [("Копейщик", 10, "резерв")]


SENTINEL_GOLD = {"empire": 9100001, "vampires": 9100002, "dwarves": 9100003, "jade": 9100004}
SENTINEL_COUNT = {"empire": 8100001, "vampires": 8100002, "dwarves": 8100003, "jade": 8100004}


def _exclusive_building_names(fid):
    data = load_data()
    mine = {b.name for b in data.buildings.values() if b.faction == fid}
    others = {b.name for b in data.buildings.values() if b.faction != fid}
    return mine - others


def _cells(writes):
    out = []
    for w in writes:
        for row in (w.rows or ()):
            out.extend(str(v) for v in row)
        if w.header:
            out.extend(w.header)
        for values in w.dropdowns.values():
            out.extend(values)
    return out


_GAME = {}


def _game(factory):
    if "gd" not in _GAME:
        _GAME["gd"] = create_game(factory.mktemp("fog") / "g", "jade_rose", "demo", seed="fog")
    return _GAME["gd"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_faction_books_hold_no_enemy_secrets(tmp_path_factory, seed):
    rs = find_ruleset("jade_rose")
    gd = _game(tmp_path_factory)
    state = gd.latest_state()
    rnd = random.Random(seed)
    data = load_data()
    for fid, rec in state["factions"].items():
        rec["gold"] = SENTINEL_GOLD[fid]
        units = [k for k, u in data.units.items() if u.faction == fid]
        rec["units"] = {rnd.choice(units): SENTINEL_COUNT[fid]}
    for city in state["cities"].values():
        owner = city["owner"]
        own_buildings = [k for k, b in data.buildings.items() if b.faction == owner and b.tier == 1]
        city["buildings"] = [rnd.choice(own_buildings)]
    books = render_books(gd, rs, Layout.load("jade_rose"), state, saved={}, cleared=set())
    for fid in state["factions"]:
        cells = _cells(books[fid])
        text = "\n".join(cells)
        items = {part.strip() for cell in cells for part in cell.split(",")}
        for other in state["factions"]:
            if other == fid:
                assert str(SENTINEL_GOLD[fid]) in text      # the faction sees its own balance
                continue
            assert str(SENTINEL_GOLD[other]) not in text, f"{fid} sees {other}'s gold"
            assert str(SENTINEL_COUNT[other]) not in text, f"{fid} sees {other}'s army"
            for name in _exclusive_building_names(other):
                assert name not in items, f"{fid} sees {other}'s building {name}"
    public = "\n".join(_cells(books["public"]))
    for fid in state["factions"]:
        assert str(SENTINEL_GOLD[fid]) not in public and str(SENTINEL_COUNT[fid]) not in public
