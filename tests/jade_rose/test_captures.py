"""Jade Rose captures and losses of the war, DATC style: setup, orders, expected outcome. Each docstring
quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the binding ruling; the map is
tests/jade_rose/war_kit.py's."""
from __future__ import annotations

from engine.jade_rose import income, war
from engine.jade_rose.war import resolution
from tests.jade_rose.war_kit import (
    MANOEUVRE_KEYS,
    STRONG,
    attack,
    battle_events,
    make_game,
    plan_of,
    rows,
)

# -- captures ------------------------------------------------------------------------------------------

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


def test_several_attackers_fight_one_after_another_and_the_capture_holds():
    """RULINGS JR-53: «several attackers on one city fight one after another, a capturing army holding the
    city for the rest of the turn». Setup: the Empire (80 heavy infantry, from Феррум) and the Vampires
    (50 neophytes, from Умбра) both attack Цинхэ. Expected: two fights in the drawn order; the first takes
    the city from the garrison; the second is fought against the first attacker's army, not the garrison."""
    state = make_game({"vampires": {"Новообращённый": 50}}, vampires={"slaves": 900})
    vampires = attack(state, "vampires", [("Центр", "Авангард", "Новообращённый", 50)], "Цинхэ")
    state["factions"]["empire"]["units"]["empire_heavy_infantry"] = 80
    war.form_battles(state, {"empire": attack(state, "empire", STRONG, "Цинхэ"), "vampires": vampires}, 11)
    order = [a["faction"] for a in state["battles"][0]["attackers"]]
    assert sorted(order) == ["empire", "vampires"]
    events = war.resolve_battles(state, {}, 11)
    fights = battle_events(events)
    assert [f["attacker"] for f in fights] == order
    assert fights[0]["defender"] == "jade" and fights[0]["winner"] == "attacker"
    assert fights[1]["defender"] == order[0]
    assert fights[1]["deaths"].get(order[0]) or fights[1]["deaths"].get(order[1])
    final = order[1] if fights[1]["winner"] == "attacker" else order[0]
    assert state["cities"]["qinghe"]["owner"] == final


def test_a_later_attack_of_the_same_faction_on_a_city_it_took_is_void():
    """RULINGS JR-53: «later attacks of the same faction on a city it already took are void».
    Setup (Dawn, two armies): two strong Empire armies (80 and 70 heavy infantry) attack Цинхэ.
    Expected: one battle only; the army drawn second does not fight and keeps every unit; the Empire's
    report says its attack was called off."""
    state = make_game({"empire": {"Тяжёлый пехотинец": 150}}, turn=3)
    plan = plan_of(state, "empire", [("1", *STRONG[0]), ("2", "Центр", "Авангард", "Тяжёлый пехотинец", 70)],
                   [("1", "Атаковать", "Цинхэ", "", "Да"), ("2", "Атаковать", "Цинхэ", "", "Да")])
    war.form_battles(state, {"empire": plan}, 5)
    assert len(state["battles"]) == 1 and len(state["battles"][0]["attackers"]) == 2
    second = state["battles"][0]["attackers"][1]["army"]
    events = war.resolve_battles(state, {}, 5)
    (fight,) = battle_events(events)
    assert fight["winner"] == "attacker" and fight["army_size"]["empire"] == (80 if second == "2" else 70)
    dead = fight["army_deaths"]["empire"].get("empire_heavy_infantry", 0)
    assert state["factions"]["empire"]["units"]["empire_heavy_infantry"] == 150 - dead + (2 * dead * 20 + 100) // 200
    assert any(f"армии «{second}»" in text and "отменена" in text for text in state["reports"]["empire"])
    assert state["cities"]["qinghe"]["owner"] == "empire"


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


# -- losses ------------------------------------------------------------------------------------------------

def test_army_dead_leave_the_faction_less_20_percent_recovered_garrisons_refill():
    """«…после боя часть раненых юнитов (если не указано иного, то эта часть равна 20%) удаётся спасти, и они
    вернутся в строй.» RULINGS: rounded half up per unit type, armies only; garrisons refill (JR-54).
    Setup: 12 Empire spearmen attack Цинхэ and lose. Expected: the Empire keeps round_half_up(20 % × dead)
    spearmen; the jade garrison's dead are reported in deaths but remove nothing from the faction's units."""
    state = make_game({"empire": {"Копейщик": 12}, "jade": {"Ополченец": 3}})
    war.form_battles(state, {"empire": attack(state, "empire", [("Центр", "Авангард", "Копейщик", 12)], "Цинхэ")}, 2)
    fight = battle_events(war.resolve_battles(state, {}, 2))[0]
    dead = fight["army_deaths"]["empire"]["empire_spearman"]
    assert fight["winner"] == "defender" and dead == 12
    assert state["factions"]["empire"]["units"]["empire_spearman"] == (2 * dead * 20 + 100) // 200
    assert fight["army_size"] == {"empire": 12, "jade": 0}
    assert fight["army_deaths"]["jade"] == {}
    assert state["factions"]["jade"]["units"] == {"jade_militiaman": 3}


def test_dwarf_runes_spent_in_a_planned_battle_are_consumed():
    """«Вы можете использовать руны в бою, чтобы защититься: каждая руна даст -5% к получаемому урону … Руны
    тратятся при использовании.» RULINGS JR-83: declared per battle in the planning stage. Setup: dwarves hold
    4 runes and attack Феррум with planning. Orders: 3 runes. Expected: 1 rune left and a ledger line."""
    state = make_game({"dwarves": {"Горняки": 10}}, dwarves={"runes": 4})
    war.form_battles(state, {"dwarves": attack(state, "dwarves", [("Центр", "Авангард", "Горняки", 10)], "Феррум",
                                               skip="Нет")}, 1)
    table = war.views(state, "dwarves")["manoeuvres"]
    cells = [list(r) for r in table.rows]
    cells[0][6] = "3"
    plan, statuses = war.parse_manoeuvres(state, "dwarves", rows(MANOEUVRE_KEYS, *cells))
    assert all(s.ok for s in statuses)
    war.resolve_battles(state, {"dwarves": plan}, 1)
    assert state["factions"]["dwarves"]["runes"] == 1
    assert any(line["resource"] == "runes" and line["amount"] == -3 for line in state["ledger"])


def test_planned_manoeuvres_reach_the_battle(monkeypatch):
    """«Планирование: Вы узнаёте расстановку войск противника, а он узнаёт вашу расстановку войск. Каждому
    отряду вы можете назначить строго 1 манёвр.» Orders: the Empire's archers bombard the centre vanguard.
    Expected: the battle that is fought carries that manoeuvre, with planning not skipped."""
    state = make_game({"empire": {"Копейщик": 10, "Лучник": 6}})
    plan = plan_of(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 10),
                                     ("1", "Центр", "Арьергард", "Лучник", 6)],
                   [("1", "Атаковать", "Цинхэ", "", "Нет")])
    war.form_battles(state, {"empire": plan}, 1)
    cells = [list(r) for r in war.views(state, "empire")["manoeuvres"].rows]
    archers = next(c for c in cells if c[1] == "Центральный арьергард")
    archers[3], archers[4] = "Обстрел", "Центральный авангард"
    manoeuvres, statuses = war.parse_manoeuvres(state, "empire", rows(MANOEUVRE_KEYS, *cells))
    assert all(s.ok for s in statuses), [s.text() for s in statuses]
    seen = []
    real = resolution.fight_once
    monkeypatch.setattr(resolution, "fight_once", lambda battle, seed: seen.append(battle) or real(battle, seed))
    war.resolve_battles(state, {"empire": manoeuvres}, 1)
    (battle,) = seen
    assert not battle.skip_planning
    shooters = next(s for s in battle.attacker.squads if s.position.line == "rearguard")
    assert shooters.manoeuvre.kind == "bombard" and shooters.manoeuvre.target.flank == "center"
