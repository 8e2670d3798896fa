"""What the war's events do to the factions (consequences.py): the era's multiplier on what they receive, and one
journal line per event summing up its ledger lines. DATC style: setup, orders, expected outcome; each docstring
quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import consequences
from tests.jade_rose.small_games import battle, capture, grudges, honor, make_game


def test_sunset_doubles_honor_and_slaves_received_but_not_grudges():
    """«Закат (7-8 ход): Боги требуют битв! Получаемое золото и получаемый уникальный ресурс удваивается для всех
    фракций» (JR-62: lump sums included, grudges excluded)."""
    state = make_game(turn=7)
    state["cities"]["mons"]["level"] = 3
    knight = {"empire": {"empire_knight": 1}}
    consequences.apply_war_events(state, [battle("ferrum", "dwarves", "empire", deaths=knight),
                                          capture(state, "ferrum", "vampires", "plunder"),
                                          capture(state, "mons", "vampires", "colonise")])
    assert honor(state) == 2 * (3 + 30)
    assert state["factions"]["vampires"]["slaves"] == 450 + 2 * (150 + 225)
    assert grudges(state, "vampires") == 2                # small city at the era's max level: 1 × 2, not × 4


def test_each_war_consequence_is_told_in_the_factions_log():
    """Every change is a ledger line with a Russian reason, and each faction's journal gets one line per event."""
    state = make_game()
    state["factions"]["empire"]["honor"] = 30
    consequences.apply_war_events(state, [capture(state, "mons", "empire", "raze"),
                                      {"kind": "failed_attack", "city": "karak", "attacker": "jade",
                                       "defender": "dwarves"}])
    assert [(e["faction"], e["text"]) for e in state["log"]] == [
        ("dwarves", "Город Монс разрушен («Империя»): +2 обиды на «Империя»"),
        ("empire", "Город Монс разрушен («Империя»): -20ч"),
        ("dwarves", "Нападение «Нефритовый двор» на Карак отбито: +1 обида на «Нефритовый двор»")]
    assert all(line["reason"] for line in state["ledger"])
