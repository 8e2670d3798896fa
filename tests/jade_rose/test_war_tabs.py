"""Jade Rose war tabs: parsing of «Армии», «Приказы армиям», «Гарнизоны» and «Манёвры» (bad input never
crashes, every bad row gets a Russian message), the pre-filled views, and hypothesis invariants of a turn.

Same map as tests/test_jade_rose_war.py (Феррум borders Цинхэ and Монс; Цинхэ borders Умбра).
"""
from __future__ import annotations

import copy

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose import holdings, war
from engine.jade_rose.setup import new_game
from engine.ruleset import Row
from engine.state import canonical_json

CITIES = {
    "aurum": ("Аурум", "empire", True), "ferrum": ("Феррум", "empire", False),
    "qinghe": ("Цинхэ", "jade", False), "yulong": ("Юйлун", "jade", True),
    "karak": ("Карак", "dwarves", True), "mons": ("Монс", "dwarves", False),
    "noct": ("Ноктис", "vampires", True), "umbra": ("Умбра", "vampires", False),
}
ROADS = [["aurum", "ferrum"], ["ferrum", "qinghe"], ["qinghe", "yulong"], ["ferrum", "mons"], ["mons", "karak"],
         ["qinghe", "umbra"], ["umbra", "noct"]]
ARMY_KEYS = ("army", "flank", "line", "unit", "count")
ORDER_KEYS = ("army", "order", "city", "capture", "skip_planning")
GARRISON_KEYS = ("city", "flank", "line", "unit", "count")
MANOEUVRE_KEYS = ("battle", "squad", "units", "manoeuvre", "target", "free_move", "runes")


def make_game(units: dict | None = None, turn: int = 1, **resources) -> dict:
    factions = {}
    for fid in ("empire", "jade", "dwarves", "vampires"):
        factions[fid] = {"gold": 0, "units": (units or {}).get(fid, {}), **resources.get(fid, {})}
    cities = {cid: {"name": name, "owner": owner, "large": large, "capital": large, "level": 1}
              for cid, (name, owner, large) in CITIES.items()}
    state = new_game({"name": "war-test", "factions": factions, "cities": cities, "roads": ROADS})
    state["turn"] = turn
    state["era"] = holdings.era_of(state).key
    return state


def rows(keys: tuple, *cells: tuple) -> list[Row]:
    return [Row(i + 2, dict(zip(keys, map(str, c), strict=True))) for i, c in enumerate(cells)]


def parse(state: dict, faction: str, armies=(), orders=(), garrisons=()):
    plan, statuses = war.parse_war_tabs(state, faction, {"armies": rows(ARMY_KEYS, *armies),
                                                         "army_orders": rows(ORDER_KEYS, *orders),
                                                         "garrisons": rows(GARRISON_KEYS, *garrisons)})
    return plan, {(s.tab, s.number): s for s in statuses}


def codes(status) -> list[str]:
    return [e.code for e in status.errors]


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


def test_garrison_unit_not_in_the_garrison_is_rejected_after_the_economy():
    """Garrison composition is checked when battles are formed (an upgrade this turn changes it). Setup:
    Феррум level 1 has no knights. Expected: JR_WAR_NOT_IN_GARRISON naming the garrison."""
    state = make_game()
    plan, _ = parse(state, "empire", garrisons=[("Феррум", "Левый", "Авангард", "Рыцарь", 1)])
    out = war.form_battles(state, {"empire": plan}, 1)
    (status,) = out["empire"]
    assert codes(status) == ["JR_WAR_NOT_IN_GARRISON"] and "Копейщик ×10" in status.text()


# -- «Манёвры» -------------------------------------------------------------------------------------------

def planned(state: dict, army: list[tuple], city: str = "Цинхэ") -> None:
    plan, st_ = parse(state, "empire", [("1", *r) for r in army], [("1", "Атаковать", city, "", "Нет")])
    assert all(s.ok for s in st_.values())
    war.form_battles(state, {"empire": plan}, 1)


def prefilled(state: dict, faction: str) -> list[list[str]]:
    return [list(r) for r in war.views(state, faction)["manoeuvres"].rows]


def test_manoeuvres_tab_is_prefilled_one_row_per_own_squad():
    """Issue: «opening a manoeuvres tab with one row per own squad». Expected: exact layout titles; one row per
    squad of each side with «Нет» pre-selected; the parse of the untouched rows is all OK."""
    state = make_game({"empire": {"Копейщик": 10, "Лучник": 6}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10), ("Центр", "Арьергард", "Лучник", 6)])
    table = war.views(state, "empire")["manoeuvres"]
    assert table.columns == ("Бой", "Отряд", "Состав", "Манёвр", "Цель", "Второй манёвр", "Руны")
    assert [(r[1], r[2], r[3]) for r in table.rows] == [("Центральный авангард", "Копейщик ×10", "Нет"),
                                                       ("Центральный арьергард", "Лучник ×6", "Нет")]
    assert len(war.views(state, "jade")["manoeuvres"].rows) == 2
    for fid in ("empire", "jade"):
        _, statuses = war.parse_manoeuvres(state, fid, rows(MANOEUVRE_KEYS, *prefilled(state, fid)))
        assert statuses and all(s.ok for s in statuses)


def test_a_special_manoeuvre_needs_every_unit_of_the_squad():
    """«Если не все в отряде могут выполнять особый манёвр, то манёвр не может быть выполнен.»
    Setup: a centre rearguard of archers and spearmen, a left rearguard of archers only. Orders: both
    bombard the centre vanguard. Expected: the mixed squad's row is rejected naming the spearmen; the other
    passes and stays in the plan."""
    state = make_game({"empire": {"Копейщик": 16, "Лучник": 12}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10), ("Центр", "Арьергард", "Лучник", 6),
                    ("Центр", "Арьергард", "Копейщик", 5), ("Левый", "Авангард", "Копейщик", 1),
                    ("Левый", "Арьергард", "Лучник", 6)])
    cells = prefilled(state, "empire")
    for c in cells:
        if "арьергард" in c[1]:
            c[3], c[4] = "Обстрел", "Центральный авангард"
    plan, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    by_squad = {c[1]: s for c, s in zip(cells, statuses, strict=True)}
    assert not by_squad["Центральный арьергард"].ok and "Копейщик" in by_squad["Центральный арьергард"].text()
    assert by_squad["Левый арьергард"].ok
    (fight,) = plan["fights"].values()
    assert set(fight["squads"]) == {"center/vanguard", "left/vanguard", "left/rearguard"}


def test_bombard_reaches_only_the_same_or_adjacent_flank_vanguard():
    """«Обстрел: отряд атакует авангардный отряд противника до начала боя. Может нацелиться только на тот же
    фланг, с которого ведётся стрельба, или соседний.» Orders: archers on the left bombard the centre
    rearguard. Expected: rejected, the message lists the allowed targets."""
    state = make_game({"empire": {"Копейщик": 1, "Лучник": 6}})
    planned(state, [("Левый", "Авангард", "Копейщик", 1), ("Левый", "Арьергард", "Лучник", 6)])
    cells = prefilled(state, "empire")
    cells[1][3], cells[1][4] = "Обстрел", "Центральный арьергард"
    _, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    assert statuses[0].ok and not statuses[1].ok and "центральный авангард" in statuses[1].text()


def test_manoeuvre_rows_for_unknown_battles_squads_or_words():
    """Bad manoeuvre rows never crash: an unknown battle, a squad the faction does not have there, an unknown
    manoeuvre, an unreadable target, and a second row for one squad each get their message."""
    state = make_game({"empire": {"Копейщик": 10}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10)])
    label = prefilled(state, "empire")[0][0]
    cells = [("b9-nowhere/1", "Центральный авангард", "", "Нет", "", "", ""),
             (label, "Правый арьергард", "", "Нет", "", "", ""),
             (label, "Центральный авангард", "", "Танцевать", "", "", ""),
             (label, "Центральный авангард", "", "Смена позиции", "где-нибудь", "", ""),
             (label, "Центральный авангард", "", "Нет", "", "", ""),
             (label, "Центральный авангард", "", "Защита", "", "", "")]
    _, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    assert [codes(s) for s in statuses] == [["JR_WAR_UNKNOWN_BATTLE"], ["JR_WAR_UNKNOWN_SQUAD"],
                                            ["JR_WAR_UNKNOWN_MANOEUVRE"], ["JR_WAR_UNKNOWN_POSITION"], [],
                                            ["JR_WAR_DUPLICATE_SQUAD"]]


def test_runes_at_most_those_held_and_only_for_dwarves():
    """«Каждый ход вы накапливаете 3 руны. Всего вы можете хранить до 10 рун. Вы можете использовать руны в бою»
    (RULINGS JR-83). Setup: dwarves hold 2 runes. Orders: 3 runes. Expected: rejected; the Empire writing
    runes is rejected too."""
    state = make_game({"dwarves": {"Горняки": 5}, "empire": {"Копейщик": 5}}, dwarves={"runes": 2})
    plan, _ = parse(state, "dwarves", [("1", "Центр", "Авангард", "Горняки", 5)],
                    [("1", "Атаковать", "Феррум", "", "")])
    war.form_battles(state, {"dwarves": plan}, 1)
    cells = prefilled(state, "dwarves")
    cells[0][6] = "3"
    mplan, statuses = war.parse_manoeuvres(state, "dwarves", rows(MANOEUVRE_KEYS, *cells))
    assert codes(statuses[0]) == ["JR_WAR_RUNES_TOO_MANY"] and next(iter(mplan["fights"].values()))["runes"] == 0
    cells = prefilled(state, "empire")
    cells[0][6] = "1"
    _, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    assert codes(statuses[0]) == ["JR_WAR_RUNES_NOT_DWARF"]


# -- views ----------------------------------------------------------------------------------------------------

def test_vocabularies_offer_the_closed_lists():
    """The dropdowns of the layout: flanks, lines, orders, captures, yes/no, manoeuvres, positions, units."""
    vocab = war.vocabularies(make_game(), "jade")
    assert vocab["flanks"] == ["Левый", "Центр", "Правый"] and vocab["lines"] == ["Авангард", "Арьергард"]
    assert vocab["army_orders"] == ["Рассредоточиться", "Оборонять", "Атаковать"]
    assert vocab["capture_choices"] == ["Колонизировать", "Разграбить", "Разрушить", "Разрушить и уйти"]
    assert vocab["yes_no"] == ["Да", "Нет"] and len(vocab["positions"]) == 6
    assert vocab["manoeuvres"][0] == "Нет" and "Дальнобойный обстрел" in vocab["manoeuvres"]
    assert "Нефритовый воин" in vocab["own_units"] and "Копейщик" not in vocab["own_units"]
    assert "Пушка 'Зелёный град'" in vocab["garrison_units"] or any("град" in n for n in vocab["garrison_units"])
    assert sorted(vocab["all_cities"]) == sorted(name for name, _, _ in CITIES.values())


def test_a_fight_is_named_by_its_city_and_attack_number_and_read_back_in_any_letter_case():
    """Issue 11: «display names, never internal ids». Setup: the Empire's army attacks a city with a
    planning phase. Expected: «Манёвры», «Разведка» and the GM's «Все бои» name the fight «<город> — атака 1»
    (no battle id), and a «Бой» cell typed in other letter case and spacing still names that fight."""
    state = make_game({"empire": {"Копейщик": 10}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10)])
    city = state["cities"][state["battles"][0]["city"]]["name"]
    label = f"{city} — атака 1"
    views = war.views(state, "empire")
    assert {r[0] for r in views["manoeuvres"].rows} == {label} == {r[0] for r in views["scouting"].rows}
    gm = war.gm_views(state)["gm_battles"]
    assert label in {r[0] for r in gm.rows} and not any(state["battles"][0]["id"] in str(r[0]) for r in gm.rows)
    cells = [list(r) for r in prefilled(state, "empire")]
    cells[0][0] = "  " + label.upper().replace(" — ", " -  ")
    _, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    assert statuses and all(s.ok for s in statuses), [s.text() for s in statuses]


def test_gm_sees_every_battle():
    """DESIGN: «the GM book gets everything». Expected: both sides of the pending battle in gm_battles."""
    state = make_game({"empire": {"Копейщик": 10}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10)])
    table = war.gm_views(state)["gm_battles"]
    sides = {r[2] for r in table.rows}
    assert sides == {"атакующий", "защитник"}


# -- invariants -------------------------------------------------------------------------------------------------

_TEXT = st.one_of(st.sampled_from(["", "1", "Центр", "Левый", "Авангард", "Арьергард", "Копейщик", "Лучник",
                                   "Атаковать", "Оборонять", "Цинхэ", "Феррум", "Да", "=A1", "-5", "1e9", "NaN",
                                   "Разрушить", "\u00a0", "Нефритовый воин"]),
                  st.text(max_size=12))


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


_ARMY = st.fixed_dictionaries({"n": st.integers(1, 30), "unit": st.sampled_from(["Копейщик", "Всадник"]),
                               "flank": st.sampled_from(["Левый", "Центр", "Правый"]),
                               "line": st.sampled_from(["Авангард", "Арьергард"]),
                               "city": st.sampled_from(["Цинхэ", "Монс"]),
                               "capture": st.sampled_from(["Колонизировать", "Разграбить", "Разрушить"])})


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_ARMY, st.integers(1, 25), st.integers(0, 2**32))
def test_a_war_turn_keeps_the_state_consistent(army, militia, seed):
    """Invariants of a resolved turn: no unit count below zero; no faction gains units (no plague temple
    here); every city is owned by a faction of the game or nobody; battles are cleared; the result is
    JSON-able and repeats byte for byte with the same seed."""
    def run():
        state = make_game({"empire": {army["unit"]: army["n"]}, "jade": {"Ополченец": militia}})
        plans = {"empire": war.parse_war_tabs(state, "empire", {
            "armies": rows(ARMY_KEYS, ("1", army["flank"], army["line"], army["unit"], army["n"])),
            "army_orders": rows(ORDER_KEYS, ("1", "Атаковать", army["city"], army["capture"], "Да"))})[0],
            "jade": war.parse_war_tabs(state, "jade", {
                "armies": rows(ARMY_KEYS, ("J", "Центр", "Авангард", "Ополченец", militia)),
                "army_orders": rows(ORDER_KEYS, ("J", "Оборонять", "Цинхэ", "", ""))})[0]}
        before = copy.deepcopy({f: dict(r["units"]) for f, r in state["factions"].items()})
        war.form_battles(state, plans, seed)
        events = war.resolve_battles(state, {}, seed)
        return state, events, before

    state, events, before = run()
    for fid, rec in state["factions"].items():
        for key, n in rec["units"].items():
            assert 0 <= n <= before[fid].get(key, 0)
    assert all(c["owner"] in (None, *state["factions"]) for c in state["cities"].values())
    assert state["battles"] == []
    fights = [e for e in events if e["kind"] == "battle"]
    assert all(e["winner"] in ("attacker", "defender") for e in fights)
    assert len(fights) <= 1 and (fights or any(e["kind"] == "capture" for e in events))
    again, events_again, _ = run()
    assert canonical_json(state) == canonical_json(again) and events == events_again
