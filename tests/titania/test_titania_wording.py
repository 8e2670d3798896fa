"""Issue 23 item 4: the Russian a Titania turn writes reads right — a quoted name never follows a preposition bare
(«в «Логово Великана»» would need the name declined: «в провинции «Логово Великана»», «против фракции «Орда
Гримгора»»), and an army a Boss destroys is told destroyed, never «войско отступило». The book: «Боссы … Урон —
потери, которые несёт ваша армия при нападении на босса … У всех Боссов всегда по 10 здоровья и 5 урона».

Every text comes from real adjudications of the demo game: the row statuses, the forum posts, the chronicle and
the journal in the state, the battles tab and the GM's report of the turn.
"""
from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import Row, StageResult
from engine.titania.forum_posts import TitaniaPosts
from sheets_bridge.pull import merge_statuses
from sheets_bridge.scenarios import load_scenario

RS = find_ruleset("titania")
LAIR = "Логово Великана"  # the Stone Giant's province, next to the orcs' capital «Гримгор»
# a preposition right before an opening quote: the name after it would have to be declined
BARE = re.compile(r"(?<![а-яёА-ЯЁ])(?:в|во|из|на|у|к|от|до|с|со|за|по|при|для|против|через|кроме|без)\s+«",
                  re.IGNORECASE)


def _turn(strength: int) -> tuple[dict[str, Any], StageResult, dict[tuple[str, int], str]]:
    """The demo on turn 1 with the orcs' army in «Гримгор» set to `strength`, attacking the Giant's lair:
    (the state before, the turn's result, the orcs' final row statuses)."""
    state: dict[str, Any] = json.loads(json.dumps(load_scenario(RS, "demo").state))
    for a in state["armies"]:
        if a["faction"] == "grimgor":
            a["strength"] = strength
    rows = {"campaign": [Row(2, {"army": "Гримгор", "order": "Идти / атаковать", "target": LAIR})]}
    parsed = {"grimgor": RS.validate(state, "grimgor", "orders", rows)}
    assert [s.text() for s in parsed["grimgor"].statuses] == [f"OK: идти / атаковать → «{LAIR}»"]
    result = RS.resolve(state, "orders", parsed, 1)
    final = {(s.tab, s.number): s.text() for s in merge_statuses(parsed, result.statuses)["grimgor"]}
    return state, result, final


def _texts(before: Mapping[str, Any], result: StageResult, final: Mapping[tuple[str, int], str]) -> dict[str, str]:
    """Every Russian text of the turn, by where a reader finds it."""
    state = result.state
    views = RS.views(state)
    out = {f"post {p.key}": p.bbcode for p in TitaniaPosts().posts(before, result)}
    out["statuses"] = "\n".join(final.values())
    out["chronicle"] = "\n".join(e["text"] for e in state["chronicle"])
    out["journal"] = "\n".join(e["text"] for e in state["log"])
    out["battles tab"] = "\n".join(" | ".join(map(str, r)) for r in views["grimgor"]["battles"].rows)
    out["report"] = result.reports["adjudication"]
    return out


@pytest.fixture(scope="module")
def fallen() -> tuple[dict[str, Any], StageResult, dict[tuple[str, int], str]]:
    """An army of 3 attacks the Boss: 3 damage to its 10 Health, the Boss's 5 take the whole army."""
    return _turn(3)


def test_bosses_an_army_the_boss_destroys_is_told_destroyed_not_retreated(fallen: Any) -> None:
    """«Урон — потери, которые несёт ваша армия при нападении на босса»: 5 against an army of 3 leaves nobody to
    retreat. The status, the battle report, the chronicle, the journal, the battles tab and the report say the army
    fell; none says it retreated. Its loss is the 3 it had, never the 5 the Boss dealt (the losses shown never exceed
    the army's Strength)."""
    before, result, final = fallen
    state = result.state
    battle = state["battles"][-1]
    assert battle["kind"] == "boss" and battle["result"] == "defender" and battle["attacker_fallen"] is True
    assert not [a for a in state["armies"] if a["faction"] == "grimgor"], "the army is gone"
    assert final[("campaign", 2)] == "OK: не удался: Босс ранен, но жив; войско погибло в бою с ним (см. «Боссы»)"
    texts = _texts(before, result, final)
    report = texts[f"post {battle['turn']}-{battle['n']}"]
    assert (f"[b]Бой {battle['n']} хода 1 в провинции «{LAIR}»[/b] (против Босса)\n\n"
            "Нападает Орда Гримгора из провинции «Гримгор», сила 3; Босс «Каменный Великан». "
            "Подмога в бою с Боссом невозможна.\nУрон Боссу: 3; урон нападающим: 5, потери: 3 — всё войско.\n"
            "[b]Итог: Босс жив, войско нападавших погибло[/b] — Босс ранен, но жив; войско погибло в бою с ним "
            "(см. «Боссы»).") in report
    assert (f"[*][b]«{LAIR}»[/b]: Орда Гримгора (отряд, сила 3) против Босса «Каменный Великан» — урон Боссу 3, "
            "потери нападающих 3; Босс жив, войско нападавших погибло.") in texts["post chronicle"]
    assert (f"Войско фракции «Орда Гримгора» (сила 3) напало на Босса в провинции «{LAIR}»: урон Боссу 3, "
            "потери 3; Босс жив, войско погибло.") in texts["chronicle"]
    assert (f"Ход 1, Поход: войско из провинции «Гримгор» → «{LAIR}» — не удался: Босс ранен, но жив; войско "
            "погибло в бою с ним (см. «Боссы»).") in texts["journal"]
    assert "урон Боссу 3, потери нападающего 3; войско нападавших погибло" in texts["battles tab"]
    assert f"Бой 1 в провинции «{LAIR}» (против Босса):" in texts["report"]
    assert ("урон Боссу 3, урон нападающему 5 (потери 3); Босс выжил, войско нападавших погибло (см. «Боссы»)."
            in texts["report"])
    assert "не удался: Босс ранен, но жив; войско погибло в бою с ним (см. «Боссы»)." in texts["report"]
    for where, text in texts.items():
        assert "отступ" not in text.replace("теряют половину и отступают", ""), where


def test_bosses_an_army_that_survives_the_boss_retreats_as_the_book_says() -> None:
    """«Если войско атаковало и проиграло сражение, оно отступает строго в ту провинцию, из которой оно
    атаковало» («Фаза Похода», 10.2): an army of 8 survives the Boss's 5 and goes back to «Гримгор»."""
    before, result, final = _turn(8)
    battle = result.state["battles"][-1]
    assert "attacker_fallen" not in battle
    assert [a["strength"] for a in result.state["armies"] if a["faction"] == "grimgor"] == [3]
    assert final[("campaign", 2)] == "OK: не удался: Босс ранен, но жив; войско отступило (см. «Боссы»)"
    report = next(p for p in TitaniaPosts().posts(before, result) if p.battle).bbcode
    assert "[b]Итог: Босс жив, войско отступило[/b] — Босс ранен, но жив; войско отступило (см. «Боссы»)." in report


def test_a_quoted_name_never_follows_a_preposition_bare(fallen: Any) -> None:
    """«в «Логово Великана»» is wrong: «в провинции «Логово Великана»». Every text of the turn, the posts, the
    statuses, the chronicle, the journal, the battles tab and the report."""
    texts = _texts(*fallen)
    bare = {where: sorted({text[m.start():m.start() + 40] for m in BARE.finditer(text)})
            for where, text in texts.items()}
    assert {where: found for where, found in bare.items() if found} == {}
    assert all(f"в провинции «{LAIR}»" in texts[w] for w in ("chronicle", "report")), texts["chronicle"]


def test_a_faction_after_a_preposition_is_named_with_the_word_faction() -> None:
    """«провинция теперь у Орда Гримгора» is wrong: a faction's name is not declined, «фракции» before it is.
    The orcs (3) beat the humans' squad of 1 in «Восточная Степь»: the chronicle and its post name the defenders
    and the new owner in the genitive."""
    state: dict[str, Any] = json.loads(json.dumps(load_scenario(RS, "demo").state))
    state["owners"]["e_steppe"] = "albion"
    state["armies"].append({"faction": "albion", "province": "e_steppe", "strength": 1, "naval": False})
    rows = {"campaign": [Row(2, {"army": "Гримгор", "order": "Идти / атаковать", "target": "Восточная Степь"})]}
    parsed = {"grimgor": RS.validate(state, "grimgor", "orders", rows)}
    result = RS.resolve(state, "orders", parsed, 1)
    line = next(e["text"] for e in result.state["chronicle"] if e["kind"] == "Бой")
    assert line.startswith("Бой в провинции «Восточная Степь»: Орда Гримгора (3) против фракции «Королевство "
                           "Альбион» (1) — победа нападающих; провинция теперь у фракции «Орда Гримгора»"), line
    chronicle = TitaniaPosts().posts(state, result)[0].bbcode
    assert ("[*][b]«Восточная Степь»[/b]: Орда Гримгора (отряд) против фракции «Королевство Альбион» (малый "
            "отряд), итого 3 : 1 — победа нападающих") in chronicle
    assert "провинция теперь у фракции «Орда Гримгора»" in chronicle
