"""The ledger, journal and chronicle (ledger.py, engine.ledger): every balance change a ledger line, and one writer
of the records."""
from __future__ import annotations

from tests.jade_rose.small_games import make_game
from tests.paths import REPO


def test_ledger_change_records_every_balance_change_and_nothing_for_zero():
    from engine import ledger

    state = make_game(gold=100)
    state["ledger"] = []
    ledger.change(state, "empire", "gold", -30, "Тест", "aurum", kind="test")
    ledger.change(state, "empire", "gold", 0, "Ничего")
    ledger.change(state, "dwarves", "grudges", 2, "Обида", against="empire")
    assert state["factions"]["empire"]["gold"] == 70 and state["factions"]["dwarves"]["grudges"]["empire"] == 2
    assert state["ledger"] == [
        {"faction": "empire", "resource": "gold", "amount": -30, "reason": "Тест", "city": "aurum", "kind": "test"},
        {"faction": "dwarves", "resource": "grudges", "amount": 2, "reason": "Обида", "against": "empire"}]


def test_only_the_ledger_module_appends_to_the_ledger_journal_and_chronicle():
    """The records have one writer each (engine/jade_rose/ledger.py): no other Jade Rose module appends to
    them directly, so every balance change carries its reason."""
    import re

    root = REPO / "engine" / "jade_rose"
    pattern = re.compile(r"""\[\s*["'](ledger|log|chronicle)["']\s*\]\s*\.append"""
                         r"""|setdefault\(\s*["'](ledger|log|chronicle)["'][^)]*\)\s*\.append""")
    writers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                     if p.name != "ledger.py" and pattern.search(p.read_text(encoding="utf-8")))
    assert writers == []
