"""Local .xlsx books, read and written with openpyxl: the embedded default backend."""
from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from sheets_bridge.backends.base import Backend, BackendKind, BackendOptions
from sheets_bridge.gamedir import GameDir


class XlsxKind(BackendKind[None]):
    """Files in the game's folder: no settings of their own, no options, no commands."""

    name = "xlsx"
    books_text = "файлы Excel"
    reads_are_free = True
    sharing_note: ClassVar[str | None] = (
        "Книги этой игры — файлы Excel: отдайте каждой фракции её файл из папки books/ (общую книгу — всем, "
        "книгу мастера — никому).")

    def backend_class(self) -> type[Backend]:
        from sheets_bridge.backends.xlsx.backend import XlsxBackend
        return XlsxBackend

    def settings(self, table: Mapping[str, Any], options: BackendOptions) -> None:
        return None

    def open(self, gd: GameDir, settings: None) -> Backend:
        from sheets_bridge.backends.xlsx.backend import XlsxBackend
        return XlsxBackend(gd.path)

    def prepare_game(self, game_path: Path, progress: Callable[[str], None]) -> None:
        from sheets_bridge.backends.xlsx.password import ensure_password, password_path
        ensure_password(game_path)
        progress(f"пароль защиты листов в книгах: {password_path(game_path)} (для мастера; игрокам его не давайте)")


KIND = XlsxKind()
