"""Random Titania order rows as players type them: names from the game's own vocabularies (own and foreign
provinces, armies, their neighbours, factions, actions, buildings, technologies), numbers good and bad, and
now and then garbage, so that many rows are OK and the rest are the usual mistakes."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from engine.ruleset import Row
from engine.titania.book_orders import (
    BUILD,
    CARAVAN,
    CONTRIBUTE,
    HIRE,
    HOLD,
    LEARN,
    MIGHT_ROW,
    MOVE,
    PAY_GOLD,
    PAY_INFLUENCE,
    RATS,
    RESEARCH,
    SPELL_ROW,
    SUPPORT,
)
from engine.titania.data import default_data
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, ability_name

COUNTS = ("1", "1", "2", "2", "3", "5", "", "0", "99", "-1", "две")
STRENGTHS = ("", "", "", "", "", "", "1", "1", "2", "3", "5", "50", "0")
SEQS = ("", "1", "2", "3", "4", "x")
GARBAGE = ("Нигде", "", "???")

Rows = dict[str, list[dict[str, str]]]  # tab title -> rows of {column title: text}


def _names(state: Mapping[str, Any], pids: list[str]) -> list[str]:
    return [state["map"]["provinces"][p]["name"] for p in sorted(pids)]


def vocabulary(state: Mapping[str, Any], fid: str) -> dict[str, Any]:
    provinces = state["map"]["provinces"]
    nb: dict[str, set[str]] = {p: set() for p in provinces}
    for a, b in state["map"]["adjacency"]:
        nb[a].add(b)
        nb[b].add(a)
    own = [p for p, o in state["owners"].items() if o == fid and not provinces[p]["sea"]]
    armies = sorted(a["province"] for a in state["armies"] if a["faction"] == fid)
    near = sorted({n for p in {*own, *armies} for n in nb[p]})
    rec = state["factions"][fid]
    data = default_data()
    name = {p: info["name"] for p, info in provinces.items()}
    return {
        "own": _names(state, own), "armies": _names(state, armies), "land": _names(state, own),
        "near": _names(state, near), "all": _names(state, list(provinces)),
        "around": {name[p]: sorted(name[n] for n in nb[p]) for p in {*own, *armies}},
        "factions": [f["name"] for f in state["factions"].values()],
        "others": [f["name"] for k, f in state["factions"].items() if k != fid],
        "buildings": list(BUILDING_NAMES.values()),
        "resources": [RESOURCE_NAMES[r] for r in ("gold", "wood", "stone", "mana")],
        "techs": [t.name for t in data.technologies.values()][:8],
        "spells": [sp.name for sp in data.spells.values()][:4] + [data.spells[s].name for s in rec.get("spells", [])],
        "ability": [ability_name(rec["race"])],
    }


def _pick(values: list[str]) -> st.SearchStrategy[str]:
    return st.sampled_from(values or [""])


def _mostly(good: st.SearchStrategy[str], other: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """`good` nine times in ten."""
    return st.integers(0, 9).flatmap(lambda n: other if n == 9 else good)


@st.composite
def planning_row(draw: st.DrawFn, v: Mapping[str, Any]) -> dict[str, str]:
    action = draw(st.sampled_from((HIRE, HIRE, HIRE, BUILD, BUILD, CARAVAN, RESEARCH, LEARN, CONTRIBUTE, RATS,
                                   "Грабить")))
    row = {"Действие": action, "Провинция": draw(_mostly(_pick(v["own"]), _pick(v["all"]))),
           "Количество": draw(st.sampled_from(COUNTS))}
    if action == BUILD:
        row["Что"] = draw(_pick(v["buildings"]))
    elif action == HIRE:
        row["Что"] = draw(st.sampled_from(("", "", PAY_GOLD, PAY_INFLUENCE, "Серебро")))
    elif action == CARAVAN:
        row.update({"Что": draw(_pick(v["resources"])), "Кому": draw(_pick(v["others"])),
                    "Маршрут": ", ".join(draw(st.lists(_pick(v["near"]), min_size=1, max_size=3)))})
    elif action == RESEARCH:
        row["Что"] = draw(_pick(v["techs"]))
    elif action == LEARN:
        row["Что"] = draw(_pick(v["spells"]))
    return row


@st.composite
def campaign_row(draw: st.DrawFn, v: Mapping[str, Any]) -> dict[str, str]:
    order = draw(st.sampled_from((HOLD, MOVE, MOVE, MOVE, SUPPORT, SUPPORT, "Отступить")))
    army = draw(_mostly(_pick(v["armies"]), st.one_of(_pick(v["land"]), st.sampled_from(GARBAGE))))
    row = {"№": draw(_mostly(st.sampled_from(SEQS[:-1]), st.just(SEQS[-1]))), "Войско": army, "Приказ": order,
           "Сила": draw(st.sampled_from(STRENGTHS))}
    if order != HOLD:
        row["Куда"] = draw(_mostly(_pick(v["around"].get(army, [])), _pick(v["all"])))
    if order == SUPPORT:
        row["За кого"] = draw(st.one_of(st.just(""), _pick(v["factions"])))
    return row


@st.composite
def might_row(draw: st.DrawFn, v: Mapping[str, Any]) -> dict[str, str]:
    action = draw(st.sampled_from((MIGHT_ROW, v["ability"][0], v["ability"][0], SPELL_ROW)))
    return {"Действие": action, "Войско": draw(_pick(v["armies"])),
            "Провинция 1": draw(st.one_of(st.just(""), _pick(v["near"]), _pick(v["all"]))),
            "Провинция 2": draw(st.one_of(st.just(""), _pick(v["near"]))),
            "Фракция": draw(st.one_of(st.just(""), _pick(v["others"]))),
            "Очки": draw(st.sampled_from(("", "1", "1", "2", "3", "9"))), "Заклинание": draw(_pick(v["spells"]))}


@st.composite
def book(draw: st.DrawFn, state: Mapping[str, Any], fid: str) -> Rows:
    """One faction's typed order tabs."""
    v = vocabulary(state, fid)
    return {"Планирование": draw(st.lists(planning_row(v), max_size=4)),
            "Поход": draw(st.lists(campaign_row(v), max_size=6)),
            "Мощь и магия": draw(st.lists(might_row(v), max_size=2))}


def as_rows(typed: Rows) -> dict[str, list[Row]]:
    """A typed book as the rule set reads it: tab key -> rows (numbered from 2, under the header)."""
    from sheets_bridge.layouts import Layout
    tabs = {t.title: t for t in Layout.load("titania").order_tabs("orders")}
    out: dict[str, list[Row]] = {}
    for title, rows in typed.items():
        tab = tabs[title]
        key = {c.title: c.key for c in tab.columns}
        out[tab.key] = [Row(n, {key[k]: v for k, v in cells.items()}) for n, cells in enumerate(rows, 2)]
    return out


def with_purses(state: Mapping[str, Any]) -> dict[str, Any]:
    """The same world with purses to spend (more orders carried out, more battles)."""
    out = json.loads(json.dumps(state))
    for rec in out["factions"].values():
        for r in ("gold", "wood", "stone", "mana", "influence"):
            rec[r] = int(rec.get(r, 0)) + 15
    return out


@st.composite
def books_of(draw: st.DrawFn, state: Mapping[str, Any], factions: set[int]) -> dict[str, dict[str, list[Row]]]:
    """The typed books of some factions (by their place among the state's faction ids), as the rule set reads
    them."""
    fids = sorted(state["factions"])
    return {fids[i]: as_rows(draw(book(state, fids[i]), label=fids[i])) for i in sorted(factions)}
