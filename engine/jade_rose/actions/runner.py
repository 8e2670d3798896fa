"""Running a faction's «Экономика» orders (RULINGS JR-56 step 3): sell, build, upgrade, restore, faction
actions (sheet order among them), jade purchase, hire, then the vampires' named sleepers (no balance)."""
from __future__ import annotations

from collections.abc import Mapping

from engine.jade_rose import factions
from engine.jade_rose.actions import buildings, cities, hiring
from engine.jade_rose.actions.base import Dice, OrdersTurn, Reject, err
from engine.jade_rose.economy_orders import ACTION_OF_KIND, TAB, sort_orders
from engine.jade_rose.factions.base import Handler
from engine.jade_rose.state_types import EconomyOrder, JadeRoseState, WarPlan
from engine.ruleset import RowStatus

HANDLERS: dict[str, Handler] = {"sell": buildings.sell, "build": buildings.build, "upgrade": cities.upgrade,
                                "restore": cities.restore, "hire": hiring.hire, **factions.action_handlers()}


def run_economy(state: JadeRoseState, faction: str, orders: list[EconomyOrder], rng: Dice,
                army_plan: WarPlan | None = None, foresight: bool = False) -> list[RowStatus]:
    """Apply a faction's economy orders to `state` (mutated) in the rulings' order; a status per order.

    An order the balance cannot pay, or that breaks a rule, is rejected with its message and
    changes nothing; the other orders still run. `army_plan` is the faction's parsed army plan of
    the turn: units hired in a vengeful campaign must be in an army attacking that faction (JR-82).
    A purge of the generals sets `armies_blocked` on the faction for this turn. `foresight`: `check`'s dry
    run, whose notes tell what a die decides as its range (`OrdersTurn.foresight`), not `rng`'s draw.
    """
    statuses: dict[int, RowStatus] = {}
    rec = state["factions"].get(faction)
    ordered = sort_orders([o for o in orders if isinstance(o, Mapping)])
    ctx = OrdersTurn(army_plan=army_plan, foresight=foresight)
    rules = factions.of(faction)
    if rec is not None:
        rec.pop("sleep_choice", None)
        rules.plan_orders(state, faction, ordered, ctx)
    for order in ordered:
        row = int(order.get("row", 0))
        try:
            if rec is None or rec.get("eliminated") or rec.get("won"):
                raise Reject(err("JR_FACTION_OUT"))
            kind = order.get("kind")
            if not isinstance(kind, str) or kind not in HANDLERS:
                raise Reject(err("E_INTERNAL", detail=f"неизвестный вид приказа {kind!r}"))
            note = HANDLERS[kind](state, faction, order, rng, ctx)
            statuses[row] = RowStatus(TAB, row, note=f"{ACTION_OF_KIND[kind]}: {note}")
        except Reject as rejected:
            statuses[row] = RowStatus(TAB, row, tuple(rejected.errors))
        except (KeyError, TypeError, ValueError) as exc:
            statuses[row] = RowStatus(TAB, row, (err("E_INTERNAL", detail=type(exc).__name__),))
    if rec is not None:
        rules.after_economy(state, faction)
    return [statuses[r] for r in sorted(statuses)]
