"""One Titania turn of a game: the adjudicator's input built from the game state and the books' orders, the
adjudicator called, and its output folded back into the next state, journal, chronicle and row statuses.
One file: the input built and the output folded back are two halves of one mapping between the game
state and the adjudicator's schema.

The game state keeps what SCHEMA §1 needs from turn to turn (map with revealed deposits, factions and
Keepers, owners, buildings, armies, natives, Bosses, caravans in transit, the Wild-raid and stolen queues);
everything random comes from streams of the stage seed (engine.rng).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from engine.errors import OrderError
from engine.rng import derive_seed, stream
from engine.ruleset import GM_BOOK, ParsedOrders, RowStatus, StageResult
from engine.russian import agree
from engine.titania import corrections, diplomacy, ledger, opening
from engine.titania.adjudicate import adjudicate, open_turn
from engine.titania.data import catalog_input, content_of
from engine.titania.names import BUILDING_NAMES, DEPOSIT_NAMES, RESOURCE_NAMES, who_of, who_of_all
from engine.titania.params import Params, default_params, override
from engine.titania.reasons import DEFEATED_BY, EXTERNAL_CAUSES, OUTCOMES, explain
from engine.titania.report import render
from engine.titania.report_extras import event_name, quest_text, task_text
from engine.titania.rulebook import see
from engine.titania.setup import RESOURCE_KEYS, neighbours
from engine.titania.situation import SCHEMA_V2
from engine.titania.state_types import Army, Arrival, BattleRecord, Boss, TitaniaState, balance, copy_of, plain
from engine.titania.tabs import BLIND, CAMPAIGN, MIGHT, PLANNING
from engine.titania.verdicts import keeper_verdicts, row_verdicts
from engine.titania.victory import check_victory
from engine.titania.world import produces

RESULT_RU = {"attacker": "победа нападающих", "defender": "оборона устояла", "draw": "ничья"}


def params_of(state: TitaniaState) -> Params:
    return override(default_params(), state.get("params") or None, [])


def playing(state: TitaniaState) -> list[str]:
    return [f for f, rec in state["factions"].items() if not rec.get("eliminated")]


def _armies(state: TitaniaState) -> list[dict[str, Any]]:
    provinces = state["map"]["provinces"]
    out = []
    for a in state["armies"]:
        p = a["province"]
        port = state["owners"].get(p) == a["faction"] and "port" in state["buildings"].get(p, [])
        out.append({"faction": a["faction"], "province": p, "strength": a["strength"],
                    "naval": bool(provinces[p]["sea"]) or port})
    return out


def keeper_orders(state: TitaniaState) -> list[dict[str, Any]]:
    """10.4.4: Keepers only recapture their own provinces, with an adjacent army of Strength 2 or more;
    «В бою Хранители используют подмогу»: every other Keeper army stands ready to support a neighbouring
    province of its own."""
    nb = neighbours(state)
    orders: list[dict[str, Any]] = []
    armies_of: dict[str, list[Army]] = {}  # each Keeper's armies, in the state's order
    for a in state["armies"]:
        if a["faction"] in state["keepers"]:
            armies_of.setdefault(a["faction"], []).append(a)
    for kid, k in sorted(state["keepers"].items()):
        used: set[str] = set()
        mine = armies_of.get(kid, [])
        held = {a["province"] for a in mine}
        for a in mine:
            guard = next((p for p in k["home"] if p in nb[a["province"]] and state["owners"].get(p) == kid
                          and p in held), None)
            if guard is not None:
                used.add(a["province"])
                orders.append({"faction": kid, "army": a["province"], "type": "support", "target": guard,
                               "support_faction": kid})
        for home in k["home"]:
            if state["owners"].get(home) == kid:
                continue
            for a in mine:
                if a["province"] in nb[home] and a["province"] not in used and a["strength"] >= 2:
                    used.add(a["province"])
                    orders.append({"faction": kid, "army": a["province"], "type": "move", "target": home, "seq": 1})
                    break
    return orders


def _keeper_reinforce(state: TitaniaState, params: Params, seed: int | str) -> dict[str, dict[str, int]]:
    """G43 a: a Keeper at war replenishes or hires 1-4 in each of its provinces every turn."""
    out: dict[str, dict[str, int]] = {}
    lo, hi = params.keeper_reinforce
    for kid, k in sorted(state["keepers"].items()):
        if not k.get("at_war"):
            continue
        for p in k["home"]:
            if state["owners"].get(p) == kid:
                out.setdefault(kid, {})[p] = stream(seed, "titania", "keeper", kid, p, state["turn"]).randint(lo, hi)
    return out


def order_keys(state: TitaniaState, orders: Mapping[str, ParsedOrders]
               ) -> tuple[dict[str, Any], list[tuple[str, str, list[int]]], list[tuple[str, str, list[int]]]]:
    """The books' orders as the input's keys take them (`planning_orders`: the Planning orders, `orders`: the
    Campaign orders without the Keepers' standing ones, `might_allocation`, `abilities`, `spells`), and which
    faction's rows each planning / campaign order came from."""
    keys = empty_keys()
    planning_rows: list[tuple[str, str, list[int]]] = []
    campaign_rows: list[tuple[str, str, list[int]]] = []
    for fid in playing(state):
        parsed = orders.get(fid)
        if parsed is not None:
            add_keys(keys, fid, parsed.orders, planning_rows, campaign_rows)
    return keys, planning_rows, campaign_rows


def empty_keys() -> dict[str, Any]:
    return {"planning_orders": [], "orders": [], "might_allocation": {}, "abilities": {}, "spells": {}}


def add_keys(keys: dict[str, Any], fid: str, items: Iterable[Mapping[str, Any]],
             planning_rows: list[tuple[str, str, list[int]]] | None = None,
             campaign_rows: list[tuple[str, str, list[int]]] | None = None) -> None:
    """One faction's order items (validate's `orders`) added to the input's keys (`order_keys`), and the rows
    each planning / campaign order came from to those lists."""
    for item in items:
        kind = item.get("kind")
        if kind == "planning":
            keys["planning_orders"].append(item["order"])
            if planning_rows is not None:
                planning_rows.append((fid, PLANNING, list(item["rows"])))
        elif kind == "campaign":
            keys["orders"].append(item["order"])
            if campaign_rows is not None:
                campaign_rows.append((fid, CAMPAIGN, list(item["rows"])))
        elif kind == "might":
            keys["might_allocation"][fid] = item["allocation"]
        elif kind == "ability":
            keys["abilities"][fid] = _unmarked(item["spec"])
        elif kind == "spell":
            keys["spells"].setdefault(fid, []).append(_unmarked(item["cast"]))


def _unmarked(order: Mapping[str, Any]) -> Mapping[str, Any]:
    """A cast or ability as the adjudicator takes it: without the books' mark of a target out of sight."""
    return order if BLIND not in order else {k: v for k, v in order.items() if k != BLIND}


def situation(state: TitaniaState, orders: Mapping[str, ParsedOrders], seed: int | str
              ) -> tuple[dict[str, Any], list[tuple[str, str, list[int]]], list[tuple[str, str, list[int]]]]:
    """The titania.adjudicate.v2 input, with the game's own content as its `catalog` (engine.titania.data: the
    same form a conformance case brings), and which faction's rows each planning / campaign order came from."""
    provinces = state["map"]["provinces"]
    players = playing(state)
    factions: list[dict[str, Any]] = []
    for fid in players:
        f = state["factions"][fid]
        factions.append({"id": fid, "name": f["name"], "race": f["race"], "kind": "player",
                         "allies": [a for a in f.get("allies", []) if a in players],
                         "at_war": [a for a in f.get("at_war", []) if a in players or a in state["keepers"]],
                         "resources": {r: int(balance(f, r)) for r in RESOURCE_KEYS},
                         **({"limits": dict(f["base_limits"])} if f.get("base_limits") else {})})
    for kid, k in sorted(state["keepers"].items()):
        factions.append({"id": kid, "name": k["name"], "race": k["race"], "kind": "keeper",
                         **({"resources": dict(k["resources"])} if k.get("resources") else {}),
                         **({"limits": dict(k["base_limits"])} if k.get("base_limits") else {})})
    order = {f: i for i, f in enumerate(state.get("faction_order") or ())}  # a situation's own order of factions
    factions.sort(key=lambda f: order.get(f["id"], len(order)))
    keys, planning_rows, campaign_rows = order_keys(state, orders)
    campaign = keys["orders"] + keeper_orders(state)
    keepers = sorted(state["keepers"])
    content: Mapping[str, Any] = state.get("content") or {}
    data = {
        "schema": content.get("schema", SCHEMA_V2),
        "catalog": catalog_input(state),
        "params": dict(state.get("params") or {}),
        "map": {"provinces": [{"id": p, "name": info["name"], "sea": info["sea"], "island": info["island"],
                               "shrine": info["shrine"], "capital": info["capital"],
                               **({"market": True} if info.get("market") else {}),
                               **({} if info["sea"] else {"deposits": list(info["deposits"] or []),
                                                          "hidden": info["deposits"] is None})}
                              for p, info in sorted(provinces.items())],
                "adjacency": [list(pair) for pair in state["map"]["adjacency"]]},
        "factions": factions,
        "state": {"owners": {p: o for p, o in state["owners"].items() if o is not None},
                  "buildings": {p: list(b) for p, b in state["buildings"].items() if b},
                  "armies": _armies(state), "natives": dict(state["natives"]), "bosses": dict(state["bosses"]),
                  "protected": dict(state["protected"]), "keeper_trigger_used": list(state["keeper_trigger_used"]),
                  "turn": int(state["turn"]),
                  "technologies": {**{f: list(state["factions"][f].get("techs", [])) for f in players},
                                   **{k: list(state["keepers"][k].get("techs", [])) for k in keepers}},
                  "spells": {f: list(state["factions"][f].get("spells", [])) for f in players},
                  "items": {f: list(state["factions"][f].get("items", [])) for f in players},
                  "events": list(state.get("active_events", [])), "quests": dict(state.get("quests", {})),
                  **({"turn_begun": True} if state.get("turn_begun") == state["turn"] else {})},
        "planning": {"production": True, "arrivals": list(state["in_transit"]),
                     "keeper_reinforce": _keeper_reinforce(state, params_of(state), seed),
                     "stolen": list(state["stolen"]), "orders": keys["planning_orders"]},
        "might_allocation": keys["might_allocation"], "abilities": keys["abilities"], "orders": campaign,
        "spells": keys["spells"],
    }
    opening.shape(state, data)  # a game from a situation: its own turn as the file fixed it
    return data, planning_rows, campaign_rows


DEFEATED = "не удался из-за других фракций или боя"
BLIND_MISSED = (f"{DEFEATED}: войска, в которое вы метили в провинции, которую не видели, там не оказалось; "
                "ничего не оплачено")


def _verdict(item: Mapping[str, Any], fallen: bool = False) -> tuple[bool, str]:
    """(is it void, Russian text) of an adjudicated order; `fallen`: its army did not survive its Boss fight."""
    outcome = str(item.get("outcome"))
    return outcome == "void", f"{OUTCOMES.get(outcome, outcome)}: {explain(item.get('reason'), fallen)}"


def _status(tab: str, row: int, item: Mapping[str, Any], extra: str = "", fallen: bool = False) -> RowStatus:
    """A row's final status. `check` already turned every void the faction causes itself into a row error
    (engine.titania.forecast), so a void here has a cause in reasons.EXTERNAL_CAUSES, which the status names."""
    void, text = _verdict(item, fallen)
    reason = item.get("reason")
    if reason in ("no_battle", "empty_province"):  # a standing support offer nobody needed: not a mistake
        return RowStatus(tab, row, note=f"подмога не понадобилась: {explain(reason)}")
    if void and reason in EXTERNAL_CAUSES and (tab != PLANNING or reason == "no_event"):
        # carried out and then beaten by others: an outcome, not a refused order (issue 38 §2)
        return RowStatus(tab, row, note=f"{DEFEATED}: {DEFEATED_BY[str(reason)]} — {explain(reason)}")
    if void:
        return RowStatus(tab, row, (OrderError("T_REJECTED", {"reason": explain(reason)}),))
    return RowStatus(tab, row, note=text + extra)


def _blind(tab: str, row: int, item: Mapping[str, Any], order: Mapping[str, Any]) -> RowStatus | None:
    """A cast or ability aimed at a province its faction could not see that found no army there: another faction
    decided it, as a battle does (engine.titania.might_rows BLIND); None for any other verdict."""
    target = order.get("target") if isinstance(order.get("target"), dict) else None
    if not order.get(BLIND) or target is None or item.get("outcome") != "void" or item.get("reason") != "bad_target":
        return None
    return RowStatus(tab, row, note=BLIND_MISSED)


def _statuses(out: Mapping[str, Any], orders: Mapping[str, ParsedOrders],
              planning_rows: list[tuple[str, str, list[int]]], campaign_rows: list[tuple[str, str, list[int]]],
              fallen: frozenset[tuple[int, int | None]] = frozenset()) -> dict[str, list[RowStatus]]:
    result: dict[str, list[RowStatus]] = {f: [] for f in orders}
    for item in out.get("planning", {}).get("orders", []):
        i = item["index"]
        if i < len(planning_rows):
            fid, tab, rows = planning_rows[i]
            extra = ""
            if item.get("raided"):
                extra = f"; на караван напали, потеряна 1 ед. ({RESOURCE_NAMES.get(item.get('lost') or '', '')})"
            result[fid] += [_status(tab, r, item, extra) for r in rows]
    for item in out.get("orders", []):
        i = item["index"]
        if i < len(campaign_rows):
            fid, tab, rows = campaign_rows[i]
            parts = item.get("parts")
            if parts and len(parts) >= len(rows):
                result[fid] += [_status(tab, r, p, fallen=(i, k) in fallen)
                                for k, (r, p) in enumerate(zip(rows, parts, strict=False))]
            else:
                result[fid] += [_status(tab, r, item, fallen=(i, None) in fallen) for r in rows]
    for fid, parsed in orders.items():
        cast = [item for item in parsed.orders if item.get("kind") == "spell"]
        for item, got in zip(cast, out.get("spells", {}).get(fid, []), strict=False):
            result.setdefault(fid, []).extend(_blind(MIGHT, r, got, item["cast"]) or _status(MIGHT, r, got)
                                              for r in item["rows"])
        for item in parsed.orders:
            if item.get("kind") == "might" and fid in out.get("might_allocation", {}):
                result.setdefault(fid, []).extend(_status(MIGHT, r, out["might_allocation"][fid])
                                                  for r in item["rows"])
            if item.get("kind") == "ability" and fid in out.get("abilities", {}):
                got = out["abilities"][fid]
                fired = "; сработала" if got.get("fired") else ""
                result.setdefault(fid, []).extend(_blind(MIGHT, r, got, item["spec"]) or _status(MIGHT, r, got, fired)
                                                  for r in item["rows"])
    return result


def _production(state: TitaniaState, fid: str, params: Params) -> dict[str, int]:
    """P5.1: what the faction's provinces yield at the start of Planning (for the ledger)."""
    out = {r: 0 for r in RESOURCE_KEYS}
    for p, owner in state["owners"].items():
        if owner != fid:
            continue
        info = state["map"]["provinces"][p]
        out["influence"] += params.capital_influence if info["capital"] else params.province_influence
        for b in state["buildings"].get(p, []):
            for res, n in produces(content_of(state), params, b).items():
                if res in out:
                    out[res] += n
    return out


def _money(new: TitaniaState, old: TitaniaState, out: Mapping[str, Any], params: Params,
           produced: bool = True, arrived_now: bool = True) -> None:
    """The ledger of the turn: production (`produced`: the turn produced), caravans received (`arrived_now`: the
    turn had a Planning), rewards and plunder, the rest as spending."""
    for fid, info in out["factions"].items():
        if fid not in new["factions"]:
            continue
        after = info["resources"]
        expected = {r: 0 for r in RESOURCE_KEYS}
        lines: list[tuple[str, dict[str, int]]] = [(f"производство провинций ({see('P5.1')})",
                                                     _production(old, fid, params) if produced else {})]
        arrived = {r: 0 for r in RESOURCE_KEYS}
        for item in old["in_transit"] if arrived_now else ():
            if item["to"] == fid:
                for r, n in item["resources"].items():
                    arrived[r] = arrived.get(r, 0) + n
        lines.append((f"прибыли караваны ({see('P2.1')})", arrived))
        rewards = {r: 0 for r in RESOURCE_KEYS}
        for rw in out["rewards"]:
            if rw.get("faction") == fid:
                for r in ("gold", "wood"):
                    rewards[r] += int(rw.get(r, 0))
        lines.append(("награды за Босса и задания Хранителей", rewards))
        plunder = {r: 0 for r in RESOURCE_KEYS}
        for ev in out["events"]:
            if ev.get("kind") == "plunder" and ev.get("faction") == fid:
                plunder[ev["resource"]] += int(ev["amount"])
        lines.append(("Грабёж (орки)", plunder))
        for reason, amounts in lines:
            for r, n in amounts.items():
                if n:
                    ledger.change(new, fid, r, n, reason)
                    expected[r] += n
        for r in RESOURCE_KEYS:
            rest = int(after.get(r, 0)) - int(balance(old["factions"][fid], r)) - expected[r]
            ledger.change(new, fid, r, rest, "сгорело в конце хода" if r == "influence" else
                          "потрачено: постройки, найм, караваны, пошлины")


def _chronicle(new: TitaniaState, out: Mapping[str, Any], turn: int, fallen: frozenset[int] = frozenset()) -> None:
    """The turn's battles, events, quests and rewards for everyone; each battle record kept in the state, a Boss
    fight whose attacking army the Boss destroyed with `attacker_fallen` (the forum posts tell it). A loss is never
    told above the army's Strength (the record keeps the damage dealt: engine.titania.losses)."""
    provinces = new["map"]["provinces"]

    def faction(fid: str) -> str:  # a player faction as a sentence's subject
        return f"Фракция «{new['factions'][fid]['name']}»" if fid in new["factions"] else who(fid)

    def who(fid: str) -> str:
        if fid == "natives":
            return "туземцы"
        if fid in new["factions"]:
            return str(new["factions"][fid]["name"])
        keeper = new["keepers"].get(fid)
        return f"Хранители «{keeper['name']}»" if keeper else fid

    for b in out["battles"]:
        place = provinces[b["province"]]["name"]
        a = b["attacker"]
        if b["kind"] == "boss":
            d = b["damage"]
            text = (f"Войско {who_of(new, a['faction'])} (сила {a['strength']}) напало на Босса в провинции "
                    f"«{place}»: урон Боссу {d['to_boss']}, потери {min(d['to_attacker'], a['strength'])}; "
                    + ("Босс повержен" if b["result"] == "attacker" else "Босс жив")
                    + (", войско погибло." if b["n"] in fallen else "."))
        else:
            d = b["defender"]
            owner = b.get("owner_after")
            text = (f"Бой в провинции «{place}»: {who(a['faction'])} ({a['total']}) против "
                    f"{who_of_all(new, list(d['factions']))} ({d['total']}) — {RESULT_RU[b['result']]}")
            if b["result"] == "attacker":
                text += f"; провинция теперь {'ничья' if owner is None else 'у ' + who_of(new, owner)}"
            if b.get("buildings_lost"):
                text += f"; разрушено построек: {b['buildings_lost']}"
            text += "."
        ledger.chronicle(new, "Бой", text, turn=turn)
        b = {**b, "turn": turn, **({"attacker_fallen": True} if b["n"] in fallen else {})}
        new["battles"].append(cast(BattleRecord, b))  # the adjudicator's record (SCHEMA §2) and its turn
    event_ru = {"event_solved": "задача решена сообща", "event_won": "победитель определён",
                "event_failed": "задача не решена — дебаф", "event_ended": "событие завершилось"}
    catalog = content_of(new)
    for ev in out["events"]:
        kind = ev.get("kind")
        name = event_name(catalog, ev.get("event"))
        if kind == "event_started":
            ledger.chronicle(new, "Событие", f"Событие «{name}»: {task_text(catalog, ev.get('event'))}", turn=turn)
        elif kind in event_ru:
            winner = f" ({who(ev['faction'])})" if ev.get("faction") else ""
            ledger.chronicle(new, "Событие", f"Событие «{name}»: {event_ru[kind]}{winner}.", turn=turn)
        elif kind == "quest_issued":
            quest = out.get("quests", {}).get(ev["keeper"], {})
            text = quest_text(catalog, quest, lambda p: f"«{provinces[str(p)]['name']}»" if p in provinces else "?")
            ledger.chronicle(new, "Задание", f"{who(ev['keeper'])} дают задание: {text}.", turn=turn)
        elif kind == "quest_done":
            ledger.chronicle(new, "Задание", f"{faction(ev['faction'])} выполнила задание "
                                             f"{who_of(new, ev['keeper'])}.", turn=turn)
        elif kind == "keeper_trigger":
            ledger.chronicle(new, "Хранители", f"{who(ev['keeper'])} усиливают войско в провинции "
                                               f"«{provinces[ev['province']]['name']}» на {ev['amount']}.", turn=turn)
    for rw in out["rewards"]:
        got = f"{agree(rw.get('gold', 0), 'золото')} и {agree(rw.get('wood', 0), 'дерево')}"
        if rw.get("kind") == "quest":
            ledger.chronicle(new, "Награда", f"{faction(rw['faction'])} получила за задание "
                                             f"{who_of(new, rw['keeper'])} {got}.", turn=turn)
        else:
            ledger.chronicle(new, "Награда", f"{faction(rw['faction'])} повергла Босса в провинции "
                                             f"«{provinces[rw['province']]['name']}» и получила {got}.", turn=turn)


def _journal(new: TitaniaState, out: Mapping[str, Any], turn: int,
             fallen: frozenset[tuple[int, int | None]] = frozenset()) -> None:
    provinces = new["map"]["provinces"]
    for item in out.get("planning", {}).get("orders", []):
        fid = item.get("faction")
        if fid in new["factions"]:
            kind = {"build": "постройка", "hire": "найм", "skaven_free": "Нашествие крыс", "caravan": "караван"}
            ledger.note(new, fid, f"Ход {turn}, Планирование, {kind.get(item.get('kind'), 'приказ')}: "
                                  f"{_verdict(item)[1]}.")
    for item in out.get("orders", []):
        fid = item.get("faction")
        if fid in new["factions"]:
            where = provinces[item["army"]]["name"] if item.get("army") in provinces else "?"
            target = provinces[item["target"]]["name"] if item.get("target") in provinces else None
            aim = f" → «{target}»" if target else ""
            verdict = _verdict(item, (item["index"], None) in fallen)[1]
            ledger.note(new, fid, f"Ход {turn}, Поход: войско из провинции «{where}»{aim} — {verdict}.")
    for fid, got in out.get("abilities", {}).items():
        if fid in new["factions"]:
            fired = ", сработала" if got.get("fired") else ""
            ledger.note(new, fid, f"Ход {turn}, расовая способность: {_verdict(got)[1]}{fired}.")
    for ev in out["events"]:
        if ev.get("kind") == "building_lost":
            owner = new["owners"].get(ev["province"])
            for fid in {owner} & set(new["factions"]):
                ledger.note(new, str(fid), f"Ход {turn}: в провинции «{provinces[ev['province']]['name']}» разрушено: "
                                      f"{BUILDING_NAMES.get(ev['building'], ev['building'])}.")


def _wars(new: TitaniaState, old: TitaniaState, out: Mapping[str, Any]) -> None:
    """G46 a: an attack is a declaration of war, and so is a damage or stop spell on another faction's army (T4-6);
    a Keeper attacked is at war (G43 a: its reinforcements start)."""
    pairs: set[tuple[str, str]] = set()
    for b in out["battles"]:
        att = b["attacker"]["faction"]
        for d in b.get("defender", {}).get("factions", []):
            pairs.add((att, d))
    for item in out.get("orders", []):
        if item.get("reason") == "captured":
            prev = old["owners"].get(item.get("target"))
            if prev is not None:
                pairs.add((str(item.get("faction")), prev))
    for ev in out.get("events", []):  # T4-6: a damage or stop spell on another faction's army is a hostile act
        if ev.get("kind") == "hostile_spell":
            pairs.add((str(ev.get("faction")), str(ev.get("target"))))
    for a, d in pairs:
        for x, y in ((a, d), (d, a)):
            if x in new["factions"] and y in new["factions"] and x != y:
                new["factions"][x]["at_war"] = sorted({*new["factions"][x].get("at_war", []), y})
            if x in new["keepers"] and y in new["factions"]:
                new["keepers"][x]["at_war"] = True


def _in_transit(data: Mapping[str, Any], out: Mapping[str, Any]) -> list[Arrival]:
    """Caravans sent this turn, for next turn's `planning.arrivals` (SCHEMA_V2 §6: with the sender and the
    items, which leave the sender when sent)."""
    sent = data.get("planning", {}).get("orders", [])
    arrivals: list[Arrival] = []
    for item in out.get("planning", {}).get("orders", []):
        if item.get("reason") != "sent":
            continue
        order = sent[item["index"]]
        for to, goods in (item.get("in_transit") or {}).items():
            items = list(order.get("items", [])) if to == order.get("to") else []
            if goods or items:
                arrival: Arrival = {"to": to, "from": order["faction"], "resources": dict(goods)}
                if items:
                    arrival["items"] = items
                arrivals.append(arrival)
    return arrivals


def resolve(state: TitaniaState, orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
    """Close the turn's one stage (pure: `state` is not changed). The GM's corrections (engine.titania.corrections)
    apply first, to the state the turn starts from."""
    gm = orders.get(GM_BOOK)
    gm_statuses: list[RowStatus] = []
    gm_notes: list[tuple[str, str]] = []
    if gm is not None and gm.orders:
        state = copy_of(state)
        gm_statuses, gm_notes = corrections.apply(state, gm.orders)
    talks: dict[str, list[RowStatus]] = {}
    if any(item.get("kind") == "diplomacy" for p in orders.values() for item in p.orders):
        state = copy_of(state)
        talks, told = diplomacy.apply(state, {f: o for f, o in orders.items() if f != GM_BOOK})  # the negotiations
        gm_notes = [*gm_notes, *told]
    new = copy_of(state)
    turn = int(state["turn"])
    turn_seed = opening.seed(state, derive_seed(seed, "titania", turn))
    params = params_of(state)
    data, planning_rows, campaign_rows = situation(state, orders, turn_seed)
    adj = adjudicate(data, turn_seed)
    if adj.output is None:  # a state the adjudicator refuses: nothing changes, the GM is told
        for problem in adj.problems:
            ledger.chronicle(new, "Ошибка", f"Ход не рассчитан: {problem}", turn=turn)
        return StageResult(plain(new), {})
    out = adj.output
    new["owners"] = {p: info["owner"] for p, info in out["provinces"].items() if info["owner"] is not None}
    new["buildings"] = {p: list(info["building_list"]) for p, info in out["provinces"].items() if info["building_list"]}
    provinces = new["map"]["provinces"]
    new["armies"] = [{"faction": a["faction"], "province": a["province"], "strength": a["strength"],
                      "naval": bool(provinces[a["province"]]["sea"])} for a in out["armies"]]
    new["natives"] = dict(out["natives"])
    new["bosses"] = {p: cast(Boss, dict(b)) for p, b in out["bosses"].items()}
    new["protected"] = dict(out["protected_next"])
    new["stolen"] = list(out["stolen_next"])
    new["keeper_trigger_used"] = sorted({*state["keeper_trigger_used"],
                                         *(e["keeper"] for e in out["events"] if e.get("kind") == "keeper_trigger")})
    new["in_transit"] = _in_transit(data, out) if "planning" in data else list(state["in_transit"])
    for p, found in (out.get("revealed") or {}).items():
        provinces[p].update({"deposits": list(found["deposits"]), "shrine": bool(found["shrine"])})
    new["active_events"] = list(out.get("active_events", []))
    new["quests"] = dict(out.get("quests", {}))
    for fid, info in out["factions"].items():
        if fid in new["factions"]:
            rec = new["factions"][fid]
            rec.update({"techs": list(info.get("technologies", [])), "spells": list(info.get("spells", [])),
                        "items": list(info.get("items", [])), "limits": dict(info.get("limits", {}))})
        elif fid in new["keepers"]:  # a Keeper's purse (a caravan's cargo stays with it), technologies, limits
            keeper = new["keepers"][fid]
            purse = any(info.get("resources", {}).values()) or keeper.get("resources")
            keeper.update({"techs": list(info.get("technologies", [])), "limits": dict(info.get("limits", {})),
                           "items": list(info.get("items", []))})  # quest items handed in stay with it
            if purse:
                keeper["resources"] = dict(info["resources"])
    new.pop("opening", None)
    _money(new, state, out, params, produced=bool(data.get("planning", {}).get("production")),
           arrived_now="planning" in data)
    for fid, info in out["factions"].items():
        if fid in new["factions"]:
            new["factions"][fid]["might"] = info["might_next"]
    new["last"] = {"turn": turn, "turn_order": out["turn_order"], "might": out["might"],
                   "abilities": out["abilities"], "rewards": out["rewards"], "events": out["events"],
                   "food": {f: i["food"] for f, i in out["factions"].items()},
                   "squads": {f: i["squads"] for f, i in out["factions"].items()}}
    new["log"] = []
    for fid, text in gm_notes:
        ledger.note(new, fid, text)
    _chronicle(new, out, turn, adj.fallen)
    _journal(new, out, turn, adj.fallen_orders)
    _wars(new, state, out)
    _reveal_notes(new, out.get("revealed") or {}, turn)
    for fid, rec in new["factions"].items():
        alive = any(o == fid for o in new["owners"].values()) or any(a["faction"] == fid for a in new["armies"])
        if not alive and not rec.get("eliminated"):
            rec["eliminated"] = True
            ledger.chronicle(new, "Выбывание", f"Фракция «{rec['name']}» теряет все провинции и войска и выбывает.",
                             turn=turn)
    new["turn"] = turn + 1
    check_victory(new, turn)
    books = {f: o for f, o in orders.items() if f != GM_BOOK}
    statuses = _statuses(out, books, planning_rows, campaign_rows, adj.fallen_orders)
    # what became of each row, in the adjudicator's words (engine.titania.verdicts), and the rest of its outcome
    new["last"].update({"rows": row_verdicts(out, books, planning_rows, campaign_rows),
                        "keeper_orders": keeper_verdicts(out.get("orders", []), len(campaign_rows)),
                        "keeper_planning": keeper_verdicts(out.get("planning", {}).get("orders", []),
                                                           len(planning_rows)),
                        "revealed": dict(out.get("revealed") or {}), "spells": dict(out.get("spells") or {}),
                        "quests": dict(out.get("quests") or {}),
                        "active_events": list(out.get("active_events") or []),
                        "might_allocation": dict(out.get("might_allocation") or {})})
    if "planning" in out:
        new["last"]["planning"] = {k: out["planning"][k] for k in ("resources", "food")}
    for fid, more in talks.items():
        statuses.setdefault(fid, []).extend(more)
    if new["stage"] != "finished":
        begin_turn(new, derive_seed(turn_seed, "titania", "begin", turn + 1))
    if gm is not None:
        statuses[GM_BOOK] = gm_statuses
    return StageResult(plain(new), {f: tuple(s) for f, s in statuses.items()},
                       reports={"adjudication": render(adj, turn_seed)})


def _reveal_notes(new: TitaniaState, revealed: Mapping[str, Any], turn: int) -> None:
    """The journal of each faction whose army stands in or next to a province revealed (G88)."""
    provinces = new["map"]["provinces"]
    nb = neighbours(new)
    for p in revealed:
        info = provinces[p]
        found = ", ".join([DEPOSIT_NAMES.get(d, d) for d in info["deposits"] or []]
                          + (["Святилище Древних"] if info["shrine"] else []))
        for fid in sorted({a["faction"] for a in new["armies"] if a["faction"] in new["factions"]
                           and (a["province"] == p or p in nb[a["province"]])}):
            ledger.note(new, fid, f"Ход {turn}: разведана провинция «{info['name']}»: {found}.")


def begin_turn(state: TitaniaState, seed: int | str) -> None:
    """Open the state's turn as the book has it begin, before any order (engine.titania.adjudicate.open_turn):
    resources revealed next to the armies, events that end or start (their task shown before the turn's Planning,
    which may already work on it), the Keepers' quests issued; into the map, the events, the quests, the chronicle
    and the journals (`last["begun"]` keeps what happened). The turn then does not begin them again
    (`state.turn_begun`)."""
    data, _, _ = situation(state, {}, seed)
    opened = open_turn(data, seed)
    if opened is None:  # a state the adjudicator refuses: its turn says so
        return
    turn = int(state["turn"])
    provinces = state["map"]["provinces"]
    for p, found in opened["revealed"].items():
        provinces[p].update({"deposits": list(found["deposits"]), "shrine": bool(found["shrine"])})
    state["active_events"] = list(opened["active_events"])
    state["quests"] = dict(opened["quests"])
    state["turn_begun"] = turn
    state.setdefault("last", {})["begun"] = {"events": list(opened["events"]), "revealed": dict(opened["revealed"])}
    _chronicle(state, {"battles": [], "events": opened["events"], "rewards": [], "quests": opened["quests"]}, turn)
    _reveal_notes(state, opened["revealed"], turn)
