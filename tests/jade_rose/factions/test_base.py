"""The factions' hooks (factions/__init__.py, base.py): every faction of the data has its rules and owns its
actions."""
from __future__ import annotations


def test_every_faction_of_the_data_has_its_rules_and_owns_its_actions():
    """Each faction of factions.toml has its hooks in the explicit mapping, and every faction-only economy
    action is handled by exactly the faction the order tab reserves it for."""
    from engine.jade_rose import factions
    from engine.jade_rose.data import load_data
    from engine.jade_rose.economy_orders import FACTION_ONLY

    assert set(factions.FACTIONS) == set(load_data().factions)
    handled = {kind: fid for fid, rules in factions.FACTIONS.items() for kind in rules.actions}
    assert handled == dict(FACTION_ONLY)
