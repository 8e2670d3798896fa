"""The books' links `forumwar share` prints: each faction's book with its players, the public and the GM book."""
from __future__ import annotations

from sheets_bridge.backends.base import Backend, LinksBooks
from sheets_bridge.gamedir import GameDir

WHERE_PLAYERS_FIND = ("Игрок найдёт свою книгу и сам: на Google Диске, в разделе «Доступные мне» (Shared with me), "
                      "войдя в тот аккаунт Google, что записан в game.toml.")


def links_text(gd: GameDir, be: Backend, *, notified: bool) -> str:
    """The lines to print (empty when the backend's books have no links: files in the game's folder)."""
    if not isinstance(be, LinksBooks):
        return ""
    config = gd.config
    lines = ["Ссылки на книги — перешлите каждому игроку ссылку его фракции:"]
    for key, faction in config.factions.items():
        if key in config.books:
            who = ", ".join(faction.players) or "игроки не указаны"
            lines.append(f"  {faction.name} ({who}): {be.book_link(config.books[key])}")
    for key, name in (("public", "Общая книга (все игроки)"), ("gm", "Книга мастера")):
        if key in config.books:
            lines.append(f"  {name}: {be.book_link(config.books[key])}")
    lines.append("Google разослал игрокам приглашения со ссылками, названием игры и фракции." if notified else
                 "Писем Google не рассылал; чтобы разослал приглашения со ссылками — forumwar share --notify.")
    lines.append(WHERE_PLAYERS_FIND)
    return "\n".join(lines)
