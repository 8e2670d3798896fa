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
write where it should not be able to. The same refusals are also checked whoever runs the tests, root
included, with the system's answers simulated in the process (`os.access` saying no, a lock file that does
not open), and that a read-only command creates nothing in a game's folder needs no permissions at all.

A read-only command that finds the game being written waits for the writer, having said so, and answers
once it is done (at most `gamedir.READ_WAIT` seconds, then it shows nothing); a read during which the game
changed is done again.
"""
from __future__ import annotations

import contextlib
import errno
import hashlib
import json
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
from typing import Any

import pytest

pytestmark = pytest.mark.long       # about a hundred commands, each a process of its own

ROOT = Path(__file__).resolve().parents[2]
READERS = [["verify", "{game}"], ["verify", "{game}", "--offline"], ["verify", "{game}", "--head", "{head}"],
           ["replay", "{game}", "1"], ["status", "{game}"], ["status", "{game}", "--json"], ["post", "{game}"],
           ["map", "{game}", "-o", "{out}/карта.png"], ["charts", "{game}"],
           ["charts", "{game}", "--csv", "{out}/таблица.csv"]]
# every reader in the test that each runs on a read-only copy; the other tests take one of each kind of read
# (the chain, a table, a picture) by default and every reader with FORUMWAR_FULL_TESTS=1 (`make test-full`)
SOME_READERS = READERS if os.environ.get("FORUMWAR_FULL_TESTS") == "1" else [
    ["verify", "{game}", "--head", "{head}"], ["status", "{game}", "--json"],
    ["map", "{game}", "-o", "{out}/карта.png"]]
WRITERS = [["check", "{game}"], ["turn", "{game}", "--yes"], ["rollback", "{game}", "1", "--yes"],
           ["lock", "{game}", "--force"]]
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


def _no_fcntl_env(site: Path) -> dict[str, str]:
    """The environment of a command that cannot import fcntl, as on Windows (its sitecustomize in `site`):
    filelock then locks with a lock file of its own that exists only while it is held (test_portable.py)."""
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCK_FCNTL, encoding="utf-8")
    return _env(PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))


def _forumwar(*args: str, cwd: Path, prefix: list[str] | None = None, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([*(prefix or []), sys.executable, "-m", "sheets_bridge.cli", *args], cwd=cwd,
                          env=_env(**env), capture_output=True, timeout=600, stdin=subprocess.DEVNULL)


def _text(done: subprocess.CompletedProcess[bytes], encoding: str = "utf-8") -> str:
    text = done.stdout.decode(encoding) + done.stderr.decode(encoding)
    assert "Traceback" not in text and "Error" not in text.replace("Ошибка", ""), text
    return text


def _args(command: list[str], game: Path, out: Path) -> list[str]:
    """A command of READERS or WRITERS for `game`; «{head}» is the chain after the last stage, as a player
    copies it from the forum (ХОД:ЭТАП:ХЕШ)."""
    head = ""
    if "{head}" in command:
        heads = json.loads((game / "state" / "chain.json").read_text(encoding="utf-8"))["heads"]
        key, value = max(heads.items())
        _, turn, stage = key.split("-", 2)
        head = f"{int(turn)}:{stage}:{value}"
    return [a.format(game=game, out=out, head=head) for a in command]


def _tree(path: Path) -> dict[str, str]:
    """Every file of the game, lock included, by content: a command that changes nothing leaves it equal."""
    return {p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(path.rglob("*")) if p.is_file() and os.access(p, os.R_OK)}


def _listing(path: Path) -> dict[str, tuple[int, int, str]]:
    """Every file and folder of the game with its size, modification time and content: what a command that
    creates nothing, rewrites nothing and touches nothing leaves as it was."""
    return {p.relative_to(path).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns,
                                              hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "")
            for p in sorted([path, *path.rglob("*")])}


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


def test_a_game_made_or_books_exported_into_a_read_only_folder_are_refused_in_russian(copy, tmp_path):
    _read_only(copy)
    prefix = _permissions_apply(copy)
    before = _tree(copy)
    for command in (["new", "{game}/новая", "--ruleset", "jade_rose"], ["demo", "{game}/демо", "--turns", "1",
                    "--ruleset", "jade_rose"], ["export", "{game}"], ["export", "{game}", "--to", "{game}/книги"]):
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path, prefix=prefix)
        text = _text(done)
        assert done.returncode == 1, (command, text)
        assert f"Ошибка: нет доступа к {copy}/" in text and "нет прав" in text, text
        assert "Выберите папку, куда вы можете писать, или дайте себе права на эту" in text
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


@pytest.mark.full
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
    for command in SOME_READERS:
        done = _forumwar(*_args(command, copy, out), cwd=tmp_path, prefix=prefix)
        assert done.returncode == 0, (command, _text(done))
    assert _tree(copy) == before


@pytest.mark.full
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
        if os.environ.get("WRITE"):
            game.append_journal({"event": "test"})
        print("locked", flush=True)
        sys.stdin.readline()
""")


@contextlib.contextmanager
def _holding(game: Path, **env: str) -> Iterator[subprocess.Popen[str]]:
    """Another process that holds the game's lock as `forumwar turn` does, until the block ends."""
    process = subprocess.Popen([sys.executable, "-c", HOLDER], env=_env(GAME=str(game), **env),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "locked"
        yield process
    finally:
        process.communicate("\n", timeout=60)


@pytest.fixture
def holder(copy: Path) -> Iterator[subprocess.Popen[str]]:
    with _holding(copy) as process:
        yield process


def _waiting_reader(args: list[str], cwd: Path, env: dict[str, str], encoding: str = "utf-8") -> tuple[
        subprocess.Popen[bytes], str]:
    """A read-only command started while the game is held, and the first line it says: that it waits."""
    reader = subprocess.Popen([sys.executable, "-m", "sheets_bridge.cli", *args], cwd=cwd, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stderr is not None
    said = reader.stderr.readline().decode(encoding)
    assert reader.poll() is None, "it waits while the game is held"
    return reader, said


def test_readers_wait_for_a_command_writing_the_game_say_so_and_then_answer(copy, tmp_path):
    for n, command in enumerate(SOME_READERS):
        out = tmp_path / f"вывод {n}"
        out.mkdir()
        with _holding(copy) as holding:
            reader, said = _waiting_reader(_args(command, copy, out), tmp_path, _env())
            assert said.startswith(f"предупреждение: игру сейчас записывает другая команда forumwar (forumwar turn, "
                                   f"pid {holding.pid} на компьютере "), (command, said)
            assert said.rstrip().endswith("жду, пока она закончит (не дольше 30 с), чтобы не показать половину этапа")
            assert list(out.iterdir()) == [], "nothing is saved while it waits"
        stdout, stderr = reader.communicate(timeout=600)
        text = stdout.decode() + stderr.decode()
        assert reader.returncode == 0 and "Traceback" not in text, (command, text)
        assert stdout.strip(), (command, "it answers once the writer is done")
    saved = [tmp_path / f"вывод {n}" / arg.removeprefix("{out}/") for n, command in enumerate(SOME_READERS)
             for arg in command if arg.startswith("{out}/")]
    assert saved and all(path.stat().st_size > 0 for path in saved), "each file asked for is saved once it answers"


def test_a_reader_waits_at_most_its_time_and_then_shows_nothing(copy, tmp_path, holder, monkeypatch):
    from click.testing import CliRunner

    from sheets_bridge import gamedir
    from sheets_bridge.cli import main
    monkeypatch.setattr(gamedir, "READ_WAIT", 1.0)
    out = tmp_path / "вывод"
    out.mkdir()
    for command in SOME_READERS:
        started = time.monotonic()
        done = CliRunner().invoke(main, _args(command, copy, out))
        assert done.exit_code == 1 and isinstance(done.exception, SystemExit), (command, done.output)
        assert time.monotonic() - started >= 1.0
        assert done.stdout == "", "nothing read is shown"
        assert "жду, пока она закончит (не дольше 1 с)" in done.stderr
        assert (f"Ошибка: игру всё ещё записывает другая команда forumwar (forumwar turn, pid {holder.pid}"
                in done.stderr), done.stderr
        assert "в папке может быть половина этапа, поэтому ничего не показано. Дождитесь её окончания и повторите" \
            in done.stderr
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("encoding", ["cp1251", pytest.param("cp866", marks=pytest.mark.full),
                                      pytest.param("ascii", marks=pytest.mark.full)])
def test_the_new_messages_survive_a_legacy_console(copy, tmp_path, encoding):
    """What a reader and a writer say while the game is held, on Windows' Russian code pages (and ASCII)."""
    with _holding(copy):
        reader, said = _waiting_reader(["verify", str(copy)], tmp_path, _env(PYTHONIOENCODING=encoding), encoding)
        done = _forumwar("turn", str(copy), "--yes", cwd=tmp_path, PYTHONIOENCODING=encoding)
        text = _text(done, encoding)
        assert done.returncode == 1 and "UnicodeEncodeError" not in text, text
        assert ("работает" in text) if encoding != "ascii" else text.startswith("Oshibka:"), text
    assert ("записывает" in said) if encoding != "ascii" else said.startswith("preduprezhdenie:"), said
    stdout, stderr = reader.communicate(timeout=600)
    text = (stdout + stderr).decode(encoding)
    assert reader.returncode == 0 and "UnicodeEncodeError" not in text and "Traceback" not in text, text


def test_a_second_turn_is_refused_in_russian_while_one_runs(copy, tmp_path, holder):
    done = _forumwar("turn", str(copy), "--yes", cwd=tmp_path)
    text = _text(done)
    assert done.returncode == 1
    assert text.startswith("Ошибка: с этой игрой уже работает другая команда forumwar (forumwar turn, pid ")
    assert text.endswith("дождитесь её окончания и повторите\n")


def test_a_game_changed_while_it_is_read_is_read_again_once_the_writer_is_done(copy, monkeypatch):
    """A `turn` starts while `status` reads: what status read may be half a stage, so it reads again when the
    turn is done, and shows only that."""
    from click.testing import CliRunner

    from sheets_bridge import status_view
    from sheets_bridge.cli import main
    real = status_view.status
    reads: list[Any] = []
    writers: list[subprocess.Popen[str]] = []

    def read_while_a_turn_starts(gd: Any, as_json: bool) -> Any:
        shown = real(gd, as_json)
        reads.append(shown)
        if len(reads) == 1:
            writer = subprocess.Popen([sys.executable, "-c", HOLDER], env=_env(GAME=str(copy), WRITE="1"),
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            writers.append(writer)
            assert writer.stdout is not None and writer.stdout.readline().strip() == "locked"
            threading.Timer(2.0, writer.communicate, ["\n"]).start()      # the turn ends in two seconds
        return shown

    monkeypatch.setattr(status_view, "status", read_while_a_turn_starts)
    try:
        done = CliRunner().invoke(main, ["status", str(copy)])
    finally:
        for writer in writers:
            writer.wait(timeout=60)
    assert done.exit_code == 0, done.output
    assert len(reads) == 2 and done.stdout == reads[1] + "\n"
    assert (f"предупреждение: пока эта команда читала игру, её изменила другая команда forumwar (forumwar turn, "
            f"pid {writers[0].pid}") in done.stderr
    assert "прочитанное могло оказаться половиной этапа; читаю заново, когда та закончит" in done.stderr
    assert "игру сейчас записывает другая команда forumwar" in done.stderr, "it waited for the turn"


def test_a_read_that_failed_on_a_game_being_written_is_read_again(copy, monkeypatch):
    """A read that fails because a file changed under it is no error of the game: it is read again."""
    from click.testing import CliRunner

    from sheets_bridge import status_view
    from sheets_bridge.cli import main
    from sheets_bridge.gamedir import GameDir, GameDirError
    real = status_view.status
    reads: list[int] = []

    def torn(gd: Any, as_json: bool) -> Any:
        reads.append(1)
        if len(reads) == 1:
            GameDir(copy).append_journal({"event": "test"})       # another command writes meanwhile
            raise GameDirError("снимок повреждён")
        return real(gd, as_json)

    monkeypatch.setattr(status_view, "status", torn)
    done = CliRunner().invoke(main, ["status", str(copy)])
    assert done.exit_code == 0, done.output
    assert len(reads) == 2 and "повреждён" not in done.output and "ход 2, этап «приказы»" in done.stdout


def test_a_game_that_keeps_changing_as_it_is_read_is_not_shown(copy, monkeypatch):
    from click.testing import CliRunner

    from sheets_bridge import gamedir, status_view
    from sheets_bridge.cli import main
    monkeypatch.setattr(gamedir, "READ_POLL", 0.01)
    reads: list[int] = []

    def keeps_changing(gd: Any, as_json: bool) -> Any:
        reads.append(1)
        gamedir.GameDir(copy).append_journal({"event": "test"})
        return "показано"

    monkeypatch.setattr(status_view, "status", keeps_changing)
    done = CliRunner().invoke(main, ["status", str(copy)])
    assert done.exit_code == 1 and done.stdout == "", done.output
    assert len(reads) == gamedir.READ_TRIES
    assert ("Ошибка: игру всё время меняет другая команда forumwar: пока она не закончит, в папке может быть "
            "половина этапа, поэтому ничего не показано") in done.stderr


def test_a_command_interrupted_in_a_writable_game_is_named_by_a_reader_which_leaves_its_note(copy, tmp_path):
    note = '{"pid": 4242, "host": "gm-laptop", "command": "turn", "since": "2026-05-01T14:05:00+00:00"}'
    (copy / ".lock-holder.json").write_text(note, encoding="utf-8")
    done = _forumwar("status", str(copy), cwd=tmp_path)
    text = _text(done)
    assert done.returncode == 0
    assert ("предупреждение: прошлая команда forumwar (forumwar turn, pid 4242 на компьютере gm-laptop, с 14:05 "
            "UTC) оборвалась, не закончив работу") in text
    assert (copy / ".lock-holder.json").read_text(encoding="utf-8") == note, "the next turn still sees it"


# -- nothing created, whoever runs the tests ----------------------------------------------------------

def test_read_only_commands_create_nothing_in_a_game_folder(copy, tmp_path):
    """A game with no lock file (a fresh copy; after any command on Windows, whose lock file goes with its
    command): no lock file, no note, no cache, no folder is made, not a file of the game changed or touched."""
    (copy / ".lock").unlink()
    out = tmp_path / "вывод"
    before = _listing(copy)
    for command in SOME_READERS:
        done = _forumwar(*_args(command, copy, out), cwd=tmp_path)
        assert done.returncode == 0, (command, _text(done))
        assert _listing(copy) == before, command
    assert (out / "карта.png").is_file(), "the map's own folder is made where the user asked"


def test_a_reader_that_tries_the_lock_of_an_interrupted_command_changes_nothing(copy, tmp_path):
    """The one case where a reader tries the lock: a holder's note lies in the folder. The lock file is
    opened and let go; nothing is written, and the note stays for the next `turn`."""
    note = '{"pid": 4242, "host": "gm-laptop", "command": "turn", "since": "2026-05-01T14:05:00+00:00"}'
    (copy / ".lock-holder.json").write_text(note, encoding="utf-8")
    before = _listing(copy)
    for command in (["status", "{game}"], ["verify", "{game}", "--offline"]):
        done = _forumwar(*_args(command, copy, tmp_path), cwd=tmp_path)
        assert done.returncode == 0 and "оборвалась, не закончив работу" in _text(done), command
    assert _listing(copy) == before


@pytest.mark.full
def test_without_fcntl_readers_wait_for_the_lock_file_and_create_none(copy, tmp_path):
    """As on Windows: filelock's own lock file exists only while a command holds the game (a holder of
    this test's kind, and a real `check`), and a reader neither leaves one nor mistakes its absence."""
    env = _no_fcntl_env(tmp_path / "no-fcntl")
    (copy / ".lock").unlink()
    done = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", "check", str(copy)], cwd=tmp_path, env=env,
                          capture_output=True, timeout=600)
    assert done.returncode == 0, _text(done)
    assert not (copy / ".lock").exists(), "the lock file went with its command"
    with _holding(copy, PYTHONPATH=env["PYTHONPATH"]) as holding:
        assert (copy / ".lock").exists()
        reader, said = _waiting_reader(["status", str(copy)], tmp_path, env)
        assert f"игру сейчас записывает другая команда forumwar (forumwar turn, pid {holding.pid}" in said
    stdout, stderr = reader.communicate(timeout=600)
    assert reader.returncode == 0 and "ход 2, этап" in stdout.decode(), stderr.decode()
    before = _listing(copy)
    for command in (["status", "{game}"], ["verify", "{game}", "--offline"], ["map", "{game}", "-o", "{out}/к.png"]):
        done = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", *_args(command, copy, tmp_path / "вывод")],
                              cwd=tmp_path, env=env, capture_output=True, timeout=600)
        assert done.returncode == 0, (command, _text(done))
    assert _listing(copy) == before and not (copy / ".lock").exists()


def _invoke(args: list[str]) -> Any:
    from click.testing import CliRunner

    from sheets_bridge.cli import main
    done = CliRunner().invoke(main, args)
    assert done.exception is None or isinstance(done.exception, SystemExit), done.output    # no traceback
    return done


def test_changing_commands_refuse_a_folder_the_system_says_is_not_writable_whoever_runs_the_tests(copy, tmp_path,
                                                                                                   monkeypatch):
    """Root passes over chmod: here the system's answer itself says no (os.access), for every user."""
    real = os.access
    inside = copy.resolve()

    def access(path: Any, mode: int, *args: Any, **kwargs: Any) -> bool:
        if mode & os.W_OK and Path(path).resolve().is_relative_to(inside):
            return False
        return real(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    before = _tree(copy)
    for command in WRITERS:
        done = _invoke(_args(command, copy, tmp_path))
        assert done.exit_code == 1, (command, done.output)
        assert f"Ошибка: эта команда меняет игру, а в папку {copy} нельзя записать: нет прав." in done.stderr
        assert "ей хватит команд, которые ничего не меняют: verify, replay, status, post, map и charts" in done.stderr
    out = tmp_path / "вывод"
    for command in SOME_READERS:
        done = _invoke(_args(command, copy, out))
        assert done.exit_code == 0, (command, done.output)
    assert _tree(copy) == before


def test_a_lock_file_that_does_not_open_whoever_runs_the_tests(copy, tmp_path, monkeypatch):
    """A lock file of another user, simulated for every user (root opens any file): the lock library says
    no. Changing commands refuse in Russian; read-only ones read, and where a command's note lies in the
    folder, they say that whether it still runs cannot be told."""
    import filelock

    class Refused:
        def __init__(self, path: object, *args: object, **kwargs: object) -> None:
            self.path = str(path)

        def acquire(self, *args: object, **kwargs: object) -> None:
            raise PermissionError(errno.EACCES, "Permission denied", self.path)

        def release(self) -> None:
            raise AssertionError("never taken")

    monkeypatch.setattr(filelock, "FileLock", Refused)
    before = _tree(copy)
    for command in WRITERS:
        done = _invoke(_args(command, copy, tmp_path))
        assert done.exit_code == 1, (command, done.output)
        assert f"Ошибка: не удаётся взять блокировку игры: файл {copy / '.lock'} не открывается" in done.stderr
        assert "дальше запускайте forumwar всегда от одного пользователя, без sudo" in done.stderr
    assert _tree(copy) == before
    note = '{"pid": 4242, "host": "gm-laptop", "command": "turn", "since": "2026-05-01T14:05:00+00:00"}'
    (copy / ".lock-holder.json").write_text(note, encoding="utf-8")
    for command in SOME_READERS:
        done = _invoke(_args(command, copy, tmp_path / "вывод"))
        assert done.exit_code == 0, (command, done.output)
        assert ("предупреждение: в папке игры отмечено, что с ней работает команда (forumwar turn, pid 4242 на "
                "компьютере gm-laptop, с 14:05 UTC), а проверить, идёт ли эта команда сейчас, отсюда нельзя") \
            in done.stderr


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


@pytest.mark.full
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


@pytest.mark.full
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
