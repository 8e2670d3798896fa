"""«Мощь и магия» rows -> the Might allocation (its total within Might, G8 a), the spells cast (SCHEMA_V2 §4: known
or learned in this turn's Planning, G77) and the one racial ability of the turn (SCHEMA §1.5 `abilities`, each
race's form). An army aimed at is read from what the faction sees (engine.titania.fog).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import OrderError, allowed_list
from engine.numbers import echo, read_count
from engine.ruleset import Row, RowStatus
from engine.titania.book import Book, bad_status, data, ok_status
from engine.titania.names import ability_name
from engine.titania.tabs import BLIND, MIGHT

SPELL_ROW = "Заклинание"
BLIND_NOTE = " (эту провинцию вы не видите: если войска там не окажется, не сработает и не будет оплачено)"
MIGHT_ROW = "Могущество"
# What each race's active ability needs from the row (SCHEMA §1.5 `abilities`): the ability's form.
ABILITY_FORM = {"humans": "army", "skaven": "army", "undead": "army", "chaos_dwarfs": "army",
                "high_elves": "own_province", "fauns": "own_province", "dark_elves": "province",
                "beastmen": "province", "goblins": "province", "orcs": "army_two", "lizardmen": "enemy_army",
                "dwarfs": "allocation", "wood_elves": "path"}
FORM_NEEDS = {"army": "«Войско» (ваш отряд)", "own_province": "«Провинция 1» (ваша провинция)",
              "province": "«Провинция 1»", "army_two": "«Войско», «Провинция 1» и «Провинция 2»",
              "enemy_army": "«Провинция 1» (где стоит чужое войско) и, если там несколько, «Фракция»",
              "allocation": "«Войско» и «Очки» (по строке на отряд)",
              "path": "«Войско» и «Провинция 1» (и, если нужно, «Провинция 2») — путь по своим провинциям"}

def _ok(tab: str, row: Row, note: str) -> RowStatus:
    return ok_status(tab, row, note)


def _bad(tab: str, row: Row, err: OrderError) -> RowStatus:
    return bad_status(tab, row, err)


def might_actions(race: str) -> list[str]:
    return [MIGHT_ROW, ability_name(race), SPELL_ROW]


def _borders(b: Book, other: str) -> bool:
    """Some province of the faction is next to one of `other` (Intimidation: «чьи провинции смежны с вашими»)."""
    mine = set(b.ix.owned(b.faction))
    return any(n in mine for p in b.ix.owned(other) for n in b.ix.neighbours(p))


def _enemy_army(b: Book, row: Row, p1: str, what: str, players_only: bool, reach: str
                ) -> tuple[str, bool] | OrderError:
    """(the faction whose army in `p1` a row aims at, whether the faction cannot see there) for a spell at an enemy
    army or Intimidation; read only from what the faction sees (engine.titania.fog), so the answer is the same
    whatever stands where it cannot see. `reach`: «adjacent» (a spell's range: in or next to an own province, all in
    sight), else anywhere: a province out of sight is aimed at blind, by the «Фракция» named (whether an army stands
    there the turn tells). In sight, «Фракция» is needed only where several factions' armies stand; a Keepers' army
    is a target of a spell (ruling T4-6), natives and Bosses are not."""
    table = b.ix.factions if players_only else b.ix.targets
    named = table.get(b.ix.norm(row.get("faction"))) if row.get("faction") else None
    unknown = OrderError("T_UNKNOWN_FACTION", {"column": "Фракция", "value": echo(row.get("faction")),
                                               "allowed": allowed_list(b.display(f) for f in table.values()
                                                                       if f != b.faction),
                                               "reason_code": "bad_target"})
    if named is not None and named in b.state["factions"][b.faction].get("allies", []):
        return OrderError("T_TARGET_ALLY", {"what": what, "value": b.display(named), "reason_code": "bad_target"})
    if named is not None and players_only and not _borders(b, named):
        return OrderError("T_NOT_BORDERING", {"what": what, "value": b.display(named), "reason_code": "bad_target"})
    if p1 not in b.ix.sight(b.faction):
        if reach == "adjacent":
            return OrderError("T_OUT_OF_RANGE", {"what": what, "value": b.pname(p1), "reason_code": "not_adjacent"})
        if not row.get("faction"):
            return OrderError("T_TARGET_UNSEEN", {"what": what, "value": b.pname(p1), "reason_code": "bad_target"})
        if named is None or named == b.faction:
            return unknown
        return named, True
    players = b.state["factions"]
    foreign: list[str] = sorted({str(a["faction"]) for a in b.ix.armies_in.get(p1, ()) if a["faction"] != b.faction
                                 and (a["faction"] in players or not players_only)})
    names = allowed_list(b.display(f) for f in foreign)
    there = f"там стоят войска: {names}" if foreign else "чужих войск там нет"
    if row.get("faction"):
        if named is None or named == b.faction:
            return unknown
        if named not in foreign:
            return OrderError("T_NO_TARGET_ARMY", {"value": b.pname(p1), "faction": b.who(named), "there": there})
        return named, False
    if len(foreign) == 1:
        return foreign[0], False
    if not foreign:
        return OrderError("T_NO_TARGET_ARMY", {"value": b.pname(p1), "faction": "другой фракции", "there": there})
    return OrderError("T_TARGET_FACTION_NEEDED", {"what": what, "value": b.pname(p1), "allowed": names})


def _spell(b: Book, row: Row, used: set[str], learned: Mapping[str, int | None]
           ) -> tuple[dict[str, Any], str] | OrderError:
    """A cast of a spell the faction knows, or learns in this turn's Planning (G77), its target from the row
    (SCHEMA_V2 §4 `spells`). `learned`: spell -> None when this Planning learns it, else the «Планирование» row
    whose learning of it will not be carried out."""
    d = data(b.state)
    own = [k for k in b.state["factions"][b.faction].get("spells", []) if k in d.spells]
    known = {k: d.spells[k].name for k in [*own, *(k for k, row_no in learned.items() if row_no is None)]
             if k in d.spells}
    sid = b.lookup(row.get("spell"), known)
    if sid is None:
        other = {k: sp.name for k, sp in d.spells.items() if k not in known}
        wanted = b.lookup(row.get("spell"), other) if row.get("spell") else None
        if wanted is not None and learned.get(wanted) is not None:
            return OrderError("T_SPELL_LEARN_FAILS", {"value": other[wanted], "row": learned[wanted]})
        if wanted is not None:
            return OrderError("T_SPELL_NOT_LEARNED", {"value": other[wanted],
                                                      "allowed": allowed_list(known.values())})
        # none such in the content (G72), or none named (a malformed cast)
        return OrderError("T_SPELL_UNKNOWN", {"value": echo(row.get("spell")), "allowed": allowed_list(known.values()),
                                             "reason_code": "unknown_item" if row.get("spell") else "bad_order"})
    if sid in used:
        return OrderError("T_SPELL_TWICE", {"value": known[sid]})
    spell = d.spells[sid]
    cast: dict[str, Any] = {"spell": sid}
    note = f"«{known[sid]}»"
    if spell.target == "own_army":
        army = b.army(row.get("army"))
        if isinstance(army, OrderError):
            return army
        cast["army"] = army
        note += f" на войско в провинции «{b.pname(army)}»"
    elif spell.target in ("enemy_army", "own_province"):
        among = b.owned() if spell.target == "own_province" else sorted(b.ix.sight(b.faction), key=b.pname)
        p1 = b.province(row.get("province1"), "Провинция 1", among=among)
        if isinstance(p1, OrderError):
            return p1
        if spell.target == "own_province":
            cast["province"] = p1
            note += f" на провинцию «{b.pname(p1)}»"
        else:
            aimed = _enemy_army(b, row, p1, f"заклинания «{known[sid]}»", players_only=False, reach=spell.range)
            if isinstance(aimed, OrderError):
                return aimed
            target, blind = aimed
            cast["target"] = {"faction": target, "army": p1}
            note += f" на войско {b.who(target)} в провинции «{b.pname(p1)}»"
            if blind:
                cast[BLIND] = True
                note += BLIND_NOTE
    used.add(sid)
    return cast, note


def parse_might(b: Book, rows: list[Row], learned: Mapping[str, int | None] | None = None
                ) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The Might allocation (its total within Might, G8 a), the spells cast and the one racial ability of the
    turn. `learned`: the spells this turn's Planning learns (None) or fails to learn (its row), see `_spell`."""
    statuses: list[RowStatus] = []
    out: list[dict[str, Any]] = []
    allocation: dict[str, int] = {}
    alloc_rows: list[int] = []
    might = b.might()
    ability = ability_name(b.race)
    ability_row: int | None = None
    ability_rows: list[int] = []  # the Dwarfs' allocation takes a row per squad: one order, one verdict
    spec: dict[str, Any] = {}
    dwarf_alloc: dict[str, int] = {}
    spells_used: set[str] = set()
    for row in rows:
        word = b.ix.norm(row.get("action"))
        if row.get("points") and word not in (b.ix.norm(MIGHT_ROW), *(
                (b.ix.norm(ability), "способность") if ABILITY_FORM.get(b.race) == "allocation" else ())):
            takes = [MIGHT_ROW, *([ability] if ABILITY_FORM.get(b.race) == "allocation" else [])]
            statuses.append(_bad(MIGHT, row, OrderError("T_NUMBER_NOT_READ", {  # a number that means nothing here
                "column": "Очки", "value": echo(row.get("points")), "action": echo(row.get("action")),
                "takes": allowed_list(takes)})))
            continue
        if word == b.ix.norm(SPELL_ROW):
            cast = _spell(b, row, spells_used, learned or {})
            if isinstance(cast, OrderError):
                statuses.append(_bad(MIGHT, row, cast))
            else:
                out.append({"kind": "spell", "rows": [row.number], "cast": cast[0]})
                statuses.append(_ok(MIGHT, row, f"заклинание {cast[1]}"))
            continue
        if word == b.ix.norm(MIGHT_ROW):
            army = b.army(row.get("army"))
            if isinstance(army, OrderError):
                statuses.append(_bad(MIGHT, row, army))
                continue
            n = read_count(row.get("points"), "Очки", maximum=99)
            if isinstance(n, OrderError):
                statuses.append(_bad(MIGHT, row, n))
                continue
            allocation[army] = allocation.get(army, 0) + n
            alloc_rows.append(row.number)
            statuses.append(_ok(MIGHT, row, f"+{n} к силе войска в провинции «{b.pname(army)}» на этот Поход"))
            continue
        if word in (b.ix.norm(ability), "способность"):
            form = ABILITY_FORM.get(b.race, "army")
            if ability_row is not None and form != "allocation":
                statuses.append(_bad(MIGHT, row, OrderError("T_ABILITY_TWICE", {"row": ability_row})))
                continue
            got = _ability(b, row, form, dwarf_alloc)
            if isinstance(got, OrderError):
                statuses.append(_bad(MIGHT, row, got))
                continue
            spec, note = got
            ability_row = ability_row or row.number
            ability_rows.append(row.number)
            statuses.append(_ok(MIGHT, row, f"«{ability}» (1 влияние): {note}"))
            continue
        known = [b.ix.norm(a) for a in might_actions(b.race)]
        other = next((r for r in ABILITY_FORM if b.ix.norm(ability_name(r)) == word), None)
        if other is not None and word not in known:
            statuses.append(_bad(MIGHT, row, OrderError("T_ABILITY_NOT_YOURS", {"value": ability_name(other),
                                                                              "allowed": ability})))
        else:
            statuses.append(_bad(MIGHT, row, OrderError("T_UNKNOWN_ACTION", {
                "value": echo(row.get("action")), "allowed": allowed_list(might_actions(b.race))})))
    total = sum(allocation.values())
    if total > might:  # «An allocation that exceeds Might is void as a whole» (SCHEMA §1.5, G8 a)
        over = OrderError("T_MIGHT_OVER", {"total": total, "might": might, "extra": total - might})
        statuses = [RowStatus(MIGHT, s.number, (over,)) if s.number in alloc_rows else s for s in statuses]
    elif allocation:
        out.append({"kind": "might", "rows": alloc_rows, "allocation": allocation})
    if ability_row is not None:
        out.append({"kind": "ability", "rows": ability_rows, "spec": spec})
    return out, statuses


def _ability(b: Book, row: Row, form: str, dwarf_alloc: dict[str, int]
             ) -> tuple[dict[str, Any], str] | OrderError:
    ability = ability_name(b.race)
    need = OrderError("T_ABILITY_NEEDS", {"ability": ability, "need": FORM_NEEDS[form]})
    army: str | OrderError = ""
    if form in ("army", "army_two", "allocation", "path"):
        army = b.army(row.get("army"))
        if isinstance(army, OrderError):
            return army
    every = b.ix.every()
    p1 = b.province(row.get("province1"), "Провинция 1", among=every) if row.get("province1") else None
    p2 = b.province(row.get("province2"), "Провинция 2", among=every) if row.get("province2") else None
    for p in (p1, p2):
        if isinstance(p, OrderError):
            return p
    assert not isinstance(p1, OrderError) and not isinstance(p2, OrderError)
    if form == "army":
        return {"army": army}, f"отряд в провинции «{b.pname(str(army))}»"
    if form in ("own_province", "province"):
        if p1 is None:
            return need
        if form == "own_province" and b.state["owners"].get(p1) != b.faction:
            return OrderError("T_NOT_OWN_PROVINCE", {"column": "Провинция 1", "value": b.pname(p1),
                                                     "allowed": allowed_list(b.pname(p) for p in b.owned())})
        return {"province": p1}, f"провинция «{b.pname(p1)}»"
    if form == "army_two":
        if p1 is None or p2 is None:
            return need
        return ({"army": army, "provinces": [p1, p2]},
                f"отряд в провинции «{b.pname(str(army))}», провинции «{b.pname(p1)}» и «{b.pname(p2)}»")
    if form == "path":
        if p1 is None:
            return need
        path = [p1] + ([p2] if p2 is not None else [])
        return {"army": army, "path": path}, (f"отряд из провинции «{b.pname(str(army))}» пройдёт до провинции "
                                              f"«{b.pname(path[-1])}»")
    if form == "allocation":
        n = read_count(row.get("points"), "Очки", maximum=3)
        if isinstance(n, OrderError):
            return n
        dwarf_alloc[str(army)] = dwarf_alloc.get(str(army), 0) + n
        return {"allocation": dict(dwarf_alloc)}, f"+{n} отряду в провинции «{b.pname(str(army))}»"
    # enemy_army (Intimidation)
    if p1 is None:
        return need
    aimed = _enemy_army(b, row, p1, f"«{ability}»", players_only=True, reach="any")
    if isinstance(aimed, OrderError):
        return aimed
    target, blind = aimed
    note = f"войско {b.who(target)} в провинции «{b.pname(p1)}»" + (BLIND_NOTE if blind else "")
    return {"target": {"faction": target, "army": p1}, **({BLIND: True} if blind else {})}, note
