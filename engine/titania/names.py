"""Russian display names of the Titania books: buildings, resources, races and their abilities."""
from __future__ import annotations

from engine.titania.races import RACES

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
