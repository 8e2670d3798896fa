"""Stage orchestration: create a game, check orders, close a stage (pull, validate, resolve, push, archive).

Every stage touches each book with exactly one read and one write. A crash at any point leaves the
game resumable: the resolved state is written before any push, the journal records each pushed
book, and re-running `turn` finishes the pushes of the same stage instead of resolving it again.
"""
from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine import find_ruleset
from engine.errors import OrderError
from engine.ruleset import ParsedOrders, Row, RowStatus, Ruleset, Table
from engine.rng import commitment
from engine.state import canonical_json
from sheets_bridge.backend import Backend, TabWrite
from sheets_bridge.gamedir import FactionConfig, GameConfig, GameDir
from sheets_bridge.layouts import TEMPLATES, Layout, book_kind, order_tab, rows_from_sheet, status_column_update, status_tab

Progress = Callable[[str], None]
FORMULA_PREFIXES = ("=",)


class StageError(Exception):
    """A stage cannot run; the message tells the GM why (English)."""


@dataclass
class StageReport:
    turn: int
    stage: str
    next_turn: int
    next_stage: str
    statuses: dict[str, list[RowStatus]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    pushed: list[str] = field(default_factory=list)
    archive: str = ""
    resumed: bool = False

    def counts(self) -> dict[str, tuple[int, int]]:
        return {f: (sum(s.ok for s in ss), sum(not s.ok for s in ss)) for f, ss in self.statuses.items()}


def _noop(_msg: str) -> None:
    pass


def scenario_path(ruleset: str, scenario: str) -> Path:
    path = Path(scenario)
    if path.suffix == ".toml" and path.exists():
        return path
    return TEMPLATES / ruleset / "scenarios" / f"{scenario}.toml"


def open_backend(gd: GameDir, credentials: str | None = None, folder_id: str | None = None) -> Backend:
    name = gd.config.backend
    if name == "xlsx":
        from sheets_bridge.xlsx_backend import XlsxBackend
        return XlsxBackend(gd.path)
    if name == "gsheets":
        from sheets_bridge import gsheets_backend
        return gsheets_backend.backend_for_game(gd, credentials, folder_id=folder_id)
    raise StageError(f"unknown backend {name!r} in game.toml (use 'xlsx' or 'gsheets')")


def book_title(layout: Layout, config: GameConfig, key: str) -> str:
    kind = book_kind(key)
    faction = config.factions[key].name if kind == "faction" else ""
    return layout.books[kind].title.format(game=config.title, faction=faction)


# -- creating a game -----------------------------------------------------------------

def create_game(path: Path, ruleset: str, scenario: str, backend: str = "xlsx", seed: str | None = None,
                title: str | None = None, book_ids: dict[str, str] | None = None,
                backend_factory: Callable[[GameDir], Backend] | None = None,
                progress: Progress = _noop, credentials: str | None = None,
                folder_id: str | None = None) -> GameDir:
    """Create the game directory, its initial state and its books (pushed with the opening views)."""
    rs = find_ruleset(ruleset)
    spath = scenario_path(rs.name, scenario)
    if not spath.exists():
        known = sorted(p.stem for p in (TEMPLATES / rs.name / "scenarios").glob("*.toml"))
        raise StageError(f"no scenario {scenario!r} for {rs.name}; known: {', '.join(known)}")
    with open(spath, "rb") as fh:
        scen = tomllib.load(fh)
    state = rs.new_game(scen)
    factions = {fid: FactionConfig(name=f["name"], players=list(scen.get("factions", {}).get(fid, {}).get("players", [])))
                for fid, f in state["factions"].items()}
    config = GameConfig(ruleset=rs.name, scenario=spath.stem, backend=backend, seed=seed,
                        title=title or scen.get("title") or rs.title, factions=factions,
                        gm_emails=list(scen.get("gm_emails", [])), books={}, deadlines={}, timezone="Europe/Moscow")
    gd = GameDir.create(path, config)
    be = backend_factory(gd) if backend_factory else open_backend(gd, credentials, folder_id)
    layout = Layout.load(rs.name)
    unknown = set(book_ids or {}) - {*state["factions"], "public", "gm"}
    if unknown:
        raise StageError(f"--book names unknown books {sorted(unknown)}; use faction ids "
                         f"{sorted(state['factions'])}, 'public' or 'gm'")
    for key in [*state["factions"], "public", "gm"]:
        if book_ids and key in book_ids:
            adopt = getattr(be, "adopt_book", None)
            config.books[key] = adopt(book_ids[key], book_title(layout, config, key)) if adopt else book_ids[key]
        else:
            config.books[key] = be.create_book(key, book_title(layout, config, key))
        progress(f"book {key}: {config.books[key]}")
    gd.save_config()
    gd.write_snapshot(state, state["turn"], state["stage"])
    gd.append_journal({"event": "created", "turn": state["turn"], "stage": state["stage"]})
    gd.draw_stage_seed(state["turn"], state["stage"])
    _push(gd, be, rs, layout, state, statuses={}, cleared=set(), progress=progress,
          journal_key=(state["turn"], "new"))
    return gd


# -- pulling -------------------------------------------------------------------------

def _formula_errors(row: Row, tab_layout) -> tuple[OrderError, ...]:
    errors = []
    for col in tab_layout.columns:
        value = row.get(col.key)
        if value.startswith(FORMULA_PREFIXES):
            errors.append(OrderError("E_FORMULA", {"column": col.title, "value": value}))
    return tuple(errors)


def _stage_tabs(rs: Ruleset, layout: Layout, stage: str, book_key: str):
    return [t for t in layout.order_tabs(stage, book_kind(book_key)) if t.key in rs.order_tabs(stage)]


def _order_books(rs: Ruleset, state: dict) -> list[str]:
    """Books that may carry orders: every playing faction's, then the GM's (adjustments)."""
    return [f for f in rs.factions(state) if not state["factions"][f].get("eliminated")] + ["gm"]


def _pull(gd: GameDir, be: Backend, rs: Ruleset, layout: Layout, state: dict, stage: str, lock: bool = False
          ) -> tuple[dict[str, ParsedOrders], dict[str, dict[str, list[list[str]]]], list[str]]:
    """One read per book with order tabs; validated orders per book key, raw tabs, tab-level problems.

    With `lock`, a backend that can (gsheets) closes the order tabs in the same request as it reads
    them, so no late edit slips in while the stage resolves; the push reopens the next stage's tabs.
    """
    raw_books: dict[str, dict[str, list[list[str]]]] = {}
    read = getattr(be, "lock_and_read", None) if lock else None
    for key in _order_books(rs, state):
        tabs = _stage_tabs(rs, layout, stage, key)
        if tabs and key in gd.config.books:
            raw_books[key] = (read or be.read_tabs)(gd.config.books[key], [t.title for t in tabs])
    parsed, problems = parse_books(rs, layout, state, stage, raw_books)
    return parsed, raw_books, problems


def parse_books(rs: Ruleset, layout: Layout, state: dict, stage: str,
                raw_books: dict[str, dict[str, list[list[str]]]]) -> tuple[dict[str, ParsedOrders], list[str]]:
    """Validate the raw order tabs of every book (also used by `replay` on archived orders)."""
    parsed: dict[str, ParsedOrders] = {f: ParsedOrders(f, stage, (), ()) for f in rs.factions(state)}
    problems: list[str] = []
    for key, raw in raw_books.items():
        rows_by_tab: dict[str, list[Row]] = {}
        early: list[RowStatus] = []
        for t in _stage_tabs(rs, layout, stage, key):
            if t.title not in raw:
                problems.append(f"{key}: tab «{t.title}» is missing (renamed or deleted); its orders were not read")
                continue
            rows, header_problems = rows_from_sheet(t, raw[t.title])
            problems.extend(f"{key}: {p}" for p in header_problems)
            clean = []
            for row in rows:
                errs = _formula_errors(row, t)
                if errs:
                    early.append(RowStatus(t.key, row.number, errs))
                else:
                    clean.append(row)
            rows_by_tab[t.key] = clean
        result = rs.validate(state, key, stage, rows_by_tab)
        parsed[key] = ParsedOrders(key, stage, result.orders, tuple(early) + tuple(result.statuses))
    return parsed, problems


def _merge_statuses(parsed: dict[str, ParsedOrders], resolved: dict) -> dict[str, list[RowStatus]]:
    out: dict[str, list[RowStatus]] = {}
    for fid, p in parsed.items():
        by_key = {(s.tab, s.number): s for s in p.statuses}
        for s in resolved.get(fid, ()):
            by_key[(s.tab, s.number)] = s
        out[fid] = sorted(by_key.values(), key=lambda s: (s.tab, s.number))
    return out


# -- check ---------------------------------------------------------------------------

def check(gd: GameDir, be: Backend | None = None, progress: Progress = _noop) -> StageReport:
    """Validate every faction's open-stage orders and write each row's status; resolve nothing."""
    with gd.lock():
        be = be or open_backend(gd)
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        stage = state["stage"]
        parsed, raw_books, problems = _pull(gd, be, rs, layout, state, stage)
        report = StageReport(state["turn"], stage, state["turn"], stage, problems=problems)
        for fid, raw in raw_books.items():
            writes = []
            statuses = list(parsed[fid].statuses)
            for t in _stage_tabs(rs, layout, stage, fid):
                if t.title not in raw:
                    continue
                header = [str(c).strip() for c in (raw[t.title][0] if raw[t.title] else [])]
                mine = [s for s in statuses if s.tab == t.key]
                status_col = header.index(t.columns[t.status_index].title) if t.columns[t.status_index].title in header else t.status_index
                stale = [n for n, cells in enumerate(raw[t.title][1:], start=2)
                         if status_col < len(cells) and str(cells[status_col]).strip()
                         and n not in {s.number for s in mine}]
                writes.append(status_column_update(t, mine, header, stale))
            be.write_book(gd.config.books[fid], writes)
            report.statuses[fid] = statuses
            report.pushed.append(fid)
            progress(f"checked {fid}: {sum(s.ok for s in statuses)} ok, {sum(not s.ok for s in statuses)} with errors")
        gd.append_journal({"event": "checked", "turn": state["turn"], "stage": stage})
        return report


# -- turn ----------------------------------------------------------------------------

def _pending(gd: GameDir) -> dict | None:
    """The last resolved stage whose push did not complete, if any."""
    done = set()
    for entry in reversed(gd.journal()):
        key = (entry.get("turn"), entry.get("stage"))
        if entry.get("event") == "completed":
            done.add(key)
        elif entry.get("event") == "resolved":
            return None if key in done else entry
    return None


def run_turn(gd: GameDir, be: Backend | None = None, progress: Progress = _noop) -> StageReport:
    """Close the open stage: pull, validate, resolve, snapshot, push every book, archive."""
    with gd.lock():
        be = be or open_backend(gd)
        pending = _pending(gd)
        if pending is not None:
            progress(f"resuming the push of turn {pending['turn']} stage {pending['stage']}")
            return _finish(gd, be, pending, progress, resumed=True)
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        turn, stage = state["turn"], state["stage"]
        if stage == "finished":
            raise StageError("the game is over: nothing to resolve")
        seed = gd.draw_stage_seed(turn, stage)
        progress(f"turn {turn}, stage {stage}: reading orders")
        parsed, raw_books, problems = _pull(gd, be, rs, layout, state, stage, lock=True)
        archive = gd.archive_dir(turn)
        for fid, raw in raw_books.items():
            (archive / f"orders-{stage}-{fid}.json").write_text(canonical_json(raw), encoding="utf-8")
        progress("resolving")
        result = rs.resolve(state, stage, parsed, seed)
        statuses = _merge_statuses(parsed, result.statuses)
        new = result.state
        titles = {t.key: t.title for t in layout.order_tabs()}

        def order_text(fid: str, s: RowStatus) -> str:
            sheet = raw_books.get(fid, {}).get(titles.get(s.tab, ""), [])
            cells = sheet[s.number - 1] if 0 < s.number <= len(sheet) else []
            header = sheet[0] if sheet else []
            status_titles = {c.title for t in layout.order_tabs() for c in t.columns if c.status}
            return " · ".join(str(c).strip() for i, c in enumerate(cells)
                              if str(c).strip() and (i >= len(header) or header[i] not in status_titles))

        (archive / f"statuses-{stage}.json").write_text(canonical_json(
            {f: [{"tab": s.tab, "row": s.number, "ok": s.ok, "text": s.text(), "order": order_text(f, s)}
                 for s in ss] for f, ss in statuses.items()} | {"_problems": problems}), encoding="utf-8")
        for name, text in result.reports.items():
            (archive / f"report-{stage}-{name}.txt").write_text(text, encoding="utf-8")
        gd.write_snapshot(new, new["turn"], new["stage"])
        entry = {"event": "resolved", "turn": turn, "stage": stage, "next": [new["turn"], new["stage"]]}
        gd.append_journal(entry)
        return _finish(gd, be, entry, progress, resumed=False)


def _finish(gd: GameDir, be: Backend, entry: dict, progress: Progress, resumed: bool) -> StageReport:
    turn, stage = entry["turn"], entry["stage"]
    new = gd.read_snapshot(*entry["next"])
    rs = find_ruleset(new["ruleset"])
    layout = Layout.load(rs.name)
    archive = gd.archive_dir(turn)
    saved = json.loads((archive / f"statuses-{stage}.json").read_text(encoding="utf-8"))
    problems = saved.pop("_problems", [])
    statuses = {f: [_status_from_json(s) for s in ss] for f, ss in saved.items()}
    gd.reveal_seed(turn, stage)
    if new["stage"] != "finished":
        gd.draw_stage_seed(new["turn"], new["stage"])
    cleared = {t.key for t in layout.order_tabs(stage) if not t.keep}
    pushed = _push(gd, be, rs, layout, new, statuses=saved, cleared=cleared, progress=progress,
                   journal_key=(turn, stage), problems=problems, orders_turn=turn)
    for key, book_id in gd.config.books.items():
        be.export_xlsx(book_id, str(archive / f"{key}-{stage}.xlsx"))
    gd.append_journal({"event": "completed", "turn": turn, "stage": stage})
    report = StageReport(turn, stage, new["turn"], new["stage"], statuses=statuses, problems=problems,
                         pushed=pushed, archive=str(archive), resumed=resumed)
    return report


def _status_from_json(s: dict) -> RowStatus:
    # Reconstructed for reporting only: the text is what the sheet already shows.
    errors = () if s["ok"] else (OrderError("E_INTERNAL", {"detail": s["text"]}),)
    return RowStatus(s["tab"], s["row"], errors, note="")


# -- pushing -------------------------------------------------------------------------

def _fairness(gd: GameDir) -> Table:
    rows = []
    for item in gd.seed_records():
        rows.append((item["turn"], item["stage"], item["commitment"], item.get("revealed", "") or "после хода"))
    return Table(("Ход", "Этап", "SHA-256 зерна случайности", "Зерно"), tuple(rows))


def _orders_log(saved: dict, fid: str, turn: int, layout: Layout) -> Table:
    titles = {t.key: t.title for t in layout.order_tabs()}
    rows = [(turn, titles.get(s["tab"], s["tab"]), s["row"], s.get("order", ""), s["text"])
            for s in saved.get(fid, [])]
    return Table(("Ход", "Вкладка", "Строка", "Приказ", "Итог"), tuple(rows))


def _problems_table(state: dict, saved: dict, problems: list[str], layout: Layout) -> Table:
    titles = {t.key: t.title for t in layout.order_tabs()}
    rows = [("—", "—", "", p) for p in problems]
    for fid, ss in saved.items():
        for s in ss:
            if not s["ok"]:
                who = state["factions"][fid]["name"] if fid in state["factions"] else "Мастер"
                rows.append((who, titles.get(s["tab"], s["tab"]), s["row"], s["text"]))
    return Table(("Фракция", "Вкладка", "Строка", "Сообщение"), tuple(rows))


def render_books(gd: GameDir, rs: Ruleset, layout: Layout, state: dict, saved: dict, cleared: set[str],
                 problems: list[str] = (), orders_turn: int | None = None) -> dict[str, list[TabWrite]]:
    """Every TabWrite of every book for one push (pure function of the state and statuses)."""
    views = rs.views(state)
    fairness = _fairness(gd)
    books: dict[str, list[TabWrite]] = {}
    for key in gd.config.books:
        kind = book_kind(key)
        tables = dict(views.get(key, {}))
        if kind == "faction":
            tables["orders_log"] = _orders_log(saved, key, orders_turn or state["turn"], layout)
        elif kind == "gm":
            tables["problems"] = _problems_table(state, saved, list(problems), layout)
            tables["fairness"] = fairness
        else:
            tables["fairness"] = fairness
        writes = []
        editors = tuple(gd.config.gm_emails) + (tuple(gd.config.factions[key].players) if kind == "faction" else ())
        vocab = rs.vocabularies(state, None if kind == "public" else key)
        for t in layout.books[kind].tabs:
            if t.kind == "orders":
                open_now = t.stage == state["stage"]
                rows = () if t.key in cleared else None
                if t.key in tables:   # the ruleset pre-fills this order tab (e.g. one row per own squad)
                    rows = _aligned_rows(t, tables[t.key])
                writes.append(order_tab(t, vocab, editors, rows=rows, locked=not open_now))
            elif t.key in tables:
                writes.append(status_tab(t, tables[t.key]))
        books[key] = writes
    return books


def _aligned_rows(tab, table: Table) -> tuple[tuple, ...]:
    """Rows of a ruleset table placed under the order tab's columns by header title."""
    where = {title: i for i, title in enumerate(table.columns)}
    return tuple(tuple(row[where[c.title]] if c.title in where and where[c.title] < len(row) else ""
                       for c in tab.columns) for row in table.rows)


def _push(gd: GameDir, be: Backend, rs: Ruleset, layout: Layout, state: dict, statuses: dict, cleared: set[str],
          progress: Progress, journal_key: tuple, problems: list[str] = (), orders_turn: int | None = None) -> list[str]:
    turn, stage = journal_key
    already = {e["book"] for e in gd.journal()
               if e.get("event") == "pushed" and e.get("turn") == turn and e.get("stage") == stage}
    books = render_books(gd, rs, layout, state, statuses, cleared, problems, orders_turn)
    todo = {key: writes for key, writes in books.items() if key not in already}
    pushed: list[str] = []

    def done(key: str) -> None:
        gd.append_journal({"event": "pushed", "turn": turn, "stage": stage, "book": key})
        pushed.append(key)
        progress(f"pushed {key}")

    write_many = getattr(be, "write_books", None)
    if write_many is not None:   # independent books, pushed concurrently within the quota
        by_id = {gd.config.books[key]: key for key in todo}
        write_many({gd.config.books[k]: w for k, w in todo.items()}, progress=lambda book_id: done(by_id[book_id]))
    else:
        for key, writes in todo.items():
            be.write_book(gd.config.books[key], writes)
            done(key)
    return pushed


# -- replay --------------------------------------------------------------------------

def replay(gd: GameDir, turn: int, stage: str) -> tuple[bool, str]:
    """Re-run a resolved stage from the archive (snapshot, orders as read, revealed seed) and compare."""
    before = gd.read_snapshot(turn, stage)
    rs = find_ruleset(before["ruleset"])
    layout = Layout.load(rs.name)
    entry = next((e for e in reversed(gd.journal())
                  if e.get("event") == "resolved" and e.get("turn") == turn and e.get("stage") == stage), None)
    if entry is None:
        raise StageError(f"turn {turn} stage {stage} was never resolved in this game")
    archive = gd.archive_dir(turn)
    raw_books = {}
    for key in _order_books(rs, before):
        path = archive / f"orders-{stage}-{key}.json"
        if path.exists():
            raw_books[key] = json.loads(path.read_text(encoding="utf-8"))
    parsed, _ = parse_books(rs, layout, before, stage, raw_books)
    result = rs.resolve(before, stage, parsed, gd.draw_stage_seed(turn, stage))
    expected = gd.snapshot_path(*entry["next"]).read_text(encoding="utf-8")
    got = canonical_json(result.state)
    if got == expected:
        return True, f"turn {turn} stage {stage}: replay identical to {gd.snapshot_path(*entry['next']).name}"
    return False, f"turn {turn} stage {stage}: replay DIFFERS from {gd.snapshot_path(*entry['next']).name}"
