"""One Jade Rose game on either backend, typed into as players would: local xlsx books or Google
spreadsheets served by the fake (typed in the browser: USER_ENTERED)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from sheets_bridge.backends.base import Backend
from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.gamedir import GameDir
from tests import games
from tests.fake_google import FakeGoogle, fake_backend, fake_client

GM = "gm@example.com"
BOT = "forumwar@games.iam.gserviceaccount.com"
BACKENDS = ("xlsx", "gsheets")
PICTURE_TABS = ("Рисунок карты", "Графики")


class Game:
    """A new game of the demo scenario; `be` is the backend the bridge and the tests use."""

    gd: GameDir
    be: Backend

    def type_rows(self, fid: str, title: str, rows: list[tuple[str, ...]]) -> None:
        raise NotImplementedError

    def read(self, fid: str, titles: list[str]) -> dict[str, list[list[Any]]]:
        return dict(self.be.read_tabs(self.gd.config.books[fid], titles))

    def all_tabs(self, key: str) -> dict[str, list[list[Any]]]:
        """Every tab of a book but the pictures only xlsx books embed (the dropdown lists are never listed)."""
        book_id = self.gd.config.books[key]
        titles = [t for t in self.be.tab_titles(book_id) if t not in PICTURE_TABS]
        return dict(self.be.read_tabs(book_id, titles))


class XlsxGame(Game):
    def __init__(self, path: Path, seed: str):
        self.gd = games.new_game(path, seed=seed)
        self.be = XlsxBackend(self.gd.path)

    def type_rows(self, fid: str, title: str, rows: list[tuple[str, ...]]) -> None:
        fill_orders(self.gd.path / self.gd.config.books[fid], title, rows)


class GoogleGame(Game):
    def __init__(self, path: Path, seed: str):
        self.fake = FakeGoogle()
        self.fake.add_user(GM)
        folder = self.fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
        made: dict[str, Backend] = {}

        def factory(gd: GameDir) -> Backend:
            made["be"] = fake_backend(self.fake, BOT, gm_emails=[GM], folder_id=folder,
                                      metadata_path=gd.state_dir / "gsheets-meta.json")
            return made["be"]

        self.gd = create_game(path, "jade_rose", "demo", backend="gsheets", seed=seed, backend_factory=factory)
        self.be = made["be"]

    def type_rows(self, fid: str, title: str, rows: list[tuple[str, ...]]) -> None:
        book = fake_client(self.fake, GM).open_by_key(self.gd.config.books[fid])
        start = len(book.values_get(f"'{title}'").get("values", [])) + 1
        values = [[int(v) if v.isdigit() else v for v in row] for row in rows]
        book.values_update(f"'{title}'!A{start}", params={"valueInputOption": "USER_ENTERED"}, body={"values": values})


def new_game(backend: str, path: Path, seed: str) -> Game:
    return XlsxGame(path, seed) if backend == "xlsx" else GoogleGame(path, seed)
