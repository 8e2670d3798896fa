"""The «Симулятор» tab of Titania (the `odds` capability): a player describes a hypothetical battle in
rows — the attacking army, the defenders (armies or natives), the possible supports of either side, each
with its race, Strength and the Might points put on it — and `check` writes back the totals and the
outcome with every support, without each one in turn, and without any.

Each variant is settled by the adjudicator itself (engine.titania.adjudicate) on a small map built from
the rows: the battlefield owned by the (first) defender, so the home-land rules of its race apply; the
attacker's province and one province per support next to it; and as many Shrines as each side puts Might
on its armies. So every passive racial rule, Might, the support rules and the tie rules are the rule
book's, never re-implemented here; active abilities and spells are not part of the description. The
outcome of a description is always the same (a fixed seed; totals involve no dice).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import OrderError, allowed_list, define
from engine.numbers import read_count
from engine.ruleset import Row, RowStatus, Table
from engine.titania.adjudicate import adjudicate
from engine.titania.forum_posts import deciding_rule
from engine.titania.losses import attacker_loss, defender_loss
from engine.titania.races import RACES
from engine.titania.reasons import explain
from engine.titania.report import RESULTS

TAB = "simulator"
RESULT_TAB = "odds"
MAX_STRENGTH = 100
MAX_MIGHT = 20
SEED = "titania-odds"
ATTACKER, DEFENDER, SUPPORT_ATTACK, SUPPORT_DEFENCE = "attacker", "defender", "support_attack", "support_defence"
ROLE_NAMES = {ATTACKER: "Нападающий", DEFENDER: "Обороняющийся", SUPPORT_ATTACK: "Подмога нападающему",
              SUPPORT_DEFENCE: "Подмога обороне"}
ROLE_WORDS = {"нападающий": ATTACKER, "нападение": ATTACKER, "атакующий": ATTACKER, "атака": ATTACKER,
              "обороняющийся": DEFENDER, "оборона": DEFENDER, "защитник": DEFENDER,
              "подмога нападающему": SUPPORT_ATTACK, "подмога нападению": SUPPORT_ATTACK,
              "подмога атаке": SUPPORT_ATTACK, "подмога обороне": SUPPORT_DEFENCE,
              "подмога обороняющемуся": SUPPORT_DEFENCE, "подмога защитнику": SUPPORT_DEFENCE}
NATIVES_WORD = "туземцы"
COLUMNS = ("Вариант", "Нападение", "Оборона", "Итог", "Потери нападающих", "Потери обороны", "Пояснение")

define({
    "T_SIM_ROLE": "Роль «{value}» не распознана. Допустимо: {allowed}.",
    "T_SIM_RACE": "Раса «{value}» не распознана. Допустимо: {allowed}.",
    "T_SIM_NEED_RACE": "Укажите расу обороняющихся (или «туземцы»). Допустимо: {allowed}.",
    "T_SIM_NATIVES_ROLE": "Туземцы могут только обороняться: они не нападают и не оказывают подмогу.",
    "T_SIM_NATIVES_MIGHT": "У туземцев нет Могущества: оставьте поле «Могущество» пустым.",
    "T_SIM_NATIVES_MIXED": "В одной провинции стоят либо туземцы, либо войска фракций, а здесь и то и другое "
                           "(первая строка обороны — {first}).",
    "T_SIM_SECOND_ATTACKER": "Нападающий в бою один (каждое нападение — свой бой): он уже описан в строке "
                             "{row}. Другие войска могут помочь строкой «Подмога нападающему».",
    "T_SIM_NO_ATTACKER": "Опишите нападающего: строку с ролью «Нападающий», его расой и силой.",
    "T_SIM_NO_DEFENDER": "Опишите оборону: хотя бы одну строку «Обороняющийся» с расой (или «туземцы») "
                         "и силой.",
    "T_SIM_NOT_SETTLED": "Такой бой не сложить: {problem}",
})


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("ё", "е").split())


RACE_WORDS = {_norm(r.name): key for key, r in RACES.items()}


def race_choices() -> list[str]:
    return [r.name for r in RACES.values()] + [NATIVES_WORD]


def vocabularies() -> dict[str, list[str]]:
    """Dropdowns of the «Симулятор» tab."""
    return {"sim_roles": list(ROLE_NAMES.values()), "sim_races": race_choices()}


@dataclass(frozen=True)
class Unit:
    """One row of the description: an army (or the natives) with its role, race, Strength and Might."""

    row: int
    role: str
    race: str          # a race key, or "natives"
    strength: int
    might: int

    def text(self) -> str:
        race = "туземцы" if self.race == "natives" else RACES[self.race].name
        might = f", Могущество +{self.might}" if self.might else ""
        return f"{race}, сила {self.strength}{might}"


Errors = dict[int, list[OrderError]]


def _unit(row: Row, own_race: str | None) -> Unit | list[OrderError]:
    errs: list[OrderError] = []
    role = ROLE_WORDS.get(_norm(row.get("role")))
    if role is None:
        errs.append(OrderError("T_SIM_ROLE", {"value": row.get("role"), "allowed": allowed_list(ROLE_NAMES.values())}))
    text = _norm(row.get("race"))
    race: str | None = None
    if text == NATIVES_WORD:
        race = "natives"
        if role not in (DEFENDER, None):
            errs.append(OrderError("T_SIM_NATIVES_ROLE", {}))
    elif text:
        race = RACE_WORDS.get(text)
        if race is None:
            errs.append(OrderError("T_SIM_RACE", {"value": row.get("race"), "allowed": allowed_list(race_choices())}))
    elif role == ATTACKER and own_race is not None:
        race = own_race
    elif role in (ATTACKER, DEFENDER):
        errs.append(OrderError("T_SIM_NEED_RACE", {"allowed": allowed_list(race_choices())}))
    strength = read_count(row.get("strength"), "Сила", maximum=MAX_STRENGTH)
    if isinstance(strength, OrderError):
        errs.append(strength)
    might = read_count(row.get("might") or "0", "Могущество", maximum=MAX_MIGHT, minimum=0)
    if isinstance(might, OrderError):
        errs.append(might)
    elif might and race == "natives":
        errs.append(OrderError("T_SIM_NATIVES_MIGHT", {}))
    if errs:
        return errs
    assert role is not None and isinstance(strength, int) and isinstance(might, int)
    return Unit(row.number, role, race or "", strength, might)


def _parse(rows: Sequence[Row], own_race: str | None) -> tuple[list[Unit], Errors]:
    units: list[Unit] = []
    errors: Errors = {}
    for row in rows:
        got = _unit(row, own_race)
        if isinstance(got, list):
            errors[row.number] = got
            continue
        attacker = next((u for u in units if u.role == ATTACKER), None)
        defence = [u for u in units if u.role == DEFENDER]
        if got.role == ATTACKER and attacker is not None:
            errors[row.number] = [OrderError("T_SIM_SECOND_ATTACKER", {"row": attacker.row})]
        elif got.role == DEFENDER and defence and (got.race == "natives") != (defence[0].race == "natives"):
            errors[row.number] = [OrderError("T_SIM_NATIVES_MIXED", {"first": defence[0].text()})]
        else:
            units.append(got)
    # a support's race defaults to the race of the side it helps
    attacker_race = next((u.race for u in units if u.role == ATTACKER), own_race or "humans")
    defender_race = next((u.race for u in units if u.role == DEFENDER), attacker_race)
    out = []
    for u in units:
        if not u.race:
            side_race = attacker_race if u.role == SUPPORT_ATTACK else defender_race
            u = Unit(u.row, u.role, "humans" if side_race == "natives" else side_race, u.strength, u.might)
        out.append(u)
    return out, errors


def situation(units: Sequence[Unit], without: frozenset[int] = frozenset()) -> tuple[dict[str, Any], list[int]]:
    """The adjudicator's input for the battle the units describe (supports of rows in `without` left out),
    and the row each of its orders comes from."""
    provinces: list[dict[str, Any]] = [{"id": "field", "name": "Поле боя", "deposits": []},
                                       {"id": "origin", "name": "Откуда нападают", "deposits": []}]
    adjacency = [["origin", "field"]]
    factions: list[dict[str, Any]] = []
    armies: list[dict[str, Any]] = []
    orders: list[dict[str, Any]] = []
    order_rows: list[int] = []
    might: dict[str, dict[str, int]] = {}
    owners: dict[str, str] = {}
    natives = sum(u.strength for u in units if u.role == DEFENDER and u.race == "natives")
    defenders = [f"d{i}" for i, u in enumerate(units) if u.role == DEFENDER and u.race != "natives"]
    for i, u in enumerate(units):
        if u.race == "natives":
            continue
        fid = {ATTACKER: "att", DEFENDER: f"d{i}"}.get(u.role, f"s{i}")
        allies = [d for d in defenders if d != fid] if u.role == DEFENDER else []
        factions.append({"id": fid, "race": u.race, "allies": allies, "resources": {},
                         "limits": {"max_strength": MAX_STRENGTH, "food": 1000}})
        where = {ATTACKER: "origin", DEFENDER: "field"}.get(u.role, f"p{i}")
        if where not in ("origin", "field"):
            provinces.append({"id": where, "name": f"Подмога {i}", "deposits": []})
            adjacency.append([where, "field"])
        if u.role != DEFENDER or fid == defenders[0]:
            owners[where] = fid
        armies.append({"faction": fid, "province": where, "strength": u.strength})
        if u.role == ATTACKER:
            orders.append({"faction": fid, "army": where, "type": "move", "target": "field", "seq": 1})
            order_rows.append(u.row)
        elif u.role in (SUPPORT_ATTACK, SUPPORT_DEFENCE) and u.row not in without:
            helped = "att" if u.role == SUPPORT_ATTACK else (defenders[0] if defenders else "natives")
            orders.append({"faction": fid, "army": where, "type": "support", "target": "field",
                           "support_faction": helped, "seq": 1})
            order_rows.append(u.row)
        if u.might:
            might[fid] = {where: u.might}
            for k in range(u.might):   # Might comes from Shrines of the Ancients held (one point each)
                shrine = f"shrine_{fid}_{k}"
                provinces.append({"id": shrine, "name": f"Святилище {fid} {k}", "shrine": True, "deposits": []})
                owners[shrine] = fid
    return {"schema": "titania.adjudicate.v1",
            "map": {"provinces": [{"sea": False, "island": False, **p} for p in provinces], "adjacency": adjacency},
            "factions": factions,
            "state": {"owners": owners, "buildings": {}, "armies": armies,
                      "natives": {"field": natives} if natives else {}, "turn": 1},
            "orders": orders, "might_allocation": might}, order_rows


@dataclass(frozen=True)
class Variant:
    title: str
    battle: Mapping[str, Any] | None
    problems: tuple[str, ...] = ()
    supports: Mapping[int, Mapping[str, Any]] | None = None   # row -> the adjudicator's verdict on its support
    races: Mapping[str, str] | None = None                    # faction id of the description -> race


def settle(units: Sequence[Unit], title: str, without: frozenset[int] = frozenset()) -> Variant:
    data, order_rows = situation(units, without)
    answer = adjudicate(data, SEED)
    if answer.output is None:
        return Variant(title, None, tuple(answer.problems))
    battle = next((b for b in answer.output["battles"] if b["province"] == "field"), None)
    verdicts: dict[int, Mapping[str, Any]] = {}
    for item in answer.output["orders"]:
        if item.get("type") == "support" and 0 <= item["index"] < len(order_rows):
            verdicts[order_rows[item["index"]]] = item
    races = {str(f["id"]): str(f["race"]) for f in data["factions"]}
    return Variant(title, battle, (), verdicts, races)


def _side_text(side: Mapping[str, Any]) -> str:
    sup = sum(int(s["value"]) for s in side.get("supports", []))
    parts = [f"сила {side['strength']}"] + ([f"подмога +{sup}"] if sup else []) + \
        ([f"модификаторы {side['modifiers']:+d}"] if side.get("modifiers") else [])
    return f"{side['total']} ({', '.join(parts)})"


def _row(v: Variant, reference: Variant | None) -> tuple[Any, ...]:
    b = v.battle
    if b is None:
        why = "; ".join(v.problems) or "нападение не состоялось"
        return (v.title, "", "", "боя нет", "", "", why)
    notes = [deciding_rule(b)]
    if reference is not None and reference.battle is not None and reference.battle["result"] != b["result"]:
        notes.insert(0, "исход меняется")
    return (v.title, _side_text(b["attacker"]), _side_text(b["defender"]), RESULTS[b["result"]],
            attacker_loss(b), defender_loss(b, v.races), "; ".join(notes))


def _support_note(verdict: Mapping[str, Any] | None, battle: Mapping[str, Any] | None) -> str:
    if verdict is None or battle is None:
        return "подмога не оценена: боя нет"
    if verdict.get("outcome") == "succeeded":
        return "подмога засчитана"
    return f"подмога не засчитана: {explain(verdict.get('reason'))}"


def _unread(errors: Errors) -> str:
    return ", ".join(map(str, sorted(errors))) + ": в них ошибки, см. столбец «Статус»"


EMPTY = Table(COLUMNS, (("Опишите бой во вкладке «Симулятор»", "", "", "", "", "",
                         "нападающий, оборона и возможная подмога с расой и силой; итоги появятся после "
                         "проверки приказов"),))


class TitaniaOdds:
    """The «Симулятор» tab: rows in, per-row statuses and the «Расчёт боя» table out."""

    tab = TAB
    result_tab = RESULT_TAB

    def odds(self, state: Mapping[str, Any], faction: str,
             rows: Sequence[Row]) -> tuple[tuple[RowStatus, ...], Table]:
        rows = [r for r in rows if not r.is_blank()]
        if not rows:
            return (), EMPTY
        own = state.get("factions", {}).get(faction, {}).get("race")
        units, errors = _parse(rows, own if own in RACES else None)
        statuses: Errors = dict(errors)
        notes: dict[int, str] = {}
        table = EMPTY
        first = next((r.number for r in rows if r.number not in errors), rows[0].number)
        missing = [code for code, role in (("T_SIM_NO_ATTACKER", ATTACKER), ("T_SIM_NO_DEFENDER", DEFENDER))
                   if not any(u.role == role for u in units)]
        if missing and not errors:
            statuses.setdefault(first, []).extend(OrderError(code, {}) for code in missing)
        elif missing:
            table = Table(COLUMNS, (*EMPTY.rows, ("Не учтены строки", "", "", "", "", "", _unread(errors)),))
        else:
            full = settle(units, "Вся подмога, как описано")
            if full.battle is None:
                problem = "; ".join(full.problems) or "нападение не состоялось"
                statuses.setdefault(first, []).append(OrderError("T_SIM_NOT_SETTLED", {"problem": problem}))
            else:
                supports = [u for u in units if u.role in (SUPPORT_ATTACK, SUPPORT_DEFENCE)]
                variants = [full] + [settle(units, f"Без подмоги строки {u.row} ({ROLE_NAMES[u.role].lower()}: "
                                                   f"{u.text()})", frozenset({u.row})) for u in supports]
                if len(supports) > 1:
                    variants.append(settle(units, "Без всякой подмоги", frozenset(u.row for u in supports)))
                table = Table(COLUMNS, tuple(_row(v, None if v is full else full) for v in variants)
                              + ((("Не учтены строки", "", "", "", "", "", _unread(errors)),) if errors else ()))
                for u in units:
                    notes[u.row] = ROLE_NAMES[u.role].lower() + ": " + u.text()
                    if u in supports:
                        notes[u.row] += "; " + _support_note((full.supports or {}).get(u.row), full.battle)
        return tuple(RowStatus(TAB, r.number, tuple(statuses.get(r.number, ())),
                               note=notes.get(r.number, "") if r.number not in statuses else "")
                     for r in rows), table
