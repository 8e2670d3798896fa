"""An army joining a garrison loses exactly its own dead (issue 8 item 9c), DATC style.

Rule book (../shared/seeds/000_d4955973ee03e561.txt): «Каждый юнит просчитывается отдельно»; «…либо оборонять
город (в таком случае ваша армия временно прибавится к гарнизону, см. ниже)»; «…после боя часть раненых юнитов
(если не указано иного, то эта часть равна 20%) удаётся спасти, и они вернутся в строй.»
RULINGS: «Of each side's dead (per unit type, armies only; garrisons refill anyway), round_half_up(20 %) return
(JR-41)»; «garrisons refill at the start of every turn» (JR-54); «Squads with no enemy on their flank wait».

The battle reports the dead of every squad, and of those the garrison's; the turn applies them as they are,
instead of sharing a unit type's dead over garrison and army in proportion to their numbers.
"""
from __future__ import annotations

import pytest

from engine.jade_rose import war
from engine.jade_rose.battle import (
    Position,
    SideSetup,
    SquadSetup,
    battle_constants,
    build_battle,
    fight_once,
    unit_stats,
)
from engine.jade_rose.battle.abilities import round_half_up
from tests.jade_rose.battle_kit import on_kernel
from tests.jade_rose.war_kit import attack, battle_events, make_game, plan_of

UNITS = unit_stats()
CONSTANTS = battle_constants()


@pytest.fixture(params=["reference", "kernel"])
def fight(request, monkeypatch):
    """The battle implementation, in the test and in the turn's battle resolution: the reference, or the
    compiled kernel (checked to give the reference's battle of each seed)."""
    if request.param == "reference":
        return fight_once
    from engine.jade_rose.war import resolution
    monkeypatch.setattr(resolution, "fight_once", on_kernel)
    return on_kernel


def defend_qinghe(state: dict, flank: str, militia: int, seed: int, spearmen: int) -> list[dict]:
    """A jade army of `militia` militiamen defends Цинхэ from the `flank` vanguard; `spearmen` Empire spearmen
    attack it on the left flank only, without planning; the turn's battles resolve."""
    jade = plan_of(state, "jade", [("A", flank, "Авангард", "Ополченец", militia)],
                   [("A", "Оборонять", "Цинхэ", "", "")])
    empire = attack(state, "empire", [("Левый", "Авангард", "Копейщик", spearmen)], "Цинхэ")
    war.form_battles(state, {"jade": jade, "empire": empire}, seed)
    return war.resolve_battles(state, {}, seed)


def test_an_army_beside_the_garrison_loses_exactly_its_own_dead(fight):
    """Setup: Цинхэ's level-1 garrison stands by default (8 militiamen and 8 jade warriors in the centre
    vanguard, 8 slingers behind them); the jade army «A», 12 militiamen, defends the city on the left vanguard.
    Orders: 8 Empire spearmen attack on the left flank only (seed 11).
    Expected per squad: the spearmen all die on the left flank, so there is no finale and the centre, which
    had no enemy on its flank, never fought: the garrison lost nobody; the left vanguard (army «A») lost
    10 militiamen. Expected state: the Jade Court keeps 12 − 10 + round_half_up(20 % × 10) = 4 militiamen
    (shared in proportion, 10 dead over 8 garrison + 12 army militiamen, it kept 7); the report gives the
    left vanguard's losses."""
    state = make_game({"empire": {"Копейщик": 8}, "jade": {"Ополченец": 12}})
    events = defend_qinghe(state, "Левый", 12, seed=11, spearmen=8)
    (fight,) = battle_events(events)
    assert fight["winner"] == "defender"
    assert fight["deaths"]["empire"] == {"empire_spearman": 8}
    assert fight["deaths"]["jade"] == {"jade_militiaman": 10}
    assert fight["army_deaths"]["jade"] == {"jade_militiaman": 10}
    assert state["factions"]["jade"]["units"] == {"jade_militiaman": 12 - 10 + round_half_up(10 * 20, 100)}
    report = state["reports"]["jade"][-1]
    assert "Завершение\nНе понадобилось" in report
    assert "Левый авангард: погибли Ополченец ×10" in report
    assert "из них гарнизон" not in report


def mixed_battle(garrison: int, army: int, spearmen: int) -> tuple:
    """A defending centre-vanguard squad of `garrison` + `army` jade militiamen (the garrison's part marked)
    against `spearmen` Empire spearmen in the centre vanguard."""
    squad = SquadSetup(Position("center", "vanguard"), (("jade_militiaman", garrison + army),),
                       garrison_units=(("jade_militiaman", garrison),), tag="центр")
    attacker = SideSetup("empire", (SquadSetup(Position("center", "vanguard"), (("empire_spearman", spearmen),),
                                               tag="копья"),))
    return build_battle(attacker, SideSetup("jade", (squad,)), UNITS, constants=CONSTANTS, skip_planning=True)


@pytest.mark.parametrize("seed", range(1, 13))
def test_the_battle_reports_each_squad_s_dead_and_the_garrison_s_part(fight, seed):
    """Setup: one defending squad mixing 8 garrison and 10 army militiamen; 14 spearmen attack it.
    Expected: the battle reports the squad by its tag, with dead that add up to the side's dead; of them, no
    more garrison dead than the garrison's 8 and no more army dead than the army's 10; only the army's dead
    recover (20 %, half up), whatever the garrison lost (JR-41)."""
    result = fight(mixed_battle(8, 10, 14), seed)
    side = result.defender
    (squad,) = side.squads
    assert squad.tag == "центр" and squad.position == "center/vanguard"
    assert squad.deployed == (("jade_militiaman", 18),)
    assert squad.losses == side.losses
    dead = dict(squad.losses).get("jade_militiaman", 0)
    garrison_dead = dict(squad.garrison_losses).get("jade_militiaman", 0)
    army_dead = squad.army_losses().get("jade_militiaman", 0)
    assert garrison_dead + army_dead == dead and garrison_dead <= 8 and army_dead <= 10
    assert dict(side.recovered).get("jade_militiaman", 0) == round_half_up(army_dead * 20, 100)
    assert result.attacker.squads[0].garrison_losses == ()


def test_a_mixed_squad_s_army_dead_leave_the_faction_exactly(fight):
    """Setup: the jade army «A», 10 militiamen, defends Цинхэ in the centre vanguard, the cell of the garrison's
    8 militiamen and 8 warriors (one squad, the garrison's part marked). Orders: 20 Empire spearmen attack in
    the centre (seed 5). Expected: the Jade Court loses exactly the army dead the battle reports for that
    squad, less 20 % recovered; the garrison's dead cost it nothing; the report splits that squad's dead
    into garrison and army."""
    state = make_game({"empire": {"Копейщик": 20}, "jade": {"Ополченец": 10}})
    jade = plan_of(state, "jade", [("A", "Центр", "Авангард", "Ополченец", 10)],
                   [("A", "Оборонять", "Цинхэ", "", "")])
    empire = attack(state, "empire", [("Центр", "Авангард", "Копейщик", 20)], "Цинхэ")
    war.form_battles(state, {"jade": jade, "empire": empire}, 5)
    squads = {f"{s['flank']}/{s['line']}": s for s in state["battles"][0]["defence"]["squads"]}
    assert squads["center/vanguard"]["garrison"]["jade_militiaman"] == 8
    (fight,) = battle_events(war.resolve_battles(state, {}, 5))
    army_dead = fight["army_deaths"]["jade"].get("jade_militiaman", 0)
    all_dead = fight["deaths"]["jade"].get("jade_militiaman", 0)
    assert 0 < army_dead <= 10 and all_dead - army_dead <= 8
    kept = 10 - army_dead + round_half_up(army_dead * 20, 100)
    assert state["factions"]["jade"]["units"].get("jade_militiaman", 0) == kept
    report = state["reports"]["jade"][-1]
    assert "Центральный авангард: погибли" in report
    if 0 < army_dead < all_dead:
        assert f"армия: Ополченец ×{army_dead}" in report
