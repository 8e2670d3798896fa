"""The Empire (factions/empire.py, rule book L73-92): honor from the war and from buildings, corruption (its
growth, its penalty, the actions against it, the police buildings), the purge of the generals at `check` and at
`turn`. DATC style: setup, orders, expected outcome; each docstring quotes the rule book
(../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import consequences, income, turn
from tests.jade_rose import war_kit
from tests.jade_rose.check_kit import RS, check_orders, tabs, verdicts
from tests.jade_rose.small_games import (
    add_cities,
    battle,
    capture,
    codes,
    gold_lines,
    honor,
    ledger_sum,
    make_game,
    run,
    run_rows,
)

# -- Empire honor (L75-79) -------------------------------------------------------------------------

def test_empire_honor_per_dead_unit_is_a_fifth_of_its_upkeep_summed_per_battle():
    """«Каждый умерший юнит даёт честь в размере пятой части своего содержания в золоте. Например, умерший копейщик
    с содержанием 5з/ход при смерти даст 1ч.» — 3 horsemen (8з) and a spearman (5з): 29 ÷ 5 = 5ч (JR-63: summed
    per battle, then floored); one horseman in each of two battles: 1ч + 1ч; the enemy's dead give nothing."""
    state = make_game()
    consequences.apply_war_events(state, [battle("ferrum", "vampires", "empire",
                                             deaths={"empire": {"empire_horseman": 3, "empire_spearman": 1},
                                                     "vampires": {"vampires_lord": 1}})])
    assert honor(state) == 5 and ledger_sum(state, "empire", "honor") == 5
    consequences.apply_war_events(state, [
        battle("ferrum", "vampires", "empire", deaths={"empire": {"empire_horseman": 1}}),
        battle("aurum", "dwarves", "empire", deaths={"empire": {"empire_horseman": 1}})])
    assert honor(state) == 7


def test_a_captured_empire_capital_gives_150_honor():
    """«Ваш город захватили или разрушили: +50ч (если большой, то +150ч) (в дополнение к чести за смерть
    гарнизона)» — the large capital colonised: 150 + the garrison's 10 spearmen (10ч); a small city razed: +50."""
    state = make_game()
    garrison = {"empire": {"empire_spearman": 10}}
    consequences.apply_war_events(state, [battle("aurum", "vampires", "empire", deaths=garrison),
                                          capture(state, "aurum", "vampires", "colonise")])
    assert honor(state) == 160
    consequences.apply_war_events(state, [capture(state, "ferrum", "dwarves", "raze")])
    assert honor(state) == 210


def test_a_plundered_empire_city_gives_30_or_90_honor():
    """«Ваш город разграбили: +30ч (если большой - то +90ч) (в дополнение к чести за смерть гарнизона)»."""
    state = make_game()
    consequences.apply_war_events(state, [capture(state, "ferrum", "jade", "plunder")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "aurum", "jade", "plunder")])
    assert honor(state) == 120


def test_the_empire_loses_20_honor_for_plundering_or_razing_but_never_goes_below_zero():
    """«Вы разграбили или разрушили город: -20ч»; «Честь не может быть отрицательной.» — 50 → 30 (plunder) → 10
    (raze) → 0 (plunder); colonising costs nothing."""
    state = make_game()
    state["factions"]["empire"]["honor"] = 50
    consequences.apply_war_events(state, [capture(state, "umbra", "empire", "plunder")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "mons", "empire", "colonise")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "qinghe", "empire", "raze"),
                                      capture(state, "umbra", "empire", "plunder")])
    assert honor(state) == 0 and ledger_sum(state, "empire", "honor") == -50


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


def test_a_purge_of_the_generals_refuses_the_army_rows_at_check_and_at_turn_and_garrisons_still_deploy():
    """«Чистки генералов»: «The army cannot act this turn. +50 % army upkeep this turn» (rule book §Empire,
    actions against corruption).

    Setup: the Empire (20ч) purges the generals; it also forms army «1» (10 spearmen) and orders it to attack
    Цинхэ, and places its Феррум garrison's spearmen in the left vanguard; the Jade Court attacks Феррум.
    Expected: at `check` and at the turn the army row and the attack order are refused with
    JR_WAR_ARMIES_BLOCKED (before: `check` said OK and the turn silently dropped the whole plan, garrison rows
    included); the garrison row stays OK and the Jade attack meets the spearmen where the row put them."""
    state = war_kit.make_game({"empire": {"Копейщик": 10}, "jade": {"Ополченец": 10}})
    state["factions"]["empire"]["honor"] = 20
    books = {"empire": tabs(economy=[("Чистка генералов", "", "", "")],
                            armies=[("1", "Центр", "Авангард", "Копейщик", 10)],
                            army_orders=[("1", "Атаковать", "Цинхэ", "", "Да")],
                            garrisons=[("Феррум", "Левый", "Авангард", "Копейщик", 10)]),
             "jade": tabs(armies=[("1", "Центр", "Авангард", "Ополченец", 10)],
                          army_orders=[("1", "Атаковать", "Феррум", "", "Нет")])}
    parsed = check_orders(state, books)
    result = RS.resolve(state, "orders", parsed, 3)
    for got in (verdicts(parsed["empire"]), verdicts(parsed["empire"], result.statuses)):
        assert got[("economy", 2)].ok, got[("economy", 2)].text()
        assert codes(got[("armies", 2)]) == ["JR_WAR_ARMIES_BLOCKED"]
        assert codes(got[("army_orders", 2)]) == ["JR_WAR_ARMIES_BLOCKED"]
        assert "Чистка генералов" in got[("army_orders", 2)].text()
        assert got[("garrisons", 2)].ok, got[("garrisons", 2)].text()
    (battle,) = result.state["battles"]
    assert battle["city"] == "ferrum"
    defence = {f"{s['flank']}/{s['line']}": s["units"] for s in battle["defence"]["squads"]}
    assert defence["left/vanguard"] == {"empire_spearman": 10}


# -- the police buildings (L83-84) -----------------------------------------------------------------------------

def test_secret_police_lowers_corruption_once_after_the_first_build():
    """«-1к4+1 к коррупции сразу после первой постройки» — 2..5 less, and not again when rebuilt."""
    drops = set()
    for seed in range(30):
        state = make_game(gold=2000)
        state["cities"]["aurum"]["level"] = 2
        state["factions"]["empire"]["corruption"] = 9
        run_rows(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""), seed=seed)
        drops.add(9 - state["factions"]["empire"]["corruption"])
        run_rows(state, "empire", ("Продать", "Аурум", "Штаб тайной полиции", ""))
        before = state["factions"]["empire"]["corruption"]
        run_rows(state, "empire", ("Построить", "Аурум", "Штаб тайной полиции", ""), seed=seed + 1)
        assert state["factions"]["empire"]["corruption"] == before
    assert drops == {2, 3, 4, 5}


# -- honor and corruption each turn (L76, L80-86) --------------------------------------------------------------

def test_empire_honor_per_turn_from_buildings():
    """«Часовня (100з): +5ч в ход» and «Зал рыцарей (200з) - +10ч в ход» — collected with the income."""
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["aurum"]["buildings"] = ["empire_chapel", "empire_hall_of_knights"]
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["honor"] == 15
    assert sum(line["amount"] for line in gold_lines(state, "empire", "honor")) == 15


def test_corruption_penalty_takes_income_and_honor():
    """«В зависимости от уровня коррупции к вам применяются штрафы (Коррупция не может 'съесть' более половины
    вашего дохода или опустить честь ниже -50)» — defaults: level 12 is −20 % and −5 honor; 40 is −50 %."""
    state = make_game()
    state["factions"]["empire"]["corruption"] = 12
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["gold"] == 450 - 90
    assert state["factions"]["empire"]["honor"] == -5
    state = make_game()
    state["factions"]["empire"].update(corruption=40, honor=-45)
    income.collect_income(state, "empire")
    assert state["factions"]["empire"]["gold"] == 225
    assert state["factions"]["empire"]["honor"] == -50


def test_corruption_grows_each_turn_by_a_die_of_the_city_count():
    """«В начале каждого хода киньте бросок и увеличьте уровень коррупции в зависимости от числа городов»
    — default: 1–3 cities roll 1d2; the secret police «снижает прирост коррупции на 2»."""
    rolls = set()
    for seed in range(40):
        state = make_game()
        turn.start_of_turn(state, seed)
        rolls.add(state["factions"]["empire"]["corruption"])
    assert rolls == {1, 2}
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    state["cities"]["aurum"]["buildings"] = ["empire_secret_police"]
    for seed in range(20):
        turn.start_of_turn(state, seed)
    assert state["factions"]["empire"]["corruption"] == 0


# -- what `check` says of the corruption dice (issue 38 §1) -----------------------------------------------------

def _turned(status) -> tuple[int, int]:
    """(before, after) of the turn's note «…: коррупция X → Y, …» (the turn rolled its dice: single values)."""
    before, after = status.text().split("коррупция ")[1].split(",")[0].split(" (")[0].split(" → ")
    return int(before), int(after)


def _span(text: str) -> tuple[int, int]:
    low, _, high = text.partition("…")
    return int(low), int(high or low)


def test_check_tells_the_corruption_an_action_leaves_as_its_range_not_one_draw():
    """Issue 38 §1: «Where the outcome is random, `check` shows its range or its chance («коррупция 6 → 3…5, бросок
    1к3»), never one draw. It cannot know the stage's dice and must not look as if it does.» L90 «Показательная
    казнь - уменьшает коррупцию на 1к3», and the corruption grows at the start of the turn by a die of the cities
    held (RULINGS, Empire: 1–3 cities: 1d2).
    Setup: the Empire (2 cities) at corruption 4 orders a public execution.
    Expected: `check` says «коррупция 5…6 → 2…5 (рост в начале хода 1к2, бросок 1к3)», whatever dice it might
    roll; the turn, seed after seed, shows a corruption before and after inside those ranges, and both ends of
    each range come up (the range is the dice's, not wider)."""
    state = make_game(gold=1000, turn=2)
    state["factions"]["empire"].update(corruption=4, honor=100)
    parsed = check_orders(state, {"empire": tabs(economy=[("Показательная казнь", "", "", "")])})
    (status,) = parsed["empire"].statuses
    assert status.text() == ("OK: Показательная казнь: коррупция 5…6 → 2…5 (рост в начале хода 1к2, бросок 1к3), "
                             "потрачено 10ч")
    seen = [_turned(RS.resolve(state, "orders", parsed, seed).statuses["empire"][0]) for seed in range(60)]
    assert {b for b, _ in seen} == {5, 6} and {a for _, a in seen} == {2, 3, 4, 5}


def test_every_action_against_corruption_is_foreseen_as_the_range_the_turn_keeps_to():
    """L88-92 (purges: «уменьшает коррупцию вдвое с округлением вверх и после ещё на 1к3» / «1к4+2»; execution
    1к3; surveillance 1к3, «с каждым последующим применением - на 1 меньше»; terror 1к4+1), issue 38 §1: `check`
    names the dice and the range of the corruption they leave; the turn stays inside it and reaches its ends.
    Setup: 4 cities (1d4 growth) at corruption 11; the surveillance used once before; the police and the
    inquisition standing where the action needs them (the inquisition's −4 growth: no growth at all)."""
    cases = [("Чистка генералов", "1к3", ()), ("Чистка чиновников", "1к4+2", ()),
             ("Показательная казнь", "1к3", ()), ("Слежка", "1к3", ("empire_secret_police",)),
             ("Террор", "1к4+1", ("empire_inquisition",))]
    for action, dice, buildings in cases:
        state = make_game(gold=5000, turn=2)
        add_cities(state, "empire", 2, level=3)
        state["cities"]["empire_extra_0"]["buildings"] = list(buildings)
        state["factions"]["empire"].update(corruption=11, honor=500, corruption_actions={"surveillance": 1})
        parsed = check_orders(state, {"empire": tabs(economy=[(action, "", "", "")])})
        (status,) = parsed["empire"].statuses
        assert status.ok and f"бросок {dice})" in status.text(), status.text()
        before, after = status.text().split("коррупция ")[1].split(" (")[0].split(" → ")
        low, high = _span(after)
        seen = set()
        for seed in range(80):
            got = _turned(RS.resolve(state, "orders", parsed, seed).statuses["empire"][0])
            assert low <= got[1] <= high and _span(before)[0] <= got[0] <= _span(before)[1], (action, got, status)
            seen.add(got[1])
        assert {low, high} <= seen, (action, seen, status.text())
        growth = "рост в начале хода 1к4" in status.text()
        assert growth == (not buildings or buildings == ("empire_secret_police",)), status.text()


def test_check_tells_the_secret_police_s_first_drop_as_a_range():
    """«-1к4+1 к коррупции сразу после первой постройки» (L83), issue 38 §1: at `check` a range, with its die.
    Setup: corruption 9, 2 cities (1d2 growth: 10…11), the secret police built in Аурум (level 2).
    Expected: «коррупция 10…11 → 5…9 (рост в начале хода 1к2, бросок 1к4+1)»; the turn ends at each of 5…9."""
    state = make_game(gold=2000, turn=2)
    state["cities"]["aurum"]["level"] = 2
    state["factions"]["empire"]["corruption"] = 9
    parsed = check_orders(state, {"empire": tabs(economy=[("Построить", "Аурум", "Штаб тайной полиции", "")])})
    (status,) = parsed["empire"].statuses
    assert status.text() == ("OK: Построить: построено за 400з; коррупция 10…11 → 5…9 (рост в начале хода 1к2, "
                             "бросок 1к4+1)")
    after = {RS.resolve(state, "orders", parsed, seed).state["factions"]["empire"]["corruption"] for seed in range(80)}
    assert after == set(range(5, 10))
