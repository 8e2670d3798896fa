"""The end of a Titania game: ruling T4-7 (RULINGS.md «Titania, turn 4»), read from the rule book's one
sentence on victory: «Мастер знает и устанавливает заранее только места спавна Боссов, Хранителей и провинции
с условиями победы».

The GM names the victory provinces in the scenario's [victory] table: which provinces (`provinces`, ids of
[[provinces]]), how many of them a faction must hold at the end of a turn (`provinces_to_win`, default all) and
an optional last turn (`last_turn`). They are marked on the public map unless `hide_provinces = true`. Holding
the required number at the end of a turn wins. At the last turn, or when several factions qualify at once, the
tie is broken by more victory provinces, then more Shrines, then more provinces; still tied, the victory is
shared.

Without victory provinces the defaults of engine/titania/data/victory.toml stay (not in the rule book): the
game ends after turn 12, holding 5 Shrines of the Ancients wins at once, and after the last turn the best by
Shrines, then provinces, then Strength on the map wins (a Strength published once, in the final standings:
T4-5). A scenario may set `last_turn` and `shrines_to_win` either way. In every game the last faction playing
wins.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.datafiles import read_toml
from engine.russian import agree
from engine.titania import ledger
from engine.titania.state_types import TitaniaState

KEYS = ("provinces", "provinces_to_win", "last_turn", "shrines_to_win", "hide_provinces")


@dataclass(frozen=True)
class Victory:
    """How this game ends."""

    provinces: tuple[str, ...] = ()     # the victory provinces (ids); () without them
    to_win: int = 0                     # how many of them a faction must hold at the end of a turn
    last_turn: int | None = None        # the last turn (None: the game has none)
    shrines_to_win: int = 0             # Shrines of the Ancients that win at once (0: off)
    hidden: bool = False                # the victory provinces are not marked on the public map

    @property
    def by_strength(self) -> bool:
        """The final ranking counts Strength on the map (the defaults: no victory provinces)."""
        return not self.provinces


def _defaults() -> dict[str, int]:
    raw = read_toml("engine.titania", "data", "victory.toml") or {}
    return {k: int(v) for k, v in raw.items() if isinstance(v, int) and not isinstance(v, bool)}


def _count(v: object) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def rules(state: TitaniaState) -> Victory:
    """The victory of this game: its scenario's [victory] (state["victory"]) over the data defaults."""
    raw = state.get("victory") or {}
    provinces = state.get("map", {}).get("provinces", {})
    listed = raw.get("provinces")
    chosen = tuple(dict.fromkeys(p for p in listed if isinstance(p, str) and p in provinces)) \
        if isinstance(listed, list) else ()
    defaults = _defaults()
    last = _count(raw.get("last_turn"))
    shrines = _count(raw.get("shrines_to_win"))
    if not chosen:
        return Victory(last_turn=last if last is not None else defaults.get("last_turn", 12),
                       shrines_to_win=shrines if shrines is not None else defaults.get("shrines_to_win", 0))
    need = _count(raw.get("provinces_to_win"))
    return Victory(chosen, min(need, len(chosen)) if need is not None and need > 0 else len(chosen),
                   last if last is not None and last > 0 else None, shrines or 0, raw.get("hide_provinces") is True)


def settings(state: TitaniaState) -> dict[str, int]:
    """The numbers of the end, for the books: `last_turn` (0: no last turn), `shrines_to_win` (0: off) and
    `provinces_to_win` (0: no victory provinces)."""
    v = rules(state)
    return {"last_turn": v.last_turn or 0, "shrines_to_win": v.shrines_to_win, "provinces_to_win": v.to_win}


def marked(state: TitaniaState) -> frozenset[str]:
    """The victory provinces the public map marks (none when the GM hides them)."""
    v = rules(state)
    return frozenset() if v.hidden else frozenset(v.provinces)


def standing(state: TitaniaState, fid: str) -> tuple[int, int, int]:
    """(Shrines, provinces, Strength on the map) of a faction. Its Strength is the GM's: the public learns it only
    in the final standings of a game ranked by it (T4-5)."""
    provinces = state["map"]["provinces"]
    owned = [p for p, o in state["owners"].items() if o == fid]
    return (sum(1 for p in owned if provinces[p]["shrine"]), len(owned),
            sum(a["strength"] for a in state["armies"] if a["faction"] == fid))


def held(state: TitaniaState, fid: str, v: Victory | None = None) -> int:
    """How many victory provinces the faction holds."""
    return sum(1 for p in (v or rules(state)).provinces if state["owners"].get(p) == fid)


def rank(state: TitaniaState, fid: str, v: Victory | None = None, final: bool = False) -> tuple[int, ...]:
    """The order of the standings: victory provinces, Shrines, provinces; at the end of a game without victory
    provinces (`final`) Strength on the map last."""
    v = v or rules(state)
    shrines, provinces, strength = standing(state, fid)
    key = (held(state, fid, v), shrines, provinces)
    return key + (strength,) if final and v.by_strength else key


def _province_names(state: TitaniaState, pids: tuple[str, ...]) -> str:
    return ", ".join(f"«{state['map']['provinces'][p]['name']}»" for p in pids)


def end_text(state: TitaniaState) -> tuple[str, str]:
    """(when, how) the game ends, for the «Сводка» tab's row «Конец игры» (Russian)."""
    v = rules(state)
    if not v.provinces:
        when = f"после хода {v.last_turn}" if v.last_turn else "без последнего хода"
        return when, f"или при {agree(v.shrines_to_win, 'Святилище', 'loct')}" if v.shrines_to_win else ""
    which = "какие — знает мастер" if v.hidden else _province_names(state, v.provinces)
    when = f"после хода {v.last_turn}" if v.last_turn else "без последнего хода"
    how = f"или когда фракция держит в конце хода провинций победы: {v.to_win} из {len(v.provinces)} ({which})"
    if v.shrines_to_win:
        how += f", или {agree(v.shrines_to_win, 'Святилище')}"
    return when, how


# -- the scenario's [victory] table --------------------------------------------------------------------------

def read_table(raw: object, provinces: Mapping[str, Mapping[str, Any]], problems: list[str]) -> dict[str, Any]:
    """The scenario's [victory] table checked against its map (`provinces`: id -> record); every problem is
    appended to `problems` in Russian. Returns the table as the state keeps it."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        problems.append("[victory] — это таблица: [victory] и под ним строки вида last_turn = 12.")
        return {}
    out: dict[str, Any] = {}
    for key in raw:
        if key not in KEYS:
            problems.append(f"[victory]: неизвестный ключ «{key}»; допустимы: {', '.join(KEYS)}.")
    for key, low, what in (("last_turn", 1, "номер последнего хода"),
                           ("shrines_to_win", 0, "сколько Святилищ дают победу (0 — не дают)")):
        if key in raw:
            n = _count(raw[key])
            if n is None or n < low:
                problems.append(f"[victory] {key} = {raw[key]!r}: нужно целое число не меньше {low} — {what}.")
            else:
                out[key] = n
    chosen = _read_provinces(raw, provinces, problems)
    if chosen:
        out["provinces"] = chosen
    if "provinces_to_win" in raw:
        n = _count(raw["provinces_to_win"])
        listed = len(chosen) if chosen else len(raw["provinces"]) if isinstance(raw.get("provinces"), list) else 0
        if "provinces" not in raw:
            problems.append("[victory] provinces_to_win задано, а провинций победы нет: назовите их в provinces.")
        elif n is None or n < 1:
            problems.append(f"[victory] provinces_to_win = {raw['provinces_to_win']!r}: нужно целое число от 1 до "
                            f"числа провинций победы ({listed}).")
        elif n > listed:
            problems.append(f"[victory] provinces_to_win = {n}: провинций победы всего {listed} — больше держать "
                            "нельзя.")
        else:
            out["provinces_to_win"] = n
    if "hide_provinces" in raw:
        if not isinstance(raw["hide_provinces"], bool):
            problems.append(f"[victory] hide_provinces = {raw['hide_provinces']!r}: нужно true или false.")
        elif "provinces" not in raw and raw["hide_provinces"]:
            problems.append("[victory] hide_provinces = true, а провинций победы нет: прятать нечего.")
        elif chosen:
            out["hide_provinces"] = raw["hide_provinces"]
    return out


def _read_provinces(raw: Mapping[str, Any], provinces: Mapping[str, Mapping[str, Any]],
                    problems: list[str]) -> list[str]:
    if "provinces" not in raw:
        return []
    listed = raw["provinces"]
    if not isinstance(listed, list) or not listed or not all(isinstance(p, str) for p in listed):
        problems.append("[victory] provinces: нужен непустой список id провинций, например provinces = "
                        "[\"marsh\", \"isthmus\"].")
        return []
    by_name = {str(info.get("name", "")).casefold(): pid for pid, info in provinces.items()}
    missing, sea, twice = [], [], []
    for p in listed:
        if p not in provinces:
            hint = f" (это название; id — «{by_name[p.casefold()]}»)" if p.casefold() in by_name else ""
            missing.append(f"«{p}»{hint}")
        elif provinces[p].get("sea"):
            sea.append(f"«{provinces[p].get('name', p)}»")
    seen: set[str] = set()
    for p in listed:
        if p in seen and p not in twice:
            twice.append(p)
        seen.add(p)
    if missing:
        problems.append(f"[victory] provinces: нет таких провинций на карте: {', '.join(missing)}.")
    if sea:
        problems.append(f"[victory] provinces: море не захватывается, а значит его не удержать: {', '.join(sea)}.")
    if twice:
        problems.append(f"[victory] provinces: провинция названа дважды: {', '.join(f'«{p}»' for p in twice)}.")
    return [] if missing or sea or twice else list(listed)


# -- the end of a turn ----------------------------------------------------------------------------------------

def check_victory(state: TitaniaState, turn: int) -> None:
    """Mark winners and finish the game when an end condition holds after `turn`."""
    v = rules(state)
    alive = [f for f, rec in state["factions"].items() if not rec.get("eliminated")]
    winners: list[str] = []
    why = ""
    if len(alive) <= 1:
        winners, why = alive, "осталась единственной фракцией на Титании"
    else:
        qualified = [f for f in alive if (v.provinces and held(state, f, v) >= v.to_win)
                     or (v.shrines_to_win > 0 and standing(state, f)[0] >= v.shrines_to_win)]
        if qualified:
            winners, why = _best(state, qualified, v, False), _why_held(state, v, qualified)
        elif v.last_turn is not None and turn >= v.last_turn:
            winners = _best(state, alive, v, True)
            why = f"лучшая по итогам {agree(turn, 'ход', 'gent')}: " + _figures(state, winners, alive, v)
    if not winners and len(alive) > 1:
        return
    for f in winners:
        state["factions"][f]["won"] = True
    state["stage"] = "finished"
    names = ", ".join(state["factions"][f]["name"] for f in winners) or "никто"
    shared = " (победа общая)" if len(winners) > 1 else ""
    ledger.chronicle(state, "Победа", f"Игра окончена. Победа: {names}{shared} — {why}.", turn=turn)


def _best(state: TitaniaState, factions: list[str], v: Victory, final: bool) -> list[str]:
    ranks = {f: rank(state, f, v, final) for f in factions}
    top = max(ranks.values())
    return [f for f in factions if ranks[f] == top]


def _why_held(state: TitaniaState, v: Victory, qualified: list[str]) -> str:
    winner = _best(state, qualified, v, False)[0]
    parts = []
    if v.provinces and held(state, winner, v) >= v.to_win:
        owned = tuple(p for p in v.provinces if state["owners"].get(p) == winner)
        parts.append(f"держит провинций победы: {len(owned)} из {len(v.provinces)} ({_province_names(state, owned)})")
    if v.shrines_to_win > 0 and standing(state, winner)[0] >= v.shrines_to_win:
        parts.append(f"удерживает Святилищ Древних: {standing(state, winner)[0]}")
    text = "; ".join(parts)
    if len(qualified) > 1:
        text += "; из нескольких дошедших до цели — " + _figures(state, [winner], qualified, v)
    return text


def _figures(state: TitaniaState, winners: list[str], among: list[str], v: Victory) -> str:
    """The winner's figures of the ranking, Strength only when it decided (T4-5: published once, at the end)."""
    shrines, provinces, strength = standing(state, winners[0])
    parts = ([f"провинций победы {held(state, winners[0], v)}"] if v.provinces else []) + \
        [f"Святилищ {shrines}", f"провинций {provinces}"]
    if v.by_strength and any(f not in winners and rank(state, f, v) == rank(state, winners[0], v) for f in among):
        parts.append(f"сила войск {strength}")
    return ", ".join(parts)
