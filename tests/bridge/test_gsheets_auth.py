"""Loading the service-account key, and the clear errors of the usual credential mistakes."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from sheets_bridge.backends.base import BookRef, TabWrite
from sheets_bridge.backends.gsheets.auth import CredentialsError, load_service_account
from sheets_bridge.backends.gsheets.game import open_gsheets_backend
from tests.fake_google import FakeGoogle, gm_created_books, routed_to
from tests.paths import REPO

BOT = "bot@forumwar-test.iam.gserviceaccount.com"
GM = "gm@example.com"


@pytest.fixture(autouse=True)
def _private_request_budget(tmp_path, monkeypatch):
    """open_gsheets_backend keeps its request budget in the user cache: a test keeps its own."""
    monkeypatch.setenv("FORUMWAR_CACHE_DIR", str(tmp_path / "cache"))


@pytest.fixture(scope="module")
def key_info() -> dict:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption()).decode()
    return {"type": "service_account", "project_id": "forumwar-test", "private_key_id": "0123abcd",
            "private_key": pem, "client_email": BOT, "client_id": "1234567890",
            "token_uri": "https://oauth2.googleapis.com/token"}


def write(tmp_path: Path, content) -> Path:
    path = tmp_path / "credentials.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def test_a_valid_key_loads(tmp_path, key_info):
    account = load_service_account(write(tmp_path, key_info))
    assert account.email == BOT and account.project_id == "forumwar-test"
    assert "https://www.googleapis.com/auth/spreadsheets" in account.credentials.scopes


def test_missing_file_says_where_to_put_the_key(tmp_path):
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(tmp_path / "credentials.json")
    message = str(excinfo.value)
    assert "Нет файла с ключом сервисного аккаунта" in message and "docs/google_sheets.md" in message


def test_broken_json_says_where(tmp_path):
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(write(tmp_path, '{"type": "service_account",\n  "client_email": }'))
    assert "испорченный JSON" in str(excinfo.value) and "в строке 2" in str(excinfo.value)


@pytest.mark.parametrize("content, expected", [
    ({"installed": {"client_id": "x"}}, "forumwar login --client"),
    ({"type": "authorized_user", "refresh_token": "x"}, "токен входа человека"),
    (["not", "a", "key"], "JSON-список"),
])
def test_other_kinds_of_google_json_are_named(tmp_path, content, expected):
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(write(tmp_path, content))
    assert expected in str(excinfo.value) and "не ключ сервисного аккаунта" in str(excinfo.value)


def test_cut_key_names_the_missing_fields(tmp_path, key_info):
    cut = {k: v for k, v in key_info.items() if k != "private_key"}
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(write(tmp_path, cut))
    assert "нет поля private_key" in str(excinfo.value)


def test_the_example_file_is_refused_as_placeholders(tmp_path):
    example = (REPO / "credentials.example.json").read_text(encoding="utf-8")
    assert json.loads(example)["type"] == "service_account"
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(write(tmp_path, example))
    assert "образец credentials.example.json с заглушками" in str(excinfo.value)


def test_unreadable_private_key(tmp_path, key_info):
    broken = dict(key_info, private_key="-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
    with pytest.raises(CredentialsError) as excinfo:
        load_service_account(write(tmp_path, broken))
    assert "Закрытый ключ (private_key)" in str(excinfo.value) and "не читается" in str(excinfo.value)


def test_credentials_json_is_ignored_by_git():
    result = subprocess.run(["git", "check-ignore", "-q", "credentials.json"], cwd=REPO, check=False)
    assert result.returncode == 0
    result = subprocess.run(["git", "check-ignore", "-q", "credentials.example.json"], cwd=REPO, check=False)
    assert result.returncode == 1


def test_real_credentials_flow_signs_a_jwt_and_gets_a_token(tmp_path, key_info):
    fake = FakeGoogle()
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    with routed_to(fake):       # the real google-auth session: API calls and the token exchange
        backend = open_gsheets_backend(write(tmp_path, key_info), gm_emails=[GM],
                                       books=[BookRef("empire", book, "Империя")])
        backend.write_book(book, [TabWrite("Сводка", header=("Показатель",), rows=(("Золото",),))])
    assert fake.count("oauth.token", identity=BOT, status=200) == 1      # one token, reused
    assert {c.identity for c in fake.calls} == {BOT}
    assert fake.count("spreadsheets.batchUpdate", status=200) == 1


def test_revoked_key_is_a_credentials_error(tmp_path, key_info):
    fake = FakeGoogle()
    book = gm_created_books(fake, GM, BOT, {"empire": []})["empire"]
    fake.identities[BOT].revoked = True
    with routed_to(fake), pytest.raises(CredentialsError) as excinfo:
        backend = open_gsheets_backend(write(tmp_path, key_info), books=[BookRef("empire", book, "Империя")])
        backend.read_tabs(book, ["Сводка"])
    assert f"Google не принял ключ сервисного аккаунта {BOT}" in str(excinfo.value)
    assert "invalid_grant" in str(excinfo.value)
