"""Google players see their map (issue 22 item 3): every picture of a stage reaches its book with no manual step.

A picture is a PNG file in Drive whose readers are exactly the people of its book (the faction's players and
the GMs), linked from the book's picture tab; never a link open to anyone. Played over the fake Google as the
GM signed in (their own Drive), and as a service account in a shared-drive folder or without one.
"""
from __future__ import annotations

import os
import re
from typing import Any

import pytest

from sheets_bridge.create import create_game, share_books
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import run_turn
from sheets_bridge.stage_common import open_backend
from tests.bridge.backend_games import GoogleGame
from tests.bridge.test_gsheets_gm_login import GM, google, login_in_browser  # noqa: F401  (the fixture)
from tests.fake_google import FakeGoogle, fake_backend, gm_created_books

MAP_TAB, CHARTS_TAB = "Рисунок карты", "Графики"
LINK = re.compile(r"^https://drive\.google\.com/file/d/([^/]+)/view$")
BOT = "forumwar@pictures.iam.gserviceaccount.com"


def _links(fake: FakeGoogle, book: str, title: str) -> list[str]:
    """The Drive file ids linked from a picture tab (each link cell also carries the link format)."""
    sheet = fake.spreadsheet(book).sheet_by_title(title)
    assert sheet is not None, f"no tab {title}"
    ids = []
    for (_, _), cell in sorted(sheet.cells.items()):
        text = cell.get("userEnteredValue", {}).get("stringValue", "")
        match = LINK.match(text)
        if match:
            assert cell.get("userEnteredFormat", {}).get("textFormat", {}).get("link", {}).get("uri") == text
            ids.append(match[1])
    return ids


def _readers(fake: FakeGoogle, file_id: str) -> set[str]:
    perms = fake.files[file_id].permissions.values()
    assert not [p for p in perms if p["type"] in ("anyone", "domain")]       # never open to a link or a domain
    return {p["emailAddress"] for p in perms}


def _latest_pngs(gd: GameDir) -> dict[str, bytes]:
    folder = sorted((gd.path / "archive").glob("turn-*"))[-1]
    pngs = sorted(folder.glob("map-*.png"))
    stage = min(p.stem for p in pngs)          # map-STAGE.png is the shortest name of the stage
    return {p.stem[len(stage) + 1:] or "public": p.read_bytes() for p in pngs if p.stem.startswith(stage)}


@pytest.mark.parametrize("ruleset", ["jade_rose", pytest.param("titania", marks=pytest.mark.skipif(
    os.environ.get("FORUMWAR_FULL_TESTS") != "1",
    reason="make test-full: a minute of fake Google; the same flow runs on Jade Rose, Titania's books on xlsx"))])
def test_each_faction_sees_its_own_map_and_nobody_else_does(google, tmp_path, ruleset):  # noqa: F811
    """The GM signed in: after `new`, `share` and each stage, every faction book's «Рисунок карты» links to a
    PNG in the GM's Drive, equal to the archived map of that faction, readable by its players and the GMs
    only; the public map by every player; the charts by the GMs; the links stay from stage to stage."""
    login_in_browser(google)
    gd = create_game(tmp_path / "game", ruleset, "demo", backend="gsheets", seed="pictures")
    config = gd.config
    for faction in config.factions.values():
        for email in faction.players:
            google.add_user(email)
    be = open_backend(GameDir(gd.path))
    share_books(gd, be)
    everyone = {p for f in config.factions.values() for p in f.players}
    staff = {GM, *config.gm_emails}

    def check_stage() -> dict[str, str]:
        archived = _latest_pngs(gd)
        seen = {}
        for key, faction in config.factions.items():
            (file_id,) = _links(google, config.books[key], MAP_TAB)
            assert google.files[file_id].content == archived[key]
            assert _readers(google, file_id) == set(faction.players) | staff
            for other in everyone - set(faction.players):
                assert google.role_of(google.files[file_id], other) is None
            seen[key] = file_id
        (public,) = _links(google, config.books["public"], MAP_TAB)
        assert google.files[public].content == archived["public"] and _readers(google, public) == everyone | staff
        charts = _links(google, config.books["gm"], CHARTS_TAB)
        assert charts and all(_readers(google, c) == staff for c in charts)
        return seen

    first = check_stage()                       # the opening's pictures, readers set by `share`
    folder = {google.files[f].parents[0] for f in first.values()}
    assert len(folder) == 1 and google.files[folder.pop()].name == f"forumwar: рисунки — {config.title}"
    run_turn(gd, be=be)
    google.calls.clear()
    run_turn(gd, be=be)
    assert check_stage() == first               # the same files, updated in place: the links never change
    for key in config.factions:                  # the stage's own two writes only: no Sheets write for a picture
        assert google.count("spreadsheets.batchUpdate", file_id=config.books[key]) <= 2
    assert [p for s in google.sent if s.bridge for p in s.problems] == []


def test_a_service_account_in_a_shared_drive_keeps_the_pictures_there(tmp_path, monkeypatch):
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "cache"))
    fake = FakeGoogle()
    fake.add_user(GM)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})

    def factory(gd: GameDir):
        return fake_backend(fake, BOT, gm_emails=[GM], folder_id=folder, metadata_path=gd.state_dir / "m.json")

    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", seed="drive", backend_factory=factory)
    (file_id,) = _links(fake, gd.config.books["empire"], MAP_TAB)
    picture = fake.files[file_id]
    assert picture.drive_id == folder and fake.files[picture.parents[0]].parents == [folder]
    assert picture.content == _latest_pngs(gd)["empire"]


def test_without_a_drive_to_keep_them_the_pictures_stay_in_the_archive_and_the_gm_is_told(tmp_path, monkeypatch):
    """A service account with books the GM made by hand has no Drive storage: the stage goes on, its
    pictures are archived, and the GM reads why and what to do."""
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "cache"))
    fake = FakeGoogle()
    from engine import find_ruleset
    from sheets_bridge.scenarios import load_scenario
    keys = [*load_scenario(find_ruleset("jade_rose"), "demo").data["factions"], "public", "gm"]
    books = gm_created_books(fake, GM, BOT, {key: [] for key in keys})
    said: list[str] = []

    def factory(gd: GameDir):
        return fake_backend(fake, BOT, gm_emails=[GM], metadata_path=gd.state_dir / "m.json")

    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", seed="none", book_ids=books,
                     backend_factory=factory, progress=lambda step: said.append(str(step)))
    assert _latest_pngs(gd)                                    # archived all the same
    told = [s for s in said if "не может хранить рисунки" in s]
    assert len(told) == 1 and "forumwar login" in told[0] and "archive/" in told[0]
    assert fake.spreadsheet(books["empire"]).sheet_by_title(MAP_TAB) is None


# -- issue 39 §1: a stage's pictures go up together, their readers listed once a stage ------------------------

class _Spy:
    """Every request the fake answers, with whether it came as a call of a Drive batch."""

    def __init__(self, game: GoogleGame):
        self.seen: list[tuple[str, str, bool]] = []      # (method, url, in a batch)
        handle = game.fake.handle

        def spied(method: str, url: str, headers: Any, body: Any, *, part: bool = False) -> Any:
            self.seen.append((method, url, part))
            return handle(method, url, headers, body, part=part)
        game.fake.handle = spied  # type: ignore[method-assign]


def test_a_stage_lists_the_pictures_readers_once_in_one_batch_call(tmp_path):
    game = GoogleGame(tmp_path / "game", seed="turn-costs-pictures")
    known = dict(game.be._pictures)          # the opening of `new` made every picture file
    files = {key[3:]: book for key, book in known.items() if key.startswith("of:")}
    assert len(files) >= 5 and set(files.values()) == set(game.gd.config.books.values())
    spy = _Spy(game)
    run_turn(game.gd, be=game.be)
    listed = [url.split("/files/", 1)[1].split("/", 1)[0] for method, url, _ in spy.seen
              if method == "GET" and "/permissions" in url.split("?", 1)[0]]
    assert sorted(listed) == sorted({*files, *files.values()})      # every picture file and book: once
    alone = [url for method, url, part in spy.seen if method == "GET" and "/permissions" in url and not part]
    assert alone == []
    batches = [url for method, url, part in spy.seen if "/batch/drive/v3" in url]
    assert len(batches) == 1
    uploads = [url.split("/files/", 1)[1].split("?", 1)[0] for method, url, _ in spy.seen
               if method == "PATCH" and "/upload/drive/v3/files/" in url]
    assert len(uploads) == len(set(uploads)) >= len(game.gd.config.factions) + 1 and set(uploads) <= set(files)


def test_the_pictures_of_a_book_go_up_together(tmp_path):
    game = GoogleGame(tmp_path / "game", seed="turn-costs-together")
    gm = game.gd.config.books["gm"]
    charts = sorted(key for key, book in game.be._pictures.items() if key.startswith("of:") and book == gm)
    assert len(charts) >= 3
    together = game.fake.gather("drive.files.update", len(charts), timeout=30.0)
    with game.be.sending_pictures():
        game.be.put_pictures(gm, CHARTS_TAB, [b"png %d" % n for n in range(len(charts))], "графики")
    assert together.met, "the pictures went up one after another"
    assert sorted(game.fake.files[key[3:]].content for key in charts) == [b"png %d" % n for n in range(len(charts))]
