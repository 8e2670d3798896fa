"""The demo scenario's start, and random economy cases over it for hypothesis (a random turn, treasury,
city levels, buildings and order rows)."""
from __future__ import annotations

import copy
import tomllib

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from engine.jade_rose.data import load_data
from engine.jade_rose.economy_orders import actions_for
from engine.jade_rose.names import building_names, unit_names
from engine.jade_rose.setup import new_game
from engine.ruleset import Row
from tests.paths import JADE_ROSE_DEMO

DEMO = JADE_ROSE_DEMO
FACTIONS = ("empire", "vampires", "dwarves", "jade")
RESOURCES = ("gold", "honor", "jade", "slaves", "runes", "corruption")


def demo_state() -> dict:
    with DEMO.open("rb") as fh:
        return new_game(tomllib.load(fh))


DEMO_STATE = demo_state()
CITY_NAMES = sorted(c["name"] for c in DEMO_STATE["cities"].values())
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def cell_text(faction: str):
    vocabulary = (list(actions_for("jade")) + CITY_NAMES + building_names(faction) + unit_names(faction)
                  + ["", " ", "0", "-1", "1", "3", "2.5", "1e9", "=SUM(A1)", "NaN", "inf"])
    return st.one_of(st.sampled_from(vocabulary), st.text(max_size=12))


@st.composite
def garbage_rows(draw, faction: str):
    n = draw(st.integers(0, 8))
    return [Row(i + 2, {key: draw(cell_text(faction)) for key in ("action", "city", "what", "count")})
            for i in range(n)]


@st.composite
def economy_case(draw):
    """A demo state at a random turn, with random gold, levels, buildings and units, plus orders rows."""
    state = copy.deepcopy(DEMO_STATE)
    state["turn"] = draw(st.integers(1, 9))
    faction = draw(st.sampled_from(FACTIONS))
    rec = state["factions"][faction]
    rec["gold"] = draw(st.integers(-200, 4000))
    for key in ("honor", "jade", "slaves"):
        if key in rec:
            rec[key] = draw(st.integers(0, 900))
    data = load_data()
    own = [cid for cid, c in state["cities"].items() if c["owner"] == faction]
    for cid in own:
        city = state["cities"][cid]
        city["level"] = draw(st.integers(1, 3))
        slots = 3 if city["large"] else 1
        fitting = sorted(b.key for b in data.faction_buildings(faction) if b.tier <= city["level"])
        extra = draw(st.lists(st.sampled_from(fitting), unique=True, max_size=slots - len(city["buildings"])))
        city["buildings"] += [b for b in extra if b not in city["buildings"]
                              and not (data.buildings[b].unique_per_faction
                                       and any(b in state["cities"][o]["buildings"] for o in own))]
    actions = [a for a in actions_for(faction)]
    cities = [state["cities"][cid]["name"] for cid in own] + ["Нигде"]
    whats = building_names(faction) + unit_names(faction)
    rows = [Row(i + 2, {"action": draw(st.sampled_from(actions)), "city": draw(st.sampled_from(cities)),
                        "what": draw(st.sampled_from(whats)), "count": str(draw(st.integers(1, 400)))})
            for i in range(draw(st.integers(0, 10)))]
    return state, faction, rows, draw(st.integers(0, 2**32))
