"""Issue 20 item 1 (Jade Rose): `check` and `turn` give one verdict (turn.py's `validate_orders` and
`resolve_orders_stage`).

A row `check` marks «OK» is executed by `turn`, and stays «OK»: when another faction's orders or the dice beat
it, its note names the cause, one of `engine.jade_rose.war.codes.DEFEAT_CAUSES` (a battle lost, the city taken
before, …), for an order carried out and then beaten is no mistake (issue 38 §2). Rows are typed at random
from the books' own dropdown lists (plus some bad values):
- through the real xlsx books of a new demo game (`check`, then `turn`; the planning stage too, when a battle
  needs it): few examples, each plays a whole stage through the bridge;
- on the rule set alone (`validate` = what `check` runs, `resolve` = what `turn` runs) over random states
  (treasuries, buildings, city levels, eras, armies), many examples."""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import find_ruleset
from engine.errors import CATALOGUE
from engine.jade_rose import holdings
from engine.jade_rose.data import load_data
from engine.jade_rose.war.battles import attack_targets
from engine.jade_rose.war.codes import DEFEAT_CAUSES
from engine.jade_rose.war.views import manoeuvres_table
from engine.ruleset import Row, RowStatus
from engine.state import clone
from sheets_bridge.backends.xlsx.files import load_for_edit, save
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check, run_turn
from tests.games import new_game

RS = find_ruleset("jade_rose")
TITLES = {"economy": "Экономика", "armies": "Армии", "army_orders": "Приказы армиям", "garrisons": "Гарнизоны",
          "manoeuvres": "Манёвры"}
COLUMNS = {"economy": ("action", "city", "what", "count"), "armies": ("army", "flank", "line", "unit", "count"),
           "army_orders": ("army", "order", "city", "capture", "skip_planning"),
           "garrisons": ("city", "flank", "line", "unit", "count"),
           "manoeuvres": ("battle", "squad", "units", "manoeuvre", "target", "free_move", "runes")}
ARMIES = ("1", "2", "3")
COUNTS = ("", "1", "1", "2", "3", "5", "10", "40", "0", "пять")
EXECUTED_ATTACK = ("выиграла бой", "взяла город")   # an attack order's verdict when it ran (war/resolution.py)


def _cause_pattern() -> re.Pattern[str]:
    """A status text made only of DEFEAT_CAUSES messages (the books keep texts, not codes)."""
    parts = []
    for code in sorted(DEFEAT_CAUSES):
        pieces = re.split(r"\{[a-z_]+\}", CATALOGUE[code])
        parts.append(".+?".join(re.escape(p) for p in pieces))
    one = "(?:" + "|".join(parts) + ")"
    return re.compile(f"{one}(?: {one})*", re.IGNORECASE)    # a note starts with a small letter


CAUSE_TEXT = _cause_pattern()


class Picker:
    """Hypothesis draws with the few shapes the row makers need."""

    def __init__(self, data: st.DataObject):
        self.data = data

    def one(self, values: Sequence[str]) -> str:
        return self.data.draw(st.sampled_from(list(values))) if values else ""

    def chance(self, pct: int) -> bool:
        return self.data.draw(st.integers(0, 99)) < pct

    def upto(self, n: int) -> int:
        return self.data.draw(st.integers(0, n))


# -- typed rows ---------------------------------------------------------------------------------------

def faction_rows(p: Picker, state: Mapping[str, Any], fid: str) -> dict[str, list[tuple[str, ...]]]:
    """A faction's orders-stage rows: mostly what the dropdowns offer, combined as a player would (build, then
    hire what it unlocks; an army, then its order), with some bad values."""
    data = load_data()
    vocab = RS.vocabularies(state, fid)
    mine = [c for c in state["cities"].values() if c.get("owner") == fid]
    economy = []
    for _ in range(p.upto(6)):
        action = p.one(vocab["economy_actions"] + ["Снести"])
        city = p.one([c["name"] for c in mine]) if mine else ""
        what = p.one(vocab["economy_targets"])
        count = p.one(COUNTS)
        if action == "Построить" and p.chance(80):
            level = next((c["level"] for c in mine if c["name"] == city), 1)
            what = p.one([b.name for b in data.faction_buildings(fid) if b.tier <= level] or [what])
            count = ""
        elif action == "Продать" and p.chance(80):
            held = [b for c in mine if c["name"] == city for b in c["buildings"]]
            what = data.buildings[p.one(held)].name if held else what
            count = ""
        elif action == "Нанять":
            city = ""
            what = p.one([u.name for u in data.faction_units(fid)])
        elif action in ("Улучшить город", "Восстановить руины"):
            what, count = "", p.one(("", "1", "2"))
        elif action in ("Купить нефрит", "Вложить"):
            city, what, count = "", "", p.one(("10", "100", "300", "600"))
        elif action not in ("Отправить в спячку", "Снести"):
            count = ""
            if action not in ("Обратить в рабов", "Записывать обиды"):
                city = ""
            if action not in ("Мстительный поход", "Записывать обиды"):
                what = ""
        economy.append((action, city, what, count))
    owned = [data.units[k].name for k, n in state["factions"][fid].get("units", {}).items() if n]
    armies = [(p.one(ARMIES), p.one(vocab["flanks"]), p.one(vocab["lines"] + ["Середина"]),
               p.one(owned if owned and p.chance(80) else vocab["own_units"]), p.one(COUNTS))
              for _ in range(p.upto(6))]
    targets = [state["cities"][c]["name"] for c in attack_targets(state, fid)]
    orders = []
    for army in ARMIES:
        if p.chance(70):
            order = p.one(vocab["army_orders"] + ["Атаковать", "Атаковать", "Отступить"])
            if order == "Атаковать" and targets and p.chance(80):
                city = p.one(targets)
            elif order == "Оборонять" and mine and p.chance(80):
                city = p.one([c["name"] for c in mine])
            else:
                city = p.one(vocab["all_cities"] + [""])
            capture = p.one(vocab["capture_choices"]) if p.chance(50) else ""
            skip = p.one(vocab["yes_no"]) if p.chance(40) else ""
            orders.append((army, order, city, capture, skip))
    garrisons = [(p.one(vocab["own_cities"] + ["Атлантида"]), p.one(vocab["flanks"]), p.one(vocab["lines"]),
                  p.one(vocab["garrison_units"]), p.one(COUNTS)) for _ in range(p.upto(3))]
    return {"economy": economy, "armies": armies, "army_orders": orders, "garrisons": garrisons}


def manoeuvre_rows(p: Picker, state: Mapping[str, Any], fid: str) -> list[tuple[str, ...]]:
    """The «Манёвры» tab as the bridge pre-fills it (one row per own squad), with manoeuvres, targets and runes
    chosen from the dropdowns."""
    vocab = RS.vocabularies(state, fid)
    rows = []
    for row in manoeuvres_table(state, fid).rows:
        cells = [str(v) for v in row]
        if p.chance(70):
            cells[3] = p.one(vocab["manoeuvres"])
            cells[4] = p.one(vocab["positions"] + [""])
            if p.chance(10):
                cells[5] = p.one(vocab["positions"])
        if cells[6] != "" and p.chance(50):
            cells[6] = p.one(("0", "1", "2", "3", "5"))
        rows.append(tuple(cells))
    return rows


def random_state(p: Picker, base: Mapping[str, Any]) -> dict[str, Any]:
    """The demo's start with random treasuries, resources, units, city levels and buildings, ruins and turn."""
    data = load_data()
    state = clone(dict(base))
    state["turn"] = int(p.one([str(n) for n in (1, 2, 3, 4, 5, 6, 7, 8, 9)]))
    state["era"] = holdings.era_of(state).key
    for fid, rec in state["factions"].items():
        rec["gold"] = int(p.one(("0", "50", "100", "200", "300", "500", "800", "1000", "1500", "3000")))
        extra = {"empire": {"honor": ("0", "10", "20", "40", "100"), "corruption": ("0", "3", "4", "8", "9", "14")},
                 "jade": {"jade": ("0", "50", "300")}, "dwarves": {"runes": ("0", "2", "5", "10")},
                 "vampires": {"slaves": ("0", "30", "200", "450", "700")}}.get(fid, {})
        for key, values in extra.items():
            rec[key] = int(p.one(values))
        if fid == "dwarves":
            rec["grudges"] = {k: int(p.one(("0", "0", "1", "3"))) for k in rec["grudges"]}
        units = dict(rec["units"])
        for unit in data.faction_units(fid):
            if p.chance(30):
                n = int(p.one(("1", "2", "3", "5", "10")))
                units[unit.key] = min(units.get(unit.key, 0) + n, int(unit.abilities.get("faction_limit", 10**6)))
        rec["units"] = units
    top = min(3, int(holdings.era_of(state).max_city_level))
    for city in state["cities"].values():
        owner = city.get("owner")
        city["level"] = 1 + p.upto(top - 1)
        if owner and not city.get("capital") and p.chance(10):
            city.update(ruins=True, buildings=[], level=1)
            continue
        if owner:
            slots = int(data.economy["slots"]["large" if city.get("large") else "small"])
            fitting = [b.key for b in data.faction_buildings(owner)
                       if b.tier <= city["level"] and not b.unique_per_faction and b.key not in city["buildings"]]
            for _ in range(p.upto(slots)):
                if fitting and len(city["buildings"]) < slots:
                    key = p.one(fitting)
                    fitting.remove(key)
                    city["buildings"].append(key)
    return state


# -- verdicts ---------------------------------------------------------------------------------------

def disagreements(checked: Mapping[tuple[str, int], tuple[bool, str]],
                  final: Mapping[tuple[str, int], tuple[bool, str]],
                  attacks: set[tuple[str, int]]) -> list[str]:
    """Rows `check` accepted that the turn refused (an order beaten by a cause of DEFEAT_CAUSES stays OK, with the
    cause as its note); attack orders must also say what came of them (a status left as `check`'s «армия
    атакует …» means nothing happened)."""
    out = []
    for key, (ok, text) in sorted(checked.items()):
        if not ok:
            continue
        got_ok, got = final.get(key, (ok, text))
        if not got_ok:
            out.append(f"{key}: check «{text}», turn «{got}»")
        elif key in attacks and not _outcome_told(got):
            out.append(f"{key}: attack order accepted by check «{text}» left without an outcome: «{got}»")
    return out


def _outcome_told(text: str) -> bool:
    """An attack order's OK status says what came of it: it ran, or what beat it."""
    note = text.removeprefix("OK: ")
    return any(w in note for w in EXECUTED_ATTACK) or bool(CAUSE_TEXT.fullmatch(note))


def _attack_rows(rows: Mapping[str, list[tuple[str, ...]]]) -> set[tuple[str, int]]:
    return {("army_orders", n) for n, r in enumerate(rows.get("army_orders", ()), 2) if r[1] == "Атаковать"}


# -- through the books -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new demo game (turn 1, stage orders), made once; each example plays a copy."""
    base = tmp_path_factory.mktemp("agree") / "base"
    new_game(base, "jade_rose", "demo", seed="7")
    return base


def type_rows(book: Path, tabs: Mapping[str, list[tuple[str, ...]]]) -> None:
    """Type rows into order tabs from row 2, as a player would in Excel (one load and save of the book)."""
    wb = load_for_edit(book)
    for key, rows in tabs.items():
        ws = wb[TITLES[key]]
        for r, values in enumerate(rows, start=2):
            for c, value in enumerate(values, start=1):
                ws.cell(row=r, column=c).value = (int(value) if value.isdigit() else value) if value != "" else None
    save(wb, book)


def _outcomes(report_outcomes: list[dict]) -> dict[tuple[str, int], tuple[bool, str]]:
    return {(s["tab"], int(s["row"])): (bool(s["ok"]), str(s["text"])) for s in report_outcomes}


def _archived(gd: GameDir, turn: int, stage: str, fid: str) -> dict[tuple[str, int], tuple[bool, str]]:
    path = gd.archive_path(turn) / f"statuses-{stage}.json"
    if not path.is_file():
        return {}
    return _outcomes(json.loads(path.read_text(encoding="utf-8")).get(fid, []))


@pytest.mark.long
@settings(max_examples=5, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_row_check_accepts_is_executed_or_defeated_by_a_named_cause_through_the_books(demo_game, tmp_path_factory,
                                                                                       data):
    p = Picker(data)
    path = tmp_path_factory.mktemp("play") / "game"
    shutil.copytree(demo_game, path)
    gd = GameDir(path)
    state = gd.latest_state()
    typed = {fid: faction_rows(p, state, fid) for fid in sorted(state["factions"])}
    for fid, tabs in typed.items():
        type_rows(gd.path / gd.config.books[fid], {k: v for k, v in tabs.items() if v})
    checked = {fid: {k: v for k, v in rows.items()} for fid, rows in _by_faction(check(gd).outcomes).items()}
    turn = state["turn"]
    run_turn(gd)
    final = {fid: _archived(gd, turn, "orders", fid) for fid in typed}
    problems: list[str] = []
    planning = gd.latest_state()
    if planning["stage"] == "planning":
        for fid in sorted(planning["factions"]):
            rows = manoeuvre_rows(p, planning, fid)
            if rows:
                type_rows(gd.path / gd.config.books[fid], {"manoeuvres": rows})
        planned = _by_faction(check(gd).outcomes)
        run_turn(gd)
        for fid in sorted(planning["factions"]):
            after = _archived(gd, turn, "planning", fid)
            problems += [f"{fid} {x}" for x in disagreements(planned.get(fid, {}), after, set())]
            final[fid].update({k: v for k, v in after.items() if k[0] != "manoeuvres"})
    for fid, rows in typed.items():
        problems += [f"{fid} {x}" for x in disagreements(checked.get(fid, {}), final[fid], _attack_rows(rows))]
    shutil.rmtree(path)
    assert not problems, "\n".join(problems)


def _by_faction(outcomes: Mapping[str, list[dict]]) -> dict[str, dict[tuple[str, int], tuple[bool, str]]]:
    return {fid: _outcomes(ss) for fid, ss in outcomes.items()}


# -- on the rule set alone ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def demo_state(demo_game: Path) -> dict[str, Any]:
    return GameDir(demo_game).latest_state()


def _rows(tab: str, cells: list[tuple[str, ...]]) -> list[Row]:
    return [Row(n, dict(zip(COLUMNS[tab], c, strict=False))) for n, c in enumerate(cells, 2)]


def _codes_ok(status: RowStatus) -> bool:
    """No error on a row `check` accepted: a cause of DEFEAT_CAUSES is a note, never an error."""
    return status.ok


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_row_validate_accepts_is_executed_or_defeated_by_a_named_cause_over_random_states(demo_state, data):
    """The same property on `validate` and `resolve` directly, over random states, with the codes themselves."""
    p = Picker(data)
    state = random_state(p, demo_state)
    typed = {fid: faction_rows(p, state, fid) for fid in sorted(state["factions"])}
    parsed = {fid: RS.validate(state, fid, "orders", {k: _rows(k, v) for k, v in tabs.items()})
              for fid, tabs in typed.items()}
    seed = data.draw(st.integers(0, 2**32))
    result = RS.resolve(state, "orders", parsed, seed)
    final = {fid: {(s.tab, s.number): s for s in result.statuses.get(fid, ())} for fid in parsed}
    problems = []
    if result.state["stage"] == "planning":
        planning = result.state
        plans = {fid: RS.validate(planning, fid, "planning", {"manoeuvres": _rows("manoeuvres",
                                                                                manoeuvre_rows(p, planning, fid))})
                 for fid in sorted(planning["factions"])}
        later = RS.resolve(planning, "planning", plans, seed + 1)
        for fid, parsed_plan in plans.items():
            after = {(s.tab, s.number): s for s in later.statuses.get(fid, ())}
            problems += [f"{fid} {s.tab} {s.number}: {after[(s.tab, s.number)].text()}" for s in parsed_plan.statuses
                         if s.ok and (s.tab, s.number) in after and not _codes_ok(after[(s.tab, s.number)])]
            final[fid].update({k: v for k, v in after.items() if k[0] != "manoeuvres"})
    for fid, orders in parsed.items():
        attacks = _attack_rows(typed[fid])
        for s in orders.statuses:
            got = final[fid].get((s.tab, s.number), s)
            if not s.ok:
                assert not got.ok, f"{fid} {s.tab} {s.number}: check «{s.text()}», turn «{got.text()}»"
            elif not _codes_ok(got):
                problems.append(f"{fid} {s.tab} {s.number}: check «{s.text()}», turn «{got.text()}»")
            elif got.ok and (s.tab, s.number) in attacks and not _outcome_told(got.text()):
                problems.append(f"{fid} {s.tab} {s.number}: attack without an outcome «{got.text()}»")
    assert not problems, "\n".join(problems)
