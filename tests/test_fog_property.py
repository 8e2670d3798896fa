"""A faction's book tells it only what it may know (issue 37 §4), as a property over both rule sets: change only
what faction F cannot see, and every row status `check` writes in F's book, every dropdown of F's book, every
forecast and every tab of F's book stay byte for byte the same.

What F cannot see:
* Titania (engine.titania.fog): the armies and natives out of its sight (provinces not its own, not where its
  armies stand, not next to either), the other factions' purses, technologies, spells, items and limits, their
  progress in the Keepers' quests, the offers of alliance between two other factions;
* Jade Rose («Неизвестно: состав … вражеских армий, … баланс врагов», `secret_fields`): the other factions' gold and
  units and what only a faction itself keeps (honor, corruption, slaves, runes, grudges, jade, investments).
"""
from __future__ import annotations

import copy
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.ruleset import Row, Ruleset
from engine.titania.data import content_of
from engine.titania.fog import sight
from sheets_bridge.demo import run_demo
from sheets_bridge.gamedir import GameDir
from tests.games import new_game
from tests.jade_rose.test_turn_properties import Picker, _rows, faction_rows, random_state
from tests.titania.typed_books import as_rows, book, with_purses

TITANIA = find_ruleset("titania")
JADE_ROSE = find_ruleset("jade_rose")


def _book_of(rs: Ruleset, state: Mapping[str, Any], faction: str, tabs: Mapping[str, list[Row]]) -> dict[str, Any]:
    """Everything F's book shows for these typed rows: the check's statuses, the dropdowns, every tab."""
    parsed = rs.validate_books(state, str(state["stage"]), {faction: tabs})[faction]
    return {"statuses": [(s.tab, s.number, s.text()) for s in parsed.statuses],
            "dropdowns": rs.vocabularies(state, faction),
            "tabs": {k: (t.columns, t.rows) for k, t in rs.views(state)[faction].items()}}


# -- Titania ------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def titania_played() -> Iterator[dict[str, Any]]:
    """The scripted demo after three turns: several provinces and armies per faction, battles, the Keepers."""
    with tempfile.TemporaryDirectory(prefix="forumwar-fog-") as tmp:
        path = Path(tmp) / "game"
        run_demo(path, turns=3, echo=lambda _line: None, ruleset="titania")
        yield GameDir(path).latest_state()


@st.composite
def titania_unseen(draw: st.DrawFn, state: Mapping[str, Any], faction: str) -> dict[str, Any]:
    """`state` with only what `faction` cannot see changed."""
    out = copy.deepcopy(dict(state))
    seen = sight(state, faction)
    provinces = out["map"]["provinces"]
    unseen_land = sorted(p for p, i in provinces.items() if p not in seen and not i["sea"])
    others = [f for f in out["factions"] if f != faction]
    armies = []
    for a in out["armies"]:
        if a["faction"] == faction or a["province"] in seen:
            armies.append(a)
        elif draw(st.booleans()):  # kept, maybe stronger or weaker
            armies.append({**a, "strength": draw(st.integers(1, 9))})
    for p in draw(st.lists(st.sampled_from(unseen_land), max_size=4, unique=True)) if unseen_land else []:
        who = draw(st.sampled_from([*others, *out.get("keepers", {})]))
        if not any(a["faction"] == who and a["province"] == p for a in armies):
            armies.append({"faction": who, "province": p, "strength": draw(st.integers(1, 9)), "naval": False})
    out["armies"] = armies
    out["natives"] = {p: n for p, n in out["natives"].items() if p in seen}
    for p in draw(st.lists(st.sampled_from(unseen_land), max_size=3, unique=True)) if unseen_land else []:
        if not any(a["province"] == p for a in armies) and out["owners"].get(p) is None:
            out["natives"][p] = draw(st.integers(1, 5))
    content = content_of(state)
    for f in others:
        rec = out["factions"][f]
        for r in ("gold", "wood", "influence", "stone", "mana"):
            rec[r] = draw(st.integers(0, 40))
        rec["techs"] = draw(st.lists(st.sampled_from(sorted(content.technologies)), unique=True, max_size=4))
        rec["spells"] = draw(st.lists(st.sampled_from(sorted(content.spells)), unique=True, max_size=3))
        rec["items"] = draw(st.lists(st.sampled_from(sorted(content.items)), unique=True, max_size=2)) \
            if content.items else []
        rec["limits"] = {"max_strength": draw(st.integers(3, 6)), "hire": 3, "replenish": 3}
    for q in out.get("quests", {}).values():
        q["progress"] = {**{f: n for f, n in (q.get("progress") or {}).items() if f == faction},
                         **{f: draw(st.integers(0, 3)) for f in others if draw(st.booleans())}}
    if len(others) >= 2:
        a, b = draw(st.sampled_from(others)), draw(st.sampled_from(others))
        if a != b:
            out["offers"] = [o for o in out.get("offers", []) if faction in (o["from"], o["to"])] + [
                {"from": a, "to": b, "act": "ally", "turn": int(out["turn"]) - 1}]
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), rich=st.booleans())
def test_titania_a_faction_s_book_depends_only_on_what_it_sees(titania_played: dict[str, Any],
                                                              data: st.DataObject, rich: bool) -> None:
    state = with_purses(titania_played) if rich else titania_played
    faction = data.draw(st.sampled_from(sorted(f for f, r in state["factions"].items() if not r.get("eliminated"))))
    tabs = as_rows(data.draw(book(state, faction), label="rows"))
    changed = data.draw(titania_unseen(state, faction), label="unseen")
    assert _book_of(TITANIA, changed, faction, tabs) == _book_of(TITANIA, state, faction, tabs)


def test_titania_the_fireball_probe_is_gone(titania_played: dict[str, Any]) -> None:
    """The issue's probe: a «Огненный шар» row aimed at a province the faction cannot see answered differently when
    a foreign army stood there, and named whose it was. Every unseen province, with an army there or not, and with
    «Фракция» filled or not, gets one and the same status."""
    state = copy.deepcopy(titania_played)
    faction = next(f for f, r in state["factions"].items() if not r.get("eliminated"))
    state["factions"][faction].update(spells=["fireball"], mana=9)
    seen = sight(state, faction)
    other = next(f for f in state["factions"] if f != faction)
    texts = set()
    for p, info in state["map"]["provinces"].items():
        if p in seen or info["sea"]:
            continue
        for army in (False, True):
            trial = copy.deepcopy(state)
            trial["armies"] = [a for a in trial["armies"] if a["province"] != p]
            if army:
                trial["armies"].append({"faction": other, "province": p, "strength": 2, "naval": False})
            for who in ("", state["factions"][other]["name"]):
                row = Row(2, {"action": "Заклинание", "spell": "Огненный шар", "province1": info["name"],
                              "faction": who})
                status = TITANIA.validate(trial, faction, "orders", {"might": [row]}).statuses[0]
                texts.add(status.text().replace(info["name"], "…"))
    assert len(texts) == 1, texts


# -- Jade Rose ----------------------------------------------------------------------------------------------------

SECRETS = ("gold", "units", "honor", "corruption", "slaves", "eternal_servants", "hibernating", "runes", "grudges",
           "jade", "investment")


@pytest.fixture(scope="module")
def jade_rose_start(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return new_game(tmp_path_factory.mktemp("fog") / "game", "jade_rose", "demo", seed="7").latest_state()


def _jade_rose_unseen(data: st.DataObject, state: Mapping[str, Any], faction: str) -> dict[str, Any]:
    out = copy.deepcopy(dict(state))
    for fid, rec in out["factions"].items():
        if fid == faction:
            continue
        rec["gold"] = data.draw(st.integers(0, 900))
        rec["units"] = {k: data.draw(st.integers(0, 12)) for k in rec.get("units", {})}
        for key in ("honor", "corruption", "slaves", "runes", "jade", "investment"):
            if key in rec:
                rec[key] = data.draw(st.integers(0, 60))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_jade_rose_a_faction_s_book_depends_only_on_what_it_sees(jade_rose_start: dict[str, Any],
                                                                data: st.DataObject) -> None:
    p = Picker(data)
    state = random_state(p, jade_rose_start)
    faction = data.draw(st.sampled_from(sorted(state["factions"])))
    tabs = {tab: _rows(tab, cells) for tab, cells in faction_rows(p, state, faction).items()}
    changed = _jade_rose_unseen(data, state, faction)
    assert _book_of(JADE_ROSE, changed, faction, tabs) == _book_of(JADE_ROSE, state, faction, tabs)
