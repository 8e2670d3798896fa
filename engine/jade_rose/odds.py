"""The «Симулятор» tab (the `odds` capability): a player describes a hypothetical battle in rows — own
squads and the enemy's, position, units, manoeuvre — and `check` writes back the odds from the battle
simulator: win shares, the mean number of rounds and the mean losses per unit type of both sides (the dead
less those who return to the ranks, JR-41: the simulator's "losses", as `battle --json` gives them).

Rows of one side at one position form one squad (several unit types); the first manoeuvre given for the
position is the squad's. A row with a mistake gets its message and is left out; the others still count.
The odds of one description are always the same: the runs' seed is derived from the rows themselves,
never from the game's dice.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.errors import OrderError, allowed_list, define
from engine.jade_rose import battle
from engine.jade_rose.battle.deployment import BattleSpecError
from engine.jade_rose.data import load_data
from engine.jade_rose.names import find_unit, unit_names
from engine.jade_rose.state_types import JadeRoseState, jade_rose_state
from engine.jade_rose.war.words import parse_flank, parse_line, parse_manoeuvre, parse_position
from engine.numbers import read_count
from engine.rng import derive_seed
from engine.ruleset import Row, RowStatus, Table
from engine.state import canonical_json

TAB = "simulator"
RESULT_TAB = "odds"
RUNS = 2000
MAX_COUNT = 1000
OURS_ATTACK, OURS_DEFEND, ENEMY = "атакуем", "обороняемся", "противник"
SIDE_WORDS = {"атакуем": OURS_ATTACK, "мы атакуем": OURS_ATTACK, "атака": OURS_ATTACK,
              "обороняемся": OURS_DEFEND, "мы обороняемся": OURS_DEFEND, "оборона": OURS_DEFEND,
              "противник": ENEMY, "враг": ENEMY}
SIDES_ALLOWED = "Атакуем, Обороняемся, Противник"

define({
    "JR_SIM_SIDE": "Сторона «{value}» не распознана. Допустимо: " + SIDES_ALLOWED + ".",
    "JR_SIM_ROLE_MIXED": "Свои строки должны быть все «Атакуем» или все «Обороняемся», а здесь «{value}», "
                         "хотя выше — «{first}».",
    "JR_SIM_ENEMY": "Укажите фракцию противника в столбце «Фракция». Допустимо: {allowed}.",
    "JR_SIM_ENEMY_MIXED": "Противник в одном бою — одна фракция: выше указана «{first}», здесь «{value}».",
    "JR_SIM_FLANK": "Фланг «{value}» не распознан. Допустимо: Левый, Центр, Правый.",
    "JR_SIM_LINE": "Линия «{value}» не распознана. Допустимо: Авангард, Арьергард.",
    "JR_SIM_UNIT": "Юнита «{value}» у фракции «{faction}» нет. Допустимо: {allowed}.",
    "JR_SIM_MANOEUVRE": "Манёвр «{value}» не распознан. Допустимо: {allowed}.",
    "JR_SIM_TARGET": "Цель «{value}» не распознана: укажите позицию, например «Правый авангард».",
    "JR_SIM_BATTLE": "Такой бой не сложить: {problem}",
    "JR_SIM_ONE_SIDE": "Для расчёта нужны и свои отряды, и отряды противника.",
})

MANOEUVRE_CHOICES = ("Без манёвра", "Смена позиции", "Защита", "В укрытие", "Натиск", "Обстрел",
                     "Дальнобойный обстрел")


def _side(text: str) -> str | None:
    return SIDE_WORDS.get(" ".join(text.lower().replace("ё", "е").split()))


def _enemy_id(state: JadeRoseState, faction: str, text: str) -> str | None:
    wanted = " ".join(text.lower().replace("ё", "е").split())
    for fid, rec in state["factions"].items():
        if fid != faction and wanted in (fid, " ".join(str(rec["name"]).lower().replace("ё", "е").split())):
            return str(fid)
    return None


Errors = dict[int, list[OrderError]]


def _parse(state: JadeRoseState, faction: str, rows: Sequence[Row]) -> tuple[dict[str, Any], Errors]:
    """The rows as squads per side, and the errors of each bad row."""
    errors: Errors = {}
    role: str | None = None
    role_text = ""
    enemy: str | None = None
    enemy_text = ""
    squads: dict[tuple[str, str], dict[str, Any]] = {}
    others = [str(f["name"]) for fid, f in state["factions"].items() if fid != faction]
    for row in rows:
        errs: list[OrderError] = []
        side = _side(row.get("side"))
        if side is None:
            errs.append(OrderError("JR_SIM_SIDE", {"value": row.get("side")}))
        elif side != ENEMY:
            if role is None:
                role, role_text = side, row.get("side")
            elif side != role:
                errs.append(OrderError("JR_SIM_ROLE_MIXED", {"value": row.get("side"), "first": role_text}))
        owner = faction if side is not None else ""
        if side == ENEMY:
            found = _enemy_id(state, faction, row.get("faction")) if row.get("faction") else enemy
            if found is None:
                errs.append(OrderError("JR_SIM_ENEMY", {"allowed": allowed_list(others)}))
            elif enemy is not None and found != enemy:
                errs.append(OrderError("JR_SIM_ENEMY_MIXED", {"first": enemy_text, "value": row.get("faction")}))
            else:
                enemy, enemy_text = found, row.get("faction") or enemy_text
            owner = found or ""
        flank, line = parse_flank(row.get("flank")), parse_line(row.get("line"))
        if flank is None:
            errs.append(OrderError("JR_SIM_FLANK", {"value": row.get("flank")}))
        if line is None:
            errs.append(OrderError("JR_SIM_LINE", {"value": row.get("line")}))
        unit = find_unit(row.get("unit"), owner) if owner else None
        if owner and unit is None:
            errs.append(OrderError("JR_SIM_UNIT", {"value": row.get("unit"),
                                                   "faction": state["factions"][owner]["name"],
                                                   "allowed": allowed_list(unit_names(owner))}))
        count = read_count(row.get("count"), "Количество", maximum=MAX_COUNT)
        if isinstance(count, OrderError):
            errs.append(count)
        manoeuvre = parse_manoeuvre(row.get("manoeuvre")) if row.get("manoeuvre") else "none"
        if manoeuvre is None:
            errs.append(OrderError("JR_SIM_MANOEUVRE", {"value": row.get("manoeuvre"),
                                                        "allowed": allowed_list(MANOEUVRE_CHOICES)}))
        target = parse_position(row.get("target")) if row.get("target") else None
        if row.get("target") and target is None:
            errs.append(OrderError("JR_SIM_TARGET", {"value": row.get("target")}))
        if errs:
            errors[row.number] = errs
            continue
        assert side is not None and flank is not None and line is not None and unit is not None
        squad = squads.setdefault(("enemy" if side == ENEMY else "ours", f"{flank}/{line}"),
                                  {"flank": flank, "line": line, "units": {}, "rows": []})
        name = load_data().units[unit].name
        assert isinstance(count, int)
        squad["units"][name] = squad["units"].get(name, 0) + count
        squad["rows"].append(row.number)
        if manoeuvre != "none" and "manoeuvre" not in squad:
            squad["manoeuvre"] = {"type": manoeuvre}
            if target is not None:
                t_flank, t_line = target.split("/")
                squad["manoeuvre"].update(flank=t_flank, line=t_line)
    return {"role": role or OURS_ATTACK, "enemy": enemy, "squads": squads}, errors


def _spec(state: JadeRoseState, faction: str, parsed: Mapping[str, Any]) -> dict[str, Any]:
    ours, theirs = parsed["role"] == OURS_ATTACK, parsed["enemy"]

    def side(fid: str, who: str) -> dict[str, Any]:
        squads = [{k: v for k, v in s.items() if k != "rows"} for (w, _), s in sorted(parsed["squads"].items())
                  if w == who]
        out: dict[str, Any] = {"faction": fid, "squads": squads}
        grudges = state["factions"][fid].get("grudges")
        other = theirs if fid == faction else faction
        if isinstance(grudges, Mapping) and grudges.get(other):
            out["grudges"] = int(grudges[other])
        return out

    a, d = (side(faction, "ours"), side(theirs, "enemy")) if ours else (side(theirs, "enemy"), side(faction, "ours"))
    return {"ruleset": "jade_rose", "attacker": a, "defender": d}


def _pct(x: float) -> str:
    return f"{round(100 * x)} %"


def _num(x: float) -> str:
    return f"{x:.1f}".replace(".", ",")


def _table(odds: Mapping[str, Any], ours_role: str) -> Table:
    them = "defender" if ours_role == "attacker" else "attacker"
    rows: list[tuple[Any, ...]] = [
        ("Наша победа", _pct(odds[f"{ours_role}_win"]), "доля прогонов, в которых побеждаете вы"),
        ("Победа противника", _pct(odds[f"{them}_win"]), "ничья по раундам засчитывается защитнику"),
        ("Раундов в среднем", _num(odds["mean_rounds"]), "в самой долгой схватке боя"),
        ("Прогонов", odds["runs"], "бой разыгран столько раз с разными бросками"),
    ]
    for role, label in ((ours_role, "Наши потери"), (them, "Потери противника")):
        for name, n in sorted(odds["deployed"][role].items()):
            lost, dead, back = (odds[k][role][name] for k in ("losses", "deaths", "recovered"))
            rows.append((f"{label}: {name}", f"{_num(lost)} из {n}",
                         f"в среднем за бой: погибло {_num(dead)}, из них вернутся в строй ранеными {_num(back)}"))
    return Table(("Показатель", "Значение", "Пояснение"), tuple(rows))


EMPTY = Table(("Показатель", "Значение", "Пояснение"),
              (("Опишите бой во вкладке «Симулятор»", "", "свои отряды и отряды противника; "
                                                           "шансы появятся после проверки приказов"),))


class JadeRoseOdds:
    """The «Симулятор» tab: rows in, per-row statuses and the «Шансы» table out."""

    tab = TAB
    result_tab = RESULT_TAB

    def odds(self, state: Mapping[str, Any], faction: str,
             rows: Sequence[Row]) -> tuple[tuple[RowStatus, ...], Table]:
        game = jade_rose_state(state)
        rows = [r for r in rows if not r.is_blank()]
        if not rows:
            return (), EMPTY
        parsed, errors = _parse(game, faction, rows)
        statuses: Errors = dict(errors)
        sides = {w for w, _ in parsed["squads"]}
        table = EMPTY
        if sides != {"ours", "enemy"}:
            first = next((r.number for r in rows if r.number not in errors), rows[0].number)
            statuses.setdefault(first, []).append(OrderError("JR_SIM_ONE_SIDE", {}))
        else:
            spec = _spec(game, faction, parsed)
            seed = derive_seed("odds", canonical_json(spec))
            try:
                result = battle.simulate(spec, RUNS, seed)
            except BattleSpecError as exc:
                first = next(r.number for r in rows if r.number not in errors)
                statuses.setdefault(first, []).extend(OrderError("JR_SIM_BATTLE", {"problem": p}) for p in exc.problems)
            else:
                role = "attacker" if parsed["role"] == OURS_ATTACK else "defender"
                table = _table(result, role)
                if errors:
                    table = Table(table.columns, (*table.rows, ("Не учтены строки", ", ".join(map(str, sorted(errors))),
                                                                "в них ошибки: см. столбец «Статус»")))
        out = []
        for row in rows:
            errs = statuses.get(row.number, [])
            out.append(RowStatus(TAB, row.number, tuple(errs)))
        return tuple(out), table


def vocabularies(state: JadeRoseState, faction: str) -> dict[str, list[str]]:
    """Dropdowns of the «Симулятор» tab (flanks, lines, manoeuvres and positions come from the war tabs)."""
    data = load_data()
    return {"sim_sides": ["Атакуем", "Обороняемся", "Противник"],
            "other_factions": [str(f["name"]) for fid, f in state["factions"].items() if fid != faction],
            "all_units": list(dict.fromkeys(u.name for u in sorted(data.units.values(),
                                                                   key=lambda u: (u.faction != faction, u.tier))))}
