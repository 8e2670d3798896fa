"""Error codes of the war tabs (armies, army orders, garrisons, manoeuvres), with Russian messages."""
from __future__ import annotations

from engine.errors import OrderError, define, define_outcomes

define({
    "JR_WAR_ARMY_REQUIRED": "Не указана армия в столбце «Армия». Впишите название армии (например, «1» или "
                            "«Северная») — одно и то же во вкладках «Армии» и «Приказы армиям».",
    "JR_WAR_UNKNOWN_FLANK": "Фланг «{value}» не распознан. Допустимо: Левый, Центр, Правый.",
    "JR_WAR_UNKNOWN_LINE": "Линия «{value}» не распознана. Допустимо: Авангард, Арьергард.",
    "JR_WAR_UNKNOWN_UNIT": "Юнита «{value}» у вашей фракции нет. Допустимо: {allowed}.",
    "JR_WAR_FOREIGN_UNIT": "«{value}» — юнит фракции «{owner}», у вас таких нет. Ваши юниты: {allowed}.",
    "JR_WAR_COUNT_TOO_LARGE": "Слишком большое количество «{value}»: укажите не больше {max}.",
    "JR_WAR_ONE_PER_SQUAD": "В одном отряде может быть только 1 «{unit}», а в отряде «{squad}» их уже {count}. "
                            "Поставьте остальных на другие позиции (фланг и линию).",
    "JR_WAR_EXCLUDED_PAIR": "«{unit}» не может стоять в одном отряде с «{other}» (отряд «{squad}»). "
                            "Поставьте их на разные позиции.",
    "JR_WAR_UNKNOWN_ORDER": "Приказ «{value}» не распознан. Допустимо: Рассредоточиться, Оборонять, Атаковать.",
    "JR_WAR_CITY_REQUIRED": "Для приказа «{order}» укажите город в столбце «Город».",
    "JR_WAR_UNKNOWN_CITY": "Города «{value}» нет на карте. Допустимо: {allowed}.",
    "JR_WAR_UNKNOWN_CAPTURE": "«{value}» не подходит для столбца «При захвате». Допустимо: Колонизировать, "
                              "Разграбить, Разрушить, Разрушить и уйти (пусто — Колонизировать).",
    "JR_WAR_UNKNOWN_YES_NO": "«{value}» не подходит для столбца «Без планирования». Допустимо: Да, Нет "
                             "(пусто — Нет).",
    "JR_WAR_DUPLICATE_ORDER": "Армии «{army}» уже дан приказ в строке {row}: у армии один приказ за ход.",
    "JR_WAR_NO_DEPLOYMENT": "У армии «{army}» нет ни одного юнита во вкладке «Армии» (или все её строки с "
                            "ошибками): приказ «{order}» некому выполнять. Впишите её отряды во вкладку «Армии».",
    "JR_WAR_NOT_OWN_CITY": "Город «{city}» вам не принадлежит: {what} можно только в своих городах. "
                           "Ваши города: {allowed}.",
    "JR_WAR_RUINS_NO_GARRISON": "«{city}» лежит в руинах: гарнизона там нет, расставлять некого.",
    "JR_WAR_FACTION_OUT": "Фракция вышла из игры: армии не действуют.",
    "JR_WAR_ARMIES_BLOCKED": "В этот ход проводится «{action}» (вкладка «Экономика»): армия не может действовать, "
                             "приказ не выполняется. Уберите чистку или перенесите приказ на следующий ход.",
    "JR_WAR_NO_UNITS": "«{unit}»: таких юнитов у вас сейчас нет{sleeping}. Каждый юнит может быть только в одной "
                       "армии.",
    "JR_WAR_TOO_MANY_UNITS": "«{unit}»: у вас только {have}{sleeping}, а в строке {count}.",
    "JR_WAR_UNITS_TAKEN": "«{unit}»: у вас {have}{sleeping}, в других армиях уже {used} ({armies}), свободно "
                          "{free}, а в строке {count}. Каждый юнит может быть только в одной армии.",
    "JR_WAR_ARMY_CAP": "В эпоху «{era}» приказы «Оборонять» и «Атаковать» могут получить не больше {cap} "
                       "арм. (уже: {armies}); этот приказ сверх лимита, армия остаётся в резерве.",
    "JR_WAR_DEFENCE_CELL_TAKEN": "«{unit}» армии «{army}» не встанет в {cell} при обороне города {city}: там уже "
                                 "«{other}» ({whose}), а вместе они в одном отряде стоять не могут. Поставьте "
                                 "«{unit}» на другую позицию (фланг и линию); пока эти юниты остаются в резерве.",
    "JR_WAR_DEFEND_NOT_OWN": "Оборонять можно только свой город, а «{city}» вам не принадлежит. "
                             "Ваши города: {allowed}.",
    "JR_WAR_DEFEND_RUINS": "«{city}» лежит в руинах — это не город, оборонять там нечего. Ваши города: {allowed}.",
    "JR_WAR_ATTACK_OWN": "«{city}» — ваш {what}; атаковать можно только чужие города. Чтобы усилить защиту "
                         "своего города, дайте приказ «Оборонять».",
    "JR_WAR_NOT_ADJACENT": "Атаковать чужой город можно, только если он соединён дорогой с одним из ваших "
                           "городов (руины не в счёт), а «{city}» — нет. Можно атаковать: {allowed}.",
    "JR_WAR_CITY_PROTECTED": "Фракция «{owner}» уже победила и вышла из войны: её города атаковать нельзя.",
    "JR_WAR_NOT_IN_GARRISON": "В гарнизоне города «{city}» нет юнитов «{unit}». Гарнизон: {garrison}.",
    "JR_WAR_GARRISON_OVER": "В гарнизоне города «{city}» всего {have} «{unit}», уже расставлено {used}; в этой "
                            "строке {count} — больше, чем осталось. Гарнизон: {garrison}.",
    "JR_WAR_UNKNOWN_BATTLE": "Боя «{value}» нет среди ваших боёв с фазой планирования. Допустимо: {allowed}.",
    "JR_WAR_UNKNOWN_SQUAD": "Отряда «{value}» в бою «{battle}» у вас нет. Ваши отряды: {allowed}.",
    "JR_WAR_DUPLICATE_SQUAD": "Отряду «{squad}» в бою «{battle}» манёвр уже дан в строке {row}: у отряда один "
                              "манёвр.",
    "JR_WAR_UNKNOWN_MANOEUVRE": "Манёвр «{value}» не распознан. Допустимо: {allowed}.",
    "JR_WAR_UNKNOWN_POSITION": "Позиция «{value}» в столбце «{column}» не распознана. Пишите фланг и линию, "
                               "например «Левый авангард» или «Центральный арьергард».",
    "JR_WAR_MANOEUVRE_INVALID": "{problem}",
    "JR_WAR_RUNES_NOT_DWARF": "Руны тратят только дворфы: оставьте столбец «Руны» пустым.",
    "JR_WAR_RUNES_TOO_MANY": "Рун можно потратить не больше, чем у вас есть ({have}), и не больше {max} в одном "
                             "бою, а указано {total}.",
    # -- verdicts of the battles on rows `check` accepted (war/resolution.py) ----------------------------------
    "JR_WAR_BATTLE_LOST": "Армия «{army}» атаковала город {city} ({how}), но проиграла бой ({against} фракции "
                          "«{owner}»): город не взят.",
    "JR_WAR_TAKEN_BY_OWN_ARMY": "Атака армии «{army}» на город {city} не понадобилась: город в этом ходу уже "
                                "взяла ваша армия «{by}» (армии атакуют город по очереди, очередь решает жребий).",
    "JR_WAR_CITY_TAKEN_BEFORE": "Манёвр не выполнялся: город {city} ещё до боя «{fight}» взяла армия фракции "
                                "«{holder}», а её расстановку никто не планировал — бой с ней идёт без манёвров "
                                "(или для вас уже не состоялся).",
    "JR_WAR_NO_FIGHT": "Манёвр не выполнялся: бой «{fight}» не состоялся — {why}.",
    "JR_WAR_DEPLOYMENT_CHANGED": "Манёвр отменён: предыдущий бой за город {city} изменил расстановку, и в бою "
                                 "«{fight}» манёвр к ней больше не подходит ({problem}).",
    "JR_WAR_MANOEUVRE_DROPPED": "Манёвр отменён: в бою «{fight}» он не подходит к расстановке ({problem}).",
    "JR_WAR_FIGHT_NOT_HELD": "Бой армии «{army}» за город {city} не состоялся: {problem}. Защитники удерживают "
                             "город.",
})

# The closed list of causes for which the turn may leave a row that `check` accepted not carried out as planned.
# Each depends on what `check` cannot know: the seeded order of the attacks on a city and the dice of its fights
# (a battle lost; a city already taken by another of your armies, or by another faction's army before this
# fight; the defenders gone; an earlier fight that changed the defence a manoeuvre was planned against).
# None is a mistake of the player's: the order was carried out and then beaten, so its row stays OK and the
# message is its note (war/resolution.py), never an error or a «Проблемы» line. The economy needs none: the
# turn runs exactly the orders `check` accepted (turn.predict_economy), and so do the armies, army orders and
# garrisons (war/battles.form_battles on the same state). Any other code on such a row
# (JR_WAR_MANOEUVRE_DROPPED, JR_WAR_FIGHT_NOT_HELD included) is an error: `check` and `turn` disagree.
DEFEAT_CAUSES = frozenset({
    "JR_WAR_BATTLE_LOST",
    "JR_WAR_TAKEN_BY_OWN_ARMY",
    "JR_WAR_CITY_TAKEN_BEFORE",
    "JR_WAR_NO_FIGHT",
    "JR_WAR_DEPLOYMENT_CHANGED",
})
define_outcomes(DEFEAT_CAUSES)      # should one ever reach a row as an error, it is no «Проблемы» line either


def err(code: str, **params: object) -> OrderError:
    return OrderError(code, params)
