"""Service-account credentials for the gsheets backend, and clear errors for Google's failures.

Every message names the identity that failed (`accounts.Who`): the service account or the GM's own
account signed in with `forumwar login`, with the fix that fits it.

Messages are Russian (they go to the GM's console), name books as the GM knows them and always
say what to do next, naming the Cloud console's menus as its Russian version shows them.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheets_bridge.backends.base import BackendError, BookForbidden, BookNotFound
from sheets_bridge.backends.gsheets.accounts import GoogleAccount, Who

# Which scope each request needs is in docs/google_access.md (checked against Google's discovery documents).
SPREADSHEETS_SCOPE = "https://www.googleapis.com/auth/spreadsheets"
DRIVE_SCOPE = "https://www.googleapis.com/auth/drive"             # every file of the Drive: «restricted»
DRIVE_FILE_SCOPE = "https://www.googleapis.com/auth/drive.file"   # only the files forumwar made: «non-sensitive»
# The service account sees only what is shared with it, and opens books a GM made and shared: it keeps both.
SERVICE_ACCOUNT_SCOPES = (SPREADSHEETS_SCOPE, DRIVE_SCOPE)
SCOPES = SERVICE_ACCOUNT_SCOPES          # the name earlier code imports
# The GM signed in: every request forumwar sends takes drive.file on the files it created itself.
GM_SCOPES = (DRIVE_FILE_SCOPE,)
# A game on books the GM made by hand (`new --book`) or in the GM's own folder (`--folder`) needs the whole Drive.
WHOLE_DRIVE_SCOPES = (DRIVE_FILE_SCOPE, DRIVE_SCOPE)
PLACEHOLDER = "REPLACE_ME"
SETUP_DOC = "docs/google_sheets.md"
ACCESS_DOC = "docs/google_access.md"
_REQUIRED = ("client_email", "private_key", "token_uri")


class CredentialsError(BackendError):
    """credentials.json is missing, malformed, not a service-account key, or refused by Google."""


class DriveStorageError(BackendError):
    """The service account tried to create a file in its own Drive, which has no storage."""


class ApiDisabledError(BackendError):
    """The Sheets or Drive API is not enabled in the service account's Cloud project."""


class ApiUnavailableError(BackendError):
    """Google kept failing (429, 5xx, network) after every retry."""


class BookRejected(BackendError):
    """Google refused a request as invalid (400); nothing of it was applied."""


@dataclass(frozen=True)
class ServiceAccount:
    """A loaded service-account key: the e-mail to share books with, and the credentials."""

    email: str
    project_id: str
    credentials: Any
    path: str

    @property
    def account(self) -> GoogleAccount:
        return GoogleAccount(Who(self.email), self.credentials, self.path)


# The Cloud console's menus as its Russian version names them, the English once in brackets.
KEYS_STEPS = ("«IAM и администрирование → Сервисные аккаунты» (IAM & Admin → Service accounts), ваш аккаунт, "
              "вкладка «Ключи» (Keys) → «Добавить ключ → Создать новый ключ» (Add key → Create new key) → JSON → "
              "«Создать» (Create)")
LIBRARY_STEPS = "«API и сервисы → Библиотека» (APIs & Services → Library)"
_ACTIONS = {"read": "прочитать её", "open": "открыть её", "write": "обновить её", "create": "создать её",
            "share": "изменить доступ к ней", "export": "выгрузить её в xlsx",
            "protect": "обновить защиту её вкладок", "pictures": "положить рисунки карты для неё на Google Диск",
            "lock and read": "закрыть в ней вкладки приказов и прочитать их"}
_JSON_KINDS = {"list": "JSON-список", "str": "JSON-строка", "int": "JSON-число", "float": "JSON-число",
               "bool": "логическое значение JSON", "NoneType": "JSON-значение null"}


def book_url(book_id: str) -> str:
    return f"https://docs.google.com/spreadsheets/d/{book_id}/edit"


def action_phrase(action: str) -> str:
    """What forumwar was doing to a book, as Russian words after «пытался» (e.g. "прочитать её")."""
    return _ACTIONS.get(action, action)


def book_place(book: str, book_id: str | None) -> str:
    """The book as a message starts with it: its name for people, capitalised, and its link if known."""
    name = book[:1].upper() + book[1:]
    return f"{name} ({book_url(book_id)})" if book_id else name


def load_service_account(path: str | Path) -> ServiceAccount:
    """Read a service-account JSON key; every usual mistake raises CredentialsError saying what to do."""
    path = Path(path)
    if not path.is_file():
        raise CredentialsError(
            f"Нет файла с ключом сервисного аккаунта: {path}. Создайте ключ в Google Cloud Console: "
            f"{KEYS_STEPS}, и сохраните скачанный файл под этим именем (или укажите путь к нему в переменной "
            f"FORUMWAR_CREDENTIALS). По шагам это описано в {SETUP_DOC}. Ключ нельзя коммитить и выкладывать: "
            "credentials.json уже внесён в .gitignore.")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise CredentialsError(
            f"{path} — не текстовый файл, а ключ сервисного аккаунта — это текст в формате JSON. Скачайте ключ "
            f"заново: {KEYS_STEPS}.") from None
    except json.JSONDecodeError as err:
        raise CredentialsError(
            f"{path} — испорченный JSON (ошибка в строке {err.lineno}, столбце {err.colno}). Не правьте ключ "
            f"вручную, скачайте его заново: {KEYS_STEPS}.") from None
    if not isinstance(info, dict):
        what = _JSON_KINDS.get(type(info).__name__, f"JSON типа {type(info).__name__}")
        raise CredentialsError(
            f"{path} — не ключ сервисного аккаунта: в файле {what}, а ключ — это JSON-объект. Скачайте ключ "
            f"заново: {KEYS_STEPS}.")
    kind = info.get("type")
    if kind != "service_account":
        if "installed" in info or "web" in info:
            raise CredentialsError(
                f"В файле {path} клиент OAuth (OAuth client ID), а не ключ сервисного аккаунта. Клиент OAuth нужен, "
                f"чтобы вести игру от своего аккаунта Google: выполните `forumwar login --client {path}` и создайте "
                "игру заново с `--identity gm` (или впишите в game.toml раздел [google] с identity = \"gm\"). "
                f"Для сервисного аккаунта скачайте его ключ: {KEYS_STEPS}. Оба пути — в {SETUP_DOC}.")
        if kind == "authorized_user":
            what = "токен входа человека в его аккаунт (authorized_user)"
        else:
            what = f'JSON-объект с полем "type" = {kind!r}'
        raise CredentialsError(
            f"В файле {path} {what}, а не ключ сервисного аккаунта. forumwar нужен именно ключ сервисного "
            f"аккаунта; скачайте его: {KEYS_STEPS}. Подробнее — в {SETUP_DOC}, шаги 3 и 4.")
    missing = [key for key in _REQUIRED if not info.get(key)]
    if missing:
        fields = f"поля {missing[0]}" if len(missing) == 1 else f"полей {', '.join(missing)}"
        raise CredentialsError(
            f"В ключе сервисного аккаунта {path} нет {fields}: файл обрезан или исправлен вручную. Скачайте "
            f"новый ключ в Google Cloud Console: {KEYS_STEPS}.")
    if any(PLACEHOLDER in str(value) for value in info.values()):
        raise CredentialsError(
            f"{path} — это ещё образец credentials.example.json с заглушками {PLACEHOLDER}, а не настоящий ключ. "
            f"Замените весь файл ключом, скачанным в Google Cloud Console (см. {SETUP_DOC}, шаг 4).")
    from google.oauth2 import service_account
    try:
        credentials = service_account.Credentials.from_service_account_info(info, scopes=list(SERVICE_ACCOUNT_SCOPES))
    except (ValueError, TypeError, IndexError) as err:
        raise CredentialsError(
            f"Закрытый ключ (private_key) в {path} не читается ({err.__class__.__name__}: {err}). Не правьте "
            f"файл вручную, скачайте новый ключ в Google Cloud Console: {KEYS_STEPS}.") from None
    return ServiceAccount(info["client_email"], str(info.get("project_id", "")), credentials, str(path))


LOGIN_AGAIN = ("Выполните `forumwar login` снова и войдите этим аккаунтом. Чтобы вход не истекал через неделю, "
               f"переведите приложение на экране согласия OAuth в рабочий режим (см. {SETUP_DOC}, «Вход мастера»).")


def explain_refresh(err: Exception, who: Who) -> CredentialsError:
    """A refused token exchange (google.auth RefreshError) as a clear message for that identity."""
    reason = refresh_code(err)
    if who.is_gm:
        return CredentialsError(
            f"Google больше не принимает вход {who.genitive} (код Google: {reason}). Так бывает, когда доступ "
            "forumwar отозвали в настройках аккаунта Google («Безопасность → Сторонние приложения и сервисы»), "
            "сменили пароль, удалили клиент OAuth в Google Cloud Console, или прошли 7 дней, которые Google даёт "
            f"входу, пока приложение в режиме тестирования. {LOGIN_AGAIN}")
    return CredentialsError(
        f"Google не принял ключ {who.genitive} (код Google: {reason}). Скорее всего, ключ удалили или "
        "отключили в Google Cloud Console, или удалили сам аккаунт, или на этом компьютере неверно выставлены "
        f"часы. Проверьте часы, создайте новый ключ ({KEYS_STEPS}) и замените им credentials.json.")


def refresh_code(err: Exception) -> str:
    """Google's error code of a refused token exchange ("invalid_grant"), without its English description."""
    text = err.args[0] if err.args and isinstance(err.args[0], str) else str(err)
    code = text.split(":", 1)[0].strip()
    return code if code and " " not in code else "invalid_grant"


def _error_body(err: Any) -> dict[str, Any]:
    body = getattr(err, "error", None)
    return body if isinstance(body, dict) else {}


def _reasons(body: dict[str, Any]) -> set[str]:
    reasons = {str(item.get("reason", "")) for item in body.get("errors", []) if isinstance(item, dict)}
    for detail in body.get("details", []) or []:
        if isinstance(detail, dict) and detail.get("reason"):
            reasons.add(str(detail["reason"]))
    return reasons


RATE_LIMIT_REASONS = frozenset({"sharingRateLimitExceeded", "userRateLimitExceeded", "rateLimitExceeded"})


def rate_limit_message(reasons: set[str], where: str, who: Who, message: str) -> str:
    """Russian text for a rate-limit 403 that persisted through every retry (not a missing right);
    `where` is the book as `book_place` gives it."""
    if "sharingRateLimitExceeded" in reasons:
        return (f"{where}: Google временно не даёт {who.dative} выдавать доступ к таблицам — "
                "превышен лимит приглашений (sharingRateLimitExceeded). Права Редактора здесь ни при чём, менять "
                "ничего не нужно. Подождите (лимит снимается со временем, иногда через несколько часов) и "
                "запустите `forumwar share` снова: он выдаст только недостающие доступы. Письма-приглашения "
                f"расходуют этот лимит быстрее: не добавляйте --notify без нужды. Ответ Google: {message}")
    return (f"{where}: Google просит {who.nominative} отправлять запросы реже (лимит запросов: "
            f"{', '.join(sorted(reasons))}), и повторы не помогли. Подождите несколько минут и запустите команду "
            f"снова: она продолжит с того места, где остановилась. Ответ Google: {message}")


def explain(err: Any, *, book: str, book_id: str | None, who: Who, action: str) -> BackendError:
    """A gspread APIError (after retries) as the BackendError that tells the GM what to do.

    `book` names the book for people (e.g. "книга фракции «Империя»"), `action` is "read",
    "open", "write", "protect", "lock and read", "share", "create" or "export".
    """
    body = _error_body(err)
    code = int(body.get("code") or getattr(err, "code", 0) or 0)
    message = str(body.get("message", err))
    reasons = _reasons(body)
    where = book_place(book, book_id)
    doing = action_phrase(action)
    service_email = who.email
    share = f"нажмите «Настройки доступа» (Share), добавьте {service_email} с ролью «Редактор» (Editor)"
    if "SERVICE_DISABLED" in reasons or "accessNotConfigured" in reasons or "has not been used in project" in message:
        api = "Google Drive API" if "drive" in message.lower() else "Google Sheets API"
        project = (f"клиента OAuth, которым вошёл {who.nominative}," if who.is_gm else who.genitive)
        return ApiDisabledError(
            f"В проекте Google Cloud {project} не включён {api}. Откройте Google Cloud "
            f"Console (https://console.cloud.google.com/), выберите этот проект, в меню {LIBRARY_STEPS} найдите "
            "Google Sheets API и Google Drive API и у каждого нажмите «Включить» (Enable): нужны оба. Подождите "
            f"минуту и запустите команду снова. Ответ Google: {message}")
    if "storageQuotaExceeded" in reasons and who.is_gm:
        return DriveStorageError(
            f"{where}: на Google Диске {who.genitive} кончилось место, и Google не даёт её создать. Освободите "
            "место (https://drive.google.com/settings/storage, и очистите «Корзину») или создайте книги в папке "
            "общего диска (`forumwar new --folder ID`), затем запустите команду снова.")
    if "storageQuotaExceeded" in reasons:
        return DriveStorageError(
            f"{where}: сервисный аккаунт {service_email} не может её создать — у него нет своего места на "
            "Google Диске. Выберите один из двух способов (подробно — в "
            f"{SETUP_DOC}, шаг 5): 1) создайте таблицы сами, в каждой {share} и передайте их ключи команде "
            "`forumwar new` (--book КНИГА=КЛЮЧ); 2) создайте папку на общем диске, добавьте "
            f"{service_email} в участники этого общего диска с ролью «Администратор контента» (Content manager) "
            "и передайте id папки команде `forumwar new --folder ID`.")
    if code == 401 and who.is_gm:
        return CredentialsError(f"Google не принял вход {who.genitive} (401: {message}). {LOGIN_AGAIN}")
    if code == 401:
        return CredentialsError(
            f"Google не принял учётные данные сервисного аккаунта {service_email} (401: {message}). Проверьте "
            f"credentials.json: это должен быть действующий ключ этого аккаунта (см. {SETUP_DOC}, шаг 4); если "
            f"ключ удалили в Google Cloud Console, создайте новый: {KEYS_STEPS}.")
    if code == 403 and reasons & RATE_LIMIT_REASONS:
        return ApiUnavailableError(rate_limit_message(reasons, where, who, message))
    if code == 403:
        if action == "share" and "insufficientFilePermissions" in reasons:
            return BookForbidden(
                f"{where}: {who.dative} не разрешено менять доступ к этой книге. Откройте "
                f"её в браузере, {share} и в настройках этого окна (значок шестерёнки) оставьте включённым "
                "«Пользователи с правами редактора смогут изменять разрешения и параметры доступа» (Editors can "
                "change permissions and share). Затем запустите команду снова.")
        return BookForbidden(
            f"{where}: Google не даёт {who.dative} {doing}: у него нет прав редактора "
            f"этой книги. Откройте книгу в браузере, {share}, снимите галочку «Уведомить пользователей» "
            "(Notify people), нажмите «Поделиться» и запустите команду снова.")
    if code == 404 and who.files_only and action in ("create", "open", "read", "share", "write", "lock and read",
                                                     "protect", "export"):
        what = "папку из --folder" if action == "create" else "эту книгу"
        return BookNotFound(
            f"{where}: Google не показывает {what} {who.dative}. Вход forumwar открывает только файлы, которые "
            "forumwar создал сам, а эту, видимо, создали вручную — или её удалили. Если это "
            "ваша таблица (папка), дайте forumwar доступ ко всему Google Диску: выполните `forumwar login "
            f"--all-files` и запустите команду снова. Зачем это и чем это грозит — в {ACCESS_DOC}.")
    if code == 404:
        if action == "create":
            return BookNotFound(
                f"{where}: не удалось её создать — папка из --folder (или FORUMWAR_DRIVE_FOLDER) не найдена или "
                f"не открыта {who.dative}. Проверьте id папки (часть адреса после "
                f"/folders/) и добавьте {service_email} в участники общего диска с ролью «Администратор контента» "
                "(Content manager).")
        if action == "share":
            return BookNotFound(
                f"{where}: {who.nominative} её не видит — книгу удалили или не открыли ему "
                f"доступ. Откройте книгу в браузере, {share} и запустите команду снова.")
        return BookNotFound(
            f"{where}: таблица не найдена (Google ответил 404) — её удалили, или в game.toml записан неверный "
            "ключ. Восстановите её из «Корзины» (Trash) Google Диска её владельца или создайте новую таблицу, "
            f"в ней {share} и запишите её ключ в game.toml, раздел [books].")
    if code == 429 or code >= 500 or code in (0, 408):
        status = f"код {code}" if code else "нет ответа"
        return ApiUnavailableError(
            f"{where}: Google так и не ответил как следует, когда forumwar пытался {doing} ({status}: {message}), "
            "даже после всех повторов. Ничего не записано наполовину: каждая книга пишется одним цельным "
            "запросом. Подождите несколько минут и запустите ту же команду снова — она продолжит с того места, "
            "где остановилась.")
    return BookRejected(
        f"{where}: Google отклонил запрос, когда forumwar пытался {doing} (код {code}: {message}); из этого запроса "
        "ничего не применено. Проверьте, не переименовывали и не удаляли ли вручную вкладки или защищённые "
        "диапазоны этой книги, и запустите команду снова. Если ошибка повторится, сохраните это сообщение для "
        "разработчиков.")
