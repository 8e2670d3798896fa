"""The Google backend's settings: game.toml's `[google]` table (who forumwar is on Google) with its checks, and
what a command adds to it (`--credentials`, `--folder`, `--identity`). GameConfig keeps the table as is;
this module alone reads it."""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, get_args

# [google] identity: who forumwar is on Google (sheets_bridge.backends.gsheets.accounts)
GoogleIdentity = Literal["service_account", "gm"]
GOOGLE_IDENTITIES: tuple[GoogleIdentity, ...] = get_args(GoogleIdentity)
KEYS = ("identity", "account")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


@dataclass(frozen=True)
class GoogleSettings:
    """A Google game's settings as a command opens it: game.toml's identity and account, and the command's
    key file and Drive folder (None: $FORUMWAR_CREDENTIALS, $FORUMWAR_DRIVE_FOLDER or the defaults)."""

    identity: GoogleIdentity = "service_account"
    account: str = ""                 # the GM's address a "gm" game was created with
    credentials: str | None = None    # --credentials: the service account's key file
    folder_id: str | None = None      # --folder: where `new` makes the books
    asked_identity: str | None = None  # --identity of `new`: None lets `new` choose


def problems(table: Any) -> list[str]:
    """The problems of `[google]` (identity, account), in Russian."""
    choices = ("«gm» (аккаунт мастера, вход forumwar login) или «service_account» (сервисный аккаунт, ключ "
               "credentials.json)")
    if not isinstance(table, dict):
        return [f"[google] должна быть таблицей с ключом identity = {choices}, а не {table!r}"]
    found = [f"google: неизвестный ключ «{key}» (известны: {', '.join(KEYS)})" for key in table if key not in KEYS]
    if table.get("identity", "service_account") not in GOOGLE_IDENTITIES:
        found.append(f"google.identity — {choices}, а не {table['identity']!r}")
    account = table.get("account", "")
    if not isinstance(account, str) or (account and not _EMAIL.match(account)):
        found.append(f"google.account — адрес аккаунта Google мастера, например «gm@gmail.com», а не {account!r}")
    return found


def read(table: Mapping[str, Any], options: Mapping[str, str | None]) -> GoogleSettings:
    """The settings of a valid `[google]` table and a command's options."""
    identity = table.get("identity", "service_account")
    return GoogleSettings(identity="gm" if identity == "gm" else "service_account",
                          account=str(table.get("account", "")),
                          credentials=options.get("credentials") or None,
                          folder_id=options.get("folder") or None,
                          asked_identity=options.get("identity") or None)


def table(identity: GoogleIdentity, account: str) -> dict[str, Any]:
    """The `[google]` table a new game records."""
    return {"identity": identity, **({"account": account} if account else {})}
