"""Errors of the fake in Google's shapes: ApiError carries an HTTP status, JSON body and headers."""
from __future__ import annotations

from typing import Any

PROTECTED_MESSAGE = ("You are trying to edit a protected cell or object. Please contact the "
                     "spreadsheet owner to remove protection if you need to edit.")


class ApiError(Exception):
    """An HTTP error answer of the fake: status, JSON body and extra headers."""

    def __init__(self, status: int, body: dict, headers: dict[str, str] | None = None):
        super().__init__(body.get("error", {}).get("message", ""))
        self.status = status
        self.body = body
        self.headers = headers or {}


_STATUS_NAMES = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED",
                 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE"}


def sheets_error(code: int, message: str, status: str | None = None, **extra: Any) -> ApiError:
    """An error in the Sheets v4 shape: {"error": {code, message, status}}."""
    error = {"code": code, "message": message, "status": status or _STATUS_NAMES.get(code, "UNKNOWN")}
    error.update(extra)
    return ApiError(code, {"error": error})


def invalid(message: str) -> ApiError:
    return sheets_error(400, message)
