"""«Дипломатия»: official alliances made and ended, war declared, peace made (G46), a tab of each faction book.

The book names official alliances («при официальных союзнических отношениях между фракциями»: supports, entering an
ally's province, fighting together and sharing the losses, retreats) and hostile factions (caravans), but no
procedure (G46). Read here, by the book's «В фазе Планирования вы можете … вести переговоры с соседними странами»
and G46 (a):
* an alliance holds when both sides declare it («Заключить союз»); a declaration waits for the other side's, turn
  after turn, until one of them withdraws it («Разорвать союз»); an alliance ends when either side ends it;
* «Объявить войну» makes the two factions hostile at once (an attack does it too, G46 a), and ends an alliance and
  the offers between them; «Заключить мир» ends a war when both sides declare it, as an alliance is made (an alliance
  ends a war too);
* the rows are the turn's negotiations, so they take effect at the start of its Planning: this turn's caravans and
  Campaign already follow them. With the Keepers there is no diplomacy («дипломатия с ними недоступна»).
What two factions agreed is public (the public book's «Фракции», the chronicle); an offer is known to the two only.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.errors import OrderError, allowed_list, define
from engine.numbers import echo
from engine.ruleset import ParsedOrders, Row, RowStatus
from engine.titania import ledger
from engine.titania.state_types import Offer, Relation, TitaniaState

TAB = "diplomacy"
ALLY, BREAK, WAR, PEACE = "Заключить союз", "Разорвать союз", "Объявить войну", "Заключить мир"
ACTIONS = {ALLY: "ally", BREAK: "break", WAR: "war", PEACE: "peace"}

define({
    "T_DIPLO_ACTION": "Неизвестное действие «{value}». Допустимо: {allowed}.",
    "T_DIPLO_FACTION": "Фракции «{value}» нет среди других фракций игры (поле «Фракция»). Допустимо: {allowed}.",
    "T_DIPLO_KEEPER": "С Хранителями «{value}» дипломатия недоступна («Хранители всегда нейтральны, дипломатия с ними "
                      "недоступна»): союз, мир и войну с ними не объявляют (напавший на них сам с ними воюет).",
    "T_DIPLO_TWICE": "С фракцией «{value}» в этом ходу уже есть строка {row}: одна строка дипломатии на фракцию.",
    "T_DIPLO_ALLIED": "Вы уже в союзе с фракцией «{value}».",
    "T_DIPLO_NOT_ALLIED": "С фракцией «{value}» у вас нет ни союза, ни вашего предложения союза: разрывать нечего.",
    "T_DIPLO_AT_WAR": "Вы уже воюете с фракцией «{value}».",
    "T_DIPLO_NOT_AT_WAR": "Вы не воюете с фракцией «{value}»: мир заключать не нужно.",
})


def offers(state: TitaniaState) -> list[Offer]:
    """The declarations that wait for the other side: {"from", "to", "act": "ally" | "peace", "turn"}."""
    return [o.copy() for o in state.get("offers", []) if isinstance(o, dict)]


def _allied(state: TitaniaState, f: str, g: str) -> bool:
    return g in state["factions"][f].get("allies", [])


def _at_war(state: TitaniaState, f: str, g: str) -> bool:
    return g in state["factions"][f].get("at_war", [])


def _offered(state: TitaniaState, f: str, g: str, act: str) -> bool:
    return any(o["from"] == f and o["to"] == g and o["act"] == act for o in offers(state))


def vocabulary(state: TitaniaState, faction: str) -> dict[str, list[str]]:
    """The actions the faction can take now (a break needs an alliance or an own offer, peace a war) and the other
    factions in the game."""
    others = [fid for fid, f in state["factions"].items() if fid != faction and not f.get("eliminated")]
    can = {ALLY: any(not _allied(state, faction, g) for g in others),
           BREAK: any(_allied(state, faction, g) or _offered(state, faction, g, "ally") for g in others),
           WAR: any(not _at_war(state, faction, g) for g in others),
           PEACE: any(_at_war(state, faction, g) for g in others)}
    return {"diplomacy_actions": [a for a in ACTIONS if can[a]],
            "diplomacy_factions": [str(state["factions"][g]["name"]) for g in others]}


def parse(state: TitaniaState, faction: str, rows: Sequence[Row],
          norm: Callable[[str], str]) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The faction's «Дипломатия» rows: one per other faction, each checked against the relations at the start of
    the turn; `norm`: the name normaliser of the book."""
    items: list[dict[str, Any]] = []
    statuses: list[RowStatus] = []
    seen: dict[str, int] = {}
    for row in rows:
        got = _read(state, faction, row, norm, seen)
        if isinstance(got, OrderError):
            statuses.append(RowStatus(TAB, row.number, (got,)))
            continue
        act, g = got
        seen[g] = row.number
        items.append({"kind": "diplomacy", "rows": [row.number], "act": act, "with": g})
        statuses.append(RowStatus(TAB, row.number, note=_foreseen(state, faction, g, act)))
    return items, statuses


def _read(state: TitaniaState, faction: str, row: Row, norm: Callable[[str], str],
          seen: Mapping[str, int]) -> tuple[str, str] | OrderError:
    """(act, the other faction) of one row, or its error."""
    act = {norm(k): v for k, v in ACTIONS.items()}.get(norm(row.get("action")))
    if act is None:
        return OrderError("T_DIPLO_ACTION", {"value": echo(row.get("action")), "allowed": allowed_list(ACTIONS)})
    text = row.get("faction")
    if norm(text) in {norm(k["name"]) for k in state.get("keepers", {}).values()}:
        return OrderError("T_DIPLO_KEEPER", {"value": echo(text)})
    names = {norm(f["name"]): fid for fid, f in state["factions"].items()}
    g = names.get(norm(text)) or next((fid for fid in state["factions"] if norm(fid) == norm(text)), None)
    if g is None or g == faction or state["factions"][g].get("eliminated"):
        others = [str(f["name"]) for fid, f in state["factions"].items() if fid != faction and not f.get("eliminated")]
        return OrderError("T_DIPLO_FACTION", {"value": echo(text), "allowed": allowed_list(others)})
    gname = str(state["factions"][g]["name"])
    if g in seen:
        return OrderError("T_DIPLO_TWICE", {"value": gname, "row": seen[g]})
    if act == "ally" and _allied(state, faction, g):
        return OrderError("T_DIPLO_ALLIED", {"value": gname})
    if act == "break" and not _allied(state, faction, g) and not _offered(state, faction, g, "ally"):
        return OrderError("T_DIPLO_NOT_ALLIED", {"value": gname})
    if act == "war" and _at_war(state, faction, g):
        return OrderError("T_DIPLO_AT_WAR", {"value": gname})
    if act == "peace" and not _at_war(state, faction, g):
        return OrderError("T_DIPLO_NOT_AT_WAR", {"value": gname})
    return act, g


def _foreseen(state: TitaniaState, f: str, g: str, act: str) -> str:
    """What the row does, as far as the faction knows at check (the other side's rows of this turn it cannot see)."""
    name = f"«{state['factions'][g]['name']}»"
    if act == "war":
        return f"война фракции {name} будет объявлена в начале хода" + ("; союз с ней разорван"
                                                                      if _allied(state, f, g) else "")
    if act == "break":
        return (f"союз с фракцией {name} будет разорван в начале хода" if _allied(state, f, g)
                else f"ваше предложение союза фракции {name} будет отозвано")
    what = "союз" if act == "ally" else "мир"
    if _offered(state, g, f, act):
        return f"{what} с фракцией {name} будет заключён в начале хода: она его уже предложила"
    return (f"{what} с фракцией {name} будет заключён, когда она тоже выберет «{ALLY if act == 'ally' else PEACE}» "
            "(в этом ходу или позже); до тех пор предложение ждёт её ответа")


def known_relations(state: TitaniaState, faction: str, items: Sequence[Mapping[str, Any]]
                    ) -> dict[str, tuple[set[str], set[str]]]:
    """The relations the faction's own rows certainly make at the start of the turn (its war, its break, its
    acceptance of an offer the other side made): faction -> (allies, at war), for the two sides of each change.
    What the other side may still decide this turn is not known at check."""
    out: dict[str, tuple[set[str], set[str]]] = {}

    def rel(fid: str) -> tuple[set[str], set[str]]:
        if fid not in out:
            rec = state["factions"][fid]
            out[fid] = (set(rec.get("allies", [])), set(rec.get("at_war", [])))
        return out[fid]

    for item in items:
        if item.get("kind") != "diplomacy":
            continue
        g, act = str(item["with"]), str(item["act"])
        mine, theirs = rel(faction), rel(g)
        if act in ("war", "break"):
            mine[0].discard(g)
            theirs[0].discard(faction)
        if act == "war":
            mine[1].add(g)
            theirs[1].add(faction)
        if act in ("ally", "peace") and _offered(state, g, faction, act):
            mine[1].discard(g)
            theirs[1].discard(faction)
            if act == "ally":
                mine[0].add(g)
                theirs[0].add(faction)
    return out


def apply(state: TitaniaState, orders: Mapping[str, ParsedOrders]
          ) -> tuple[dict[str, list[RowStatus]], list[tuple[str, str]]]:
    """The turn's negotiations, at the start of its Planning, in `state`; each row's status, and the journal lines
    (faction, text) to write once the turn's journal is open. Wars first (they end alliances and offers), then
    alliances and peace ended or made by both sides' declarations (this turn's or an earlier one still standing),
    then the declarations that wait."""
    turn = int(state["turn"])
    said: dict[tuple[str, str], tuple[str, int]] = {}  # (from, to) -> (act, row)
    for fid, parsed in orders.items():
        if fid not in state["factions"]:
            continue
        for item in parsed.orders:
            if item.get("kind") == "diplomacy":
                said[(fid, str(item["with"]))] = (str(item["act"]), int(item["rows"][0]))
    standing = offers(state)
    statuses: dict[str, list[RowStatus]] = {}
    notes: list[tuple[str, str]] = []

    def name(fid: str) -> str:
        return f"«{state['factions'][fid]['name']}»"

    def done(f: str, row: int, note: str) -> None:
        statuses.setdefault(f, []).append(RowStatus(TAB, row, note=note))

    def link(key: Relation, f: str, g: str, on: bool) -> None:
        for x, y in ((f, g), (g, f)):
            rec = state["factions"][x]
            rec[key] = sorted({*rec.get(key, []), y} if on else set(rec.get(key, [])) - {y})

    def drop(f: str, g: str, act: str | None = None) -> None:
        standing[:] = [o for o in standing if {o["from"], o["to"]} != {f, g} or (act is not None and o["act"] != act)]

    for (f, g), (act, row) in said.items():
        if act == "war":
            was = _allied(state, f, g)
            link("allies", f, g, False)
            link("at_war", f, g, True)
            drop(f, g)
            done(f, row, f"война фракции {name(g)} объявлена" + ("; союз разорван" if was else ""))
            ledger.chronicle(state, "Дипломатия", f"Фракция {name(f)} объявила войну фракции {name(g)}"
                             + (" и разорвала союз с ней." if was else "."), turn=turn)
            notes.append((g, f"Ход {turn}: фракция {name(f)} объявила вам войну."))
    for (f, g), (act, row) in said.items():
        if act == "break":
            if _allied(state, f, g):
                link("allies", f, g, False)
                done(f, row, f"союз с фракцией {name(g)} разорван")
                ledger.chronicle(state, "Дипломатия", f"Фракция {name(f)} разорвала союз с фракцией {name(g)}.",
                                 turn=turn)
                notes.append((g, f"Ход {turn}: фракция {name(f)} разорвала союз с вами."))
            else:
                gone = said.get((g, f), ("", 0))[0] == "war"
                done(f, row, "союза уже нет: " + (f"фракция {name(g)} объявила вам войну" if gone else
                                                   f"предложение союза фракции {name(g)} отозвано"))
            drop(f, g, "ally")
    for (f, g), (act, row) in said.items():
        if act not in ("ally", "peace"):
            continue
        what = "союз" if act == "ally" else "мир"
        answer = said.get((g, f), ("", 0))[0]
        if answer == "war" or (act == "ally" and answer == "break"):
            done(f, row, f"{what} не заключён: фракция {name(g)} "
                         + ("объявила вам войну" if answer == "war" else "отказалась"))
            drop(f, g, act)
            continue
        agreed = answer == act or any(o["from"] == g and o["to"] == f and o["act"] == act for o in standing)
        fresh = not _allied(state, f, g) if act == "ally" else _at_war(state, f, g)
        if agreed and fresh:
            link("at_war", f, g, False)
            if act == "ally":
                link("allies", f, g, True)
            drop(f, g, act)
            ledger.chronicle(state, "Дипломатия", f"Фракции {name(f)} и {name(g)} заключили {what}.", turn=turn)
        if agreed:
            done(f, row, f"{what} с фракцией {name(g)} заключён")
            continue
        if not any(o["from"] == f and o["to"] == g and o["act"] == act for o in standing):
            standing.append({"from": f, "to": g, "act": act, "turn": turn})
            notes.append((g, f"Ход {turn}: фракция {name(f)} предлагает вам {what} (вкладка «Дипломатия»: "
                             f"«{ALLY if act == 'ally' else PEACE}» с ней — и он заключён)."))
        done(f, row, f"предложение ({what}) ждёт ответа фракции {name(g)}")
    state["offers"] = standing
    return statuses, notes
