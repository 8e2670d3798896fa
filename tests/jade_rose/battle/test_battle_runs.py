"""Issue 38 §6, the engine's part: a battle's runs played in parts (battle/simulate.py: BattleRuns) — the first
on the reference while the kernel is prepared elsewhere, the rest on the kernel — give exactly the odds of
`simulate_battle`; and `fast_compiled.kernel_ready` tells whether the kernel would compile, compiling nothing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.jade_rose.battle import BattleRuns
from engine.jade_rose.battle.fast_compiled import kernel_ready, warm_up
from engine.jade_rose.battle.simulate import REFERENCE_RUNS, simulate_battle
from tests.jade_rose.battle.sample_battles import battle_named
from tests.paths import REPO

pytestmark = pytest.mark.long       # the kernel may compile here (about 25 s) after an edit of fast_kernel.py


@pytest.mark.parametrize("plain", [0, 1, 37, REFERENCE_RUNS + 50])
def test_runs_split_between_the_reference_and_the_kernel_give_simulate_s_odds(plain):
    battle = battle_named("garrison_skip_planning")
    runs = REFERENCE_RUNS + 50
    session = BattleRuns(battle, runs, 11)
    assert session.needs_kernel
    played = sum(session.play_plain(5) for _ in range(0, plain, 5)) if plain else 0
    assert session.done == played == min(runs, -(-plain // 5) * 5)
    heard: list[int] = []
    session.play_rest(progress=heard.append)
    assert session.done == runs and session.left == 0 and sum(heard) == runs - played
    assert not session.needs_kernel
    assert session.odds() == simulate_battle(battle, runs, 11, fast=True) == simulate_battle(battle, runs, 11)


def test_the_odds_so_far_are_those_of_the_first_runs():
    """An estimate is the odds of a prefix of the very runs the final figures are made of."""
    battle = battle_named("empire_vampires")
    session = BattleRuns(battle, 500, 3)
    assert session.play_plain(40) == 40
    so_far = session.odds()
    assert so_far["runs"] == 40 and so_far["seed"] == 3
    first = BattleRuns(battle, 40, 3)      # 40 runs of their own are not a prefix: their seeds are the same
    first.play_rest()
    assert so_far == first.odds()


def test_a_few_runs_never_need_the_kernel():
    session = BattleRuns(battle_named("empire_vampires"), REFERENCE_RUNS, 8)
    assert not session.needs_kernel
    with pytest.raises(ValueError):
        session.odds()
    session.play_rest()
    assert session.odds() == simulate_battle(battle_named("empire_vampires"), REFERENCE_RUNS, 8)


def test_kernel_ready_says_whether_warm_up_would_compile(tmp_path):
    """Ready once compiled (here, or kept in numba's cache); not ready with an empty cache (a process of its
    own with a cache folder of its own), where it only looks: nothing compiled, nothing loaded."""
    warm_up()
    assert kernel_ready()
    code = ("from engine.jade_rose.battle.fast_compiled import kernel_ready; "
            "from engine.jade_rose.battle import fast_kernel; ready = kernel_ready(); "
            "print(ready, dict(fast_kernel.run_chunk.stats.cache_misses), len(fast_kernel.run_chunk.overloads))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "{}", "0"], out.stderr


class Broken:
    """A stand-in for the kernel's dispatcher and numba's private cache behind it, broken at one step (None:
    every step answers, and the index names a data file that is not there)."""

    def __init__(self, step: str | None, missing: Path) -> None:
        self.step, self.missing = step, missing
        self.overloads: dict[object, object] = {}

    def __getattr__(self, name: str):
        if name == self.step:
            raise AttributeError(name)      # numba renamed or dropped it
        return self

    def __call__(self, *args):
        if self.step == "call":
            raise OSError("the index cannot be read")
        return self

    def get(self, key):
        return "fast_kernel.run_chunk-794.py311.1.nbc"

    def _data_path(self, name: str) -> str:
        return str(self.missing / name)


@pytest.mark.parametrize("step", ["_cache", "_cache_file", "_load_index", "_index_key", "targetctx", "call", None])
def test_kernel_ready_is_not_ready_whenever_numba_s_cache_cannot_be_read(monkeypatch, tmp_path, step):
    """The brief of §6: «`kernel_ready()` … reads numba private cache internals — keep it robust (any failure →
    "not ready")». An attribute gone, an index that cannot be read, or an index naming a data file that is not
    there: never an exception, never "ready" (then a wait for the compile, never a kernel that is not there)."""
    from engine.jade_rose.battle import fast_compiled
    monkeypatch.setattr(fast_compiled.k, "run_chunk", Broken(step, tmp_path))
    assert kernel_ready() is False


def test_kernel_ready_is_not_ready_when_numba_cannot_be_imported(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)       # `import numba` raises ImportError
    assert kernel_ready() is False


def test_kernel_ready_reads_the_cache_and_is_not_ready_when_the_kernel_s_compiled_code_is_gone(tmp_path):
    """In a process of its own whose numba cache (a folder of its own) holds a copy of this one's kernel: ready,
    though nothing is loaded; once the data file the index names is removed (the index still names the kernel),
    not ready, since `warm_up` would compile. Nothing is compiled either way (no cold compile in a test)."""
    from engine.jade_rose.battle import fast_kernel
    warm_up()
    here = Path(fast_kernel.run_chunk._cache._cache_path)
    code = """if True:
        import shutil, sys
        from pathlib import Path
        from engine.jade_rose.battle import fast_kernel
        from engine.jade_rose.battle.fast_compiled import kernel_ready
        there = Path(fast_kernel.run_chunk._cache._cache_path)
        there.mkdir(parents=True, exist_ok=True)
        for name in Path(sys.argv[1]).glob("fast_kernel.run_chunk-*"):
            shutil.copy2(name, there / name.name)
        print(kernel_ready())
        for data in there.glob("fast_kernel.run_chunk-*.nbc"):
            data.unlink()
        print(kernel_ready(), len(fast_kernel.run_chunk.overloads), dict(fast_kernel.run_chunk.stats.cache_misses))
    """
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code, str(here)], env=env, cwd=REPO, capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["True", "False", "0", "{}"], out.stderr
