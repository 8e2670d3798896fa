"""Issue 11 item 2 for Titania: the map picture (the `map_data` capability). Provinces as land or sea in
their owner's colour at the scenario's coordinates, adjacency (sea links where one end is sea), this
turn's battles as markers, the viewer's own Campaign orders as arrows, and the books' fog of war: «a
faction sees every army, native squad and Boss standing in a province it owns or holds an army in, or next
to one; of the rest of the map only owners, Shrines and revealed deposits» (engine.titania.views)."""
from __future__ import annotations

import copy
import io
from typing import Any

from PIL import Image

from engine import find_ruleset
from engine.ruleset import Row
from engine.titania.book_orders import CAMPAIGN, HOLD, MOVE, SUPPORT
from engine.titania.map_picture import TitaniaMap
from sheets_bridge.map_drawing import HEIGHT_PX, SEA, UNOWNED, WIDTH_PX, draw_map
from sheets_bridge.scenarios import load_scenario


def _start() -> dict[str, Any]:
    return load_scenario(find_ruleset("titania"), "demo").state


def _place(picture: Any, key: str) -> Any:
    return next(p for p in picture.places if p.key == key)


def test_every_province_is_a_place_at_its_scenario_cell_land_or_sea_with_its_player_owner() -> None:
    state = _start()
    picture = TitaniaMap().picture(state, None)
    provinces = state["map"]["provinces"]
    assert {p.key for p in picture.places} == set(provinces)
    for place in picture.places:
        info = provinces[place.key]
        assert place.name == info["name"] and (place.x, place.y) == (info["x"], -info["y"])  # y grows north
        assert place.kind == ("sea" if info["sea"] else "land")
    assert _place(picture, "albion").owner == "albion"
    # Keepers are not factions of the game: their land is drawn unowned and named in the label
    grove = _place(picture, "k_grove1")
    assert grove.owner is None and "Хранители «Древняя Роща»" in grove.label
    assert "столица" in _place(picture, "albion").label
    assert "Босс" in _place(picture, "boss_giant").label


def test_links_are_the_adjacency_and_a_link_touching_the_sea_is_a_sea_link() -> None:
    state = _start()
    picture = TitaniaMap().picture(state, None)
    pairs = {frozenset(pair) for pair in state["map"]["adjacency"]}
    assert {frozenset((link.a, link.b)) for link in picture.links} == pairs
    sea = {p for p, info in state["map"]["provinces"].items() if info["sea"]}
    for link in picture.links:
        assert link.kind == ("sea" if {link.a, link.b} & sea else "land")


def test_the_public_map_shows_no_troops_and_a_faction_sees_only_troops_next_to_its_own() -> None:
    state = _start()
    maps = TitaniaMap()
    public = maps.picture(state, None)
    assert not any("сила" in p.label or "туземцы" in p.label for p in public.places)
    albion = maps.picture(state, "albion")
    assert "сила 3" in _place(albion, "albion").label                       # its own army
    assert "сила 9" in _place(albion, "k_grove2").label                     # the Keepers next door
    assert "туземцы" not in _place(albion, "w_cape").label                  # two provinces away: unseen
    assert "сила" not in _place(albion, "grimgor").label                    # Grimgor's capital: far away
    state["armies"].append({"faction": "lothern", "province": "gull_spit", "strength": 1, "naval": False})
    lothern = maps.picture(state, "lothern")
    assert "туземцы 2" in _place(lothern, "w_cape").label                   # next to Lothern's army
    # a Boss's health only where the viewer can see it
    assert "здоровье" not in _place(public, "boss_giant").label
    grimgor = maps.picture(state, "grimgor")
    assert "здоровье" in _place(grimgor, "boss_giant").label


def test_an_enemy_army_next_door_is_labelled_with_its_faction_and_an_own_one_without() -> None:
    state = _start()
    state["armies"].append({"faction": "grimgor", "province": "marsh", "strength": 4, "naval": False})
    label = _place(TitaniaMap().picture(state, "albion"), "marsh").label
    assert "сила 4 (Орда Гримгора)" in label


def test_the_battles_of_the_turn_just_resolved_are_markers_and_older_ones_are_not() -> None:
    state = _start()
    state["turn"] = 3
    army = {"faction": "albion", "from": "albion", "strength": 3}
    state["battles"] = [{"n": 1, "turn": 1, "province": "marsh", "kind": "natives", "result": "attacker",
                         "attacker": army},
                        {"n": 1, "turn": 2, "province": "w_moor", "kind": "army", "result": "draw", "attacker": army},
                        {"n": 2, "turn": 2, "province": "boss_giant", "kind": "boss", "result": "defender",
                         "attacker": army}]
    markers = TitaniaMap().picture(state, None).markers
    assert [(m.place, m.kind, m.text) for m in markers] == [("w_moor", "battle", "бой: ничья"),
                                                             ("boss_giant", "battle", "бой: Босс жив")]


def _campaign(state: dict[str, Any], faction: str, rows: list[dict[str, str]]) -> dict[str, Any]:
    rs = find_ruleset("titania")
    parsed = rs.validate(state, faction, "orders", {CAMPAIGN: [Row(i + 2, r) for i, r in enumerate(rows)]})
    assert all(s.ok for s in parsed.statuses), [s.text() for s in parsed.statuses]
    return {"faction": faction, "stage": "orders", "orders": list(parsed.orders)}


def test_the_viewer_s_campaign_orders_are_arrows_attack_move_and_support_and_holds_are_none() -> None:
    state = _start()
    state["armies"] += [{"faction": "albion", "province": "w_moor", "strength": 2, "naval": False},
                        {"faction": "albion", "province": "marsh", "strength": 2, "naval": False}]
    state["owners"].update(w_moor="albion", marsh="albion")
    orders = _campaign(state, "albion", [
        {"seq": "1", "army": "Альбион", "order": MOVE, "target": "Лунная Поляна"},          # the Keepers' land
        {"seq": "2", "army": "Серые Топи", "order": MOVE, "target": "Перешеек Ветров"},     # empty, nobody's
        {"seq": "3", "army": "Вересковая Пустошь", "order": SUPPORT, "target": "Священная Роща",
         "for_whom": "Королевство Альбион"},
    ])
    picture = TitaniaMap().picture(state, "albion", orders=orders)
    assert {(a.source, a.target, a.kind) for a in picture.arrows} == {
        ("albion", "k_grove2", "attack"), ("marsh", "isthmus", "move"), ("w_moor", "k_grove1", "support")}
    assert all(a.faction == "albion" for a in picture.arrows)
    holds = _campaign(state, "albion", [{"seq": "1", "army": "Альбион", "order": HOLD}])
    assert TitaniaMap().picture(state, "albion", orders=holds).arrows == ()


def test_a_split_army_gets_one_arrow_per_moving_part() -> None:
    state = _start()
    orders = _campaign(state, "albion", [
        {"seq": "1", "army": "Альбион", "order": MOVE, "target": "Серые Топи", "strength": "1"},
        {"seq": "2", "army": "Альбион", "order": MOVE, "target": "Вересковая Пустошь", "strength": "1"},
    ])
    arrows = TitaniaMap().picture(state, "albion", orders=orders).arrows
    assert {(a.source, a.target, a.kind) for a in arrows} == {("albion", "marsh", "move"), ("albion", "w_moor", "move")}


def test_no_arrows_on_the_public_map_nor_from_another_faction_s_orders() -> None:
    state = _start()
    orders = _campaign(state, "albion", [{"seq": "1", "army": "Альбион", "order": MOVE, "target": "Серые Топи"}])
    assert TitaniaMap().picture(state, None, orders=orders).arrows == ()
    assert TitaniaMap().picture(state, "grimgor", orders=orders).arrows == ()


def test_the_picture_does_not_change_the_state() -> None:
    state = _start()
    before = copy.deepcopy(state)
    TitaniaMap().picture(state, "albion")
    assert state == before


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def test_the_drawn_map_has_one_colour_per_owner_sea_in_blue_and_labels_that_do_not_overlap() -> None:
    state = _start()
    picture = TitaniaMap().picture(state, "albion")
    drawing = draw_map(picture, "Титания: ход 1")
    image = Image.open(io.BytesIO(drawing.png)).convert("RGB")
    assert image.size == (WIDTH_PX, HEIGHT_PX)
    owners = {p.owner for p in picture.places if p.owner}
    assert owners == set(state["factions"]) and len({drawing.colours[o] for o in owners}) == len(owners)
    for place in picture.places:
        expected = SEA if place.kind == "sea" else drawing.colours[place.owner] if place.owner else UNOWNED
        got = image.getpixel((round(drawing.centres[place.key][0]), round(drawing.centres[place.key][1])))
        assert all(abs(a - b) <= 3 for a, b in zip(got, _rgb(expected), strict=True)), place.name
    boxes = list(drawing.label_boxes.values())
    overlapping = [(i, j) for i, a in enumerate(boxes) for j, b in enumerate(boxes[i + 1:], i + 1)
                   if min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])]
    assert overlapping == []
