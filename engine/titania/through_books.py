"""A situation's turn played through the faction books (`forumwar adjudicate FILE --through-books`).

One module, over 400 lines, on purpose: each order kind's row form and the way its answer is read back are the two
halves of one mapping, kept side by side so that a kind added to one is seen missing from the other.

`plan` turns each order of a situation file (SCHEMA §1.4-§1.5, SCHEMA_V2 §2-§6) into the rows a player would type
in the faction's order tabs, in the words the tabs' dropdowns offer (display names, never ids), and keeps which
rows each order became; an order with no row form is a problem of the command. The Keepers have no book: the game
plays the orders the file gives them for its turn, as the GM's (engine.titania.opening). `answer` reads the outcome
back from the game after its `check` and `turn` (the state the turn left, with what became of each row,
engine.titania.verdicts) into the output of `forumwar adjudicate FILE --json`, order by order at the file's own
indices, and `mismatches` lists the rows whose verdict at `check` differs from the turn's.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.titania.book_orders import (
    ABILITY_FORM,
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
from engine.titania.data import content_of
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, ability_name
from engine.titania.reasons import EXTERNAL_CAUSES
from engine.titania.state_types import TitaniaState
from engine.titania.tabs import BLIND, CAMPAIGN, MIGHT, PLANNING

Cells = dict[str, str]


@dataclass
class Plan:
    """The rows to type (faction -> tab -> rows of cells by column key; the first is sheet row 2), where each of
    the file's orders went (its tab, faction and rows), the file as the game is made from it (the dice keyed by the
    game's own ids) and the problems (orders without a row form)."""

    books: dict[str, dict[str, list[Cells]]] = field(default_factory=dict)
    planning: dict[int, tuple[str, int]] = field(default_factory=dict)  # file index -> (faction, row)
    campaign: dict[int, tuple[str, list[int]]] = field(default_factory=dict)  # file index -> (faction, rows)
    keepers: dict[int, int] = field(default_factory=dict)  # file index -> its place among the Keepers' orders
    keeper_planning: dict[int, int] = field(default_factory=dict)  # the same for the Planning orders
    spells: dict[str, list[int]] = field(default_factory=dict)  # faction -> the row of each cast, in file order
    might: dict[str, list[int]] = field(default_factory=dict)  # faction -> the Might allocation's rows
    abilities: dict[str, list[int]] = field(default_factory=dict)  # faction -> the ability's rows
    data: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, faction: str, tab: str, cells: Cells) -> int:
        """Type a row at the end of the faction's tab; returns its sheet row."""
        rows = self.books.setdefault(faction, {}).setdefault(tab, [])
        rows.append({k: v for k, v in cells.items() if v != ""})
        return len(rows) + 1


class _Names:
    """Display names of a game state's provinces, factions, Keepers and content (an id it does not know is typed
    as it is: the check then says what is wrong with it)."""

    def __init__(self, state: TitaniaState) -> None:
        self.state = state
        self.content = content_of(state)

    def p(self, pid: object) -> str:
        info = self.state["map"]["provinces"].get(pid) if isinstance(pid, str) else None
        return str(info["name"]) if info else str(pid if pid is not None else "")

    def f(self, fid: object) -> str:
        if fid == "natives":
            return "туземцы"
        if isinstance(fid, str) and fid in self.state["factions"]:
            return str(self.state["factions"][fid]["name"])
        if isinstance(fid, str) and fid in self.state.get("keepers", {}):
            return str(self.state["keepers"][fid]["name"])
        return str(fid if fid is not None else "")

    def tech(self, tid: object) -> str:
        t = self.content.technologies.get(str(tid))
        return t.name if t is not None else str(tid)

    def spell(self, sid: object) -> str:
        sp = self.content.spells.get(str(sid))
        return sp.name if sp is not None else str(sid)

    def event(self, eid: object) -> str:
        ev = self.content.events.get(str(eid))
        return ev.name if ev is not None else str(eid)

    def item(self, iid: object) -> str:
        return self.content.items.get(str(iid), str(iid))


def _dict(value: object) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _n(value: object) -> str:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else str(value or "")


def _goods(names: _Names, resources: object, items: object) -> tuple[str, str]:
    """«Что» and «Количество» of a caravan: one resource with its amount, or a list «ресурс n; предмет»."""
    res = [(str(r), n) for r, n in resources.items()] if isinstance(resources, dict) else []
    its = [names.item(i) for i in items] if isinstance(items, list) else []
    if len(res) == 1 and not its:
        r, n = res[0]
        return RESOURCE_NAMES.get(r, r), _n(n)
    parts = [f"{RESOURCE_NAMES.get(r, r)} {_n(n)}" for r, n in res] + its
    return "; ".join(parts), ""


def _duty(names: _Names, duty: object) -> str:
    """«Пошлина»: «Фракция: ресурс n, ресурс n; …» (SCHEMA §1.4 `duty_pay`)."""
    if not isinstance(duty, dict):
        return ""
    return "; ".join(f"{names.f(third)}: " + ", ".join(f"{RESOURCE_NAMES.get(str(r), str(r))} {_n(n)}"
                                                         for r, n in pay.items())
                     for third, pay in duty.items() if isinstance(pay, dict))


def _planning_row(names: _Names, order: Mapping[str, Any]) -> Cells | None:
    kind = order.get("kind")
    if kind == "build":
        return {"action": BUILD, "province": names.p(order.get("province")),
                "what": BUILDING_NAMES.get(str(order.get("building")), str(order.get("building")))}
    if kind == "hire":
        return {"action": HIRE, "province": names.p(order.get("province")), "count": _n(order.get("strength")),
                "what": PAY_INFLUENCE if order.get("pay") == "influence" else PAY_GOLD}
    if kind == "skaven_free":
        return {"action": RATS, "province": names.p(order.get("province"))}
    if kind == "caravan":
        route = _list(order.get("route"))
        what, count = _goods(names, order.get("resources"), order.get("items"))
        return {"action": CARAVAN, "province": names.p(route[0]) if route else "", "what": what, "count": count,
                "to": names.f(order.get("to")), "route": ", ".join(names.p(p) for p in route[1:]),
                "duty": _duty(names, order.get("duty_pay"))}
    if kind == "research":
        discount = order.get("discount")
        return {"action": RESEARCH, "what": names.tech(order.get("technology")),
                "discount": RESOURCE_NAMES.get(str(discount), str(discount)) if discount else ""}
    if kind == "learn":
        return {"action": LEARN, "what": names.spell(order.get("spell"))}
    if kind == "contribute":
        res = _dict(order.get("resources"))
        what, count = _goods(names, res, None)
        return {"action": CONTRIBUTE, "what": what, "count": count, "to": names.event(order.get("event"))}
    return None


def _campaign_rows(names: _Names, order: Mapping[str, Any]) -> list[Cells] | None:
    faction, kind = order.get("faction"), order.get("type")
    base = {"seq": _n(order.get("seq")), "army": names.p(order.get("army"))}

    def one(spec: Mapping[str, Any], strength: object = None) -> Cells | None:
        t = spec.get("type")
        cells = {**base, **({"seq": _n(spec["seq"])} if "seq" in spec else {})}
        if strength is not None:
            cells["strength"] = _n(strength)
        if t == "hold":
            return {**cells, "order": HOLD}
        if t == "move":
            return {**cells, "order": MOVE, "target": names.p(spec.get("target"))}
        if t == "support":
            who = spec.get("support_faction", faction)
            return {**cells, "order": SUPPORT, "target": names.p(spec.get("target")),
                    "for_whom": "" if who == faction else names.f(who)}
        return None

    if kind == "split":
        parts = _list(order.get("parts"))
        rows = [one(p, p.get("strength")) for p in parts if isinstance(p, dict)]
        return None if not rows or any(r is None for r in rows) else [r for r in rows if r is not None]
    first = one(order)
    if first is None:
        return None
    second = order.get("second")
    if kind == "support" and isinstance(second, dict):
        other = one({"type": "support", **second})
        return None if other is None else [first, other]
    return [first]


def _ability_rows(names: _Names, race: str, spec: Mapping[str, Any]) -> list[Cells]:
    action = ability_name(race)
    form = ABILITY_FORM.get(race, "army")
    if form == "allocation":
        alloc = _dict(spec.get("allocation"))
        return [{"action": action, "army": names.p(p), "points": _n(n)} for p, n in alloc.items()] or \
            [{"action": action}]
    if form in ("own_province", "province"):
        return [{"action": action, "province1": names.p(spec.get("province"))}]
    if form == "enemy_army":
        target = _dict(spec.get("target"))
        return [{"action": action, "province1": names.p(target.get("army")), "faction": names.f(target.get("faction"))}]
    provinces = spec.get("provinces") if form == "army_two" else spec.get("path")
    more = [names.p(p) for p in provinces] if isinstance(provinces, list) else []
    return [{"action": action, "army": names.p(spec.get("army")),
             **({"province1": more[0]} if more else {}), **({"province2": more[1]} if len(more) > 1 else {})}]


def _cast_row(names: _Names, cast: object) -> Cells:
    if not isinstance(cast, dict):
        return {"action": SPELL_ROW}
    sid = cast.get("spell")
    row = {"action": SPELL_ROW, "spell": names.spell(sid) if isinstance(sid, str) else ""}
    if "army" in cast:
        row["army"] = names.p(cast["army"])
    target = cast.get("target")
    if isinstance(target, dict):
        row.update(province1=names.p(target.get("army")), faction=names.f(target.get("faction")))
    if "province" in cast:
        row["province1"] = names.p(cast["province"])
    return row


def plan(data: Mapping[str, Any], state: TitaniaState) -> Plan:
    """The rows of every order of `data` (a situation file), for the game `state` made from it."""
    names = _Names(state)
    players = state["factions"]
    out = Plan(data=copy.deepcopy(dict(data)))
    planning = _dict(data.get("planning"))
    caravan_dice = dict((data.get("dice") or {}).get("caravan") or {})
    game_dice: dict[str, Any] = {}
    keeper_ids = set(state.get("keepers", {}))
    for i, order in enumerate(planning.get("orders") or []):
        faction = order.get("faction") if isinstance(order, dict) else None
        if faction in keeper_ids:  # no book: the game plays it as the file gives it (engine.titania.opening)
            out.keeper_planning[i] = len(out.keeper_planning)
            continue
        row = _planning_row(names, order) if isinstance(order, dict) and faction in players else None
        if row is None:
            out.problems.append(f"planning.orders[{i}]: у этого приказа нет строки во вкладке «Планирование» "
                                f"({json.dumps(order, ensure_ascii=False)[:120]}).")
            continue
        n = out.add(str(faction), PLANNING, row)
        out.planning[i] = (str(faction), n)
        if order.get("kind") == "caravan" and order.get("id") in caravan_dice:  # the game's id of the caravan
            game_dice[f"{faction}-{state['turn']}-{n}"] = caravan_dice[order["id"]]
    if caravan_dice:
        out.data.setdefault("dice", {})["caravan"] = game_dice
    for i, order in enumerate(data.get("orders") or []):
        faction = order.get("faction") if isinstance(order, dict) else None
        if faction in keeper_ids:  # no book: the game plays the Keepers' orders the file gives for its turn
            out.keepers[i] = len(out.keepers)
            continue
        rows = _campaign_rows(names, order) if isinstance(order, dict) and faction in players else None
        if rows is None:
            out.problems.append(f"orders[{i}]: у этого приказа нет строки во вкладке «Поход» "
                                f"({json.dumps(order, ensure_ascii=False)[:120]}).")
            continue
        out.campaign[i] = (str(faction), [out.add(str(faction), CAMPAIGN, r) for r in rows])
    for faction, alloc in (data.get("might_allocation") or {}).items():
        if faction not in players or not isinstance(alloc, dict):
            out.problems.append(f"might_allocation.{faction}: это не фракция игрока — строки «Могущество» нет.")
            continue
        out.might[faction] = [out.add(faction, MIGHT, {"action": MIGHT_ROW, "army": names.p(p), "points": _n(n)})
                              for p, n in alloc.items()]
    for faction, casts in (data.get("spells") or {}).items():
        if faction not in players or not isinstance(casts, list):
            out.problems.append(f"spells.{faction}: это не фракция игрока — строки «Заклинание» нет.")
            continue
        out.spells[faction] = [out.add(faction, MIGHT, _cast_row(names, c)) for c in casts]
    for faction, spec in (data.get("abilities") or {}).items():
        if faction not in players or not isinstance(spec, dict):
            out.problems.append(f"abilities.{faction}: это не фракция игрока — строки способности нет.")
            continue
        out.abilities[faction] = [out.add(faction, MIGHT, r)
                                  for r in _ability_rows(names, str(players[faction]["race"]), spec)]
    return out


# -- the outcome read back from the game -------------------------------------------------------------------------

def _row(after: TitaniaState, faction: str, tab: str, row: int) -> dict[str, Any] | None:
    got = after.get("last", {}).get("rows", {}).get(faction, {}).get(f"{tab}:{row}")
    return dict(got) if isinstance(got, dict) else None


def _clean(item: Mapping[str, Any], *drop: str) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k not in ("code", "part", "part_verdict", BLIND, *drop)}


def _planning(data: Mapping[str, Any], p: Plan, after: TitaniaState) -> list[dict[str, Any]]:
    items = []
    keepers = list(after.get("last", {}).get("keeper_planning", []))
    for i, order in enumerate((data.get("planning") or {}).get("orders") or []):
        faction, row = p.planning.get(i, (None, 0))
        got = _row(after, faction, PLANNING, row) if faction is not None else None
        if i in p.keeper_planning and p.keeper_planning[i] < len(keepers):
            got = keepers[p.keeper_planning[i]]
        if got is None:
            got = {"outcome": "void", "reason": "bad_order"}
        base = {"index": i, "kind": order.get("kind") if isinstance(order, dict) else None,
                "faction": order.get("faction") if isinstance(order, dict) else None}
        items.append({**base, **_clean(got, "index", "kind", "faction")})
    return items


def _progress(data: Mapping[str, Any], before: TitaniaState, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each contribution's `progress` (SCHEMA_V2 §5: the major's total of all factions, the minor's total of its
    faction, after this order) counted in the file's order of the orders: the game runs each faction's rows
    together, and only the running totals between factions depend on that order."""
    open_ones = {str(e["id"]): e for e in before.get("active_events", []) if e.get("status") == "open"}
    totals: dict[tuple[str, str | None], int] = {}
    orders = _list(_dict(data.get("planning")).get("orders"))
    for item, order in zip(items, orders, strict=False):
        record = open_ones.get(str(order.get("event"))) if isinstance(order, dict) else None
        if item.get("reason") != "contributed" or record is None:
            continue
        progress = _dict(record.get("progress"))
        faction = str(order.get("faction"))
        key = (str(order["event"]), None if record.get("class") == "major" else faction)
        base = sum(int(n) for n in progress.values()) if key[1] is None else int(progress.get(faction, 0))
        totals[key] = totals.get(key, base) + sum(int(n) for n in _dict(order.get("resources")).values())
        item["progress"] = totals[key]
    return items


def _order(i: int, order: Mapping[str, Any], got: Mapping[str, Any] | None) -> dict[str, Any]:
    base: dict[str, Any] = {"index": i, "faction": order.get("faction"), "army": order.get("army"),
                            "type": order.get("type")}
    if got is None or "code" in got:  # refused by the books: void, as the file's order
        out = {**base, "outcome": "void", "reason": got["reason"] if got else "bad_order"}
        if "target" in order:
            out["target"] = order["target"]
        return out
    return {**base, **_clean(got, "index", "faction", "army", "type")}


def _orders(data: Mapping[str, Any], p: Plan, after: TitaniaState) -> list[dict[str, Any]]:
    keepers = list(after.get("last", {}).get("keeper_orders", []))
    items = []
    for i, order in enumerate(data.get("orders") or []):
        if i in p.keepers:
            items.append(_order(i, order, keepers[p.keepers[i]] if p.keepers[i] < len(keepers) else None))
            continue
        faction, rows = p.campaign.get(i, (None, []))
        verdicts = [_row(after, faction, CAMPAIGN, r) for r in rows] if faction is not None else []
        got = next((v for v in verdicts if v is not None and "code" not in v), None)
        if got is None:
            got = next((v for v in verdicts if v is not None), None)
        item = _order(i, order, got)
        if order.get("type") == "split" and got is not None and "code" not in got:
            item["parts"] = _parts(order, verdicts)
        items.append(item)
    return items


def _parts(order: Mapping[str, Any], verdicts: Sequence[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """A split's parts in the file's order, each from its row: the game's part, or void when the books refused
    the row (its strength then stayed and held, as the adjudicator leaves a void part)."""
    out = []
    for spec, got in zip(_list(order.get("parts")), verdicts, strict=False):
        base = {"strength": spec.get("strength"), "type": spec.get("type"),
                **({"target": spec["target"]} if "target" in spec else {})}
        if got is None or "code" in got or not isinstance(got.get("part_verdict"), dict):
            out.append({**base, "outcome": "void", "reason": got["reason"] if got else "bad_order"})
        else:
            out.append({**base, **_clean(got["part_verdict"], "strength", "type", "target")})
    return out


def _spells(data: Mapping[str, Any], p: Plan, after: TitaniaState) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for faction, rows in p.spells.items():
        casts = (data.get("spells") or {}).get(faction) or []
        for k, (cast, row) in enumerate(zip(casts, rows, strict=True)):
            got = _row(after, faction, MIGHT, row) or {"outcome": "void", "reason": "bad_order"}
            sid = cast.get("spell") if isinstance(cast, dict) else None
            out.setdefault(faction, []).append({"index": k, "spell": sid, **_clean(got, "index", "spell")})
    return out


def _one_of(rows: Sequence[int], faction: str, after: TitaniaState) -> dict[str, Any] | None:
    verdicts = [v for v in (_row(after, faction, MIGHT, r) for r in rows) if v is not None]
    return next((v for v in verdicts if "code" not in v), verdicts[0] if verdicts else None)


def answer(data: Mapping[str, Any], p: Plan, before: TitaniaState, after: TitaniaState) -> dict[str, Any]:
    """The output of `adjudicate` (SCHEMA §2, SCHEMA_V2 §11) read from the game `after` its turn (`before`: the
    game as it was made, whose natives a file's `setup.natives` placed)."""
    last = after.get("last", {})
    turn = int(after["turn"]) - 1
    out: dict[str, Any] = {"schema": data.get("schema", "titania.adjudicate.v1"), "might": dict(last.get("might", {})),
                           "turn_order": list(last.get("turn_order", []))}
    if isinstance((data.get("state") or {}).get("turn"), int):
        out["turn"] = turn
    if "planning" in last:
        out["planning"] = {"orders": _progress(data, before, _planning(data, p, after)), **last["planning"]}
    abilities: dict[str, dict[str, Any]] = {}
    for faction, rows in p.abilities.items():
        got = _one_of(rows, faction, after)
        abilities[faction] = _clean(got) if got else {"outcome": "void", "reason": "bad_target"}
        abilities[faction].setdefault("fired", False)
    might = {}
    for faction, rows in p.might.items():
        got = _one_of(rows, faction, after)
        might[faction] = _clean(got) if got else {"outcome": "void", "reason": "over_cap"}
    battles = [{k: v for k, v in b.items() if k not in ("turn", "attacker_fallen")}
               for b in after.get("battles", []) if b.get("turn") == turn]
    provinces = after["map"]["provinces"]
    buildings = after.get("buildings", {})
    factions_out: dict[str, Any] = {}
    everyone: dict[str, Mapping[str, Any]] = {**after["factions"], **after.get("keepers", {})}
    for fid, info in everyone.items():
        player = fid in after["factions"]
        res = {r: int(info.get(r, 0)) for r in ("gold", "wood", "influence", "stone", "mana")} if player else \
            {r: int((info.get("resources") or {}).get(r, 0)) for r in ("gold", "wood", "influence", "stone", "mana")}
        factions_out[fid] = {"resources": res, "food": last.get("food", {}).get(fid, 0),
                             "squads": last.get("squads", {}).get(fid, 0),
                             "might_next": sum(1 for q, o in after["owners"].items() if o == fid
                                               and provinces[q]["shrine"]),
                             "technologies": sorted(set(info.get("techs", []))),
                             "spells": sorted(set(info.get("spells", []))), "items": sorted(info.get("items", [])),
                             "limits": dict(info.get("limits") or {})}
    begun = before.get("last", {}).get("begun", {})  # what the game showed when it opened the turn
    placed = before.get("last", {}).get("natives_placed")
    events = [*([placed] if placed is not None else []), *begun.get("events", []), *last.get("events", [])]
    out.update({
        "abilities": abilities, "might_allocation": might, "orders": _orders(data, p, after), "battles": battles,
        "armies": sorted(({"faction": a["faction"], "province": a["province"], "strength": a["strength"]}
                          for a in after["armies"]), key=lambda a: (a["faction"], a["province"])),
        "natives": {q: n for q, n in after.get("natives", {}).items() if n > 0},
        "provinces": {q: {"owner": after["owners"].get(q), "buildings": len(buildings.get(q, [])),
                          "building_list": list(buildings.get(q, []))} for q in provinces},
        "bosses": {q: {"health": b["health"]} for q, b in after.get("bosses", {}).items()},
        "factions": factions_out, "rewards": list(last.get("rewards", [])), "events": events,
        "protected_next": dict(after.get("protected", {})), "stolen_next": list(after.get("stolen", [])),
        "spells": _spells(data, p, after), "revealed": {**begun.get("revealed", {}), **last.get("revealed", {})},
        # the turn's own, before the next one began (game_turn.begin_turn)
        "active_events": list(last.get("active_events", [])), "quests": dict(last.get("quests", {})),
    })
    return out


def mismatches(p: Plan, checked: Mapping[str, Mapping[tuple[str, int], bool]],
               after: TitaniaState) -> list[str]:
    """The rows whose verdict at `check` (`checked`: faction -> (tab, row) -> OK) differs from the turn's: OK at
    check but refused at the turn as an invalid order, or refused at check but carried to the turn."""
    out = []
    rows = after.get("last", {}).get("rows", {})
    for faction, tabs in p.books.items():
        for tab, typed in tabs.items():
            for n in range(2, len(typed) + 2):
                ok = checked.get(faction, {}).get((tab, n))
                got = rows.get(faction, {}).get(f"{tab}:{n}")
                # refused: by the books' reading, or by the adjudicator for the faction's own reasons (another
                # faction or a battle may defeat a row check accepted: reasons.EXTERNAL_CAUSES; a blind aim too)
                refused = got is None or "code" in got or (
                    got.get("outcome") == "void" and got.get("reason") not in EXTERNAL_CAUSES
                    and not got.get(BLIND))
                if ok is not None and ok == refused:
                    said = "приняла" if ok else "отклонила"
                    did = "отклонил как неверный приказ" if refused else "выполнил"
                    out.append(f"{faction}, вкладка {tab}, строка {n}: проверка {said} строку, а ход её {did}.")
    return out
