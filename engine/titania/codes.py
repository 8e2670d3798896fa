"""Order-row error codes of the Titania books, with Russian templates (engine.errors catalogue).

Each message says what is wrong and what is allowed. `T_DEFEATED` is the adjudicator's verdict on a row that
check accepted and another faction or a battle defeated (engine.titania.reasons.EXTERNAL_CAUSES);
`T_REJECTED` any other void verdict (engine.titania.reasons explains the reason code).
"""
from __future__ import annotations

from engine.errors import define, define_outcomes
from engine.titania.rulebook import see

define({
    "T_UNKNOWN_ACTION": "Неизвестное действие «{value}». Допустимо: {allowed}.",
    "T_NEED_PROVINCE": "Укажите провинцию в поле «{column}». Подходят: {allowed}.",
    "T_UNKNOWN_PROVINCE": "Провинции «{value}» нет на карте (поле «{column}»). Подходят: {allowed}.",
    "T_NOT_OWN_PROVINCE": "Провинция «{value}» не ваша (поле «{column}»). Ваши провинции: {allowed}.",
    "T_SEA_PROVINCE": "«{value}» — море: там нельзя строить и нанимать. Ваши сухопутные провинции: {allowed}.",
    "T_UNKNOWN_BUILDING": "Неизвестная постройка «{value}». Допустимо: {allowed}.",
    "T_UNKNOWN_PAYMENT": "Оплата найма «{value}» не подходит. Допустимо: {allowed} (пусто — золотом и деревом).",
    "T_UNKNOWN_RESOURCE": "Ресурс «{value}» нельзя отправить караваном. Допустимо: {allowed} "
                          "(Влияние и Могущество не передаются).",
    "T_UNKNOWN_FACTION": "Фракции «{value}» нет в игре (поле «{column}»). Допустимо: {allowed}.",
    "T_SELF_CARAVAN": "Караван нельзя отправить самому себе: в поле «Кому» укажите другую фракцию ({allowed}).",
    "T_BAD_ROUTE": "Маршрут каравана: {detail}. Перечислите через запятую провинции пути после провинции "
                   "отправления, последней — провинцию получателя; соседние в списке должны граничить.",
    "T_NO_ARMY": "В провинции «{value}» нет вашего войска. Ваши войска стоят в: {allowed}.",
    "T_NEED_ARMY": "Укажите войско (провинцию, где оно стоит) в поле «Войско». Ваши войска: {allowed}.",
    "T_UNKNOWN_ORDER": "Неизвестный приказ «{value}». Допустимо: {allowed}.",
    "T_NOT_ADJACENT": "«{value}» не граничит с провинцией войска «{origin}». Соседи: {allowed}.",
    "T_LAND_TO_SEA": f"Сухопутное войско не может идти в море «{{value}}» ({see('C9.2')}): в море выходят только "
                     "войска из провинции с портом. Соседние сухопутные провинции: {allowed}.",
    "T_DUPLICATE_ORDER": "Войску из провинции «{value}» уже дан приказ в строке {row}: у каждого войска один приказ "
                         "(чтобы разделить войско, укажите «Силу» каждой части).",
    "T_BAD_SEQ": "В поле «№» должно быть целое число от 1 (порядок выполнения: 1, 2, 3 …), а не «{value}».",
    "T_SUPPORT_NOBODY": "Поддерживать можно только фракцию, которая участвует в игре: {allowed} "
                        "(пусто — свою), а не «{value}».",
    "T_ABILITY_NOT_YOURS": "Способность «{value}» не ваша: ваша расовая способность — «{allowed}».",
    "T_ABILITY_TWICE": "Расовую способность можно применить только раз за ход (уже в строке {row}).",
    "T_ABILITY_NEEDS": "Чтобы применить «{ability}», заполните: {need}.",
    "T_MIGHT_OVER": "Распределено Могущества {total}, а у вас его {might} (по числу Святилищ Древних): "
                    "распределение превышено и будет отменено целиком. Уберите {extra:очко|accs}.",
    "T_NEED_POINTS": "Укажите число очков в поле «Очки»: целое от 1 до {max}.",
    "T_SPELL_UNKNOWN": "Заклинание «{value}» вам неизвестно. Известные: {allowed}.",
    "T_REJECTED": "Не выполнено: {reason}.",
})

define({
    "T_BUILDING_THERE": "В провинции «{province}» уже есть {building} (или она заказана строкой выше): в провинции "
                        f"только одна постройка каждого типа ({see('P1.1')}). Другие постройки: {{allowed}}.",
    "T_NO_DEPOSIT": "{building} в провинции «{province}» не построить: {detail}.",
    "T_STOLEN": "В провинции «{province}» гоблины украли припасы: в этом Планировании там нельзя нанимать и "
                "пополнять войска. Нанимайте в другой своей провинции.",
    "T_NOT_SKAVEN": "«Нашествие крыс» — способность скавенов; ваши действия Планирования: {allowed}.",
})

define({
    "T_UNKNOWN_TECH": "Технологии «{value}» нет среди ещё не изученных. Можно исследовать: {allowed}.",
    "T_UNKNOWN_SPELL": "Заклинания «{value}» нет среди ещё не изученных. Можно изучить: {allowed}.",
    "T_UNKNOWN_EVENT": "Событие «{value}» сейчас не принимает вкладов (поле «Кому»). Открытые события: {allowed}.",
    "T_SPELL_TWICE": "Заклинание «{value}» уже применено строкой выше: каждое заклинание — только раз за ход.",
    "T_UNKNOWN_DISCOUNT": "Скидка «{value}» не подходит: «Дары Богов» снижают на 1 один ресурс по выбору: {allowed} "
                          "(пусто — золото, если технология стоит 2 золота или больше, иначе дерево).",
    "T_DISCOUNT_NOT_YOURS": "Скидку «{value}» при исследовании выбирают только ящеролюды («Дары Богов»): оставьте "
                            "поле «Скидка» пустым.",
    "T_DISCOUNT_ONLY_RESEARCH": "Скидка «{value}» — только для действия «Исследовать»: оставьте поле «Скидка» "
                                "пустым.",
})

# What the faction's own part of the turn shows at check (engine.titania.forecast): the engine's verdict on the
# row, said with what is allowed instead.
define({
    "T_HIRE_FOOD": "Новый отряд в провинции «{province}» не прокормить: пищи у вас на {food} отр., а отрядов уже "
                   f"{{squads}} ({see('A1.1, A11.1')}). Нанимайте туда, где уже стоит ваше войско ({{allowed}}), "
                   "или постройте ферму: она кормит со следующего хода.",
    "T_HIRE_LIMIT": f"Нельзя нанять {{count}} в провинции «{{province}}»: {{why}} ({see('A7.1, A1.1')}). {{allowed}}",
    "T_NO_RESOURCES": "Не хватает ресурсов: нужно {need}, а к этой строке у вас {have} (с доходом этого хода, "
                      "за вычетом строк выше). Уменьшите количество или уберите строку выше.",
    "T_CANNOT": "Так не выполнить: {reason}.{hint}",
    "T_PART_TOO_BIG": "В войске «{army}» сила {strength}{hired}, а в строке {asked}: {allowed}.",
    "T_NOTHING_LEFT": "Всё войско «{army}» (сила {strength}) уже распределено строками {rows}: этой строке ничего "
                      "не осталось. Уменьшите «Силу» в тех строках или удалите эту.",
    "T_SPLIT_FOOD": "От войска «{army}» не отделить часть силой {asked}: каждая новая часть — новый отряд, а пищи "
                    f"у вас на {{food}} отр. при {{squads}} отр. к Походу ({see('C2.2, A11.1')}). {{allowed}}",
    "T_MOVE_OVER_LIMIT": "В провинции «{target}» к этому ходу стоит ваше войско силой {resident}, лимит силы отряда "
                         f"{{limit}}: войско силой {{strength}} туда не войдёт ({see('A7.1')}). {{allowed}}",
    "T_DEFEATED": "Не выполнено из-за других фракций или боя: {cause} — {reason}.",
})

# Spells and abilities aimed at an army: what the faction sees (engine.titania.fog), a spell learned this turn (G77)
define({
    "T_TARGET_UNSEEN": "Провинцию «{value}» вы не видите: цель {what} там назовите в поле «Фракция» (чьё войско) — "
                       "сработает, если оно там окажется.",
    "T_OUT_OF_RANGE": "Цель {what} — войско в ваших провинциях или по соседству с ними; провинция «{value}» дальше.",
    "T_NO_TARGET_ARMY": "В провинции «{value}» нет войска {faction}: {there} (туземцы и Боссы — не цель).",
    "T_TARGET_FACTION_NEEDED": "В провинции «{value}» стоят войска нескольких фракций: укажите в поле «Фракция», чьё "
                               "войско — цель {what}: {allowed}.",
    "T_SPELL_NOT_LEARNED": "Заклинание «{value}» вам ещё неизвестно. Его можно изучить в этом же ходу — строкой "
                           "«Изучить заклинание» во вкладке «Планирование» — и применить в Походе этого хода. "
                           "Известные: {allowed}.",
    "T_SPELL_LEARN_FAILS": "Заклинание «{value}» изучает строка {row} вкладки «Планирование», но она не выполнится "
                           "(см. её «Статус»): применить его в этом ходу нельзя.",
})

define({
    "T_NO_SUPPORT_NATIVES": "Туземцы не получают подмогу («Туземцы не оказывают и не получают подмогу»): в поле «За "
                            "кого» укажите фракцию, которой помогаете (пусто — свою).",
})

# Caravans to a Keepers' Market with quest items, and the duty (engine.titania.caravan_rows)
define({
    "T_NO_ITEM": "Предмета «{value}» у вас нет: отправить можно только предмет, который у вас есть (ваши предметы: "
                 "{allowed}).",
    "T_CARGO_AMOUNT": "В караване из нескольких грузов количество пишут в поле «Что» рядом с каждым ресурсом "
                      "(«камень 2; мана 1»), а поле «Количество» оставляют пустым; здесь не понятно, к чему "
                      "относится «{value}».",
    "T_NO_MARKET": "Задания Хранителей «{keeper}» сдают на их Рынке: путь каравана должен закончиться в провинции с "
                   "Рынком ({allowed}).",
    "T_BAD_DUTY": "В поле «Пошлина» не понять «{value}»: пишите «ресурс количество» через запятую, например «золото "
                  "1, дерево 1», или для каждой фракции отдельно: «Фракция: золото 2; Другая: мана 2».",
    "T_DUTY_NOBODY": "Пошлину платят фракциям, через чьи провинции идёт караван; «{value}» среди них нет. Фракции на "
                     "пути: {allowed}.",
})

define({
    "T_BLIND_MISSED": "Не выполнено из-за других фракций: войска, в которое вы метили в провинции, которую не видели, "
                      "там не оказалось; ничего не оплачено.",
})

# Another faction or a battle decided these rows, not their player: the GM's «Проблемы» leaves them out
define_outcomes(("T_DEFEATED", "T_BLIND_MISSED"))

define({
    "T_TECH_KNOWN": "Технология «{value}» у вас уже изучена: исследовать её снова не нужно.",
    "T_SPELL_KNOWN": "Заклинание «{value}» вы уже знаете: изучать его снова не нужно — применяйте во вкладке «Мощь и "
                     "магия».",
})

define({
    "T_TARGET_ALLY": "«{value}» — ваш союзник: цель {what} — войско фракции, с которой у вас нет союза.",
    "T_NOT_BORDERING": "Провинции фракции «{value}» не граничат с вашими: цель {what} — войско фракции, чьи "
                       "провинции смежны с вашими.",
})

define({
    "T_NUMBER_NOT_READ": "Поле «{column}» в строке «{action}» не читается (там «{value}»): число здесь ничего не "
                         "значит. Очистите поле; «{column}» заполняют для: {takes}.",
})
