"""War of the Jade Rose: the rule set class, wiring data, economy, battles and views."""
from __future__ import annotations

from typing import Any, Mapping

from engine.registry import register
from engine.ruleset import ParsedOrders, Row, Ruleset, StageResult, Table
from engine.jade_rose import adjustments, economy, economy_orders, names, setup, views
from engine.jade_rose.data import dump_data, load_data


@register
class JadeRose(Ruleset):
    name = "jade_rose"
    aliases = ("jr", "jade-rose", "война нефритовой розы", "нефритовая роза")
    title = "Война Нефритовой Розы"
    stages = ("orders", "planning")
    order_tab_keys = {"orders": ("economy", "adjustments"), "planning": ()}

    def dump_data(self) -> dict:
        return dump_data()

    def new_game(self, scenario: Mapping[str, Any]) -> dict:
        state = setup.new_game(scenario)
        state.setdefault("chronicle", []).append(
            {"turn": 1, "kind": "Начало", "text": f"Начинается {self.title}: эпоха {views.ERA_NAMES.get(state['era'], state['era'])}."})
        return state

    def factions(self, state: dict) -> list[str]:
        return list(state["factions"])

    def order_tabs(self, stage: str) -> tuple[str, ...]:
        return self.order_tab_keys.get(stage, ())

    def vocabularies(self, state: dict, faction: str | None) -> dict[str, list[str]]:
        if faction is None:
            return {}
        if faction == "gm":
            return adjustments.vocabulary(state)
        own = sorted(c["name"] for c in state["cities"].values() if c.get("owner") == faction)
        return {
            "economy_actions": list(economy_orders.actions_for(faction)),
            "own_cities": own,
            "economy_targets": names.building_names(faction) + names.unit_names(faction),
        }

    def validate(self, state: dict, faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        if faction == "gm":
            orders, statuses = adjustments.parse_adjustments(state, list(tabs.get("adjustments", ())))
            return ParsedOrders(faction, stage, tuple(orders), tuple(statuses))
        rows = list(tabs.get("economy", ()))
        if stage != "orders" or not rows:
            return ParsedOrders(faction, stage, (), ())
        orders, _ = economy_orders.parse_economy_rows(state, faction, rows)
        statuses = economy.validate_economy(state, faction, rows)
        return ParsedOrders(faction, stage, tuple(orders), tuple(statuses))

    def resolve(self, state: dict, stage: str, orders: Mapping[str, ParsedOrders], seed: int) -> StageResult:
        by_faction = {f: list(p.orders) for f, p in orders.items() if f in state["factions"]}
        new_state, statuses = economy.resolve_orders_stage(state, by_faction, seed)
        if "gm" in orders:
            adjustments.apply_adjustments(new_state, list(orders["gm"].orders))
        new_state["stage"] = "orders"
        if new_state.get("era") != state.get("era"):
            new_state.setdefault("chronicle", []).append(
                {"turn": new_state["turn"], "kind": "Эпоха",
                 "text": f"Наступает эпоха «{views.ERA_NAMES.get(new_state['era'], new_state['era'])}»."})
        return StageResult(state=new_state, statuses={f: tuple(s) for f, s in statuses.items()})

    def views(self, state: dict, result: StageResult | None = None) -> dict[str, dict[str, Table]]:
        return views.all_views(state)

    def summary(self, state: dict) -> dict:
        data = load_data()
        out = {"ruleset": self.name, "turn": state["turn"], "stage": state["stage"], "era": state.get("era"),
               "factions": {}}
        for fid, f in state["factions"].items():
            out["factions"][fid] = {
                "name": f["name"], "gold": f["gold"], "eliminated": f.get("eliminated", False),
                "won": f.get("won", False),
                "resources": {r: f.get(r, 0) for r in views.FACTION_RESOURCES.get(fid, ())},
                "cities": sorted(c["name"] for c in state["cities"].values() if c.get("owner") == fid),
                "units": {data.units[k].name: n for k, n in sorted(f.get("units", {}).items()) if n},
            }
        return out

    def awaiting(self, state: dict) -> dict[str, list[str]]:
        notes = {}
        for fid, f in state["factions"].items():
            if f.get("eliminated") or f.get("won"):
                notes[fid] = []
            elif state["stage"] == "orders":
                notes[fid] = ["приказы во вкладке «Экономика» (если нужны)"]
            else:
                notes[fid] = ["манёвры во вкладке «Манёвры»"]
        return notes
