"""Issue 38 §6, the engine's part: a battle's runs played in parts (battle/simulate.py: BattleRuns) — the first
on the reference while the kernel is prepared elsewhere, the rest on the kernel — give exactly the odds of
`simulate_battle`; and `fast_compiled.kernel_ready` tells whether the kernel would compile, compiling nothing."""
from __future__ import annotations

import os
import subprocess
import sys

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
