"""War of the Jade Rose: units, cities, buildings, four factions (seed 000).

The rule set class lives in `engine.jade_rose.game` (as Titania's in `engine.titania.game`), which
engine.registry imports by name; importing this package loads nothing else.
"""
