"""Spells through the books: a spell learned in this turn's Planning is cast in its Campaign (SCHEMA_V2 §4, G77),
a spell's target is read from what the faction sees (engine.titania.fog: no status tells what stands where the
faction cannot see), and a Keepers' army is a target (ruling T4-6). Setup, rows, the status `check` writes and
the status after the turn, one test per rule."""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import Row
from engine.titania.fog import sight
from engine.titania.names import ability_name
from tests.games import new_game
from tests.titania.test_book_orders_rules import play, world

RS = find_ruleset("titania")


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The demo map on turn 1: «Альбион» (humans) holds its capital with an army of 3; the Keepers «Древняя
    Роща» stand next door in «k_grove2»."""
    return new_game(tmp_path_factory.mktemp("spells") / "game", "titania", "demo", seed="7").latest_state()


def name(state: Mapping[str, Any], pid: str) -> str:
    return str(state["map"]["provinces"][pid]["name"])


def learn(spell: str) -> dict[str, str]:
    return {"action": "Изучить заклинание", "what": spell}


def cast(spell: str, army: str = "", province: str = "", faction: str = "") -> dict[str, str]:
    return {"action": "Заклинание", "spell": spell, "army": army, "province1": province, "faction": faction}


def test_g77_a_spell_learned_in_planning_is_cast_in_the_same_turns_campaign(start: dict[str, Any]) -> None:
    """SCHEMA_V2 §4, default G77 (G3 a): «a spell is learned in Planning and may be cast in the same turn's
    Campaign». Setup: «Альбион» with mana 5, «Благословение» unknown (learn 2 mana, cast 1). Rows: «Изучить
    заклинание» «Благословение»; «Заклинание» «Благословение» on the army in «Альбион». Expected: check calls
    both OK; the turn learns it and casts it; mana 5 − 2 − 1 = 2."""
    state = world(start, mana=5)
    checked, final = play(state, {"albion": {"planning": [learn("Благословение")],
                                             "might": [cast("Благословение", army="Альбион")]}})
    assert checked["albion"] == {("planning", 2): "OK: изучить «Благословение»",
                                 ("might", 2): "OK: заклинание «Благословение» на войско в провинции «Альбион»"}
    assert final["albion"][("planning", 2)].startswith("OK: выполнен: заклинание изучено")
    assert final["albion"][("might", 2)].startswith("OK: выполнен: заклинание применено")


def test_g77_a_spell_whose_learning_fails_cannot_be_cast(start: dict[str, Any]) -> None:
    """G77 and «Мана нужна для изучения и использования заклинаний» (§4). Setup: mana 1 (learning costs 2). Rows:
    learn «Благословение»; cast it. Expected: the learning is refused for want of mana, and the cast names that
    row: what check says of a row is what the turn does with it."""
    state = world(start, mana=1)
    checked, final = play(state, {"albion": {"planning": [learn("Благословение")],
                                             "might": [cast("Благословение", army="Альбион")]}})
    assert checked["albion"][("planning", 2)].startswith("Не хватает ресурсов: нужно мана 2")
    assert checked["albion"][("might", 2)] == ("Заклинание «Благословение» изучает строка 2 вкладки «Планирование», "
                                               "но она не выполнится (см. её «Статус»): применить его в этом ходу "
                                               "нельзя.")
    assert final["albion"] == checked["albion"]


def test_g77_a_cast_without_its_learning_says_how_to_learn_it(start: dict[str, Any]) -> None:
    """G77. Setup: «Благословение» unknown, no Planning row. Row: cast it. Expected: the status says it can be
    learned in this turn's Planning and cast in its Campaign."""
    checked, _ = play(world(start, mana=5), {"albion": {"might": [cast("Благословение", army="Альбион")]}})
    assert checked["albion"][("might", 2)].startswith("Заклинание «Благословение» вам ещё неизвестно. Его можно "
                                                      "изучить в этом же ходу")


def _fireball_far(start: dict[str, Any], army_there: bool, faction: str) -> str:
    """The status of a «Огненный шар» row of «Альбион» (who knows it) aimed at a province out of its sight."""
    state = world(start, mana=5)
    state["factions"]["albion"]["spells"] = ["fireball"]
    seen = sight(state, "albion")
    far = sorted(p for p, info in state["map"]["provinces"].items() if p not in seen and not info["sea"]
                 and not state["natives"].get(p) and not any(a["province"] == p for a in state["armies"]))[0]
    if army_there:
        state["armies"].append({"faction": "grimgor", "province": far, "strength": 2, "naval": False})
    checked, _ = play(state, {"albion": {"might": [cast("Огненный шар", province=name(state, far),
                                                        faction=faction)]}})
    return checked["albion"][("might", 2)]


def test_a_spell_aimed_out_of_sight_tells_nothing_of_what_stands_there(start: dict[str, Any]) -> None:
    """«A row's status … depend[s] only on what the faction can see (views.sight) and on its own state» (issue 37
    §4). Setup: «Альбион» knows «Огненный шар»; a province it cannot see holds an army of «Орда Гримгора», or
    nothing. Rows: the spell at that province, with and without «Фракция». Expected: one and the same status in
    all four cases, saying the province is out of the spell's reach (in or next to an own province: all in sight)."""
    grimgor = start["factions"]["grimgor"]["name"]
    texts = {_fireball_far(start, there, who) for there in (True, False) for who in ("", grimgor)}
    assert len(texts) == 1
    (text,) = texts
    assert text.startswith("Цель заклинания «Огненный шар» — войско в ваших провинциях или по соседству с ними")


def test_t4_6_a_spell_at_a_keepers_army_is_cast(start: dict[str, Any]) -> None:
    """Ruling T4-6: «Damage and stop spells on a Keepers' army. Allowed: a Keepers' army is a legal enemy target in
    range (natives and Bosses are not). The faction is named only where several factions' armies stand in the
    province, and then the Keepers' display name is a valid «Фракция».» Setup: «Альбион» knows «Огненный шар»
    (damage 1), mana 5; the Keepers «Древняя Роща» stand in «k_grove2» next to «Альбион» with Strength 9. Rows: the
    spell at «k_grove2», once without and once with «Фракция» «Древняя Роща». Expected: OK at check; cast at the
    turn; the Keepers' army there has Strength 8 after it, and the Keepers are at war from then on."""
    for faction in ("", "Древняя Роща"):
        state = world(start, mana=5)
        state["factions"]["albion"]["spells"] = ["fireball"]
        grove = name(state, "k_grove2")
        parsed = RS.validate(state, "albion", "orders",
                             {"might": [Row(2, cast("Огненный шар", province=grove, faction=faction))]})
        assert [s.text() for s in parsed.statuses] == [
            f"OK: заклинание «Огненный шар» на войско Хранителей «Древняя Роща» в провинции «{grove}»"]
        new = RS.resolve(state, "orders", {"albion": parsed}, 1).state
        grove_armies = [a["strength"] for a in new["armies"] if a["province"] == "k_grove2"]
        before = [a["strength"] for a in state["armies"] if a["province"] == "k_grove2"]
        assert grove_armies == [before[0] - 1], json.dumps(new["last"].get("events", []), ensure_ascii=False)
        # «Such a spell on another faction's army is a hostile act … For Keepers, their per-turn 1–4 reinforcement
        # then starts (G43 a).»
        assert not state["keepers"]["grove"].get("at_war") and new["keepers"]["grove"]["at_war"] is True


def test_t4_2_a_second_ward_on_a_province_is_refused_at_check(start: dict[str, Any]) -> None:
    """Ruling T4-2: «At most one ward per province per Campaign; wards do not stack («Первое войско, напавшее на эту
    провинцию, обязано отступить»). A ward spell on a province that the High-elf ability or an earlier cast already
    wards this Campaign is void and unpaid, and `check` refuses the row saying why.» Setup: «Высокий Лотерн» (high
    elves) knows «Убежище» (a ward), influence 2, mana 5. Rows: «Охранные чары» on its capital; «Убежище» on the same
    province. Expected: the ability is OK; the spell is refused, naming the ability; at the turn no mana is spent
    on it."""
    state = world(start, mana=5, influence=2)
    state["factions"]["lothern"]["spells"] = ["sanctuary"]
    capital = name(state, "lothern")
    ability = ability_name("high_elves")
    checked, final = play(state, {"lothern": {"might": [{"action": ability, "province1": capital},
                                                        cast("Убежище", province=capital)]}})
    assert checked["lothern"][("might", 2)].startswith(f"OK: «{ability}» (1 влияние)")
    assert checked["lothern"][("might", 3)] == (
        f"Так не выполнить: недопустимая цель (см. «Расы»). Провинцию «{capital}» в этом Походе уже охраняет "
        f"«{ability}»: охрана на провинцию одна, вторая не действует и не оплачивается.")
    assert final["lothern"][("might", 3)] == checked["lothern"][("might", 3)]


def test_a_spell_of_any_range_aims_blind_at_an_unseen_province(start: dict[str, Any]) -> None:
    """SCHEMA_V2 §4: a spell of range «any» may aim at any enemy army. Out of the faction's sight its book cannot say
    whether an army stands there (issue 37 §4): the row names whose army it aims at and is OK whatever stands there;
    the turn casts it if the army is there, and if not the row says another faction decided it, nothing paid.
    Setup: «Альбион» knows a «Молния» of range «any» (damage 1), mana 5; «Орда Гримгора» stands in its capital,
    out of Альбион's sight. Rows: «Молния» at «Гримгор», «Фракция» «Орда Гримгора»; the same with no army there."""
    texts, results = set(), []
    for there in (True, False):
        state = world(start, mana=5)
        state["content"] = {"catalog": {"spells": {"bolt": {
            "name": "Молния", "learn": {"mana": 1}, "cast": {"mana": 1}, "target": "enemy_army", "range": "any",
            "effects": [{"type": "damage", "value": 1}]}}}}
        state["factions"]["albion"]["spells"] = ["bolt"]
        if not there:
            state["armies"] = [a for a in state["armies"] if a["province"] != "grimgor"]
        row = cast("Молния", province=name(state, "grimgor"), faction=state["factions"]["grimgor"]["name"])
        checked, final = play(state, {"albion": {"might": [row]}})
        texts.add(checked["albion"][("might", 2)])
        results.append(final["albion"][("might", 2)])
    assert len(texts) == 1 and next(iter(texts)).startswith("OK: заклинание «Молния» на войско фракции «Орда Гримгора»")
    assert "(эту провинцию вы не видите" in next(iter(texts))
    assert results[0].startswith("OK: выполнен: заклинание применено")
    assert results[1] == ("OK: не удался из-за других фракций или боя: войска, в которое вы метили в провинции, "
                          "которую не видели, там не оказалось; ничего не оплачено")
