"""Who forumwar is on Google: a service account (its key file) or the GM's own account (`forumwar login`).

game.toml's `[google] identity` names which one a game uses; `Who` gives every Russian message the
words for it, so a GM always reads which identity failed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sheets_bridge.backends.gsheets.settings import GoogleIdentity

IDENTITY_TEXT = {"service_account": "сервисный аккаунт (ключ credentials.json)",
                 "gm": "аккаунт мастера (вход forumwar login)"}


@dataclass(frozen=True)
class Who:
    """An identity for messages: the e-mail and which kind of account it is."""

    email: str
    identity: GoogleIdentity = "service_account"
    files_only: bool = False      # the GM's login reaches only the files forumwar made (scope drive.file)

    @property
    def is_gm(self) -> bool:
        return self.identity == "gm"

    @property
    def nominative(self) -> str:
        """«сервисный аккаунт bot@…» or «аккаунт мастера gm@… (вход forumwar login)»."""
        return (f"аккаунт мастера {self.email} (вход forumwar login)" if self.is_gm
                else f"сервисный аккаунт {self.email}")

    @property
    def dative(self) -> str:
        return f"аккаунту мастера {self.email}" if self.is_gm else f"сервисному аккаунту {self.email}"

    @property
    def genitive(self) -> str:
        return f"аккаунта мастера {self.email}" if self.is_gm else f"сервисного аккаунта {self.email}"


@dataclass(frozen=True)
class GoogleAccount:
    """Loaded credentials: who they are, the google-auth credentials, and the file they came from."""

    who: Who
    credentials: Any
    source: str

    @property
    def email(self) -> str:
        return self.who.email
