"""Google's OAuth 2.0 server in the fake: the token endpoint (a service account's JWT grant, a person's
authorization code with PKCE, a refresh token), the consent screen a browser would show, and revocation.

`OAuthServer` is mixed into FakeGoogle (which holds the state and the lock). Access tokens it issues
read `fake-token:EMAIL#N.S`: N is the person's token generation, so `expire_access_tokens` makes every
earlier token answer 401 as an expired one does, and the client must refresh; S tells tokens apart.

Scopes are enforced as Google does (`check_scopes`, before every API request): a token whose scopes share none
with the method's (the discovery documents list each method's) gets 403 «insufficient authentication scopes»;
a token whose only file scope is `drive.file` sees only the files its OAuth client created (`DriveFile.app`):
any other file is «not found», as Google answers (developers.google.com/workspace/drive/api/guides/api-specific-auth,
developers.google.com/sheets/api/scopes). Tokens made without the OAuth flow (`token_for`, a service account's)
reach every file their account may.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, unquote_plus, urlencode, urlsplit

from tests.fake_google import discovery as discovery_docs
from tests.fake_google.fake_errors import ApiError, sheets_error
from tests.fake_google.fake_identity import Identity, IdSource

TOKEN_PREFIX = "fake-token:"
AUTH_URI = "https://accounts.google.com/o/oauth2/auth"
TOKEN_URI = "https://oauth2.googleapis.com/token"
_JSON = {"Content-Type": "application/json; charset=UTF-8"}
SCOPE_ROOT = "https://www.googleapis.com/auth/"
DRIVE_FILE = SCOPE_ROOT + "drive.file"
PER_FILE_SCOPES = frozenset({DRIVE_FILE, SCOPE_ROOT + "drive.appdata"})   # reach only the app's own files
_CALLER = threading.local()      # the OAuth client of the request being answered (this thread), see caller_app


@dataclass(frozen=True)
class CallerApp:
    """Which OAuth client sent the request (None: a token made outside the OAuth flow), and whether its
    token reaches only that client's files (drive.file)."""

    client_id: str | None = None
    files_only: bool = False


def caller_app() -> CallerApp:
    """The OAuth client of the request this thread is answering (set by `check_scopes`)."""
    return getattr(_CALLER, "app", CallerApp())


@functools.lru_cache(maxsize=1)
def method_scopes() -> dict[str, frozenset[str]]:
    """Every method's scopes, by method id ("sheets.spreadsheets.get"), from the discovery documents."""
    out: dict[str, frozenset[str]] = {}

    def walk(node: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
        yield from node.get("methods", {}).values()
        for resource in node.get("resources", {}).values():
            yield from walk(resource)

    for name in discovery_docs.DOCUMENTS:
        doc = json.loads((discovery_docs.DOCUMENTS_DIR / name).read_text(encoding="utf-8"))
        for method in walk(doc):
            out[method["id"]] = frozenset(method.get("scopes", ()))
    return out


class ConsentRefused(Exception):
    """Google's own page refused the sign-in (no redirect back to the program): its error and text."""

    def __init__(self, error: str, text: str):
        super().__init__(f"{error}: {text}")
        self.error = error
        self.text = text


@dataclass
class OAuthClient:
    """An OAuth client of type «Desktop app» in a Cloud project, with its consent screen's mode."""

    client_id: str
    client_secret: str
    project_id: str
    testing: bool = True                          # publishing status «Testing»: only test users sign in
    test_users: set[str] = field(default_factory=set)

    def secrets(self) -> dict[str, Any]:
        """The client_secret_….json the Cloud console offers to download."""
        return {"installed": {"client_id": self.client_id, "project_id": self.project_id, "auth_uri": AUTH_URI,
                              "token_uri": TOKEN_URI, "auth_provider_x509_cert_url":
                              "https://www.googleapis.com/oauth2/v1/certs",
                              "client_secret": self.client_secret, "redirect_uris": ["http://localhost"]}}


@dataclass
class Grant:
    """What a code or a refresh token stands for."""

    email: str
    client_id: str
    scopes: tuple[str, ...]
    redirect_uri: str = ""
    challenge: str = ""
    offline: bool = True
    revoked: bool = False


class OAuthServer:
    """OAuth endpoints over FakeGoogle's state; its methods run under FakeGoogle's lock where they write."""

    identities: dict[str, Identity]
    ids: IdSource
    files: dict[str, Any]            # fake_drive.DriveFile by id

    def _oauth_init(self) -> None:
        self.oauth_clients: dict[str, OAuthClient] = {}
        self.codes: dict[str, Grant] = {}
        self.refresh_tokens: dict[str, Grant] = {}
        self.access_grants: dict[str, Grant] = {}              # access token -> what it stands for
        self.granted: dict[tuple[str, str], set[str]] = {}      # (account, client id) -> scopes granted so far
        self.token_generation: dict[str, int] = {}
        self.revocations: list[str] = []
        self._issued = 0

    # -- set-up helpers (no HTTP) -----------------------------------------------------------------
    def add_oauth_client(self, *, testing: bool = True, test_users: tuple[str, ...] = (),
                         project_id: str = "forumwar-gm") -> OAuthClient:
        client = OAuthClient(f"{self.ids()}-{self.ids.text(12).lower()}.apps.googleusercontent.com",
                             "GOCSPX-" + self.ids.text(28), project_id, testing, set(test_users))
        self.oauth_clients[client.client_id] = client
        return client

    def consent(self, auth_url: str, email: str, *, allow: bool = True, unchecked: tuple[str, ...] = ()) -> str:
        """What the browser does at Google's consent screen: `email` signs in and allows (or cancels), leaving
        the `unchecked` scopes out; returns the address Google redirects the browser to. ConsentRefused for
        Google's own error pages. With include_granted_scopes the grant keeps what the account gave the client
        before (Google's incremental authorization)."""
        query = {k: v[0] for k, v in parse_qs(urlsplit(auth_url).query).items()}
        client = self.oauth_clients.get(query.get("client_id", ""))
        if client is None:
            raise ConsentRefused("invalid_client", "The OAuth client was not found.")
        redirect = query.get("redirect_uri", "")
        host = urlsplit(redirect).hostname
        if urlsplit(redirect).scheme != "http" or host not in ("localhost", "127.0.0.1"):
            raise ConsentRefused("invalid_request", "redirect_uri must be a loopback address for a desktop client")
        if query.get("response_type") != "code":
            raise ConsentRefused("unsupported_response_type", "response_type must be code")
        if email not in self.identities:
            raise ConsentRefused("no_account", f"Couldn't find your Google Account: {email}")
        if client.testing and email not in client.test_users:
            raise ConsentRefused("access_denied", f"{client.project_id} has not completed the Google verification "
                                 "process. The app is currently being tested, and can only be accessed by "
                                 "developer-approved testers.")
        state = {"state": query["state"]} if "state" in query else {}
        if not allow:
            return f"{redirect}?{urlencode({'error': 'access_denied', **state})}"
        if query.get("code_challenge") and query.get("code_challenge_method") != "S256":
            raise ConsentRefused("invalid_request", "code_challenge_method must be S256")
        code = "4/0A" + self.ids.text(40)
        scopes = [s for s in query.get("scope", "").split() if s not in unchecked]
        given = self.granted.setdefault((email, client.client_id), set())
        if query.get("include_granted_scopes") == "true":
            scopes += sorted(given - set(scopes))
        given.update(scopes)
        self.codes[code] = Grant(email, client.client_id, tuple(scopes), redirect,
                                 query.get("code_challenge", ""), query.get("access_type") == "offline")
        return f"{redirect}?{urlencode({**state, 'code': code, 'scope': ' '.join(scopes)})}"

    def expire_access_tokens(self, email: str) -> None:
        """Every access token issued to `email` so far expires (Google answers 401 to it)."""
        self.token_generation[email] = self.token_generation.get(email, 0) + 1

    def revoke_access(self, email: str) -> None:
        """The person removes the program in their Google Account («Third-party apps»)."""
        for grant in self.refresh_tokens.values():
            if grant.email == email:
                grant.revoked = True
        self.expire_access_tokens(email)

    # -- HTTP --------------------------------------------------------------------------------------
    def access_token_owner(self, token: str) -> tuple[str, bool] | None:
        """(email, issued by the token endpoint) of a live access token; None for an unknown or expired one."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        email, sep, issued = token[len(TOKEN_PREFIX):].partition("#")
        generation = issued.partition(".")[0]
        if email not in self.identities:
            return None
        if sep and (not generation.isdigit() or int(generation) < self.token_generation.get(email, 0)):
            return None
        return email, bool(sep)

    def _issue(self, grant: Grant) -> dict[str, Any]:
        self._issued += 1
        token = f"{TOKEN_PREFIX}{grant.email}#{self.token_generation.get(grant.email, 0)}.{self._issued}"
        self.access_grants[token] = grant
        return {"access_token": token, "expires_in": 3599, "scope": " ".join(grant.scopes), "token_type": "Bearer"}

    def check_scopes(self, verb: str, url: str, headers: Mapping[str, str], file_id: str | None) -> None:
        """Refuse what the token's scopes do not allow, as Google does (see the module docstring), and note the
        caller's OAuth client for the Drive answers (`caller_app`)."""
        auth = headers.get("Authorization", "")
        grant = self.access_grants.get(auth[len("Bearer "):]) if auth.startswith("Bearer ") else None
        _CALLER.app = CallerApp()
        if grant is None or not discovery_docs.available():
            return
        file = self.files.get(file_id) if file_id else None
        file_app = file.app if file is not None else False      # the OAuth client that made it (None: none)
        found = discovery_docs.find_method(verb, url)
        needed = method_scopes().get(found[0].id, frozenset()) if found else frozenset()
        held = set(grant.scopes) & needed
        drive = urlsplit(url).netloc == "www.googleapis.com"
        if needed and not held:
            if drive:
                message = "Insufficient Permission: Request had insufficient authentication scopes."
                raise ApiError(403, {"error": {"code": 403, "message": message, "errors": [
                    {"domain": "global", "reason": "insufficientPermissions", "message": message}]}})
            raise sheets_error(403, "Request had insufficient authentication scopes.", details=[
                {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
                 "domain": "googleapis.com"}])
        files_only = bool(held) and held <= PER_FILE_SCOPES
        _CALLER.app = CallerApp(grant.client_id, files_only)
        if files_only and file_id and file_app is not False and file_app != grant.client_id:
            if drive:
                message = f"File not found: {file_id}."
                raise ApiError(404, {"error": {"code": 404, "message": message, "errors": [
                    {"domain": "global", "reason": "notFound", "message": message, "locationType": "parameter",
                     "location": "fileId"}]}})
            raise sheets_error(404, "Requested entity was not found.")

    def _token(self, body: bytes | None, headers: Mapping[str, str]) -> tuple[str, tuple[int, dict[str, str], bytes]]:
        """The token endpoint: (who asked, the answer). The client authenticates in the form or with HTTP
        Basic (RFC 6749 2.3.1), as Google takes both."""
        form = {k: v[0] for k, v in parse_qs((body or b"").decode()).items()}
        basic = headers.get("Authorization", "")
        if basic.startswith("Basic "):
            client_id, _, secret = base64.b64decode(basic[6:]).decode().partition(":")
            form.setdefault("client_id", unquote_plus(client_id))
            form.setdefault("client_secret", unquote_plus(secret))
        grant_type = form.get("grant_type", "")
        if grant_type == "urn:ietf:params:oauth:grant-type:jwt-bearer":
            return self._jwt_grant(form)
        client = self.oauth_clients.get(form.get("client_id", ""))
        if client is None or client.client_secret != form.get("client_secret"):
            return "", _error(401, "invalid_client", "The OAuth client was not found.")
        if grant_type == "authorization_code":
            grant = self.codes.pop(form.get("code", ""), None)
            if grant is None or grant.client_id != client.client_id:
                return "", _error(400, "invalid_grant", "Malformed auth code.")
            if grant.redirect_uri != form.get("redirect_uri"):
                return grant.email, _error(400, "redirect_uri_mismatch", "Bad Request")
            if grant.challenge and _challenge(form.get("code_verifier", "")) != grant.challenge:
                return grant.email, _error(400, "invalid_grant", "Invalid code verifier.")
            answer = self._issue(grant)
            if grant.offline:
                refresh = "1//0" + self.ids.text(60)
                self.refresh_tokens[refresh] = grant
                answer["refresh_token"] = refresh
            return grant.email, (200, dict(_JSON), json.dumps(answer).encode())
        if grant_type == "refresh_token":
            grant = self.refresh_tokens.get(form.get("refresh_token", ""))
            if grant is None or grant.revoked or grant.client_id != client.client_id:
                return grant.email if grant else "", _error(400, "invalid_grant", "Token has been expired or revoked.")
            return grant.email, (200, dict(_JSON), json.dumps(self._issue(grant)).encode())
        return "", _error(400, "unsupported_grant_type", f"Invalid grant_type: {grant_type}")

    def _jwt_grant(self, form: dict[str, str]) -> tuple[str, tuple[int, dict[str, str], bytes]]:
        """A service account's signed JWT: answered with a bearer token of that account."""
        try:
            claims = json.loads(base64.urlsafe_b64decode(form.get("assertion", "").split(".")[1] + "=="))
            email = claims["iss"]
        except (IndexError, ValueError, KeyError):
            email = ""
        ident = self.identities.get(email)
        if ident is None or ident.revoked:
            return email, _error(400, "invalid_grant", "Invalid JWT Signature.")
        data = {"access_token": TOKEN_PREFIX + email, "expires_in": 3599, "token_type": "Bearer"}
        return email, (200, dict(_JSON), json.dumps(data).encode())

    def _revoke(self, query: str, body: bytes | None) -> tuple[str, tuple[int, dict[str, str], bytes]]:
        """POST /revoke?token=…: a refresh token (with its access) or an access token stops working."""
        form = {k: v[0] for k, v in parse_qs(query).items()}
        form.update({k: v[0] for k, v in parse_qs((body or b"").decode()).items()})
        token = form.get("token", "")
        grant = self.refresh_tokens.get(token)
        if grant is not None:
            grant.revoked = True
            self.expire_access_tokens(grant.email)
            self.revocations.append(grant.email)
            return grant.email, (200, dict(_JSON), b"{}")
        owner = self.access_token_owner(token)
        if owner is not None and owner[1]:
            self.expire_access_tokens(owner[0])
            self.revocations.append(owner[0])
            return owner[0], (200, dict(_JSON), b"{}")
        return "", _error(400, "invalid_token", "Token expired or revoked")


def _challenge(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).decode().rstrip("=")


def _error(status: int, error: str, description: str) -> tuple[int, dict[str, str], bytes]:
    return status, dict(_JSON), json.dumps({"error": error, "error_description": description}).encode()
