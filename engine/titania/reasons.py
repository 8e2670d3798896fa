"""The closed catalogue of outcomes and reason codes (SCHEMA §3 and SCHEMA_V2 §12, nothing else), each with its
Russian explanation and the rule that decides it: the engine's code of the rule (engine.titania.rulebook),
which the Russian texts cite as the rule book's section and point, «(см. «Фаза Похода», п. 12.2)»."""
from __future__ import annotations

from dataclasses import dataclass

from engine.titania.rulebook import see

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
    ("boss_killed", "succeeded", "Босс повержен, провинция захвачена без потери построек", "bosses"),
    ("supported", "succeeded", "подмога засчитана в бою", "C3.2, A3.1"),
    ("split", "succeeded", "войско разделено, у каждой части свой приказ", "C2.2"),
    ("built", "succeeded", "постройка возведена, действует с начала Похода", "P1.1"),
    ("hired", "succeeded", "войска наняты или пополнены", "P4.1, A1.1"),
    ("sent", "succeeded", "караван отправлен, придёт в начале следующего Планирования", "P2.1"),
    ("registered", "succeeded", "способность применена", "races"),
    ("allocated", "succeeded", "Могущество распределено", "resources.might"),
    ("lost", "failed", "атака проиграна: суммарная сила меньше", "A2.1, C10.2"),
    ("draw", "failed", "ничья: суммарные силы равны, обе стороны теряют половину и отступают", "A4.1"),
    ("boss_survived", "failed", "Босс ранен, но жив; войско отступило", "bosses"),
    ("warded", "failed", "первое напавшее войско отброшено Охранными чарами", "high_elves"),
    ("dislodged", "failed", "войско уничтожено или отступило", "A5.1"),
    ("attacked", "cancelled", "войско было атаковано или получило урон до своего приказа", "C12.2"),
    ("intimidated", "cancelled", "войско остановлено Устрашением", "C12.2, lizardmen"),
    ("ally_captured", "cancelled", "союзник уже захватил эту провинцию в этом Походе", "A10.1"),
    ("bad_order", "void", "нет такого войска, повторный или неполный приказ", "A12.1"),
    ("not_adjacent", "void", "цель не граничит с провинцией войска", "C2.2, C3.2"),
    ("sea", "void", "сухопутное войско не может идти в море", "C9.2"),
    ("over_limit", "void", "превышен лимит силы отряда или найма", "A7.1, A1.1"),
    ("food", "void", "не хватает снабжения пищей для нового отряда", "C2.2, A1.1, A11.1"),
    ("protected", "void", "провинция защищена Диким набегом прошлого хода", "beastmen"),
    ("no_battle", "void", "в этой провинции не было боя с участием поддерживаемой фракции", "C3.2"),
    ("empty_province", "void", "поддерживаемая фракция вошла в провинцию без войск", "C4.2"),
    ("already_supported", "void", "войско уже оказало подмогу на этом ходу", "C5.2"),
    ("engaged", "void", "войско передвигалось, атаковало или было атаковано", "C6.2"),
    ("same_origin", "void", "нельзя поддерживать атаку из своей же провинции", "C11.2"),
    ("no_support_allowed", "void", "в этом бою подмога невозможна", "natives, bosses, dark_elves"),
    ("no_influence", "void", "не хватает Влияния", "races"),
    ("bad_target", "void", "недопустимая цель", "races"),
    ("over_cap", "void", "больше, чем разрешено", "resources.might"),
    ("not_own", "void", "провинция не ваша или морская", "P1.1"),
    ("duplicate", "void", "постройка этого типа уже есть в провинции", "P1.1"),
    ("no_deposit", "void", "в провинции нет нужного месторождения или выхода к морю", "resources"),
    ("no_resources", "void", "не хватает ресурсов", "P1.1"),
    ("stolen", "void", "припасы провинции украдены гоблинами", "goblins"),
    ("not_transferable", "void", "Влияние и Могущество передавать нельзя", "resources.influence, resources.might"),
    ("bad_route", "void", "маршрут каравана не ведёт от отправителя к получателю по соседним провинциям", "P2.1"),
    ("hostile_route", "void", "на пути каравана враждебная фракция", "P2.1"),
    ("no_port", "void", "для пути по морю порт нужен обеим фракциям", "P3.1"),
    # SCHEMA_V2 §12: technologies, spells, events, Keeper quests, items and the Market
    ("researched", "succeeded", "технология изучена, действует с начала Похода", "P1.1"),
    ("learned", "succeeded", "заклинание изучено", "resources.mana"),
    ("contributed", "succeeded", "ресурсы переданы на задачу события", "events"),
    ("cast", "succeeded", "заклинание применено до начала ходов", "campaign"),
    ("stopped", "cancelled", "войско остановлено заклинанием", "C12.2"),
    ("known", "void", "эта технология или это заклинание уже изучены", "P1.1"),
    ("needs_might", "void", "не хватает Могущества для этой технологии", "resources.might"),
    ("needs_technology", "void", "сначала нужно изучить требуемую технологию", "P1.1"),
    ("not_known", "void", "это заклинание фракции не известно", "resources.mana"),
    ("twice", "void", "каждое заклинание можно применить только раз за ход", "campaign"),
    ("no_event", "void", "нет открытого события с такой задачей", "events"),
    ("no_market", "void", "караван Хранителю должен прийти на его Рынок", "keepers"),
    ("no_item", "void", "у отправителя нет такого предмета", "keepers"),
    ("unknown_item", "void", "нет такой технологии, заклинания, события или предмета в каталоге", ""),
)

REASONS: dict[str, Reason] = {code: Reason(code, outcome, ru, rule) for code, outcome, ru, rule in _ROWS}


# A Boss fight whose attacking army the Boss's damage destroyed (outcome.Adjudication.fallen_orders): the reason
# code stays the catalogue's, the words say what became of the army (it did not retreat).
FALLEN = {"boss_survived": "Босс ранен, но жив; войско погибло в бою с ним",
          "boss_killed": "Босс повержен ценой всего войска, провинция захвачена без потери построек"}


def explain(code: str | None, fallen: bool = False) -> str:
    """Russian explanation of a reason code, with the rule book's place of its rule; `fallen`: the attacking
    army did not survive its Boss fight."""
    if code is None:
        return ""
    r = REASONS.get(code)
    if r is None:
        return code
    text = FALLEN.get(code, r.ru) if fallen else r.ru
    return f"{text} ({see(r.rule)})" if r.rule else text


# The closed list of what may defeat, at the turn, a row that `check` accepted (engine.titania.forecast runs
# the faction's own part of the turn with the adjudicator's code, so every other reason is a row error at
# check). Each is caused by another faction's orders (Keepers and natives included) or by a battle, whose
# totals depend on them; the Russian text is what the row's status says of it.
_EXTERNAL: tuple[tuple[str, str, str], ...] = (
    # -- a battle: its totals depend on the defenders' strength when the attack comes (earlier attacks by
    # others), their supports, Might, abilities and spells; the order itself was carried out
    ("lost", "the defenders' totals at the moment of the attack", "атака проиграна"),
    ("draw", "as lost", "ничья в бою"),
    ("boss_survived", "as lost (a Boss fight: its Health when the attack comes)", "Босс выжил"),
    # -- another faction's move or power, before or against this order
    ("dislodged", "another faction attacked and beat or pushed out the holding army", "войско выбили"),
    ("attacked", "another faction attacked or damaged the army (spell, trap) before its order ran",
     "войско атаковали до его приказа"),
    ("intimidated", "another faction's Intimidation (Lizardmen)", "войско остановлено Устрашением"),
    ("stopped", "another faction's spell stopped the army", "войско остановлено чужим заклинанием"),
    ("warded", "another faction's Warding charm turned the first attacker back", "отброшено Охранными чарами"),
    ("ally_captured", "an ally captured the target earlier in this Campaign (A10.1)", "союзник занял цель первым"),
    ("over_limit", "a move into an own province whose own army was to leave first, but another faction "
                   "stopped or attacked that army, so it stayed (A7.1)",
     "ваше войско в провинции назначения не ушло оттуда (его приказ сорвали другие фракции), и вместе "
     "сила превысила бы лимит отряда"),
    # -- a standing support: whether and how a battle comes there depends on others' moves (G17 a, G18 a)
    ("no_battle", "nobody fought where the support stood ready", "боя там не было"),
    ("empty_province", "the supported faction entered the province while nobody else was there (C4.2)",
     "поддержанная фракция вошла в пустую провинцию"),
    ("engaged", "the supporting army was attacked before the battle, or an army that had moved retreated "
                "into its province after another faction's attack (C6.2)",
     "до боя войско атаковали или к нему отступило ваше войско"),
    ("same_origin", "the supported ally attacked from the supporter's own province (C11.2)",
     "союзник атаковал из той же провинции"),
    ("no_support_allowed", "a Dark-elf Brigandage attack, or natives retreating into the province",
     "в этом бою подмога невозможна"),
    # -- Planning: the one thing in it that other factions share
    ("no_event", "another faction's contribution won or solved the event first", "событие уже закрыто"),
)

EXTERNAL_CAUSES: frozenset[str] = frozenset(code for code, _, _ in _EXTERNAL)
DEFEATED_BY: dict[str, str] = {code: ru for code, _, ru in _EXTERNAL}
