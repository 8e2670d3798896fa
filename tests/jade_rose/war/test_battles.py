"""Forming the turn's battles (war/battles.py): the armies checked against the state after the economy (roads, the
era's cap, one army a unit, sleepers), garrisons placed, defending armies joined, planning or not. DATC style:
setup, orders, expected outcome; each docstring quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt)
or the ruling. The map is tests/jade_rose/war_kit.py's:

    Аурум (empire, large) ─ Феррум (empire) ─ Цинхэ (jade) ─ Юйлун (jade, large, Great Forge)
                               │                  │
                     Карак (dwarves, large) ─ Монс (dwarves)   Умбра (vampires) ─ Ноктис (vampires, large)
    roads: aurum-ferrum, ferrum-qinghe, qinghe-yulong, ferrum-mons, mons-karak, qinghe-umbra, umbra-noct
"""
from __future__ import annotations

import pytest

from engine.jade_rose import war
from tests.jade_rose.check_kit import RS, check_orders, tabs, verdicts
from tests.jade_rose.small_games import codes
from tests.jade_rose.war_kit import (
    attack,
    make_game,
    parse,
    plan_of,
    statuses_by_row,
)


def defence_cells(battle: dict) -> dict[str, dict]:
    return {f"{s['flank']}/{s['line']}": s for s in battle["defence"]["squads"]}


# -- armies and their orders --------------------------------------------------------------------

def test_attack_only_a_city_adjacent_by_road():
    """«Атаковать город другой фракции можно только в том случае, если он является соседним к любому из ваших
    городов. Города считаются соседними, если они напрямую соединены дорогой.»
    Setup: Феррум (empire) borders Цинхэ; Юйлун is two roads away. Orders: one army attacks Юйлун, the next
    turn the same army attacks Цинхэ. Expected: the first order is rejected naming the allowed targets, no
    battle; the second forms a battle at Цинхэ."""
    state = make_game({"empire": {"Копейщик": 10}})
    out = war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10)],
                                                    "Юйлун")}, 1)
    status = statuses_by_row(out["empire"], "army_orders")[2]
    assert not status.ok and status.errors[0].code == "JR_WAR_NOT_ADJACENT"
    assert "Цинхэ" in status.text() and "Монс" in status.text()
    assert state["battles"] == []
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10)],
                                              "Цинхэ")}, 1)
    assert [b["city"] for b in state["battles"]] == ["qinghe"]


def test_ruins_give_no_road_adjacency():
    """RULINGS JR-51: «ruins are not cities (no income, no adjacency, no victory count) until restored».
    Setup: Феррум lies in ruins (still the Empire's). Orders: attack Цинхэ, which only Феррум touched.
    Expected: rejected as not adjacent."""
    state = make_game({"empire": {"Копейщик": 10}})
    state["cities"]["ferrum"].update(ruins=True, buildings=[])
    out = war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10)],
                                                    "Цинхэ")}, 1)
    assert statuses_by_row(out["empire"], "army_orders")[2].errors[0].code == "JR_WAR_NOT_ADJACENT"
    assert state["battles"] == []


@pytest.mark.parametrize("turn, accepted", [(1, 1), (3, 2), (7, 3)])
def test_army_cap_per_era(turn, accepted):
    """«Сумерки (1-2 ход): … максимальное число армий - 1», «Рассвет (3-4 ход): … - 2», «Закат (7-8 ход): …
    Максимальное число армий - 3.» RULINGS JR-56: the cap counts armies with an attack or defend order.
    Setup: four armies of one spearman; one disperses, three defend Феррум. Expected: the first `accepted`
    defend orders stand, the others are rejected with JR_WAR_ARMY_CAP; dispersing never counts."""
    state = make_game({"empire": {"Копейщик": 4}}, turn=turn)
    armies = [(str(n), "Центр", "Авангард", "Копейщик", 1) for n in range(1, 5)]
    orders = [("1", "Рассредоточиться", "", "", "")] + [(str(n), "Оборонять", "Феррум", "", "") for n in (2, 3, 4)]
    out = war.form_battles(state, {"empire": plan_of(state, "empire", armies, orders)}, 1)
    by_row = statuses_by_row(out["empire"], "army_orders")
    assert by_row[2].ok
    defends = [by_row[r] for r in (3, 4, 5)]
    assert [s.ok for s in defends] == [True] * accepted + [False] * (3 - accepted)
    assert all(s.errors[0].code == "JR_WAR_ARMY_CAP" for s in defends if not s.ok)


def test_a_unit_is_in_at_most_one_army():
    """«Каждый ход вы распределяете всех ваших юнитов на одну или несколько … армий. Каждая армия - просто
    набор юнитов.» RULINGS JR-56: every unit in at most one army. Setup: 10 spearmen. Orders: army «1» takes
    10, army «2» takes 5 more. Expected: the row of army «2» is rejected (it names army «1»), army «1» stands."""
    state = make_game({"empire": {"Копейщик": 10}}, turn=3)
    plan = plan_of(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 10),
                                     ("2", "Центр", "Авангард", "Копейщик", 5)],
                   [("1", "Оборонять", "Феррум", "", ""), ("2", "Оборонять", "Аурум", "", "")])
    out = war.form_battles(state, {"empire": plan}, 1)
    armies = statuses_by_row(out["empire"], "armies")
    assert 2 not in armies or armies[2].ok
    assert armies[3].errors[0].code == "JR_WAR_UNITS_TAKEN" and "«1»: 10" in armies[3].text()
    orders = statuses_by_row(out["empire"], "army_orders")
    assert orders[2].ok and orders[3].errors[0].code == "JR_WAR_NO_DEPLOYMENT"


def test_units_hired_this_turn_may_join_an_army():
    """RULINGS JR-55: «hired units can join an army the same turn». form_battles runs after the economy, so
    the owned units it checks include this turn's hires. Setup: no horsemen; then 5 are added (as hiring does).
    Expected: first rejected with JR_WAR_NO_UNITS, then accepted."""
    state = make_game()
    plan = attack(state, "empire", [("Центр", "Авангард", "Всадник", 5)], "Цинхэ")
    out = war.form_battles(state, {"empire": plan}, 1)
    assert statuses_by_row(out["empire"], "armies")[2].errors[0].code == "JR_WAR_NO_UNITS"
    state["factions"]["empire"]["units"]["empire_horseman"] = 5
    out = war.form_battles(state, {"empire": plan}, 1)
    assert all(s.ok for s in out["empire"]) and state["battles"][0]["attackers"][0]["squads"][0]["units"] == {
        "empire_horseman": 5}


def test_hibernating_vampires_cannot_join_an_army():
    """«…некоторые вампиры (на ваш выбор) впадут в спячку. Они не смогут действовать…» Setup: 10 half-bloods,
    4 of them hibernating. Orders: an army of 8. Expected: rejected, the message counts the sleepers."""
    state = make_game({"vampires": {"Полукровка": 10}})
    state["factions"]["vampires"]["hibernating"] = {"vampires_halfblood": 4}
    out = war.form_battles(state, {"vampires": attack(state, "vampires", [("Центр", "Авангард", "Полукровка", 8)],
                                                      "Цинхэ")}, 1)
    status = statuses_by_row(out["vampires"], "armies")[2]
    assert status.errors[0].code == "JR_WAR_TOO_MANY_UNITS" and "в спячке" in status.text()
    assert "у вас только 6" in status.text()


def test_defend_only_own_city_and_attack_only_foreign():
    """«Каждой армии вы можете приказать … либо оборонять город (в таком случае ваша армия временно прибавится
    к гарнизону…), либо атаковать город противника.» Orders: defend Цинхэ (jade's), attack Феррум (own).
    Expected: both rejected with their codes."""
    state = make_game({"empire": {"Копейщик": 2}}, turn=3)
    plan = plan_of(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 1),
                                     ("2", "Центр", "Авангард", "Копейщик", 1)],
                   [("1", "Оборонять", "Цинхэ", "", ""), ("2", "Атаковать", "Феррум", "", "")])
    out = statuses_by_row(war.form_battles(state, {"empire": plan}, 1)["empire"], "army_orders")
    assert out[2].errors[0].code == "JR_WAR_DEFEND_NOT_OWN"
    assert out[3].errors[0].code == "JR_WAR_ATTACK_OWN"


# -- garrisons and defence --------------------------------------------------------------------------

def test_default_garrison_placement():
    """«Расстановка гарнизона определяется владельцем поселения заранее, а если он этого не сделал, мастер просто
    поставит стрелков в центральный арьергард, а всех остальных - в центральный авангард.»
    Setup: Феррум's level-1 Empire garrison (10 spearmen, 6 archers, 3 horsemen), no placement given.
    Expected: archers in the centre rearguard, spearmen and horsemen in the centre vanguard."""
    state = make_game({"jade": {"Ополченец": 5}})
    war.form_battles(state, {"jade": attack(state, "jade", [("Центр", "Авангард", "Ополченец", 5)], "Феррум")}, 1)
    cells = defence_cells(state["battles"][0])
    assert set(cells) == {"center/vanguard", "center/rearguard"}
    assert cells["center/rearguard"]["units"] == {"empire_archer": 6}
    assert cells["center/vanguard"]["units"] == {"empire_spearman": 10, "empire_horseman": 3}


def test_owner_places_part_of_the_garrison_the_rest_goes_by_default():
    """«Расстановка гарнизона определяется владельцем поселения заранее…» Setup: the Empire puts Феррум's
    3 horsemen on the left vanguard and asks for 20 spearmen (it has 10). Expected: horsemen on the left, the
    spearmen row rejected (JR_WAR_GARRISON_OVER), spearmen and archers placed by default."""
    state = make_game({"jade": {"Ополченец": 5}})
    empire = plan_of(state, "empire", garrisons=[("Феррум", "Левый", "Авангард", "Всадник", 3),
                                                 ("Феррум", "Правый", "Авангард", "Копейщик", 20)])
    out = war.form_battles(state, {"empire": empire,
                                   "jade": attack(state, "jade", [("Центр", "Авангард", "Ополченец", 5)], "Феррум")}, 1)
    assert statuses_by_row(out["empire"], "garrisons")[3].errors[0].code == "JR_WAR_GARRISON_OVER"
    cells = defence_cells(state["battles"][0])
    assert cells["left/vanguard"]["units"] == {"empire_horseman": 3}
    assert cells["center/vanguard"]["units"] == {"empire_spearman": 10}
    assert "right/vanguard" not in cells


def test_one_per_squad_units_of_a_large_garrison_get_separate_squads():
    """«В 1 отряде может быть только 1 нефритовый колосс из-за большого размера колоссов» and «В больших
    поселениях гарнизон такой же, как и в малых, но вдвое выше численностью.» Setup: Юйлун made level 2
    (large: 2 colossi). Expected: the default placement puts each colossus in its own squad."""
    state = make_game({"empire": {"Копейщик": 1}})
    state["cities"]["yulong"]["level"] = 2
    state["roads"].append(["ferrum", "yulong"])
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 1)], "Юйлун")}, 1)
    cells = defence_cells(state["battles"][0])
    assert sum(s["units"].get("jade_colossus", 0) for s in cells.values()) == 2
    assert all(s["units"].get("jade_colossus", 0) <= 1 for s in cells.values())


def test_defending_armies_join_the_garrison():
    """«…либо оборонять город (в таком случае ваша армия временно прибавится к гарнизону, см. ниже)».
    Setup: jade army of 10 militiamen (centre vanguard) and 6 horsemen (right vanguard) defends Цинхэ.
    Expected: the militiamen merge into the garrison's centre vanguard, marked as army (not garrison); the
    horsemen hold the right vanguard; the defence is no longer garrison-only."""
    state = make_game({"empire": {"Копейщик": 5}, "jade": {"Ополченец": 10, "Всадник": 6}})
    jade = plan_of(state, "jade", [("A", "Центр", "Авангард", "Ополченец", 10),
                                   ("A", "Правый", "Авангард", "Всадник", 6)],
                   [("A", "Оборонять", "Цинхэ", "", "")])
    war.form_battles(state, {"jade": jade,
                             "empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 5)], "Цинхэ")}, 1)
    battle = state["battles"][0]
    cells = defence_cells(battle)
    assert cells["center/vanguard"]["units"]["jade_militiaman"] == 18
    assert cells["center/vanguard"]["garrison"]["jade_militiaman"] == 8
    assert cells["right/vanguard"]["units"] == {"jade_horseman": 6} and cells["right/vanguard"]["garrison"] == {}
    assert battle["defence"]["garrison_only"] is False and battle["defence"]["armies"] == ["A"]


@pytest.mark.parametrize("skip, defended, planning", [("Да", False, False), ("Да", True, True),
                                                      ("Нет", False, True)])
def test_skip_planning_only_against_a_garrison(skip, defended, planning):
    """«Для ускорения игры при битве с авангардом (но не с вражеской армией) атакующий имеет право пропустить
    фазу планирования. Ни одна из сторон в таком случае просто не использует манёвры.»
    Expected: planning is skipped only when the attacker asks and only the garrison defends."""
    state = make_game({"empire": {"Копейщик": 5}, "jade": {"Ополченец": 4}})
    plans = {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 5)], "Цинхэ", skip=skip)}
    if defended:
        plans["jade"] = plan_of(state, "jade", [("A", "Центр", "Авангард", "Ополченец", 4)],
                                [("A", "Оборонять", "Цинхэ", "", "")])
    war.form_battles(state, plans, 1)
    assert war.needs_planning(state) is planning
    assert state["battles"][0]["attackers"][0]["needs_planning"] is planning


def test_garrison_unit_not_in_the_garrison_is_rejected_after_the_economy():
    """Garrison composition is checked when battles are formed (an upgrade this turn changes it). Setup:
    Феррум level 1 has no knights. Expected: JR_WAR_NOT_IN_GARRISON naming the garrison."""
    state = make_game()
    plan, _ = parse(state, "empire", garrisons=[("Феррум", "Левый", "Авангард", "Рыцарь", 1)])
    out = war.form_battles(state, {"empire": plan}, 1)
    (status,) = out["empire"]
    assert codes(status) == ["JR_WAR_NOT_IN_GARRISON"] and "Копейщик ×10" in status.text()


def test_a_defending_army_stands_where_its_rows_put_it_and_a_second_thane_is_refused_not_moved():
    """«defend a city: the army is temporarily added to that city's garrison» (rule book §2.4, «временно
    прибавится к гарнизону»); «В 1 отряде может быть только 1 тан» (§Dwarves); the garrison's deployment, if the
    owner sets none: «мастер просто поставит стрелков в центральный арьергард, а всех остальных - в центральный
    авангард» (§2.5).

    Setup: Монс (level 2, its garrison: 8 longbeards, 5 crossbowmen, 2 trebuchets, 1 thane). The dwarves'
    army «1» defends Монс: row 2 a thane in the centre vanguard, row 3 10 miners in the centre vanguard; army
    «2» defends it too: row 4 a thane in the centre vanguard, row 5 a thane in the right vanguard. The Empire
    attacks Монс.
    Expected: army «1» stands in the centre vanguard as typed (the garrison's unplaced thane moves aside,
    before: the army's thane was moved instead, silently); row 4 is refused at `check` and at the turn
    (a thane already stands there: «Тан» of army «1»), its thane stays in reserve; row 5 stands."""
    state = make_game({"dwarves": {"Тан": 3, "Горняки": 10}, "empire": {"Тяжёлый пехотинец": 20}}, turn=3)
    state["cities"]["mons"]["level"] = 2
    books = {"dwarves": tabs(armies=[("1", "Центр", "Авангард", "Тан", 1), ("1", "Центр", "Авангард", "Горняки", 10),
                                     ("2", "Центр", "Авангард", "Тан", 1), ("2", "Правый", "Авангард", "Тан", 1)],
                             army_orders=[("1", "Оборонять", "Монс", "", ""), ("2", "Оборонять", "Монс", "", "")]),
             "empire": tabs(armies=[("1", "Центр", "Авангард", "Тяжёлый пехотинец", 20)],
                            army_orders=[("1", "Атаковать", "Монс", "", "Нет")])}
    parsed = check_orders(state, books)
    result = RS.resolve(state, "orders", parsed, 5)
    for got in (verdicts(parsed["dwarves"]), verdicts(parsed["dwarves"], result.statuses)):
        assert [got[("armies", n)].ok for n in (2, 3, 5)] == [True, True, True]
        assert codes(got[("armies", 4)]) == ["JR_WAR_DEFENCE_CELL_TAKEN"]
        assert "Тан" in got[("armies", 4)].text() and "Монс" in got[("armies", 4)].text()
    (battle,) = result.state["battles"]
    cells = {f"{s['flank']}/{s['line']}": s for s in battle["defence"]["squads"]}
    centre = cells["center/vanguard"]
    assert centre["units"]["dwarves_thane"] == 1 and "dwarves_thane" not in centre["garrison"]
    assert centre["units"]["dwarves_miner"] == 10
    assert cells["right/vanguard"]["units"].get("dwarves_thane") == 1
    thanes = sum(s["units"].get("dwarves_thane", 0) for s in cells.values())
    assert thanes == 3, "the army's two thanes and the garrison's one; the refused row's thane stays home"
