"""The dwarves (factions/dwarves.py, rule book L196-260), and every rule of the grudges in one place: how they are
earned and forgiven, their cap, the grudge rooms, the vengeful campaign, their weight in battle (the side's +5 %
a grudge, against that faction only); runes and the investors' guild. DATC style: setup, orders, expected
outcome; each docstring quotes the rule book (../shared/seeds/000_d4955973ee03e561.txt) or the ruling."""
from __future__ import annotations

from engine.jade_rose import consequences, income, turn, war
from tests.jade_rose import battle_kit, war_kit
from tests.jade_rose.small_games import battle, capture, codes, grudges, make_game, run
from tests.jade_rose.war_kit import attack

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


def attack_plan(city: str, units: dict[str, int], order: str = "attack") -> dict:
    return {"armies": {"Месть": {"squads": [{"flank": "C", "line": "V", "units": units}],
                                 "order": order, "city": city}}}


# -- Dwarves: the vengeful campaign, the investors' guild, grudge rooms (L210, L248, L253) ---------------------

def test_vengeful_campaign_with_5_grudges_pays_35_percent_less():
    """«Вы можете объявить 'мстительный поход' против фракции. В таком случае вы нанимаете любое количество юнитов
    и получаете на это скидку в размере 7%*число обид. Например, если у вас 5 обид, то скидка будет 35%. Остаток
    цены покупки округляется вниз.» — 7 miners (210з) cost 136з (136.5 rounded down)."""
    state = make_game(gold=1000)
    state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
    state["factions"]["dwarves"]["grudges"]["empire"] = 5
    plan = attack_plan("ferrum", {"dwarves_miner": 7})
    campaign, hire = run(state, "dwarves", ("Нанять", "", "Горняки", 7), ("Мстительный поход", "", "Империя", ""),
                         plan=plan)
    assert campaign.ok and "35 %" in campaign.text()
    assert hire.ok, hire.text()
    assert state["factions"]["dwarves"]["gold"] == 1000 - 136
    assert state["factions"]["dwarves"]["units"] == {"dwarves_miner": 7}
    assert state["factions"]["dwarves"]["crusade"]["units"] == {"dwarves_miner": 7}
    state["factions"]["dwarves"]["grudges"]["empire"] = 10
    state["factions"]["dwarves"]["units"] = {}
    run(state, "dwarves", ("Мстительный поход", "", "Империя", ""), ("Нанять", "", "Горняки", 7), plan=plan)
    assert state["factions"]["dwarves"]["gold"] == 1000 - 136 - 63          # 70 %: 63 of 210


def test_vengeful_campaign_units_must_be_sent_against_that_faction():
    """«Всех купленных со скидкой юнитов вы обязаны отправить на захват города фракции, которой вы мстите.» — hired
    units beyond those in an army attacking that faction's city are rejected (JR-82); nothing is paid."""
    for plan in (None, attack_plan("noct", {"dwarves_miner": 10}),
                 attack_plan("ferrum", {"dwarves_miner": 10}, "defend"), attack_plan("ferrum", {"dwarves_miner": 3})):
        state = make_game(gold=1000)
        state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
        state["factions"]["dwarves"]["grudges"]["empire"] = 5
        _, hire = run(state, "dwarves", ("Мстительный поход", "", "Империя", ""), ("Нанять", "", "Горняки", 5),
                      plan=plan)
        assert codes(hire) == ["JR_CRUSADE_NOT_SENT"] and "Империя" in hire.text()
        assert state["factions"]["dwarves"]["gold"] == 1000 and state["factions"]["dwarves"]["units"] == {}
    state = make_game(gold=1000)
    state["cities"]["karak"]["buildings"] = ["dwarves_training_ground"]
    state["factions"]["dwarves"]["grudges"]["empire"] = 1
    first, second, hire = run(state, "dwarves", ("Мстительный поход", "", "Вампиры", ""),
                              ("Мстительный поход", "", "Империя", ""), ("Мстительный поход", "", "Империя", ""),
                              ("Нанять", "", "Горняки", 2), plan=attack_plan("ferrum", {"dwarves_miner": 2}))[:3]
    assert codes(first) == ["JR_CRUSADE_NO_GRUDGES"] and second.ok
    assert codes(hire) == ["JR_CRUSADE_TWICE"]
    assert state["factions"]["dwarves"]["gold"] == 1000 - 55                 # 60 − 7 % = 55.8 → 55


def test_investors_guild_takes_up_to_500_and_returns_20_percent_more_next_turn():
    """«Гильдия вкладчиков (200з) - позволяет вложить до 500з и к следующему ходу вернуть на 20% больше.»"""
    state = make_game(gold=1000)
    (status,) = run(state, "dwarves", ("Вложить", "", "", 100))
    assert codes(status) == ["JR_INVEST_NO_GUILD"] and "Гильдия вкладчиков" in status.text()
    state["cities"]["mons"]["buildings"] = ["dwarves_investors_guild"]
    first, second = run(state, "dwarves", ("Вложить", "", "", 300), ("Вложить", "", "", 300))
    assert first.ok and codes(second) == ["JR_INVEST_CAP"] and "ещё 200з" in second.text()
    assert state["factions"]["dwarves"]["gold"] == 700
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["gold"] == 700 + 300 + 60 and state["factions"]["dwarves"]["investment"] == 0
    state = make_game(gold=500, turn=6)
    state["cities"]["mons"]["buildings"] = ["dwarves_investors_guild"]
    run(state, "dwarves", ("Вложить", "", "", 500))
    state["turn"] = 7                                                       # Sunset doubles the profit
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["gold"] == 500 + 200


def test_grudge_room_records_one_grudge_per_turn_against_the_chosen_faction():
    """«Комната записи обид (300з) - +1 обида/ход против одной выбранной фракции. … Две гильдии против одной фракции
    работать не могут»."""
    state = make_game()
    state["cities"]["karak"].update(level=2, buildings=["dwarves_grudge_room"])
    state["cities"]["mons"].update(level=2, buildings=["dwarves_grudge_room"])
    (status,) = run(state, "dwarves", ("Записывать обиды", "Карак", "Нефритовый двор", ""))
    assert status.ok, status.text()
    for expected in (1, 2):
        turn.start_of_turn(state, 1)
        assert state["factions"]["dwarves"]["grudges"]["jade"] == expected
    (status,) = run(state, "dwarves", ("Записывать обиды", "Монс", "Нефритовый двор", ""))
    assert codes(status) == ["JR_GRUDGE_ROOM_TAKEN"] and "Карак" in status.text()
    state["cities"]["mons"]["buildings"] = []
    (status,) = run(state, "dwarves", ("Записывать обиды", "Монс", "Империя", ""))
    assert codes(status) == ["JR_NO_GRUDGE_ROOM"] and "Карак" in status.text()


def test_grudges_are_forgiven_one_per_turn_when_the_dwarves_hold_twice_the_cities():
    """«если у вашей фракции вдвое больше городов, чем у противника, то этому противнику прощается 1 обида в начале
    каждого хода, если он не заработал ни одной новой обиды» — and «Гильдия бесконечной мести - позволяет вам
    игнорировать любые эффекты, снижающие число обид»."""
    state = make_game(turn=4)
    state["cities"]["ferrum"]["owner"] = "dwarves"                  # dwarves 3 cities, empire 1
    state["factions"]["dwarves"]["grudges"].update(empire=3, vampires=3)
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"] == {"empire": 2, "vampires": 3, "jade": 0}
    state["turn"] = 5
    state["factions"]["dwarves"]["grudge_turns"] = {"empire": 4}   # a new grudge in the previous turn
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"]["empire"] == 2
    state["turn"] = 6
    state["cities"]["karak"].update(level=3, buildings=["dwarves_endless_vengeance_guild"])
    turn.start_of_turn(state, 1)
    assert state["factions"]["dwarves"]["grudges"]["empire"] == 2


# -- grudges in battle (L211) ----------------------------------------------------------------------------------

def test_dwarf_grudges_count_against_that_faction_only():
    """«Каждая обида даёт в бою +5% к наносимому урону. Обиды действуют только против конкретной фракции».
    Setup: dwarves hold 3 grudges against the Empire and 5 against the Jade Court; they attack Феррум.
    Expected: the attacking side carries 3 grudges; the Empire side none."""
    state = war_kit.make_game({"dwarves": {"Горняки": 5}})
    state["factions"]["dwarves"]["grudges"].update(empire=3, jade=5)
    war.form_battles(state, {"dwarves": attack(state, "dwarves", [("Центр", "Авангард", "Горняки", 5)], "Феррум")}, 1)
    mods = state["battles"][0]["attackers"][0]["modifiers"]
    assert mods["attacker"]["grudges"] == 3 and mods["defender"]["grudges"] == 0


def test_each_grudge_adds_five_percent_damage():
    """«Каждая обида даёт в бою +5% к наносимому урону (эффект суммируется)»"""
    battle = battle_kit.duel({"dwarves_longbeard": 1}, {"empire_archer": 1}, att_faction="dwarves",
                             dfd_faction="empire", att_kw={"grudges": 3})
    battle_kit.assert_mean(battle_kit.samples(battle), battle_kit.expected(10, 1, out=15))


# -- runes (L213) ----------------------------------------------------------------------------------------------

def test_dwarves_gain_three_runes_per_turn_up_to_ten():
    """«Каждый ход вы накапливаете 3 руны. Всего вы можете хранить до 10 рун.» (+2 with the obelisk)."""
    state = make_game()
    for expected in (3, 6, 9, 10, 10):
        income.collect_income(state, "dwarves")
        assert state["factions"]["dwarves"]["runes"] == expected
    state["factions"]["dwarves"]["runes"] = 0
    state["cities"]["karak"]["level"] = 2
    state["cities"]["karak"]["buildings"] = ["dwarves_rune_obelisk"]
    income.collect_income(state, "dwarves")
    assert state["factions"]["dwarves"]["runes"] == 5
