"""«Дипломатия» (G46): alliances made by both sides, ended by either, war declared, peace made, through the rows of
the faction books, one test per rule. «В фазе Планирования вы можете … вести переговоры с соседними странами»;
«официальных союзнических отношениях»; «враждебной фракции» (G46 a: an attack or an announced declaration makes a
faction hostile). The rows take effect at the start of the turn's Planning. Setup: a small map made from a
situation (engine.titania.situation_game): «Красные» (red) in «Алая», «Синие» (blue) in «Лазурная», «Зелёные»
(green) in «Изумрудная»; «Алая» borders «Лазурная», and «Лазурная» borders «Изумрудная»."""
from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import GM_BOOK, Row
from engine.titania.situation_game import game_from_situation

RS = find_ruleset("titania")
SITUATION = {
    "schema": "titania.adjudicate.v2",
    "map": {"provinces": [{"id": "red1", "name": "Алая", "deposits": ["gold", "wood"]},
                          {"id": "blue1", "name": "Лазурная", "deposits": ["gold", "wood"]},
                          {"id": "green1", "name": "Изумрудная", "deposits": ["gold", "wood"]},
                          {"id": "k1", "name": "Башня", "deposits": ["gold"]}],
            "adjacency": [["red1", "blue1"], ["blue1", "green1"], ["green1", "k1"]]},
    "factions": [{"id": "red", "name": "Красные", "race": "orcs", "resources": {"gold": 5, "wood": 5}},
                 {"id": "blue", "name": "Синие", "race": "skaven", "resources": {"gold": 5, "wood": 5}},
                 {"id": "green", "name": "Зелёные", "race": "undead", "resources": {"gold": 5, "wood": 5}},
                 {"id": "keep", "name": "Стражи", "race": "dwarfs", "kind": "keeper"}],
    "state": {"turn": 2, "owners": {"red1": "red", "blue1": "blue", "green1": "green", "k1": "keep"},
              "armies": [{"faction": "red", "province": "red1", "strength": 2},
                         {"faction": "blue", "province": "blue1", "strength": 1},
                         {"faction": "green", "province": "green1", "strength": 2},
                         {"faction": "keep", "province": "k1", "strength": 3}]},
    "planning": {"production": True}}

Books = Mapping[str, Mapping[str, list[dict[str, str]]]]


@pytest.fixture
def start() -> dict[str, Any]:
    state, problems = game_from_situation(copy.deepcopy(SITUATION), 1)
    assert state is not None, problems
    return state


def turn(state: Mapping[str, Any], books: Books, gm: list[dict[str, str]] | None = None
         ) -> tuple[dict[str, dict[tuple[str, int], str]], dict[str, Any]]:
    """(each faction's statuses at check, the state after the turn) of the typed rows."""
    parsed = {f: RS.validate(state, f, "orders", {t: [Row(n, c) for n, c in enumerate(rows, 2)]
                                                   for t, rows in tabs.items()}) for f, tabs in books.items()}
    if gm is not None:
        parsed[GM_BOOK] = RS.validate_gm(state, "orders", {"corrections": [Row(n, c) for n, c in enumerate(gm, 2)]})
    result = RS.resolve(state, "orders", parsed, 1)
    return {f: {(s.tab, s.number): s.text() for s in p.statuses} for f, p in parsed.items()}, result.state


def talk(action: str, faction: str) -> dict[str, list[dict[str, str]]]:
    return {"diplomacy": [{"action": action, "faction": faction}]}


def test_g46_an_alliance_declared_by_both_holds_from_the_turns_planning(start: dict[str, Any]) -> None:
    """G46; «При передвижении в провинцию союзной фракции, вы следуете лимиту по силе отряда союзника» (A7.1).
    Rows: «Красные» and «Синие» each «Заключить союз» with the other; «Красные» move their 2 into «Лазурная»,
    where the Blue 1 stands. Expected: check calls both rows OK; at the turn the alliance holds before the Campaign,
    so the move is a move into an ally's province, not an attack: no battle, both armies stand there."""
    checked, new = turn(start, {
        "red": {**talk("Заключить союз", "Синие"),
                "campaign": [{"seq": "1", "army": "Алая", "order": "Идти / атаковать", "target": "Лазурная"}]},
        "blue": talk("Заключить союз", "Красные")})
    assert checked["red"][("diplomacy", 2)].startswith("OK: союз с фракцией «Синие» будет заключён, когда она тоже")
    assert new["factions"]["red"]["allies"] == ["blue"] and new["factions"]["blue"]["allies"] == ["red"]
    assert not any(b.get("turn") == 2 for b in new["battles"])
    assert sorted((a["faction"], a["province"]) for a in new["armies"] if a["province"] == "blue1") == [
        ("blue", "blue1"), ("red", "blue1")]
    assert new["last"]["rows"]["red"]["campaign:2"]["reason"] == "moved"
    assert "Фракции «Красные» и «Синие» заключили союз." in [e["text"] for e in new["chronicle"] if e["turn"] == 2]


def test_g46_a_declaration_waits_for_the_other_side(start: dict[str, Any]) -> None:
    """G46: an alliance needs both sides. Turn 2: only «Красные» declare it: no alliance, the offer stands and
    «Синие» read it in their «Сводка». Turn 3: «Синие» declare it: check says it will be made (the offer is there),
    and the turn makes it."""
    _, after = turn(start, {"red": talk("Заключить союз", "Синие")})
    assert after["factions"]["red"]["allies"] == [] and after["offers"] == [
        {"from": "red", "to": "blue", "act": "ally", "turn": 2}]
    summary = {row[0]: row[1] for row in RS.views(after)["blue"]["summary"].rows}
    assert summary["Вам предлагают"] == "союз: «Красные»"
    checked, later = turn(after, {"blue": talk("Заключить союз", "Красные")})
    assert checked["blue"][("diplomacy", 2)] == ("OK: союз с фракцией «Красные» будет заключён в начале хода: она "
                                                 "его уже предложила")
    assert later["factions"]["blue"]["allies"] == ["red"] and later["offers"] == []


def test_g46_either_side_ends_an_alliance(start: dict[str, Any]) -> None:
    """«Разорвать союз»: an alliance ends when either side ends it; the other side reads it in its journal."""
    _, allied = turn(start, {"red": talk("Заключить союз", "Синие"), "blue": talk("Заключить союз", "Красные")})
    checked, after = turn(allied, {"blue": talk("Разорвать союз", "Красные")})
    assert checked["blue"][("diplomacy", 2)] == "OK: союз с фракцией «Красные» будет разорван в начале хода"
    assert after["factions"]["red"]["allies"] == [] and after["factions"]["blue"]["allies"] == []
    assert "Ход 3: фракция «Синие» разорвала союз с вами." in [e["text"] for e in after["log"]
                                                              if e["faction"] == "red"]


def test_g46_a_war_declared_makes_the_route_hostile(start: dict[str, Any]) -> None:
    """G46 a: «после объявления» a faction is hostile; P2.1 «Вы можете отправлять ресурсы другой фракции, только если
    между вами нет враждебной фракции». Rows: «Зелёные» «Объявить войну» «Синие»; «Красные» send gold to «Зелёные»
    through «Лазурная» (Blue). Expected: the war holds from the turn's Planning: the caravan is refused as a hostile
    route (the Red book could not know it at check: another faction's row), both sides are at war after it."""
    checked, after = turn(start, {
        "green": talk("Объявить войну", "Синие"),
        "red": {"planning": [{"action": "Отправить караван", "province": "Алая", "what": "золото", "count": "1",
                              "to": "Зелёные", "route": "Лазурная, Изумрудная"}]}})
    assert checked["red"][("planning", 2)].startswith("OK: караван: золото 1 для фракции «Зелёные»")
    assert after["factions"]["green"]["at_war"] == ["blue"] and after["factions"]["blue"]["at_war"] == ["green"]
    assert after["last"]["rows"]["red"]["planning:2"]["reason"] == "hostile_route"


def test_g46_peace_is_made_by_both_sides(start: dict[str, Any]) -> None:
    """«Заключить мир» ends a war as an alliance is made: both sides declare it."""
    _, war = turn(start, {"green": talk("Объявить войну", "Синие")})
    _, after = turn(war, {"green": talk("Заключить мир", "Синие"), "blue": talk("Заключить мир", "Зелёные")})
    assert after["factions"]["green"]["at_war"] == [] and after["factions"]["blue"]["at_war"] == []


def test_keepers_no_diplomacy(start: dict[str, Any]) -> None:
    """Keepers: «Хранители всегда нейтральны, дипломатия с ними недоступна»."""
    checked, _ = turn(start, {"green": talk("Заключить союз", "Стражи")})
    assert checked["green"][("diplomacy", 2)].startswith("С Хранителями «Стражи» дипломатия недоступна")


def test_rows_refused_for_what_cannot_be(start: dict[str, Any]) -> None:
    """A break without an alliance, peace without a war, two rows for one faction: each refused, the rest kept."""
    checked, after = turn(start, {"red": {"diplomacy": [
        {"action": "Разорвать союз", "faction": "Синие"}, {"action": "Заключить мир", "faction": "Зелёные"},
        {"action": "Объявить войну", "faction": "Зелёные"}, {"action": "Заключить союз", "faction": "Зелёные"}]}})
    texts = checked["red"]
    assert texts[("diplomacy", 2)].startswith("С фракцией «Синие» у вас нет ни союза")
    assert texts[("diplomacy", 3)] == "Вы не воюете с фракцией «Зелёные»: мир заключать не нужно."
    assert texts[("diplomacy", 4)].startswith("OK: война фракции «Зелёные» будет объявлена")
    assert texts[("diplomacy", 5)].startswith("С фракцией «Зелёные» в этом ходу уже есть строка 4")
    assert after["factions"]["red"]["at_war"] == ["green"]


def test_the_gm_corrects_an_alliance(start: dict[str, Any]) -> None:
    """DESIGN: «GM corrections are orders in the GM book's adjustments tab». «Союз: заключить» «Красные» «С кем»
    «Зелёные»: allied from this turn, in the public book and the chronicle."""
    _, after = turn(start, {}, gm=[{"action": "Союз: заключить", "faction": "Красные", "other": "Зелёные",
                                    "reason": "договорились на форуме"}])
    assert after["factions"]["red"]["allies"] == ["green"] and after["factions"]["green"]["allies"] == ["red"]
    public = RS.views(after)["public"]["standings"]
    row = next(r for r in public.rows if r[0] == "Красные")
    assert row[public.columns.index("Союзники")] == "«Зелёные»"
