"""Issue 11 item 7: «Войска» says where each unit is — out in an army of a pending battle (the army, the
squad's position, the city it attacks or defends) or in reserve — instead of «резерв» for everything."""
from __future__ import annotations

from engine.jade_rose import war
from engine.jade_rose.views import units
from tests.jade_rose.war_kit import attack, make_game


def test_units_in_an_attacking_army_are_shown_there_and_the_rest_in_reserve():
    """Setup: the Empire has 10 spearmen and 4 archers; army «1» attacks Цинхэ with 6 spearmen in the
    centre vanguard and 4 archers in the centre rearguard. Expected: «Войска» lists 6 spearmen and the 4
    archers in army «1» at their positions, and 4 spearmen in reserve."""
    state = make_game({"empire": {"Копейщик": 10, "Лучник": 4}})
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 6),
                                                                 ("Центр", "Арьергард", "Лучник", 4)], "Цинхэ")}, 1)
    rows = {(r[0], r[3]): r[1] for r in units(state, "empire").rows}
    assert rows == {("Копейщик", "армия «1», центральный авангард: атакует город Цинхэ"): 6,
                    ("Копейщик", "резерв"): 4,
                    ("Лучник", "армия «1», центральный арьергард: атакует город Цинхэ"): 4}


def test_without_pending_battles_every_unit_is_in_reserve():
    state = make_game({"empire": {"Копейщик": 10}})
    assert [(r[0], r[1], r[3]) for r in units(state, "empire").rows] == [("Копейщик", 10, "резерв")]
