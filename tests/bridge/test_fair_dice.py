"""Issue 8 item 3: fair dice. Secret 256-bit seeds with a salted commitment, a hash chain over the
archive published every stage, and `forumwar verify`, which names the stage of any tampering."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir, MissingSeed
from sheets_bridge.stage import run_turn
from sheets_bridge.verify import verify
from tests.games import new_game


def _played(tmp_path: Path, seed: str | None = None, turns: int = 2) -> GameDir:
    gd = (new_game(tmp_path / "g", seed=seed) if seed is not None
          else create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx"))
    for turn in range(turns):
        state = gd.latest_state()
        capital = next(c["name"] for c in state["cities"].values()
                       if c["owner"] == "empire" and c.get("capital"))
        fill_orders(gd.path / gd.config.books["empire"], "Экономика",
                    [("Построить", capital, "Барак", "") if turn == 0 else ("Нанять", "", "Копейщик", "3")])
        run_turn(gd)
    return gd


@pytest.fixture(scope="module")
def honest(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """A fair game of two turns, played once for the module; tests tamper with copies of it."""
    return _played(tmp_path_factory.mktemp("honest"))


def _copy(game: GameDir, tmp_path: Path) -> GameDir:
    shutil.copytree(game.path, tmp_path / "g")
    return GameDir(tmp_path / "g")


def _verify(gd: GameDir) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(gd.path)])
    return result.exit_code, result.output


def _public_cells(gd: GameDir) -> list[str]:
    ws = openpyxl.load_workbook(gd.path / gd.config.books["public"])["Честность"]
    return [str(c.value) for row in ws.iter_rows() for c in row if c.value is not None]


def test_a_guessable_seed_is_not_what_the_dice_come_from(tmp_path):
    """«A stage seed derived from a guessable `--seed` is recovered by any player from its published
    SHA-256 in seconds.» Without --seed the seed is 256 secret bits, and the commitment also covers a
    secret salt: guessing the seed alone cannot reproduce it."""
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx")
    record = gd.stage_seed(1, "orders")
    assert len(record.seed) == 64 and int(record.seed, 16).bit_length() > 200
    assert record.commitment == hashlib.sha256(f"{record.seed}:{record.salt}".encode()).hexdigest()
    assert record.commitment != hashlib.sha256(record.seed.encode()).hexdigest()
    assert record.commitment in _public_cells(gd)
    assert record.seed not in " ".join(_public_cells(gd)) and record.salt not in " ".join(_public_cells(gd))


def test_a_seeded_game_says_it_is_not_fair_in_the_public_book_and_in_status(tmp_path):
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx", seed="424242")
    assert any("не для честной игры" in c for c in _public_cells(gd))
    out = CliRunner().invoke(main, ["status", str(gd.path)]).output
    assert "не для честной игры" in out
    assert json.loads(CliRunner().invoke(main, ["status", str(gd.path), "--json"]).output)["fair_dice"] is False
    fair = create_game(tmp_path / "fair", "jade_rose", "demo", backend="xlsx")
    assert not any("не для честной игры" in c for c in _public_cells(fair))


def test_the_public_book_tells_players_in_two_russian_lines_how_to_check_the_dice(tmp_path):
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx")
    cells = _public_cells(gd)
    assert any("SHA-256 от строки «зерно:соль»" in c for c in cells)
    assert any("forumwar verify" in c for c in cells)


def test_the_chain_head_is_published_every_stage(honest, tmp_path):
    gd = _copy(honest, tmp_path)
    heads = gd.chain()
    assert len(heads) == 2 and all(len(h) == 64 for h in heads.values())
    cells = _public_cells(gd)
    assert all(head in cells for head in heads.values())


def test_verify_passes_on_an_honest_game(honest, tmp_path):
    gd = _copy(honest, tmp_path)
    code, out = _verify(gd)
    assert code == 0, out
    assert "ход 1, этап «приказы»: всё сходится" in out and "Проверено этапов: 2" in out


def _seeds(gd: GameDir) -> tuple[Path, dict]:
    path = gd.state_dir / "seeds.json"
    return path, json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("field", ["seed", "salt"])
def test_verify_fails_naming_the_stage_on_an_edited_seed_or_salt(honest, tmp_path, field):
    gd = _copy(honest, tmp_path)
    path, seeds = _seeds(gd)
    value = seeds["turn-0002-orders"][field]
    seeds["turn-0002-orders"][field] = ("0" if value[0] != "0" else "1") + value[1:]
    path.write_text(json.dumps(seeds), encoding="utf-8")
    code, out = _verify(gd)
    assert code == 1
    assert "ход 2, этап «приказы»: опубликованный хеш не совпадает с раскрытыми зерном и солью" in out
    assert "ход 1, этап «приказы»: всё сходится" in out


def test_verify_fails_naming_the_stage_on_an_edited_archived_order_file(honest, tmp_path):
    gd = _copy(honest, tmp_path)
    orders = gd.archive_path(2) / "orders-orders-empire.json"
    orders.write_text(orders.read_text(encoding="utf-8").replace('"3"', '"2"'), encoding="utf-8")
    code, out = _verify(gd)
    assert code == 1
    assert "ход 2, этап «приказы»: пересчёт из архива" in out
    assert "ход 2, этап «приказы»: цепочка хешей" in out


def test_verify_fails_on_a_consistent_rewrite_of_a_snapshot_together_with_its_result(tmp_path):
    """«A hash chain over each stage's archive ... makes a consistent rewrite of history detectable.»
    The opening snapshot gets 1000 more gold for the Empire and its stage is re-resolved into a matching
    result: the re-run agrees, the chain does not."""
    from engine import find_ruleset
    from engine.state import canonical_json
    from sheets_bridge.layouts import Layout
    from sheets_bridge.opening import archived_orders
    from sheets_bridge.pull import parse_books

    gd = _played(tmp_path, turns=1)
    before = gd.read_snapshot(1, "orders")
    before["factions"]["empire"]["gold"] += 1000
    rs = find_ruleset("jade_rose")
    parsed, _ = parse_books(rs, Layout.load("jade_rose"), before, "orders",
                            archived_orders(gd.archive_path(1), "orders"))
    after = rs.resolve(before, "orders", parsed, gd.stage_seed(1, "orders").engine_seed).state
    gd.snapshot_path(1, "orders").write_text(canonical_json(before), encoding="utf-8")
    gd.snapshot_path(after["turn"], after["stage"]).write_text(canonical_json(after), encoding="utf-8")
    code, out = _verify(gd)
    assert code == 1
    assert "пересчёт из архива" not in out                          # the rewrite is consistent...
    assert "ход 1, этап «приказы»: цепочка хешей, пересчитанная из архива, не совпадает с записанной" in out
    (gd.state_dir / "chain.json").unlink()                          # ...and hiding the record does not help:
    code, out = _verify(gd)
    assert code == 1 and "не совпадает с опубликованной в общей книге" in out


def test_verify_on_one_turn_checks_only_its_stages(honest, tmp_path):
    gd = _copy(honest, tmp_path)
    result = verify(gd, turn=2, be=XlsxBackend(gd.path))
    assert result.ok and result.checked == ["ход 2, этап «приказы»: всё сходится"]


def test_a_missing_seed_stops_turn_instead_of_drawing_a_new_one(tmp_path):
    """«A missing seed for an open stage stops `turn` with a clear message (today it silently draws a
    new one and the published commitment changes).»"""
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="xlsx")
    published = gd.stage_seed(1, "orders").commitment
    (gd.state_dir / "seeds.json").write_text("{}", encoding="utf-8")
    with pytest.raises(MissingSeed):
        run_turn(gd)
    result = CliRunner().invoke(main, ["turn", str(gd.path)])
    assert result.exit_code == 1 and "нет зерна случайности для хода 1" in result.output
    assert gd.latest_state()["turn"] == 1 and published in _public_cells(gd)
