"""Issue 11 item 6: the GM's console in natural Russian. Every command's --help, click's own usage
errors, and the console of `check` and `turn` on a small xlsx game speak Russian with display names
(factions, stages, books), never internal ids; item 4: `battle --help` and docs/battle_file.md
document the battle file, and the doc's example is the shipped one and plays."""
from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from sheets_bridge import cli_text
from sheets_bridge.cli import main
from sheets_bridge.create import create_game
from sheets_bridge.demo import fill_orders
from sheets_bridge.layouts import templates_root

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "battle_file.md"
# click's English boilerplate (what its gettext strings print untranslated)
BOILERPLATE = ["Usage:", "Options:", "Commands:", "Show this message and exit", "[default:", "[required]",
               "[OPTIONS]", "COMMAND [ARGS]", "Error:", "Missing argument", "No such option", "TEXT", "INTEGER",
               "FILENAME", "DIRECTORY", "GAME_DIR", "TURN_NO"]


def _commands(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    out = [prefix]
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            out += _commands(cmd, (*prefix, name))
        else:
            out.append((*prefix, name))
    return out


def _cyrillic_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    return sum("а" <= c.lower() <= "я" or c in "ёЁ" for c in letters) / len(letters)


COMMANDS = _commands(main)


def test_every_command_is_listed():
    names = {c[-1] for c in COMMANDS if c}
    assert {"new", "check", "turn", "status", "battle", "export", "map", "post", "adjudicate", "ruleset",
            "dump", "list", "verify", "rollback"} <= names


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c) or "forumwar")
def test_help_is_russian_with_no_click_boilerplate(command):
    result = CliRunner().invoke(main, [*command, "--help"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert text.startswith("Вызов: forumwar")
    assert "Параметры:" in text and "Показать эту справку и выйти." in text
    for english in BOILERPLATE:
        assert english not in text, (command, english)
    assert _cyrillic_share(text) > 0.5, text


def test_defaults_and_required_marks_are_russian():
    new_help = CliRunner().invoke(main, ["new", "--help"]).output
    assert "[по умолчанию: demo]" in new_help and "[обязательно]" in new_help


def test_unknown_option_is_a_russian_usage_error_with_exit_code_2():
    result = CliRunner().invoke(main, ["check", "--foo"])
    assert result.exit_code == 2
    assert "Ошибка: Нет параметра «--foo»." in result.output
    assert "Вызов: forumwar check [ПАРАМЕТРЫ] ИГРА" in result.output
    assert "Справка: forumwar check --help" in result.output


def test_missing_argument_is_a_russian_usage_error_with_exit_code_2():
    result = CliRunner().invoke(main, ["turn"])
    assert result.exit_code == 2
    assert "Ошибка: Не указан аргумент 'ИГРА'." in result.output


def test_bad_values_and_unknown_commands_are_explained_in_russian(tmp_path):
    runner = CliRunner()
    runs = runner.invoke(main, ["battle", "--runs", "много"])
    assert runs.exit_code == 2 and "Неверное значение '--runs': «много» — не число." in runs.output
    missing = runner.invoke(main, ["status", str(tmp_path / "нет")])
    assert missing.exit_code == 2 and "такого пути нет" in missing.output
    typo = runner.invoke(main, ["chek"])
    assert typo.exit_code == 2 and "Нет команды «chek». Может быть, 'check'?" in typo.output
    choice = runner.invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "jade_rose", "--backend", "excel"])
    assert choice.exit_code == 2 and "«excel» — не одно из 'xlsx', 'gsheets'." in choice.output


@pytest.mark.parametrize(("n", "form"), [(1, 0), (21, 0), (2, 1), (4, 1), (22, 1), (5, 2), (11, 2), (12, 2),
                                         (14, 2), (25, 2), (111, 2), (0, 2)])
def test_russian_plural_forms(n, form):
    assert cli_text.russian_form(n) == form


def test_the_catalogue_translates_every_string_click_prints():
    """Every message click marks for translation in the modules it prints from is in the catalogue,
    except its developer errors (raised at definition time, never shown to a GM)."""
    import ast
    developer = {"Could not determine name for option with declarations {decls!r}",
                 "Arguments take exactly one parameter declaration, got {length}: {decls}.",
                 "Name '{name}' defined twice", "Boolean option {decl!r} cannot use the same flag for true/false.",
                 "No options defined but a name was passed ({name}). Did you mean to declare an argument instead? "
                 "Did you mean to pass '--{name}'?", "Unknown color {colour!r}", "Unknown standard stream '{name}'",
                 "DeprecationWarning: The command {name!r} is deprecated.{extra_message}",
                 "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}",
                 "{editor}: Editing failed", "{editor}: Editing failed: {e}", "d",
                 "Couldn't detect Bash version, shell completion is not supported.",
                 "Shell completion is not supported for Bash versions older than 4.4."}
    root = Path(click.__file__).parent
    missing = []
    for name in cli_text.CLICK_MODULES:
        for node in ast.walk(ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            texts = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if node.func.id == "_" and texts and texts[0] not in cli_text.CATALOG and texts[0] not in developer:
                missing.append(texts[0])
            if node.func.id == "ngettext" and len(texts) == 2 and tuple(texts) not in cli_text.PLURALS:
                missing.append(texts[0])
    assert missing == []


# -- the console of check and turn ----------------------------------------------------------

@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A new xlsx game, one good and one bad row in the Empire's economy, then check and turn."""
    gd = create_game(tmp_path_factory.mktemp("ru") / "игра", "jade_rose", "demo", backend="xlsx", seed="ru-console")
    state = gd.latest_state()
    capital = next(c["name"] for c in state["cities"].values() if c["owner"] == "empire" and c.get("capital"))
    fill_orders(gd.path / gd.config.books["empire"], "Экономика",
                [("Построить", capital, "Барак", ""), ("Нанять", "", "Копейщик", "пять")])
    runner = CliRunner()
    check = runner.invoke(main, ["check", str(gd.path)])
    turn = runner.invoke(main, ["turn", str(gd.path)])
    return check, turn


IDS = re.compile(r"\b(empire|vampires|dwarves|jade|orders|planning|gm|public|checked|ok|rows|problem)\b")


def test_check_names_factions_books_and_stage_by_display_name(played):
    check, _ = played
    assert check.exit_code == 0, check.output
    assert "Ход 1, этап «приказы»: приказы проверены" in check.stdout
    assert "  Империя: строк без ошибок 1, с ошибками 1" in check.stdout
    assert "Книга мастера" in check.stdout
    assert "проверена книга 1 из 5:" in check.stderr               # the progress counter, on stderr only
    assert IDS.findall(check.output) == []


def test_turn_names_factions_books_and_stages_by_display_name(played):
    _, turn = played
    assert turn.exit_code == 0, turn.output
    assert re.search(r"^Ход 1, этап «приказы» рассчитан; теперь ход \d, этап «(приказы|планирование боёв)»\.$",
                     turn.stdout, re.M)
    assert "  Империя: приказов принято 1, отклонено 1" in turn.stdout
    assert "ход 1, этап «приказы»: читаю приказы" in turn.stderr
    assert "обновлена книга 6 из 6:" in turn.stderr
    console = "\n".join(line for line in turn.output.splitlines() if not line.startswith("Архив: "))
    assert IDS.findall(console) == [], turn.output


# -- the battle file -----------------------------------------------------------------------

def test_battle_help_points_to_the_doc_and_names_the_main_fields():
    text = CliRunner().invoke(main, ["battle", "--help"]).output
    assert "docs/battle_file.md" in text and "forumwar battle --example" in text
    for field in ("ruleset", "skip_planning", "city", "attacker", "defender", "faction", "squads", "flank", "line",
                  "units", "manoeuvre", "free_move", "garrison", "grudges", "runes", "forge_distance", "plague"):
        assert field in text, field


def test_the_doc_describes_every_field_and_is_linked_from_the_readme():
    doc = DOC.read_text(encoding="utf-8")
    for field in ("ruleset", "skip_planning", "city", "attacker", "defender", "faction", "grudges", "runes",
                  "forge_distance", "plague", "squads", "flank", "line", "units", "manoeuvre", "type", "free_move",
                  "garrison", "--runs", "--seed", "--report", "--bbcode", "--example", "--json"):
        assert f"`{field}`" in doc, field
    assert "docs/battle_file.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_docs_example_is_the_shipped_file_and_plays(tmp_path):
    doc = DOC.read_text(encoding="utf-8")
    example = json.loads(doc.split("```json\n", 1)[1].split("```", 1)[0])
    shipped = json.loads(templates_root("jade_rose").joinpath("battles", "example.json").read_text(encoding="utf-8"))
    assert example == shipped
    path = tmp_path / "бой.json"
    path.write_text(json.dumps(example, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["battle", str(path), "--runs", "20"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Разыграно боёв: 20 (зерно 1). Атакующий побеждает в ")
    as_json = CliRunner().invoke(main, ["battle", str(path), "--runs", "20", "--json"])
    assert json.loads(as_json.stdout)["runs"] == 20          # --json stays machine-readable (nothing else on stdout)


def test_each_spelling_the_doc_lists_is_accepted(tmp_path):
    """The Russian spellings of the doc's tables parse: «центр», «арьергард», «натиск», «Дворфы»…"""
    spec = {"attacker": {"faction": "Империя", "squads": [
                {"flank": "центр", "line": "авангард", "units": {"Копейщики": 10}},
                {"flank": "правый", "line": "авангард", "units": {"Рыцарь": 3},
                 "manoeuvre": {"type": "натиск", "flank": "центр", "line": "арьергард"}}]},
            "defender": {"faction": "Дворфы", "grudges": 2, "runes": 3, "squads": [
                {"flank": "центральный", "line": "vanguard", "units": {"Младобород": 10}, "garrison": True,
                 "manoeuvre": "в укрытие"},
                {"flank": "c", "line": "rearguard", "units": {"Младобород": 4}}]},
            "city": {"name": "Кхазад"}}
    path = tmp_path / "бой.json"
    path.write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(main, ["battle", str(path), "--runs", "5"])
    assert result.exit_code == 0, result.output
