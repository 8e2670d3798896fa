"""Russian display names of the Titania books: buildings, resources, races and their abilities; a faction where
Russian needs its genitive."""
from __future__ import annotations

from engine.titania.races import RACES
from engine.titania.state_types import TitaniaState

BUILDING_NAMES = {"mine": "рудник", "sawmill": "лесопилка", "farm": "ферма", "quarry": "каменоломня",
                  "tower": "чародейская башня", "port": "порт", "fort": "укрепление", "market": "рынок"}
RESOURCE_NAMES = {"gold": "золото", "wood": "дерево", "influence": "влияние", "stone": "камень", "mana": "мана"}
DEPOSIT_NAMES = {"gold": "золото", "wood": "лес", "fertile": "плодородные земли", "stone": "камень",
                 "mana": "место силы"}


def race_name(race: str) -> str:
    cls = RACES.get(race)
    return cls.name if cls is not None else race


def ability_name(race: str) -> str:
    cls = RACES.get(race)
    return cls.ability if cls is not None else ""


def buildings_text(buildings: list[str]) -> str:
    return ", ".join(BUILDING_NAMES.get(b, b) for b in buildings) or "—"


def who_of(state: TitaniaState, fid: str | None) -> str:
    """A faction, the natives or Keepers of the game state where Russian needs the genitive («у», «против»,
    «кроме», «войско …»): «фракции «Орда Гримгора»», «туземцев», «Хранителей «Лесной Народ»». A faction's name
    is not declined: the word «фракция» before it is (it reads the same in the dative and prepositional)."""
    if fid is None:
        return "никого"
    if fid == "natives":
        return "туземцев"
    if fid in state["factions"]:
        return f"фракции «{state['factions'][fid]['name']}»"
    keeper = state.get("keepers", {}).get(fid)
    return f"Хранителей «{keeper['name']}»" if keeper else str(fid)


def and_list(items: list[str]) -> str:
    """«А», «А и Б», «А, Б и В»."""
    return " и ".join(items) if len(items) <= 2 else ", ".join(items[:-1]) + " и " + items[-1]


def who_of_all(state: TitaniaState, fids: list[str]) -> str:
    """Several sides in the genitive: «фракций «Королевство Альбион» и «Высокий Лотерн»», then the Keepers and
    the natives («фракции «Орда Гримгора» и туземцев»)."""
    players = [f"«{state['factions'][f]['name']}»" for f in fids if f in state["factions"]]
    parts = [("фракции " if len(players) == 1 else "фракций ") + and_list(players)] if players else []
    return and_list(parts + [who_of(state, f) for f in fids if f not in state["factions"]])
