"""Battle simulator speed: runs per second of 100-vs-100 mixed battles and the 10 000-run wall time.

Two battles cover all four factions' units, manoeuvres (bombards, cover, defence, charges, swaps, free
moves) and specials (auras, healers, regeneration, lord, area hits, runes, golems, breath, forge, grudges).
The simulator splits the runs into chunks of 5 000 and runs them in parallel processes on the compiled
kernel (numba), which rolls the reference's dice. The kernel's first call (compiling it, or loading it from
numba's disk cache) is timed and reported on its own line, before and outside the timed runs.
Target (DESIGN.md): 10 000 runs in well under 2 s on 2 cores.
"""
from __future__ import annotations

import os
import time

EMPIRE_VS_VAMPIRES = {
    "ruleset": "jade_rose",
    "attacker": {"faction": "empire", "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Тяжёлый пехотинец": 18, "Герой": 1, "Паладин": 4},
         "manoeuvre": {"type": "defend", "flank": "left", "line": "rearguard"}},
        {"flank": "left", "line": "rearguard", "units": {"Лучник": 14},
         "manoeuvre": {"type": "bombard", "flank": "left", "line": "vanguard"}},
        {"flank": "center", "line": "vanguard", "units": {"Копейщик": 20, "Целитель": 4, "Архижрец": 1},
         "manoeuvre": {"type": "cover"}},
        {"flank": "center", "line": "rearguard", "units": {"Арбалетчик": 10},
         "manoeuvre": {"type": "bombard", "flank": "center", "line": "vanguard"}},
        {"flank": "right", "line": "vanguard", "units": {"Рыцарь": 8, "Всадник на грифоне": 6, "Всадник": 6},
         "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard"}},
        {"flank": "right", "line": "rearguard", "units": {"Крестоносец": 8},
         "manoeuvre": {"type": "none"}},
    ]},
    "defender": {"faction": "vampires", "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Полукровка": 30, "Лорд вампиров": 1},
         "manoeuvre": {"type": "cover"}},
        {"flank": "center", "line": "vanguard", "units": {"Новообращённый": 18, "Чистокровный": 5},
         "manoeuvre": {"type": "none"}},
        {"flank": "center", "line": "rearguard", "units": {"Костяная пушка": 4},
         "manoeuvre": {"type": "long_range_bombard", "flank": "left", "line": "rearguard"}},
        {"flank": "right", "line": "vanguard", "units": {"Рыцарь смерти": 10, "Вампирический упырь": 12},
         "manoeuvre": {"type": "defend", "flank": "right", "line": "rearguard"}},
        {"flank": "right", "line": "rearguard", "units": {"Чернокнижник": 20},
         "manoeuvre": {"type": "bombard", "flank": "right", "line": "vanguard"}},
    ]},
}

DWARVES_VS_JADE = {
    "ruleset": "jade_rose",
    "attacker": {"faction": "dwarves", "grudges": 3, "runes": 4, "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Длиннобород": 16, "Тан": 1, "Рунная гвардия": 5},
         "manoeuvre": {"type": "none"}},
        {"flank": "left", "line": "rearguard", "units": {"Арбалетчик": 10, "Требуше": 2},
         "manoeuvre": {"type": "bombard", "flank": "left", "line": "vanguard"}},
        {"flank": "center", "line": "vanguard", "units": {"Горняки": 37, "Младобород": 10, "Великий Голем": 3,
                                                          "Пивной элементаль": 1},
         "manoeuvre": {"type": "defend", "flank": "center", "line": "rearguard"}},
        {"flank": "center", "line": "rearguard", "units": {"Камнемёт": 4, "Арбалетчик": 6, "Инженер": 1},
         "manoeuvre": {"type": "none"}},
        {"flank": "right", "line": "vanguard", "units": {"Юный дракон Фрагулекс": 1, "Герой-мститель": 3},
         "manoeuvre": {"type": "charge", "flank": "right", "line": "rearguard",
                       "free_move": {"flank": "right", "line": "rearguard"}}},
    ]},
    "defender": {"faction": "jade_court", "forge_distance": 1, "squads": [
        {"flank": "left", "line": "vanguard", "units": {"Нефритовый воин": 16, "Нефритовый колосс": 1,
                                                        "Ополченец": 8},
         "manoeuvre": {"type": "none"}},
        {"flank": "left", "line": "rearguard", "units": {"Арбалеты чжугэ": 8},
         "manoeuvre": {"type": "bombard", "flank": "left", "line": "vanguard"}},
        {"flank": "center", "line": "vanguard", "units": {"Зелёные щиты": 14, "Нефритовая гвардия": 6,
                                                          "Нефритовый дракон": 1},
         "manoeuvre": {"type": "cover"}},
        {"flank": "center", "line": "rearguard", "units": {"Пушка 'Зелёный град'": 2, "Пращник": 10},
         "manoeuvre": {"type": "none"}},
        {"flank": "right", "line": "vanguard", "units": {"Нефритовый зверь": 8, "Всадник": 10},
         "manoeuvre": {"type": "charge", "flank": "center", "line": "rearguard"}},
        {"flank": "right", "line": "rearguard", "units": {"Пращник": 16},
         "manoeuvre": {"type": "bombard", "flank": "right", "line": "vanguard"}},
    ]},
}

BATTLES = {"Империя против вампиров": EMPIRE_VS_VAMPIRES, "Дворфы против Нефритового двора": DWARVES_VS_JADE}


def _count(side: dict) -> int:
    return sum(n for sq in side["squads"] for n in sq["units"].values())


def _kernel_line() -> str:
    """The kernel and how long its first call took (compile or load from cache)."""
    import numba

    from engine.jade_rose.battle import fast_compiled, fast_kernel
    start = time.perf_counter()
    fast_compiled.warm_up()
    first = time.perf_counter() - start
    stats = fast_kernel.run_chunk.stats
    if stats.cache_misses:
        how = "compiled now"
    else:
        how = "loaded from numba's cache" if stats.cache_hits else "already loaded"
    return f"kernel: compiled (numba {numba.__version__}); first call {first:.2f} s ({how}; not in the figures below)"


def main(runs: int = 10_000, seed: int = 1) -> dict:
    """Print and return runs/second and the wall time of `runs` runs for each benchmark battle."""
    from engine.jade_rose.battle import parse_spec
    from engine.jade_rose.battle.simulate import simulate_battle

    figures = {}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"battle simulator, {runs} runs per battle, {os.cpu_count()} CPU(s), load average {load:.2f} "
          "(other processes share these CPUs)")
    print("  " + _kernel_line())
    for title, spec in BATTLES.items():
        battle = parse_spec(spec)
        simulate_battle(battle, 200, seed)          # warm-up (imports, caches)
        start = time.perf_counter()
        out = simulate_battle(battle, runs, seed)
        wall = time.perf_counter() - start
        figures[title] = {"wall_s": wall, "runs_per_s": runs / wall, "attacker_win": out["attacker_win"],
                          "mean_rounds": out["mean_rounds"]}
        print(f"  {title} ({_count(spec['attacker'])} vs {_count(spec['defender'])}): "
              f"{runs} runs in {wall:.2f} s = {runs / wall:,.0f} runs/s "
              f"(attacker wins {out['attacker_win']:.3f}, {out['mean_rounds']:.1f} rounds)")
    return figures


if __name__ == "__main__":
    main()
