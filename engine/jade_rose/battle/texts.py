"""Russian words for positions, sides and manoeuvres (messages and reports)."""
from __future__ import annotations

from engine.jade_rose.battle.model import Position

FLANK_ADJ = {"left": "левый", "center": "центральный", "right": "правый"}
FLANK_GEN = {"left": "левого", "center": "центрального", "right": "правого"}
LINE_NOM = {"vanguard": "авангард", "rearguard": "арьергард"}
ROLE_NOM = {"attacker": "атакующий", "defender": "защитник"}
ROLE_PL = {"attacker": "атакующие", "defender": "защитники"}
ROLE_GEN = {"attacker": "атакующего", "defender": "защитника"}
FACTION_NOM = {"empire": "Империя", "vampires": "Вампиры", "dwarves": "Дворфы", "jade": "Нефритовый двор"}
MANOEUVRE_NOM = {
    "none": "без манёвра", "change_position": "смена позиции", "defend": "защита", "cover": "в укрытие",
    "charge": "натиск", "bombard": "обстрел", "long_range_bombard": "дальнобойный обстрел",
    "free_move": "бесплатная смена позиции",
}
PHASE_NOM = {"bombard": "Обстрел", "charge": "Натиск", "clash": "Столкновение", "finale": "Завершение"}


def position_ru(pos: Position) -> str:
    """«правый авангард»."""
    return f"{FLANK_ADJ[pos.flank]} {LINE_NOM[pos.line]}"


def squad_ru(role: str, pos: Position) -> str:
    """«атакующий, правый авангард»."""
    return f"{ROLE_NOM[role]}, {position_ru(pos)}"

