"""Issue 41 §2 and §3: «Приказы готовы» and the reminder post, through the xlsx books of both rule sets.

«Each faction's book has a place to say «Приказы готовы»… It is cleared when a stage opens. `status` and the GM
book show, per faction: not submitted, submitted, ready. A faction that edits its orders after saying ready stays
ready (its last rows count). Readiness is read with the orders, in the same request.»
«`forumwar post GAME --reminder` prints a forum post in BBCode: the stage, the deadline with the time left in the
game's time zone, and who has not submitted or is not ready. It names factions, and players by the forum names in
game.toml… The post gives no order content and nothing secret. It follows the same forum dialects and escaping as
the other posts.»
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import find_ruleset
from sheets_bridge import readiness, submissions
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.cli import main
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check, run_turn
from tests.games import new_game

SEED = "ready"


def _say_ready(gd: GameDir, fid: str, answer: str = "да") -> None:
    tab = Layout.load(gd.config.ruleset).ready_tab()
    assert tab is not None
    XlsxBackend(gd.path).type_rows(gd.config.books[fid], {tab.title: [{tab.columns[0].title: answer}]})


def _type_order(gd: GameDir, fid: str) -> None:
    """One order row of the faction's own (Titania: a campaign order other than the pre-filled «Стоять»)."""
    be = XlsxBackend(gd.path)
    if gd.config.ruleset == "titania":
        vocab = find_ruleset("titania").vocabularies(gd.latest_state(), fid)
        order = next(o for o in vocab["campaign_orders"] if o != "Стоять")    # «Стоять» is pre-filled
        be.type_rows(gd.config.books[fid], {"Поход": [{"Войско": vocab["army_provinces"][0], "Приказ": order,
                                                       "Куда": vocab["targets"][0]}]})
    else:
        be.type_rows(gd.config.books[fid], {"Экономика": [{"Действие": "Нанять", "Что": "Копейщик",
                                                           "Количество": "1"}]})


def _status(gd: GameDir) -> str:
    done = CliRunner().invoke(main, ["status", str(gd.path)])
    assert done.exit_code == 0, done.output
    return done.output


def _row_of(text: str, name: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(name))


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_each_faction_book_has_the_ready_cell_open_to_its_players_and_cleared_when_a_stage_opens(tmp_path, ruleset):
    gd = new_game(tmp_path / "g", ruleset, seed=SEED)
    layout = Layout.load(ruleset)
    tab = layout.ready_tab()
    assert tab is not None and tab.title == "Готовность" and tab.columns[0].title == "Приказы готовы"
    assert tab.columns[0].values == ("да",)
    rs = find_ruleset(ruleset)
    state = gd.latest_state()
    for fid in rs.factions(state):
        raw = XlsxBackend(gd.path).read_tabs(gd.config.books[fid], [tab.title])
        assert raw[tab.title][0][:2] == ["Приказы готовы", "Статус"]
    fid = rs.factions(state)[0]
    _say_ready(gd, fid)
    raw = XlsxBackend(gd.path).read_tabs(gd.config.books[fid], [tab.title])
    assert readiness.is_ready(layout, fid, raw)
    run_turn(gd)                                          # the next stage opens: the cell is empty again
    raw = XlsxBackend(gd.path).read_tabs(gd.config.books[fid], [tab.title])
    assert not readiness.is_ready(layout, fid, raw)
    assert all(not str(c).strip() for row in raw[tab.title][1:] for c in row)


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_status_shows_not_submitted_submitted_and_ready(tmp_path, ruleset):
    gd = new_game(tmp_path / "g", ruleset, seed=SEED)
    rs = find_ruleset(ruleset)
    state = gd.latest_state()
    first, second, third = rs.factions(state)[:3]
    names = {f: state["factions"][f]["name"] for f in (first, second, third)}
    _type_order(gd, first)
    _type_order(gd, second)
    _say_ready(gd, second)
    _say_ready(gd, third)                                 # ready with no rows: it has nothing to order
    text = _status(gd)
    assert re.search(r"\sподаны\s", _row_of(text, names[first])), text
    assert re.search(r"\sготовы\s", _row_of(text, names[second])), text
    assert re.search(r"\sготовы\s", _row_of(text, names[third])), text
    assert "Ещё не сказали «Приказы готовы»:" in text and f"«{names[first]}»" in text


def test_a_faction_that_edits_after_saying_ready_stays_ready_and_its_last_rows_count(tmp_path):
    gd = new_game(tmp_path / "g", "titania", seed=SEED)
    rs = find_ruleset("titania")
    fid = rs.factions(gd.latest_state())[0]
    _say_ready(gd, fid)
    _type_order(gd, fid)                                  # edited after «да»
    state = gd.latest_state()
    layout = Layout.load("titania")
    from sheets_bridge.pull import pull
    parsed, raw_books, _ = pull(gd, XlsxBackend(gd.path), rs, layout, state, state["stage"])
    counts = submissions.count(rs, layout, state, state["stage"], raw_books, parsed)
    assert counts[fid].ready and counts[fid].submitted and counts[fid].rows >= 1


def test_a_word_other_than_yes_is_not_ready(tmp_path):
    gd = new_game(tmp_path / "g", "titania", seed=SEED)
    fid = find_ruleset("titania").factions(gd.latest_state())[0]
    _say_ready(gd, fid, "наверное")
    layout = Layout.load("titania")
    raw = XlsxBackend(gd.path).read_tabs(gd.config.books[fid], ["Готовность"])
    assert not readiness.is_ready(layout, fid, raw)
    text = readiness.status_text(layout, fid, raw)
    assert text is not None and "«наверное»" in text and "«да»" in text


def test_all_ready_counts_only_the_awaited_factions_with_players():
    awaited = {"a": ["приказы"], "b": ["приказы"], "c": [], "d": ["приказы"]}
    players = {"a": ["a@x.ru"], "b": ["b@x.ru"], "c": ["c@x.ru"], "d": []}
    assert readiness.all_ready(awaited, players, {"a": True, "b": True})
    assert not readiness.all_ready(awaited, players, {"a": True})
    assert readiness.all_ready(awaited, {}, {"a": True, "b": True, "d": True}), "no players named: every awaited one"
    assert not readiness.all_ready(awaited, {}, {"a": True, "b": True})
    assert not readiness.all_ready({"a": []}, {}, {}), "nobody awaited: nothing to resolve early"


def _with_config(gd: GameDir, **changes: object) -> GameDir:
    for key, value in changes.items():
        setattr(gd.config, key, value)
    gd.save_config()
    return GameDir(gd.path)


def test_the_reminder_names_exactly_those_not_ready_with_their_forum_names(tmp_path):
    gd = new_game(tmp_path / "g", "titania", seed=SEED)
    rs = find_ruleset("titania")
    state = gd.latest_state()
    factions = rs.factions(state)
    first, second = factions[:2]
    gd.config.factions[first].forum_names = ["Ветер", "Тень"]
    gd = _with_config(gd)
    _type_order(gd, first)
    _say_ready(gd, second)
    done = CliRunner().invoke(main, ["post", str(gd.path), "--reminder"])
    assert done.exit_code == 0, done.output
    post = done.output
    names = {f: state["factions"][f]["name"] for f in factions}
    waited = re.findall(r"\[\*\]\[b\](.+?)\[/b\]", post)
    assert waited == [names[f] for f in factions if f != second]
    assert f"[b]{names[first]}[/b] (Ветер, Тень) — приказы поданы, но не отмечены готовыми" in post
    assert f"Готовы: [b]{names[second]}[/b]." in post
    vocab = rs.vocabularies(state, first)
    order = next(o for o in vocab["campaign_orders"] if o != "Стоять")
    assert order not in post and vocab["targets"][0] not in post, "no order content"
    assert post.startswith(f"[b]Напоминание: ход 1, этап «{rs.stage_title(state['stage'])}»[/b]")


def test_the_reminder_tells_the_deadline_and_time_left_and_waits_for_its_hour(tmp_path):
    gd = new_game(tmp_path / "g", "jade_rose", seed=SEED)
    gd = _with_config(gd, deadlines={"orders": "2099-03-16T20:00"}, timezone="Europe/Moscow", reminder_hours=12)
    done = CliRunner().invoke(main, ["post", str(gd.path), "--reminder"])
    assert done.exit_code == 0, done.output
    assert "Срок — пн 16.03.2099 20:00 (Europe/Moscow), до срока " in done.output
    out = tmp_path / "напоминание.bbcode"
    far = CliRunner().invoke(main, ["post", str(gd.path), "--reminder", "--before", "12", "-o", str(out)])
    assert far.exit_code == 0 and far.output == "" and not out.exists(), "not due yet: nothing written"


def test_the_reminder_file_is_written_once_per_stage(tmp_path):
    gd = new_game(tmp_path / "g", "jade_rose", seed=SEED)
    out = tmp_path / "напоминание.bbcode"
    first = CliRunner().invoke(main, ["post", str(gd.path), "--reminder", "-o", str(out), "--forum", "spoiler"])
    assert first.exit_code == 0 and "записано" in first.output, first.output
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# forumwar-напоминание: ход 1") and "[b]Напоминание" in text
    again = CliRunner().invoke(main, ["post", str(gd.path), "--reminder", "-o", str(out)])
    assert again.exit_code == 0 and again.output == "" and out.read_text(encoding="utf-8") == text


def test_game_toml_takes_early_reminder_and_forum_names_and_refuses_nonsense(tmp_path):
    gd = new_game(tmp_path / "g", "jade_rose", seed=SEED)
    fid = next(iter(gd.config.factions))
    gd.config.factions[fid].forum_names = ["Ветер"]
    gd = _with_config(gd, early=True, reminder_hours=6)
    text = (gd.path / "game.toml").read_text(encoding="utf-8")
    assert "early = true" in text and "reminder = 6" in text and 'forum_names = ["Ветер"]' in text
    again = GameDir(gd.path).config
    assert again.early and again.reminder_hours == 6 and again.factions[fid].forum_names == ["Ветер"]
    from sheets_bridge.gameconfig import config_problems
    problems = config_problems({"ruleset": "jade_rose", "scenario": "demo",
                                "schedule": {"early": "да", "reminder": 500},
                                "factions": {"x": {"name": "X", "forum_names": ["[url]a[/url]"]}}})
    assert len(problems) == 3, problems


def test_the_cron_lines_check_readiness_and_write_the_reminder(tmp_path):
    gd = new_game(tmp_path / "g", "jade_rose", seed=SEED)
    gd = _with_config(gd, schedule={"orders": "Sunday 20:00"}, early=True, reminder_hours=12)
    done = CliRunner().invoke(main, ["schedule", str(gd.path), "--cron"])
    assert done.exit_code == 0, done.output
    lines = [line for line in done.output.splitlines() if line and not line.startswith("#")]
    assert any(line.startswith("*/10 * * * * ") and " turn --if-ready " in line for line in lines), done.output
    assert any(" post --reminder --before 12 -o " in line and "напоминание.bbcode" in line for line in lines)
    said = CliRunner().invoke(main, ["schedule", str(gd.path)])
    assert "Досрочно:" in said.output and "за 12 часов до срока" in said.output


def test_readiness_is_read_in_the_same_read_as_the_orders(tmp_path, monkeypatch):
    """On xlsx every read is one `read_orders` per book; the ready tab is among its titles, no extra read."""
    gd = new_game(tmp_path / "g", "titania", seed=SEED)
    calls: list[tuple[str, tuple[str, ...]]] = []
    original = XlsxBackend.read_orders

    def counted(self: XlsxBackend, book_id: str, titles: list[str]) -> dict[str, list[list[str]]]:
        calls.append((Path(book_id).name, tuple(titles)))
        return original(self, book_id, titles)

    monkeypatch.setattr(XlsxBackend, "read_orders", counted)
    reads_tabs = []
    monkeypatch.setattr(XlsxBackend, "read_tabs", lambda self, b, t: reads_tabs.append(b) or {})
    check(gd, XlsxBackend(gd.path))
    faction_books = {Path(gd.config.books[f]).name for f in find_ruleset("titania").factions(gd.latest_state())}
    read = [name for name, _ in calls]
    assert sorted(set(read)) == sorted(read), "each book read once"
    assert faction_books <= set(read)
    assert all("Готовность" in titles for name, titles in calls if name in faction_books)
    assert reads_tabs == []


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_check_says_beside_the_cell_what_it_understood_and_fills_the_gm_books_readiness(tmp_path, ruleset):
    gd = new_game(tmp_path / "g", ruleset, seed=SEED)
    rs = find_ruleset(ruleset)
    state = gd.latest_state()
    first, second, third = rs.factions(state)[:3]
    _type_order(gd, first)
    _say_ready(gd, second)
    _say_ready(gd, third, "почти")
    check(gd, XlsxBackend(gd.path))
    be = XlsxBackend(gd.path)
    said = be.read_tabs(gd.config.books[second], ["Готовность"])["Готовность"]
    assert said[1][0] == "да" and said[1][1].startswith("OK: мастер видит, что приказы готовы")
    odd = be.read_tabs(gd.config.books[third], ["Готовность"])["Готовность"]
    assert "«почти»" in odd[1][1]
    table = be.read_tabs(gd.config.books["gm"], ["Готовность"])["Готовность"]
    assert table[0][:3] == ["Фракция", "Игроков", "Приказы"]
    by_name = {row[0]: row[2] for row in table[1:]}
    assert by_name[state["factions"][first]["name"]] == "поданы"
    assert by_name[state["factions"][second]["name"]] == "готовы"
    assert by_name[state["factions"][third]["name"]] == "не поданы"


@pytest.mark.parametrize("ruleset", ["jade_rose", "titania"])
def test_turn_if_ready_waits_for_every_faction_then_resolves_without_asking(tmp_path, ruleset):
    """Done when: «resolves a stage early when all are ready, and prints a reminder that names exactly those not
    ready» — each rule set, through its books."""
    gd = new_game(tmp_path / "g", ruleset, seed=SEED)
    gd = _with_config(gd, early=True, deadlines={rs_stage: "2099-01-01T20:00"
                                                 for rs_stage in find_ruleset(ruleset).stages})
    rs = find_ruleset(ruleset)
    state = gd.latest_state()
    awaited = [f for f, notes in rs.awaiting(state).items() if notes]
    last = awaited[-1]
    for fid in awaited[:-1]:
        _say_ready(gd, fid)
    reminder = CliRunner().invoke(main, ["post", str(gd.path), "--reminder"])
    assert re.findall(r"\[\*\]\[b\](.+?)\[/b\]", reminder.output) == [state["factions"][last]["name"]]
    snapshots = sorted(p.name for p in (gd.path / "state").iterdir())
    early = CliRunner().invoke(main, ["turn", str(gd.path), "--if-ready"])
    assert early.exit_code == 0, early.output
    assert "не рассчитан досрочно" in early.output and f"«{state['factions'][last]['name']}»" in early.output
    assert sorted(p.name for p in (gd.path / "state").iterdir()) == snapshots, "nothing changed"
    _say_ready(gd, last)
    done = CliRunner().invoke(main, ["turn", str(gd.path), "--if-ready"], input="")   # no question to answer
    assert done.exit_code == 0, done.output
    assert "рассчитан; теперь" in done.output
    assert (gd.latest_state()["turn"], gd.latest_state()["stage"]) != (state["turn"], state["stage"])


def test_on_google_readiness_comes_in_the_same_read_as_the_orders_and_early_needs_no_question(tmp_path, monkeypatch):
    """«Readiness is read with the orders, in the same request. It costs no extra Google requests.»"""
    from sheets_bridge import stage as stage_module
    from tests.bridge.backend_games import GoogleGame
    from tests.bridge.test_turn_costs import _count_reads, _order_books
    game = GoogleGame(tmp_path / "game", seed="ready-google")
    gd = _with_config(game.gd, early=True)
    rs = find_ruleset(gd.config.ruleset)
    state = gd.latest_state()
    awaited = [f for f, notes in rs.awaiting(state).items() if notes]
    for fid in awaited[:-1]:
        game.type_rows(fid, "Готовность", [("да",)])
    reads = _count_reads(game.be)
    check(gd, game.be)
    assert dict(reads) == dict.fromkeys(_order_books(game), 1), "one read a book, «Готовность» in it"
    last = submissions.last_check(gd.journal(), state["turn"], state["stage"], gd.epoch())
    assert last is not None
    assert [f for f, sub in last[1].items() if sub.ready] == awaited[:-1]
    monkeypatch.setattr(stage_module, "open_backend", lambda gd, *args: game.be)
    waiting = CliRunner().invoke(main, ["turn", str(gd.path), "--if-ready"])
    assert waiting.exit_code == 0 and "не рассчитан досрочно" in waiting.output, waiting.output
    game.type_rows(awaited[-1], "Готовность", [("да",)])
    done = CliRunner().invoke(main, ["turn", str(gd.path), "--if-ready"])
    assert done.exit_code == 0 and "рассчитан; теперь" in done.output, done.output
