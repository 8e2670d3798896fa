"""Stage orchestration: create a game, check orders, close a stage (pull, validate, resolve, push, archive).

Every stage touches each book with exactly one read and one write. A crash at any point leaves the
game resumable: the resolved state is written before any push, the journal records each pushed
book, and re-running `turn` finishes the pushes of the same stage instead of resolving it again.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from engine import find_ruleset
from engine.errors import OrderError
from engine.ruleset import RowStatus
from engine.state import canonical_json
from sheets_bridge.backend import Backend
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import Layout, status_column_update
from sheets_bridge.pull import merge_statuses, order_books, parse_books, pull, stage_tabs
from sheets_bridge.render import push
from sheets_bridge.stage_common import Progress, StageError, noop, open_backend


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


# -- check ---------------------------------------------------------------------------

def check(gd: GameDir, be: Backend | None = None, progress: Progress = noop) -> StageReport:
    """Validate every faction's open-stage orders and write each row's status; resolve nothing."""
    with gd.lock():
        be = be or open_backend(gd)
        state = gd.latest_state()
        rs = find_ruleset(state["ruleset"])
        layout = Layout.load(rs.name)
        stage = state["stage"]
        parsed, raw_books, problems = pull(gd, be, rs, layout, state, stage)
        report = StageReport(state["turn"], stage, state["turn"], stage, problems=problems)
        for fid, raw in raw_books.items():
            writes = []
            statuses = list(parsed[fid].statuses)
            for t in stage_tabs(rs, layout, stage, fid):
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


def run_turn(gd: GameDir, be: Backend | None = None, progress: Progress = noop) -> StageReport:
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
        parsed, raw_books, problems = pull(gd, be, rs, layout, state, stage, lock=True)
        archive = gd.archive_dir(turn)
        for fid, raw in raw_books.items():
            (archive / f"orders-{stage}-{fid}.json").write_text(canonical_json(raw), encoding="utf-8")
        progress("resolving")
        result = rs.resolve(state, stage, parsed, seed)
        statuses = merge_statuses(parsed, result.statuses)
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
    pushed = push(gd, be, rs, layout, new, statuses=saved, cleared=cleared, progress=progress,
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
    for key in order_books(rs, before):
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
