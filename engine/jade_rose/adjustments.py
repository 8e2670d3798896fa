"""GM adjustments: corrections typed in the GM book, applied as orders so they are logged and replay.

The orders stage applies them at its very start, before the start-of-turn events, the income and the
factions' orders (turn.resolve_orders_stage), and `check` reads the factions' rows against the state they
make (Ruleset.corrected): a correction typed before the deadline counts for that stage's rows. Rows are
read one after another against the state before the stage: no balance goes below zero through them.
"""
from __future__ import annotations

from engine import cells
from engine.errors import OrderError, allowed_list, define
from engine.free_text import text_problem
from engine.jade_rose import factions, ledger
from engine.jade_rose.state_types import Adjustment, JadeRoseState, balance
from engine.numbers import echo, group_digits
from engine.ruleset import Row, RowStatus

TAB = "adjustments"
REASON_LENGTH = 300     # it goes to the faction's journal and the ledger (engine.free_text.text_problem)
MAX_AMOUNT = 1_000_000      # no treasury, honor or army of a forum game comes near it
RESOURCES = {"Золото": "gold", "Честь": "honor", "Коррупция": "corruption", "Рабы": "slaves",
             "Вечные слуги": "eternal_servants", "Руны": "runes", "Нефрит": "jade"}
RESOURCE_NAMES = {key: name.lower() for name, key in RESOURCES.items()}

define({
    "JR_ADJ_FACTION": "Фракции «{value}» нет в игре. Допустимо: {allowed}.",
    "JR_ADJ_RESOURCE": "У фракции «{faction}» нет ресурса «{value}». Допустимо: {allowed}.",
    "JR_ADJ_AMOUNT": "«Изменение» должно быть целым числом, не равным нулю (например, 100 или -50), а не «{value}».",
    "JR_ADJ_AMOUNT_REQUIRED": "Укажите «Изменение»: целое число, не равное нулю (например, 100 или -50).",
    "JR_ADJ_BELOW_ZERO": "У фракции «{faction}» {resource} {have} (с корректировками выше): отнять {value} нельзя, "
                         "запас не уходит ниже нуля. {left}",
    "JR_ADJ_TOO_LARGE": "Слишком большое «Изменение» «{value}»: корректировка бывает от −{max} до {max}.",
    "JR_ADJ_REASON": "Укажите причину корректировки: она попадёт в журнал фракции.",
})


def _faction_by_name(state: JadeRoseState, text: str) -> str | None:
    text = cells.normalize_name(text)
    for fid, rec in state["factions"].items():
        if text in (fid, cells.normalize_name(rec["name"])):
            return str(fid)
    return None


def signed(value: int) -> str:
    """A balance as a Russian reader writes it: digits grouped, a minus sign for a debt."""
    return group_digits(value) if value >= 0 else "\u2212" + group_digits(-value)


def parse_adjustments(state: JadeRoseState, rows: list[Row], stage_title: str = "приказы"
                      ) -> tuple[list[Adjustment], list[RowStatus]]:
    """The accepted adjustments and every row's status. `stage_title` names the stage they apply at (the
    orders stage: the only one whose books carry the tab)."""
    orders: list[Adjustment] = []
    statuses: list[RowStatus] = []
    balances: dict[tuple[str, str], int] = {}      # (faction, resource) -> after the accepted rows above
    applies = (f"будет применено в начале этапа «{stage_title}» хода {state['turn']}, до событий начала хода, "
               "дохода и приказов этого этапа: проверка приказов фракции его уже учитывает")
    for row in rows:
        errors: list[OrderError] = []
        fid = _faction_by_name(state, row.get("faction"))
        if fid is None:
            allowed = allowed_list(f["name"] for f in state["factions"].values())
            errors.append(OrderError("JR_ADJ_FACTION", {"value": row.get("faction"), "allowed": allowed}))
        resource = RESOURCES.get(row.get("resource").capitalize())
        own = ("gold", *factions.of(fid).resources) if fid is not None else ()
        if fid is not None and resource not in own:
            names = [n for n, r in RESOURCES.items() if r in own]
            errors.append(OrderError("JR_ADJ_RESOURCE", {"faction": state["factions"][fid]["name"],
                                                         "value": row.get("resource"), "allowed": allowed_list(names)}))
        amount = cells.signed_integer(row.get("amount")) or 0
        if not row.get("amount").strip():
            errors.append(OrderError("JR_ADJ_AMOUNT_REQUIRED"))
        elif amount == 0:
            errors.append(OrderError("JR_ADJ_AMOUNT", {"value": echo(row.get("amount"))}))
        elif abs(amount) > MAX_AMOUNT:
            errors.append(OrderError("JR_ADJ_TOO_LARGE", {"value": echo(row.get("amount")),
                                                          "max": group_digits(MAX_AMOUNT)}))
        if not row.get("reason"):
            errors.append(OrderError("JR_ADJ_REASON"))
        elif (bad := text_problem(row.get("reason"), column="Причина", limit=REASON_LENGTH)) is not None:
            errors.append(bad)
        key = (fid, resource) if fid is not None and resource in own else None
        have = balances.get(key, int(balance(state["factions"][key[0]], key[1]))) if key is not None else 0
        if key is not None and 0 > amount >= -MAX_AMOUNT and have + amount < 0:
            errors.append(OrderError("JR_ADJ_BELOW_ZERO", {
                "faction": state["factions"][key[0]]["name"], "resource": RESOURCE_NAMES[key[1]],
                "have": signed(have), "value": group_digits(-amount),
                "left": f"Можно отнять не больше {group_digits(have)}." if have > 0 else "Отнимать нечего."}))
        if errors:
            statuses.append(RowStatus(TAB, row.number, tuple(errors)))
            continue
        assert key is not None and fid is not None and resource is not None     # each None came with an error
        balances[key] = have + amount
        orders.append({"row": row.number, "faction": fid, "resource": resource, "amount": amount,
                       "reason": row.get("reason")})
        statuses.append(RowStatus(TAB, row.number, note=applies))
    return orders, statuses


def apply_adjustments(state: JadeRoseState, orders: list[Adjustment]) -> None:
    """Apply GM corrections to `state` (mutated), each with a ledger line."""
    for order in orders:
        ledger.change(state, order["faction"], order["resource"], order["amount"],
                      f"Корректировка мастера: {order['reason']}")


def vocabulary(state: JadeRoseState) -> dict[str, list[str]]:
    return {"factions": [f["name"] for f in state["factions"].values()], "resources": list(RESOURCES)}
