"""End-to-end: a Jade Rose game on local xlsx books, driven like a GM and players would."""
import json
from pathlib import Path

import openpyxl
import pandas as pd
import pytest
from click.testing import CliRunner

from sheets_bridge.cli import main
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check, run_turn
from tests.games import new_game


def _new(tmp_path: Path, name="g", seed="test-seed") -> GameDir:
    return new_game(tmp_path / name, seed=seed)


def _capital(state, fid):
    return next(c["name"] for c in state["cities"].values() if c["owner"] == fid and c.get("capital"))


def _small(state, fid):
    return sorted(c["name"] for c in state["cities"].values() if c["owner"] == fid and not c.get("large"))


def _statuses(gd: GameDir, fid: str) -> dict[int, str]:
    wb = openpyxl.load_workbook(gd.path / gd.config.books[fid])
    ws = wb["Экономика"]
    header = [c.value for c in ws[1]]
    col = header.index("Статус")
    return {row[0].row: row[col].value for row in ws.iter_rows(min_row=2) if row[col].value}


EMPIRE_ORDERS = [
    ("Построить", "{capital}", "Барак", ""),           # 2: OK
    ("Нанять", "", "Копейщик", "4"),                  # 3: OK (barrack built first)
    ("Построить", "{capital}", "Мельница", ""),        # 4: unknown building
    ("Построить", "{small}", "Зал паладинов", ""),     # 5: tier 3 in a level-1 city
    ("Построить", "Атлантида", "Часовня", ""),         # 6: unknown city
    ("Нанять", "", "Копейщик", "пять"),               # 7: garbage in a number column
    ("Нанять", "", "Копейщик", "100000"),             # 8: not enough gold
]


def _fill_empire(gd):
    state = gd.latest_state()
    names = {"capital": _capital(state, "empire"), "small": _small(state, "empire")[0]}
    rows = [tuple(v.format(**names) for v in r) for r in EMPIRE_ORDERS]
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", rows)


def test_new_game_books_open_in_openpyxl_and_pandas(tmp_path):
    gd = _new(tmp_path)
    assert set(gd.config.books) == {"empire", "vampires", "dwarves", "jade", "public", "gm"}
    for key, book in gd.config.books.items():
        path = gd.path / book
        sheets = pd.read_excel(path, sheet_name=None)
        assert sheets, key
        wb = openpyxl.load_workbook(path)
        if key == "empire":
            assert {"Сводка", "Экономика", "Города", "Войска"} <= set(wb.sheetnames)
            assert wb["Экономика"].freeze_panes == "A2"
            assert wb["Экономика"].data_validations.dataValidation, "order tab has dropdowns"
            assert wb["Сводка"].protection.sheet, "status tab is protected"
    public = openpyxl.load_workbook(gd.path / gd.config.books["public"])
    assert "Карта" in public.sheetnames and "Честность" in public.sheetnames


def test_wrong_rows_get_russian_messages_and_other_orders_apply(tmp_path):
    """A wrong row gets a message naming what is wrong and what is allowed; the rest applies."""
    gd = _new(tmp_path)
    before = gd.latest_state()
    _fill_empire(gd)
    check(gd)
    status = _statuses(gd, "empire")
    assert status[2].startswith("OK") and status[3].startswith("OK")
    assert "Мельница" in status[4] and "Барак" in status[4]              # names the allowed buildings
    assert "уров" in status[5]                                         # tier vs city level
    assert "Атлантида" in status[6] and _capital(before, "empire") in status[6]
    assert "пять" in status[7] and "числ" in status[7]
    assert "золот" in status[8].lower()
    report = run_turn(gd)
    after = gd.latest_state()
    assert after["turn"] == before["turn"] + 1
    assert report.counts()["empire"] == (2, 5)
    capital = next(c for c in after["cities"].values() if c["name"] == _capital(before, "empire"))
    assert "empire_barrack" in capital["buildings"]
    assert after["factions"]["empire"]["units"].get("empire_spearman", 0) >= 4
    # the order tab is cleared for the next turn and the outcome is logged
    assert _statuses(gd, "empire") == {}
    wb = openpyxl.load_workbook(gd.path / gd.config.books["empire"])
    log = [[c.value for c in r] for r in wb["Итоги приказов"].iter_rows(min_row=2)]
    assert any("Мельница" in str(r[-1]) for r in log)


def test_same_game_seed_and_orders_give_identical_snapshots(tmp_path):
    dirs = []
    for name in ("a", "b"):
        gd = _new(tmp_path, name=name, seed="same")
        _fill_empire(gd)
        run_turn(gd)
        run_turn(gd)
        dirs.append(gd)
    snaps_a = sorted((dirs[0].path / "state").glob("turn-*.json"))
    snaps_b = sorted((dirs[1].path / "state").glob("turn-*.json"))
    assert [p.name for p in snaps_a] == [p.name for p in snaps_b] and len(snaps_a) == 3
    for pa, pb in zip(snaps_a, snaps_b, strict=True):
        assert pa.read_bytes() == pb.read_bytes()


def test_interrupted_push_resumes_without_resolving_twice(tmp_path, monkeypatch):
    from sheets_bridge.backends.xlsx.backend import XlsxBackend
    gd = _new(tmp_path)
    _fill_empire(gd)
    real = XlsxBackend.write_book
    calls = {"n": 0}

    def flaky(self, book_id, tabs):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError("disk went away")
        return real(self, book_id, tabs)

    monkeypatch.setattr(XlsxBackend, "write_book", flaky)
    with pytest.raises(OSError):
        run_turn(gd)
    monkeypatch.setattr(XlsxBackend, "write_book", real)
    gold_after_crash = gd.latest_state()["factions"]["empire"]["gold"]
    report = run_turn(gd)
    assert report.resumed and report.turn == 1
    state = gd.latest_state()
    assert state["turn"] == 2 and state["factions"]["empire"]["gold"] == gold_after_crash
    assert len(list((gd.path / "state").glob("turn-*.json"))) == 2


def test_formula_in_an_order_cell_is_rejected_not_evaluated(tmp_path):
    gd = _new(tmp_path)
    fill_orders(gd.path / gd.config.books["dwarves"], "Экономика", [("Нанять", "", "=1+1", "3")])
    check(gd)
    status = _statuses(gd, "dwarves")
    assert "Формул" in status[2]


def test_cli_new_status_and_dump(tmp_path):
    runner = CliRunner()
    game = tmp_path / "cli"
    res = runner.invoke(main, ["new", str(game), "--ruleset", "jade_rose", "--scenario", "demo", "--seed", "s"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["status", str(game), "--json"])
    assert res.exit_code == 0, res.output
    info = json.loads(res.output)
    assert info["turn"] == 1 and info["stage"] == "orders"
    assert set(info["factions"]) == {"empire", "vampires", "dwarves", "jade"}
    res = runner.invoke(main, ["turn", str(game), "--yes"])
    assert res.exit_code == 0, res.output
    assert json.loads(runner.invoke(main, ["status", str(game), "--json"]).output)["turn"] == 2
    res = runner.invoke(main, ["ruleset", "dump", "jade_rose", "--json"])
    data = json.loads(res.output)
    assert len(data["units"]) == 44 and len(data["buildings"]) == 47
    assert sum(len(levels) for levels in data["garrisons"].values()) == 12
    res = runner.invoke(main, ["status", str(tmp_path / "nowhere")])
    assert res.exit_code == 2
    res = runner.invoke(main, ["new", str(tmp_path / "x"), "--ruleset", "chess"])
    assert res.exit_code == 2


def test_replay_reproduces_a_stage_and_detects_tampering(tmp_path):
    from sheets_bridge.stage import replay
    gd = _new(tmp_path)
    _fill_empire(gd)
    run_turn(gd)
    same, message = replay(gd, 1, "orders")
    assert same, message
    orders = gd.archive_dir(1) / "orders-orders-empire.json"
    orders.write_text(orders.read_text(encoding="utf-8").replace('"4"', '"3"'), encoding="utf-8")
    same, message = replay(gd, 1, "orders")
    assert not same and "ОТЛИЧАЕТСЯ" in message


def test_fairness_tab_publishes_commitment_then_seed_and_salt(tmp_path):
    gd = _new(tmp_path)
    first = gd.stage_seed(1, "orders")
    public = openpyxl.load_workbook(gd.path / gd.config.books["public"])
    rows = [[c.value for c in r] for r in public["Честность"].iter_rows(min_row=2)]
    assert rows[0][2] == first.commitment and first.seed not in str(rows) and first.salt not in str(rows)
    report = run_turn(gd)
    public = openpyxl.load_workbook(gd.path / gd.config.books["public"])
    rows = [[c.value for c in r] for r in public["Честность"].iter_rows(min_row=2)]
    assert (rows[0][3], rows[0][4]) == (first.seed, first.salt)
    assert rows[0][5] == gd.chain()["turn-0001-orders"]
    following = gd.stage_seed(report.next_turn, report.next_stage)
    assert rows[1][3] == "после этапа" and rows[1][2] == following.commitment


def test_export_writes_every_book(tmp_path):
    gd = _new(tmp_path)
    res = CliRunner().invoke(main, ["export", str(gd.path), "--to", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in (tmp_path / "out").glob("*.xlsx")) == sorted(f"{k}.xlsx" for k in gd.config.books)


def test_gm_adjustment_is_an_order_logged_in_the_ledger(tmp_path):
    """GM corrections are orders in the GM book's adjustments tab, so every change is logged and replays."""
    from sheets_bridge.stage import replay
    plain = _new(tmp_path, name="plain", seed="adj")
    run_turn(plain)
    gd = _new(tmp_path, name="adjusted", seed="adj")
    fill_orders(gd.path / gd.config.books["gm"], "Корректировки",
                [("Империя", "Золото", "500", "Компенсация за сбой таблицы"),
                 ("Империя", "Рабы", "10", "ошибка"),             # the Empire has no slaves
                 ("Орки", "Золото", "5", "нет такой фракции")])
    report = check(gd)
    assert report.counts()["gm"] == (1, 2)
    run_turn(gd)
    assert (gd.latest_state()["factions"]["empire"]["gold"]
            == plain.latest_state()["factions"]["empire"]["gold"] + 500)
    ledger = gd.latest_state()["ledger"]
    assert any(entry["amount"] == 500 and "Компенсация" in entry["reason"] for entry in ledger)
    assert replay(gd, 1, "orders")[0]


def test_rollback_then_turn_again_gives_the_same_stage(tmp_path):
    """`forumwar rollback DIR 1 orders --yes` returns to turn 1 with the players' orders restored;
    `turn` resolves them again with the stored seed into the same snapshot, nothing retyped."""
    gd = _new(tmp_path)
    _fill_empire(gd)
    run_turn(gd)
    first = (gd.path / "state" / "turn-0002-orders.json").read_bytes()
    res = CliRunner().invoke(main, ["rollback", str(gd.path), "1", "orders", "--yes"])
    assert res.exit_code == 0, res.output
    assert gd.latest_state()["turn"] == 1
    run_turn(gd)
    assert (gd.path / "state" / "turn-0002-orders.json").read_bytes() == first