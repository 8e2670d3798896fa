"""The repository's own DATC-style Titania cases (tests/titania/cases: races, Keepers, quests, spells, events,
caravans, natives) played through the faction books give the whole answer `adjudicate` gives. Each case makes a game
and plays a turn on xlsx books (about a second), so the default run plays every sixth case, a spread over the
cases' subjects; `make test-full` (FORUMWAR_FULL_TESTS=1) plays them all."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine import find_ruleset
from engine.titania.adjudicate import adjudicate
from sheets_bridge.through_books import play

ROOT = Path(__file__).resolve().parents[2]
ALL = sorted((ROOT / "tests" / "titania" / "cases").glob("*.json"))
CASES = ALL if os.environ.get("FORUMWAR_FULL_TESTS") == "1" else ALL[::6]
RS = find_ruleset("titania")


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_repository_case_through_the_books_answers_as_adjudicate(path: Path, tmp_path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    direct = adjudicate(case)
    assert direct.output is not None
    played = play(RS, case, 0, folder=tmp_path)
    assert played.problems == () and played.mismatches == ()
    assert json.loads(json.dumps(played.output)) == json.loads(json.dumps(direct.output))


def test_the_sample_spreads_over_the_subjects() -> None:
    """The default run's sample is not one subject's: it takes cases of at least ten subjects (the name's first
    word: keepers, spell, quest, tech, event, a race …)."""
    assert len(ALL) >= 100 and len({p.stem.split("_")[0] for p in ALL[::6]}) >= 10
