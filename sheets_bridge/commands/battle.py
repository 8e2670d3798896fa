"""`forumwar battle FILE.json [--runs N] [--seed S] [--json] [--report] [--bbcode]`: a battle's odds over
many runs, or one battle's report; `forumwar battle --example`: the example file.

The first odds do not wait for a compiler. A rule set's fast path (Jade Rose: a numba kernel, compiled once
per machine in about 20 s of CPU, then loaded from numba's disk cache in under a second) is used only for
more runs than the plain path plays as quickly. When it is not ready, `play` has it prepared in a process of
its own (battle_warmup) and meanwhile plays the runs on the plain path; ESTIMATE_AFTER seconds in, it tells
a first estimate with its margin. Then it goes on with the plain path only if that is likely to finish
first: the runs left need no more CPU at the rate seen than the compile has left (COMPILE_CPU seconds of
CPU in all, as much of it done as the plain runs took, since both share the machine alike, however busy
it is). Else it waits for the preparation without taking a CPU from it: the fast path plays those runs in
a fraction of a second, and on a one-core or a busy machine the plain runs would only delay the compile.
Once the fast path is ready, it plays the runs left there. The figures printed at the end do not depend
on any of that: each run has its own seed, and both paths play it alike.

stdout holds only the result (with --json, only JSON); notices and the estimate go to stderr.
"""
from __future__ import annotations

import json
import math
import shutil
import sys
import time
from collections.abc import Callable, Mapping
from typing import IO, Any, Protocol

import click

from engine import find_ruleset, ruleset_names
from engine.ruleset import BattleSimulator, Ruleset
from sheets_bridge import battle_warmup
from sheets_bridge.cli_text import ReadableFile, decoded, runs_bar
from sheets_bridge.gameconfig import ruleset_problem

ESTIMATE_AFTER = 2.0    # seconds of plain runs before the first estimate is told
STEP = 5                # plain runs between two looks at the clock and the preparation
COMPILE_CPU = 20.0      # seconds of CPU the kernel's compile takes, about (issue 38 §6: 23 CPU-s)
LOOK = 0.25             # seconds between two looks at the preparation while waiting for it
Z95 = 1.96              # the normal quantile of a 95 % two-sided interval

FAST_WARMING = ("готовлю быстрый расчёт боёв в отдельном процессе (один раз на этом компьютере, обычно меньше "
                "минуты); пока разыгрываю бои обычным способом, первая оценка — через пару секунд")
FAST_WAITING = ("остальные бои быстрее разыграет быстрый расчёт: жду, когда он будет готов (обычно меньше минуты, "
                "на загруженном компьютере — дольше)…")
FAST_HERE = ("быстрый расчёт боёв не подготовился отдельно: готовлю его здесь (обычно меньше минуты, на загруженном "
             "компьютере — дольше)…")


class Warming(Protocol):
    def done(self) -> bool:
        """Whether the preparation has ended (well or not)."""

    def wait(self, seconds: float) -> None:
        """Return when the preparation has ended, or after `seconds` at most."""


def play(simulator: BattleSimulator, spec: Mapping[str, Any], runs: int, seed: int, *,
         say: Callable[[str], None], progress: Callable[[int], None],
         warm: Callable[[], Warming], clock: Callable[[], float] = time.monotonic,
         cpu: Callable[[], float] = time.process_time, estimate_after: float | None = None) -> dict[str, Any]:
    """The battle's odds over `runs` runs (the simulator's `simulate` figures, whatever the timing).

    The fast path is prepared only when the runs need it; if it is not ready, `warm()` starts preparing it
    elsewhere and the runs are played on the plain path until it is done (or they are all played): the
    first estimate is `say`d once `estimate_after` seconds (ESTIMATE_AFTER) of `clock` have passed; from
    then on the plain path goes on only if the runs left need no more `cpu` time at the rate seen than
    the compile has left (COMPILE_CPU less the `cpu` time the plain runs took), else `play` waits for the
    preparation. `progress` hears the runs as they are played. Raises SpecError as `simulate` does."""
    wait = ESTIMATE_AFTER if estimate_after is None else estimate_after
    session = simulator.runs(spec, runs, seed)
    if not session.needs_kernel or simulator.prepared():
        session.play_rest(progress=progress)
        return session.odds()
    warming = warm()
    say(FAST_WARMING)
    start, started, told, plain = clock(), cpu(), False, True
    while session.left and not warming.done():
        if not plain:
            warming.wait(LOOK)
            continue
        progress(session.play_plain(STEP))
        elapsed = clock() - start
        if not told and session.left and elapsed >= wait:
            say(estimate_line(session.odds(), session.runs))
            told = True
            used = cpu() - started
            plain = session.left * used / session.done <= COMPILE_CPU - used
            if not plain:
                say(FAST_WAITING)
    if session.left and not simulator.prepared():   # the preparation failed or could not keep its work
        say(FAST_HERE)
    session.play_rest(progress=progress)   # what the preparation left in the cache loads in under a second
    return session.odds()


def wilson(share: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share seen in `n` runs (sound near 0 and 1, unlike ±z·σ)."""
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def estimate_line(odds: Mapping[str, Any], runs: int) -> str:
    """The first estimate, from the runs played so far, with its 95 % interval."""
    n, share = int(odds["runs"]), float(odds["attacker_win"])
    low, high = wilson(share, n)
    return (f"первая оценка (разыграно {n} из {runs}): атакующий побеждает примерно в {share:.0%} боёв "
            f"(с вероятностью 95% — от {low:.0%} до {high:.0%}); уточняю…")


def _simulator_ruleset(name: str | None) -> Ruleset:
    """The rule set whose battle simulator to use: the named one, else the only one that has one."""
    if name:
        try:
            rs = find_ruleset(name)
        except KeyError as exc:
            raise click.BadParameter(str(ruleset_problem(name)), param_hint="--ruleset") from exc
        if rs.battle_simulator() is None:
            raise click.UsageError(f"у правил «{rs.title}» нет симулятора боя.")
        return rs
    able = [find_ruleset(n) for n in ruleset_names() if find_ruleset(n).battle_simulator() is not None]
    if len(able) != 1:
        raise click.UsageError("укажите правила: --ruleset " + " | ".join(r.name for r in able))
    return able[0]


class _Notices:
    """Lines on stderr that do not run into a progress bar drawn on the same terminal line."""

    def __init__(self, bar: Any):
        self.bar = bar

    def __call__(self, text: str) -> None:
        if self.bar is not None:            # clear the bar's line (no escape codes: any Windows console)
            width = max(20, shutil.get_terminal_size().columns - 1)
            sys.stderr.write("\r" + " " * width + "\r")
        click.echo(f"  {text}", err=True)


@click.command("battle")
@click.argument("file", type=ReadableFile("rb"), required=False)
@click.option("--ruleset", "ruleset_name", default=None,
              help="Правила боя (по умолчанию — поле «ruleset» файла или единственные правила с симулятором).")
@click.option("--runs", default=1000, show_default=True, type=click.IntRange(1, 10_000_000),
              help="Сколько раз разыграть бой.")
@click.option("--seed", default=1, show_default=True, type=int,
              help="Зерно случайности (один и тот же бой — тот же итог).")
@click.option("--json", "as_json", is_flag=True, help="Шансы в виде JSON.")
@click.option("--report", is_flag=True, help="Полный отчёт об одном бое (с --runs 1 — только он, без шансов).")
@click.option("--bbcode", is_flag=True, help="Отчёт в BBCode для форума.")
@click.option("--example", is_flag=True,
              help="Вывести пример файла боя, который поставляется с forumwar: сохраните его "
                   "(forumwar battle --example > бой.json) и впишите свои отряды.")
def battle(file: IO[bytes] | None, ruleset_name: str | None, runs: int, seed: int, as_json: bool, report: bool,
           bbcode: bool, example: bool) -> None:
    """Разыграть бой из JSON-файла ФАЙЛ много раз и показать шансы сторон (или отчёт об одном бое).

    \b
    Файл боя (полное описание с примером — docs/battle_file.md):
      ruleset        "jade_rose" (правила «Войны Нефритовой Розы»)
      skip_planning  true — бой без фазы планирования (манёвры не выполняются)
      city           {"name": "Мариенталь"} — город, за который бой
      attacker, defender — стороны: faction (Империя / empire, Вампиры / vampires,
                     Дворфы / dwarves, Нефритовый двор / jade), grudges и runes (дворфы),
                     forge_distance и plague (Нефритовый двор), squads — отряды
      squads         [{"flank": левый | центральный | правый (left | center | right),
                       "line": авангард | арьергард (vanguard | rearguard),
                       "units": {"Копейщик": 12},
                       "manoeuvre": {"type": натиск | обстрел | защита | ..., "flank", "line",
                                     "free_move": {"flank", "line"}},
                       "garrison": true — отряд из гарнизона города}]

    Больше 100 боёв разыгрываются быстрым способом; в первый раз на компьютере его готовит отдельный
    процесс, а пока бои разыгрываются обычным способом, и через пару секунд печатается первая оценка.

    Пример файла: forumwar battle --example > бой.json"""
    if example or file is None:
        if file is not None or not example:
            raise click.UsageError("укажите файл боя ФАЙЛ или --example (пример файла), но не то и другое вместе.")
        from sheets_bridge.layouts import templates_root
        rs = _simulator_ruleset(ruleset_name)
        click.echo(templates_root(rs.name).joinpath("battles", "example.json").read_text(encoding="utf-8"), nl=False)
        return
    try:
        spec = json.loads(decoded(file.read()))
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"{file.name}: это не JSON ({exc})") from exc
    named = spec.get("ruleset") if isinstance(spec, dict) and isinstance(spec.get("ruleset"), str) else None
    rs = _simulator_ruleset(ruleset_name or named)
    simulator = rs.battle_simulator()
    assert simulator is not None   # _simulator_ruleset picks only rule sets that have one
    from engine.errors import SpecError
    try:
        if report or bbcode:
            click.echo(simulator.report(spec, seed, bbcode=bbcode))
            if runs == 1:
                return
        with runs_bar(runs, "  Разыгрываю бои") as bar:
            result = play(simulator, spec, runs, seed, say=_Notices(bar),
                          progress=bar.update if bar is not None else lambda n: None,
                          warm=lambda: battle_warmup.start(rs.name))
    except SpecError as exc:
        for problem in exc.problems:
            click.echo(f"Ошибка: {problem}", err=True)
        sys.exit(1)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=False))
    else:
        click.echo(f"Разыграно боёв: {result['runs']} (зерно {result['seed']}). Атакующий побеждает в "
                   f"{result['attacker_win']:.1%} боёв, защитник — в {result['defender_win']:.1%}; "
                   f"в среднем раундов: {result['mean_rounds']:.1f}")
        for side, title in (("attacker", "атакующего"), ("defender", "защитника")):
            surv = ", ".join(f"{k} {v:.1f}" for k, v in result["survivors"][side].items())
            click.echo(f"  выжило у {title} (в среднем): {surv or '—'}")
