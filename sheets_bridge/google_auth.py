"""Service-account credentials for the gsheets backend, and clear errors for Google's failures.

Messages are English (they go to the GM's console) and always say what to do next.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sheets_bridge.backend import BackendError, BookForbidden, BookNotFound

SCOPES = ("https://www.googleapis.com/auth/spreadsheets", "https://www.googleapis.com/auth/drive")
PLACEHOLDER = "REPLACE_ME"
SETUP_DOC = "docs/google_sheets.md"
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


def book_url(book_id: str) -> str:
    return f"https://docs.google.com/spreadsheets/d/{book_id}/edit"


def load_service_account(path: str | Path) -> ServiceAccount:
    """Read a service-account JSON key; every usual mistake raises CredentialsError saying what to do."""
    path = Path(path)
    if not path.is_file():
        raise CredentialsError(
            f"No credentials file at {path}. Create a service-account key (JSON) in the Google Cloud console "
            f"and save it there, as described step by step in {SETUP_DOC}. It must never be committed: "
            "credentials.json is listed in .gitignore.")
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise CredentialsError(f"{path} is not a text file; download the service-account key (JSON) again.") from None
    except json.JSONDecodeError as err:
        raise CredentialsError(
            f"{path} is not valid JSON ({err.msg} at line {err.lineno}, column {err.colno}). Download the "
            "service-account key again (IAM & Admin > Service accounts > Keys > Add key > JSON).") from None
    if not isinstance(info, dict):
        raise CredentialsError(f"{path} is not a service-account key: it holds a JSON {type(info).__name__}.")
    kind = info.get("type")
    if kind != "service_account":
        if "installed" in info or "web" in info:
            what = "an OAuth client id (for apps that ask a person to log in)"
        elif kind == "authorized_user":
            what = "a person's login token"
        else:
            what = f'a JSON object whose "type" is {kind!r}'
        raise CredentialsError(
            f"{path} holds {what}, not a service-account key. forumwar needs the key of a service account: "
            f"IAM & Admin > Service accounts > (your account) > Keys > Add key > JSON; see {SETUP_DOC}.")
    missing = [key for key in _REQUIRED if not info.get(key)]
    if missing:
        raise CredentialsError(
            f"{path} is a service-account key without {', '.join(missing)}; it was cut or edited. "
            "Download a new key from the Google Cloud console.")
    if any(PLACEHOLDER in str(value) for value in info.values()):
        raise CredentialsError(
            f"{path} still holds the placeholders of credentials.example.json. Replace the whole file with the "
            f"key you downloaded from the Google Cloud console (see {SETUP_DOC}).")
    from google.oauth2 import service_account
    try:
        credentials = service_account.Credentials.from_service_account_info(info, scopes=list(SCOPES))
    except (ValueError, TypeError, IndexError) as err:
        raise CredentialsError(
            f"The private key in {path} cannot be read ({err.__class__.__name__}: {err}). Download a new key "
            "from the Google Cloud console; do not edit the file by hand.") from None
    return ServiceAccount(info["client_email"], str(info.get("project_id", "")), credentials, str(path))


def explain_refresh(err: Exception, service_email: str) -> CredentialsError:
    """A refused token exchange (google.auth RefreshError) as a clear message."""
    return CredentialsError(
        f"Google refused the key of the service account {service_email} ({err}). The key was probably deleted "
        "or disabled in the Google Cloud console, or the account was removed, or this computer's clock is wrong. "
        "Create a new key (IAM & Admin > Service accounts > Keys > Add key > JSON) and replace credentials.json.")


def _error_body(err: Any) -> dict:
    body = getattr(err, "error", None)
    return body if isinstance(body, dict) else {}


def _reasons(body: dict) -> set[str]:
    reasons = {str(item.get("reason", "")) for item in body.get("errors", []) if isinstance(item, dict)}
    for detail in body.get("details", []) or []:
        if isinstance(detail, dict) and detail.get("reason"):
            reasons.add(str(detail["reason"]))
    return reasons


RATE_LIMIT_REASONS = frozenset({"sharingRateLimitExceeded", "userRateLimitExceeded", "rateLimitExceeded"})


def rate_limit_message(reasons: set[str], where: str, service_email: str, message: str) -> str:
    """Russian text for a rate-limit 403 that persisted through every retry (not a missing right)."""
    if "sharingRateLimitExceeded" in reasons:
        return (f"Google временно не даёт сервисному аккаунту {service_email} выдавать доступ к таблицам: "
                f"превышен лимит приглашений (sharingRateLimitExceeded) при работе с {where}. Права Редактора "
                "здесь ни при чём, менять ничего не нужно. Подождите (лимит снимается со временем, иногда через "
                "несколько часов) и запустите `forumwar share` снова: он выдаст только недостающие доступы. Письма-"
                f"приглашения расходуют этот лимит быстрее: не добавляйте --notify без нужды. Google: {message}")
    return (f"Google просит сервисный аккаунт {service_email} отправлять запросы реже (лимит запросов, "
            f"{', '.join(sorted(reasons))}) при работе с {where}, и это не прошло после всех повторов. Подождите "
            "несколько минут и запустите команду снова: она продолжит с того места, где остановилась. "
            f"Google: {message}")


def explain(err: Any, *, book: str, book_id: str | None, service_email: str, action: str) -> BackendError:
    """A gspread APIError (after retries) as the BackendError that tells the GM what to do.

    `book` names the book for people (e.g. "faction book 'Империя'"), `action` is "read",
    "write", "share", "create" or "export".
    """
    body = _error_body(err)
    code = int(body.get("code") or getattr(err, "code", 0) or 0)
    message = str(body.get("message", err))
    reasons = _reasons(body)
    where = f"{book} ({book_url(book_id)})" if book_id else book
    if "SERVICE_DISABLED" in reasons or "accessNotConfigured" in reasons or "has not been used in project" in message:
        api = "Google Drive" if "drive" in message.lower() else "Google Sheets"
        return ApiDisabledError(
            f"The {api} API is not enabled in the Cloud project of the service account {service_email}. "
            f"Enable both the Google Sheets API and the Google Drive API (APIs & Services > Library), wait a "
            f"minute and run the command again. Google said: {message}")
    if "storageQuotaExceeded" in reasons:
        return DriveStorageError(
            f"The service account {service_email} has no Drive storage of its own, so it cannot create "
            f"{book}. Either create the spreadsheets yourself, share each with {service_email} as Editor and "
            "give their keys to `forumwar new`; or create a folder in a shared drive, add "
            f"{service_email} to the shared drive as Content manager, and give the folder id to `forumwar new`. "
            f"See {SETUP_DOC}.")
    if code == 401:
        return CredentialsError(
            f"Google did not accept the credentials of {service_email} (401: {message}). Check credentials.json "
            f"(see {SETUP_DOC}).")
    if code == 403 and reasons & RATE_LIMIT_REASONS:
        return ApiUnavailableError(rate_limit_message(reasons, where, service_email, message))
    if code == 403:
        if action == "share" and "insufficientFilePermissions" in reasons:
            return BookForbidden(
                f"The service account {service_email} may not change the sharing of {where}. Make it an Editor "
                "of the book (Share button), and keep 'Editors can change permissions and share' enabled.")
        return BookForbidden(
            f"Google refused to let the service account {service_email} {action} {where}. Open the book in "
            f"the browser, press Share, add {service_email} as Editor (untick 'Notify people'), then run the "
            "command again.")
    if code == 404:
        if action == "create":
            return BookNotFound(
                f"The folder for {book} was not found, or it is not shared with the service account "
                f"{service_email}. Check the folder id, and add {service_email} to the shared drive as "
                "Content manager.")
        if action == "share":
            return BookNotFound(
                f"{where} is not visible to the service account {service_email}: it was deleted, or it is not "
                f"shared with {service_email}. Share it with {service_email} as Editor and run the command again.")
        return BookNotFound(
            f"{where} does not exist: it was deleted, or its key in game.toml is wrong (Google answered 404). "
            "Restore it from the owner's Drive trash, or create a new spreadsheet, share it with "
            f"{service_email} as Editor and put its key in game.toml.")
    if code == 429 or code >= 500 or code in (0, 408):
        return ApiUnavailableError(
            f"Google kept failing while trying to {action} {where} ({code}: {message}), even after retries. "
            "Nothing was half-written: every book is written in one atomic request. Wait a few minutes and "
            "run the command again; it resumes where it stopped.")
    return BookRejected(f"Google refused to {action} {where} ({code}: {message}).")
