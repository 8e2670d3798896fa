"""The end of a Titania game (G7: the rule book names no victory condition, so the defaults are data in
engine/titania/data/victory.toml, overridden by a scenario's [victory] table).

A faction wins at once when it holds `shrines_to_win` Shrines of the Ancients, or when it is the last one
playing; after `last_turn` the best by standing (Shrines, then provinces, then Strength on the map) wins.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import ledger
from engine.datafiles import read_toml


def settings(state: Mapping[str, Any]) -> dict[str, int]:
    out = {k: int(v) for k, v in (read_toml("engine.titania", "data", "victory.toml") or {}).items()}
    for k, v in (state.get("victory") or {}).items():
        if k in out and isinstance(v, int) and not isinstance(v, bool):
            out[k] = v
    return out


def standing(state: Mapping[str, Any], fid: str) -> tuple[int, int, int]:
    """(Shrines, provinces, Strength on the map) of a faction."""
    provinces = state["map"]["provinces"]
    owned = [p for p, o in state["owners"].items() if o == fid]
    return (sum(1 for p in owned if provinces[p]["shrine"]), len(owned),
            sum(a["strength"] for a in state["armies"] if a["faction"] == fid))


def check_victory(state: dict[str, Any], turn: int) -> None:
    """Mark winners and finish the game when an end condition holds after `turn`."""
    conf = settings(state)
    alive = [f for f, rec in state["factions"].items() if not rec.get("eliminated")]
    winners: list[str] = []
    why = ""
    if len(alive) <= 1:
        winners, why = alive, "осталась единственной фракцией на Титании"
    elif conf["shrines_to_win"] > 0:
        held = {f: standing(state, f)[0] for f in alive}
        best = max(held.values())
        if best >= conf["shrines_to_win"]:
            winners = [f for f in alive if held[f] == best]
            why = f"удерживает Святилищ Древних: {best}"
    if not winners and turn >= conf["last_turn"]:
        ranks = {f: standing(state, f) for f in alive}
        best_rank = max(ranks.values())
        winners = [f for f in alive if ranks[f] == best_rank]
        why = (f"лучшая по итогам {turn} ходов: Святилищ {best_rank[0]}, провинций {best_rank[1]}, "
               f"сила войск {best_rank[2]}")
    if not winners and len(alive) > 1:
        return
    for f in winners:
        state["factions"][f]["won"] = True
    state["stage"] = "finished"
    names = ", ".join(state["factions"][f]["name"] for f in winners) or "никто"
    ledger.chronicle(state, "Победа", f"Игра окончена. Победа: {names} — {why}.", turn=turn)
