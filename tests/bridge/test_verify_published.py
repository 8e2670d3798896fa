"""Issue 20 item 3: `verify` checks the published record, not only the GM's files.

«`verify` reads every published commitment and chain head from the public book and compares each one.
A published stage missing from the files is a problem. Every chronicle post carries the chain head after
its stage … `forumwar verify DIR --head HEX` checks a head a player copied from a forum post and names the
first stage where the chain departs from it. Each problem is printed once.»"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.state import canonical_json
from sheets_bridge.cli import main
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.opening import archived_orders
from sheets_bridge.pull import parse_books
from sheets_bridge.stage import rollback, run_turn
from tests.games import new_game

HEAD = re.compile(r"\[code\](\d+:[^:\]]+:[0-9a-f]{64})\[/code\]")


def _play(gd: GameDir, turns: int) -> GameDir:
    for turn in range(turns):
        state = gd.latest_state()
        capital = next(c["name"] for c in state["cities"].values()
                       if c["owner"] == "empire" and c.get("capital"))
        fill_orders(gd.path / gd.config.books["empire"], "Экономика",
                    [("Построить", capital, "Барак", "") if turn == 0 else ("Нанять", "", "Копейщик", "3")])
        run_turn(gd)
    return gd


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> GameDir:
    """Three resolved turns of a Jade Rose game, played once; tests tamper with copies."""
    return _play(new_game(tmp_path_factory.mktemp("played") / "g", seed="verify-published"), 3)


def _copy(game: GameDir, tmp_path: Path) -> GameDir:
    shutil.copytree(game.path, tmp_path / "g")
    return GameDir(tmp_path / "g")


def _verify(gd: GameDir, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(gd.path), *args])
    return result.exit_code, result.output


def _fairness_sheet(gd: GameDir) -> tuple[openpyxl.Workbook, Path]:
    path = gd.path / gd.config.books["public"]
    return openpyxl.load_workbook(path), path


def _edit_public(gd: GameDir, turn: int, column: int, value: str) -> None:
    wb, path = _fairness_sheet(gd)
    ws = wb["Честность"]
    row = next(r for r in ws.iter_rows(min_row=2) if str(r[0].value) == str(turn))
    row[column].value = value
    wb.save(path)


def _posted_heads(gd: GameDir) -> dict[int, str]:
    """The chain head each turn's chronicle post published: what the forum keeps."""
    heads = {}
    for turn in range(1, gd.latest_state()["turn"]):
        text = (gd.archive_path(turn) / "post-orders-01-chronicle.bbcode").read_text(encoding="utf-8")
        heads[turn] = HEAD.findall(text)[0]
    return heads


def test_every_chronicle_post_carries_the_chain_head_after_its_stage(played, tmp_path):
    """«Every chronicle post carries the chain head after its stage.» The head in turn N's post is the
    recorded chain head after turn N's stage, as `ХОД:ЭТАП:ХЕШ` that `verify --head` takes."""
    gd = _copy(played, tmp_path)
    chain = gd.chain()
    posted = _posted_heads(gd)
    assert sorted(posted) == [1, 2, 3]
    for turn, label in posted.items():
        assert label == f"{turn}:приказы:{chain[f'turn-{turn:04d}-orders']}"
    code, out = _verify(gd, *posted.values())
    assert code == 2   # a positional extra is not a head...
    code, out = _verify(gd, *[a for label in posted.values() for a in ("--head", label)])
    assert code == 0, out   # ...given with --head each matches
    assert out.count("совпадает с цепочкой после хода") == 3


def test_an_edited_published_commitment_fails_naming_the_stage(played, tmp_path):
    """«Today `verify` passes when the published «SHA-256 от «зерно:соль»» column of «Честность» in the
    public book is edited.»"""
    gd = _copy(played, tmp_path)
    _edit_public(gd, 2, 2, "0" * 64)
    code, out = _verify(gd)
    assert code == 1
    assert "ход 2, этап «приказы»: хеш костей в общей книге не совпадает с хешем в файлах игры" in out
    assert "ход 1, этап «приказы»: всё сходится" in out and "ход 3, этап «приказы»: всё сходится" in out


def test_emptied_fairness_rows_fail_on_every_resolved_stage(played, tmp_path):
    """«… all rows of «Честность» are emptied.»"""
    gd = _copy(played, tmp_path)
    wb, path = _fairness_sheet(gd)
    ws = wb["Честность"]
    for row in ws.iter_rows(min_row=2):
        for cell in row:
            cell.value = None
    wb.save(path)
    code, out = _verify(gd)
    assert code == 1
    for turn in (1, 2, 3):
        assert f"ход {turn}, этап «приказы»: в общей книге («Честность») нет строки этого этапа" in out
    assert "ход 4, этап «приказы»: в общей книге нет хеша костей открытого этапа" in out


def test_a_history_cut_short_fails_when_the_public_book_still_shows_the_stage(played, tmp_path):
    """«… the history is cut (the last resolved stage removed from snapshots, seeds, chain and archive),
    although the public book still shows that stage's hash.» A published stage missing from the files
    is a problem."""
    gd = _copy(played, tmp_path)
    (gd.snapshot_path(4, "orders")).unlink()
    seeds_path = gd.state_dir / "seeds.json"
    seeds = json.loads(seeds_path.read_text(encoding="utf-8"))
    del seeds["turn-0004-orders"]
    seeds["turn-0003-orders"]["revealed"] = False
    seeds_path.write_text(json.dumps(seeds), encoding="utf-8")
    chain_path = gd.state_dir / "chain.json"
    chain = json.loads(chain_path.read_text(encoding="utf-8"))
    del chain["heads"]["turn-0003-orders"]
    chain_path.write_text(json.dumps(chain), encoding="utf-8")
    shutil.rmtree(gd.archive_path(3))
    code, out = _verify(gd)
    assert code == 1
    assert ("ход 3, этап «приказы»: в общей книге этап показан рассчитанным (раскрыто зерно или есть "
            "цепочка), а в файлах игры он не рассчитан: история обрезана") in out
    assert "ход 4, этап «приказы»: этап опубликован в общей книге, но его нет в файлах игры" in out


def _rewrite_turn(gd: GameDir, turn: int) -> None:
    """A consistent rewrite from `turn` on: the Empire's archived hire of 3 pikemen becomes 2 (turn 1:
    its opening state gets 1000 more gold), every later stage re-resolved from its archived orders and
    seed, the chain and the public book's heads redone."""
    rs = find_ruleset("jade_rose")
    layout = Layout.load("jade_rose")
    state = gd.read_snapshot(turn, "orders")
    if turn == 1:
        state["factions"]["empire"]["gold"] += 1000
    else:
        orders = gd.archive_path(turn) / "orders-orders-empire.json"
        tabs = json.loads(orders.read_text(encoding="utf-8"))
        tabs["Экономика"][1][3] = "2"
        orders.write_text(json.dumps(tabs, ensure_ascii=False), encoding="utf-8")
    last = gd.latest_state()["turn"]
    for t in range(turn, last):
        gd.snapshot_path(t, "orders").write_text(canonical_json(state), encoding="utf-8")
        parsed, _ = parse_books(rs, layout, state, "orders", archived_orders(gd.archive_path(t), "orders"))
        state = rs.resolve(state, "orders", parsed, gd.stage_seed(t, "orders").engine_seed).state
    gd.snapshot_path(last, "orders").write_text(canonical_json(state), encoding="utf-8")
    from sheets_bridge import fairness, opening
    keys = opening.snapshot_keys(gd)
    head = fairness.GENESIS
    heads = {}
    for before, after in zip(keys, keys[1:], strict=False):
        head = opening.chain_link(gd, opening.parse_stem(before), after, head)
        heads[before] = head
    chain_path = gd.state_dir / "chain.json"
    chain_path.write_text(json.dumps({"heads": heads, "retired": {}}), encoding="utf-8")
    wb, path = _fairness_sheet(gd)
    for row in wb["Честность"].iter_rows(min_row=2):
        key = f"turn-{int(row[0].value):04d}-orders" if str(row[0].value).isdigit() else None
        if key in heads:
            row[5].value = heads[key]
    wb.save(path)


def test_a_consistent_rewrite_of_files_and_public_book_is_caught_by_a_head_from_the_forum(played, tmp_path):
    """«… the files and the public book are rewritten consistently.» Files and book then agree, but the
    heads the forum posts published do not: with the heads of all posts, verify names the first stage
    that departs."""
    gd = _copy(played, tmp_path)
    posted = _posted_heads(gd)
    _rewrite_turn(gd, 2)
    code, out = _verify(gd)
    assert code == 0, out            # the GM's own records are consistent...
    code, out = _verify(gd, "--head", posted[3])
    assert code == 1                 # ...a single head from the forum shows the rewrite, within a range
    assert "история игры расходится с цепочкой из поста на одном из этапов с хода 1, этапа «приказы» " \
           "до хода 3, этапа «приказы» включительно" in out
    code, out = _verify(gd, *[a for t in (1, 2, 3) for a in ("--head", posted[t])])
    assert code == 1
    assert "совпадает с цепочкой после хода 1, этапа «приказы»" in out
    assert "история игры расходится с цепочкой из поста начиная с хода 2, этапа «приказы»" in out


def test_a_bare_head_not_in_the_history_is_reported_once(played, tmp_path):
    gd = _copy(played, tmp_path)
    posted = _posted_heads(gd)
    _rewrite_turn(gd, 1)
    bare = posted[2].rsplit(":", 1)[1]
    code, out = _verify(gd, "--head", bare, "--head", "не хеш")
    assert code == 1
    assert out.count("такой цепочки нет в истории игры ни после одного этапа") == 1
    assert "«не хеш» — не хеш цепочки" in out


def test_a_head_of_a_rolled_back_history_names_the_rollback_and_its_first_stage(played, tmp_path):
    gd = _copy(played, tmp_path)
    posted = _posted_heads(gd)
    rollback(gd, 2, "orders", reopen=True)
    code, out = _verify(gd, "--head", posted[3], "--head", posted[1])
    assert code == 1
    assert ("из истории, отменённой откатом № 1; нынешняя история расходится с ней начиная с хода 2, "
            "этапа «приказы»") in out
    assert "совпадает с цепочкой после хода 1, этапа «приказы»" in out


def test_a_deleted_seed_is_printed_once(played, tmp_path):
    """«Each problem is printed once: a deleted seed is printed twice today.»"""
    gd = _copy(played, tmp_path)
    seeds_path = gd.state_dir / "seeds.json"
    seeds = json.loads(seeds_path.read_text(encoding="utf-8"))
    del seeds["turn-0002-orders"]
    seeds_path.write_text(json.dumps(seeds), encoding="utf-8")
    code, out = _verify(gd)
    assert code == 1
    lines = [line for line in out.splitlines() if line.startswith("ОШИБКА")]
    assert len(lines) == len(set(lines))
    assert sum("нет зерна случайности для хода 2" in line for line in lines) == 1


@pytest.fixture(scope="module")
def public_bytes(played: GameDir) -> tuple[Path, bytes, list[tuple[int, int, str]]]:
    """The public book's bytes and every published cell of the resolved stages' rows."""
    wb, path = _fairness_sheet(played)
    cells = [(r[0].row, col, str(r[col].value)) for r in wb["Честность"].iter_rows(min_row=2)
             if str(r[0].value).isdigit() and int(r[0].value) <= 3 for col in (2, 3, 4, 5)]
    return path, path.read_bytes(), cells


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_edit_of_a_published_commitment_seed_salt_or_head_fails_verify(played, public_bytes, data):
    """Property: whichever published cell of a resolved stage (hash, seed, salt, chain head) is changed,
    or emptied, `verify` fails and names that stage."""
    path, original, cells = public_bytes
    row, col, value = data.draw(st.sampled_from(cells))
    new = data.draw(st.sampled_from(["", "после этапа", "0" * 64, value[::-1], value.upper() + "1"]))
    if new == value:
        return
    wb = openpyxl.load_workbook(path)
    ws = wb["Честность"]
    turn = ws.cell(row=row, column=1).value
    ws.cell(row=row, column=col + 1).value = new or None
    try:
        wb.save(path)
        code, out = _verify(played)
    finally:
        path.write_bytes(original)
    assert code == 1, (row, col, new)
    assert f"ОШИБКА: ход {turn}, этап «приказы»" in out
