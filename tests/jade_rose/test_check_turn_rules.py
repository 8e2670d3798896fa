"""DATC-style cases of issue 20 item 1 (Jade Rose): each rule where `check` and `turn` used to disagree, with
its setup, the rows typed, and the verdict of every row at `check` (`validate`) and at `turn` (`resolve`).
Each docstring quotes the rule book (../shared/rules/jade_rose.md) or the rulings it follows."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import find_ruleset
from engine.jade_rose import turn
from engine.jade_rose.actions.base import highest_rolls
from engine.jade_rose.data import load_data
from engine.jade_rose.war.codes import DEFEAT_CAUSES
from engine.jade_rose.war.views import manoeuvres_table
from engine.ruleset import ParsedOrders, Row, RowStatus
from engine.state import clone
from tests.jade_rose.war_kit import ARMY_KEYS, GARRISON_KEYS, MANOEUVRE_KEYS, ORDER_KEYS, make_game, rows

RS = find_ruleset("jade_rose")
ECONOMY_KEYS = ("action", "city", "what", "count")
KEYS = {"economy": ECONOMY_KEYS, "armies": ARMY_KEYS, "army_orders": ORDER_KEYS, "garrisons": GARRISON_KEYS}
Verdicts = dict[tuple[str, int], RowStatus]


def tabs(**typed: list[tuple]) -> dict[str, list[Row]]:
    return {tab: rows(KEYS[tab], *cells) for tab, cells in typed.items()}


def check_orders(state: Mapping[str, Any], books: Mapping[str, dict]) -> dict[str, ParsedOrders]:
    """`check` of the orders stage: every faction's tabs through the rule set's `validate`."""
    return {fid: RS.validate(state, fid, "orders", book) for fid, book in books.items()}


def verdicts(parsed: ParsedOrders, resolved: Mapping[str, Any] | None = None) -> Verdicts:
    """Each row's verdict: `check`'s, overridden by the turn's (as the bridge merges them)."""
    out = {(s.tab, s.number): s for s in parsed.statuses}
    for s in (resolved or {}).get(parsed.faction, ()):
        out[(s.tab, s.number)] = s
    return out


def codes(status: RowStatus) -> list[str]:
    return [e.code for e in status.errors]


class LowestRoll:
    def randint(self, a: int, b: int) -> int:
        return a


# -- the economy -------------------------------------------------------------------------------------

def test_check_takes_the_corruption_roll_at_its_worst_and_a_row_it_refuses_never_spends_the_gold_of_one_it_accepts():
    """«В начале каждого хода киньте бросок и увеличьте уровень коррупции в зависимости от числа городов под вашим
    контролем»; «В зависимости от уровня коррупции к вам применяются штрафы» (rule book §Empire); RULINGS JR-56
    step 3: «an order that the balance cannot pay is rejected».

    The roll is drawn from the stage's secret seed, so `check` cannot know it: it takes the highest face, and the
    turn runs only the rows `check` accepted. Setup: the Empire (2 cities: 1d2) at corruption 3 — a roll of 1
    leaves it at 4 (no penalty), a roll of 2 makes it 5 (−10 % income: 45з less); it is 256з in debt after last
    turn's upkeep, so after income it has 149з at worst and 194з at best.
    Orders: row 2 «Построить Аурум Барак» (150з), row 3 «Построить Феррум Часовня» (100з).
    Expected: `check` refuses row 2 (not enough gold at the worst roll; the message says a better roll would
    leave up to 45з more) and accepts row 3; the turn, whatever it
    rolls, refuses row 2 with the same message and builds the chapel (a lucky roll no longer lets the barrack
    take the chapel's gold)."""
    state = make_game()
    state["factions"]["empire"].update(gold=-256, corruption=3)
    worst, best = clone(state), clone(state)
    turn.begin_turn(worst, 0, dice=highest_rolls)
    turn.begin_turn(best, 0, dice=lambda *key: LowestRoll())
    assert (worst["factions"]["empire"]["gold"], best["factions"]["empire"]["gold"]) == (149, 194)
    book = {"empire": tabs(economy=[("Построить", "Аурум", "Барак", ""), ("Построить", "Феррум", "Часовня", "")])}
    parsed = check_orders(state, book)
    checked = verdicts(parsed["empire"])
    assert codes(checked[("economy", 2)]) == ["JR_NOT_ENOUGH_GOLD", "JR_WORST_ROLL"]
    assert "149з" in checked[("economy", 2)].text() and "до 45з больше" in checked[("economy", 2)].text()
    assert checked[("economy", 3)].ok
    rolls = set()
    for seed in range(12):
        result = RS.resolve(state, "orders", parsed, seed)
        got = verdicts(parsed["empire"], result.statuses)
        assert got[("economy", 2)] == checked[("economy", 2)]
        assert got[("economy", 3)].ok, got[("economy", 3)].text()
        cities = result.state["cities"]
        assert cities["aurum"]["buildings"] == [] and cities["ferrum"]["buildings"] == ["empire_chapel"]
        rolls.add(result.state["factions"]["empire"]["corruption"])
    assert rolls == {4, 5}, "both faces of the die came up"


def test_a_purge_of_the_generals_refuses_the_army_rows_at_check_and_at_turn_and_garrisons_still_deploy():
    """«Чистки генералов»: «The army cannot act this turn. +50 % army upkeep this turn» (rule book §Empire,
    actions against corruption).

    Setup: the Empire (20ч) purges the generals; it also forms army «1» (10 spearmen) and orders it to attack
    Цинхэ, and places its Феррум garrison's spearmen in the left vanguard; the Jade Court attacks Феррум.
    Expected: at `check` and at the turn the army row and the attack order are refused with
    JR_WAR_ARMIES_BLOCKED (before: `check` said OK and the turn silently dropped the whole plan, garrison rows
    included); the garrison row stays OK and the Jade attack meets the spearmen where the row put them."""
    state = make_game({"empire": {"Копейщик": 10}, "jade": {"Ополченец": 10}})
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


# -- armies ----------------------------------------------------------------------------------------------

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


# -- the battles' verdicts -------------------------------------------------------------------------------

def _attack_books(*armies: tuple[str, int], city: str = "Цинхэ", skip: str = "Да") -> dict[str, dict]:
    army_rows = [(name, "Центр", "Авангард", "Тяжёлый пехотинец", n) for name, n in armies]
    return {"empire": tabs(armies=army_rows, army_orders=[(name, "Атаковать", city, "", skip) for name, _ in armies])}


def test_an_attack_order_s_verdict_names_the_battle_s_outcome():
    """«An attacker must first defeat the garrison» (rule book §2.5, «противник будет вынужден сначала победить
    гарнизон»);
    RULINGS JR-56 step 5 / JR-53: «several attackers on one city fight one after another, a capturing army
    holding the city for the rest of the turn; later attacks of the same faction on a city it already took are
    void».

    Setup A: the Empire's army «1» (1 heavy infantryman) attacks Цинхэ (garrison of 24). Setup B (turn 3, two
    armies allowed): armies «1» and «2» (80 heavy infantrymen each) both attack Цинхэ.
    Expected: `check` accepts every attack order. A: the turn says the battle was lost (JR_WAR_BATTLE_LOST,
    naming the army, the city and the garrison). B: the army that fought first «выиграла бой» and took the city;
    the other one's order is void, naming the army that took it (JR_WAR_TAKEN_BY_OWN_ARMY). Before, every
    attack order kept `check`'s «армия атакует…», whatever happened."""
    state = make_game({"empire": {"Тяжёлый пехотинец": 1}})
    parsed = check_orders(state, _attack_books(("1", 1)))
    assert verdicts(parsed["empire"])[("army_orders", 2)].ok
    result = RS.resolve(state, "orders", parsed, 1)
    lost = verdicts(parsed["empire"], result.statuses)[("army_orders", 2)]
    assert codes(lost) == ["JR_WAR_BATTLE_LOST"] and all(w in lost.text() for w in ("«1»", "Цинхэ", "гарнизон"))
    assert result.state["cities"]["qinghe"]["owner"] == "jade"

    state = make_game({"empire": {"Тяжёлый пехотинец": 160}}, turn=3)
    parsed = check_orders(state, _attack_books(("1", 80), ("2", 80)))
    assert all(s.ok for s in parsed["empire"].statuses)
    result = RS.resolve(state, "orders", parsed, 1)
    got = verdicts(parsed["empire"], result.statuses)
    first, second = sorted((got[("army_orders", 2)], got[("army_orders", 3)]), key=lambda s: not s.ok)
    assert first.ok and "выиграла бой за город Цинхэ" in first.text()
    assert codes(second) == ["JR_WAR_TAKEN_BY_OWN_ARMY"]
    winner = "1" if first.number == 2 else "2"
    assert f"«{winner}»" in second.text()
    assert result.state["cities"]["qinghe"]["owner"] == "empire"
    assert {"JR_WAR_BATTLE_LOST", "JR_WAR_TAKEN_BY_OWN_ARMY"} <= DEFEAT_CAUSES


def _planning_rows(state: Mapping[str, Any], fid: str, manoeuvre: str) -> list[Row]:
    """The «Манёвры» tab as the bridge pre-fills it, every squad given `manoeuvre`."""
    table = manoeuvres_table(state, fid)
    return rows(MANOEUVRE_KEYS, *[(r[0], r[1], r[2], manoeuvre, "", "", r[6]) for r in table.rows])


def test_manoeuvres_for_a_fight_against_a_city_taken_before_name_the_capture():
    """«Манёвры» are planned against the defence the books revealed; RULINGS JR-53: «a capturing army holding the
    city for the rest of the turn» — the army that took it was revealed to nobody, so the next fight has no
    planning phase (war/resolution.py).

    Setup: the Empire (from Феррум: 80 heavy infantrymen) and the vampires (from Умбра: 40 death knights, the blood of
    600 eternal servants) each attack Цинхэ with a
    planning phase; every squad of both attackers and of the Jade garrison is given «В укрытие».
    Expected: `check` accepts every manoeuvre row. At the turn, the first fight runs as planned (its rows keep
    «OK»); the second attacker meets the army that took the city, without planning, so its rows and the Jade
    Court's rows for that fight say so (JR_WAR_CITY_TAKEN_BEFORE, naming the faction holding the city). Before,
    they kept «OK» and nothing said the manoeuvres never ran."""
    heavy = load_data().units["vampires_death_knight"].name
    state = make_game({"empire": {"Тяжёлый пехотинец": 80}, "vampires": {heavy: 40}},
                      vampires={"eternal_servants": 600})
    books = {"empire": _attack_books(("1", 80), skip="Нет")["empire"],
             "vampires": tabs(armies=[("1", "Центр", "Авангард", heavy, 40)],
                              army_orders=[("1", "Атаковать", "Цинхэ", "", "Нет")])}
    parsed = check_orders(state, books)
    assert all(s.ok for p in parsed.values() for s in p.statuses), [s.text() for p in parsed.values()
                                                                    for s in p.statuses]
    planning = RS.resolve(state, "orders", parsed, 2).state
    assert planning["stage"] == "planning"
    (battle,) = planning["battles"]
    first, second = battle["attackers"]
    plans = {fid: RS.validate(planning, fid, "planning", {"manoeuvres": _planning_rows(planning, fid, "В укрытие")})
             for fid in ("empire", "vampires", "jade")}
    assert all(s.ok for p in plans.values() for s in p.statuses)
    result = RS.resolve(planning, "planning", plans, 2)
    outcomes = {fid: verdicts(plans[fid], result.statuses) for fid in plans}
    attack = verdicts(parsed[first["faction"]], result.statuses)[("army_orders", 2)]
    assert attack.ok and "выиграла бой" in attack.text(), "the first attacker took the city"
    holder = planning["factions"][first["faction"]]["name"]
    label = "Цинхэ — атака 2"
    for fid in (second["faction"], "jade"):
        mine = [s for s in outcomes[fid].values() if s.tab == "manoeuvres"]
        later = [s for s in mine if (s.tab, s.number) in {(v.tab, v.number) for v in result.statuses.get(fid, ())}]
        assert later and all(codes(s) == ["JR_WAR_CITY_TAKEN_BEFORE"] for s in later)
        assert all(holder in s.text() and label in s.text() for s in later)
    assert all(s.ok for s in outcomes[first["faction"]].values()), "the first fight ran as planned"
    jade_first = [s for s in plans["jade"].statuses if "атака 1" in _cell(planning, "jade", s.number)]
    assert jade_first and all(outcomes["jade"][(s.tab, s.number)].ok for s in jade_first)


def _cell(state: Mapping[str, Any], fid: str, number: int) -> str:
    return str(manoeuvres_table(state, fid).rows[number - 2][0])


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
