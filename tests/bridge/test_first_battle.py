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


class Clock:
    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_cold_battle_tells_an_estimate_with_its_margin_then_the_same_odds_as_a_warm_one():
    said: list[str] = []
    heard: list[int] = []
    preparation = Preparation(polls=30)
    got = play(Cold(), SPEC, 1000, 7, say=said.append, progress=heard.append, warm=preparation, clock=Clock(0.5))
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 1000, 7)
    assert preparation.started == 1 and sum(heard) == 1000
    assert said[0] == FAST_WARMING and len(said) == 2, said
    estimate = said[1]
    # 2 s of a clock that says 0.5 s a look: the estimate comes after four steps of five runs
    assert estimate.startswith("первая оценка (разыграно 20 из 1000): атакующий побеждает в "), estimate
    assert "вероятнее всего (95 %) от " in estimate and estimate.endswith("уточняю…")


def test_a_preparation_that_ends_before_the_estimate_is_due_leaves_the_rest_to_the_kernel():
    said: list[str] = []
    got = play(Cold(), SPEC, 400, 2, say=said.append, progress=lambda n: None, warm=Preparation(polls=1),
               clock=Clock(0.01))
    assert said == [FAST_WARMING]
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 400, 2)


def test_a_battle_played_out_on_the_reference_before_the_kernel_is_ready_does_not_wait_for_it():
    preparation = Preparation(polls=10**9)
    got = play(Cold(), SPEC, 150, 4, say=lambda text: None, progress=lambda n: None, warm=preparation,
               clock=Clock(1.0))
    assert got == find_ruleset("jade_rose").battle_simulator().simulate(SPEC, 150, 4)
    assert preparation.polls > 10**9 - 40        # it was looked at only between steps, never waited for


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
    started: list[str] = []
    monkeypatch.setattr(battle_warmup, "start", lambda name: started.append(name))
    simulator = type(find_ruleset("jade_rose").battle_simulator())
    monkeypatch.setattr(simulator, "prepared", lambda self: False)
    assert battle_warmup.warm_for_game("jade_rose") and started == ["jade_rose"]
    monkeypatch.setattr(simulator, "prepared", lambda self: True)
    assert not battle_warmup.warm_for_game("jade_rose") and started == ["jade_rose"]
    assert not battle_warmup.warm_for_game("titania") and started == ["jade_rose"]   # it has no such battles


def test_the_background_preparation_runs_from_any_folder_and_ends(tmp_path, monkeypatch):
    """The detached process really starts (from a folder with a stray numba.py it must not import) and ends
    well; here the kernel is in numba's cache, so it only loads it."""
    find_ruleset("jade_rose").battle_simulator().warm_up()
    (tmp_path / "numba.py").write_text("raise SystemExit(3)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    warming = battle_warmup.start("jade_rose")
    assert warming.process is not None
    assert warming.process.wait(timeout=600) == 0
    assert warming.done()


def test_one_preparation_at_a_time(tmp_path, monkeypatch):
    """A second preparation waits for the first one's lock (here: this test's), then goes on."""
    monkeypatch.setattr(battle_warmup, "lock_path", lambda: Path(tmp_path) / "warm.lock")
    import filelock
    with battle_warmup.preparing():
        with pytest.raises(filelock.Timeout):
            filelock.FileLock(tmp_path / "warm.lock", timeout=0).acquire()
    filelock.FileLock(tmp_path / "warm.lock", timeout=0).acquire()
