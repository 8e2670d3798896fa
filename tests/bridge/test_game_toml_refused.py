"""Issue 20 item 4: a bad game.toml is refused by every command, in Russian, naming the key, before
anything is written: an unknown or changed rule set, one book shared by two owners (a fog-of-war leak:
the Empire would see the Vampires' «Войска»), a faction the game does not know; and the remaining
English messages (a missing book file, an unknown rule set, broken TOML, a missing file) are Russian."""
from __future__ import annotations

import hashlib
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheets_bridge.backends.xlsx.backend import XlsxBackend
from sheets_bridge.cli import main
from sheets_bridge.gamedir import GameConfigError, GameDir
from tests.games import new_game

# Every command that takes a game folder, with the arguments that make it do its work.
COMMANDS = [["check"], ["turn"], ["status"], ["lock", "--force"], ["schedule"], ["export"],
            ["rollback", "--yes", "1"], ["replay", "1"], ["verify"], ["post"], ["charts"], ["share"],
            ["map", "-o", "{out}/map.png"]]


def _fingerprint(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return new_game(tmp_path_factory.mktemp("made") / "g", "jade_rose", seed="7").path


def _edit(game: Path, old: str, new: str) -> None:
    path = game / "game.toml"
    text = path.read_text(encoding="utf-8")
    assert re.search(old, text, flags=re.M), old
    path.write_text(re.sub(old, new, text, count=1, flags=re.M), encoding="utf-8")


BROKEN = {
    "unknown rule set": (r'^ruleset = "jade_rose"', 'ruleset = "chess"', ["ruleset", "chess", "jade_rose", "titania"]),
    "another rule set": (r'^ruleset = "jade_rose"', 'ruleset = "titania"',
                         ["ruleset", "titania", "jade_rose", "менять нельзя"]),
    "two factions, one book": (r'^vampires = "books/vampires.xlsx"', 'vampires = "books/empire.xlsx"',
                               ["books.empire", "books.vampires", "своя книга"]),
    "a faction and the GM, one book": (r'^gm = "books/gm.xlsx"', 'gm = "books/./dwarves.xlsx"',
                                       ["books.dwarves", "books.gm", "своя книга"]),
    "a faction the game lacks": (r"^\[factions.jade\]", "[factions.elves]", ["factions.elves", "нет такой фракции"]),
    "not TOML": (r"^timezone = .*$", 'timezone = "Europe/Moscow', ["синтаксиса TOML", "в строке"]),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_every_command_refuses_a_bad_game_toml_and_writes_nothing(made: Path, tmp_path: Path, case: str) -> None:
    old, new, words = BROKEN[case]
    for command in COMMANDS:
        game = tmp_path / command[0]

        shutil.copytree(made, game)
        _edit(game, old, new)
        before = _fingerprint(game)
        args = [a.replace("{out}", str(tmp_path)) for a in command[1:]]
        result = CliRunner().invoke(main, [command[0], str(game), *args])
        assert result.exit_code == 1, (command, result.output)
        assert not (tmp_path / "map.png").exists()
        assert "game.toml" in result.output, (command, result.output)
        for word in words:
            assert word in result.output, (command, word, result.output)
        assert "Traceback" not in result.output and "unknown ruleset" not in result.output
        assert _fingerprint(game) == before, command


def test_the_same_book_twice_is_refused_by_the_game_folder_itself(made: Path, tmp_path: Path) -> None:
    game = tmp_path / "g"

    shutil.copytree(made, game)
    _edit(game, r'^vampires = "books/vampires.xlsx"', 'vampires = "books/empire.xlsx"')
    with pytest.raises(GameConfigError) as caught:
        GameDir(game).config   # noqa: B018 - reading it is the check
    assert any("books.empire и books.vampires" in p for p in caught.value.problems)


def test_a_missing_book_file_is_named_in_russian_with_what_to_do(made: Path, tmp_path: Path) -> None:
    game = tmp_path / "g"

    shutil.copytree(made, game)
    (game / "books" / "empire.xlsx").unlink()
    result = CliRunner().invoke(main, ["check", str(game)])
    assert result.exit_code == 1
    assert "нет файла книги" in result.output and "верните" in result.output
    assert "not found" not in result.output and "book id" not in result.output


def test_an_unknown_rule_set_at_new_is_russian(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["new", str(tmp_path / "g"), "--ruleset", "titanya"])
    assert result.exit_code == 2
    assert "нет правил «titanya»; известны: " in result.output
    known = result.output.split("известны: ", 1)[1].splitlines()[0].split(", ")
    # every shipped rule set, with its title (a test's toy rule set registered in this process may be listed too)
    assert {"jade_rose («Война Нефритовой Розы»)", "titania («Титания»)"} <= set(known)
    assert "unknown ruleset" not in result.output and not (tmp_path / "g").exists()


def test_a_missing_battle_file_is_russian(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["battle", str(tmp_path / "x.json")])
    assert result.exit_code == 2
    assert "такого файла нет" in result.output and "No such file" not in result.output


def test_export_of_a_missing_book_is_russian(made: Path, tmp_path: Path) -> None:
    be = XlsxBackend(made)
    with pytest.raises(Exception, match="нет файла книги"):
        be.export_xlsx("books/nobody.xlsx", str(tmp_path / "x.xlsx"))
