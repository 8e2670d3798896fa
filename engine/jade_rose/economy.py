"""Jade Rose economy: income, upkeep, and the «Экономика» orders (sell, build, upgrade, restore, faction
actions, jade, hire), with the faction steps of the start of a turn (grudges, investments).

Every balance change goes through `_change`, which appends a ledger line with a Russian reason, so
a faction's balance after a stage equals its balance before plus the sum of its ledger lines
(grudges too: one line per change, with the faction it is against).
Order of a stage (RULINGS JR-56): start of turn, income and upkeep, then each faction's orders
in the order sell, build, upgrade, restore, faction actions, jade purchase, hire (then the vampires' named
sleepers, which change no balance); then the end of the turn.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Protocol

from engine.errors import OrderError, allowed_list
from engine.jade_rose import hibernation
from engine.jade_rose.data import BuildingDef, EraDef, UnitDef, load_data
from engine.jade_rose.economy_orders import (ACTION_OF_KIND, CORRUPTION_ACTIONS, TAB, city_names, own_cities,
                                             parse_economy_rows, rival_names, sort_orders)
from engine.rng import stream
from engine.ruleset import Row, RowStatus
from engine.state import clone

RESOURCE_SIGN = {"gold": "з", "honor": "ч", "jade": "н"}


class Dice(Protocol):
    """What the economy needs of a random stream (e.g. a `random.Random` from engine.rng.stream)."""

    def randint(self, a: int, b: int) -> int: ...


# -- small helpers ------------------------------------------------------------------

def round_half_up(num: int, den: int = 1) -> int:
    """num/den rounded half up, in integers (no float surprises)."""
    return (2 * num + den) // (2 * den)


def era_of(state: Mapping) -> EraDef:
    return load_data().era_for_turn(int(state["turn"]))


def active_factions(state: Mapping) -> list[str]:
    """Factions still playing (not eliminated, not already won), in a stable order."""
    return sorted(f for f, rec in state["factions"].items() if not rec.get("eliminated") and not rec.get("won"))


def _change(state: dict, faction: str, resource: str, amount: int, reason: str, city: str | None = None,
            **tags: Any) -> None:
    """Change a balance and itemise it in the ledger; `tags` (e.g. kind) are kept on the line."""
    if not amount:
        return
    rec = state["factions"][faction]
    rec[resource] = rec.get(resource, 0) + amount
    line = {"faction": faction, "resource": resource, "amount": amount, "reason": reason}
    if city is not None:
        line["city"] = city
    line.update(tags)
    state.setdefault("ledger", []).append(line)


def faction_name(state: Mapping, faction: str | None) -> str:
    rec = state["factions"].get(faction) if faction else None
    return str(rec.get("name") or faction) if rec else str(load_data().factions.get(faction, {}).get("name", faction))


def _log(state: dict, faction: str, text: str) -> None:
    state.setdefault("log", []).append({"faction": faction, "text": text})


def _owned_buildings(state: Mapping, faction: str) -> list[tuple[str, BuildingDef]]:
    """(city id, building) for every building in the faction's standing cities."""
    data = load_data()
    return [(cid, data.buildings[b]) for cid in own_cities(state, faction, ruins=False)
            for b in state["cities"][cid]["buildings"] if b in data.buildings]


def _effect_total(state: Mapping, faction: str, effect: str) -> int:
    return sum(int(b.effects.get(effect, 0)) for _, b in _owned_buildings(state, faction))


def _has_effect(state: Mapping, faction: str, effect: str) -> bool:
    return any(b.effects.get(effect) for _, b in _owned_buildings(state, faction))


def _city_size(city: Mapping) -> str:
    return "large" if city.get("large") else "small"


def base_income(city: Mapping, owner: str | None) -> int:
    """The city's base income for its owner: 150/300 × level, halved for vampires (L36-37, L144)."""
    if not owner or city.get("ruins"):
        return 0
    data = load_data()
    amount = int(data.economy["city_income"][_city_size(city)]) * int(city["level"])
    pct = int(data.factions.get(owner, {}).get("city_income_pct", 100))
    return amount * pct // 100


def _ordinal(level: int) -> str:
    return f"{level}-го"


# -- income and upkeep ---------------------------------------------------------------

def _corruption_penalty(level: int) -> Mapping[str, int]:
    rows = load_data().economy.get("corruption", {}).get("penalty", ())
    best: Mapping[str, int] = {"income_pct": 0, "honor": 0}
    for row in sorted(rows, key=lambda r: r["min_level"]):
        if level >= row["min_level"]:
            best = row
    return best


def income_lines(state: Mapping, faction: str) -> list[dict]:
    """What the faction earns at the start of the current turn, line by line (ledger-shaped dicts).

    Gold: cities and their buildings (× the era's multiplier), vampire slaves, the corruption
    penalty; the faction's resource: honor from buildings and corruption, runes per turn.
    The Empire's corruption roll of the turn is random and not included.
    """
    data = load_data()
    rec = state["factions"][faction]
    era = era_of(state)
    gmul, rmul = int(era.gold_multiplier), int(era.resource_multiplier)
    suffix = f" ({era.name}: ×{gmul})" if gmul != 1 else ""
    rsuffix = f" ({era.name}: ×{rmul})" if rmul != 1 else ""
    lines: list[dict] = []

    def add(resource: str, amount: int, reason: str, city: str | None = None, **tags: Any) -> None:
        if amount:
            line = {"faction": faction, "resource": resource, "amount": amount, "reason": reason}
            if city is not None:
                line["city"] = city
            line.update(tags)
            lines.append(line)

    gold_total = 0
    for cid in own_cities(state, faction, ruins=False):
        city = state["cities"][cid]
        if int(city.get("no_income_turns", 0)) > 0:
            continue
        base = base_income(city, faction) * gmul
        add("gold", base, f"Доход: {city['name']}{suffix}", cid, kind="income_city")
        bonus = sum(int(data.buildings[b].effects.get("income", 0)) for b in city["buildings"]
                    if b in data.buildings) * gmul
        add("gold", bonus, f"Постройки: {city['name']}{suffix}", cid, kind="income_buildings",
            turn=int(state["turn"]))
        gold_total += base + bonus
    per_slave = int(data.factions.get(faction, {}).get("gold_per_slave", 0))
    if per_slave:
        slaves = int(rec.get("slaves", 0)) + int(rec.get("eternal_servants", 0))
        amount = slaves * per_slave * gmul
        add("gold", amount, f"Рабы и вечные слуги: {per_slave}з за каждого{suffix}", kind="income_slaves")
        gold_total += amount

    if faction == "empire":
        for cid, b in _owned_buildings(state, faction):
            honor = int(b.effects.get("honor_per_turn", 0)) * rmul
            add("honor", honor, f"Честь: {b.name} ({state['cities'][cid]['name']}){rsuffix}", cid)
        penalty = _corruption_penalty(int(rec.get("corruption", 0)))
        corruption = data.economy.get("corruption", {})
        pct = min(int(penalty.get("income_pct", 0)), int(corruption.get("max_income_loss_pct", 50)))
        loss = gold_total * pct // 100
        add("gold", -loss, f"Коррупция ({rec.get('corruption', 0)} кр): −{pct} % дохода", kind="corruption_income",
            pct=pct, base=gold_total, turn=int(state["turn"]))
        honor_loss = int(penalty.get("honor", 0))
        if honor_loss:
            floor = int(corruption.get("honor_floor", -50))
            honor_now = int(rec.get("honor", 0)) + sum(line["amount"] for line in lines if line["resource"] == "honor")
            honor_loss = max(0, min(honor_loss, honor_now - floor))
            add("honor", -honor_loss, f"Коррупция ({rec.get('corruption', 0)} кр): потеря чести")

    if faction == "dwarves":
        consts = data.factions["dwarves"]
        gain = (int(consts.get("runes_per_turn", 0)) + _obelisk_runes(state, faction)) * rmul
        room = max(0, int(consts.get("rune_cap", 10)) - int(rec.get("runes", 0)))
        add("runes", min(gain, room), f"Руны за ход (запас не больше {consts.get('rune_cap', 10)}){rsuffix}")
    return lines


def _obelisk_runes(state: Mapping, faction: str) -> int:
    # The obelisk is one per faction; take the largest bonus rather than a sum.
    return max((int(b.effects.get("runes_per_turn", 0)) for _, b in _owned_buildings(state, faction)), default=0)


def crypt_occupants(state: Mapping, faction: str) -> dict[str, dict[str, int]]:
    """Hibernating units in each city's crypt (no upkeep there): costliest upkeep first, crypts by city name.

    A bone cannon takes the room of 3 (L167)."""
    data = load_data()
    rec = state["factions"][faction]
    pending = sorted(([k, n] for k, n in rec.get("hibernating", {}).items() if n > 0 and k in data.units),
                     key=lambda kv: (-data.units[kv[0]].upkeep / max(1, data.units[kv[0]].blood), kv[0]))
    out: dict[str, dict[str, int]] = {}
    for cid, b in _owned_buildings(state, faction):
        space = int(b.effects.get("crypt_capacity", 0))
        for entry in pending:
            per = max(1, data.units[entry[0]].blood)
            fit = min(entry[1], space // per)
            if fit:
                out.setdefault(cid, {})[entry[0]] = out.get(cid, {}).get(entry[0], 0) + fit
                entry[1] -= fit
                space -= fit * per
    return out


def _crypt_sleepers(state: Mapping, faction: str) -> dict[str, int]:
    """Hibernating units that sleep in any of the faction's crypts, by unit."""
    out: dict[str, int] = {}
    for units in crypt_occupants(state, faction).values():
        for key, n in units.items():
            out[key] = out.get(key, 0) + n
    return out


def note_crypts(state: dict, faction: str) -> None:
    """Remember who sleeps in which crypt: when a city is captured its sleepers die (L180), even after
    the capture has destroyed the crypt."""
    rec = state["factions"][faction]
    if "hibernating" in rec:
        rec["crypts"] = crypt_occupants(state, faction)


def upkeep_total(state: Mapping, faction: str) -> int:
    """Gold upkeep per turn of the faction's units (hibernating units in a crypt pay none)."""
    data = load_data()
    units = state["factions"][faction].get("units", {})
    in_crypt = _crypt_sleepers(state, faction)
    return sum(data.units[k].upkeep * (n - in_crypt.get(k, 0)) for k, n in units.items() if k in data.units and n > 0)


def collect_income(state: dict, faction: str) -> None:
    """Pay the turn's income (`income_lines`) and count down cities that yield nothing this turn."""
    for line in income_lines(state, faction):
        tags = {k: v for k, v in line.items() if k not in ("faction", "resource", "amount", "reason", "city")}
        _change(state, faction, line["resource"], line["amount"], line["reason"], line.get("city"), **tags)
    for cid in own_cities(state, faction, ruins=False):
        city = state["cities"][cid]
        if int(city.get("no_income_turns", 0)) > 0:
            city["no_income_turns"] = int(city["no_income_turns"]) - 1


def pay_upkeep(state: dict, faction: str) -> None:
    """Upkeep of the units owned at the start of the turn (the balance may go negative, JR-57)."""
    _change(state, faction, "gold", -upkeep_total(state, faction), "Содержание армии")


# -- start and end of the turn --------------------------------------------------------

def _city_count(state: Mapping, faction: str) -> int:
    return len(own_cities(state, faction, ruins=False))


def _era_gift(state: dict) -> None:
    """At the first turn of an era with a gift, every faction tied for fewest cities gets it (JR-61)."""
    era = era_of(state)
    if not era.gift_gold or int(state["turn"]) != era.first_turn:
        return
    playing = active_factions(state)
    if not playing:
        return
    fewest = min(_city_count(state, f) for f in playing)
    for faction in playing:
        if _city_count(state, faction) == fewest:
            _change(state, faction, "gold", int(era.gift_gold) * int(era.gold_multiplier),
                    f"Подарок богов: эпоха «{era.name}», меньше всего городов")


def _slave_cap(state: Mapping, faction: str) -> int:
    return int(load_data().factions["vampires"].get("slave_cap", 600)) + _effect_total(state, faction, "slave_cap")


def _escape_fraction(state: Mapping, faction: str) -> tuple[int, int]:
    consts = load_data().factions["vampires"]
    fractions = [tuple(b.effects["slave_escape_fraction"]) for _, b in _owned_buildings(state, faction)
                 if "slave_escape_fraction" in b.effects]
    return min(fractions, key=lambda f: f[0] / f[1]) if fractions else tuple(consts.get("slave_escape_fraction", (2, 3)))


def _vampire_escapes(state: dict, faction: str) -> None:
    """Two thirds (one third with gallows) of the slaves above the cap escape at the start (L151, JR-70)."""
    rec = state["factions"][faction]
    over = int(rec.get("slaves", 0)) - _slave_cap(state, faction)
    if over > 0:
        num, den = _escape_fraction(state, faction)
        _change(state, faction, "slaves", -round_half_up(over * num, den),
                f"Побег рабов сверх максимума ({_slave_cap(state, faction)})")


def _corruption_roll(state: dict, faction: str, rng: Dice) -> None:
    """Empire: corruption grows by a die chosen by cities held, less the police reduction (JR-2 defaults)."""
    rows = load_data().economy.get("corruption", {}).get("roll", ())
    cities = _city_count(state, faction)
    dice = 0
    for row in sorted(rows, key=lambda r: r["min_cities"]):
        if cities >= row["min_cities"]:
            dice = int(row["dice"])
    if not dice:
        return
    roll = rng.randint(1, dice)
    reduction = -min((int(b.effects.get("corruption_growth", 0)) for _, b in _owned_buildings(state, faction)),
                     default=0)
    growth = max(0, roll - reduction)
    note = f", −{reduction} от штаба" if reduction else ""
    _change(state, faction, "corruption", growth, f"Рост коррупции: 1к{dice} = {roll}{note}")


def _revive_summons(state: dict, faction: str) -> None:
    """Summon buildings bring their units back for free while they stand (L260, JR-86)."""
    rec = state["factions"][faction]
    units = rec.setdefault("units", {})
    for key, limit in _summon_limits(state, faction).items():
        missing = limit - int(units.get(key, 0))
        if missing > 0:
            units[key] = int(units.get(key, 0)) + missing
            _log(state, faction, f"Призван бесплатно: {load_data().units[key].name} ×{missing}")


def _summon_limits(state: Mapping, faction: str) -> dict[str, int]:
    limits: dict[str, int] = {}
    for _, b in _owned_buildings(state, faction):
        for key, n in b.effects.get("summons", {}).items():
            limits[key] = limits.get(key, 0) + int(n)
    return limits


def start_of_turn(state: dict, seed: int | str) -> None:
    """Era, era gift, vampire escapes, Empire corruption roll, grudge forgiveness, investment returns,
    grudge-room gains, summoned units revived (JR-56 step 1)."""
    state["era"] = era_of(state).key
    _era_gift(state)
    for faction in active_factions(state):
        if faction == "vampires":
            _vampire_escapes(state, faction)
        if faction == "empire":
            _corruption_roll(state, faction, stream(seed, "corruption", state["turn"], faction))
        if "grudges" in state["factions"][faction]:
            _forgive_grudges(state, faction)
        _return_investment(state, faction)
        if "grudges" in state["factions"][faction]:
            _grudge_room_gains(state, faction)
        _revive_summons(state, faction)


# -- faction resources (shared with the war consequences in factions.py) ----------------

def _multiplier_note(state: Mapping, mult: int) -> str:
    return f" ({era_of(state).name}: ×{mult})" if mult != 1 else ""


def gain_honor(state: dict, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Honor received from an event (× the era's resource multiplier, JR-62); returns what was added."""
    if amount <= 0:
        return 0
    doubled = load_data().factions.get(faction, {}).get("honor_events_doubled_in_sunset", True)
    mult = int(era_of(state).resource_multiplier) if doubled else 1
    _change(state, faction, "honor", amount * mult, reason + _multiplier_note(state, mult), city)
    return amount * mult


def lose_honor(state: dict, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Honor lost to an event: «Честь не может быть отрицательной» (L75), so it stops at 0."""
    loss = max(0, min(int(amount), int(state["factions"][faction].get("honor", 0))))
    _change(state, faction, "honor", -loss, reason, city)
    return loss


def gain_slaves(state: dict, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Slaves received (× the era's resource multiplier, JR-62); after the ritual they arrive as eternal
    servants (L155 «Все рабы, которых вы захватите в будущем, тоже будут автоматически превращаться»)."""
    if amount <= 0:
        return 0
    rec = state["factions"][faction]
    doubled = load_data().factions.get(faction, {}).get("slaves_doubled_in_sunset", True)
    mult = int(era_of(state).resource_multiplier) if doubled else 1
    resource = "eternal_servants" if rec.get("ritual_done") else "slaves"
    note = " — сразу вечные слуги" if resource == "eternal_servants" else ""
    _change(state, faction, resource, amount * mult, reason + note + _multiplier_note(state, mult), city)
    return amount * mult


def change_grudges(state: dict, faction: str, against: str | None, amount: int, reason: str) -> int:
    """Grudges of `faction` against `against`, kept within 0..10 (L209); the guild of endless vengeance ignores
    every reduction (L257). Each change is a ledger line (resource "grudges", key "against"). Returns it."""
    rec = state["factions"].get(faction, {})
    if not amount or "grudges" not in rec or against == faction or against not in state["factions"]:
        return 0
    if amount < 0 and _has_effect(state, faction, "ignore_grudge_reduction"):
        _log(state, faction, f"Гильдия бесконечной мести: обиды на «{faction_name(state, against)}» не снижаются "
                             f"({reason})")
        return 0
    consts = load_data().factions.get(faction, {})
    now = int(rec["grudges"].get(against, 0))
    new = max(int(consts.get("grudge_min", 0)), min(int(consts.get("grudge_cap", 10)), now + amount))
    if amount > 0:
        rec.setdefault("grudge_turns", {})[against] = int(state["turn"])
    if new != now:
        rec["grudges"][against] = new
        state.setdefault("ledger", []).append({"faction": faction, "resource": "grudges", "against": against,
                                               "amount": new - now, "reason": reason})
    return new - now


def _forgive_grudges(state: dict, faction: str) -> None:
    """«если у вашей фракции вдвое больше городов, чем у противника, то этому противнику прощается 1 обида в
    начале каждого хода, если он не заработал ни одной новой обиды» (L208; new = during the previous turn)."""
    rec = state["factions"][faction]
    consts = load_data().factions.get(faction, {})
    ratio, per = int(consts.get("forgiveness_city_ratio", 2)), int(consts.get("forgiveness_per_turn", 1))
    mine, turn = _city_count(state, faction), int(state["turn"])
    for other, n in sorted(rec["grudges"].items()):
        if n <= 0 or other not in state["factions"]:
            continue
        theirs = _city_count(state, other)
        last = rec.get("grudge_turns", {}).get(other)
        if mine >= ratio * theirs and (last is None or int(last) < turn - 1):
            change_grudges(state, faction, other, -per,
                           f"Прощение: у дворфов вдвое больше городов ({mine} против {theirs}), "
                           f"а «{faction_name(state, other)}» не нанесла новых обид")


def _return_investment(state: dict, faction: str) -> None:
    """«Гильдия вкладчиков … позволяет вложить до 500з и к следующему ходу вернуть на 20% больше» (L248)."""
    rec = state["factions"][faction]
    amount = int(rec.get("investment", 0))
    if amount <= 0:
        return
    pct = int(rec.get("investment_pct", 0))
    doubled = load_data().factions.get(faction, {}).get("investment_profit_doubled_in_sunset", True)
    mult = int(era_of(state).gold_multiplier) if doubled else 1
    rec["investment"] = 0
    _change(state, faction, "gold", amount, "Гильдия вкладчиков: возврат вклада")
    _change(state, faction, "gold", round_half_up(amount * pct, 100) * mult,
            f"Гильдия вкладчиков: доход +{pct} % с вклада {amount}з" + _multiplier_note(state, mult))


def _grudge_room_gains(state: dict, faction: str) -> None:
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции … Две гильдии против одной
    фракции работать не могут» (L253)."""
    rec = state["factions"][faction]
    rooms = rec.get("grudge_rooms", {})
    counted: set[str] = set()
    for cid in sorted(rooms):
        target, city = rooms[cid], state["cities"].get(cid, {})
        per = _room_grudges(state, faction, cid)
        if not per:
            del rooms[cid]
            _log(state, faction, f"Комнаты записи обид в городе {city.get('name', cid)} больше нет: обиды на "
                                 f"«{faction_name(state, target)}» там не записываются")
            continue
        other = state["factions"].get(target, {})
        if target in counted or other.get("eliminated") or other.get("won"):
            continue
        counted.add(target)
        change_grudges(state, faction, target, per, f"Комната записи обид ({city['name']}): +{per}")


def _room_grudges(state: Mapping, faction: str, cid: str) -> int:
    city = state["cities"].get(cid)
    if not city or city.get("owner") != faction or city.get("ruins"):
        return 0
    data = load_data()
    return max((int(data.buildings[b].effects.get("grudges_per_turn", 0)) for b in city["buildings"]
                if b in data.buildings), default=0)


def slave_deaths(state: Mapping, faction: str) -> int:
    """Slaves dying at the end of the turn: a third (rounded half up, JR-70) plus the gallows' losses."""
    data = load_data()
    num, den = data.factions["vampires"].get("slave_death_fraction", (1, 3))
    slaves = int(state["factions"][faction].get("slaves", 0))
    extra = max((int(b.effects.get("slave_losses_per_turn", 0)) for _, b in _owned_buildings(state, faction)),
                default=0)
    return min(slaves, round_half_up(slaves * num, den) + extra)


def end_of_turn(state: dict) -> None:
    """Vampires: a third of the slaves (rounded half up) die, plus the gallows' losses; then hibernation
    (the player's choice of sleepers first, then newest first, JR-71; see hibernation.py)."""
    for faction in active_factions(state):
        if faction != "vampires":
            continue
        _change(state, faction, "slaves", -slave_deaths(state, faction), "Гибель рабов в конце хода")
        hibernation.hibernate(state, faction)
        note_crypts(state, faction)


# -- orders ---------------------------------------------------------------------------

class _Reject(Exception):
    def __init__(self, *errors: OrderError):
        self.errors = errors


@dataclass
class _OrdersTurn:
    """What one faction's orders of a turn share (mutable while they run)."""

    army_plan: Mapping | None = None
    bought: dict = field(default_factory=dict)          # jade bought this turn
    corruption_row: int | None = None                   # the row of the turn's one action against corruption
    officials_purge_row: int | None = None              # a purge of the officials: no construction (L89)
    crusade: str | None = None                          # faction of the vengeful campaign declared this turn
    crusade_pct: int = 0
    discounted: dict = field(default_factory=dict)      # units hired at the campaign's discount


def _err(code: str, **params: Any) -> OrderError:
    return OrderError(code, params)


def _own_city(state: Mapping, faction: str, cid: Any) -> dict:
    city = state["cities"].get(cid) if isinstance(cid, str) else None
    if city is None or city.get("owner") != faction:
        allowed = allowed_list(city_names(state, own_cities(state, faction)))
        name = city["name"] if city else str(cid)
        raise _Reject(_err("JR_CITY_NOT_OWNED", city=name, allowed=allowed))
    return city


def _pay(state: dict, faction: str, costs: Mapping[str, int], reason: str, city: str | None = None) -> None:
    """Check every resource first (all shortfalls reported at once), then pay."""
    rec = state["factions"][faction]
    codes = {"gold": "JR_NOT_ENOUGH_GOLD", "honor": "JR_NOT_ENOUGH_HONOR", "jade": "JR_NOT_ENOUGH_JADE",
             "slaves": "JR_NOT_ENOUGH_SLAVES"}
    short = [_err(codes[res], need=need, have=rec.get(res, 0))
             for res, need in costs.items() if need > 0 and rec.get(res, 0) < need]
    if short:
        raise _Reject(*short)
    for res, need in costs.items():
        _change(state, faction, res, -need, reason, city)


def _sell(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    city = _own_city(state, faction, order["city"])
    b = data.buildings[order["what"]]
    if b.key not in city["buildings"]:
        there = [data.buildings[k].name for k in city["buildings"] if k in data.buildings]
        raise _Reject(_err("JR_BUILDING_NOT_IN_CITY", city=city["name"], building=b.name,
                           allowed=allowed_list(there)))
    city["buildings"].remove(b.key)
    _change(state, faction, "gold", b.sale_value, f"Продажа: {b.name} ({city['name']})", order["city"])
    note = f"продано за {b.sale_value}з"
    for unit_key, _n in b.effects.get("summons", {}).items():
        units = state["factions"][faction].setdefault("units", {})
        keep = _summon_limits(state, faction).get(unit_key, 0)
        lost = max(0, int(units.get(unit_key, 0)) - keep)
        if lost:
            units[unit_key] -= lost
            _log(state, faction, f"{data.units[unit_key].name} ×{lost} исчезли вместе с постройкой «{b.name}»")
            note += f"; {data.units[unit_key].name} ×{lost} исчезли"
    _log(state, faction, f"Продана постройка «{b.name}» в городе {city['name']} за {b.sale_value}з")
    return note


def _faction_building_city(state: Mapping, faction: str, key: str) -> str | None:
    for cid in own_cities(state, faction):
        if key in state["cities"][cid]["buildings"]:
            return cid
    return None


def _build(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = _own_city(state, faction, cid)
    b = data.buildings[order["what"]]
    size = _city_size(city)
    if ctx.officials_purge_row is not None:
        raise _Reject(_err("JR_BUILDING_BLOCKED", action=ACTION_OF_KIND["purge_officials"],
                           row=ctx.officials_purge_row))
    if city.get("ruins"):
        raise _Reject(_err("JR_CITY_RUINS", city=city["name"], cost=data.economy["restore_cost"][size]))
    if b.tier > int(city["level"]):
        raise _Reject(_err("JR_TIER_ABOVE_LEVEL", building=b.name, tier=b.tier, city=city["name"],
                           level=city["level"]))
    if b.key in city["buildings"]:
        raise _Reject(_err("JR_DUPLICATE_BUILDING", city=city["name"], building=b.name))
    for other in data.faction_buildings(faction):
        if b.key in other.replaces:
            where = _faction_building_city(state, faction, other.key)
            if where is not None:
                raise _Reject(_err("JR_REPLACED_BUILDING", building=b.name, by=other.name,
                                   city=state["cities"][where]["name"]))
    if b.unique_per_faction:
        where = _faction_building_city(state, faction, b.key)
        if where is not None:
            raise _Reject(_err("JR_UNIQUE_BUILDING", building=b.name, city=state["cities"][where]["name"]))
    over = b.upgrade_from if b.upgrade_from in city["buildings"] else ""
    cost = b.upgrade_cost if over else b.cost
    slots = int(data.economy["slots"][size])
    if not over and len(city["buildings"]) >= slots:
        there = [data.buildings[k].name for k in city["buildings"] if k in data.buildings]
        raise _Reject(_err("JR_NO_FREE_SLOT", city=city["name"], used=len(city["buildings"]), slots=slots,
                           buildings=", ".join(there)))
    _pay(state, faction, {"gold": cost}, f"Постройка: {b.name} ({city['name']})", cid)
    if over:
        city["buildings"][city["buildings"].index(over)] = b.key
    else:
        city["buildings"].append(b.key)
    notes = [f"построено за {cost}з" + (f" поверх «{data.buildings[over].name}»" if over else "")]
    _log(state, faction, f"Построена постройка «{b.name}» в городе {city['name']}")
    for replaced in b.replaces:
        where = _faction_building_city(state, faction, replaced)
        if where is not None:
            state["cities"][where]["buildings"].remove(replaced)
            name = data.buildings[replaced].name
            _log(state, faction, f"«{name}» в городе {state['cities'][where]['name']} заменена на «{b.name}»")
            notes.append(f"«{name}» упразднена")
    units = state["factions"][faction].setdefault("units", {})
    for unit_key, n in b.effects.get("summons", {}).items():
        missing = _summon_limits(state, faction).get(unit_key, 0) - int(units.get(unit_key, 0))
        if missing > 0:
            units[unit_key] = int(units.get(unit_key, 0)) + missing
            notes.append(f"призван {data.units[unit_key].name} ×{missing}")
            _log(state, faction, f"Призван: {data.units[unit_key].name} ×{missing}")
    _first_build_effects(state, faction, b, rng, notes)
    return "; ".join(notes)


def _first_build_effects(state: dict, faction: str, b: BuildingDef, rng: Dice, notes: list[str]) -> None:
    """Secret police: corruption −(1d4+1); inquisition: corruption to 0 — only after the first construction."""
    rec = state["factions"][faction]
    drop, reset = b.effects.get("corruption_drop_on_first_build"), b.effects.get("corruption_reset_on_first_build")
    if not (drop or reset):
        return
    done = rec.setdefault("first_builds", [])
    if b.key in done:
        return
    done.append(b.key)
    current = int(rec.get("corruption", 0))
    if reset:
        amount = current
    else:
        roll = rng.randint(1, int(drop["dice"]))
        amount = min(current, roll + int(drop["plus"]))
    _change(state, faction, "corruption", -amount, f"Первая постройка «{b.name}»: коррупция снижена")
    notes.append(f"коррупция −{amount}")


def _upgrade(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = _own_city(state, faction, cid)
    size = _city_size(city)
    if city.get("ruins"):
        raise _Reject(_err("JR_CITY_RUINS", city=city["name"], cost=data.economy["restore_cost"][size]))
    era = era_of(state)
    top = int(data.economy.get("max_city_level", 3))
    cap = min(int(era.max_city_level), top)
    level = int(city["level"])
    target = level + int(order.get("count", 1))
    if target > top:
        raise _Reject(_err("JR_MAX_LEVEL", city=city["name"], level=level) if level >= top else
                      _err("JR_LEVEL_CAPPED_BY_ERA", city=city["name"], level=level, era=era.name, max=top))
    if target > cap:
        raise _Reject(_err("JR_LEVEL_CAPPED_BY_ERA", city=city["name"], level=level, era=era.name, max=cap))
    # JR-48: each level costs the city's base income for its owner at the level it leaves.
    cost = sum(base_income({**city, "level": lvl}, faction) for lvl in range(level, target))
    _pay(state, faction, {"gold": cost}, f"Улучшение города {city['name']} до {_ordinal(target)} уровня", cid)
    city["level"] = target
    _log(state, faction, f"Город {city['name']} улучшен до {_ordinal(target)} уровня")
    return f"город {_ordinal(target)} уровня за {cost}з"


def _restore(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    cid = order["city"]
    city = _own_city(state, faction, cid)
    if not city.get("ruins"):
        raise _Reject(_err("JR_NOT_RUINS", city=city["name"]))
    cost = int(data.economy["restore_cost"][_city_size(city)])
    _pay(state, faction, {"gold": cost}, f"Восстановление руин: {city['name']}", cid)
    city.update({"ruins": False, "level": 1, "buildings": []})
    _log(state, faction, f"Руины {city['name']} восстановлены: город 1-го уровня без построек")
    return f"восстановлено за {cost}з, доход со следующего хода"


def jade_limit(state: Mapping, faction: str) -> int:
    """Jade that may be bought per turn: 300 plus every jade mine and estates (L283, L320, L323)."""
    consts = load_data().factions.get(faction, {})
    return int(consts.get("jade_purchase_limit", 0)) + _effect_total(state, faction, "jade_limit")


def _buy_jade(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    amount = int(order["count"])
    limit = jade_limit(state, faction)
    bought = ctx.bought
    left = limit - bought.get("jade", 0)
    if amount > left:
        raise _Reject(_err("JR_JADE_LIMIT", limit=limit, left=max(0, left), value=amount))
    per_gold = int(data.factions[faction].get("jade_per_gold", 1))
    gold = -(-amount // per_gold)
    era = era_of(state)
    mult = int(era.resource_multiplier) if data.economy.get("sunset", {}).get("doubles_jade_purchase") else 1
    _pay(state, faction, {"gold": gold}, "Покупка нефрита")
    bought["jade"] = bought.get("jade", 0) + amount
    received = amount * mult
    _change(state, faction, "jade", received,
            "Покупка нефрита" + (f" ({era.name}: ×{mult})" if mult != 1 else ""))
    return f"куплено {received}н за {gold}з"


def _unit_costs(state: Mapping, faction: str, unit: UnitDef, count: int) -> dict[str, int]:
    """Total cost of `count` units; the cathedral cuts honor by 40 % rounded down, once (JR-65)."""
    honor_pct = min((int(b.effects.get("honor_cost_pct", 0)) for _, b in _owned_buildings(state, faction)), default=0)
    honor_each = unit.cost["honor"] * (100 + honor_pct) // 100
    return {"gold": unit.cost["gold"] * count, "honor": honor_each * count, "jade": unit.cost["jade"] * count}


def _forge_levels(state: Mapping, faction: str) -> list[tuple[str, int]]:
    return [(state["cities"][cid]["name"], int(state["cities"][cid]["level"]))
            for cid, b in _owned_buildings(state, faction) if b.effects.get("forge")]


def _blood_used(state: Mapping, faction: str) -> int:
    data = load_data()
    rec = state["factions"][faction]
    sleeping = rec.get("hibernating", {})
    return sum(data.units[k].blood * (n - int(sleeping.get(k, 0)))
               for k, n in rec.get("units", {}).items() if k in data.units and n > 0)


def _hire(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    data = load_data()
    unit = data.units[order["what"]]
    count = int(order["count"])
    rec = state["factions"][faction]
    units = rec.setdefault("units", {})
    have = int(units.get(unit.key, 0))
    standing = {b.key for _, b in _owned_buildings(state, faction)}
    if not standing & set(unit.hire_buildings):
        names = " или ".join(f"«{data.buildings[k].name}»" for k in unit.hire_buildings)
        raise _Reject(_err("JR_UNIT_LOCKED", unit=unit.name, buildings=names))
    if unit.jade_creature:
        forges = _forge_levels(state, faction)
        if not any(level >= unit.tier for _, level in forges):
            shown = ", ".join(f"{name} ({_ordinal(level)} уровня)" for name, level in forges) or "нет ни одной"
            raise _Reject(_err("JR_NEEDS_FORGE", unit=unit.name, tier=unit.tier, forges=shown))
    summon = _summon_limits(state, faction).get(unit.key)
    if summon is not None and have + count > summon:
        building = next(data.buildings[k].name for k in unit.hire_buildings)
        raise _Reject(_err("JR_SUMMON_LIMIT", unit=unit.name, building=building, limit=summon, have=have,
                           left=max(0, summon - have)))
    limit = unit.abilities.get("faction_limit")
    if limit is not None and have + count > int(limit):
        raise _Reject(_err("JR_UNIT_LIMIT", unit=unit.name, limit=limit, have=have, left=max(0, int(limit) - have)))
    if unit.blood:
        per_unit = int(data.factions["vampires"].get("slaves_per_unit", 15))
        slaves = int(rec.get("slaves", 0)) + int(rec.get("eternal_servants", 0))
        cap = slaves // per_unit
        used = _blood_used(state, faction)
        if used + unit.blood * count > cap:
            raise _Reject(_err("JR_NOT_ENOUGH_BLOOD", per_unit=per_unit, unit=unit.name,
                               need_each=per_unit * unit.blood, slaves=slaves, cap=cap, used=used,
                               left=max(0, (cap - used) // unit.blood)))
    costs = _unit_costs(state, faction, unit, count)
    reason = f"Найм: {unit.name} ×{count}"
    discounted = bool(ctx.crusade and ctx.crusade_pct and any(costs.values()))
    if discounted:
        target = str(ctx.crusade)
        sent = units_sent_against(state, ctx.army_plan, target).get(unit.key, 0)
        already = ctx.discounted.get(unit.key, 0)
        if already + count > sent:
            raise _Reject(_err("JR_CRUSADE_NOT_SENT", unit=unit.name, count=count, target=faction_name(state, target),
                               sent=sent, already=already))
        # L210 «Остаток цены покупки округляется вниз»: the discount applies to the whole order.
        costs = {res: v * (100 - ctx.crusade_pct) // 100 for res, v in costs.items()}
        reason += f" (мстительный поход: скидка {ctx.crusade_pct} %)"
    _pay(state, faction, costs, reason)
    hibernation.note_hire(state, faction, unit.key, count)
    units[unit.key] = have + count
    if discounted:
        ctx.discounted[unit.key] = ctx.discounted.get(unit.key, 0) + count
        campaign = rec.get("crusade", {})
        campaign.setdefault("units", {})[unit.key] = ctx.discounted[unit.key]
    _log(state, faction, f"Нанято: {unit.name} ×{count}")
    paid = " + ".join(f"{v}{RESOURCE_SIGN[k]}" for k, v in costs.items() if v) or "бесплатно"
    note = f"нанято {count} за {paid}"
    if discounted:
        note += (f" (скидка {ctx.crusade_pct} %; отправьте их на захват города фракции "
                 f"«{faction_name(state, str(ctx.crusade))}»)")
    return note


def _sleep(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Если крови рабов не хватает для содержания армии, то часть вампиров впадает в спячку (вы можете сами
    выбрать, какие)» (L144, JR-71): the named units sleep first if the blood runs short at the end of the turn."""
    data = load_data()
    unit = data.units[order["what"]]
    rec = state["factions"][faction]
    if unit.blood <= 0:
        thirsty = [u.name for u in sorted(data.faction_units(faction), key=lambda u: u.tier) if u.blood > 0]
        raise _Reject(_err("JR_SLEEP_NO_BLOOD", unit=unit.name, allowed=allowed_list(thirsty)))
    count, have = int(order["count"]), int(rec.get("units", {}).get(unit.key, 0))
    used = hibernation.named_sleepers(rec).get(unit.key, 0)
    if count > have - used:
        raise _Reject(_err("JR_SLEEP_TOO_MANY", unit=unit.name, count=count, have=have, used=used,
                           left=max(0, have - used)))
    hibernation.name_sleepers(rec, unit.key, count)
    after = dict(rec, slaves=int(rec.get("slaves", 0)) - slave_deaths(state, faction))
    cap, need = hibernation.blood_capacity(after), hibernation.blood_needed(rec)
    outlook = (f"сейчас крови после гибели рабов в конце хода хватит на {cap} из {need} юнитов" if cap < need else
               f"сейчас крови хватает на всех ({cap} юнитов на {need})")
    return (f"{unit.name} ×{count} уснут первыми, если в конце хода не хватит крови рабов "
            f"({outlook}; бои этого хода могут это изменить)")


def units_sent_against(state: Mapping, army_plan: Mapping | None, target: str) -> dict[str, int]:
    """Units of the army plan's armies that attack a city of `target` this turn, by unit key."""
    out: dict[str, int] = {}
    armies = army_plan.get("armies", {}) if isinstance(army_plan, Mapping) else {}
    for army in (armies.values() if isinstance(armies, Mapping) else ()):
        if not isinstance(army, Mapping) or army.get("order") != "attack":
            continue
        city = state["cities"].get(army.get("city")) if isinstance(army.get("city"), str) else None
        if not city or city.get("owner") != target:
            continue
        for squad in army.get("squads", ()) or ():
            for key, n in (squad.get("units", {}) if isinstance(squad, Mapping) else {}).items():
                if isinstance(n, int) and n > 0:
                    out[key] = out.get(key, 0) + n
    return out


# -- faction actions ------------------------------------------------------------------

def _corruption_spec(faction: str, kind: str) -> Mapping[str, Any]:
    return load_data().factions.get(faction, {}).get("corruption_actions", {}).get(kind, {})


def _corruption_costs(rec: Mapping, spec: Mapping, kind: str) -> dict[str, int]:
    """Gold and honor of an action against corruption; the honor grows with each earlier use (JR-66)."""
    uses = int(rec.get("corruption_actions", {}).get(kind, 0))
    return {"gold": int(spec.get("gold", 0)),
            "honor": int(spec.get("honor", 0)) + int(spec.get("honor_step", 0)) * uses}


def _plan_corruption_action(state: Mapping, faction: str, ordered: list[dict], ctx: _OrdersTurn) -> None:
    """The first action against corruption (by row) is the turn's one (L87); if it is an affordable purge of
    the officials, construction is impossible this turn, although building runs before faction actions."""
    first = next((o for o in ordered if o.get("kind") in CORRUPTION_ACTIONS), None)
    if first is None:
        return
    ctx.corruption_row = int(first.get("row", 0))
    rec = state["factions"][faction]
    spec = _corruption_spec(faction, first["kind"])
    costs = _corruption_costs(rec, spec, first["kind"])
    if spec.get("blocks_building") and int(rec.get("honor", 0)) >= costs["honor"]:
        ctx.officials_purge_row = ctx.corruption_row


def _enabling_building(faction: str, action: str) -> str:
    names = [b.name for b in load_data().faction_buildings(faction) if b.effects.get("enables_action") == action]
    return " или ".join(f"«{n}»" for n in names) or "—"


def _corruption_action(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """L87-92: purge of the generals / officials, public execution, surveillance, terror (one per turn)."""
    kind = order["kind"]
    action = ACTION_OF_KIND[kind]
    rec = state["factions"][faction]
    spec = _corruption_spec(faction, kind)
    if ctx.corruption_row is not None and int(order.get("row", 0)) != ctx.corruption_row:
        raise _Reject(_err("JR_ONE_CORRUPTION_ACTION", row=ctx.corruption_row))
    needed = spec.get("needs_action")
    if needed and not any(b.effects.get("enables_action") == needed for _, b in _owned_buildings(state, faction)):
        raise _Reject(_err("JR_ACTION_NEEDS_BUILDING", action=action, building=_enabling_building(faction, needed)))
    uses = int(rec.get("corruption_actions", {}).get(kind, 0))
    costs = _corruption_costs(rec, spec, kind)
    _pay(state, faction, costs, action)
    before = int(rec.get("corruption", 0))
    after = (before + 1) // 2 if spec.get("halve") else before      # JR-66: the remainder rounded up
    roll = rng.randint(1, int(spec["dice"])) if spec.get("dice") else 0
    cut = max(0, roll + int(spec.get("plus", 0)) - int(spec.get("less_per_use", 0)) * uses)
    after = max(0, after - cut)
    dice = f"1к{spec['dice']}" + (f"+{spec['plus']}" if spec.get("plus") else "") if spec.get("dice") else ""
    _change(state, faction, "corruption", after - before,
            f"{action}: коррупция {before} → {after}" + (f" (бросок {dice} = {roll})" if dice else ""))
    rec.setdefault("corruption_actions", {})[kind] = uses + 1
    paid = " и ".join(f"{v}{RESOURCE_SIGN[k]}" for k, v in costs.items() if v)
    notes = [f"коррупция {before} → {after}" + (f", потрачено {paid}" if paid else "")]
    if spec.get("blocks_armies"):
        rec["armies_blocked"] = True
        extra = round_half_up(upkeep_total(state, faction) * int(spec.get("army_upkeep_pct", 0)), 100)
        _change(state, faction, "gold", -extra, f"{action}: +{spec.get('army_upkeep_pct', 0)} % к содержанию армии")
        notes.append(f"армии в этот ход не действуют, доплата за содержание {extra}з")
    if spec.get("no_building_income"):
        lost = _cancel_building_income(state, faction, action)
        notes.append(f"строительства нет, постройки не принесли {lost}з")
    _log(state, faction, f"{action}: коррупция {before} → {after}")
    return "; ".join(notes)


def _cancel_building_income(state: dict, faction: str, action: str) -> int:
    """Take back this turn's gold from buildings, and recompute the corruption penalty without it."""
    lines = [line for line in state.get("ledger", []) if line.get("faction") == faction
             and line.get("resource") == "gold" and line.get("turn") == int(state["turn"])]
    buildings = sum(int(line["amount"]) for line in lines if line.get("kind") == "income_buildings")
    if buildings <= 0:
        return 0
    _change(state, faction, "gold", -buildings, f"{action}: постройки не приносят дохода в этот ход")
    for line in lines:
        if line.get("kind") == "corruption_income":
            refund = -int(line["amount"]) - (int(line["base"]) - buildings) * int(line["pct"]) // 100
            _change(state, faction, "gold", refund, f"{action}: штраф коррупции без дохода построек")
    return buildings


def _ritual(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Начиная с эпохи 'день' (с 5-го хода) вы можете принести в жертву 100 рабов и 1000з, чтобы обратить всех
    своих текущих рабов в Вечных слуг» (L154)."""
    spec = load_data().factions[faction]["ritual"]
    rec = state["factions"][faction]
    first = int(spec.get("from_turn", 5))
    if int(state["turn"]) < first:
        raise _Reject(_err("JR_RITUAL_TOO_EARLY", turn=first, era=load_data().era_for_turn(first).name,
                           now=state["turn"]))
    if rec.get("ritual_done"):
        raise _Reject(_err("JR_RITUAL_DONE"))
    _pay(state, faction, {"gold": int(spec.get("gold", 0)), "slaves": int(spec.get("slaves", 0))},
         "Ритуал вечных слуг: жертва")
    converted = int(rec.get("slaves", 0))
    _change(state, faction, "slaves", -converted, "Ритуал вечных слуг: рабы обращены")
    _change(state, faction, "eternal_servants", converted, "Ритуал вечных слуг: обращены рабы")
    rec["ritual_done"] = True
    _log(state, faction, f"Ритуал вечных слуг: {converted} рабов стали вечными слугами")
    return (f"принесено в жертву {spec.get('slaves')} рабов и {spec.get('gold')}з, {converted} рабов стали вечными "
            "слугами; новые рабы сразу становятся вечными слугами")


def _enslave(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Вы можете обратить в рабство жителей одного из своих городов. Он обратится в руины, а вы получите рабов в
    размере удвоенного базового дохода города» (L147)."""
    consts = load_data().factions[faction]
    cid = order["city"]
    city = _own_city(state, faction, cid)
    if city.get("ruins"):
        raise _Reject(_err("JR_ENSLAVE_RUINS", city=city["name"]))
    if not consts.get("enslave_last_city", False) and _city_count(state, faction) <= 1:
        raise _Reject(_err("JR_ENSLAVE_LAST_CITY", city=city["name"]))
    gain = base_income(city, faction) * int(consts.get("slaves_enslave_pct", 200)) // 100
    city.update(ruins=True, buildings=[], no_income_turns=0)
    got = gain_slaves(state, faction, gain, f"Жители города {city['name']} обращены в рабство", cid)
    _log(state, faction, f"Жители города {city['name']} обращены в рабство: +{got}, город лежит в руинах")
    return f"получено {got} рабов, город {city['name']} лежит в руинах"


def _crusade(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Вы можете объявить 'мстительный поход' против фракции … скидку в размере 7%*число обид … Всех купленных со
    скидкой юнитов вы обязаны отправить на захват города фракции, которой вы мстите» (L210; JR-82)."""
    target = str(order.get("target") or order.get("what") or "")
    rec = state["factions"][faction]
    if target not in state["factions"] or target == faction:
        raise _Reject(_err("JR_UNKNOWN_FACTION", value=target, allowed=allowed_list(rival_names(state, faction))))
    if ctx.crusade is not None:
        raise _Reject(_err("JR_CRUSADE_TWICE", target=faction_name(state, ctx.crusade)))
    other = state["factions"][target]
    if other.get("eliminated") or other.get("won"):
        raise _Reject(_err("JR_TARGET_OUT", target=faction_name(state, target)))
    grudges = int(rec.get("grudges", {}).get(target, 0))
    if grudges <= 0:
        raise _Reject(_err("JR_CRUSADE_NO_GRUDGES", target=faction_name(state, target)))
    pct = min(100, int(load_data().factions[faction].get("crusade_discount_pct_per_grudge", 7)) * grudges)
    ctx.crusade, ctx.crusade_pct = target, pct
    rec["crusade"] = {"turn": int(state["turn"]), "against": target, "discount_pct": pct, "units": {}}
    _log(state, faction, f"Объявлен мстительный поход против «{faction_name(state, target)}»: скидка {pct} %")
    return (f"поход против «{faction_name(state, target)}»: {grudges} обид, скидка {pct} % на найм этого хода; "
            "всех нанятых юнитов поставьте в армию, атакующую её город")


def _invest(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Гильдия вкладчиков (200з) - позволяет вложить до 500з и к следующему ходу вернуть на 20% больше» (L248);
    each guild takes up to 500з."""
    rec = state["factions"][faction]
    cap = _effect_total(state, faction, "investment_cap")
    if cap <= 0:
        names = [b.name for b in load_data().faction_buildings(faction) if b.effects.get("investment_cap")]
        raise _Reject(_err("JR_INVEST_NO_GUILD", building=" или ".join(f"«{n}»" for n in names) or "—"))
    amount, have = int(order["count"]), int(rec.get("investment", 0))
    if have + amount > cap:
        raise _Reject(_err("JR_INVEST_CAP", cap=cap, have=have, left=max(0, cap - have), value=amount))
    pct = max(int(b.effects.get("investment_return_pct", 0)) for _, b in _owned_buildings(state, faction)
              if b.effects.get("investment_cap"))
    _pay(state, faction, {"gold": amount}, "Вклад в гильдию вкладчиков")
    rec["investment"], rec["investment_pct"] = have + amount, pct
    back = have + amount + round_half_up((have + amount) * pct, 100)
    return f"вложено {amount}з; в начале следующего хода вернётся {back}з (вклад {have + amount}з и {pct} %)"


def _grudge_target(state: dict, faction: str, order: Mapping, rng: Dice, ctx: _OrdersTurn) -> str:
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции … Две гильдии против одной
    фракции работать не могут» (L253): the room of a city records grudges against the faction named."""
    cid, target = order["city"], str(order.get("target") or order.get("what") or "")
    city = _own_city(state, faction, cid)
    if target not in state["factions"] or target == faction:
        raise _Reject(_err("JR_UNKNOWN_FACTION", value=target, allowed=allowed_list(rival_names(state, faction))))
    per = _room_grudges(state, faction, cid)
    if not per:
        rooms = [state["cities"][c]["name"] for c in own_cities(state, faction, ruins=False)
                 if _room_grudges(state, faction, c)]
        raise _Reject(_err("JR_NO_GRUDGE_ROOM", city=city["name"], allowed=allowed_list(rooms)))
    rooms = state["factions"][faction].setdefault("grudge_rooms", {})
    for other_cid, other_target in sorted(rooms.items()):
        if other_cid != cid and other_target == target and _room_grudges(state, faction, other_cid):
            raise _Reject(_err("JR_GRUDGE_ROOM_TAKEN", target=faction_name(state, target),
                               city=state["cities"][other_cid]["name"]))
    rooms[cid] = target
    _log(state, faction, f"Комната записи обид в городе {city['name']} записывает обиды на "
                         f"«{faction_name(state, target)}»")
    return f"с начала следующего хода +{per} обида в ход на «{faction_name(state, target)}»"


_HANDLERS = {"sell": _sell, "build": _build, "upgrade": _upgrade, "restore": _restore, "buy_jade": _buy_jade,
             "hire": _hire, "ritual": _ritual, "enslave": _enslave, "crusade": _crusade, "invest": _invest,
             "grudge_target": _grudge_target, "hibernate": _sleep,
             **{kind: _corruption_action for kind in CORRUPTION_ACTIONS}}


def run_economy(state: dict, faction: str, orders: list[dict], rng: Dice,
                army_plan: dict | None = None) -> list[RowStatus]:
    """Apply a faction's economy orders to `state` (mutated) in the rulings' order; a status per order.

    An order the balance cannot pay, or that breaks a rule, is rejected with its message and
    changes nothing; the other orders still run. `army_plan` is the faction's parsed army plan of
    the turn: units hired in a vengeful campaign must be in an army attacking that faction (JR-82).
    A purge of the generals sets `armies_blocked` on the faction for this turn.
    """
    statuses: dict[int, RowStatus] = {}
    rec = state["factions"].get(faction)
    ordered = sort_orders([o for o in orders if isinstance(o, Mapping)])
    ctx = _OrdersTurn(army_plan=army_plan)
    if rec is not None:
        rec.pop("sleep_choice", None)
        _plan_corruption_action(state, faction, ordered, ctx)
    for order in ordered:
        row = int(order.get("row", 0))
        try:
            if rec is None or rec.get("eliminated") or rec.get("won"):
                raise _Reject(_err("JR_FACTION_OUT"))
            kind = order.get("kind")
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise _Reject(_err("E_INTERNAL", detail=f"неизвестный вид приказа {kind!r}"))
            note = handler(state, faction, order, rng, ctx)
            statuses[row] = RowStatus(TAB, row, note=f"{ACTION_OF_KIND[kind]}: {note}")
        except _Reject as rejected:
            statuses[row] = RowStatus(TAB, row, tuple(rejected.errors))
        except (KeyError, TypeError, ValueError) as exc:
            statuses[row] = RowStatus(TAB, row, (_err("E_INTERNAL", detail=type(exc).__name__),))
    if rec is not None:
        note_crypts(state, faction)
    return [statuses[r] for r in sorted(statuses)]


# -- stage ------------------------------------------------------------------------------

def begin_turn(state: dict, seed: int | str) -> None:
    """Steps 1-2 of the turn: start-of-turn events, then every playing faction's income and upkeep."""
    start_of_turn(state, seed)
    for faction in active_factions(state):
        collect_income(state, faction)
        pay_upkeep(state, faction)
        note_crypts(state, faction)


def resolve_orders_stage(state: Mapping, orders_by_faction: Mapping[str, list[dict]],
                         seed: int | str) -> tuple[dict, dict[str, list[RowStatus]]]:
    """Resolve the orders stage on a copy: start of turn, income, upkeep, orders, end of turn, next turn."""
    new = clone(dict(state))
    new["ledger"], new["log"] = [], []
    begin_turn(new, seed)
    statuses: dict[str, list[RowStatus]] = {}
    for faction in sorted(orders_by_faction):
        if faction not in new["factions"]:
            continue
        statuses[faction] = run_economy(new, faction, list(orders_by_faction[faction]),
                                        stream(seed, "economy", faction))
    end_of_turn(new)
    new["turn"] = int(new["turn"]) + 1
    new["era"] = era_of(new).key
    return new, statuses


def validate_economy(state: Mapping, faction: str, rows: list[Row],
                     army_plan: dict | None = None) -> list[RowStatus]:
    """Parse the rows and dry-run them on a copy after this turn's income and upkeep.

    Lets `check` report e.g. "not enough gold" before the deadline. The dry run uses seed 0
    for the turn's dice (corruption), so an Empire's figures may differ slightly at resolve.
    """
    orders, parsed = parse_economy_rows(state, faction, rows)
    results = {s.number: s for s in parsed}
    copy = clone(dict(state))
    copy["ledger"], copy["log"] = [], []
    if faction in copy["factions"]:
        begin_turn(copy, 0)
        for status in run_economy(copy, faction, orders, stream(0, "economy", faction), army_plan=army_plan):
            results[status.number] = status
    return [results[n] for n in sorted(results)]
