"""«Война Нефритовой Розы» as a game on the rule-set contract (engine.ruleset.Ruleset): the rule set class,
wiring data, economy, war, faction mechanics and views, and its battle simulator capability."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from engine.jade_rose import (
    adjustments,
    battle,
    economy_orders,
    factions,
    income,
    ledger,
    odds,
    setup,
    turn,
    victory,
    views,
    war,
)
from engine.jade_rose.data import dump_data, load_data
from engine.jade_rose.demo_players import JadeRoseDemoPlayers
from engine.jade_rose.forum_posts import JadeRosePosts
from engine.jade_rose.map_picture import JadeRoseMap
from engine.jade_rose.odds import JadeRoseOdds
from engine.jade_rose.state_types import jade_rose_state, plain
from engine.registry import register
from engine.ruleset import (
    GM_BOOK,
    BattleRuns,
    BattleSimulator,
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


@register
class JadeRose(Ruleset):
    name = "jade_rose"
    aliases = ("jr", "jade-rose", "война нефритовой розы", "нефритовая роза")
    title = "Война Нефритовой Розы"
    stages = ("orders", "planning")
    secret_fields = ("gold", "units")   # «Неизвестно: состав ... вражеских армий, ... баланс врагов»
    stage_titles = {"orders": "приказы", "planning": "планирование боёв", "finished": "игра окончена"}
    stage_messages = {
        "planning": "Бои требуют планирования: каждая сторона видит расстановку противника во вкладке "
                    "«Разведка» и заполняет «Манёвры»; в дедлайн планирования снова запустите turn.",
        "finished": "Игра окончена: победителей покажет forumwar status."}
    order_tab_keys = {"orders": ("economy", *war.ORDER_TABS, "adjustments"), "planning": ("manoeuvres",)}

    def dump_data(self) -> dict[str, Any]:
        return dump_data()

    def new_game(self, scenario: Mapping[str, Any]) -> dict[str, Any]:
        state = setup.new_game(scenario)
        ledger.chronicle(state, "Начало",
                         f"Начинается {self.title}: эпоха «{views.ERA_NAMES.get(state['era'], state['era'])}».", turn=1)
        return plain(state)

    def order_tabs(self, stage: str) -> tuple[str, ...]:
        return self.order_tab_keys.get(stage, ())

    def vocabularies(self, state: Mapping[str, Any], faction: str | None) -> dict[str, list[str]]:
        if faction is None:
            return {}
        game = jade_rose_state(state)
        own = sorted(c["name"] for c in game["cities"].values() if c.get("owner") == faction)
        vocab = {
            "economy_actions": list(economy_orders.actions_for(faction)),
            "own_cities": own,
            "economy_targets": economy_orders.economy_targets(game, faction),
        }
        vocab.update(war.vocabularies(game, faction))
        vocab.update(odds.vocabularies(game, faction))
        return vocab

    def validate(self, state: Mapping[str, Any], faction: str, stage: str,
                 tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        if stage == "planning":
            return turn.validate_manoeuvres(jade_rose_state(state), faction, tabs)
        return turn.validate_orders(jade_rose_state(state), faction, tabs)

    def gm_vocabularies(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        return adjustments.vocabulary(jade_rose_state(state))

    def validate_gm(self, state: Mapping[str, Any], stage: str, tabs: Mapping[str, list[Row]]) -> ParsedOrders:
        orders, statuses = adjustments.parse_adjustments(jade_rose_state(state), list(tabs.get("adjustments", ())),
                                                         stage_title=self.stage_titles["orders"])
        return ParsedOrders(GM_BOOK, stage, cast(tuple[dict[str, Any], ...], tuple(orders)), tuple(statuses))

    def corrected(self, state: Mapping[str, Any], stage: str, gm: ParsedOrders) -> Mapping[str, Any]:
        """The GM's adjustments apply at the very start of the orders stage, before its start-of-turn events,
        income and orders (turn.resolve_orders_stage): the factions' rows are read against the state they make.
        The planning stage reads no adjustments."""
        if stage != "orders" or not gm.orders:
            return state
        return plain(turn.corrected(jade_rose_state(state), turn.gm_adjustments({GM_BOOK: gm})))

    def resolve(self, state: Mapping[str, Any], stage: str, orders: Mapping[str, ParsedOrders],
                seed: int) -> StageResult:
        if stage == "planning":
            new = turn.resolve_planning_stage(jade_rose_state(state), orders, seed)
        else:
            new = turn.resolve_orders_stage(jade_rose_state(state), orders, seed)
        before, after = state["era"], new.state["era"]   # every Jade Rose state has an era (setup, each turn)
        if after != before and new.state["stage"] != "finished":
            ledger.chronicle(jade_rose_state(new.state), "Эпоха",
                             f"Наступает эпоха «{views.ERA_NAMES.get(after, after)}».")
        return new

    def views(self, state: Mapping[str, Any], result: StageResult | None = None) -> dict[str, dict[str, Table]]:
        game = jade_rose_state(state)
        books = views.all_views(game)
        for fid in game["factions"]:
            books[fid].update(war.views(game, fid))
        books["public"].update(war.public_views(game))
        books["gm"].update(war.gm_views(game))
        return books

    def battle_simulator(self) -> BattleSimulator:
        return JadeRoseBattles()

    def demo_players(self) -> DemoPlayers:
        return JadeRoseDemoPlayers()

    def map_data(self) -> MapData:
        return JadeRoseMap()

    def forum_posts(self) -> ForumPosts:
        return JadeRosePosts()

    def odds_calculator(self) -> OddsCalculator:
        return JadeRoseOdds()

    def summary(self, state: Mapping[str, Any]) -> Summary:
        facts = self.figures(state)
        era = views.ERA_NAMES.get(facts["era"], facts["era"])
        lines = [f"Эпоха «{era}»"]
        if facts["pending_battles"]:
            lines.append(f"Боёв ждут планирования: {facts['pending_battles']}")
        if facts["winners"]:
            lines.append("Победа: " + ", ".join(state["factions"][w]["name"] for w in facts["winners"]))
        factions_out = []
        for fid, f in facts["factions"].items():
            res = "".join(f", {views.RESOURCES.get(k, k)} {v}" for k, v in f["resources"].items())
            line = (f"золото {f['gold']}{res}; городов {len(f['cities'])}; "
                    f"юнитов {sum(f['units'].values())}")
            numbers = {"Доход": income.faction_income(jade_rose_state(state), fid), "Казна": f["gold"],
                       "Армия (юнитов)": sum(f["units"].values()), "Города": len(f["cities"])}
            factions_out.append(FactionSummary(fid, f["name"], (line,), f["eliminated"], f["won"], f, numbers))
        extras = {k: v for k, v in facts.items() if k != "factions"}
        return Summary(tuple(lines), tuple(factions_out), extras)

    def figures(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """Turn, stage, era, winners and per-faction figures (the extras of `status --json`)."""
        data = load_data()
        game = jade_rose_state(state)
        out = {"ruleset": self.name, "turn": state["turn"], "stage": state["stage"], "era": state.get("era"),
               "game_over": victory.game_over(game), "winners": victory.winners(game),
               "pending_battles": sum(1 for b in state.get("battles", []) if b.get("needs_planning")),
               "factions": {}}
        for fid, f in state["factions"].items():
            out["factions"][fid] = {
                "name": f["name"], "gold": f["gold"], "eliminated": f.get("eliminated", False),
                "won": f.get("won", False),
                "resources": {r: f.get(r, 0) for r in factions.of(fid).resources},
                "cities": sorted(c["name"] for c in state["cities"].values()
                                 if c.get("owner") == fid and not c.get("ruins")),
                "units": {data.units[k].name: n for k, n in sorted(f.get("units", {}).items()) if n},
            }
        return out

    def awaiting(self, state: Mapping[str, Any]) -> dict[str, list[str]]:
        notes: dict[str, list[str]] = {}
        fighting = {side for b in state.get("battles", []) for side in _planning_factions(b)}
        for fid, f in state["factions"].items():
            if f.get("eliminated") or f.get("won") or state["stage"] == "finished":
                notes[fid] = []
            elif state["stage"] == "orders":
                notes[fid] = ["приказы: «Экономика», «Армии», «Приказы армиям», «Гарнизоны» (если нужны)"]
            else:
                notes[fid] = ["манёвры во вкладке «Манёвры»"] if fid in fighting else []
        return notes


class JadeRoseBattles:
    """The battle simulator capability: odds over many runs, and one battle's full report."""

    def simulate(self, spec: Mapping[str, Any], runs: int, seed: int,
                 progress: Callable[[int], None] | None = None) -> dict[str, Any]:
        return battle.simulate(spec, runs, seed, progress=progress)

    def report(self, spec: Mapping[str, Any], seed: int, bbcode: bool = False) -> str:
        return battle.battle_report(spec, seed, bbcode=bbcode)

    def warm_up(self) -> None:
        from engine.jade_rose.battle.fast_compiled import warm_up
        warm_up()

    def prepared(self) -> bool:
        from engine.jade_rose.battle.fast_compiled import kernel_ready
        return kernel_ready()

    def runs(self, spec: Mapping[str, Any], runs: int, seed: int) -> BattleRuns:
        return battle.BattleRuns(battle.parse_spec(spec), runs, seed)


def _planning_factions(battle: Mapping[str, Any]) -> set[str]:
    """Factions that plan a pending battle's manoeuvres: the attackers whose fight has a planning phase, and
    the defender when one has. An attack on ruins, on a city nobody defends or (with «Без планирования») on a
    garrison alone has none: nothing to plan."""
    planned = [a for a in battle.get("attackers", ()) if isinstance(a, Mapping) and a.get("needs_planning")]
    found = {str(a["faction"]) for a in planned}
    if planned and isinstance(battle.get("defender"), str):
        found.add(battle["defender"])
    return found
