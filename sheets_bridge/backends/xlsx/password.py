"""The password that protects the sheets of a game's xlsx books, kept in its game directory.

The password is drawn once (`secrets`) into state/xlsx-password.txt, written atomically and
readable by the GM only; every protected sheet of every book the xlsx backend writes carries it,
hashed as Excel does (SHA-512, salted, 100 000 rounds), so a player cannot unprotect a tab in
Excel or LibreOffice without it. The salt is derived from the password, so writing a book twice
gives the same file.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import os
import secrets
import tempfile
from pathlib import Path

from openpyxl import Workbook

PASSWORD_FILE = Path("state") / "xlsx-password.txt"
GAME_FILE = "game.toml"          # what makes a folder a game directory
SPIN_COUNT = 100_000             # Excel's own number of hash rounds
ALGORITHM = "SHA-512"


def password_path(game: Path | str) -> Path:
    return Path(game) / PASSWORD_FILE


def stored_password(game: Path | str) -> str | None:
    """The game's password, or None if it has none yet."""
    try:
        text = password_path(game).read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return text or None


def ensure_password(game: Path | str) -> str:
    """The game's password, drawn and stored (atomically, mode 0600) the first time."""
    have = stored_password(game)
    if have is not None:
        return have
    path = password_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(12)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(password + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return password


def game_password(root: Path | str) -> str | None:
    """The password of the game in `root` (made if the game has none yet); None if `root` is no game."""
    if not (Path(root) / GAME_FILE).is_file():
        return stored_password(root)
    return ensure_password(root)


@functools.lru_cache(maxsize=8)
def protection_hash(password: str) -> tuple[str, str]:
    """(salt, hash), both base64, of `password` as Excel's sheet protection stores them: SHA-512 of
    the salt and the UTF-16LE password, then SPIN_COUNT rounds of SHA-512(hash + round number)."""
    salt = hashlib.sha256(b"forumwar sheet protection\x00" + password.encode("utf-8")).digest()[:16]
    digest = hashlib.sha512(salt + password.encode("utf-16-le")).digest()
    for i in range(SPIN_COUNT):
        digest = hashlib.sha512(digest + i.to_bytes(4, "little")).digest()
    return base64.b64encode(salt).decode("ascii"), base64.b64encode(digest).decode("ascii")


def lock_sheets(wb: Workbook, password: str | None) -> None:
    """Put `password` on every protected sheet of the workbook (None: protection without one)."""
    salt, digest = protection_hash(password) if password else (None, None)
    for ws in wb.worksheets:
        prot = ws.protection
        if not prot.sheet:
            continue
        prot.set_password(None, already_hashed=True)   # no weak legacy hash beside the SHA-512 one
        prot.algorithmName = ALGORITHM if password else None
        prot.saltValue, prot.hashValue = salt, digest
        prot.spinCount = SPIN_COUNT if password else None
