"""Creating a game: its directory, its initial state and its books from a scenario."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine import find_ruleset
from engine.state import Envelope
from sheets_bridge import opening
from sheets_bridge.backends import kind as backend_kind
from sheets_bridge.backends.base import AdoptsBooks, Backend, BackendOptions, SharesGame
from sheets_bridge.gamedir import FactionConfig, GameConfig, GameDir
from sheets_bridge.layouts import Layout, book_kind
from sheets_bridge.opening import open_latest
from sheets_bridge.scenarios import Scenario, load_scenario
from sheets_bridge.stage_common import Progress, StageError, noop, open_backend, require_complete_books


def book_title(layout: Layout, config: GameConfig, key: str) -> str:
    kind = book_kind(key)
    faction = config.factions[key].name if kind == "faction" else ""
    return layout.books[kind].title.format(game=config.title, faction=faction)


# -- creating a game -----------------------------------------------------------------

def create_game(path: Path, ruleset: str, scenario: str | Scenario, backend: str = "xlsx", seed: str | None = None,
                title: str | None = None, book_ids: dict[str, str] | None = None,
                backend_factory: Callable[[GameDir], Backend] | None = None,
                progress: Progress = noop, options: BackendOptions | None = None,
                pictures: bool = True) -> GameDir:
    """Create the game directory, its initial state and its books (pushed with the opening views). `scenario`: a
    packaged name or a .toml path (every problem at once), or a scenario already loaded (a situation file's);
    `options`: the command's backend options (e.g. Google's {"identity": "gm"}); `pictures`: whether the game draws
    its maps and charts ([pictures] draw)."""
    rs = find_ruleset(ruleset)
    loaded = scenario if isinstance(scenario, Scenario) else load_scenario(rs, scenario)
    scen, state = loaded.data, loaded.state
    env = Envelope.of(state)
    scen_factions = scen.get("factions", {})
    factions = {f.id: FactionConfig(name=f.name, players=list(scen_factions.get(f.id, {}).get("players", [])))
                for f in env.factions}
    config = GameConfig(ruleset=rs.name, scenario=loaded.name, backend=backend, seed=seed,
                        title=title or scen.get("title") or rs.title, factions=factions,
                        gm_emails=list(scen.get("gm_emails", [])), books={}, deadlines={}, timezone="Europe/Moscow",
                        draw_pictures=pictures)
    if backend_factory is None and not (path / "game.toml").is_file():
        chosen = backend_kind(backend)
        chosen.configure_new(config, chosen.settings({}, options or {}))   # e.g. which Google identity
    gd = GameDir.create(path, config, resume=True)   # a half-made game of a `new` that failed: finish it
    config = gd.config                                  # (its game.toml keeps the books made so far)
    if gd.snapshots() and (opening.latest_opening(gd).kind != "new" or opening.pending(gd) is None):
        raise StageError(f"игра в {path} уже создана и готова; чтобы начать заново, выберите другой каталог")
    be = backend_factory(gd) if backend_factory else open_backend(gd, options)
    layout = Layout.load(rs.name)
    backend_kind(config.backend).prepare_game(gd.path, progress)
    unknown = set(book_ids or {}) - {*env.faction_ids, "public", "gm"}
    if unknown:
        raise StageError(f"--book называет неизвестные книги {', '.join(sorted(unknown))}; книги игры: "
                         f"{', '.join(env.faction_ids)}, public (общая) и gm (мастера)")
    for key in [*env.faction_ids, "public", "gm"]:
        if key in config.books:          # made (or adopted) by an earlier run of `new`
            progress(f"книга «{book_title(layout, config, key)}»: {config.books[key]} (сделана раньше)")
            continue
        if book_ids and key in book_ids:
            config.books[key] = (be.adopt_book(book_ids[key], book_title(layout, config, key))
                                 if isinstance(be, AdoptsBooks) else book_ids[key])
        else:
            config.books[key] = be.create_book(key, book_title(layout, config, key))
        gd.save_config()                 # recorded as soon as it exists: a re-run never makes it again
        progress(f"книга «{book_title(layout, config, key)}»: {config.books[key]}")
    if not gd.snapshots():
        gd.open_seed(state["turn"], state["stage"])
        gd.write_snapshot(state, state["turn"], state["stage"])
        gd.append_journal({"event": "created", "turn": state["turn"], "stage": state["stage"]})
    open_latest(gd, be, progress)
    return gd


# -- a game's books are complete; sharing them ---------------------------------------------

def share_books(gd: GameDir, be: SharesGame, *, notify: bool = False, revoke: bool = False) -> list[str]:
    """`forumwar share`: give each book to exactly the people of game.toml, then set every tab's
    protections as the next push would (the same rendering), so that each faction's players and
    the GMs can type in exactly their open order tabs at once. Returns the warnings."""
    from sheets_bridge.render import render_books
    from sheets_bridge.tab_lock import lock_record
    with gd.lock():
        require_complete_books(gd)
        warnings = be.share_game(gd.config, notify=notify, revoke=revoke)
        if opening.pending(gd) is not None:
            return [*warnings, "Обновление книг прошлого этапа не закончено, поэтому права на вкладки приказов "
                               "не изменены: запустите forumwar turn, он доделает его и выдаст их."]
        latest = opening.latest_opening(gd)
        state = gd.read_snapshot(latest.turn, latest.stage)
        rs = find_ruleset(state["ruleset"])
        closed = latest.kind == "rollback" and not (latest.rollback or {}).get("reopen", False)
        closed = closed or lock_record(gd, latest.turn, latest.stage) is not None   # `forumwar lock` closed it
        books = render_books(gd, rs, Layout.load(rs.name), state, saved={}, cleared=set(), lock_stage=closed)
        for key, tabs in books.items():
            be.update_protections(gd.config.books[key], tabs)
        return warnings
