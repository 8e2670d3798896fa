"""Jade Rose faction consequences of the war, victory conditions and Midnight (RULINGS JR-56 steps 6-7).

`apply_war_events` turns the war's events (battles, captures, failed attacks, eliminations) into honor,
slaves and grudges; `end_of_turn` checks every faction's victory conditions (all of them required,
JR-59) on the balances held then, and after the last turn Midnight (JR-60). Every balance change is a
ledger line with a Russian reason; what happened is also told in the faction's log and, for victories
and Midnight, in the public chronicle.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from engine.jade_rose.data import load_data
from engine.jade_rose.economy import (active_factions, base_income, change_grudges, faction_name, gain_honor,
                                      gain_slaves, income_lines, lose_honor, own_cities, upkeep_total)

TAKEN = ("colonise", "plunder", "raze")          # a city changes hands or is destroyed; "ruins" is no city (JR-51)
SLAVES_PCT_KEY = {"colonise": "slaves_capture_pct", "plunder": "slaves_plunder_pct", "raze": "slaves_raze_pct"}
CHOICE_WORDS = {"colonise": "захвачен", "plunder": "разграблен", "raze": "разрушен"}


def _log(state: dict, faction: str, text: str) -> None:
    state.setdefault("log", []).append({"faction": faction, "text": text})


def _chronicle(state: dict, kind: str, text: str) -> None:
    state.setdefault("chronicle", []).append({"turn": int(state["turn"]), "kind": kind, "text": text})


def _consts(faction: str | None) -> Mapping[str, Any]:
    return load_data().factions.get(faction or "", {})


def _city_name(state: Mapping, cid: Any) -> str:
    city = state["cities"].get(cid) if isinstance(cid, str) else None
    return city["name"] if city else str(cid)


def _playing(state: Mapping, faction: Any) -> bool:
    return isinstance(faction, str) and faction in state["factions"]


# -- war events -----------------------------------------------------------------------

def apply_war_events(state: dict, events: list[dict]) -> None:
    """Faction consequences of the turn's war events, in their order (the war already moved cities, paid
    plunder and raze gold and removed the losses); each affected faction's log gets one line per event."""
    for event in events:
        if isinstance(event, Mapping):
            handler = _EVENT_HANDLERS.get(event.get("kind"))
            if handler is not None:
                start = len(state.setdefault("ledger", []))
                handler(state, event)
                _log_consequences(state, event, state["ledger"][start:])


def _plural(n: int, one: str, few: str, many: str) -> str:
    if n % 10 == 1 and n % 100 != 11:
        return one
    return few if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else many


_UNITS_OF = {"honor": "ч", "gold": "з", "slaves": " рабов", "eternal_servants": " вечных слуг"}


def _log_consequences(state: dict, event: Mapping, lines: list[dict]) -> None:
    place = _city_name(state, event.get("city"))
    if event.get("kind") == "battle":
        title = f"Бой за {place}"
    elif event.get("kind") == "capture":
        who = faction_name(state, event.get("attacker"))
        title = f"Город {place} {CHOICE_WORDS.get(event.get('choice'), 'взят')} («{who}»)"
    else:
        title = f"Нападение «{faction_name(state, event.get('attacker'))}» на {place} отбито"
    parts: dict[str, list[str]] = {}
    for line in lines:
        amount = int(line["amount"])
        if line["resource"] == "grudges":
            word = _plural(abs(amount), "обида", "обиды", "обид")
            text = f"{amount:+d} {word} на «{faction_name(state, line['against'])}»"
        else:
            text = f"{amount:+d}{_UNITS_OF.get(line['resource'], ' ' + line['resource'])}"
        parts.setdefault(line["faction"], []).append(text)
    for faction, texts in sorted(parts.items()):
        _log(state, faction, f"{title}: {', '.join(texts)}")


def _battle(state: dict, event: Mapping) -> None:
    data = load_data()
    place = _city_name(state, event.get("city"))
    # L75 «Каждый умерший юнит даёт честь в размере пятой части своего содержания» — own units, garrisons
    # included, summed per battle then floored (JR-63, JR-54).
    for fid, dead in sorted((event.get("deaths") or {}).items()):
        divisor = int(_consts(fid).get("honor_per_upkeep_divisor", 0))
        if not _playing(state, fid) or divisor <= 0 or not isinstance(dead, Mapping):
            continue
        fallen = {k: int(n) for k, n in dead.items() if k in data.units and int(n) > 0}
        upkeep = sum(data.units[k].upkeep * n for k, n in fallen.items())
        gain_honor(state, fid, upkeep // divisor,
                   f"Честь за павших в бою за {place}: {sum(fallen.values())} юнитов, содержание {upkeep}з ÷ {divisor}",
                   event.get("city"))
    # L207 «Враг уничтожил как минимум половину вашей армии при нападении на вас: +1 обида» (JR-80: by count).
    defender, attacker = event.get("defender"), event.get("attacker")
    if _playing(state, defender) and _playing(state, attacker) and "grudges" in state["factions"][defender]:
        consts = _consts(defender)
        size = int((event.get("army_size") or {}).get(defender, 0))
        lost = sum(int(n) for n in ((event.get("army_deaths") or {}).get(defender) or {}).values())
        num, den = consts.get("half_army_fraction", (1, 2))
        if size > 0 and lost * int(den) >= size * int(num):
            change_grudges(state, defender, attacker, int(consts.get("grudges_half_army", 1)),
                           f"Обида: «{faction_name(state, attacker)}» уничтожила {lost} из {size} юнитов армии "
                           f"при нападении на {place}")


def _capture(state: dict, event: Mapping) -> None:
    choice = event.get("choice")
    if choice not in TAKEN:
        return
    previous, attacker = event.get("previous_owner"), event.get("attacker")
    if _playing(state, previous) and previous != attacker:
        _city_lost(state, previous, event)
    if _playing(state, attacker):
        _city_taken(state, attacker, event)


def _city_lost(state: dict, faction: str, event: Mapping) -> None:
    """What a faction gets when one of its cities is captured, plundered or razed."""
    consts, rec = _consts(faction), state["factions"][faction]
    cid, choice, attacker = event.get("city"), event["choice"], event.get("attacker")
    place, size = _city_name(state, cid), "large" if event.get("large") else "small"
    # L77-78: «Ваш город захватили или разрушили: +50ч (если большой, то +150ч)»; «разграбили: +30ч (+90ч)».
    table = consts.get("honor_city_plundered" if choice == "plunder" else "honor_city_captured")
    if table:
        gain_honor(state, faction, int(table[size]), f"Честь: наш город {place} {CHOICE_WORDS[choice]}", cid)
    # L148: «Если ваш город захватывают или разграбляют, вампиры сбегают из него вместе с рабами» (2× base).
    if "slaves_own_city_lost_pct" in consts:
        amount = int(event.get("base_income", 0)) * int(consts["slaves_own_city_lost_pct"]) // 100
        gain_slaves(state, faction, amount, f"Вампиры бежали из города {place} вместе с рабами", cid)
    _crypt_sleepers_die(state, faction, cid)
    # L204: «Ваш город захватили, разграбили или разрушили: +1 обиды для маленького, +2 для большого. Если он был
    # максимального уровня, ограниченного эпохой - вдвое больше.»
    if "grudges" in rec and _playing(state, attacker):
        amount = int(consts.get("grudges_city_lost", {}).get(size, 0))
        top = int(event.get("level_before", 0)) >= int(event.get("era_max_level", 99))
        if top:
            amount *= int(consts.get("grudges_max_level_multiplier", 2))
        change_grudges(state, faction, attacker, amount,
                       f"Обида: «{faction_name(state, attacker)}» — город {place} {CHOICE_WORDS[choice]}"
                       + (" (город максимального уровня эпохи: вдвое)" if top else ""))


def _crypt_sleepers_die(state: dict, faction: str, cid: Any) -> None:
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
        _log(state, faction, f"Город {_city_name(state, cid)} захвачен: вампиры, спавшие в склепе, погибли "
                             f"({', '.join(dead)})")


def _city_taken(state: dict, faction: str, event: Mapping) -> None:
    """What the capturer gets or loses for taking a city."""
    consts, rec = _consts(faction), state["factions"][faction]
    cid, choice, previous = event.get("city"), event["choice"], event.get("previous_owner")
    place, size = _city_name(state, cid), "large" if event.get("large") else "small"
    # L79 «Вы разграбили или разрушили город: -20ч»
    if choice in ("plunder", "raze") and consts.get("honor_plunder_or_raze"):
        verb = "разграблен" if choice == "plunder" else "разрушен"
        lose_honor(state, faction, -int(consts["honor_plunder_or_raze"]), f"Честь: нами {verb} город {place}", cid)
    # L145-146: slaves from plunder (= base income) and capture (half of it); L184 the slave market's +50.
    key = SLAVES_PCT_KEY[choice]
    if key in consts:
        amount = int(event.get("base_income", 0)) * int(consts[key]) // 100
        gain_slaves(state, faction, amount, f"Рабы: город {place} {CHOICE_WORDS[choice]}", cid)
        bonus = _slave_market_bonus(state, faction, cid)
        gain_slaves(state, faction, bonus, f"Рынок рабов: нападение на соседний город {place}", cid)
    # L205 «Вы захватили город фракции: -1 обида для маленького, -2 обиды для большого.»
    if "grudges" in rec and _playing(state, previous) and previous != faction:
        amount = int(consts.get("grudges_city_taken", {}).get(size, 0))
        change_grudges(state, faction, previous, amount, f"Отмщение: взят город {place} фракции "
                                                         f"«{faction_name(state, previous)}»")


def _neighbours(state: Mapping, cid: str) -> set[str]:
    return {b if a == cid else a for a, b in state.get("roads", []) if cid in (a, b)}


def _slave_market_bonus(state: Mapping, faction: str, cid: Any) -> int:
    """«Рынок рабов (100з) - +50 к получаемым рабам при нападениях на соседние города» (L184): the attacked city
    is next by road to an own city with a slave market; several markets do not add up."""
    data = load_data()
    if not isinstance(cid, str):
        return 0
    best = 0
    for other in _neighbours(state, cid):
        city = state["cities"].get(other, {})
        if city.get("owner") == faction and not city.get("ruins"):
            for b in city.get("buildings", []):
                if b in data.buildings:
                    best = max(best, int(data.buildings[b].effects.get("slave_market_bonus", 0)))
    return best


def _failed_attack(state: dict, event: Mapping) -> None:
    """L206 «Враг неудачно напал на ваш город: +1 обида.»"""
    defender, attacker = event.get("defender"), event.get("attacker")
    if _playing(state, defender) and _playing(state, attacker) and "grudges" in state["factions"][defender]:
        change_grudges(state, defender, attacker, int(_consts(defender).get("grudges_failed_attack", 1)),
                       f"Обида: «{faction_name(state, attacker)}» неудачно напала на "
                       f"{_city_name(state, event.get('city'))}")


def _eliminated(state: dict, event: Mapping) -> None:
    """L35 «Если фракция теряет последний город, она выбывает из игры.»"""
    faction = event.get("faction")
    if _playing(state, faction) and not state["factions"][faction].get("eliminated"):
        state["factions"][faction]["eliminated"] = True
        _log(state, faction, "Фракция потеряла последний город и выбыла из игры")


_EVENT_HANDLERS: dict[str, Callable[[dict, Mapping], None]] = {
    "battle": _battle, "capture": _capture, "failed_attack": _failed_attack, "eliminated": _eliminated}


# -- victory --------------------------------------------------------------------------

RESOURCE_TITLES = {"honor": "Честь", "gold": "Золото", "jade": "Нефрит", "eternal_servants": "Вечные слуги"}


def city_count(state: Mapping, faction: str) -> int:
    """Standing cities of a faction (ruins are no cities, JR-51)."""
    return len(own_cities(state, faction, ruins=False))


def forge_count(state: Mapping, faction: str) -> int:
    data = load_data()
    return sum(1 for cid in own_cities(state, faction, ruins=False) for b in state["cities"][cid]["buildings"]
               if b in data.buildings and data.buildings[b].effects.get("forge"))


def faction_income(state: Mapping, faction: str, measure: str = "gross") -> int:
    """Gold a faction earns per turn: gross (its income lines) or net of upkeep."""
    gross = sum(int(line["amount"]) for line in income_lines(state, faction) if line["resource"] == "gold")
    return gross - upkeep_total(state, faction) if measure == "net" else gross


def victory_progress(state: Mapping, faction: str) -> list[tuple[str, bool]]:
    """Each victory condition of the faction as (Russian text, met now); all are required (JR-59)."""
    rec = state["factions"][faction]
    out: list[tuple[str, bool]] = []
    for key, need in _consts(faction).get("victory", {}).items():
        need = int(need)
        if key == "cities":
            have = city_count(state, faction)
            out.append((f"Городов под контролем: {have} из {need}", have >= need))
        elif key == "forges":
            have = forge_count(state, faction)
            out.append((f"Великих Кузен: {have} из {need}", have >= need))
        elif key == "income_ratio":
            rivals = [f for f in active_factions(state) if f != faction]
            measure = str(_consts(faction).get("victory_income", "gross"))
            mine = faction_income(state, faction, measure)
            if len(rivals) == 1:
                theirs = faction_income(state, rivals[0], measure)
                out.append((f"Остался один противник («{faction_name(state, rivals[0])}»), доход {mine}з против "
                            f"{theirs}з (нужно вдвое больше)", mine >= need * theirs))
            else:
                out.append((f"Против вас должна остаться одна фракция, а их {len(rivals)}", False))
        else:
            have = int(rec.get(key, 0))
            out.append((f"{RESOURCE_TITLES.get(key, key)}: {have} из {need}", have >= need))
    return out


def _victory_met(state: Mapping, faction: str) -> bool:
    progress = victory_progress(state, faction)
    return bool(progress) and all(met for _, met in progress)


def _win(state: dict, faction: str, how: str) -> None:
    rec = state["factions"][faction]
    rec["won"], rec["won_turn"] = True, int(state["turn"])
    name = faction_name(state, faction)
    effect = _consts(faction).get("on_victory", "peace")
    if effect == "tunnels":
        # L200: «Дворфы переселяются под землю, а города на поверхности становятся руинами.»
        for cid in own_cities(state, faction):
            state["cities"][cid].update(ruins=True, buildings=[], owner=None, no_income_turns=0)
        text = (f"{name} побеждает ({how}): дворфы выкапывают колоссальную сеть тоннелей и уходят под землю, "
                "их города на поверхности становятся руинами.")
    elif effect == "subjugate":
        # L141: «оставшаяся фракция добровольно вынуждена вам сдаться. Вы подчиняете её и захватываете весь мир.»
        rivals = [f for f in active_factions(state) if f != faction]
        for other in rivals:
            state["factions"][other].update(eliminated=True, subjugated_by=faction)
            for cid in own_cities(state, other):
                state["cities"][cid]["owner"] = faction
            _log(state, other, f"Фракция сдалась: её подчинила фракция «{name}»")
        defeated = ", ".join(f"«{faction_name(state, f)}»" for f in rivals) or "никто"
        text = f"{name} побеждает ({how}): {defeated} сдаётся, весь мир покорён."
    else:
        # L72, L269: enemies make peace; the winner leaves and its cities can no longer be attacked.
        text = (f"{name} побеждает ({how}): враги вынуждены заключить мир, фракция выходит из игры, "
                "её города больше нельзя атаковать.")
    _log(state, faction, f"Победа! {text}")
    _chronicle(state, "Победа", text)


def end_of_turn(state: dict) -> None:
    """Victory conditions on the balances held now; after the last turn, Midnight; a lone faction left wins.

    The vampires' condition depends on who is still playing, so it is checked after the others."""
    playing = active_factions(state)
    later = [f for f in playing if "income_ratio" in _consts(f).get("victory", {})]
    first = [f for f in playing if f not in later and _victory_met(state, f)]   # all checked before any wins
    for faction in first:
        _win(state, faction, "; ".join(text for text, _ in victory_progress(state, faction)))
    for faction in later:
        if faction in active_factions(state) and _victory_met(state, faction):
            _win(state, faction, "; ".join(text for text, _ in victory_progress(state, faction)))
    midnight = load_data().economy.get("midnight", {})
    if int(state["turn"]) >= int(midnight.get("after_turn", 9)) and not state.get("midnight"):
        if active_factions(state):
            _midnight(state)
    elif load_data().economy.get("endgame", {}).get("last_standing_wins", False):
        left = active_factions(state)
        if len(left) == 1 and len(state["factions"]) > 1:
            _win(state, left[0], "все остальные фракции вышли из игры")


def _tie_value(state: Mapping, faction: str, name: str) -> int:
    if name == "base_income":
        return sum(base_income(state["cities"][cid], faction) for cid in own_cities(state, faction, ruins=False))
    return int(state["factions"][faction].get(name, 0))


def _midnight(state: dict) -> None:
    """L335 «Они уничтожают все фракции, кроме уже победивших и той, у которой больше всего городов. Эта фракция
    выигрывает.» Ties: higher total base income, then higher gold; still tied, all of them survive (JR-60)."""
    playing = active_factions(state)
    breaks = tuple(load_data().economy.get("midnight", {}).get("tie_breaks", ("base_income", "gold")))

    def rank(faction: str) -> tuple[int, ...]:
        return (city_count(state, faction),) + tuple(_tie_value(state, faction, b) for b in breaks)

    best = max((rank(f) for f in playing), default=None)
    survivors = [f for f in playing if rank(f) == best]
    destroyed = [f for f in playing if f not in survivors]
    state["midnight"] = {"turn": int(state["turn"]), "survivors": survivors, "destroyed": destroyed}
    for faction in destroyed:
        state["factions"][faction].update(eliminated=True, destroyed_at_midnight=True)
        _log(state, faction, "Полночь: боги уничтожили фракцию")
    for faction in survivors:
        rec = state["factions"][faction]
        rec["won"], rec["won_turn"] = True, int(state["turn"])
        _log(state, faction, f"Полночь: у фракции больше всего городов ({city_count(state, faction)}) — победа!")
    names = ", ".join(f"«{faction_name(state, f)}»" for f in survivors) or "никто"
    gone = ", ".join(f"«{faction_name(state, f)}»" for f in destroyed) or "никто"
    _chronicle(state, "Полночь", f"Полночь: богам наскучила война. Уничтожены: {gone}. "
                                 f"Побеждает больше всех городов удержавшая фракция: {names}.")


def game_over(state: Mapping) -> bool:
    """True once Midnight has come or no faction is left in play."""
    return bool(state.get("midnight")) or not active_factions(state)


def winners(state: Mapping) -> list[str]:
    """Factions that have won, in a stable order."""
    return sorted(f for f, rec in state["factions"].items() if rec.get("won"))
