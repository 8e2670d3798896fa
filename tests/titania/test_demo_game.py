"""The scripted Titania demo (`forumwar demo --ruleset titania`), played through the xlsx books: its archives
show every kind of fight of the rule book, a caravan, six races' abilities, the Lizardmen's two discounts, and the
game reaches its end."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from engine import find_ruleset
from sheets_bridge.cli import main
from sheets_bridge.gamedir import GameDir
from tests.conftest import DemoRun

pytestmark = pytest.mark.long


@pytest.fixture(scope="module")
def demo(titania_demo: DemoRun) -> GameDir:
    return titania_demo.gd


def _reports(gd: GameDir) -> list[str]:
    paths = sorted(gd.path.glob("archive/turn-*/report-orders-adjudication.txt"))
    return [p.read_text(encoding="utf-8") for p in paths]


def _statuses(gd: GameDir) -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for path in sorted(gd.path.glob("archive/turn-*/statuses-orders.json")):
        for fid, rows in json.loads(path.read_text(encoding="utf-8")).items():
            if not fid.startswith("_"):
                out += [(path.parent.name, fid, r) for r in rows]
    return out


def test_the_demo_reaches_its_end_condition_with_final_standings(demo: GameDir) -> None:
    res = CliRunner().invoke(main, ["status", str(demo.path), "--json"])
    info = json.loads(res.output)
    assert info["stage"] == "finished" and info["game_over"] and info["turn"] == 9   # [victory] last_turn = 8
    assert info["winners"] and all(info["factions"][w]["won"] for w in info["winners"])
    assert [s["faction"] for s in info["standings"]][0] in info["winners"]
    assert len({f["race"] for f in info["factions"].values()}) == 7


def test_the_archives_show_battles_supports_a_draw_retreats_captures_a_boss_and_natives(demo: GameDir) -> None:
    battles = demo.latest_state()["battles"]
    kinds = Counter(b["kind"] for b in battles)
    assert kinds["army"] >= 1 and kinds["boss"] >= 1 and kinds["natives"] >= 1 and kinds["keeper"] >= 1
    assert any(b["result"] == "draw" for b in battles)
    # A4.1: after a draw both sides retreat; an attacker that survives its draw is back at its origin
    survivors = [b for b in battles if b["result"] == "draw" and b["attacker"]["strength"] > b["damage"]["attacker"]]
    assert survivors
    assert any(b["attacker"]["supports"] or b["defender"]["supports"] for b in battles if b["kind"] != "boss")
    text = "\n".join(_reports(demo))
    assert re.search(r"подмога: [^\n]* \+\d", text), "a support counted in a battle report"
    assert "провинция без враждебных войск занята без боя" in text and "победил нападающий" in text
    assert "против Босса" in text and "против туземцев" in text


def test_a_caravan_was_sent_and_six_races_used_their_abilities(demo: GameDir) -> None:
    sent = [r for _, _, r in _statuses(demo) if r["tab"] == "planning" and "караван отправлен" in r["text"]]
    assert sent, "a caravan went out (P2.1, P3.1: by sea between two ports)"
    used = set()
    for report in _reports(demo):
        used |= set(re.findall(r"«([^»]+)» — выполнен: способность применена", report))
    assert len(used) >= 6, used


def test_the_lizardmen_research_with_both_discounts_of_the_gifts_of_the_gods(demo: GameDir) -> None:
    """«Дары Богов: Ящеролюды изучают технологии со скидкой в 1 золота или 1 дерева по выбору» — the demo's
    Lizardmen name wood once and gold once in the «Скидка» column (issue 24 item 3), and the turn carries both."""
    typed = []
    for path in sorted(demo.path.glob("archive/turn-*/orders-orders-saurus.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))["Планирование"]
        at = {title: i for i, title in enumerate(rows[0])}
        typed += [(r[at["Скидка"]], r[at["Статус"]]) for r in rows[1:] if r[at["Действие"]] == "Исследовать"]
    assert ("дерево", "OK: исследовать «Строевая подготовка»; скидка «Дары Богов»: дерево") in typed, typed
    assert ("золото", "OK: исследовать «Вербовка»; скидка «Дары Богов»: золото") in typed, typed
    assert {"drill", "recruiting"} <= set(demo.latest_state()["factions"]["saurus"].get("techs", []))


def test_every_faction_types_a_wrong_row_each_turn_and_gets_a_russian_message(demo: GameDir) -> None:
    rows = _statuses(demo)
    played = {(turn, fid) for turn, fid, _ in rows}
    bad = Counter((turn, fid) for turn, fid, r in rows if not r["ok"])
    assert len(played) >= 40
    for key in played:
        assert bad[key] >= 1, key
    texts = [r["text"] for _, _, r in rows if not r["ok"]]
    assert all(re.search("[а-яё]", t) for t in texts)
    assert any("Допустимо:" in t or "Ваши провинции:" in t or "Соседи:" in t for t in texts)


def test_a_faction_book_shows_only_the_armies_near_its_own_land(demo: GameDir) -> None:
    """Fog of war: «Войска» of a faction lists its own armies and others only in or next to its provinces
    and armies (engine.titania.views)."""
    rs = find_ruleset("titania")
    state = demo.latest_state()
    from engine.titania.views import sight, who
    out_of_sight = 0
    for fid in state["factions"]:
        seen = sight(state, fid)
        table = rs.views(state)[fid]["armies"]
        names = {state["map"]["provinces"][p]["name"]: p for p in state["map"]["provinces"]}
        for _owner, where, *_ in table.rows:
            assert names[where] in seen
        hidden = [a for a in state["armies"] if a["province"] not in seen]
        out_of_sight += sum(1 for a in hidden if a["faction"] != fid)
        shown = {(w, where) for w, where, *_ in table.rows}
        assert all((who(state, a["faction"]), state["map"]["provinces"][a["province"]]["name"]) not in shown
                   for a in hidden)
    assert out_of_sight, "some armies are out of some faction's sight"



def test_the_books_are_xlsx_files_with_the_titania_tabs(demo: GameDir) -> None:
    import openpyxl
    wb = openpyxl.load_workbook(Path(demo.path) / demo.config.books["albion"], read_only=True)
    for title in ("Сводка", "Планирование", "Поход", "Мощь и магия", "Провинции", "Войска", "Технологии", "Бои",
                  "Журнал"):
        assert title in wb.sheetnames
