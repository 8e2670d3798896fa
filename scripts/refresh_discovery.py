"""Fetch Google's current discovery documents for Sheets v4 and Drive v3 into the repo.

    python scripts/refresh_discovery.py

Writes tests/fake_google/discovery_documents/{sheets.v4,drive.v3}.json and the revision table of its
README.md, and prints each document's old and new revision. Needs the network; the tests never do.
"""
from __future__ import annotations

import json
import re
import sys
import urllib.request
from pathlib import Path

FOLDER = Path(__file__).resolve().parent.parent / "tests" / "fake_google" / "discovery_documents"
SOURCES = {"sheets.v4.json": "https://sheets.googleapis.com/$discovery/rest?version=v4",
           "drive.v3.json": "https://www.googleapis.com/discovery/v1/apis/drive/v3/rest"}


def _revision(path: Path) -> str:
    try:
        return str(json.loads(path.read_text(encoding="utf-8")).get("revision", "?"))
    except (OSError, ValueError):
        return "—"


def main() -> int:
    readme = FOLDER / "README.md"
    table = readme.read_text(encoding="utf-8")
    for name, url in SOURCES.items():
        with urllib.request.urlopen(url, timeout=60) as answer:   # noqa: S310 (fixed https URLs)
            document = json.loads(answer.read().decode("utf-8"))
        old = _revision(FOLDER / name)
        (FOLDER / name).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        new = str(document.get("revision", "?"))
        table = re.sub(rf"(\| {re.escape(name)} \|[^|]*\| )\S+( \|)", rf"\g<1>{new}\g<2>", table)
        print(f"{name}: revision {old} -> {new}")
    readme.write_text(table, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
