"""Issue 11 item 5: the stage schedule, deadlines in a DST-free zone (Europe/Moscow) and a DST zone
(Europe/Berlin, including the nights the clocks change), `status` per faction, `lock`, cron lines.

Clocks change in Berlin on the last Sunday of March (02:00 CET -> 03:00 CEST) and of October
(03:00 CEST -> 02:00 CET); Moscow has kept UTC+3 all year since 2014.
"""
from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from pathlib import Path

import openpyxl
import pandas  # noqa: F401  (imported before freezegun stops the clock: importing pandas frozen crashes)
import pytest
from click.testing import CliRunner
from freezegun import freeze_time

from engine import find_ruleset
from sheets_bridge import deadlines, schedule
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import DemoBooks, fill_orders
from sheets_bridge.gamedir import GameConfig, GameConfigError, GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.schedule import After, ScheduleError, Weekly, parse_rule
from sheets_bridge.stage import check, run_turn
from sheets_bridge.tab_lock import lock
from tests.games import new_game

MOSCOW = zoneinfo.ZoneInfo("Europe/Moscow")
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
UTC = dt.UTC
SUNDAY_20 = Weekly(dt.time(20, 0), 6)


def utc(*args: int) -> dt.datetime:
    return dt.datetime(*args, tzinfo=UTC)


# -- rules ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "rule"), [
    ("Sunday 20:00", SUNDAY_20), ("вс 20:00", SUNDAY_20), ("  ВОСКРЕСЕНЬЕ   20:00 ", SUNDAY_20),
    ("sun 8:05", Weekly(dt.time(8, 5), 6)), ("пн 00:00", Weekly(dt.time(0, 0), 0)),
    ("daily 21:30", Weekly(dt.time(21, 30))), ("ежедневно 21:30", Weekly(dt.time(21, 30))),
    ("+48h", After(48)), ("48h", After(48)), ("+36 ч", After(36)), (24, After(24)),
])
def test_schedule_rules_are_read_in_english_and_russian(text, rule):
    assert parse_rule(text) == rule


@pytest.mark.parametrize(("text", "fragment"), [
    ("Sundy 20:00", "день недели «sundy» не понят"), ("вс 25:00", "не бывает"), ("вс 20:61", "не бывает"),
    ("каждую неделю", "не понято"), ("+0h", "больше нуля"), (0, "больше нуля"), (True, "ожидалась строка"),
])
def test_a_bad_schedule_rule_says_in_russian_what_is_allowed(text, fragment):
    with pytest.raises(ScheduleError) as caught:
        parse_rule(text)
    assert fragment in str(caught.value)


def test_game_toml_reports_every_bad_schedule_entry_and_unknown_stage_in_russian():
    text = ('ruleset = "jade_rose"\nscenario = "demo"\n[schedule]\norders = "Sundy 20:00"\n'
            'planning = "+48h"\nbattles = "вс 20:00"\n[deadlines]\norders = "в пятницу"\n')
    with pytest.raises(GameConfigError) as caught:
        GameConfig.from_toml(text)
    problems = caught.value.problems
    assert any(p.startswith("deadlines.orders = 'в пятницу': не дата и время") for p in problems)
    assert any(p.startswith("schedule.orders: «Sundy 20:00»: день недели") for p in problems)
    assert any("schedule.battles: у этих правил нет этапа «battles»" in p and "planning (планирование боёв)" in p
               for p in problems)
    assert len(problems) == 3


def test_schedule_survives_the_game_toml_round_trip():
    config = GameConfig.from_toml('ruleset = "jade_rose"\nscenario = "demo"\ntimezone = "Europe/Berlin"\n'
                                  '[schedule]\norders = "вс 20:00"\nplanning = 48\n')
    assert config.schedule == {"orders": "вс 20:00", "planning": 48}
    assert GameConfig.from_toml(config.to_toml()) == config


# -- deadlines -----------------------------------------------------------------------------------

def test_moscow_sunday_20_00_is_17_00_utc_in_summer_and_in_winter():
    """Moscow has no DST: the same wall-clock deadline is the same UTC time all year."""
    summer = schedule.deadline(SUNDAY_20, utc(2025, 3, 25, 17, 5), MOSCOW)      # Tuesday 20:05 MSK
    winter = schedule.deadline(SUNDAY_20, utc(2025, 10, 21, 17, 5), MOSCOW)
    assert summer == utc(2025, 3, 30, 17, 0) and winter == utc(2025, 10, 26, 17, 0)
    assert summer.astimezone(MOSCOW).strftime("%a %H:%M") == "Sun 20:00"


def test_a_stage_opened_exactly_at_the_slot_gets_the_next_week():
    opened = dt.datetime(2025, 3, 23, 20, 0, tzinfo=MOSCOW)
    assert schedule.deadline(SUNDAY_20, opened, MOSCOW) == dt.datetime(2025, 3, 30, 20, 0, tzinfo=MOSCOW)


def test_berlin_deadline_on_the_spring_change_is_20_00_summer_time_23_hours_after_saturday_20_00():
    opened = dt.datetime(2025, 3, 29, 20, 0, tzinfo=BERLIN)      # Saturday 20:00 CET = 19:00 UTC
    due = schedule.deadline(SUNDAY_20, opened, BERLIN)
    assert due == utc(2025, 3, 30, 18, 0)                          # Sunday 20:00 CEST
    assert due.astimezone(BERLIN).strftime("%H:%M %Z") == "20:00 CEST"
    assert schedule.time_left_text(due, opened) == "до срока 23 ч"


def test_berlin_deadline_on_the_autumn_change_is_25_hours_after_saturday_20_00():
    opened = dt.datetime(2025, 10, 25, 20, 0, tzinfo=BERLIN)     # Saturday 20:00 CEST = 18:00 UTC
    due = schedule.deadline(SUNDAY_20, opened, BERLIN)
    assert due == utc(2025, 10, 26, 19, 0)                         # Sunday 20:00 CET
    assert schedule.time_left_text(due, opened) == "до срока 1 д 1 ч"


def test_a_wall_clock_time_the_clocks_skip_moves_forward_and_a_doubled_one_is_its_first():
    night = Weekly(dt.time(2, 30), 6)
    spring = schedule.deadline(night, utc(2025, 3, 29, 12, 0), BERLIN)
    assert spring == utc(2025, 3, 30, 1, 30) and spring.astimezone(BERLIN).strftime("%H:%M") == "03:30"
    autumn = schedule.deadline(night, utc(2025, 10, 25, 12, 0), BERLIN)
    # 02:30 CEST, the first 02:30 of the night (a time in the doubled hour never == one of another zone)
    assert autumn.timestamp() == utc(2025, 10, 26, 0, 30).timestamp() and autumn.utcoffset() == dt.timedelta(hours=2)


def test_48_hours_after_a_deadline_is_the_same_wall_clock_time_two_days_later_across_the_change():
    """Saturday 20:00 CET + 48 h is Monday 20:00 CEST: 47 real hours, but what players read is 20:00."""
    orders = dt.datetime(2025, 3, 29, 20, 0, tzinfo=BERLIN)
    planning = schedule.deadline(After(48), orders, BERLIN, previous_deadline=orders)
    assert planning == utc(2025, 3, 31, 18, 0)
    assert (planning - orders.astimezone(UTC)) == dt.timedelta(hours=47)


def test_a_span_keeps_the_scheduled_time_when_the_stage_opens_late_unless_that_time_has_passed():
    deadline = utc(2025, 3, 23, 17, 0)                   # Sunday 20:00 MSK
    for late in (utc(2025, 3, 23, 17, 5), utc(2025, 3, 24, 9, 0)):     # turn run 5 minutes or 16 hours late
        assert schedule.deadline(After(48), late, MOSCOW, previous_deadline=deadline) == utc(2025, 3, 25, 17, 0)
    very_late = utc(2025, 3, 26, 9, 0)                   # the scheduled Tuesday 20:00 is gone: 48 h from now
    assert schedule.deadline(After(48), very_late, MOSCOW, previous_deadline=deadline) == utc(2025, 3, 28, 9, 0)
    assert schedule.deadline(After(48), very_late, MOSCOW) == utc(2025, 3, 28, 9, 0)


@pytest.mark.parametrize(("seconds", "text"), [
    (27 * 3600, "до срока 1 д 3 ч"), (2 * 86400, "до срока 2 д"), (5 * 3600 + 20 * 60 + 59, "до срока 5 ч 20 мин"),
    (3 * 3600, "до срока 3 ч"), (7 * 60 + 30, "до срока 7 мин"), (20, "до срока меньше минуты"),
    (0, "срок прошёл меньше минуты назад"), (-2 * 3600, "срок прошёл 2 ч назад"),
])
def test_time_left_in_russian(seconds, text):
    now = utc(2025, 3, 1, 12, 0)
    assert schedule.time_left_text(now + dt.timedelta(seconds=seconds), now) == text


def test_a_deadline_reads_with_weekday_date_time_and_zone():
    assert schedule.when_text(utc(2025, 3, 30, 17, 0), MOSCOW) == "вс 30.03.2025 20:00 (Europe/Moscow)"


# -- a game with a schedule -------------------------------------------------------------------

def _scheduled_game(tmp_path: Path, zone: str = "Europe/Moscow", name: str = "g") -> GameDir:
    gd = new_game(tmp_path / name, seed="deadlines")
    gd.config.timezone = zone
    gd.config.schedule = {"orders": "Sunday 20:00", "planning": "+48h"}
    gd.save_config()
    return GameDir(gd.path)


def _demo_orders(gd: GameDir, factions: tuple[str, ...]) -> None:
    """The factions' open-stage orders as the rule set's demo players type them into their books."""
    layout = Layout.load("jade_rose")
    books = DemoBooks(gd, layout)
    players = find_ruleset("jade_rose").demo_players()
    state = gd.latest_state()
    for fid in factions:
        books.replace(fid, players.orders(state, fid, books.read_all(fid)))


def _status_json(gd: GameDir) -> dict:
    out = CliRunner().invoke(main, ["status", str(gd.path), "--json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def test_the_open_stage_deadline_comes_from_the_time_it_opened_in_berlin_on_the_spring_night(tmp_path):
    with freeze_time("2025-03-29 19:00:00"):                        # Saturday 20:00 CET
        gd = _scheduled_game(tmp_path, "Europe/Berlin")
        clock = deadlines.clock(gd, gd.latest_state(), ("orders", "planning"))
        assert clock.deadline == utc(2025, 3, 30, 18, 0)
        assert clock.left_text(deadlines.now_utc()) == "до срока 23 ч"
    with freeze_time("2025-03-30 17:00:00"):
        out = CliRunner().invoke(main, ["status", str(gd.path)]).output
    assert "Срок              вс 30.03.2025 20:00 (Europe/Berlin)" in out
    assert "Осталось          до срока 1 ч" in out


def test_status_shows_per_faction_submitted_and_error_rows_after_players_fill_orders(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):                        # Tuesday 20:05 MSK
        gd = _scheduled_game(tmp_path)
    with freeze_time("2025-03-28 09:00:00"):
        before = _status_json(gd)
        assert before["deadline"]["deadline"] == "2025-03-30T20:00+03:00"
        assert before["deadline"]["time_left"] == "до срока 2 д 8 ч"
        assert {f: v["submission"]["submitted"] for f, v in before["factions"].items()} == {
            "empire": False, "vampires": False, "dwarves": False, "jade": False}
        _demo_orders(gd, ("empire", "vampires"))
        fill_orders(gd.path / gd.config.books["empire"], "Экономика", [("Построить", "Атлантида", "Часовня", "")])
        report = check(gd)
        after = _status_json(gd)
        text = CliRunner().invoke(main, ["status", str(gd.path)]).output
    subs = {f: v["submission"] for f, v in after["factions"].items()}
    ok, bad = report.counts()["empire"]
    assert subs["empire"] == {"rows": ok + bad, "errors": bad, "submitted": True, "ready": False} and bad >= 1
    assert subs["vampires"]["submitted"] and subs["vampires"]["rows"] == sum(report.counts()["vampires"])
    assert subs["dwarves"] == {"rows": 0, "errors": 0, "submitted": False, "ready": False}
    assert not subs["jade"]["submitted"]
    # the keys scripts already read are all still there
    assert {"ruleset", "title", "turn", "stage", "stage_title", "lines", "era", "factions", "awaiting", "books",
            "fair_dice"} <= set(after)
    assert {"name", "eliminated", "won", "lines", "gold"} <= set(after["factions"]["empire"])
    # the Russian table: one line per faction, submitted or not, rows, errors, balance line from the summary
    empire = next(line for line in text.splitlines() if line.startswith("Империя "))
    assert empire.split()[1:4] == ["поданы", str(ok + bad), str(bad)] and "золото" in empire
    dwarves = next(line for line in text.splitlines() if line.startswith("Дворфы "))
    assert dwarves.split()[1:5] == ["не", "поданы", "0", "0"]
    assert "Осталось          до срока 2 д 8 ч" in text and "Эпоха «" in text
    assert "Ждём от фракции «Дворфы»" in text and "Ждём от фракции «Империя»" not in text
    assert "twilight" not in text and "empire" not in text


def test_status_on_google_sheets_uses_the_last_check_not_the_books(tmp_path, monkeypatch):
    """On Google Sheets `status` never reads the books (quota): it shows the last `check` of the stage."""
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
        _demo_orders(gd, ("empire",))
        check(gd)
    gd.config.backend = "gsheets"
    gd.save_config()
    monkeypatch.setattr("sheets_bridge.status_view.open_backend", lambda *_: pytest.fail("status read the books"))
    with freeze_time("2025-03-26 09:00:00"):
        info = _status_json(gd)
        text = CliRunner().invoke(main, ["status", str(gd.path)]).output
    assert info["submissions_source"] == "check" and info["factions"]["empire"]["submission"]["submitted"]
    assert not info["factions"]["jade"]["submission"]["submitted"]
    assert "по проверке (вт 25.03.2025 20:05 (Europe/Moscow))" in text


def test_lock_before_the_deadline_says_so_and_changes_nothing(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
    book = gd.path / gd.config.books["empire"]
    before = book.read_bytes()
    with freeze_time("2025-03-30 16:59:00"):                        # 19:59 MSK
        out = CliRunner().invoke(main, ["lock", str(gd.path)])
    assert out.exit_code == 0
    assert "срок — вс 30.03.2025 20:00 (Europe/Moscow), до срока 1 мин" in out.output
    assert "не закрыты" in out.output and "--force" in out.output
    assert book.read_bytes() == before and not any(e["event"] == "locked" for e in gd.journal())


def test_orders_typed_after_the_lock_are_not_read_by_check_or_turn(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
        _demo_orders(gd, ("empire", "vampires"))
    empire = gd.path / gd.config.books["empire"]
    with freeze_time("2025-03-30 17:00:30"):                        # 20:00:30 MSK, just after the deadline
        first = lock(gd)
        again = lock(gd)
    assert first.done and set(first.books) == {"empire", "vampires", "dwarves", "jade"}
    assert not again.done and "уже закрыты (вс 30.03.2025 20:00 (Europe/Moscow))" in again.message
    assert [e["event"] for e in gd.journal()].count("locked") == 1
    ws = openpyxl.load_workbook(empire)["Экономика"]
    assert ws.protection.sheet and ws["A2"].protection.locked and ws["A30"].protection.locked
    # a late player (the xlsx protection has no password) types a row after the deadline
    fill_orders(empire, "Экономика", [("Построить", "Атлантида", "Часовня", "")])
    with freeze_time("2025-03-30 17:30:00"):
        info = _status_json(gd)
        report = check(gd)
        late_check = report.counts()["empire"]
        turn = run_turn(gd)
    assert info["locked"] and info["submissions_source"] == "lock"
    archived = json.loads((gd.archive_path(1) / "orders-orders-empire.json").read_text(encoding="utf-8"))
    assert not any("Атлантида" in cell for row in archived["Экономика"] for cell in row)
    assert all("Атлантида" not in s["text"] for s in turn.outcomes["empire"])
    assert late_check == turn.counts()["empire"]
    # the late row is not among the rows read at the lock, and its status says it was not read
    assert info["factions"]["empire"]["submission"]["rows"] == sum(late_check) - 1
    late = [s for s in turn.outcomes["empire"] if "вписана после закрытия вкладок приказов" in s["text"]]
    assert len(late) == 1 and not late[0]["ok"] and "не прочитана" in late[0]["text"]


def test_lock_with_force_closes_before_the_deadline_and_turn_reads_the_kept_rows(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
        report = lock(gd, force=True)
    assert report.done and "раньше срока (--force)" in report.message
    assert next(e for e in gd.journal() if e["event"] == "locked")["forced"] is True
    fill_orders(gd.path / gd.config.books["empire"], "Экономика", [("Построить", "Атлантида", "Часовня", "")])
    with freeze_time("2025-03-25 18:00:00"):
        result = run_turn(gd)
    assert result.counts().get("empire", (0, 0)) == (0, 1)    # the row typed after the lock: not read
    assert "Строка вписана после закрытия вкладок приказов (forumwar lock) и не прочитана" in \
        result.outcomes["empire"][0]["text"]


def test_a_game_without_a_schedule_has_no_deadline_and_lock_needs_force(tmp_path):
    gd = new_game(tmp_path / "g", seed="x")
    out = CliRunner().invoke(main, ["lock", str(gd.path)])
    assert out.exit_code == 0 and "у этапа нет срока" in out.output
    text = CliRunner().invoke(main, ["status", str(gd.path)]).output
    assert "Срок              не задан" in text
    assert _status_json(gd)["deadline"]["deadline"] is None


def test_a_one_off_deadline_in_deadlines_overrides_the_schedule_for_the_stage_it_falls_in(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
        gd.config.deadlines["orders"] = "2025-03-27T12:00"
        gd.save_config()
        clock = deadlines.clock(GameDir(gd.path), gd.latest_state(), ("orders", "planning"))
    assert clock.deadline == dt.datetime(2025, 3, 27, 12, 0, tzinfo=MOSCOW)


def test_the_planning_stage_deadline_is_48_hours_after_the_orders_deadline(tmp_path):
    with freeze_time("2025-03-25 17:05:00"):
        gd = _scheduled_game(tmp_path)
        _demo_orders(gd, tuple(gd.latest_state()["factions"]))
    with freeze_time("2025-03-30 17:03:00"):                        # turn run by cron at 20:03 MSK
        run_turn(gd)
        state = gd.latest_state()
    if state["stage"] != "planning":
        pytest.skip("the demo orders gave no battle to plan")
    clock = deadlines.clock(gd, state, ("orders", "planning"))
    assert clock.deadline == dt.datetime(2025, 4, 1, 20, 0, tzinfo=MOSCOW)
    # the pre-filled «Манёвры» rows are not a submission; a faction with no battle owes nothing
    with freeze_time("2025-03-31 09:00:00"):
        info = _status_json(gd)
        text = CliRunner().invoke(main, ["status", str(gd.path)]).output
    assert "Осталось          до срока 1 д 8 ч" in text      # to Tuesday 20:00 MSK = 17:00 UTC
    for fid, faction in info["factions"].items():
        line = next(row for row in text.splitlines() if row.startswith(faction["name"] + " "))
        assert not faction["submission"]["submitted"], fid
        assert ("не поданы" if info["awaiting"][fid] else "не требуются") in line, fid
    assert any(info["awaiting"].values()) and not all(info["awaiting"].values())


# -- cron ----------------------------------------------------------------------------------------

def test_cron_lines_run_check_hourly_and_lock_at_each_deadline_in_the_game_zone():
    rules = {"orders": SUNDAY_20, "planning": After(48)}
    lines = schedule.cron_lines(rules, ("orders", "planning"), {"orders": "приказы", "planning": "планирование"},
                                "Europe/Berlin", "forumwar check G", "forumwar lock G")
    assert lines[0] == "CRON_TZ=Europe/Berlin"
    assert "30 * * * * forumwar check G" in lines
    assert "0 20 * * 0,2 forumwar lock G" in lines                  # Sunday and Tuesday 20:00
    assert not [line for line in lines if line.startswith("*/10")]
    assert any("приказы — воскресенье в 20:00; планирование — вторник в 20:00" in line for line in lines)


def test_cron_lines_for_a_span_after_saturday_night_wrap_to_the_next_day():
    rules = {"orders": Weekly(dt.time(22, 0), 5), "planning": After(5)}
    lines = schedule.cron_lines(rules, ("orders", "planning"), {}, "Europe/Moscow", "c", "l")
    assert "0 22 * * 6 l" in lines and "0 3 * * 0 l" in lines


def test_cron_lock_every_10_minutes_when_a_deadline_hangs_on_the_opening():
    lines = schedule.cron_lines({"orders": After(72)}, ("orders", "planning"), {"orders": "приказы"},
                                "Europe/Moscow", "c", "l")
    assert "*/10 * * * * l" in lines and any("Срок этапов приказы зависит" in line for line in lines)


def test_schedule_cron_command_prints_crontab_lines_for_the_game(tmp_path):
    gd = _scheduled_game(tmp_path)
    out = CliRunner().invoke(main, ["schedule", str(gd.path), "--cron"])
    assert out.exit_code == 0
    game = str(gd.path.resolve())
    lock_line = next(line for line in out.output.splitlines() if line.startswith("0 20 * * 0,2 "))
    assert f" lock {game} >> {game}/cron.log 2>&1" in lock_line
    assert any(line.startswith("30 * * * * ") and f" check {game} " in line for line in out.output.splitlines())
    plain = CliRunner().invoke(main, ["schedule", str(gd.path)]).output
    assert "приказы: воскресенье в 20:00" in plain and "планирование боёв: через 48 ч" in plain


# -- Google Sheets --------------------------------------------------------------------------------

def test_on_google_sheets_lock_closes_each_book_in_one_request_and_turn_reads_them_only_to_flag_late_edits(tmp_path):
    from tests.fake_google import FakeGoogle, fake_backend, fake_client
    gm, bot = "gm@example.com", "forumwar@deadlines.iam.gserviceaccount.com"
    fake = FakeGoogle(quota_per_minute=None)
    fake.add_user(gm)
    folder = fake.add_shared_drive("forumwar", {gm: "organizer", bot: "fileOrganizer"})
    holder = {}

    def factory(g):
        holder["be"] = fake_backend(fake, bot, gm_emails=[gm], folder_id=folder,
                                    metadata_path=g.state_dir / "gsheets-meta.json")
        return holder["be"]

    with freeze_time("2025-03-25 17:05:00"):
        gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed="deadlines",
                         backend_factory=factory)
    gd.config.schedule = {"orders": "Sunday 20:00", "planning": "+48h"}
    gd.save_config()
    be = holder["be"]
    factions = ("empire", "vampires", "dwarves", "jade")
    economy = next(t.title for t in Layout.load("jade_rose").order_tabs("orders") if t.key == "economy")
    fake.calls.clear()
    with freeze_time("2025-03-30 17:01:00"):
        assert lock(GameDir(gd.path), be=be).done
    for key in factions:
        calls = [c.op for c in fake.calls if c.file_id == gd.config.books[key] and not c.op.startswith("drive.")]
        assert calls == ["spreadsheets.batchUpdate"], key            # lock_and_read: closed and read at once
        sheets = fake.spreadsheet(gd.config.books[key]).resource(bot)["sheets"]
        tab = next(s for s in sheets if s["properties"]["title"] == economy)
        assert all(not p.get("unprotectedRanges") for p in tab.get("protectedRanges", [])), key
    # the GM (who may still edit) types into a faction's closed tab after the deadline
    book = fake_client(fake, gm).open_by_key(gd.config.books["empire"])
    book.values_update(f"'{economy}'!A2", params={"valueInputOption": "USER_ENTERED"},
                       body={"values": [["Построить", "Атлантида", "Часовня"]]})
    fake.calls.clear()
    with freeze_time("2025-03-30 17:05:00"):
        run_turn(GameDir(gd.path), be=be)
    for key in factions:   # one read (to flag late edits; the tabs are closed already) and the push
        calls = [c.op for c in fake.calls if c.file_id == gd.config.books[key] and not c.op.startswith("drive.")]
        assert calls == ["values.batchGet", "spreadsheets.batchUpdate"], key
    archived = json.loads((gd.archive_path(1) / "orders-orders-empire.json").read_text(encoding="utf-8"))
    assert not any("Атлантида" in cell for row in archived.get(economy, []) for cell in row)
    statuses = json.loads((gd.archive_path(1) / "statuses-orders.json").read_text(encoding="utf-8"))["empire"]
    assert any(s["tab"] == "economy" and s["row"] == 2 and "не прочитана" in s["text"] for s in statuses)
