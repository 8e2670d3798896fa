"""Vampire hibernation (issue 8 item 9a), DATC style: setup, orders, expected outcome, expected state.

Rule book (../shared/seeds/000_d4955973ee03e561.txt, L144): «Каждые 15 рабов могут давать кровь для 1 юнита,
однако треть рабов (округлённо) умирает в конце хода. Если крови рабов не хватает для содержания армии, то часть
вампиров впадает в спячку (вы можете сами выбрать, какие). Они не смогут действовать, пока рабов снова не будет
достаточно, но вы всё ещё должны платить за их содержание.»
RULINGS JR-71: «15 slaves per army unit (bone cannon 3×) is a hiring cap, and units beyond it hibernate (the
player may name which, default newest first)»; JR-70: «deaths at the end, rounded half up».

Every test: the Vampires hold Ноктис (large) and Умбра with vampire estates in Ноктис, 450 slaves and 20
starting half-bloods; on turn 3 they hire 5 warlocks (the costlier unit). At the end of the turn a third of
the slaves die (450 → 300): blood for 20 units, 25 need it, so 5 must sleep.
"""
from __future__ import annotations

import json

from engine.jade_rose import turn
from engine.jade_rose.actions.runner import run_economy
from engine.state import canonical_json
from tests.jade_rose.small_games import make_game, rows

HIRE = ("Нанять", "", "Чернокнижник", "5")


def vampire_game() -> dict:
    state = make_game(gold=2000, turn=3)
    state["cities"]["noct"]["buildings"] = ["vampires_estates"]
    state["factions"]["vampires"].update(units={"vampires_halfblood": 20}, slaves=450)
    return state


def play_orders_stage(state: dict, *cells: tuple) -> tuple[dict, dict]:
    """Validate and resolve one orders stage of the Vampires' «Экономика» rows (no battles: the turn ends).
    Returns (new state, statuses by row)."""
    parsed = turn.validate_orders(state, "vampires", {"economy": rows(*cells)})
    assert all(s.ok for s in parsed.statuses), [s.text() for s in parsed.statuses]
    result = turn.resolve_orders_stage(state, {"vampires": parsed}, seed=5)
    assert result.state["stage"] == "orders" and result.state["turn"] == state["turn"] + 1
    return result.state, {s.number: s for s in result.statuses["vampires"]}


def journal(state: dict) -> list[str]:
    return [line["text"] for line in state["log"] if line["faction"] == "vampires"]


def test_by_default_the_newest_units_sleep_not_the_cheapest():
    """Orders: «Нанять | | Чернокнижник | 5». Expected: the hire is OK; at the end of the turn the 5 warlocks,
    hired last, sleep, although they cost 45з against the half-bloods' 10з (before, the costliest were kept
    awake and 5 half-bloods slept). Expected state: hibernating {warlock: 5}; the journal says who sleeps."""
    new, statuses = play_orders_stage(vampire_game(), HIRE)
    assert statuses[2].ok and "нанято 5" in statuses[2].text()
    rec = new["factions"]["vampires"]
    assert rec["slaves"] == 300 and rec["units"] == {"vampires_halfblood": 20, "vampires_warlock": 5}
    assert rec["hibernating"] == {"vampires_warlock": 5}
    assert any("Спят: Чернокнижник ×5" in text for text in journal(new))
    assert "sleep_choice" not in rec
    assert rec["hire_order"] == [{"turn": 0, "unit": "vampires_halfblood", "count": 20},
                                 {"turn": 3, "unit": "vampires_warlock", "count": 5}]


def test_the_player_names_which_units_sleep():
    """Orders: «Нанять | | Чернокнижник | 5» and «Отправить в спячку | | Полукровка | 5».
    Expected: both rows OK, the second says the half-bloods will sleep first and that, as things stand, the
    blood after the end-of-turn deaths covers 20 of 25; at the end of the turn 5 half-bloods sleep and the
    warlocks stay awake. Expected state: hibernating {half-blood: 5}; the choice is used up."""
    new, statuses = play_orders_stage(vampire_game(), HIRE, ("Отправить в спячку", "", "Полукровка", "5"))
    note = statuses[3].text()
    assert statuses[3].ok and "Полукровка ×5 уснут первыми" in note and "хватит на 20 из 25" in note
    rec = new["factions"]["vampires"]
    assert rec["hibernating"] == {"vampires_halfblood": 5}
    assert "sleep_choice" not in rec


def test_a_choice_short_of_the_shortfall_is_topped_up_newest_first_with_a_message():
    """Orders: «Нанять | | Чернокнижник | 5» and «В спячку | | Полукровка | 2» (an accepted spelling).
    Expected: 2 half-bloods sleep as named, and 3 warlocks, the newest, make up the shortfall of 5; the
    journal says in Russian that the named units were not enough, who else fell asleep by the newest-first
    rule, and which units may be named (every own vampire, with the action and tab to use)."""
    new, _ = play_orders_stage(vampire_game(), HIRE, ("В спячку", "", "Полукровка", "2"))
    assert new["factions"]["vampires"]["hibernating"] == {"vampires_halfblood": 2, "vampires_warlock": 3}
    (message,) = [t for t in journal(new) if "не хватило" in t]
    assert "Полукровка ×2" in message and "недоставало на 5 юнитов" in message
    assert "сначала самые новые»: Чернокнижник ×3" in message
    assert "«Отправить в спячку» во вкладке «Экономика»" in message
    assert "Полукровка ×20, Чернокнижник ×5" in message


def test_sleepers_sleep_on_until_the_blood_suffices():
    """«Они не смогут действовать, пока рабов снова не будет достаточно». Setup: after the turn where the
    player put 5 half-bloods to sleep, 450 slaves again. Orders: none about sleep.
    Expected: the same 5 half-bloods sleep on (not the newer warlocks); once 375 slaves remain after the
    deaths (blood for 25), everyone wakes and the journal says so."""
    state, _ = play_orders_stage(vampire_game(), HIRE, ("Отправить в спячку", "", "Полукровка", "5"))
    state["factions"]["vampires"]["slaves"] = 450
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["hibernating"] == {"vampires_halfblood": 5}
    state["factions"]["vampires"]["slaves"] = 563          # − 188 at the end of the turn = 375
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["hibernating"] == {}
    assert "Все вампиры бодрствуют: крови хватает" in journal(state)


def test_bad_sleep_orders_get_a_russian_message_and_the_rest_still_counts():
    """Orders: «Отправить в спячку | | Полукровка | 30» (only 20), «Отправить в спячку | | Чернокнижник | »
    (no count), «Отправить в спячку | | | 3» (no unit), and the hire. Expected: each bad row is rejected with
    what is wrong and what is allowed; the hire still runs; the default newest-first rule applies."""
    state = vampire_game()
    parsed = turn.validate_orders(state, "vampires", {"economy": rows(
        ("Отправить в спячку", "", "Полукровка", "30"), ("Отправить в спячку", "", "Чернокнижник", ""),
        ("Отправить в спячку", "", "", "3"), HIRE)})
    by_row = {s.number: s for s in parsed.statuses}
    assert by_row[3].errors[0].code == "JR_COUNT_REQUIRED"
    assert by_row[4].errors[0].code == "JR_SLEEP_UNIT_REQUIRED" and "Полукровка" in by_row[4].text()
    result = turn.resolve_orders_stage(state, {"vampires": parsed}, seed=5)
    statuses = {s.number: s for s in result.statuses["vampires"]}
    too_many = statuses[2]
    assert too_many.errors[0].code == "JR_SLEEP_TOO_MANY"
    assert "у вас их 20" in too_many.text() and "не больше 20" in too_many.text()
    assert statuses[5].ok
    assert result.state["factions"]["vampires"]["hibernating"] == {"vampires_warlock": 5}


def test_only_the_vampires_may_name_sleepers():
    """The action belongs to the Vampires; another faction's row names who may use it."""
    state = make_game()
    parsed = turn.validate_orders(state, "empire", {"economy": rows(("Отправить в спячку", "", "Копейщик", "1"))})
    (status,) = parsed.statuses
    assert status.errors[0].code == "JR_ACTION_NOT_FOR_FACTION" and "Вампиры" in status.text()


def test_a_unit_type_s_dead_are_its_newest_hired():
    """Convention (hibernation.py): units of one type are alike, so a type's dead come out of its newest
    hiring and the survivors keep their place in the hiring order. Setup: 20 starting half-bloods, 5 warlocks
    hired on turn 3, 5 more half-bloods on turn 4; then 5 half-bloods die. Expected: the warlocks are again the
    newest and sleep when 5 must."""
    state = vampire_game()
    run_economy(state, "vampires", [{"row": 2, "kind": "hire", "what": "vampires_warlock", "count": 5}],
                        None)
    state["turn"] = 4
    state["factions"]["vampires"]["slaves"] = 525
    run_economy(state, "vampires", [{"row": 2, "kind": "hire", "what": "vampires_halfblood", "count": 5}],
                        None)
    rec = state["factions"]["vampires"]
    rec["units"]["vampires_halfblood"] -= 5                # fallen in battle
    rec["slaves"] = 450
    turn.end_of_turn(state)
    assert rec["hibernating"] == {"vampires_warlock": 5}


def test_a_snapshot_without_a_hiring_record_still_loads_and_plays():
    """Snapshots written before the hiring record existed have no "hire_order": every unit counts as a starting
    one, the costliest the oldest. Setup: the state as canonical JSON and back, with 20 half-bloods and 5
    warlocks and no record. Expected: 5 half-bloods sleep (cheaper starting units are the newer ones), nothing
    needs remembering (no "hire_order" written), and the state stays canonical JSON."""
    state = vampire_game()
    state["factions"]["vampires"]["units"]["vampires_warlock"] = 5
    state = json.loads(canonical_json(state))
    assert "hire_order" not in state["factions"]["vampires"]
    turn.end_of_turn(state)
    rec = state["factions"]["vampires"]
    assert rec["hibernating"] == {"vampires_halfblood": 5} and "hire_order" not in rec
    assert json.loads(canonical_json(state)) == state


def test_no_more_units_sleep_than_the_shortfall_needs():
    """«часть вампиров впадает в спячку»: only the shortfall. Setup: 20 starting half-bloods and a bone cannon
    hired last (it needs the blood of 3 units, L166), blood for 22. Expected: the cannon, newest, sleeps; that
    frees 3, so no half-blood needs to sleep."""
    state = vampire_game()
    state["cities"]["noct"].update(level=2, buildings=["vampires_estates", "vampires_mansions"])
    run_economy(state, "vampires", [{"row": 2, "kind": "hire", "what": "vampires_bone_cannon", "count": 1}],
                        None)
    state["factions"]["vampires"]["slaves"] = 495            # − 165 = 330: blood for 22 of 23
    turn.end_of_turn(state)
    assert state["factions"]["vampires"]["hibernating"] == {"vampires_bone_cannon": 1}
    assert state["factions"]["vampires"]["units"] == {"vampires_halfblood": 20, "vampires_bone_cannon": 1}
