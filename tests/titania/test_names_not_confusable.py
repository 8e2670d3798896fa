"""A player picks names from one column («Что» of «Планирование» offers technologies, spells and buildings):
no two of the game's names may read as the same thing. The spell once called «Святилище» read as the
Shrine of the Ancients («Святилище Древних», which is found, never built), and a player who typed it with
«Построить» was refused."""
from __future__ import annotations

import itertools

from engine.titania.data import default_data
from engine.titania.names import BUILDING_NAMES

SHRINE = "Святилище Древних"


def _names() -> dict[str, str]:
    catalog = default_data()
    named = {f"технология {k}": t.name for k, t in catalog.technologies.items()}
    named.update({f"заклинание {k}": s.name for k, s in catalog.spells.items()})
    named.update({f"постройка {k}": v for k, v in BUILDING_NAMES.items()})
    named["месторождение shrine"] = SHRINE
    return named


def test_no_name_is_another_or_the_start_of_another():
    named = _names()
    assert len(named) > len(BUILDING_NAMES) + 1
    for (a, x), (b, y) in itertools.combinations(sorted(named.items()), 2):
        fx, fy = x.casefold().replace("ё", "е").split(), y.casefold().replace("ё", "е").split()
        shorter, longer = sorted((fx, fy), key=len)
        assert longer[:len(shorter)] != shorter, f"{a} «{x}» and {b} «{y}» read as the same thing"
