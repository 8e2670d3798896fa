"""Natives placed at game start (SCHEMA_V2 §8; G40 a, G41 a, G90, G91): «Они появляются по следующему правилу —
первые три случайные провинции, смежные к столице без туземцев (в случае если у столицы только 2/1 смежные
провинции, тогда следующие первые 2/1 случайные провинции без туземцев), остальные смежные провинции 1 туземец,
следующие смежные 2 туземца, следующие смежные 3 туземца и далее по цепочке.»

Pure: the map, the capitals and which provinces may get natives in; the native-free provinces and the native
squads out. Distances are counted over land adjacency only, through any land province (SCHEMA_V2 §13).
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping

from engine.rng import Random

FREE_NEAR_CAPITAL = 3  # «первые три случайные провинции, смежные к столице без туземцев»


def land_distances(start: Iterable[str], land: frozenset[str], adjacency: Mapping[str, Iterable[str]]
                   ) -> dict[str, int]:
    """Fewest steps over land adjacency from the nearest of `start` (never through the sea)."""
    dist = {p: 0 for p in start}
    queue = deque(sorted(dist))
    while queue:
        p = queue.popleft()
        for n in sorted(adjacency.get(p, ())):
            if n in land and n not in dist:
                dist[n] = dist[p] + 1
                queue.append(n)
    return dist


def place(land: frozenset[str], adjacency: Mapping[str, Iterable[str]], capitals: Iterable[str],
          eligible: frozenset[str], fixed: Mapping[str, object], rng_for: Callable[[str], Random]
          ) -> tuple[list[str], dict[str, int]]:
    """(native-free provinces, {province: native Strength}). Per capital: 3 random eligible neighbours are free;
    with fewer, all of them and the shortfall from eligible provinces 2 steps from that capital (G41 a);
    `fixed[capital]` lists a capital's free provinces instead. A province free for any capital is free (G90);
    every other eligible province reachable over land gets a squad of its distance d (G40 a)."""
    capitals = sorted(capitals)
    free: set[str] = set()
    for cap in capitals:
        given = fixed.get(cap)
        if isinstance(given, list) and all(isinstance(p, str) for p in given):
            free.update(given)
            continue
        rng = rng_for(cap)
        near = sorted(n for n in adjacency.get(cap, ()) if n in eligible)
        if len(near) >= FREE_NEAR_CAPITAL:
            free.update(rng.sample(near, FREE_NEAR_CAPITAL))
            continue
        free.update(near)
        ring2 = sorted(p for p, d in land_distances([cap], land, adjacency).items() if d == 2 and p in eligible)
        free.update(rng.sample(ring2, min(len(ring2), FREE_NEAR_CAPITAL - len(near))))
    dist = land_distances(capitals, land, adjacency)
    natives = {p: dist[p] for p in sorted(eligible) if p not in free and dist.get(p, 0) > 0}
    return sorted(free), natives
