"""Name lookup (names.py): book names, accepted spellings and keys to unit and building keys."""
from __future__ import annotations

import pytest

from engine.jade_rose.names import building_names, faction_id, find_building, find_unit, find_units, unit_names

# -- name lookup -----------------------------------------------------------------------

@pytest.mark.parametrize("name, faction, key", [
    ("Рыцарь", None, "empire_knight"),
    ("  рыцарь ", "empire", "empire_knight"),
    ("РЫЦАРИ", None, "empire_knight"),
    ("Тяжелый   пехотинец", None, "empire_heavy_infantry"),
    ("«Пушка \"Зелёный град\"»", None, "jade_green_hail"),
    ("Пушка «Зеленый град»", "jade", "jade_green_hail"),
    ("пушка ‘зелёный град’", None, "jade_green_hail"),
    ("Нефритовый воин*", None, "jade_warrior"),
    ("Арбалетчик", "empire", "empire_crossbowman"),
    ("Арбалетчик", "dwarves", "dwarves_crossbowman"),
    ("Всадник", "jade", "jade_horseman"),
    ("Всадник", "jade_court", "jade_horseman"),
    ("Всадник", "Империя", "empire_horseman"),
    ("Горняки", None, "dwarves_miner"),
    ("Арбалеты чжугэ", None, "jade_zhuge_crossbows"),
    ("Герой — мститель", None, "dwarves_avenger_hero"),
    ("Юный красный дракон Фрагулекс", None, "dwarves_fragulex"),
    ("empire_knight", None, "empire_knight"),
    ("EMPIRE_KNIGHT", "empire", "empire_knight"),
])
def test_find_unit_accepts_book_names_and_keys(name, faction, key):
    assert find_unit(name, faction) == key


@pytest.mark.parametrize("name, faction", [
    ("Арбалетчик", None),       # shared by two factions: needs the faction
    ("Рыцарь", "dwarves"),      # another faction's unit
    ("Дракон-призрак", None),
    ("", None),
    ("Рыцарь", "ogres"),
])
def test_find_unit_rejects_ambiguous_foreign_and_unknown_names(name, faction):
    assert find_unit(name, faction) is None


def test_find_units_lists_every_meaning_of_a_shared_name():
    assert find_units("арбалетчик") == ["dwarves_crossbowman", "empire_crossbowman"]


def test_find_building_and_name_lists():
    assert find_building("Барак", "empire") == "empire_barrack"
    assert find_building("барак", "vampires") == "vampires_barrack"
    assert find_building("Барак") is None
    assert find_building("Казарма") == "empire_barracks"
    assert find_building("великая кузня", "jade") == "jade_great_forge"
    assert find_building("Зал рыцарей", "vampires") is None
    assert unit_names("empire")[0] == "Копейщик" and len(unit_names("dwarves")) == 13
    assert "Великая Кузня" in building_names("jade") and len(building_names("vampires")) == 13
    assert faction_id("Нефритовый двор") == "jade" and faction_id("нечто") is None
