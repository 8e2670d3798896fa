"""Issue 38 §2: «The GM's «Проблемы» lists «Армия «Волна» атаковала город …, но проиграла бой» as a problem …
«Проблемы» holds only players' and GM's mistakes, and it keeps every stage of the turn, not only the last.»

Through the books (xlsx): a Jade Rose turn of two stages (orders, then the planning of its battles) with a player's
mistake in each stage and a GM's mistake, and an attack that loses its battle. After the planning stage the GM's
«Проблемы» lists the mistakes of both stages, each labelled with its stage («ход 1, приказы», «ход 1,
планирование боёв»), and no lost battle; when the next turn's first stage resolves, it lists that turn's. A
Titania turn whose support is made void by an ally's attack (another faction's doing: an OK row) lists the
player's mistake and not that row.
"""
from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from engine import find_ruleset
from engine.errors import OUTCOME_CODES
from engine.state import Envelope
from sheets_bridge.demo import fill_orders, type_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.render import PROBLEMS_COLUMNS
from sheets_bridge.stage import run_turn
from sheets_bridge.through_books import play
from tests.games import new_game
from tests.paths import REPO

ORDERS, PLANNING = "ход 1, приказы", "ход 1, планирование боёв"
BAD_HIRE = ("Нанять", "", "Копейщик", "пять")
BAD_CORRECTION = ("Империя", "золото", "0", "проверка")


def _problems(gd: GameDir) -> list[dict[str, Any]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ws = openpyxl.load_workbook(gd.path / gd.config.books["gm"])["Проблемы"]
    rows = [list(r) for r in ws.iter_rows(values_only=True)]
    assert tuple(rows[0]) == PROBLEMS_COLUMNS
    return [dict(zip(PROBLEMS_COLUMNS, r, strict=True)) for r in rows[1:] if any(c not in (None, "") for c in r)]


def _demo_orders(gd: GameDir) -> None:
    """Every faction types the scripted demo orders of the open stage."""
    type_orders(gd, find_ruleset(gd.config.ruleset))


def _spoil_a_manoeuvre(gd: GameDir) -> str:
    """A player's mistake in «Манёвры»: a charge at a position that is none. Returns the faction's book key."""
    for fid in gd.config.factions:
        path = gd.path / gd.config.books[fid]
        wb = openpyxl.load_workbook(path)
        ws = wb["Манёвры"]
        if ws.cell(row=2, column=1).value:
            ws.cell(row=2, column=4).value = "Натиск"
            ws.cell(row=2, column=5).value = "Атлантида"
            wb.save(path)
            return fid
    raise AssertionError("no faction has a squad in a battle to plan")


def _archived(gd: GameDir, turn: int, stage: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((gd.archive_path(turn) / f"statuses-{stage}.json").read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def jade(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The Jade Rose demo's turn 1, orders and planning, with mistakes; the «Проблемы» after each stage."""
    gd = new_game(tmp_path_factory.mktemp("jade") / "g", seed="problems-tab")
    _demo_orders(gd)
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", [BAD_HIRE])
    fill_orders(gd.path / gd.config.books["gm"], "Корректировки", [BAD_CORRECTION])
    run_turn(gd)
    assert (gd.latest_state()["turn"], gd.latest_state()["stage"]) == (1, "planning")
    after_orders = _problems(gd)
    _demo_orders(gd)
    spoiled = _spoil_a_manoeuvre(gd)
    run_turn(gd)
    assert (gd.latest_state()["turn"], gd.latest_state()["stage"]) == (2, "orders")
    after_planning = _problems(gd)
    _demo_orders(gd)
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", [BAD_HIRE])
    run_turn(gd)
    return {"gd": gd, "after_orders": after_orders, "after_planning": after_planning, "spoiled": spoiled,
            "turn_2": _problems(gd)}


def test_the_planning_stage_keeps_the_orders_stage_s_problems_each_labelled_with_its_stage(
        jade: dict[str, Any]) -> None:
    gd = jade["gd"]
    orders = [p for p in jade["after_planning"] if p["Этап"] == ORDERS]
    planning = [p for p in jade["after_planning"] if p["Этап"] == PLANNING]
    assert [p["Этап"] for p in jade["after_planning"]] == [p["Этап"] for p in orders + planning]   # stage order
    assert orders == jade["after_orders"]                          # the orders stage's problems, still there
    assert any(p["Фракция"] == "Империя" and p["Вкладка"] == "Экономика" and "«пять»" in p["Сообщение"]
               for p in orders)
    assert any(p["Фракция"] == "Книга мастера" and p["Вкладка"] == "Корректировки" for p in orders)
    spoiled = Envelope.of(gd.latest_state()).name(jade["spoiled"])
    assert [p for p in planning if p["Фракция"] == spoiled and p["Вкладка"] == "Манёвры" and p["Строка"] == 2
            and "Атлантида" in p["Сообщение"]]


def test_a_lost_battle_is_no_problem(jade: dict[str, Any]) -> None:
    """«Армия «Волна» атаковала город …, но проиграла бой» is an order carried out and beaten, not a mistake."""
    gd = jade["gd"]
    lost = [s for stage in ("orders", "planning") for fid, ss in _archived(gd, 1, stage).items()
            if not fid.startswith("_") for s in ss if "проиграла бой" in s["text"]]
    assert lost, "the demo's first turn has an attack beaten in its battle"
    assert all(s["ok"] for s in lost)
    shown = [p["Сообщение"] for p in jade["after_orders"] + jade["after_planning"]]
    assert shown and not any("проиграла бой" in text or "атака отбита" in text for text in shown)
    refused = [s for stage in ("orders", "planning") for fid, ss in _archived(gd, 1, stage).items()
               if not fid.startswith("_") for s in ss if not s["ok"]]
    assert len(refused) == len([p for p in jade["after_planning"] if p["Фракция"] != "—"])
    assert not any(set(s["codes"]) <= OUTCOME_CODES for s in refused)


def test_the_next_turn_s_first_stage_starts_the_tab_over(jade: dict[str, Any]) -> None:
    """Kept per turn: turn 2's orders stage lists turn 2's mistakes only; turn 1's stay in the archived GM
    books."""
    assert {p["Этап"] for p in jade["turn_2"]} == {"ход 2, приказы"}
    assert any("«пять»" in p["Сообщение"] for p in jade["turn_2"])
    archived = openpyxl.load_workbook(jade["gd"].archive_path(1) / "gm-planning.xlsx")["Проблемы"]
    assert {r[0] for r in archived.iter_rows(min_row=2, values_only=True)} == {ORDERS, PLANNING}


def test_a_titania_row_another_faction_made_void_is_no_problem_and_a_players_mistake_is(tmp_path: Path) -> None:
    """Titania: «не удался» verdicts are OK rows, and so is a row another faction made void (an ally attacked from
    the supporter's own province, C11.2: «не удался из-за других фракций или боя»), an order carried out and then
    beaten: only the mistake (a move to a province that is not next door) is listed."""
    case = json.loads((REPO / "tests/titania/cases/c11_2_allied_army_in_the_origin_cannot_support.json")
                      .read_text(encoding="utf-8"))
    case.pop("expect")
    case["map"]["provinces"].append({"id": "z9", "name": "Провинция z9", "sea": False, "island": False})
    case["map"]["adjacency"].append(["b2", "z9"])
    case["orders"].append({"faction": "blue", "army": "bp", "type": "move", "target": "z9", "seq": 1})
    played = play(find_ruleset("titania"), case, 0, folder=tmp_path)
    assert played.problems == ()
    gd = GameDir(tmp_path / "game")
    saved = _archived(gd, 1, "orders")
    assert all(s["ok"] for s in saved["yellow"])
    assert any(s["text"].startswith("OK: не удался из-за других фракций или боя") for s in saved["yellow"])
    problems = _problems(gd)
    assert [(p["Фракция"], p["Вкладка"], p["Строка"]) for p in problems] == [("blue", "Поход", 2)]
    assert "не граничит" in problems[0]["Сообщение"]
    assert problems[0]["Этап"] == "ход 1, приказы (Планирование и Поход)"
