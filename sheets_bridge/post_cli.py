"""`forumwar post GAME [--turn N] [--battle ГОРОД] [--faction ФРАКЦИЯ]`: the archived forum posts."""
from __future__ import annotations

import click

from engine import find_ruleset
from engine.cells import normalize_name
from sheets_bridge import posts
from sheets_bridge.cli_text import game_at


@click.command("post")
@click.argument("game_dir", type=click.Path(file_okay=False))
@click.option("--turn", type=int, default=None, help="Ход (по умолчанию последний рассчитанный).")
@click.option("--battle", default=None, help="Только отчёт о бое: город или провинция, как в книгах.")
@click.option("--faction", default=None, help="Только свой пост фракции (например, её города).")
def post(game_dir: str, turn: int | None, battle: str | None, faction: str | None) -> None:
    """Напечатать готовые посты для форума (BBCode) по итогам хода.

    Сначала общая хроника с проверкой честности костей, затем полный отчёт о каждом бое, затем посты
    фракций. Посты лежат в archive/turn-NNNN/post-*.bbcode и пишутся после каждого этапа.
    """
    gd = game_at(game_dir)
    state = gd.latest_state()
    rs = find_ruleset(state["ruleset"])
    turns = sorted(int(p.name[len("turn-"):]) for p in (gd.path / "archive").glob("turn-*") if p.is_dir())
    found = [t for t in turns if posts.archived(gd.archive_path(t), t, rs.stages)]
    if turn is None:
        if not found:
            raise click.ClickException("постов ещё нет: они появляются после первого рассчитанного этапа")
        turn = found[-1]
    chosen = posts.archived(gd.archive_path(turn), turn, rs.stages)
    if not chosen:
        raise click.ClickException(f"постов хода {turn} нет; есть посты ходов: "
                                   f"{', '.join(map(str, found)) or 'никаких'}")
    if faction is not None:
        wanted = normalize_name(faction)
        ids = [fid for fid in rs.factions(state)
               if wanted in (normalize_name(fid), normalize_name(state["factions"][fid]["name"]))]
        if not ids:
            names = ", ".join(state["factions"][f]["name"] for f in rs.factions(state))
            raise click.ClickException(f"фракции «{faction}» нет в игре; есть: {names}")
        chosen = [p for p in chosen if p.key.startswith(f"faction-{ids[0]}-")]
    elif battle is not None:
        wanted = normalize_name(battle)
        chosen = [p for p in chosen if p.key.startswith("battle-")
                  and wanted in normalize_name(p.bbcode.splitlines()[0] if p.bbcode else "")]
        if not chosen:
            raise click.ClickException(f"в ходе {turn} нет боя за «{battle}»")
    else:
        chosen = [p for p in chosen if not p.key.startswith("faction-")]
    click.echo("\n\n".join(p.bbcode.rstrip() for p in chosen))
