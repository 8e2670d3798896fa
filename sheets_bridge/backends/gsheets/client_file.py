"""The OAuth client `forumwar login` signs in with: the GM's own client file, or the one a distribution ships.

The GM's own file comes first (`--client`, $FORUMWAR_OAUTH_CLIENT, client_secret.json in the current
folder); without one, the client shipped inside the installed package (`client/oauth_client.json`, absent
in the source repository: a distribution drops its own in, see docs/google_access.md) is used. A client of
type «Desktop app» holds no secret in Google's sense: Google's own installed-app guide has it shipped inside
the program, as rclone ships its client.
"""
from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import Any

from sheets_bridge.backends.base import BackendError
from sheets_bridge.backends.gsheets.auth import SETUP_DOC

CLIENT_ENV = "FORUMWAR_OAUTH_CLIENT"
DEFAULT_CLIENT = "client_secret.json"
SHIPPED_CLIENT = ("client", "oauth_client.json")    # beside this module, inside the installed package
CLIENT_STEPS = ("«API и сервисы → Учётные данные» (APIs & Services → Credentials) → «Создать учётные данные → "
                "Идентификатор клиента OAuth» (Create credentials → OAuth client ID), тип «Приложение для ПК» "
                "(Desktop app) → «Скачать JSON» (Download JSON)")


class LoginError(BackendError):
    """Signing in did not complete: the Russian message says why and what to do."""


def shipped_client() -> Path | None:
    """The OAuth client file a distribution of forumwar ships inside the package, or None (this repository)."""
    found = resources.files("sheets_bridge.backends.gsheets").joinpath(*SHIPPED_CLIENT)
    path = Path(str(found))
    return path if path.is_file() else None


def client_path(given: str | Path | None = None) -> Path:
    """The OAuth client file: `given`, else $FORUMWAR_OAUTH_CLIENT, else client_secret.json here when it exists,
    else the client shipped in the package, else client_secret.json (the name the error then names)."""
    if given or os.environ.get(CLIENT_ENV):
        return Path(given or os.environ[CLIENT_ENV])
    local = Path(DEFAULT_CLIENT)
    if local.is_file():
        return local
    return shipped_client() or local


def load_client(path: Path) -> dict[str, Any]:
    """The client file's configuration (its "installed" part kept whole); LoginError for every usual mistake."""
    if not path.is_file():
        raise LoginError(
            f"Нет файла клиента OAuth: {path}. В этой сборке forumwar своего клиента нет, поэтому нужен ваш: "
            f"создайте его в Google Cloud Console: {CLIENT_STEPS}, и укажите скачанный файл: "
            f"`forumwar login --client ФАЙЛ` (или в переменной {CLIENT_ENV}). По шагам — в {SETUP_DOC}, "
            "«Вход мастера».")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise LoginError(f"{path} — не JSON клиента OAuth. Скачайте его заново: {CLIENT_STEPS}.") from None
    if isinstance(info, dict) and info.get("type") == "service_account":
        raise LoginError(
            f"{path} — ключ сервисного аккаунта, а для входа мастера нужен клиент OAuth. Ключ сервисного аккаунта "
            "кладут в credentials.json игры с [google] identity = \"service_account\"; клиент OAuth создают так: "
            f"{CLIENT_STEPS}.")
    if isinstance(info, dict) and "web" in info:
        raise LoginError(
            f"{path} — клиент OAuth типа «Веб-приложение» (Web application), а forumwar нужен тип «Приложение для "
            f"ПК» (Desktop app): только он возвращает вход на этот компьютер. Создайте такой клиент: {CLIENT_STEPS}.")
    installed = info.get("installed") if isinstance(info, dict) else None
    if not isinstance(installed, dict) or not all(installed.get(k) for k in ("client_id", "client_secret",
                                                                              "auth_uri", "token_uri")):
        raise LoginError(f"{path} — не файл клиента OAuth (нет раздела installed с client_id, client_secret, "
                         f"auth_uri и token_uri). Скачайте его заново: {CLIENT_STEPS}.")
    return {"installed": installed}


def client_of_login(credentials: dict[str, Any]) -> dict[str, Any]:
    """The client configuration a kept login was made with (its token file names it), to ask the same client
    for more access."""
    return {"installed": {"client_id": credentials["client_id"], "client_secret": credentials["client_secret"],
                          "auth_uri": "https://accounts.google.com/o/oauth2/auth",
                          "token_uri": credentials.get("token_uri") or "https://oauth2.googleapis.com/token"}}


__all__ = ["LoginError", "CLIENT_ENV", "CLIENT_STEPS", "client_path", "load_client", "shipped_client",
           "client_of_login"]
