"""The game directory: the authoritative local state of one game. One file on purpose: GameDir owns
the directory's layout (every path, atomic writes, the lock) that other modules go through; the
configuration itself is in gameconfig.py.

Layout:
    game.toml                  configuration (sheets_bridge.gameconfig.GameConfig)
    state/turn-NNNN-STAGE.json one canonical JSON snapshot per turn and stage; a new one is the commit of
                               the stage before it
    state/seeds.json           stage seeds and salts with their commitments, drawn when a stage opens
    state/chain.json           the hash-chain head after each resolved stage
    state/rolled-back/         snapshots set aside by a rollback
    archive/turn-NNNN/         exports of every book, orders as read, statuses, reports, forum posts
                               (post-STAGE-NN-KEY.bbcode; rolled-back-N/: a rolled-back resolution's)
    journal.jsonl              one JSON line per step: openings and pushed books per (snapshot, epoch),
                               rollbacks
    .lock                      held by the forumwar command that changes the game
    .lock-holder.json          who holds it (written under it, removed before it is released)
Every JSON/TOML write is atomic (temporary file in the same directory, then os.replace).

Commands that change the game take the lock (`GameDir.lock`); read-only ones (verify, replay, status,
post, map, charts) never hold it and never write, not even the lock file (`GameDir.read`), so they also
run on a copy of the game the user cannot write to; while a command writes the game they wait for it.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import errno
import getpass
import json
import os
import platform
import re
import sys
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

with warnings.catch_warnings():   # without fcntl or msvcrt it says so at import: the lock file is the fallback
    warnings.simplefilter("ignore")
    import filelock

from engine.state import Envelope, SchemaVersionError, canonical_json, check_schema
from sheets_bridge import fairness
from sheets_bridge.atomic import atomic_write_text, fsync_dir
from sheets_bridge.fairness import SeedRecord
from sheets_bridge.gameconfig import (
    BACKENDS,
    CONFIG_FILE,
    SHARED_BOOKS,
    FactionConfig,
    GameConfig,
    GameConfigError,
    GameDirError,
    config_problems,
    parse_config_text,
)

__all__ = ["BACKENDS", "CONFIG_FILE", "SHARED_BOOKS", "FactionConfig", "GameBusy", "GameConfig", "GameConfigError",
           "GameDir", "GameDirError", "GameLocked", "GameNotWritable", "MissingSeed", "SnapshotConflict",
           "config_problems"]

JOURNAL_FILE = "journal.jsonl"
LOCK_FILE = ".lock"
HOLDER_FILE = ".lock-holder.json"   # who holds the lock: written under it, removed at release
SEEDS_FILE = "seeds.json"
CHAIN_FILE = "chain.json"
SNAPSHOT_RE = re.compile(r"^turn-(\d{4,})-([a-z0-9_]+)\.json$")
STAGE_RE = re.compile(r"^[a-z0-9_]+$")
READ_WAIT = 30.0      # seconds in all a read-only command waits for a command that is writing the game
READ_POLL = 0.25      # how often it looks again
READ_TRIES = 5        # reads made void by a write (a command that keeps writing) before it gives up

T = TypeVar("T")


class GameLocked(GameDirError):
    """Another forumwar command holds the game's lock."""


class GameBusy(GameLocked):
    """A read-only command found the game being written: the lock held, or the files changed as it read them."""


class GameNotWritable(GameDirError):
    """A command that changes the game cannot write to its folder or open its lock (another user's, read-only)."""


class MissingSeed(GameDirError):
    """The open stage has no seed on file (its commitment is already public)."""


class SnapshotConflict(GameDirError):
    """A snapshot with different content already exists for that turn and stage."""


# -- the game directory -------------------------------------------------------------------
class GameDir:
    """One game's directory; `stages` orders the snapshots of a turn (the ruleset's stages)."""

    def __init__(self, path: Path | str, stages: Sequence[str] | None = None,
                 notice: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.notice: Callable[[str], None] = notice or (lambda _text: None)   # what the GM should know
        self._stages = tuple(stages) if stages is not None else None
        self._config: GameConfig | None = None

    @property
    def state_dir(self) -> Path:
        return self.path / "state"

    @property
    def config_path(self) -> Path:
        return self.path / CONFIG_FILE

    @classmethod
    def create(cls, path: Path | str, config: GameConfig,
               stages: Sequence[str] | None = None, *, resume: bool = False) -> GameDir:
        """Make a new game directory; refuses a directory that already holds anything, except,
        with `resume`, a game of the same ruleset, scenario and backend, returned as it is (its
        game.toml, with the books recorded so far, is kept): `new` re-run finishes a half-made game."""
        path = Path(path)
        if resume and (path / CONFIG_FILE).is_file():
            game = cls(path, stages)
            have = game.config
            differ = [f"{name}: {getattr(have, name)!r} вместо {getattr(config, name)!r}"
                      for name in ("ruleset", "scenario", "backend") if getattr(have, name) != getattr(config, name)]
            if differ:
                raise GameDirError(f"в {path} уже есть другая игра ({'; '.join(differ)}); чтобы доделать её, "
                                   "повторите `forumwar new` с её параметрами, или выберите другой каталог")
            return game
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise GameDirError(f"папка {path} уже есть и не пуста: выберите новую папку для игры "
                               "или сначала уберите старую")
        problems = config.problems()
        if problems:
            raise GameConfigError(problems, "настройки новой игры")
        (path / "state").mkdir(parents=True, exist_ok=True)
        (path / "archive").mkdir(exist_ok=True)
        game = cls(path, stages)
        game.save_config(config)
        return game

    # -- configuration ----------------------------------------------------------------
    @property
    def config(self) -> GameConfig:
        if self._config is None:
            try:
                text = self.config_path.read_text(encoding="utf-8")
            except FileNotFoundError:
                raise GameDirError(f"в {self.path} нет {CONFIG_FILE}: это не папка игры forumwar "
                                   "(создайте игру командой forumwar new)") from None
            data = parse_config_text(text, str(self.config_path))
            problems = config_problems(data)
            problems += self._game_problems(data) if isinstance(data, dict) else []
            if problems:
                raise GameConfigError(problems, str(self.config_path))
            self._config = GameConfig.from_dict(data, str(self.config_path))
        return self._config

    def _game_problems(self, data: dict[str, Any]) -> list[str]:
        """What game.toml says that the game's own first snapshot contradicts: another rule set, a
        faction the game does not have or a faction of the game with no entry."""
        first = min((p for p in self.state_dir.glob("turn-*.json") if SNAPSHOT_RE.match(p.name)),
                    default=None) if self.state_dir.is_dir() else None
        if first is None:
            return []
        try:
            env = Envelope.of(json.loads(first.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return []          # a broken snapshot is reported by the command that reads it
        made_with, known = env.ruleset, set(env.faction_ids)
        listed = ", ".join(f"{f.id} («{f.name}»)" for f in env.factions)
        from engine.registry import find_ruleset
        problems = []
        given = data.get("ruleset")
        try:
            same = find_ruleset(str(given)).name == made_with
        except KeyError:
            same = True            # an unknown rule set is one of config_problems
        if not same:
            problems.append(f"ruleset = {given!r}, а игра создана по правилам {made_with!r}: правила "
                            f"игры менять нельзя; верните ruleset = {made_with!r}")
        raw = data.get("factions")
        factions: dict[str, Any] = raw if isinstance(raw, dict) else {}
        for fid in factions:
            if fid not in known:
                problems.append(f"[factions.{fid}]: в этой игре нет такой фракции (фракции игры: {listed}); "
                                "уберите раздел или исправьте идентификатор")
        for f in env.factions:
            if f.id not in factions:
                problems.append(f"нет раздела [factions.{f.id}] для фракции «{f.name}»; верните его")
        return problems

    def save_config(self, config: GameConfig | None = None) -> None:
        """Write game.toml (the given config, or the loaded one after in-place edits)."""
        if config is None:
            config = self.config
        problems = config.problems()
        if problems:
            raise GameConfigError(problems, "сохраняемые настройки игры")
        atomic_write_text(self.config_path, config.to_toml())
        self._config = config

    # -- snapshots --------------------------------------------------------------------
    def snapshot_path(self, turn: int, stage: str) -> Path:
        if not isinstance(turn, int) or turn < 0:
            raise GameDirError(f"номер хода — целое число от 0, а не «{turn}»")
        if not STAGE_RE.match(stage):
            raise GameDirError(f"нет этапа «{stage}»: этапы хода — {self._stage_list()}")
        return self.state_dir / f"turn-{turn:04d}-{stage}.json"

    def write_snapshot(self, state: dict[str, Any], turn: int, stage: str) -> Path:
        """Save a state snapshot; rewriting identical content is a no-op, different content is refused."""
        path = self.snapshot_path(turn, stage)
        text = canonical_json(state)
        if path.exists():
            if path.read_text(encoding="utf-8") == text:
                return path
            raise SnapshotConflict(f"итог хода {turn}, этапа «{self.stage_title(stage)}» уже записан "
                                   f"({path.name}) и отличается; чтобы пересчитать этап, сначала откатите игру "
                                   "к более раннему этапу (forumwar rollback)")
        atomic_write_text(path, text)
        return path

    def snapshots(self) -> list[Path]:
        """Snapshots in game order: by turn, then by the ruleset's stage order; stages the
        ruleset does not list (e.g. "finished") come after, in the order they were written."""
        if not self.state_dir.is_dir():
            return []
        order = self._stage_order()
        found = []
        for path in self.state_dir.iterdir():
            match = SNAPSHOT_RE.match(path.name)
            if match and path.is_file():
                turn, stage = int(match[1]), match[2]
                rank = order.index(stage) if stage in order else len(order)
                written = 0 if stage in order else path.stat().st_mtime_ns
                found.append(((turn, rank, written, stage), path))
        return [path for _, path in sorted(found)]

    def read_snapshot(self, turn: int, stage: str) -> dict[str, Any]:
        path = self.snapshot_path(turn, stage)
        try:
            return _snapshot(path)
        except FileNotFoundError:
            raise GameDirError(f"нет снимка хода {turn}, этапа «{self.stage_title(stage)}» ({path})") from None

    def latest_state(self) -> dict[str, Any]:
        snapshots = self.snapshots()
        if not snapshots:
            raise GameDirError(f"в {self.state_dir} нет ни одного снимка состояния: игра не начата")
        return _snapshot(snapshots[-1])

    def rollback(self, turn: int, stage: str) -> list[Path]:
        """Move every snapshot after (turn, stage) to state/rolled-back/; return their new paths."""
        keep = self.snapshot_path(turn, stage)
        snapshots = self.snapshots()
        if keep not in snapshots:
            raise GameDirError(f"нет снимка хода {turn}, этапа «{self.stage_title(stage)}»: откатиться к нему "
                               "нельзя")
        later = snapshots[snapshots.index(keep) + 1:]
        target_dir = self.state_dir / "rolled-back"
        target_dir.mkdir(exist_ok=True)
        moved = []
        for path in later:
            target = target_dir / path.name
            n = 1
            while target.exists():
                target = target_dir / f"{path.stem}.{n}{path.suffix}"
                n += 1
            os.replace(path, target)
            moved.append(target)
        fsync_dir(self.state_dir)
        return moved

    def archive_path(self, turn: int) -> Path:
        """The archive folder of a turn (not created: read-only commands use this)."""
        return self.path / "archive" / f"turn-{turn:04d}"

    def archive_dir(self, turn: int) -> Path:
        path = self.archive_path(turn)
        path.mkdir(parents=True, exist_ok=True)
        return path

    def stage_archive_files(self, turn: int, stage: str) -> list[Path]:
        """The archive files one resolution of (turn, stage) wrote: orders as read, statuses,
        reports, forum posts and the books' exports."""
        folder = self.archive_path(turn)
        if not folder.is_dir():
            return []
        exports = {f"{key}-{stage}.xlsx" for key in self.config.books}
        return sorted(p for p in folder.iterdir() if p.is_file() and (
            p.name.startswith((f"orders-{stage}-", f"report-{stage}-", f"post-{stage}-", f"charts-{stage}-"))
            or p.name in (f"statuses-{stage}.json", f"events-{stage}.json", f"map-{stage}.png")
            or p.name in exports))

    def set_aside_archive(self, stages: Sequence[tuple[int, str]], epoch: int) -> None:
        """Move the archives of rolled-back resolutions to archive/turn-NNNN/rolled-back-EPOCH/,
        beside the new resolution's files."""
        for turn, stage in stages:
            files = self.stage_archive_files(turn, stage)
            if not files:
                continue
            target = self.archive_path(turn) / f"rolled-back-{epoch}"
            target.mkdir(exist_ok=True)
            for path in files:
                os.replace(path, target / path.name)
            fsync_dir(self.archive_path(turn))

    def rolled_back_archive(self, turn: int, epoch: int) -> Path:
        return self.archive_path(turn) / f"rolled-back-{epoch}"

    # -- journal ----------------------------------------------------------------------
    def append_journal(self, entry: dict[str, Any]) -> None:
        """Append one JSON line and fsync it; a torn last line from a crash is fenced off."""
        line = json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n"
        path = self.path / JOURNAL_FILE
        with open(path, "a+b") as fh:
            if fh.tell() > 0:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    fh.write(b"\n")
            fh.write(line.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())

    def journal(self) -> list[dict[str, Any]]:
        """Journal entries in order; a torn line left by a crash is skipped."""
        try:
            data = (self.path / JOURNAL_FILE).read_bytes()
        except FileNotFoundError:
            return []
        entries = []
        for raw in data.split(b"\n"):
            try:
                entry = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if isinstance(entry, dict):
                entries.append(entry)
        return entries

    def _remove_stale_temporaries(self) -> None:
        """Delete what atomic writes killed mid-way left (".NAME.*.tmp"); safe under the exclusive lock."""
        for folder in ("state", "archive", "books"):
            root = self.path / folder
            if root.is_dir():
                for path in root.rglob(".*.tmp"):
                    with contextlib.suppress(FileNotFoundError):
                        path.unlink()

    def epoch(self) -> int:
        """How many rollbacks the game has seen; journal records of pushes carry it."""
        return sum(1 for e in self.journal() if e.get("event") == "rolled_back")

    # -- lock -------------------------------------------------------------------------
    @contextlib.contextmanager
    def lock(self, shared: bool = False) -> Iterator[None]:
        """Lock the game, never waiting; raises GameLocked if another command holds it.

        For the commands that change the game: one at a time. Before anything else it checks that this
        user can write every folder of the game and the files a command rewrites (GameNotWritable says
        where and what to do: a read-only copy, files left by `sudo forumwar …`). The lock is
        filelock's: the operating system's (flock on POSIX, msvcrt on Windows), which dies with its
        process, or where neither exists a lock file that filelock breaks once its holder is gone.
        The holder's note (.lock-holder.json) a crashed command leaves behind is how the next one
        sees that it was interrupted; `self.notice` tells the GM. `shared` (no clean-up of what a
        killed write left) is for a command that holds the game still while it reads it; the read-only
        commands use `read`, which holds nothing."""
        if not shared:
            self._require_writable()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise GameNotWritable(self._unwritable_text(self.path, exc.errno)) from None
        guard = filelock.FileLock(self.path / LOCK_FILE, timeout=0)
        try:
            guard.acquire(timeout=0)
        except filelock.Timeout:
            raise GameLocked(f"с этой игрой уже работает другая команда forumwar ({self._holder_text()}); "
                             "дождитесь её окончания и повторите") from None
        except OSError as exc:
            raise GameNotWritable(self._lock_file_text(exc.errno)) from None
        try:
            self._take_over(cleanup=not shared)
            try:
                yield
            finally:
                with contextlib.suppress(FileNotFoundError):
                    (self.path / HOLDER_FILE).unlink()
        finally:
            guard.release()

    def read(self, read: Callable[[], T]) -> T:
        """`read()`'s result, read from the game as it stands, writing nothing and holding no lock (verify,
        replay, status, post, map, charts): so it works on a copy the user cannot write to, creates no file
        in the game's folder (not even the lock file), and never keeps a `turn` out.

        A half-written game is never returned as a whole one. A command that writes the game leaves its
        holder's note for as long as it holds the lock, so: with no note, nobody is writing; with one, the
        lock tells whether its command still runs. While it runs this waits, having said so (`notice`), at
        most READ_WAIT seconds in all, then gives up (GameBusy): nothing read is shown. A note whose command
        is gone is a command interrupted, said and read. Where the lock cannot be tried (a read-only copy, a
        lock file of another user), it is said that a command may be writing. Whatever the case, every file
        of the game is compared before and after the read: a read during which anything changed (a command
        that starts meanwhile writes its note first) is void, even when it failed, and is done again once
        the writer is done. The caller shows its results only after this returns."""
        waited, voided, told = 0.0, 0, set()

        def say(what: str, text: str) -> None:
            if what not in told:
                told.add(what)
                self.notice(text)

        def pause(why: str) -> None:
            nonlocal waited
            if waited >= READ_WAIT or voided >= READ_TRIES:
                raise GameBusy(why + ": пока она не закончит, в папке может быть половина этапа, поэтому ничего "
                               "не показано. Дождитесь её окончания и повторите")
            time.sleep(READ_POLL)
            waited += READ_POLL

        while True:
            holder = self._holder()
            held = self._held() if holder is not None else False
            if holder is not None and held:
                say("busy", f"игру сейчас записывает другая команда forumwar ({_holder_words(holder)}): жду, пока "
                            f"она закончит (не дольше {READ_WAIT:.0f} с), чтобы не показать половину этапа")
                pause(f"игру всё ещё записывает другая команда forumwar ({_holder_words(holder)})")
                continue
            if holder is not None and held is False:
                say("left", f"прошлая команда forumwar ({_holder_words(holder)}) оборвалась, не закончив работу "
                            "(сбой, Ctrl+C или выключенный компьютер); показано то, что она успела записать. Если "
                            "она рассчитывала этап, forumwar turn доделает его.")
            elif holder is not None:
                say("unknown", f"в папке игры отмечено, что с ней работает команда ({_holder_words(holder)}), а "
                               "проверить, идёт ли эта команда сейчас, отсюда нельзя (папка только для чтения или "
                               "блокировка другого пользователя). Если она ещё идёт, дождитесь её окончания и "
                               "повторите; если её прервали, показано то, что она успела записать.")
            before = self._fingerprint()
            try:
                result = read()
            except Exception:
                if self._fingerprint() == before:
                    raise
            else:
                if self._fingerprint() == before:
                    return result
            voided += 1
            now = self._holder()
            who = f" ({_holder_words(now)})" if now is not None else ""
            say("void", f"пока эта команда читала игру, её изменила другая команда forumwar{who}: прочитанное "
                        "могло оказаться половиной этапа; читаю заново, когда та закончит")
            pause(f"игру всё время меняет другая команда forumwar{who}")

    def _held(self) -> bool | None:
        """Whether a command holds the game's lock now (taken and at once released: never waits, creates no
        lock file); None when it cannot be told: a lock file this user cannot open, on a folder or a disk
        only for reading."""
        lock_file = self.path / LOCK_FILE
        if not lock_file.exists():
            return False                  # a command that holds the lock keeps its file
        guard = filelock.FileLock(lock_file, timeout=0)
        try:
            guard.acquire(timeout=0)
        except filelock.Timeout:
            return True
        except OSError:
            return None
        guard.release()
        return False

    def _fingerprint(self) -> list[tuple[str, int, int, int]]:
        """Every file of the game but the lock (path, size, modification time, file number): any write shows
        in it, an atomic replace as a new file number even where the clock of the disk is coarse."""
        found = []
        for root, _dirs, files in os.walk(self.path):
            for name in files:
                path = Path(root, name)
                if path == self.path / LOCK_FILE:
                    continue
                with contextlib.suppress(OSError):         # gone as it was listed: a change all the same
                    info = path.stat()
                    found.append((path.relative_to(self.path).as_posix(), info.st_size, info.st_mtime_ns,
                                  info.st_ino))
        return sorted(found)

    def _require_writable(self) -> None:
        """GameNotWritable, with where and what to do, if this user cannot write the game: each of its
        folders, and the files a command appends to or replaces (those of the game's own folder, state/
        and books/; on Windows a read-only file cannot be replaced)."""
        if not self.path.is_dir():
            return
        if not os.access(self.path, os.W_OK | os.X_OK):
            raise GameNotWritable(self._unwritable_text(self.path, errno.EROFS if _read_only_disk(self.path)
                                                        else None))
        lock_file = self.path / LOCK_FILE
        if lock_file.exists() and not os.access(lock_file, os.R_OK | os.W_OK):
            raise GameNotWritable(self._lock_file_text(errno.EACCES))
        for root, dirs, files in os.walk(self.path):
            folder = Path(root)
            if not os.access(folder, os.W_OK | os.X_OK):
                raise GameNotWritable(self._unwritable_text(folder))
            dirs.sort()
            if folder == self.path or (folder.parent == self.path and folder.name in ("state", "books")):
                for name in sorted(files):
                    if not os.access(folder / name, os.W_OK):
                        raise GameNotWritable(self._unwritable_text(folder / name))

    def _unwritable_text(self, where: Path, error: int | None = None) -> str:
        """Why a command that changes the game cannot write `where`, and what to do, in the GM's words."""
        what = "в файл" if where.is_file() else "в папку"
        if error == errno.EROFS:
            why = "диск только для чтения"
            fix = "скопируйте её папку на диск, куда можно писать, и запускайте forumwar там"
        else:
            why, fix = "нет прав" + _whose(where), _give_back(self.path, where)
        return (f"эта команда меняет игру, а {what} {where} нельзя записать: {why}. Если это копия игры для "
                "проверки, ей хватит команд, которые ничего не меняют: verify, replay, status, post, map и "
                f"charts. Чтобы вести игру, {fix}")

    def _lock_file_text(self, error: int | None) -> str:
        """Why the lock file cannot be opened (another user's, or made unreadable), and what to do."""
        lock_file = self.path / LOCK_FILE
        owner, me = _owner(lock_file), _user()
        if error == errno.EROFS:
            whose = "лежит на диске только для чтения"
        elif owner and me and owner != me:
            whose = (f"принадлежит пользователю {owner}, а команда запущена от имени {me}: его оставила команда "
                     f"forumwar, запущенная от имени {owner} (например, через sudo)")
        elif os.access(lock_file, os.R_OK):
            whose = "не открывается на запись: нет прав"
        else:
            whose = "не открывается: нет прав на чтение"
        return (f"не удаётся взять блокировку игры: файл {lock_file} {whose}. Если сейчас с этой игрой не работает "
                f"ни одна команда forumwar, {_give_back(self.path, lock_file)}; дальше запускайте forumwar всегда "
                "от одного пользователя, без sudo")

    def _take_over(self, cleanup: bool) -> None:
        """Under the lock: explain a holder's note a crashed command left, then leave ours; `cleanup`
        deletes what a killed atomic write left."""
        left = self._holder()
        if left is not None:
            self.notice(f"прошлая команда forumwar ({_holder_words(left)}) оборвалась, не закончив работу "
                        "(сбой, Ctrl+C или выключенный компьютер); её блокировка игры снята. Если она "
                        "рассчитывала этап, forumwar turn доделает его, ничего не считая дважды.")
        command = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else ""
        note = {"pid": os.getpid(), "host": platform.node(), "command": command,
                "since": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
        atomic_write_text(self.path / HOLDER_FILE, json.dumps(note, ensure_ascii=False))
        if cleanup:
            self._remove_stale_temporaries()

    def _holder(self) -> dict[str, Any] | None:
        try:
            data = json.loads((self.path / HOLDER_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def _holder_text(self) -> str:
        holder = self._holder()
        return _holder_words(holder) if holder is not None else "она только начинает"

    # -- seeds ----------------------------------------------------------------------
    def open_seed(self, turn: int, stage: str) -> SeedRecord:
        """The stage's dice, drawn now if the stage has none yet (call when the stage opens)."""
        key = self.snapshot_path(turn, stage).stem
        seeds = self._read_seeds()
        if key in seeds:
            return SeedRecord.from_json(seeds[key])
        record = fairness.draw(self.config.seed, turn, stage, self.epoch())
        seeds[key] = record.to_json()
        self._write_seeds(seeds)
        return record

    def stage_seed(self, turn: int, stage: str) -> SeedRecord:
        """The dice of an open stage; a missing seed stops the stage (its commitment is public)."""
        key = self.snapshot_path(turn, stage).stem
        seeds = self._read_seeds()
        if key not in seeds:
            raise MissingSeed(
                f"нет зерна случайности для хода {turn}, этапа «{self.stage_title(stage)}» "
                f"в {self.state_dir / SEEDS_FILE}: "
                f"его хеш уже опубликован, и новое зерно его бы не совпало. Восстановите seeds.json "
                f"из резервной копии; если копии нет, откатите этап командой forumwar rollback "
                f"с --reopen (будет вытянуто и опубликовано новое зерно)")
        return SeedRecord.from_json(seeds[key])

    def reveal_seed(self, turn: int, stage: str) -> SeedRecord:
        """Mark the stage seed as published (after the stage resolved) and return it."""
        record = self.stage_seed(turn, stage)
        if not record.revealed:
            seeds = self._read_seeds()
            seeds[self.snapshot_path(turn, stage).stem]["revealed"] = True
            self._write_seeds(seeds)
        return SeedRecord.from_json({**record.to_json(), "revealed": True})

    def retire_seeds(self, keys: Sequence[str], epoch: int) -> None:
        """Set the seeds of rolled-back stages aside (kept for audit) so they are drawn afresh."""
        seeds = self._read_seeds()
        moving = [k for k in keys if k in seeds]
        if not moving:
            return
        retired = seeds.setdefault("_retired", {})
        for key in moving:
            retired[f"{key}@{epoch}"] = seeds.pop(key)
        self._write_seeds(seeds)

    def seed_records(self) -> list[dict[str, Any]]:
        """Public fairness records in game order: turn, stage, commitment, and seed and salt
        once revealed ("" before)."""
        records = []
        for key, item in self._read_seeds().items():
            match = SNAPSHOT_RE.match(key + ".json")
            if not match:
                continue
            record = SeedRecord.from_json(item)
            records.append({"turn": int(match[1]), "stage": match[2], "commitment": record.commitment,
                            "seed": record.seed if record.revealed else "",
                            "salt": record.salt if record.revealed else "",
                            "deterministic": record.deterministic})
        order = self._stage_order()
        return sorted(records, key=lambda r: (
            r["turn"], order.index(r["stage"]) if r["stage"] in order else len(order), r["stage"]))

    def _read_seeds(self) -> dict[str, Any]:
        path = self.state_dir / SEEDS_FILE
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except json.JSONDecodeError as exc:
            raise GameDirError(f"{path} повреждён ({exc}); восстановите его из резервной копии") from None
        return data

    def _write_seeds(self, seeds: dict[str, Any]) -> None:
        atomic_write_text(self.state_dir / SEEDS_FILE, canonical_json(seeds))

    # -- hash chain -------------------------------------------------------------------
    def chain(self) -> dict[str, str]:
        """Recorded chain heads: snapshot stem of each resolved stage -> the head after it."""
        return dict(self._read_chain()["heads"])

    def record_link(self, key: str, head: str) -> None:
        data = self._read_chain()
        if data["heads"].get(key) != head:
            data["heads"][key] = head
            atomic_write_text(self.state_dir / CHAIN_FILE, canonical_json(data))

    def retired_links(self) -> dict[str, str]:
        """Chain heads of rolled-back stages: `STEM@EPOCH` -> the head it had before the rollback."""
        return dict(self._read_chain()["retired"])

    def retire_links(self, keys: Sequence[str], epoch: int) -> None:
        """Set the links of rolled-back stages aside (kept for audit)."""
        data = self._read_chain()
        moving = [k for k in keys if k in data["heads"]]
        if moving:
            for key in moving:
                data["retired"][f"{key}@{epoch}"] = data["heads"].pop(key)
            atomic_write_text(self.state_dir / CHAIN_FILE, canonical_json(data))

    def _read_chain(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads((self.state_dir / CHAIN_FILE).read_text(encoding="utf-8"))
        except FileNotFoundError:
            data = {}
        return {"heads": dict(data.get("heads", {})), "retired": dict(data.get("retired", {}))}

    def stage_title(self, stage: str) -> str:
        """The stage's Russian name in the game's rule set (its id when the rule set is unknown)."""
        try:
            from engine.registry import find_ruleset
            return find_ruleset(self.config.ruleset).stage_title(stage)
        except Exception:  # an unknown or broken ruleset must not hide the error being reported
            return stage

    def _stage_list(self) -> str:
        return ", ".join(f"{s} ({self.stage_title(s)})" for s in self._stage_order()) or "—"

    def _stage_order(self) -> tuple[str, ...]:
        if self._stages is None:
            self._stages = ()
            try:
                from engine.registry import find_ruleset
                self._stages = tuple(find_ruleset(self.config.ruleset).stages)
            except Exception:  # an unknown or broken ruleset must not stop the game directory
                pass
        return self._stages


def _snapshot(path: Path) -> dict[str, Any]:
    """A snapshot file's state, refused in Russian when it is not JSON or not in the format this code reads."""
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise GameDirError(f"снимок {path} повреждён ({exc}); восстановите его из резервной копии") from None
    if not isinstance(state, dict):
        raise GameDirError(f"снимок {path} повреждён: в нём не состояние игры")
    try:
        check_schema(state)
    except SchemaVersionError as exc:
        raise GameDirError(f"снимок {path}: {exc}") from None
    return state


def _holder_words(holder: dict[str, Any]) -> str:
    """The holder's note as the GM reads it: «forumwar turn, pid 4242 на компьютере gm-laptop, с 14:05 UTC»."""
    command = f"forumwar {holder.get('command', '')}".strip()
    since = str(holder.get("since", ""))[11:16]
    where = f" на компьютере {holder['host']}" if holder.get("host") else ""
    return f"{command}, pid {holder.get('pid', '?')}{where}" + (f", с {since} UTC" if since else "")


def _read_only_disk(path: Path) -> bool:
    """Whether `path` is on a disk mounted only for reading (a CD, a read-only mount of a downloaded copy);
    False where the system does not say (Windows)."""
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except (AttributeError, OSError):
        return False


def _owner(path: Path) -> str | None:
    """Who owns a file or folder (None where the system does not say: Windows, a user of no name)."""
    try:
        return path.owner()
    except (NotImplementedError, KeyError, OSError):
        return None


def _user() -> str | None:
    """The user this command runs as (None where the system does not say)."""
    try:
        return getpass.getuser()
    except (KeyError, OSError, ImportError):
        return None


def _whose(path: Path) -> str:
    """« (владелец — root, а команда запущена от имени ivan)» when another user owns `path`, else ""."""
    owner, me = _owner(path), _user()
    return f" (владелец — {owner}, а команда запущена от имени {me})" if owner and me and owner != me else ""


def _give_back(game: Path, where: Path) -> str:
    """What to do so that this user can write the game again, on this system: `where` is what failed."""
    if sys.platform == "win32":
        return ("снимите с папки игры и её файлов атрибут «Только чтение» (Свойства папки) и дайте себе право "
                "«Изменение» (Свойства → Безопасность), или запускайте forumwar от имени владельца папки")
    owner, me = _owner(where), _user()
    if owner and me and owner != me:
        return (f"запускайте forumwar от имени владельца папки или верните игру себе: sudo chown -R {me} "
                f"\"{game}\"")
    return f"разрешите себе запись в папку игры: chmod -R u+rwX \"{game}\""
