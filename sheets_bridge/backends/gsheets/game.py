"""The gsheets backend of a game: opening it from a service-account key, and sharing a game's books.

`open_gsheets_backend` builds the backend over gspread with the resilient HTTP client, whose
pacing budget is kept in a small locked file per service account (`gsheets_http.quota_file`),
so every forumwar command of the machine shares it. `backend_for_game` takes the books, GMs and
metadata file from a game directory.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import gspread

from sheets_bridge.backends.base import BookRef
from sheets_bridge.backends.gsheets.auth import ServiceAccount, load_service_account
from sheets_bridge.backends.gsheets.backend import MAX_WORKERS, GSheetsBackend
from sheets_bridge.backends.gsheets.http import RequestPacer, RetryPolicy, http_client_factory, quota_file

_DEFAULT_POLICY = RetryPolicy()


def open_gsheets_backend(credentials_path: str | Path, *, gm_emails: Iterable[str] = (),
                         folder_id: str | None = None, books: Iterable[BookRef] = (),
                         metadata_path: str | Path | None = None, policy: RetryPolicy = _DEFAULT_POLICY,
                         max_workers: int = MAX_WORKERS) -> GSheetsBackend:
    """The backend for a real game: credentials from a service-account key file (see google_auth)."""
    account: ServiceAccount = load_service_account(credentials_path)
    pacer = RequestPacer(path=quota_file(account.email))      # one budget for every command of the machine
    client = gspread.Client(auth=account.credentials, http_client=http_client_factory(policy, pacer))
    return GSheetsBackend(client, account.email, gm_emails=gm_emails, folder_id=folder_id, books=books,
                          metadata_path=metadata_path, max_workers=max_workers)


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


def backend_for_game(gd: Any, credentials: str | Path | None = None, *,
                     folder_id: str | None = None) -> GSheetsBackend:
    """The gsheets backend of a game directory: books and GMs from game.toml, metadata cached in
    state/gsheets-meta.json, new books created in `folder_id` (or $FORUMWAR_DRIVE_FOLDER)."""
    config = gd.config
    books = [BookRef(key, book_id, book_label(config, key)) for key, book_id in config.books.items()]
    return open_gsheets_backend(credentials_path(gd.path, credentials), gm_emails=config.gm_emails,
                                folder_id=folder_id or os.environ.get(FOLDER_ENV) or None, books=books,
                                metadata_path=Path(gd.state_dir) / METADATA_FILE)


__all__ = ["open_gsheets_backend", "backend_for_game", "credentials_path", "book_label",
           "CREDENTIALS_ENV", "FOLDER_ENV", "METADATA_FILE"]
