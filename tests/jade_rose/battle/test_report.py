"""The battle report (battle/report.py): readable Russian text and forum BBCode built from the structured result."""
from __future__ import annotations

import re

from engine.jade_rose.battle import battle_report, fight_once, parse_spec, render_report

SPEC = {"city": {"name": "Каменный Брод"},
        "attacker": {"faction": "empire", "squads": [
            {"flank": "left", "line": "vanguard", "units": {"Тяжёлый пехотинец": 6}},
            {"flank": "left", "line": "rearguard", "units": {"Лучник": 5},
             "manoeuvre": {"type": "bombard", "flank": "left", "line": "vanguard"}},
            {"flank": "right", "line": "vanguard", "units": {"Рыцарь": 3},
             "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard"}}]},
        "defender": {"faction": "dwarves", "squads": [
            {"flank": "left", "line": "vanguard", "units": {"Горняки": 8}, "manoeuvre": {"type": "cover"}},
            {"flank": "right", "line": "vanguard", "units": {"Младобород": 4}},
            {"flank": "right", "line": "rearguard", "units": {"Арбалетчик": 3}}]}}


def test_text_report_has_every_phase_in_russian():
    result = fight_once(parse_spec(SPEC), 8)
    text = render_report(result)
    for heading in ("Бой за город «Каменный Брод»", "Обстрел перед боем", "Натиск", "Столкновение", "Левый фланг",
                    "Завершение", "Итог"):
        assert heading in text, heading
    assert "Тяжёлый пехотинец" in text and "Горняки" in text
    assert not re.search(r"\b(attacker|defender|empire|dwarves|None)\b", text)
    for fight in result.fights:
        assert f"раунд {fight.round_count}:" in text
    assert f"Раундов в бою: {result.rounds}" in text


def test_bbcode_report_for_the_forum():
    text = battle_report(SPEC, 8, bbcode=True)
    assert text.startswith("[b]Бой за город")
    for tag in ("b", "u", "i", "list"):
        assert text.count(f"[{tag}]") == text.count(f"[/{tag}]") > 0, tag
    assert "[*]" in text


def test_report_says_when_both_sides_fell_or_time_ran_out():
    glass = {"attacker": {"faction": "empire",
                          "squads": [{"flank": "left", "line": "vanguard", "units": {"Копейщик": 1}}]},
             "defender": {"faction": "vampires",
                          "squads": [{"flank": "right", "line": "vanguard", "units": {"Полукровка": 1}}]}}
    text = render_report(fight_once(parse_spec(glass), 1))
    assert "победил" in text or "полегли" in text
    assert "Ни на одном фланге противники не встретились" in text


def test_a_fight_line_names_both_squads_without_a_case_it_cannot_decline():
    """Issue 23 item 4: «против защитник, центральный авангард» is wrong Russian. The two squads are put
    side by side with a dash: «Атакующий, левый авангард (6) — защитник, левый авангард (8): …».
    Expected: no «против» before a squad in the nominative, and the finale names «все выжившие защитники»."""
    text = render_report(fight_once(parse_spec(SPEC), 8))
    assert not re.search(r"против (атакующий|защитник|всех выживших)", text)
    assert re.search(r"^- Атакующий, \S+ \S+ \(\d+\) — защитник, \S+ \S+ \(\d+\): \d+ раунд", text, re.M)
