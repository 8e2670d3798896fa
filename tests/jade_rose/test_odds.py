"""The «Симулятор» tab of a faction book (issue 11 item 4): rows describing a hypothetical battle give the
simulator's odds, the mean rounds and the mean losses per unit type; a bad row gets a Russian message
and is left out, the rest still count."""
from __future__ import annotations

import math

import pytest

from engine import find_ruleset
from engine.jade_rose import battle
from engine.jade_rose.odds import RUNS, JadeRoseOdds
from engine.ruleset import Row
from sheets_bridge.scenarios import load_scenario, packaged_scenarios

KEYS = ("side", "faction", "flank", "line", "unit", "count", "manoeuvre", "target")


@pytest.fixture(scope="module")
def state():
    rs = find_ruleset("jade_rose")
    return load_scenario(rs, packaged_scenarios("jade_rose")[0]).state


def rows(*cells: tuple[str, ...]) -> list[Row]:
    return [Row(i + 2, dict(zip(KEYS, c, strict=True))) for i, c in enumerate(cells)]


def values(table) -> dict[str, str]:
    return {r[0]: r[1] for r in table.rows}


def test_the_odds_are_the_simulator_s_for_the_described_battle(state):
    """Own squads attack, the enemy defends: the table is the simulator's answer for that very battle."""
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(
        ("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
        ("Атакуем", "", "Центр", "Арьергард", "Лучник", "6", "Обстрел", "Центральный авангард"),
        ("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "12", "", "")))
    assert [s.ok for s in statuses] == [True, True, True]
    spec = {"ruleset": "jade_rose",
            "attacker": {"faction": "empire", "squads": [
                {"flank": "center", "line": "rearguard", "units": {"Лучник": 6},
                 "manoeuvre": {"type": "bombard", "flank": "center", "line": "vanguard"}},
                {"flank": "center", "line": "vanguard", "units": {"Копейщик": 10}}]},
            "defender": {"faction": "vampires", "squads": [
                {"flank": "center", "line": "vanguard", "units": {"Полукровка": 12}}]}}
    from engine.rng import derive_seed
    from engine.state import canonical_json
    expected = battle.simulate(spec, RUNS, derive_seed("odds", canonical_json(spec)))
    got = values(table)
    assert got["Наша победа"] == f"{round(100 * expected['attacker_win'])} %"
    assert got["Прогонов"] == RUNS
    lost = expected["losses"]["defender"]["Полукровка"]
    assert got["Потери противника: Полукровка"] == f"{lost:.1f}".replace(".", ",") + " из 12"
    assert "Наши потери: Копейщик" in got and "Наши потери: Лучник" in got


def test_an_overwhelming_army_almost_always_wins_and_the_same_rows_give_the_same_odds(state):
    desc = rows(("Обороняемся", "", "Центр", "Авангард", "Тяжёлый пехотинец", "60", "", ""),
                ("Противник", "Дворфы", "Центр", "Авангард", "Горняки", "3", "", ""))
    one = JadeRoseOdds().odds(state, "empire", desc)
    assert one == JadeRoseOdds().odds(state, "empire", desc)
    assert int(values(one[1])["Наша победа"].rstrip(" %")) >= 95


def test_a_bad_row_gets_a_russian_message_and_the_rest_still_count(state):
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(
        ("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
        ("Атакуем", "", "Лево", "Авангард", "Дракон", "ноль", "Прыжок", "где-то"),
        ("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "5", "", "")))
    bad = statuses[1]
    assert [s.ok for s in statuses] == [True, False, True]
    text = bad.text()
    for part in ("Фланг «Лево» не распознан", "Юнита «Дракон» у фракции «Империя» нет. Допустимо: Копейщик",
                 "Манёвр «Прыжок» не распознан", "Цель «где-то» не распознана"):
        assert part in text
    got = values(table)
    assert "Наша победа" in got and got["Не учтены строки"] == "3"


@pytest.mark.parametrize("cells, code", [
    ((("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),), "JR_SIM_ONE_SIDE"),
    ((("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
      ("Обороняемся", "", "Правый", "Авангард", "Копейщик", "10", "", "")), "JR_SIM_ROLE_MIXED"),
    ((("Противник", "", "Центр", "Авангард", "Полукровка", "5", "", ""),), "JR_SIM_ENEMY"),
    ((("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "5", "", ""),
      ("Противник", "Дворфы", "Левый", "Авангард", "Горняки", "5", "", "")), "JR_SIM_ENEMY_MIXED"),
])
def test_what_cannot_be_a_battle_is_told(state, cells, code):
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(*cells))
    assert any(e.code == code for s in statuses for e in s.errors)
    assert "Наша победа" not in values(table)


def test_no_rows_no_odds_and_an_explanation(state):
    statuses, table = JadeRoseOdds().odds(state, "empire", [Row(2, dict.fromkeys(KEYS, ""))])
    assert statuses == () and "Симулятор" in table.rows[0][0]


SPEARMEN_AND_ARCHERS_AGAINST_MINERS = (
    ("Атакуем", "", "Центр", "Авангард", "Копейщик", "12", "", ""),
    ("Атакуем", "", "Центр", "Арьергард", "Лучник", "6", "", ""),
    ("Противник", "Дворфы", "Центр", "Авангард", "Горняки", "20", "", ""),
    ("Противник", "Дворфы", "Центр", "Арьергард", "Камнемёт", "2", "", ""))
# the same battle as the tab writes it for the simulator (squads in the order of their positions)
SPEARMEN_AND_ARCHERS_SPEC = {
    "ruleset": "jade_rose",
    "attacker": {"faction": "empire", "squads": [
        {"flank": "center", "line": "rearguard", "units": {"Лучник": 6}},
        {"flank": "center", "line": "vanguard", "units": {"Копейщик": 12}}]},
    "defender": {"faction": "dwarves", "squads": [
        {"flank": "center", "line": "rearguard", "units": {"Камнемёт": 2}},
        {"flank": "center", "line": "vanguard", "units": {"Горняки": 20}}]}}


def _comma(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


def test_losses_are_the_dead_less_the_wounded_who_return_as_each_battle_reports_them(state, monkeypatch):
    """Issue 38 §1, RULINGS «After the battle»: «Of each side's dead (per unit type, armies only; garrisons refill
    anyway), round_half_up(20 %) return (JR-41).» The «Шансы» rows say «в среднем за бой, после возвращения
    раненых», so each is the mean over the runs of what that run's battle lost for good: its report's losses
    (`BattleResult` deaths) less its «вернулись в строй раненые». Counted here from the reference's battles
    themselves, run by run, on the tab's own seeds (60 runs, so the simulator plays the reference too)."""
    from engine.jade_rose import odds as odds_module
    from engine.jade_rose.battle import fight_once, parse_spec
    from engine.jade_rose.battle.simulate import run_seeds
    from engine.rng import derive_seed
    from engine.state import canonical_json

    monkeypatch.setattr(odds_module, "RUNS", 60)
    statuses, table = JadeRoseOdds().odds(state, "empire", rows(*SPEARMEN_AND_ARCHERS_AGAINST_MINERS))
    assert all(s.ok for s in statuses)
    got = {r[0]: (r[1], r[2]) for r in table.rows}
    spec = SPEARMEN_AND_ARCHERS_SPEC
    battle = parse_spec(spec)
    results = [fight_once(battle, s) for s in run_seeds(60, derive_seed("odds", canonical_json(spec)))]
    names = {k: u.name for k, u in battle.units.items()}
    checked = 0
    for role, label in (("attacker", "Наши потери"), ("defender", "Потери противника")):
        deployed = dict(results[0].side(role).deployed)
        for key, n in deployed.items():
            dead = sum(dict(r.side(role).losses).get(key, 0) for r in results) / 60
            back = sum(dict(r.side(role).recovered).get(key, 0) for r in results) / 60
            value, note = got[f"{label}: {names[key]}"]
            assert value == f"{_comma(dead - back)} из {n}"
            assert note == f"в среднем за бой: погибло {_comma(dead)}, из них вернутся в строй ранеными {_comma(back)}"
            checked += 1
    assert checked == 4
    assert any(r.side("attacker").recovered for r in results)      # the case the issue saw: wounded do return


def test_the_issue_s_case_no_longer_shows_every_spearman_lost(state):
    """Issue 38 §1: with 12 spearmen and 6 archers against 20 miners and 2 stone-throwers the tab showed
    «Копейщик | 12,0 из 12» although the spearmen almost always all fall and 2 of them return wounded. The tab
    says what `battle --json` says (the simulator's "losses", "deaths" and "recovered")."""
    _, table = JadeRoseOdds().odds(state, "empire", rows(*SPEARMEN_AND_ARCHERS_AGAINST_MINERS))
    got = {r[0]: (r[1], r[2]) for r in table.rows}
    spec = SPEARMEN_AND_ARCHERS_SPEC
    from engine.rng import derive_seed
    from engine.state import canonical_json
    out = battle.simulate(spec, RUNS, derive_seed("odds", canonical_json(spec)))
    assert out["deaths"]["attacker"]["Копейщик"] > 11.5 and out["recovered"]["attacker"]["Копейщик"] >= 2
    value, note = got["Наши потери: Копейщик"]
    assert value == f"{_comma(out['losses']['attacker']['Копейщик'])} из 12" and value != "12,0 из 12"
    assert f"погибло {_comma(out['deaths']['attacker']['Копейщик'])}" in note
    for role in ("attacker", "defender"):
        for name, n in out["deployed"][role].items():
            assert math.isclose(out["losses"][role][name] + out["recovered"][role][name]
                                + out["survivors"][role][name], n)
