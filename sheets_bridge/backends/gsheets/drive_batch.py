"""Drive's batch endpoint: several Drive calls in one HTTP request (one round trip instead of one each).

A batch is a multipart/mixed POST to BATCH_URL whose parts are whole HTTP requests (application/http), at
most MAX_PARTS of them; Google answers each part in a part of its own answer, in order, under the Content-ID
"response-" + the request part's. Every inner call counts against Drive's quota as if sent alone, and each
has its own status: a part that failed is the caller's to send again alone (through the retrying client), so
a batch is never worse than the calls it holds. The outer request is sent through the backend's HTTP client
(its retries, its credentials, which apply to every part). Parts carry no media: uploads are sent alone.
See https://developers.google.com/workspace/drive/api/guides/performance#batch-requests.
"""
from __future__ import annotations

import email.parser
import email.policy
import json
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import requests
from gspread.http_client import HTTPClient

BATCH_URL = "https://www.googleapis.com/batch/drive/v3"
MAX_PARTS = 100            # Google refuses a batch of more calls


@dataclass(frozen=True)
class Call:
    """One Drive call of a batch: a method, an absolute URL, its query parameters and JSON body."""

    method: str
    url: str
    params: Mapping[str, Any] = field(default_factory=dict)
    body: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Answer:
    """One call's answer: its HTTP status and JSON body (None when it had none)."""

    status: int
    body: Any = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300


def _part(call: Call) -> bytes:
    """The call as the application/http text of one part (request line, headers, body), built by requests."""
    prepared = requests.Request(call.method.upper(), call.url, params=dict(call.params),
                                json=dict(call.body) if call.body is not None else None).prepare()
    lines = [f"{prepared.method} {prepared.url} HTTP/1.1"]
    body = prepared.body if isinstance(prepared.body, bytes) else str(prepared.body or "").encode("utf-8")
    if call.body is not None:
        lines += ["Content-Type: application/json; charset=UTF-8", f"Content-Length: {len(body)}"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii") + body


def _answers(content_type: str, content: bytes, count: int) -> list[Answer]:
    """The parts of a batch's answer, by their Content-ID (in order where Google leaves it out)."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + content)
    out: list[Answer | None] = [None] * count
    parts = [p for p in message.walk() if not p.is_multipart()]
    for position, part in enumerate(parts):
        ident = str(part.get("Content-ID", "")).strip("<> ")
        index = int(ident.rsplit("-", 1)[-1]) - 1 if ident.rsplit("-", 1)[-1].isdigit() else position
        raw = part.get_payload(decode=True)
        data = raw if isinstance(raw, bytes) else b""
        status_line, _, rest = data.partition(b"\r\n")
        if not status_line.startswith(b"HTTP/") or not 0 <= index < count:
            continue
        inner = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(rest)
        body = inner.get_payload(decode=True)
        text = body if isinstance(body, bytes) else b""
        try:
            parsed = json.loads(text) if text.strip() else None
        except ValueError:
            parsed = None
        out[index] = Answer(int(status_line.split()[1]), parsed)
    return [a if a is not None else Answer(0) for a in out]


def send(http: HTTPClient, calls: Iterable[Call]) -> list[Answer]:
    """Each call's answer, the calls sent MAX_PARTS at a time in one request each. A part Google did not
    answer gets status 0 (send it again alone). Raises what the client raises for the outer request."""
    calls = list(calls)
    out: list[Answer] = []
    for start in range(0, len(calls), MAX_PARTS):
        chunk = calls[start:start + MAX_PARTS]
        boundary = "forumwar_batch_" + secrets.token_hex(12)
        body = b"".join(f"--{boundary}\r\nContent-Type: application/http\r\nContent-ID: <item-{n}>\r\n\r\n".encode()
                        + _part(call) + b"\r\n" for n, call in enumerate(chunk, 1)) + f"--{boundary}--\r\n".encode()
        response = http.request("post", BATCH_URL, data=body,
                                headers={"Content-Type": f"multipart/mixed; boundary={boundary}"})
        out += _answers(response.headers.get("Content-Type", ""), response.content, len(chunk))
    return out


__all__ = ["BATCH_URL", "MAX_PARTS", "Call", "Answer", "send"]
