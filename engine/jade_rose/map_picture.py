"""The Jade Rose map for drawing (the `map_data` capability): cities by owner, size and level, roads,
ruins, the battles and captures of the events given (one marker per city and turn, naming all that
happened there, with the turn it happened in), and the viewer's own attacks as arrows.

Everything here is public in Jade Rose (cities' owners, sizes and levels, roads, the chronicle's battles);
only the arrows are the viewer's own: its attacks of the pending battles (an army marches from the
viewer's city nearest by road, the rule book giving armies no place of their own).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.ruleset import MapArrow, MapLink, MapMarker, MapPicture, MapPlace

MARKED_EVENTS = {"battle": "бой", "capture": "захват", "failed_attack": "атака отбита"}


def _label(city: Mapping[str, Any]) -> str:
    if city.get("ruins"):
        return "руины"
    size = "большой" if city.get("large") else "малый"
    return f"{size}, ур. {city.get('level', 1)}" + (", столица" if city.get("capital") else "")


def _coordinate(city: Mapping[str, Any], axis: str) -> float | None:
    value = city.get(axis)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _origin(state: Mapping[str, Any], faction: str, target: str) -> str | None:
    """The viewer's city next to `target` by road (the first by name), where its attack comes from."""
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


class JadeRoseMap:
    """`picture(state, faction)`: the public map (faction None) or one faction's, with its attacks."""

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
        arrows: list[MapArrow] = []
        if faction is not None:
            for battle in state.get("battles") or []:
                for att in battle["attackers"]:
                    origin = _origin(state, faction, battle["city"]) if att["faction"] == faction else None
                    if origin is not None:
                        arrows.append(MapArrow(origin, str(battle["city"]), "attack", faction))
        names = {fid: str(f["name"]) for fid, f in state["factions"].items()}
        return MapPicture(places, links, names, markers, tuple(dict.fromkeys(arrows)), int(state["turn"]))
