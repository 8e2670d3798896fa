"""Issue 8 item 1: `rollback` then `turn` gives the first result again, with every book re-pushed,
the players' orders restored, the earlier archive kept, under the game lock and in the journal."""
from __future__ import annotations

import hashlib
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.cli import main
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir, GameLocked
from sheets_bridge.stage import replay, rollback, run_turn
from sheets_bridge.verify import verify
from tests.games import new_game

ORDERS = [
    ("Построить", "{capital}", "Барак", ""),
    ("Нанять", "", "Копейщик", "4"),
    ("Построить", "{capital}", "Часовня", ""),
    ("Нанять", "", "Лучник", "2"),
    ("Нанять", "", "Копейщик", "пять"),          # rejected: garbage count
    ("Построить", "Атлантида", "Часовня", ""),  # rejected: unknown city
]


def _game(tmp_path: Path, seed: str | None = "rollback-seed") -> GameDir:
    gd = new_game(tmp_path / "g", seed=seed)
    state = gd.latest_state()
    capital = next(c["name"] for c in state["cities"].values()
                   if c["owner"] == "empire" and c.get("capital"))
    fill_orders(gd.path / gd.config.books["empire"], "Экономика",
                [tuple(v.format(capital=capital) for v in row) for row in ORDERS])
    return gd


def _economy_tab(gd: GameDir) -> list[list[str]]:
    return XlsxBackend(gd.path).read_tabs(gd.config.books["empire"], ["Экономика"])["Экономика"]


def _summary_gold(gd: GameDir) -> str:
    ws = openpyxl.load_workbook(gd.path / gd.config.books["empire"])["Сводка"]
    return " ".join(str(c.value) for row in ws.iter_rows() for c in row if c.value is not None)


def _tree(path: Path) -> dict[str, str]:
    return {str(p.relative_to(path)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file() and p.name != ".lock"}


def test_rollback_then_turn_reproduces_the_stage_and_repushes_every_book(tmp_path):
    """«After `forumwar rollback GAME 1 orders` and `turn`, no book is pushed ... the order tabs that
    the first run cleared are not restored, so the re-run applies fewer orders.» Must: every book is
    re-pushed, the tabs are restored exactly as filled, and `turn` gives the same result."""
    gd = _game(tmp_path)
    as_filled = _economy_tab(gd)
    opening_gold = gd.latest_state()["factions"]["empire"]["gold"]
    first = run_turn(gd)
    first_snapshot = gd.snapshot_path(first.next_turn, first.next_stage).read_text(encoding="utf-8")
    first_outcomes = first.counts()["empire"]
    assert first_outcomes == (4, 2)
    assert _economy_tab(gd)[1:] == [] or not any(any(c.strip() for c in r) for r in _economy_tab(gd)[1:])

    report = rollback(gd, 1, "orders")
    assert report.kind == "rollback" and set(report.pushed) == set(gd.config.books)
    assert gd.latest_state()["factions"]["empire"]["gold"] == opening_gold
    assert str(opening_gold) in _summary_gold(gd)                  # the book shows the rolled-back state
    restored = _economy_tab(gd)
    assert [r[:4] for r in restored[1:len(as_filled)]] == [r[:4] for r in as_filled[1:]]
    assert any(e["event"] == "rolled_back" and e["to"] == [1, "orders"] for e in gd.journal())

    again = run_turn(gd)
    assert again.counts()["empire"] == first_outcomes              # 4 applied, 2 rejected, as the first time
    assert gd.snapshot_path(again.next_turn, again.next_stage).read_text(encoding="utf-8") == first_snapshot
    gold_now = gd.latest_state()["factions"]["empire"]["gold"]
    assert str(gold_now) in _summary_gold(gd)                      # books agree with `status`
    earlier = gd.archive_path(1) / "rolled-back-1"
    assert (earlier / "orders-orders-empire.json").exists() and (earlier / "statuses-orders.json").exists()
    assert (gd.archive_path(1) / "orders-orders-empire.json").exists()
    assert replay(gd, 1, "orders")[0]
    assert verify(gd, be=XlsxBackend(gd.path)).ok


def test_plain_rollback_keeps_the_restored_tabs_closed_and_the_seed(tmp_path):
    gd = _game(tmp_path, seed=None)
    seed = gd.stage_seed(1, "orders")
    run_turn(gd)
    rollback(gd, 1, "orders")
    assert gd.stage_seed(1, "orders").seed == seed.seed
    ws = openpyxl.load_workbook(gd.path / gd.config.books["empire"])["Экономика"]
    assert ws.protection.sheet and all(ws.cell(r, 1).protection.locked for r in range(2, 8))


def test_rollback_with_reopen_opens_the_tabs_and_draws_a_fresh_published_seed(tmp_path):
    """«The GM may instead re-open the stage so players can edit before it is resolved again.» The old
    seed is public by then, so the re-opened stage gets a new one, committed before orders are read."""
    gd = _game(tmp_path, seed=None)
    old = gd.stage_seed(1, "orders")
    run_turn(gd)
    rollback(gd, 1, "orders", reopen=True)
    new = gd.stage_seed(1, "orders")
    assert new.seed != old.seed and not new.revealed
    public = openpyxl.load_workbook(gd.path / gd.config.books["public"])["Честность"]
    cells = [c.value for row in public.iter_rows() for c in row]
    assert new.commitment in cells and new.seed not in cells
    ws = openpyxl.load_workbook(gd.path / gd.config.books["empire"])["Экономика"]
    assert not ws.cell(2, 1).protection.locked                     # players may edit again
    assert ws.cell(2, 3).value == "Барак"                          # their orders are back
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", [("Нанять", "", "Копейщик", "1")])
    run_turn(gd)
    assert verify(gd, be=XlsxBackend(gd.path)).ok


def test_rollback_takes_the_game_lock(tmp_path):
    """«`rollback` takes no lock, and run during a `turn` ... left the state at «orders» while the books
    showed «planning».» Must: it takes the game lock."""
    gd = _game(tmp_path)
    run_turn(gd)
    before = _tree(gd.path)
    with GameDir(gd.path).lock():
        with pytest.raises(GameLocked):
            rollback(gd, 1, "orders")
    assert _tree(gd.path) == before


def test_rollback_asks_for_confirmation_and_yes_skips_it(tmp_path):
    gd = _game(tmp_path)
    run_turn(gd)
    before = _tree(gd.path)
    refused = CliRunner().invoke(main, ["rollback", str(gd.path), "1", "orders"], input="может быть\nнет\n")
    assert refused.exit_code == 1 and "Откатить игру" in refused.output and "[да/нет]" in refused.output
    assert "Ответьте «да» или «нет»." in refused.output and "Отменено: игра не изменена." in refused.output
    assert _tree(gd.path) == before
    done = CliRunner().invoke(main, ["rollback", str(gd.path), "1", "orders", "--yes"])
    assert done.exit_code == 0, done.output
    assert "Игра откачена к ходу 1" in done.output
    assert GameDir(gd.path).latest_state()["turn"] == 1


def test_an_interrupted_rollback_is_finished_by_the_next_turn(tmp_path, monkeypatch):
    gd = _game(tmp_path)
    first = run_turn(gd)
    first_snapshot = gd.snapshot_path(first.next_turn, first.next_stage).read_text(encoding="utf-8")
    real = XlsxBackend.write_book
    calls = {"n": 0}

    def flaky(self, book_id, tabs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError("disk went away")
        return real(self, book_id, tabs)

    monkeypatch.setattr(XlsxBackend, "write_book", flaky)
    with pytest.raises(OSError):
        rollback(gd, 1, "orders")
    monkeypatch.setattr(XlsxBackend, "write_book", real)
    finished = run_turn(gd)                                         # finishes the rollback's push only
    assert finished.kind == "rollback" and gd.latest_state()["turn"] == 1
    again = run_turn(gd)
    assert gd.snapshot_path(again.next_turn, again.next_stage).read_text(encoding="utf-8") == first_snapshot


def test_replay_and_verify_take_the_lock_and_never_write(tmp_path, monkeypatch):
    """«`replay` and `verify` take the lock too and never write to the game.» Since issue 38 §4 they read without
    taking it, and while another command holds it they wait (here a second, not the product's half minute) and
    then refuse rather than read half a stage."""
    from sheets_bridge import gamedir
    monkeypatch.setattr(gamedir, "READ_WAIT", 1.0)
    gd = _game(tmp_path)
    run_turn(gd)
    before = _tree(gd.path)
    assert replay(gd, 1, "orders")[0]
    assert verify(gd, be=XlsxBackend(gd.path)).ok
    assert CliRunner().invoke(main, ["verify", str(gd.path)]).exit_code == 0
    assert _tree(gd.path) == before
    with GameDir(gd.path).lock():
        with pytest.raises(GameLocked):
            replay(gd, 1, "orders")
        with pytest.raises(GameLocked):
            verify(gd)
