"""Jade Rose faction consequences of the war, victory and Midnight, DATC style: setup, war events (as the war
engine emits them, after it has moved the cities), expected state. Each docstring quotes the rule book
(seeds/000_d4955973ee03e561.txt) and says what is checked. One module: the faction rules share the war-event
builders above the first section, and each section is one faction's chapter of the book."""
from __future__ import annotations

import pytest

from engine.jade_rose import consequences, holdings, turn, victory
from engine.jade_rose.actions.runner import run_economy
from engine.jade_rose.factions import jade_court
from engine.jade_rose.garrison import garrison_of
from engine.jade_rose.setup import new_game
from tests.jade_rose.small_games import CITIES, make_game
from tests.paths import JADE_ROSE_DEMO, REPO


def add_cities(state: dict, faction: str, n: int, level: int = 1) -> None:
    """`n` more small cities for a faction, off the ring."""
    for i in range(n):
        cid = f"{faction}_extra_{i}"
        state["cities"][cid] = {"name": f"{faction}-{i}", "owner": faction, "large": False, "level": level,
                                "buildings": [], "capital": False, "ruins": False, "no_income_turns": 0}


def battle(city: str, attacker: str, defender: str | None, deaths=None, army_deaths=None, army_size=None,
           winner: str = "attacker") -> dict:
    return {"kind": "battle", "id": f"b1-{city}", "city": city, "attacker": attacker, "defender": defender,
            "winner": winner, "deaths": deaths or {}, "army_deaths": army_deaths or {}, "army_size": army_size or {}}


def capture(state: dict, city: str, attacker: str, choice: str) -> dict:
    """The war's capture event for `city`, after the war has moved the city as the rules say."""
    c = state["cities"][city]
    previous = c["owner"]
    event = {"kind": "capture", "city": city, "attacker": attacker, "previous_owner": previous, "choice": choice,
             "large": c["large"], "level_before": c["level"],
             "era_max_level": min(3, holdings.era_of(state).max_city_level),
             "base_income": holdings.base_income(c, previous)}
    if choice == "colonise":
        c.update(owner=attacker, buildings=[])
    elif choice == "plunder":
        c.update(buildings=[], level=max(1, c["level"] - 1), no_income_turns=1)
    elif choice == "raze":
        c.update(owner=attacker, buildings=[], ruins=True)
    return event


def honor(state: dict) -> int:
    return state["factions"]["empire"]["honor"]


def grudges(state: dict, against: str) -> int:
    return state["factions"]["dwarves"]["grudges"][against]


def ledger_sum(state: dict, faction: str, resource: str) -> int:
    return sum(line["amount"] for line in state["ledger"] if line["faction"] == faction
               and line["resource"] == resource)


# -- Empire honor (L75-79) -------------------------------------------------------------------------

def test_empire_honor_per_dead_unit_is_a_fifth_of_its_upkeep_summed_per_battle():
    """«Каждый умерший юнит даёт честь в размере пятой части своего содержания в золоте. Например, умерший копейщик
    с содержанием 5з/ход при смерти даст 1ч.» — 3 horsemen (8з) and a spearman (5з): 29 ÷ 5 = 5ч (JR-63: summed
    per battle, then floored); one horseman in each of two battles: 1ч + 1ч; the enemy's dead give nothing."""
    state = make_game()
    consequences.apply_war_events(state, [battle("ferrum", "vampires", "empire",
                                             deaths={"empire": {"empire_horseman": 3, "empire_spearman": 1},
                                                     "vampires": {"vampires_lord": 1}})])
    assert honor(state) == 5 and ledger_sum(state, "empire", "honor") == 5
    consequences.apply_war_events(state, [
        battle("ferrum", "vampires", "empire", deaths={"empire": {"empire_horseman": 1}}),
        battle("aurum", "dwarves", "empire", deaths={"empire": {"empire_horseman": 1}})])
    assert honor(state) == 7


def test_a_captured_empire_capital_gives_150_honor():
    """«Ваш город захватили или разрушили: +50ч (если большой, то +150ч) (в дополнение к чести за смерть
    гарнизона)» — the large capital colonised: 150 + the garrison's 10 spearmen (10ч); a small city razed: +50."""
    state = make_game()
    garrison = {"empire": {"empire_spearman": 10}}
    consequences.apply_war_events(state, [battle("aurum", "vampires", "empire", deaths=garrison),
                                          capture(state, "aurum", "vampires", "colonise")])
    assert honor(state) == 160
    consequences.apply_war_events(state, [capture(state, "ferrum", "dwarves", "raze")])
    assert honor(state) == 210


def test_a_plundered_empire_city_gives_30_or_90_honor():
    """«Ваш город разграбили: +30ч (если большой - то +90ч) (в дополнение к чести за смерть гарнизона)»."""
    state = make_game()
    consequences.apply_war_events(state, [capture(state, "ferrum", "jade", "plunder")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "aurum", "jade", "plunder")])
    assert honor(state) == 120


def test_the_empire_loses_20_honor_for_plundering_or_razing_but_never_goes_below_zero():
    """«Вы разграбили или разрушили город: -20ч»; «Честь не может быть отрицательной.» — 50 → 30 (plunder) → 10
    (raze) → 0 (plunder); colonising costs nothing."""
    state = make_game()
    state["factions"]["empire"]["honor"] = 50
    consequences.apply_war_events(state, [capture(state, "umbra", "empire", "plunder")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "mons", "empire", "colonise")])
    assert honor(state) == 30
    consequences.apply_war_events(state, [capture(state, "qinghe", "empire", "raze"),
                                      capture(state, "umbra", "empire", "plunder")])
    assert honor(state) == 0 and ledger_sum(state, "empire", "honor") == -50


# -- Vampires' slaves (L145-155, L180, L184) -------------------------------------------------------------

def test_vampires_get_slaves_from_plunder_and_capture():
    """«При разграблении города вы получаете число рабов, равное базовому доходу города. При захвате города вы
    получаете число рабов, равное половине базового дохода города.» — the Empire's large L2 capital plundered:
    600; the Jade small L1 city colonised: 75."""
    state = make_game()
    state["cities"]["aurum"]["level"] = 2
    consequences.apply_war_events(state, [capture(state, "aurum", "vampires", "plunder")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 600
    consequences.apply_war_events(state, [capture(state, "qinghe", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 600 + 75


def test_vampires_flee_with_slaves_worth_twice_the_base_income_of_their_lost_city():
    """«Если ваш город захватывают или разграбляют, вампиры сбегают из него вместе с рабами. Вы получите в своё
    распоряжение число рабов в размере удвоенного базового дохода города. Примечание: учитывается базовый доход
    города для фракции, которой принадлежит город. У вас базовый доход вдвое меньше.» — large L1: 2 × 150."""
    state = make_game()
    consequences.apply_war_events(state, [capture(state, "noct", "empire", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 300


def test_slave_market_adds_50_slaves_for_attacks_on_neighbouring_cities():
    """«Рынок рабов (100з) - +50 к получаемым рабам при нападениях на соседние города» — Умбра (market) borders
    Карак: +75 + 50; Юйлун is not next to a market city: +150 only."""
    state = make_game()
    state["cities"]["umbra"].update(level=2, buildings=["vampires_slave_market"])
    consequences.apply_war_events(state, [capture(state, "karak", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 150 + 50
    consequences.apply_war_events(state, [capture(state, "yulong", "vampires", "colonise")])
    assert state["factions"]["vampires"]["slaves"] == 450 + 150 + 50 + 150


def test_vampires_sleeping_in_a_crypt_die_when_its_city_is_captured():
    """«Склеп (100з) - вмещает до 20 вампиров. … Если город захватят, то вампиры из склепа автоматически умирают.»
    — 30 half-bloods, blood for 10: 20 sleep in the crypt of Умбра and die with its capture (the war has already
    destroyed the crypt); the 10 awake stay."""
    state = make_game()
    state["cities"]["umbra"]["buildings"] = ["vampires_crypt"]
    rec = state["factions"]["vampires"]
    rec.update(units={"vampires_halfblood": 30}, slaves=225)              # 150 after deaths: blood for 10
    turn.end_of_turn(state)
    assert rec["hibernating"] == {"vampires_halfblood": 20}
    assert rec["crypts"] == {"umbra": {"vampires_halfblood": 20}}
    consequences.apply_war_events(state, [capture(state, "umbra", "empire", "colonise")])
    assert rec["units"] == {"vampires_halfblood": 10} and rec["hibernating"] == {}


def test_slaves_captured_after_the_ritual_become_eternal_servants():
    """«Все рабы, которых вы захватите в будущем, тоже будут автоматически превращаться в Вечных слуг.»"""
    state = make_game()
    state["factions"]["vampires"].update(ritual_done=True, slaves=0, eternal_servants=500)
    consequences.apply_war_events(state, [capture(state, "ferrum", "vampires", "plunder")])
    assert state["factions"]["vampires"]["eternal_servants"] == 650 and state["factions"]["vampires"]["slaves"] == 0


def test_sunset_doubles_honor_and_slaves_received_but_not_grudges():
    """«Закат (7-8 ход): Боги требуют битв! Получаемое золото и получаемый уникальный ресурс удваивается для всех
    фракций» (JR-62: lump sums included, grudges excluded)."""
    state = make_game(turn=7)
    state["cities"]["mons"]["level"] = 3
    knight = {"empire": {"empire_knight": 1}}
    consequences.apply_war_events(state, [battle("ferrum", "dwarves", "empire", deaths=knight),
                                          capture(state, "ferrum", "vampires", "plunder"),
                                          capture(state, "mons", "vampires", "colonise")])
    assert honor(state) == 2 * (3 + 30)
    assert state["factions"]["vampires"]["slaves"] == 450 + 2 * (150 + 225)
    assert grudges(state, "vampires") == 2                # small city at the era's max level: 1 × 2, not × 4


# -- Dwarves' grudges (L203-209) -------------------------------------------------------------------------

def test_dwarf_grudges_for_a_lost_city_by_size_doubled_at_the_eras_max_level():
    """«Ваш город захватили, разграбили или разрушили: +1 обиды для маленького, +2 для большого. Если он был
    максимального уровня, ограниченного эпохой - вдвое больше.» — Dawn (max level 2): small L1 +1, large L2 +4."""
    state = make_game(turn=3)
    state["cities"]["karak"]["level"] = 2
    consequences.apply_war_events(state, [capture(state, "mons", "jade", "plunder")])
    assert grudges(state, "jade") == 1
    consequences.apply_war_events(state, [capture(state, "karak", "empire", "raze")])
    assert grudges(state, "empire") == 4 and grudges(state, "vampires") == 0


def test_dwarf_grudges_drop_when_they_take_that_factions_city_unless_the_endless_vengeance_guild():
    """«Вы захватили город фракции: -1 обида для маленького, -2 обиды для большого.»; «Гильдия бесконечной мести
    (400з) - позволяет вам игнорировать любые эффекты, снижающие число обид.»"""
    state = make_game()
    state["factions"]["dwarves"]["grudges"]["empire"] = 3
    consequences.apply_war_events(state, [capture(state, "aurum", "dwarves", "colonise")])
    assert grudges(state, "empire") == 1
    consequences.apply_war_events(state, [capture(state, "ferrum", "dwarves", "colonise")])
    assert grudges(state, "empire") == 0                                     # never below 0
    state = make_game()
    state["factions"]["dwarves"]["grudges"]["empire"] = 3
    state["cities"]["karak"].update(level=3, buildings=["dwarves_endless_vengeance_guild"])
    consequences.apply_war_events(state, [capture(state, "aurum", "dwarves", "plunder")])
    assert grudges(state, "empire") == 3


def test_a_failed_attack_on_the_dwarves_adds_a_grudge():
    """«Враг неудачно напал на ваш город: +1 обида.»"""
    state = make_game()
    consequences.apply_war_events(state, [{"kind": "failed_attack", "city": "mons", "attacker": "vampires",
                                       "defender": "dwarves"},
                                      {"kind": "failed_attack", "city": "umbra", "attacker": "dwarves",
                                       "defender": "vampires"}])
    assert grudges(state, "vampires") == 1


def test_an_enemy_destroying_half_the_dwarf_army_adds_a_grudge():
    """«Враг уничтожил как минимум половину вашей армии при нападении на вас: +1 обида.» — 5 of 10 army units:
    +1; 4 of 10: none; garrison deaths do not count; losses while the dwarves attack: none."""
    state = make_game()
    consequences.apply_war_events(state, [
        battle("mons", "jade", "dwarves", deaths={"dwarves": {"dwarves_miner": 20}},
               army_deaths={"dwarves": {"dwarves_miner": 4}}, army_size={"dwarves": 10}, winner="defender"),
        battle("karak", "empire", "dwarves", army_deaths={"dwarves": {"dwarves_miner": 3, "dwarves_thane": 2}},
               army_size={"dwarves": 10}, winner="defender"),
        battle("umbra", "dwarves", "vampires", army_deaths={"dwarves": {"dwarves_miner": 10}},
               army_size={"dwarves": 10}, winner="defender")])
    assert state["factions"]["dwarves"]["grudges"] == {"empire": 1, "vampires": 0, "jade": 0}


def test_grudges_never_exceed_10():
    """«Число обид не может превысить 10 и не может быть меньше 0.» — 9 + a large city at the max level (4) = 10;
    the ledger shows the +1 really added."""
    state = make_game()
    state["factions"]["dwarves"]["grudges"]["empire"] = 9
    consequences.apply_war_events(state, [capture(state, "karak", "empire", "colonise")])
    assert grudges(state, "empire") == 10
    assert [line["amount"] for line in state["ledger"] if line["resource"] == "grudges"] == [1]


# -- victory (L69-72, L138-141, L197-200, L265-269; JR-59) ---------------------------------------------

def test_empire_wins_with_9_cities_and_100_honor_and_leaves_the_game():
    """«Держать под контролем как минимум 9 городов. Накопить 100 чести. При победе ваши враги вынуждены заключить
    с вами мир. Вы выходите из игры, ваши города становятся недоступны для атаки, а оставшиеся фракции продолжают
    биться.» — both conditions are needed (JR-59)."""
    state = make_game()
    add_cities(state, "empire", 7)
    state["factions"]["empire"]["honor"] = 99
    victory.end_of_turn(state)
    assert not state["factions"]["empire"]["won"]
    state["factions"]["empire"]["honor"] = 100
    victory.end_of_turn(state)
    assert state["factions"]["empire"]["won"] and victory.winners(state) == ["empire"]
    assert "empire" not in holdings.active_factions(state) and not victory.game_over(state)
    assert state["chronicle"][-1]["kind"] == "Победа" and "мир" in state["chronicle"][-1]["text"]
    (status,) = run_economy(state, "empire", [{"row": 2, "kind": "upgrade", "city": "aurum", "count": 1}],
                                    None)
    assert status.errors[0].code == "JR_FACTION_OUT"


def test_dwarves_win_with_8_cities_and_3000_gold_and_their_cities_become_ruins():
    """«Держать под контролем как минимум 8 городов. Накопить 3000з. При победе вы выкапываете колоссальную сеть
    тоннелей под землёй. Дворфы переселяются под землю, а города на поверхности становятся руинами.»"""
    state = make_game(gold=3000)
    add_cities(state, "dwarves", 5)
    victory.end_of_turn(state)
    assert not state["factions"]["dwarves"]["won"]
    add_cities(state, "dwarves", 6)
    victory.end_of_turn(state)
    assert state["factions"]["dwarves"]["won"]
    gone = [c for c in state["cities"].values() if c["name"] in ("Карак", "Монс") or c["name"].startswith("dwarves-")]
    assert all(c["ruins"] and c["owner"] is None and c["buildings"] == [] for c in gone)


def test_jade_court_wins_with_3_great_forges_9_cities_and_1000_jade():
    """«Построить 3 Великих Кузни. Держать под контролем не менее 9 городов. Накопить 1000н.» — the starting forge
    counts (JR-90)."""
    state = make_game()
    add_cities(state, "jade", 7, level=3)
    state["factions"]["jade"]["jade"] = 1000
    state["cities"]["jade_extra_0"]["buildings"] = ["jade_great_forge"]
    victory.end_of_turn(state)
    assert not state["factions"]["jade"]["won"]
    state["cities"]["jade_extra_1"]["buildings"] = ["jade_great_forge"]
    victory.end_of_turn(state)
    assert state["factions"]["jade"]["won"]


def test_vampires_win_with_1000_eternal_servants_and_one_rival_earning_half_as_much():
    """«Иметь как минимум 1000 вечных слуг. Против вас должна остаться только 1 фракция, чей доход вы превосходите
    как минимум вдвое. При победе оставшаяся фракция добровольно вынуждена вам сдаться.» — with two rivals left,
    no victory; with one (the Empire earning 450з against 150 + 75 + 1000 + … ), the Empire surrenders."""
    state = make_game()
    state["factions"]["vampires"].update(eternal_servants=1000, slaves=0)
    state["factions"]["dwarves"]["eliminated"] = True
    victory.end_of_turn(state)
    assert not state["factions"]["vampires"]["won"]
    state["factions"]["jade"]["won"] = True
    victory.end_of_turn(state)
    assert state["factions"]["vampires"]["won"]
    assert state["factions"]["empire"]["eliminated"] and state["factions"]["empire"]["subjugated_by"] == "vampires"
    assert state["cities"]["aurum"]["owner"] == "vampires" and victory.game_over(state)
    assert victory.winners(state) == ["jade", "vampires"]


# -- Midnight (L335; JR-60) -------------------------------------------------------------------------------

def test_midnight_destroys_every_faction_but_the_winners_and_the_one_with_most_cities():
    """«Полночь (9 ход): богам наскучило наблюдать за битвой. Они уничтожают все фракции, кроме уже победивших и
    той, у которой больше всего городов. Эта фракция выигрывает.» — at the end of turn 9, not before."""
    state = make_game(turn=8)
    add_cities(state, "dwarves", 2)
    state["factions"]["jade"]["won"] = True
    victory.end_of_turn(state)
    assert not victory.game_over(state) and not state.get("midnight")
    state["turn"] = 9
    victory.end_of_turn(state)
    assert victory.game_over(state) and victory.winners(state) == ["dwarves", "jade"]
    assert state["factions"]["empire"]["eliminated"] and state["factions"]["vampires"]["eliminated"]
    assert not state["factions"]["jade"].get("eliminated")
    assert state["chronicle"][-1]["kind"] == "Полночь" and "Дворфы" in state["chronicle"][-1]["text"]


@pytest.mark.parametrize("setup, survivors", [
    ({"ferrum": 2}, ["empire"]),                                  # tied cities: higher total base income
    ({"gold": {"dwarves": 10}}, ["dwarves"]),                     # tied income too: higher gold
    ({}, ["dwarves", "empire", "jade"]),                          # still tied: all survive (vampires earn half)
])
def test_midnight_ties_go_to_base_income_then_gold_then_all_survive(setup, survivors):
    """RULINGS JR-60: «ties for most cities: higher total base income, then higher gold; still tied: all survive»."""
    state = make_game(turn=9)
    state["cities"]["ferrum"]["level"] = setup.get("ferrum", 1)
    for fid, gold in setup.get("gold", {}).items():
        state["factions"][fid]["gold"] = gold
    victory.end_of_turn(state)
    assert victory.winners(state) == survivors
    assert sorted(f for f, r in state["factions"].items() if r.get("eliminated")) == sorted(
        set(CITIES) - set(survivors))


def test_the_last_faction_left_in_play_wins():
    state = make_game()
    for fid in ("empire", "vampires"):
        state["factions"][fid]["eliminated"] = True
    state["factions"]["dwarves"]["won"] = True
    victory.end_of_turn(state)
    assert state["factions"]["jade"]["won"] and victory.game_over(state)


# -- Jade Court ----------------------------------------------------------------------------------------

def test_jade_garrison_creatures_vanish_without_a_great_forge():
    """«Нефритовые создания помечены звёздочкой (*). Их нельзя создать без Великой Кузни.» — the level-1 garrison
    keeps its people but loses its jade warriors once no forge stands."""
    state = make_game()
    with_forge = garrison_of(state, "qinghe")
    assert with_forge.get("jade_warrior", 0) > 0
    state["cities"]["yulong"]["buildings"] = []
    without = garrison_of(state, "qinghe")
    assert without == {k: n for k, n in with_forge.items() if k != "jade_warrior"}


def test_jade_mines_and_estates_add_to_the_jade_limit():
    """«Нефритовая шахта (250з) - +150 к лимиту покупки нефрита за ход»; «Поместья (350з) - +200з к доходу города,
    +200 к лимиту покупки нефрита за ход» — 300 + 150 + 200 = 650 (several add up)."""
    state = make_game()
    state["cities"]["yulong"].update(level=3, buildings=["jade_great_forge", "jade_jade_mine", "jade_estates"])
    assert jade_court.jade_limit(state, "jade") == 650


def test_each_war_consequence_is_told_in_the_factions_log():
    """Every change is a ledger line with a Russian reason, and each faction's journal gets one line per event."""
    state = make_game()
    state["factions"]["empire"]["honor"] = 30
    consequences.apply_war_events(state, [capture(state, "mons", "empire", "raze"),
                                      {"kind": "failed_attack", "city": "karak", "attacker": "jade",
                                       "defender": "dwarves"}])
    assert [(e["faction"], e["text"]) for e in state["log"]] == [
        ("dwarves", "Город Монс разрушен («Империя»): +2 обиды на «Империя»"),
        ("empire", "Город Монс разрушен («Империя»): -20ч"),
        ("dwarves", "Нападение «Нефритовый двор» на Карак отбито: +1 обида на «Нефритовый двор»")]
    assert all(line["reason"] for line in state["ledger"])


def test_a_peaceful_demo_game_ends_at_midnight_after_turn_9():
    """«Полночь (9 ход)»: nine turns of the whole turn sequence (start, economy, war events, end of turn, victory
    checks) on the demo map; the game is over after turn 9 and not before, with the Midnight survivors as winners."""
    import tomllib

    with JADE_ROSE_DEMO.open("rb") as fh:
        state = new_game(tomllib.load(fh))
    for number in range(1, 10):
        assert not victory.game_over(state) and state["turn"] == number
        state = turn.resolve_orders_stage(state, {}, seed=number).state
    assert state["stage"] == "finished" and victory.game_over(state)
    assert victory.winners(state) == state["midnight"]["survivors"]
    assert state["chronicle"][-1]["kind"] == "Полночь"


# -- how the rules are grouped: one hook class per faction, one ledger, one chronicle ----------------

def test_every_faction_of_the_data_has_its_rules_and_owns_its_actions():
    """Each faction of factions.toml has its hooks in the explicit mapping, and every faction-only economy
    action is handled by exactly the faction the order tab reserves it for."""
    from engine.jade_rose import factions
    from engine.jade_rose.data import load_data
    from engine.jade_rose.economy_orders import FACTION_ONLY

    assert set(factions.FACTIONS) == set(load_data().factions)
    handled = {kind: fid for fid, rules in factions.FACTIONS.items() for kind in rules.actions}
    assert handled == dict(FACTION_ONLY)


def test_ledger_change_records_every_balance_change_and_nothing_for_zero():
    from engine import ledger

    state = make_game(gold=100)
    state["ledger"] = []
    ledger.change(state, "empire", "gold", -30, "Тест", "aurum", kind="test")
    ledger.change(state, "empire", "gold", 0, "Ничего")
    ledger.change(state, "dwarves", "grudges", 2, "Обида", against="empire")
    assert state["factions"]["empire"]["gold"] == 70 and state["factions"]["dwarves"]["grudges"]["empire"] == 2
    assert state["ledger"] == [
        {"faction": "empire", "resource": "gold", "amount": -30, "reason": "Тест", "city": "aurum", "kind": "test"},
        {"faction": "dwarves", "resource": "grudges", "amount": 2, "reason": "Обида", "against": "empire"}]


def test_only_the_ledger_module_appends_to_the_ledger_journal_and_chronicle():
    """The records have one writer each (engine/jade_rose/ledger.py): no other Jade Rose module appends to
    them directly, so every balance change carries its reason."""
    import re

    root = REPO / "engine" / "jade_rose"
    pattern = re.compile(r"""\[\s*["'](ledger|log|chronicle)["']\s*\]\s*\.append"""
                         r"""|setdefault\(\s*["'](ledger|log|chronicle)["'][^)]*\)\s*\.append""")
    writers = sorted(str(p.relative_to(root)) for p in root.rglob("*.py")
                     if p.name != "ledger.py" and pattern.search(p.read_text(encoding="utf-8")))
    assert writers == []
