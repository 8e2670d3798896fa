"""A loss shown to people never exceeds what the army had (property tests over random battles).

The adjudicator's battle record keeps the damage dealt (SCHEMA §2 `damage`, which may exceed Strength: an army of 2
that attacks 17 «takes» 7); every text showing a loss — the chronicle post, a battle's post, the «Бои» tabs, the
Russian report, «Расчёт боя», the chronicle — shows min(damage, Strength), per army for allied defenders
(engine/titania/losses.py). Seen before the fix: «итого 2 : 17 … потери: у нападающих 7» for an army of Strength 2,
and «Потери обороны 4» for a defender of Strength 3.
"""
from __future__ import annotations

import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.ruleset import Row
from engine.titania.adjudicate import adjudicate
from engine.titania.forum_posts import battle_report, chronicle_line
from engine.titania.losses import attacker_loss, defender_losses, races_of
from engine.titania.odds import TitaniaOdds
from engine.titania.races import RACES
from engine.titania.report import render
from engine.titania.views import _battle_row
from sheets_bridge.scenarios import load_scenario

RS = find_ruleset("titania")
STATE = load_scenario(RS, "demo").state
PLAYERS = sorted(STATE["factions"])
NAMES = {STATE["factions"][f]["name"]: f for f in PLAYERS}
SLOW = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- any battle record: every text of the game ------------------------------------------------------------------

@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """A battle record as the state keeps it, with any damage (0–40, far beyond any Strength)."""
    kind = draw(st.sampled_from(["army", "army", "natives", "keeper", "boss"]))
    attacker = draw(st.sampled_from(PLAYERS))
    a = {"faction": attacker, "from": "albion", "strength": draw(st.integers(1, 10)), "supports": [],
         "modifiers": draw(st.integers(-2, 3))}
    a["total"] = a["strength"] + a["modifiers"]
    b: dict[str, Any] = {"n": 1, "turn": 1, "province": "marsh", "kind": kind, "attacker": a,
                         "result": draw(st.sampled_from(["attacker", "defender", "draw"]))}
    if kind == "boss":              # a Boss fight has no draw
        b["result"] = draw(st.sampled_from(["attacker", "defender"]))
        b["damage"] = {"to_boss": draw(st.integers(0, 40)), "to_attacker": draw(st.integers(0, 40))}
        return b
    if kind == "natives":
        sides = ["natives"]
    elif kind == "keeper":
        sides = ["grove"]
    else:
        sides = draw(st.lists(st.sampled_from([f for f in PLAYERS if f != attacker]), min_size=1, max_size=3,
                              unique=True))
    armies = [{"faction": f, "strength": draw(st.integers(1, 10))} for f in sides]
    d = {"factions": sides, "armies": armies, "strength": sum(x["strength"] for x in armies), "supports": [],
         "modifiers": 0}
    d["total"] = d["strength"]
    b.update(defender=d, damage={"attacker": draw(st.integers(0, 40)), "defender": draw(st.integers(0, 40))},
             buildings_lost=0, owner_after=None)
    return b


def _numbers(pattern: str, text: str) -> tuple[int, ...]:
    m = re.search(pattern, text)
    assert m is not None, (pattern, text)
    return tuple(int(g) for g in m.groups() if g is not None and g.isdigit())


def _allies(text: str) -> dict[str, int]:
    """«(Королевство Альбион 3, Высокий Лотерн 2)» after the defence's loss: each army's part."""
    m = re.search(r"оборон[аеы] \d+ \(([^)]*)\)", text)
    if m is None:
        return {}
    return {name: int(n) for name, n in (re.fullmatch(r"(.+) (\d+)", part).groups()  # type: ignore[union-attr]
                                         for part in m[1].split(", "))}


@SLOW
@given(records())
def test_no_text_shows_a_loss_above_the_army_s_strength(b: dict[str, Any]) -> None:
    a = b["attacker"]
    line, report, row = chronicle_line(STATE, b), battle_report(STATE, b), " ".join(map(str, _battle_row(STATE, b)))
    if b["kind"] == "boss":
        shown = [_numbers(r"потери нападающих (\d+)", line)[0], _numbers(r"потери: (\d+)", report)[0],
                 _numbers(r"потери нападающего (\d+)", row)[0]]
        assert all(n == min(b["damage"]["to_attacker"], a["strength"]) for n in shown), (shown, b)
        return
    armies = b["defender"]["armies"]
    for text, pattern in ((line, r"потери: у нападающих (\d+), у обороны (\d+)"),
                          (report, r"Потери: нападающие (\d+), оборона (\d+)"),
                          (row, r"потери: нападающий (\d+), оборона (\d+)")):
        att, dfn = _numbers(pattern, text)
        assert att <= a["strength"] and att <= b["damage"]["attacker"], (text, b)
        assert dfn <= b["defender"]["strength"] and dfn <= b["damage"]["defender"], (text, b)
        if len(armies) > 1:
            parts = _allies(text)
            assert len(parts) == len(armies) and sum(parts.values()) == dfn, (text, b)
            for x in armies:
                name = STATE["factions"][x["faction"]]["name"]
                assert parts[name] <= x["strength"], (text, b)
    each = defender_losses(b, races_of(STATE))
    assert all(0 <= n <= x["strength"] for n, x in zip(each, armies, strict=True))


# -- real battles: the adjudicator's records, its report, and what the armies really lost ----------------------

RACE_KEYS = sorted(RACES)


@st.composite
def battles(draw: st.DrawFn) -> dict[str, Any]:
    """One attack on allied defenders (or natives, or a Boss) with supports on either side; each defender has a
    home of its own next to the battle to retreat to, so what it lost can be read from the armies after."""
    target = draw(st.sampled_from(["armies", "armies", "natives", "boss"]))
    races = iter(draw(st.lists(st.sampled_from(RACE_KEYS), min_size=8, max_size=8)))
    provinces = [{"id": "field", "name": "Поле"}, {"id": "origin", "name": "Исток"}]
    adjacency = [["origin", "field"]]
    factions = [{"id": "att", "race": next(races), "limits": {"max_strength": 40, "food": 9}}]
    armies = [{"faction": "att", "province": "origin", "strength": draw(st.integers(1, 12))}]
    owners = {"origin": "att"}
    state: dict[str, Any] = {"natives": {}, "bosses": {}}
    orders: list[dict[str, Any]] = [{"faction": "att", "army": "origin", "type": "move", "target": "field", "seq": 1}]
    defenders: list[str] = []
    if target == "armies":
        defenders = [f"d{i}" for i in range(draw(st.integers(1, 3)))]
        for i, fid in enumerate(defenders):
            factions.append({"id": fid, "race": next(races), "allies": [x for x in defenders if x != fid],
                             "limits": {"max_strength": 40, "food": 9}})
            provinces.append({"id": f"home{i}", "name": f"Дом {i}"})
            adjacency.append([f"home{i}", "field"])
            owners[f"home{i}"] = fid
            armies.append({"faction": fid, "province": "field", "strength": draw(st.integers(1, 12))})
        owners["field"] = defenders[0]
        for j in range(draw(st.integers(0, 2))):
            helps = draw(st.sampled_from(["att", defenders[0]]))
            sid = f"s{j}"
            factions.append({"id": sid, "race": next(races), "limits": {"max_strength": 40, "food": 9}})
            provinces.append({"id": f"sup{j}", "name": f"Подмога {j}"})
            adjacency.append([f"sup{j}", "field"])
            owners[f"sup{j}"] = sid
            armies.append({"faction": sid, "province": f"sup{j}", "strength": draw(st.integers(1, 8))})
            orders.append({"faction": sid, "army": f"sup{j}", "type": "support", "target": "field",
                           "support_faction": helps})
    elif target == "natives":
        state["natives"] = {"field": draw(st.integers(1, 12))}
    else:
        state["bosses"] = {"field": {"health": draw(st.integers(1, 12))}}
    state.update(owners=owners, buildings={}, armies=armies)
    return {"schema": "titania.adjudicate.v1",
            "map": {"provinces": [{"sea": False, "island": False, "deposits": [], **p} for p in provinces],
                    "adjacency": adjacency},
            "factions": [{"allies": [], "resources": {}, **f} for f in factions], "state": state, "orders": orders}


def _after(out: dict[str, Any], fid: str) -> int:
    return sum(a["strength"] for a in out["armies"] if a["faction"] == fid)


@SLOW
@given(battles(), st.integers(0, 3))
def test_the_losses_shown_of_real_battles_are_what_the_armies_lost(data: dict[str, Any], seed: int) -> None:
    """Over random adjudicated battles: the loss shown is what the army lost (its Strength before minus after),
    never more than it had; the Russian report shows the same numbers."""
    adj = adjudicate(data, seed)
    assert adj.output is not None, adj.problems
    out = adj.output
    (b,) = [x for x in out["battles"] if x["province"] == "field"]
    before = {a["faction"]: a["strength"] for a in data["state"]["armies"]}
    races = {f["id"]: f["race"] for f in data["factions"]}
    lost = attacker_loss(b)
    assert 0 <= lost <= before["att"]
    if races["att"] != "fauns":       # Harmony with nature: a captured province gets a garrison of 1
        assert lost == before["att"] - _after(out, "att"), b
    text = render(adj, seed)
    if b["kind"] == "boss":
        assert f"(потери {lost})" in text
        return
    each = defender_losses(b, races)
    armies = b["defender"]["armies"]
    assert all(0 <= n <= x["strength"] for n, x in zip(each, armies, strict=True))
    if b["kind"] != "natives":
        for x, n in zip(armies, each, strict=True):
            assert n == before[x["faction"]] - _after(out, x["faction"]), (b, out["armies"])
    shown = _numbers(r"Потери: нападающий (\d+), оборона (\d+)", text)
    assert shown == (lost, sum(each)), text


# -- «Расчёт боя» ---------------------------------------------------------------------------------------------

ROLES = ("Нападающий", "Обороняющийся", "Подмога нападающему", "Подмога обороне")


@SLOW
@given(st.lists(st.tuples(st.sampled_from(ROLES[1:]), st.sampled_from([r.name for r in RACES.values()]),
                          st.integers(1, 15)), min_size=1, max_size=4),
       st.sampled_from([r.name for r in RACES.values()]), st.integers(1, 15))
def test_the_odds_tab_never_shows_a_loss_above_the_army_s_strength(others: list[tuple[str, str, int]], race: str,
                                                                     strength: int) -> None:
    cells = [("Нападающий", race, strength), *others]
    if not any(role == "Обороняющийся" for role, _, _ in cells):
        cells.append(("Обороняющийся", race, 1))
    rows = [Row(i + 2, {"role": role, "race": r, "strength": str(n), "might": ""})
            for i, (role, r, n) in enumerate(cells)]
    _, table = TitaniaOdds().odds(STATE, "grimgor", rows)
    defence = sum(n for role, _, n in cells if role == "Обороняющийся")
    for row in table.rows:
        if isinstance(row[4], int):
            assert 0 <= row[4] <= strength and 0 <= row[5] <= defence, (cells, row)
