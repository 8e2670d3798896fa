"""«Титания» as a game on the rule-set contract (engine.ruleset.Ruleset).

One input stage per turn, «orders» (before the first turn of a start by the book, the set-up stage «setup» at
turn 0: engine.titania.start_book): the rule book splits a turn into Planning and Campaign, but it does not
say that Planning results are published before Campaign orders are written (G11), and hired troops «могут
получать приказы … в фазе Похода этого же хода» (P4.1), so, with reading G11 (a), every faction sends its
Planning orders, its Campaign orders in its own sequence, its Might allocation and its racial ability
together, and the turn resolves Planning, then the Campaign, at once (the adjudicator, engine.titania.adjudicate).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.registry import register
from engine.ruleset import (
    GM_BOOK,
    Adjudicator,
    DemoPlayers,
    FactionSummary,
    ForumPosts,
    MapData,
    OddsCalculator,
    ParsedOrders,
    Row,
    Ruleset,
    StageResult,
    Summary,
    Table,
)
from engine.state import Envelope
from engine.titania import (
    book_orders,
    caravan_rows,
    corrections,
    defaults,
    diplomacy,
    game_turn,
    ledger,
    odds,
    setup,
    start_book,
    views,
)
from engine.titania.book_orders import (
    ABILITY_FORM,
    CONTRIBUTE,
    HOLD,
    LEARN,
    MOVE,
    PAY_GOLD,
    PAY_INFLUENCE,
    RESEARCH,
    SPELL_ROW,
    SUPPORT,
    might_actions,
    planning_actions,
)
from engine.titania.names import RESOURCE_NAMES, ability_name, race_name
from engine.titania.params import default_params
from engine.titania.races import RACES
from engine.titania.setup import RESOURCE_KEYS
from engine.titania.state_types import copy_of, plain, titania_state
from engine.titania.tabs import TABS
from engine.titania.victory import settings, standing


@register
class Titania(Ruleset):
    """Titania: provinces, Strength, support, thirteen races (seed 002; titania.md §10, (a) readings)."""

    name = "titania"
    aliases = ("титания", "titania_1_1")
    title = "Титания"
    stages = ("orders", setup.START)  # every turn opens with «orders»; the set-up opens once, at turn 0
    secret_fields = ("gold", "wood", "stone", "mana", "influence")
    stage_titles = {"orders": "приказы (Планирование и Поход)", setup.START: "начало игры (цвет, раса, столица)",
                    "finished": "игра окончена"}
    stage_messages = {
        "orders": "Открыт новый ход: фракции заполняют «Планирование», «Поход» (в своём порядке «№») и "
                  "«Мощь и магию»; в дедлайн запустите forumwar turn.",
        setup.START: "Начало игры: каждая фракция выбирает цвет, расу, столицу и её название во вкладке «Начало "
                     "игры»; в дедлайн запустите forumwar turn — спорное и невыбранное решит жребий, затем "
                     "откроется ход 1.",
        "finished": "Игра окончена: победителей покажет forumwar status."}

    def dump_data(self) -> dict[str, Any]:
        p = default_params()
        return {"params": {k: getattr(p, k) for k in p.__dataclass_fields__},
                "races": {k: {"name": r.name, "ability": r.ability} for k, r in RACES.items()},
                "victory": settings(titania_state({}))}  # no game: the defaults

    def new_game(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        state = setup.new_game(scenario, self.name)
        if state["stage"] != setup.START:
            names = ", ".join(f"{f['name']} ({race_name(f['race'])})" for f in state["factions"].values())
            ledger.chronicle(state, "Начало", f"На Титании основаны государства: {names}.", turn=1)
        return plain(state)

    def order_tabs(self, stage: str) -> tuple[str, ...]:
        if stage == setup.START:
            return (start_book.START_TAB,)
        return (*TABS, corrections.TAB) if stage == "orders" else ()

    def vocabularies(self, state: Mapping[str, Any], faction: str | None) -> dict[str, list[str]]:
        game = titania_state(state)
        if faction is None or faction not in game["factions"]:
            return {}
        if start_book.is_setup(game):
            return start_book.vocabularies(game, faction)
        b = book_orders.Book(game, faction)
        race = RACES[b.race]
        d = book_orders.data(game)
        rec = game["factions"][faction]
        armies = sorted(b.armies(), key=b.pname)
        near = sorted({n for p in armies for n in b.neighbours(p)}, key=b.pname)  # «Куда»: next to an army
        land = sorted((p for p, i in game["map"]["provinces"].items() if not i["sea"]), key=b.pname)
        # «Мощь и магия»: the racial ability's form and the known spells' targets say which of its columns a row
        # may fill; a column none of them takes offers nothing
        form = ABILITY_FORM.get(b.race, "army")
        seen = b.ix.sight(faction)  # an army aimed at is one the faction sees (engine.titania.fog)
        foreign = [a for a in game["armies"] if a["faction"] != faction and a["province"] in seen]
        # the spells a row may cast: those known and those this turn's Planning may learn (G77); one aimed at an
        # enemy army only while the faction sees one (T4-6: a Keepers' army too)
        spells = [sp for sp in d.spells.values() if sp.target != "enemy_army" or foreign]
        aims = {sp.target for sp in spells}
        # Intimidation only while the faction sees another player's army
        usable = form != "enemy_army" or any(a["faction"] in game["factions"] for a in foreign)
        if usable:
            aims.add(form)
        first = set(land) if aims & {"province", "army_two", "path"} else set()
        if "own_province" in aims:
            first |= set(b.owned())
        if form == "enemy_army":  # Intimidation: where another player's army stands
            first |= {a["province"] for a in foreign if a["faction"] in game["factions"]}
        if "enemy_army" in {sp.target for sp in spells}:  # a spell at an enemy army: a Keeper's too (T4-6)
            first |= {a["province"] for a in foreign}
        events = book_orders.open_events(game)
        techs = [t.name for k, t in d.technologies.items() if k not in rec.get("techs", [])]
        unknown = [sp.name for k, sp in d.spells.items() if k not in rec.get("spells", [])]
        # an action with nothing left to act on: no open event, every technology or spell known
        gone = {a for a, left in ((CONTRIBUTE, events), (RESEARCH, techs), (LEARN, unknown)) if not left}
        return {
            "planning_actions": [a for a in planning_actions(race.free_hire > 0) if a not in gone],
            "discounts": [RESOURCE_NAMES[r] for r in race.research_discounts],
            "own_provinces": [b.pname(p) for p in b.own_land()],
            "planning_what": list(book_orders.buildable(game).values()) + [PAY_GOLD, PAY_INFLUENCE]
                             + [RESOURCE_NAMES[r] for r in ("gold", "wood", "stone", "mana")]
                             + [d.items.get(i, i) for i in rec.get("items", [])]  # quest items it holds
                             + techs + unknown,
            "known_spells": [sp.name for sp in spells if sp.id in rec.get("spells", [])]
                            + [sp.name for sp in spells if sp.id not in rec.get("spells", [])],
            # «Кому»: another faction, a Keepers' Market (quests, G85), an open event (a contribution)
            "other_factions": [f["name"] for fid, f in game["factions"].items() if fid != faction]
                              + [k["name"] for kid, k in sorted(game.get("keepers", {}).items())
                                 if caravan_rows.markets(game, kid)]
                              + [name for _, name in events],
            "all_factions": [f["name"] for f in game["factions"].values()],
            "army_provinces": [b.pname(p) for p in armies],
            "campaign_orders": [HOLD, MOVE, SUPPORT],
            "targets": [b.pname(p) for p in near],
            "might_actions": [a for a in might_actions(b.race) if (a != SPELL_ROW or spells)
                              and (a != ability_name(b.race) or usable)],
            "might_provinces": [b.pname(p) for p in sorted(first, key=b.pname)],
            "might_provinces2": [b.pname(p) for p in land] if form in ("army_two", "path") else [],
            # whose army a row may aim at: one the faction sees (a Keeper's only by a spell, T4-6)
            "might_factions": [b.display(f) for f in sorted(
                {a["faction"] for a in foreign if a["faction"] in game["factions"] or (
                    "enemy_army" in {sp.target for sp in spells} and a["faction"] in game.get("keepers", {}))},
                key=b.display)] if "enemy_army" in aims else [],
            **odds.vocabularies(),
            **diplomacy.vocabulary(game, faction),
        }

    def validate(self, state: Mapping[str, Any], faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        game = titania_state(state)
        if faction not in game["factions"] or game["factions"][faction].get("eliminated"):
            return ParsedOrders(faction, stage, (), ())
        if start_book.is_setup(game):
            return start_book.validate(game, faction, tabs)
        free = RACES[game["factions"][faction]["race"]].free_hire > 0
        return book_orders.validate(game, faction, stage, tabs, free)

    def validate_books(self, state: Mapping[str, Any], stage: str,
                       books: Mapping[str, Mapping[str, list[Row]]]) -> dict[str, ParsedOrders]:
        """The books of one check share one reading of the state (book_orders.Index: names, neighbours,
        armies, the situation the forecasts start from)."""
        game = titania_state(state)
        playing = {f: tabs for f, tabs in books.items()
                   if f in game["factions"] and not game["factions"][f].get("eliminated")}
        if start_book.is_setup(game) or not playing:
            return super().validate_books(state, stage, books)
        free = {f: RACES[game["factions"][f]["race"]].free_hire > 0 for f in playing}
        read = book_orders.validate_books(game, stage, playing, free)
        return {f: read[f] if f in read else self.validate(game, f, stage, tabs) for f, tabs in books.items()}

    def gm_vocabularies(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        game = titania_state(state)
        return {} if start_book.is_setup(game) else corrections.vocabulary(game)

    def validate_gm(self, state: Mapping[str, Any], stage: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        game = titania_state(state)
        if start_book.is_setup(game) or game.get("stage") == "finished":
            return ParsedOrders(GM_BOOK, stage, (), ())
        orders, statuses = corrections.parse(game, tabs.get(corrections.TAB, []))
        return ParsedOrders(GM_BOOK, stage, tuple(orders), tuple(statuses))

    def corrected(self, state: Mapping[str, Any], stage: str, gm: ParsedOrders) -> Mapping[str, Any]:
        """The GM's corrections apply at the start of the turn, before its orders (game_turn.resolve): the rows
        are read against the state they make."""
        game = titania_state(state)
        if start_book.is_setup(game) or not gm.orders:
            return state
        fixed = copy_of(game)
        corrections.apply(fixed, gm.orders)
        return plain(fixed)

    def resolve(self, state: Mapping[str, Any], stage: str, orders: Mapping[str, ParsedOrders],
                seed: int) -> StageResult:
        game = titania_state(state)
        if start_book.is_setup(game):
            return start_book.resolve(game, orders, seed)
        return game_turn.resolve(game, orders, seed)

    def views(self, state: Mapping[str, Any], result: StageResult | None = None) -> dict[str, dict[str, Table]]:
        game = titania_state(state)
        if start_book.is_setup(game):
            return start_book.views(game, views.chronicle(game), views.public_map(game), views.gm_provinces(game))
        return views.all_views(game)

    def summary(self, state: Mapping[str, Any]) -> Summary:
        game = titania_state(state)
        if start_book.is_setup(game):
            return start_book.summary(game)
        env = Envelope.of(game)
        conf = settings(game)
        alive = sum(1 for f in env.factions if not f.eliminated)
        lines = [f"Игра окончена после хода {env.turn - 1}; фракций в игре: {alive}" if env.stage == "finished"
                 else f"Ход {env.turn} из {conf['last_turn']}; фракций в игре: {alive}"]
        winners = [f.name for f in env.factions if f.won]
        if winners:
            lines.append("Победа: " + ", ".join(winners))
        factions_out = []
        standings: dict[str, Any] = {}
        for fid, f in game["factions"].items():
            shrines, provinces, strength = standing(game, fid)
            res = ", ".join(f"{RESOURCE_NAMES[r]} {f.get(r, 0)}" for r in RESOURCE_KEYS if r != "influence")
            line = (f"{race_name(f['race'])}; Святилищ {shrines}, провинций {provinces}, сила войск {strength}; {res}")
            extras = {"race": f["race"], "shrines": shrines, "provinces": provinces, "strength": strength,
                      "resources": {r: f.get(r, 0) for r in RESOURCE_KEYS}, "ability": ability_name(f["race"])}
            standings[fid] = extras
            numbers = {"Золото": f.get("gold", 0), "Дерево": f.get("wood", 0), "Сила войск": strength,
                       "Провинции": provinces, "Святилища": shrines}
            factions_out.append(FactionSummary(fid, f["name"], (line,), bool(f.get("eliminated")), bool(f.get("won")),
                                               extras, numbers))
        ranking = sorted(standings, key=lambda fid: (standing(game, fid), fid), reverse=True)
        extras_all = {"game_over": game["stage"] == "finished", "winners": [f.id for f in env.factions if f.won],
                      "standings": [{"faction": fid, "name": game["factions"][fid]["name"], **standings[fid]}
                                    for fid in ranking],
                      "battles": len(game.get("battles", [])), "last_turn": conf["last_turn"]}
        return Summary(tuple(lines), tuple(factions_out), extras_all)

    def awaiting(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        game = titania_state(state)
        if start_book.is_setup(game):
            return start_book.awaiting(game)
        out: dict[str, list[str]] = {}
        for fid, f in game["factions"].items():
            if game["stage"] == "finished" or f.get("eliminated"):
                out[fid] = []
            else:
                out[fid] = ["приказы во вкладках «Планирование», «Поход», «Мощь и магия» (и «Дипломатия», если "
                            "нужна)"]
        return out

    def announcements(self, state: Mapping[str, Any]) -> tuple[str, ...]:
        game = titania_state(state)
        return defaults.announcements(game)

    def demo_players(self) -> DemoPlayers:
        from engine.titania.demo_players import TitaniaDemoPlayers
        return TitaniaDemoPlayers()

    def adjudicator(self) -> Adjudicator:
        from engine.titania.situation_files import TitaniaSituations
        return TitaniaSituations()

    def map_data(self) -> MapData:
        from engine.titania.map_picture import TitaniaMap
        return TitaniaMap()

    def forum_posts(self) -> ForumPosts:
        from engine.titania.forum_posts import TitaniaPosts
        return TitaniaPosts()

    def odds_calculator(self) -> OddsCalculator:
        return odds.TitaniaOdds()
