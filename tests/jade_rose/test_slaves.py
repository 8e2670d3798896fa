"""The vampires' slaves: deaths, escapes, the cap and hibernation; DATC style, each docstring quoting
the rule book."""
from __future__ import annotations

from engine.jade_rose import turn
from engine.jade_rose.income import upkeep_total
from tests.jade_rose.small_games import make_game

# -- vampires' slaves -----------------------------------------------------------------------

def test_a_third_of_the_slaves_die_at_the_end_of_the_turn():
    """«треть рабов (округлённо) умирает в конце хода» — 450 → 300; 100 → 67 (33.3 rounds to 33)."""
    state = make_game()
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 300
    state["factions"]["vampires"]["slaves"] = 100
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 67


def test_two_thirds_of_the_slaves_above_the_cap_escape_at_the_start():
    """«Максимум вы можете держать 600 рабов. Две трети рабов сверх этого максимума в начале каждого хода
    сбегает» — 900 → 700; the «Виселица» lowers the share to one third (900 → 800)."""
    state = make_game()
    state["factions"]["vampires"]["slaves"] = 900
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 700
    state["factions"]["vampires"]["slaves"] = 900
    state["cities"]["umbra"].update(level=2, buildings=["vampires_gallows"])
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 800


def test_barrack_and_slums_raise_the_slave_cap():
    """«Барак (50з) - +100 к максимуму рабов»; «Трущобы (150з) - +250 к максимуму рабов» — cap 600 + 100 + 250 = 950:
    of 1010 slaves, two thirds of the 60 above it escape (40)."""
    state = make_game()
    state["cities"]["noct"].update(level=3, buildings=["vampires_barrack", "vampires_slums"])
    state["factions"]["vampires"]["slaves"] = 1010
    turn.start_of_turn(state, 1)
    assert state["factions"]["vampires"]["slaves"] == 970


def test_gallows_kill_30_more_slaves_per_turn():
    """«Виселица (50з) - +30 к потерям рабов в ход» (JR-74 I1: a drawback) — 300 slaves: 100 + 30 die."""
    state = make_game()
    state["cities"]["umbra"].update(level=2, buildings=["vampires_gallows"])
    state["factions"]["vampires"]["slaves"] = 300
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["slaves"] == 170


def test_vampires_beyond_the_blood_hibernate_and_the_crypt_spares_their_upkeep():
    """«Если крови рабов не хватает … часть вампиров впадает в спячку … вы всё ещё должны платить за их
    содержание»; «Склеп (100з) - вмещает до 20 вампиров. Во время спячки в склепе они не требуют золота»."""
    state = make_game()
    state["factions"]["vampires"]["units"] = {"vampires_halfblood": 40}
    state["factions"]["vampires"]["slaves"] = 450                      # 300 after the deaths: blood for 20
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["hibernating"] == {"vampires_halfblood": 20}
    assert upkeep_total(state, "vampires") == 400
    state["cities"]["umbra"]["buildings"] = ["vampires_crypt"]
    assert upkeep_total(state, "vampires") == 200
