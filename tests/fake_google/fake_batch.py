"""Drive's batch endpoint on the fake (POST https://www.googleapis.com/batch/drive/v3, multipart/mixed).

Each part is a whole HTTP request (application/http): its request line (an absolute URL or a path on
www.googleapis.com), its headers, its body. The fake answers each part as it answers a request alone, with the
outer request's Authorization unless the part carries its own, without the latency (the batch pays it once),
and answers multipart/mixed, one application/http part per request part, in order, each under the Content-ID
"response-" + the part's. Over MAX_PARTS parts, or a body that is not multipart/mixed, is a 400 as at Google.
"""
from __future__ import annotations

import email
import email.policy
import secrets
from collections.abc import Callable, Mapping
from http import HTTPStatus

from tests.fake_google.fake_drive import drive_error

MAX_PARTS = 100
Handle = Callable[[str, str, Mapping[str, str], "bytes | None"], "tuple[int, dict, bytes]"]


def answer_batch(handle: Handle, headers: Mapping[str, str], body: bytes | None) -> tuple[int, dict, bytes]:
    """The batch's answer; `handle(method, url, headers, body)` answers one part."""
    kind = headers.get("Content-Type", "")
    if not kind.startswith("multipart/mixed") or not body:
        raise drive_error(400, "Batch requests must be multipart/mixed.", "badRequest")
    message = email.message_from_bytes(b"Content-Type: " + kind.encode() + b"\r\n\r\n" + body,
                                       policy=email.policy.HTTP)
    parts = [p for p in message.walk() if not p.is_multipart()]
    if len(parts) > MAX_PARTS:
        raise drive_error(400, f"A batch request cannot hold more than {MAX_PARTS} calls.", "batchSizeTooLarge")
    boundary = "batch_" + secrets.token_hex(8)
    out = b""
    for number, part in enumerate(parts, 1):
        raw = part.get_payload(decode=True)
        request_line, _, rest = (raw if isinstance(raw, bytes) else b"").partition(b"\r\n")
        method, target, _ = request_line.decode("ascii").split(" ", 2)
        inner = email.message_from_bytes(rest, policy=email.policy.HTTP)
        inner_headers = {k: str(v) for k, v in inner.items()}
        if "Authorization" in headers and "Authorization" not in inner_headers:
            inner_headers["Authorization"] = headers["Authorization"]
        payload = inner.get_payload(decode=True)
        content = payload if isinstance(payload, bytes) and payload else None
        url = target if target.startswith("https://") else "https://www.googleapis.com" + target
        status, answer_headers, data = handle(method, url, inner_headers, content)
        ident = str(part.get("Content-ID", f"<{number}>")).strip("<> ")
        reason = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
        head = "".join(f"{k}: {v}\r\n" for k, v in answer_headers.items())
        out += (f"--{boundary}\r\nContent-Type: application/http\r\nContent-ID: <response-{ident}>\r\n\r\n"
                f"HTTP/1.1 {status} {reason}\r\n{head}\r\n").encode() + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return 200, {"Content-Type": f"multipart/mixed; boundary={boundary}"}, out


def is_batch(host: str, path: str) -> bool:
    return host == "www.googleapis.com" and path == "/batch/drive/v3"


__all__ = ["answer_batch", "is_batch", "MAX_PARTS"]
