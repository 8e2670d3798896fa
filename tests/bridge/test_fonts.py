"""The pictures' type ships with forumwar (issue 40 item 4): DejaVu Sans regular and bold, with their licence,
in sheets_bridge/fonts, read from the package; matplotlib (which once shipped the files) is not needed."""
from __future__ import annotations

import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import sheets_bridge
from sheets_bridge import map_drawing
from tests.paths import REPO

FONTS = Path(sheets_bridge.__file__).parent / "fonts"


def test_the_font_files_and_their_licence_live_in_the_package():
    assert sorted(p.name for p in FONTS.iterdir()) == ["DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "LICENSE"]
    for bold, name in map_drawing.FONT_FILES.items():
        assert map_drawing._font_file(bold) == (FONTS / name).read_bytes()
        assert (FONTS / name).read_bytes()[:4] == b"\x00\x01\x00\x00"        # a TrueType file
    licence = (FONTS / "LICENSE").read_text(encoding="utf-8")
    assert "Bitstream Vera" in licence and "DejaVu changes are in public domain" in licence


def test_the_package_data_of_pyproject_takes_the_fonts_and_the_licence_into_the_wheel():
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["sheets_bridge"]
    for path in FONTS.iterdir():
        assert any(fnmatch(f"fonts/{path.name}", pattern) for pattern in patterns), path.name


def test_matplotlib_is_no_dependency_and_the_type_renders_without_it(monkeypatch: pytest.MonkeyPatch):
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert not any(dep.lower().startswith("matplotlib") for dep in config["project"]["dependencies"])
    monkeypatch.setitem(sys.modules, "matplotlib", None)       # `import matplotlib` would fail here
    map_drawing._font_file.cache_clear()
    map_drawing.font.cache_clear()
    try:
        width, height = map_drawing.text_size("Новгород", 8.5)
        assert width > 0 and height > 0
        assert map_drawing.font(12.0, bold=True).getname() == ("DejaVu Sans", "Bold")
        assert map_drawing.font(12.0).getname() == ("DejaVu Sans", "Book")
    finally:
        map_drawing._font_file.cache_clear()
        map_drawing.font.cache_clear()
