"""Issue 8 item 7h: every request the bridge sends is checked against Google's own discovery
documents for Sheets v4 and Drive v3 (kept in tests/fake_google/discovery_documents): URL and verb, query
parameters, body fields, types and enums, and field masks. The fake checks each request inline
(a bad one raises in the test that sent it); here the checker itself is tested, a whole game's
requests are checked, and the requests of the whole gsheets test suite are collected and checked."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.fake_google import FakeGoogle, discovery, fake_backend, fake_client, gm_created_books
from tests.fake_google.discovery import DiscoveryViolation, check
from tests.paths import REPO

SHEETS = "https://sheets.googleapis.com/v4/spreadsheets/abc"
DRIVE = "https://www.googleapis.com/drive/v3/files"
GM = "gm@example.com"
BOT = "forumwar@discovery.iam.gserviceaccount.com"


def test_the_discovery_documents_are_installed():
    assert discovery.available(), "tests/fake_google/discovery_documents/ holds the documents"
    assert {api.name for api in discovery.apis()} == {"sheets", "drive"}


@pytest.mark.parametrize("verb, url, body", [
    ("GET", SHEETS + "/values:batchGet?ranges=%27A%27&majorDimension=ROWS&valueRenderOption=FORMULA", None),
    ("PUT", SHEETS + "/values/%27A%27%21A1?valueInputOption=RAW", {"values": [["x", 1]]}),
    ("POST", SHEETS + ":batchUpdate?fields=updatedSpreadsheet(sheets(properties(sheetId,title)))",
     {"requests": [{"updateSheetProperties": {"properties": {"sheetId": 1, "gridProperties": {"rowCount": 5}},
                                              "fields": "gridProperties.rowCount"}}]}),
    ("GET", DRIVE + "?q=x&fields=files(id,name)&corpora=allDrives&includeItemsFromAllDrives=true", None),
    ("POST", DRIVE + "/f/permissions?sendNotificationEmail=false", {"type": "user", "role": "writer",
                                                                    "emailAddress": "a@b.c"}),
], ids=["batchGet", "values.update", "batchUpdate", "files.list", "permissions.create"])
def test_requests_google_takes_pass(verb, url, body):
    assert check(verb, url, body) == []


@pytest.mark.parametrize("verb, url, body, expected", [
    ("DELETE", SHEETS, None, "no such method"),
    ("GET", SHEETS + ":batchUpdate", None, "no such method"),                     # wrong verb
    ("GET", SHEETS + "?includeGrid=false", None, "unknown query parameter 'includeGrid'"),
    ("GET", SHEETS + "/values:batchGet?valueRenderOption=FORMULAS", None, "'FORMULAS' is not one of"),
    ("GET", SHEETS + "?includeGridData=yes", None, "'yes' is not a boolean"),
    ("GET", SHEETS + "/values/A1?valueRenderOption=FORMULA&valueRenderOption=FORMULA", None, "given 2 times"),
    ("POST", SHEETS + ":batchUpdate", {"requests": [{"addSheet": {"properties": {"name": "x"}}}]},
     "unknown field 'name' in SheetProperties"),
    ("POST", SHEETS + ":batchUpdate", {"requests": [{"addSheet": {"properties": {"sheetId": "x"}}}]},
     "'x' is not an integer"),
    ("POST", SHEETS + ":batchUpdate", {"requests": [{"appendDimension": {"sheetId": 1, "dimension": "LINES",
                                                                         "length": 1}}]}, "'LINES' is not one of"),
    ("POST", SHEETS + ":batchUpdate", {"requests": [{"repeatCell": {
        "range": {"sheetId": 1}, "cell": {"userEnteredFormat": {"backgroundColor": {"red": 1}}},
        "fields": "userEnteredFormat.backgroundColor"}}]}, "backgroundColor is deprecated"),
    ("POST", SHEETS + ":batchUpdate", {"requests": [{"updateSheetProperties": {
        "properties": {"sheetId": 1}, "fields": "gridProperties.rows"}}]}, "no field 'gridProperties.rows'"),
    ("POST", SHEETS + ":batchUpdate?fields=updatedSpreadsheet(sheets(protections))", {"requests": []},
     "no field 'updatedSpreadsheet.sheets.protections'"),
    ("POST", DRIVE + "?supportsTeamDrives=true", {"name": "x"}, "'supportsTeamDrives' is deprecated"),
    ("POST", DRIVE, {"name": "x", "appProperties": {"k": 5}}, "5 is not a string"),
], ids=["url", "verb", "query-name", "query-enum", "query-bool", "query-repeated", "body-field", "body-type",
        "body-enum", "deprecated", "request-mask", "response-mask", "deprecated-param", "map-value"])
def test_requests_google_refuses_or_deprecates_are_named(verb, url, body, expected):
    problems = check(verb, url, body)
    assert any(expected in p for p in problems), problems


def test_the_fake_raises_in_the_test_when_the_bridge_sends_a_bad_request():
    fake = FakeGoogle()
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    backend = fake_backend(fake, BOT)
    with pytest.raises(DiscoveryViolation, match="unknown field 'colour'"):
        backend.http.request("post", f"https://sheets.googleapis.com/v4/spreadsheets/{book}:batchUpdate",
                             json={"requests": [{"addSheet": {"properties": {"colour": "red"}}}]})


def test_the_fake_can_answer_a_bad_request_with_googles_400_instead():
    from gspread.exceptions import APIError
    fake = FakeGoogle(discovery="answer")
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    with pytest.raises(APIError) as excinfo:
        fake_client(fake, BOT).http_client.request(
            "post", f"https://sheets.googleapis.com/v4/spreadsheets/{book}:batchUpdate",
            json={"requests": [{"addSheet": {"properties": {"colour": "red"}}}]})
    assert excinfo.value.code == 400 and "Invalid JSON payload" in excinfo.value.error["message"]


def test_every_request_of_a_whole_game_matches_the_discovery_documents(tmp_path):
    """new (one create answer lost), share, a player's orders, check, both stages of a turn, export."""
    from sheets_bridge.create import create_game, share_books
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.stage import check as check_stage
    from sheets_bridge.stage import run_turn
    fake = FakeGoogle()
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})

    def backend(gd: GameDir):
        return fake_backend(fake, BOT, gm_emails=gd.config.gm_emails, folder_id=folder,
                            metadata_path=gd.state_dir / "gsheets-meta.json")

    fake.inject("drop", op="drive.files.create")
    gd = create_game(tmp_path / "g", "jade_rose", "demo", backend="gsheets", seed="d", backend_factory=backend)
    gd.config.gm_emails = [GM]
    gd.config.factions["empire"].players = ["alice@example.com"]
    gd.save_config()
    gd = GameDir(gd.path)
    be = backend(gd)
    share_books(gd, be, revoke=True)
    fake_client(fake, GM).open_by_key(gd.config.books["empire"]).values_update(
        "'Экономика'!A2", params={"valueInputOption": "USER_ENTERED"}, body={"values": [["Нанять", "", "Копейщик", 2]]})
    check_stage(gd, be=be)
    run_turn(gd, be=be)
    run_turn(gd, be=be)
    bridge = [s for s in fake.sent if s.identity == BOT]
    assert bridge and all(s.problems == () for s in bridge)
    assert all(check(s.method, s.url, s.body) == [] for s in bridge)
    called = {discovery.find_method(s.method, s.url)[0].id for s in bridge}
    assert {"sheets.spreadsheets.batchUpdate", "sheets.spreadsheets.get", "drive.files.create",
            "drive.files.list", "drive.permissions.list", "drive.permissions.create",
            "drive.files.export"} <= called


@pytest.mark.long
@pytest.mark.skipif(os.environ.get("FORUMWAR_FULL_TESTS") != "1",
                    reason="re-runs the whole Google suite: with FORUMWAR_FULL_TESTS=1 (make test-full); "
                           "every request is also checked inline by the fake in every test")
def test_every_request_of_the_gsheets_test_suite_matches_the_discovery_documents(tmp_path):
    """The gsheets and fake tests run again in a child pytest whose plugin collects every request
    the bridge sent to any fake; each is checked here."""
    report = tmp_path / "report.json"
    files = sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "bridge").glob("test_gsheets_*.py")) + sorted(
        str(p.relative_to(REPO)) for p in (REPO / "tests" / "bridge").glob("test_fake_google_*.py"))
    env = {**os.environ, "FORUMWAR_DISCOVERY_REPORT": str(report), "FORUMWAR_CACHE_DIR": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-o", "addopts=", "-p", "no:cacheprovider",
                          "-p", "tests.fake_google.discovery_plugin", *files],
                         cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    summary = json.loads(report.read_text(encoding="utf-8"))
    assert summary["problems"] == []
    assert not [m for m in summary["methods"] if m.startswith("unknown")]
    assert sum(summary["methods"].values()) > 1000 and summary["fakes"] > 50
