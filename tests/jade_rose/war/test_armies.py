"""The war tabs «Армии», «Приказы армиям», «Гарнизоны» (war/armies.py): the form of every row (bad input never
crashes, every bad row gets a Russian message saying what is allowed); the map is tests/jade_rose/war_kit.py's."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose import war
from engine.ruleset import Row
from tests.jade_rose.small_games import codes
from tests.jade_rose.war_kit import ARMY_KEYS, GARRISON_KEYS, ORDER_KEYS, make_game, parse, rows

_TEXT = st.one_of(st.sampled_from(["", "1", "Центр", "Левый", "Авангард", "Арьергард", "Копейщик", "Лучник",
                                   "Атаковать", "Оборонять", "Цинхэ", "Феррум", "Да", "=A1", "-5", "1e9", "NaN",
                                   "Разрушить", "\u00a0", "Нефритовый воин"]),
                  st.text(max_size=12))


# -- «Армии» -----------------------------------------------------------------------------------------

def test_every_non_blank_row_gets_exactly_one_status():
    """DESIGN «Reliability»: each bad order row gets a message and nothing else of the faction's orders is
    lost. Setup: a good row, a blank row and a bad row in «Армии». Expected: two statuses, OK and error; the
    good row is in the plan."""
    state = make_game({"empire": {"Копейщик": 5}})
    plan, statuses = war.parse_war_tabs(state, "empire", {"armies": rows(
        ARMY_KEYS, ("1", "Центр", "Авангард", "Копейщик", 5), ("", "", "", "", ""),
        ("1", "Центр", "Авангард", "Гоблин", 2))})
    assert [(s.number, s.ok) for s in statuses] == [(2, True), (4, False)]
    assert plan["armies"]["1"]["squads"][0]["units"] == {"empire_spearman": 5}


def test_unknown_names_and_garbage_numbers_get_russian_messages_with_what_is_allowed():
    """«Расстановка: … Всего есть 3 фланга: левый, центральный и правый. На каждом фланге есть 2 позиции:
    авангард … и арьергард». Expected: an unknown flank, line, unit and a non-number count each get their
    message listing what is allowed."""
    state = make_game()
    _, st_ = parse(state, "empire", [("1", "Верхний", "Авангард", "Копейщик", 5),
                                     ("1", "Центр", "Середина", "Копейщик", 5),
                                     ("1", "Центр", "Авангард", "Гоблин", 5),
                                     ("1", "Центр", "Авангард", "Копейщик", "пять"),
                                     ("1", "Центр", "Авангард", "Копейщик", "-3"),
                                     ("", "Центр", "Авангард", "Копейщик", 1)])
    assert codes(st_[("armies", 2)]) == ["JR_WAR_UNKNOWN_FLANK"] and "Левый, Центр, Правый" in st_[("armies", 2)].text()
    assert codes(st_[("armies", 3)]) == ["JR_WAR_UNKNOWN_LINE"] and "Авангард, Арьергард" in st_[("armies", 3)].text()
    assert codes(st_[("armies", 4)]) == ["JR_WAR_UNKNOWN_UNIT"] and "Копейщик" in st_[("armies", 4)].text()
    assert codes(st_[("armies", 5)]) == ["E_NOT_A_NUMBER"] and codes(st_[("armies", 6)]) == ["E_NOT_A_NUMBER"]
    assert codes(st_[("armies", 7)]) == ["JR_WAR_ARMY_REQUIRED"]


def test_another_faction_s_unit_is_named_as_such():
    """«Для каждой фракции … юниты уникальны»: the Empire has no jade warriors. Expected: JR_WAR_FOREIGN_UNIT
    naming the Jade Court."""
    _, st_ = parse(make_game(), "empire", [("1", "Центр", "Авангард", "Нефритовый воин", 3)])
    assert codes(st_[("armies", 2)]) == ["JR_WAR_FOREIGN_UNIT"] and "Нефритовый двор" in st_[("armies", 2)].text()


def test_formulas_are_refused():
    """DESIGN «Reliability and security»: no player-supplied string is ever taken as a formula."""
    _, st_ = parse(make_game(), "empire", [("1", "Центр", "Авангард", "Копейщик", "=1+1")])
    assert codes(st_[("armies", 2)]) == ["E_FORMULA"]


def test_flank_and_line_spellings():
    """Flanks «Левый»/«Центр»/«Правый» (also «Центральный», «лев.», English) and lines «Авангард»/«Арьергард».
    Expected: every spelling lands on the same positions."""
    plan, st_ = parse(make_game({"empire": {"Копейщик": 6}}), "empire", [
        ("1", "лев.", "авангард", "Копейщик", 1), ("1", "Центральный", "Vanguard", "Копейщик", 1),
        ("1", "right", "АВАНГАРД", "Копейщик", 1), ("1", "Правый", "арьергард", "Копейщик", 1),
        ("1", "центр", "rearguard", "Копейщик", 1), ("1", "left", "Арьергард", "Копейщик", 1)])
    assert all(s.ok for s in st_.values())
    cells = {(s["flank"], s["line"]) for s in plan["armies"]["1"]["squads"]}
    assert cells == {(f, ln) for f in ("left", "center", "right") for ln in ("vanguard", "rearguard")}


def test_one_hero_per_squad():
    """«В 1 отряде может быть только 1 герой.» Setup: two heroes in one squad, a third in another squad.
    Expected: the second hero's row is rejected with JR_WAR_ONE_PER_SQUAD; the others stand."""
    _, st_ = parse(make_game(), "empire", [("1", "Центр", "Авангард", "Герой", 1),
                                           ("1", "Центр", "Авангард", "Герой", 1),
                                           ("1", "Левый", "Авангард", "Герой", 1)])
    assert st_[("armies", 2)].ok and st_[("armies", 4)].ok
    assert codes(st_[("armies", 3)]) == ["JR_WAR_ONE_PER_SQUAD"]


def test_jade_dragon_never_shares_a_squad_with_a_colossus():
    """«(В 1 отряде может быть только 1 нефритовый дракон, при этом там не должно быть нефритового колосса)»."""
    _, st_ = parse(make_game(), "jade", [("1", "Центр", "Авангард", "Нефритовый колосс", 1),
                                         ("1", "Центр", "Авангард", "Нефритовый дракон", 1)])
    assert codes(st_[("armies", 3)]) == ["JR_WAR_EXCLUDED_PAIR"]


def test_a_rearguard_without_vanguard_is_allowed_and_moves_up():
    """«Арьергард без авангарда существовать не может. Если авангардный отряд умирает, то арьергард автоматически
    выступает вперёд и становится авангардом.» RULINGS: such a rearguard is moved, with a warning.
    Expected: the row is OK with a note; the battle deploys the squad in the vanguard."""
    state = make_game({"empire": {"Лучник": 6}})
    plan, st_ = parse(state, "empire", [("1", "Левый", "Арьергард", "Лучник", 6)],
                      [("1", "Атаковать", "Цинхэ", "", "Да")])
    assert st_[("armies", 2)].ok and "авангард" in st_[("armies", 2)].note
    war.form_battles(state, {"empire": plan}, 1)
    (squad,) = state["battles"][0]["attackers"][0]["squads"]
    assert (squad["flank"], squad["line"]) == ("left", "vanguard")


# -- «Приказы армиям» and «Гарнизоны» -----------------------------------------------------------------------

def test_order_rows_are_checked_for_their_form():
    """«Каждой армии вы можете приказать либо рассредоточиться …, либо оборонять город …, либо атаковать город
    противника.» Expected: an unknown order, an attack without a city, an unknown city, a bad capture choice,
    a bad yes/no, a second order for one army and an order for an army with no units are rejected."""
    state = make_game({"empire": {"Копейщик": 5}})
    _, st_ = parse(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 5),
                                     ("2", "Центр", "Авангард", "Копейщик", 5)],
                   [("1", "Штурмовать", "Цинхэ", "", ""), ("1", "Атаковать", "", "", ""),
                    ("1", "Атаковать", "Атлантида", "", ""), ("1", "Атаковать", "Цинхэ", "Съесть", ""),
                    ("1", "Атаковать", "Цинхэ", "", "Может быть"), ("2", "Атаковать", "Цинхэ", "", ""),
                    ("2", "Оборонять", "Феррум", "", ""), ("9", "Атаковать", "Цинхэ", "", "")])
    got = {n: codes(st_[("army_orders", n)]) for n in range(2, 10)}
    assert got == {2: ["JR_WAR_UNKNOWN_ORDER"], 3: ["JR_WAR_CITY_REQUIRED"], 4: ["JR_WAR_UNKNOWN_CITY"],
                   5: ["JR_WAR_UNKNOWN_CAPTURE"], 6: ["JR_WAR_UNKNOWN_YES_NO"], 7: [],
                   8: ["JR_WAR_DUPLICATE_ORDER"], 9: ["JR_WAR_NO_DEPLOYMENT"]}


def test_capture_defaults_to_colonise_and_skip_to_no():
    """Issue: «При захвате … default Колонизировать», «Без планирования» default «Нет»."""
    plan, _ = parse(make_game({"empire": {"Копейщик": 5}}), "empire", [("1", "Центр", "Авангард", "Копейщик", 5)],
                    [("1", "атака", "цинхэ", "", "")])
    army = plan["armies"]["1"]
    chosen = (army["order"], army["city"], army["capture"], army["skip_planning"])
    assert chosen == ("attack", "qinghe", "colonise", False)


def test_garrison_rows_only_for_own_standing_cities():
    """«Расстановка гарнизона определяется владельцем поселения заранее». Expected: a placement for Цинхэ
    (jade's) by the Empire is rejected; one for Феррум passes."""
    _, st_ = parse(make_game(), "empire", garrisons=[("Цинхэ", "Центр", "Авангард", "Копейщик", 5),
                                                     ("Феррум", "Левый", "Авангард", "Копейщик", 5)])
    assert codes(st_[("garrisons", 2)]) == ["JR_WAR_NOT_OWN_CITY"] and st_[("garrisons", 3)].ok


# -- invariants -------------------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["armies", "army_orders", "garrisons"]),
                          st.lists(_TEXT, min_size=5, max_size=5)), max_size=12))
def test_garbage_rows_never_crash_and_each_gets_one_status(cells):
    """DESIGN: «Bad input … gets a per-row message and is never applied». Property: parse and form never
    raise; each non-blank row gets exactly one status, in its own tab."""
    state = make_game({"empire": {"Копейщик": 5, "Лучник": 3}})
    keys = {"armies": ARMY_KEYS, "army_orders": ORDER_KEYS, "garrisons": GARRISON_KEYS}
    tabs = {t: [] for t in keys}
    for i, (tab, values) in enumerate(cells):
        tabs[tab].append(Row(i + 2, dict(zip(keys[tab], values, strict=True))))
    plan, statuses = war.parse_war_tabs(state, "empire", tabs)
    expected = sorted((t, r.number) for t, rs in tabs.items() for r in rs if not r.is_blank())
    assert sorted((s.tab, s.number) for s in statuses) == expected
    war.form_battles(state, {"empire": plan}, 1)
    war.resolve_battles(state, {}, 1)
