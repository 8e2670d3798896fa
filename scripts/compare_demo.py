"""Play `forumwar demo` from two source trees and compare what the two games wrote.

Usage (from the repository root), one of:
    python scripts/compare_demo.py --revert <commit> [--revert <commit> ...] [--after HEAD] [--turns N]
    python scripts/compare_demo.py --before <commit> [--after HEAD] [--swap engine/jade_rose]
                                   [--keep engine/jade_rose/battle] [--turns N] [--ruleset titania]

The "after" tree is `git archive <after>`. With `--revert`, the "before" tree is the same archive with the
changes of the given commits taken back (their diffs applied in reverse, newest first): exactly those
commits differ between the two trees, whatever else was committed around them. With `--before`, the
"before" tree is the "after" archive with every `--swap` path replaced by its version at `<before>`,
except the `--keep` paths, which stay as in "after" (e.g. someone else's engine/jade_rose/battle/).

Each tree plays the demo of each rule set (both by default) into its own folder
(`python -m sheets_bridge.cli demo --ruleset NAME`). Then every file
of the two game folders is compared: the same set of files; JSON, JSON lines, TOML and text files
(archived orders and statuses, state snapshots, journal) byte for byte; xlsx books and archives by
the values of every cell of every sheet (an xlsx file's bytes hold zip timestamps). The demo's
console output is compared too. Exit status 0 when everything is identical, 1 otherwise.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import openpyxl

ROOT = Path(__file__).resolve().parent.parent


def _git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True).stdout


def _extract(ref: str, dest: Path, paths: list[str] | None = None) -> None:
    """Write the files of `ref` (or only those under `paths`) into `dest`."""
    data = _git("archive", "--format=tar", ref, *(["--", *paths] if paths else []))
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")


def _replace(tree: Path, rel: str, source: Path) -> None:
    """Make `tree/rel` hold exactly what `source/rel` holds (removed when `source` has nothing there)."""
    target = tree / rel
    subprocess.run(["rm", "-rf", str(target)], check=True)
    if (source / rel).exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "-a", str(source / rel), str(target)], check=True)


def build_trees(work: Path, before: str, after: str, swap: list[str], keep: list[str]) -> tuple[Path, Path]:
    after_tree, before_tree, old = work / "after", work / "before", work / "old"
    for d in (after_tree, before_tree, old):
        d.mkdir()
    _extract(after, after_tree)
    _extract(after, before_tree)
    _extract(before, old)
    for rel in swap:
        _replace(before_tree, rel, old)
    for rel in keep:
        _replace(before_tree, rel, after_tree)
    return before_tree, after_tree


def build_reverted(work: Path, after: str, commits: list[str]) -> tuple[Path, Path]:
    after_tree, before_tree = work / "after", work / "before"
    for d in (after_tree, before_tree):
        d.mkdir()
    _extract(after, after_tree)
    _extract(after, before_tree)
    order = _git("rev-list", "--no-walk=sorted", *commits).decode().split()     # newest first
    for commit in order:
        patch = _git("diff", "--binary", f"{commit}^", commit)
        subprocess.run(["git", "apply", "-R", "--whitespace=nowarn", "-"], cwd=before_tree, input=patch, check=True)
    return before_tree, after_tree


def play(tree: Path, game: Path, ruleset: str, turns: int | None) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    more = ["--turns", str(turns)] if turns else []
    done = subprocess.run([sys.executable, "-m", "sheets_bridge.cli", "demo", str(game), "--ruleset", ruleset, *more],
                          cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"demo failed in {tree}:\n{done.stdout}\n{done.stderr}")
    return done.stdout.replace(str(game), "<game>")


def _cells(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path, data_only=False)
    return {ws.title: [tuple(row) for row in ws.iter_rows(values_only=True)] for ws in book.worksheets}


def _xlsx_difference(a: Path, b: Path) -> str | None:
    ca, cb = _cells(a), _cells(b)
    if list(ca) != list(cb):
        return f"sheets differ: {list(ca)} / {list(cb)}"
    for title in ca:
        if ca[title] != cb[title]:
            rows = [i + 1 for i, (x, y) in enumerate(zip(ca[title], cb[title], strict=False)) if x != y]
            extra = len(ca[title]) != len(cb[title])
            return f"sheet «{title}»: rows {rows[:10]} differ" + (" (and the row counts)" if extra else "")
    return None


# The lock's files, and the sheets' password (drawn at random even in a --seed game: no book shows it)
UNCOMPARED = (".lock", ".lock-holder.json", "xlsx-password.txt")


def _journal(path: Path) -> list[dict[str, Any]]:
    """The journal's entries without their clock times ("at"), which differ between any two runs."""
    return [{k: v for k, v in json.loads(line).items() if k != "at"}
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def compare(a: Path, b: Path) -> tuple[dict[str, int], list[str]]:
    """Counts of identical files by kind, and one line per difference."""
    files_a = {p.relative_to(a).as_posix() for p in a.rglob("*") if p.is_file() and p.name not in UNCOMPARED}
    files_b = {p.relative_to(b).as_posix() for p in b.rglob("*") if p.is_file() and p.name not in UNCOMPARED}
    problems = [f"only before: {f}" for f in sorted(files_a - files_b)]
    problems += [f"only after: {f}" for f in sorted(files_b - files_a)]
    same: dict[str, int] = {}
    for rel in sorted(files_a & files_b):
        kind = "xlsx (cell values)" if rel.endswith(".xlsx") else \
            ("state snapshots" if rel.startswith("state/") else Path(rel).suffix.lstrip(".") or "other")
        if rel.endswith(".xlsx"):
            why = _xlsx_difference(a / rel, b / rel)
        elif rel == "journal.jsonl":
            why = None if _journal(a / rel) == _journal(b / rel) else "entries differ (their times left out)"
        else:
            why = None if (a / rel).read_bytes() == (b / rel).read_bytes() else "bytes differ"
        if why:
            problems.append(f"{rel}: {why}")
        else:
            same[kind] = same.get(kind, 0) + 1
    return same, problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    how = parser.add_mutually_exclusive_group(required=True)
    how.add_argument("--revert", action="append", help="a commit whose change the 'before' tree takes back")
    how.add_argument("--before", help="commit whose --swap paths make the 'before' tree")
    parser.add_argument("--after", default="HEAD", help="commit of the 'after' tree (default HEAD)")
    parser.add_argument("--swap", action="append", help="path taken from --before (default engine/jade_rose)")
    parser.add_argument("--keep", action="append",
                        help="path under a --swap path kept as in --after (default engine/jade_rose/battle)")
    parser.add_argument("--turns", type=int, default=None, help="turns of each demo (default: the demo's own)")
    parser.add_argument("--ruleset", action="append", help="the rule sets whose demos are played (default: both)")
    parser.add_argument("--work", type=Path, help="folder for the trees and games (default: a temporary one)")
    args = parser.parse_args(argv)
    swap = args.swap or ["engine/jade_rose"]
    keep = args.keep if args.keep is not None else ["engine/jade_rose/battle"]
    with tempfile.TemporaryDirectory(prefix="compare-demo-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        if args.revert:
            before_tree, after_tree = build_reverted(work, args.after, args.revert)
            print(f"before: {args.after} with the changes of {', '.join(c[:10] for c in args.revert)} taken back")
        else:
            before_tree, after_tree = build_trees(work, args.before, args.after, swap, keep)
            print(f"before: {args.after} with {', '.join(swap)} from {args.before}"
                  + (f", keeping {', '.join(keep)} from {args.after}" if keep else ""))
        print(f"after:  {args.after}")
        problems: list[str] = []
        for ruleset in args.ruleset or ["jade_rose", "titania"]:
            out_before = play(before_tree, work / f"game-before-{ruleset}", ruleset, args.turns)
            out_after = play(after_tree, work / f"game-after-{ruleset}", ruleset, args.turns)
            same, found = compare(work / f"game-before-{ruleset}", work / f"game-after-{ruleset}")
            if out_before != out_after:
                found.append("the demo's console output differs")
            problems += [f"{ruleset}: {line}" for line in found]
            for kind, n in sorted(same.items()):
                print(f"{ruleset}: identical: {n} {kind} files")
            print(f"{ruleset}: console output: {'identical' if out_before == out_after else 'DIFFERENT'} "
                  f"({len(out_after.splitlines())} lines)")
        for line in problems:
            print(f"DIFFERENT: {line}")
        print("RESULT: identical" if not problems else f"RESULT: {len(problems)} differences")
        return 0 if not problems else 1


if __name__ == "__main__":
    raise SystemExit(main())
