"""Jade Rose faction actions of the «Экономика» tab, DATC style: setup, orders, expected outcome per order and
expected state. Each docstring quotes the rule book (seeds/000_d4955973ee03e561.txt) and says what is checked."""
from __future__ import annotations

import random

import pytest

from engine.jade_rose import income, turn
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.economy_orders import parse_economy_rows
from tests.jade_rose.small_games import make_game, rows


def run(state: dict, faction: str, *cells: tuple, seed: int = 7, plan: dict | None = None):
    """Parse and apply rows to `state` directly (no income/upkeep); return the statuses in row order."""
    orders, parsed = parse_economy_rows(state, faction, rows(*cells))
    assert all(s.ok for s in parsed), [s.text() for s in parsed]
    return run_economy(state, faction, orders, random.Random(seed), army_plan=plan)


def codes(status) -> list[str]:
    return [e.code for e in status.errors]


def attack_plan(city: str, units: dict[str, int], order: str = "attack") -> dict:
    return {"armies": {"Месть": {"squads": [{"flank": "C", "line": "V", "units": units}],
                                 "order": order, "city": city}}}


# -- Empire: actions against corruption (L87-92) --------------------------------------------------

def test_purge_of_the_generals_halves_corruption_rounded_up_then_1d3_and_stops_the_armies():
    """«Чистки генералов - армия не может действовать в этом ходу, +50% к содержанию армии в этот ход, снижение кр
    вдвое с округлением вверх и после ещё на 1к3, потеря 20ч» — corruption 9 → 5 → 2..4; 20ч; 10 spearmen (50з
    upkeep) cost 25з more; the faction's armies are blocked for the turn."""
    seen = set()
    for seed in range(30):
        state = make_game(gold=100)
        state["factions"]["empire"].update(corruption=9, honor=50, units={"empire_spearman": 10})
        (status,) = run(state, "empire", ("Чистка генералов", "", "", ""), seed=seed)
        assert status.ok, status.text()
        rec = state["factions"]["empire"]
        seen.add(rec["corruption"])
        assert (rec["honor"], rec["gold"], rec["armies_blocked"]) == (30, 75, True)
    assert seen == {2, 3, 4}


def test_honor_penalty_of_a_purge_grows_by_20_with_each_use():
    """«потеря 20ч, штраф к чести увеличивается на 20 с каждым использованием» — 20ч, then 40ч, then 60ч; without
    the honor the row is rejected and nothing changes (JR-66: counted per action type)."""
    state = make_game(gold=1000)
    state["factions"]["empire"].update(corruption=30, honor=100)
    for expected_honor in (80, 40):
        (status,) = run(state, "empire", ("Чистка чиновников", "", "", ""))
        assert status.ok and state["factions"]["empire"]["honor"] == expected_honor
    before = dict(state["factions"]["empire"])
    (status,) = run(state, "empire", ("Чистка чиновников", "", "", ""))
    assert codes(status) == ["JR_NOT_ENOUGH_HONOR"] and "нужно 60ч, а у вас 40ч" in status.text()
    assert state["factions"]["empire"] == before
    (status,) = run(state, "empire", ("Показательная казнь", "", "", ""))
    assert status.ok and state["factions"]["empire"]["honor"] == 30          # another action: its own count


def test_purge_of_the_officials_blocks_building_and_building_income():
    """«Чистки чиновников - невозможно строительство, постройки не приносят дохода в этот ход, снижение кр на 1к4+2,
    потеря 20ч» — the farmlands' 50з of this turn are taken back and the corruption penalty is recomputed without
    them; the build row is rejected although building runs before faction actions."""
    drops = set()
    for seed in range(30):
        state = make_game(gold=0)
        state["cities"]["ferrum"]["buildings"] = ["empire_farmlands"]
        state["factions"]["empire"].update(corruption=12, honor=25)
        income.collect_income(state, "empire")                 # 300 + 150 + 50 = 500, −20 % and −5ч corruption
        assert (state["factions"]["empire"]["gold"], state["factions"]["empire"]["honor"]) == (400, 20)
        build, purge = run(state, "empire", ("Построить", "Аурум", "Часовня", ""),
                           ("Чистка чиновников", "", "", ""), seed=seed)
        assert codes(build) == ["JR_BUILDING_BLOCKED"] and "строка 3" in build.text()
        assert purge.ok, purge.text()
        rec = state["factions"]["empire"]
        assert rec["gold"] == 450 - 90 and rec["honor"] == 0      # as if the farmlands earned nothing
        assert state["cities"]["aurum"]["buildings"] == []
        drops.add(12 - rec["corruption"])
    assert drops == {3, 4, 5, 6}


def test_public_execution_costs_10_honor_more_each_time_and_lowers_corruption_by_1d3():
    """«Показательная казнь - потеря 10ч, снижение кр на 1к3, штраф к чести увеличивается на 10 с каждым
    использованием»."""
    drops = set()
    for seed in range(30):
        state = make_game()
        state["factions"]["empire"].update(corruption=5, honor=30, corruption_actions={"public_execution": 1})
        (status,) = run(state, "empire", ("Показательная казнь", "", "", ""), seed=seed)
        assert status.ok and state["factions"]["empire"]["honor"] == 10
        drops.add(5 - state["factions"]["empire"]["corruption"])
    assert drops == {1, 2, 3}


def test_surveillance_needs_the_secret_police_costs_150_and_weakens_with_each_use():
    """«Установление слежки (только если построен штаб тайной полиции) - снижение кр на 1к3, с каждым последующим
    применением - на 1 меньше, стоит 150з» — first use 1..3, second 0..2, fourth 0 (floor 0)."""
    state = make_game(gold=1000)
    state["factions"]["empire"]["corruption"] = 10
    (status,) = run(state, "empire", ("Слежка", "", "", ""))
    assert codes(status) == ["JR_ACTION_NEEDS_BUILDING"] and "Штаб тайной полиции" in status.text()
    by_use: dict[int, set] = {0: set(), 1: set(), 3: set()}
    for uses in by_use:
        for seed in range(30):
            state = make_game(gold=1000)
            state["cities"]["aurum"].update(level=2, buildings=["empire_secret_police"])
            state["factions"]["empire"].update(corruption=10, corruption_actions={"surveillance": uses})
            (status,) = run(state, "empire", ("Установление слежки", "", "", ""), seed=seed)
            assert status.ok and state["factions"]["empire"]["gold"] == 850
            by_use[uses].add(10 - state["factions"]["empire"]["corruption"])
    assert by_use == {0: {1, 2, 3}, 1: {0, 1, 2}, 3: {0}}


def test_terror_needs_the_inquisition_and_costs_nothing():
    """«Террор коррупционеров (только если построен штаб инквизиции) - снижение кр на 1к4+1 без издержек»."""
    drops = set()
    for seed in range(30):
        state = make_game(gold=0)
        state["cities"]["aurum"].update(level=3, buildings=["empire_inquisition"])
        state["factions"]["empire"]["corruption"] = 8
        (status,) = run(state, "empire", ("Террор", "", "", ""), seed=seed)
        assert status.ok and state["factions"]["empire"]["gold"] == 0 and state["factions"]["empire"]["honor"] == 0
        drops.add(8 - state["factions"]["empire"]["corruption"])
    assert drops == {2, 3, 4, 5}
    state = make_game()
    state["cities"]["aurum"].update(level=2, buildings=["empire_secret_police"])
    (status,) = run(state, "empire", ("Террор", "", "", ""))
    assert codes(status) == ["JR_ACTION_NEEDS_BUILDING"] and "Штаб инквизиции" in status.text()


def test_only_one_action_against_corruption_per_turn_and_corruption_never_below_zero():
    """«Для снижения коррупции вы можете выполнять следующие действия (только 1 за ход)»; «Меньше 0 кр быть не
    может» — the first row counts, the second is rejected naming it; corruption 1 − (1d4+1) stops at 0."""
    state = make_game(gold=1000)
    state["cities"]["aurum"].update(level=3, buildings=["empire_inquisition"])
    state["factions"]["empire"].update(corruption=1, honor=50)
    terror, execution = run(state, "empire", ("Террор", "", "", ""), ("Показательная казнь", "", "", ""))
    assert terror.ok and state["factions"]["empire"]["corruption"] == 0
    assert codes(execution) == ["JR_ONE_CORRUPTION_ACTION"] and "строка 2" in execution.text()
    assert state["factions"]["empire"]["honor"] == 50


# -- Vampires (L145-155) ---------------------------------------------------------------------------

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


# -- Dwarves (L210, L248, L253) -------------------------------------------------------------------

def test_vengeful_campaign_with_5_grudges_pays_35_percent_less():
    """«Вы можете объявить 'мстительный поход' против фракции. В таком случае вы нанимаете любое количество юнитов
    и получаете на это скидку в размере 7%*число обид. Например, если у вас 5 обид, то скидка будет 35%. Остаток
    цены покупки округляется вниз.» — 7 miners (210з) cost 136з (136.5 rounded down)."""
    state = make_game(gold=1000)
    state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
    state["factions"]["dwarves"]["grudges"]["empire"] = 5
    plan = attack_plan("ferrum", {"dwarves_miner": 7})
    campaign, hire = run(state, "dwarves", ("Нанять", "", "Горняки", 7), ("Мстительный поход", "", "Империя", ""),
                         plan=plan)
    assert campaign.ok and "35 %" in campaign.text()
    assert hire.ok, hire.text()
    assert state["factions"]["dwarves"]["gold"] == 1000 - 136
    assert state["factions"]["dwarves"]["units"] == {"dwarves_miner": 7}
    assert state["factions"]["dwarves"]["crusade"]["units"] == {"dwarves_miner": 7}
    state["factions"]["dwarves"]["grudges"]["empire"] = 10
    state["factions"]["dwarves"]["units"] = {}
    run(state, "dwarves", ("Мстительный поход", "", "Империя", ""), ("Нанять", "", "Горняки", 7), plan=plan)
    assert state["factions"]["dwarves"]["gold"] == 1000 - 136 - 63          # 70 %: 63 of 210


def test_vengeful_campaign_units_must_be_sent_against_that_faction():
    """«Всех купленных со скидкой юнитов вы обязаны отправить на захват города фракции, которой вы мстите.» — hired
    units beyond those in an army attacking that faction's city are rejected (JR-82); nothing is paid."""
    for plan in (None, attack_plan("noct", {"dwarves_miner": 10}),
                 attack_plan("ferrum", {"dwarves_miner": 10}, "defend"), attack_plan("ferrum", {"dwarves_miner": 3})):
        state = make_game(gold=1000)
        state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
        state["factions"]["dwarves"]["grudges"]["empire"] = 5
        _, hire = run(state, "dwarves", ("Мстительный поход", "", "Империя", ""), ("Нанять", "", "Горняки", 5),
                      plan=plan)
        assert codes(hire) == ["JR_CRUSADE_NOT_SENT"] and "Империя" in hire.text()
        assert state["factions"]["dwarves"]["gold"] == 1000 and state["factions"]["dwarves"]["units"] == {}
    state = make_game(gold=1000)
    state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
    state["factions"]["dwarves"]["grudges"]["empire"] = 1
    first, second, hire = run(state, "dwarves", ("Мстительный поход", "", "Вампиры", ""),
                              ("Мстительный поход", "", "Империя", ""), ("Мстительный поход", "", "Империя", ""),
                              ("Нанять", "", "Горняки", 2), plan=attack_plan("ferrum", {"dwarves_miner": 2}))[:3]
    assert codes(first) == ["JR_CRUSADE_NO_GRUDGES"] and second.ok
    assert codes(hire) == ["JR_CRUSADE_TWICE"]
    assert state["factions"]["dwarves"]["gold"] == 1000 - 55                 # 60 − 7 % = 55.8 → 55


def test_investors_guild_takes_up_to_500_and_returns_20_percent_more_next_turn():
    """«Гильдия вкладчиков (200з) - позволяет вложить до 500з и к следующему ходу вернуть на 20% больше.»"""
    state = make_game(gold=1000)
    (status,) = run(state, "dwarves", ("Вложить", "", "", 100))
    assert codes(status) == ["JR_INVEST_NO_GUILD"] and "Гильдия вкладчиков" in status.text()
    state["cities"]["mons"]["buildings"] = ["dwarves_investors_guild"]
    first, second = run(state, "dwarves", ("Вложить", "", "", 300), ("Вложить", "", "", 300))
    assert first.ok and codes(second) == ["JR_INVEST_CAP"] and "ещё 200з" in second.text()
    assert state["factions"]["dwarves"]["gold"] == 700
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["gold"] == 700 + 300 + 60 and state["factions"]["dwarves"]["investment"] == 0
    state = make_game(gold=500, turn=6)
    state["cities"]["mons"]["buildings"] = ["dwarves_investors_guild"]
    run(state, "dwarves", ("Вложить", "", "", 500))
    state["turn"] = 7                                                       # Sunset doubles the profit
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["gold"] == 500 + 200


def test_grudge_room_records_one_grudge_per_turn_against_the_chosen_faction():
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции. … Две гильдии против одной фракции
    работать не могут»."""
    state = make_game()
    state["cities"]["karak"].update(level=2, buildings=["dwarves_grudge_room"])
    state["cities"]["mons"].update(level=2, buildings=["dwarves_grudge_room"])
    (status,) = run(state, "dwarves", ("Записывать обиды", "Карак", "Нефритовый двор", ""))
    assert status.ok, status.text()
    for expected in (1, 2):
        turn.start_of_turn(state, 1)
        assert state["factions"]["dwarves"]["grudges"]["jade"] == expected
    (status,) = run(state, "dwarves", ("Записывать обиды", "Монс", "Нефритовый двор", ""))
    assert codes(status) == ["JR_GRUDGE_ROOM_TAKEN"] and "Карак" in status.text()
    state["cities"]["mons"]["buildings"] = []
    (status,) = run(state, "dwarves", ("Записывать обиды", "Монс", "Империя", ""))
    assert codes(status) == ["JR_NO_GRUDGE_ROOM"] and "Карак" in status.text()


def test_grudges_are_forgiven_one_per_turn_when_the_dwarves_hold_twice_the_cities():
    """«если у вашей фракции вдвое больше городов, чем у противника, то этому противнику прощается 1 обида в начале
    каждого хода, если он не заработал ни одной новой обиды» — and «Гильдия бесконечной мести - позволяет вам
    игнорировать любые эффекты, снижающие число обид»."""
    state = make_game(turn=4)
    state["cities"]["ferrum"]["owner"] = "dwarves"                  # dwarves 3 cities, empire 1
    state["factions"]["dwarves"]["grudges"].update(empire=3, vampires=3)
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"] == {"empire": 2, "vampires": 3, "jade": 0}
    state["turn"] = 5
    state["factions"]["dwarves"]["grudge_turns"] = {"empire": 4}   # a new grudge in the previous turn
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"]["empire"] == 2
    state["turn"] = 6
    state["cities"]["karak"].update(level=3, buildings=["dwarves_endless_vengeance_guild"])
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"]["empire"] == 2


# -- parsing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("faction, cells, code, words", [
    ("dwarves", ("Мстительный поход", "", "", ""), "JR_FACTION_REQUIRED", ["Империя", "Вампиры"]),
    ("dwarves", ("Мстительный поход", "", "Огры", ""), "JR_UNKNOWN_FACTION", ["Огры", "Нефритовый двор"]),
    ("dwarves", ("Мстительный поход", "", "Дворфы", ""), "JR_SELF_TARGET", ["Империя"]),
    ("dwarves", ("Вложить", "", "", ""), "JR_COUNT_REQUIRED", ["Вложить"]),
    ("dwarves", ("Записывать обиды", "", "Империя", ""), "JR_CITY_REQUIRED", ["Карак"]),
    ("vampires", ("Обратить в рабов", "Аурум", "", ""), "JR_CITY_NOT_OWNED", ["Ноктис"]),
    ("vampires", ("Ритуал вечных слуг", "", "", "2"), "JR_ONE_AT_A_TIME", ["«2»"]),
    ("empire", ("Ритуал вечных слуг", "", "", ""), "JR_ACTION_NOT_FOR_FACTION", ["Вампиры", "Террор"]),
    ("jade", ("Чистка генералов", "", "", ""), "JR_ACTION_NOT_FOR_FACTION", ["Империя", "Купить нефрит"]),
])
def test_bad_faction_action_rows_get_a_russian_message(faction, cells, code, words):
    state = make_game(gold=1000)
    orders, statuses = parse_economy_rows(state, faction, rows(cells))
    assert orders == [] and code in codes(statuses[0])
    for word in words:
        assert word in statuses[0].text(), (word, statuses[0].text())


def test_faction_actions_accept_the_rule_books_wording_and_faction_names():
    state = make_game()
    orders, statuses = parse_economy_rows(state, "dwarves", rows(("объявить мстительный поход", "", "империя", ""),
                                                                 ("Записывать обиды", "монс", "нефритовый двор", "")))
    assert all(s.ok for s in statuses)
    assert [(o["kind"], o["target"], o["city"]) for o in orders] == [("crusade", "empire", None),
                                                                    ("grudge_target", "jade", "mons")]
    orders, statuses = parse_economy_rows(state, "empire", rows(("Установление слежки", "", "", ""),
                                                                ("Террор коррупционеров", "", "", "1")))
    assert all(s.ok for s in statuses) and [o["kind"] for o in orders] == ["surveillance", "terror"]
