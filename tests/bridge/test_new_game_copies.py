"""The tests' new games are copies (tests/games.py): a copy must be the game `create_game` makes."""
from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

from sheets_bridge.create import create_game
from sheets_bridge.stage import run_turn
from tests.games import new_game

PASSWORD = re.compile(rb'(saltValue|hashValue)="[^"]*"')     # each game draws its sheets' password


def _content(game: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for p in sorted(game.rglob("*")):
        if not p.is_file() or p.name in ("xlsx-password.txt", ".lock"):
            continue
        rel = str(p.relative_to(game))
        if p.suffix == ".xlsx":
            with zipfile.ZipFile(p) as zf:
                out[rel] = {n: hashlib.sha256(PASSWORD.sub(b"", zf.read(n))).hexdigest()
                            for n in zf.namelist() if n != "docProps/core.xml"}
        elif p.suffix == ".jsonl":
            out[rel] = [{k: v for k, v in json.loads(line).items() if k != "at"} for line in p.read_text().splitlines()]
        else:
            out[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def test_a_copied_new_game_is_the_game_create_game_makes_and_plays_the_same(tmp_path):
    made = create_game(tmp_path / "made", "jade_rose", "demo", backend="xlsx", seed="copies")
    first = new_game(tmp_path / "first", seed="copies")
    second = new_game(tmp_path / "second", seed="copies")
    assert _content(made.path) == _content(first.path) == _content(second.path)
    assert len([k for k in _content(made.path) if k.endswith(".xlsx")]) == 6
    assert (first.path / "state" / "xlsx-password.txt").read_text() == \
        (second.path / "state" / "xlsx-password.txt").read_text()
    run_turn(made)
    run_turn(second)
    assert _content(made.path) == _content(second.path)
