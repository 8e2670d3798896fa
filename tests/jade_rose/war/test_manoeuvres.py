"""The «Манёвры» tab (war/manoeuvres.py): fights named by city and attack, each row checked against the battle as
it will be built (every unit of a squad, the bombard's reach, jade creatures out of the forge's reach), runes at
most those held."""
from __future__ import annotations

from engine.jade_rose import war
from engine.jade_rose.war.views import manoeuvres_table
from tests.jade_rose.check_kit import RS, check_orders, tabs
from tests.jade_rose.small_games import codes
from tests.jade_rose.war_kit import (
    MANOEUVRE_KEYS,
    make_game,
    parse,
    planned,
    prefilled,
    rows,
)


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


# -- fights named in the «Бой» column --------------------------------------------------------------------------

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


# -- checked against the battle as it will be built ------------------------------------------------------------

def test_manoeuvres_are_checked_against_the_battle_as_it_will_be_built_with_jade_creatures_out_of_reach():
    """The Great Forge: «5 — Jade creatures switch off; fighting is impossible» (rule book §Jade Court; RULINGS,
    Deployment: «Jade creatures at forge distance ≥ 5 do not take part»; no forge reachable counts so, JR-91);
    «Bombard: The squad attacks an enemy vanguard squad before the battle starts» (§Manoeuvres), so a bombard
    needs an enemy squad at its target.

    Setup: the Jade Court has no Great Forge left (its creatures are switched off); its army attacks Феррум with
    10 militiamen in the centre vanguard and 5 jade warriors in the left vanguard, with a planning phase. The
    Jade Court orders its left vanguard «В укрытие»; the Empire's garrison archers (centre rearguard) are
    ordered «Обстрел» at the left vanguard.
    Expected: `check` refuses both rows, each saying why (the squad sits the battle out; no enemy squad stands
    there); before, `check` built the fight without the forge distance and said OK, and the turn dropped every
    Empire manoeuvre of the fight («манёвры защитника отменены»)."""
    state = make_game({"jade": {"Ополченец": 10, "Нефритовый воин": 5}})
    state["cities"]["yulong"]["buildings"] = []
    books = {"jade": tabs(armies=[("1", "Центр", "Авангард", "Ополченец", 10),
                                  ("1", "Левый", "Авангард", "Нефритовый воин", 5)],
                          army_orders=[("1", "Атаковать", "Феррум", "", "Нет")])}
    parsed = check_orders(state, books)
    assert all(s.ok for s in parsed["jade"].statuses)
    planning = RS.resolve(state, "orders", parsed, 4).state
    assert planning["stage"] == "planning"
    label = str(manoeuvres_table(planning, "jade").rows[0][0])
    jade = RS.validate(planning, "jade", "planning", {"manoeuvres": rows(
        MANOEUVRE_KEYS, (label, "Левый авангард", "", "В укрытие", "", "", ""),
        (label, "Центральный авангард", "", "Нет", "", "", ""))})
    empire = RS.validate(planning, "empire", "planning", {"manoeuvres": rows(
        MANOEUVRE_KEYS, (label, "Центральный арьергард", "", "Обстрел", "Левый авангард", "", ""),
        (label, "Центральный авангард", "", "В укрытие", "", "", ""))})
    jade_rows, empire_rows = ({s.number: s for s in p.statuses} for p in (jade, empire))
    assert codes(jade_rows[2]) == ["JR_WAR_MANOEUVRE_INVALID"] and "не участвует в бою" in jade_rows[2].text()
    assert jade_rows[3].ok
    assert codes(empire_rows[2]) == ["JR_WAR_MANOEUVRE_INVALID"] and "левый авангард" in empire_rows[2].text()
    assert empire_rows[3].ok
    result = RS.resolve(planning, "planning", {"jade": jade, "empire": empire}, 4)
    assert not result.statuses.get("empire"), "the accepted Empire manoeuvre ran: no verdict replaces «OK»"
    assert "манёвры защитника отменены" not in "\n".join(result.state["reports"].get("empire", []))
