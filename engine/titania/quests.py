"""Keeper quests (SCHEMA_EXTENSIONS §5): «Каждый Хранитель выдаёт 1 случайный квест: или передать
определённое количество камня или маны или победить босса и передать предмет, которым он владеет или
найти в определённой провинции предмет и передать — используя Рынок по обычным правилам передачи
ресурсов. Первая фракция, успешно выполнившая задание получит в награду случайное заклинание … или
случайную технологию …, а так же 1-10 золото и 1-10 дерева.»

A quest record (state.quests / quests): {"id", "kind", "name", "resource"?, "amount"?, "item"?,
"province"?, "item_holder"?, "progress": {faction: n}, "done_by"}.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.titania.research import grant_knowledge
from engine.titania.world import World


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def issue(w: World) -> None:
    """Every Keeper without a quest draws one (dice.quest fixes it); only in a game turn (`state.turn`
    given), so that an isolated situation stays as it is."""
    quests = w.data.quests
    if w.turn is None:
        return
    for spec in w.sit.factions:
        k = spec.id
        if not spec.is_keeper or k in w.quests or not quests:
            continue
        fixed = w.sit.dice.get("quest", {})
        fixed = fixed.get(k) if isinstance(fixed, dict) else None
        fixed = fixed if isinstance(fixed, dict) else {}
        rng = w.rng("quest", k)
        bosses = sorted(w.bosses)
        land = sorted(p for p, info in w.map.provinces.items()
                      if not info.sea and w.owners.get(p) != k and p not in w.bosses)
        pools = {"deliver": [k], "boss_item": bosses, "find_item": land}
        usable = sorted(q for q, d in quests.items() if pools[d.kind])
        if not usable:
            continue
        qid = fixed["quest"] if fixed.get("quest") in usable else rng.choice(usable)
        d = quests[qid]
        q: dict[str, Any] = {"id": qid, "kind": d.kind, "name": d.name, "progress": {}, "done_by": None}
        if d.kind == "deliver":
            lo, hi = d.amount
            q.update(resource=d.resource, amount=fixed["amount"] if _int(fixed.get("amount")) else rng.randint(lo, hi))
        else:
            pool = bosses if d.kind == "boss_item" else land
            q.update(item=d.item, item_holder=None,
                     province=fixed["province"] if fixed.get("province") in pool else rng.choice(pool))
        w.quests[k] = q
        w.events.append({"kind": "quest_issued", "keeper": k, "quest": qid, "name": d.name,
                         **{key: q[key] for key in ("resource", "amount", "item", "province") if key in q}})


def _give_item(w: World, faction: str, q: dict[str, Any], keeper: str) -> None:
    if q.get("item_holder") is not None or q.get("done_by") is not None:
        return
    q["item_holder"] = faction
    w.items[faction].append(q["item"])
    w.events.append({"kind": "item_found", "faction": faction, "keeper": keeper, "item": q["item"],
                     "name": w.data.item_name(q["item"]), "province": q.get("province")})


def boss_killed(w: World, faction: str, province: str) -> None:
    """«победить босса и передать предмет, которым он владеет»: the killer takes the Boss's item."""
    for k, q in w.quests.items():
        if q.get("kind") == "boss_item" and q.get("province") == province:
            _give_item(w, faction, q, k)


def entered(w: World) -> None:
    """«найти в определённой провинции предмет»: the first player army standing in the province finds it."""
    for k, q in w.quests.items():
        if q.get("kind") != "find_item" or q.get("item_holder") is not None or q.get("done_by") is not None:
            continue
        army = next((a for a in w.armies_in(str(q.get("province"))) if not w.factions[a.faction].is_keeper), None)
        if army is not None:
            _give_item(w, army.faction, q, k)


def arrival(w: World, keeper: str, sender: object, cargo: Mapping[str, int], items: list[str]) -> None:
    """A caravan from `sender` reached the Keeper's Market: it counts for the quest."""
    q = w.quests.get(keeper)
    if q is None or q.get("done_by") is not None or not isinstance(sender, str) or sender not in w.factions:
        return
    if q["kind"] == "deliver":
        progress = q.setdefault("progress", {})
        progress[sender] = progress.get(sender, 0) + cargo.get(q["resource"], 0)
        done = progress[sender] >= q["amount"]
    else:
        done = q.get("item") in items
    if done:
        complete(w, keeper, sender)


def complete(w: World, keeper: str, faction: str) -> None:
    q = w.quests[keeper]
    q["done_by"] = faction
    fixed = w.sit.dice.get("quest_reward", {})
    got = fixed.get(keeper) if isinstance(fixed, dict) else None
    got = got if isinstance(got, dict) else {}
    rng = w.rng("quest_reward", keeper)
    reward: dict[str, Any] = {}
    for res, (lo, hi) in (("gold", w.params.quest_reward_gold), ("wood", w.params.quest_reward_wood)):
        n = got.get(res)
        reward[res] = n if _int(n) else rng.randint(lo, hi)
        w.resources[faction][res] += reward[res]
    reward.update(grant_knowledge(w, faction, ("quest", keeper), got))
    w.rewards.append({"kind": "quest", "faction": faction, "keeper": keeper, "quest": q["id"], **reward})
    w.events.append({"kind": "quest_done", "faction": faction, "keeper": keeper, "quest": q["id"]})
