"""The Jade Court (factions/jade_court.py, rule book L261-330): buying jade and its limit, jade creatures forged in
a Great Forge, the forge's reach in battle. DATC style: setup, orders, expected outcome; each docstring quotes
the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import war
from engine.jade_rose.factions import jade_court
from tests.jade_rose import war_kit
from tests.jade_rose.small_games import make_game, run_rows
from tests.jade_rose.war_kit import attack

# -- jade and the Great Forge (L283-286) -----------------------------------------------------------------------

def test_jade_is_bought_one_gold_each_up_to_300_per_turn():
    """«За 1 единицу золота вы можете купить 1 единицу нефрита, но за ход можно получить не более 300н.»
    «Нефритовая шахта (250з) - +150 к лимиту покупки нефрита за ход»."""
    state = make_game(gold=1000)
    statuses = run_rows(state, "jade", ("Купить нефрит", "", "", 200), ("Купить нефрит", "", "", 150),
                   ("Купить нефрит", "", "", 100))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_JADE_LIMIT"
    assert (state["factions"]["jade"]["gold"], state["factions"]["jade"]["jade"]) == (700, 300)
    state = make_game(gold=1000)
    state["cities"]["qinghe"].update(level=2, buildings=["jade_jade_mine"])
    (status,) = run_rows(state, "jade", ("Купить нефрит", "", "", 450))
    assert status.ok and state["factions"]["jade"]["jade"] == 450


def test_jade_creatures_need_a_forge_in_a_city_of_their_tier():
    """«Великая Кузня … Позволяет нанимать нефритовых созданий вплоть до уровня города, в котором находится»
    and a recruitment building (JR-94); «Если у вас нет Великой кузни» no creatures can be made."""
    state = make_game(gold=0)
    state["factions"]["jade"]["jade"] = 1000
    state["cities"]["qinghe"].update(level=2, buildings=["jade_military_camp"])
    statuses = run_rows(state, "jade", ("Нанять", "", "Нефритовый воин", 10), ("Нанять", "", "Нефритовый колосс", 1))
    assert statuses[0].ok and statuses[1].errors[0].code == "JR_NEEDS_FORGE"
    assert "2-го уровня" in statuses[1].text()
    state["cities"]["yulong"]["level"] = 2
    (status,) = run_rows(state, "jade", ("Нанять", "", "Нефритовый колосс", 1))
    assert status.ok and state["factions"]["jade"]["jade"] == 1000 - 150 - 120
    state["cities"]["yulong"]["buildings"] = []
    (status,) = run_rows(state, "jade", ("Нанять", "", "Нефритовый воин", 1))
    assert status.errors[0].code == "JR_NEEDS_FORGE" and "нет ни одной" in status.text()


def test_jade_mines_and_estates_add_to_the_jade_limit():
    """«Нефритовая шахта (250з) - +150 к лимиту покупки нефрита за ход»; «Поместья (350з) - +200з к доходу города,
    +200 к лимиту покупки нефрита за ход» — 300 + 150 + 200 = 650 (several add up)."""
    state = make_game()
    state["cities"]["yulong"].update(level=3, buildings=["jade_great_forge", "jade_jade_mine", "jade_estates"])
    assert jade_court.jade_limit(state, "jade") == 650


# -- the forge's reach in battle (JR-91) -----------------------------------------------------------------------

def test_forge_distance_is_counted_in_roads_to_the_nearest_forge():
    """«Расстояние определяется числом дорог, которое нужно пройти от места битвы до Великой Кузни.»
    RULINGS JR-91: the nearest forge, from the battle's city. Setup: the forge stands in Юйлун. Jade attacks
    Феррум (2 roads from Юйлун) and defends Цинхэ (1 road). Then a forge is also built in Цинхэ.
    Expected: distances 2 and 1, then 1 and 0."""
    state = war_kit.make_game({"jade": {"Ополченец": 4}, "empire": {"Копейщик": 4}}, turn=3)
    plans = {"jade": attack(state, "jade", [("Центр", "Авангард", "Ополченец", 4)], "Феррум"),
             "empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 4)], "Цинхэ")}

    def distances():
        war.form_battles(state, plans, 1)
        by_city = {b["city"]: b for b in state["battles"]}
        return (by_city["ferrum"]["attackers"][0]["modifiers"]["attacker"]["forge_distance"],
                by_city["qinghe"]["attackers"][0]["modifiers"]["defender"]["forge_distance"])

    assert distances() == (2, 1)
    state["cities"]["qinghe"]["buildings"].append("jade_great_forge")
    assert distances() == (1, 0)
