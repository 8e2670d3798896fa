"""Heavy modules are imported only by the commands that use them (issue 40, item 2): `forumwar status` of a Google
game (the CLI, the status view, the stage commands and the Google backend) imports neither openpyxl (nor numpy and
Pillow, which openpyxl imports), numba nor pandas. An xlsx game's status reads its books with openpyxl."""
from __future__ import annotations

import subprocess
import sys

from tests.paths import REPO

HEAVY = ("openpyxl", "numba", "PIL", "pandas", "numpy")
STATUS = ("sheets_bridge.cli", "sheets_bridge.status_view", "sheets_bridge.stage",
          "sheets_bridge.backends.gsheets.backend")


def test_the_status_of_a_google_game_imports_no_heavy_module() -> None:
    code = f"import sys\nimport {', '.join(STATUS)}\nprint(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
