"""The vampires (L143-184): half city income, slaves (gold, blood, escapes, deaths, the ritual, enslaving a
city, slaves from war), hibernation and crypts, and their victory: the last rival surrenders."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import allowed_list
from engine.jade_rose import hibernation, ledger
from engine.jade_rose.actions.base import Dice, DiceSource, OrdersTurn, Reject, err, own_city, pay, what
from engine.jade_rose.data import UnitDef, load_data
from engine.jade_rose.factions.base import CHOICE_WORDS, AddLine, Faction
from engine.jade_rose.holdings import (
    active_factions,
    base_income,
    city_count,
    city_name,
    effect_total,
    era_of,
    faction_name,
    multiplier_note,
    neighbours,
    own_cities,
    owned_buildings,
    round_half_up,
)
from engine.jade_rose.state_types import CaptureEvent, EconomyOrder, FactionRecord, JadeRoseState, LedgerLine
from engine.russian import agree

SLAVES_PCT_KEY = {"colonise": "slaves_capture_pct", "plunder": "slaves_plunder_pct", "raze": "slaves_raze_pct"}


def _consts(faction: str) -> Mapping[str, Any]:
    return load_data().factions.get(faction, {})


def gain_slaves(state: JadeRoseState, faction: str, amount: int, reason: str, city: str | None = None) -> int:
    """Slaves received (× the era's resource multiplier, JR-62); after the ritual they arrive as eternal
    servants (L155 «Все рабы, которых вы захватите в будущем, тоже будут автоматически превращаться»)."""
    if amount <= 0:
        return 0
    rec = state["factions"][faction]
    doubled = _consts(faction).get("slaves_doubled_in_sunset", True)
    mult = int(era_of(state).resource_multiplier) if doubled else 1
    resource = "eternal_servants" if rec.get("ritual_done") else "slaves"
    note = " — сразу вечные слуги" if resource == "eternal_servants" else ""
    ledger.change(state, faction, resource, amount * mult, reason + note + multiplier_note(state, mult), city)
    return amount * mult


def _slave_cap(state: JadeRoseState, faction: str) -> int:
    return int(load_data().factions["vampires"].get("slave_cap", 600)) + effect_total(state, faction, "slave_cap")


def _escape_fraction(state: JadeRoseState, faction: str) -> tuple[int, int]:
    consts = load_data().factions["vampires"]
    fractions = [tuple(b.effects["slave_escape_fraction"]) for _, b in owned_buildings(state, faction)
                 if "slave_escape_fraction" in b.effects]
    if not fractions:
        return tuple(consts.get("slave_escape_fraction", (2, 3)))
    return min(fractions, key=lambda f: f[0] / f[1])


def slave_deaths(state: JadeRoseState, faction: str) -> int:
    """Slaves dying at the end of the turn: a third (rounded half up, JR-70) plus the gallows' losses."""
    num, den = load_data().factions["vampires"].get("slave_death_fraction", (1, 3))
    slaves = int(state["factions"][faction].get("slaves", 0))
    extra = max((int(b.effects.get("slave_losses_per_turn", 0)) for _, b in owned_buildings(state, faction)),
                default=0)
    return min(slaves, round_half_up(slaves * num, den) + extra)


# -- crypts ------------------------------------------------------------------------------------

def crypt_occupants(state: JadeRoseState, faction: str) -> dict[str, dict[str, int]]:
    """Hibernating units in each city's crypt (no upkeep there): costliest upkeep first, crypts by city name.

    A bone cannon takes the room of 3 (L167)."""
    data = load_data()
    rec = state["factions"][faction]
    pending: list[list[Any]] = sorted(      # [unit key, sleepers not yet in a crypt]
        ([k, n] for k, n in rec.get("hibernating", {}).items() if n > 0 and k in data.units),
        key=lambda kv: (-data.units[kv[0]].upkeep / max(1, data.units[kv[0]].blood), kv[0]))
    out: dict[str, dict[str, int]] = {}
    for cid, b in owned_buildings(state, faction):
        space = int(b.effects.get("crypt_capacity", 0))
        for entry in pending:
            per = max(1, data.units[entry[0]].blood)
            fit = min(entry[1], space // per)
            if fit:
                out.setdefault(cid, {})[entry[0]] = out.get(cid, {}).get(entry[0], 0) + fit
                entry[1] -= fit
                space -= fit * per
    return out


def note_crypts(state: JadeRoseState, faction: str) -> None:
    """Remember who sleeps in which crypt: when a city is captured its sleepers die (L180), even after
    the capture has destroyed the crypt."""
    rec = state["factions"][faction]
    if "hibernating" in rec:
        rec["crypts"] = crypt_occupants(state, faction)


def _crypt_sleepers_die(state: JadeRoseState, faction: str, cid: Any) -> None:
    """L180 «Если город захватят, то вампиры из склепа автоматически умирают» (the crypt list of the turn)."""
    rec = state["factions"][faction]
    sleepers = rec.get("crypts", {}).pop(cid, None) if isinstance(cid, str) else None
    if not sleepers:
        return
    data = load_data()
    units, sleeping = rec.setdefault("units", {}), rec.setdefault("hibernating", {})
    dead = []
    for key, n in sorted(sleepers.items()):
        n = min(int(n), int(units.get(key, 0)), int(sleeping.get(key, 0)))
        if n > 0:
            units[key] -= n
            sleeping[key] -= n
            if not sleeping[key]:
                del sleeping[key]
            dead.append(f"{data.units[key].name} ×{n}")
    if dead:
        ledger.note(state, faction, f"Город {city_name(state, cid)} захвачен: вампиры, спавшие в склепе, погибли "
                                    f"({', '.join(dead)})")


# -- actions ------------------------------------------------------------------------------------

def ritual(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Начиная с эпохи 'день' (с 5-го хода) вы можете принести в жертву 100 рабов и 1000з, чтобы обратить всех
    своих текущих рабов в Вечных слуг» (L154)."""
    spec = load_data().factions[faction]["ritual"]
    rec = state["factions"][faction]
    first = int(spec.get("from_turn", 5))
    if int(state["turn"]) < first:
        raise Reject(err("JR_RITUAL_TOO_EARLY", turn=first, era=load_data().era_for_turn(first).name,
                         now=state["turn"]))
    if rec.get("ritual_done"):
        raise Reject(err("JR_RITUAL_DONE"))
    pay(state, faction, {"gold": int(spec.get("gold", 0)), "slaves": int(spec.get("slaves", 0))},
        "Ритуал вечных слуг: жертва")
    converted = int(rec.get("slaves", 0))
    ledger.change(state, faction, "slaves", -converted, "Ритуал вечных слуг: рабы обращены")
    ledger.change(state, faction, "eternal_servants", converted, "Ритуал вечных слуг: обращены рабы")
    rec["ritual_done"] = True
    ledger.note(state, faction, f"Ритуал вечных слуг: в вечных слуг обращены рабы ({converted})")
    return (f"в жертву: {agree(int(spec.get('slaves') or 0), 'раб')} и {spec.get('gold')}з; в вечных слуг обращены "
            f"рабы ({converted}); новые рабы сразу становятся вечными слугами")


def enslave(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Вы можете обратить в рабство жителей одного из своих городов. Он обратится в руины, а вы получите рабов в
    размере удвоенного базового дохода города» (L147)."""
    consts = load_data().factions[faction]
    cid = order["city"]
    city = own_city(state, faction, cid)
    if city.get("ruins"):
        raise Reject(err("JR_ENSLAVE_RUINS", city=city["name"]))
    if not consts.get("enslave_last_city", False) and city_count(state, faction) <= 1:
        raise Reject(err("JR_ENSLAVE_LAST_CITY", city=city["name"]))
    gain = base_income(city, faction) * int(consts.get("slaves_enslave_pct", 200)) // 100
    city.update({"ruins": True, "buildings": [], "no_income_turns": 0})
    got = gain_slaves(state, faction, gain, f"Жители города {city['name']} обращены в рабство", cid)
    ledger.note(state, faction, f"Жители города {city['name']} обращены в рабство: +{got}, город лежит в руинах")
    return f"новые рабы: {got}, город {city['name']} лежит в руинах"


def sleep(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Если крови рабов не хватает для содержания армии, то часть вампиров впадает в спячку (вы можете сами
    выбрать, какие)» (L144, JR-71): the named units sleep first if the blood runs short at the end of the turn."""
    data = load_data()
    unit = data.units[what(order)]
    rec = state["factions"][faction]
    if unit.blood <= 0:
        thirsty = [u.name for u in sorted(data.faction_units(faction), key=lambda u: u.tier) if u.blood > 0]
        raise Reject(err("JR_SLEEP_NO_BLOOD", unit=unit.name, allowed=allowed_list(thirsty)))
    count, have = int(order["count"]), int(rec.get("units", {}).get(unit.key, 0))
    used = hibernation.named_sleepers(rec).get(unit.key, 0)
    if count > have - used:
        raise Reject(err("JR_SLEEP_TOO_MANY", unit=unit.name, count=count, have=have, used=used,
                         left=max(0, have - used)))
    hibernation.name_sleepers(rec, unit.key, count)
    after: FactionRecord = {**rec, "slaves": int(rec.get("slaves", 0)) - slave_deaths(state, faction)}
    cap, need = hibernation.blood_capacity(after), hibernation.blood_needed(rec)
    outlook = (f"сейчас крови после гибели рабов в конце хода хватит на {cap} из {agree(need, 'юнит', 'gent')}"
               if cap < need else
               f"сейчас крови хватает на всех (хватило бы на {agree(cap, 'юнит', 'accs')}, нужно на {need})")
    return (f"{unit.name} ×{count} уснут первыми, если в конце хода не хватит крови рабов "
            f"({outlook}; бои этого хода могут это изменить)")


def _blood_used(state: JadeRoseState, faction: str) -> int:
    data = load_data()
    rec = state["factions"][faction]
    sleeping = rec.get("hibernating", {})
    return sum(data.units[k].blood * (n - int(sleeping.get(k, 0)))
               for k, n in rec.get("units", {}).items() if k in data.units and n > 0)


def subjugate(state: JadeRoseState, faction: str, name: str, how: str) -> str:
    """L141: «оставшаяся фракция добровольно вынуждена вам сдаться. Вы подчиняете её и захватываете весь мир.»"""
    rivals = [f for f in active_factions(state) if f != faction]
    for other in rivals:
        state["factions"][other].update({"eliminated": True, "subjugated_by": faction})
        for cid in own_cities(state, other):
            state["cities"][cid]["owner"] = faction
        ledger.note(state, other, f"Фракция сдалась: её подчинила фракция «{name}»")
    defeated = ", ".join(f"«{faction_name(state, f)}»" for f in rivals) or "никто"
    return f"{name} побеждает ({how}): {defeated} сдаётся, весь мир покорён."


def _slave_market_bonus(state: JadeRoseState, faction: str, cid: Any) -> int:
    """«Рынок рабов (100з) - +50 к получаемым рабам при нападениях на соседние города» (L184): the attacked city
    is next by road to an own city with a slave market; several markets do not add up."""
    data = load_data()
    if not isinstance(cid, str):
        return 0
    best = 0
    for other in neighbours(state, cid):
        city = state["cities"].get(other)
        if city is not None and city.get("owner") == faction and not city.get("ruins"):
            for b in city.get("buildings", []):
                if b in data.buildings:
                    best = max(best, int(data.buildings[b].effects.get("slave_market_bonus", 0)))
    return best


class Vampires(Faction):
    key = "vampires"
    resources = ("slaves", "eternal_servants")
    actions = {"ritual": ritual, "enslave": enslave, "hibernate": sleep}

    def start_of_turn(self, state: JadeRoseState, faction: str, dice: DiceSource) -> None:
        """Two thirds (one third with gallows) of the slaves above the cap escape at the start (L151, JR-70)."""
        rec = state["factions"][faction]
        over = int(rec.get("slaves", 0)) - _slave_cap(state, faction)
        if over > 0:
            num, den = _escape_fraction(state, faction)
            ledger.change(state, faction, "slaves", -round_half_up(over * num, den),
                          f"Побег рабов сверх максимума ({_slave_cap(state, faction)})")

    def income(self, state: JadeRoseState, faction: str, add: AddLine, lines: list[LedgerLine]) -> None:
        """Gold from every slave and eternal servant (× the era's multiplier)."""
        per_slave = int(_consts(faction).get("gold_per_slave", 0))
        if per_slave:
            rec, era = state["factions"][faction], era_of(state)
            gmul = int(era.gold_multiplier)
            suffix = f" ({era.name}: ×{gmul})" if gmul != 1 else ""
            slaves = int(rec.get("slaves", 0)) + int(rec.get("eternal_servants", 0))
            add("gold", slaves * per_slave * gmul, f"Рабы и вечные слуги: {per_slave}з за каждого{suffix}",
                kind="income_slaves")

    def upkeep_exempt(self, state: JadeRoseState, faction: str) -> dict[str, int]:
        """Hibernating units that sleep in a crypt pay no upkeep."""
        out: dict[str, int] = {}
        for units in crypt_occupants(state, faction).values():
            for key, n in units.items():
                out[key] = out.get(key, 0) + n
        return out

    def after_economy(self, state: JadeRoseState, faction: str) -> None:
        note_crypts(state, faction)

    def end_of_turn(self, state: JadeRoseState, faction: str) -> None:
        """A third of the slaves (rounded half up) die, plus the gallows' losses; then hibernation (the player's
        choice of sleepers first, then newest first, JR-71; see hibernation.py)."""
        ledger.change(state, faction, "slaves", -slave_deaths(state, faction), "Гибель рабов в конце хода")
        hibernation.hibernate(state, faction)
        note_crypts(state, faction)

    def hire_capacity(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int) -> None:
        """Each unit drinking blood needs 15 slaves or eternal servants (L144)."""
        if not unit.blood:
            return
        rec = state["factions"][faction]
        per_unit = int(load_data().factions["vampires"].get("slaves_per_unit", 15))
        slaves = int(rec.get("slaves", 0)) + int(rec.get("eternal_servants", 0))
        cap = slaves // per_unit
        used = _blood_used(state, faction)
        if used + unit.blood * count > cap:
            raise Reject(err("JR_NOT_ENOUGH_BLOOD", per_unit=per_unit, unit=unit.name,
                             need_each=per_unit * unit.blood, slaves=slaves, cap=cap, used=used,
                             left=max(0, (cap - used) // unit.blood)))

    # -- war ------------------------------------------------------------------------------------
    def on_city_lost(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L148: «Если ваш город захватывают или разграбляют, вампиры сбегают из него вместе с рабами» (2× base);
        the crypt's sleepers die (L180)."""
        consts, cid = _consts(faction), event.get("city")
        if "slaves_own_city_lost_pct" in consts:
            amount = int(event.get("base_income", 0)) * int(consts["slaves_own_city_lost_pct"]) // 100
            gain_slaves(state, faction, amount, f"Вампиры бежали из города {city_name(state, cid)} вместе с рабами",
                        cid)
        _crypt_sleepers_die(state, faction, cid)

    def on_city_taken(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L145-146: slaves from plunder (= base income) and capture (half of it); L184 the slave market's +50."""
        consts, cid, choice = _consts(faction), event.get("city"), event["choice"]
        key = SLAVES_PCT_KEY[choice]
        if key in consts:
            place = city_name(state, cid)
            amount = int(event.get("base_income", 0)) * int(consts[key]) // 100
            gain_slaves(state, faction, amount, f"Рабы: город {place} {CHOICE_WORDS[choice]}", cid)
            bonus = _slave_market_bonus(state, faction, cid)
            gain_slaves(state, faction, bonus, f"Рынок рабов: нападение на соседний город {place}", cid)
