"""Benchmark: Titania at scale (issue 10, item 8). 16 factions of all 13 races on 150 provinces, 300 armies,
about a thousand typed order rows (benchmarks.titania_world).

1. The adjudication of that turn (the `titania.adjudicate.v1` input `turn` builds from the books): best of
   several runs, in ms. Target: well under 1 s.
2. The whole stage through the bridge on the fake Google Sheets: the game created from the generated
   scenario, every faction's rows typed into its book, one `forumwar turn`; requests per book, counted
   separately while the bridge reads and while it writes. Target: 1 read + 1 write per order book.
"""
from __future__ import annotations

import collections
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks import titania_world

RUNS = 7
TARGET_MS = 1000.0
GM = "gm@example.com"
BOT = "forumwar@titania-bench.iam.gserviceaccount.com"
SEED = "titania-scale"


def adjudication_ms(runs: int = RUNS) -> tuple[float, dict[str, Any], dict[str, Any]]:
    """(best wall time in ms, the input, the output) of adjudicating the generated turn."""
    from engine.titania.adjudicate import adjudicate
    data = titania_world.situation()
    best = float("inf")
    out: dict[str, Any] = {}
    for _ in range(runs):
        start = time.perf_counter()
        got = adjudicate(data, 1)
        best = min(best, time.perf_counter() - start)
        assert got.output is not None, got.problems
        out = dict(got.output)
    return best * 1000, data, out


@dataclass
class Stage:
    """What one Google Sheets `turn` of the large game asked of each book."""

    books: dict[str, str]            # book key -> spreadsheet id
    reads: dict[str, list[str]]      # book key -> Sheets requests while the bridge read
    writes: dict[str, list[str]]     # book key -> Sheets requests while it wrote
    wall: float
    typed: int
    armies: int


def google_stage(folder: Path) -> Stage:
    """Create the large game on the fake Google, type every faction's rows, run one turn."""
    from engine.state import Envelope
    from sheets_bridge.create import create_game
    from sheets_bridge.gamedir import GameDir
    from sheets_bridge.layouts import Layout
    from sheets_bridge.stage import run_turn
    from tests.fake_google import FakeGoogle, fake_backend, fake_client

    scenario = folder / "titania-scale.toml"
    scenario.write_text(titania_world.scenario_toml(), encoding="utf-8")
    fake = FakeGoogle()
    fake.add_user(GM)
    drive = fake.add_shared_drive("forumwar", {GM: "organizer", BOT: "fileOrganizer"})
    backends: list[Any] = []

    def factory(gd: GameDir) -> Any:
        backends.append(fake_backend(fake, BOT, gm_emails=[GM], folder_id=drive,
                                     metadata_path=gd.state_dir / "gsheets-meta.json"))
        return backends[-1]

    gd = create_game(folder / "game", "titania", str(scenario), backend="gsheets", seed=SEED,
                     backend_factory=factory)
    be = backends[-1]
    world = titania_world.world()
    titles = {t.key: t.title for t in Layout.load("titania").order_tabs()}
    client = fake_client(fake, GM)
    for fid, tabs in world.rows.items():
        book = client.open_by_key(gd.config.books[fid])
        for key, rows in tabs.items():
            values = [[int(v) if v.isdigit() else v for v in row] for row in rows]
            book.values_update(f"'{titles[key]}'!A2", params={"valueInputOption": "USER_ENTERED"},
                               body={"values": values})
    fake.calls.clear()
    split: list[int] = []
    write_books = be.write_books

    def counted_write(*args: Any, **kwargs: Any) -> Any:
        split.append(len(fake.calls))
        return write_books(*args, **kwargs)

    be.write_books = counted_write
    start = time.perf_counter()
    run_turn(gd, be=be)
    wall = time.perf_counter() - start
    at = split[0] if split else len(fake.calls)
    by_id = {v: k for k, v in gd.config.books.items()}
    reads: dict[str, list[str]] = collections.defaultdict(list)
    writes: dict[str, list[str]] = collections.defaultdict(list)
    for i, call in enumerate(fake.calls):
        if call.op.startswith("drive.") or call.file_id not in by_id:
            continue
        (reads if i < at else writes)[by_id[call.file_id]].append(call.op)
    state = gd.latest_state()
    armies = sum(1 for a in world.state["armies"] if a["faction"] in world.state["factions"])
    assert Envelope.of(state).turn == 2
    return Stage(dict(gd.config.books), dict(reads), dict(writes), wall, world.typed(), armies)


def main() -> dict[str, Any]:
    best, data, out = adjudication_ms()
    w = titania_world.world()
    factions = [f for f in data["factions"] if f.get("kind") == "player"]
    armies = sum(1 for a in data["state"]["armies"] if a["faction"] in {f["id"] for f in factions})
    orders = len(data["orders"]) + len(data["planning"]["orders"]) + len(data["might_allocation"]) \
        + len(data["abilities"])
    print(f"titania: {len(data['map']['provinces'])} provinces, {len(factions)} factions "
          f"({len({f['race'] for f in factions})} races), {armies} armies; {w.typed()} rows typed, "
          f"{orders} orders reach the adjudicator")
    verdict = "OK" if best < TARGET_MS else "SLOW"
    print(f"  adjudication: best of {RUNS} runs {best:.0f} ms (target well under {TARGET_MS:.0f} ms) -> {verdict}; "
          f"{len(out['battles'])} battles")
    with tempfile.TemporaryDirectory(prefix="forumwar-titania-bench-") as tmp:
        st = google_stage(Path(tmp))
    order_books = sorted(k for k in st.books if k in st.reads)
    shape = collections.Counter((len(st.reads.get(k, [])), len(st.writes.get(k, []))) for k in st.books)
    print(f"  google sheets stage (fake, no latency): one turn in {st.wall:.1f} s; "
          + ", ".join(f"{n} book(s) with {r} read + {wr} write" for (r, wr), n in sorted(shape.items())))
    ok = all(len(st.reads.get(k, [])) == 1 for k in order_books) and all(len(st.writes.get(k, [])) == 1
                                                                       for k in st.books)
    print(f"  per book: {'1 read + 1 write for every order book, 1 write for the others' if ok else 'MORE'}"
          f" ({len(order_books)} order books of {len(st.books)})")
    return {"adjudication_ms": best, "reads": st.reads, "writes": st.writes}


if __name__ == "__main__":
    main()
