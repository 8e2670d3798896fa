"""Google Sheets books through gspread: the identity (a service account or the GM signed in), the HTTP
client, sharing a game."""
from __future__ import annotations

from sheets_bridge.backends.base import Backend, BackendKind
from sheets_bridge.gameconfig import GameConfig
from sheets_bridge.gamedir import GameDir


class GSheetsKind(BackendKind):
    name = "gsheets"
    books_text = "Google-таблицы"
    adopts_books = True
    cron_notes = ("# Google-таблицам нужен ключ сервисного аккаунта: впишите строку",
                  "# FORUMWAR_CREDENTIALS=/полный/путь/к/credentials.json",
                  "# (игре от аккаунта мастера — вход forumwar login того же пользователя, от чьего имени идёт cron)")

    def open(self, gd: GameDir, credentials: str | None = None, folder_id: str | None = None) -> Backend:
        from sheets_bridge.backends.gsheets.game import backend_for_game  # gspread loads only here
        return backend_for_game(gd, credentials, folder_id=folder_id)

    def configure_new(self, config: GameConfig, credentials: str | None, identity: str | None) -> None:
        from sheets_bridge.backends.gsheets.game import identity_for_new
        chosen, account = identity_for_new(credentials, identity)
        config.google_identity = "gm" if chosen == "gm" else "service_account"
        config.google_account = account

    def book_link(self, book_id: str) -> str:
        """A spreadsheet's address (base.LinksBooks): the GM book lists the factions' books by it."""
        from sheets_bridge.backends.gsheets.auth import book_url
        return book_url(book_id)

    def identity_text(self, config: GameConfig) -> str | None:
        if config.google_identity == "gm":
            return f"аккаунт мастера {config.google_account} (вход forumwar login)"
        return "сервисный аккаунт (ключ credentials.json)"


KIND = GSheetsKind()
