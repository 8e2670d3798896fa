"""Victory (RULINGS JR-59): every condition of a faction on the balances held at the end of the turn, what a
victory does (peace, tunnels, surrender), the last faction standing, and Midnight after the last turn (JR-60)."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.jade_rose import ledger
from engine.jade_rose.data import load_data
from engine.jade_rose.factions.dwarves import go_underground
from engine.jade_rose.factions.vampires import subjugate
from engine.jade_rose.holdings import active_factions, base_income, city_count, faction_name, own_cities
from engine.jade_rose.income import faction_income
from engine.jade_rose.state_types import JadeRoseState, balance

RESOURCE_TITLES = {"honor": "Честь", "gold": "Золото", "jade": "Нефрит", "eternal_servants": "Вечные слуги"}


def _consts(faction: str) -> Mapping[str, Any]:
    return load_data().factions.get(faction, {})


def forge_count(state: JadeRoseState, faction: str) -> int:
    data = load_data()
    return sum(1 for cid in own_cities(state, faction, ruins=False) for b in state["cities"][cid]["buildings"]
               if b in data.buildings and data.buildings[b].effects.get("forge"))


def victory_progress(state: JadeRoseState, faction: str) -> list[tuple[str, bool]]:
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
            have = int(balance(rec, key))
            out.append((f"{RESOURCE_TITLES.get(key, key)}: {have} из {need}", have >= need))
    return out


def _victory_met(state: JadeRoseState, faction: str) -> bool:
    progress = victory_progress(state, faction)
    return bool(progress) and all(met for _, met in progress)


def make_peace(state: JadeRoseState, faction: str, name: str, how: str) -> str:
    """L72, L269: enemies make peace; the winner leaves and its cities can no longer be attacked."""
    return (f"{name} побеждает ({how}): враги вынуждены заключить мир, фракция выходит из игры, "
            "её города больше нельзя атаковать.")


# What a victory does, by the `on_victory` of the faction's data; returns the chronicle's text.
ON_VICTORY: dict[str, Callable[[JadeRoseState, str, str, str], str]] = {
    "peace": make_peace, "tunnels": go_underground, "subjugate": subjugate}


def _win(state: JadeRoseState, faction: str, how: str) -> None:
    rec = state["factions"][faction]
    rec["won"], rec["won_turn"] = True, int(state["turn"])
    effect = ON_VICTORY.get(str(_consts(faction).get("on_victory", "peace")), make_peace)
    text = effect(state, faction, faction_name(state, faction), how)
    ledger.note(state, faction, f"Победа! {text}")
    ledger.chronicle(state, "Победа", text)


def end_of_turn(state: JadeRoseState) -> None:
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


def _tie_value(state: JadeRoseState, faction: str, name: str) -> int:
    if name == "base_income":
        return sum(base_income(state["cities"][cid], faction) for cid in own_cities(state, faction, ruins=False))
    return int(balance(state["factions"][faction], name))


def _midnight(state: JadeRoseState) -> None:
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
        state["factions"][faction].update({"eliminated": True, "destroyed_at_midnight": True})
        ledger.note(state, faction, "Полночь: боги уничтожили фракцию")
    for faction in survivors:
        rec = state["factions"][faction]
        rec["won"], rec["won_turn"] = True, int(state["turn"])
        ledger.note(state, faction, f"Полночь: у фракции больше всего городов ({city_count(state, faction)}) — победа!")
    names = ", ".join(f"«{faction_name(state, f)}»" for f in survivors) or "никто"
    gone = ", ".join(f"«{faction_name(state, f)}»" for f in destroyed) or "никто"
    ledger.chronicle(state, "Полночь", f"Полночь: богам наскучила война. Уничтожены: {gone}. "
                                       f"Побеждает больше всех городов удержавшая фракция: {names}.")


def game_over(state: JadeRoseState) -> bool:
    """True once Midnight has come or no faction is left in play."""
    return bool(state.get("midnight")) or not active_factions(state)


def winners(state: JadeRoseState) -> list[str]:
    """Factions that have won, in a stable order."""
    return sorted(f for f, rec in state["factions"].items() if rec.get("won"))
