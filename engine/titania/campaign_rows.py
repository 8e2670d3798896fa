"""«Поход» rows -> the armies' orders (SCHEMA §1.5): one row per army, or per part of a split army, run in the
faction's own order «№» (A12.1); each row read on its own (`campaign_lines`), then each army's rows shared out of
the Strength it will have when the Campaign starts (`campaign_orders`: its Planning's hires included, P4.1).
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.cells import normalize_name
from engine.errors import OrderError, allowed_list
from engine.numbers import echo, read_count, whole_number
from engine.ruleset import Row, RowStatus
from engine.titania.book import Book, bad_status, ok_status, words
from engine.titania.might_rows import ABILITY_FORM
from engine.titania.tabs import CAMPAIGN

HOLD, MOVE, SUPPORT = "Стоять", "Идти / атаковать", "Поддержать"
ORDER_WORDS = {HOLD: "hold", "стоять": "hold", "держать": "hold", "оборона": "hold",
               MOVE: "move", "идти": "move", "атаковать": "move", "атака": "move", "идти/атаковать": "move",
               "напасть": "move", "идти атаковать": "move",
               SUPPORT: "support", "подмога": "support", "поддержка": "support"}
_ORDER_KINDS = {normalize_name(k): v for k, v in reversed(ORDER_WORDS.items())}  # the first word wins

def _ok(tab: str, row: Row, note: str) -> RowStatus:
    return ok_status(tab, row, note)


def _bad(tab: str, row: Row, err: OrderError) -> RowStatus:
    return bad_status(tab, row, err)


@dataclass
class _Line:
    row: Row
    army: str
    type: str
    target: str | None
    support_faction: str | None
    strength: int | None
    seq: float


def _campaign_line(b: Book, row: Row) -> _Line | RowStatus:
    army = b.army(row.get("army"))
    if isinstance(army, OrderError):
        return _bad(CAMPAIGN, row, army)
    word = b.ix.norm(row.get("order"))
    kind = _ORDER_KINDS.get(word)
    if kind is None:
        return _bad(CAMPAIGN, row, OrderError("T_UNKNOWN_ORDER", {"value": echo(row.get("order")),
                                                                 "allowed": allowed_list((HOLD, MOVE, SUPPORT))}))
    seq_text = row.get("seq")
    seq: float = 10_000 + row.number
    if seq_text:
        value = whole_number(seq_text)
        if value is None or value < 1:
            return _bad(CAMPAIGN, row, OrderError("T_BAD_SEQ", {"value": echo(seq_text)}))
        seq = value
    strength: int | None = None
    if row.get("strength"):
        n = read_count(row.get("strength"), "Сила", maximum=999)
        if isinstance(n, OrderError):
            return _bad(CAMPAIGN, row, n)
        strength = n
    target: str | None = None
    support_faction: str | None = None
    nb = b.neighbours(army)
    if kind in ("move", "support"):
        t = b.province(row.get("target"), "Куда", among=nb)
        if isinstance(t, OrderError):
            return _bad(CAMPAIGN, row, t)
        target = t
        anywhere = (kind == "move" and ABILITY_FORM.get(b.race) == "path") or \
                   (kind == "support" and b.race == "chaos_dwarfs")  # Paths / Artillery may lift adjacency
        if t not in nb and not anywhere:
            return _bad(CAMPAIGN, row, OrderError("T_NOT_ADJACENT", {
                "value": b.pname(t), "origin": b.pname(army), "allowed": allowed_list(b.pname(p) for p in nb)}))
        sea = b.state["map"]["provinces"][t]["sea"]
        if kind == "move" and sea and not b.naval(army):
            land = [b.pname(p) for p in nb if not b.state["map"]["provinces"][p]["sea"]]
            return _bad(CAMPAIGN, row, OrderError("T_LAND_TO_SEA", {"value": b.pname(t),
                                                                   "allowed": allowed_list(land)}))
    if kind == "support":
        who = row.get("for_whom")
        if who and b.ix.norm(who) in words(("туземцы", "туземцев", "natives")):
            return _bad(CAMPAIGN, row, OrderError("T_NO_SUPPORT_NATIVES", {}))
        if who:
            fid = b.factions.get(b.ix.norm(who))
            if fid is None:
                return _bad(CAMPAIGN, row, OrderError("T_SUPPORT_NOBODY", {
                    "value": echo(who), "allowed": allowed_list(f["name"] for f in b.state["factions"].values())}))
            support_faction = fid
        else:
            support_faction = b.faction
    return _Line(row, army, kind, target, support_faction, strength, seq)


def _spec(line: _Line, strength: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": line.type, "seq": line.seq}
    if strength is not None:
        out["strength"] = strength
    if line.target is not None:
        out["target"] = line.target
    if line.support_faction is not None:
        out["support_faction"] = line.support_faction
    return out


def _describe(b: Book, line: _Line) -> str:
    if line.type == "hold":
        return "стоять"
    assert line.target is not None
    if line.type == "move":
        return f"идти / атаковать → «{b.pname(line.target)}»"
    who = "себя" if line.support_faction == b.faction else f"фракцию «{b.fname(line.support_faction or '')}»"
    return f"поддержать {who} в провинции «{b.pname(line.target)}»"


def campaign_lines(b: Book, rows: list[Row]) -> tuple[list[_Line], list[RowStatus]]:
    """Each «Поход» row read on its own: the army's order, or the row's error."""
    lines: list[_Line] = []
    statuses: list[RowStatus] = []
    for row in rows:
        got = _campaign_line(b, row)
        if isinstance(got, RowStatus):
            statuses.append(got)
        else:
            lines.append(got)
    return lines, statuses


def _whole(line: _Line, strength: int) -> bool:
    return line.strength is None or line.strength == strength


HOLD_GIVES_WAY = "«Стоять» ничего не меняет (что они не взяли, стоит на месте)"
"""The note of a «Стоять» row beside the army's other rows: no order, so the turn keeps check's verdict."""


def _army_orders(b: Book, army: str, lines: list[_Line]) -> tuple[dict[str, Any] | None, list[RowStatus]]:
    """One army's rows, in the faction's order «№» (then row order): each row with «Сила» takes that much of
    what is left, the first row without it takes the rest (G16 a: what no row takes stays and holds); a row
    that asks more than is left, or a new part that food cannot feed, is an error and takes nothing. Two
    support rows for the whole human army are one order for the Tactics squad's two battles (G49 a)."""
    strength = b._strengths()[army]
    statuses: list[RowStatus] = []
    if (b.race == "humans" and len(lines) >= 2 and all(ln.type == "support" and _whole(ln, strength)
                                                         for ln in lines[:2]) and lines[1].target is not None):
        first, second = lines[0], lines[1]
        order: dict[str, Any] = {"faction": b.faction, "army": army, **_spec(first),
                                 "second": {"target": second.target, "support_faction": second.support_faction}}
        statuses += [_ok(CAMPAIGN, first.row, _describe(b, first)),
                     _ok(CAMPAIGN, second.row, "второй бой для отряда Тактики: " + _describe(b, second))]
        rows = f"{first.row.number} и {second.row.number}"
        statuses += [_bad(CAMPAIGN, ln.row, OrderError("T_NOTHING_LEFT", {
            "army": b.pname(army), "strength": strength, "rows": rows})) for ln in lines[2:]]
        return {"rows": [first.row.number, second.row.number], "order": order}, statuses
    extra = b.food - b.squads  # new squads food can feed (each split checked on its own, as register does)
    hired = f" (с наймом этого хода: +{b.hired(army)})" if b.hired(army) > 0 else ""
    parts: list[tuple[_Line, int]] = []
    left = strength
    for ln in (ln for ln in lines if ln.strength is not None):
        asked = int(ln.strength or 0)
        taken = (f"строка {parts[0][0].row.number} уже взяла" if len(parts) == 1 else
                 "строки " + ", ".join(str(p.row.number) for p, _ in parts) + " уже взяли")
        if asked > left:
            allowed = (f"укажите «Силу» от 1 до {strength} ({strength} — всё войско) или оставьте её пустой — "
                       "тогда пойдёт всё войско" if left == strength else
                       f"{taken} {strength - left}, осталось {left}: укажите «Силу» не больше "
                       f"{left} или оставьте её пустой — тогда строка возьмёт остаток" if left else
                       f"{taken} всё войско: уменьшите «Силу» там или удалите эту строку")
            statuses.append(_bad(CAMPAIGN, ln.row, OrderError("T_PART_TOO_BIG", {
                "army": b.pname(army), "strength": strength, "hired": hired, "asked": asked, "allowed": allowed})))
            continue
        count = len(parts) + 1 + (1 if left - asked > 0 else 0)  # parts after this row, the rest included
        if count - 1 > extra:
            allowed = (f"Дайте войску один приказ на всю силу {strength} (поле «Сила» пустое) или постройте ферму."
                       if extra <= 0 else f"Разделить его можно не больше чем на {extra + 1} части.")
            statuses.append(_bad(CAMPAIGN, ln.row, OrderError("T_SPLIT_FOOD", {
                "army": b.pname(army), "asked": asked, "food": b.food, "squads": b.squads, "allowed": allowed})))
            continue
        parts.append((ln, asked))
        left -= asked
    # a whole-army «Стоять» (the row the book comes pre-filled with, or a player's) gives way to the army's other
    # rows: what no row takes stays and holds anyway (G16 a), so beside them it is no order, and never an error
    rest = sorted((ln for ln in lines if ln.strength is None), key=lambda ln: ln.type == "hold")
    if rest:
        if left > 0:
            parts.append((rest[0], left))
            left = 0
        elif rest[0].type == "hold":
            rest.insert(0, rest[0])  # (it gives way, below, as the other holds do)
        else:
            statuses.append(_bad(CAMPAIGN, rest[0].row, OrderError("T_NOTHING_LEFT", {
                "army": b.pname(army), "strength": strength,
                "rows": ", ".join(str(p.row.number) for p, _ in parts)})))
        given = [str(p.row.number) for p, _ in parts]
        for ln in rest[1:]:
            if ln.type == "hold":
                statuses.append(_ok(CAMPAIGN, ln.row, f"войско уже получило приказы в строках {', '.join(given)}: "
                                                      f"{HOLD_GIVES_WAY}"))
            else:
                statuses.append(_bad(CAMPAIGN, ln.row, OrderError("T_DUPLICATE_ORDER", {
                    "value": b.pname(army), "row": rest[0].row.number})))
    if not parts:
        return None, statuses
    if len(parts) == 1 and left == 0:
        line = parts[0][0]
        statuses.append(_ok(CAMPAIGN, line.row, _describe(b, line)))
        return {"rows": [line.row.number], "order": {"faction": b.faction, "army": army, **_spec(line)}}, statuses
    specs = [_spec(ln, n) for ln, n in parts]
    if left > 0:
        specs.append({"type": "hold", "strength": left})  # the rest stays (G16 a), after the rows' parts
    for i, (ln, n) in enumerate(parts):
        stays = f"; остальные {left} стоят на месте" if left and i == len(parts) - 1 else ""
        statuses.append(_ok(CAMPAIGN, ln.row, f"часть силой {n}: {_describe(b, ln)}{stays}"))
    order = {"faction": b.faction, "army": army, "type": "split", "parts": specs}
    return {"rows": [ln.row.number for ln, _ in parts], "order": order}, statuses


def campaign_orders(b: Book, lines: list[_Line], rejected: Mapping[int, OrderError]
                    ) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The armies' orders from the read rows (a row in `rejected` is that error and takes nothing); returns
    (orders with their rows, statuses)."""
    statuses: list[RowStatus] = []
    by_army: dict[str, list[_Line]] = {}
    for ln in lines:
        if ln.row.number in rejected:
            statuses.append(_bad(CAMPAIGN, ln.row, rejected[ln.row.number]))
        else:
            by_army.setdefault(ln.army, []).append(ln)
    orders: list[dict[str, Any]] = []
    for army, group in by_army.items():
        item, st = _army_orders(b, army, sorted(group, key=lambda ln: (ln.seq, ln.row.number)))
        statuses += st
        if item is not None:
            orders.append(item)
    return orders, statuses


def parse_campaign(b: Book, rows: list[Row]) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """«Поход» alone, against the armies `b` knows (see validate for the whole book)."""
    lines, statuses = campaign_lines(b, rows)
    orders, more = campaign_orders(b, lines, {})
    return orders, statuses + more
