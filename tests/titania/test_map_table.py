"""Issue 23 item 1: Titania's «Карта» table shows what a player uses — every province with its kind, owner
and neighbours by name, in a faction's book also the faction's own army there — and no drawing
coordinates («X», «Y»)."""
from __future__ import annotations

from typing import Any

from engine import find_ruleset
from engine.titania.setup import neighbours
from sheets_bridge.scenarios import load_scenario

FACTION_COLUMNS = ("Провинция", "Тип", "Владелец", "Соседи", "Ваше войско", "Ресурсы", "Построек")


def _state() -> dict[str, Any]:
    state = load_scenario(find_ruleset("titania"), "demo").state
    state["armies"].append({"faction": "albion", "province": "marsh", "strength": 2, "naval": False})
    state["armies"].append({"faction": "grimgor", "province": "w_moor", "strength": 4, "naval": False})
    return state


def _rows(table: Any) -> dict[str, dict[str, Any]]:
    return {row[0]: dict(zip(table.columns, row, strict=True)) for row in table.rows}


def test_a_faction_s_map_table_has_no_coordinates_and_shows_its_own_army_only():
    state = _state()
    books = find_ruleset("titania").views(state)
    table = books["albion"]["map"]
    assert table.columns == FACTION_COLUMNS
    rows = _rows(table)
    name = {p: info["name"] for p, info in state["map"]["provinces"].items()}
    assert set(rows) == set(name.values())
    own = {name[a["province"]]: a["strength"] for a in state["armies"] if a["faction"] == "albion"}
    assert own == {"Альбион": 3, "Серые Топи": 2}
    for province, row in rows.items():
        assert row["Ваше войско"] == own.get(province, "—"), province
    assert rows["Вересковая Пустошь"]["Ваше войско"] == "—"             # Grimgor's army there is not «yours»
    assert rows["Альбион"]["Владелец"] == "Королевство Альбион"
    assert rows["Лунная Поляна"]["Владелец"] == "Хранители «Древняя Роща»"
    assert "столица" in rows["Альбион"]["Тип"]
    assert books["grimgor"]["map"].rows != table.rows                     # each faction its own column


def test_the_neighbours_are_the_adjacency_by_display_name():
    state = _state()
    rows = _rows(find_ruleset("titania").views(state)["albion"]["map"])
    nb = neighbours(state)
    for pid, info in state["map"]["provinces"].items():
        shown = set(rows[info["name"]]["Соседи"].split(", "))
        assert shown == {state["map"]["provinces"][n]["name"] for n in nb[pid]}, info["name"]


def test_the_public_map_table_has_the_same_columns_without_anyone_s_army():
    state = _state()
    table = find_ruleset("titania").views(state)["public"]["map"]
    assert table.columns == tuple(c for c in FACTION_COLUMNS if c != "Ваше войско")
    assert "X" not in table.columns and "Y" not in table.columns
    assert not any("сила" in str(cell) for row in table.rows for cell in row)
