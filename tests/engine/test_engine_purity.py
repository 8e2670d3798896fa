"""The engine is pure: no I/O packages, no printing, no clock, no global random state."""
import ast

import pytest

from tests.paths import REPO

ENGINE = REPO / "engine"
FORBIDDEN_MODULES = {"sheets_bridge", "gspread", "openpyxl", "pandas", "click", "requests", "google",
                     "socket", "urllib", "http", "subprocess", "time", "datetime", "secrets", "os"}
# The one module that may ask the machine something: whether numba's disk cache holds the compiled battle kernel
# (fast_compiled.kernel_ready, a stat of the cache's data file). It is a question about this computer's compiled
# code, asked before any game is touched; no rule, no state and no result depends on it.
MACHINE_PROBES = {"jade_rose/battle/fast_compiled.py": {"os"}}
FORBIDDEN_RANDOM = {"random", "randint", "choice", "shuffle", "seed", "uniform", "sample", "choices", "randrange"}


def engine_files():
    return sorted(ENGINE.rglob("*.py"))


def test_engine_has_modules():
    assert len(engine_files()) >= 5


@pytest.mark.parametrize("path", engine_files(), ids=lambda p: str(p.relative_to(ENGINE)))
def test_engine_module_is_pure(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = MACHINE_PROBES.get(path.relative_to(ENGINE).as_posix() if path.is_relative_to(ENGINE) else "", set())
    forbidden = FORBIDDEN_MODULES - allowed
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                assert alias.name.split(".")[0] not in forbidden, f"{path}: import {alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            assert top not in forbidden, f"{path}: from {node.module} import"
            if top == "random":
                names = {a.name for a in node.names}
                assert not names & FORBIDDEN_RANDOM, f"{path}: from random import {names}"
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("print", "input", "open"):
                raise AssertionError(f"{path}:{node.lineno}: calls {func.id}()")
            if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                    and func.value.id == "random" and func.attr in FORBIDDEN_RANDOM):
                raise AssertionError(f"{path}:{node.lineno}: global random.{func.attr}()")
            if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Attribute)
                    and func.attr in FORBIDDEN_RANDOM and getattr(func.value, "attr", "") == "random"
                    and isinstance(func.value.value, ast.Name) and func.value.value.id in ("np", "numpy")):
                raise AssertionError(f"{path}:{node.lineno}: global numpy random")


def test_checker_catches_a_forbidden_import(tmp_path):
    """The check above is real: a module importing openpyxl is refused."""
    bad = tmp_path / "bad.py"
    bad.write_text("import openpyxl\n")
    with pytest.raises(AssertionError):
        test_engine_module_is_pure(bad)
