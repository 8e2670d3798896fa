"""Russian words of the war tabs and their parsers: flanks, lines, positions, orders, captures, manoeuvres.

Positions travel in plans as "flank/line" strings ("left/vanguard") and as battle `Position`s.
"""
from __future__ import annotations

import re

from engine import cells
from engine.jade_rose.battle.model import FLANKS, LINES, Position
from engine.jade_rose.data import normalize_name

FLANK_WORDS = {"left": "Левый", "center": "Центр", "right": "Правый"}
LINE_WORDS = {"vanguard": "Авангард", "rearguard": "Арьергард"}
FLANK_ADJ = {"left": "Левый", "center": "Центральный", "right": "Правый"}
FLANK_LOC = {"left": "левом", "center": "центральном", "right": "правом"}
ORDER_WORDS = {"disperse": "Рассредоточиться", "defend": "Оборонять", "attack": "Атаковать"}
# «Разрушить… Город переходит под ваш контроль, если только вы не захотите обратного» (L54): "raze_leave" razes
# and leaves the ruins to the city's owner.
CAPTURE_WORDS = {"colonise": "Колонизировать", "plunder": "Разграбить", "raze": "Разрушить",
                 "raze_leave": "Разрушить и уйти"}
CAPTURE_DONE = {"colonise": "колонизирован", "plunder": "разграблен", "raze": "разрушен", "raze_leave": "разрушен"}
YES, NO = "Да", "Нет"
MANOEUVRE_WORDS = {
    "none": "Нет", "change_position": "Смена позиции", "defend": "Защита", "cover": "В укрытие",
    "charge": "Натиск", "bombard": "Обстрел", "long_range_bombard": "Дальнобойный обстрел",
}

_FLANKS = {
    "left": {"левый", "лев", "левом", "левого", "слева", "л", "left", "l"},
    "center": {"центр", "центральный", "центр.", "центральном", "центрального", "ц", "центральн", "center",
               "centre", "c", "middle", "mid"},
    "right": {"правый", "прав", "правом", "правого", "справа", "п", "right", "r"},
}
_LINES = {
    "vanguard": {"авангард", "ав", "авангарде", "а", "перед", "передний", "vanguard", "van", "v", "front"},
    "rearguard": {"арьергард", "арьегард", "арьергарде", "арьергард.", "арь", "арьерг", "тыл", "тыловой", "задний",
                  "rearguard", "rear", "back"},
}
_ORDERS = {
    "disperse": {"рассредоточиться", "рассредоточить", "рассредоточение", "резерв", "disperse", "reserve"},
    "defend": {"оборонять", "оборона", "оборонять город", "защищать", "защита", "defend", "defence", "defense"},
    "attack": {"атаковать", "атака", "атаковать город", "напасть", "нападение", "attack"},
}
_CAPTURES = {
    "colonise": {"колонизировать", "колонизация", "захватить", "colonise", "colonize", "capture"},
    "plunder": {"разграбить", "грабеж", "разграбление", "plunder", "loot"},
    "raze": {"разрушить", "разрушение", "снести", "raze", "destroy"},
    "raze_leave": {"разрушить и уйти", "разрушить и оставить", "разрушить и оставить руины", "разрушить, не занимая",
                   "разрушить не занимая", "разрушить, не занимая руины", "разрушить и не занимать",
                   "raze and leave", "raze_leave"},
}
_YES = frozenset({"д", "пропустить"})    # besides the shared words of engine.cells
_NO = frozenset({"н"})
_MANOEUVRES = {
    "none": {"нет", "без манёвра", "без маневра", "никакого", "none", "-", "стоять"},
    "change_position": {"смена позиции", "сменить позицию", "перемещение", "change position", "change_position",
                        "move"},
    "defend": {"защита", "защищать", "defend", "defence", "defense"},
    "cover": {"в укрытие", "укрытие", "cover"},
    "charge": {"натиск", "charge"},
    "bombard": {"обстрел", "bombard"},
    "long_range_bombard": {"дальнобойный обстрел", "дальний обстрел", "long range bombard", "long_range_bombard",
                           "long-range bombard"},
}


def _lookup(table: dict[str, set[str]], text: str) -> str | None:
    norm = normalize_name(text).rstrip(".").strip()
    for key, words in table.items():
        if norm in words or norm.replace("ё", "е") in words:
            return key
    return None


def parse_flank(text: str) -> str | None:
    return _lookup(_FLANKS, text)


def parse_line(text: str) -> str | None:
    return _lookup(_LINES, text)


def parse_order(text: str) -> str | None:
    return _lookup(_ORDERS, text)


def parse_capture(text: str) -> str | None:
    return _lookup(_CAPTURES, text)


def parse_yes_no(text: str) -> bool | None:
    return cells.parse_yes_no(text, yes=_YES, no=_NO)


def parse_manoeuvre(text: str) -> str | None:
    return _lookup({k: {normalize_name(w) for w in v} for k, v in _MANOEUVRES.items()}, text)


def parse_position(text: str) -> str | None:
    """"flank/line" from «Левый авангард», «центральный арьергард», «лев. ав.», "left vanguard"; None if unclear."""
    words = [w for w in re.split(r"[\s,;:/().-]+", normalize_name(text)) if w and w not in ("фланг", "flank")]
    flanks = {f for w in words if (f := parse_flank(w))}
    lines = {ln for w in words if (ln := parse_line(w))}
    if len(words) == 1 and not flanks and not lines:
        return None
    if len(flanks) != 1 or len(lines) != 1:
        return None
    return f"{flanks.pop()}/{lines.pop()}"


def pos_key(flank: str, line: str) -> str:
    return f"{flank}/{line}"


def to_position(key: str) -> Position:
    flank, line = key.split("/")
    return Position(flank, line)


def position_text(key: str) -> str:
    """«Центральный арьергард»."""
    flank, line = key.split("/")
    return f"{FLANK_ADJ[flank]} {LINE_WORDS[line].lower()}"


def position_order(key: str) -> tuple[int, int]:
    flank, line = key.split("/")
    return LINES.index(line), FLANKS.index(flank)


ALL_POSITION_KEYS = tuple(pos_key(f, ln) for ln in LINES for f in FLANKS)
