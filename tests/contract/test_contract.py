"""The rule-set contract (engine.ruleset.Ruleset), checked on every registered rule set and on the
toy rule set «Монетки» that lives only in these tests."""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset, ruleset_names
from engine.errors import CATALOGUE
from engine.ruleset import ParsedOrders, Row, Ruleset, StageResult, Summary
from engine.state import Envelope, canonical_json
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.layouts import Layout
from sheets_bridge.scenarios import load_scenario, packaged_scenarios
from sheets_bridge.stage import check, run_turn
from sheets_bridge.verify import verify

NAMES = ["jade_rose", "coins", "titania"]


def _start(name: str) -> tuple[Ruleset, dict[str, Any]]:
    rs = find_ruleset(name)
    return rs, load_scenario(rs, packaged_scenarios(name)[0]).state


def test_every_registered_rule_set_is_under_contract():
    assert set(ruleset_names()) <= set(NAMES) | {"coins"} and "jade_rose" in ruleset_names()


@pytest.mark.parametrize("name", NAMES)
def test_a_new_state_carries_the_envelope_and_round_trips_through_json(name):
    rs, state = _start(name)
    env = Envelope.of(state)
    assert env.ruleset == rs.name and env.stage == rs.stages[0] and env.factions
    assert all(f.name and f.name != f.id for f in env.factions), "display names, not ids"
    assert json.loads(canonical_json(state)) == state


def _garbage_orders(rs: Ruleset, state: dict[str, Any]) -> dict[str, ParsedOrders]:
    layout = Layout.load(rs.name)
    tabs = {t.key: t for t in layout.order_tabs(state["stage"])}
    rows = {key: [Row(2, {c.key: "??" for c in tab.columns if not c.status})] for key, tab in tabs.items()
            if key in rs.order_tabs(state["stage"])}
    return {f: rs.validate(state, f, state["stage"], rows) for f in rs.factions(state)}


@pytest.mark.parametrize("name", NAMES)
def test_resolve_does_not_mutate_its_input_and_is_deterministic_and_canonical(name):
    rs, state = _start(name)
    before = copy.deepcopy(state)
    orders = _garbage_orders(rs, state)
    one = rs.resolve(state, state["stage"], orders, 42)
    assert state == before
    two = rs.resolve(copy.deepcopy(state), state["stage"], orders, 42)
    assert isinstance(one, StageResult) and canonical_json(one.state) == canonical_json(two.state)
    assert json.loads(canonical_json(one.state)) == one.state
    Envelope.of(one.state)


CELLS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_validate_never_raises_on_garbage_rows_and_uses_only_catalogued_codes(name, data):
    rs, state = _start(name)
    layout = Layout.load(rs.name)
    stage = state["stage"]
    tabs = {t.key: [Row(n, {c.key: data.draw(CELLS) for c in t.columns if not c.status}) for n in range(2, 5)]
            for t in layout.order_tabs(stage, "faction") if t.key in rs.order_tabs(stage)}
    for fid in rs.factions(state):
        parsed = rs.validate(state, fid, stage, tabs)
        for status in parsed.statuses:
            assert all(e.code in CATALOGUE for e in status.errors), status
            assert status.text()
    gm_tabs = {t.key: [Row(2, {c.key: data.draw(CELLS) for c in t.columns if not c.status})]
               for t in layout.order_tabs(stage, "gm")}
    rs.validate_gm(state, stage, gm_tabs)


@pytest.mark.parametrize("name", NAMES)
def test_every_view_key_is_a_tab_of_the_layout(name):
    rs, state = _start(name)
    layout = Layout.load(rs.name)
    views = rs.views(state)
    assert set(views) == {*rs.factions(state), "public", "gm"}
    for book, tables in views.items():
        kind = book if book in ("public", "gm") else "faction"
        known = {t.key for t in layout.books[kind].tabs}
        assert set(tables) <= known, (book, set(tables) - known)


@pytest.mark.parametrize("name", NAMES)
def test_no_faction_s_book_shows_another_faction_s_secrets(name):
    """Every field a rule set declares secret (`secret_fields`) is planted with a sentinel number per
    faction; no other faction's book and not the public book may show it (the GM's book shows all)."""
    rs, state = _start(name)
    sentinels = {}
    for i, fid in enumerate(rs.factions(state)):
        sentinels[fid] = str(9_100_001 + i)
        record = state["factions"][fid]
        for field in rs.secret_fields:
            if isinstance(record.get(field), dict):
                record[field] = {k: int(sentinels[fid]) for k in record[field]} or record[field]
            else:
                record[field] = int(sentinels[fid])
    views = rs.views(state)
    for book, tables in views.items():
        text = " ".join(str(v) for t in tables.values() for row in (t.columns, *t.rows) for v in row)
        for fid, sentinel in sentinels.items():
            if rs.secret_fields and book not in (fid, "gm"):
                assert sentinel not in text, f"{book} shows a secret of {fid}"


def _view_texts(rs: Ruleset, state: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(book, key, str(v)) for book, tables in rs.views(state).items() for key, t in tables.items()
            for row in (t.columns, *t.rows) for v in row if isinstance(v, str)]


@pytest.mark.parametrize("name", NAMES)
def test_books_show_display_names_never_internal_ids(name):
    """Issue 11: «display names, never internal ids». Every view cell of every book, at the start and after
    a stage resolved on garbage orders: no faction id and no snake_case id (an effect, a target, a key)."""
    rs, state = _start(name)
    after = rs.resolve(state, state["stage"], _garbage_orders(rs, state), 3).state
    ids = [re.compile(rf"(?<![\w-]){re.escape(fid)}(?![\w-])") for fid in rs.factions(state)]
    ids.append(re.compile(r"\b[a-z]+_[a-z_]+\b"))
    found = sorted({(book, key, text[:60]) for s in (state, after) for book, key, text in _view_texts(rs, s)
                    if any(p.search(text) for p in ids)})
    assert found == [], found[:10]


@pytest.mark.parametrize("name", NAMES)
def test_summary_and_stage_titles_are_russian_display_text(name):
    rs, state = _start(name)
    summary = rs.summary(state)
    assert isinstance(summary, Summary) and summary.lines
    assert {f.id for f in summary.factions} == set(rs.factions(state))
    for stage in (*rs.stages, "finished"):
        assert any("а" <= ch <= "я" for ch in rs.stage_title(stage).lower()), stage


def test_the_toy_rule_set_plays_a_whole_game_through_xlsx_books(tmp_path):
    """«Prove the contract with a tiny third rule set that lives only in the tests: the bridge plays a
    whole game of it through xlsx books with no change in sheets_bridge.»"""
    scenario = Path(__file__).parent / "toy" / "coins" / "scenarios" / "duel.toml"
    gd = create_game(tmp_path / "g", "coins", str(scenario), backend="xlsx", seed=None)
    assert set(gd.config.books) == {"north", "south", "public", "gm"}
    for turn in range(1, 4):
        fill_orders(gd.path / gd.config.books["north"], "Ставки", [("3",), ("много",)])
        report = check(gd)
        assert report.counts()["north"] == (1, 1)
        report = run_turn(gd)
        assert report.turn == turn
    state = gd.latest_state()
    assert state["stage"] == "finished" and any(f.get("won") for f in state["factions"].values())
    out = CliRunner().invoke(main, ["status", str(gd.path)])
    assert out.exit_code == 0 and "Монетки: ход 4, этап «игра окончена»" in out.output and "Север" in out.output
    assert verify(gd, be=XlsxBackend(gd.path)).ok
    assert CliRunner().invoke(main, ["verify", str(gd.path)]).exit_code == 0


@pytest.mark.parametrize("name", NAMES)
def test_a_map_picture_shows_known_places_and_only_the_viewer_s_own_orders(name):
    """The map capability: links join places of the picture, owners are factions of the game, the
    public map has no arrows and a faction's arrows are its own; display names, never ids."""
    rs, state = _start(name)
    maps = rs.map_data()
    if maps is None:
        pytest.skip(f"{name} draws no map")
    for viewer in (None, *rs.factions(state)):
        picture = maps.picture(state, viewer)
        keys = {p.key for p in picture.places}
        assert keys and all(link.a in keys and link.b in keys for link in picture.links)
        assert all(p.owner is None or p.owner in picture.factions for p in picture.places)
        assert all(p.name and p.name != p.key for p in picture.places)
        assert all(m.place in keys for m in picture.markers)
        assert all(a.faction == viewer and a.source in keys and a.target in keys for a in picture.arrows)
        assert set(picture.factions) == set(rs.factions(state))
        assert all(name_ != fid for fid, name_ in picture.factions.items())


@pytest.mark.parametrize("name", NAMES)
def test_an_adjudicator_refuses_garbage_with_problems_and_never_raises(name):
    adjudicator = find_ruleset(name).adjudicator()
    if adjudicator is None:
        pytest.skip(f"{name} settles no situation files")
    assert adjudicator.schema
    for garbage in ({}, {"schema": adjudicator.schema}, {"schema": adjudicator.schema, "map": 5}):
        answer = adjudicator.adjudicate(garbage, 0)
        assert answer.output is None and answer.problems and all(isinstance(p, str) for p in answer.problems)


@pytest.mark.parametrize("name", NAMES)
def test_forum_posts_of_a_stage_are_russian_bbcode_with_distinct_keys(name):
    """The forum-posts capability: after a resolution, posts with text, distinct archive keys, the
    public ones first; the same resolution gives the same posts."""
    rs, state = _start(name)
    maker = rs.forum_posts()
    if maker is None:
        pytest.skip(f"{name} writes no forum posts")
    result = rs.resolve(state, state["stage"], _garbage_orders(rs, state), 42)
    posts = maker.posts(state, result)
    assert posts and posts == maker.posts(copy.deepcopy(state), rs.resolve(state, state["stage"],
                                                                              _garbage_orders(rs, state), 42))
    keys = [(p.faction, p.battle, p.key) for p in posts]
    assert len(set(keys)) == len(keys) and not posts[0].faction
    assert all(p.title and p.bbcode.strip() and any("а" <= ch <= "я" for ch in p.bbcode.lower()) for p in posts)
    assert all(p.faction in rs.factions(state) for p in posts if p.faction)
