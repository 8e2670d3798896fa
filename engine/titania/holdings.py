"""Provinces a scenario hands out before the first turn: a game that starts in progress.

A `[[provinces]]` entry may name an `owner` (a player faction) and its `buildings` (types of SCHEMA §1.3,
one of each), e.g. a forum game moved into forumwar mid-way, or a large test map. Capitals are still
given as the rule book says (setup); Keeper and Boss provinces cannot be handed out.
"""
from __future__ import annotations

from engine.titania.state_types import TitaniaState

BUILDINGS = ("mine", "sawmill", "farm", "quarry", "tower", "port", "fort", "market")


def apply_holdings(raw: object, state: TitaniaState, problems: list[str]) -> None:
    """Owners and buildings of the scenario's provinces into `state`, appending problems (Russian)."""
    if not isinstance(raw, list):
        return
    provinces = state["map"]["provinces"]
    for i, p in enumerate(raw):
        if not isinstance(p, dict) or p.get("id") not in provinces:
            continue
        pid, info = str(p["id"]), provinces[str(p["id"])]
        where = f"[[provinces]] №{i + 1} ({pid})"
        owner, buildings = p.get("owner"), p.get("buildings")
        if owner is not None:
            if owner not in state["factions"]:
                problems.append(f"{where}: владелец «{owner}» — не фракция игрока; допустимы: "
                                f"{', '.join(state['factions'])}.")
            elif info["sea"] or info["keeper"] or info["boss"]:
                problems.append(f"{where}: море, провинции Хранителей и Боссов не отдаются фракциям.")
            elif info["capital"] and state["factions"][owner]["capital"] != pid:
                problems.append(f"{where}: это столица другой фракции.")
            else:
                state["owners"][pid] = str(owner)
        if buildings is not None:
            if not isinstance(buildings, list) or not all(b in BUILDINGS for b in buildings) \
                    or len(set(buildings)) != len(buildings):
                problems.append(f"{where}: buildings — список разных построек из {', '.join(BUILDINGS)}.")
            elif info["sea"]:
                problems.append(f"{where}: в море построек не бывает.")
            else:
                state["buildings"][pid] = sorted({*state["buildings"].get(pid, []), *buildings})
