"""Issue 38 item 4: read-only work on a read-only copy.

«A player who downloads the game folder to run `verify`, as the README asks, gets a traceback:
`PermissionError: [Errno 13] Permission denied: '…/.lock'` (filelock). The same happens with a `.lock` left
by another user, e.g. after a `sudo forumwar turn`. `verify`, `replay`, `status`, `post`, `map` and `charts`
change nothing, so they run on a read-only folder without taking the lock, and say so if the game is being
written at that moment. A command that must write says in Russian why it cannot (folder not writable, lock
held by another user) and what to do. It never shows a traceback. Two `turn`s at once end on separate lines
(today «…повторитеХод 3…»).»

Every command runs as a person runs it: `python -m sheets_bridge.cli` in a process of its own. Permissions
are real: a folder made read-only with chmod, a lock file of another user. Where the operating system lets
this user write anyway (root), the command runs as root without the capabilities that pass over
permissions (setpriv, Linux), and where that cannot be done the test is skipped: each one first tries to
write where it should not be able to.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
READERS = [["verify", "{game}"], ["verify", "{game}", "--offline"], ["replay", "{game}", "1"], ["status", "{game}"],
           ["status", "{game}", "--json"], ["post", "{game}"], ["map", "{game}", "-o", "{out}/карта.png"],
           ["charts", "{game}"], ["charts", "{game}", "--csv", "{out}/таблица.csv"]]
WRITERS = [["check", "{game}"], ["turn", "{game}", "--yes"], ["rollback", "{game}", "1", "--yes"],
           ["lock", "{game}", "--force"]]
NO_BYPASS = ["setpriv", "--inh-caps=-dac_override,-dac_read_search,-fowner",
             "--bounding-set=-dac_override,-dac_read_search,-fowner"]


def _as_user() -> list[str] | None:
    """What runs a command so that file permissions apply to it: nothing for an ordinary user; for root on
    Linux, setpriv dropping the capabilities that pass over them; None where neither can be had."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return []
    if sys.platform.startswith("linux") and shutil.which("setpriv"):
        probe = subprocess.run([*NO_BYPASS, sys.executable, "-c", "pass"], capture_output=True, timeout=60)
        if probe.returncode == 0:
            return NO_BYPASS
    return None


def _env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), **extra}
    if "PYTHONIOENCODING" not in extra:
        env.pop("PYTHONIOENCODING", None)
    return env


def _forumwar(*args: str, cwd: Path, prefix: list[str] | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*(prefix or []), sys.executable, "-m", "sheets_bridge.cli", *args], cwd=cwd,
                          env=_env(**env), capture_output=True, timeout=600, stdin=subprocess.DEVNULL)


def _text(done: subprocess.CompletedProcess[bytes], encoding: str = "utf-8") -> str:
    text = done.stdout.decode(encoding) + done.stderr.decode(encoding)
    assert "Traceback" not in text and "Error" not in text.replace("Ошибка", ""), text
    return text


def _args(command: list[str], game: Path, out: Path) -> list[str]:
    return [a.format(game=game, out=out) for a in command]


def _tree(path: Path) -> dict[str, str]:
    """Every file of the game, lock included, by content: a command that changes nothing leaves it equal."""
    return {p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file() and os.access(p, os.R_OK)}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo game with turn 1 played (both stages), the way a GM plays one: `forumwar demo`."""
    home = tmp_path_factory.mktemp("read-only")
    done = _forumwar("demo", "игра", "--ruleset", "jade_rose", "--turns", "1", cwd=home)
    assert done.returncode == 0, _text(done)
    game = home / "игра"
    with (game / "game.toml").open("a", encoding="utf-8") as fh:
        fh.write("\n[pictures]\ndraw = false\n")        # the turns of these tests need no pictures
    return game


@pytest.fixture
def copy(played: Path, tmp_path: Path) -> Iterator[Path]:
    """A copy of the played game, writable again at the end so that pytest can remove it."""
    game = tmp_path / "копия игры"
    shutil.copytree(played, game)
    yield game
    for path in [game, *game.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IRWXU)


def _read_only(game: Path) -> None:
    for path in [*game.rglob("*"), game]:
        path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _can_write(prefix: list[str], folder: Path) -> bool:
    """Whether a process run with `prefix` can still create a file in `folder` (the system ignores permissions)."""
    probe = subprocess.run([*prefix, sys.executable, "-c", "import sys, pathlib; "
                            "pathlib.Path(sys.argv[1], 'проба').write_text('x')", str(folder)],
                           capture_output=True, timeout=60)
    if probe.returncode == 0:
        (folder / "проба").unlink()
    return probe.returncode == 0


def _permissions_apply(folder: Path) -> list[str]:
    """The prefix under which `folder`'s permissions hold, or skip the test."""
    prefix = _as_user()
    if prefix is None or _can_write(prefix, folder):
        pytest.skip("this system lets this user write where permissions forbid it")
    return prefix


# -- a read-only copy -------------------------------------------------------------------------

def test_every_read_only_command_works_on_a_read_only_copy_and_changes_nothing(copy, tmp_path):
    _read_only(copy)
    prefix = _permissions_apply(copy)
    out = tmp_path / "вывод"
    out.mkdir()
    before = _tree(copy)
    for command in READERS:
        done = _forumwar(*_args(command, copy, out), cwd=tmp_path, prefix=prefix)
        text = _text(done)
        assert done.returncode == 0, (command, text)
        assert "предупреждение: в папке игры отмечено" not in text, "no command is marked as running"
    assert _tree(copy) == before
    assert not (copy / ".lock-holder.json").exists()
    assert (out / "карта.png").stat().st_size > 0 and "Фракция" in (out / "таблица.csv").read_text("utf-8-sig")


def test_every_changing_command_refuses_a_read_only_copy_in_russian_and_says_what_to_do(copy, tmp_path):
    _read_only(copy)
    prefix = _permissions_apply(copy)
    before = _tree(copy)
    for command in WRITERS:
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, prefix=prefix)
        text = _text(done)
        assert done.returncode == 1, (command, text)
        assert f"Ошибка: эта команда меняет игру, а в папку {copy} нельзя записать: нет прав." in text, text
        assert "ей хватит команд, которые ничего не меняют: verify, replay, status, post, map и charts" in text
        assert f'chmod -R u+rwX "{copy}"' in text
    assert _tree(copy) == before


def test_a_map_or_a_table_asked_into_a_read_only_folder_is_refused_in_russian(copy, tmp_path):
    _read_only(copy)
    prefix = _permissions_apply(copy)
    done = _forumwar("map", str(copy), "-o", str(copy / "карта.png"), cwd=tmp_path, prefix=prefix)
    assert done.returncode == 1
    assert f"не удалось сохранить рисунок в {copy / 'карта.png'}: нет прав на запись" in _text(done)
    done = _forumwar("charts", str(copy), "--csv", str(copy / "t.csv"), cwd=tmp_path, prefix=prefix)
    assert done.returncode == 1 and "не удалось сохранить таблицу" in _text(done)


def test_a_copy_taken_while_a_command_ran_is_read_and_the_user_is_told(copy, tmp_path):
    """The holder's note of a `turn` is in the copy: whether that turn still runs cannot be told from a
    read-only folder, so the reader says so and reads what is there."""
    note = '{"pid": 4242, "host": "gm-laptop", "command": "turn", "since": "2026-05-01T14:05:00+00:00"}'
    (copy / ".lock-holder.json").write_text(note, encoding="utf-8")
    _read_only(copy)
    prefix = _permissions_apply(copy)
    done = _forumwar("verify", str(copy), cwd=tmp_path, prefix=prefix)
    text = _text(done)
    assert done.returncode == 0, text
    assert ("предупреждение: в папке игры отмечено, что с ней работает команда (forumwar turn, pid 4242 на "
            "компьютере gm-laptop, с 14:05 UTC), а проверить, идёт ли эта команда сейчас, отсюда нельзя") in text
    assert "Проверено этапов: 2; всё сходится." in text


# -- a lock file this user cannot open ------------------------------------------------------------

def _foreign_lock(game: Path, prefix: list[str]) -> str | None:
    """Make the lock file another user's, as `sudo forumwar …` leaves it: owned by another account where
    this one may give it away (root), else this user's own made read-only. Its owner's name, if another."""
    lock_file = game / ".lock"
    if prefix:                       # root without the capabilities: a file of «nobody» is not its own
        os.chown(lock_file, 65534, -1)
        lock_file.chmod(0o644)
        return lock_file.owner()
    lock_file.chmod(0o444)
    return None


def _can_open(prefix: list[str], path: Path, mode: str) -> bool:
    """Whether a process run with `prefix` can open `path` with `mode` (the system ignores permissions)."""
    return subprocess.run([*prefix, sys.executable, "-c", "import sys; open(sys.argv[1], sys.argv[2]).close()",
                           str(path), mode], capture_output=True, timeout=60).returncode == 0


def test_a_lock_file_of_another_user_refuses_changing_commands_and_lets_readers_read(copy, tmp_path):
    prefix = _as_user()
    if prefix is None:
        pytest.skip("this system lets this user open any file")
    owner = _foreign_lock(copy, prefix)
    if _can_open(prefix, copy / ".lock", "r+"):
        pytest.skip("this system lets this user write any file")
    before = _tree(copy)
    for command in WRITERS:
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, prefix=prefix)
        text = _text(done)
        assert done.returncode == 1, (command, text)
        assert f"Ошибка: не удаётся взять блокировку игры: файл {copy / '.lock'} " in text, text
        if owner is not None:
            assert f"принадлежит пользователю {owner}, а команда запущена от имени" in text
            assert "(например, через sudo)" in text and 'sudo chown -R' in text
        else:
            assert "не открывается на запись: нет прав" in text
        assert "дальше запускайте forumwar всегда от одного пользователя, без sudo" in text
    assert _tree(copy) == before
    out = tmp_path / "вывод"
    out.mkdir()
    for command in READERS:
        done = _forumwar(*_args(command, copy, out), cwd=tmp_path, prefix=prefix)
        assert done.returncode == 0, (command, _text(done))
    assert _tree(copy) == before


def test_an_unreadable_lock_file_refuses_changing_commands_and_lets_readers_read(copy, tmp_path):
    (copy / ".lock").chmod(0)
    prefix = _as_user()
    if prefix is None or _can_open(prefix, copy / ".lock", "r"):
        pytest.skip("this system lets this user read any file")
    for command in (["turn", "{game}", "--yes"], ["check", "{game}"]):
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, prefix=prefix)
        text = _text(done)
        assert done.returncode == 1 and "не удаётся взять блокировку игры" in text, text
        assert "не открывается: нет прав на чтение" in text
    for command in (["verify", "{game}"], ["status", "{game}"], ["post", "{game}"]):
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, prefix=prefix)
        assert done.returncode == 0, (command, _text(done))


def test_a_game_left_to_another_user_by_sudo_is_refused_before_anything_is_written(copy, tmp_path):
    """`sudo forumwar turn` made the state folder and the journal root's: the next `turn` by the GM says
    so at once, instead of failing half-way through a stage."""
    prefix = _as_user()
    if not prefix:
        pytest.skip("only root can give files to another user")
    for path in [copy / "state", *(copy / "state").iterdir(), copy / "journal.jsonl"]:
        os.chown(path, 65534, -1)
    before = _tree(copy)
    done = _forumwar("turn", str(copy), "--yes", cwd=tmp_path, prefix=prefix)
    text = _text(done)
    assert done.returncode == 1, text
    assert "эта команда меняет игру, а в файл" in text and "(владелец — nobody, а команда запущена от имени" in text
    assert 'sudo chown -R' in text and str(copy) in text
    assert _tree(copy) == before


# -- a game being written -------------------------------------------------------------------------

HOLDER = textwrap.dedent("""
    import os, sys
    from sheets_bridge.gamedir import GameDir
    sys.argv = ["forumwar", "turn"]                  # its note names it as `forumwar turn`
    game = GameDir(os.environ["GAME"])
    with game.lock():
        print("locked", flush=True)
        sys.stdin.readline()
""")


@pytest.fixture
def holder(copy: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the game's lock as `forumwar turn` does, until the test ends."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER], env=_env(GAME=str(copy)), stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None and process.stdout.readline().strip() == "locked"
    yield process
    process.communicate("\n", timeout=60)


def test_readers_say_the_game_is_being_written_and_show_nothing_of_it(copy, tmp_path, holder):
    out = tmp_path / "вывод"
    out.mkdir()
    for command in READERS:
        done = _forumwar(*_args(command, copy, out), cwd=tmp_path)
        text = _text(done)
        assert done.returncode == 1, (command, text)
        assert done.stdout == b"", "nothing read is shown"
        assert "игру сейчас записывает другая команда forumwar (forumwar turn, pid " in text, text
        assert f"pid {holder.pid}" in text and "Дождитесь её окончания и повторите" in text
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("encoding", ["cp1251", "cp866", "ascii"])
def test_the_new_messages_survive_a_legacy_console(copy, tmp_path, holder, encoding):
    """What a reader and a writer say while the game is held, on Windows' Russian code pages (and ASCII)."""
    for command, words in ((["verify", "{game}"], "записывает"), (["turn", "{game}", "--yes"], "работает")):
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, PYTHONIOENCODING=encoding)
        text = _text(done, encoding)
        assert done.returncode == 1 and "UnicodeEncodeError" not in text, text
        assert (words in text) if encoding != "ascii" else text.startswith("Oshibka:"), text


def test_a_second_turn_is_refused_in_russian_while_one_runs(copy, tmp_path, holder):
    done = _forumwar("turn", str(copy), "--yes", cwd=tmp_path)
    text = _text(done)
    assert done.returncode == 1
    assert text.startswith("Ошибка: с этой игрой уже работает другая команда forumwar (forumwar turn, pid ")
    assert text.endswith("дождитесь её окончания и повторите\n")


def test_a_game_changed_while_it_is_read_is_not_shown(copy, monkeypatch):
    """A `turn` that starts while `status` reads: what status read may be half a stage, so it shows nothing."""
    from click.testing import CliRunner

    from sheets_bridge import status_view
    from sheets_bridge.cli import main
    real = status_view.status
    started: list[subprocess.Popen[str]] = []

    def read_while_a_turn_starts(gd, as_json):           # type: ignore[no-untyped-def]
        shown = real(gd, as_json)
        writer = subprocess.Popen([sys.executable, "-c", HOLDER.replace(
            'print("locked"', 'game.append_journal({"event": "test"}); print("locked"')],
            env=_env(GAME=str(copy)), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(writer)
        assert writer.stdout is not None and writer.stdout.readline().strip() == "locked"
        return shown

    monkeypatch.setattr(status_view, "status", read_while_a_turn_starts)
    try:
        done = CliRunner().invoke(main, ["status", str(copy)])
    finally:
        for writer in started:
            writer.communicate("\n", timeout=60)
    assert done.exit_code == 1, done.output
    assert "Ход " not in done.output and "Traceback" not in done.output
    assert (f"Ошибка: пока эта команда читала игру, её изменила другая команда forumwar (forumwar turn, pid "
            f"{started[0].pid}") in done.output
    assert "поэтому ничего не показано" in done.output


def test_a_command_interrupted_in_a_writable_game_is_named_by_a_reader_which_leaves_its_note(copy, tmp_path):
    note = '{"pid": 4242, "host": "gm-laptop", "command": "turn", "since": "2026-05-01T14:05:00+00:00"}'
    (copy / ".lock-holder.json").write_text(note, encoding="utf-8")
    done = _forumwar("status", str(copy), cwd=tmp_path)
    text = _text(done)
    assert done.returncode == 0
    assert ("предупреждение: прошлая команда forumwar (forumwar turn, pid 4242 на компьютере gm-laptop, с 14:05 "
            "UTC) оборвалась, не закончив работу") in text
    assert (copy / ".lock-holder.json").read_text(encoding="utf-8") == note, "the next turn still sees it"


# -- two turns at once ----------------------------------------------------------------------------

PAUSED_TURN = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from sheets_bridge.backends.xlsx.backend import XlsxBackend
    real, calls = XlsxBackend.write_book, []

    def paused(self, *args, **kwargs):          # a slow book: the turn waits at its second book
        calls.append(1)
        if len(calls) == 2:
            Path(os.environ["PAUSED"]).touch()
            while not Path(os.environ["GO_ON"]).exists():
                time.sleep(0.05)
        return real(self, *args, **kwargs)

    XlsxBackend.write_book = paused
    from sheets_bridge.cli import run
    sys.argv = ["forumwar", *sys.argv[1:]]
    run()
""")


def _wait_for(path: Path, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 300
    while not path.exists():
        assert process.poll() is None, "the first turn ended before it reached its books"
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_two_turns_at_once_write_a_log_line_by_line(copy, tmp_path):
    """Two `turn`s started together, both writing to one log: the second's refusal is a line of its own."""
    log = tmp_path / "журнал.txt"
    paused, go_on = tmp_path / "paused", tmp_path / "go-on"
    env = _env(PAUSED=str(paused), GO_ON=str(go_on))
    with log.open("ab") as out:
        first = subprocess.Popen([sys.executable, "-c", PAUSED_TURN, "turn", str(copy), "--yes"], env=env,
                                 stdout=out, stderr=out, stdin=subprocess.DEVNULL)
        _wait_for(paused, first)
        second = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", "turn", str(copy), "--yes"], env=env,
                                stdout=out, stderr=out, stdin=subprocess.DEVNULL, timeout=600)
        go_on.touch()
        assert first.wait(timeout=600) == 0
    text = log.read_text(encoding="utf-8")
    assert second.returncode == 1 and "Traceback" not in text
    lines = text.splitlines()
    refusal = [line for line in lines if "уже работает другая команда forumwar" in line]
    assert len(refusal) == 1 and refusal[0].startswith("Ошибка: с этой игрой уже работает")
    assert refusal[0].endswith("дождитесь её окончания и повторите")
    assert any(line.startswith("Ход 2, этап «приказы» рассчитан; теперь ход") for line in lines), text


def _screen(data: bytes) -> list[str]:
    """What a terminal shows for `data`: lines as the carriage return, line feed and «clear to the end of
    the line» (the progress bar's \\r\\x1b[K) leave them; other escape sequences are dropped."""
    lines, row, col = [""], 0, 0
    text = data.decode("utf-8", errors="replace")
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\x1b":
            end = i + 1
            if end < len(text) and text[end] == "[":
                end += 1
                while end < len(text) and not text[end].isalpha():
                    end += 1
                if text[end:end + 1] == "K":
                    lines[row] = lines[row][:col]
            i = end + 1
            continue
        if char == "\r":
            col = 0
        elif char == "\n":
            row += 1
            if row == len(lines):
                lines.append("")
            col = 0
        else:
            line = lines[row].ljust(col)
            lines[row] = line[:col] + char + line[col + 1:]
            col += 1
        i += 1
    return lines


@pytest.mark.skipif(sys.platform == "win32", reason="the pseudo-terminal of this test is POSIX's")
def test_two_turns_at_once_in_one_terminal_end_on_separate_lines(copy, tmp_path):
    """The first `turn` is drawing its progress bar (a line not ended yet) when the second is refused in
    the same terminal: the refusal starts a line of its own, and so does the first turn's result."""
    import pty
    paused, go_on = tmp_path / "paused", tmp_path / "go-on"
    env = _env(PAUSED=str(paused), GO_ON=str(go_on))
    master, slave = pty.openpty()
    shown = bytearray()

    def read() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            shown.extend(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        first = subprocess.Popen([sys.executable, "-c", PAUSED_TURN, "turn", str(copy), "--yes"], env=env,
                                 stdin=slave, stdout=slave, stderr=slave)
        _wait_for(paused, first)
        second = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", "turn", str(copy), "--yes"], env=env,
                                stdin=slave, stdout=slave, stderr=slave, timeout=600)
        go_on.touch()
        assert first.wait(timeout=600) == 0
    finally:
        os.close(slave)
        reader.join(timeout=30)
        os.close(master)
    assert second.returncode == 1
    lines = _screen(bytes(shown))
    text = "\n".join(lines)
    assert "Traceback" not in text
    assert "обновлена книга 1 из" in text, "the first turn drew its bar before the second was refused"
    refusal = [line for line in lines if "уже работает другая команда forumwar" in line]
    assert len(refusal) == 1 and refusal[0].startswith("Ошибка: с этой игрой уже работает"), text
    assert refusal[0].endswith("дождитесь её окончания и повторите"), text
    assert any(line.startswith("Ход 2, этап «приказы» рассчитан; теперь ход") for line in lines), text
