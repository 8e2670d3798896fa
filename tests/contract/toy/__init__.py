"""Coins: a toy rule set (tests only) proving the contract. Each turn every faction stakes coins;
the dice give back up to twice the stake. After three turns the richest faction wins."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import OrderError
from engine.numbers import read_count
from engine.rng import stream
from engine.ruleset import FactionSummary, ParsedOrders, Row, RowStatus, Ruleset, StageResult, Summary, Table
from engine.state import SCHEMA_VERSION, Envelope, clone

TURNS = 3


class Coins(Ruleset):
    name = "coins"
    title = "Монетки"
    stages = ("bets",)
    stage_titles = {"bets": "ставки", "finished": "игра окончена"}
    templates_anchor = __name__

    def dump_data(self) -> dict[str, Any]:
        return {"turns": TURNS}

    def new_game(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        factions = {fid: {"name": f["name"], "coins": int(f.get("coins", 10))}
                    for fid, f in scenario.get("factions", {}).items()}
        if len(factions) < 2:
            raise ValueError("нужны хотя бы две фракции")
        return {"schema_version": SCHEMA_VERSION, "ruleset": self.name, "turn": 1, "stage": "bets",
                "factions": factions}

    def order_tabs(self, stage: str) -> tuple[str, ...]:
        return ("bets",)

    def validate(self, state: Mapping[str, Any], faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        orders, statuses, have = [], [], state["factions"][faction]["coins"]
        for row in tabs.get("bets", []):
            stake = read_count(row.get("stake"), "Монеты", maximum=max(have, 1))
            if isinstance(stake, OrderError):
                statuses.append(RowStatus("bets", row.number, (stake,)))
            else:
                orders.append({"row": row.number, "stake": stake})
                statuses.append(RowStatus("bets", row.number, note=f"ставка {stake}"))
                have -= stake
        return ParsedOrders(faction, stage, tuple(orders), tuple(statuses))

    def resolve(self, state: Mapping[str, Any], stage: str, orders: Mapping[str, ParsedOrders],
                seed: int) -> StageResult:
        new = clone(dict(state))
        statuses: dict[str, tuple[RowStatus, ...]] = {}
        for fid, parsed in orders.items():
            if fid not in new["factions"]:
                continue
            done = []
            for order in parsed.orders:
                won = stream(seed, fid, order["row"]).randint(0, 2 * order["stake"])
                new["factions"][fid]["coins"] += won - order["stake"]
                done.append(RowStatus("bets", order["row"], note=f"ставка {order['stake']}, выигрыш {won}"))
            statuses[fid] = tuple(done)
        new["turn"] += 1
        if new["turn"] > TURNS:
            new["stage"] = "finished"
            best = max(f["coins"] for f in new["factions"].values())
            for f in new["factions"].values():
                f["won"] = f["coins"] == best
        return StageResult(new, statuses)

    def views(self, state: Mapping[str, Any], result: StageResult | None = None) -> dict[str, dict[str, Table]]:
        standings = Table(("Фракция", "Монеты"), tuple((f["name"], f["coins"]) for f in state["factions"].values()))
        books: dict[str, dict[str, Table]] = {"public": {"standings": standings}, "gm": {"standings": standings}}
        for fid, f in state["factions"].items():
            books[fid] = {"purse": Table(("Ход", "Монеты"), ((state["turn"], f["coins"]),))}
        return books

    def summary(self, state: Mapping[str, Any]) -> Summary:
        env = Envelope.of(state)
        return Summary((f"Ходов всего: {TURNS}",), tuple(
            FactionSummary(f.id, f.name, (f"монет {state['factions'][f.id]['coins']}",), f.eliminated, f.won)
            for f in env.factions))
