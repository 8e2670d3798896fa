"""Issue 22 item 1: forumwar runs where Windows and macOS GMs run it.

«The locks use a well-kept cross-platform library … Two `turn`s at once are refused, and a stale lock is
detected and explained. No POSIX-only call runs at import. File names stay valid on Windows. Paths work
with a Russian user name and with spaces. A test plays `new`, `check`, `turn` (both stages), `rollback`
and `verify` with `fcntl` made unavailable (import blocked) … Every command works with
`PYTHONIOENCODING=cp1251` and `=cp866` (and with `ascii`, degrading to plain characters), progress bars
included.»"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sheets_bridge import console

pytestmark = pytest.mark.long

ROOT = Path(__file__).resolve().parents[2]
BLOCK_FCNTL = textwrap.dedent("""
    import importlib.abc, sys
    class _NoFcntl(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "fcntl":
                raise ImportError("fcntl is unavailable here (as on Windows)")
            return None
    sys.modules.pop("fcntl", None)
    sys.meta_path.insert(0, _NoFcntl())
""")
WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    site = tmp_path / "no-fcntl"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCK_FCNTL, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)]), "PYTHONUTF8": "0", **extra}
    env.pop("PYTHONIOENCODING", None)
    env.update(extra)
    return env


def _forumwar(env: dict[str, str], *args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "sheets_bridge.cli", *args], cwd=cwd, env=env, input=stdin.encode(),
                          capture_output=True, timeout=600)


def _ok(done: subprocess.CompletedProcess[bytes], encoding: str = "utf-8") -> str:
    text = done.stdout.decode(encoding) + done.stderr.decode(encoding)
    assert done.returncode == 0, text
    assert "Traceback" not in text
    return text


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], str]:
    """A demo game of two turns (both stages of a turn with battles) played with fcntl blocked, in a folder
    whose path has a Russian user name and spaces; then check, turn, rollback, turn and verify."""
    tmp = tmp_path_factory.mktemp("portable")
    home = tmp / "Пользователь Иван" / "Мои игры"
    home.mkdir(parents=True)
    env = _env(tmp)
    log = _ok(_forumwar(env, "demo", "весна 2026", "--ruleset", "jade_rose", "--turns", "2", cwd=home))
    game = home / "весна 2026"
    log += _ok(_forumwar(env, "check", str(game), cwd=home))
    log += _ok(_forumwar(env, "turn", str(game), "--yes", cwd=home))
    log += _ok(_forumwar(env, "rollback", str(game), "2", "приказы", "--yes", cwd=home))
    log += _ok(_forumwar(env, "turn", str(game), cwd=home))
    log += _ok(_forumwar(env, "verify", str(game), cwd=home))
    return game, env, log


def test_the_lock_library_falls_back_to_a_lock_file_without_fcntl(played, tmp_path):
    _, env, _ = played
    probe = subprocess.run([sys.executable, "-c", "import filelock, sys; print(filelock.FileLock.__name__, "
                            "'fcntl' in sys.modules)"], env=env, capture_output=True, text=True, timeout=60)
    assert probe.stdout.split() == ["SoftFileLock", "False"], probe.stderr


def test_a_whole_game_plays_without_fcntl_in_a_russian_path_with_spaces(played):
    game, _, log = played
    journal = [json.loads(line) for line in (game / "journal.jsonl").read_text(encoding="utf-8").splitlines()]
    resolved = [(e["turn"], e["stage"]) for e in journal if e.get("event") == "resolved"]
    assert (2, "planning") in resolved or (1, "planning") in resolved, "a turn with both stages"
    assert any(e.get("event") == "rolled_back" for e in journal)
    assert "Проверено этапов:" in log and "всё сходится" in log


def test_a_second_turn_is_refused_while_one_holds_the_lock_without_fcntl(played):
    game, env, _ = played
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys
            from sheets_bridge.gamedir import GameDir
            with GameDir({str(game)!r}).lock():
                print("locked", flush=True)
                sys.stdin.readline()
            """)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        second = _forumwar(env, "turn", str(game), "--yes", cwd=game.parent)
        text = second.stdout.decode() + second.stderr.decode()
        assert second.returncode == 1 and "уже работает другая команда forumwar" in text
        assert f"pid {holder.pid}" in text
    finally:
        holder.communicate("\n", timeout=60)


def test_a_lock_left_by_a_killed_command_without_fcntl_is_broken_and_explained(played):
    game, env, _ = played
    killed = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import os
        from sheets_bridge.gamedir import GameDir
        with GameDir({str(game)!r}).lock():
            os._exit(9)
        """)], env=env, timeout=60)
    assert killed.returncode == 9 and (game / ".lock").exists(), "a lock file stays behind"
    after = _forumwar(env, "check", str(game), cwd=game.parent)
    text = _ok(after)
    assert "оборвалась, не закончив работу" in text and "блокировка игры снята" in text


def test_every_file_a_game_writes_has_a_name_windows_accepts(played):
    game, _, _ = played
    for path in game.rglob("*"):
        name = path.name
        assert not re.search(r'[<>:"\\|?*\x00-\x1f]', name), path
        assert not name.endswith((" ", ".")), path
        assert name.split(".")[0].upper() not in WINDOWS_RESERVED, path
        assert len(str(path.relative_to(game))) < 200, path


def test_no_posix_only_module_is_imported_at_the_top_of_any_module():
    """«No POSIX-only call runs at import»: fcntl, termios, pwd, grp, resource, pty and posix are never
    imported at module level (filelock chooses the lock of the platform itself)."""
    posix_only = {"fcntl", "termios", "pwd", "grp", "resource", "pty", "posix", "tty"}
    for package in ("engine", "sheets_bridge"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                assert not posix_only & {n.split(".")[0] for n in names}, f"{path}: {names}"


COMMANDS = [["--help"], ["turn", "--help"], ["status", "{game}"], ["check", "{game}"], ["verify", "{game}"],
            ["post", "{game}"], ["schedule", "{game}"], ["ruleset", "list"], ["battle", "--example"],
            ["battle", "{battle}", "--runs", "200"], ["replay", "{game}", "1"]]


@pytest.mark.parametrize("encoding", ["cp1251", pytest.param("cp866", marks=pytest.mark.full),
                                      pytest.param("ascii", marks=pytest.mark.full)])
def test_every_command_works_on_a_legacy_console(played, tmp_path, encoding):
    game, env, _ = played
    battle = ROOT / "templates" / "jade_rose" / "battles" / "example.json"
    for command in COMMANDS:
        args = [a.format(game=game, battle=battle) for a in command]
        done = _forumwar({**env, "PYTHONIOENCODING": encoding}, *args, cwd=tmp_path)
        text = done.stdout.decode(encoding) + done.stderr.decode(encoding)   # the bytes are that code page
        assert done.returncode == 0, (args, text)
        assert "Traceback" not in text and "UnicodeEncodeError" not in text
        if encoding == "ascii" and command == ["--help"]:
            assert "forumwar - pomoshchnik mastera" in text, "Russian degrades to a readable transliteration"
        if encoding == "cp866" and command == ["--help"]:
            assert "помощник мастера" in text and "—" not in text


@pytest.mark.skipif(sys.platform == "win32", reason="the pseudo-terminal of this test is POSIX's")
@pytest.mark.parametrize("encoding", ["cp1251", "cp866", "ascii"])
def test_progress_bars_draw_on_a_legacy_terminal(tmp_path, encoding):
    """The bars of `turn` and `battle` are drawn only on a terminal: run `battle` under a pseudo-terminal."""
    import pty
    env = {**_env(tmp_path), "PYTHONIOENCODING": encoding}
    battle = ROOT / "templates" / "jade_rose" / "battles" / "example.json"
    out = bytearray()

    def read(fd: int) -> bytes:
        data = os.read(fd, 4096)
        out.extend(data)
        return data

    old = os.environ.copy()
    os.environ.clear()
    os.environ.update(env)
    try:
        status = pty.spawn([sys.executable, "-m", "sheets_bridge.cli", "battle", str(battle), "--runs", "3000"], read)
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = bytes(out).decode(encoding)
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "Traceback" not in text and ("Разыгрываю" in text or "Razygryvayu" in text)


def test_the_plain_handler_keeps_what_the_code_page_has_and_replaces_the_rest():
    console.install()
    line = "  [██░░] ход 2 — «приказы»… №5"
    assert line.encode("cp1251", console.HANDLER).decode("cp1251") == "  [##..] ход 2 — «приказы»… №5"
    assert line.encode("cp866", console.HANDLER).decode("cp866") == '  [██░░] ход 2 - "приказы"... №5'
    assert line.encode(console.ASCII_CODEC).decode("ascii") == '  [##..] khod 2 - "prikazy"... N5'


@pytest.mark.parametrize("key", ["con", "Nul", "com1", "lpt9", "aux"])
def test_a_faction_named_like_a_windows_device_gets_a_book_file_windows_can_hold(tmp_path, key):
    from sheets_bridge.backends.xlsx.backend import XlsxBackend
    book = XlsxBackend(tmp_path, password="p").create_book(key, "Книга")
    assert book == f"books/{key}_book.xlsx" and (tmp_path / book).is_file()


@pytest.mark.parametrize("how", ["cp1251", "utf-8-sig"])
def test_a_battle_file_saved_on_a_russian_windows_is_read(tmp_path, how):
    """`forumwar battle --example > бой.json` on a Russian Windows writes cp1251; Notepad saves UTF-8 with a BOM."""
    from click.testing import CliRunner

    from sheets_bridge.cli import main
    example = (ROOT / "templates" / "jade_rose" / "battles" / "example.json").read_text(encoding="utf-8")
    path = tmp_path / "бой.json"
    path.write_bytes(example.encode(how))
    utf8 = tmp_path / "utf8.json"
    utf8.write_text(example, encoding="utf-8")
    runner = CliRunner()
    got = runner.invoke(main, ["battle", str(path), "--runs", "50", "--json"])
    plain = runner.invoke(main, ["battle", str(utf8), "--runs", "50", "--json"])
    assert got.exit_code == 0, got.output
    # stdout alone (click's `output` has stderr's notices too): JSON whatever was said on stderr
    assert json.loads(got.stdout) == json.loads(plain.stdout)


def test_the_first_battle_says_it_is_preparing_only_when_the_kernel_is_not_ready():
    """Issue 23 item 6: «The first `battle` … sits at 0 % for 30–40 s while numba compiles. Say «готовлю
    расчёт боёв (один раз, до минуты)…».» Issue 38 §6: no test depends on a timer — the notice comes when the
    simulator says it is not prepared, never after a second of waiting (tests/bridge/test_first_battle.py)."""
    from sheets_bridge.cli_text import BATTLES_WARMING, warm_battles

    class Simulator:
        def __init__(self, ready: bool) -> None:
            self.ready = ready

        def prepared(self) -> bool:
            return self.ready

        def warm_up(self) -> None:
            pass

    said: list[str] = []
    warm_battles(Simulator(False), said.append)
    assert said == [BATTLES_WARMING] and "один раз" in BATTLES_WARMING
    said.clear()
    warm_battles(Simulator(True), said.append)
    assert said == []


def test_the_jade_rose_battle_simulator_warms_up_its_kernel():
    from engine import find_ruleset
    simulator = find_ruleset("jade_rose").battle_simulator()
    assert simulator is not None
    simulator.warm_up()          # compiled or loaded from numba's cache: then a battle runs at once
    assert simulator.prepared()
