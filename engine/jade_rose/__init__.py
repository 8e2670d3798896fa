"""War of the Jade Rose: units, cities, buildings, four factions (seed 000).

The rule set class lives in `engine.jade_rose.game` (as Titania's in `engine.titania.game`); importing this
package registers it (engine.registry imports it by name).
"""
from engine.jade_rose.game import JadeRose

__all__ = ["JadeRose"]
