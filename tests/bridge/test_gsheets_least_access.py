"""The least access (issue 39 §2): `forumwar login` asks only drive.file, every request of the GM's game works
with it (Google's discovery documents list each method's scopes), the whole Drive is asked only for the GM's own
books, a client shipped in the package signs in when the GM has none, and a sign-in that cannot finish ends
clearly, in Russian.

The fake Google enforces scopes as Google does (tests/fake_google/fake_oauth.py): a drive.file token sees only
what its OAuth client created.
"""
from __future__ import annotations

import json
import re
import webbrowser

import pytest
from click.testing import CliRunner
from oauthlib.oauth2.rfc6749 import errors as oauth_errors

from sheets_bridge.backends.base import BookNotFound, BookRef
from sheets_bridge.backends.gsheets import client_file, game
from sheets_bridge.backends.gsheets import login as signing
from sheets_bridge.backends.gsheets.auth import DRIVE_FILE_SCOPE, DRIVE_SCOPE, SPREADSHEETS_SCOPE
from sheets_bridge.backends.gsheets.game import access_for_new, backend_for_account
from sheets_bridge.backends.gsheets.login import LoginError, load_gm_account, saved_login, sign_in, widen_access
from sheets_bridge.backends.gsheets.login_messages import oauth_error_text
from sheets_bridge.cli import main
from sheets_bridge.create import create_game, share_books
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check
from sheets_bridge.stage_common import open_backend
from tests.bridge import test_gsheets_gm_login as gm_login
from tests.bridge.test_google_messages_russian import check_russian
from tests.bridge.test_gsheets_gm_login import BROWSER, GM, ConsentBrowser, login_in_browser
from tests.fake_google import FakeGoogle
from tests.fake_google.discovery import find_method
from tests.fake_google.fake_oauth import Grant, method_scopes

google = gm_login.google       # the fixture: a fake Google with the GM's OAuth client, every request routed to it
SILENT = "forumwar-silent-browser"


class SilentBrowser(webbrowser.BaseBrowser):
    """A browser the GM never finishes the sign-in in: nothing reaches the local page."""

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        return True


webbrowser.register(SILENT, None, SilentBrowser(SILENT))


def _token(fake: FakeGoogle, *scopes: str) -> str:
    """An access token of the GM from the fake's OAuth client with exactly these scopes."""
    return str(fake._issue(Grant(GM, fake.client.client_id, scopes))["access_token"])


def _get(fake: FakeGoogle, token: str, url: str) -> tuple[int, dict]:
    status, _, body = fake.handle("GET", url, {"Authorization": f"Bearer {token}"}, None)
    return status, json.loads(body) if body else {}


# -- the scopes -----------------------------------------------------------------------------------------

def test_every_request_of_the_gms_game_is_allowed_with_drive_file_alone(google, tmp_path):
    """`new`, `share` and `check` as the GM signed in with drive.file only: no request is refused, and the
    discovery documents list drive.file among the scopes of every method forumwar called."""
    login_in_browser(google)
    assert saved_login().scopes == (DRIVE_FILE_SCOPE,)
    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", seed="least")
    gd.config.factions["empire"].players = ["alice@example.com"]
    gd.config.gm_emails = [GM]
    gd.save_config()
    gd = GameDir(gd.path)
    google.add_user("alice@example.com")
    be = open_backend(gd)
    share_books(gd, be)
    check(gd, be=be)
    bridge = [s for s in google.sent if s.bridge]
    methods = {found[0].id for s in bridge if (found := find_method(s.method, s.url))}
    assert {"drive.files.create", "drive.permissions.create", "sheets.spreadsheets.batchUpdate"} <= methods
    assert all(DRIVE_FILE_SCOPE in method_scopes()[m] for m in methods), methods
    assert [c for c in google.calls if c.status >= 400] == []


def test_a_drive_file_token_does_not_see_a_book_the_gm_made_by_hand(google):
    login_in_browser(google)
    book = google.create_spreadsheet(GM, "Весна: Империя")           # made in the browser, not by forumwar
    backend = backend_for_account(load_gm_account(GM), books=[BookRef("empire", book, "Империя")])
    with pytest.raises(BookNotFound) as excinfo:
        backend.read_tabs(book, ["Сводка"])
    message = str(excinfo.value)
    assert "`forumwar login --all-files`" in message and "создал сам" in message
    # the checker knows the guide's file name, not this one's: the message names docs/google_access.md
    check_russian(message.replace("google_access.md", "google_sheets.md"), book="книга фракции «Империя»",
                  book_id=book)
    token = _token(google, DRIVE_FILE_SCOPE)
    listed = _get(google, token, "https://www.googleapis.com/drive/v3/files?fields=files(id)")[1]["files"]
    assert book not in {f["id"] for f in listed}
    assert _get(google, _token(google, DRIVE_SCOPE), f"https://www.googleapis.com/drive/v3/files/{book}")[0] == 200


def test_a_token_without_the_methods_scope_is_refused_as_google_does(google):
    token = _token(google, SPREADSHEETS_SCOPE)          # no Drive scope at all
    book = google.create_spreadsheet(GM, "Весна")
    status, body = _get(google, token, f"https://www.googleapis.com/drive/v3/files/{book}/permissions")
    assert status == 403 and body["error"]["errors"][0]["reason"] == "insufficientPermissions"
    assert _get(google, token, f"https://sheets.googleapis.com/v4/spreadsheets/{book}")[0] == 200


# -- the whole Drive, only for the GM's own books --------------------------------------------------------

def test_new_on_the_gms_own_books_asks_for_the_whole_drive_then_and_says_why(google, tmp_path):
    login_in_browser(google)
    said: list[str] = []
    widened = widen_access(said.append, browser_name=BROWSER)
    assert widened.whole_drive and DRIVE_FILE_SCOPE in widened.scopes and widened.account == GM
    assert any("--book" in line and "всему Google Диску" in line for line in said)
    url = ConsentBrowser.opened[-1]
    assert "include_granted_scopes=true" in url and "login_hint=" in url      # the same account, more access
    assert widen_access(said.append, browser_name=BROWSER) == saved_login()   # asked once only
    assert len(ConsentBrowser.opened) == 2
    books = {key: google.create_spreadsheet(GM, f"Весна: {key}")
             for key in ("empire", "vampires", "dwarves", "jade", "public", "gm")}
    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", book_ids=books,
                     options={"identity": "gm"})
    assert gd.config.books == books


def test_access_for_new_asks_only_for_the_gms_own_books_or_folder(google, monkeypatch):
    login_in_browser(google)
    asked: list[bool] = []
    monkeypatch.setattr(signing, "widen_access", lambda echo: asked.append(True))
    monkeypatch.delenv(game.FOLDER_ENV, raising=False)
    access_for_new(None, None, adopts=False, folder_id=None, echo=print)
    assert asked == []
    access_for_new(None, "service_account", adopts=True, folder_id=None, echo=print)
    assert asked == []
    access_for_new(None, None, adopts=True, folder_id=None, echo=print)
    access_for_new(None, "gm", adopts=False, folder_id="0AbC", echo=print)
    assert asked == [True, True]


# -- the client shipped in the package ------------------------------------------------------------------

def test_the_shipped_client_signs_in_when_the_gm_has_none(google, tmp_path, monkeypatch):
    shipped = tmp_path / "package"
    shipped.mkdir()
    (shipped / "oauth_client.json").write_text(json.dumps(google.client.secrets()), encoding="utf-8")
    monkeypatch.setattr(client_file, "SHIPPED_CLIENT", (str(shipped), "oauth_client.json"))
    monkeypatch.delenv("FORUMWAR_OAUTH_CLIENT", raising=False)
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    assert client_file.client_path() == shipped / "oauth_client.json"
    done = sign_in(None, browser_name=BROWSER, echo=lambda text: None)
    kept = json.loads(done.path.read_text(encoding="utf-8"))["credentials"]
    assert done.account == GM and kept["client_id"] == google.client.client_id
    (here / "client_secret.json").write_text("{}", encoding="utf-8")          # the GM's own file comes first
    assert client_file.client_path().resolve() == (here / "client_secret.json").resolve()


# -- a sign-in that cannot finish ----------------------------------------------------------------------------

def test_login_stops_waiting_after_the_timeout(google):
    said: list[str] = []
    with pytest.raises(LoginError) as excinfo:
        sign_in(google.client_file, browser_name=SILENT, echo=said.append, timeout=0.3)
    assert any("Ctrl+C — отменить" in line for line in said)
    message = str(excinfo.value)
    assert "не вернул вход" in message and "--timeout" in message and saved_login() is None
    check_russian(message, book=None)


def test_login_from_the_command_line_waits_with_a_timeout_and_ctrl_c_cancels(google, monkeypatch):
    def no_browser(name=None):
        raise webbrowser.Error("none")

    monkeypatch.setattr(webbrowser, "get", no_browser)
    runner = CliRunner()
    waited = runner.invoke(main, ["login", "--client", str(google.client_file), "--timeout", "0.005"])
    assert waited.exit_code == 1 and "Ctrl+C — отменить" in waited.output and "не вернул вход" in waited.output

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(signing, "sign_in", interrupted)
    cancelled = runner.invoke(main, ["login", "--client", str(google.client_file)])
    assert cancelled.exit_code == 130 and "Вход отменён" in cancelled.output
    assert "Traceback" not in cancelled.output


@pytest.mark.parametrize("error", [
    oauth_errors.InvalidGrantError(description="Malformed auth code."),
    oauth_errors.InvalidClientError(description="The OAuth client was not found."),
    oauth_errors.AccessDeniedError(description="The user denied access."),
    oauth_errors.InvalidScopeError(description="Some requested scopes were invalid."),
    oauth_errors.MismatchingStateError(),
    oauth_errors.ServerError(description="Backend Error"),
    oauth_errors.CustomOAuth2Error("admin_policy_enforced", description="Blocked by the administrator."),
    oauth_errors.CustomOAuth2Error("something_new", description="An unknown refusal."),
])
def test_googles_refusals_are_russian_without_its_english(error):
    text = oauth_error_text(error)
    assert error.description not in text
    code = re.search(r"\(Код Google: ([a-z_]+)\.\)$", text)
    assert code and code[1] == error.error
    check_russian(text[:code.start()].replace("Google Workspace", "Google"), book=None)   # a product name


def test_a_login_from_before_the_least_access_keeps_working(google):
    """A token file of an earlier forumwar (spreadsheets + drive, no recorded scopes) loads with its scopes."""
    login_in_browser(google)
    path = saved_login().path
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["scopes"]
    data["credentials"]["scopes"] = [SPREADSHEETS_SCOPE, DRIVE_SCOPE]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert saved_login().whole_drive
    assert not load_gm_account(GM).who.files_only


def test_zero_to_turn_one_with_the_shipped_client(google, tmp_path, monkeypatch):
    """The six steps of docs/google_access.md («Сборка со встроенным клиентом») without the Cloud console: the
    shipped client's login (drive.file), new, the people in game.toml, share --notify, turn."""
    from sheets_bridge.stage import run_turn
    shipped = tmp_path / "package"
    shipped.mkdir()
    (shipped / "oauth_client.json").write_text(json.dumps(google.client.secrets()), encoding="utf-8")
    monkeypatch.setattr(client_file, "SHIPPED_CLIENT", (str(shipped), "oauth_client.json"))
    monkeypatch.delenv("FORUMWAR_OAUTH_CLIENT", raising=False)
    monkeypatch.chdir(tmp_path)
    sign_in(None, browser_name=BROWSER, echo=lambda text: None)                                # step 2
    gd = create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", seed="zero")   # step 3
    players = {key: [f"{key}.player@gmail.com"] for key in gd.config.factions}                  # step 4
    for key, emails in players.items():
        gd.config.factions[key].players = emails
        google.add_user(emails[0])
    gd.config.gm_emails = [GM]
    gd.save_config()
    gd = GameDir(gd.path)
    be = open_backend(gd)
    share_books(gd, be, notify=True)                                                            # step 5
    assert {email for email, _, _ in google.notifications} >= {e for group in players.values() for e in group}
    start = gd.latest_state()["turn"], gd.latest_state()["stage"]
    run_turn(gd, be=be)                                                                         # step 6
    assert (gd.latest_state()["turn"], gd.latest_state()["stage"]) != start
    assert [c for c in google.calls if c.status >= 400] == []
