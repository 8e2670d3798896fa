"""Every public Titania case played through the faction books (`forumwar adjudicate FILE --through-books`, issue
37): a game made from the situation on xlsx books, each order typed as rows in the words of the tabs' dropdowns,
`check`, then `turn`, and the answer read back from the game. It is the JSON `adjudicate` gives, whole (not only
the case's expected subset), and no row gets one verdict from `check` and another from the turn."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import find_ruleset
from engine.titania.adjudicate import adjudicate
from sheets_bridge.through_books import play
from tests.titania.compare import mismatches

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT.parent / "shared" / "conformance" / "titania"
CASES = sorted(PUBLIC.glob("t*.json")) if PUBLIC.is_dir() else []
FORUMWAR = Path(sys.executable).with_name("forumwar")
RS = find_ruleset("titania")

needs_public = pytest.mark.skipif(not CASES, reason="shared/conformance/titania is not beside the checkout")


@needs_public
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_public_case_through_the_books_answers_as_adjudicate(path: Path, tmp_path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    direct = adjudicate(case)
    assert direct.output is not None
    played = play(RS, case, 0, folder=tmp_path)
    assert played.problems == () and played.mismatches == ()
    assert played.output is not None
    assert mismatches(case["expect"], played.output) == []
    assert json.loads(json.dumps(played.output)) == json.loads(json.dumps(direct.output))


@needs_public
@pytest.mark.skipif(os.environ.get("FORUMWAR_FULL_TESTS") != "1",
                    reason="make test-full: the cases one by one above give the same answers in CI in half the time")
def test_check_titania_script_agrees_through_the_books() -> None:
    """The runner of the conformance cases, with `--extra=--through-books`, as the README runs it (each case is
    compared whole above, in every run; the runner itself through the CLI, without the flag, in
    test_conformance_public)."""
    proc = subprocess.run([sys.executable, str(PUBLIC / "check_titania.py"), str(PUBLIC), str(FORUMWAR),
                           "--extra=--through-books"], capture_output=True, text=True, timeout=600)
    last = proc.stdout.strip().splitlines()[-1]
    assert last == f"titania cases agreeing: {len(CASES)}/{len(CASES)}", proc.stdout


def test_an_order_without_a_row_is_an_error_not_a_skip(tmp_path: Path) -> None:
    """«An order of the situation that has no row form is an error of this command, not a skip.» An order of a
    faction that is not in the file has none. (A Keeper has no book either: the game plays the Keepers' orders the
    file gives for its turn, as the GM's.)"""
    case = {"schema": "titania.adjudicate.v2",
            "map": {"provinces": [{"id": "a", "name": "Ана"}, {"id": "k", "name": "Кора"}], "adjacency": [["a", "k"]]},
            "factions": [{"id": "red", "race": "orcs"}, {"id": "k1", "race": "dwarfs", "kind": "keeper"}],
            "state": {"owners": {"a": "red", "k": "k1"},
                      "armies": [{"faction": "red", "province": "a", "strength": 2},
                                 {"faction": "k1", "province": "k", "strength": 3}]},
            "orders": [{"faction": "k1", "army": "k", "type": "move", "target": "a", "seq": 1},
                       {"faction": "blue", "army": "a", "type": "hold"}]}
    played = play(RS, case, 0, folder=tmp_path)
    assert played.output is None
    assert [p.split(":")[0] for p in played.problems] == ["orders[1]"]
    assert "у этого приказа нет строки во вкладке «Поход»" in played.problems[0]


def test_the_keepers_orders_of_the_file_are_played_for_its_turn(tmp_path: Path) -> None:
    """The Keepers have no book: the orders the file gives them hold for its turn (instead of the standing orders
    the game gives them), so the answer is adjudicate's. Here the Keeper attacks the Red army, which it would not
    do by the game's own rule (10.4.4: Keepers only recapture their own provinces)."""
    case = {"schema": "titania.adjudicate.v2",
            "map": {"provinces": [{"id": "a", "name": "Ана"}, {"id": "k", "name": "Кора"}], "adjacency": [["a", "k"]]},
            "factions": [{"id": "red", "race": "orcs"}, {"id": "k1", "race": "dwarfs", "kind": "keeper"}],
            "state": {"owners": {"a": "red", "k": "k1"},
                      "armies": [{"faction": "red", "province": "a", "strength": 2},
                                 {"faction": "k1", "province": "k", "strength": 3}]},
            "orders": [{"faction": "k1", "army": "k", "type": "move", "target": "a", "seq": 1}]}
    played = play(RS, case, 0, folder=tmp_path)
    direct = adjudicate(case)
    assert played.output is not None and direct.output is not None
    assert json.loads(json.dumps(played.output)) == json.loads(json.dumps(direct.output))
    assert played.output["orders"][0]["reason"] == "won"



def test_malformed_and_refused_orders_answer_as_adjudicate(tmp_path: Path) -> None:
    """Orders the adjudicator voids as malformed or refused (a cast naming no spell, a hire of 0, a move to a
    province not next door, a technology of no content, an allocation over Might, a support for the natives)
    become rows `check` refuses, and the answer read back names the same reason codes."""
    case = {"schema": "titania.adjudicate.v2",
            "catalog": {"spells": {"hex": {"name": "Порча", "learn": {"mana": 1}, "cast": {"mana": 1},
                                           "target": "none", "effects": []}}},
            "map": {"provinces": [{"id": "a", "name": "Ана"}, {"id": "b", "name": "Бора"},
                                  {"id": "c", "name": "Вега"}],
                    "adjacency": [["a", "b"], ["b", "c"]]},
            "factions": [{"id": "red", "race": "orcs", "resources": {"gold": 5, "wood": 5, "mana": 3}},
                         {"id": "blue", "race": "dwarfs"}],
            "state": {"owners": {"a": "red", "c": "blue"}, "natives": {"b": 1},
                      "armies": [{"faction": "red", "province": "a", "strength": 2},
                                 {"faction": "blue", "province": "c", "strength": 1}],
                      "spells": {"red": ["hex"]}},
            "planning": {"production": False, "orders": [
                {"kind": "hire", "faction": "red", "province": "a", "strength": 0, "pay": "gold_wood"},
                {"kind": "research", "faction": "red", "technology": "steam"}]},
            "might_allocation": {"red": {"a": 2}},
            "orders": [{"faction": "red", "army": "a", "type": "move", "target": "c", "seq": 1},
                       {"faction": "blue", "army": "c", "type": "support", "target": "b",
                        "support_faction": "natives"}],
            "spells": {"red": [{"spell": 5}, {"spell": "hex"}]}}
    direct = adjudicate(case)
    played = play(RS, case, 0, folder=tmp_path)
    assert direct.output is not None and played.output is not None, played.problems
    assert json.loads(json.dumps(played.output)) == json.loads(json.dumps(direct.output))
    assert [o["reason"] for o in played.output["planning"]["orders"]] == ["bad_order", "unknown_item"]
    assert [o["reason"] for o in played.output["orders"]] == ["not_adjacent", "no_support_allowed"]
    assert [c["reason"] for c in played.output["spells"]["red"]] == ["bad_order", "cast"]
    assert played.output["might_allocation"]["red"]["reason"] == "over_cap"
