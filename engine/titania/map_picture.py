"""The Titania map for drawing (the `map_data` capability): provinces by owner, land and sea, adjacency,
this turn's battles, and the viewer's own orders as arrows: the Campaign's moves, attacks, supports and
splits, and the spells of «Мощь и магия» (`spell_targets`: from the capital, or from the faction's province
next to the target, to the province it aims at). The orders' "refused" rows (rows with an error) are not drawn.

Fog of war as in the books (engine.titania.views): owners, capitals, Shrines, Bosses' lairs, Keepers' lands and
the victory provinces (unless the GM hides them: T4-7, engine.titania.victory) are public (the «Карта» tab);
troops appear only on a faction's own map and only where its «Войска» tab shows them (`views.sight`). Keepers
are not factions of the game: their provinces are drawn unowned with the Keepers' name as the label. Battles
are public (the chronicle): the ones of the turn that just resolved are the markers, one per province (two
battles there make one marker naming both outcomes), each with that turn (the state's turn is the next one:
its map tells them as «бой хода N», never as this turn's). Scenario coordinates are grid cells ×100 with y growing
southwards; the picture's y grows northwards, so it is negated.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.ruleset import MapArrow, MapLink, MapMarker, MapPicture, MapPlace
from engine.titania.state_types import TitaniaState, titania_state
from engine.titania.tabs import MIGHT
from engine.titania.victory import marked
from engine.titania.views import VICTORY_MARK, sight

BATTLE_TEXT = {"attacker": "взята", "defender": "отбита", "draw": "ничья"}
BOSS_TEXT = {"attacker": "Босс повержен", "defender": "Босс жив"}


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _short(state: TitaniaState, fid: str) -> str:
    """A faction's name in a label: its display name, a Keeper as «Хранители», natives as «туземцы»."""
    if fid in state["factions"]:
        return str(state["factions"][fid]["name"])
    return "Хранители" if fid in state.get("keepers", {}) else "туземцы"


def _troops(state: TitaniaState, pid: str, owner: str | None, armies: Sequence[Mapping[str, Any]]) -> list[str]:
    """What stands in a seen province: its `armies`' strengths (by whose, unless the owner's), natives, the Boss."""
    lines = []
    for a in armies:
        whose = "" if a["faction"] == owner else f" ({_short(state, a['faction'])})"
        lines.append(f"сила {a['strength']}{whose}")
    if state["natives"].get(pid):
        lines.append(f"туземцы {state['natives'][pid]}")
    return lines


def _label(state: TitaniaState, pid: str, armies: Sequence[Mapping[str, Any]] | None,
           goals: frozenset[str] = frozenset()) -> str:
    """The province's label: its features (a victory province among `goals` marked), the Keepers holding it, and,
    when seen (`armies` the ones standing there), its troops."""
    info = state["map"]["provinces"][pid]
    owner = state["owners"].get(pid)
    parts: list[str] = [VICTORY_MARK] if pid in goals else []
    if info.get("capital"):
        parts.append("столица")
    if info.get("shrine"):
        parts.append("Святилище")
    if pid in state["bosses"]:
        health = f", здоровье {state['bosses'][pid]['health']}" if armies is not None else ""
        parts.append(f"Босс{health}")
    lines = [", ".join(parts)] if parts else []
    if owner in state.get("keepers", {}):   # a line of its own: the Keepers' names are long
        lines.append(f"Хранители «{state['keepers'][owner]['name']}»")
    if armies is not None:
        lines += _troops(state, pid, owner, armies)
    return "\n".join(lines)


def _markers(state: TitaniaState) -> tuple[MapMarker, ...]:
    """The battles of the turn that resolved into `state` (public, as in the chronicle)."""
    last = int(state["turn"]) - 1
    marked: dict[str, list[str]] = {}
    for b in state.get("battles", []):
        if b.get("turn") == last and b.get("province") in state["map"]["provinces"]:
            text = (BOSS_TEXT if b.get("kind") == "boss" else BATTLE_TEXT).get(str(b.get("result")), "")
            texts = marked.setdefault(str(b["province"]), [])
            if text and text not in texts:
                texts.append(text)
    return tuple(MapMarker(p, "battle", "бой: " + ", ".join(texts) if texts else "бой", last)
                 for p, texts in marked.items())


def _hostile(state: TitaniaState, faction: str, pid: str) -> bool:
    """An attack rather than a move: someone else's troops, natives or a Boss there, or another's land."""
    friends = {faction, *state["factions"][faction].get("allies", [])}
    owner = state["owners"].get(pid)
    return (any(a["province"] == pid and a["faction"] not in friends for a in state["armies"])
            or bool(state["natives"].get(pid)) or pid in state["bosses"]
            or (owner is not None and owner not in friends))


def campaign_steps(orders: Mapping[str, Any] | Sequence[Any] | None) -> list[tuple[str, str, str]]:
    """(army province, type, target) of each Campaign order (split parts and a Tactics squad's second
    support included), from the ParsedOrders' orders dicts (or a mapping holding them under "orders")."""
    items = orders.get("orders", ()) if isinstance(orders, Mapping) else orders or ()
    steps: list[tuple[str, str, str]] = []
    for item in items:
        order = item.get("order") if isinstance(item, Mapping) and item.get("kind") == "campaign" else None
        if not isinstance(order, Mapping):
            continue
        army = str(order.get("army"))
        parts = order.get("parts") if order.get("type") == "split" else [order]
        for part in parts if isinstance(parts, list) else []:
            if isinstance(part, Mapping) and part.get("type") in ("move", "support") and part.get("target"):
                steps.append((army, str(part["type"]), str(part["target"])))
        second = order.get("second")
        if isinstance(second, Mapping) and second.get("target"):
            steps.append((army, "support", str(second["target"])))
    return steps


def spell_targets(orders: Mapping[str, Any] | Sequence[Any] | None) -> list[tuple[str, str]]:
    """(target kind, province) of each spell cast (the «Мощь и магия» rows of the ParsedOrders' orders, or a
    mapping holding them under "orders", but the rows its "refused" names): "own" for a spell on an own army or
    province, "enemy" for one on another's army."""
    items = orders.get("orders", ()) if isinstance(orders, Mapping) else orders or ()
    refused = {int(row) for tab, row in (orders.get("refused", ()) if isinstance(orders, Mapping) else ())
               if tab == MIGHT}
    out: list[tuple[str, str]] = []
    for item in items:
        cast = item.get("cast") if isinstance(item, Mapping) and item.get("kind") == "spell" else None
        if not isinstance(cast, Mapping) or refused & {int(r) for r in item.get("rows", ())}:
            continue
        target = cast.get("target")
        if isinstance(target, Mapping) and target.get("army"):
            out.append(("enemy", str(target["army"])))
        elif cast.get("army") or cast.get("province"):
            out.append(("own", str(cast.get("army") or cast.get("province"))))
    return out


def _spell_source(game: TitaniaState, faction: str, aim: str, target: str) -> str | None:
    """Where a spell's arrow starts: for a spell on the faction's own army or province, its capital; for one on
    another's army (or on its capital), the faction's province next to the target (the first by name), else the
    capital. None when that is the target itself (no arrow)."""
    provinces = game["map"]["provinces"]
    home = game["factions"][faction].get("capital")
    capital = str(home) if home in provinces and home != target else None
    if aim == "own" and capital is not None:
        return capital
    near = sorted((str(p) for pair in game["map"]["adjacency"] for p, q in (pair, pair[::-1])
                   if q == target and game["owners"].get(p) == faction), key=lambda p: str(provinces[p]["name"]))
    return near[0] if near else capital


class TitaniaMap:
    """`picture(state, faction)`: the public map (faction None) or one faction's, with its orders."""

    def picture(self, state: Mapping[str, Any], faction: str | None, orders: Mapping[str, Any] | None = None,
                events: Sequence[Mapping[str, Any]] = ()) -> MapPicture:
        game = titania_state(state)
        provinces = game["map"]["provinces"]
        viewer = faction if faction in game["factions"] else None
        seen = sight(game, viewer) if viewer is not None else set()
        standing: dict[str, list[Mapping[str, Any]]] = {}
        for a in game["armies"]:                   # each province's armies, in the state's order
            standing.setdefault(a["province"], []).append(a)
        places = []
        goals = marked(game)
        for pid, info in sorted(provinces.items(), key=lambda kv: kv[1]["name"]):
            owner = game["owners"].get(pid)
            y = _number(info.get("y"))
            places.append(MapPlace(key=pid, name=str(info["name"]), kind="sea" if info["sea"] else "land",
                                   owner=owner if owner in game["factions"] else None,
                                   label=_label(game, pid, standing.get(pid, []) if pid in seen else None, goals),
                                   x=_number(info.get("x")), y=None if y is None else -y))
        links = tuple(MapLink(a, b, "sea" if provinces[a]["sea"] or provinces[b]["sea"] else "land")
                      for a, b in sorted(tuple(sorted(pair)) for pair in game["map"]["adjacency"]))
        arrows: list[MapArrow] = []
        given = orders.get("faction") if isinstance(orders, Mapping) else None
        if viewer is not None and orders is not None and given in (None, viewer):
            for army, kind, target in campaign_steps(orders):
                if army in provinces and target in provinces and army != target:
                    shown = "support" if kind == "support" else "attack" if _hostile(game, viewer, target) else "move"
                    arrows.append(MapArrow(army, target, shown, viewer))
            for aim, target in spell_targets(orders):
                source = _spell_source(game, viewer, aim, target) if target in provinces else None
                if source is not None:
                    arrows.append(MapArrow(source, target, "spell", viewer))
        names = {fid: str(f["name"]) for fid, f in game["factions"].items()}
        return MapPicture(tuple(places), links, names, _markers(game), tuple(dict.fromkeys(arrows)), int(game["turn"]))
