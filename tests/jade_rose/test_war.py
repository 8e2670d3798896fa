"""Jade Rose war rules, DATC style: setup, orders, expected outcome. Each docstring quotes the rule book
(../shared/seeds/000_d4955973ee03e561.txt) or the binding ruling, then says what is checked.

Map of every test (small cities unless marked large):

    Аурум (empire, large) ─ Феррум (empire) ─ Цинхэ (jade) ─ Юйлун (jade, large, Great Forge)
                               │                  │
                     Карак (dwarves, large) ─ Монс (dwarves)   Умбра (vampires) ─ Ноктис (vampires, large)
    roads: aurum-ferrum, ferrum-qinghe, qinghe-yulong, ferrum-mons, mons-karak, qinghe-umbra, umbra-noct
"""
from __future__ import annotations

import json

import pytest

from engine.jade_rose import war
from engine.state import canonical_json
from tests.jade_rose.war_kit import (
    attack,
    make_game,
    plan_of,
    statuses_by_row,
)

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

def defence_cells(battle: dict) -> dict[str, dict]:
    return {f"{s['flank']}/{s['line']}": s for s in battle["defence"]["squads"]}


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


def test_forge_distance_is_counted_in_roads_to_the_nearest_forge():
    """«Расстояние определяется числом дорог, которое нужно пройти от места битвы до Великой Кузни.»
    RULINGS JR-91: the nearest forge, from the battle's city. Setup: the forge stands in Юйлун. Jade attacks
    Феррум (2 roads from Юйлун) and defends Цинхэ (1 road). Then a forge is also built in Цинхэ.
    Expected: distances 2 and 1, then 1 and 0."""
    state = make_game({"jade": {"Ополченец": 4}, "empire": {"Копейщик": 4}}, turn=3)
    plans = {"jade": attack(state, "jade", [("Центр", "Авангард", "Ополченец", 4)], "Феррум"),
             "empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 4)], "Цинхэ")}

    def distances():
        war.form_battles(state, plans, 1)
        by_city = {b["city"]: b for b in state["battles"]}
        return (by_city["ferrum"]["attackers"][0]["modifiers"]["attacker"]["forge_distance"],
                by_city["qinghe"]["attackers"][0]["modifiers"]["defender"]["forge_distance"])

    assert distances() == (2, 1)
    state["cities"]["qinghe"]["buildings"].append("jade_great_forge")
    assert distances() == (1, 0)


def test_dwarf_grudges_count_against_that_faction_only():
    """«Каждая обида даёт в бою +5% к наносимому урону. Обиды действуют только против конкретной фракции».
    Setup: dwarves hold 3 grudges against the Empire and 5 against the Jade Court; they attack Феррум.
    Expected: the attacking side carries 3 grudges; the Empire side none."""
    state = make_game({"dwarves": {"Горняки": 5}})
    state["factions"]["dwarves"]["grudges"].update(empire=3, jade=5)
    war.form_battles(state, {"dwarves": attack(state, "dwarves", [("Центр", "Авангард", "Горняки", 5)], "Феррум")}, 1)
    mods = state["battles"][0]["attackers"][0]["modifiers"]
    assert mods["attacker"]["grudges"] == 3 and mods["defender"]["grudges"] == 0


# -- order, determinism and fog of war -------------------------------------------------------------------

def three_battles(state: dict, seed: int = 4) -> None:
    """Empire attacks Цинхэ, dwarves attack Феррум, vampires attack Цинхэ too (all with planning)."""
    state["factions"]["empire"]["units"].update(empire_spearman=10, empire_archer=6)
    state["factions"]["dwarves"]["units"].update(dwarves_miner=10)
    state["factions"]["vampires"]["units"].update(vampires_halfblood=10)
    war.form_battles(state, {
        "empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10), ("Центр", "Арьергард", "Лучник", 6)],
                         "Цинхэ", skip="Нет"),
        "dwarves": attack(state, "dwarves", [("Левый", "Авангард", "Горняки", 10)], "Феррум", skip="Нет"),
        "vampires": attack(state, "vampires", [("Правый", "Авангард", "Полукровка", 10)], "Цинхэ", skip="Нет"),
    }, seed)


def test_same_state_orders_and_seed_give_identical_results():
    """DESIGN «Randomness and fairness»: same state + orders + seed -> byte-identical result; battles resolve
    city by city in a seeded order (RULINGS JR-56 step 5). Expected: identical canonical JSON twice; the state
    stays JSON-able."""
    outs = []
    for _ in range(2):
        state = make_game()
        three_battles(state)
        events = war.resolve_battles(state, {}, 99)
        outs.append(canonical_json({"state": state, "events": events}))
    assert outs[0] == outs[1]
    json.loads(outs[0])


def test_a_battle_s_dice_do_not_depend_on_other_battles():
    """DESIGN: «Every battle and random event gets its own stream derived from (seed, stable id), so adding a
    battle never changes another battle's dice.» Expected: the Феррум fight has the same deaths whether or not
    Цинхэ is attacked too."""
    def ferrum_deaths(with_qinghe: bool):
        state = make_game({"dwarves": {"Горняки": 10}, "empire": {"Копейщик": 10}})
        plans = {"dwarves": attack(state, "dwarves", [("Левый", "Авангард", "Горняки", 10)], "Феррум")}
        if with_qinghe:
            plans["empire"] = attack(state, "empire", [("Центр", "Авангард", "Копейщик", 10)], "Цинхэ")
        war.form_battles(state, plans, 8)
        return next(e for e in war.resolve_battles(state, {}, 8) if e["kind"] == "battle" and e["city"] == "ferrum")
    assert ferrum_deaths(False) == ferrum_deaths(True)


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


def test_public_chronicle_names_attacker_city_and_fate_without_armies():
    """«Всем фракциям по умолчанию доступна … Состав и тип городов у всех фракций», but not the enemy's armies.
    Expected: each chronicle line of the turn names the attacker and the city and no unit names."""
    state = make_game()
    three_battles(state)
    war.resolve_battles(state, {}, 4)
    lines = [e["text"] for e in state["chronicle"] if e["turn"] == 1]
    assert lines and all("Цинхэ" in t or "Феррум" in t for t in lines)
    from engine.jade_rose.data import load_data
    names = {u.name for u in load_data().units.values()}
    assert not any(name in t for t in lines for name in names)
