"""Name lookup: Russian book names (any case, ё/е, quote style, spacing) or keys -> unit/building keys."""
from __future__ import annotations

import functools

from engine.jade_rose.data import load_data, normalize_name
from engine.jade_rose.data_schema import FACTIONS

_FACTION_ALIASES = {
    "empire": "empire", "империя": "empire", "имперцы": "empire",
    "vampires": "vampires", "vampire": "vampires", "вампиры": "vampires",
    "dwarves": "dwarves", "dwarfs": "dwarves", "дворфы": "dwarves", "гномы": "dwarves",
    "jade": "jade", "jade_court": "jade", "jade court": "jade", "нефритовый двор": "jade",
}


def faction_id(name: str | None) -> str | None:
    """The faction id for an id, an alias ("jade_court") or a Russian faction name; None if unknown."""
    if name is None:
        return None
    text = normalize_name(name)
    return _FACTION_ALIASES.get(text) or _FACTION_ALIASES.get(text.replace("-", "_"))


NameIndex = dict[str, dict[str, str]]     # normalised spelling -> faction -> unit or building key


@functools.lru_cache(maxsize=1)
def _indexes() -> tuple[NameIndex, NameIndex]:
    data = load_data()
    out: list[NameIndex] = []
    for records in (data.units, data.buildings):
        index: NameIndex = {}
        for key, rec in records.items():
            for spelling in (key, rec.name, *rec.names):
                index.setdefault(normalize_name(spelling), {})[rec.faction] = key
        out.append(index)
    return out[0], out[1]


def _find(index: NameIndex, name: object, faction: str | None) -> str | None:
    if name is None:
        return None
    hits = index.get(normalize_name(str(name)), {})
    if faction is not None:
        fid = faction_id(faction)
        return hits.get(fid) if fid else None
    return next(iter(hits.values())) if len(hits) == 1 else None


def find_unit(name: object, faction: str | None = None) -> str | None:
    """Unit key for a book name, accepted spelling or key; with a faction, only that faction's units.

    A name two factions share (Арбалетчик, Всадник) needs the faction; without it the result is None.
    """
    return _find(_indexes()[0], name, faction)


def find_building(name: object, faction: str | None = None) -> str | None:
    """Building key for a book name, accepted spelling or key (Барак needs the faction)."""
    return _find(_indexes()[1], name, faction)


def find_units(name: object) -> list[str]:
    """Every unit key (of any faction) a name may mean, for messages about ambiguous names."""
    return sorted(_indexes()[0].get(normalize_name(str(name)), {}).values())


def unit_names(faction: str) -> list[str]:
    """Book names of a faction's units, by tier then book order."""
    fid = faction_id(faction) or faction
    units = load_data().faction_units(fid)
    return [u.name for u in sorted(units, key=lambda u: u.tier)]


def building_names(faction: str) -> list[str]:
    """Book names of a faction's buildings, by tier then book order."""
    fid = faction_id(faction) or faction
    buildings = load_data().faction_buildings(fid)
    return [b.name for b in sorted(buildings, key=lambda b: b.tier)]


__all__ = ["FACTIONS", "faction_id", "find_unit", "find_building", "find_units", "unit_names", "building_names"]
