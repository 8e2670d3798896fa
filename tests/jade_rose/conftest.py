"""Shared fixtures of the Jade Rose tests: every battle rule test runs on both implementations."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine.jade_rose.battle import fight_once
from tests.jade_rose.battle_kit import fights, on_kernel, one_round


@pytest.fixture(params=["reference", "kernel"])
def fight(request):
    """`fight_once` of each implementation: the rule tests run on both."""
    return fight_once if request.param == "reference" else on_kernel


@pytest.fixture(params=["reference", "kernel"])
def first_round(request):
    """The first round of a centre-vanguard duel: the reference's `one_round`, or the kernel's battle with a
    one-round limit (whose centre clash uses the same stream, so it must give the same round)."""
    def kernel(battle, seed: int = 1):
        short = replace(battle, constants=replace(battle.constants, max_rounds=1))
        rnd = fights(on_kernel(short, seed), "clash", "center")[0].rounds[0]
        assert rnd == one_round(battle, seed)[1]
        return rnd
    return (lambda battle, seed=1: one_round(battle, seed)[1]) if request.param == "reference" else kernel
