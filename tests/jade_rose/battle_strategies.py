"""Random Jade Rose battles for hypothesis: up to four squads a side of one faction's units, any manoeuvre."""
from __future__ import annotations

from hypothesis import reject
from hypothesis import strategies as st

from engine.jade_rose.battle import BattleSpecError, Manoeuvre, SideSetup, SquadSetup, build_battle
from engine.jade_rose.battle.model import ALL_POSITIONS
from tests.jade_rose.battle_kit import CONST, UNITS

FACTIONS = ("empire", "vampires", "dwarves", "jade")
BY_FACTION = {f: sorted(k for k, u in UNITS.items() if u.faction == f) for f in FACTIONS}
KINDS = ["none"] * 4 + ["cover", "change_position", "defend", "charge", "bombard", "long_range_bombard"]
@st.composite
def battles(draw):
    sides = []
    for _ in range(2):
        faction = draw(st.sampled_from(FACTIONS))
        positions = draw(st.lists(st.sampled_from(ALL_POSITIONS), min_size=1, max_size=4, unique=True))
        squads = []
        for where in positions:
            keys = draw(st.lists(st.sampled_from(BY_FACTION[faction]), min_size=1, max_size=3, unique=True))
            units = tuple((k, 1 if UNITS[k].one_per_squad or UNITS[k].faction_limit else draw(st.integers(1, 6)))
                          for k in keys)
            kind = draw(st.sampled_from(KINDS))
            target = draw(st.sampled_from(ALL_POSITIONS)) if kind not in ("none", "cover") else None
            squads.append(SquadSetup(where, units, Manoeuvre(kind, target), garrison=draw(st.booleans())))
        extra = {}
        if faction == "dwarves":
            extra = {"grudges": draw(st.integers(0, 10)), "runes": draw(st.integers(0, 10))}
        elif faction == "jade":
            extra = {"forge_distance": draw(st.one_of(st.none(), st.integers(0, 5))), "plague": draw(st.booleans())}
        sides.append(SideSetup(faction, tuple(squads), **extra))
    try:
        return build_battle(sides[0], sides[1], UNITS, constants=CONST, skip_planning=draw(st.booleans()))
    except BattleSpecError:
        reject()
