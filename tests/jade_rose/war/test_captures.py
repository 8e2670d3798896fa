"""What a capture does (war/captures.py, rule book «При захвате города у вас есть несколько опций»): colonise,
plunder, raze, razing and leaving the ruins (issue 8 item 9b), ruins taken by one soldier, a faction without a
city eliminated.

RULINGS: «captures apply (colonise / plunder / raze chosen in the attack order)» (JR-56 step 6); «"triple
income" = 3 × the base income of the city for the faction that owned it» (JR-50); «ruins are not cities»
(JR-51); «a capturing army holding the city for the rest of the turn» (JR-53). DATC style: setup, orders,
expected outcome; each docstring quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import consequences, income, war
from engine.jade_rose.war.words import parse_capture
from tests.jade_rose.war_kit import ORDER_KEYS, STRONG, attack, battle_events, make_game, plan_of, rows


def win(state: dict, city: str, capture: str, seed: int = 3, extra_plans=None) -> list[dict]:
    """The Empire attacks `city` from Феррум with 80 heavy infantry (no planning) and the turn resolves."""
    state["factions"]["empire"]["units"]["empire_heavy_infantry"] = 80
    plans = {"empire": attack(state, "empire", STRONG, state["cities"][city]["name"], capture)}
    plans.update(extra_plans or {})
    war.form_battles(state, plans, seed)
    events = war.resolve_battles(state, {}, seed)
    assert battle_events(events)[0]["winner"] == "attacker"
    return events


def test_plunder_lowers_the_level_pays_triple_income_and_the_city_yields_nothing_next_turn():
    """«Разграбить. Вы разрушаете постройки и опускаете уровень города на 1. Город не переходит под ваш
    контроль, но вы мгновенно получаете утроенный доход города за ход. В следующем ходу город дохода не
    принесёт.» RULINGS JR-50: 3 × the base income for the faction that owned it.
    Setup: Цинхэ level 2 with rice fields. Expected: level 1, no buildings, still jade's; the Empire gets
    3 × 300 = 900 through a ledger line; Цинхэ is missing from the Jade income of the next turn."""
    state = make_game(turn=3)
    state["cities"]["qinghe"].update(level=2, buildings=["jade_rice_fields"])
    gold = state["factions"]["empire"]["gold"]
    events = win(state, "qinghe", "Разграбить")
    city = state["cities"]["qinghe"]
    assert (city["owner"], city["level"], city["buildings"]) == ("jade", 1, [])
    assert state["factions"]["empire"]["gold"] - gold == 900
    assert any(line["amount"] == 900 and "Разграбление" in line["reason"] for line in state["ledger"])
    capture = battle_events(events, "capture")[0]
    assert (capture["choice"], capture["level_before"], capture["base_income"]) == ("plunder", 2, 300)
    assert not [line for line in income.income_lines(state, "jade") if line.get("city") == "qinghe"]


def test_plunder_never_takes_a_city_below_level_1():
    """RULINGS JR-49: «plunder never takes a city below level 1». Setup: Цинхэ level 1.
    Expected: still level 1 and standing (not ruins), the Empire paid 3 × 150."""
    state = make_game()
    win(state, "qinghe", "Разграбить")
    assert state["cities"]["qinghe"]["level"] == 1 and not state["cities"]["qinghe"]["ruins"]
    assert state["factions"]["empire"]["gold"] == 450


def test_colonise_keeps_the_level_and_destroys_the_buildings():
    """«Колонизировать. Постройки в городе разрушаются, город переходит под ваш контроль.» RULINGS JR-49:
    colonising keeps the level. Setup: Цинхэ level 2 with a recruiting station. Expected: the Empire owns a
    level-2 Цинхэ without buildings; no gold changes hands."""
    state = make_game(turn=3)
    state["cities"]["qinghe"].update(level=2, buildings=["jade_recruiting_station"])
    events = win(state, "qinghe", "Колонизировать")
    city = state["cities"]["qinghe"]
    assert (city["owner"], city["level"], city["buildings"]) == ("empire", 2, [])
    assert state["factions"]["empire"]["gold"] == 0
    assert battle_events(events, "capture")[0]["buildings_lost"] == ["jade_recruiting_station"]


def test_raze_makes_ruins_owned_by_the_attacker_and_pays_triple_income():
    """«Разрушить. Вы получаете утроенный доход города за ход. Город переходит под ваш контроль…»
    Expected: Цинхэ is Empire-owned ruins without buildings; the Empire got 3 × 150."""
    state = make_game()
    state["cities"]["qinghe"]["buildings"] = ["jade_rice_fields"]
    win(state, "qinghe", "Разрушить")
    city = state["cities"]["qinghe"]
    assert (city["owner"], city["ruins"], city["buildings"]) == ("empire", True, [])
    assert state["factions"]["empire"]["gold"] == 450


def test_ruins_are_captured_without_a_battle_even_by_one_soldier():
    """«Так как в руинах нет гарнизона, захватить их может даже один солдат.» Setup: Цинхэ lies in jade ruins.
    Orders: one spearman attacks it. Expected: no planning, no battle, the Empire owns the ruins (choice
    "ruins"), the spearman is unharmed; the chronicle says so."""
    state = make_game({"empire": {"Копейщик": 1}})
    state["cities"]["qinghe"].update(ruins=True, buildings=[])
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 1)], "Цинхэ",
                                              skip="Нет")}, 1)
    assert not war.needs_planning(state)
    events = war.resolve_battles(state, {}, 1)
    assert battle_events(events) == []
    assert battle_events(events, "capture")[0]["choice"] == "ruins"
    assert state["cities"]["qinghe"]["owner"] == "empire"
    assert state["factions"]["empire"]["units"] == {"empire_spearman": 1}
    assert "Цинхэ" in state["chronicle"][-1]["text"]


def test_a_faction_losing_its_last_city_is_eliminated():
    """«У каждой фракции должен быть как минимум один город. Если фракция теряет последний город, она выбывает
    из игры.» Setup: the Jade Court already lost Юйлун (given to the Vampires); the Empire colonises Цинхэ,
    its last city. Expected: an "eliminated" event, the faction flagged, its units gone, a chronicle line."""
    state = make_game({"jade": {"Ополченец": 5}})
    state["cities"]["yulong"]["owner"] = "vampires"
    events = win(state, "qinghe", "Колонизировать")
    assert {"kind": "eliminated", "faction": "jade"} in events
    assert state["factions"]["jade"]["eliminated"] is True and state["factions"]["jade"]["units"] == {}
    assert "выбывает" in state["chronicle"][-1]["text"]


def test_a_plundered_faction_keeps_its_city_and_is_not_eliminated():
    """«Разграбить. … Город не переходит под ваш контроль». Setup as above, but the Empire plunders Цинхэ.
    Expected: no elimination."""
    state = make_game()
    state["cities"]["yulong"]["owner"] = "vampires"
    events = win(state, "qinghe", "Разграбить")
    assert not battle_events(events, "eliminated") and not state["factions"]["jade"]["eliminated"]


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
