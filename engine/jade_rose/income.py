"""Income and upkeep (L36-46, RULINGS JR-56 step 2): cities and buildings × the era's multiplier, the
factions' own income (see their modules), unit upkeep, and the era's gift to the smallest (JR-61)."""
from __future__ import annotations

from typing import Any

from engine.jade_rose import factions, ledger
from engine.jade_rose.data import load_data
from engine.jade_rose.holdings import active_factions, base_income, city_count, era_of, own_cities, unit_upkeep
from engine.jade_rose.state_types import JadeRoseState, LedgerLine


def income_lines(state: JadeRoseState, faction: str) -> list[LedgerLine]:
    """What the faction earns at the start of the current turn, line by line (ledger-shaped dicts).

    Gold: cities and their buildings (× the era's multiplier), then the faction's own lines (vampire
    slaves, the Empire's honor and corruption penalty, dwarf runes). The Empire's corruption roll of
    the turn is random and not included.
    """
    data = load_data()
    gmul = int(era_of(state).gold_multiplier)
    suffix = f" ({era_of(state).name}: ×{gmul})" if gmul != 1 else ""
    lines: list[LedgerLine] = []

    def add(resource: str, amount: int, reason: str, city: str | None = None, **tags: Any) -> None:
        if amount:
            lines.append(ledger.line(faction, resource, amount, reason, city, **tags))

    for cid in own_cities(state, faction, ruins=False):
        city = state["cities"][cid]
        if int(city.get("no_income_turns", 0)) > 0:
            continue
        add("gold", base_income(city, faction) * gmul, f"Доход: {city['name']}{suffix}", cid, kind="income_city")
        bonus = sum(int(data.buildings[b].effects.get("income", 0)) for b in city["buildings"]
                    if b in data.buildings) * gmul
        add("gold", bonus, f"Постройки: {city['name']}{suffix}", cid, kind="income_buildings",
            turn=int(state["turn"]))
    factions.of(faction).income(state, faction, add, lines)
    return lines


def upkeep_total(state: JadeRoseState, faction: str) -> int:
    """Gold upkeep per turn of the faction's units (e.g. hibernating units in a crypt pay none)."""
    return unit_upkeep(state, faction, factions.of(faction).upkeep_exempt(state, faction))


def collect_income(state: JadeRoseState, faction: str) -> None:
    """Pay the turn's income (`income_lines`) and count down cities that yield nothing this turn."""
    for item in income_lines(state, faction):
        tags: dict[str, Any] = {k: v for k, v in item.items()
                                if k not in ("faction", "resource", "amount", "reason", "city")}
        ledger.change(state, faction, item["resource"], item["amount"], item["reason"], item.get("city"), **tags)
    for cid in own_cities(state, faction, ruins=False):
        city = state["cities"][cid]
        if int(city.get("no_income_turns", 0)) > 0:
            city["no_income_turns"] = int(city["no_income_turns"]) - 1


def pay_upkeep(state: JadeRoseState, faction: str) -> None:
    """Upkeep of the units owned at the start of the turn (the balance may go negative, JR-57)."""
    ledger.change(state, faction, "gold", -upkeep_total(state, faction), "Содержание армии", kind="upkeep")


def era_gift(state: JadeRoseState) -> None:
    """At the first turn of an era with a gift, every faction tied for fewest cities gets it (JR-61)."""
    era = era_of(state)
    if not era.gift_gold or int(state["turn"]) != era.first_turn:
        return
    playing = active_factions(state)
    if not playing:
        return
    fewest = min(city_count(state, f) for f in playing)
    for faction in playing:
        if city_count(state, faction) == fewest:
            ledger.change(state, faction, "gold", int(era.gift_gold) * int(era.gold_multiplier),
                          f"Подарок богов: эпоха «{era.name}», меньше всего городов")


def faction_income(state: JadeRoseState, faction: str, measure: str = "gross") -> int:
    """Gold a faction earns per turn: gross (its income lines) or net of upkeep."""
    gross = sum(int(item["amount"]) for item in income_lines(state, faction) if item["resource"] == "gold")
    return gross - upkeep_total(state, faction) if measure == "net" else gross
