"""GM corrections of a Titania game: the «Корректировки» tab of the GM book (DESIGN: «GM corrections are orders
in the GM book's adjustments tab, so every change is in the log and replays»).

A row changes one thing, with a reason: a faction's resource (by an amount), an army's Strength in a province
(a player's, a Keeper's or the natives'; to 0 or below: the army is gone), a province's owner, or one of its
buildings (added or removed). `check` reads each row against the state (rows one after another, so two rows on
one balance add up); the turn applies the accepted rows at its start, before Planning (so the factions' own
rows, which `check` read against the uncorrected state, meet the corrected one), each with a ledger line for a
resource and a journal line of every faction concerned; the row's status says what was done.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cells import normalize_name, signed_integer
from engine.errors import OrderError, allowed_list, define
from engine.free_text import text_problem
from engine.ruleset import Row, RowStatus
from engine.titania import ledger
from engine.titania.names import BUILDING_NAMES, RESOURCE_NAMES, who_of
from engine.titania.rulebook import see
from engine.titania.setup import RESOURCE_KEYS
from engine.titania.state_types import Relation, TitaniaState, balance

TAB = "corrections"
REASON_LENGTH = 300
RESOURCE, STRENGTH, OWNER, BUILD, RAZE = "Ресурс", "Сила войска", "Владелец", "Постройка: добавить", "Постройка: убрать"
ALLY, UNALLY, WAR, PEACE = "Союз: заключить", "Союз: разорвать", "Война: объявить", "Война: закончить"
ACTIONS = {RESOURCE: "resource", STRENGTH: "strength", OWNER: "owner", BUILD: "build", RAZE: "raze",
           ALLY: "ally", UNALLY: "unally", WAR: "war", PEACE: "peace"}
RELATIONS: dict[str, tuple[Relation, bool]] = {"ally": ("allies", True), "unally": ("allies", False),
                                               "war": ("at_war", True), "peace": ("at_war", False)}
NATIVES_NAME, NOBODY = "туземцы", "ничья"
BUILDINGS = ("mine", "sawmill", "farm", "quarry", "tower", "port", "fort", "market")

define({
    "T_GM_ACTION": "Неизвестная корректировка «{value}». Допустимо: {allowed}.",
    "T_GM_FACTION": "Фракции «{value}» нет в игре (поле «Фракция»). Допустимо: {allowed}.",
    "T_GM_PROVINCE": "Провинции «{value}» нет на карте (поле «Провинция»). Допустимо: {allowed}.",
    "T_GM_NEED": "Для корректировки «{action}» заполните поле «{column}». Допустимо: {allowed}.",
    "T_GM_WHAT": "«{value}» не подходит для корректировки «{action}» (поле «Ресурс или постройка»). Допустимо: "
                 "{allowed}.",
    "T_GM_AMOUNT": "«Изменение» — целое число, не ноль (например, 3 или -2), а не «{value}».",
    "T_GM_BELOW_ZERO": "У фракции «{faction}» {resource} {have} (с корректировками выше): отнять {amount} нельзя.",
    "T_GM_NO_ARMY": "В провинции «{province}» нет войска {faction}: отнимать силу не у кого (прибавьте, чтобы "
                    "поставить новое войско).",
    "T_GM_SEA": "«{province}» — море: {what}.",
    "T_GM_BUILDING": "{detail}.",
    "T_GM_REASON": "Укажите причину корректировки в поле «Причина»: она попадёт в журнал.",
    "T_GM_OTHER": "Для корректировки «{action}» укажите в поле «С кем» другую фракцию игроков: {allowed}.",
})


def _names(state: TitaniaState) -> dict[str, str]:
    """Normalised display name (or id) -> faction or Keeper id; the natives too."""
    out: dict[str, str] = {normalize_name(NATIVES_NAME): "natives"}
    for fid, f in [*state["factions"].items(), *state.get("keepers", {}).items()]:
        out[normalize_name(f["name"])] = fid
        out.setdefault(normalize_name(fid), fid)
    return out


def _who(state: TitaniaState, fid: str | None) -> str:
    if fid is None:
        return NOBODY
    if fid == "natives":
        return NATIVES_NAME
    rec: Mapping[str, Any] = state["factions"].get(fid) or state.get("keepers", {}).get(fid) or {}
    return str(rec.get("name", fid))


def vocabulary(state: TitaniaState) -> dict[str, list[str]]:
    provinces = state["map"]["provinces"]
    return {"gm_actions": list(ACTIONS),
            "gm_factions": [_who(state, f) for f in (*state["factions"], *state.get("keepers", {}))]
            + [NATIVES_NAME, NOBODY],
            "gm_provinces": sorted((i["name"] for i in provinces.values()), key=normalize_name),
            "gm_what": [RESOURCE_NAMES[r] for r in RESOURCE_KEYS] + [BUILDING_NAMES[b] for b in BUILDINGS],
            "gm_players": [str(f["name"]) for f in state["factions"].values()]}


class _Reader:
    """Rows read one after another against the state and the rows above (balances, armies, buildings)."""

    def __init__(self, state: TitaniaState) -> None:
        self.state = state
        self.names = _names(state)
        provinces = state["map"]["provinces"]
        self.places = {**{normalize_name(p): p for p in provinces},
                       **{normalize_name(i["name"]): p for p, i in provinces.items()}}
        self.balance = {fid: {r: int(balance(f, r)) for r in RESOURCE_KEYS} for fid, f in state["factions"].items()}
        self.strength: dict[tuple[str, str], int] = {}
        for a in state["armies"]:
            key = (a["faction"], a["province"])
            self.strength[key] = self.strength.get(key, 0) + int(a["strength"])
        for p, n in state["natives"].items():
            self.strength[("natives", p)] = int(n)
        self.buildings = {p: set(b) for p, b in state["buildings"].items()}

    def faction(self, row: Row, errors: list[OrderError], players_only: bool = False) -> str | None:
        text = row.get("faction")
        fid = self.names.get(normalize_name(text))
        allowed = [_who(self.state, f) for f in self.state["factions"]] if players_only else \
            [_who(self.state, f) for f in (*self.state["factions"], *self.state.get("keepers", {}))] + [NATIVES_NAME]
        if not text:
            errors.append(OrderError("T_GM_NEED", {"action": row.get("action"), "column": "Фракция",
                                                   "allowed": allowed_list(allowed)}))
        elif fid is None or (players_only and fid not in self.state["factions"]):
            errors.append(OrderError("T_GM_FACTION", {"value": text, "allowed": allowed_list(allowed)}))
            return None
        return fid

    def province(self, row: Row, errors: list[OrderError]) -> str | None:
        text = row.get("province")
        p = self.places.get(normalize_name(text))
        names = vocabulary(self.state)["gm_provinces"]
        if not text:
            errors.append(OrderError("T_GM_NEED", {"action": row.get("action"), "column": "Провинция",
                                                   "allowed": allowed_list(names)}))
        elif p is None:
            errors.append(OrderError("T_GM_PROVINCE", {"value": text, "allowed": allowed_list(names)}))
        return p

    def amount(self, row: Row, errors: list[OrderError]) -> int:
        n = signed_integer(row.get("amount")) or 0
        if n == 0:
            errors.append(OrderError("T_GM_AMOUNT", {"value": row.get("amount")}))
        return n

    def what(self, row: Row, names: Mapping[str, str], errors: list[OrderError]) -> str | None:
        text = row.get("what")
        key = {normalize_name(v): k for k, v in names.items()}.get(normalize_name(text))
        if key is None:
            errors.append(OrderError("T_GM_WHAT", {"value": text, "action": row.get("action"),
                                                   "allowed": allowed_list(names.values())}))
        return key

    def read(self, row: Row) -> tuple[dict[str, Any] | None, list[OrderError]]:
        errors: list[OrderError] = []
        action = {normalize_name(k): v for k, v in ACTIONS.items()}.get(normalize_name(row.get("action")))
        if action is None:
            errors.append(OrderError("T_GM_ACTION", {"value": row.get("action"), "allowed": allowed_list(ACTIONS)}))
        if not row.get("reason"):
            errors.append(OrderError("T_GM_REASON"))
        elif (bad := text_problem(row.get("reason"), column="Причина", limit=REASON_LENGTH)) is not None:
            errors.append(bad)
        if action is None:
            return None, errors
        order: dict[str, Any] = {"row": row.number, "action": action, "reason": row.get("reason")}
        provinces = self.state["map"]["provinces"]
        if action in RELATIONS:  # G46: an alliance or a war the GM sets or ends (engine.titania.diplomacy)
            fid = self.faction(row, errors, players_only=True)
            other = self.names.get(normalize_name(row.get("other")))
            if other is None or other not in self.state["factions"] or other == fid:
                errors.append(OrderError("T_GM_OTHER", {"action": row.get("action"), "allowed": allowed_list(
                    _who(self.state, f) for f in self.state["factions"] if f != fid)}))
            order.update(faction=fid, other=other)
            return (None if errors else order), errors
        if action == "resource":
            fid = self.faction(row, errors, players_only=True)
            res = self.what(row, {r: RESOURCE_NAMES[r] for r in RESOURCE_KEYS}, errors)
            n = self.amount(row, errors)
            if fid is not None and res is not None and n:
                have = self.balance[fid][res]
                if have + n < 0:
                    errors.append(OrderError("T_GM_BELOW_ZERO", {"faction": _who(self.state, fid), "have": have,
                                                                 "resource": RESOURCE_NAMES[res], "amount": -n}))
                elif not errors:
                    self.balance[fid][res] = have + n
            order.update(faction=fid, resource=res, amount=n)
        elif action == "strength":
            fid = self.faction(row, errors)
            p = self.province(row, errors)
            n = self.amount(row, errors)
            if fid is not None and p is not None and n:
                if fid == "natives" and provinces[p]["sea"]:
                    errors.append(OrderError("T_GM_SEA", {"province": provinces[p]["name"],
                                                          "what": "туземцы живут только на суше"}))
                have = self.strength.get((fid, p), 0)
                if have == 0 and n < 0:
                    errors.append(OrderError("T_GM_NO_ARMY", {"province": provinces[p]["name"],
                                                              "faction": who_of(self.state, fid)}))
                elif not errors:
                    self.strength[(fid, p)] = max(0, have + n)
            order.update(faction=fid, province=p, amount=n)
        elif action == "owner":
            p = self.province(row, errors)
            text = row.get("faction")
            fid = None if normalize_name(text) in ("", normalize_name(NOBODY)) else self.faction(row, errors)
            if fid == "natives":
                errors.append(OrderError("T_GM_FACTION", {"value": text, "allowed": allowed_list(
                    vocabulary(self.state)["gm_factions"][:-2] + [NOBODY])}))
            if p is not None and provinces[p]["sea"]:
                errors.append(OrderError("T_GM_SEA", {"province": provinces[p]["name"],
                                                      "what": f"море не бывает чьим ({see('C7.2')})"}))
            order.update(province=p, faction=fid)
        else:
            p = self.province(row, errors)
            b = self.what(row, {k: BUILDING_NAMES[k] for k in BUILDINGS}, errors)
            if p is not None and b is not None:
                there = self.buildings.setdefault(p, set())
                name = provinces[p]["name"]
                if provinces[p]["sea"]:
                    errors.append(OrderError("T_GM_SEA", {"province": name, "what": "в море построек не бывает"}))
                elif action == "build" and b in there:
                    errors.append(OrderError("T_GM_BUILDING", {"detail": f"В провинции «{name}» уже есть "
                                                                         f"{BUILDING_NAMES[b]}: в провинции одна "
                                                                         "постройка каждого типа"}))
                elif action == "raze" and b not in there:
                    errors.append(OrderError("T_GM_BUILDING", {"detail": f"В провинции «{name}» нет постройки "
                                                                         f"«{BUILDING_NAMES[b]}»; там: " + (
                                                               ", ".join(BUILDING_NAMES[x] for x in sorted(there))
                                                               or "ничего")}))
                elif not errors:
                    (there.add if action == "build" else there.discard)(b)
            order.update(province=p, building=b)
        return (None if errors else order), errors


def parse(state: TitaniaState, rows: Sequence[Row]) -> tuple[list[dict[str, Any]], list[RowStatus]]:
    """The accepted corrections and a status per row."""
    reader = _Reader(state)
    orders: list[dict[str, Any]] = []
    statuses: list[RowStatus] = []
    for row in rows:
        if row.is_blank():
            continue
        order, errors = reader.read(row)
        if order is None:
            statuses.append(RowStatus(TAB, row.number, tuple(errors)))
        else:
            orders.append(order)
            statuses.append(RowStatus(TAB, row.number, note=f"будет применено в начале хода {state['turn']}, до "
                                                            "приказов этого хода: их проверка его уже учитывает"))
    return orders, statuses


def _text(state: TitaniaState, o: Mapping[str, Any]) -> str:
    provinces = state["map"]["provinces"]
    place = provinces[o["province"]]["name"] if o.get("province") in provinces else ""
    if o["action"] == "resource":
        return f"{RESOURCE_NAMES[o['resource']]} {o['amount']:+d} фракции «{_who(state, o['faction'])}»"
    if o["action"] == "strength":
        return f"сила войска {who_of(state, o['faction'])} в провинции «{place}» {o['amount']:+d}"
    if o["action"] == "owner":
        return (f"«{place}» теперь ничья" if o["faction"] is None
                else f"владелец провинции «{place}»: {_who(state, o['faction'])}")
    if o["action"] in RELATIONS:
        pair = f"«{_who(state, o['faction'])}» и «{_who(state, o['other'])}»"
        return {"ally": f"{pair} — союзники", "unally": f"{pair} больше не союзники",
                "war": f"{pair} воюют", "peace": f"{pair} больше не воюют"}[o["action"]]
    verb = "добавлена" if o["action"] == "build" else "снесена"
    return f"в провинции «{place}» {verb} постройка: {BUILDING_NAMES[o['building']]}"


def apply(state: TitaniaState, orders: Sequence[Mapping[str, Any]]) -> tuple[list[RowStatus], list[tuple[str, str]]]:
    """Apply the accepted corrections to `state` (mutated) in row order; the rows' statuses and the journal
    lines (faction, text) to write once the turn's journal is open. A row the state no longer allows (the
    rows are re-read here, as at check) is not applied."""
    reader = _Reader(state)
    statuses: list[RowStatus] = []
    notes: list[tuple[str, str]] = []
    turn = int(state["turn"])
    for o in orders:
        cells = {"action": next(k for k, v in ACTIONS.items() if v == o["action"]), "reason": o["reason"],
                 "faction": _who(state, o.get("faction")) if o.get("faction") is not None else "",
                 "province": state["map"]["provinces"][o["province"]]["name"] if o.get("province") else "",
                 "what": RESOURCE_NAMES.get(o.get("resource") or "", BUILDING_NAMES.get(o.get("building") or "", "")),
                 "amount": str(o.get("amount") or ""),
                 "other": _who(state, o["other"]) if o.get("other") else ""}
        again, errors = reader.read(Row(int(o["row"]), cells))
        if again is None:
            statuses.append(RowStatus(TAB, int(o["row"]), tuple(errors)))
            continue
        text = _text(state, o)
        reason = f"Корректировка мастера: {o['reason']}"
        concerned: set[str] = set()
        if o["action"] in RELATIONS:
            key, on = RELATIONS[o["action"]]
            f, g = str(o["faction"]), str(o["other"])
            for x, y in ((f, g), (g, f)):
                rec = state["factions"][x]
                rec[key] = sorted({*rec.get(key, []), y} if on else set(rec.get(key, [])) - {y})
                if on:  # an alliance ends a war, a war an alliance
                    other_key: Relation = "at_war" if key == "allies" else "allies"
                    rec[other_key] = sorted(set(rec.get(other_key, [])) - {y})
            state["offers"] = [x for x in state.get("offers", []) if {x.get("from"), x.get("to")} != {f, g}]
            ledger.chronicle(state, "Дипломатия", f"Мастер: {text} ({o['reason']}).", turn=turn)
            concerned |= {f, g}
        elif o["action"] == "resource":
            ledger.change(state, o["faction"], o["resource"], int(o["amount"]), reason)
            concerned.add(o["faction"])
        elif o["action"] == "strength":
            _strength(state, o["faction"], o["province"], int(o["amount"]))
            concerned.add(o["faction"])
        elif o["action"] == "owner":
            before = state["owners"].get(o["province"])
            if o["faction"] is None:
                state["owners"].pop(o["province"], None)
            else:
                state["owners"][o["province"]] = o["faction"]
            concerned |= {x for x in (before, o["faction"]) if x is not None}
        else:
            there = set(state["buildings"].get(o["province"], []))
            (there.add if o["action"] == "build" else there.discard)(o["building"])
            state["buildings"][o["province"]] = sorted(there)
            if not there:
                state["buildings"].pop(o["province"])
            owner = state["owners"].get(o["province"])
            concerned |= {owner} if owner is not None else set()
        for fid in sorted(concerned & set(state["factions"])):
            notes.append((fid, f"Ход {turn}, корректировка мастера: {text} ({o['reason']})."))
        statuses.append(RowStatus(TAB, int(o["row"]), note=f"применено: {text}"))
    return statuses, notes


def _strength(state: TitaniaState, faction: str, province: str, amount: int) -> None:
    if faction == "natives":
        n = int(state["natives"].get(province, 0)) + amount
        if n > 0:
            state["natives"][province] = n
        else:
            state["natives"].pop(province, None)
        return
    mine = [a for a in state["armies"] if a["faction"] == faction and a["province"] == province]
    if not mine:
        state["armies"].append({"faction": faction, "province": province, "strength": amount,
                                "naval": bool(state["map"]["provinces"][province]["sea"])})
        return
    total = sum(int(a["strength"]) for a in mine) + amount
    state["armies"] = [a for a in state["armies"] if a not in mine]
    if total > 0:
        state["armies"].append({**mine[0], "strength": total})
