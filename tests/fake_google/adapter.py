"""A `requests` transport adapter that answers Google's API URLs from a FakeGoogle."""
from __future__ import annotations

from http import HTTPStatus

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from tests.fake_google.fake_google import FakeGoogle

GOOGLE_PREFIXES = ("https://sheets.googleapis.com/", "https://www.googleapis.com/",
                   "https://oauth2.googleapis.com/")


class FakeGoogleAdapter(BaseAdapter):
    """Mount on a Session for each prefix of GOOGLE_PREFIXES; nothing leaves the process."""

    def __init__(self, fake: FakeGoogle):
        super().__init__()
        self.fake = fake
        self.last_timeout = None

    def send(self, request: requests.PreparedRequest, stream: bool = False, timeout=None, verify=True,
             cert=None, proxies=None) -> requests.Response:
        body = request.body.encode("utf-8") if isinstance(request.body, str) else request.body
        if body is not None and not isinstance(body, bytes):
            raise TypeError("the fake answers requests with a whole body, not a stream")
        headers: CaseInsensitiveDict[str] = CaseInsensitiveDict(
            {k: v if isinstance(v, str) else v.decode("latin-1") for k, v in request.headers.items()})
        self.last_timeout = timeout
        try:
            status, out_headers, content = self.fake.handle(request.method or "GET", request.url or "",
                                                            headers, body)
        except ConnectionResetError as err:
            raise requests.ConnectionError(str(err), request=request) from err
        response = requests.Response()
        response.status_code = status
        response.headers = CaseInsensitiveDict(out_headers)
        response._content = content
        response.url = request.url or ""
        response.request = request
        response.encoding = "utf-8"
        try:
            response.reason = HTTPStatus(status).phrase
        except ValueError:
            response.reason = ""
        return response

    def close(self) -> None:
        pass


def mount(session: requests.Session, fake: FakeGoogle) -> requests.Session:
    """Route every Google URL of `session` to `fake`."""
    adapter = FakeGoogleAdapter(fake)
    for prefix in GOOGLE_PREFIXES:
        session.mount(prefix, adapter)
    return session
