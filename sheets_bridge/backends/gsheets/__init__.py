"""Google Sheets books through gspread: the service account, the HTTP client, sharing a game."""
from __future__ import annotations

from sheets_bridge.backends.base import Backend, BackendKind
from sheets_bridge.gamedir import GameDir


class GSheetsKind(BackendKind):
    name = "gsheets"
    books_text = "Google-таблицы"
    adopts_books = True
    cron_notes = ("# Google-таблицам нужен ключ сервисного аккаунта: впишите строку",
                  "# FORUMWAR_CREDENTIALS=/полный/путь/к/credentials.json")

    def open(self, gd: GameDir, credentials: str | None = None, folder_id: str | None = None) -> Backend:
        from sheets_bridge.backends.gsheets.game import backend_for_game  # gspread loads only here
        return backend_for_game(gd, credentials, folder_id=folder_id)


KIND = GSheetsKind()
