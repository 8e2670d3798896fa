"""The public Titania cases (shared/conformance/titania) agree, in process and through the installed CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.titania.adjudicate import adjudicate
from tests.titania.compare import mismatches

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT.parent / "shared" / "conformance" / "titania"
CASES = sorted(PUBLIC.glob("t*.json")) if PUBLIC.is_dir() else []
FORUMWAR = Path(sys.executable).with_name("forumwar")


def _schema(path: Path) -> str:
    return str(json.loads(path.read_text(encoding="utf-8")).get("schema", ""))


needs_public = pytest.mark.skipif(not CASES, reason="shared/conformance/titania is not beside the checkout")


@needs_public
@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_public_case_agrees(path: Path) -> None:
    case = json.loads(path.read_text(encoding="utf-8"))
    result = adjudicate(case)
    assert result.output is not None, result.problems
    assert mismatches(case["expect"], result.output) == []


@needs_public
def test_check_titania_script_agrees_on_all_cases_through_the_cli() -> None:
    proc = subprocess.run([sys.executable, str(PUBLIC / "check_titania.py"), str(PUBLIC), str(FORUMWAR)],
                          capture_output=True, text=True, timeout=300)
    last = proc.stdout.strip().splitlines()[-1]
    assert last == f"titania cases agreeing: {len(CASES)}/{len(CASES)}", proc.stdout
    assert len(CASES) >= 21 and {_schema(p) for p in CASES} == {"titania.adjudicate.v1", "titania.adjudicate.v2"}
