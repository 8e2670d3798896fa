"""Signing in as the GM (`forumwar login`, `forumwar logout`): Google's installed-app OAuth flow, the kept token.

A GM with a plain Google account runs the game as themselves: the books are made in their own Drive. The
OAuth client («Desktop app») is the GM's own or the one a distribution ships (`client_file`). The login asks
for the least access: `drive.file`, the files forumwar makes itself; the whole Drive only when the GM's own
books or folder are to be used (`widen_access`, `login --all-files`); docs/google_access.md says why. The
token is kept in the user's config folder (`config_dir`), readable only by the user, and saved again whenever
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
from sheets_bridge.backends.gsheets.accounts import GoogleAccount, Who
from sheets_bridge.backends.gsheets.auth import (
    ACCESS_DOC,
    DRIVE_SCOPE,
    GM_SCOPES,
    SERVICE_ACCOUNT_SCOPES,
    SETUP_DOC,
    WHOLE_DRIVE_SCOPES,
    CredentialsError,
)
from sheets_bridge.backends.gsheets.client_file import (
    CLIENT_ENV,
    CLIENT_STEPS,
    LoginError,
    client_of_login,
    client_path,
    load_client,
)
from sheets_bridge.backends.gsheets.http import authorized_session, routed
from sheets_bridge.backends.gsheets.login_messages import oauth_error_text

CONFIG_ENV = "FORUMWAR_CONFIG_DIR"
TOKEN_FILE = "google-login.json"
REVOKE_URI = "https://oauth2.googleapis.com/revoke"
ABOUT_URI = "https://www.googleapis.com/drive/v3/about"
PASTE_REDIRECT = "http://localhost:8085/"     # a desktop client may redirect to any loopback port
LOGIN_TIMEOUT = 300.0                         # seconds `login` waits for Google's answer in the browser


def config_dir() -> Path:
    """The user's forumwar folder: $FORUMWAR_CONFIG_DIR, else click's per-user config folder
    (%APPDATA%\\forumwar on Windows, ~/Library/Application Support/forumwar on macOS, ~/.config/forumwar)."""
    return Path(os.environ.get(CONFIG_ENV) or click.get_app_dir("forumwar"))


def token_path() -> Path:
    return config_dir() / TOKEN_FILE


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
    """What `forumwar login` left: the account, the file, and the access Google granted."""

    account: str
    path: Path
    saved: str
    scopes: tuple[str, ...] = GM_SCOPES

    @property
    def whole_drive(self) -> bool:
        """Whether the login reaches every file of the GM's Drive (books the GM made by hand), not only forumwar's."""
        return DRIVE_SCOPE in self.scopes


def save_token(path: Path, account: str, credentials: Credentials, scopes: tuple[str, ...] = GM_SCOPES) -> None:
    """Write the token file, readable only by the user (rw-------; on Windows the per-user profile folder)."""
    data = {"account": account, "saved": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "scopes": list(scopes), "credentials": json.loads(credentials.to_json())}
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    atomic_write_bytes(path, json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8"), mode=0o600)


def _kept_scopes(data: dict[str, Any]) -> tuple[str, ...]:
    """The access a token file holds: as recorded; a login from before the least access held the service
    account's two scopes."""
    scopes = data.get("scopes") or data.get("credentials", {}).get("scopes") or SERVICE_ACCOUNT_SCOPES
    return tuple(str(s) for s in scopes)


def saved_login(path: Path | None = None) -> SavedLogin | None:
    """The login kept on this computer, or None when there is none (or it cannot be read)."""
    path = path or token_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return SavedLogin(str(data["account"]), path, str(data.get("saved", "")), _kept_scopes(data))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def load_gm_account(expected: str = "", path: Path | None = None) -> GoogleAccount:
    """The GM's signed-in account for a game; `expected` is the account game.toml names (if any)."""
    path = path or token_path()
    if not path.is_file():
        raise CredentialsError(
            "Эта игра ведётся от аккаунта мастера" + (f" {expected}" if expected else "") + ", а на этом "
            "компьютере вход в Google не выполнен. Выполните `forumwar login` (см. "
            f"{SETUP_DOC}, «Вход мастера») и запустите команду снова.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        account = str(data["account"])
        scopes = _kept_scopes(data)
        credentials = KeptCredentials.from_authorized_user_info(data["credentials"], scopes=list(scopes))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise CredentialsError(
            f"Файл входа {path} испорчен. Выполните `forumwar logout`, затем `forumwar login`.") from None
    if expected and account.lower() != expected.lower():
        raise CredentialsError(
            f"Игра ведётся от аккаунта мастера {expected} (game.toml, [google] account), а на этом компьютере "
            f"выполнен вход как {account}. Выполните `forumwar login` и войдите как {expected}.")
    credentials.keep_in = path
    credentials.account = account
    return GoogleAccount(Who(account, "gm", files_only=DRIVE_SCOPE not in scopes), credentials, str(path))


# -- signing in and out --------------------------------------------------------------------------------

PROMPT = ("Откройте в браузере эту ссылку, войдите в аккаунт Google мастера и разрешите forumwar доступ:\n{url}")
SUCCESS = ("Вход выполнен: forumwar получил доступ. Это окно можно закрыть и вернуться в командную строку.")
PASTE_PROMPT = ("Откройте эту ссылку в браузере на любом устройстве, войдите в аккаунт Google мастера и "
                "разрешите доступ:\n{url}\nПосле этого браузер откроет адрес, начинающийся с "
                f"{PASTE_REDIRECT}, и скажет, что страница недоступна: так и должно быть. Скопируйте этот адрес "
                "из адресной строки целиком и вставьте его сюда.")
WAITING = "Жду ответа Google из браузера (не дольше {minutes}). Ctrl+C — отменить."
WIDEN_WHY = ("Таблицы, созданные вами вручную (--book), или ваша папка (--folder): обычный вход открывает forumwar "
             "только файлы, которые forumwar создал сам, а чтобы открыть ваши, ему нужен доступ ко всему Google "
             "Диску. Google сейчас спросит об этом; forumwar и с ним работает только с книгами своих игр. "
             f"Почему так — в {ACCESS_DOC}.")


def sign_in(client_file: Path | None, *, browser: bool = True, paste: Callable[[str], str] | None = None,
            echo: Callable[[str], None] = print, browser_name: str | None = None,
            path: Path | None = None, scopes: tuple[str, ...] = GM_SCOPES, timeout: float | None = LOGIN_TIMEOUT,
            client: dict[str, Any] | None = None, account: str = "") -> SavedLogin:
    """Run Google's installed-app flow for `scopes` and keep the token. `browser`: a local page receives Google's
    answer (the browser is opened when one is found, the link is printed either way) for at most `timeout`
    seconds; otherwise `paste` asks the GM for the address Google sent the browser to (a machine without a
    browser). `client` (instead of `client_file`) and `account`: ask the client and the account of the kept
    login for more access, keeping what it was granted (Google's incremental authorization)."""
    from google_auth_oauthlib import flow as oauth_flow
    from oauthlib.oauth2.rfc6749.errors import OAuth2Error

    timed_out: type[Exception] = getattr(oauth_flow, "WSGITimeoutError", AttributeError)   # 1.2.1 named it
    config = client if client is not None else load_client(client_path(client_file))
    flow = oauth_flow.InstalledAppFlow.from_client_config(config, scopes=list(scopes))
    routed(flow.oauth2session)
    os.environ.setdefault("OAUTHLIB_RELAX_TOKEN_SCOPE", "1")   # fewer scopes granted: checked below, in Russian
    extra = {"include_granted_scopes": "true", **({"login_hint": account} if account else {})}
    try:
        if browser:
            opens = _browser_found(browser_name)
            if not opens:
                echo("Браузер на этом компьютере не найден: откройте ссылку ниже сами (или запустите "
                     "`forumwar login --no-browser`, чтобы войти с другого устройства).")
            if timeout is not None:
                echo(WAITING.format(minutes=_minutes(timeout)))
            credentials = flow.run_local_server(port=0, open_browser=opens, browser=browser_name,
                                                authorization_prompt_message=PROMPT, success_message=SUCCESS,
                                                timeout_seconds=timeout, prompt="consent", **extra)
        else:
            if paste is None:
                raise LoginError("без браузера вход ждёт вставленный адрес, а спросить его не у кого")
            flow.redirect_uri = PASTE_REDIRECT
            url, state = flow.authorization_url(prompt="consent", **extra)
            credentials = _finish_pasted(flow, paste(PASTE_PROMPT.format(url=url)), state)
    except OAuth2Error as err:
        raise LoginError(oauth_error_text(err)) from None
    except requests.RequestException:
        raise LoginError("Google не ответил при входе: нет связи с его серверами. Проверьте подключение к "
                         "интернету и выполните `forumwar login` снова.") from None
    except timed_out:               # no answer reached the local page in time
        raise LoginError(
            f"За {_minutes(timeout or 0)} Google так и не вернул вход на этот компьютер, и forumwar перестал ждать. "
            "Выполните `forumwar login` снова и завершите вход в открывшемся браузере (ждать дольше: --timeout "
            "МИНУТЫ); если браузер на другом устройстве — `forumwar login --no-browser`.") from None
    except OSError:
        raise LoginError("forumwar не смог принять ответ Google на этом компьютере: локальный адрес для входа "
                         "занят или запрещён. Выполните `forumwar login --no-browser` и вставьте адрес из "
                         "браузера.") from None
    granted = tuple(credentials.granted_scopes or credentials.scopes or ())
    missing = [scope for scope in scopes if scope not in granted]
    if missing:
        what = ("ко всему Google Диску" if DRIVE_SCOPE in missing
                else "к файлам, которые forumwar создаст на вашем Google Диске")
        raise LoginError(
            f"На экране согласия Google снята галочка доступа {what}: без неё forumwar не может вести игру. "
            "Выполните `forumwar login` снова и оставьте галочку.")
    if not credentials.refresh_token:
        raise LoginError("Google не выдал постоянный вход (refresh token). Выполните `forumwar login` снова.")
    email = account_email(credentials)
    if account and email.lower() != account.lower():
        raise LoginError(f"Доступ нужен аккаунту {account}, а в браузере вход выполнен как {email}. Выполните "
                         f"`forumwar login` снова и выберите в браузере {account}.")
    path = path or token_path()
    save_token(path, email, credentials, tuple(dict.fromkeys((*granted, *scopes))))
    found = saved_login(path)
    assert found is not None
    return found


def widen_access(echo: Callable[[str], None] = print, *, browser_name: str | None = None,
                 timeout: float | None = LOGIN_TIMEOUT, path: Path | None = None) -> SavedLogin:
    """Ask Google for the whole Drive for the kept login (same client, same account), saying why first; the
    login as it was when it has the whole Drive already."""
    path = path or token_path()
    login = saved_login(path)
    if login is None:
        raise LoginError("На этом компьютере вход в Google не выполнен: выполните `forumwar login --all-files`.")
    if login.whole_drive:
        return login
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))["credentials"]
        client = client_of_login(kept)
    except (OSError, ValueError, KeyError, TypeError):
        raise LoginError(f"Файл входа {path} испорчен. Выполните `forumwar logout`, затем `forumwar login "
                         "--all-files`.") from None
    echo(WIDEN_WHY)
    return sign_in(None, client=client, account=login.account, scopes=WHOLE_DRIVE_SCOPES, echo=echo,
                   browser_name=browser_name, timeout=timeout, path=path)


def _minutes(seconds: float) -> str:
    """«5 мин.» (the abbreviation reads right after «за» and «не дольше» alike); under a minute: «N с»."""
    return f"{round(seconds / 60)} мин." if seconds >= 60 else f"{max(1, round(seconds))} с"


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


def account_email(credentials: Any) -> str:
    """The signed-in account's address, asked of Drive (about.get: the user)."""
    session = authorized_session(credentials)
    answer = session.get(ABOUT_URI, params={"fields": "user(emailAddress)"}, timeout=(10, 60))
    if answer.status_code != 200:
        raise LoginError(f"Вход выполнен, но Google Диск не ответил, чей это аккаунт (код {answer.status_code}). "
                         f"Проверьте, что в проекте клиента OAuth включён Google Drive API (см. {SETUP_DOC}), и "
                         "выполните `forumwar login` снова.")
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
    except requests.RequestException:
        revoked = " (нет связи с Google)"
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        revoked = " (файл входа не читается)"
    path.unlink(missing_ok=True)
    who = login.account if login else None
    if revoked:
        return who, (f"Вход {who or ''} удалён с этого компьютера, но отозвать его у Google не удалось{revoked}. "
                     "Отзовите доступ forumwar сами: аккаунт Google → «Безопасность» → «Сторонние приложения и "
                     "сервисы».")
    return who, f"Вход {who or ''} удалён с этого компьютера и отозван у Google.".replace("  ", " ")


__all__ = ["LoginError", "SavedLogin", "CLIENT_ENV", "CLIENT_STEPS", "LOGIN_TIMEOUT", "client_path", "load_client",
           "config_dir", "token_path", "save_token", "saved_login", "load_gm_account", "sign_in", "widen_access",
           "sign_out", "account_email"]
