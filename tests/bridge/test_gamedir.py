"""GameDir and GameConfig: configuration, snapshots, journal, lock, seeds, rollback."""
from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sheets_bridge.gamedir as gamedir_module
from engine.state import canonical_json
from sheets_bridge import fairness
from sheets_bridge.gamedir import (
    FactionConfig,
    GameConfig,
    GameConfigError,
    GameDir,
    GameDirError,
    GameLocked,
    MissingSeed,
    SnapshotConflict,
)

STAGES = ("orders", "planning")


def make_config(**overrides) -> GameConfig:
    spec = dict(ruleset="jade_rose", scenario="demo", backend="xlsx", seed="master-1",
                title="Нефритовая роза: демо",
                factions={"empire": FactionConfig("Империя", ["emperor@example.org"]),
                          "horde": FactionConfig("Орда", [])},
                gm_emails=["gm@example.org"],
                books={"empire": "books/empire.xlsx", "public": "books/public.xlsx"},
                deadlines={"orders": "2025-03-01T20:00", "planning": ""})
    spec.update(overrides)
    return GameConfig(**spec)


@pytest.fixture
def game(tmp_path) -> GameDir:
    return GameDir.create(tmp_path / "game", make_config(), stages=STAGES)


def state(turn: int, gold: int = 100) -> dict:
    return {"schema_version": 1, "turn": turn, "factions": {"empire": {"gold": gold}}}


# -- configuration --------------------------------------------------------------------------
def test_create_writes_a_config_that_reads_back(game):
    assert (game.path / "game.toml").is_file()
    assert (game.path / "state").is_dir() and (game.path / "archive").is_dir()
    assert GameDir(game.path).config == make_config()


def test_create_refuses_a_non_empty_directory(tmp_path):
    (tmp_path / "old").mkdir()
    (tmp_path / "old" / "game.toml").write_text("ruleset = 'x'\n")
    with pytest.raises(GameDirError, match="не пуста"):
        GameDir.create(tmp_path / "old", make_config())
    assert (tmp_path / "old" / "game.toml").read_text() == "ruleset = 'x'\n"
    GameDir.create(tmp_path / "empty-but-existing", make_config())


def test_save_config_after_editing_in_place(game):
    game.config.books["horde"] = "books/horde.xlsx"
    game.config.deadlines["orders"] = "2025-03-08T20:00+03:00"
    game.save_config()
    reread = GameDir(game.path).config
    assert reread.books["horde"] == "books/horde.xlsx"
    assert reread.deadlines["orders"] == "2025-03-08T20:00+03:00"


def test_malformed_game_toml_lists_every_problem_at_once(tmp_path):
    (tmp_path / "game.toml").write_text(textwrap.dedent("""\
        ruleset = ""
        backend = "dropbox"
        seed = 1.5
        timezone = "Mars/Olympus"
        gm_emails = ["not-an-email"]
        colour = "red"

        [factions.empire]
        name = "Империя"
        players = ["ok@example.org", 5]

        [factions.public]
        name = "Толпа"

        [books]
        atlantis = "books/atlantis.xlsx"

        [deadlines]
        orders = "в пятницу"
        """), encoding="utf-8")
    with pytest.raises(GameConfigError) as caught:
        _ = GameDir(tmp_path).config
    problems = caught.value.problems
    expected_fragments = ["неизвестный ключ «colour»", "«ruleset» должен быть непустой строкой",
                          "не указан ключ «scenario»", "«backend» должен быть одним из: xlsx, gsheets",
                          "«seed» должен быть строкой", "«timezone» должен быть часовым поясом IANA",
                          "gm_emails: 'not-an-email'", "factions.empire.players: 5",
                          "идентификатор фракции «public» занят", "books.atlantis",
                          "deadlines.orders = 'в пятницу'"]
    assert len(problems) == len(expected_fragments)
    for fragment, problem in zip(expected_fragments, problems, strict=True):
        assert fragment in problem
    message = str(caught.value)
    assert f"ошибок {len(expected_fragments)}" in message and str(tmp_path) in message


def test_toml_syntax_error_is_reported_with_its_position(tmp_path):
    (tmp_path / "game.toml").write_text('ruleset = "jade_rose"\nscenario = \n')
    with pytest.raises(GameConfigError, match=r"ошибка синтаксиса TOML в строке 2"):
        _ = GameDir(tmp_path).config


def test_missing_game_toml_says_how_to_create_one(tmp_path):
    with pytest.raises(GameDirError, match="forumwar new"):
        _ = GameDir(tmp_path).config


def test_integer_master_seed_is_accepted_as_text():
    config = GameConfig.from_toml('ruleset = "jade_rose"\nscenario = "demo"\nseed = 42\n')
    assert config.seed == "42" and config.timezone == "Europe/Moscow" and config.backend == "xlsx"


names = st.text(min_size=1, max_size=20).filter(lambda s: s.strip() and s not in ("public", "gm"))


@settings(max_examples=60, deadline=None)
@given(title=st.text(max_size=40), factions=st.dictionaries(names, names, max_size=4),
       seed=st.one_of(st.none(), st.text(max_size=20)))
def test_any_config_survives_a_toml_round_trip(title, factions, seed):
    """Invariant: to_toml/from_toml is lossless for any text the GM can type."""
    config = make_config(title=title, seed=seed, books={}, deadlines={},
                         factions={fid: FactionConfig(name, ["p@example.org"])
                                   for fid, name in factions.items()})
    assert GameConfig.from_toml(config.to_toml()) == config


# -- snapshots ------------------------------------------------------------------------------
def test_snapshot_is_canonical_json_and_reads_back(game):
    path = game.write_snapshot(state(1), 1, "orders")
    assert path == game.path / "state" / "turn-0001-orders.json"
    assert path.read_text(encoding="utf-8") == canonical_json(state(1))
    assert game.read_snapshot(1, "orders") == state(1)


def test_rewriting_the_same_snapshot_is_a_no_op_but_different_content_is_refused(game):
    path = game.write_snapshot(state(1), 1, "orders")
    mtime = path.stat().st_mtime_ns
    assert game.write_snapshot(state(1), 1, "orders") == path
    assert path.stat().st_mtime_ns == mtime
    with pytest.raises(SnapshotConflict, match="уже записан"):
        game.write_snapshot(state(1, gold=5), 1, "orders")
    assert game.read_snapshot(1, "orders") == state(1)


def test_snapshots_sort_by_turn_then_stage_order(game):
    for turn, stage in [(10, "orders"), (2, "planning"), (2, "orders"), (1, "orders")]:
        game.write_snapshot(state(turn), turn, stage)
    assert [p.name for p in game.snapshots()] == [
        "turn-0001-orders.json", "turn-0002-orders.json", "turn-0002-planning.json",
        "turn-0010-orders.json"]
    assert game.latest_state() == state(10)


def test_stages_the_ruleset_does_not_list_come_last_in_write_order(game):
    game.write_snapshot(state(3, 1), 3, "orders")
    finished = game.write_snapshot(state(3, 2), 3, "finished")
    aftermath = game.write_snapshot(state(3, 3), 3, "aftermath")
    # written a second apart: file times tick coarsely (a clock tick), so two quick writes may share one
    os.utime(finished, ns=(10**18, 10**18))
    os.utime(aftermath, ns=(10**18 + 10**9, 10**18 + 10**9))
    game.write_snapshot(state(3, 4), 3, "planning")
    assert [p.name for p in game.snapshots()] == [
        "turn-0003-orders.json", "turn-0003-planning.json", "turn-0003-finished.json",
        "turn-0003-aftermath.json"]
    assert game.latest_state() == state(3, 3)


def test_stage_order_follows_the_given_stages_not_the_alphabet(tmp_path):
    game = GameDir.create(tmp_path / "g", make_config(), stages=("muster", "battle"))
    game.write_snapshot(state(1, 1), 1, "battle")
    game.write_snapshot(state(1, 2), 1, "muster")
    assert [p.name for p in game.snapshots()] == ["turn-0001-muster.json", "turn-0001-battle.json"]
    assert game.latest_state() == state(1, 1)


def test_bad_snapshot_names_and_missing_snapshots_fail_clearly(game):
    with pytest.raises(GameDirError, match="нет этапа «../orders»"):
        game.write_snapshot(state(1), 1, "../orders")
    with pytest.raises(GameDirError, match="целое число от 0"):
        game.write_snapshot(state(1), -1, "orders")
    with pytest.raises(GameDirError, match="нет снимка хода 3"):
        game.read_snapshot(3, "orders")
    with pytest.raises(GameDirError, match="игра не начата"):
        game.latest_state()


def test_crash_before_replace_leaves_the_old_files(game, monkeypatch):
    game.write_snapshot(state(1), 1, "orders")
    toml_before = (game.path / "game.toml").read_bytes()

    def crash(src, dst):
        raise OSError("power cut")

    monkeypatch.setattr(gamedir_module.os, "replace", crash)
    with pytest.raises(OSError, match="power cut"):
        game.write_snapshot(state(2), 2, "orders")
    game.config.title = "Другое"
    with pytest.raises(OSError, match="power cut"):
        game.save_config()
    monkeypatch.undo()
    assert [p.name for p in game.snapshots()] == ["turn-0001-orders.json"]
    assert (game.path / "game.toml").read_bytes() == toml_before
    leftovers = [p.name for p in game.path.rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []


def test_rollback_moves_later_snapshots_aside(game):
    for turn in (1, 2):
        for stage in STAGES:
            game.write_snapshot(state(turn, gold=turn * 10 + len(stage)), turn, stage)
    moved = game.rollback(1, "planning")
    assert [p.name for p in moved] == ["turn-0002-orders.json", "turn-0002-planning.json"]
    assert all(p.parent == game.path / "state" / "rolled-back" for p in moved)
    assert game.latest_state() == game.read_snapshot(1, "planning")
    game.write_snapshot(state(2, gold=999), 2, "orders")      # the stage is redone differently
    again = game.rollback(1, "planning")
    assert [p.name for p in again] == ["turn-0002-orders.1.json"]
    assert json.loads(again[0].read_text())["factions"]["empire"]["gold"] == 999
    with pytest.raises(GameDirError, match="нет снимка хода 5"):
        game.rollback(5, "orders")


def test_archive_dir_is_created_per_turn(game):
    path = game.archive_dir(7)
    assert path == game.path / "archive" / "turn-0007" and path.is_dir()
    assert game.archive_dir(7) == path


# -- journal --------------------------------------------------------------------------------
def test_journal_appends_in_order_and_skips_a_torn_line(game):
    game.append_journal({"stage": "orders", "book": "empire", "pushed": True})
    with open(game.path / "journal.jsonl", "ab") as fh:      # a crash in the middle of a line
        fh.write(b'{"stage": "orders", "bo')
    game.append_journal({"stage": "orders", "book": "horde", "pushed": True, "note": "Орда"})
    assert game.journal() == [{"stage": "orders", "book": "empire", "pushed": True},
                              {"stage": "orders", "book": "horde", "pushed": True, "note": "Орда"}]


def test_empty_journal(game):
    assert game.journal() == []


# -- lock -----------------------------------------------------------------------------------
def test_second_lock_fails_with_the_holders_pid(game):
    with game.lock():
        with pytest.raises(GameLocked) as caught:
            with GameDir(game.path).lock():
                pass
        text = str(caught.value)
        assert text.startswith("с этой игрой уже работает другая команда forumwar (forumwar")
        assert f"pid {os.getpid()} на компьютере {platform.node()}, с " in text and "дождитесь её окончания" in text
    with GameDir(game.path).lock():     # released on exit
        pass


def test_lock_held_by_another_process(game):
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from sheets_bridge.gamedir import GameDir
            with GameDir({str(game.path)!r}).lock():
                print("locked", flush=True)
                sys.stdin.readline()
            """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(GameLocked, match=rf"pid {holder.pid}\b"):
            with game.lock():
                pass
    finally:
        holder.communicate("\n", timeout=30)
    with game.lock():
        pass


def test_a_lock_left_by_a_crashed_command_is_taken_over_and_explained(game):
    """A command killed while it held the lock leaves its holder's note; the operating system's lock
    died with it, so the next command goes on, and tells the GM what happened."""
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import os, sys
            from sheets_bridge.gamedir import GameDir
            with GameDir({str(game.path)!r}).lock():
                print("locked", flush=True)
                os._exit(9)          # killed: no cleanup runs
            """)], stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    holder.wait(timeout=30)
    told: list[str] = []
    with GameDir(game.path, notice=told.append).lock():
        pass
    assert len(told) == 1 and f"pid {holder.pid}" in told[0] and "оборвалась, не закончив работу" in told[0]
    assert "forumwar turn доделает его" in told[0]
    told.clear()
    with GameDir(game.path, notice=told.append).lock():      # a clean release leaves nothing to explain
        pass
    assert told == []


def test_a_read_only_command_also_keeps_a_changing_one_out(game):
    """verify, replay and map must never read a stage half resolved: they lock the game too."""
    with game.lock(shared=True):
        with pytest.raises(GameLocked):
            with GameDir(game.path).lock():
                pass
    with game.lock(), pytest.raises(GameLocked):
        with GameDir(game.path).lock(shared=True):
            pass


# -- seeds ----------------------------------------------------------------------------------
def test_master_seed_gives_the_same_stage_seeds_in_any_game(tmp_path):
    one = GameDir.create(tmp_path / "one", make_config(seed="master-1"))
    two = GameDir.create(tmp_path / "two", make_config(seed="master-1"))
    other = GameDir.create(tmp_path / "other", make_config(seed="master-2"))
    keys = [(1, "orders"), (1, "planning"), (2, "orders")]
    seeds = [one.open_seed(t, s) for t, s in keys]
    assert seeds == [two.open_seed(t, s) for t, s in keys]
    assert len({s.seed for s in seeds}) == 3 and all(s.deterministic for s in seeds)
    assert [s.seed for s in seeds] != [other.open_seed(t, s).seed for t, s in keys]
    digest = hashlib.sha256(b"master-1|1|orders").digest()
    assert seeds[0].engine_seed == int.from_bytes(digest[:8], "big") >> 1


def test_fair_seed_is_256_secret_bits_with_a_salt_drawn_once_and_reused_on_rerun(tmp_path, monkeypatch):
    """Fair dice: «each stage's seed is fresh secret randomness (256 bits from the OS) drawn when
    the stage opens; the published commitment is the SHA-256 of the seed together with a secret
    random salt»; a re-run after a crash reuses the drawn seed."""
    game = GameDir.create(tmp_path / "g", make_config(seed=None))
    draws = []
    real = fairness.secrets.token_hex

    def spy(nbytes):
        draws.append(nbytes)
        return real(nbytes)

    monkeypatch.setattr(fairness.secrets, "token_hex", spy)
    first = game.open_seed(1, "orders")
    rerun = GameDir(game.path).open_seed(1, "orders")     # e.g. after a crash
    assert first == rerun and draws == [32, 32]
    assert len(first.seed) == len(first.salt) == 64 and not first.deterministic
    assert first.commitment == hashlib.sha256(f"{first.seed}:{first.salt}".encode()).hexdigest()
    assert GameDir(game.path).open_seed(1, "planning").seed != first.seed


def test_commitment_is_published_before_and_the_seed_and_salt_revealed_after(game):
    record = game.open_seed(3, "orders")
    assert game.seed_records() == [{"turn": 3, "stage": "orders", "commitment": record.commitment,
                                    "seed": "", "salt": "", "deterministic": True}]
    revealed = game.reveal_seed(3, "orders")
    assert revealed.seed == record.seed and revealed.revealed
    published = GameDir(game.path).seed_records()[0]
    assert (published["seed"], published["salt"]) == (record.seed, record.salt)
    assert hashlib.sha256(f"{published['seed']}:{published['salt']}".encode()).hexdigest() \
        == published["commitment"]


def test_a_missing_seed_for_an_open_stage_stops_with_a_clear_message(game):
    """«A missing seed for an open stage stops `turn` with a clear message (today it silently
    draws a new one and the published commitment changes).»"""
    game.open_seed(1, "orders")
    (game.path / "state" / "seeds.json").write_text("{}", encoding="utf-8")
    with pytest.raises(MissingSeed, match="нет зерна случайности для хода 1"):
        game.stage_seed(1, "orders")
    assert json.loads((game.path / "state" / "seeds.json").read_text(encoding="utf-8")) == {}


def test_retired_seeds_are_kept_for_audit_and_drawn_afresh(tmp_path):
    game = GameDir.create(tmp_path / "g", make_config(seed=None))
    old = game.open_seed(1, "planning")
    game.retire_seeds(["turn-0001-planning"], epoch=1)
    assert game.open_seed(1, "planning").seed != old.seed
    retired = json.loads((game.path / "state" / "seeds.json").read_text(encoding="utf-8"))["_retired"]
    assert retired["turn-0001-planning@1"]["seed"] == old.seed


def test_seeds_file_is_canonical_json(game):
    game.open_seed(1, "orders")
    text = (game.path / "state" / "seeds.json").read_text(encoding="utf-8")
    assert text == canonical_json(json.loads(text))
