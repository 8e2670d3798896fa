"""The Titania map: provinces (land, sea, islands, shrines, capitals, deposits) and adjacency."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

DEPOSITS = ("gold", "wood", "fertile", "stone", "mana")


@dataclass(frozen=True)
class Province:
    """One province of the map."""

    id: str
    name: str
    sea: bool = False
    island: bool = False
    shrine: bool = False
    capital: bool = False
    deposits: frozenset[str] | None = None  # None: any building is allowed
    hidden: bool = False  # resources not generated yet: revealed on approach (SCHEMA_V2 §7)
    market: bool = False  # a Keeper's Market: a feature like a Shrine, never lost, not a building (SCHEMA_V2 §13)


@dataclass(frozen=True)
class TitaniaMap:
    """Provinces in file order and the undirected adjacency."""

    provinces: Mapping[str, Province]
    adjacency: Mapping[str, frozenset[str]]

    def neighbours(self, province: str) -> frozenset[str]:
        return self.adjacency.get(province, frozenset())

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def is_sea(self, province: str) -> bool:
        return self.provinces[province].sea

    def coastal(self, province: str) -> bool:
        """Adjacent to a sea province."""
        return any(self.provinces[n].sea for n in self.neighbours(province))

    def name(self, province: str) -> str:
        p = self.provinces.get(province)
        return p.name if p is not None else province
