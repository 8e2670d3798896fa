"""Invariants of the battle engine over random battles (hypothesis): no unit above max HP, the dead never act or
heal, the same seed gives the same battle, a battle always ends, recovery never returns more than died; the
compiled kernel keeps the same bookkeeping."""
from __future__ import annotations

from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.jade_rose.battle import (
    battle_constants,
    fight_once,
    unit_stats,
)
from engine.jade_rose.battle import fight as fight_mod
from engine.jade_rose.battle.simulate import kernel_runs, run_seeds
from tests.jade_rose.battle_strategies import battles

UNITS = unit_stats()
CONST = battle_constants()
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                           HealthCheck.too_slow])


def _instrumented():
    """Wrap the fight loop: attackers are alive; after each round nobody is above max HP and no dead unit
    regained HP."""
    attack, end = fight_mod._attack, fight_mod._end_of_round

    def checked_attack(rng, att, *args, **kw):
        assert att.alive and att.hp > 0, "a dead unit attacked"
        return attack(rng, att, *args, **kw)

    def checked_end(rng, setup, *args, **kw):
        units = [u for r in ("attacker", "defender") for g in (setup.groups[r], setup.support.get(r)) if g
                 for u in g.units]
        dead_hp = {u.uid: u.hp for u in units if not u.alive}
        end(rng, setup, *args, **kw)
        for u in units:
            assert u.hp <= u.stats.hp, f"{u} above max HP"
            if u.uid in dead_hp:
                assert u.hp <= dead_hp[u.uid], f"dead {u} healed"
    return (mock.patch.object(fight_mod, "_attack", checked_attack),
            mock.patch.object(fight_mod, "_end_of_round", checked_end))


@SETTINGS
@given(battles(), st.integers(0, 2**32))
def test_no_unit_above_max_hp_and_the_dead_never_act(battle, seed):
    a, b = _instrumented()
    with a, b:
        fight_once(battle, seed)


@SETTINGS
@given(battles(), st.integers(0, 2**32))
def test_same_seed_gives_the_same_battle(battle, seed):
    assert fight_once(battle, seed) == fight_once(battle, seed)


@SETTINGS
@given(battles(), st.integers(0, 2**32))
def test_a_battle_always_ends_with_a_winner(battle, seed):
    result = fight_once(battle, seed)
    assert result.winner in ("attacker", "defender")
    assert all(1 <= f.round_count <= CONST.max_rounds for f in result.fights)
    fighting = {r: result.side(r).total("survivors") - result.side(r).total("idle") for r in ("attacker", "defender")}
    if not result.timeout:
        assert not (fighting["attacker"] and fighting["defender"])
    if fighting[result.winner] == 0:
        assert fighting["attacker"] == fighting["defender"] == 0 and result.winner == CONST.tie_winner


@SETTINGS
@given(battles(), st.integers(0, 2**32))
def test_recovery_never_returns_more_than_died(battle, seed):
    result = fight_once(battle, seed)
    for role in ("attacker", "defender"):
        side = result.side(role)
        losses, recovered = dict(side.losses), dict(side.recovered)
        assert all(recovered[k] <= losses.get(k, 0) for k in recovered)
        deployed, survivors, idle = dict(side.deployed), dict(side.survivors), dict(side.idle)
        for k in set(deployed) | set(survivors):
            assert deployed.get(k, 0) + idle.get(k, 0) == survivors.get(k, 0) + losses.get(k, 0)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(battles(), st.integers(0, 2**32))
def test_kernel_bookkeeping_on_random_battles(battle, seed):
    won, rounds, every, timeout, alive = kernel_runs(battle, run_seeds(40, seed), workers=1)
    n_attacker = sum(n for sq in battle.attacker.squads for _, n in sq.units)
    assert alive.shape == (40, n_attacker + sum(n for sq in battle.defender.squads for _, n in sq.units))
    attacker_alive = alive[:, :n_attacker].any(axis=1)
    defender_alive = alive[:, n_attacker:].any(axis=1)
    assert not (attacker_alive & defender_alive & ~timeout).any()
    assert ((won == (attacker_alive & ~defender_alive)) | timeout | (attacker_alive == defender_alive)).all()
    assert (rounds <= every).all()
