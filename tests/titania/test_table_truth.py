"""What a Titania book reads is true (issue 38 §2): rows the tool writes are never errors, nonsense numbers are
refused with a message, not ignored. One test per rule: the rows typed, the statuses `check` writes, what the turn
does."""
from __future__ import annotations

from typing import Any

import pytest

from engine import find_ruleset
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
