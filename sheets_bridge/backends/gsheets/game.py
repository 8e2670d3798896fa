"""The gsheets backend of a game: opening it as the identity game.toml names, and choosing it for a new game.

`backend_for_account` builds the backend over gspread with the resilient HTTP client, whose pacing
budget is kept in a small locked file per account (`http.quota_file`), so every forumwar command of
the machine shares it. `backend_for_game` takes the identity (`[google] identity`: the service
account's key or the GM's `forumwar login`), the books, GMs and metadata file from a game directory.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import gspread

from sheets_bridge.backends.base import BookRef
from sheets_bridge.backends.gsheets.accounts import GoogleAccount
from sheets_bridge.backends.gsheets.auth import SETUP_DOC, CredentialsError, load_service_account
from sheets_bridge.backends.gsheets.backend import MAX_WORKERS, GSheetsBackend
from sheets_bridge.backends.gsheets.http import RequestPacer, RetryPolicy, http_client_factory, quota_file
from sheets_bridge.backends.gsheets.settings import GoogleSettings

_DEFAULT_POLICY = RetryPolicy()


def open_gsheets_backend(credentials_path: str | Path, *, gm_emails: Iterable[str] = (),
                         folder_id: str | None = None, books: Iterable[BookRef] = (),
                         metadata_path: str | Path | None = None, policy: RetryPolicy = _DEFAULT_POLICY,
                         max_workers: int = MAX_WORKERS) -> GSheetsBackend:
    """The backend for a real game as its service account: the key file's credentials (see auth)."""
    return backend_for_account(load_service_account(credentials_path).account, gm_emails=gm_emails,
                               folder_id=folder_id, books=books, metadata_path=metadata_path, policy=policy,
                               max_workers=max_workers)


def backend_for_account(account: GoogleAccount, *, gm_emails: Iterable[str] = (), folder_id: str | None = None,
                        books: Iterable[BookRef] = (), metadata_path: str | Path | None = None,
                        policy: RetryPolicy = _DEFAULT_POLICY, max_workers: int = MAX_WORKERS) -> GSheetsBackend:
    """The backend acting as `account` (a service account or the GM signed in)."""
    pacer = RequestPacer(path=quota_file(account.email))      # one budget for every command of the machine
    client = gspread.Client(auth=account.credentials, http_client=http_client_factory(policy, pacer))
    backend = GSheetsBackend(client, account.email, identity=account.who.identity, gm_emails=gm_emails,
                             folder_id=folder_id, books=books, metadata_path=metadata_path, max_workers=max_workers)
    backend.who = account.who         # with what the login reaches (messages name `login --all-files` when due)
    return backend


CREDENTIALS_ENV = "FORUMWAR_CREDENTIALS"
FOLDER_ENV = "FORUMWAR_DRIVE_FOLDER"
METADATA_FILE = "gsheets-meta.json"


def credentials_path(game_path: str | Path | None = None, given: str | Path | None = None) -> Path:
    """Where the key is: `given`, else $FORUMWAR_CREDENTIALS, else credentials.json in the game
    directory, else credentials.json in the current directory (the one named in errors)."""
    candidates = [Path(p) for p in (given, os.environ.get(CREDENTIALS_ENV)) if p]
    if candidates:
        return candidates[0]
    local = [Path(game_path) / "credentials.json"] if game_path else []
    for path in (*local, Path("credentials.json")):
        if path.is_file():
            return path
    return Path("credentials.json")


def book_label(config: Any, key: str) -> str:
    """A book's label for messages: the faction's name, «общая книга» or «книга мастера»."""
    factions = getattr(config, "factions", {}) or {}
    if key in factions:
        return f"{factions[key].name}"
    return {"gm": "книга мастера", "public": "общая книга"}.get(key, key)


def backend_for_game(gd: Any, settings: GoogleSettings) -> GSheetsBackend:
    """The gsheets backend of a game directory: books and GMs from game.toml, who forumwar is from its [google]
    table (`settings`), metadata cached in state/gsheets-meta.json, new books created in the settings' folder (or
    $FORUMWAR_DRIVE_FOLDER)."""
    config = gd.config
    credentials, folder_id = settings.credentials, settings.folder_id
    books = [BookRef(key, book_id, book_label(config, key)) for key, book_id in config.books.items()]
    if settings.identity == "gm":
        if credentials:
            raise CredentialsError(
                "Эта игра ведётся от аккаунта мастера (game.toml: [google] identity = \"gm\"), ключ сервисного "
                "аккаунта (--credentials) ей не нужен. Уберите --credentials или поменяйте identity в game.toml на "
                "\"service_account\".")
        from sheets_bridge.backends.gsheets.login import load_gm_account
        account = load_gm_account(settings.account)
    else:
        account = load_service_account(credentials_path(gd.path, credentials)).account
    return backend_for_account(account, gm_emails=config.gm_emails,
                               folder_id=folder_id or os.environ.get(FOLDER_ENV) or None, books=books,
                               metadata_path=Path(gd.state_dir) / METADATA_FILE)


def identity_for_new(credentials: str | None, identity: str | None) -> tuple[str, str]:
    """(identity, account) a new Google game records: the one asked for; else the service account when a
    key is named (--credentials, $FORUMWAR_CREDENTIALS), the GM when `forumwar login` was done on this
    computer, the service account otherwise."""
    from sheets_bridge.backends.gsheets.login import saved_login
    login = saved_login()
    if identity is None:
        given_key = credentials or os.environ.get(CREDENTIALS_ENV)
        identity = "gm" if login is not None and not given_key else "service_account"
    if identity == "gm":
        if login is None:
            raise CredentialsError(
                "Игра от аккаунта мастера (--identity gm) начинается со входа: выполните `forumwar login` "
                f"(см. {SETUP_DOC}, «Вход мастера») и затем `forumwar new` снова.")
        return "gm", login.account
    return "service_account", ""


def access_for_new(credentials: str | None, identity: str | None, *, adopts: bool, folder_id: str | None,
                   echo: Callable[[str], None]) -> None:
    """Before `new`: a game of the GM's login on books the GM made (`--book`) or in the GM's folder (`--folder`,
    $FORUMWAR_DRIVE_FOLDER) needs the whole Drive, which the least login lacks: Google is asked for it now,
    saying why (login.widen_access). Nothing for the service account, or for books forumwar makes itself."""
    if not (adopts or folder_id or os.environ.get(FOLDER_ENV)):
        return
    chosen, _ = identity_for_new(credentials, identity)
    if chosen == "gm":
        from sheets_bridge.backends.gsheets.login import widen_access
        widen_access(echo)


__all__ = ["open_gsheets_backend", "backend_for_account", "backend_for_game", "identity_for_new", "access_for_new",
           "credentials_path", "book_label",
           "CREDENTIALS_ENV", "FOLDER_ENV", "METADATA_FILE"]
