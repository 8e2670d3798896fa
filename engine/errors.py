"""Order-error catalogue: stable codes with Russian message templates.

Rule sets add their own codes with `define`; a code never changes meaning once
published, so GM tools and tests can rely on it.

A number followed by its noun is written with an agreement mark, so the message reads as Russian for any
number (engine/russian.py): `{count:юнит}` gives «1 юнит», «3 юнита», «5 юнитов»; `{limit:юнит|gent}` puts
the pair in a case («не больше 21 юнита»); `{side:@gent}` inflects a value after a preposition. A test walks
every template with the numbers 1, 2, 5, 11, 21 and 22 (tests/test_russian_grammar.py).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from engine.russian import render

CATALOGUE: dict[str, str] = {}


def define(codes: dict[str, str]) -> None:
    """Add codes to the catalogue; redefining a code with another text is an error."""
    for code, template in codes.items():
        if CATALOGUE.get(code, template) != template:
            raise ValueError(f"error code {code} already defined differently")
        CATALOGUE[code] = template


define({
    "E_REQUIRED": "Не заполнено поле «{column}». {hint}",
    "E_NOT_A_NUMBER": "В поле «{column}» должно быть целое число больше нуля, записанное цифрами "
                      "(например, 12 или 1 200), а не «{value}».",
    "E_NOT_A_WHOLE_NUMBER": "В поле «{column}» нужно целое число от {min} до {max}, записанное цифрами "
                            "(например, 0, 3 или 1 200), а не «{value}».",
    "E_NUMBER_TOO_LARGE": "Слишком большое число в поле «{column}»: «{value}». Укажите не больше {max}.",
    "E_UNKNOWN_VALUE": "«{value}» не подходит для поля «{column}». Допустимо: {allowed}.",
    "E_FORMULA": "Формулы в приказах не принимаются: в поле «{column}» введите значение, а не «{value}».",
    "E_INTERNAL": "Приказ не удалось обработать ({detail}). Сообщите мастеру.",
    # An order tab as a whole (the bridge reads headers and rows before the rule set sees them)
    "E_COLUMN_MISSING": "Строка не прочитана: во вкладке «{tab}» в первой строке нет заголовка {columns} "
                        "(его переименовали или удалили). Верните заголовок {columns} на место.",
    "E_COLUMN_TWICE": "Строка не прочитана: во вкладке «{tab}» заголовок {columns} встречается дважды, "
                      "и непонятно, какой столбец читать. Оставьте один такой столбец.",
    "E_ROW_PAST_LIMIT": "Строка {row} не прочитана: приказы читаются только в строках 2–{last} вкладки «{tab}». "
                        "Перенесите приказ выше.",
    "E_TAB_COLUMN_MISSING": "Во вкладке «{tab}» в первой строке нет заголовка {columns} (его переименовали или "
                            "удалили), поэтому приказы из этой вкладки не прочитаны. Верните заголовок {columns} "
                            "на место.",
    "E_TAB_COLUMN_TWICE": "Во вкладке «{tab}» заголовок {columns} встречается дважды, поэтому приказы из этой "
                          "вкладки не прочитаны. Оставьте один такой столбец.",
    "E_TAB_PAST_LIMIT": "Во вкладке «{tab}» заполнены строки ниже {last}-й ({count} шт., первая — строка {first}): "
                        "они не читаются. Пишите приказы в строках 2–{last}.",
    "E_TAB_MISSING": "Вкладка «{tab}» не найдена (её удалили или переименовали), поэтому приказы из неё не "
                     "прочитаны. При обработке этапа она будет создана заново, пустой.",
    "E_LATE_EDIT": "Правка этой строки после {after} не прочитана: этап рассчитывается по строке, какой она была "
                   "тогда.",
    "E_LATE_ROW": "Строка вписана после {after} и не прочитана: этап рассчитывается по приказам, поданным до этого.",
    "E_MERGED_CELLS": "Строка не прочитана: объединённые ячейки — разъедините их ({cells}) и впишите приказ в "
                      "каждую строку отдельно: от объединённых ячеек остаётся текст только левой верхней. В Excel — "
                      "кнопка «Объединить и поместить в центре» ещё раз, в Google Таблицах — Формат → Объединить "
                      "ячейки → Отменить объединение; когда вкладку переписывают после хода, они разъединяются сами.",
    "E_TAB_RENAMED": "Вкладка «{tab}» не найдена, но её столбцы есть во вкладке «{found}»: похоже, её "
                     "переименовали. Приказы из «{found}» не прочитаны. Верните ей название «{tab}»; если "
                     "рядом уже появилась новая пустая вкладка «{tab}», перенесите приказы в неё.",
})


_HIDDEN = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f"
                     r"\ufeff\ufff9-\ufffb]")


def visible(text: str) -> str:
    """Text quoted in a message with each invisible, control or bidi character shown as «⟨U+200B⟩»: what a
    player typed can neither hide nor reorder the message around it (line breaks stay)."""
    return _HIDDEN.sub(lambda m: f"⟨U+{ord(m.group(0)):04X}⟩", text)


# Codes of rows read and carried out as far as others let them: another faction, a battle or the dice decided
# the outcome. Such a row is nobody's mistake, so the GM's «Проблемы» leaves it out (its status still tells the
# player what happened). Rule sets add theirs with `define_outcomes`.
OUTCOME_CODES: set[str] = set()


def define_outcomes(codes: Iterable[str]) -> None:
    """Mark catalogue codes as outcomes, not mistakes (`OUTCOME_CODES`)."""
    for code in codes:
        if code not in CATALOGUE:
            raise ValueError(f"error code {code} is not in the catalogue")
        OUTCOME_CODES.add(code)


def is_mistake(codes: Iterable[str]) -> bool:
    """Whether a refused row's codes tell a mistake of its player or of the GM: any code that is no outcome."""
    return any(code not in OUTCOME_CODES for code in codes)


@dataclass(frozen=True)
class OrderError:
    """One problem with one order row: a catalogue code and its parameters."""

    code: str
    params: dict[str, object] = field(default_factory=dict)

    def message(self) -> str:
        template = CATALOGUE[self.code]
        try:
            return render(template, {k: visible(v) if isinstance(v, str) else v for k, v in self.params.items()})
        except (KeyError, IndexError, ValueError):
            return template

    def __hash__(self) -> int:  # params is a dict; hash on the code and sorted items
        return hash((self.code, tuple(sorted((k, str(v)) for k, v in self.params.items()))))


def allowed_list(values: Iterable[object], limit: int = 12) -> str:
    """Russian enumeration of allowed values for a message, shortened when long."""
    texts = [str(v) for v in values]
    if not texts:
        return "нет ни одного"      # after «Ваши города:», «Допустимо:»: a word that agrees with any of them
    if len(texts) > limit:
        return ", ".join(texts[:limit]) + f" и ещё {len(texts) - limit}"
    return ", ".join(texts)


class SpecError(ValueError):
    """An invalid input document (e.g. a battle file): every problem, in Russian, at once."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = list(problems)
