"""What the GM announces to the players before a Titania game («объявите игрокам»): the defaults the rule book
lacks that a player notices, each with the value this game uses and where the GM changes it.

The values come from the state (its scenario's [victory], [params], Keepers) and the data files
(engine/titania/data: victory.toml, params.toml, start.toml); docs/rulings.md lists the same readings.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.russian import agree
from engine.titania.data import content_of
from engine.titania.params import default_params, override
from engine.titania.setup import start_settings
from engine.titania.state_types import TitaniaState
from engine.titania.victory import Victory, rules


def turns(n: int) -> str:
    """«1 ход», «3 хода», «5 ходов»."""
    return agree(n, "ход")


def announcements(state: TitaniaState) -> tuple[str, ...]:
    """Russian lines, one per default, for `forumwar new` to print."""
    params = override(default_params(), state.get("params") or None, [])
    techs = content_of(state).technologies
    keepers = state.get("keepers") or {}
    start: Mapping[str, Any] = state.get("start") or {}
    known = sorted({t for k in keepers.values() for t in k.get("techs", [])} if keepers
                   else start_settings(start.get("settings") or {}, [])["keeper_technologies"])
    keeper_techs = (", ".join(f"«{techs[t].name}»" for t in known if t in techs) if known
                    else "пуст (в книге его нет)")
    return (
        _victory(state, rules(state)),
        f"Дебаф проигравших в событии длится {turns(params.debuff_turns)} (G84), если событие не задаёт своё "
        "(debuff_turns в [params] сценария).",
        f"«Стандартный набор технологий» Хранителей {keeper_techs} (G43; technologies в [keepers.*] сценария, "
        "keeper_technologies в start.toml).",
        "Туземцы появляются только в начале игры и никогда не возвращаются: захваченная или оставленная после "
        "ничьей провинция остаётся без них (G91).",
        "Хранители не занимают места в очерёдности Похода: их ходы идут после всех игроков (G12).",
        "Орки ходят первыми среди фракций с равным Могуществом, и при нулевом тоже; двое орков бросают кубик (G13).",
        "Ресурсы провинции открываются, когда рядом встаёт войско игрока — не Хранителей и не туземцев; "
        "плодородные земли, камень, место силы или Святилище — с равным шансом (G38, G88).",
        f"Предел силы отряда {params.max_strength}, найм и пополнение за ход — по {params.hire} и "
        f"{params.replenish}, пока технологии их не поднимут (G6); постройка т1 приносит {params.yield_per_building} "
        "в ход (G5).",
        "Бонус Могущества и «+1/−1 к силе» рас идут только в сравнение сил, не в урон (G9, G22); потери при "
        "ничьей — половина силы с округлением вверх, войско силы 1 гибнет (G23).",
        "Приказы Планирования и Похода сдаются вместе, в один срок (G11); распределение Могущества — в той же "
        "вкладке «Мощь и магия» (G8).",
        "Хранители раз за игру пополняют свою слабейшую провинцию на 1–4, когда у их границы появляется войско "
        "игрока силой 5 и больше — пришедшее, нанятое или слившееся (G43).",
        *_buildings(state),
        *_start(state),
    )


def _victory(state: TitaniaState, v: Victory) -> str:
    """How the game ends (T4-7): the GM's victory provinces, or the defaults the book lacks."""
    shrines = (f" или сразу, когда фракция держит {agree(v.shrines_to_win, 'Святилище')} Древних"
               if v.shrines_to_win else "")
    if not v.provinces:
        return (f"Конец игры (G7): после хода {v.last_turn}{shrines}; затем побеждает лучшая по Святилищам, "
                "провинциям и силе войск. Это значения по умолчанию — в книге правил их нет: мастер может назвать "
                "провинции победы (T4-7; [victory] сценария: provinces, provinces_to_win, last_turn, "
                "shrines_to_win).")
    names = state["map"]["provinces"]
    which = (f"{len(v.provinces)}, какие — мастер держит в тайне" if v.hidden
             else ", ".join(f"«{names[p]['name']}»" for p in v.provinces))
    last = (f"после хода {v.last_turn} побеждает лучшая по тому же счёту" if v.last_turn
            else "последнего хода нет")
    return (f"Победа (G7, T4-7): провинции победы — {which}; побеждает фракция, что в конце хода держит "
            f"{v.to_win} из них{shrines}. Если дошли несколько — у кого больше провинций победы, затем Святилищ, "
            f"затем провинций; при полном равенстве победа общая. {last[0].upper()}{last[1:]}.")


def _buildings(state: TitaniaState) -> tuple[str, ...]:
    fort = content_of(state).buildings.get("fort")
    value = sum(e.value for e in fort.effects if e.type == "defence") if fort is not None else 0
    return (f"Укрепление даёт {value:+d} к силе обороны в бою в своей провинции (G92; buildings.toml); что даёт "
            "каждая постройка — во вкладке «Постройки».",) if value else ()


def _start(state: TitaniaState) -> tuple[str, ...]:
    """A start by the book: what the set-up stage decides (docs/rulings.md «начало игры по книге»)."""
    start = state.get("start")
    if not isinstance(start, dict):
        return ()
    unique = start["settings"]["unique_races"]
    return ("Начало игры — ход 0: каждая фракция выбирает во вкладке «Начало игры» цвет"
            + (", расу" if unique else "") + " (у каждой свой"
            + ("" if unique else "; расы могут повторяться") + ") и приморскую столицу не на острове; одинаковый "
            "выбор и невыбранное решает жребий.",)
