"""Issue 38 §6: «The first battle does not wait for a compiler.
- No command compiles what it does not use.
- The first odds appear within a few seconds on a cold machine, e.g. an estimate from the reference path with
  its margin, refined once the kernel is ready, or a kernel warmed in the background at `new`.
- `--json` output is JSON whatever the timing, and no test depends on a timer.»

The clock here is a counter the test advances, the kernel's preparation a stand-in that ends when the test
says; the figures are checked against `simulate`'s. How long a cold machine really waits is measured by
`make bench` (benchmarks/bench_first_odds.py), not here."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import find_ruleset
from sheets_bridge import battle_warmup
from sheets_bridge.cli import main
from sheets_bridge.commands import battle as battle_command
from sheets_bridge.commands.battle import FAST_WARMING, play, wilson
from tests.paths import REPO

EXAMPLE = REPO / "templates" / "jade_rose" / "battles" / "example.json"
SPEC = json.loads(EXAMPLE.read_text(encoding="utf-8"))


class Cold:
    """The Jade Rose simulator on a machine where the kernel is not compiled yet (as far as `play` can tell:
    in this test process it is, so the runs left after the preparation load it at once)."""

    def __init__(self) -> None:
        self.real = find_ruleset("jade_rose").battle_simulator()
        self.looked = 0

    def prepared(self) -> bool:
        self.looked += 1
        return self.looked > 1          # not before the preparation, ready after it

    def __getattr__(self, name: str):
        return getattr(self.real, name)


class Preparation:
    """A preparation that ends after `polls` looks."""

    def __init__(self, polls: int) -> None:
        self.polls = polls
        self.started = 0

    def __call__(self) -> Preparation:
        self.started += 1
        return self

    def done(self) -> bool:
        self.polls -= 1
        return self.polls < 0

    def wait(self, seconds: float) -> None:
        self.waited += 1

    waited = 0


class Clock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_cold_battle_tells_an_estimate_with_its_margin_then_the_same_odds_as_a_warm_one():
    """«The first odds appear within a few seconds on a cold machine, e.g. an estimate from the reference path
    with its margin, refined once the kernel is ready.» Here the plain runs left would take far longer than
    a compile, so after the estimate `play` waits for the preparation instead of taking a CPU from it."""
    said: list[str] = []
    heard: list[int] = []
    preparation = Preparation(polls=30)
    got = play(Cold(), SPEC, 1000, 7, say=said.append, progress=heard.append, warm=preparation, clock=Clock(0.5),
               cpu=Clock(0.5))
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 1000, 7)
    assert preparation.started == 1 and sum(heard) == 1000
    assert said[0] == FAST_WARMING and said[2] == battle_command.FAST_WAITING and len(said) == 3, said
    estimate = said[1]
    # 2 s of a clock that says 0.5 s a look: the estimate comes after four steps of five runs
    assert estimate.startswith("первая оценка (разыграно 20 из 1000): атакующий побеждает примерно в "), estimate
    assert "(с вероятностью 95% — от " in estimate and estimate.endswith("); уточняю…")
    # 0.1 s of CPU a run, 980 left: 98 s > the compile's 20 s less the 2 s played; no plain run after the
    # estimate's, the rest on the kernel
    assert heard[:4] == [5, 5, 5, 5] and 5 not in heard[4:] and preparation.waited > 0


def test_a_battle_the_plain_path_finishes_soon_goes_on_after_the_estimate_without_waiting():
    said: list[str] = []
    preparation = Preparation(polls=10**9)
    got = play(Cold(), SPEC, 300, 3, say=said.append, progress=lambda n: None, warm=preparation, clock=Clock(0.1),
               cpu=Clock(0.1))
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 300, 3)
    # the estimate after 100 runs (2 s at 0.02 s a run); the 200 left take 4 s of CPU, less than the compile's
    # 20 s less the 2 s played: played plain
    assert len(said) == 2 and said[1].startswith("первая оценка (разыграно 100 из 300)"), said
    assert preparation.waited == 0 and preparation.polls > 10**9 - 70


def test_a_preparation_that_ends_before_the_estimate_is_due_leaves_the_rest_to_the_kernel():
    said: list[str] = []
    got = play(Cold(), SPEC, 400, 2, say=said.append, progress=lambda n: None, warm=Preparation(polls=1),
               clock=Clock(0.01))
    assert said == [FAST_WARMING]
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 400, 2)


def test_a_battle_played_out_on_the_reference_before_the_kernel_is_ready_does_not_wait_for_it():
    preparation = Preparation(polls=10**9)
    said: list[str] = []
    got = play(Cold(), SPEC, 150, 4, say=said.append, progress=lambda n: None, warm=preparation,
               clock=Clock(0.05))
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 150, 4)
    assert said == [FAST_WARMING]                   # done before an estimate was due
    assert preparation.polls > 10**9 - 40 and preparation.waited == 0   # looked at between steps, never waited for


def test_a_failed_preparation_says_the_kernel_is_prepared_here():
    class Never(Cold):
        def prepared(self) -> bool:
            return False
    said: list[str] = []
    got = play(Never(), SPEC, 300, 1, say=said.append, progress=lambda n: None, warm=Preparation(polls=0))
    assert said == [FAST_WARMING, battle_command.FAST_HERE]
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 300, 1)


def test_a_ready_kernel_or_a_few_runs_start_no_preparation():
    class Refuses:
        def __call__(self) -> Preparation:
            raise AssertionError("nothing to prepare")

    class Ready(Cold):
        def prepared(self) -> bool:
            return True

    class NotAsked(Cold):
        def prepared(self) -> bool:
            raise AssertionError("a few runs play on the reference: nothing to look at")

    said: list[str] = []
    real = find_ruleset("jade_rose").battle_simulator()
    assert play(Ready(), SPEC, 300, 5, say=said.append, progress=lambda n: None, warm=Refuses()) \
        == real.simulate(SPEC, 300, 5)
    assert play(NotAsked(), SPEC, 100, 5, say=said.append, progress=lambda n: None, warm=Refuses()) \
        == real.simulate(SPEC, 100, 5)
    assert said == []


def test_the_estimate_says_how_many_runs_it_is_made_of_and_its_margin_in_russian():
    """«an estimate from the reference path with its margin»: the share so far and its 95 % interval."""
    assert battle_command.estimate_line({"runs": 90, "attacker_win": 0.8}, 1000) == (
        "первая оценка (разыграно 90 из 1000): атакующий побеждает примерно в 80% боёв "
        "(с вероятностью 95% — от 71% до 87%); уточняю…")
    assert battle_command.estimate_line({"runs": 21, "attacker_win": 1.0}, 150).endswith(
        "примерно в 100% боёв (с вероятностью 95% — от 85% до 100%); уточняю…")


def test_the_margin_is_a_wilson_interval():
    assert wilson(0.5, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    low, high = wilson(1.0, 20)
    assert high == 1.0 and low == pytest.approx(0.8389, abs=1e-4)       # not «100 % ± 0»
    assert wilson(0.0, 20)[0] == 0.0


def test_battle_json_on_a_cold_machine_is_only_json_and_the_notices_go_to_stderr(monkeypatch):
    """The CLI as a user runs it, the estimate due at once: stdout is the JSON of a warm run, the preparation
    and the estimate are on stderr."""
    cold = Cold()
    monkeypatch.setattr(type(find_ruleset("jade_rose")), "battle_simulator", lambda self: cold)
    preparation = Preparation(polls=5)
    monkeypatch.setattr(battle_warmup, "start", lambda name: preparation())
    monkeypatch.setattr(battle_command, "ESTIMATE_AFTER", 0.0)
    monkeypatch.setattr(battle_command, "COMPILE_CPU", float("inf"))     # whatever the machine's speed
    got = CliRunner().invoke(main, ["battle", str(EXAMPLE), "--runs", "500", "--seed", "3", "--json"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.stdout) == cold.real.simulate(SPEC, 500, 3)
    assert FAST_WARMING in got.stderr and "первая оценка (разыграно 5 из 500)" in got.stderr
    assert preparation.started == 1


def test_a_few_runs_or_one_report_load_no_compiler(tmp_path):
    """`battle --runs 100` or fewer, and `--report` of one battle, play on the reference: numba is not even
    imported (in a process of its own, as a user's)."""
    code = ("import sys; from sheets_bridge.cli import main\n"
            "for args in (['--runs', '100', '--json'], ['--runs', '1', '--report']):\n"
            "    try:\n"
            "        main(['battle', sys.argv[1], *args])\n"
            "    except SystemExit as exit:\n"
            "        assert not exit.code, exit.code\n"
            "print('numba' in sys.modules, 'engine.jade_rose.battle.fast_kernel' in sys.modules, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code, str(EXAMPLE)], cwd=tmp_path, capture_output=True,
                         text=True, encoding="utf-8", check=True)
    assert out.stderr.split()[-2:] == ["False", "False"], out.stderr


def test_new_prepares_the_battles_in_the_background_when_they_are_not_ready(monkeypatch):
    """«… or a kernel warmed in the background at `new`»: only for a rule set whose odds tab uses it, only when
    it is not ready, and a look that fails never fails `new`."""
    started: list[str] = []

    def start(name: str) -> battle_warmup.Warming:
        started.append(name)
        return battle_warmup.Warming(FakePopen(lambda kwargs: False))
    monkeypatch.setattr(battle_warmup, "start", start)
    simulator = type(find_ruleset("jade_rose").battle_simulator())
    monkeypatch.setattr(simulator, "prepared", lambda self: False)
    assert battle_warmup.warm_for_game("jade_rose") and started == ["jade_rose"]
    monkeypatch.setattr(simulator, "prepared", lambda self: True)
    assert not battle_warmup.warm_for_game("jade_rose") and started == ["jade_rose"]
    assert not battle_warmup.warm_for_game("titania") and started == ["jade_rose"]   # it has no such battles

    def broken(self) -> bool:
        raise ImportError("numba")
    monkeypatch.setattr(simulator, "prepared", broken)
    assert not battle_warmup.warm_for_game("jade_rose") and started == ["jade_rose"]  # `new` goes on


def test_the_background_preparation_runs_from_any_folder_prints_nothing_and_is_reaped(tmp_path, monkeypatch, capfd):
    """The brief of §6: «The detached background preparation process (battle_warmup) must … never leave a zombie
    or print into the user's console.» The process really starts (from a folder with a stray numba.py it must
    not import), ends well (here the kernel is in numba's cache, so it only loads it), writes nothing to the
    console it was started from, and is waited for by the command's own thread: nobody polls it here, yet its
    exit status is collected (on Linux and macOS: no zombie left for waitpid to find)."""
    find_ruleset("jade_rose").battle_simulator().warm_up()
    (tmp_path / "numba.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capfd.readouterr()
    warming = battle_warmup.start("jade_rose")
    assert warming.process is not None and warming.reaper is not None
    warming.reaper.join(timeout=600)
    assert warming.process.returncode == 0          # set by the reaper, never by a poll of this test
    assert warming.done()
    if hasattr(os, "WNOHANG"):
        with pytest.raises(ChildProcessError):
            os.waitpid(warming.process.pid, os.WNOHANG)
    assert capfd.readouterr() == ("", "")


@pytest.mark.parametrize("platform", ["win32", "darwin", "linux"])
def test_the_preparation_is_detached_with_portable_flags(platform):
    """«The detached background preparation process (battle_warmup) must work on Windows/macOS (subprocess flags
    for detaching portably; no POSIX-only call)»: on Windows, creation flags (its own process group, no console
    window, out of the command's job); elsewhere a session of its own; everywhere the null device for its
    streams and none of the command's files (a pipe the command's output goes to is not held open)."""
    kwargs = battle_warmup.detached(platform)
    quiet = subprocess.DEVNULL
    assert (kwargs["stdin"], kwargs["stdout"], kwargs["stderr"], kwargs["close_fds"]) == (quiet, quiet, quiet, True)
    assert "preexec_fn" not in kwargs           # POSIX only, and unsafe beside threads
    if platform == "win32":
        assert "start_new_session" not in kwargs
        assert kwargs["creationflags"] == 0x00000200 | 0x08000000 | 0x01000000
        assert battle_warmup.detached(platform, breakaway=False)["creationflags"] == 0x00000200 | 0x08000000
        if sys.platform == "win32":
            assert (battle_warmup.CREATE_NEW_PROCESS_GROUP, battle_warmup.CREATE_NO_WINDOW,
                    battle_warmup.CREATE_BREAKAWAY_FROM_JOB) == (subprocess.CREATE_NEW_PROCESS_GROUP,
                                                                 subprocess.CREATE_NO_WINDOW,
                                                                 subprocess.CREATE_BREAKAWAY_FROM_JOB)
    else:
        assert kwargs["start_new_session"] is True and "creationflags" not in kwargs


class FakePopen:
    """subprocess.Popen as `start` calls it: refuses what `refuse` says, else a process that has ended."""

    def __init__(self, refuse) -> None:
        self.refuse, self.calls = refuse, []

    def __call__(self, command, **kwargs):
        self.calls.append(kwargs)
        if self.refuse(kwargs):
            raise PermissionError(5, "Access is denied")
        return self

    def wait(self, timeout=None) -> int:
        return 0

    def poll(self) -> int:
        return 0


def test_a_windows_job_that_refuses_a_breakaway_still_gets_its_preparation(monkeypatch):
    popen = FakePopen(lambda kwargs: kwargs["creationflags"] & battle_warmup.CREATE_BREAKAWAY_FROM_JOB)
    monkeypatch.setattr(battle_warmup.subprocess, "Popen", popen)
    warming = battle_warmup.start("jade_rose", platform="win32")
    assert warming.process is popen and len(popen.calls) == 2
    assert not popen.calls[1]["creationflags"] & battle_warmup.CREATE_BREAKAWAY_FROM_JOB


def test_a_preparation_that_cannot_start_is_no_error_and_the_battle_prepares_here(monkeypatch):
    popen = FakePopen(lambda kwargs: True)
    monkeypatch.setattr(battle_warmup.subprocess, "Popen", popen)
    warming = battle_warmup.start("jade_rose")
    assert warming.process is None and warming.done() and len(popen.calls) == 1

    class Never(Cold):
        def prepared(self) -> bool:
            return False
    said: list[str] = []
    got = play(Never(), SPEC, 200, 6, say=said.append, progress=lambda n: None,
               warm=lambda: battle_warmup.start("jade_rose"))
    assert said == [FAST_WARMING, battle_command.FAST_HERE]
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 200, 6)


@pytest.mark.full
def test_titania_commands_and_a_jade_rose_turn_import_no_compiler(tmp_path):
    """«No command compiles what it does not use»: `new`, `check`, `turn` and `status` of a Titania game, and
    `check` (no battle described in «Симулятор»), `turn` and `status` of a Jade Rose game, run in a process of
    their own as a GM's would: numba is never even imported there, so neither kernel nor cache is touched."""
    code = """if True:
        import sys
        from pathlib import Path
        from sheets_bridge.cli import main
        from sheets_bridge.create import create_game
        titania, jade_rose = sys.argv[1:3]
        create_game(Path(jade_rose), "jade_rose", "demo", backend="xlsx", seed="s")
        for args in (["new", "--ruleset", "titania", "--backend", "xlsx", "--seed", "s", titania],
                     ["check", titania], ["turn", "--yes", titania], ["status", titania],
                     ["check", jade_rose], ["turn", "--yes", jade_rose], ["status", jade_rose]):
            try:
                main(args)
            except SystemExit as exit:
                assert not exit.code, (args, exit.code)
        print("numba" in sys.modules, sorted(m for m in sys.modules if ".fast_" in m), file=sys.stderr)
    """
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t"), str(tmp_path / "j")], cwd=tmp_path,
                         capture_output=True, text=True, encoding="utf-8")
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stderr.splitlines()[-1] == "False []", out.stderr[-3000:]


def test_one_preparation_at_a_time(tmp_path, monkeypatch):
    """A second preparation waits for the first one's lock (here: this test's), then goes on."""
    monkeypatch.setattr(battle_warmup, "lock_path", lambda: Path(tmp_path) / "warm.lock")
    import filelock
    with battle_warmup.preparing():
        with pytest.raises(filelock.Timeout):
            filelock.FileLock(tmp_path / "warm.lock", timeout=0).acquire()
    filelock.FileLock(tmp_path / "warm.lock", timeout=0).acquire()


def test_a_preparation_without_a_system_lock_never_waits_for_the_lock_file_left_behind(tmp_path, monkeypatch):
    """Where filelock finds no fcntl it locks by the lock file alone (SoftFileLock), and the file a flock-based
    preparation leaves behind (POSIX never removes it) looked held forever: a `new` run in such a process
    started a preparation that polled for hours, and a `battle` waiting for it with it. It goes on without the
    lock, as the module promises where the lock cannot be had (at worst two compile at once)."""
    import filelock

    from sheets_bridge import battle_warmup
    left = tmp_path / "battles.lock"
    left.write_text("")
    monkeypatch.setattr(battle_warmup, "lock_path", lambda: left)
    monkeypatch.setattr(filelock, "FileLock", filelock.SoftFileLock)
    entered = []
    with battle_warmup.preparing():
        entered.append(True)
    assert entered == [True]


@pytest.mark.skipif(sys.platform == "win32", reason="holds the lock with fcntl.flock, as another process would")
def test_a_preparation_waits_for_another_one_only_so_long(tmp_path, monkeypatch):
    """A preparation held by another process (flock) is waited for at most PREPARE_WAIT seconds, then this one
    goes on without the lock instead of hanging behind a stuck one."""
    import fcntl

    from sheets_bridge import battle_warmup
    path = tmp_path / "battles.lock"
    monkeypatch.setattr(battle_warmup, "lock_path", lambda: path)
    monkeypatch.setattr(battle_warmup, "PREPARE_WAIT", 0.3)
    with open(path, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        entered = []
        with battle_warmup.preparing():
            entered.append(True)
        assert entered == [True]
