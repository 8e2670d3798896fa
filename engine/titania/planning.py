"""The Planning phase as far as it can be checked in isolation (SCHEMA §1.4; P1.1-P5.1, A1.1, A11.1)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from engine.titania import events, quests, research
from engine.titania.effects import production
from engine.titania.params import RESOURCES
from engine.titania.world import World

PRODUCIBLE = ("gold", "wood", "stone", "mana")


def _int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def _cargo(raw: object) -> dict[str, int] | None:
    if not isinstance(raw, dict) or not raw:
        return None
    if not all(isinstance(k, str) and _int(v) and v >= 0 for k, v in raw.items()):
        return None
    return {str(k): int(v) for k, v in raw.items()}


class Planning:
    """Runs one Planning phase on a World and records each order's outcome."""

    def __init__(self, w: World, spec: Mapping[str, Any]) -> None:
        self.w = w
        self.spec = spec
        self.results: list[dict[str, Any]] = []
        self.pending_builds: list[tuple[str, str]] = []
        self.new_squads: dict[str, int] = {}  # province -> Strength hired into new squads (hire cap)
        self.replenished: dict[str, int] = {}  # province -> Strength added to existing squads (cap)
        self.free_used: set[str] = set()
        self.in_transit: list[dict[str, Any]] = []
        self.pending_techs: dict[str, list[str]] = {f: [] for f in w.factions}  # researched in this Planning
        stolen = spec.get("stolen", [])
        w.stolen = {p for p in stolen if isinstance(p, str)} if isinstance(stolen, list) else set()

    def run(self) -> dict[str, Any]:
        """SCHEMA §1.4 and SCHEMA_V2 §10 step 2 (`play`), and its output: the orders' outcomes, every faction's
        resources and food."""
        self.play()
        w = self.w
        return {"orders": self.results,
                "resources": {f: dict(res) for f, res in w.resources.items()},
                "food": {f: w.food(f) for f in w.factions}}

    def play(self) -> None:
        """Arrivals and quest completions, production, Keeper reinforcements, the orders in list order, then
        the events' goals decided; each order's outcome in `results`."""
        self.prepare()
        self.carry_out()

    def prepare(self) -> quests.Market:
        """What comes before the orders: arrivals and quest completions, production, Keeper reinforcements. No
        order changes them; the move order only picks a quest's winner among the factions that completed it
        (returned: the arrivals' Market, `done`)."""
        spec = self.spec
        market = self.arrivals(spec.get("arrivals", []))
        if spec.get("production", True) is not False:  # SCHEMA §1.4: on unless turned off
            self.produce()
        self.keeper_reinforce(spec.get("keeper_reinforce"))
        return market

    def carry_out(self) -> None:
        """The orders in list order, then the events' goals decided (after `prepare`)."""
        w, spec = self.w, self.spec
        orders = spec.get("orders", [])
        for index, order in enumerate(orders if isinstance(orders, list) else []):
            self.results.append(self.one(index, order))
        for province, building in self.pending_builds:  # P1.1: effective at the start of the Campaign
            w.buildings[province].append(building)
        events.decide(w)
        w.effects_changed()

    def arrivals(self, raw: object) -> quests.Market:
        """P2.1: the caravans sent last turn arrive; at a Keeper's Market they count for its quest (G85, G86)."""
        w = self.w
        market = quests.Market(w)
        for item in raw if isinstance(raw, list) else []:
            if not isinstance(item, dict):
                continue
            cargo = _cargo(item.get("resources"))
            to = item.get("to")
            items = item.get("items", [])
            items = [x for x in items if isinstance(x, str)] if isinstance(items, list) else []
            if not isinstance(to, str) or to not in w.resources or (cargo is None and not items):
                continue
            for r, n in (cargo or {}).items():
                if r in RESOURCES:
                    w.resources[to][r] += n
            w.items[to].extend(items)
            if w.factions[to].is_keeper:
                market.arrival(to, item.get("from"), cargo or {}, items)
        market.settle()
        return market

    def produce(self) -> None:
        """P5.1 and Resources: Influence per province (capital 2); each building's production (the catalog's
        `produces`, else 1 unit of its resource, G5 a, G92); technologies' and debuffs' `production`."""
        w, p = self.w, self.w.params
        for prov, owner in w.owners.items():
            if owner is None:
                continue
            info = w.map.provinces[prov]
            w.resources[owner]["influence"] += p.capital_influence if info.capital else p.province_influence
            for b in w.buildings[prov]:
                for res, n in w.produces(b).items():
                    w.resources[owner][res] += n
        for faction in w.factions:  # technologies and debuffs of type `production`
            owned = [b for prov in w.owned(faction) for b in w.buildings[prov]]
            for res, n in production(w.faction_effects(faction), owned).items():
                w.resources[faction][res] = max(0, w.resources[faction][res] + n)

    def keeper_reinforce(self, raw: object) -> None:
        """Keepers replenish or hire 1-4 in their provinces (G43 a); amounts given in the file."""
        if not isinstance(raw, dict):
            return
        w = self.w
        for keeper, table in raw.items():
            spec = w.factions.get(keeper)
            if spec is None or not spec.is_keeper or not isinstance(table, dict):
                continue
            for prov, n in table.items():
                if not _int(n) or n <= 0 or w.owners.get(prov) != keeper:
                    continue
                army = w.own_army(keeper, prov)
                if army is None:
                    army = w.add_army(keeper, prov, 0)
                army.strength = min(spec.max_strength, army.strength + n)

    def one(self, index: int, order: object) -> dict[str, Any]:
        base: dict[str, Any] = {"index": index, "kind": None, "faction": None}
        if not isinstance(order, dict):
            return {**base, "outcome": "void", "reason": "bad_order"}
        kind, faction = order.get("kind"), order.get("faction")
        base.update(kind=kind, faction=faction)
        if not isinstance(faction, str) or faction not in self.w.factions:
            return {**base, "outcome": "void", "reason": "bad_order"}
        handler = {"build": self.build, "hire": self.hire, "skaven_free": self.free,
                   "caravan": self.caravan, "research": self.research, "learn": self.learn,
                   "contribute": self.contribute}.get(str(kind))
        if handler is None:
            return {**base, "outcome": "void", "reason": "bad_order"}
        extra: dict[str, Any] = {}
        reason = handler(faction, order, extra)
        ok = reason in ("built", "hired", "sent", "researched", "learned", "contributed")
        return {**base, "outcome": "succeeded" if ok else "void", "reason": reason, **extra}

    def research(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        return research.research(self.w, faction, order, self.pending_techs[faction], extra)

    def learn(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        return research.learn(self.w, faction, order, extra)

    def contribute(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        return events.contribute(self.w, faction, order, extra)

    def _own_land(self, faction: str, province: object) -> bool:
        w = self.w
        return (isinstance(province, str) and w.owners.get(province) == faction
                and not w.map.provinces[province].sea)

    def build(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        w, prov, b = self.w, order.get("province"), order.get("building")
        if not isinstance(b, str) or not b or not isinstance(prov, str) or prov not in w.map.provinces:
            return "bad_order"
        if not self._own_land(faction, prov):
            return "not_own"
        if b in w.buildings[prov] or (prov, b) in self.pending_builds:
            return "duplicate"
        deposits = w.deposits(prov)
        need = w.needs(b)
        if deposits is not None and need is not None and need not in deposits:
            return "no_deposit"
        if b == "port" and not w.map.coastal(prov):
            return "no_deposit"
        cost = w.params.cost_of(b)
        discount = w.race(faction).building_discount.get(b, 0)
        if "influence" in cost:
            cost["influence"] = max(0, cost["influence"] - discount)
        if not self._pay(faction, cost):
            return "no_resources"
        self.pending_builds.append((prov, b))
        return "built"

    def _pay(self, faction: str, cost: Mapping[str, int]) -> bool:
        purse = self.w.resources[faction]
        if any(purse.get(r, 0) < n for r, n in cost.items()):
            return False
        for r, n in cost.items():
            purse[r] -= n
        return True

    def _room(self, faction: str, prov: str, n: int) -> tuple[str | None, bool]:
        """(reason or None, is_new_squad) for adding n Strength in prov (A1.1, A11.1, G34 a)."""
        w = self.w
        army = w.own_army(faction, prov)
        if army is None and w.squads(faction) >= w.food(faction):
            return "food", True
        if (army.strength if army else 0) + n > w.limit(faction):
            return "over_limit", army is None
        return None, army is None

    def hire(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        w, prov, n, pay = self.w, order.get("province"), order.get("strength"), order.get("pay", "gold_wood")
        if not isinstance(prov, str) or prov not in w.map.provinces or not _int(n) or n < 1:
            return "bad_order"
        if pay not in ("gold_wood", "influence"):
            return "bad_order"
        if not self._own_land(faction, prov):
            return "not_own"
        if prov in w.stolen:
            return "stolen"
        reason, new = self._room(faction, prov, n)
        if reason is not None:
            return reason
        used = self.new_squads if new or prov in self.new_squads else self.replenished
        cap = w.hire_cap(faction) if used is self.new_squads else w.replenish_cap(faction)
        if used.get(prov, 0) + n > cap:
            return "over_limit"
        cost = ({"gold": n, "wood": n} if pay == "gold_wood"
                else {"influence": n * w.params.influence_per_strength})
        if not self._pay(faction, cost):
            return "no_resources"
        used[prov] = used.get(prov, 0) + n
        self._add(faction, prov, n)
        return "hired"

    def _add(self, faction: str, prov: str, n: int) -> None:
        army = self.w.own_army(faction, prov)
        if army is None:
            self.w.grew(self.w.add_army(faction, prov, n), 0)
        else:
            self.w.grew(army, army.strength)
            army.strength += n

    def free(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        """Skaven Rat swarm: +1 free, once, within the normal limits (G60 a)."""
        w, prov = self.w, order.get("province")
        bonus = w.race(faction).free_hire
        if bonus <= 0 or not isinstance(prov, str) or prov not in w.map.provinces:
            return "bad_order"
        if faction in self.free_used:
            return "duplicate"
        if not self._own_land(faction, prov):
            return "not_own"
        if prov in w.stolen:
            return "stolen"
        reason, _ = self._room(faction, prov, bonus)
        if reason is not None:
            return reason
        self.free_used.add(faction)
        self._add(faction, prov, bonus)
        return "hired"

    def caravan(self, faction: str, order: Mapping[str, Any], extra: dict[str, Any]) -> str:
        """P2.1, P3.1, G37 a: route, duty per third faction, one 50 % raid roll; to a Keeper only at its Market,
        items held by the sender travel with the cargo and are never raided (G85). Keepers never send."""
        w = self.w
        to, route = order.get("to"), order.get("route")
        items = order.get("items", [])
        if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
            return "bad_order"
        raw = order.get("resources")
        cargo = {} if items and raw in (None, {}) else _cargo(raw)
        cid = order.get("id", f"caravan{len(self.results)}")
        if w.factions[faction].is_keeper:
            return "bad_order"
        if not isinstance(to, str) or to not in w.factions or to == faction or cargo is None:
            return "bad_order"
        if any(r not in PRODUCIBLE for r in cargo):
            return "not_transferable" if all(r in RESOURCES or r == "might" for r in cargo) else "bad_order"
        if any(x not in w.catalog.items for x in items):
            return "unknown_item"
        if any(items.count(x) > w.items[faction].count(x) for x in items):
            return "no_item"
        if (not isinstance(route, list) or len(route) < 2 or not all(isinstance(p, str) and p in w.map.provinces
                                                                      for p in route)):
            return "bad_route"
        if w.owners.get(route[0]) != faction or any(not w.map.adjacent(a, b)
                                                    for a, b in zip(route, route[1:], strict=False)):
            return "bad_route"
        if w.factions[to].is_keeper:  # G85: «используя Рынок по обычным правилам передачи ресурсов»
            if w.owners.get(route[-1]) != to or not w.has_market(route[-1]):
                return "no_market"
        elif w.owners.get(route[-1]) != to:
            return "bad_route"
        between = route[1:-1]
        war = w.factions[faction].at_war | w.factions[to].at_war
        if any(w.owners.get(p) in war for p in between):
            return "hostile_route"
        if any(w.map.is_sea(p) for p in between):
            if "port" not in w.buildings[route[0]] or "port" not in w.buildings[route[-1]]:
                return "no_port"
        if not self._pay(faction, cargo):
            return "no_resources"
        goods = dict(cargo)
        transit: dict[str, dict[str, int]] = {}
        thirds: list[str] = []
        for p in between:
            owner = w.owners.get(p)
            if owner is not None and owner not in (faction, to) and owner not in thirds:
                thirds.append(owner)
        duty_pay = order.get("duty_pay") if isinstance(order.get("duty_pay"), dict) else {}
        for third in thirds:
            self._duty(third, goods, duty_pay.get(third) if isinstance(duty_pay, dict) else None, transit)
        dice = w.sit.dice.get("caravan", {})
        fixed = dice.get(cid) if isinstance(dice, dict) else None
        fixed = fixed if isinstance(fixed, dict) else {}
        risky = any(w.owners.get(p) is None or w.map.is_sea(p) for p in between)
        raided = False
        lost: str | None = None
        if risky:
            rng = w.rng("caravan", cid)
            raided = bool(fixed["raided"]) if isinstance(fixed.get("raided"), bool) \
                else rng.random() < w.params.raid_chance
            left = sorted(r for r, n in goods.items() if n > 0)
            if raided and left:
                lost = fixed["lost"] if fixed.get("lost") in left else rng.choice(left)
                goods[lost] -= 1
        transit[to] = {r: n for r, n in goods.items() if n > 0}
        extra.update(raided=raided, lost=lost, in_transit=transit)
        for x in items:  # the items leave the sender now and arrive with the cargo
            w.items[faction].remove(x)
        self.in_transit.append({"id": cid, "from": faction, "to": transit, "items": list(items)})
        return "sent"

    def _duty(self, third: str, goods: dict[str, int], chosen: object, transit: dict[str, dict[str, int]]) -> None:
        """2 units to a non-hostile third faction: the sender's choice, else gold, wood, stone, mana."""
        need = self.w.params.caravan_duty
        paid: dict[str, int] = {}
        if isinstance(chosen, dict):
            for r, n in chosen.items():
                if isinstance(r, str) and _int(n) and n > 0:
                    take = min(n, goods.get(r, 0), need - sum(paid.values()))
                    if take > 0:
                        paid[r] = paid.get(r, 0) + take
                        goods[r] -= take
        for r in PRODUCIBLE:
            while sum(paid.values()) < need and goods.get(r, 0) > 0:
                paid[r] = paid.get(r, 0) + 1
                goods[r] -= 1
        if paid:
            share = transit.setdefault(third, {})
            for r, n in paid.items():
                share[r] = share.get(r, 0) + n
