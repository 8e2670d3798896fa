"""Issue 23 item 6: «`rollback DIR 1 планирование` is refused: the stage is «планирование боёв» or
`planning`. Accept any unambiguous start of a stage's Russian title, and list the stages in the message.»"""
from __future__ import annotations

import click
import pytest

from engine import find_ruleset
from sheets_bridge.cli import _stage_id

JADE_ROSE = find_ruleset("jade_rose")


@pytest.mark.parametrize(("given", "stage"), [
    ("планирование", "planning"), ("план", "planning"), ("Планирование  боёв", "planning"),
    ("планирование боев", "planning"), ("planning", "planning"), ("приказы", "orders"), ("прик", "orders"),
    ("ORDERS", "orders"),
])
def test_a_stage_is_named_by_its_id_its_title_or_an_unambiguous_start_of_it(given, stage):
    assert _stage_id(JADE_ROSE, given) == stage


@pytest.mark.parametrize(("given", "words"), [
    ("п", "начало названия нескольких этапов"), ("бои", "нет этапа «бои»"), ("", "нет этапа «»"),
])
def test_an_ambiguous_or_unknown_stage_is_refused_listing_the_stages(given, words):
    with pytest.raises(click.BadParameter) as caught:
        _stage_id(JADE_ROSE, given)
    text = str(caught.value)
    assert words in text and "«приказы» (orders)" in text and "«планирование боёв» (planning)" in text
