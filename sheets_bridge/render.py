"""Rendering and pushing books: every tab of every book from the state and the row statuses."""
from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.errors import is_mistake
from engine.ruleset import Ruleset, Table
from sheets_bridge import fairness, odds_tab, readiness
from sheets_bridge.backends.base import Backend, LinksBooks, TabWrite, WritesManyBooks
from sheets_bridge.gamedir import GameDir
from sheets_bridge.layouts import BookLayout, Layout, TabLayout, book_kind, order_tab, status_tab
from sheets_bridge.pull import book_name, book_notices
from sheets_bridge.stage_common import Progress, Step
from sheets_bridge.standing import StatusCells


def _fairness(gd: GameDir, rs: Ruleset) -> Table:
    """The dice of every stage: commitment first, seed and salt after it resolves, chain heads."""
    heads = gd.chain()
    rows: list[tuple[object, ...]] = []
    for item in gd.seed_records():
        key = f"turn-{item['turn']:04d}-{item['stage']}"
        rows.append((item["turn"], rs.stage_title(item["stage"]), item["commitment"], item["seed"] or "после этапа",
                     item["salt"] or "после этапа", heads.get(key, "")))
    notes = [fairness.UNFAIR_NOTICE] if gd.config.seed is not None else []
    rows += [("", "", line, "", "", "") for line in (*notes, *fairness.CHECK_HINT)]
    return Table(("Ход", "Этап", "SHA-256 от «зерно:соль»", "Зерно", "Соль", "Цепочка после этапа"),
                 tuple(rows))


def _turn_archive(gd: GameDir, rs: Ruleset, turn: int) -> list[tuple[str, dict[str, Any]]]:
    """(stage, its archived statuses) of every stage of `turn` resolved so far, in the rule set's order."""
    out = []
    for stage in rs.stages:
        path = gd.archive_path(turn) / f"statuses-{stage}.json"
        if path.is_file():
            out.append((stage, json.loads(path.read_text(encoding="utf-8"))))
    return out


def _orders_log(gd: GameDir, rs: Ruleset, saved: dict[str, Any], fid: str, turn: int, layout: Layout,
                archive: list[tuple[str, dict[str, Any]]] | None = None) -> Table:
    """The faction's orders of every stage of `turn` resolved so far, stage by stage (the archived
    statuses; `saved` when the archive has none): after the planning stage the turn's economy results
    are still there."""
    stages = [recorded for _, recorded in (_turn_archive(gd, rs, turn) if archive is None else archive)]
    titles = {t.key: t.title for t in layout.order_tabs()}
    rows = [(turn, titles.get(s["tab"], s["tab"]), s["row"], s.get("order", ""), s["text"])
            for recorded in (stages or [saved]) for s in recorded.get(fid, [])]
    return Table(("Ход", "Вкладка", "Строка", "Приказ", "Итог"), tuple(rows))


PROBLEMS_COLUMNS = ("Этап", "Фракция", "Вкладка", "Строка", "Сообщение")


def _problems_table(gd: GameDir, rs: Ruleset, state: dict[str, Any], saved: dict[str, Any], problems: list[str],
                    layout: Layout, turn: int, archive: list[tuple[str, dict[str, Any]]] | None = None) -> Table:
    """The GM's «Проблемы»: the players' and the GM's mistakes in every stage of `turn` resolved so far, each
    row labelled with its stage («ход 2, приказы»), the stages in order (the archived statuses; `saved` and
    `problems`, the closed stage's, when the archive has none). A stage's problem stays listed after the next
    stage of the turn resolves; the tab starts over when the first stage of the next turn does (the archive
    keeps each stage's GM book). The mistakes: the notices on whole tabs (a renamed tab, rows past the limit)
    and each refused row but those whose every code is an outcome (engine.errors.is_mistake: a row another
    faction, a battle or the dice defeated is carried out, not a mistake; an archive from before the codes
    were kept lists every refused row)."""
    titles = {t.key: t.title for t in layout.order_tabs()}
    recorded: list[tuple[str | None, dict[str, Any]]] = [*(_turn_archive(gd, rs, turn) if archive is None else archive)]
    if not recorded:
        recorded = [(None, {**saved, "_problems": problems})]
    rows: list[tuple[Any, ...]] = []
    for stage, statuses in recorded:
        label = f"ход {turn}" + (f", {rs.stage_title(stage)}" if stage is not None else "")
        rows += [(label, "—", "—", "", p) for p in statuses.get("_problems", [])]
        for fid, ss in statuses.items():
            if fid.startswith("_"):
                continue
            for s in ss:
                if not s["ok"] and is_mistake(s.get("codes") or ["?"]):
                    rows.append((label, book_name(state, fid), titles.get(s["tab"], s["tab"]), s["row"], s["text"]))
    return Table(PROBLEMS_COLUMNS, tuple(rows))


def render_books(gd: GameDir, rs: Ruleset, layout: Layout, state: dict[str, Any], saved: dict[str, Any],
                 cleared: set[str],
                 problems: Sequence[str] = (), orders_turn: int | None = None,
                 restore: dict[str, dict[str, list[list[str]]]] | None = None,
                 lock_stage: bool = False, standing: Mapping[str, StatusCells] | None = None
                 ) -> dict[str, list[TabWrite]]:
    """Every TabWrite of every book for one push (pure function of the state and statuses).

    `restore` puts order tabs back exactly as the players had filled them (book -> tab title ->
    rows as read, header first), e.g. after a rollback; `lock_stage` keeps the open stage's order
    tabs closed (a rollback that re-runs the same orders); `standing` gives the status cells of the
    standing order tabs whose rows stay (sheets_bridge.standing)."""
    views = rs.views(state)
    fairness_table = _fairness(gd, rs)
    archive = _turn_archive(gd, rs, orders_turn or state["turn"])   # read once, not once per book (all factions')
    books: dict[str, list[TabWrite]] = {}
    for key in gd.config.books:
        kind = book_kind(key)
        tables = dict(views.get(key, {}))
        if kind == "faction":
            tables["orders_log"] = _orders_log(gd, rs, saved, key, orders_turn or state["turn"], layout, archive)
            for tab_key, table in odds_tab.initial(rs, layout, state, key).items():
                tables.setdefault(tab_key, table)
            _add_notices(tables, layout.books[kind], book_notices(state, key, list(problems)))
        elif kind == "gm":
            _add_links(tables, layout.books[kind], book_links(gd))
            tables["problems"] = _problems_table(gd, rs, state, saved, list(problems), layout,
                                                 orders_turn or state["turn"], archive)
            tables["readiness"] = opening_readiness(gd, rs, state)
            tables["fairness"] = fairness_table
        else:
            tables["fairness"] = fairness_table
        writes = []
        editors = tuple(gd.config.gm_emails) + (tuple(gd.config.factions[key].players) if kind == "faction" else ())
        vocab = (rs.gm_vocabularies(state) if kind == "gm"
                 else rs.vocabularies(state, None if kind == "public" else key))
        for t in layout.books[kind].tabs:
            if t.kind == "orders":
                open_now = t.stage == state["stage"] and not lock_stage
                rows: tuple[tuple[Any, ...], ...] | None = () if t.key in cleared else None
                if t.key in tables:   # the ruleset pre-fills this order tab (e.g. one row per own squad)
                    rows = _aligned_rows(t, tables[t.key])
                restored = (restore or {}).get(key, {}).get(t.title)
                if restored is not None:
                    rows = _body_rows(restored)
                # an opening's push (standing given) rewrites the status cells below the order rows of a tab it
                # keeps: only the standing statuses due there stay (TabWrite.clear_statuses_below)
                write = order_tab(t, vocab, editors, rows=rows, locked=not open_now,
                                  clear_statuses_below=rows is None and standing is not None)
                cells = (standing or {}).get(key, {}).get(t.key)
                if rows is None and cells is not None:
                    write = replace(write, column_updates=cells)
                writes.append(write)
            elif t.kind == "simulator":    # the players' rows stay; open at every stage
                writes.append(order_tab(t, vocab, editors, rows=None, locked=False))
            elif t.kind == "ready":        # «Приказы готовы»: cleared as each stage opens
                writes.append(order_tab(t, vocab, editors, rows=(), locked=lock_stage))
            elif t.key in tables:
                writes.append(status_tab(t, tables[t.key]))
        books[key] = writes
    return books


def opening_readiness(gd: GameDir, rs: Ruleset, state: dict[str, Any]) -> Table:
    """The GM book's «Готовность» as a stage opens: nobody has submitted or said ready yet."""
    awaited = rs.awaiting(state)
    names = {f: book_name(state, f) for f in rs.factions(state)}
    players = readiness.players(gd.config)
    states = {f: readiness.submission_state(False, False, bool(awaited.get(f))) for f in names}
    return readiness.readiness_table(names, players, states, {})


NOTICE_LABEL = "Внимание"


def _add_notices(tables: dict[str, Table], book: BookLayout, notices: list[str]) -> None:
    """Append the bridge's notices on the book's order tabs (a renamed tab, a broken header, rows past
    the limit) below the book's first status tab («Сводка»), whatever rule set made that table."""
    first = next((t.key for t in book.tabs if t.kind == "status"), None)
    if not notices or first is None:
        return
    table = tables.get(first) or Table((NOTICE_LABEL, ""))
    width = len(table.columns)
    rows = [("",) * width] if table.rows else []
    rows += [(NOTICE_LABEL, *("",) * (width - 2), text) if width > 1 else (f"{NOTICE_LABEL}: {text}",)
             for text in notices]
    tables[first] = Table(table.columns, tuple(table.rows) + tuple(rows))


LINKS_LABEL = "Ссылки на книги"


def book_links(gd: GameDir) -> list[tuple[str, str]]:
    """(book, its link) of each faction's book and the public book, when the game's backend gives its books
    links (base.LinksBooks: Google's spreadsheets; xlsx books are files in the game's folder, without one)."""
    from sheets_bridge.backends import kind as backend_kind
    kind = backend_kind(gd.config.backend)
    if not isinstance(kind, LinksBooks):
        return []
    books = gd.config.books
    out = [(f.name, kind.book_link(books[key])) for key, f in gd.config.factions.items() if key in books]
    return out + ([("Общая книга", kind.book_link(books["public"]))] if "public" in books else [])


def _add_links(tables: dict[str, Table], book: BookLayout, links: list[tuple[str, str]]) -> None:
    """Append the books' links below the GM book's first status tab («Фракции»), whatever rule set made it:
    the GM finds every player's book there."""
    first = next((t.key for t in book.tabs if t.kind == "status"), None)
    if not links or first is None or first not in tables:
        return
    table = tables[first]
    width = len(table.columns)
    if width < 2:
        return
    pad = ("",) * (width - 2)
    rows = [("",) * width, (LINKS_LABEL, *pad, ""), *((name, *pad, link) for name, link in links)]
    tables[first] = Table(table.columns, tuple(table.rows) + tuple(rows))


def _body_rows(raw: list[list[str]]) -> tuple[tuple[Any, ...], ...]:
    """The rows below the header as read, without trailing blank cells and rows, each cell back in the
    type the player typed it in (`typed_cell`)."""
    body = [list(r) for r in raw[1:]]
    for row in body:
        while row and not str(row[-1]).strip():
            row.pop()
    while body and not body[-1]:
        body.pop()
    return tuple(tuple(typed_cell(c) for c in r) for r in body)


def typed_cell(text: Any) -> Any:
    """A cell read as text (xlsx_backend.cell_text, gsheets text_rows) back as the value it was: the text
    of a number is that number and TRUE/FALSE a truth value, exactly when reading that value gives this
    text again (so «007», «1 200» or «2.50» stay texts, as a text cell gives them)."""
    if not isinstance(text, str) or not text:
        return text
    if text in ("TRUE", "FALSE"):
        return text == "TRUE"
    if re.fullmatch(r"-?[1-9][0-9]{0,14}|0", text):
        return int(text)
    if re.fullmatch(r"-?[0-9]+\.[0-9]+(e[-+][0-9]+)?|-?[0-9]e[-+][0-9]+", text):
        try:
            number = float(text)
        except ValueError:
            return text
        if repr(number) == text and math.isfinite(number) and not number.is_integer():
            return number
    return text


def _aligned_rows(tab: TabLayout, table: Table) -> tuple[tuple[Any, ...], ...]:
    """Rows of a ruleset table placed under the order tab's columns by header title."""
    where = {title: i for i, title in enumerate(table.columns)}
    return tuple(tuple(row[where[c.title]] if c.title in where and where[c.title] < len(row) else ""
                       for c in tab.columns) for row in table.rows)


def push(gd: GameDir, be: Backend, rs: Ruleset, layout: Layout, state: dict[str, Any], statuses: dict[str, Any],
         cleared: set[str],
         progress: Progress, opens: str, problems: Sequence[str] = (), orders_turn: int | None = None,
         restore: dict[str, dict[str, list[list[str]]]] | None = None, lock_stage: bool = False,
         standing: Mapping[str, StatusCells] | None = None) -> list[str]:
    """Write every book not yet pushed for this opening (`opens`: the snapshot being opened, in the
    game's current epoch), recording each in the journal as soon as it is written."""
    epoch = gd.epoch()
    already = {e["book"] for e in gd.journal()
               if e.get("event") == "pushed" and e.get("opens") == opens and e.get("epoch") == epoch}
    books = render_books(gd, rs, layout, state, statuses, cleared, problems, orders_turn, restore, lock_stage,
                         standing)
    todo = {key: writes for key, writes in books.items() if key not in already}
    pushed: list[str] = []

    def done(key: str) -> None:
        gd.append_journal({"event": "pushed", "opens": opens, "epoch": epoch, "book": key})
        pushed.append(key)
        progress(Step(f"обновлена книга {len(pushed)} из {len(todo)}: {book_name(state, key)}", len(pushed), len(todo)))

    if isinstance(be, WritesManyBooks):   # independent books, pushed concurrently within the quota
        by_id = {gd.config.books[key]: key for key in todo}
        be.write_books({gd.config.books[k]: w for k, w in todo.items()}, progress=lambda book_id: done(by_id[book_id]))
    else:
        for key, writes in todo.items():
            be.write_book(gd.config.books[key], writes)
            done(key)
    return pushed
