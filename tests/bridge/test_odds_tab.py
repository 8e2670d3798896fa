"""Issue 11 item 4: the «Симулятор» tab round trip through a faction book, on both backends — a player
types a hypothetical battle, `check` writes each row's status and the «Шансы» table in the same write as
the order statuses (one read and one write per book on Google), and the rows survive the next `turn`."""
from __future__ import annotations

from pathlib import Path

import pytest

from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check, run_turn
from tests.fake_google import FakeGoogle, fake_backend, fake_client
from tests.games import new_game

SEED = "odds-seed"
GM = "gm@example.com"
BOT = "forumwar@odds.iam.gserviceaccount.com"
ROWS = [("Атакуем", "", "Центр", "Авангард", "Копейщик", "10", "", ""),
        ("Атакуем", "", "Центр", "Арьергард", "Лучник", "6", "Обстрел", "Центральный авангард"),
        ("Противник", "Вампиры", "Центр", "Авангард", "Полукровка", "12", "", ""),
        ("Противник", "", "Лево", "Авангард", "Полукровка", "3", "", "")]


class Xlsx:
    def __init__(self, path: Path):
        self.gd = new_game(path, seed=SEED)
        self.be = XlsxBackend(self.gd.path)

    def type(self, fid: str, rows) -> None:
        fill_orders(self.gd.path / self.gd.config.books[fid], "Симулятор", rows)

    def read(self, fid: str, titles: list[str]) -> dict[str, list[list[str]]]:
        return self.be.read_tabs(self.gd.config.books[fid], titles)


class Google:
    def __init__(self, path: Path):
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        self.be = None

        def factory(gd: GameDir):
            self.be = fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=folder,
                                   metadata_path=gd.state_dir / "gsheets-meta.json")
            return self.be

        self.gd = create_game(path, "jade_rose", "demo", backend="gsheets", seed=SEED, backend_factory=factory)

    def type(self, fid: str, rows) -> None:
        book = fake_client(self.fake, GM).open_by_key(self.gd.config.books[fid])
        values = [[int(v) if v.isdigit() else v for v in row] for row in rows]
        book.values_update("'Симулятор'!A2", params={"valueInputOption": "USER_ENTERED"}, body={"values": values})

    def read(self, fid: str, titles: list[str]) -> dict[str, list[list[str]]]:
        return self.be.read_tabs(self.gd.config.books[fid], titles)


@pytest.fixture(params=[Xlsx, Google], ids=["xlsx", "gsheets"])
def game(request, tmp_path):
    return request.param(tmp_path / "game")


def _odds(tab: list[list[str]]) -> dict[str, str]:
    return {row[0]: row[1] for row in tab[1:] if row and row[0]}


def test_check_writes_the_odds_and_each_row_s_status_and_the_rows_survive_a_turn(game):
    before = game.read("empire", ["Шансы"])["Шансы"]
    assert "Опишите бой" in before[1][0], "a new book explains the simulator"
    game.type("empire", ROWS)
    if isinstance(game, Google):
        game.fake.calls.clear()
    check(game.gd, game.be)
    if isinstance(game, Google):
        empire = game.gd.config.books["empire"]
        mine = sorted(c.op for c in game.fake.calls if c.file_id == empire and not c.op.startswith("drive."))
        assert mine == ["spreadsheets.batchUpdate", "spreadsheets.get"], "one read, one write"
    tabs = game.read("empire", ["Симулятор", "Шансы"])
    sim, odds = tabs["Симулятор"], tabs["Шансы"]
    status = sim[0].index("Статус")
    assert [r[status] for r in sim[1:4]] == ["OK", "OK", "OK"]
    assert "Фланг «Лево» не распознан" in sim[4][status]
    got = _odds(odds)
    win = int(got["Наша победа"].rstrip(" %"))
    assert 0 <= win <= 100 and int(got["Победа противника"].rstrip(" %")) == 100 - win
    assert got["Не учтены строки"] == "5" and got["Наши потери: Копейщик"].endswith("из 10")
    check(game.gd, game.be)
    assert _odds(game.read("empire", ["Шансы"])["Шансы"]) == got, "the same rows give the same odds"
    run_turn(game.gd, game.be)
    after = game.read("empire", ["Симулятор"])["Симулятор"]
    assert [r[:6] for r in after[1:5]] == [[str(c) for c in row[:6]] for row in ROWS]


def test_other_faction_books_keep_the_explanation(game):
    game.type("empire", ROWS)
    check(game.gd, game.be)
    assert "Опишите бой" in game.read("vampires", ["Шансы"])["Шансы"][1][0]
