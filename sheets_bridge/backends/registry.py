"""The one registry of backends. It imports nothing, so `gameconfig`, the CLI and the tests read it without
loading any backend.

`KINDS`: game.toml's `backend = "..."` -> the package whose `KIND` declares it (sheets_bridge.backends.base
.BackendKind). `SETTINGS_TABLES`: the game.toml table that holds a backend's own settings, kept by GameConfig
as is and checked by its kind. A third backend adds its package beside these two and one line to each dict.
"""
from __future__ import annotations

KINDS: dict[str, str] = {
    "xlsx": "sheets_bridge.backends.xlsx",
    "gsheets": "sheets_bridge.backends.gsheets",
}
SETTINGS_TABLES: dict[str, str] = {
    "gsheets": "google",
}
NAMES: tuple[str, ...] = tuple(KINDS)
