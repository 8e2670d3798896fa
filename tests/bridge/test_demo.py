"""The scripted nine-turn demo (`forumwar demo`): it plays to Midnight and touches every mechanic."""
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from sheets_bridge.cli import main

pytestmark = pytest.mark.long

ACTIONS = ["Построить", "Продать", "Улучшить город", "Восстановить руины", "Нанять", "Купить нефрит",
           "Чистка генералов", "Чистка чиновников", "Показательная казнь", "Слежка", "Террор",
           "Ритуал вечных слуг", "Обратить в рабов", "Мстительный поход", "Вложить", "Записывать обиды"]
BUILDINGS = ["Штаб тайной полиции", "Штаб инквизиции", "Зал рыцарей", "Рынок рабов", "Виселица", "Трущобы",
             "Склеп", "Барак", "Рунный обелиск", "Комната записи обид", "Гильдия вкладчиков",
             "Гильдия бесконечной мести", "Пещера Фрагулекса", "Нефритовая шахта", "Поместья",
             "Храм нефритовой чумы", "Великая Кузня", "Военная крепость"]


@pytest.fixture(scope="module")
def demo(jade_rose_demo):
    return jade_rose_demo.gd, list(jade_rose_demo.lines)


def _statuses(gd):
    out = []
    for path in sorted(gd.path.glob("archive/turn-*/statuses-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, rows in data.items():
            if not key.startswith("_"):
                out += [(path.parent.name, key, r) for r in rows]
    return out


def test_demo_plays_to_midnight_with_a_winner(demo):
    gd, lines = demo
    res = CliRunner().invoke(main, ["status", str(gd.path), "--json"])
    info = json.loads(res.output)
    assert info["stage"] == "finished" and info["turn"] == 10 and info["game_over"]
    assert info["winners"], "Midnight leaves a winner"
    assert any("ПОБЕДА" in line for line in lines)


def test_demo_uses_every_economy_and_faction_action(demo):
    gd, _ = demo
    ok_orders = [r["order"] for _, _, r in _statuses(gd) if r["ok"] and r["tab"] == "economy"]
    for action in ACTIONS:
        assert any(o.startswith(action + " ·") or o == action for o in ok_orders), f"{action} never succeeded"
    built = {o.split(" · ")[2] for o in ok_orders if o.startswith("Построить ·")}
    assert set(BUILDINGS) <= built, f"never built: {set(BUILDINGS) - built}"


def test_demo_shows_a_wrong_row_per_faction_each_turn(demo):
    gd, _ = demo
    rows = [(turn, faction, r) for turn, faction, r in _statuses(gd) if r["tab"] == "economy"]
    bad = Counter((turn, faction) for turn, faction, r in rows if not r["ok"])
    played = {(turn, faction) for turn, faction, _ in rows}
    assert len(played) >= 30
    for key in played:
        assert bad[key] >= 1, key


def test_demo_chronicle_covers_war(demo):
    gd, _ = demo
    state = gd.latest_state()
    texts = [c["text"] for c in state["chronicle"]]
    joined = "\n".join(texts)
    for word in ("разграблен", "разрушен", "колонизирован", "руины", "выбывает", "Полночь", "атака отбита"):
        assert word in joined, word
    per_city_turn = Counter((c["turn"], c["text"].split(" (")[0]) for c in state["chronicle"] if c["kind"] == "Бой")
    assert max(per_city_turn.values()) >= 2, "several attackers on one city in one turn"
    orders = [r for _, _, r in _statuses(gd) if r["tab"] == "army_orders"]
    assert any("без фазы планирования" in r["text"] for r in orders)
    assert any("обороняет" in r["text"] for r in orders)
    manoeuvres = [r["order"] for _, _, r in _statuses(gd) if r["tab"] == "manoeuvres" and r["ok"]]
    for kind in ("Обстрел", "Натиск", "Защита"):
        assert any(f"· {kind}" in m for m in manoeuvres), kind
