"""The Lizardmen's discount choice in the faction's book (issue 24 item 3; SCHEMA_V2 §3 `discount`, G75).

«Дары Богов: Ящеролюды изучают технологии со скидкой в 1 золота или 1 дерева по выбору, но не менее одного.»
The «Планирование» tab has a «Скидка» column: on an «Исследовать» row the Lizardmen name gold or wood; blank is
default G75 (gold when the gold cost is 2 or more, else wood); any other race, or any other action, leaves it
blank."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from engine import find_ruleset
from engine.ruleset import Row
from sheets_bridge.layouts import Layout

RS = find_ruleset("titania")
ROOT = Path(__file__).resolve().parents[2]
KEYS = ("action", "province", "what", "count", "to", "route", "discount")


def state(race: str) -> dict[str, Any]:
    s = RS.new_game(tomllib.loads((ROOT / "templates/titania/scenarios/demo.toml").read_text(encoding="utf-8")))
    s["factions"]["albion"].update(race=race, gold=5, wood=5, influence=3)
    return s


def planning(*rows: tuple[str, ...]) -> dict[str, list[Row]]:
    return {"planning": [Row(i + 2, dict(zip(KEYS, r, strict=False))) for i, r in enumerate(rows)]}


def test_the_planning_tab_has_the_discount_column_and_only_the_lizardmen_get_its_choices() -> None:
    tab = Layout.load("titania").tab("planning")
    assert tab is not None and [c.title for c in tab.columns][-3:] == ["Скидка", "Пошлина", "Статус"]
    assert RS.vocabularies(state("lizardmen"), "albion")["discounts"] == ["золото", "дерево"]
    assert RS.vocabularies(state("humans"), "albion")["discounts"] == []


@pytest.mark.parametrize(("cell", "paid"), [("Дерево", {"gold": 2, "wood": 1}), ("золото", {"gold": 1, "wood": 2}),
                                            ("", {"gold": 1, "wood": 2})])
def test_the_lizardmen_name_the_resource_the_gifts_of_the_gods_lower(cell: str, paid: dict[str, int]) -> None:
    """«Строевая подготовка» costs 2 gold, 2 wood, 1 Influence: the named resource falls by 1 (blank: G75 gold)."""
    s = state("lizardmen")
    got = RS.validate(s, "albion", "orders", planning(("Исследовать", "", "Строевая подготовка", "", "", "", cell)))
    assert [st.errors for st in got.statuses] == [()]
    order = got.orders[0]["order"]
    assert order.get("discount") == {"Дерево": "wood", "золото": "gold", "": None}[cell]
    if cell:
        assert got.statuses[0].text().endswith(f"скидка «Дары Богов»: {cell.lower()}")
    result = RS.resolve(s, "orders", {"albion": got}, 1)
    spent = [e for e in result.state["ledger"] if e["faction"] == "albion" and e["reason"].startswith("потрачено")]
    income = {"gold": 1, "wood": 1}  # the capital's mine and sawmill (P5.1)
    for r in ("gold", "wood"):
        assert sum(e["amount"] for e in spent if e["resource"] == r) == -paid[r]
        assert result.state["factions"]["albion"][r] == 5 + income[r] - paid[r]
    assert "drill" in result.state["factions"]["albion"]["techs"]


def test_a_discount_anywhere_else_is_a_row_error_in_russian() -> None:
    liz = RS.validate(state("lizardmen"), "albion", "orders", planning(
        ("Исследовать", "", "Строевая подготовка", "", "", "", "камень"),
        ("Построить", "Альбион", "порт", "", "", "", "дерево")))
    assert [[e.code for e in st.errors] for st in liz.statuses] == [["T_UNKNOWN_DISCOUNT"],
                                                                    ["T_DISCOUNT_ONLY_RESEARCH"]]
    assert "один ресурс по выбору: золото, дерево" in liz.statuses[0].text()
    human = RS.validate(state("humans"), "albion", "orders", planning(
        ("Исследовать", "", "Строевая подготовка", "", "", "", "золото")))
    assert [[e.code for e in st.errors] for st in human.statuses] == [["T_DISCOUNT_NOT_YOURS"]]
    assert "выбирают только ящеролюды" in human.statuses[0].text()
