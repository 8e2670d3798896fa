"""What `forumwar status` says of a Jade Rose game (the rule set's `summary`, `figures` and `awaiting`)."""
from __future__ import annotations

from engine import find_ruleset
from engine.jade_rose import war
from tests.jade_rose.war_kit import make_game, plan_of

RS = find_ruleset("jade_rose")


def _two_attacks() -> dict:
    """Turn 3 (Dawn: two armies may attack). The Empire's army «1» attacks Цинхэ (the Jade Court's garrison
    holds it: a battle with a planning phase); its army «2» attacks Монс, the dwarves' city lying in ruins
    (no one defends ruins: taken without a fight)."""
    state = make_game({"empire": {"Копейщик": 10}}, turn=3)
    state["cities"]["mons"]["ruins"] = True
    plan = plan_of(state, "empire",
                   [("1", "Центр", "Авангард", "Копейщик", 5), ("2", "Центр", "Авангард", "Копейщик", 5)],
                   [("1", "Атаковать", "Цинхэ", "Колонизировать", "Нет"),
                    ("2", "Атаковать", "Монс", "Колонизировать", "Нет")])
    statuses = war.form_battles(state, {"empire": plan}, 1)
    assert all(s.ok for s in statuses["empire"]), [s.text() for s in statuses["empire"]]
    assert war.needs_planning(state)
    state["stage"] = "planning"
    return state


def test_an_undefended_city_is_no_battle_waiting_for_planning():
    """Issue 38 §1: «`status` counts battles wrongly. It says «Боёв ждут планирования: 2» when only one battle
    needs planning: an undefended city is not such a battle.» RULINGS (Jade Rose: turn, stage orders): «If a
    battle needs planning, the stage ends by revealing each battle's deployments to its participants»; ruins are
    not cities (JR-51) and have no garrison.
    Setup: two attacks of the Empire, on Цинхэ (garrisoned) and on the ruins of Монс.
    Expected: one battle waits for planning; the Empire and the Jade Court are asked for manoeuvres, the
    dwarves (whose ruins are taken without a fight) are not."""
    state = _two_attacks()
    assert len(state["battles"]) == 2
    assert "Боёв ждут планирования: 1" in RS.summary(state).lines
    assert RS.figures(state)["pending_battles"] == 1
    awaiting = RS.awaiting(state)
    assert awaiting["empire"] and awaiting["jade"]
    assert awaiting["dwarves"] == [] and awaiting["vampires"] == []


def test_no_battle_to_plan_no_line():
    """An attack «Без планирования» on a city its garrison alone defends has nothing to plan (rule book: «атакующий
    имеет право пропустить фазу планирования. Ни одна из сторон в таком случае просто не использует манёвры»):
    no «Боёв ждут планирования» line, and no faction is asked for manoeuvres."""
    state = make_game({"empire": {"Копейщик": 5}})
    plan = plan_of(state, "empire", [("1", "Центр", "Авангард", "Копейщик", 5)],
                   [("1", "Атаковать", "Цинхэ", "Колонизировать", "Да")])
    war.form_battles(state, {"empire": plan}, 1)
    assert len(state["battles"]) == 1 and not war.needs_planning(state)
    state["stage"] = "planning"       # as a status read in that stage would see it
    assert not any(line.startswith("Боёв ждут") for line in RS.summary(state).lines)
    assert RS.figures(state)["pending_battles"] == 0
    assert all(notes == [] for notes in RS.awaiting(state).values())
