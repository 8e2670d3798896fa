"""Buildings (issue 24 item 3): «Their effects beyond production (forts, towers, markets…) come from the
catalog, are resolved by the engine and are shown in Russian in the faction's buildings tab.»

«Камень необходим для постройки защитных сооружений и башен, некоторых зданий.» The book gives no effect; the
game's catalog (engine/titania/data/buildings.toml) gives the fort a `defence` of 1 (default G92: +1 to the
defending side's total in its province when its owner or an ally defends); a v1 file keeps the v1 fort."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine import find_ruleset
from engine.titania.adjudicate import adjudicate
from engine.titania.game_turn import situation
from sheets_bridge.layouts import Layout

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]


def demo() -> dict[str, Any]:
    return RS.new_game(tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8")))


def test_the_buildings_tab_says_in_russian_what_each_building_costs_needs_and_does() -> None:
    state = demo()
    state["buildings"]["albion"] = ["fort", "mine", "sawmill"]
    tab = Layout.load("titania").tab("buildings")
    assert tab is not None and tab.title == "Постройки" and tab.kind == "status"
    table = RS.views(state)["albion"]["buildings"]
    assert table.columns == ("Постройка", "Стоимость", "Нужно в провинции", "Что даёт", "У вас")
    rows = {r[0]: r for r in table.rows}
    assert rows["Укрепление"][1:3] == ("влияние 1", "—")
    assert rows["Укрепление"][3].startswith("оборона +1 к силе обороны в бою в этой провинции")
    assert rows["Укрепление"][4] == "Альбион"
    assert rows["Рудник"][1:4] == ("влияние 1", "золото", "добыча в начале Планирования: золото +1")
    assert rows["Ферма"][3] == "пища +1 (ещё 1 отр. на карте, см. «Войско», п. 1.1)"
    assert rows["Порт"][2] == "граничит с морем"
    assert "караваны по морю (порт нужен обеим сторонам, см. «Фаза Планирования», п. 3.1)" in rows["Порт"][3]
    assert rows["Рынок"][1] == "только у Хранителей"
    # the racial discounts (G70 a): the dwarfs' quarry costs 1 Influence less
    assert {r[0]: r for r in RS.views(state)["karak"]["buildings"].rows}["Каменоломня"][1] == "бесплатно"


def test_the_fort_of_the_game_s_catalog_holds_the_defence_in_its_province() -> None:
    """A2.1 with the fort: 4 against the orcs' garrison 3 wins without it; with it the totals are 4 and 4, a draw."""
    results = {}
    for fort in (False, True):
        state = demo()
        if fort:
            state["buildings"]["grimgor"] = ["fort", "mine", "sawmill"]
        state["armies"].append({"faction": "lothern", "province": "e_steppe", "strength": 4, "naval": False})
        data, _, _ = situation(state, {}, 1)
        data["orders"].append({"faction": "lothern", "army": "e_steppe", "type": "move", "target": "grimgor",
                               "seq": 1})
        out = adjudicate(data, 1).output
        assert out is not None
        battle = next(b for b in out["battles"] if b["province"] == "grimgor")
        results[fort] = (battle["defender"]["total"], battle["result"])
    assert results == {False: (3, "attacker"), True: (4, "draw")}
    data["schema"] = "titania.adjudicate.v1"          # v1 (SCHEMA §1.3): a fort does nothing
    for key in ("catalog", "spells"):
        data.pop(key)
    v1 = adjudicate(data, 1).output
    assert v1 is not None and next(b for b in v1["battles"] if b["province"] == "grimgor")["result"] == "attacker"
