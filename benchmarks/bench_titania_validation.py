"""Benchmark: validating every Titania faction book against adjudicating the turn (issue 23 item 3), on the
bench world of benchmarks.titania_world at 1×, 2× and 4× (each doubling doubles the factions, provinces,
armies and typed rows: 16/150/300/~1000 at 1×).

`check` and `turn` validate every row of every book (the rule set's `validate_books`, as the bridge's
pull calls it); each book's validation also runs the faction's own part of the turn (engine.titania.forecast).
The adjudication is the stage's resolution, the rule set's `resolve`: the input built from the validated
books, adjudicated, the new state and reports made, what the turn does with the orders once validated. It is
what the issue measured its «2.9× the adjudication» against (at efe3d54 the rows took 3.1× the `resolve` and
4.4× the one `adjudicate` call in it). Goals: validating all the books takes at most the adjudication's time,
and grows at most 2.2× per doubling. Also shown: the rows alone (the books read without the forecast), the
part the issue was first measured on, and the one `adjudicate` call inside the resolution.
Times are the process's CPU time (the machine is shared: wall time would count the other processes), best of
several runs; not a test (timings are never asserted).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from benchmarks import titania_world

SCALES = (1, 2, 4)
RUNS = {1: 9, 2: 9, 4: 9}  # as many at every scale: the best of fewer runs is a worse estimate of the time
RATIO_GOAL = 1.0     # validation within the adjudication's time
GROWTH_GOAL = 2.2    # per doubling of factions, provinces and armies


@dataclass
class Figures:
    scale: int
    factions: int
    provinces: int
    armies: int
    rows: int
    validation: float    # seconds, every book through the rule set
    rows_only: float     # seconds, the rows read without the forecast
    adjudication: float  # seconds, the one adjudicate call of the turn's input
    resolution: float    # seconds, the rule set's resolve of the stage (that adjudicate included): the goal's
    battles: int         # the turn's battles: the world's own work, which grows faster than its size


def best(fn: Callable[[], Any], runs: int) -> float:
    out = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        out = min(out, time.process_time() - start)
    return out


def rows_only(state: Mapping[str, Any], books: Mapping[str, Any]) -> None:
    """Every book's three tabs read (names, armies, neighbours, the rows' own checks) without the forecast."""
    from engine.titania import book_orders
    from engine.titania.races import RACES
    from engine.titania.tabs import CAMPAIGN, MIGHT, PLANNING
    index_class = getattr(book_orders, "Index", None)  # also runs on the tree before the Index existed
    index = index_class(state) if index_class is not None else None
    for fid, tabs in books.items():
        b = book_orders.Book(state, fid, index=index) if index is not None else book_orders.Book(state, fid)
        book_orders._planning(b, tabs.get(PLANNING, []), RACES[state["factions"][fid]["race"]].free_hire > 0)
        book_orders.campaign_lines(b, tabs.get(CAMPAIGN, []))
        book_orders.parse_might(b, tabs.get(MIGHT, []))


def measure(scale: int) -> Figures:
    from engine.titania import game_turn
    from engine.titania.adjudicate import adjudicate
    from engine.titania.game import Titania

    w = titania_world.world(scale=scale)
    s = w.state
    books = w.books()
    rs = Titania()
    runs = RUNS[scale]
    parsed: dict[str, Any] = {}

    def validate() -> None:
        parsed.update(rs.validate_books(s, "orders", books))

    validation = best(validate, runs)
    data, _, _ = game_turn.situation(s, parsed, 1)
    adj = adjudicate(data, 1)
    assert adj.output is not None, adj.problems
    adjudication = best(lambda: adjudicate(data, 1), runs)
    resolution = best(lambda: rs.resolve(s, "orders", parsed, 1), runs)
    return Figures(scale, len(s["factions"]), len(s["map"]["provinces"]),
                   sum(1 for a in s["armies"] if a["faction"] in s["factions"]), w.typed(), validation,
                   best(lambda: rows_only(s, books), runs), adjudication, resolution, len(adj.output["battles"]))


def growth(figs: list[Figures], key: str) -> list[float]:
    return [getattr(b, key) / getattr(a, key) for a, b in zip(figs, figs[1:], strict=False)]


def main() -> dict[str, Any]:
    figs = [measure(scale) for scale in SCALES]
    print("titania validation of every book vs the adjudication, the stage's `resolve` "
          "(bench world at 1×, 2×, 4×):")
    for f in figs:
        ratio = f.validation / f.resolution
        print(f"  {f.scale}×: {f.factions} factions, {f.provinces} provinces, {f.armies} armies, {f.rows} rows, "
              f"{f.battles} battles: "
              f"validation {f.validation * 1000:.0f} ms (rows alone {f.rows_only * 1000:.0f} ms, the state read and "
              f"each faction's own part of the turn run by the engine "
              f"{(f.validation - f.rows_only) * 1000:.0f} ms), "
              f"adjudication {f.resolution * 1000:.0f} ms = {ratio:.2f} × (goal at most {RATIO_GOAL:.0f} ×) "
              f"-> {'OK' if ratio <= RATIO_GOAL else 'SLOW'}; its one `adjudicate` call "
              f"{f.adjudication * 1000:.0f} ms (validation {f.validation / f.adjudication:.2f} × of it)")
    for key, label in (("validation", "validation"), ("rows_only", "rows alone"), ("resolution", "adjudication"),
                       ("adjudication", "`adjudicate`"), ("battles", "the turn's battles")):
        steps = growth(figs, key)
        verdict = "" if key in ("resolution", "adjudication", "battles") else \
            f" (goal at most {GROWTH_GOAL} ×) -> {'OK' if max(steps) <= GROWTH_GOAL else 'SLOW'}"
        print(f"  growth per doubling, {label}: " + ", ".join(f"{g:.2f} ×" for g in steps) + verdict)
    return {"figures": [f.__dict__ for f in figs], "growth": growth(figs, "validation")}


if __name__ == "__main__":
    main()
