"""Issue 38, done when: «a scripted two-turn game of each rule set shows no message whose number, verdict or
grammar differs from what the turn did.»

Each rule set's demo players play two turns through the xlsx books; `check` runs before every stage and the turn
after it. For every row: an error at check is the same error at the turn, and a row check accepted ends accepted
(carried out, or beaten by a named outside cause: another faction's doing or a die). Numbers: a Jade Rose row
reads at check as at the turn, except what a die decides, which check gives as a range that holds the turn's
value; a Titania faction's spending at check (hires, caravans) is what the turn's ledger takes. Grammar: no
number in any status, post or `status` text stands before a noun in a form no case allows («1 обид», «5 юнита»)."""
from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from engine.russian import mass_nouns
from engine.state import Envelope
from sheets_bridge.create import create_game
from sheets_bridge.demo import DemoBooks, demo_ruleset
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, run_turn
from sheets_bridge.status_view import status
from tests.titania.test_check_turn_agree import verdict_problem

RESOURCES = {"золота": "gold", "дерева": "wood", "камня": "stone", "маны": "mana"}


@dataclass
class Row:
    turn: int
    stage: str
    faction: str
    where: str
    checked: str
    final: str


@dataclass
class Played:
    ruleset: str
    rows: list[Row] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)        # (where, text) of everything read
    spent: dict[tuple[int, str], dict[str, int]] = field(default_factory=dict)   # (turn, faction) -> resource


def _play(ruleset: str, turns: int = 2) -> Played:
    rs = demo_ruleset(ruleset)
    players = rs.demo_players()
    assert players is not None
    out = Played(ruleset)
    with tempfile.TemporaryDirectory(prefix="forumwar-two-turns-") as tmp:
        gd: GameDir = create_game(Path(tmp) / "game", rs.name, players.scenario, backend="xlsx", seed=players.seed,
                                  title="Демо")
        books = DemoBooks(gd, Layout.load(rs.name))
        for _ in range(turns):
            while True:
                state = gd.latest_state()
                env = Envelope.of(state)
                for f in env.factions:
                    if f.playing:
                        books.replace(f.id, players.orders(state, f.id, books.read_all(f.id)))
                report = check(gd)
                out.texts.append((f"status {env.turn} {env.stage}", str(status(gd, False))))
                ledger_before = len(state.get("ledger", []))
                result = run_turn(gd)
                archive = Path(result.archive)
                final = json.loads((archive / f"statuses-{env.stage}.json").read_text(encoding="utf-8"))
                for fid, statuses in report.outcomes.items():
                    texts = {(s["tab"], s["row"]): s["text"] for s in final.get(fid, [])}
                    for s in statuses:
                        out.rows.append(Row(env.turn, env.stage, fid, f"{s['tab']}:{s['row']}", s["text"],
                                            texts[(s["tab"], s["row"])]))
                out.texts += [(p.name, p.read_text(encoding="utf-8")) for p in sorted(archive.glob("post-*.bbcode"))]
                for entry in gd.latest_state().get("ledger", [])[ledger_before:]:
                    if str(entry.get("reason", "")).startswith("потрачено") and entry["amount"] < 0:
                        spent = out.spent.setdefault((env.turn, entry["faction"]), {})
                        spent[entry["resource"]] = spent.get(entry["resource"], 0) - int(entry["amount"])
                if result.next_turn != env.turn or result.next_stage in (rs.stages[0], "finished"):
                    break
    out.texts += [(f"{r.turn} {r.stage} {r.faction} {r.where}", t) for r in out.rows for t in (r.checked, r.final)]
    return out


@pytest.fixture(scope="module", params=["jade_rose", "titania"])
def played(request: pytest.FixtureRequest) -> Played:
    return _play(str(request.param))


def test_the_games_type_both_good_and_bad_rows(played: Played) -> None:
    """The scripted players give accepted and refused rows in both turns (else the tests below prove nothing)."""
    for turn in (1, 2):
        rows = [r for r in played.rows if r.turn == turn]
        assert any(r.checked.startswith("OK") for r in rows) and any(not r.checked.startswith("OK") for r in rows)


def test_each_verdict_of_check_is_the_turn_s(played: Played) -> None:
    """«A lost battle is not a rejected order» and «What check says of a row is what turn does with it»: an error at
    check is the same error at the turn; an accepted row ends accepted (Jade Rose: OK; Titania: carried out, not
    needed, or beaten by another faction's doing)."""
    problems = []
    for r in played.rows:
        if not r.checked.startswith("OK"):
            if r.final != r.checked:
                problems.append(f"{r}: an error at check became «{r.final}»")
        elif played.ruleset == "jade_rose":
            if not r.final.startswith("OK"):
                problems.append(f"{r}: accepted at check, refused at the turn")
        else:
            from engine.ruleset import RowStatus
            tab, number = r.where.split(":")
            why = verdict_problem(RowStatus(tab, int(number), note=r.checked.removeprefix("OK: ")), r.final)
            if why:
                problems.append(f"{r.turn} {r.faction}: {why}")
    assert problems == []


_RANGE = re.compile(r"(\d+)…(\d+)")
_NUMBER = re.compile(r"\d+")


def _numbers_agree(checked: str, final: str) -> bool:
    """The turn's text is check's where check gave a value, and inside check's range where it gave one: the two
    texts differ only where check wrote «a…b» and the turn a number between (the dice's own note aside)."""
    if "…" not in checked:
        return checked == final
    plain = re.sub(r" \([^()]*\d+к\d+[^()]*\)", "", checked)   # «(рост в начале хода 1к4, бросок 1к3)»
    ranges = [(int(a), int(b)) for a, b in _RANGE.findall(plain)]
    pattern = "".join(r"(\d+)" if i % 3 == 1 else re.escape(part) for i, part in enumerate(_RANGE.split(plain))
                      if i % 3 != 2)
    got = re.fullmatch(pattern, final)
    return got is not None and all(lo <= int(v) <= hi for (lo, hi), v in zip(ranges, got.groups(), strict=True))


def test_jade_rose_numbers_at_check_are_the_turn_s_or_hold_them_in_their_range(played: Played) -> None:
    """«`check` shows dice that the turn does not repeat … Where the outcome is random, `check` shows its range or
    its chance, never one draw.» Every OK row of Jade Rose reads at the turn as at check, or with each number in
    check's range (the corruption actions: «коррупция 5…8 → 2…7» at check, «коррупция 5 → 4» at the turn)."""
    if played.ruleset != "jade_rose":
        pytest.skip("Titania's check and turn tell a row in different words: its spending is checked below")
    wrong = [r for r in played.rows if r.checked.startswith("OK") and r.final.startswith("OK")
             and not _numbers_agree(r.checked, r.final) and "проиграла бой" not in r.final
             and not r.final.startswith("OK: армия")]
    assert wrong == []
    assert any("…" in r.checked for r in played.rows), "a die-decided row at check shows a range"


_COST = re.compile(r"за ((?:\d+ (?:золота|дерева|камня|маны)(?:, | и )?)+)")
_CARGO = re.compile(r"караван: ((?:(?:золото|дерево|камень|мана) \d+(?:, )?)+)")
_CARGO_NAMES = {"золото": "gold", "дерево": "wood", "камень": "stone", "мана": "mana"}


def test_titania_spending_at_check_is_what_the_turn_takes(played: Played) -> None:
    """A hire's «за 2 золота и 2 дерева» and a caravan's cargo at check are what the turn's ledger spends that
    turn («потрачено: постройки, найм, караваны, пошлины»; buildings cost influence, not these)."""
    if played.ruleset != "titania":
        pytest.skip("Jade Rose rows read the same at check and at the turn (above)")
    said: dict[tuple[int, str], dict[str, int]] = {}
    for r in played.rows:
        if not r.checked.startswith("OK"):
            continue
        total = said.setdefault((r.turn, r.faction), {})
        for part in _COST.findall(r.checked):
            for n, word in re.findall(r"(\d+) (золота|дерева|камня|маны)", part):
                total[RESOURCES[word]] = total.get(RESOURCES[word], 0) + int(n)
        for part in _CARGO.findall(r.checked):
            for word, n in re.findall(r"(золото|дерево|камень|мана) (\d+)", part):
                total[_CARGO_NAMES[word]] = total.get(_CARGO_NAMES[word], 0) + int(n)
    said = {k: v for k, v in said.items() if v}
    spent = {k: {r: n for r, n in v.items() if r in _CARGO_NAMES.values()} for k, v in played.spent.items()}
    assert said == {k: v for k, v in spent.items() if v}
    assert said, "the scripted game hires and sends caravans"


def _impossible(text: str) -> Iterator[str]:
    """A number before a noun in a form no case allows: a number ending in 1 (not 11) before a plural-only form,
    or a number of 5–20 (or ending in 0, 5–9) before a singular-only form of a countable noun."""
    import pymorphy3
    morph = _morph(pymorphy3)
    mass = mass_nouns()
    for m in re.finditer(r"(?<![\d.,:/\-])(\d+) ([а-яё]+)\b", text):
        n, word = int(m.group(1)), m.group(2)
        nouns = [p for p in morph.parse(word) if p.tag.POS == "NOUN" and p.score > 0.05]
        if not nouns or any(p.normal_form in mass for p in nouns):
            continue
        if n % 10 == 1 and n % 100 != 11:
            if not any("sing" in p.tag or "Pltm" in p.tag for p in nouns):
                yield m.group(0)
        elif n % 10 in (0, 5, 6, 7, 8, 9) or 11 <= n % 100 <= 14:
            if not any("plur" in p.tag for p in nouns):
                yield m.group(0)


_MORPH: list[Any] = []


def _morph(pymorphy3: Any) -> Any:
    if not _MORPH:
        _MORPH.append(pymorphy3.MorphAnalyzer())
    return _MORPH[0]


def test_no_number_stands_before_a_noun_in_a_form_no_case_allows(played: Played) -> None:
    """«Numbers agree with their nouns … everywhere a message is built from parts: statuses, journals, reports,
    posts, CLI.» Every status at check and at the turn, every post of both turns and `status` before each stage."""
    bad = [(where, found) for where, text in played.texts for found in _impossible(text)]
    assert bad == []
    assert len(played.texts) > 50


def test_the_agreement_check_itself_catches_the_seen_phrases() -> None:
    """The checker above is no test that cannot fail: the issue's «1 обид» and a «5 юнита» are caught."""
    assert list(_impossible("осталось 1 обид")) == ["1 обид"]
    assert list(_impossible("в отряде 5 юнита")) == ["5 юнита"]
    assert list(_impossible("в отряде 5 юнитов и 1 юнит, 2 юнита, 21 юнит")) == []
