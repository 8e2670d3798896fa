"""City garrisons (garrison.py): jade creatures stand in a garrison only while the faction has a Great Forge."""
from __future__ import annotations

from engine.jade_rose.garrison import garrison_of
from tests.jade_rose.small_games import make_game


def test_jade_garrison_creatures_vanish_without_a_great_forge():
    """«Нефритовые создания помечены звёздочкой (*). Их нельзя создать без Великой Кузни.» — the level-1 garrison
    keeps its people but loses its jade warriors once no forge stands."""
    state = make_game()
    with_forge = garrison_of(state, "qinghe")
    assert with_forge.get("jade_warrior", 0) > 0
    state["cities"]["yulong"]["buildings"] = []
    without = garrison_of(state, "qinghe")
    assert without == {k: n for k, n in with_forge.items() if k != "jade_warrior"}
