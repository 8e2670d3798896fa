"""The war's texts (war/reports.py): the public chronicle names the attacker, the city and its fate, never the
armies."""
from __future__ import annotations

from engine.jade_rose import war
from tests.jade_rose.war_kit import make_game, three_battles


def test_public_chronicle_names_attacker_city_and_fate_without_armies():
    """«Всем фракциям по умолчанию доступна … Состав и тип городов у всех фракций», but not the enemy's armies.
    Expected: each chronicle line of the turn names the attacker and the city and no unit names."""
    state = make_game()
    three_battles(state)
    war.resolve_battles(state, {}, 4)
    lines = [e["text"] for e in state["chronicle"] if e["turn"] == 1]
    assert lines and all("Цинхэ" in t or "Феррум" in t for t in lines)
    from engine.jade_rose.data import load_data
    names = {u.name for u in load_data().units.values()}
    assert not any(name in t for t in lines for name in names)
