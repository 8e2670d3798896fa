"""The password that protects the sheets of a game's xlsx books, kept in its game directory.

The password is drawn once (`secrets`) into state/xlsx-password.txt, written atomically and
readable by the GM only; every protected sheet of every book the xlsx backend writes carries it,
hashed as Excel does (SHA-512, salted, 100 000 rounds), so a player cannot unprotect a tab in
Excel or LibreOffice without it. The salt is derived from the password, so writing a book twice
gives the same file. The hash takes a seventh of a second: it is worked out once per game and kept on the
file's second line (`HASH_NOTE`, the salt and the hash, as every protected sheet shows them), for a
password whose salt it matches (one the GM typed there anew gets its own).
"""
from __future__ import annotations

import base64
import contextlib
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
HASH_NOTE = "# соль и хэш пароля для защиты листов (считаются долго и потому записаны здесь):"
_HASHES: dict[str, tuple[str, str]] = {}     # password -> (salt, hash): this process's


def password_path(game: Path | str) -> Path:
    return Path(game) / PASSWORD_FILE


def stored_password(game: Path | str) -> str | None:
    """The game's password (the file's first line), or None if it has none yet."""
    try:
        lines = password_path(game).read_text(encoding="utf-8").strip().splitlines()
    except FileNotFoundError:
        return None
    return lines[0].strip() or None if lines else None


def _stored_hash(game: Path | str, password: str) -> tuple[str, str] | None:
    """The (salt, hash) kept in the file for `password` (None: none, or another password's)."""
    with contextlib.suppress(FileNotFoundError, ValueError):
        for line in password_path(game).read_text(encoding="utf-8").splitlines()[1:]:
            if line.startswith(HASH_NOTE):
                salt, digest = line[len(HASH_NOTE):].split()
                if salt == _salt(password):
                    return salt, digest
    return None


def _write(path: Path, password: str) -> None:
    """The password file: the password, then its salt and hash; atomically, readable by its owner only."""
    salt, digest = protection_hash(password)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"{password}\n{HASH_NOTE} {salt} {digest}\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def ensure_password(game: Path | str) -> str:
    """The game's password, drawn and stored (atomically, mode 0600) the first time."""
    have = stored_password(game)
    if have is not None:
        return have
    path = password_path(game)
    path.parent.mkdir(parents=True, exist_ok=True)
    password = secrets.token_urlsafe(12)
    _write(path, password)
    return password


def game_password(root: Path | str) -> str | None:
    """The password of the game in `root` (made if the game has none yet); None if `root` is no game."""
    if not (Path(root) / GAME_FILE).is_file():
        return stored_password(root)
    password = ensure_password(root)
    if password not in _HASHES:
        kept = _stored_hash(root, password)
        if kept is not None:
            _HASHES[password] = kept
        else:               # a file from before the hash was kept, or a password the GM changed
            with contextlib.suppress(OSError):      # a read-only copy: worked out again next time
                _write(password_path(root), password)
    return password


def forget() -> None:
    """Drop this process's hashes (as a new process starts: the kept ones are read from the games' files)."""
    _HASHES.clear()


def _salt(password: str) -> str:
    return base64.b64encode(hashlib.sha256(b"forumwar sheet protection\x00" + password.encode("utf-8")).digest()[:16]
                            ).decode("ascii")


def protection_hash(password: str) -> tuple[str, str]:
    """(salt, hash), both base64, of `password` as Excel's sheet protection stores them: SHA-512 of
    the salt and the UTF-16LE password, then SPIN_COUNT rounds of SHA-512(hash + round number); worked out
    once per process, or read from the game's file (`game_password`)."""
    kept = _HASHES.get(password)
    if kept is not None:
        return kept
    salt = base64.b64decode(_salt(password))
    digest = hashlib.sha512(salt + password.encode("utf-16-le")).digest()
    for i in range(SPIN_COUNT):
        digest = hashlib.sha512(digest + i.to_bytes(4, "little")).digest()
    _HASHES[password] = _salt(password), base64.b64encode(digest).decode("ascii")
    return _HASHES[password]


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
