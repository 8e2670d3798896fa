"""Signing in as the GM (`forumwar login`): Google's installed-app flow against the fake's OAuth server, the
kept token (private, refreshed, revoked), and whole games whose books live in the GM's own Drive.

The flow is google-auth-oauthlib's own: a local page on a real loopback port receives the consent's
redirect (a browser registered with `webbrowser` plays the GM at Google's consent screen), or the GM pastes
the address on a machine without a browser. Every Google request goes to the fake through `routed_to`.
"""
from __future__ import annotations

import json
import os
import stat
import threading
import webbrowser
from pathlib import Path

import pytest
import requests
from click.testing import CliRunner

from sheets_bridge.backends.base import BookRef, TabWrite
from sheets_bridge.backends.gsheets.auth import CredentialsError
from sheets_bridge.backends.gsheets.game import backend_for_account
from sheets_bridge.backends.gsheets.login import LoginError, load_gm_account, saved_login, sign_in, sign_out
from sheets_bridge.cli import main
from sheets_bridge.create import create_game, share_books
from sheets_bridge.gameconfig import config_problems
from sheets_bridge.gamedir import GameDir
from sheets_bridge.stage import check, run_turn
from sheets_bridge.stage_common import open_backend
from tests.bridge.test_google_messages_russian import check_russian
from tests.fake_google import FakeGoogle, routed_to
from tests.fake_google.fake_oauth import ConsentRefused

GM = "master.forum@gmail.com"
OTHER = "someone.else@gmail.com"
BROWSER = "forumwar-test-browser"


class ConsentBrowser(webbrowser.BaseBrowser):
    """A browser at Google's consent screen: `who` signs in and allows; the redirect reaches the local page."""

    fake: FakeGoogle | None = None
    who = GM
    allow = True
    opened: list[str] = []
    refused: list[ConsentRefused] = []

    def open(self, url: str, new: int = 0, autoraise: bool = True) -> bool:
        self.opened.append(url)

        def follow() -> None:
            assert self.fake is not None
            try:
                redirect = self.fake.consent(url, self.who, allow=self.allow)
            except ConsentRefused as err:      # Google's own error page: nothing reaches the local page
                self.refused.append(err)
                return
            session = requests.Session()
            session.trust_env = False          # straight to the loopback page, never a proxy
            session.get(redirect, timeout=10)

        threading.Thread(target=follow, daemon=True).start()
        return True


webbrowser.register(BROWSER, None, ConsentBrowser(BROWSER))


@pytest.fixture
def google(tmp_path, monkeypatch):
    """A fake Google with the GM's OAuth client (consent screen in testing, the GM a test user), its
    client file, and a private config and cache folder; every request of the test goes to the fake."""
    monkeypatch.setenv("FORUMWAR_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FORUMWAR_CREDENTIALS", raising=False)
    fake = FakeGoogle()
    fake.add_user(GM)
    fake.client = fake.add_oauth_client(test_users=(GM,))
    client_file = tmp_path / "client_secret.json"
    client_file.write_text(json.dumps(fake.client.secrets()), encoding="utf-8")
    fake.client_file = client_file
    ConsentBrowser.fake, ConsentBrowser.who, ConsentBrowser.allow = fake, GM, True
    ConsentBrowser.opened, ConsentBrowser.refused = [], []
    with routed_to(fake):
        yield fake


def login_in_browser(fake: FakeGoogle):
    return sign_in(fake.client_file, browser=True, browser_name=BROWSER, echo=lambda text: None)


def token_file() -> Path:
    return Path(os.environ["FORUMWAR_CONFIG_DIR"]) / "google-login.json"


# -- signing in -------------------------------------------------------------------------------------------

def test_login_in_the_browser_keeps_a_private_refreshable_token(google):
    done = login_in_browser(google)
    assert done.account == GM and done.path == token_file()
    data = json.loads(token_file().read_text(encoding="utf-8"))
    assert data["account"] == GM
    assert data["credentials"]["refresh_token"] in google.refresh_tokens
    assert data["credentials"]["client_id"] == google.client.client_id
    # the consent asked for offline access with PKCE, and for the least access: the files forumwar makes
    url = ConsentBrowser.opened[0]
    assert "access_type=offline" in url and "code_challenge_method=S256" in url
    assert set(google.refresh_tokens[data["credentials"]["refresh_token"]].scopes) == {
        "https://www.googleapis.com/auth/drive.file"}
    assert done.scopes == ("https://www.googleapis.com/auth/drive.file",) and not done.whole_drive
    if os.name == "posix":
        assert stat.S_IMODE(token_file().stat().st_mode) == 0o600
    assert google.count("drive.about.get", identity=GM, status=200) == 1     # whose account it is


def test_login_without_a_browser_by_pasting_the_address(google):
    asked = []

    def paste(text: str) -> str:
        asked.append(text)
        url = text.split("\n")[1]
        return google.consent(url, GM)            # the address bar of the browser on another device

    done = sign_in(google.client_file, browser=False, paste=paste)
    assert done.account == GM
    assert "http://localhost:8085/" in asked[0] and "Скопируйте этот адрес" in asked[0]


def test_a_refused_consent_or_a_foreign_address_is_explained(google):
    def cancel(text: str) -> str:
        return google.consent(text.split("\n")[1], GM, allow=False)

    with pytest.raises(LoginError) as refused:
        sign_in(google.client_file, browser=False, paste=cancel)
    assert "Вы отказались дать forumwar доступ" in str(refused.value)

    def other_login(text: str) -> str:
        return google.consent(text.split("\n")[1], GM).replace("state=", "state=x")

    with pytest.raises(LoginError) as foreign:
        sign_in(google.client_file, browser=False, paste=other_login)
    assert "адрес другого входа" in str(foreign.value)
    assert not token_file().exists()


@pytest.mark.parametrize("content, expected", [
    (None, "Нет файла клиента OAuth"),
    ({"type": "service_account", "client_email": "bot@x.iam.gserviceaccount.com"}, "ключ сервисного аккаунта"),
    ({"web": {"client_id": "x"}}, "«Веб-приложение»"),
    ({"installed": {"client_id": "x"}}, "не файл клиента OAuth"),
    ("не json", "не JSON клиента OAuth"),
])
def test_client_file_mistakes_are_named(tmp_path, google, content, expected):
    path = tmp_path / "client.json"
    if content is not None:
        path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    with pytest.raises(LoginError) as excinfo:
        sign_in(path, browser=False, paste=lambda text: "")
    assert expected in str(excinfo.value)
    assert "Приложение для ПК" in str(excinfo.value) or "forumwar login" in str(excinfo.value)


def test_a_deleted_oauth_client_is_named_at_the_token_exchange(google):
    def paste(text: str) -> str:
        answer = google.consent(text.split("\n")[1], GM)
        del google.oauth_clients[google.client.client_id]     # deleted in the console meanwhile
        return answer

    with pytest.raises(LoginError) as excinfo:
        sign_in(google.client_file, browser=False, paste=paste)
    assert "Google не знает этот клиент OAuth" in str(excinfo.value) and "invalid_client" in str(excinfo.value)


# -- the kept token ---------------------------------------------------------------------------------------

def _book_backend(fake: FakeGoogle):
    """The GM's backend on a book forumwar made in their own Drive (the login reaches only such books)."""
    book = backend_for_account(load_gm_account(GM)).create_book("empire", "forumwar: empire")
    return backend_for_account(load_gm_account(GM), books=[BookRef("empire", book, "Империя")]), book


def test_an_expired_access_token_is_refreshed_and_saved(google):
    login_in_browser(google)
    before = json.loads(token_file().read_text(encoding="utf-8"))["credentials"]["token"]
    google.expire_access_tokens(GM)
    backend, book = _book_backend(google)
    backend.write_book(book, [TabWrite("Сводка", header=("Показатель",), rows=(("Золото",),))])
    after = json.loads(token_file().read_text(encoding="utf-8"))["credentials"]
    assert after["token"] != before                       # the new access token is kept for the next command
    assert after["refresh_token"] in google.refresh_tokens
    assert google.count("spreadsheets.batchUpdate", identity=GM, status=200) == 1
    assert google.count("oauth.token", identity=GM, status=200) == 2      # the login's code, then one refresh


def test_a_revoked_login_says_which_account_and_to_sign_in_again(google):
    login_in_browser(google)
    backend, book = _book_backend(google)
    google.revoke_access(GM)          # the GM removed forumwar from their Google Account
    with pytest.raises(CredentialsError) as excinfo:
        backend.read_tabs(book, ["Сводка"])
    message = str(excinfo.value)
    assert f"вход аккаунта мастера {GM}" in message and "`forumwar login`" in message
    assert "7 дней" in message and "invalid_grant" in message
    check_russian(message, book=None)


def test_the_game_names_the_account_it_was_made_with(google):
    google.add_user(OTHER)
    google.client.test_users.add(OTHER)
    ConsentBrowser.who = OTHER
    login_in_browser(google)
    with pytest.raises(CredentialsError) as excinfo:
        load_gm_account(GM)
    assert f"ведётся от аккаунта мастера {GM}" in str(excinfo.value) and f"вход как {OTHER}" in str(excinfo.value)


def test_a_gm_game_without_a_login_says_to_sign_in(google):
    with pytest.raises(CredentialsError) as excinfo:
        load_gm_account(GM)
    assert "вход в Google не выполнен" in str(excinfo.value) and "forumwar login" in str(excinfo.value)


def test_logout_revokes_at_google_and_removes_the_token(google):
    login_in_browser(google)
    refresh = json.loads(token_file().read_text(encoding="utf-8"))["credentials"]["refresh_token"]
    account, text = sign_out()
    assert account == GM and "отозван у Google" in text
    assert not token_file().exists() and saved_login() is None
    assert google.refresh_tokens[refresh].revoked and google.revocations == [GM]
    assert sign_out()[1].startswith("На этом компьютере вход в Google не выполнен")


def test_logout_and_login_from_the_command_line(google, tmp_path):
    runner = CliRunner()
    assert "вход в Google не выполнен" in runner.invoke(main, ["logout"]).output
    missing = runner.invoke(main, ["login", "--client", str(tmp_path / "nope.json")])
    assert missing.exit_code == 1 and "Нет файла клиента OAuth" in missing.output
    done = runner.invoke(main, ["login", "--client", str(google.client_file), "--no-browser"],
                         input="not-a-code\n")
    assert done.exit_code == 1 and "Код входа устарел или уже использован" in done.output
    assert "invalid_grant" in done.output and "Malformed" not in done.output     # Google's code, not its words
    assert "--identity" in runner.invoke(main, ["new", "--help"]).output


# -- whole games in the GM's own Drive ----------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["jade_rose", pytest.param("titania", marks=pytest.mark.skipif(
    os.environ.get("FORUMWAR_FULL_TESTS") != "1",
    reason="make test-full: a minute of fake Google; the same flow runs on Jade Rose, Titania's books on xlsx"))])
def test_a_whole_game_as_the_gm_in_their_own_drive(google, tmp_path, ruleset):
    """`new` without a key after `forumwar login` makes the game the GM's: every book created in the GM's
    Drive (no shared drive, no book made by hand), shared with the players, played through both stages;
    every request of forumwar is the GM's and agrees with Google's discovery documents."""
    login_in_browser(google)
    gd = create_game(tmp_path / "game", ruleset, "demo", backend="gsheets", seed="gm-login")
    config = gd.config
    assert config.backend_settings == {"identity": "gm", "account": GM}
    text = (gd.path / "game.toml").read_text(encoding="utf-8")
    assert '[google]\nidentity = "gm"\naccount = "master.forum@gmail.com"' in text
    books = set(config.books.values())
    assert len(books) == len(config.factions) + 2
    assert all(google.files[b].owner == GM and not google.files[b].parents for b in books)

    players = {p for f in config.factions.values() for p in f.players}
    for email in players:
        google.add_user(email)
    be = open_backend(GameDir(gd.path))
    share_books(gd, be)
    for key, faction in config.factions.items():
        for email in faction.players:
            assert google.role_of(google.files[config.books[key]], email) == "writer"

    check(gd, be=be)
    start = gd.latest_state()["turn"]
    run_turn(gd, be=be)
    run_turn(gd, be=be)       # two stages (a Jade Rose turn without battles has no planning stage)
    assert gd.latest_state()["turn"] > start
    bridge = [s for s in google.sent if s.bridge]
    assert bridge and {s.identity for s in bridge} == {GM}
    assert [p for s in bridge for p in s.problems] == []
    assert {c.identity for c in google.calls} == {GM}


def test_new_with_identity_gm_but_no_login_says_to_sign_in_first(google, tmp_path):
    with pytest.raises(CredentialsError) as excinfo:
        create_game(tmp_path / "game", "jade_rose", "demo", backend="gsheets", options={"identity": "gm"})
    assert "начинается со входа" in str(excinfo.value)
    assert not (tmp_path / "game" / "game.toml").exists()


def test_game_toml_google_section_is_checked():
    base = {"ruleset": "jade_rose", "scenario": "demo", "backend": "gsheets"}
    assert config_problems({**base, "google": {"identity": "gm", "account": GM}}) == []
    problems = config_problems({**base, "google": {"identity": "robot", "account": "nobody", "x": 1}})
    assert any("google.identity" in p and "forumwar login" in p for p in problems)
    assert any("google.account" in p for p in problems) and any("«x»" in p for p in problems)
