"""Battle positions (battle/model.py): which cells are neighbours (rule book §1.3)."""
from __future__ import annotations

from tests.jade_rose.battle_kit import pos


def test_adjacent_positions_are_orthogonal_neighbours():
    """«Позиция считается соседней, если она находится на 1 ячейку ниже, выше, левее или правее. Например,
    для правого арьергарда соседние позиции - центральный арьергард ... и правый авангард.»"""
    right_rear = pos("right", "rearguard")
    neighbours = {p for p in (pos(f, line) for f in ("left", "center", "right") for line in ("vanguard", "rearguard"))
                  if right_rear.adjacent(p)}
    assert neighbours == {pos("center", "rearguard"), pos("right", "vanguard")}
