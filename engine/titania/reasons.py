"""The closed catalogue of outcomes and reason codes (SCHEMA §3), each with its Russian explanation and
the rule that decides it (for `--report`)."""
from __future__ import annotations

from dataclasses import dataclass

OUTCOMES = {"succeeded": "выполнен", "failed": "не удался", "cancelled": "отменён", "void": "недействителен"}


@dataclass(frozen=True)
class Reason:
    code: str
    outcome: str
    ru: str
    rule: str


_ROWS: tuple[tuple[str, str, str, str], ...] = (
    ("held", "succeeded", "войско удержало позицию", "C12.2"),
    ("moved", "succeeded", "войско перешло в свою, союзную или морскую провинцию без боя", "C2.2, A7.1"),
    ("captured", "succeeded", "провинция без враждебных войск занята без боя", "C7.2, C8.2"),
    ("won", "succeeded", "атака выиграна: суммарная сила больше", "A2.1, C7.2"),
    ("boss_killed", "succeeded", "Босс повержен, провинция захвачена без потери построек", "Боссы"),
    ("supported", "succeeded", "подмога засчитана в бою", "C3.2, A3.1"),
    ("split", "succeeded", "войско разделено, у каждой части свой приказ", "C2.2"),
    ("built", "succeeded", "постройка возведена (действует с начала Похода)", "P1.1"),
    ("hired", "succeeded", "войска наняты или пополнены", "P4.1, A1.1"),
    ("sent", "succeeded", "караван отправлен, придёт в начале следующего Планирования", "P2.1"),
    ("registered", "succeeded", "способность применена", "Расы"),
    ("allocated", "succeeded", "Могущество распределено", "Ресурсы: Могущество"),
    ("lost", "failed", "атака проиграна: суммарная сила меньше", "A2.1, C10.2"),
    ("draw", "failed", "ничья: суммарные силы равны, обе стороны теряют половину и отступают", "A4.1"),
    ("boss_survived", "failed", "Босс ранен, но жив; войско отступило", "Боссы"),
    ("warded", "failed", "первое напавшее войско отброшено Охранными чарами", "Высшие эльфы"),
    ("dislodged", "failed", "войско уничтожено или отступило", "A5.1"),
    ("attacked", "cancelled", "войско было атаковано или получило урон до своего приказа", "C12.2"),
    ("intimidated", "cancelled", "войско остановлено Устрашением", "C12.2, Ящеролюды"),
    ("ally_captured", "cancelled", "союзник уже захватил эту провинцию в этом Походе", "A10.1"),
    ("bad_order", "void", "нет такого войска, повторный или неполный приказ", "A12.1"),
    ("not_adjacent", "void", "цель не граничит с провинцией войска", "C2.2, C3.2"),
    ("sea", "void", "сухопутное войско не может идти в море", "C9.2"),
    ("over_limit", "void", "превышен лимит силы отряда или найма", "A7.1, A1.1"),
    ("food", "void", "не хватает снабжения пищей для нового отряда", "C2.2, A1.1, A11.1"),
    ("protected", "void", "провинция защищена Диким набегом прошлого хода", "Зверолюды"),
    ("no_battle", "void", "в этой провинции не было боя с участием поддерживаемой фракции", "C3.2"),
    ("empty_province", "void", "поддерживаемая фракция вошла в провинцию без войск", "C4.2"),
    ("already_supported", "void", "войско уже оказало подмогу на этом ходу", "C5.2"),
    ("engaged", "void", "войско передвигалось, атаковало или было атаковано", "C6.2"),
    ("same_origin", "void", "нельзя поддерживать атаку из своей же провинции", "C11.2"),
    ("no_support_allowed", "void", "в этом бою подмога невозможна", "Туземцы, Боссы, Тёмные эльфы"),
    ("no_influence", "void", "не хватает Влияния", "Расы"),
    ("bad_target", "void", "недопустимая цель", "Расы"),
    ("over_cap", "void", "больше, чем разрешено", "Ресурсы: Могущество"),
    ("not_own", "void", "провинция не ваша или морская", "P1.1"),
    ("duplicate", "void", "постройка этого типа уже есть в провинции", "P1.1"),
    ("no_deposit", "void", "в провинции нет нужного месторождения или выхода к морю", "Ресурсы"),
    ("no_resources", "void", "не хватает ресурсов", "P1.1"),
    ("stolen", "void", "припасы провинции украдены гоблинами", "Гоблины"),
    ("not_transferable", "void", "Влияние и Могущество передавать нельзя", "Ресурсы"),
    ("bad_route", "void", "маршрут каравана не ведёт от отправителя к получателю по соседним провинциям", "P2.1"),
    ("hostile_route", "void", "на пути каравана враждебная фракция", "P2.1"),
    ("no_port", "void", "для пути по морю порт нужен обеим фракциям", "P3.1"),
)

REASONS: dict[str, Reason] = {code: Reason(code, outcome, ru, rule) for code, outcome, ru, rule in _ROWS}


def explain(code: str | None) -> str:
    """Russian explanation of a reason code (with its rule)."""
    if code is None:
        return ""
    r = REASONS.get(code)
    return f"{r.ru} ({r.rule})" if r is not None else code
