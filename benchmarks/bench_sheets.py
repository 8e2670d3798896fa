"""Benchmark: one 12-faction stage against the fake Google with 200 ms latency per request.

12 faction books + public + GM book; one stage = one read per faction book (its order tabs)
and one write per book (statuses, status tabs, protections, dropdowns). Books are pushed
concurrently, paced under the per-minute quota. Target: under 10 s wall.
"""
from __future__ import annotations

import collections
import tempfile
import time
from pathlib import Path

from sheets_bridge.backends.base import TabWrite
from tests.fake_google import FakeGoogle, fake_backend, fake_client, gm_created_books

GM = "gm@example.com"
BOT = "forumwar@bench.iam.gserviceaccount.com"
FACTIONS = 12
ORDERS_PER_TAB = 60
LATENCY = 0.2
TARGET_SECONDS = 10.0
# Synthetic books shaped like a rule set's (three order tabs of 5-6 columns, a summary, a journal):
# this measures the backend, so no rule set's layout is involved.
ORDER_TABS = {
    "Приказы А": ("Действие", "Где", "Что", "Сколько", "Статус"),
    "Приказы Б": ("Отряд", "Место", "Ряд", "Кто", "Сколько", "Статус"),
    "Приказы В": ("Отряд", "Приказ", "Куда", "Как", "Флаг", "Статус"),
}


def _order_tab(title: str, players: tuple[str, ...], statuses: dict[int, str] | None = None) -> TabWrite:
    header = ORDER_TABS[title]
    status = len(header) - 1
    return TabWrite(title, header=header, kind="orders", editors=players, locked_columns=(status,),
                    column_updates={status: statuses} if statuses else None, order_rows=200,
                    dropdowns={1: ("Первый", "Второй", "Третий", "Четвёртый", "Пятый")})


def _faction_tabs(players: tuple[str, ...], turn: int, statuses: dict[int, str] | None = None) -> list[TabWrite]:
    summary = TabWrite("Сводка", header=("Показатель", "Значение"),
                       rows=(("Ход", turn), ("Казна", 1000 + turn), *((f"Доход {i}", i) for i in range(30))))
    journal = TabWrite("Журнал", header=("Событие",), rows=tuple((f"Событие {i} хода {turn}",) for i in range(80)))
    return [summary, *(_order_tab(t, players, statuses) for t in ORDER_TABS), journal]


def _shared_tabs(turn: int) -> list[TabWrite]:
    cities = tuple((f"Город {i}", f"Фракция {i % FACTIONS}", i % 5) for i in range(120))
    return [TabWrite("Карта", header=("Место", "Владелец", "Размер"), rows=cities),
            TabWrite("Хроника", header=("Событие",), rows=tuple((f"Событие {i} хода {turn}",) for i in range(60)))]


def _stage(backend, books: dict[str, str], players: dict[str, tuple[str, ...]], turn: int) -> float:
    started = time.perf_counter()
    factions = [k for k in books if k.startswith("faction")]
    backend.read_books({books[f]: list(ORDER_TABS) for f in factions})
    statuses = {row: "OK" for row in range(2, ORDERS_PER_TAB + 2)}
    writes = {books[f]: _faction_tabs(players[f], turn, statuses) for f in factions}
    writes[books["public"]] = _shared_tabs(turn)
    writes[books["gm"]] = _shared_tabs(turn)
    backend.write_books(writes)
    return time.perf_counter() - started


def _max_per_minute(fake: FakeGoogle) -> int:
    """The most requests answered in any 60-second window."""
    times = sorted(c.at for c in fake.calls)
    return max((sum(1 for t in times if start <= t < start + 60) for start in times), default=0)


def main() -> None:
    fake = FakeGoogle(latency=0.0)
    players = {f"faction{i:02d}": tuple(f"p{i}-{j}@example.com" for j in range(3)) for i in range(FACTIONS)}
    books = gm_created_books(fake, GM, BOT, {**players, "public": (), "gm": ()})
    players.update({"public": (), "gm": ()})
    meta_path = Path(tempfile.mkdtemp(prefix="forumwar-bench-")) / "gsheets-meta.json"
    backend = fake_backend(fake, BOT, gm_emails=[GM], real_time=True, metadata_path=meta_path)
    setup = {books[k]: (_faction_tabs(players[k], 0) if k.startswith("faction") else _shared_tabs(0)) for k in books}
    backend.write_books(setup)
    for key, group in players.items():
        if not group:
            continue
        sheet = fake_client(fake, group[0]).open_by_key(books[key])
        for title, header in ORDER_TABS.items():
            rows = [[f"{title[-1]} {r}", "Первый", "x", "y", str(r), ""][: len(header) - 1]
                    for r in range(ORDERS_PER_TAB)]
            sheet.values_update(f"'{title}'!A2", params={"valueInputOption": "USER_ENTERED"}, body={"values": rows})

    fake.latency = LATENCY
    fake.calls.clear()
    warm = _stage(backend, books, players, 1)
    per_op = collections.Counter(c.op for c in fake.calls)
    per_book = collections.Counter(c.file_id for c in fake.calls)
    print(f"sheets: {FACTIONS} faction books + public + gm, {LATENCY * 1000:.0f} ms latency per request, "
          f"{ORDERS_PER_TAB} orders in each of {len(ORDER_TABS)} order tabs per faction")
    verdict = "OK" if warm < TARGET_SECONDS else "SLOW"
    print(f"  stage wall time: {warm:.2f} s (target < {TARGET_SECONDS:.0f} s) -> {verdict}")
    print(f"  requests: {len(fake.calls)} = " + ", ".join(f"{op} {n}" for op, n in sorted(per_op.items())))
    faction_counts = sorted({per_book[books[k]] for k in books if k.startswith("faction")})
    print(f"  per faction book: {faction_counts} request(s); public: {per_book[books['public']]}, "
          f"gm: {per_book[books['gm']]}; 429 answers: {fake.count(status=429)}")
    print(f"  most requests in any minute: {_max_per_minute(fake)} (paced under 55 reads + 55 writes a minute)")

    fake.calls.clear()
    cold_backend = fake_backend(fake, BOT, gm_emails=[GM], real_time=True, metadata_path=meta_path)
    cold = _stage(cold_backend, books, players, 2)
    print(f"  new process (metadata from {meta_path.name}): {cold:.2f} s, {len(fake.calls)} requests, "
          f"{fake.count('spreadsheets.get')} metadata fetches")

    fake.calls.clear()
    serial_backend = fake_backend(fake, BOT, gm_emails=[GM], real_time=True, max_workers=1, metadata_path=meta_path)
    serial = _stage(serial_backend, books, players, 3)
    print(f"  same stage one book at a time (for comparison): {serial:.2f} s, {len(fake.calls)} requests")


if __name__ == "__main__":
    main()
