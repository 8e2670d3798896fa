"""The Jade Rose map for drawing (the `map_data` capability): cities by owner, size and level, roads,
ruins, the battles and captures of the events given (one marker per city and turn, naming all that
happened there, with the turn it happened in), and the viewer's own armies' targets as arrows.

Everything here is public in Jade Rose (cities' owners, sizes and levels, roads, the chronicle's battles);
only the arrows are the viewer's own: the armies' targets its `orders` give (the «Приказы армиям» rows of its
war plan, but those the orders' "refused" rows name: rows with an error) and its attacks of the pending battles.
An army marches from the viewer's city nearest by road (the rule book gives armies no place of their own; an
army defending a city comes from its neighbour, none when no own city borders it); what an attack does to the
city it takes is the arrow's kind (CAPTURE_KINDS), a defence's is "defend".
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.jade_rose.turn import WAR_PLAN
from engine.ruleset import MapArrow, MapLink, MapMarker, MapPicture, MapPlace

MARKED_EVENTS = {"battle": "бой", "capture": "захват", "failed_attack": "атака отбита"}
# «При захвате»: the arrow's kind of an attack (the drawing's legend tells each one; «Разрушить и уйти» razes too)
CAPTURE_KINDS = {"colonise": "colonise", "plunder": "plunder", "raze": "raze", "raze_leave": "raze"}


def _label(city: Mapping[str, Any]) -> str:
    if city.get("ruins"):
        return "руины"
    size = "большой" if city.get("large") else "малый"
    return f"{size}, ур. {city.get('level', 1)}" + (", столица" if city.get("capital") else "")


def _coordinate(city: Mapping[str, Any], axis: str) -> float | None:
    value = city.get(axis)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _origin(state: Mapping[str, Any], faction: str, target: str) -> str | None:
    """The viewer's city next to `target` by road (the first by name), where its army comes from."""
    own = {cid for cid, c in state["cities"].items() if c.get("owner") == faction and not c.get("ruins")}
    near = sorted((state["cities"][a]["name"], a) for road in state.get("roads", []) for a, b in (road, road[::-1])
                  if b == target and a in own)
    return near[0][1] if near else None


def _turn_of(state: Mapping[str, Any], event: Mapping[str, Any]) -> int:
    """The turn an event happened in: its own "turn" if it says, else the turn of the stage that resolved
    into `state` (a turn's end opens the next turn's orders, or the finished game, with the turn counted on)."""
    given = event.get("turn")
    if isinstance(given, int) and not isinstance(given, bool):
        return given
    turn = int(state["turn"])
    return turn - 1 if state.get("stage") in ("orders", "finished") else turn


def refused_rows(orders: Mapping[str, Any] | None) -> set[tuple[str, int]]:
    """The (tab, row) of the rows the orders' "refused" names: rows with an error, drawn nowhere."""
    refused = orders.get("refused", ()) if isinstance(orders, Mapping) else ()
    return {(str(tab), int(row)) for tab, row in refused}


def army_targets(orders: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(target city, arrow kind) of each army the orders' war plan sends to attack or defend a city, in the plan's
    order, but the rows with an error (`refused_rows`): an attack's kind is what it does on capture."""
    items = orders.get("orders", ()) if isinstance(orders, Mapping) else ()
    refused = refused_rows(orders)
    out: list[tuple[str, str]] = []
    for item in items:
        plan = item.get("plan") if isinstance(item, Mapping) and item.get("kind") == WAR_PLAN else None
        armies = plan.get("armies") if isinstance(plan, Mapping) else None
        for army in (armies.values() if isinstance(armies, Mapping) else ()):
            row = army.get("row")
            if army.get("order") not in ("attack", "defend") or not army.get("city") or ("army_orders", row) in refused:
                continue
            kind = CAPTURE_KINDS.get(str(army.get("capture")), "colonise") if army["order"] == "attack" else "defend"
            out.append((str(army["city"]), kind))
    return out


class JadeRoseMap:
    """`picture(state, faction)`: the public map (faction None) or one faction's, with its armies' targets."""

    def picture(self, state: Mapping[str, Any], faction: str | None, orders: Mapping[str, Any] | None = None,
                events: Sequence[Mapping[str, Any]] = ()) -> MapPicture:
        places = tuple(
            MapPlace(key=cid, name=str(c["name"]), kind="city", owner=None if c.get("ruins") else c.get("owner"),
                     label=_label(c), x=_coordinate(c, "x"), y=_coordinate(c, "y"), ruined=bool(c.get("ruins")))
            for cid, c in sorted(state["cities"].items()))
        roads = sorted(tuple(sorted(road)) for road in state.get("roads", []))
        links = tuple(MapLink(str(a), str(b), "road") for a, b in roads)
        marked: dict[tuple[str, int], list[str]] = {}
        for e in events:
            if e.get("kind") in MARKED_EVENTS and e.get("city") in state["cities"]:
                texts = marked.setdefault((str(e["city"]), _turn_of(state, e)), [])
                if MARKED_EVENTS[e["kind"]] not in texts:
                    texts.append(MARKED_EVENTS[e["kind"]])
        markers = tuple(MapMarker(city, "battle", ", ".join(texts), turn) for (city, turn), texts in marked.items())
        targets: list[tuple[str, str]] = []
        if faction is not None and faction in state["factions"]:
            given = orders.get("faction") if isinstance(orders, Mapping) else None
            if given in (None, faction):
                targets += army_targets(orders)
            targets += [(str(battle["city"]), CAPTURE_KINDS.get(str(att.get("capture")), "colonise"))
                        for battle in state.get("battles") or [] for att in battle["attackers"]
                        if att["faction"] == faction]
        arrows: list[MapArrow] = []
        for city, kind in targets:
            origin = _origin(state, str(faction), city) if city in state["cities"] else None
            if origin is not None:
                arrows.append(MapArrow(origin, city, kind, str(faction)))
        names = {fid: str(f["name"]) for fid, f in state["factions"].items()}
        return MapPicture(places, links, names, markers, tuple(dict.fromkeys(arrows)), int(state["turn"]))
