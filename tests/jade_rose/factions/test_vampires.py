"""The vampires (factions/vampires.py, rule book L143-184): slaves (from the war, the market, the ritual, enslaving
a city; deaths, escapes, the cap), half city income, blood for hiring, the crypts. Who hibernates is
hibernation.py's (test_hibernation.py). DATC style: setup, orders, expected outcome; each docstring quotes the
rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import consequences, turn
from engine.jade_rose.income import income_lines, upkeep_total
from tests.jade_rose.small_games import capture, codes, make_game, run, run_rows

# -- Vampires' slaves (L145-155, L180, L184) -------------------------------------------------------------

def test_vampires_get_slaves_from_plunder_and_capture():
    """«При разграблении города вы получаете число рабов, равное базовому доходу города. При захвате города вы
    получаете число рабов, равное половине базового дохода города.» — the Empire's large L2 capital plundered:
    600; the Jade small L1 city colonised: 75."""
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    consequences.apply_war_events(state, [capture(state, "aurum", "vampires", "plunder")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 600
    consequences.apply_war_events(state, [capture(state, "qinghe", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 600 + 75


def test_vampires_flee_with_slaves_worth_twice_the_base_income_of_their_lost_city():
    """«Если ваш город захватывают или разграбляют, вампиры сбегают из него вместе с рабами. Вы получите в своё
    распоряжение число рабов в размере удвоенного базового дохода города. Примечание: учитывается базовый доход
    города для фракции, которой принадлежит город. У вас базовый доход вдвое меньше.» — large L1: 2 × 150."""
    state = make_game()
    consequences.apply_war_events(state, [capture(state, "noct", "empire", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 300


def test_slave_market_adds_50_slaves_for_attacks_on_neighbouring_cities():
    """«Рынок рабов (100з) - +50 к получаемым рабам при нападениях на соседние города» — Умбра (market) borders
    Карак: +75 + 50; Юйлун is not next to a market city: +150 only."""
    state = make_game()
    state["cities"]["umbra"].update(level=2, buildings=["vampires_slave_market"])
    consequences.apply_war_events(state, [capture(state, "karak", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 150 + 50
    consequences.apply_war_events(state, [capture(state, "yulong", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 150 + 50 + 150


def test_vampires_sleeping_in_a_crypt_die_when_its_city_is_captured():
    """«Склеп (100з) - вмещает до 20 вампиров. … Если город захватят, то вампиры из склепа автоматически умирают.»
    — 30 half-bloods, blood for 10: 20 sleep in the crypt of Умбра and die with its capture (the war has already
    destroyed the crypt); the 10 awake stay."""
    state = make_game()
    state["cities"]["umbra"]["buildings"] = ["vampires_crypt"]
    rec = state["factions"]["vampires"]
    rec.update(units={"vampires_halfblood": 30}, slaves=225)              # 150 after deaths: blood for 10
    turn.end_of_turn(state)
    assert rec["hibernating"] == {"vampires_halfblood": 20}
    assert rec["crypts"] == {"umbra": {"vampires_halfblood": 20}}
    consequences.apply_war_events(state, [capture(state, "umbra", "empire", "colonise")])
    assert rec["units"] == {"vampires_halfblood": 10} and rec["hibernating"] == {}


def test_slaves_captured_after_the_ritual_become_eternal_servants():
    """«Все рабы, которых вы захватите в будущем, тоже будут автоматически превращаться в Вечных слуг.»"""
    state = make_game()
    state["factions"]["vampires"].update(ritual_done=True, slaves=0, eternal_servants=500)
    consequences.apply_war_events(state, [capture(state, "ferrum", "vampires", "plunder")])
    assert state["factions"]["vampires"]["eternal_servants"] == 650 and state["factions"]["vampires"]["slaves"] == 0


# -- Vampires: the ritual and enslaving a city (L147, L154) ----------------------------------------------------

def test_eternal_servants_ritual_from_the_day_era_for_100_slaves_and_1000_gold():
    """«Начиная с эпохи 'день' (с 5-го хода) вы можете принести в жертву 100 рабов и 1000з, чтобы обратить всех
    своих текущих рабов в Вечных слуг. Они не умирают и не сбегают.»"""
    state = make_game(gold=1000, turn=4)
    (status,) = run(state, "vampires", ("Ритуал вечных слуг", "", "", ""))
    assert codes(status) == ["JR_RITUAL_TOO_EARLY"] and "5-го хода" in status.text()
    state = make_game(gold=1000, turn=5)
    state["factions"]["vampires"]["slaves"] = 950
    (status,) = run(state, "vampires", ("Ритуал вечных слуг", "", "", ""))
    assert status.ok, status.text()
    rec = state["factions"]["vampires"]
    assert (rec["gold"], rec["slaves"], rec["eternal_servants"]) == (0, 0, 850)
    (status,) = run(state, "vampires", ("Ритуал", "", "", ""))
    assert codes(status) == ["JR_RITUAL_DONE"]
    turn.end_of_turn(state)
    turn.start_of_turn(state, 1)
    assert (rec["slaves"], rec["eternal_servants"]) == (0, 850)           # no deaths, no escapes above 600
    state = make_game(gold=1000, turn=6)
    state["factions"]["vampires"]["slaves"] = 60
    (status,) = run(state, "vampires", ("Ритуал вечных слуг", "", "", ""))
    assert codes(status) == ["JR_NOT_ENOUGH_SLAVES"] and state["factions"]["vampires"]["gold"] == 1000


def test_enslaving_an_own_city_gives_twice_its_base_income_and_leaves_ruins():
    """«Вы можете обратить в рабство жителей одного из своих городов. Он обратится в руины, а вы получите рабов в
    размере удвоенного базового дохода города.» — small L2 city: vampire base 150 → 300 slaves; the last city
    cannot be enslaved (the faction would be out)."""
    state = make_game()
    state["cities"]["umbra"].update(level=2, buildings=["vampires_gallows"])
    (status,) = run(state, "vampires", ("Обратить в рабов", "Умбра", "", ""))
    assert status.ok, status.text()
    assert state["factions"]["vampires"]["slaves"] == 450 + 300
    assert state["cities"]["umbra"]["ruins"] and state["cities"]["umbra"]["buildings"] == []
    assert state["cities"]["umbra"]["owner"] == "vampires"
    (status,) = run(state, "vampires", ("Обратить в рабство", "Ноктис", "", ""))
    assert codes(status) == ["JR_ENSLAVE_LAST_CITY"] and not state["cities"]["noct"]["ruins"]


# -- half income and gold per slave (L144) ---------------------------------------------------------------------

def test_vampire_cities_give_half_income_and_one_gold_per_slave():
    """«Ваши города приносят вдвое меньше базового дохода, но вы получаете 1з за каждого имеющегося раба.»
    Large L1 150 + small L1 75 + 450 slaves (and 20 eternal servants, JR-69) = 695."""
    state = make_game()
    state["factions"]["vampires"]["eternal_servants"] = 20
    lines = income_lines(state, "vampires")
    assert sum(line["amount"] for line in lines if line["resource"] == "gold") == 150 + 75 + 450 + 20


# -- blood for hiring (L144) -----------------------------------------------------------------------------------

def test_vampires_need_15_slaves_of_blood_per_unit():
    """«число юнитов в армии ограничено числом рабов: нужно как минимум 15 рабов на юнита»; the bone cannon
    «потребляет кровь … как 3 других юнита»."""
    state = make_game(gold=5000)
    state["cities"]["noct"].update(level=2, buildings=["vampires_mansions"])
    state["factions"]["vampires"]["slaves"] = 450                         # blood for 30 units
    statuses = run_rows(state, "vampires", ("Нанять", "", "Полукровка", 25), ("Нанять", "", "Костяная пушка", 2),
                   ("Нанять", "", "Костяная пушка", 1))
    assert [s.ok for s in statuses] == [True, False, True]
    assert statuses[1].errors[0].code == "JR_NOT_ENOUGH_BLOOD" and "ещё 1" in statuses[1].text()


# -- slave deaths, escapes, the cap and the crypts (L151-153, L167) --------------------------------------------

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
