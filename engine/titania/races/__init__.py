"""The thirteen races of Titania, one hook class per module, in an explicit registry."""
from __future__ import annotations

from engine.titania.races.base import Race
from engine.titania.races.beastmen import Beastmen
from engine.titania.races.chaos_dwarfs import ChaosDwarfs
from engine.titania.races.dark_elves import DarkElves
from engine.titania.races.dwarfs import Dwarfs
from engine.titania.races.fauns import Fauns
from engine.titania.races.goblins import Goblins
from engine.titania.races.high_elves import HighElves
from engine.titania.races.humans import Humans
from engine.titania.races.lizardmen import Lizardmen
from engine.titania.races.orcs import Orcs
from engine.titania.races.skaven import Skaven
from engine.titania.races.undead import Undead
from engine.titania.races.wood_elves import WoodElves

RACES: dict[str, type[Race]] = {
    "humans": Humans,
    "dwarfs": Dwarfs,
    "wood_elves": WoodElves,
    "high_elves": HighElves,
    "dark_elves": DarkElves,
    "orcs": Orcs,
    "skaven": Skaven,
    "undead": Undead,
    "lizardmen": Lizardmen,
    "fauns": Fauns,
    "beastmen": Beastmen,
    "goblins": Goblins,
    "chaos_dwarfs": ChaosDwarfs,
}

__all__ = ["RACES", "Race"]
