"""Creating a game: its directory, its initial state and its books from a scenario."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from engine import find_ruleset
from sheets_bridge.backend import Backend
from sheets_bridge.gamedir import FactionConfig, GameConfig, GameDir
from sheets_bridge.layouts import Layout, book_kind
from sheets_bridge.opening import open_latest
from sheets_bridge.scenarios import load_scenario
from sheets_bridge.stage_common import Progress, StageError, noop, open_backend


def book_title(layout: Layout, config: GameConfig, key: str) -> str:
    kind = book_kind(key)
    faction = config.factions[key].name if kind == "faction" else ""
    return layout.books[kind].title.format(game=config.title, faction=faction)


# -- creating a game -----------------------------------------------------------------

def create_game(path: Path, ruleset: str, scenario: str, backend: str = "xlsx", seed: str | None = None,
                title: str | None = None, book_ids: dict[str, str] | None = None,
                backend_factory: Callable[[GameDir], Backend] | None = None,
                progress: Progress = noop, credentials: str | None = None,
                folder_id: str | None = None) -> GameDir:
    """Create the game directory, its initial state and its books (pushed with the opening views)."""
    rs = find_ruleset(ruleset)
    loaded = load_scenario(rs, scenario)  # a packaged name or a .toml path; every problem at once
    scen, state = loaded.data, loaded.state
    factions = {fid: FactionConfig(name=f["name"], players=list(scen.get("factions", {}).get(fid, {}).get("players", [])))
                for fid, f in state["factions"].items()}
    config = GameConfig(ruleset=rs.name, scenario=loaded.name, backend=backend, seed=seed,
                        title=title or scen.get("title") or rs.title, factions=factions,
                        gm_emails=list(scen.get("gm_emails", [])), books={}, deadlines={}, timezone="Europe/Moscow")
    gd = GameDir.create(path, config)
    be = backend_factory(gd) if backend_factory else open_backend(gd, credentials, folder_id)
    layout = Layout.load(rs.name)
    unknown = set(book_ids or {}) - {*state["factions"], "public", "gm"}
    if unknown:
        raise StageError(f"--book names unknown books {sorted(unknown)}; use faction ids "
                         f"{sorted(state['factions'])}, 'public' or 'gm'")
    for key in [*state["factions"], "public", "gm"]:
        if book_ids and key in book_ids:
            adopt = getattr(be, "adopt_book", None)
            config.books[key] = adopt(book_ids[key], book_title(layout, config, key)) if adopt else book_ids[key]
        else:
            config.books[key] = be.create_book(key, book_title(layout, config, key))
        progress(f"book {key}: {config.books[key]}")
    gd.save_config()
    gd.open_seed(state["turn"], state["stage"])
    gd.write_snapshot(state, state["turn"], state["stage"])
    gd.append_journal({"event": "created", "turn": state["turn"], "stage": state["stage"]})
    open_latest(gd, be, progress)
    return gd
