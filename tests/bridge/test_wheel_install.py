"""The built wheel works as a GM installs it: in a fresh virtual environment, from an empty folder.

One module fixture builds the wheel from a copy of the checkout (so the checkout gets no build/ folder),
creates a venv outside the checkout and pip-installs the wheel there with its dependencies; the tests
then run the installed `forumwar` from empty temporary folders, where the source tree cannot be found.
Cost is kept small: pip's own installer is reused for the new venv (`pip --python`, no ensurepip), the
build skips build isolation when setuptools and wheel are at hand, pip's cache serves the wheels and
`--no-compile` skips byte-compiling every dependency (measured: install 21 s -> 6 s): the tool's runs
write the .pyc of what they import, so the first run compiles it and the later ones reuse it (this
machine sets PYTHONDONTWRITEBYTECODE, which the runs drop: with it, every run compiled all its modules
again, 5 s each).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import venv
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from tests.paths import REPO

pytestmark = pytest.mark.long

ROOT = REPO
SKIP = shutil.ignore_patterns(".git", ".venv", "venv", "games", "build", "dist", "*.egg-info", "__pycache__",
                              ".pytest_cache", ".hypothesis", ".mypy_cache", "credentials.json")


def _pip(*args: str, timeout: int = 900) -> None:
    cmd = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(cmd)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"


def _can_build_in_place() -> bool:
    """Whether this interpreter has the build backend pyproject.toml asks for (then skip build isolation)."""
    try:
        setuptools = metadata.version("setuptools")
        metadata.version("wheel")
    except metadata.PackageNotFoundError:
        return False
    return int(setuptools.split(".")[0]) >= 68


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    shutil.copytree(ROOT, src, ignore=SKIP)
    dist = base / "dist"
    _pip("wheel", "--no-deps", *(["--no-build-isolation"] if _can_build_in_place() else []),
         "-w", str(dist), str(src))
    wheel_file = next(dist.glob("forumwar-*.whl"))
    env_dir = base / "v"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    _pip("--python", str(python), "install", "--no-compile", str(wheel_file))  # .pyc written on first use
    return {"wheel": wheel_file, "python": python, "forumwar": env_dir / "bin" / "forumwar"}


def _tool_env() -> dict[str, str]:
    """The environment of a GM's shell: no checkout on the path, byte code written as Python does by default."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}


def _run(tool: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([str(tool), *args], cwd=cwd, capture_output=True, text=True, timeout=600, env=_tool_env())
    assert done.returncode == 0, f"forumwar {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


def test_wheel_holds_every_data_file_of_the_source_tree(installed: dict[str, Path]) -> None:
    wanted = {p.relative_to(ROOT).as_posix() for pattern in ("engine/**/data/*.toml", "templates/**/*.toml",
                                                             "templates/**/*.json", "sheets_bridge/fonts/*")
              for p in ROOT.glob(pattern)}
    with zipfile.ZipFile(installed["wheel"]) as whl:
        names = set(whl.namelist())
    assert "templates/jade_rose/scenarios/demo.toml" in wanted
    assert wanted - names == set()


def test_wheel_holds_no_test_code(installed: dict[str, Path]) -> None:
    """Issue 21 item 2: the fake Google and its pytest plugin live in the tests, out of the wheel."""
    with zipfile.ZipFile(installed["wheel"]) as whl:
        names = whl.namelist()
    assert any(n.startswith("sheets_bridge/backends/gsheets/") for n in names)
    leaked = [n for n in names if n.startswith(("tests/", "sheets_bridge/testing/")) or "fake_google" in n
              or "discovery_plugin" in n]
    assert leaked == []


@pytest.mark.skipif(os.environ.get("FORUMWAR_FULL_TESTS") != "1",
                    reason="make test-full: installs the wheel in a fresh environment (the wheel's files are checked "
                           "in every run)")
def test_installed_tool_starts_a_gm_scenario_plays_a_stage_and_a_battle_from_an_empty_folder(
        installed: dict[str, Path], tmp_path: Path) -> None:
    """From an empty folder, with the source tree out of reach: a game from the GM's own scenario file
    in another folder, one stage of it, and a battle from the example file."""
    tool = installed["forumwar"]
    own = tmp_path / "мои сценарии"
    own.mkdir()
    text = (ROOT / "templates" / "jade_rose" / "scenarios" / "demo.toml").read_text(encoding="utf-8")
    (own / "весна.toml").write_text('title = "Весенняя кампания"\n' + text, encoding="utf-8")
    work = tmp_path / "empty"
    work.mkdir()
    where = subprocess.run([str(installed["python"]), "-c", "import sheets_bridge, templates; "
                            "print(sheets_bridge.__file__); print(templates.__file__)"],
                           cwd=work, capture_output=True, text=True, check=True, env=_tool_env()).stdout
    assert str(ROOT) not in where and str(installed["python"].parents[1]) in where

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert version in _run(tool, "--version", cwd=work).stdout

    _run(tool, "new", "g", "--ruleset", "jade_rose", "--scenario", "../мои сценарии/весна.toml",
         "--backend", "xlsx", "--seed", "wheel-test", cwd=work)
    config = tomllib.loads((work / "g" / "game.toml").read_text(encoding="utf-8"))
    assert config["scenario"] == "весна" and config["title"] == "Весенняя кампания"
    assert len(list((work / "g").rglob("*.xlsx"))) == 6  # four factions, the public book, the GM's
    _run(tool, "turn", "g", "--yes", cwd=work)   # nobody typed orders: a script says so
    after = json.loads(_run(tool, "status", "g", "--json", cwd=work).stdout)
    assert (after["turn"], after["stage"]) == (2, "orders"), "no battles: the turn's one stage resolved"

    example = _run(tool, "battle", "--example", cwd=work).stdout
    (work / "бой.json").write_text(example, encoding="utf-8")
    odds = json.loads(_run(tool, "battle", "бой.json", "--runs", "50", "--json", cwd=work).stdout)
    assert odds["runs"] == 50
    assert abs(odds["attacker_win"] + odds["defender_win"] - 1) < 1e-9
