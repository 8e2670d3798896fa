"""Signing in as the GM (`forumwar login`, `forumwar logout`): Google's installed-app OAuth flow, the kept token.

A GM with a plain Google account runs the game as themselves: the books are made in their own Drive. The
OAuth client («Desktop app») is the GM's own, from their Cloud project (docs/google_sheets.md). The token
is kept in the user's config folder (`config_dir`), readable only by the user, and saved again whenever
google-auth refreshes it. Every request goes through `http.routed`, where tests plug the fake Google in.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import webbrowser
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import click
import requests
from google.oauth2.credentials import Credentials

from sheets_bridge.atomic import atomic_write_bytes
from sheets_bridge.backends.base import BackendError
from sheets_bridge.backends.gsheets.accounts import GoogleAccount, Who
from sheets_bridge.backends.gsheets.auth import SCOPES, SETUP_DOC, CredentialsError
from sheets_bridge.backends.gsheets.http import authorized_session, routed

CONFIG_ENV = "FORUMWAR_CONFIG_DIR"
CLIENT_ENV = "FORUMWAR_OAUTH_CLIENT"
TOKEN_FILE = "google-login.json"
REVOKE_URI = "https://oauth2.googleapis.com/revoke"
ABOUT_URI = "https://www.googleapis.com/drive/v3/about"
PASTE_REDIRECT = "http://localhost:8085/"     # a desktop client may redirect to any loopback port
CLIENT_STEPS = ("«API и сервисы → Учётные данные» (APIs & Services → Credentials) → «Создать учётные данные → "
                "Идентификатор клиента OAuth» (Create credentials → OAuth client ID), тип «Приложение для ПК» "
                "(Desktop app) → «Скачать JSON» (Download JSON)")


class LoginError(BackendError):
    """Signing in did not complete: the Russian message says why and what to do."""


def config_dir() -> Path:
    """The user's forumwar folder: $FORUMWAR_CONFIG_DIR, else click's per-user config folder
    (%APPDATA%\\forumwar on Windows, ~/Library/Application Support/forumwar on macOS, ~/.config/forumwar)."""
    return Path(os.environ.get(CONFIG_ENV) or click.get_app_dir("forumwar"))


def token_path() -> Path:
    return config_dir() / TOKEN_FILE


# -- the OAuth client file -------------------------------------------------------------------------

def client_path(given: str | Path | None = None) -> Path:
    """The OAuth client file: `given`, else $FORUMWAR_OAUTH_CLIENT, else client_secret.json here."""
    return Path(given or os.environ.get(CLIENT_ENV) or "client_secret.json")


def load_client(path: Path) -> dict[str, Any]:
    """The client file's configuration (its "installed" part kept whole); LoginError for every usual mistake."""
    if not path.is_file():
        raise LoginError(
            f"Нет файла клиента OAuth: {path}. Создайте клиента в Google Cloud Console: {CLIENT_STEPS}, и укажите "
            f"скачанный файл: `forumwar login --client ФАЙЛ` (или в переменной {CLIENT_ENV}). По шагам — в "
            f"{SETUP_DOC}, «Вход мастера».")
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


# -- the kept token ----------------------------------------------------------------------------------

class KeptCredentials(Credentials):
    """The GM's credentials; after each refresh the new access token is saved to the token file."""

    keep_in: Path | None = None
    account: str = ""

    def refresh(self, request: Any) -> None:
        super().refresh(request)
        if self.keep_in is not None:
            save_token(self.keep_in, self.account, self)


@dataclass(frozen=True)
class SavedLogin:
    """What `forumwar login` left: the account and the file."""

    account: str
    path: Path
    saved: str


def save_token(path: Path, account: str, credentials: Credentials) -> None:
    """Write the token file, readable only by the user (rw-------; on Windows the per-user profile folder)."""
    data = {"account": account, "saved": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "credentials": json.loads(credentials.to_json())}
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write_bytes(path, json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8"), mode=0o600)


def saved_login(path: Path | None = None) -> SavedLogin | None:
    """The login kept on this computer, or None when there is none (or it cannot be read)."""
    path = path or token_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return SavedLogin(str(data["account"]), path, str(data.get("saved", "")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def load_gm_account(expected: str = "", path: Path | None = None) -> GoogleAccount:
    """The GM's signed-in account for a game; `expected` is the account game.toml names (if any)."""
    path = path or token_path()
    if not path.is_file():
        raise CredentialsError(
            "Эта игра ведётся от аккаунта мастера" + (f" {expected}" if expected else "") + ", а на этом "
            "компьютере вход в Google не выполнен. Выполните `forumwar login` (нужен файл клиента OAuth, см. "
            f"{SETUP_DOC}, «Вход мастера») и запустите команду снова.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        account = str(data["account"])
        credentials = KeptCredentials.from_authorized_user_info(data["credentials"], scopes=list(SCOPES))
    except (OSError, ValueError, KeyError, TypeError):
        raise CredentialsError(
            f"Файл входа {path} испорчен. Выполните `forumwar logout`, затем `forumwar login`.") from None
    if expected and account.lower() != expected.lower():
        raise CredentialsError(
            f"Игра ведётся от аккаунта мастера {expected} (game.toml, [google] account), а на этом компьютере "
            f"выполнен вход как {account}. Выполните `forumwar login` и войдите как {expected}.")
    credentials.keep_in = path
    credentials.account = account
    return GoogleAccount(Who(account, "gm"), credentials, str(path))


# -- signing in and out --------------------------------------------------------------------------------

PROMPT = ("Откройте в браузере эту ссылку, войдите в аккаунт Google мастера и разрешите forumwar доступ к "
          "таблицам и Диску:\n{url}")
SUCCESS = ("Вход выполнен: forumwar получил доступ. Это окно можно закрыть и вернуться в командную строку.")
PASTE_PROMPT = ("Откройте эту ссылку в браузере на любом устройстве, войдите в аккаунт Google мастера и "
                "разрешите доступ:\n{url}\nПосле этого браузер откроет адрес, начинающийся с "
                f"{PASTE_REDIRECT}, и скажет, что страница недоступна: так и должно быть. Скопируйте этот адрес "
                "из адресной строки целиком и вставьте его сюда.")


def sign_in(client_file: Path, *, browser: bool = True, paste: Callable[[str], str] | None = None,
            echo: Callable[[str], None] = print, browser_name: str | None = None,
            path: Path | None = None) -> SavedLogin:
    """Run Google's installed-app flow and keep the token. `browser`: a local page receives Google's answer
    (the browser is opened when one is found, the link is printed either way); otherwise `paste` asks the GM
    for the address Google sent the browser to (a machine without a browser)."""
    from google_auth_oauthlib.flow import InstalledAppFlow
    from oauthlib.oauth2.rfc6749.errors import OAuth2Error

    config = load_client(client_file)
    flow = InstalledAppFlow.from_client_config(config, scopes=list(SCOPES))
    routed(flow.oauth2session)
    os.environ.setdefault("OAUTHLIB_RELAX_TOKEN_SCOPE", "1")   # fewer scopes granted: checked below, in Russian
    try:
        if browser:
            opens = _browser_found(browser_name)
            if not opens:
                echo("Браузер на этом компьютере не найден: откройте ссылку ниже сами (или запустите "
                     "`forumwar login --no-browser`, чтобы войти с другого устройства).")
            credentials = flow.run_local_server(port=0, open_browser=opens, browser=browser_name,
                                                authorization_prompt_message=PROMPT, success_message=SUCCESS)
        else:
            if paste is None:
                raise LoginError("без браузера вход ждёт вставленный адрес, а спросить его не у кого")
            flow.redirect_uri = PASTE_REDIRECT
            url, state = flow.authorization_url(prompt="consent")
            credentials = _finish_pasted(flow, paste(PASTE_PROMPT.format(url=url)), state)
    except OAuth2Error as err:
        raise LoginError(_oauth_error_text(err)) from None
    except requests.RequestException as err:
        raise LoginError(f"Google не ответил при входе ({err.__class__.__name__}: {err}). Проверьте подключение к "
                         "интернету и выполните `forumwar login` снова.") from None
    missing = [scope for scope in SCOPES if scope not in (credentials.granted_scopes or credentials.scopes or ())]
    if missing:
        raise LoginError(
            "На экране согласия Google были сняты галочки доступа: forumwar нужны обе — к таблицам Google и к "
            "Google Диску (создать книги, выдать игрокам доступ, выгрузить xlsx). Выполните `forumwar login` снова "
            "и оставьте обе.")
    if not credentials.refresh_token:
        raise LoginError("Google не выдал постоянный вход (refresh token). Выполните `forumwar login` снова.")
    account = account_email(credentials)
    path = path or token_path()
    save_token(path, account, credentials)
    found = saved_login(path)
    assert found is not None
    return found


def _browser_found(name: str | None) -> bool:
    try:
        webbrowser.get(name)
    except webbrowser.Error:
        return False
    return True


def _finish_pasted(flow: Any, answer: str, state: str) -> Any:
    """Exchange the code of the pasted address (or of a pasted code alone) for the credentials."""
    answer = answer.strip()
    if answer.startswith(("http://", "https://", "localhost")):
        query = {k: v[0] for k, v in parse_qs(urlsplit(answer).query).items()}
        if query.get("error") == "access_denied":
            raise LoginError("Вы отказались дать forumwar доступ на экране Google. Чтобы вести игру от своего "
                             "аккаунта, выполните `forumwar login` снова и нажмите «Продолжить» (Continue).")
        if query.get("state") != state:
            raise LoginError("Вставлен адрес другого входа (не совпадает его state). Выполните `forumwar login` "
                             "снова и вставьте адрес из этого входа.")
        code = query.get("code", "")
    else:
        code = answer
    if not code:
        raise LoginError(f"В вставленном тексте нет кода входа. Нужен весь адрес из адресной строки, он начинается "
                         f"с {PASTE_REDIRECT}?state=…")
    flow.fetch_token(code=code)
    return flow.credentials


def _oauth_error_text(err: Any) -> str:
    error = str(getattr(err, "error", "") or "")
    details = str(getattr(err, "description", "") or err)
    if error in ("invalid_client", "unauthorized_client"):
        return (f"Google не знает этот клиент OAuth ({error}: {details}): его удалили или файл от другого проекта. "
                f"Скачайте файл клиента заново: {CLIENT_STEPS}.")
    if error == "access_denied":
        return ("Вы отказались дать forumwar доступ на экране Google. Выполните `forumwar login` снова и нажмите "
                "«Продолжить» (Continue).")
    return (f"Google не завершил вход ({error or err.__class__.__name__}: {details}). Выполните `forumwar login` "
            "снова; если ошибка повторится, сверьте настройки клиента OAuth с "
            f"{SETUP_DOC}, «Вход мастера».")


def account_email(credentials: Any) -> str:
    """The signed-in account's address, asked of Drive (about.get: the user)."""
    session = authorized_session(credentials)
    answer = session.get(ABOUT_URI, params={"fields": "user(emailAddress)"}, timeout=(10, 60))
    if answer.status_code != 200:
        raise LoginError(f"Вход выполнен, но Google Диск не ответил, чей это аккаунт (код {answer.status_code}: "
                         f"{answer.text[:200]}). Проверьте, что в проекте клиента OAuth включён Google Drive API "
                         f"(см. {SETUP_DOC}), и выполните `forumwar login` снова.")
    return str(answer.json()["user"]["emailAddress"])


def sign_out(path: Path | None = None) -> tuple[str | None, str]:
    """Revoke the kept login at Google and delete it: (the account, what happened, in Russian)."""
    path = path or token_path()
    login = saved_login(path)
    if login is None and not path.exists():
        return None, "На этом компьютере вход в Google не выполнен: выходить не из чего."
    revoked = ""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        token = data["credentials"].get("refresh_token") or data["credentials"].get("token")
        answer = routed(requests.Session()).post(REVOKE_URI, data={"token": token}, timeout=(10, 30))
        revoked = "" if answer.status_code in (200, 400) else f" (Google ответил {answer.status_code})"
    except (OSError, ValueError, KeyError, TypeError, AttributeError, requests.RequestException) as err:
        revoked = f" ({err.__class__.__name__})"
    path.unlink(missing_ok=True)
    who = login.account if login else None
    if revoked:
        return who, (f"Вход {who or ''} удалён с этого компьютера, но отозвать его у Google не удалось{revoked}. "
                     "Отзовите доступ forumwar сами: аккаунт Google → «Безопасность» → «Сторонние приложения и "
                     "сервисы».")
    return who, f"Вход {who or ''} удалён с этого компьютера и отозван у Google.".replace("  ", " ")
