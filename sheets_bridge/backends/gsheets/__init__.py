"""Google Sheets books through gspread: the identity (a service account or the GM signed in), the HTTP
client, sharing a game. Its settings are game.toml's [google] table (settings.py); its commands are `login`
and `logout` (commands.py); `new` and `share` take its options --credentials, --folder and --identity."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import click

from sheets_bridge.backends.base import Backend, BackendKind, BackendOptions
from sheets_bridge.backends.gsheets import settings as google
from sheets_bridge.backends.gsheets.settings import GoogleSettings
from sheets_bridge.gameconfig import GameConfig
from sheets_bridge.gamedir import GameDir

_CREDENTIALS_HELP = ("gsheets: файл ключа сервисного аккаунта (по умолчанию — $FORUMWAR_CREDENTIALS или "
                     "credentials.json).")


class GSheetsKind(BackendKind[GoogleSettings]):
    name = "gsheets"
    books_text = "Google-таблицы"
    adopts_books = True
    cron_notes = ("# Google-таблицам нужен ключ сервисного аккаунта: впишите строку",
                  "# FORUMWAR_CREDENTIALS=/полный/путь/к/credentials.json",
                  "# (игре от аккаунта мастера — вход forumwar login того же пользователя, от чьего имени идёт cron)")

    def backend_class(self) -> type[Backend]:
        from sheets_bridge.backends.gsheets.backend import GSheetsBackend  # gspread loads only here
        return GSheetsBackend

    def settings(self, table: Mapping[str, Any], options: BackendOptions) -> GoogleSettings:
        return google.read(table, options)

    def settings_problems(self, table: Any) -> list[str]:
        return google.problems(table)

    def command_options(self, command: str) -> list[click.Option]:
        credentials = click.Option(["--credentials"], default=None, type=click.Path(dir_okay=False),
                                   help=_CREDENTIALS_HELP)
        if command == "share":
            return [credentials]
        if command != "new":
            return []
        return [
            click.Option(["--folder"], default=None, metavar="ПАПКА",
                         help="gsheets: идентификатор папки общего диска, где создать недостающие книги."),
            credentials,
            click.Option(["--identity"], type=click.Choice(list(google.GOOGLE_IDENTITIES)[::-1]), default=None,
                         help="gsheets: от чьего имени работать с Google: gm — ваш аккаунт (сначала forumwar login; "
                              "книги создаются на вашем Google Диске), service_account — сервисный аккаунт (ключ "
                              "credentials.json). По умолчанию service_account, если указан ключ (--credentials "
                              "или $FORUMWAR_CREDENTIALS), иначе gm, если на этом компьютере выполнен вход."),
        ]

    def commands(self) -> list[click.Command]:
        from sheets_bridge.backends.gsheets.commands import login, logout
        return [login, logout]

    def open(self, gd: GameDir, settings: GoogleSettings) -> Backend:
        from sheets_bridge.backends.gsheets.game import backend_for_game  # gspread loads only here
        return backend_for_game(gd, settings)

    def prepare_access(self, settings: GoogleSettings, *, adopts: bool, echo: Callable[[str], None]) -> None:
        from sheets_bridge.backends.gsheets.game import access_for_new
        access_for_new(settings.credentials, settings.asked_identity, adopts=adopts, folder_id=settings.folder_id,
                       echo=echo)

    def configure_new(self, config: GameConfig, settings: GoogleSettings) -> None:
        from sheets_bridge.backends.gsheets.game import identity_for_new
        chosen, account = identity_for_new(settings.credentials, settings.asked_identity)
        config.set_backend_settings(google.table("gm" if chosen == "gm" else "service_account", account))

    def book_link(self, book_id: str) -> str:
        """A spreadsheet's address (base.LinksBooks): the GM book lists the factions' books by it."""
        from sheets_bridge.backends.gsheets.auth import book_url
        return book_url(book_id)

    def identity_text(self, config: GameConfig) -> str | None:
        chosen = google.read(config.backend_settings, {})
        who = (f"аккаунт мастера {chosen.account} (вход forumwar login)" if chosen.identity == "gm"
               else "сервисный аккаунт (ключ credentials.json)")
        return f"С Google игра работает от имени: {who} (game.toml, раздел [google])."


KIND = GSheetsKind()
