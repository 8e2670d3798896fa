"""Keeper quests, items and the Market (SCHEMA_V2 §6): «Каждый Хранитель выдаёт 1 случайный квест: или передать
определённое количество камня или маны или победить босса и передать предмет, которым он владеет или найти в
определённой провинции предмет и передать — используя Рынок по обычным правилам передачи ресурсов. Первая
фракция, успешно выполнившая задание получит в награду случайное заклинание (кроме уже изученных) или случайную
технологию (кроме уже изученных), а так же 1-10 золото и 1-10 дерева.»

A record (state.quests / quests): {"id", "kind", "resource"?, "amount"?, "item"?, "province"?, "item_holder"?,
"progress": {faction: n}, "done_by": faction|null}.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.research import grant_knowledge
from engine.titania.world import World


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _fixed(w: World, key: str, keeper: str) -> dict[str, Any]:
    table = w.sit.dice.get(key, {})
    got = table.get(keeper) if isinstance(table, dict) else None
    return got if isinstance(got, dict) else {}


def issue(w: World) -> None:
    """Start of the turn (only with `state.turn`): a Keeper with no record draws one, once per game
    (`dice.quest` fixes it). A `boss_item` quest takes a Boss province, a `find_item` one a land province."""
    quests = w.catalog.quests
    if w.turn is None or not quests:
        return
    bosses = sorted(w.bosses)
    land_all = sorted(p for p, info in w.map.provinces.items() if not info.sea and p not in w.bosses)
    for spec in w.sit.factions:
        k = spec.id
        if not spec.is_keeper or k in w.quests:
            continue
        fixed = _fixed(w, "quest", k)
        rng = w.rng("quest", k)
        # the pools: the Keeper itself, the Boss provinces, the land provinces not its own and without a Boss
        # (that one listed only when it is drawn from)
        some = {"deliver": True, "boss_item": bool(bosses), "find_item": any(w.owners.get(p) != k for p in land_all)}
        usable = sorted(q for q, d in quests.items() if some[d.kind])
        if not usable:
            continue
        qid = str(fixed["quest"]) if fixed.get("quest") in usable else rng.choice(usable)
        d = quests[qid]
        q: dict[str, Any] = {"id": qid, "kind": d.kind}
        if d.kind == "deliver":
            lo, hi = d.amount
            q.update(resource=d.resource,
                     amount=fixed["amount"] if _int(fixed.get("amount")) else rng.randint(lo, hi))
        elif fixed.get("province") in w.map.provinces:  # dice.quest may fix any province of the map
            q.update(item=d.item, item_holder=None, province=fixed["province"])
        else:
            pool = bosses if d.kind == "boss_item" else [p for p in land_all if w.owners.get(p) != k]
            q.update(item=d.item, item_holder=None, province=rng.choice(pool))
        q.update(progress={}, done_by=None)
        w.quests[k] = q
        w.events.append({"kind": "quest_issued", "keeper": k, "quest": qid})


def _give_item(w: World, faction: str, q: dict[str, Any]) -> None:
    """Default G87: the faction receives the quest's item (event item_found)."""
    q["item_holder"] = faction
    w.items[faction].append(str(q["item"]))
    w.events.append({"kind": "item_found", "faction": faction, "item": q["item"], "province": q.get("province")})


def _open_item(q: Mapping[str, Any], kind: str) -> bool:
    return q.get("kind") == kind and q.get("item_holder") is None and q.get("done_by") is None


def boss_killed(w: World, faction: str, province: str) -> None:
    """«победить босса и передать предмет, которым он владеет»: the killer receives the Boss's item."""
    if w.factions[faction].is_keeper:
        return
    for q in w.quests.values():
        if _open_item(q, "boss_item") and q.get("province") == province:
            _give_item(w, faction, q)


def find_items(w: World, mover: str | None = None) -> None:
    """«найти в определённой провинции предмет»: the first player army to stand in the quest province receives
    it (G87): at the start of the Campaign in turn order, then after each move, the moving faction first."""
    rank = {f: i for i, f in enumerate(w.turn_order)}
    for q in w.quests.values():
        if not _open_item(q, "find_item"):
            continue
        there = {a.faction for a in w.armies_in(str(q.get("province"))) if not w.factions[a.faction].is_keeper}
        if there:
            first = mover if mover in there else min(there, key=lambda f: (rank.get(f, len(rank)), f))
            _give_item(w, str(first), q)


class Market:
    """The arrivals of one Planning at the Keepers' Markets (default G85, G86): each counts for the sender;
    once every arrival is in, the earliest in turn order of the factions that completed a quest wins it."""

    def __init__(self, w: World) -> None:
        self.w = w
        self.done: dict[str, list[str]] = {}  # keeper -> senders who completed its quest now

    def arrival(self, keeper: str, sender: object, cargo: Mapping[str, int], items: list[str]) -> None:
        w = self.w
        q = w.quests.get(keeper)
        if q is None or q.get("done_by") is not None or not isinstance(sender, str) or sender not in w.factions \
                or w.factions[sender].is_keeper:
            return
        if q["kind"] == "deliver":  # the sender's own total (not pooled)
            progress = q.setdefault("progress", {})
            progress[sender] = progress.get(sender, 0) + cargo.get(str(q.get("resource")), 0)
            complete = progress[sender] >= q["amount"]
        else:
            complete = q.get("item") in items
        if complete and sender not in self.done.setdefault(keeper, []):
            self.done[keeper].append(sender)

    def settle(self) -> None:
        rank = {f: i for i, f in enumerate(self.w.turn_order)}
        for keeper, senders in self.done.items():
            if senders:
                complete(self.w, keeper, min(senders, key=lambda f: (rank.get(f, len(rank)), f)))


def complete(w: World, keeper: str, faction: str) -> None:
    """The reward, credited at once (G86): `dice.quest_reward` or 1-10 Gold, 1-10 Wood and a random unknown
    catalog technology or spell (known at once; in force per G73)."""
    q = w.quests[keeper]
    q["done_by"] = faction
    got = _fixed(w, "quest_reward", keeper)
    rng = w.rng("quest_reward", keeper)
    reward: dict[str, Any] = {}
    for res, (lo, hi) in (("gold", w.params.quest_reward_gold), ("wood", w.params.quest_reward_wood)):
        n = got.get(res)
        reward[res] = n if _int(n) else rng.randint(lo, hi)
        w.resources[faction][res] += reward[res]
    reward.update(grant_knowledge(w, faction, ("quest", keeper), got))
    w.rewards.append({"kind": "quest", "faction": faction, "keeper": keeper, "quest": q["id"], **reward})
    w.events.append({"kind": "quest_done", "keeper": keeper, "quest": q["id"], "faction": faction})
