"""Razing a city and declining its ruins (issue 8 item 9b), DATC style.

Rule book (../shared/seeds/000_d4955973ee03e561.txt, «При захвате города у вас есть несколько опций»):
«Разрушить. Вы получаете утроенный доход города за ход. Город переходит под ваш контроль, если только вы не
захотите обратного. … Восстановить город может либо фракция, владеющая руинами, либо любая фракция, которая их
захватит. Так как в руинах нет гарнизона, захватить их может даже один солдат.»
RULINGS: «captures apply (colonise / plunder / raze chosen in the attack order)» (JR-56 step 6); «"triple income"
= 3 × the base income of the city for the faction that owned it» (JR-50); «ruins are not cities» (JR-51);
«a capturing army holding the city for the rest of the turn» (JR-53).

«При захвате: Разрушить и уйти» razes the city and leaves the ruins to their owner: the attacker gets what a
raze gives, and its army does not stay in them.
"""
from __future__ import annotations

from engine.jade_rose import consequences, war
from engine.jade_rose.war.words import parse_capture
from tests.jade_rose.war_kit import ORDER_KEYS, STRONG, attack, battle_events, make_game, plan_of, rows


def raze_and_leave_qinghe(state: dict, seed: int = 3, extra_plans=None) -> list[dict]:
    """The Empire attacks Цинхэ (jade, level 1) from Феррум with 80 heavy infantry, choosing «Разрушить и уйти»."""
    state["factions"]["empire"]["units"]["empire_heavy_infantry"] = 80
    plans = {"empire": attack(state, "empire", STRONG, "Цинхэ", "Разрушить и уйти")}
    plans.update(extra_plans or {})
    statuses = war.form_battles(state, plans, seed)
    assert any("руины останутся за его владельцем" in s.text() for s in statuses["empire"])
    return war.resolve_battles(state, {}, seed)


def test_raze_and_leave_makes_ruins_that_stay_with_their_owner():
    """Setup: Цинхэ (Jade Court, small, level 1) with rice fields; the Empire holds 100 honor.
    Orders: the Empire attacks it with 80 heavy infantry, «При захвате: Разрушить и уйти».
    Expected: the attack wins; Цинхэ is ruins without buildings and still the Jade Court's; the Empire gets the
    raze's triple income, 3 × 150 = 450з, and loses 20 honor for razing (L79); the capture event is a raze with
    `left`; the chronicle says the ruins stayed with the Jade Court, who keeps Юйлун and stays in the game."""
    state = make_game()
    state["cities"]["qinghe"]["buildings"] = ["jade_rice_fields"]
    state["factions"]["empire"]["honor"] = 100
    events = raze_and_leave_qinghe(state)
    assert battle_events(events)[0]["winner"] == "attacker"
    (capture,) = battle_events(events, "capture")
    assert (capture["choice"], capture.get("left"), capture["previous_owner"]) == ("raze", True, "jade")
    city = state["cities"]["qinghe"]
    assert (city["owner"], city["ruins"], city["buildings"], city["capital"]) == ("jade", True, [], False)
    assert state["factions"]["empire"]["gold"] == 450
    consequences.apply_war_events(state, events)
    assert state["factions"]["empire"]["honor"] == 80
    assert "руины остались за фракцией «Нефритовый двор»" in state["chronicle"][-1]["text"]
    assert not state["factions"]["jade"]["eliminated"]


def test_raze_without_leaving_still_hands_the_ruins_to_the_attacker():
    """«Город переходит под ваш контроль…» — the plain «Разрушить» is unchanged. Expected: Empire-owned ruins."""
    state = make_game()
    state["factions"]["empire"]["units"]["empire_heavy_infantry"] = 80
    war.form_battles(state, {"empire": attack(state, "empire", STRONG, "Цинхэ", "Разрушить")}, 3)
    events = war.resolve_battles(state, {}, 3)
    assert "left" not in battle_events(events, "capture")[0]
    assert (state["cities"]["qinghe"]["owner"], state["cities"]["qinghe"]["ruins"]) == ("empire", True)


def test_ruins_left_behind_are_taken_by_a_later_attacker_without_a_fight():
    """«Так как в руинах нет гарнизона, захватить их может даже один солдат.» Setup: the Empire (80 heavy
    infantry, «Разрушить и уйти») and the Vampires (5 neophytes) both attack Цинхэ; seed 2 draws the Empire
    first. Expected: one battle only (the Empire against the garrison); the Empire's army leaves the ruins, so
    the Vampires take them without a battle and lose nobody; the ruins are the Vampires' in the end."""
    state = make_game({"vampires": {"Новообращённый": 5}})
    vampires = attack(state, "vampires", [("Центр", "Авангард", "Новообращённый", 5)], "Цинхэ")
    events = raze_and_leave_qinghe(state, seed=2, extra_plans={"vampires": vampires})
    fights = battle_events(events)
    assert [(f["attacker"], f["defender"]) for f in fights] == [("empire", "jade")]
    captures = battle_events(events, "capture")
    assert [(c["attacker"], c["choice"]) for c in captures] == [("empire", "raze"), ("vampires", "ruins")]
    assert state["cities"]["qinghe"]["owner"] == "vampires" and state["cities"]["qinghe"]["ruins"]
    assert state["factions"]["vampires"]["units"] == {"vampires_neophyte": 5}


def test_raze_and_leave_is_a_dropdown_choice_with_its_spellings():
    """The «При захвате» column offers the choice by its display name and reads it as players write it;
    a wrong value names every allowed choice."""
    state = make_game()
    assert "Разрушить и уйти" in war.vocabularies(state, "empire")["capture_choices"]
    for text in ("Разрушить и уйти", "разрушить и оставить руины", "Разрушить, не занимая"):
        assert parse_capture(text) == "raze_leave"
    assert parse_capture("Разрушить") == "raze"
    plan = plan_of(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 1)],
                   [("1", "Атаковать", "Цинхэ", "разрушить и уйти", "")])
    assert plan["armies"]["1"]["capture"] == "raze_leave"
    _, statuses = war.parse_war_tabs(state, "empire", {
        "armies": rows(("army", "flank", "line", "unit", "count"), ("1", "Центр", "Авангард", "Копейщик", 1)),
        "army_orders": rows(ORDER_KEYS, ("1", "Атаковать", "Цинхэ", "сжечь", "")), "garrisons": []})
    (bad,) = [s for s in statuses if not s.ok]
    assert bad.errors[0].code == "JR_WAR_UNKNOWN_CAPTURE" and "Разрушить и уйти" in bad.text()
