"""`forumwar schedule`: the game's stage schedule in Russian, the open stage's deadline, crontab lines."""
from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

from engine import find_ruleset
from engine.russian import agree
from sheets_bridge import deadlines, schedule
from sheets_bridge.backends import kind as backend_kind
from sheets_bridge.gamedir import GameDir

EARLY_EVERY = 10                    # minutes between two cron checks of an all-ready stage
REMINDER_FILE = "напоминание.bbcode"   # where the cron line of [schedule] reminder writes the post


def forumwar_command() -> str:
    """How cron should call forumwar: the script beside this Python (a venv's), else the one on PATH,
    else this Python with the CLI module."""
    beside = Path(sys.executable).with_name("forumwar")
    found = str(beside) if beside.is_file() else shutil.which("forumwar")
    return shlex.quote(found) if found else f"{shlex.quote(sys.executable)} -m sheets_bridge.cli"


def cron_text(gd: GameDir, command: str | None = None) -> str:
    """The crontab lines for `check` and `lock` of this game, output appended to GAME/cron.log."""
    rs = find_ruleset(gd.config.ruleset)
    rules = deadlines.rules(gd)
    game = gd.path.resolve()
    log = shlex.quote(str(game / "cron.log"))
    base = command or forumwar_command()

    def run(what: str) -> str:
        return f"{base} {what} {shlex.quote(str(game))} >> {log} 2>&1"

    titles = {s: rs.stage_title(s) for s in rs.stages}
    lines = [f"# forumwar: игра «{gd.config.title}» ({game}); сроки — по поясу {gd.config.timezone}"]
    lines += backend_kind(gd.config.backend).cron_notes
    lines += schedule.cron_lines(rules, rs.stages, titles, gd.config.timezone, run("check"), run("lock"))
    if gd.config.early:
        lines += [f"# Рассчитать этап до срока, когда все фракции с игроками скажут «Приказы готовы» "
                  f"([schedule] early = true): проверка каждые {agree(EARLY_EVERY, 'минута')}.",
                  f"*/{EARLY_EVERY} * * * * {run('turn --if-ready')}"]
    if gd.config.reminder_hours is not None:
        reminder = game / REMINDER_FILE
        lines += [f"# Напоминание игрокам за {agree(gd.config.reminder_hours, 'час')} до срока ([schedule] reminder): "
                  f"пост для форума появится в {reminder} (раз за этап).",
                  f"*/10 * * * * {base} post --reminder --before {gd.config.reminder_hours} -o "
                  f"{shlex.quote(str(reminder))} {shlex.quote(str(game))} >> {log} 2>&1"]
    return "\n".join(lines)


def schedule_text(gd: GameDir, cron: bool) -> str:
    """The schedule as the GM reads it, or (with `cron`) the crontab lines."""
    if not gd.config.schedule and not cron:
        return ("В game.toml нет расписания. Добавьте, например:\n\n[schedule]\norders = \"Sunday 20:00\"\n"
                "planning = \"+48h\"\n\nи время в поясе timezone (сейчас " + gd.config.timezone + ").")
    if cron:
        if not gd.config.schedule and not gd.config.early:
            return ("# В game.toml нет [schedule]: сроков нет, закрывать вкладки по cron нечему.\n"
                    "# Добавьте расписание (forumwar schedule покажет пример).")
        return cron_text(gd)
    rs = find_ruleset(gd.config.ruleset)
    rules = deadlines.rules(gd)
    lines = [f"Расписание (пояс {gd.config.timezone}):"]
    for stage in rs.stages:
        rule = rules.get(stage)
        lines.append(f"  {rs.stage_title(stage)}: {rule.describe() if rule else 'без срока'}")
    if gd.config.early:
        lines.append("Досрочно: этап, где все фракции с игроками сказали «Приказы готовы», можно рассчитать до "
                     f"срока (forumwar turn --if-ready; в cron — каждые {agree(EARLY_EVERY, 'минута')}).")
    if gd.config.reminder_hours is not None:
        lines.append(f"Напоминание игрокам: за {agree(gd.config.reminder_hours, 'час')} до срока "
                     "(forumwar post ИГРА --reminder; в cron — в файл, раз за этап).")
    state = gd.latest_state()
    if state["stage"] != "finished":
        clock = deadlines.clock(gd, state, tuple(rs.stages))
        now = deadlines.now_utc()
        left = f", {clock.left_text(now)}" if clock.deadline else ""
        lines.append(f"Сейчас: ход {state['turn']}, этап «{rs.stage_title(state['stage'])}»; "
                     f"срок — {clock.deadline_text()}{left}.")
    return "\n".join(lines)
