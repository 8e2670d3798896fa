"""Resources revealed on approach (Resources, «Важно помнить»; G38 a, G39 a; SCHEMA_V2 §7, G88, G89).

«Каждая провинция на карте получает месторождение золота и лес, а также случайным образом … либо
плодородные земли …, либо месторождение камня, либо места силы (мана), либо Святилище Древних в тот момент,
когда войско одной из фракций подходит на смежную дистанцию». Each province's roll comes from its own
stream of the seed, so a replay reveals the same.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rng import Random, stream
from engine.titania.params import REVEALS, Params, default_params
from engine.titania.state_types import Province, TitaniaState
from engine.titania.world import World

DEPOSIT_OF = {"fertile": "fertile", "stone": "stone", "mana": "mana"}


def _special(w: World, province: str) -> bool:
    """Boss and Keeper provinces: the Shrine exclusion does not apply to them (G39 a)."""
    owner = w.owners.get(province)
    return province in w.bosses or province in w.sit.bosses or (owner is not None and w.factions[owner].is_keeper)


def _shrine_allowed(w: World, province: str) -> bool:
    """«Провинции, смежные со столицей не могут получить Святилище Древних»; no Shrine next to a Shrine."""
    for n in w.map.neighbours(province):
        if w.map.provinces[n].capital:
            return False
        if w.is_shrine(n) and not _special(w, n) and not _special(w, province):
            return False
    return True


def _fixed_find(fixed: object, shrine_allowed: bool) -> str | None:
    """`dice.reveal[P]`: a find, or a list of successive rolls, an illegal Shrine using one roll."""
    for r in fixed if isinstance(fixed, list) else [fixed]:
        if r in REVEALS and (r != "shrine" or shrine_allowed):
            return str(r)
    return None


def roll(rng: Random, weights: Mapping[str, int], shrine_allowed: bool, fixed: object = None,
         fixed_lost: object = None) -> tuple[list[str], bool, str | None]:
    """One province's resources: (deposits, shrine, what was found). Gold and wood always, plus one of
    fertile/stone/mana/shrine by weight; an illegal Shrine is re-rolled among the other three (G38 a);
    a Shrine removes the gold or the wood at random."""
    w = dict(weights)
    if not shrine_allowed:
        w["shrine"] = 0
    options = [r for r in REVEALS if w.get(r, 0) > 0]
    found = _fixed_find(fixed, shrine_allowed)
    if found is None:
        found = rng.choices(options, [w[r] for r in options])[0] if options else None
    deposits = {"gold", "wood"}
    shrine = found == "shrine"
    if shrine:
        deposits.discard(fixed_lost if fixed_lost in deposits else rng.choice(("gold", "wood")))
    elif found is not None:
        deposits.add(DEPOSIT_OF[str(found)])
    return sorted(deposits), shrine, None if found is None else str(found)


def reveal(w: World, province: str, by: str) -> None:
    fixed = w.sit.dice.get("reveal", {})
    lost = w.sit.dice.get("reveal_lost", {})
    deposits, shrine, found = roll(w.rng("reveal", province), w.params.reveal_weights, _shrine_allowed(w, province),
                                   fixed.get(province) if isinstance(fixed, dict) else None,
                                   lost.get(province) if isinstance(lost, dict) else None)
    w.revealed[province] = {"deposits": deposits, "shrine": shrine, "by": by}
    w.hidden_left.discard(province)
    w.events.append({"kind": "revealed", "province": province, "faction": by, "found": found})


def reveal_near_armies(w: World, mover: str | None = None) -> None:
    """One reveal moment (G88): every hidden province in which, or next to which, a player army stands now,
    in ascending province id; `by` is the faction that moved when its army is one of those revealing it, else
    the lowest faction id among them (SCHEMA_V2 §13). Keepers and natives reveal nothing."""
    if not w.hidden_left:
        return
    seen: dict[str, set[str]] = {}
    for army in w.lookers():  # the others looked around from where they stand already
        spec = w.factions.get(army.faction)
        if spec is None or spec.is_keeper or w.reveal_seen.get(army.uid) == army.province:
            continue  # an army that looked from here already revealed everything around it
        w.reveal_seen[army.uid] = army.province
        for p in (army.province, *w.map.neighbours(army.province)):
            if p in w.hidden_left:
                seen.setdefault(p, set()).add(army.faction)
    for p in sorted(seen):
        by = mover if mover in seen[p] else min(seen[p])
        reveal(w, p, str(by))


def reveal_around(state: TitaniaState, seed: int | str, params: Params | None = None) -> dict[str, dict[str, Any]]:
    """The same rule on a game state (`engine.titania.setup`): every land province whose `deposits` are
    still unknown (None) and that holds or borders a player army gets its resources, from the same stream
    as the adjudicator's (`titania/reveal/<province>` of `seed`). Returns what was revealed."""
    params = params or default_params()
    provinces: dict[str, Province] = state["map"]["provinces"]
    nb: dict[str, set[str]] = {p: set() for p in provinces}
    for a, b in state["map"]["adjacency"]:
        nb[a].add(b)
        nb[b].add(a)
    keepers = set(state.get("keepers", {}) or {})

    def special(p: str) -> bool:
        info = provinces[p]
        return bool(info.get("boss")) or bool(info.get("keeper")) or state["owners"].get(p) in keepers

    out: dict[str, dict[str, Any]] = {}
    players = set(state.get("factions", {}))
    for army in state.get("armies", []):
        if army.get("faction") not in players:
            continue
        here = army["province"]
        for p in sorted({here, *nb.get(here, ())}):
            info = provinces[p]
            if info.get("sea") or info.get("deposits") is not None:
                continue
            allowed = not any(provinces[n].get("capital") or (provinces[n].get("shrine") and not special(n)
                                                              and not special(p)) for n in nb[p])
            deposits, shrine, found = roll(stream(seed, "titania", "reveal", p), params.reveal_weights, allowed)
            info.update({"deposits": deposits, "shrine": shrine})
            out[p] = {"deposits": deposits, "shrine": shrine, "by": army["faction"], "found": found}
    return out
