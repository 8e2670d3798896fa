"""The dwarves (L196-260): runes, grudges (how they are earned and forgiven, the grudge rooms, their weight in
battle), the investors' guild, the vengeful campaign, and their victory: tunnels under the world."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import allowed_list
from engine.jade_rose import ledger
from engine.jade_rose.actions.base import Dice, DiceSource, OrdersTurn, Reject, err, own_city, pay
from engine.jade_rose.data import UnitDef, load_data
from engine.jade_rose.economy_orders import rival_names
from engine.jade_rose.factions.base import CHOICE_WORDS, AddLine, Faction
from engine.jade_rose.holdings import (
    city_count,
    city_name,
    city_size,
    effect_total,
    era_of,
    faction_name,
    has_effect,
    multiplier_note,
    own_cities,
    owned_buildings,
    round_half_up,
)
from engine.jade_rose.state_types import (
    BattleEvent,
    CaptureEvent,
    EconomyOrder,
    FailedAttackEvent,
    JadeRoseState,
    LedgerLine,
    SideModifiers,
    WarPlan,
)
from engine.russian import agree


def _consts(faction: str) -> Mapping[str, Any]:
    return load_data().factions.get(faction, {})


# -- grudges ---------------------------------------------------------------------------------

def change_grudges(state: JadeRoseState, faction: str, against: str | None, amount: int, reason: str) -> int:
    """Grudges of `faction` against `against`, kept within 0..10 (L209); the guild of endless vengeance ignores
    every reduction (L257). Each change is a ledger line (resource "grudges", key "against"). Returns it."""
    rec = state["factions"].get(faction)
    if not amount or rec is None or "grudges" not in rec or against == faction or against not in state["factions"]:
        return 0
    if amount < 0 and has_effect(state, faction, "ignore_grudge_reduction"):
        ledger.note(state, faction, f"Гильдия бесконечной мести: обиды на «{faction_name(state, against)}» не "
                                    f"снижаются ({reason})")
        return 0
    consts = _consts(faction)
    now = int(rec["grudges"].get(against, 0))
    new = max(int(consts.get("grudge_min", 0)), min(int(consts.get("grudge_cap", 10)), now + amount))
    if amount > 0:
        rec.setdefault("grudge_turns", {})[against] = int(state["turn"])
    ledger.change(state, faction, "grudges", new - now, reason, against=against)
    return new - now


def _forgive_grudges(state: JadeRoseState, faction: str) -> None:
    """«если у вашей фракции вдвое больше городов, чем у противника, то этому противнику прощается 1 обида в
    начале каждого хода, если он не заработал ни одной новой обиды» (L208; new = during the previous turn)."""
    rec = state["factions"][faction]
    consts = _consts(faction)
    ratio, per = int(consts.get("forgiveness_city_ratio", 2)), int(consts.get("forgiveness_per_turn", 1))
    mine, turn = city_count(state, faction), int(state["turn"])
    for other, n in sorted(rec["grudges"].items()):
        if n <= 0 or other not in state["factions"]:
            continue
        theirs = city_count(state, other)
        last = rec.get("grudge_turns", {}).get(other)
        if mine >= ratio * theirs and (last is None or int(last) < turn - 1):
            change_grudges(state, faction, other, -per,
                           f"Прощение: у дворфов вдвое больше городов ({mine} против {theirs}), "
                           f"а «{faction_name(state, other)}» не нанесла новых обид")


def _room_grudges(state: JadeRoseState, faction: str, cid: str) -> int:
    city = state["cities"].get(cid)
    if not city or city.get("owner") != faction or city.get("ruins"):
        return 0
    data = load_data()
    return max((int(data.buildings[b].effects.get("grudges_per_turn", 0)) for b in city["buildings"]
                if b in data.buildings), default=0)


def _grudge_room_gains(state: JadeRoseState, faction: str) -> None:
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции … Две гильдии против одной
    фракции работать не могут» (L253)."""
    rec = state["factions"][faction]
    rooms = rec.get("grudge_rooms", {})
    counted: set[str] = set()
    for cid in sorted(rooms):
        target, city = rooms[cid], state["cities"].get(cid)
        place = city["name"] if city is not None else cid
        per = _room_grudges(state, faction, cid)
        if not per:
            del rooms[cid]
            ledger.note(state, faction, f"Комнаты записи обид в городе {place} больше нет: обиды "
                                        f"на «{faction_name(state, target)}» там не записываются")
            continue
        other = state["factions"].get(target)
        if target in counted or (other is not None and (other.get("eliminated") or other.get("won"))):
            continue
        counted.add(target)
        change_grudges(state, faction, target, per, f"Комната записи обид ({place}): +{per}")


def _return_investment(state: JadeRoseState, faction: str) -> None:
    """«Гильдия вкладчиков … позволяет вложить до 500з и к следующему ходу вернуть на 20% больше» (L248)."""
    rec = state["factions"][faction]
    amount = int(rec.get("investment", 0))
    if amount <= 0:
        return
    pct = int(rec.get("investment_pct", 0))
    doubled = _consts(faction).get("investment_profit_doubled_in_sunset", True)
    mult = int(era_of(state).gold_multiplier) if doubled else 1
    rec["investment"] = 0
    ledger.change(state, faction, "gold", amount, "Гильдия вкладчиков: возврат вклада")
    ledger.change(state, faction, "gold", round_half_up(amount * pct, 100) * mult,
                  f"Гильдия вкладчиков: доход +{pct} % с вклада {amount}з" + multiplier_note(state, mult))


# -- actions -----------------------------------------------------------------------------------

def units_sent_against(state: JadeRoseState, army_plan: WarPlan | None, target: str) -> dict[str, int]:
    """Units of the army plan's armies that attack a city of `target` this turn, by unit key."""
    out: dict[str, int] = {}
    armies = army_plan.get("armies", {}) if isinstance(army_plan, Mapping) else {}
    for army in (armies.values() if isinstance(armies, Mapping) else ()):
        if not isinstance(army, Mapping) or army.get("order") != "attack":
            continue
        where = army.get("city")
        city = state["cities"].get(where) if isinstance(where, str) else None
        if not city or city.get("owner") != target:
            continue
        for squad in army.get("squads", ()) or ():
            for key, n in (squad.get("units", {}) if isinstance(squad, Mapping) else {}).items():
                if isinstance(n, int) and n > 0:
                    out[key] = out.get(key, 0) + n
    return out


def crusade(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Вы можете объявить 'мстительный поход' против фракции … скидку в размере 7%*число обид … Всех купленных со
    скидкой юнитов вы обязаны отправить на захват города фракции, которой вы мстите» (L210; JR-82)."""
    target = str(order.get("target") or order.get("what") or "")
    rec = state["factions"][faction]
    if target not in state["factions"] or target == faction:
        raise Reject(err("JR_UNKNOWN_FACTION", value=target, allowed=allowed_list(rival_names(state, faction))))
    if ctx.crusade is not None:
        raise Reject(err("JR_CRUSADE_TWICE", target=faction_name(state, ctx.crusade)))
    other = state["factions"][target]
    if other.get("eliminated") or other.get("won"):
        raise Reject(err("JR_TARGET_OUT", target=faction_name(state, target)))
    grudges = int(rec.get("grudges", {}).get(target, 0))
    if grudges <= 0:
        raise Reject(err("JR_CRUSADE_NO_GRUDGES", target=faction_name(state, target)))
    pct = min(100, int(_consts(faction).get("crusade_discount_pct_per_grudge", 7)) * grudges)
    ctx.crusade, ctx.crusade_pct = target, pct
    rec["crusade"] = {"turn": int(state["turn"]), "against": target, "discount_pct": pct, "units": {}}
    ledger.note(state, faction, f"Объявлен мстительный поход против «{faction_name(state, target)}»: скидка {pct} %")
    return (f"поход против «{faction_name(state, target)}»: {agree(grudges, 'обида')}, "
            f"скидка {pct} % на найм этого хода; "
            "всех нанятых юнитов поставьте в армию, атакующую её город")


def invest(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Гильдия вкладчиков (200з) - позволяет вложить до 500з и к следующему ходу вернуть на 20% больше» (L248);
    each guild takes up to 500з."""
    rec = state["factions"][faction]
    cap = effect_total(state, faction, "investment_cap")
    if cap <= 0:
        names = [b.name for b in load_data().faction_buildings(faction) if b.effects.get("investment_cap")]
        raise Reject(err("JR_INVEST_NO_GUILD", building=" или ".join(f"«{n}»" for n in names) or "—"))
    amount, have = int(order["count"]), int(rec.get("investment", 0))
    if have + amount > cap:
        raise Reject(err("JR_INVEST_CAP", cap=cap, have=have, left=max(0, cap - have), value=amount))
    pct = max(int(b.effects.get("investment_return_pct", 0)) for _, b in owned_buildings(state, faction)
              if b.effects.get("investment_cap"))
    pay(state, faction, {"gold": amount}, "Вклад в гильдию вкладчиков")
    rec["investment"], rec["investment_pct"] = have + amount, pct
    back = have + amount + round_half_up((have + amount) * pct, 100)
    return f"вложено {amount}з; в начале следующего хода вернётся {back}з (вклад {have + amount}з и {pct} %)"


def grudge_target(state: JadeRoseState, faction: str, order: EconomyOrder, rng: Dice, ctx: OrdersTurn) -> str:
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции … Две гильдии против одной
    фракции работать не могут» (L253): the room of a city records grudges against the faction named."""
    cid, target = order["city"], str(order.get("target") or order.get("what") or "")
    city = own_city(state, faction, cid)
    assert cid is not None      # own_city found the city
    if target not in state["factions"] or target == faction:
        raise Reject(err("JR_UNKNOWN_FACTION", value=target, allowed=allowed_list(rival_names(state, faction))))
    per = _room_grudges(state, faction, cid)
    if not per:
        with_rooms = [state["cities"][c]["name"] for c in own_cities(state, faction, ruins=False)
                      if _room_grudges(state, faction, c)]
        raise Reject(err("JR_NO_GRUDGE_ROOM", city=city["name"], allowed=allowed_list(with_rooms)))
    rooms = state["factions"][faction].setdefault("grudge_rooms", {})
    for other_cid, other_target in sorted(rooms.items()):
        if other_cid != cid and other_target == target and _room_grudges(state, faction, other_cid):
            raise Reject(err("JR_GRUDGE_ROOM_TAKEN", target=faction_name(state, target),
                             city=state["cities"][other_cid]["name"]))
    rooms[cid] = target
    ledger.note(state, faction, f"Комната записи обид в городе {city['name']} записывает обиды на "
                                f"«{faction_name(state, target)}»")
    return f"с начала следующего хода +{agree(per, 'обида')} в ход на «{faction_name(state, target)}»"


def go_underground(state: JadeRoseState, faction: str, name: str, how: str) -> str:
    """L200: «Дворфы переселяются под землю, а города на поверхности становятся руинами.»"""
    for cid in own_cities(state, faction):
        state["cities"][cid].update({"ruins": True, "buildings": [], "owner": None, "no_income_turns": 0})
    return (f"{name} побеждает ({how}): дворфы выкапывают колоссальную сеть тоннелей и уходят под землю, "
            "их города на поверхности становятся руинами.")


class Dwarves(Faction):
    key = "dwarves"
    resources = ("runes",)
    uses_runes = True
    actions = {"crusade": crusade, "invest": invest, "grudge_target": grudge_target}

    def status_rows(self, state: JadeRoseState, faction: str) -> list[tuple[str, Any, str]]:
        """One row per faction the dwarves hold grudges against."""
        return [(f"Обиды: {state['factions'][other]['name']}", n, "+5 % к урону против этой фракции за обиду")
                for other, n in sorted(state["factions"][faction].get("grudges", {}).items())]

    def start_of_turn(self, state: JadeRoseState, faction: str, dice: DiceSource) -> None:
        """Grudge forgiveness, the investment's return, the grudge rooms' gains."""
        if "grudges" in state["factions"][faction]:
            _forgive_grudges(state, faction)
        _return_investment(state, faction)
        if "grudges" in state["factions"][faction]:
            _grudge_room_gains(state, faction)

    def income(self, state: JadeRoseState, faction: str, add: AddLine, lines: list[LedgerLine]) -> None:
        """Runes per turn and from the obelisk (one per faction: the largest bonus), up to the cap."""
        consts, rec, era = _consts(faction), state["factions"][faction], era_of(state)
        rmul = int(era.resource_multiplier)
        rsuffix = f" ({era.name}: ×{rmul})" if rmul != 1 else ""
        obelisk = max((int(b.effects.get("runes_per_turn", 0)) for _, b in owned_buildings(state, faction)),
                      default=0)
        gain = (int(consts.get("runes_per_turn", 0)) + obelisk) * rmul
        room = max(0, int(consts.get("rune_cap", 10)) - int(rec.get("runes", 0)))
        add("runes", min(gain, room), f"Руны за ход (запас не больше {consts.get('rune_cap', 10)}){rsuffix}")

    def hire_price(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int, costs: dict[str, int],
                   ctx: OrdersTurn) -> tuple[dict[str, int], str]:
        """The vengeful campaign's discount, for units sent against its target (JR-82)."""
        if not (ctx.crusade and ctx.crusade_pct and any(costs.values())):
            return costs, ""
        target = str(ctx.crusade)
        sent = units_sent_against(state, ctx.army_plan, target).get(unit.key, 0)
        already = ctx.discounted.get(unit.key, 0)
        if already + count > sent:
            raise Reject(err("JR_CRUSADE_NOT_SENT", unit=unit.name, count=count, target=faction_name(state, target),
                             sent=sent, already=already))
        # L210 «Остаток цены покупки округляется вниз»: the discount applies to the whole order.
        return ({res: v * (100 - ctx.crusade_pct) // 100 for res, v in costs.items()},
                f" (мстительный поход: скидка {ctx.crusade_pct} %)")

    def after_hire(self, state: JadeRoseState, faction: str, unit: UnitDef, count: int, ctx: OrdersTurn,
                   price_note: str) -> str:
        if not price_note:
            return ""
        ctx.discounted[unit.key] = ctx.discounted.get(unit.key, 0) + count
        campaign = state["factions"][faction].get("crusade", {})
        campaign.setdefault("units", {})[unit.key] = ctx.discounted[unit.key]
        return (f" (скидка {ctx.crusade_pct} %; отправьте их на захват города фракции "
                f"«{faction_name(state, str(ctx.crusade))}»)")

    # -- war ------------------------------------------------------------------------------------
    def battle_modifiers(self, state: JadeRoseState, faction: str, opponent: str | None, city: str,
                         out: SideModifiers) -> None:
        """Grudges against the opponent raise the dwarves' damage."""
        if opponent:
            out["grudges"] = int(state["factions"][faction].get("grudges", {}).get(opponent, 0))

    def on_attacked(self, state: JadeRoseState, faction: str, event: BattleEvent, place: str) -> None:
        """L207 «Враг уничтожил как минимум половину вашей армии при нападении на вас: +1 обида» (JR-80: by count)."""
        attacker = event.get("attacker")
        if "grudges" not in state["factions"][faction]:
            return
        consts = _consts(faction)
        size = int((event.get("army_size") or {}).get(faction, 0))
        lost = sum(int(n) for n in ((event.get("army_deaths") or {}).get(faction) or {}).values())
        num, den = consts.get("half_army_fraction", (1, 2))
        if size > 0 and lost * int(den) >= size * int(num):
            change_grudges(state, faction, attacker, int(consts.get("grudges_half_army", 1)),
                           f"Обида: «{faction_name(state, attacker)}» уничтожила {lost} "
                           f"из {agree(size, 'юнит', 'gent')} армии "
                           f"при нападении на {place}")

    def on_city_lost(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L204: «Ваш город захватили, разграбили или разрушили: +1 обиды для маленького, +2 для большого. Если он
        был максимального уровня, ограниченного эпохой - вдвое больше.»"""
        attacker = event.get("attacker")
        if "grudges" not in state["factions"][faction] or not _playing(state, attacker):
            return
        consts = _consts(faction)
        amount = int(consts.get("grudges_city_lost", {}).get(city_size(event), 0))
        top = int(event.get("level_before", 0)) >= int(event.get("era_max_level", 99))
        if top:
            amount *= int(consts.get("grudges_max_level_multiplier", 2))
        doubled = " (город максимального уровня эпохи: вдвое)" if top else ""
        change_grudges(state, faction, attacker, amount,
                       f"Обида: «{faction_name(state, attacker)}» — город {city_name(state, event.get('city'))} "
                       f"{CHOICE_WORDS[event['choice']]}{doubled}")

    def on_city_taken(self, state: JadeRoseState, faction: str, event: CaptureEvent) -> None:
        """L205 «Вы захватили город фракции: -1 обида для маленького, -2 обиды для большого.»"""
        previous = event.get("previous_owner")
        if "grudges" in state["factions"][faction] and _playing(state, previous) and previous != faction:
            amount = int(_consts(faction).get("grudges_city_taken", {}).get(city_size(event), 0))
            change_grudges(state, faction, previous, amount, f"Отмщение: взят город "
                                                             f"{city_name(state, event.get('city'))} фракции "
                                                             f"«{faction_name(state, previous)}»")

    def on_failed_attack(self, state: JadeRoseState, faction: str, event: FailedAttackEvent) -> None:
        """L206 «Враг неудачно напал на ваш город: +1 обида.»"""
        attacker = event.get("attacker")
        if "grudges" in state["factions"][faction]:
            change_grudges(state, faction, attacker, int(_consts(faction).get("grudges_failed_attack", 1)),
                           f"Обида: «{faction_name(state, attacker)}» неудачно напала на "
                           f"{city_name(state, event.get('city'))}")


def _playing(state: JadeRoseState, faction: Any) -> bool:
    return isinstance(faction, str) and faction in state["factions"]
