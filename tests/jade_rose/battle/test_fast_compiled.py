"""The compiled kernel against the reference (battle/fast_compiled.py, fast_kernel.py): one seed, one battle.

Both implementations roll the same dice (engine.rng.Dice: the same splitmix64 streams, the same draws in the
same order), so the kernel's traced battle equals the reference's BattleResult field for field (winner, rounds,
every fight and round, bombards, survivors and losses per unit and per squad) on every public conformance case,
on mixed battles of all four factions, on feature battles that stress one mechanism each (breath and afterburn
with healers, runes, golems and the beer elemental, the round limit) and on random battles (hypothesis); the
odds of many runs are equal to the last digit. No rule needed a statistical fallback, so there is no
distribution test here: equality is checked run by run."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose.battle import fast_kernel as k
from engine.jade_rose.battle import fight_once, simulate
from engine.jade_rose.battle.fast_compiled import fight_compiled
from engine.jade_rose.battle.simulate import simulate_battle
from engine.rng import Dice, sub_seed
from tests.jade_rose.battle.sample_battles import (
    ALL,
    BATTLES,
    battle_named,
)
from tests.jade_rose.battle_strategies import battles

# On a fresh clone the first test here compiles numba's kernel (about 25 s): scheduled among the first
# files, so no worker waits for it at the end, and the later battle tests load it from numba's cache.
pytestmark = pytest.mark.long


def test_kernel_dice_are_engine_rng_dice():
    """The kernel's generator is engine.rng's, bit for bit: the same sub-seeds and the same draws."""
    m = np.zeros(1, dtype=np.int64)
    for seed in (0, 1, 2**63 - 1, 2**63, 2**64 - 1, 123456789):
        for tag in (0, 4, 100):
            k._stream(m, seed - (1 << 64) if seed >= 1 << 63 else seed, tag)
            dice = Dice(sub_seed(seed, tag))
            for n in (1, 2, 3, 7, 100, 2**31 - 1):
                assert k._below(m, n) == dice.below(n)


@pytest.mark.parametrize("name", ALL)
def test_one_seed_gives_the_same_battle_on_both_implementations(name):
    """40 seeds of each battle: the kernel's BattleResult is the reference's, field for field."""
    battle = battle_named(name)
    for seed in range(40):
        assert fight_compiled(battle, seed) == fight_once(battle, seed), (name, seed)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(battles(), st.integers(-2**70, 2**70))
def test_one_seed_gives_the_same_random_battle_on_both_implementations(battle, seed):
    """Random battles of all factions, manoeuvres and side modifiers, any integer seed: the same battle."""
    assert fight_compiled(battle, seed) == fight_once(battle, seed)


@pytest.mark.parametrize("name", ALL)
def test_odds_are_the_same_on_both_implementations(name):
    """120 runs: the simulator's JSON from the kernel equals the one from the reference, battle by battle."""
    battle = battle_named(name)
    assert simulate_battle(battle, 120, 31) == simulate_battle(battle, 120, 31, fast=False)


def test_feature_battles_are_not_degenerate():
    """The feature battles only test something if they unfold: with the round limit every battle times out
    and the defender holds almost always; the others last several rounds and their survivors vary."""
    limit = [fight_once(battle_named("round_limit"), s) for s in range(100)]
    assert all(r.timeout for r in limit) and sum(r.winner == "attacker" for r in limit) < 5
    for name in ("breath_and_healers", "runes_and_golems"):
        results = [fight_once(battle_named(name), s) for s in range(100)]
        assert min(r.rounds for r in results) >= 3, name
        assert len({r.attacker.survivors for r in results}) >= 2, name


def test_mixed_battles_are_not_one_sided():
    """The comparisons above only bite if both sides can win."""
    for name in ("empire_vampires", "dwarves_jade"):
        share = simulate(BATTLES[name], 2000, 3)["attacker_win"]
        assert 0.1 < share < 0.9, (name, share)
