"""The war's tables (war/views.py): the «Манёвры» tab pre-filled, the dropdowns, the GM's battles, and fog of war:
a faction sees only its own battles."""
from __future__ import annotations

from engine.jade_rose import war
from tests.jade_rose.war_kit import (
    CITIES,
    MANOEUVRE_KEYS,
    make_game,
    planned,
    prefilled,
    rows,
    three_battles,
)

# -- fog of war ------------------------------------------------------------------------------------------------

def test_fog_of_war_a_faction_sees_only_its_own_battles():
    """«Игрокам НЕдоступна следующая информация: - Составы и расположение армий противника» and «Планирование:
    Вы узнаёте расстановку войск противника, а он узнаёт вашу». Setup: three battles (Empire and Vampires on
    Цинхэ, Dwarves on Феррум). Expected: the Jade Court scouts only the attackers of Цинхэ; the Vampires only
    Цинхэ's defence, never the Феррум battle or the Empire's army; the Vampires' and Dwarves' manoeuvre tabs
    hold only their own squads; after resolution reports go to participants only."""
    state = make_game()
    three_battles(state)
    jade = war.views(state, "jade")["scouting"]
    assert {r[0].split(" — ")[0] for r in jade.rows} == {"Цинхэ"}
    vampires = war.views(state, "vampires")
    texts = " ".join(str(c) for r in vampires["scouting"].rows + vampires["manoeuvres"].rows for c in r)
    assert "Феррум" not in texts and "Горняки" not in texts and "Лучник" not in texts and "Копейщик" not in texts
    assert all("Полукровка" in r[2] for r in vampires["manoeuvres"].rows)
    dwarves = war.views(state, "dwarves")
    assert {r[0] for r in dwarves["scouting"].rows} == {"Феррум — атака 1"}
    assert {r[0] for r in dwarves["manoeuvres"].rows} == {"Феррум — атака 1"}
    assert war.views(state, "vampires")["battles"].rows == ()
    war.resolve_battles(state, {}, 4)
    reports = state["reports"]
    assert all("Феррум" not in text for text in reports.get("vampires", []) + reports.get("jade", []))
    assert all("Цинхэ" not in text for text in reports.get("dwarves", []))
    assert len(reports["gm"]) >= 2
    for fid in ("empire", "jade", "dwarves", "vampires"):
        assert war.views(state, fid)["scouting"].rows == () and war.views(state, fid)["manoeuvres"].rows == ()


# -- the «Манёвры» tab -----------------------------------------------------------------------------------------

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


# -- dropdowns and the GM --------------------------------------------------------------------------------------

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


def test_gm_sees_every_battle():
    """DESIGN: «the GM book gets everything». Expected: both sides of the pending battle in gm_battles."""
    state = make_game({"empire": {"Копейщик": 10}})
    planned(state, [("Центр", "Авангард", "Копейщик", 10)])
    table = war.gm_views(state)["gm_battles"]
    sides = {r[2] for r in table.rows}
    assert sides == {"атакующий", "защитник"}
