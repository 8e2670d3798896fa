"""Issue 8 item 6: right after `new` and `share` (the documented order: people are put into
game.toml after `new`), each faction's players and the GMs can type in exactly their open order
tabs, and nothing else; not only after the first `turn`s."""
from __future__ import annotations

import pytest
from gspread.exceptions import APIError

from sheets_bridge.create import create_game, share_books
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout
from sheets_bridge.stage import check
from tests.fake_google import PROTECTED_MESSAGE, FakeGoogle, fake_backend, fake_client

GM = "gm@example.com"
BOT = "forumwar@first-day.iam.gserviceaccount.com"
ALICE, BORIS = "alice@example.com", "boris@example.com"      # empire, dwarves


def _title(key: str) -> str:
    return next(t.title for t in Layout.load("jade_rose").order_tabs() if t.key == key)


@pytest.fixture
def game(tmp_path):
    """`forumwar new` in a shared-drive folder, then the GM puts the people into game.toml."""
    fake = FakeGoogle()
    for person in (GM, ALICE, BORIS):
        fake.add_user(person)
    folder = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})

    def backend(gd: GameDir):
        return fake_backend(fake, BOT, gm_emails=gd.config.gm_emails, folder_id=folder,
                            metadata_path=gd.state_dir / "gsheets-meta.json")

    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", seed="first-day",
                     backend_factory=backend)
    config = gd.config
    config.gm_emails = [GM]
    config.factions["empire"].players = [ALICE]
    config.factions["dwarves"].players = [BORIS]
    gd.save_config()
    gd = GameDir(gd.path)                      # a new command reads the edited game.toml
    return fake, gd, backend


def _type(fake: FakeGoogle, who: str, book: str, cell: str, value: str) -> None:
    """What a person does in the browser: type one value into one cell."""
    fake_client(fake, who).open_by_key(book).values_update(
        cell, params={"valueInputOption": "USER_ENTERED"}, body={"values": [[value]]})


def test_after_new_and_share_a_player_types_orders_in_their_own_book(game):
    fake, gd, backend = game
    share_books(gd, backend(gd))
    economy = _title("economy")
    _type(fake, ALICE, gd.config.books["empire"], f"'{economy}'!A2", "Построить")
    cells = fake_client(fake, GM).open_by_key(gd.config.books["empire"]).values_get(f"'{economy}'!A2")
    assert cells["values"] == [["Построить"]]


def test_after_share_the_gm_types_in_every_faction_order_tab(game):
    fake, gd, backend = game
    share_books(gd, backend(gd))
    for key in gd.config.factions:
        _type(fake, GM, gd.config.books[key], f"'{_title('economy')}'!A2", "Нанять")


def test_after_share_a_player_is_refused_in_another_factions_book(game):
    fake, gd, backend = game
    share_books(gd, backend(gd))
    with pytest.raises(PermissionError):      # gspread's name for Google's 403 on open
        _type(fake, ALICE, gd.config.books["dwarves"], f"'{_title('economy')}'!A2", "Построить")
    assert fake.count(identity=ALICE, status=403) == 1


@pytest.mark.parametrize("where", ["'Сводка'!A2", "status column", "header"])
def test_after_share_a_player_is_refused_outside_the_open_cells_of_their_order_tabs(game, where):
    fake, gd, backend = game
    share_books(gd, backend(gd))
    economy = Layout.load("jade_rose").books["faction"].tabs
    tab = next(t for t in economy if t.key == "economy")
    status = "ABCDEFGHIJ"[tab.status_index]
    cell = {"status column": f"'{tab.title}'!{status}2", "header": f"'{tab.title}'!A1"}.get(where, where)
    with pytest.raises(APIError) as excinfo:
        _type(fake, ALICE, gd.config.books["empire"], cell, "взлом")
    assert excinfo.value.code == 400 and excinfo.value.error["message"] == PROTECTED_MESSAGE


def test_after_share_the_next_stages_order_tabs_stay_closed(game):
    fake, gd, backend = game
    share_books(gd, backend(gd))
    with pytest.raises(APIError) as excinfo:
        _type(fake, ALICE, gd.config.books["empire"], f"'{_title('manoeuvres')}'!A2", "Атака")
    assert excinfo.value.error["message"] == PROTECTED_MESSAGE


def test_share_changes_protections_only_and_check_keeps_them(game):
    fake, gd, backend = game
    book = gd.config.books["empire"]
    before = {s.title: dict(s.cells) for s in fake.spreadsheet(book).sheets}
    be = backend(gd)
    share_books(gd, be)
    assert {s.title: dict(s.cells) for s in fake.spreadsheet(book).sheets} == before    # no cell touched
    check(gd, be=be)
    _type(fake, ALICE, book, f"'{_title('economy')}'!B3", "Столица")


def test_share_costs_one_write_per_book(game):
    fake, gd, backend = game
    be = backend(gd)
    fake.calls.clear()
    share_books(gd, be)
    for key, book in gd.config.books.items():
        assert fake.count("spreadsheets.batchUpdate", file_id=book) == 1, key


def test_after_share_a_player_types_down_to_the_row_limit_and_not_below(game):
    """Issue 8 item 5: «order tabs have a documented row limit»; the open cells end with it, so a
    player cannot leave a far stray cell below it (here the GM has added rows to the tab)."""
    fake, gd, backend = game
    share_books(gd, backend(gd))
    tab = next(t for t in Layout.load("jade_rose").order_tabs() if t.key == "economy")
    book = gd.config.books["empire"]
    fake_client(fake, GM).open_by_key(book).worksheet(tab.title).add_rows(1000)
    last = tab.rows + 1                                     # the header, then `rows` order rows
    _type(fake, ALICE, book, f"'{tab.title}'!A{last}", "Построить")
    for cell in (f"A{last + 1}", f"B{last + 500}"):
        with pytest.raises(APIError) as excinfo:
            _type(fake, ALICE, book, f"'{tab.title}'!{cell}", "Построить")
        assert excinfo.value.code == 400 and excinfo.value.error["message"] == PROTECTED_MESSAGE


def test_share_prints_each_books_link_and_the_gm_book_lists_them(game):
    """Issue 39 §2: the GM gets every book's link from `share`, and finds them in the GM book's «Фракции»."""
    from sheets_bridge.backends.gsheets.auth import book_url
    from sheets_bridge.commands.links import links_text
    from sheets_bridge.render import LINKS_LABEL
    fake, gd, backend = game
    be = backend(gd)
    share_books(gd, be)
    text = links_text(gd, be, notified=False)
    for key, faction in gd.config.factions.items():
        line = next(line for line in text.splitlines() if line.strip().startswith(faction.name))
        assert line.endswith(book_url(gd.config.books[key])), line
    assert f"({ALICE})" in text and "«Доступные мне»" in text and "share --notify" in text
    check(gd, be=be)                   # a push of the books: the GM book's «Фракции» lists the links
    rows = fake_client(fake, GM).open_by_key(gd.config.books["gm"]).worksheet("Фракции").get_all_values()
    at = next(i for i, row in enumerate(rows) if row[0] == LINKS_LABEL)
    listed = {row[0]: row[-1] for row in rows[at + 1:] if row[0]}
    assert listed == {**{f.name: book_url(gd.config.books[k]) for k, f in gd.config.factions.items()},
                      "Общая книга": book_url(gd.config.books["public"])}


def test_an_xlsx_game_has_no_links_to_print(tmp_path):
    from sheets_bridge.commands.links import links_text
    from sheets_bridge.stage_common import open_backend
    gd = create_game(tmp_path / "game", "jade_rose", "demo", seed="links")
    assert links_text(gd, open_backend(gd), notified=False) == ""


def _steps(heading: str) -> list[str]:
    """The numbered steps of docs/google_access.md under `<!-- steps: heading -->`."""
    import re

    from tests.paths import REPO
    text = (REPO / "docs" / "google_access.md").read_text(encoding="utf-8")
    block = text.split(f"<!-- steps: {heading} -->", 1)[1].split("<!-- /steps -->", 1)[0]
    return re.findall(r"^\d+\. ", block, flags=re.M)


def test_the_gm_goes_from_zero_to_turn_one_in_the_documented_steps():
    """Issue 39 §2: at most 6 steps with a shipped client, 12 with the GM's own (14 before); the shipped path's
    steps are played through in test_gsheets_least_access (login with the shipped client, new, share)."""
    assert len(_steps("shipped")) == 6
    assert len(_steps("own client")) == 12
