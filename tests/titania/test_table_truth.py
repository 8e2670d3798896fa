"""What a Titania book reads is true (issue 38 §2): rows the tool writes are never errors, nonsense numbers are
refused with a message, not ignored. One test per rule: the rows typed, the statuses `check` writes, what the turn
does."""
from __future__ import annotations

from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import Row
from engine.titania import views
from tests.games import new_game
from tests.titania.test_book_orders_rules import play, world

RS = find_ruleset("titania")


@pytest.fixture(scope="module")
def start(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return new_game(tmp_path_factory.mktemp("truth") / "game", "titania", "demo", seed="7").latest_state()


def _prefilled(state: dict[str, Any], fid: str) -> list[dict[str, str]]:
    """«Поход» as the book comes: one «Стоять» row per own army (views.campaign_prefill)."""
    keys = ("seq", "army", "order", "target", "for_whom", "strength")
    return [dict(zip(keys, (str(v) for v in row[:6]), strict=True)) for row in views.campaign_prefill(state, fid).rows]


def test_the_prefilled_hold_gives_way_to_the_players_rows(start: dict[str, Any]) -> None:
    """«Rows the tool writes are never errors … The player's rows for an army take its place, or the pre-filled row
    is not an order at all.» Setup: «Альбион» with its army of 3, «Поход» as the book comes (row 2: «Альбион»
    «Стоять»). Rows: the player adds row 3, «Альбион» «Идти / атаковать» «Вересковая Пустошь» without «Сила».
    Expected: row 3 takes the whole army and the turn carries it out; row 2 is OK and says it changes nothing."""
    rows = [*_prefilled(start, "albion"),
            {"seq": "", "army": "Альбион", "order": "Идти / атаковать", "target": "Вересковая Пустошь"}]
    checked, final = play(start, {"albion": {"campaign": rows}})
    assert checked["albion"][("campaign", 3)] == "OK: идти / атаковать → «Вересковая Пустошь»"
    assert checked["albion"][("campaign", 2)] == ("OK: войско уже получило приказы в строках 3: «Стоять» ничего не "
                                                  "меняет (что они не взяли, стоит на месте)")
    assert final["albion"][("campaign", 3)].startswith("OK: выполнен: провинция без враждебных войск занята")
    assert final["albion"][("campaign", 2)] == checked["albion"][("campaign", 2)]


def test_the_prefilled_hold_keeps_what_a_split_leaves(start: dict[str, Any]) -> None:
    """G16 a: «what no row takes stays and holds». Rows: the pre-filled «Стоять» and a move of «Сила» 2. Expected:
    a split, 2 move and the pre-filled row holds the remaining 1."""
    rows = [*_prefilled(start, "albion"),
            {"army": "Альбион", "order": "Идти / атаковать", "target": "Вересковая Пустошь", "strength": "2"}]
    checked, _ = play(start, {"albion": {"campaign": rows}})
    assert checked["albion"] == {("campaign", 3): "OK: часть силой 2: идти / атаковать → «Вересковая Пустошь»",
                                 ("campaign", 2): "OK: часть силой 1: стоять"}


@pytest.mark.parametrize(("tab", "row", "column"), [
    ("planning", {"action": "Исследовать", "what": "Строевая подготовка", "count": "-3"}, "Количество"),
    ("planning", {"action": "Изучить заклинание", "what": "Благословение", "count": "2"}, "Количество"),
    ("planning", {"action": "Построить", "province": "Альбион", "what": "порт", "count": "5"}, "Количество"),
    ("might", {"action": "Заклинание", "spell": "Благословение", "army": "Альбион", "points": "-2"}, "Очки"),
    ("might", {"action": "Заклинание", "spell": "Благословение", "army": "Альбион", "points": "3"}, "Очки"),
    ("might", {"action": "Тактика", "army": "Альбион", "points": "-1"}, "Очки"),
    ("campaign", {"army": "Альбион", "order": "Стоять", "strength": "-1"}, "Сила"),
    ("campaign", {"army": "Альбион", "order": "Стоять", "strength": "1,5"}, "Сила"),
    ("campaign", {"seq": "-1", "army": "Альбион", "order": "Стоять"}, "№"),
])
def test_a_number_that_means_nothing_is_refused(start: dict[str, Any], tab: str, row: dict[str, str],
                                                column: str) -> None:
    """«Nonsense numbers are refused, not ignored. «Количество» −3 on an «Исследовать» row and negative «Очки» on a
    spell row are silently ignored and the order applied. Every numeric field … refuses what it cannot mean, with a
    message.» A number in a field the row does not read is refused too: it means the player meant something else."""
    state = world(start, mana=5, gold=9, wood=9, influence=5)
    if tab == "might" and row["action"] == "Заклинание":
        state["factions"]["albion"]["spells"] = ["blessing"]
    checked, final = play(state, {"albion": {tab: [row]}})
    text = checked["albion"][(tab, 2)]
    assert not text.startswith("OK"), text
    assert f"«{column}»" in text, text
    assert final["albion"][(tab, 2)] == text


def test_check_tells_a_caravan_s_raid_as_its_chance_and_the_turn_keeps_to_it(start: dict[str, Any]) -> None:
    """Issue 38 §1: «Where the outcome is random, `check` shows its range or its chance … never one draw.» The book
    (Planning 3.1): a caravan through neutral provinces or the sea risks a raid, «50 %» to lose 1 random resource.
    Setup: the demo; Лотерн sends 2 gold to the Saurus by «Южный Брод» (nobody's). Expected: check names the
    province and the chance; over 120 seeds the turn delivers 2 or 1 gold (both occur), about half the time 1."""
    row = {"action": "Отправить караван", "province": "Лотерн", "what": "золото", "count": "2",
           "to": "Жрецы Каменного Моста", "route": "Южный Брод, Каменный Мост"}
    checked, _ = play(start, {"lothern": {"planning": [row]}})
    assert checked["lothern"][("planning", 2)] == (
        "OK: караван: золото 2 для фракции «Жрецы Каменного Моста» через 1 провинцию; путь идёт через ничьи провинции "
        "или море («Южный Брод»): с вероятностью 50 % разбойники отнимут 1 единицу одного из ресурсов груза (какого "
        "— решит жребий хода)")
    parsed = {"lothern": RS.validate(start, "lothern", "orders", {"planning": [Row(2, row)]})}
    delivered = []
    for seed in range(120):
        state = RS.resolve(start, "orders", parsed, seed).state
        (cargo,) = [c for c in state["in_transit"] if c["from"] == "lothern"]
        delivered.append(cargo["resources"].get("gold", 0))
    assert set(delivered) == {1, 2}
    assert 0.36 <= delivered.count(1) / len(delivered) <= 0.64     # 50 %, three standard deviations either way


def test_a_caravan_with_no_recipient_is_told_the_field_is_empty_not_that_faction_is_unknown(
        start: dict[str, Any]) -> None:
    """A message tells what the row says: an empty «Кому» read «Фракции «» нет в игре», as if a faction named
    nothing had been typed. Expected: «Не заполнено поле «Кому»» and who may receive it."""
    row = {"action": "Отправить караван", "province": "Лотерн", "what": "золото", "count": "2",
           "route": "Южный Брод, Каменный Мост"}
    checked, final = play(start, {"lothern": {"planning": [row]}})
    text = checked["lothern"][("planning", 2)]
    assert text.startswith("Не заполнено поле «Кому». Кому отправить караван: ") and "Жрецы Каменного Моста" in text
    assert final["lothern"][("planning", 2)] == text
