"""Victory (victory.py, RULINGS JR-59): each faction's conditions and what its victory does, the last faction
standing, and Midnight after the last turn (JR-60). DATC style: setup, orders, expected outcome; each docstring
quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

import pytest

from engine.jade_rose import holdings, turn, victory
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.setup import new_game
from tests.jade_rose.small_games import CITIES, add_cities, make_game
from tests.paths import JADE_ROSE_DEMO

# -- victory (L69-72, L138-141, L197-200, L265-269; JR-59) ---------------------------------------------

def test_empire_wins_with_9_cities_and_100_honor_and_leaves_the_game():
    """«Держать под контролем как минимум 9 городов. Накопить 100 чести. При победе ваши враги вынуждены заключить
    с вами мир. Вы выходите из игры, ваши города становятся недоступны для атаки, а оставшиеся фракции продолжают
    биться.» — both conditions are needed (JR-59)."""
    state = make_game()
    add_cities(state, "empire", 7)
    state["factions"]["empire"]["honor"] = 99
    victory.end_of_turn(state)
    assert not state["factions"]["empire"]["won"]
    state["factions"]["empire"]["honor"] = 100
    victory.end_of_turn(state)
    assert state["factions"]["empire"]["won"] and victory.winners(state) == ["empire"]
    assert "empire" not in holdings.active_factions(state) and not victory.game_over(state)
    assert state["chronicle"][-1]["kind"] == "Победа" and "мир" in state["chronicle"][-1]["text"]
    (status,) = run_economy(state, "empire", [{"row": 2, "kind": "upgrade", "city": "aurum", "count": 1}],
                                    None)
    assert status.errors[0].code == "JR_FACTION_OUT"


def test_dwarves_win_with_8_cities_and_3000_gold_and_their_cities_become_ruins():
    """«Держать под контролем как минимум 8 городов. Накопить 3000з. При победе вы выкапываете колоссальную сеть
    тоннелей под землёй. Дворфы переселяются под землю, а города на поверхности становятся руинами.»"""
    state = make_game(gold=3000)
    add_cities(state, "dwarves", 5)
    victory.end_of_turn(state)
    assert not state["factions"]["dwarves"]["won"]
    add_cities(state, "dwarves", 6)
    victory.end_of_turn(state)
    assert state["factions"]["dwarves"]["won"]
    gone = [c for c in state["cities"].values() if c["name"] in ("Карак", "Монс") or c["name"].startswith("dwarves-")]
    assert all(c["ruins"] and c["owner"] is None and c["buildings"] == [] for c in gone)


def test_jade_court_wins_with_3_great_forges_9_cities_and_1000_jade():
    """«Построить 3 Великих Кузни. Держать под контролем не менее 9 городов. Накопить 1000н.» — the starting forge
    counts (JR-90)."""
    state = make_game()
    add_cities(state, "jade", 7, level=3)
    state["factions"]["jade"]["jade"] = 1000
    state["cities"]["jade_extra_0"]["buildings"] = ["jade_great_forge"]
    victory.end_of_turn(state)
    assert not state["factions"]["jade"]["won"]
    state["cities"]["jade_extra_1"]["buildings"] = ["jade_great_forge"]
    victory.end_of_turn(state)
    assert state["factions"]["jade"]["won"]


def test_vampires_win_with_1000_eternal_servants_and_one_rival_earning_half_as_much():
    """«Иметь как минимум 1000 вечных слуг. Против вас должна остаться только 1 фракция, чей доход вы превосходите
    как минимум вдвое. При победе оставшаяся фракция добровольно вынуждена вам сдаться.» — with two rivals left,
    no victory; with one (the Empire earning 450з against 150 + 75 + 1000 + … ), the Empire surrenders."""
    state = make_game()
    state["factions"]["vampires"].update(eternal_servants=1000, slaves=0)
    state["factions"]["dwarves"]["eliminated"] = True
    victory.end_of_turn(state)
    assert not state["factions"]["vampires"]["won"]
    state["factions"]["jade"]["won"] = True
    victory.end_of_turn(state)
    assert state["factions"]["vampires"]["won"]
    assert state["factions"]["empire"]["eliminated"] and state["factions"]["empire"]["subjugated_by"] == "vampires"
    assert state["cities"]["aurum"]["owner"] == "vampires" and victory.game_over(state)
    assert victory.winners(state) == ["jade", "vampires"]


# -- Midnight (L335; JR-60) -------------------------------------------------------------------------------

def test_midnight_destroys_every_faction_but_the_winners_and_the_one_with_most_cities():
    """«Полночь (9 ход): богам наскучило наблюдать за битвой. Они уничтожают все фракции, кроме уже победивших и
    той, у которой больше всего городов. Эта фракция выигрывает.» — at the end of turn 9, not before."""
    state = make_game(turn=8)
    add_cities(state, "dwarves", 2)
    state["factions"]["jade"]["won"] = True
    victory.end_of_turn(state)
    assert not victory.game_over(state) and not state.get("midnight")
    state["turn"] = 9
    victory.end_of_turn(state)
    assert victory.game_over(state) and victory.winners(state) == ["dwarves", "jade"]
    assert state["factions"]["empire"]["eliminated"] and state["factions"]["vampires"]["eliminated"]
    assert not state["factions"]["jade"].get("eliminated")
    assert state["chronicle"][-1]["kind"] == "Полночь" and "Дворфы" in state["chronicle"][-1]["text"]


@pytest.mark.parametrize("setup, survivors", [
    ({"ferrum": 2}, ["empire"]),                                  # tied cities: higher total base income
    ({"gold": {"dwarves": 10}}, ["dwarves"]),                     # tied income too: higher gold
    ({}, ["dwarves", "empire", "jade"]),                          # still tied: all survive (vampires earn half)
])
def test_midnight_ties_go_to_base_income_then_gold_then_all_survive(setup, survivors):
    """RULINGS JR-60: «ties for most cities: higher total base income, then higher gold; still tied: all survive»."""
    state = make_game(turn=9)
    state["cities"]["ferrum"]["level"] = setup.get("ferrum", 1)
    for fid, gold in setup.get("gold", {}).items():
        state["factions"][fid]["gold"] = gold
    victory.end_of_turn(state)
    assert victory.winners(state) == survivors
    assert sorted(f for f, r in state["factions"].items() if r.get("eliminated")) == sorted(
        set(CITIES) - set(survivors))


def test_the_last_faction_left_in_play_wins():
    state = make_game()
    for fid in ("empire", "vampires"):
        state["factions"][fid]["eliminated"] = True
    state["factions"]["dwarves"]["won"] = True
    victory.end_of_turn(state)
    assert state["factions"]["jade"]["won"] and victory.game_over(state)


# -- a whole game ----------------------------------------------------------------------------------------------

def test_a_peaceful_demo_game_ends_at_midnight_after_turn_9():
    """«Полночь (9 ход)»: nine turns of the whole turn sequence (start, economy, war events, end of turn, victory
    checks) on the demo map; the game is over after turn 9 and not before, with the Midnight survivors as winners."""
    import tomllib

    with JADE_ROSE_DEMO.open("rb") as fh:
        state = new_game(tomllib.load(fh))
    for number in range(1, 10):
        assert not victory.game_over(state) and state["turn"] == number
        state = turn.resolve_orders_stage(state, {}, seed=number).state
    assert state["stage"] == "finished" and victory.game_over(state)
    assert victory.winners(state) == state["midnight"]["survivors"]
    assert state["chronicle"][-1]["kind"] == "Полночь"
