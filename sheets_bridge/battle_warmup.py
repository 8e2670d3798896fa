"""A rule set's fast battles prepared in a process of their own, so that nobody waits for a compiler.

Jade Rose's fast path is a numba kernel: compiled once per machine (about 20 s of CPU, a minute on a busy
machine), then kept in numba's disk cache and loaded in under a second. `battle` starts the preparation
here and plays its first runs on the plain path meanwhile (commands/battle.py); `new` starts it for the
game's later `check`, which then finds the kernel ready. The process is detached (`detached`: creation
flags on Windows, a session of its own on Linux and macOS; nothing POSIX-only): it finishes its work even
when the command that started it has ended or was interrupted, it prints nothing (its streams are the null
device), and a thread of the command waits for its end, so that it is never left a zombie while the
command still runs (once the command has ended, the system adopts and reaps it).

One preparation at a time per user and machine (a file lock in the temporary folder): a second one waits
for the first, then only loads what the first left in the cache. Where the lock cannot be taken (a
temporary folder that refuses it), the preparation goes on without it: at worst two compile at once.

Run as `python -m sheets_bridge.battle_warmup RULESET` (what `start` does, from any folder).
"""
from __future__ import annotations

import contextlib
import getpass
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from engine import find_ruleset


def lock_path() -> Path:
    """The lock one preparation holds, per user (another user's lock file would refuse this one)."""
    try:
        user = getpass.getuser()
    except Exception:       # no user name to be had (no environment, no password entry)
        user = "forumwar"
    safe = "".join(c if c.isalnum() else "_" for c in user)
    return Path(tempfile.gettempdir()) / f"forumwar-battles-{safe}.lock"


PREPARE_WAIT = 300.0    # seconds a preparation waits for another one; then it goes on without the lock


@contextlib.contextmanager
def preparing() -> Iterator[None]:
    """Hold the preparation lock (waiting for another preparation to end, at most PREPARE_WAIT seconds);
    nothing if it cannot be had. Only a lock the system holds (flock, msvcrt) will do: where filelock falls
    back to a lock file alone (no fcntl), the file another preparation left behind would look held forever,
    so the preparation goes on without a lock (at worst two compile at once)."""
    import filelock
    if filelock.FileLock is filelock.SoftFileLock:
        yield
        return
    try:
        guard = filelock.FileLock(lock_path(), timeout=PREPARE_WAIT)
        guard.acquire()
    except (OSError, filelock.Timeout):
        yield
        return
    try:
        yield
    finally:
        guard.release()


def prepare(ruleset_name: str) -> None:
    """Prepare the rule set's fast battles here, one preparation at a time (what the process runs)."""
    simulator = find_ruleset(ruleset_name).battle_simulator()
    if simulator is not None:
        with preparing():
            simulator.warm_up()


BACKGROUND = ("в фоне готовлю расчёт боёв для вкладки «Шансы» (один раз на этом компьютере, обычно меньше "
              "минуты); ждать не нужно")


def warm_for_game(ruleset_name: str) -> bool:
    """At `new`: start preparing the fast battles when the rule set's odds tab will use them and they are
    not ready on this machine (so the game's first `check` does not wait); whether it was started. A
    look that fails (numba broken on this machine) starts nothing and is no error of `new`: the game is
    made, and `check` says what it waits for."""
    rs = find_ruleset(ruleset_name)
    simulator = rs.battle_simulator()
    try:
        if simulator is None or rs.odds_calculator() is None or simulator.prepared():
            return False
    except Exception:
        return False
    return start(rs.name).process is not None


class Warming:
    """A preparation under way in its own process (none: it could not be started)."""

    def __init__(self, process: subprocess.Popen[bytes] | None):
        self.process = process
        self.reaper: threading.Thread | None = None
        if process is not None:     # waits for the process's end, so that it is never left a zombie
            self.reaper = threading.Thread(target=process.wait, name="forumwar-battles-reaper", daemon=True)
            self.reaper.start()

    def done(self) -> bool:
        """Whether the preparation has ended (well or not: the fast path then prepares what is missing)."""
        return self.process is None or self.process.poll() is not None

    def wait(self, seconds: float) -> None:
        """Return when the preparation has ended, or after `seconds` at most."""
        if self.reaper is not None:
            self.reaper.join(seconds)


# Windows' process creation flags (subprocess has them only on Windows)
CREATE_NEW_PROCESS_GROUP = 0x00000200     # Ctrl+C in the console that started it does not reach it
CREATE_NO_WINDOW = 0x08000000             # no console of its own, none shared: no window, nothing printed
CREATE_BREAKAWAY_FROM_JOB = 0x01000000    # not ended with a job (a terminal's) that ends the command


def detached(platform: str, breakaway: bool = True) -> dict[str, Any]:
    """Popen's arguments for a process that outlives the command that starts it, ignores the Ctrl+C
    typed there and prints nothing in its console: on Windows by creation flags (breaking away from the
    command's job when the job allows it, `breakaway`), elsewhere (Linux, macOS) in a session of its own.
    Its standard streams are the null device and it inherits no other file of the command (a pipe the
    command's output goes to is not held open by it)."""
    quiet = subprocess.DEVNULL
    streams: dict[str, Any] = {"stdin": quiet, "stdout": quiet, "stderr": quiet, "close_fds": True}
    if platform == "win32":
        flags = CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW | (CREATE_BREAKAWAY_FROM_JOB if breakaway else 0)
        return {**streams, "creationflags": flags}
    return {**streams, "start_new_session": True}


def start(ruleset_name: str, platform: str = sys.platform) -> Warming:
    """Start preparing the rule set's fast battles in a detached process; it returns at once. A process
    that cannot be started is no error: the command then prepares the fast path itself if it needs it."""
    root = str(Path(__file__).resolve().parents[1])     # where `sheets_bridge` and `engine` are, if not installed
    command = [sys.executable, "-P", "-c", _RUN, root, ruleset_name]
    # on Windows, a job that refuses a breakaway refuses the process (access denied): then without one
    for breakaway in ((True, False) if platform == "win32" else (False,)):
        try:
            return Warming(subprocess.Popen(command, **detached(platform, breakaway)))
        except Exception:       # no interpreter to run (an embedded one), no process allowed
            continue
    return Warming(None)


# The process's program: -P keeps the current folder off sys.path (a stray numba.py there is not imported);
# the source tree goes last, for a forumwar run from it without being installed.
_RUN = ("import sys; sys.path.append(sys.argv[1]); from sheets_bridge.battle_warmup import main; "
        "sys.exit(main(sys.argv[2:]))")


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m sheets_bridge.battle_warmup RULESET", file=sys.stderr)
        return 2
    prepare(argv[0])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
